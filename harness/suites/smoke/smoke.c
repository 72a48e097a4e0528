/*
 * sg-smoke: the pipeline canary. Three real checks that prove the guest ran
 * the kernel under test on the harness's disks: copy_file_range on XFS and
 * ext4 with the content verified, and FICLONE on XFS. KTAP output.
 *
 * usage: sg-smoke XFS_DIR EXT4_DIR
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sg.h"

#define LEN (3 * 4096 + 100)

static char want[LEN], got[LEN];

/* Make SRC holding a known pattern and an empty DST; 0 or an errno. */
static int mkpair(const char *dir, int *src, int *dst)
{
	char p[4096];

	for (int i = 0; i < LEN; i++)
		want[i] = (char)(i * 31 + 7);
	snprintf(p, sizeof(p), "%s/smoke.src", dir);
	*src = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	snprintf(p, sizeof(p), "%s/smoke.dst", dir);
	*dst = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (*src < 0 || *dst < 0)
		return errno;
	if (pwrite(*src, want, LEN, 0) != LEN || fsync(*src))
		return errno ? errno : EIO;
	return 0;
}

static const char *verify(int dst)
{
	memset(got, 0, LEN);
	if (pread(dst, got, LEN, 0) != LEN)
		return "short read of destination";
	return memcmp(got, want, LEN) ? "destination content differs" : NULL;
}

/* One check: 0 pass, else prints the reason on the result line. */
static const char *check(const char *dir, int clone)
{
	static char why[128];
	int src, dst, e;
	const char *bad;

	if ((e = mkpair(dir, &src, &dst)) != 0) {
		snprintf(why, sizeof(why), "setup: %s", strerror(e));
		return why;
	}
	if (clone) {
		if (ioctl(dst, FICLONE, src)) {
			snprintf(why, sizeof(why), "FICLONE: %s", strerror(errno));
			return why;
		}
	} else {
		loff_t in = 0, out = 0;
		ssize_t n = sg_copy_file_range(src, &in, dst, &out, LEN, 0);

		if (n != LEN) {
			snprintf(why, sizeof(why), "copy_file_range returned %zd (%s)",
				 n, n < 0 ? strerror(errno) : "short");
			return why;
		}
	}
	bad = verify(dst);
	close(src);
	close(dst);
	return bad;
}

int main(int argc, char **argv)
{
	struct { const char *name; int dir; int clone; } t[] = {
		{ "copy_file_range.xfs", 1, 0 },
		{ "copy_file_range.ext4", 2, 0 },
		{ "ficlone.xfs", 1, 1 },
	};
	int n = sizeof(t) / sizeof(t[0]);

	if (argc != 3) {
		fprintf(stderr, "usage: %s XFS_DIR EXT4_DIR\n", argv[0]);
		return 2;
	}
	sg_ktap_header();
	sg_ktap_plan(n);
	for (int i = 0; i < n; i++) {
		const char *bad = check(argv[t[i].dir], t[i].clone);

		sg_ktap_result(bad != NULL, t[i].name, "%s", bad ? bad : "");
	}
	return sg_ktap_finish();
}
