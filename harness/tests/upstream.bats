#!/usr/bin/env bats
# harness/stages/upstream: a series' patches checked as a stable reviewer
# checks them (rules.tsv) and diffed against upstream and a stable backport
# (interdiff.tsv). A small git repo stands in for mainline: commit A ("vfs:
# fix X"), a merge M and a follow-up F ("Fixes: <A>"); the patches are A as
# git format-patch mails it, put in the stable tree's forms.

# shellcheck disable=SC2154 # (file-wide) $stderr: set by bats's run --separate-stderr
load helpers

# stable_patch COMMIT LINE: COMMIT as format-patch mails it, LINE at the top
# of its body (none when empty) and a sender's sign-off below upstream's tags
stable_patch() {
	git -C "$UP" format-patch -1 --stdout "$1" |
		awk -v line="$2" '!top && /^$/ { top = 1; print; if (line != "") print line "\n"; next }
			/^---$/ && !done { print "Signed-off-by: Stable Sender <sender@example.org>"; done = 1 } { print }'
}

setup_file() {
	export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
	export GIT_COMMITTER_NAME=Committer GIT_COMMITTER_EMAIL=committer@example.org
	export GIT_AUTHOR_DATE='2018-12-03 00:00:00 +0000' GIT_COMMITTER_DATE='2018-12-03 00:00:00 +0000'
	export UP=$BATS_FILE_TMPDIR/mainline P=$BATS_FILE_TMPDIR/p
	mkdir -p "$UP/fs" "$P"
	git -C "$UP" init -q -b master
	seq 1 30 | sed 's/^/line /' > "$UP/fs/a.c"
	seq 1 10 | sed 's/^/b line /' > "$UP/fs/b.c"
	echo c > "$UP/fs/c.c"
	ci() { git -C "$UP" add -A && GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2 git -C "$UP" commit -q -m "$3"; }
	ci Base base@example.org "init"
	sed -i 's/^line 3$/fixed line 3/; s/^line 25$/fixed line 25/' "$UP/fs/a.c"
	sed -i 's/^b line 5$/fixed b line 5/' "$UP/fs/b.c"
	ci 'Jane Dev' jane@example.org "$(printf '%s\n' 'vfs: fix X' '' 'X was broken.' '' \
		'Signed-off-by: Jane Dev <jane@example.org>' 'Reviewed-by: Rev Iewer <rev@example.org>' \
		'Signed-off-by: Main Tainer <maint@example.org>')"
	export A=$(git -C "$UP" rev-parse HEAD)
	git -C "$UP" checkout -q -b side
	echo side > "$UP/fs/side.c"; ci 'Side Dev' side@example.org 'vfs: side change'
	git -C "$UP" checkout -q master
	echo c2 > "$UP/fs/c.c"; ci 'Other Dev' other@example.org "$(printf '%s\n' 'vfs: other change' '' 'Signed-off-by: Other Dev <other@example.org>')"
	export O=$(git -C "$UP" rev-parse HEAD)
	GIT_AUTHOR_NAME=Linus GIT_AUTHOR_EMAIL=linus@example.org git -C "$UP" merge -q --no-ff -m "Merge branch 'side'" side
	export M=$(git -C "$UP" rev-parse HEAD)
	sed -i 's/^line 10$/fixed line 10/' "$UP/fs/a.c"
	ci 'Jane Dev' jane@example.org "$(printf '%s\n' 'vfs: fix the fix of X' '' \
		"Fixes: ${A:0:12} (\"vfs: fix X\")" 'Signed-off-by: Jane Dev <jane@example.org>')"
	export F=$(git -C "$UP" rev-parse HEAD)

	stable_patch "$A" "commit $A upstream." > "$P/good.patch"
	stable_patch "$A" "commit ${A:0:12} upstream." > "$P/short.patch"
	sed "s/$A/$M/" "$P/good.patch" > "$P/merge.patch"
	sed 's/^Subject: \[PATCH\] vfs: fix X$/Subject: [PATCH] vfs: fix Y/' "$P/good.patch" > "$P/subject.patch"
	stable_patch "$A" "" > "$P/noline.patch"
	sed '/^Signed-off-by: Main Tainer/d' "$P/good.patch" > "$P/nosob.patch"
	sed 's/^+fixed line 25$/+fixed line 25, as 4.19 has it/' "$P/good.patch" > "$P/port.patch"
	sed 's|fs/b\.c|fs/old/b.c|g' "$P/good.patch" > "$P/moved.patch"
	stable_patch "$F" "commit $F upstream." > "$P/f.patch"
	stable_patch "$O" "commit $O upstream." > "$P/o.patch"
	# STABLE_REF: A with another subject (found by its id), F without an id (by its subject)
	mkdir "$P/ref"
	stable_patch "$A" "[ Upstream commit $A ]" | sed 's/^Subject: .*/Subject: [PATCH 4.19 1\/2] vfs: fix X in 4.19/' > "$P/ref/0001-a.patch"
	stable_patch "$F" "" > "$P/ref/0002-f.patch"
	cat "$P/ref/0001-a.patch" "$P/ref/0002-f.patch" > "$P/ref.mbox"
}

