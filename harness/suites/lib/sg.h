/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sg.h - what the stablegate suites (harness/suites/<name>/) share: KTAP
 * output with a plan, totals and the plan-vs-run check (kselftest.h's
 * ksft_print_cnts) and the lines around it, the monotonic clock, the uapi of
 * the remap ioctls, one copy_file_range, --fs NAME:DIR and the
 * filesystem-type check, a recursive delete.
 * Built into every suite by harness/suites/common.mk.
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
SG_PRINTF(1, 2) void sg_say(const char *fmt, ...);	/* any other line(s), written whole */
SG_PRINTF(2, 3) void sg_say_fd(int fd, const char *fmt, ...);	/* the same, to fd */

/* ---- formatting */
/* snprintf that returns what it actually wrote into b (at most sz - 1, 0 on
 * an error), so that "n += sg_fmt(b + n, sz - n, ...)" never runs past b */
SG_PRINTF(3, 4) int sg_fmt(char *b, size_t sz, const char *fmt, ...);

/* ---- time */
double sg_mono(void);		/* CLOCK_MONOTONIC, in seconds */

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
/* The f_type of a filesystem the suites know by name (xfs, ext4, tmpfs), 0 if unknown. */
unsigned long sg_fs_magic(const char *name);
/* Is dir a directory on a filesystem of the type name says? 0, or -1 with the
 * reason in why ("DIR: error" or "DIR is on f_type 0x.., not NAME (0x..)"). */
int sg_fs_check(const char *name, const char *dir, char *why, size_t n);

/* ---- files */
/* Remove dir and everything under it, depth first, not following symlinks
 * nor crossing mounts; what is already gone is no error. 0 or -1. */
int sg_rm_tree(const char *dir);

#endif
