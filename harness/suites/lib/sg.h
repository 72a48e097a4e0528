/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sg.h - what the stablegate suites (harness/suites/<name>/) share: KTAP
 * output with a plan, totals and the plan-vs-run check (kselftest.h's
 * ksft_print_cnts) and the lines around it, the monotonic clock, children
 * run under a time limit (kselftest_harness.h's fork per test), the uapi of
 * the remap ioctls, one copy_file_range, --fs NAME:DIR and the
 * filesystem-type check, a recursive delete. sg.c and run.c (the children)
 * are built into every suite by harness/suites/common.mk.
 */
#ifndef SG_H
#define SG_H
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/fs.h>		/* FICLONE*, FIDEDUPERANGE, FS_IOC_*FLAGS and their structs */
#include <linux/fiemap.h>	/* struct fiemap, FIEMAP_EXTENT_* */

/* XFS_IOC_GOINGDOWN (xfs_fs.h, from xfsprogs' headers, not the kernel's uapi) */
#define SG_XFS_IOC_GOINGDOWN	_IOR('X', 125, uint32_t)

#define SG_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* ---- KTAP version 1 on stdout. Each line is written whole (write(2), after
 * flushing stdio), so forked children and stdio output never interleave. */
void sg_ktap_header(void);			/* "KTAP version 1" */
void sg_ktap_plan(unsigned n);			/* "1..n" */
/* One result, numbered in order: rc 0 "ok", rc < 0 "ok ... # SKIP why",
 * rc > 0 "not ok ... # why" (why may be NULL or empty). */
SG_PRINTF(3, 4) void sg_ktap_result(int rc, const char *name, const char *why, ...);
/* "# Totals: ..." and the plan-vs-run check: the exit status, 0 if every
 * planned result was printed and none failed, else 1. */
int sg_ktap_finish(void);
SG_PRINTF(1, 2) void sg_ktap_bail(const char *fmt, ...);	/* "Bail out! ...": the run cannot go on */
SG_PRINTF(1, 2) void sg_say(const char *fmt, ...);	/* any other line(s), written whole */
SG_PRINTF(2, 3) void sg_say_fd(int fd, const char *fmt, ...);	/* the same, to fd */

/* ---- formatting */
/* snprintf that returns what it actually wrote into b (at most sz - 1, 0 on
 * an error), so that "n += sg_fmt(b + n, sz - n, ...)" never runs past b */
SG_PRINTF(3, 4) int sg_fmt(char *b, size_t sz, const char *fmt, ...);

/* ---- time */
double sg_mono(void);		/* CLOCK_MONOTONIC, in seconds */

/* ---- children (run.c): each in a process of its own, under a time limit,
 * killed when it overruns, and let go when even SIGKILL cannot end it (a
 * process stuck in the kernel), so that one case costs only itself */

/* Fork; the child runs fn(arg), whose return value is its exit status.
 * stdout is flushed before the fork and before the child exits. group: the
 * child leads a process group of its own. The child's pid, or -1 (errno). */
pid_t sg_spawn(int (*fn)(void *), void *arg, int group);

/* SIGKILL each of the children pid[0..n) whose st[i] is -1 (not reaped yet;
 * group: its whole process group), then reap them for up to grace seconds;
 * each reaped gets its wait status in st[i]. Returns how many are left: a
 * child stuck in the kernel outlives SIGKILL, and is left behind. */
unsigned sg_kill_reap(const pid_t *pid, int *st, unsigned n, int group, double grace);

/* How a child of sg_run_isolated ended. */
struct sg_end {
	int status;		/* its wait status, if reaped */
	int reaped;		/* 0: not even SIGKILL ended it (status -1) */
	int timed_out;		/* it overran the time limit and was killed */
};
/* fn(arg) in a child leading a process group of its own (sg_spawn), waited
 * for up to timeout seconds; one that overruns is killed with its group and
 * reaped within 5 s if it can be (sg_kill_reap). SIGCHLD is blocked while
 * it runs, in the child as well. 0 and how it ended in *end, or -1 if the
 * fork failed (errno). */
int sg_run_isolated(int (*fn)(void *), void *arg, double timeout, struct sg_end *end);
/* A case NAME that failed with a result (not a hang or a crash), run again
 * until RUNS runs in all: again(arg) runs it once more, > 0 when it failed.
 * Failing every run, a "# NAME: failed n of n runs" line says so and why
 * stays; failing some, why (WN bytes) becomes "flaky k/n: " and the first
 * run's reason (REPEAT in the guest). */
void sg_rerun(int runs, int (*again)(void *), void *arg, const char *name, char *why, size_t wn);

/* ---- copy_file_range(2), the raw syscall (the suites pin the kernel's
 * behaviour, not a libc emulation of it) */
ssize_t sg_copy_file_range(int fd_in, loff_t *off_in, int fd_out, loff_t *off_out,
			   size_t len, unsigned int flags);

/* ---- --fs NAME:DIR */
struct sg_fs {
	char name[64];		/* [A-Za-z0-9_.-]+ */
	char dir[PATH_MAX];
};
/* Parse NAME:DIR into fs: 0, or -1 with what is wrong in why. */
int sg_fs_parse(const char *arg, struct sg_fs *fs, const char **why);
/* The f_type of a filesystem the suites know by name (xfs, ext4, tmpfs, or
 * one of them with a profile after a '_', as xfs_1k), 0 if unknown. */
unsigned long sg_fs_magic(const char *name);
/* Is dir a directory on a filesystem of the type name says? 0, or -1 with the
 * reason in why ("DIR: error" or "DIR is on f_type 0x.., not NAME (0x..)"). */
int sg_fs_check(const char *name, const char *dir, char *why, size_t n);

/* ---- files */
/* Remove dir and everything under it, depth first, not following symlinks
 * nor crossing mounts; what is already gone is no error. 0 or -1. */
int sg_rm_tree(const char *dir);

#endif