setup() {
	sg_setup
	O_=$BATS_TEST_TMPDIR/out
}

# upstream PATCH...: the stage on $P's patches, into $O_; its exit status must be 0
upstream() { (cd "$P" && "$H/stages/upstream" "$O_" "$@"); }
# rule PATCH RULE: "result<TAB>detail" of each of PATCH's rows for RULE
rule() { awk -F'\t' -v p="$1" -v r="$2" '$1 == p && $2 == r { print $3 "\t" $4 }' "$O_/rules.tsv"; }
# against PATCH AGAINST: its interdiff.tsv row from ref on
against() { awk -F'\t' -v p="$1" -v a="$2" '$1 == p && $2 == a' "$O_/interdiff.tsv" | cut -f3-; }
T='	'

@test "a good stable patch passes every rule, and the commit that fixes its upstream commit is a follow-up" {
	UPSTREAM_GIT=$UP upstream good.patch
	cat "$O_/rules.tsv"
	[ "$(head -n 1 "$O_/rules.tsv")" = "patch${T}rule${T}result${T}detail" ]
	[ "$(rule good.patch upstream-line)" = "pass${T}commit $A upstream." ]
	[ "$(rule good.patch full-id)" = "pass${T}$A" ]
	[ "$(rule good.patch author)" = "pass${T}Jane Dev <jane@example.org>" ]
	[ "$(rule good.patch subject)" = "pass${T}vfs: fix X" ]
	[ "$(rule good.patch sender-signoff)" = "pass${T}Stable Sender <sender@example.org>" ]
	[ "$(rule good.patch commit-exists)" = "pass${T}$A" ]
	[ "$(rule good.patch not-merge)" = "pass${T}one parent" ]
	[ "$(rule good.patch subject-matches)" = "pass${T}vfs: fix X" ]
	[ "$(rule good.patch author-matches)" = "pass${T}Jane Dev <jane@example.org>" ]
	[ "$(rule good.patch upstream-signoffs)" = "pass${T}all 3 in the patch" ]
	[ "$(rule good.patch follow-ups)" = "info${T}${F:0:12} (\"vfs: fix the fix of X\")" ]
	[ -z "$(rule good.patch fixes)" ]	# it has no Fixes: tag
	! cut -f3 "$O_/rules.tsv" | grep -qx 'fail\|unchecked' || false
	# the rules in the stage's order
	[ "$(cut -f2 "$O_/rules.tsv" | tail -n +2 | tr '\n' ' ')" = "upstream-line full-id author subject sender-signoff commit-exists not-merge subject-matches author-matches upstream-signoffs follow-ups " ]
}

@test "a stable mail: its in-body From: is the author, RFC 2047 words and folded headers are read, the last sign-off is the sender's" {
	{ printf 'From: Greg Kroah-Hartman <gregkh@example.org>\nSubject: [PATCH 4.19 076/243] =?UTF-8?q?vfs:_fix_X?=\n =?UTF-8?B?IMO8?=\n\n'
	  printf 'From: =?UTF-8?q?Jane_D=C3=A9v?= <jane@example.org>\n\n[ Upstream commit %s ]\n\n' "$A"
	  sed -n '/^X was broken/,$p' "$P/good.patch"; } > "$P/mail.patch"
	UPSTREAM_GIT=$UP upstream mail.patch
	[ "$(rule mail.patch author)" = "pass${T}Jane Dév <jane@example.org>" ]
	[ "$(rule mail.patch subject)" = "pass${T}vfs: fix X ü" ]
	[ "$(rule mail.patch upstream-line)" = "pass${T}[ Upstream commit $A ]" ]
	[ "$(rule mail.patch sender-signoff)" = "pass${T}Stable Sender <sender@example.org>" ]
	[ "$(rule mail.patch author-matches)" = "fail${T}upstream Jane Dev <jane@example.org>, patch Jane Dév <jane@example.org>" ]
	[ "$(rule mail.patch upstream-signoffs)" = "pass${T}all 3 in the patch" ]
}

