# harness/stages/series: FAILED.txt, a patch that does not apply, in the shape of
# the stable bot's reject mail (subject "FAILED: patch ... failed to apply
# to <branch>-stable tree", the statement, the commands to reproduce, the
# possible dependencies, then the patch itself).
# awk -v branch=6.1 -v tree="linux-source-6.1 6.1.192-3" -v reject="fs/a.c (Hunk #1 FAILED at 12)"
#     -v patch=0001-x.patch -v rerun="make branch=6.1 validate SERIES=..." -f failed-mail.awk PATCH
# The upstream id is the patch's "[ Upstream commit <id> ]" or
# "commit <id> upstream" line; its dependencies are its Stable-dep-of: and
# Depends-on: trailers.
function flush_subject() { if (insubj) { insubj = 0; sub(/^\[[^]]*\][ \t]*/, "", subject) } }
/^Subject: / && subject == "" { subject = substr($0, 10); insubj = 1; body[++n] = $0; next }
insubj && /^[ \t]/ { sub(/^[ \t]+/, " "); subject = subject $0; body[++n] = $0; next }
{ flush_subject() }
upstream == "" && match($0, /[Uu]pstream commit [0-9a-f]+/) {
	upstream = substr($0, RSTART, RLENGTH); sub(/.* /, "", upstream)
}
upstream == "" && /^commit [0-9a-f]+ upstream/ { upstream = $2 }
/^(Stable-dep-of|Depends-on):/ { deps[++nd] = $0 }
{ body[++n] = $0 }
END {
	flush_subject()
	if (subject == "") subject = patch
	stable = (branch == "mainline") ? "mainline" : branch "-stable"
	printf "Subject: FAILED: patch \"[PATCH] %s\" failed to apply to %s tree\n\n", subject, stable
	printf "The patch below does not apply to the %s tree (%s).\n", stable, tree
	printf "stablegate applied it with patch -p1 -F0 (no fuzz): %s\n", patch
	printf "does not apply to %s.\n\n", reject
	printf "To reproduce the conflict and resubmit, you may use the following commands:\n\n"
	if (branch != "mainline") {
		printf "git fetch https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/ linux-%s.y\n", branch
		printf "git checkout FETCH_HEAD\n"
	}
	printf "git cherry-pick -x %s\n", (upstream != "" ? upstream : "<the upstream commit: the patch names none>")
	printf "# <resolve conflicts, build, test, etc.>\n"
	printf "git commit -s\n"
	printf "git send-email --to '<stable@vger.kernel.org>' --subject-prefix 'PATCH %s.y' HEAD^..\n\n", branch
	printf "or, against the tree stablegate used:\n\n%s\n\n", rerun
	printf "Possible dependencies:\n\n"
	if (nd == 0) printf "none named in the patch (no Stable-dep-of: or Depends-on: trailer)\n"
	for (i = 1; i <= nd; i++) print deps[i]
	printf "\n------------------ the patch ------------------\n"
	for (i = 1; i <= n; i++) print body[i]
}
