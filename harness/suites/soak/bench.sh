#!/bin/sh
# bench.sh - build sg-soak, run a fixed seed on a host tmpfs dir and a disk dir,
# and print executed ops and ops/s (of time spent in the op) per op type.
# Environment: SEED, OPS, TMPFS_DIR (default /dev/shm), DISK_DIR (default /tmp).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
SEED=${SEED:-20181203}
OPS=${OPS:-100000}
TMPFS_DIR=${TMPFS_DIR:-/dev/shm}
DISK_DIR=${DISK_DIR:-/tmp}

make -s -C "$here" sg-soak
disk=$(findmnt -n -o FSTYPE -T "$DISK_DIR" 2>/dev/null | tr -c "A-Za-z0-9_.\n-" _) || true
[ -n "$disk" ] || disk=disk
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
"$here/sg-soak" --fs "tmpfs:$TMPFS_DIR" --fs "$disk:$DISK_DIR" --seed "$SEED" --ops "$OPS" >"$out" || rc=$?

echo "sg-soak bench: seed=$SEED ops=$OPS tmpfs=$TMPFS_DIR $disk=$DISK_DIR ($(uname -r))"
table=$(mktemp)
trap 'rm -f "$out" "$table"' EXIT
awk '
/^# soak-stats / || /^# soak-rates / {
	kind = $2 == "soak-stats" ? "n" : "r"
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "name") { name = kv[2]; if (!(name in seen)) { seen[name] = 1; names[++nn] = name } continue }
		if (kind == "n" && kv[1] == "ops") { tot[name] = kv[2]; continue }
		if (kind == "n" && kv[1] == "secs") { secs[name] = kv[2]; continue }
		if (kind == "n" && kv[1] == "ops_per_sec") { rate[name] = kv[2]; continue }
		if (!(kv[1] in isop)) { isop[kv[1]] = 1; ops[++no] = kv[1] }
		v[kind, name, kv[1]] = kv[2]
	}
}
END {
	printf "%-12s", "op"
	for (j = 1; j <= nn; j++) printf " %12s %12s", names[j] " ops", names[j] " ops/s"
	printf "\n"
	for (i = 1; i <= no; i++) {
		printf "%-12s", ops[i]
		for (j = 1; j <= nn; j++) printf " %12s %12s", v["n", names[j], ops[i]], v["r", names[j], ops[i]]
		printf "\n"
	}
	printf "%-12s", "TOTAL"
	for (j = 1; j <= nn; j++) printf " %12s %12s", tot[names[j]], rate[names[j]]
	printf "\n%-12s", "secs"
	for (j = 1; j <= nn; j++) printf " %12s %12s", secs[names[j]], ""
	printf "\n"
}' "$out" | tee "$table"

# Against the reference (same seed and ops, measured on this kind of machine):
# the ops/s of each column as a percentage of the reference's.
REF=${REF:-$here/bench.ref}
if [ -f "$REF" ]; then
	echo "vs reference $(basename "$REF") (100% = same ops/s; $(sed -n 's/^# //p' "$REF" | head -n 1)):"
	awk 'NR == FNR { if ($1 !~ /^#/) for (i = 2; i <= NF; i++) ref[$1, i] = $i; next }
	FNR == 1 { printf "%-12s", "op"; for (i = 2; i <= NF; i += 4) printf " %12s", $i " ops/s"; printf "\n"; next }
	$1 == "secs" { next }
	{ printf "%-12s", $1
	  for (i = 3; i <= NF; i += 2) printf " %11s%%", (ref[$1, i] > 0 ? int(100 * $i / ref[$1, i] + 0.5) : "-")
	  printf "\n" }' "$REF" "$table"
fi
grep -E '^(not ok|# note)' "$out" || true
exit "$rc"
