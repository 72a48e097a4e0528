# stablegate settings: every environment variable the harness reads, with
# its default, in one place (README.md "Settings" is the same list for users;
# harness/tests/harness.bats checks the two agree). Sourced by settings.sh, and by
# the guest's init from the initramfs. A value set in the environment (or on
# the make command line) wins; an empty one means "the default" as well.
# Each comment starts with the [RULE] of what the setting takes, which
# settings.sh's sg_check_settings checks a value against as every stage starts:
#   [uint]  [uint>0]  [uint>=N]  a whole number (decimal), at least 0, 1, N
#   [a|b|c]  one of these words       [path]  an existing file or directory
#   [text]  anything                  [RULE...]  space separated, each RULE
#   [profile]  a name in harness/lib/profiles.tsv
# POSIX sh, no commands: only assignments.
# shellcheck shell=sh

# -- the host (harness/stages/tree, harness/lib) --
: "${STABLEGATE_CACHE:=/var/cache/stablegate}"  # [text] trees, builds, images, ccache, kept kernels
: "${SG_BUILD_USER:=stablegate}"  # [text] run as root: the user that patches and builds (make setup adds it)
: "${SG_KEEP_KERNELS_MB:=2048}"  # [uint] the booted bzImages kept in $STABLEGATE_CACHE/kernels, MiB
: "${STABLEGATE_APT_REFRESH:=0}"  # [0|1] 1: refresh the private apt lists now (else once a day)
# STABLEGATE_MIRROR_<archive>=URL: that archive's mirror (default: the host's apt sources)
: "${SG_PROGRESS_SECS:=30}"  # [uint>0] a progress line of a long stage every N s

# -- the run (harness/drivers/validate) --
: "${KSRC:=}"            # [path] a kernel tree or tarball to validate (4.x branches need one)
: "${SERIES:=}"          # [path] a candidate series instead of the branch's: a dir of patches or an mbox
: "${SUITES:=}"          # [text] comma separated suites; empty: every harness/suites/<name>/
: "${FRESH_BASELINE:=0}"  # [0|1] 1: boot the baseline even when an earlier boot with the same inputs could give its results
: "${VARIANTS:=baseline patched}"  # [baseline|patched...] the kernels to build and boot
: "${DEBUG:=}"           # [text] a heavier profile, harness/kconfig/debug/<DEBUG>.config
: "${SEED:=}"            # [uint] the soak seed; empty: the clock (always recorded)
: "${TIME_FACTOR:=1}"    # [uint>0] scales the default soak length
: "${SOAK_SEEDS:=3}"     # [uint>0] soaks per profile and kernel, seeds SEED, SEED+1, ... (each SOAK_OPS ops; all at once)
: "${SOAK_OPS:=$((7000 * TIME_FACTOR))}"  # [uint>0] soak ops per profile and seed
: "${SOAK_ARGS:=}"       # [text] extra sg-soak options, e.g. "--disable dread"
: "${SOAK_REPLAY:=}"     # [path] a saved soak op log to replay instead of a new soak
: "${SOAK_REPLAY_FS:=xfs}"  # [profile] the filesystem profile SOAK_REPLAY runs on
: "${REPEAT:=3}"         # [uint>0] runs of a case that fails in the guest (sg-syscall, sg-sparse): failing only some of them is "flaky k/n"
: "${EVIDENCE:=0}"       # [0|1] 1: also boot every prefix of the series (per-patch proof; make evidence)
: "${EVIDENCE_SUITES:=syscall}"  # [text] the suites each prefix runs (evidence, bisection)
: "${BISECT:=1}"         # [0|1] 0: do not bisect a regression over the prefixes
: "${MINIMISE_SECS:=300}"  # [uint] harness/drivers/minimise: at most N s of tries per op log; 0: validate does not minimise
: "${UPSTREAM_GIT:=}"    # [path] a clone of mainline: each patch's upstream commit, subject, author, Fixes: and follow-ups looked up there, and the patch diffed against it (harness/stages/upstream)
: "${STABLE_REF:=}"      # [path] an existing backport of the same commits (a dir of patches or an mbox): each patch diffed against its counterpart there
: "${XBUILD:=1}"         # [0|1] 1: compile what the series touches and its in-tree users under allmodconfig, x86_64 and i386, on both trees (harness/stages/xbuild)

