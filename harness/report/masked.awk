# harness/report/report: why a patch flips no case, from the series' NOTES.md.
# In a "### NNNN ..." section (NNNN: the patch's number in the series), a
# paragraph starting "Flips: **none, masked**" gives the reason: the rest of
# that paragraph. Prints "NNNN<TAB>reason" per such patch. awk -f
/^#/ { cur = ""; inm = 0 }
/^### [0-9][0-9][0-9][0-9]([ -]|$)/ { cur = substr($2, 1, 4); next }
cur != "" && /^Flips: \*\*none, masked\*\*/ {
	inm = 1; l = $0
	sub(/^Flips: \*\*none, masked\*\*[:,]? */, "", l)
	why[cur] = l; next
}
/^[[:space:]]*$/ { inm = 0; next }
inm { why[cur] = why[cur] " " $0 }
END { for (k in why) print k "\t" why[k] }
