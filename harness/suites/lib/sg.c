// SPDX-License-Identifier: GPL-2.0
/* sg.c - the suites' shared plumbing; see sg.h. */
#include "sg.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static unsigned ktap_plan, ktap_n, ktap_pass, ktap_fail, ktap_skip;
static int ktap_planned;

static void put(int fd, const char *b, int n)
{
	fflush(stdout);
	if (n > 0 && write(fd, b, n) < 0) { /* nowhere to report it */ }
}

static void vsay(int fd, const char *pre, const char *fmt, va_list ap)
{
	char b[8192];
	int n = snprintf(b, sizeof(b), "%s", pre);
	int m = vsnprintf(b + n, sizeof(b) - n, fmt, ap);

	n = m < 0 ? n : n + m > (int)sizeof(b) - 1 ? (int)sizeof(b) - 1 : n + m;
	put(fd, b, n);
}

void sg_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(1, "", fmt, ap);
	va_end(ap);
}

void sg_say_fd(int fd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fd, "", fmt, ap);
	va_end(ap);
}

int sg_fmt(char *b, size_t sz, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sz, fmt, ap);
	va_end(ap);
	return n < 0 ? 0 : (size_t)n >= sz ? (int)(sz ? sz - 1 : 0) : n;
}

double sg_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void sg_ktap_bail(const char *fmt, ...)
{
	char m[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	sg_say("Bail out! %s\n", m);
}

void sg_ktap_header(void)
{
	sg_say("KTAP version 1\n");
}

void sg_ktap_plan(unsigned n)
{
	ktap_plan = n;
	ktap_planned = 1;
	sg_say("1..%u\n", n);
}

void sg_ktap_result(int rc, const char *name, const char *why, ...)
{
	char w[4096] = "";
	va_list ap;

	if (why) {
		va_start(ap, why);
		vsnprintf(w, sizeof(w), why, ap);
		va_end(ap);
	}
	ktap_n++;
	if (rc == 0) {
		ktap_pass++;
		sg_say("ok %u %s\n", ktap_n, name);
	} else if (rc < 0) {
		ktap_skip++;
		sg_say("ok %u %s # SKIP %s\n", ktap_n, name, w);
	} else {
		ktap_fail++;
		sg_say("not ok %u %s%s%s\n", ktap_n, name, w[0] ? " # " : "", w);
	}
}

int sg_ktap_finish(void)
{
	sg_say("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:%u error:0\n",
	       ktap_pass, ktap_fail, ktap_skip);
	if (ktap_planned && ktap_n != ktap_plan) {
		sg_say("# Planned tests != run tests (%u != %u)\n", ktap_plan, ktap_n);
		return 1;
	}
	return ktap_fail ? 1 : 0;
}

ssize_t sg_copy_file_range(int fd_in, loff_t *off_in, int fd_out, loff_t *off_out,
			   size_t len, unsigned int flags)
{
	return syscall(__NR_copy_file_range, fd_in, off_in, fd_out, off_out, len, flags);
}

static const struct { const char *name; unsigned long magic; } known[] = {
	{ "xfs", 0x58465342 }, { "ext4", 0xEF53 }, { "tmpfs", 0x01021994 },
};

unsigned long sg_fs_magic(const char *name)
{
	size_t n = strcspn(name, "_");	/* a profile's type: xfs_1k is xfs */

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i].name) == n && !strncmp(known[i].name, name, n))
			return known[i].magic;
	return 0;
}

int sg_fs_parse(const char *arg, struct sg_fs *fs, const char **why)
{
	const char *colon = strchr(arg, ':');
	size_t nlen = colon ? (size_t)(colon - arg) : 0;

	if (!colon || !nlen || !colon[1] || nlen >= sizeof(fs->name) ||
	    strlen(colon + 1) >= sizeof(fs->dir) ||
	    strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != nlen) {
		*why = "--fs wants NAME:DIR (NAME of [A-Za-z0-9_.-])";
		return -1;
	}
	snprintf(fs->name, sizeof(fs->name), "%.*s", (int)nlen, arg);
	snprintf(fs->dir, sizeof(fs->dir), "%s", colon + 1);
	return 0;
}

int sg_fs_check(const char *name, const char *dir, char *why, size_t n)
{
	unsigned long want = sg_fs_magic(name);
	struct statfs sf;
	struct stat st;

	if (statfs(dir, &sf) || stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(why, n, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if ((unsigned long)sf.f_type != want) {
		snprintf(why, n, "%s is on f_type 0x%lx, not %s (0x%lx)", dir,
			 (unsigned long)sf.f_type, name, want);
		return -1;
	}
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p) && errno != ENOENT ? -1 : 0;
}

int sg_rm_tree(const char *dir)
{
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}