@test "a 12-hex id fails full-id, and commit-exists says which commit it is" {
	UPSTREAM_GIT=$UP upstream short.patch
	[ "$(rule short.patch upstream-line)" = "pass${T}commit ${A:0:12} upstream." ]
	[ "$(rule short.patch full-id)" = "fail${T}12 hex digits: ${A:0:12}" ]
	[ "$(rule short.patch commit-exists)" = "pass${T}${A:0:12} is $A" ]
	[ "$(rule short.patch subject-matches)" = "pass${T}vfs: fix X" ]
}

@test "a patch that names a merge commit fails not-merge, and is not diffed against it" {
	UPSTREAM_GIT=$UP upstream merge.patch
	[ "$(rule merge.patch commit-exists)" = "pass${T}$M" ]
	[ "$(rule merge.patch not-merge)" = "fail${T}a merge: 2 parents" ]
	[ "$(against merge.patch upstream)" = "$M$T-$T-$T-$T-$T${T}a merge: not compared" ]
}

@test "a subject other than upstream's fails subject-matches, naming both" {
	UPSTREAM_GIT=$UP upstream subject.patch
	[ "$(rule subject.patch subject)" = "pass${T}vfs: fix Y" ]
	[ "$(rule subject.patch subject-matches)" = "fail${T}upstream \"vfs: fix X\", patch \"vfs: fix Y\"" ]
}

@test "a patch without an upstream line fails upstream-line with 'no upstream commit', and nothing is looked up" {
	UPSTREAM_GIT=$UP upstream noline.patch
	[ "$(rule noline.patch upstream-line)" = "fail${T}no upstream commit" ]
	[ "$(rule noline.patch full-id)" = "unchecked${T}no upstream commit id" ]
	[ "$(rule noline.patch commit-exists)" = "unchecked${T}no upstream commit id to look up" ]
	[ -z "$(rule noline.patch not-merge)" ]
	[ "$(against noline.patch upstream)" = "-$T-$T-$T-$T-$T${T}no upstream commit id to compare with" ]
}

@test "a patch that dropped one of upstream's Signed-off-by fails upstream-signoffs, naming it" {
	UPSTREAM_GIT=$UP upstream nosob.patch
	[ "$(rule nosob.patch upstream-signoffs)" = "fail${T}missing 1 of 3: Signed-off-by: Main Tainer <maint@example.org>" ]
	[ "$(rule nosob.patch sender-signoff)" = "pass${T}Stable Sender <sender@example.org>" ]
}

@test "a patch that carries only upstream's sign-offs fails sender-signoff" {
	sed '/^Signed-off-by: Stable Sender/d' "$P/good.patch" > "$P/unsent.patch"
	UPSTREAM_GIT=$UP upstream unsent.patch
	[ "$(rule unsent.patch sender-signoff)" = "fail${T}no sender's sign-off: the last one, Main Tainer <maint@example.org>, is upstream's" ]
}

@test "interdiff: the good patch matches upstream in every hunk, and its .diff is empty" {
	UPSTREAM_GIT=$UP upstream good.patch
	cat "$O_/interdiff.tsv"
	[ "$(head -n 1 "$O_/interdiff.tsv")" = "patch${T}against${T}ref${T}matched${T}differ${T}dropped${T}added${T}files${T}summary" ]
	[ "$(against good.patch upstream)" = "$A${T}3${T}0${T}0${T}0${T}${T}matches upstream (3 hunks)" ]
	[ -f "$O_/interdiff/good.upstream.diff" ] && [ ! -s "$O_/interdiff/good.upstream.diff" ]
}

@test "interdiff: a port with one hunk changed differs from upstream in 1 hunk, and its .diff shows the line" {
	UPSTREAM_GIT=$UP upstream port.patch
	[ "$(against port.patch upstream)" = "$A${T}2${T}1${T}0${T}0${T}fs/a.c${T}differs from upstream in 1 hunk: fs/a.c" ]
	grep -qx -- '-+fixed line 25, as 4.19 has it' "$O_/interdiff/port.upstream.diff"
	grep -qx -- '++fixed line 25' "$O_/interdiff/port.upstream.diff"
	! grep -q '^[-+]@@ -[0-9]' "$O_/interdiff/port.upstream.diff" || false	# line numbers blanked
}

@test "interdiff: a file under another path is not mapped: one hunk added, one dropped" {
	UPSTREAM_GIT=$UP upstream moved.patch
	[ "$(against moved.patch upstream)" = "$A${T}2${T}0${T}1${T}1${T}fs/old/b.c,fs/b.c${T}differs from upstream: 1 added: fs/old/b.c; 1 dropped: fs/b.c" ]
}

