// SPDX-License-Identifier: GPL-2.0
/*
 * sg-sparse - stablegate suite: what SEEK_DATA/SEEK_HOLE (lseek(2)) and
 * FIEMAP report about a file agrees with its content, after writes, hole
 * punches, truncates, copy_file_range, FICLONE/FICLONERANGE, FIDEDUPERANGE
 * and sub-block O_DIRECT writes.
 *
 * Each case (cases.h, struct scase) is a sequence of ops on one or two fresh
 * files in a directory of its own; an in-memory model (the bytes and the size
 * of each file) follows what the ops wrote. After each op every file is
 * checked against its model; after the last op again once FIEMAP_FLAG_SYNC
 * has written the files back, and once more cold (fsync, POSIX_FADV_DONTNEED:
 * read back from the disk). The invariants (README.md says where each comes
 * from); a failure names its number, the op after which it was seen and the
 * offset:
 *  (1) the bytes read (pread) equal the model;
 *  (2) a hole never hides data: every range SEEK_DATA calls a hole, every
 *      offset SEEK_HOLE returns inside the file, and every range FIEMAP
 *      (after FIEMAP_FLAG_SYNC) leaves unmapped or marks unwritten, is zeros
 *      (zeros reported as data are allowed);
 *  (3) SEEK_DATA and SEEK_HOLE at or past EOF fail with ENXIO; at a negative
 *      offset with ENXIO or EINVAL;
 *  (4) the size is the model's;
 *  (5) inside the file SEEK_DATA(o) is in [o, EOF) or fails with ENXIO (a
 *      hole to EOF), SEEK_HOLE(o) is in [o, EOF];
 *  (6) the bytes past EOF in the EOF page read as zeros through mmap(2).
 * Output is KTAP version 1: one result per case and filesystem, <case>.<fs>;
 * each runs in a child of its own under a timeout (sg_run_isolated).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>

#include "sg.h"

#define B	4096LL		/* block size of the guest filesystems; x86's page size */
#define MAXSZ	(4LL << 20)	/* no case makes a file larger */
#define MAXOPS	10
#define MAXFS	8

enum { OP_END, OP_WRITE, OP_WFROM, OP_DIO, OP_PUNCH, OP_FALLOC, OP_FALLOC_K, OP_TRUNC,
       OP_CFR, OP_CLONE, OP_CLONER, OP_DEDUPE, OP_SYNC, OP_COLD };
enum { MAY = 1, NOCHECK = 2 };	/* struct op's fl */
enum { FA, FB };		/* the files "a" and "b" */

/* One op. The table writes each with a macro below, e.g. { PUNCH(FA, B, B) },
 * and may add .fl = MAY or .fl = NOCHECK. */
struct op {
	int kind;		/* OP_* */
	int f;			/* the file it acts on; of a copy or remap, the destination */
	int sf;			/* OP_WFROM, OP_CFR, OP_CLONE*, OP_DEDUPE: the source file */
	long long off, len;	/* the range in f; OP_TRUNC: off is the new size */
	long long soff;		/* the offset in sf */
	int seed;		/* OP_WRITE, OP_DIO: the byte pattern, 0 for zero bytes */
	unsigned fl;		/* MAY: a remap the kernel may refuse with EINVAL (the model
				 * is then unchanged); NOCHECK: no check after it, so the next
				 * op finds the page cache as this one left it, unread */
};
/* buffered write of pattern seed */
#define W(f_, off_, len_, seed_)	.kind = OP_WRITE, .f = f_, .off = off_, .len = len_, .seed = seed_
/* buffered write of the bytes sf has at soff (its model's) */
#define WFROM(f_, off_, sf_, soff_, len_) .kind = OP_WFROM, .f = f_, .off = off_, .sf = sf_, .soff = soff_, .len = len_
/* O_DIRECT write of pattern seed, through a second descriptor */
#define DIO(f_, off_, len_, seed_)	.kind = OP_DIO, .f = f_, .off = off_, .len = len_, .seed = seed_
/* fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE) */
#define PUNCH(f_, off_, len_)		.kind = OP_PUNCH, .f = f_, .off = off_, .len = len_
/* fallocate(0): unwritten extents, the size grows */
#define FALLOC(f_, off_, len_)		.kind = OP_FALLOC, .f = f_, .off = off_, .len = len_
/* fallocate(FALLOC_FL_KEEP_SIZE) */
#define FALLOC_K(f_, off_, len_)	.kind = OP_FALLOC_K, .f = f_, .off = off_, .len = len_
#define TRUNC(f_, size_)		.kind = OP_TRUNC, .f = f_, .off = size_
/* copy_file_range(sf@soff -> f@off, len), repeated over short copies as cp(1) does */
#define CFR(f_, off_, sf_, soff_, len_)	.kind = OP_CFR, .f = f_, .off = off_, .sf = sf_, .soff = soff_, .len = len_
/* ioctl(f, FICLONE, sf) */
#define CLONE(f_, sf_)			.kind = OP_CLONE, .f = f_, .sf = sf_
/* ioctl(f, FICLONERANGE, {sf, soff, len, off}) */
#define CLONER(f_, off_, sf_, soff_, len_) .kind = OP_CLONER, .f = f_, .off = off_, .sf = sf_, .soff = soff_, .len = len_
/* ioctl(sf, FIDEDUPERANGE, {soff, len, 1 dest: f@off}) */
#define DEDUPE(f_, off_, sf_, soff_, len_) .kind = OP_DEDUPE, .f = f_, .off = off_, .sf = sf_, .soff = soff_, .len = len_
/* fsync; then FIEMAP of f is checked too */
#define SYNC(f_)			.kind = OP_SYNC, .f = f_
/* fsync and POSIX_FADV_DONTNEED: f's next reads come from the disk */
#define COLD(f_)			.kind = OP_COLD, .f = f_