# -- the guest bench (harness/drivers/bench, make bench-soak GUEST=1) --
: "${BENCH_OPS:=20000}"  # [uint>0] ops per run (fsx -N, sg-soak --ops)
: "${BENCH_SEED:=7}"     # [uint] the seed of every run (fsx -S, sg-soak --seed)
: "${BENCH_ROUNDS:=2}"   # [uint>0] rounds of every run per fs (a loaded host's drift averages out)
: "${BENCH_SOAK_REF:=}"   # [path] another static sg-soak to run beside this one (before/after a change)
: "${BENCH_SOAK_ARGS:=}"  # [text] options added to every soak run, e.g. "--disable unshare"
: "${BENCH_FSX_ARGS:=}"   # [text] options added to every fsx run, e.g. "-u" (no unshare)
: "${FSX:=}"             # [path] a static fsx binary; empty: built from FSX_SRC
: "${FSX_SRC:=${SG_ROOT:-.}/../shared/bench/fsx}"  # [text] fstests' fsx.c, for benchmarks only; none there: the soak runs alone

# -- fstests, the field's own suite (harness/suites/fstests) --
: "${FSTESTS_SRC:=${SG_ROOT:-.}/../shared/peers/fstests-63a29724.tar.xz}"  # [text] fstests: a tree or tarball; absent: the suite is skipped
: "${FSTESTS:=generic/157 generic/158 generic/513 generic/514 generic/515 generic/516 generic/517 generic/518 generic/553 generic/554 generic/564 generic/565 generic/673 generic/674}"  # [text] tests and groups (-g clone, ...) for fstests' check
: "${FSTESTS_SECTIONS:=xfs ext4}"  # [text] the filesystems fstests runs on, each with the branch's mkfs options (and a profile's, for a profile name: xfs_1k)
: "${FSTESTS_LIMIT:=3600}"  # [uint>0] s the fstests suite may run per kernel
: "${FSTESTS_TEST_LIMIT:=900}"  # [uint>0] s one fstests test may run before it is killed (a failed result)
: "${FSTESTS_DISK_MB:=4096}"  # [uint>=1024] TEST_DEV and SCRATCH_DEV, MiB each (sparse)

# -- every branch (harness/drivers/validate-all) --
: "${KSRC_DIR:=}"        # [path] trees or tarballs linux-<version>[.tar.xz] for the tree=ksrc branches
: "${SG_ESTIMATE_SECS:=1200}"  # [uint] a branch's expected validate time when it has no earlier run

# -- LAVA (harness/lava/lava-jobs, lava-run, lava-submit; make lava-jobs, RUNNER=lava) --
: "${RUNNER:=qemu}"      # [qemu|lava|lava-jobs] qemu: boot here (harness/stages/boot); lava: each boot as a LAVA job; lava-jobs: only write the jobs
: "${LAVA_URL:=}"        # [text] RUNNER=lava: the lab's API (for lavacli, https://USER:TOKEN@HOST/RPC2); empty: lava-run here
: "${LAVA_ARTEFACTS:=}"  # [text] URL serving $STABLEGATE_CACHE/lava/ (jobs fetch <it>/<branch>/<run>/...); empty: file:// of it
: "${SEEDS:=}"           # [uint...] lava-jobs: one job per kernel and soak seed (space separated); empty: the run's seed

# -- the VM (harness/stages/boot) --
: "${ACCEL:=}"           # [kvm|tcg] empty: KVM only when it really works
: "${BOOT_TIMEOUT:=}"     # [uint>0] hard limit, s; empty: 300 + the limit of each suite run (harness/lib/run.sh sg_boot_limit)
: "${BOOT_STALL:=300}"   # [uint>0] s without console or result output: the VM is hung
: "${KVM_PROBE:=30}"     # [uint>0] s an automatically chosen KVM may stay silent before TCG
: "${VM_CPUS:=2}"        # [uint>0] QEMU -smp
: "${VM_MEM:=2048}"      # [uint>0] QEMU -m, MiB

# -- the disks (harness/stages/image; branch.conf mkfs_xfs=/mkfs_ext4= set the mkfs options) --
: "${PROFILES:=xfs xfs_1k ext4 ext4_1k}"  # [profile...] the filesystem profiles every suite runs on, a disk each (harness/lib/profiles.tsv)
: "${DISK_MB:=1024}"     # [uint>=300] size of each profile's disk, MiB (mkfs.xfs needs 300)
: "${MKFS_XFS:=-m reflink=1}"  # [text] mkfs.xfs options
: "${MKFS_EXT4:=-b 4096}"      # [text] mkfs.ext4 options

# -- the kernel (harness/stages/config, harness/stages/build) --
: "${FRAGMENTS:=}"       # [text] Kconfig fragments instead of harness/kconfig/*.config + branch.config
: "${SG_REBUILD_MAX:=2000}"  # [uint] more differing source files than this: a clean build
: "${CCACHE_DIR:=$STABLEGATE_CACHE/ccache}"  # [text] ccache's
: "${KBUILD_BUILD_TIMESTAMP:=2018-12-03 00:00:00 UTC}"  # [text] pinned, so that ccache hits
