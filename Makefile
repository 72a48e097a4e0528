# stablegate: validate a stable backport series on one branch.
#   make setup                      install the host tools (Debian packages)
#   make branch=6.1 validate        tree -> build baseline+patched -> boot -> report
#   make branch=6.1 evidence        validate, plus every prefix booted: each patch proven/masked/harmful
#   make branch=4.19 fstests        fstests' clone, dedupe and copy_range groups on both kernels (hours; FSTESTS= picks)
#   make validate-all KSRC_DIR=../shared/trees   every branch with a tree here, then reports/matrix.md
#   make matrix                     reports/matrix.md and .json again, from every branch's latest run
#   make check                      the harness's own tests (TAP, then a totals line)
#   make lint                       shellcheck over harness/ (part of check)
#   make bench-soak                 soak ops/s per op type on the host, fixed seed
#   make bench-soak GUEST=1 branch=6.1  the soak against fsx in one guest, ops/s and ratio
#   make branch=4.19 prefixes       every prefix of the series applies exactly and builds
#   make report RUN=reports/6.1/<run>  re-render a run's reports: from its logs, or its result.json alone (no boot)
#   make kcidb RUN=reports/6.1/<run>   the run as KCIDB I/O JSON (kcidb.json), checked against the v4 schema's rules
#   make branch=6.1 lava-jobs       build both kernels, then a LAVA job per kernel (SEEDS= per seed) in the run dir
#   make branch=6.1 validate RUNNER=lava [LAVA_URL=...]  each boot as a LAVA job: lava-run here, or a lab's
#   make minimise RUN=reports/6.1/<run> FS=xfs  shorten a failing soak's op log in the guest
#       (or LOG=<op log> branch=6.1; KERNEL=bzImage to boot, CHECK_ON="bzImage..." to replay it on)
#   make branches                   list the known branches
# Kernel trees, builds, images: $(STABLEGATE_CACHE) (default /var/cache/stablegate).

SHELL := /bin/sh
# A value given to make reaches the harness as given: a command-line
# variable (branch=, RUN=, SEED=, ...) is taken as it stands, not expanded
# as make text, and passed in the environment; the recipes use "$$branch",
# never $(branch), so no value is ever part of a shell line. The makes the
# harness runs (suites, kernels) do not get them as overrides to expand.
$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$(eval override export $v := $$(value $v))))
MAKEOVERRIDES :=
# The checkout, for harness/lib/sg.sh when a recipe sources it.
export SG_ROOT := $(CURDIR)
export PACKAGES := build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils procps \
	file ccache qemu-system-x86 busybox-static xfsprogs e2fsprogs jq bats shellcheck libxml2-utils \
	lava-dispatcher lavacli

# Every shell file of the harness: the scripts, the library (harness/lib),
# the guest's init, the tests (.shellcheckrc says which checks are off and why).
SHELL_FILES = $(shell grep -rlE '^\#!(/bin/sh|/usr/bin/env bats)' harness) \
	$(wildcard harness/lib/*.sh harness/suites/*/guest.sh harness/guest/*.sh) harness/tests/helpers.bash

.PHONY: setup validate lava-jobs evidence fstests validate-all matrix prefixes report kcidb minimise check lint bench-soak branches suites clean help

help:	# the comment block above
	@sed -n '2,/^[^#]/{/^#/!q;s/^# \{0,1\}//;p}' Makefile

setup:
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$PACKAGES \
		$$(sed "s/#.*//" harness/suites/*/packages)
	@# the unprivileged user that patches and builds (harness/lib/sg.sh sg_as_builder)
	id -u stablegate >/dev/null 2>&1 || useradd --system --user-group --no-create-home \
		--home-dir /nonexistent --shell /usr/sbin/nologin stablegate

validate:
	@harness/drivers/validate "$$branch"

lava-jobs:
	@RUNNER=lava-jobs harness/drivers/validate "$$branch"

evidence:
	@EVIDENCE=1 harness/drivers/validate "$$branch"

fstests:
	@SUITES=fstests FSTESTS="$${FSTESTS:--g clone,dedupe,copy_range}" FSTESTS_LIMIT="$${FSTESTS_LIMIT:-21600}" \
		harness/drivers/validate "$$branch"

validate-all:
	@harness/drivers/validate-all all

matrix:
	@harness/report/matrix latest

prefixes:
	@harness/drivers/prefixes "$$branch"

report:
	@harness/report/report $${RUN:+"$$RUN"}

kcidb:
	@harness/report/kcidb $${RUN:+"$$RUN"}

minimise:
	@set -f; set --; for k in $$CHECK_ON; do set -- "$$@" --check-on "$$k"; done; log=$${RUN:-$$LOG}; \
	harness/drivers/minimise $${KERNEL:+--kernel "$$KERNEL"} $${branch:+--branch "$$branch"} "$$@" $${log:+"$$log"} $${FS:+"$$FS"}

branches:
	@. harness/lib/sg.sh && sg_branches

suites:
	@for m in harness/suites/*/Makefile; do $(MAKE) -s -C $${m%/Makefile} || exit 1; done

lint: export SHELL_FILES := $(SHELL_FILES)
lint:
	@shellcheck $$SHELL_FILES

check: suites lint
	@harness/tests/run

bench-soak:
	@if [ -n "$$GUEST" ]; then harness/drivers/bench $${KERNEL:+--kernel "$$KERNEL"} "$$branch"; else harness/suites/soak/bench.sh; fi

clean:
	@for m in harness/suites/*/Makefile; do $(MAKE) -s -C $${m%/Makefile} clean; done
