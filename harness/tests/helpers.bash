# Shared by the .bats files: load helpers

# fake_repo NAME CONF: a copy of the repo's harness and data in
# $BATS_TEST_TMPDIR/repo ($R) with one extra branch NAME whose branch.conf is
# "name=NAME" plus CONF: adding a branch is data only.
fake_repo() {
	R=$BATS_TEST_TMPDIR/repo
	mkdir -p "$R"
	cp -r "$ROOT/harness" "$ROOT/backports" "$ROOT/mainline" "$R/"
	mkdir -p "$R/backports/$1"
	printf '%s\n' "name=$1" "$2" > "$R/backports/$1/branch.conf"
}