/* One case: a sequence of ops on fresh files, run on every filesystem given. */
struct scase {
	const char *id;		/* the case's name; its results are <id>.<fs> */
	int nfiles;		/* 1: "a"; 2: "a" and "b" */
	struct op ops[MAXOPS];	/* ends at the first OP_END (kind 0) */
	const char *what;	/* what it checks */
	const char *from;	/* where its expectation comes from (README.md) */
	const char *commit;	/* the upstream commit(s) it pins, if any */
};

static const struct scase cases[] = {
#include "cases.h"
};
#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

struct fsent {
	struct sg_fs fs;
	int xfs;		/* reflink is expected: EINVAL/EXDEV from a remap is a failure */
	int nofiemap;		/* FS_IOC_FIEMAP unsupported (tmpfs): those checks are skipped */
	char gone[300];		/* why no more cases run on it (a case stuck in the kernel) */
};

/* What a case's child leaves for the parent (MAP_SHARED). */
struct shared {
	char why[1024];		/* the result's reason */
	char dir[PATH_MAX];	/* the case directory, while it exists */
	char doing[512];	/* what the case is doing: named on a timeout or crash */
};

struct mfile {
	char path[PATH_MAX + 8];
	int fd;
	long long size;		/* the model's size */
	unsigned char *m;	/* the model's bytes; zero past size */
};

static struct fsent fss[MAXFS];
static int nfs, case_timeout = 30;
static int repeat = 1;		/* --repeat N: runs of a failing case (flaky k/n) */
static int abnormal;		/* the last run_isolated's failure was a hang, a signal, a stuck fs */
static const char *only;
static struct shared *sh;

/* the case's child */
static const struct scase *cur;
static const struct fsent *cfs;
static char cname[160];
static struct mfile mf[2];
static int nmf, opno;
static int *nzn;		/* nzn[i]: the first non-zero model byte at or after i (or the size),
				 * of the file m_index() was last called for */
static unsigned char *rbuf;

/* ----------------------------------------------------------------- helpers */