@test "STABLE_REF as a directory: counterparts by upstream id and by subject; a patch without one is named" {
	UPSTREAM_GIT=$UP STABLE_REF=$P/ref upstream good.patch f.patch o.patch
	cat "$O_/interdiff.tsv"
	[ "$(against good.patch stable)" = "0001-a.patch${T}3${T}0${T}0${T}0${T}${T}matches the stable backport (3 hunks)" ]
	[ "$(against f.patch stable)" = "0002-f.patch${T}1${T}0${T}0${T}0${T}${T}matches the stable backport (1 hunk)" ]
	[ "$(against o.patch stable)" = "-$T-$T-$T-$T-$T${T}no counterpart in STABLE_REF" ]
	[ ! -e "$O_/interdiff/o.stable.diff" ] && [ ! -s "$O_/interdiff/good.stable.diff" ]
	[ "$(grep -c "${T}upstream$T" "$O_/interdiff.tsv")" -eq 3 ]
	# the follow-up of A is in the series; F's own Fixes:, and its target in UPSTREAM_GIT
	[ "$(rule good.patch follow-ups)" = "info${T}${F:0:12} (\"vfs: fix the fix of X\"), carried: f.patch" ]
	[ "$(rule f.patch fixes)" = "info${T}${A:0:12} (\"vfs: fix X\")" ]
	[ "$(rule f.patch fixes-target)" = "info${T}${A:0:12} (\"vfs: fix X\")" ]
	[ "$(rule f.patch follow-ups)" = "info${T}none" ]
}

@test "STABLE_REF as an mbox: split into OUTDIR/stable-ref, counterparts by upstream id and by subject" {
	port=$BATS_TEST_TMPDIR/port.patch
	sed 's/^+fixed line 10$/+fixed line 10, as 4.19 has it/' "$P/f.patch" > "$port"
	STABLE_REF=$P/ref.mbox upstream good.patch "$port"
	cat "$O_/interdiff.tsv"
	[ "$(ls "$O_/stable-ref")" = "$(printf '0001.patch\n0002.patch')" ]
	[ "$(against good.patch stable)" = "stable-ref/0001.patch${T}3${T}0${T}0${T}0${T}${T}matches the stable backport (3 hunks)" ]
	[ "$(against port.patch stable)" = "stable-ref/0002.patch${T}0${T}1${T}0${T}0${T}fs/a.c${T}differs from the stable backport in 1 hunk: fs/a.c" ]
	grep -qx -- '-+fixed line 10, as 4.19 has it' "$O_/interdiff/port.stable.diff"
	[ "$(grep -c "${T}upstream$T" "$O_/interdiff.tsv")" -eq 0 ]
}

@test "without UPSTREAM_GIT: the form checks, one unchecked upstream-git row per patch, interdiff.tsv only its header" {
	upstream good.patch short.patch
	[ "$(rule good.patch upstream-git)" = "unchecked${T}UPSTREAM_GIT not set: id, subject, author, sign-off chain and follow-ups not looked up" ]
	[ "$(rule short.patch full-id)" = "fail${T}12 hex digits: ${A:0:12}" ]
	[ "$(grep -c "${T}upstream-git$T" "$O_/rules.tsv")" -eq 2 ]
	[ -z "$(rule good.patch commit-exists)" ]
	[ "$(wc -l < "$O_/interdiff.tsv")" -eq 1 ]
}

@test "a hostile patch: \$(cmd) in its Subject and Fixes:, an option as its id: nothing runs, no file is written, rows fail" {
	v=$BATS_TEST_TMPDIR
	mail_patch "$P/hostile.patch" "[PATCH] \$(touch $v/pwned) \`touch $v/pwned2\`" \
		"commit --output=$v/x upstream.\n\nFixes: --output=$v/y (\"\$(touch $v/pwned)\")\nFixes: \$(touch $v/pwned)\nStable-dep-of: -c core.pager=touch\nSigned-off-by: A U Thor <a@example.org>" \
		"--- a/\$(touch $v/pwned)\n+++ b/\$(touch $v/pwned)\n@@ -1 +1 @@\n-a\n+b\n"
	mail_patch "$P/hostile2.patch" 'x' "[ Upstream commit --output=$v/z ]\n\nSigned-off-by: A U Thor <a@example.org>" \
		"--- a/fs/a.c\n+++ b/fs/a.c\n@@ -1 +1 @@\n-a\n+b\n"
	UPSTREAM_GIT=$UP STABLE_REF=$P/ref upstream hostile.patch hostile2.patch
	cat "$O_/rules.tsv"
	for f in pwned pwned2 x y z; do [ ! -e "$v/$f" ]; done
	[ ! -e "$O_/pwned" ] && [ ! -e "$P/pwned" ]
	[ "$(rule hostile.patch upstream-line)" = "fail${T}not an upstream commit id: commit --output=$v/x upstream." ]
	[ "$(rule hostile.patch subject)" = "pass${T}\$(touch $v/pwned) \`touch $v/pwned2\`" ]
	[ "$(rule hostile.patch fixes | cut -f1 | sort -u)" = fail ]
	[ "$(rule hostile.patch fixes | head -n 1)" = "fail${T}not a commit id: --output=$v/y (\"\$(touch $v/pwned)\")" ]
	[ "$(rule hostile.patch stable-dep-of)" = "fail${T}not a commit id: -c core.pager=touch" ]
	[ "$(rule hostile2.patch upstream-line)" = "fail${T}no upstream commit id: [ Upstream commit --output=$v/z ]" ]
	[ "$(rule hostile2.patch commit-exists)" = "unchecked${T}no upstream commit id to look up" ]
	# every row has its four fields
	[ "$(awk -F'\t' 'NF != 4' "$O_/rules.tsv")" = "" ]
}

