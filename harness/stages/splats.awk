# harness/stages/scan: every splat on the kernel console as one failures.tsv line:
# kind, its first line, the function it happened in (RIP) and the first
# functions of its call trace. awk -v OFS='\t'
function kind(l) {
	if (l ~ /Kernel panic - not syncing/) return "panic"
	if (l ~ /BUG: (soft|hard)? ?lockup/ || l ~ /INFO: task .* blocked for more than/) return "hung-task"
	if (l ~ /rcu.*(self-detected )?stall/) return "rcu-stall"
	if (l ~ /possible (circular|recursive) locking|inconsistent lock state|lock held when returning/) return "lockdep"
	if (l ~ /kernel BUG at|BUG: /) return "bug"
	if (l ~ /Oops|general protection fault|unable to handle/) return "oops"
	if (l ~ /^WARNING: /) return "warn"
	if (l ~ /UBSAN:/) return "ubsan"
	if (l ~ /XFS \(.*\): (Corruption|Metadata corruption|Internal error|.*shutdown)|EXT4-fs error|EXT4-fs \(.*\): .*(corrupt|error)/) return "fs-error"
	return ""
}
# The same splat again (a task still hung at the next check, a WARN_ON in a
# loop) is one failure with a count: the key is the line without its numbers.
function flush(   d, key) {
	if (k == "") return
	d = first (rip != "" ? " | RIP: " rip : "") (trace != "" ? " | trace: " trace : "")
	key = k d; gsub(/[0-9]+/, "N", key)
	if (!(key in seen)) { order[++nk] = key; text[key] = k OFS d }
	seen[key]++
	k = ""
}
{ sub(/^\[ *[0-9.]+\] /, "") }
/---\[ end trace/ { flush(); next }
{
	n = kind($0)
	if (n != "") {
		# "BUG: kernel NULL pointer dereference" is followed by its "Oops:" line
		if (k == "bug" && n == "oops" && lines < 8) { lines++; next }
		flush(); k = n; first = $0; rip = ""; trace = ""; nt = 0; intrace = 0; lines = 0
		next
	}
	if (k == "") next
	if (++lines > 60) { flush(); next }
	if (match($0, /RIP: [0-9a-f]+:[A-Za-z_][A-Za-z0-9_.]*/) || match($0, /RIP: [A-Za-z_][A-Za-z0-9_.]*\+/)) {
		r = substr($0, RSTART + 5, RLENGTH - 5); sub(/^[0-9a-f]+:/, "", r); sub(/\+$/, "", r); rip = r
	}
	if ($0 ~ /Call Trace:/) { intrace = 1; next }
	# the frames that report the failure, not the ones that made it, are skipped
	if (intrace && nt < 5 && $0 !~ /^ *\? / && match($0, /[A-Za-z_][A-Za-z0-9_.]*\+0x/)) {
		f = substr($0, RSTART, RLENGTH - 3)
		if (f !~ /^(_*dump_stack|show_stack|panic|_*schedule$|schedule_timeout|io_schedule$|_*warn|report_bug|handle_bug|exc_|asm_exc_|do_error_trap|do_trap|_*die|oops_|_*bad_area|do_user_addr_fault|kernelmode_fixup|page_fault_oops|sched_show_task)/)
			trace = trace (nt++ ? " < " : "") f
	}
}
END {
	flush()
	for (i = 1; i <= nk; i++) print text[order[i]] (seen[order[i]] > 1 ? " (" seen[order[i]] " times)" : "")
}