static const char *ename(int e)
{
	static char buf[24];
	static const struct { int e; const char *n; } t[] = {
		{ 0, "0" }, { ENXIO, "ENXIO" }, { EINVAL, "EINVAL" }, { EXDEV, "EXDEV" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { ENOTTY, "ENOTTY" }, { ENOSYS, "ENOSYS" },
		{ EBADF, "EBADF" }, { EPERM, "EPERM" }, { EACCES, "EACCES" }, { EIO, "EIO" },
		{ ENOSPC, "ENOSPC" }, { EFBIG, "EFBIG" }, { EROFS, "EROFS" }, { ENOMEM, "ENOMEM" },
		{ EOVERFLOW, "EOVERFLOW" }, { ETXTBSY, "ETXTBSY" }, { EISDIR, "EISDIR" },
		{ ENOENT, "ENOENT" }, { EFAULT, "EFAULT" }, { EAGAIN, "EAGAIN" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

SG_PRINTF(2, 3) static int setwhy(int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sh->why, sizeof(sh->why), fmt, ap);
	va_end(ap);
	return rc;
}

static unsigned char pat(long long off, int seed)
{
	return seed ? (unsigned char)((off * 131 + (off >> 12) * 7 + seed * 61) % 251 + 1) : 0;
}

static const char *fname(int k) { return k ? "b" : "a"; }

static void opdesc(const struct op *o, char *b, size_t n)
{
	const char *f = fname(o->f), *s = fname(o->sf);
	switch (o->kind) {
	case OP_WRITE: case OP_DIO:
		if (o->seed)
			snprintf(b, n, "%swrite %s [%lld,+%lld) seed %d", o->kind == OP_DIO ? "O_DIRECT " : "",
				 f, o->off, o->len, o->seed);
		else
			snprintf(b, n, "%swrite %s [%lld,+%lld) zeros", o->kind == OP_DIO ? "O_DIRECT " : "",
				 f, o->off, o->len);
		break;
	case OP_WFROM:
		snprintf(b, n, "write %s [%lld,+%lld) with %s's bytes at %lld", f, o->off, o->len, s, o->soff);
		break;
	case OP_PUNCH:
		snprintf(b, n, "punch %s [%lld,+%lld)", f, o->off, o->len);
		break;
	case OP_FALLOC: case OP_FALLOC_K:
		snprintf(b, n, "fallocate%s %s [%lld,+%lld)", o->kind == OP_FALLOC_K ? " KEEP_SIZE" : "",
			 f, o->off, o->len);
		break;
	case OP_TRUNC:
		snprintf(b, n, "ftruncate %s to %lld", f, o->off);
		break;
	case OP_CFR:
		snprintf(b, n, "copy_file_range %s@%lld -> %s@%lld len %lld", s, o->soff, f, o->off, o->len);
		break;
	case OP_CLONE:
		snprintf(b, n, "FICLONE %s -> %s", s, f);
		break;
	case OP_CLONER:
		snprintf(b, n, "FICLONERANGE %s@%lld -> %s@%lld len %lld", s, o->soff, f, o->off, o->len);
		break;
	case OP_DEDUPE:
		snprintf(b, n, "FIDEDUPERANGE %s@%lld -> %s@%lld len %lld", s, o->soff, f, o->off, o->len);
		break;
	case OP_SYNC:
		snprintf(b, n, "fsync %s", f);
		break;
	case OP_COLD:
		snprintf(b, n, "fsync + POSIX_FADV_DONTNEED %s", f);
		break;
	default:
		snprintf(b, n, "op kind %d", o->kind);
	}
}

static int pwrite_all(int fd, const unsigned char *b, long long n, long long off)
{
	while (n > 0) {
		ssize_t w = pwrite(fd, b, n, off);
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		b += w, off += w, n -= w;
	}
	return 0;
}

/* ------------------------------------------------------------------ model */

static void m_put(int k, long long off, const unsigned char *src, long long n)
{
	memmove(mf[k].m + off, src, n);
	if (off + n > mf[k].size)
		mf[k].size = off + n;
}

static void m_resize(int k, long long size)
{
	if (size < mf[k].size)
		memset(mf[k].m + size, 0, mf[k].size - size);
	mf[k].size = size;
}

static void m_index(int k)
{
	long long size = mf[k].size;
	nzn[size] = (int)size;
	for (long long i = size - 1; i >= 0; i--)
		nzn[i] = mf[k].m[i] ? (int)i : nzn[i + 1];
}

/* The first non-zero model byte in [a, b), or -1 (m_index'ed, b <= size). */
static long long nonzero(long long a, long long b)
{
	if (a >= b)
		return -1;
	return nzn[a] < b ? nzn[a] : -1;
}

/* ------------------------------------------------------------ diagnostics */

/* What SEEK_DATA/SEEK_HOLE say about file k, as "data [a,b) hole [b,c) ...". */
static void seek_map(int k, char *b, size_t n)
{
	long long pos = 0, size = mf[k].size, d, h;
	size_t l = 0;
	b[0] = 0;
	for (int seg = 0; pos < size && seg < 24 && l < n - 64; seg++) {
		d = lseek(mf[k].fd, pos, SEEK_DATA);
		if (d < 0 || d >= size) {
			l += sg_fmt(b + l, n - l, " hole [%lld,%lld)%s", pos, size, d < 0 && errno != ENXIO ? "?" : "");
			return;
		}
		if (d > pos)
			l += sg_fmt(b + l, n - l, " hole [%lld,%lld)", pos, d);
		h = lseek(mf[k].fd, d, SEEK_HOLE);
		if (h <= d || h > size) {
			l += sg_fmt(b + l, n - l, " data [%lld,?) SEEK_HOLE=%lld", d, h);
			return;
		}
		l += sg_fmt(b + l, n - l, " data [%lld,%lld)", d, h);
		pos = h;
	}
	if (pos < size)
		sg_fmt(b + l, n - l, " ...");
}

/* What FIEMAP (without FIEMAP_FLAG_SYNC) says about file k, as "[a,b) flags ...". */
static void fiemap_map(int k, char *b, size_t n)
{
	enum { N = 32 };
	union { struct fiemap fm; char b[sizeof(struct fiemap) + N * sizeof(struct fiemap_extent)]; } u;
	size_t l = 0;

	b[0] = 0;
	if (cfs->nofiemap) {
		snprintf(b, n, " (none on %s)", cfs->fs.name);
		return;
	}
	memset(&u, 0, sizeof(u));
	u.fm.fm_length = FIEMAP_MAX_OFFSET;
	u.fm.fm_extent_count = N;
	if (ioctl(mf[k].fd, FS_IOC_FIEMAP, &u.fm)) {
		snprintf(b, n, " %s", ename(errno));
		return;
	}
	for (unsigned i = 0; i < u.fm.fm_mapped_extents && l < n - 100; i++) {
		const struct fiemap_extent *e = &u.fm.fm_extents[i];
		unsigned fl = e->fe_flags;
		l += sg_fmt(b + l, n - l, " [%llu,%llu)%s%s%s%s", (unsigned long long)e->fe_logical,
			    (unsigned long long)(e->fe_logical + e->fe_length),
			    fl & FIEMAP_EXTENT_UNWRITTEN ? " unwritten" : "",
			    fl & FIEMAP_EXTENT_DELALLOC ? " delalloc" : "",
			    fl & FIEMAP_EXTENT_SHARED ? " shared" : "",
			    fl & FIEMAP_EXTENT_LAST ? " last" : "");
	}
	if (!u.fm.fm_mapped_extents)
		snprintf(b, n, " none");
}

/* A failed invariant on file k: the reason, and "# " lines with the ops run
 * so far, the file's SEEK_DATA/SEEK_HOLE and FIEMAP maps and whether its
 * bytes are the model's. */
SG_PRINTF(3, 4) static int bad(int k, const char *when, const char *fmt, ...)
{
	char d[900], ops[2048] = "", map[1200];
	size_t l = 0;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d, sizeof(d), fmt, ap);
	va_end(ap);
	setwhy(1, "%s: file %s: %s", when, fname(k), d);
	sg_say("# %s: %s\n", cname, sh->why);
	for (int i = 0; i < opno && i < MAXOPS && l < sizeof(ops) - 200; i++) {
		char od[200];
		opdesc(&cur->ops[i], od, sizeof(od));
		l += sg_fmt(ops + l, sizeof(ops) - l, "%s%d %s", i ? "; " : "", i + 1, od);
	}
	sg_say("# %s: ops run: %s\n", cname, ops);
	seek_map(k, map, sizeof(map));
	sg_say("# %s: file %s, size %lld, SEEK_DATA/SEEK_HOLE map:%s\n", cname, fname(k), mf[k].size, map);
	fiemap_map(k, map, sizeof(map));
	sg_say("# %s: file %s, FIEMAP (no sync):%s\n", cname, fname(k), map);
	if (strncmp(d, "(1)", 3)) {
		long long got = 0, x;
		ssize_t r = 1;
		while (got < mf[k].size && (r = pread(mf[k].fd, rbuf + got, mf[k].size - got, got)) > 0)
			got += r;
		for (x = 0; x < got && rbuf[x] == mf[k].m[x]; x++)
			;
		if (got == mf[k].size && x == got)
			sg_say("# %s: file %s: its bytes are the model's\n", cname, fname(k));
		else
			sg_say("# %s: file %s: its bytes differ from the model's at %lld (read %lld of %lld)\n",
			       cname, fname(k), x, got, mf[k].size);
	}
	if (cur->commit)
		sg_say("# %s: pins: %s\n", cname, cur->commit);
	return 1;
}

/* ----------------------------------------------------------------- checks */

static int cmpll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

/* (2) and (5) of SEEK_HOLE(o) = h, inside the file (o < size). */
static int hole_at(int k, const char *when, long long o, long long h, int eh)
{
	const struct mfile *f = &mf[k];
	if (h < o || h > f->size)
		return bad(k, when, "(5) SEEK_HOLE(%lld) = %lld (%s), not in [%lld,%lld]", o, h,
			   ename(h < 0 ? eh : 0), o, f->size);
	if (h < f->size && f->m[h])
		return bad(k, when, "(2) a hole hides data: SEEK_HOLE(%lld) = %lld calls %lld the start of "
			   "a hole, but byte %lld is 0x%02x", o, h, h, h, f->m[h]);
	return 0;
}

/* (2) and (5) of SEEK_DATA(o) = d (errno ed), inside the file (o < size). */
static int data_at(int k, const char *when, long long o, long long d, int ed)
{
	const struct mfile *f = &mf[k];
	long long x;
	if (d < 0 && ed != ENXIO)
		return bad(k, when, "(5) SEEK_DATA(%lld) inside the file (size %lld) failed: %s", o,
			   f->size, ename(ed));
	if (d < 0 && (x = nonzero(o, f->size)) >= 0)
		return bad(k, when, "(2) a hole hides data: SEEK_DATA(%lld) = ENXIO calls [%lld,%lld) a hole "
			   "to EOF, but byte %lld is 0x%02x", o, o, f->size, x, f->m[x]);
	if (d >= 0 && (d < o || d >= f->size))
		return bad(k, when, "(5) SEEK_DATA(%lld) = %lld, not in [%lld,%lld)", o, d, o, f->size);
	if (d >= 0 && (x = nonzero(o, d)) >= 0)
		return bad(k, when, "(2) a hole hides data: SEEK_DATA(%lld) = %lld calls [%lld,%lld) a hole, "
			   "but byte %lld is 0x%02x", o, d, o, d, x, f->m[x]);
	return 0;
}

/* (2), (3), (5) for file k (m_index'ed). SEEK_DATA and SEEK_HOLE may
 * disagree about zeros (4.14's XFS calls clean uptodate pages over unwritten
 * extents data for SEEK_HOLE, a hole for SEEK_DATA), never about data. */
static int seek_check(int k, const char *when)
{
	static long long probe[3 * (MAXSZ / B) + 16 * MAXOPS + 16];
	const struct mfile *f = &mf[k];
	long long size = f->size, pos = 0, d, h;
	int np = 0, ed, eh;

	/* the walk: data and holes from 0 to EOF */
	while (pos < size) {
		errno = 0;
		d = lseek(f->fd, pos, SEEK_DATA);
		if (data_at(k, when, pos, d, errno))
			return 1;
		if (d < 0)
			break;
		errno = 0;
		h = lseek(f->fd, d, SEEK_HOLE);
		if (hole_at(k, when, d, h, errno))
			return 1;
		/* h == d: data to SEEK_DATA, a (zero) hole to SEEK_HOLE; on to the next block */
		pos = h > d ? h : (d / B + 1) * B;
	}

	/* probes: around every block boundary and every op's ends */
	for (long long b = 0; b <= size && b < MAXSZ; b += B) {
		probe[np++] = b - 1;
		probe[np++] = b;
		probe[np++] = b + 1;
	}
	for (int i = 0; i < MAXOPS && cur->ops[i].kind; i++) {
		const struct op *o = &cur->ops[i];
		long long e[4] = { o->off, o->off + o->len, o->soff, o->soff + o->len };
		for (int j = 0; j < 4; j++) {
			probe[np++] = e[j] - 1;
			probe[np++] = e[j];
			probe[np++] = e[j] + 1;
		}
	}
	probe[np++] = size - 1;
	qsort(probe, np, sizeof(probe[0]), cmpll);
	for (int i = 0; i < np; i++) {
		long long o = probe[i];
		if (o < 0 || o >= size || (i && o == probe[i - 1]))
			continue;
		errno = 0;
		d = lseek(f->fd, o, SEEK_DATA);
		ed = errno;
		errno = 0;
		h = lseek(f->fd, o, SEEK_HOLE);
		eh = errno;
		if (data_at(k, when, o, d, ed) || hole_at(k, when, o, h, eh))
			return 1;
	}

	/* at and past EOF: ENXIO; negative offsets: ENXIO (mainline, fstests
	 * generic/448) or EINVAL (lseek(2)'s "the resulting file offset would be
	 * negative"; 4.14's tmpfs) */
	{
		long long up = (size + B - 1) / B * B;
		long long eof[] = { size, size + 1, up, up + 1, up + B, size + (1LL << 30),
				    LLONG_MAX, -1, -B, LLONG_MIN };
		for (size_t i = 0; i < sizeof(eof) / sizeof(eof[0]); i++)
			for (int w = 0; w < 2; w++) {
				long long r;
				errno = 0;
				r = lseek(f->fd, eof[i], w ? SEEK_HOLE : SEEK_DATA);
				if (r != -1 || (errno != ENXIO && (eof[i] >= 0 || errno != EINVAL)))
					return bad(k, when, "(3) SEEK_%s(%lld), EOF at %lld, = %lld (%s), "
						   "expected ENXIO%s", w ? "HOLE" : "DATA", eof[i], size, r,
						   ename(r < 0 ? errno : 0), eof[i] < 0 ? " or EINVAL" : "");
			}
	}
	return 0;
}

/* (1) */
static int content_check(int k, const char *when)
{
	const struct mfile *f = &mf[k];
	long long got = 0, x;
	while (got < f->size) {
		ssize_t n = pread(f->fd, rbuf + got, f->size - got, got);
		if (n < 0)
			return bad(k, when, "(1) pread at %lld: %s", got, ename(errno));
		if (n == 0)
			return bad(k, when, "(1) pread returned EOF at %lld, the size is %lld", got, f->size);
		got += n;
	}
	if (!memcmp(rbuf, f->m, f->size))
		return 0;
	for (x = 0; rbuf[x] == f->m[x]; x++)
		;
	return bad(k, when, "(1) byte %lld reads 0x%02x, the model has 0x%02x%s", x, rbuf[x], f->m[x],
		   f->m[x] ? "" : " (a hole or zeroed range shows stale bytes)");
}

/* (6) */
static int mmap_check(int k, const char *when)
{
	const struct mfile *f = &mf[k];
	long ps = sysconf(_SC_PAGESIZE);
	long long po = f->size / ps * ps, x = -1;
	unsigned char *p;
	if (f->size % ps == 0)
		return 0;
	p = mmap(NULL, ps, PROT_READ, MAP_SHARED, f->fd, po);
	if (p == MAP_FAILED)
		return bad(k, when, "(6) mmap of the EOF page at %lld: %s", po, ename(errno));
	for (long i = f->size - po; i < ps && x < 0; i++)
		if (p[i])
			x = i;
	if (x >= 0) {
		int v = p[x];
		munmap(p, ps);
		return bad(k, when, "(6) byte %lld, past EOF (%lld) in the EOF page, reads 0x%02x through "
			   "mmap, not zero", po + x, f->size, v);
	}
	munmap(p, ps);
	return 0;
}

/* (4), then (2) (3) (5) before anything reads the file, (1), (6). */
static int check_file(int k, const char *when)
{
	struct stat st;
	int rc;
	if (fstat(mf[k].fd, &st))
		return bad(k, when, "fstat: %s", ename(errno));
	if (st.st_size != mf[k].size)
		return bad(k, when, "(4) the size is %lld, the model's %lld", (long long)st.st_size, mf[k].size);
	m_index(k);
	if ((rc = seek_check(k, when)) || (rc = content_check(k, when)))
		return rc;
	return mmap_check(k, when);
}

static int check_all(const char *when)
{
	for (int k = 0; k < nmf; k++)
		if (check_file(k, when))
			return 1;
	return 0;
}

/* (2) through FIEMAP with FIEMAP_FLAG_SYNC (which writes the file back):
 * ranges it maps to nothing, or marks unwritten, are zeros; its extents are in
 * order and do not overlap. */
static int fiemap_check(int k, const char *when)
{
	enum { N = 256 };
	union { struct fiemap fm; char b[sizeof(struct fiemap) + N * sizeof(struct fiemap_extent)]; } u;
	const struct mfile *f = &mf[k];
	long long size = f->size, end = 0, x;
	int last = 0, calls = 0;

	if (cfs->nofiemap) {
		if (fsync(f->fd))
			return bad(k, when, "fsync: %s", ename(errno));
		return 0;
	}
	if (size == 0)
		return 0;
	m_index(k);
	while (!last && end < size) {
		memset(&u, 0, sizeof(u));
		u.fm.fm_start = end;
		u.fm.fm_length = size - end;
		u.fm.fm_flags = FIEMAP_FLAG_SYNC;
		u.fm.fm_extent_count = N;
		if (ioctl(f->fd, FS_IOC_FIEMAP, &u.fm))
			return bad(k, when, "(2) FIEMAP [%lld,%lld): %s", end, size, ename(errno));
		if (u.fm.fm_mapped_extents == 0)
			break;
		for (unsigned i = 0; i < u.fm.fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &u.fm.fm_extents[i];
			long long lo = e->fe_logical, hi = lo + e->fe_length;
			if (calls && i == 0 && lo < end)	/* a later call may start inside it */
				lo = end;
			if (e->fe_length == 0 || lo < end)
				return bad(k, when, "(2) FIEMAP extent [%lld,%lld) is empty or starts before "
					   "the one before it ends (%lld)", lo, hi, end);
			if ((x = nonzero(end < size ? end : size, lo < size ? lo : size)) >= 0)
				return bad(k, when, "(2) a hole hides data: FIEMAP maps nothing at [%lld,%lld), "
					   "but byte %lld is 0x%02x", end, lo, x, f->m[x]);
			if ((e->fe_flags & FIEMAP_EXTENT_UNWRITTEN) &&
			    (x = nonzero(lo < size ? lo : size, hi < size ? hi : size)) >= 0)
				return bad(k, when, "(2) a hole hides data: FIEMAP calls [%lld,%lld) unwritten, "
					   "but byte %lld is 0x%02x", lo, hi, x, f->m[x]);
			end = hi;
			last = !!(e->fe_flags & FIEMAP_EXTENT_LAST);
		}
		if (u.fm.fm_mapped_extents < N)
			break;
		if (++calls > 64)
			return bad(k, when, "(2) FIEMAP: more than %d extents", 64 * N);
	}
	if (end < size && (x = nonzero(end, size)) >= 0)
		return bad(k, when, "(2) a hole hides data: FIEMAP maps nothing at [%lld,%lld), but byte "
			   "%lld is 0x%02x", end, size, x, f->m[x]);
	return 0;
}

/* -------------------------------------------------------------------- ops */

/* A remap (FICLONE*, FIDEDUPERANGE) failed with e: on XFS only EOPNOTSUPP (no
 * reflink) is a SKIP; elsewhere EOPNOTSUPP, EXDEV, EINVAL and ENOTTY are.
 * A MAY op refused with EINVAL by XFS is an outcome (0): the model stays. */
static int remap_err(const struct op *o, const char *d, int e)
{
	if (cfs->xfs && (o->fl & MAY) && e == EINVAL) {
		sg_say("# %s: op %d (%s): refused (EINVAL); the files must be unchanged\n", cname, opno, d);
		return 0;
	}
	if (e == EOPNOTSUPP || (!cfs->xfs && (e == EXDEV || e == EINVAL || e == ENOTTY)))
		return setwhy(-1, "op %d (%s): %s: no reflink on %s", opno, d, ename(e), cfs->fs.name);
	return setwhy(1, "op %d (%s) failed: %s", opno, d, ename(e));
}

static int do_op(const struct op *o)
{
	struct mfile *f = &mf[o->f], *s = &mf[o->sf];
	char d[200];
	int e;

	opdesc(o, d, sizeof(d));
	if (o->off < 0 || o->len < 0 || o->off + o->len > MAXSZ || o->soff + o->len > MAXSZ ||
	    o->f >= nmf || o->sf >= nmf)
		return setwhy(1, "op %d (%s): outside the suite's model (%lld bytes, %d files)", opno, d,
			      MAXSZ, nmf);
	switch (o->kind) {
	case OP_WRITE: case OP_WFROM: {
		unsigned char *buf = malloc(o->len + 1);
		if (!buf)
			return setwhy(-1, "malloc: %s", ename(errno));
		for (long long i = 0; i < o->len; i++)
			buf[i] = o->kind == OP_WFROM ? s->m[o->soff + i] : pat(o->off + i, o->seed);
		if (pwrite_all(f->fd, buf, o->len, o->off)) {
			e = errno;
			free(buf);
			return setwhy(1, "op %d (%s): pwrite: %s", opno, d, ename(e));
		}
		m_put(o->f, o->off, buf, o->len);
		free(buf);
		return 0;
	}
	case OP_DIO: {
		long long al = (o->len + B - 1) / B * B;
		unsigned char *buf = NULL;
		ssize_t n;
		int dfd = open(f->path, O_RDWR | O_DIRECT);
		if (dfd < 0)
			return errno == EINVAL ? setwhy(-1, "op %d (%s): open O_DIRECT: EINVAL (no O_DIRECT "
							"on %s here)", opno, d, cfs->fs.name)
					       : setwhy(1, "op %d (%s): open O_DIRECT: %s", opno, d, ename(errno));
		if (posix_memalign((void **)&buf, B, al ? al : B)) {
			close(dfd);
			return setwhy(-1, "posix_memalign failed");
		}
		for (long long i = 0; i < o->len; i++)
			buf[i] = pat(o->off + i, o->seed);
		n = pwrite(dfd, buf, o->len, o->off);
		e = errno;
		close(dfd);
		if (n < 0 && e == EINVAL) {
			free(buf);
			return setwhy(-1, "op %d (%s): EINVAL (O_DIRECT alignment on %s is coarser)", opno, d,
				      cfs->fs.name);
		}
		if (n != o->len) {
			free(buf);
			return setwhy(1, "op %d (%s): pwrite returned %zd (%s)", opno, d, n, ename(n < 0 ? e : 0));
		}
		m_put(o->f, o->off, buf, o->len);
		free(buf);
		return 0;
	}
	case OP_PUNCH: case OP_FALLOC: case OP_FALLOC_K: {
		int mode = o->kind == OP_PUNCH ? FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE :
			   o->kind == OP_FALLOC_K ? FALLOC_FL_KEEP_SIZE : 0;
		if (fallocate(f->fd, mode, o->off, o->len))
			return errno == EOPNOTSUPP ? setwhy(-1, "op %d (%s): EOPNOTSUPP on %s", opno, d, cfs->fs.name)
						   : setwhy(1, "op %d (%s): fallocate: %s", opno, d, ename(errno));
		if (o->kind == OP_PUNCH && o->off < f->size)
			memset(f->m + o->off, 0, (o->off + o->len < f->size ? o->off + o->len : f->size) - o->off);
		if (o->kind == OP_FALLOC && o->off + o->len > f->size)
			f->size = o->off + o->len;
		return 0;
	}
	case OP_TRUNC:
		if (ftruncate(f->fd, o->off))
			return setwhy(1, "op %d (%s): %s", opno, d, ename(errno));
		m_resize(o->f, o->off);
		return 0;
	case OP_CFR: {
		loff_t i = o->soff, j = o->off;
		long long want = s->size - o->soff < o->len ? s->size - o->soff : o->len, done = 0;
		while (done < want) {
			ssize_t n = sg_copy_file_range(s->fd, &i, f->fd, &j, want - done, 0);
			if (n < 0 && done == 0 && (errno == ENOSYS || errno == EOPNOTSUPP || errno == EXDEV))
				return setwhy(-1, "op %d (%s): %s", opno, d, ename(errno));
			if (n < 0)
				return setwhy(1, "op %d (%s): failed after %lld of %lld bytes: %s", opno, d, done,
					      want, ename(errno));
			if (n == 0)
				return setwhy(1, "op %d (%s): returned 0 after %lld of the source's %lld bytes",
					      opno, d, done, want);
			done += n;
		}
		if (done > 0)
			m_put(o->f, o->off, s->m + o->soff, done);
		return 0;
	}
	case OP_CLONE:
		if (ioctl(f->fd, FICLONE, s->fd))
			return remap_err(o, d, errno);
		m_put(o->f, 0, s->m, s->size);
		return 0;
	case OP_CLONER: {
		struct file_clone_range cr = { .src_fd = s->fd, .src_offset = o->soff,
					       .src_length = o->len, .dest_offset = o->off };
		long long n = o->len ? o->len : s->size - o->soff;
		if (ioctl(f->fd, FICLONERANGE, &cr))
			return remap_err(o, d, errno);
		if (o->fl & MAY)
			sg_say("# %s: op %d (%s): done (not refused)\n", cname, opno, d);
		m_put(o->f, o->off, s->m + o->soff, n);
		return 0;
	}
	case OP_DEDUPE: {
		uint64_t buf[(sizeof(struct file_dedupe_range) + sizeof(struct file_dedupe_range_info)) / 8 + 1];
		struct file_dedupe_range *r = (struct file_dedupe_range *)buf;
		memset(buf, 0, sizeof(buf));
		r->src_offset = o->soff;
		r->src_length = o->len;
		r->dest_count = 1;
		r->info[0].dest_fd = f->fd;
		r->info[0].dest_offset = o->off;
		if (ioctl(s->fd, FIDEDUPERANGE, r))
			return remap_err(o, d, errno);
		if (r->info[0].status < 0)
			return remap_err(o, d, -r->info[0].status);
		if (r->info[0].status == FILE_DEDUPE_RANGE_DIFFERS && !(o->fl & MAY))
			return setwhy(1, "op %d (%s): FILE_DEDUPE_RANGE_DIFFERS for identical ranges", opno, d);
		if (o->fl & MAY)
			sg_say("# %s: op %d (%s): status %s, bytes_deduped %llu\n", cname, opno, d,
			       r->info[0].status == FILE_DEDUPE_RANGE_SAME ? "SAME" : "DIFFERS",
			       (unsigned long long)r->info[0].bytes_deduped);
		return 0;	/* the bytes were equal: the model stays */
	}
	case OP_SYNC: case OP_COLD:
		if (fsync(f->fd))
			return setwhy(1, "op %d (%s): fsync: %s", opno, d, ename(errno));
		if (o->kind == OP_COLD && (e = posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED)))
			return setwhy(1, "op %d (%s): posix_fadvise: %s", opno, d, ename(e));
		return 0;
	}
	return setwhy(1, "op %d: unknown kind %d", opno, o->kind);
}

/* ----------------------------------------------------------------- runner */

static int run_case(void)
{
	char when[400], d[200];
	int rc = 0, nops = 0;

	while (nops < MAXOPS && cur->ops[nops].kind)
		nops++;
	snprintf(sh->doing, sizeof(sh->doing), "setting up");
	nmf = cur->nfiles;
	nzn = malloc((MAXSZ + 1) * sizeof(*nzn));
	rbuf = malloc(MAXSZ + B);
	for (int k = 0; k < nmf; k++) {
		mf[k].fd = -1;
		mf[k].m = calloc(1, MAXSZ + B);
	}
	if (!nzn || !rbuf || !mf[0].m || (nmf > 1 && !mf[1].m))
		return setwhy(-1, "malloc: %s", ename(errno));
	snprintf(sh->dir, sizeof(sh->dir), "%.3900s/sg-sparse.%s.%d", cfs->fs.dir, cur->id, (int)getpid());
	if (mkdir(sh->dir, 0755)) {
		rc = setwhy(-1, "mkdir %s: %s", sh->dir, ename(errno));
		sh->dir[0] = 0;
		return rc;
	}
	for (int k = 0; k < nmf; k++) {
		snprintf(mf[k].path, sizeof(mf[k].path), "%s/%s", sh->dir, fname(k));
		mf[k].fd = open(mf[k].path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (mf[k].fd < 0) {
			rc = setwhy(-1, "create %s: %s", mf[k].path, ename(errno));
			goto out;
		}
	}
	for (int i = 0; i < nops; i++) {
		const struct op *o = &cur->ops[i];
		opno = i + 1;
		opdesc(o, d, sizeof(d));
		snprintf(sh->doing, sizeof(sh->doing), "in op %d (%s)", opno, d);
		if ((rc = do_op(o)))
			goto out;
		snprintf(when, sizeof(when), "after op %d (%s)", opno, d);
		snprintf(sh->doing, sizeof(sh->doing), "checking %s", when);
		if ((!(o->fl & NOCHECK) || i == nops - 1) && (rc = check_all(when)))
			goto out;
		if ((o->kind == OP_SYNC || o->kind == OP_COLD) && (rc = fiemap_check(o->f, when)))
			goto out;
	}
	/* the end: written back (FIEMAP_FLAG_SYNC), then cold */
	snprintf(sh->doing, sizeof(sh->doing), "checking at the end");
	snprintf(when, sizeof(when), "at the end, %s", cfs->nofiemap ? "after fsync" : "FIEMAP_FLAG_SYNC");
	for (int k = 0; k < nmf; k++)
		if ((rc = fiemap_check(k, when)))
			goto out;
	snprintf(when, sizeof(when), "at the end, after %s", cfs->nofiemap ? "fsync" : "FIEMAP_FLAG_SYNC");
	if ((rc = check_all(when)))
		goto out;
	for (int k = 0; k < nmf; k++) {
		if (fsync(mf[k].fd) || (errno = posix_fadvise(mf[k].fd, 0, 0, POSIX_FADV_DONTNEED))) {
			rc = setwhy(1, "at the end: fsync/POSIX_FADV_DONTNEED %s: %s", fname(k), ename(errno));
			goto out;
		}
	}
	rc = check_all("at the end, cold (fsync, POSIX_FADV_DONTNEED)");
out:
	snprintf(sh->doing, sizeof(sh->doing), "cleaning up");
	for (int k = 0; k < nmf; k++)
		if (mf[k].fd >= 0)
			close(mf[k].fd);
	if (sh->dir[0] && sg_rm_tree(sh->dir))
		sg_say("# %s: warning: removing %s: %s\n", cname, sh->dir, ename(errno));
	sh->dir[0] = 0;
	return rc;
}

/* What a case's child runs (sg_run_isolated): its result as the exit status,
 * 0 pass, 1 FAIL, 2 SKIP. */
struct case_run { const struct scase *c; const struct fsent *fs; const char *name; };
static int case_child(void *arg)
{
	const struct case_run *r = arg;
	int rc;

	cur = r->c;
	cfs = r->fs;
	snprintf(cname, sizeof(cname), "%s", r->name);
	rc = run_case();
	return rc == 0 ? 0 : rc < 0 ? 2 : 1;
}

/* Each case runs in a child of its own, in its own process group
 * (sg_run_isolated), as sg-syscall runs its cases: one that crashes or hangs
 * (past --timeout, default 30 s) costs that case ("timeout" or "signal N",
 * with what it was doing) and the next case runs. A child that SIGKILL
 * cannot end is stuck in the kernel: the filesystem is then marked gone, and
 * its later cases are skipped naming the case, instead of each waiting out
 * its timeout. */
static int run_isolated(const struct scase *c, struct fsent *fs, const char *name, char *why, size_t wn)
{
	struct case_run run = { c, fs, name };
	struct sg_end end;
	int st;

	abnormal = 1;
	if (fs->gone[0]) {
		snprintf(why, wn, "%s", fs->gone);
		return -1;
	}
	memset(sh, 0, sizeof(*sh));
	if (sg_run_isolated(case_child, &run, case_timeout, &end)) {
		snprintf(why, wn, "fork: %s", ename(errno));
		return -1;
	}
	st = end.status;
	if (!end.timed_out && WIFEXITED(st) && WEXITSTATUS(st) <= 2) {
		abnormal = 0;
		snprintf(why, wn, "%s", sh->why);
		return WEXITSTATUS(st) == 2 ? -1 : WEXITSTATUS(st);
	}
	if (end.timed_out) {
		snprintf(why, wn, "timeout: no result after %d s, %s%s", case_timeout, sh->doing,
			 end.reaped ? "; killed" : "; SIGKILL did not end it (stuck in the kernel)");
		if (!end.reaped)
			snprintf(fs->gone, sizeof(fs->gone), "%s: a process of %s is stuck in the kernel",
				 fs->fs.name, name);
	} else if (WIFSIGNALED(st)) {
		snprintf(why, wn, "signal %d (%s) %s", WTERMSIG(st), strsignal(WTERMSIG(st)), sh->doing);
	} else {
		snprintf(why, wn, "case child exited %d", WEXITSTATUS(st));
	}
	if (end.reaped && sh->dir[0])
		sg_rm_tree(sh->dir);
	return 1;
}

/* One more run of a failed case, for sg_rerun: > 0 when it failed again */
struct again { const struct scase *c; struct fsent *fs; const char *name; };
static int run_again(void *arg)
{
	struct again *a = arg;
	char why[1200];

	return run_isolated(a->c, a->fs, a->name, why, sizeof(why));
}

/* FIEMAP support of fs (tmpfs has none): a 1-byte file in its directory. */
static void probe_fs(struct fsent *fs)
{
	char p[PATH_MAX + 64];
	union { struct fiemap fm; char b[sizeof(struct fiemap) + 4 * sizeof(struct fiemap_extent)]; } u;
	int fd;

	snprintf(p, sizeof(p), "%s/.sg-sparse-probe.%d", fs->fs.dir, (int)getpid());
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, "x", 1, 0) != 1) {
		snprintf(fs->gone, sizeof(fs->gone), "cannot write a file in %s: %s", fs->fs.dir, ename(errno));
		if (fd >= 0)
			close(fd), unlink(p);
		return;
	}
	memset(&u, 0, sizeof(u));
	u.fm.fm_length = B;
	u.fm.fm_extent_count = 4;
	if (ioctl(fd, FS_IOC_FIEMAP, &u.fm) && (errno == EOPNOTSUPP || errno == ENOTTY)) {
		fs->nofiemap = 1;
		sg_say("# fs %s: FIEMAP unsupported (%s): its FIEMAP checks are skipped\n", fs->fs.name,
		       ename(errno));
	}
	close(fd);
	unlink(p);
}