@test "UPSTREAM_GIT is only read: a clone owned by another user is looked up (safe.directory), and nothing in it changes" {
	u=$BATS_TEST_TMPDIR/clone
	git clone -q --no-local "$UP" "$u"
	# what a clone's own config could make git run: none of it runs
	printf '#!/bin/sh\ntouch "%s"\n' "$BATS_TEST_TMPDIR/hooked" > "$u/.git/hooks/hook"
	chmod +x "$u/.git/hooks/hook"
	for h in post-checkout post-index-change reference-transaction; do ln -s hook "$u/.git/hooks/$h"; done
	for c in core.fsmonitor core.pager diff.external; do git -C "$u" config "$c" "$u/.git/hooks/hook"; done
	chown -R nobody "$u"
	before=$(cd "$u" && find . -printf '%P %s %T@\n' | sort | sha256sum)
	UPSTREAM_GIT=$u upstream good.patch
	[ "$(rule good.patch commit-exists)" = "pass${T}$A" ]
	[ "$(rule good.patch follow-ups)" = "info${T}${F:0:12} (\"vfs: fix the fix of X\")" ]
	[ "$(cd "$u" && find . -printf '%P %s %T@\n' | sort | sha256sum)" = "$before" ]
	[ ! -e "$BATS_TEST_TMPDIR/hooked" ]
}

@test "UPSTREAM_GIT that is not a git repository: one error line, exit 2, no output" {
	bats_require_minimum_version 1.5.0
	mkdir "$BATS_TEST_TMPDIR/notgit"
	UPSTREAM_GIT=$BATS_TEST_TMPDIR/notgit run --separate-stderr "$H/stages/upstream" "$O_" "$P/good.patch"
	[ "$status" -eq 2 ]
	[ "$stderr" = "stablegate: upstream: error: UPSTREAM_GIT=$BATS_TEST_TMPDIR/notgit: not a git repository" ]
	[ ! -e "$O_/rules.tsv" ]
}

@test "the 4.19 and 4.14 series against the real stable mails: 07d19dc9fbe9 and b450672fb66b match the stable backport" {
	for b in 4.19 4.14; do
		(cd "$ROOT" && STABLE_REF=backports/$b/candidates/stable-$b.y "$H/stages/upstream" "$O_/$b" backports/$b/0*.patch)
		[ "$(grep -c "${T}stable${T}0.*${T}matches the stable backport" "$O_/$b/interdiff.tsv")" -eq 2 ]
		grep -q "vfs-avoid-problematic-remapping.*${T}stable${T}0001-vfs-avoid-problematic-remapping-requests-into-partial-EOF-block.patch${T}2${T}0${T}0${T}0${T}" "$O_/$b/interdiff.tsv"
		grep -q "iomap-sub-block-dio.*${T}stable${T}0002-iomap-sub-block-dio-needs-to-zeroout-beyond-EOF.patch${T}1${T}0${T}0${T}0${T}" "$O_/$b/interdiff.tsv"
	done
	# the notes the series write instead of an id fail as a reviewer would have them
	[ "$(awk -F'\t' '$1 ~ /^0005-/ && $2 == "full-id" { print $3 "\t" $4 }' "$O_/4.19/rules.tsv")" = "fail${T}12 hex digits: 8c110d43c6bc" ]
	[ "$(awk -F'\t' '$2 == "upstream-line" && $3 == "fail"' "$O_/4.19/rules.tsv" | cut -f1 | cut -c1-4 | tr '\n' ' ')" = "0006 0007 " ]
}