static int usage(const char *m)
{
	fprintf(stderr, "sg-sparse: %s\nusage: sg-sparse --fs NAME:DIR [--fs NAME:DIR ...] [--only GLOB] "
		"[--timeout SEC] [--repeat N]\n       sg-sparse --list\nNAME is xfs, ext4 or tmpfs (or one of them _PROFILE), the f_type DIR must be on.\n",
		m);
	return 2;
}

int main(int argc, char **argv)
{
	int plan = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL, *bad_arg;
		if (!strcmp(a, "--list")) {
			for (int k = 0; k < NCASES; k++)
				printf("%s\t%s\t%s\n", cases[k].id, cases[k].from, cases[k].what);
			return 0;
		} else if (!strcmp(a, "--only") && v) {
			only = v, i++;
		} else if (!strcmp(a, "--timeout") && v) {
			case_timeout = atoi(v), i++;
			if (case_timeout <= 0)
				return usage("--timeout wants seconds > 0");
		} else if (!strcmp(a, "--repeat") && v) {
			repeat = atoi(v), i++;
			if (repeat <= 0 || repeat > 100)
				return usage("--repeat wants runs 1..100");
		} else if (!strcmp(a, "--fs") && v) {
			i++;
			if (nfs == MAXFS)
				return usage("too many --fs");
			if (sg_fs_parse(v, &fss[nfs].fs, &bad_arg))
				return usage(bad_arg);
			if (!sg_fs_magic(fss[nfs].fs.name))
				return usage("unknown fs name (xfs, ext4, tmpfs, or one of them _PROFILE)");
			for (int k = 0; k < nfs; k++)
				if (!strcmp(fss[k].fs.name, fss[nfs].fs.name))
					return usage("fs named twice");
			fss[nfs].xfs = sg_fs_magic(fss[nfs].fs.name) == sg_fs_magic("xfs");
			nfs++;
		} else {
			return usage("bad argument");
		}
	}
	if (!nfs)
		return usage("no --fs given");
	sg_ktap_header();
	for (int i = 0; i < nfs; i++) {
		char why[PATH_MAX + 128];
		struct statfs sf;
		if (sg_fs_check(fss[i].fs.name, fss[i].fs.dir, why, sizeof(why)) || statfs(fss[i].fs.dir, &sf)) {
			sg_ktap_bail("%s", why);
			return 2;
		}
		sg_say("# fs %s: %s (f_type 0x%lx, f_bsize %ld)\n", fss[i].fs.name, fss[i].fs.dir,
		       (unsigned long)sf.f_type, (long)sf.f_bsize);
		probe_fs(&fss[i]);
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		sg_ktap_bail("mmap: %s", ename(errno));
		return 2;
	}
	/* two passes over the same (case, fs) list: count, then run */
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			sg_ktap_plan(plan);
		for (int k = 0; k < NCASES; k++)
			for (int j = 0; j < nfs; j++) {
				char name[160], why[1200];
				int rc;
				snprintf(name, sizeof(name), "%.80s.%.63s", cases[k].id, fss[j].fs.name);
				if (only && fnmatch(only, cases[k].id, 0) && fnmatch(only, name, 0))
					continue;
				if (!pass) {
					plan++;
					continue;
				}
				rc = run_isolated(&cases[k], &fss[j], name, why, sizeof(why));
				if (rc > 0 && !abnormal && repeat > 1) {
					struct again a = { &cases[k], &fss[j], name };
					sg_rerun(repeat, run_again, &a, name, why, sizeof(why));
				}
				sg_ktap_result(rc, name, "%s", why);
			}
	}
	return sg_ktap_finish();
}
