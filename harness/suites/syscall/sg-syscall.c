// SPDX-License-Identifier: GPL-2.0
/*
 * sg-syscall - stablegate syscall conformance suite.
 *
 * One declarative table (case_at(), its rows in table-copy.h, table-remap.h
 * and table-dio.h, every field named: struct tcase says what each means;
 * sizes in blocks B of the filesystem the case runs on) of
 * copy_file_range(2), FICLONE/FICLONERANGE/FIDEDUPERANGE and sub-block
 * O_DIRECT cases.  Each row names the filesystems it applies to, how its
 * files are set up, the call, the expected return/errno, a post-condition,
 * the behaviour it pins and the mainline function that has it (.pins), and
 * its provenance (.prov: an entry of provenance.h's table, the seed patch,
 * upstream commit and patch subject, printed as a "# pins:" line before a
 * failing result).  --fs NAME:DIR names a filesystem type or a profile of
 * one (xfs_1k: XFS with 1 KiB blocks).  Expected results are mainline's (fs/read_write.c,
 * fs/remap_range.c, fs/attr.c); they never change per branch.  Output is
 * KTAP version 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "sg.h"


#define NOBODY	65534
#define OLD	1000000000L	/* 2001-09-09: "old" timestamp */
#define WHY_MAX	768		/* a case's reason, after the "# " of its result line */

enum { XFS = 1, EXT4 = 2, TMPFS = 4, CROSS = 8, ALL = 7, NOREF = EXT4 | TMPFS };
enum { F_GUEST = 1, F_NOBODY = 2, F_RLIMIT = 4, F_SIGX = 8, F_LOOP = 16, F_NOIMG = 32 };
enum { K_REG, K_DIR, K_PIPE, K_CHR, K_SOCK, K_CLOSED, K_SAME };
enum { OP_CFR = 1, OP_CFR_LIBC, OP_CFR_NULL, OP_CLONE, OP_CLONE_RANGE, OP_DEDUPE, OP_CUSTOM };

static const struct { const char *name; unsigned bit; } fstype[] = {
	{ "xfs", XFS }, { "ext4", EXT4 }, { "tmpfs", TMPFS },
};
struct fsent { const char *name; unsigned bit; long long block; char dir[1024]; };

/* The block size of the filesystem the case runs on (of a cross pair, the
 * larger): the table's sizes and offsets, and the checks, are in its units,
 * so each case asks the same of a 1 KiB-block filesystem as of a 4 KiB one. */
static long long B = 4096;

#include "provenance.h"

struct ctx;
/* One case: what to set up, the call, what it must return and leave behind.
 * The table (table-*.h, one file per family) names every field it sets. */
struct tcase {
	const char *id;
	unsigned fs;			/* the filesystems it runs on (XFS | EXT4 ..., or CROSS) */
	unsigned cross_src;		/* CROSS: the source filesystems allowed (0 = any) */
	unsigned flags;			/* F_GUEST, F_NOBODY, F_RLIMIT, F_SIGX, F_LOOP, F_NOIMG */
	int op;				/* OP_CFR ... OP_CUSTOM */
	long long in_size, out_size;	/* the files' sizes */
	long long out_same;		/* leading bytes of dest equal to source */
	int in_flags, out_flags;	/* open(2) flags */
	int in_kind, out_kind;		/* K_REG (default), K_DIR, K_PIPE, ... */
	int out_mode;			/* dest's mode, if not 0 */
	long long pos_in, pos_out;	/* the call's offsets (the ctx's pin/pout are paths) */
	unsigned long long len;
	unsigned cfr_flags;		/* copy_file_range flags */
	long long rlimit;		/* RLIMIT_FSIZE for F_RLIMIT */
	int (*prep)(struct ctx *);	/* extra setup: 0 ok, -1 SKIP (why) */
	long (*call)(struct ctx *);	/* OP_CUSTOM */
	long want;			/* expected return, unless want_errno */
	int want_errno;			/* expected: -1 with this errno */
	int ndest;			/* dedupe: dest count, then per dest: */
	int dedupe_status[3];		/*   info[].status */
	long long dedupe_bytes[3];	/*   info[].bytes_deduped */
	int (*post)(struct ctx *);	/* extra post-condition: 0 ok, 1 FAIL (why) */
	const char *pins;		/* the behaviour it pins, and where mainline has it */
	enum prov_id prov;		/* seed, commit and subject: provenance[prov] */
};

struct res {			/* shared with an unprivileged/limited child */
	long ret; int err, sigx;
	long long offin, offout, posin, posout;
	unsigned char ded[sizeof(struct file_dedupe_range) + 3 * sizeof(struct file_dedupe_range_info)];
};

struct ctx {
	const struct tcase *tc;
	const struct fsent *fi, *fo;
	char din[2048], dout[2048], pin[PATH_MAX], pout[PATH_MAX];
	int fin, fout, extra[2], fds[6], nfds;
	long long pos_in, pos_out; unsigned long long len;
	unsigned char *iimg, *oimg; long long iimgsz, oimgsz;
	struct stat sti, sto;
	struct res *r;
	char why[WHY_MAX];
	int nimm, nswap, remounted; char imm[2][PATH_MAX], swp[2][PATH_MAX];
	unsigned long mflags; long long t0;
	const char *doing;		/* what the case is doing: named on a timeout or crash */
	int data;			/* the failed check was of the data (FAIL_DATA) */
};

static struct fsent fss[8];
static int nfs, ncross, guest, seq, case_timeout = 30;
static const char *inject;		/* --inject hang|crash|shutdown|flaky: self-test of the isolation */
static int repeat = 1;			/* --repeat N: runs of a failing case (flaky k/n) */
static int abnormal;			/* the last run_isolated's failure was a hang, a signal, a stuck fs */
static int data_failed;			/* the last run_isolated's failure was a data check's */
static char gone[8][256];		/* per fs: why it can run no more cases, once known */
static struct { int s, d; } crosses[8];
static const char *only;
static struct res *shared_res;
static struct ctx *cx;			/* MAP_SHARED: the parent cleans up after a killed case */

/* ---------------------------------------------------------------- helpers */

SG_PRINTF(3, 4) static int setwhy(struct ctx *c, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	return rc;
}
#define FAIL(c, ...) setwhy(c, 1, __VA_ARGS__)
/* A failed check of the data itself (stale, lost or wrong bytes, a wrong
 * size): the case's "# kind:" line says data; any other failed check (errno,
 * count, refusal, mode bits, timestamps, what a dedupe shares) interface. */
#define FAIL_DATA(c, ...) ((c)->data = 1, setwhy(c, 1, __VA_ARGS__))
#define SKIP(c, ...) setwhy(c, -1, __VA_ARGS__)

static const char *ename(int e)
{
	static char buf[16];
	static const struct { int e; const char *n; } t[] = {
		{ 0, "0" }, { EBADF, "EBADF" }, { EINVAL, "EINVAL" }, { EISDIR, "EISDIR" },
		{ EXDEV, "EXDEV" }, { EPERM, "EPERM" }, { ETXTBSY, "ETXTBSY" }, { EFBIG, "EFBIG" },
		{ EOVERFLOW, "EOVERFLOW" }, { EOPNOTSUPP, "EOPNOTSUPP" }, { EACCES, "EACCES" },
		{ ENOSYS, "ENOSYS" }, { ENOTTY, "ENOTTY" }, { EFAULT, "EFAULT" }, { ENODATA, "ENODATA" },
		{ EBADE, "EBADE" }, { ESPIPE, "ESPIPE" }, { ENOSPC, "ENOSPC" }, { EIO, "EIO" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e)
			return t[i].n;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

static unsigned char pat(long long off, int seed)
{
	return (unsigned char)((off * 131 + (off >> 12) * 7 + seed * 61) % 251 + 1);
}

/* Create path with size bytes: [0,same) pattern seed 1, the rest seed 2. */
static int mkpat(const char *path, long long size, long long same, int mode)
{
	unsigned char buf[65536];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	for (long long off = 0; off < size;) {
		long long n = size - off < (long long)sizeof(buf) ? size - off : (long long)sizeof(buf);
		for (long long i = 0; i < n; i++)
			buf[i] = pat(off + i, off + i < same ? 1 : 2);
		if (pwrite(fd, buf, n, off) != n) {
			close(fd);
			return -1;
		}
		off += n;
	}
	if (fchmod(fd, mode) || close(fd))
		return -1;
	return 0;
}

static unsigned char *slurp(const char *path, long long *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOATIME);	/* never touch the atime under test */
	unsigned char *p = NULL;
	if (fd < 0)
		fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size > (64 << 20))
		goto out;
	p = calloc(1, st.st_size + 1);
	if (p && pread(fd, p, st.st_size, 0) != st.st_size) {
		free(p);
		p = NULL;
	}
	*size = st.st_size;
out:
	if (fd >= 0)
		close(fd);
	return p;
}

static long long ts_ns(struct timespec t) { return t.tv_sec * 1000000000LL + t.tv_nsec; }

static long long now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec;
}

/* Wait until a new inode timestamp must differ from st's ctime (1 s
 * granularity filesystems such as 128-byte-inode ext4 report tv_nsec 0). */
static void tick(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return;
	if (st.st_ctim.tv_nsec == 0)
		while (now_s() <= st.st_ctim.tv_sec)
			usleep(20000);
	else
		usleep(30000);
}

/* FIEMAP of fd's [off, off+len) into fm, which has room for n extents: 0 ok, -1 error. */
static int fiemap(int fd, long long off, long long len, struct fiemap *fm, unsigned n)
{
	memset(fm, 0, sizeof(*fm) + n * sizeof(struct fiemap_extent));
	fm->fm_start = off;
	fm->fm_length = len;
	fm->fm_flags = 1;		/* FIEMAP_FLAG_SYNC */
	fm->fm_extent_count = n;
	return ioctl(fd, FS_IOC_FIEMAP, fm) ? -1 : 0;
}

/* Are all extents of fd in [off, off+len) shared (want=1) / none shared (want=0)? */
static int extents_are(int fd, long long off, long long len, int want)
{
	char buf[sizeof(struct fiemap) + 64 * sizeof(struct fiemap_extent)];
	struct fiemap *fm = (struct fiemap *)buf;
	if (fiemap(fd, off, len, fm, 64) || fm->fm_mapped_extents == 0)
		return 0;
	for (unsigned i = 0; i < fm->fm_mapped_extents; i++)
		if (!!(fm->fm_extents[i].fe_flags & FIEMAP_EXTENT_SHARED) != want)
			return 0;
	return 1;
}

static long long fs_maxbytes(const char *dir)
{
	char p[PATH_MAX];
	long long lo = 0, hi = LLONG_MAX;
	snprintf(p, sizeof(p), "%s/maxprobe", dir);
	int fd = open(p, O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, hi) == 0)
		lo = hi;
	while (lo < hi) {	/* largest size ftruncate accepts == s_maxbytes */
		long long mid = lo + (long long)(((unsigned long long)hi - lo + 1) / 2);
		if (ftruncate(fd, mid) == 0)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (ftruncate(fd, 0)) { /* best effort */ }
	close(fd);
	unlink(p);
	return lo;
}

/* ------------------------------------------------------------ prep hooks */

static int set_immutable(struct ctx *c, int fd, const char *path)
{
	int fl = 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &fl))
		return SKIP(c, "FS_IOC_GETFLAGS: %s", ename(errno));
	fl |= FS_IMMUTABLE_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &fl))
		return SKIP(c, "FS_IOC_SETFLAGS FS_IMMUTABLE_FL refused: %s", ename(errno));
	snprintf(c->imm[c->nimm++], PATH_MAX, "%s", path);
	return 0;
}
static int prep_immutable_out(struct ctx *c) { return set_immutable(c, c->fout, c->pout); }
static int prep_immutable_in(struct ctx *c) { return set_immutable(c, c->fin, c->pin); }

/* A fully written swap file (no holes, no unwritten extents) with a v1
 * SWAPSPACE2 header; the fd is opened before swapon(2). */
static int make_swap(struct ctx *c, const char *path, int *fd, int flag)
{
	long ps = sysconf(_SC_PAGESIZE), npages = 40;
	unsigned char *pg = calloc(1, ps);
	int w;
	close(*fd);
	unlink(path);
	w = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!pg || w < 0)
		return SKIP(c, "create swapfile: %s", ename(errno));
	for (long i = 0; i < npages; i++) {
		memset(pg, 0, ps);
		if (i == 0) {
			uint32_t v[3] = { 1, (uint32_t)(npages - 1), 0 }; /* version, last_page, nr_badpages */
			memcpy(pg + 1024, v, sizeof(v));
			memcpy(pg + ps - 10, "SWAPSPACE2", 10);
		}
		if (write(w, pg, ps) != ps)
			return free(pg), close(w), SKIP(c, "write swapfile: %s", ename(errno));
	}
	free(pg);
	if (fsync(w) || close(w))
		return SKIP(c, "fsync swapfile: %s", ename(errno));
	*fd = open(path, flag);
	if (*fd < 0)
		return SKIP(c, "open swapfile: %s", ename(errno));
	if (swapon(path, 0))
		return SKIP(c, "swapon refused on %s: %s", c->fo->name, ename(errno));
	snprintf(c->swp[c->nswap++], PATH_MAX, "%s", path);
	return 0;
}
static int prep_swap_out(struct ctx *c) { return make_swap(c, c->pout, &c->fout, O_WRONLY); }
static int prep_swap_in(struct ctx *c) { return make_swap(c, c->pin, &c->fin, O_RDONLY); }

static int prep_maxbytes(struct ctx *c, long long back)
{
	long long m = fs_maxbytes(c->dout);
	if (m <= 0)
		return SKIP(c, "cannot probe s_maxbytes");
	c->pos_out = m - back;
	printf("# %s: s_maxbytes probed as %lld, pos_out %lld\n", c->tc->id, m, c->pos_out);
	return 0;
}
static int prep_maxbytes_at(struct ctx *c) { return prep_maxbytes(c, 0); }
static int prep_maxbytes_below(struct ctx *c) { return prep_maxbytes(c, 100); }

static int prep_oldtimes(struct ctx *c)
{
	struct timespec ts[2] = { { OLD, 0 }, { OLD, 0 } };
	if (utimensat(AT_FDCWD, c->pout, ts, 0))
		return SKIP(c, "utimensat: %s", ename(errno));
	tick(c->pout);
	return 0;
}

static int set_in_times(struct ctx *c, long long at, long long mt)
{
	struct timespec ts[2] = { { at, 0 }, { mt, 0 } };
	if (utimensat(AT_FDCWD, c->pin, ts, 0))
		return SKIP(c, "utimensat: %s", ename(errno));
	return 0;
}

static int prep_atime_rel(struct ctx *c)
{
	struct statvfs sv;
	if (statvfs(c->din, &sv) == 0 && (sv.f_flag & ST_NOATIME))
		return SKIP(c, "source mount is noatime");
	return set_in_times(c, OLD, OLD + 100);	/* atime older than mtime and 24h */
}

static unsigned long mnt_flags(const struct statvfs *sv)
{
	unsigned long f = 0;
	if (sv->f_flag & ST_RDONLY) f |= MS_RDONLY;
	if (sv->f_flag & ST_NOSUID) f |= MS_NOSUID;
	if (sv->f_flag & ST_NODEV) f |= MS_NODEV;
	if (sv->f_flag & ST_NOEXEC) f |= MS_NOEXEC;
	if (sv->f_flag & ST_NOATIME) f |= MS_NOATIME;
	if (sv->f_flag & ST_NODIRATIME) f |= MS_NODIRATIME;
	f |= (sv->f_flag & ST_RELATIME) ? MS_RELATIME : (f & MS_NOATIME) ? 0 : MS_STRICTATIME;
	return f;
}

static int prep_atime_strict(struct ctx *c)
{
	struct statvfs sv;
	if (statvfs(c->fi->dir, &sv))
		return SKIP(c, "statvfs: %s", ename(errno));
	c->mflags = mnt_flags(&sv);
	unsigned long f = (c->mflags & ~(MS_NOATIME | MS_RELATIME | MS_NODIRATIME)) | MS_STRICTATIME;
	if (mount(NULL, c->fi->dir, NULL, MS_REMOUNT | MS_BIND | f, NULL))
		return SKIP(c, "remount %s strictatime: %s", c->fi->dir, ename(errno));
	c->remounted = 1;
	/* atime in the future: relatime would leave it (atime > mtime, ctime,
	 * and not 24h old); strictatime must replace it */
	c->t0 = now_s() + 3600;
	return set_in_times(c, c->t0, now_s() - 100);
}

/* Put non-zero bytes into the dest's EOF page beyond EOF through a shared
 * mapping: the kernel must not let them show once EOF moves up. */
static int prep_mmap_garbage(struct ctx *c)
{
	int fd = open(c->pout, O_RDWR);
	unsigned char *p = fd < 0 ? MAP_FAILED : mmap(NULL, B, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return SKIP(c, "mmap dest: %s", ename(errno));
	memset(p + c->tc->out_size, 0xEE, B - c->tc->out_size);
	munmap(p, B);
	close(fd);
	return 0;
}

static int prep_fcaps(struct ctx *c)
{
	/* struct vfs_cap_data, VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
	 * permitted = CAP_NET_BIND_SERVICE */
	uint32_t cap[5] = { 0x02000001, 1u << 10, 0, 0, 0 };
	if (setxattr(c->pout, "security.capability", cap, sizeof(cap), 0))
		return SKIP(c, "setxattr security.capability refused: %s", ename(errno));
	return 0;
}

static int chown_mode(struct ctx *c, const char *p, uid_t u, gid_t g, int mode)
{
	if (chown(p, u, g) || chmod(p, mode))
		return SKIP(c, "chown/chmod: %s", ename(errno));
	return 0;
}
static int prep_sgid_ingroup(struct ctx *c) { return chown_mode(c, c->pout, 0, NOBODY, 02767); }
static int prep_owner_ro(struct ctx *c) { return chown_mode(c, c->pout, NOBODY, NOBODY, 0444); }

static int prep_multi(struct ctx *c)	/* dest 2 differs, dest 3 is a closed fd */
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/out2", c->dout);
	if (mkpat(p, c->tc->out_size, 0, 0666) || (c->extra[0] = open(p, O_RDWR)) < 0)
		return SKIP(c, "create out2: %s", ename(errno));
	c->extra[1] = 1000;
	close(1000);
	return 0;
}

/* ------------------------------------------------------------ post hooks */

static int post_mode(struct ctx *c, int want)
{
	struct stat st;
	if (stat(c->pout, &st))
		return FAIL(c, "stat: %s", ename(errno));
	if ((st.st_mode & 07777) != (unsigned)want)
		return FAIL(c, "dest mode %04o, expected %04o", st.st_mode & 07777, want);
	return 0;
}
static int post_0777(struct ctx *c) { return post_mode(c, 0777); }
static int post_0767(struct ctx *c) { return post_mode(c, 0767); }
static int post_02767(struct ctx *c) { return post_mode(c, 02767); }
static int post_04777(struct ctx *c) { return post_mode(c, 04777); }

static int post_nocaps(struct ctx *c)
{
	char v[64];
	if (getxattr(c->pout, "security.capability", v, sizeof(v)) >= 0)
		return FAIL(c, "security.capability still present on dest");
	if (errno != ENODATA)
		return FAIL(c, "getxattr: got %s, expected ENODATA", ename(errno));
	return 0;
}

static int post_times(struct ctx *c)
{
	struct stat st;
	if (stat(c->pout, &st))
		return FAIL(c, "stat: %s", ename(errno));
	if (st.st_mtim.tv_sec <= OLD + 86400)
		return FAIL(c, "dest mtime not updated (still %ld)", (long)st.st_mtim.tv_sec);
	if (ts_ns(st.st_ctim) <= ts_ns(c->sto.st_ctim))
		return FAIL(c, "dest ctime not advanced (%lld -> %lld ns)",
			    ts_ns(c->sto.st_ctim), ts_ns(st.st_ctim));
	return 0;
}

static int post_atime(struct ctx *c)
{
	struct stat st;
	if (stat(c->pin, &st))
		return FAIL(c, "stat: %s", ename(errno));
	if (c->remounted ? st.st_atim.tv_sec >= c->t0 : st.st_atim.tv_sec <= OLD + 86400)
		return FAIL(c, "source atime not updated (%ld)", (long)st.st_atim.tv_sec);
	return 0;
}

static int post_sigx(struct ctx *c)
{
	if (!!c->r->sigx != !!(c->tc->flags & F_SIGX))
		return FAIL(c, "SIGXFSZ delivered %d times, expected %s", c->r->sigx,
			    (c->tc->flags & F_SIGX) ? ">0" : "0");
	return 0;
}

static int post_again_zero(struct ctx *c)	/* at EOF now: next call copies 0 */
{
	loff_t i = c->r->offin, o = c->r->offout;
	long n = sg_copy_file_range(c->fin, &i, c->fout, &o, (size_t)B, 0);
	if (n != 0)
		return FAIL(c, "copy at source EOF returned %ld (%s), expected 0", n, ename(errno));
	return 0;
}

static int post_maxbytes(struct ctx *c)
{
	unsigned char buf[100];
	struct stat st;
	if (fstat(c->fout, &st) || st.st_size != c->pos_out + 100)
		return FAIL(c, "dest size %lld, expected %lld", (long long)st.st_size, c->pos_out + 100);
	if (pread(c->fout, buf, 100, c->pos_out) != 100)
		return FAIL(c, "read back: %s", ename(errno));
	for (int i = 0; i < 100; i++)
		if (buf[i] != pat(i, 1))
			return FAIL_DATA(c, "byte %d at s_maxbytes-100 wrong", i);
	return 0;
}

static int post_shared(struct ctx *c)
{
	long long n = c->tc->len ? (long long)c->tc->len : c->tc->in_size - c->pos_in;
	n &= ~(B - 1);		/* whole blocks only */
	if (!extents_are(c->fout, c->pos_out, n, 1) || !extents_are(c->fin, c->pos_in, n, 1))
		return FAIL(c, "FIEMAP: range [%lld,+%lld) not FIEMAP_EXTENT_SHARED in both files",
			    c->pos_out, n);
	return 0;
}
static int post_eof_shared(struct ctx *c)	/* partial EOF block deduped as well */
{
	if (!extents_are(c->fout, 0, c->tc->out_size, 1))
		return FAIL(c, "FIEMAP: partial EOF block not shared after dedupe ending at both EOFs");
	return 0;
}
static int post_mid_unshared(struct ctx *c)
{
	if (!extents_are(c->fout, 0, B, 1))
		return FAIL(c, "FIEMAP: first block not shared");
	if (!extents_are(c->fout, B, B, 0))
		return FAIL(c, "FIEMAP: partial EOF block was remapped into the middle of dest");
	return 0;
}
static int post_unshared(struct ctx *c)
{
	if (!extents_are(c->fout, 0, c->tc->out_size, 0))
		return FAIL(c, "FIEMAP: dest shares extents although data differed");
	return 0;
}

/* ---------------------------------------------------- seed 011: dio tail */

/*
 * b450672fb66b "iomap: sub-block dio needs to zeroout beyond EOF".  Without
 * it, iomap_dio_bio_actor() zeroes the tail of a sub-block write only for
 * unwritten or newly allocated (IOMAP_F_NEW) extents, so a 512-byte O_DIRECT
 * write that extends EOF into an already *written* block leaves the rest of
 * that block as it was on disk, and a later mmap read of the EOF page (the
 * page cache reads the whole EOF block) shows it.  A written block past EOF
 * with known stale contents, made deterministically on 4.19-era XFS:
 *  1. [0, 1 MiB) of the file is written with 0xA5 and fsynced;
 *  2. it is truncated to 128 KiB and fsynced + syncfs'd: [128K, 1M) is free
 *     (not busy) but still holds 0xA5 on disk;
 *  3. [0, 128K) is rewritten with 0x11, then [128K, 256K) is appended: that
 *     extending write (i_size >= 64 KiB) gets speculative preallocation past
 *     EOF, and the fsync's delalloc conversion (xfs_iomap_write_allocate)
 *     allocates all of it as *written* extents, adjacent to block 31, i.e.
 *     over the freed 0xA5 blocks, writing only the pages below EOF;
 *  4. 512 bytes of 0x22 are written with O_DIRECT at EOF (256K): the block is
 *     mapped, not new, not unwritten, so unfixed kernels zero nothing and
 *     [256K+512, 260K) stays 0xA5 on disk;
 *  5. the page cache is dropped and the EOF page read through mmap: every
 *     byte past EOF must be zero.
 * The drop in 5 is belt and braces: the O_DIRECT write already invalidates
 * the page.  FIEMAP shows the EOF block's state before the O_DIRECT write; it
 * is printed as a diagnostic.  Mainline XFS (6.1 included) converts delalloc
 * to unwritten extents (xfs_bmapi_convert_delalloc), and ext4 has a hole
 * there (its dio allocates: IOMAP_F_NEW), so on those the old need_zeroout
 * covers the tail too and the check passes with or without the fix: it is
 * the mainline contract, and only 4.19-era XFS reaches the unfixed path.
 */
static char dio_eof_state[256];

/* FIEMAP the block at off: 1 mapped (*phys, *flags), 0 hole, -1 error. */
static int ext_at(int fd, long long off, unsigned long long *phys, unsigned *flags)
{
	char buf[sizeof(struct fiemap) + 4 * sizeof(struct fiemap_extent)];
	struct fiemap *fm = (struct fiemap *)buf;
	if (fiemap(fd, off, B, fm, 4))
		return -1;
	for (unsigned i = 0; i < fm->fm_mapped_extents; i++)
		if ((long long)fm->fm_extents[i].fe_logical <= off &&
		    off < (long long)(fm->fm_extents[i].fe_logical + fm->fm_extents[i].fe_length)) {
			*phys = fm->fm_extents[i].fe_physical + (off - fm->fm_extents[i].fe_logical);
			*flags = fm->fm_extents[i].fe_flags;
			return 1;
		}
	return 0;
}

static long call_dio_eof(struct ctx *c)
{
	const long long base = 256 * 1024, half = 128 * 1024, span = 1 << 20;
	unsigned long long pphys = 0, phys = 0;
	unsigned pfl = 0, fl = 0;
	unsigned char *buf;
	long ret = -2;		/* -2: a setup step failed (SKIP), errno says why */
	int fd = c->fout, dfd = -1, pr, r;
	errno = 0;
	snprintf(dio_eof_state, sizeof(dio_eof_state), "not reached");
	if (posix_memalign((void **)&buf, B, span))
		return -2;
	memset(buf, 0xA5, span);
	if (pwrite(fd, buf, span, 0) != span || fsync(fd))
		goto out;
	pr = ext_at(fd, base, &pphys, &pfl);
	if (ftruncate(fd, half) || fsync(fd) || syncfs(fd))
		goto out;
	memset(buf, 0x11, base);
	if (pwrite(fd, buf, half, 0) != half || pwrite(fd, buf + half, base - half, half) != base - half ||
	    fsync(fd))
		goto out;
	r = ext_at(fd, base, &phys, &fl);
	snprintf(dio_eof_state, sizeof(dio_eof_state), "EOF block before the O_DIRECT write: %s%s",
		 r < 0 ? "FIEMAP failed" : r == 0 ? "hole" : (fl & FIEMAP_EXTENT_UNWRITTEN) ? "unwritten extent" :
		 (fl & FIEMAP_EXTENT_DELALLOC) ? "delalloc" : "written extent",
		 r == 1 && !(fl & (FIEMAP_EXTENT_UNWRITTEN | FIEMAP_EXTENT_DELALLOC)) ?
		 (pr == 1 && phys == pphys ? " over the freed 0xA5 block" : " (not the freed 0xA5 block)") : "");
	if ((dfd = open(c->pout, O_RDWR | O_DIRECT)) < 0)
		goto out;
	memset(buf, 0x22, 512);
	ret = pwrite(dfd, buf, 512, base);
	if (ret == 512) {
		fsync(dfd);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (guest) {
			int dc = open("/proc/sys/vm/drop_caches", O_WRONLY);
			if (dc >= 0 && write(dc, "3", 1) != 1) { /* best effort */ }
			if (dc >= 0)
				close(dc);
		}
	}
out:
	{
		int e = errno;
		if (dfd >= 0) close(dfd);
		free(buf);
		errno = e;
	}
	return ret;
}

static int post_dio_eof(struct ctx *c)
{
	const long long base = 256 * 1024;
	int fd = open(c->pout, O_RDONLY), nz = 0, first = -1;
	unsigned char *p = fd < 0 ? MAP_FAILED : mmap(NULL, base + B, PROT_READ, MAP_SHARED, fd, 0);
	printf("# %s.%s: %s\n", c->tc->id, c->fo->name, dio_eof_state);
	if (p == MAP_FAILED)
		return FAIL(c, "mmap: %s", ename(errno));
	for (long long i = 0; i < base + 512; i++)
		if (p[i] != (i < base ? 0x11 : 0x22)) {
			munmap(p, base + B), close(fd);
			return FAIL_DATA(c, "data byte %lld wrong (0x%02x)", i, p[i]);
		}
	for (long long i = base + 512; i < base + B; i++)
		if (p[i]) {
			nz++;
			if (first < 0)
				first = p[i];
		}
	munmap(p, base + B);
	close(fd);
	if (nz)
		return FAIL_DATA(c, "%d bytes past EOF in the EOF page are non-zero (first 0x%02x%s) - "
			    "stale data exposed via mmap; %s", nz, first, first == 0xA5 ? ", poison" : "",
			    dio_eof_state);
	return 0;
}

/* ------------------------------------------------------------- the calls */

static long cfr_once(struct ctx *c, int op, loff_t *oi, loff_t *oo, size_t len)
{
	if (op == OP_CFR_LIBC)
		return copy_file_range(c->fin, oi, c->fout, oo, len, c->tc->cfr_flags);
	if (op == OP_CFR_NULL)
		return sg_copy_file_range(c->fin, NULL, c->fout, NULL, len, c->tc->cfr_flags);
	return sg_copy_file_range(c->fin, oi, c->fout, oo, len, c->tc->cfr_flags);
}

static long do_call(struct ctx *c)
{
	const struct tcase *t = c->tc;
	struct res *r = c->r;
	loff_t oi = c->pos_in, oo = c->pos_out;
	long ret = 0;

	errno = 0;
	switch (t->op) {
	case OP_CFR: case OP_CFR_LIBC: case OP_CFR_NULL:
		if (t->op == OP_CFR_NULL &&
		    (lseek(c->fin, c->pos_in, SEEK_SET) < 0 || lseek(c->fout, c->pos_out, SEEK_SET) < 0))
			return -1;
		if (!(t->flags & F_LOOP)) {
			ret = cfr_once(c, t->op, &oi, &oo, c->len);
			break;
		}
		/* like cp(1): a short copy is legal, repeat until done or 0 */
		for (int i = 0; i < 4096 && (unsigned long long)ret < c->len; i++) {
			long n = cfr_once(c, t->op, &oi, &oo, c->len - ret);
			if (n < 0 && ret == 0)
				ret = -1;
			if (n <= 0)
				break;
			ret += n;
		}
		break;
	case OP_CLONE:
		ret = ioctl(c->fout, FICLONE, c->fin);
		break;
	case OP_CLONE_RANGE: {
		struct file_clone_range cr = { c->fin, (uint64_t)c->pos_in, c->len, (uint64_t)c->pos_out };
		ret = ioctl(c->fout, FICLONERANGE, &cr);
		break;
	}
	case OP_DEDUPE: {
		struct file_dedupe_range *d = (struct file_dedupe_range *)r->ded;
		int nd = t->ndest ? t->ndest : 1;
		memset(r->ded, 0, sizeof(r->ded));
		d->src_offset = c->pos_in;
		d->src_length = c->len;
		d->dest_count = nd;
		for (int i = 0; i < nd; i++) {
			d->info[i].dest_fd = i ? c->extra[i - 1] : c->fout;
			d->info[i].dest_offset = c->pos_out;
			d->info[i].status = 0x7777;	/* must be overwritten */
		}
		ret = ioctl(c->fin, FIDEDUPERANGE, d);
		break;
	}
	case OP_CUSTOM:
		ret = t->call(c);
		break;
	}
	r->err = ret < 0 ? errno : 0;
	r->offin = oi;
	r->offout = oo;
	r->posin = lseek(c->fin, 0, SEEK_CUR);
	r->posout = lseek(c->fout, 0, SEEK_CUR);
	return r->ret = ret;
}

static volatile sig_atomic_t xfsz;
static void on_xfsz(int s) { (void)s; xfsz++; }

/* The call in a child of the case's, as uid 65534 or under RLIMIT_FSIZE:
 * exit status 0, or 3 (setrlimit failed) or 4 (setuid failed). */
static int limited_call(void *arg)
{
	struct ctx *c = arg;
	const struct tcase *t = c->tc;
	struct rlimit rl = { t->rlimit, t->rlimit };
	signal(SIGXFSZ, on_xfsz);
	if ((t->flags & F_RLIMIT) && setrlimit(RLIMIT_FSIZE, &rl))
		return 3;
	if ((t->flags & F_NOBODY) && (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)))
		return 4;
	do_call(c);
	c->r->sigx = xfsz;
	return 0;
}

static int run_call(struct ctx *c)
{
	const struct tcase *t = c->tc;
	pid_t pid;
	int st;
	memset(c->r, 0, sizeof(*c->r));
	if (!(t->flags & (F_NOBODY | F_RLIMIT))) {
		do_call(c);
		return 0;
	}
	if ((pid = sg_spawn(limited_call, c, 0)) < 0)
		return SKIP(c, "fork: %s", ename(errno));
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return FAIL(c, "child died (status 0x%x)", st);
	if (WEXITSTATUS(st))
		return SKIP(c, "child could not %s", WEXITSTATUS(st) == 3 ? "setrlimit" : "drop to uid 65534");
	return 0;
}

/* --------------------------------------------------------------- runner */

static int open_kind(struct ctx *c, int kind, int in, const char *dir, char *path, long long size,
		     long long same, int flag, int mode)
{
	int sv[2];
	char p[PATH_MAX];
	switch (kind) {
	case K_REG:
		snprintf(path, PATH_MAX, "%s/%s", dir, in ? "in" : "out");
		if (mkpat(path, size, same, mode ? mode : 0666))
			return -1;
		return open(path, flag);
	case K_SAME:
		return open(c->pin, flag);
	case K_DIR:
		snprintf(path, PATH_MAX, "%s/dir", dir);
		return mkdir(path, 0755) ? -1 : open(path, O_RDONLY | O_DIRECTORY);
	case K_PIPE:	/* source: read end, dest: write end; the other end stays open */
		if (pipe(sv))
			return -1;
		c->fds[c->nfds++] = sv[in ? 1 : 0];
		return sv[in ? 0 : 1];
	case K_SOCK:
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
			return -1;
		c->fds[c->nfds++] = sv[1];
		return sv[0];
	case K_CHR:
		snprintf(p, sizeof(p), "%s/null", dir);
		if (mknod(p, S_IFCHR | 0666, makedev(1, 3)) == 0)
			return open(p, in ? O_RDONLY : O_WRONLY);
		return open("/dev/null", in ? O_RDONLY : O_WRONLY);
	case K_CLOSED:
		close(999);
		return 999;
	}
	return -1;
}

static int mkcasedir(char *out, const struct fsent *f, const char *id)
{
	snprintf(out, 2048, "%s/sg.%.40s.%d.%d", f->dir, id, (int)getpid(), ++seq);
	if (mkdir(out, 0777) || chmod(out, 0777))
		return -1;
	return 0;
}

/* Undo what a case left behind. by_parent: the case's child was killed, so
 * its descriptors and heap are gone with it; only the filesystem state
 * (swap, immutable flags, mount flags, the case directories) is undone. */
static void cleanup(struct ctx *c, int by_parent)
{
	for (int i = 0; i < c->nswap; i++)
		if (swapoff(c->swp[i]))
			printf("# warning: swapoff %s: %s\n", c->swp[i], ename(errno));
	for (int i = 0; i < c->nimm; i++) {
		int fl = 0, fd = open(c->imm[i], O_RDONLY | O_NONBLOCK);
		if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &fl) == 0) {
			fl &= ~FS_IMMUTABLE_FL;
			if (ioctl(fd, FS_IOC_SETFLAGS, &fl))
				printf("# warning: cannot clear immutable on %s\n", c->imm[i]);
		}
		if (fd >= 0)
			close(fd);
	}
	if (c->remounted && mount(NULL, c->fi->dir, NULL, MS_REMOUNT | MS_BIND | c->mflags, NULL))
		printf("# warning: restoring mount flags of %s: %s\n", c->fi->dir, ename(errno));
	if (by_parent)
		goto dirs;
	if (c->tc->in_kind != K_CLOSED && c->fin >= 0)
		close(c->fin);
	if (c->fout >= 0)
		close(c->fout);
	if (c->extra[0] >= 0)
		close(c->extra[0]);
	for (int i = 0; i < c->nfds; i++)
		close(c->fds[i]);
	free(c->iimg);
	free(c->oimg);
dirs:
	if (c->din[0])
		sg_rm_tree(c->din);
	if (c->dout[0] && strcmp(c->din, c->dout))
		sg_rm_tree(c->dout);
}

/* dest must equal its pre-call image with [pin, pin+n) of the source laid at
 * pout (zero-filled up to pout if that is past EOF); source unchanged. */
static int check_images(struct ctx *c, long long n)
{
	const struct tcase *t = c->tc;
	long long isz = 0, osz = 0, esz = c->oimgsz;
	unsigned char *ni, *no, *exp;
	int rc = 0;
	if (n > 0 && c->pos_out + n > esz)
		esz = c->pos_out + n;
	exp = calloc(1, esz + 1);
	memcpy(exp, c->oimg, c->oimgsz);
	if (n > 0)
		memcpy(exp + c->pos_out, c->iimg + c->pos_in, n);
	no = slurp(c->pout, &osz);
	ni = t->out_kind == K_SAME ? NULL : slurp(c->pin, &isz);
	if (!no || osz != esz)
		rc = FAIL_DATA(c, "dest size %lld, expected %lld", osz, esz);
	else
		for (long long i = 0; i < esz; i++)
			if (no[i] != exp[i]) {
				rc = FAIL_DATA(c, "dest byte %lld is 0x%02x, expected 0x%02x%s", i, no[i], exp[i],
					  i >= c->oimgsz && i < c->pos_out ? " (gap past old EOF)" : "");
				break;
			}
	if (!rc && t->out_kind != K_SAME && (!ni || isz != c->iimgsz || memcmp(ni, c->iimg, isz)))
		rc = FAIL_DATA(c, "source changed");
	free(exp);
	free(no);
	free(ni);
	return rc;
}

static int check_result(struct ctx *c)
{
	const struct tcase *t = c->tc;
	struct res *r = c->r;
	struct file_dedupe_range *d = (struct file_dedupe_range *)r->ded;
	long long n = 0;

	if (t->op == OP_CUSTOM && r->ret == -2)
		return SKIP(c, "setup (poison file, fsync, O_DIRECT open) failed on %s: %s",
			    c->fo->name, ename(r->err));
	if (t->want_errno && (r->ret != -1 || r->err != t->want_errno))
		return FAIL(c, "got %ld (%s), expected -1 %s", r->ret, ename(r->err), ename(t->want_errno));
	if (!t->want_errno && r->ret != t->want)
		return FAIL(c, "got %ld (%s), expected %ld", r->ret, ename(r->err), t->want);
	if (t->op == OP_DEDUPE && r->ret == 0)
		for (int i = 0; i < (t->ndest ? t->ndest : 1); i++)
			if (d->info[i].status != t->dedupe_status[i] || (long long)d->info[i].bytes_deduped != t->dedupe_bytes[i])
				return FAIL(c, "dest %d: status %d bytes_deduped %llu, expected status %d "
					    "bytes_deduped %lld", i, d->info[i].status,
					    (unsigned long long)d->info[i].bytes_deduped, t->dedupe_status[i], t->dedupe_bytes[i]);
	if (r->ret > 0 && (t->op == OP_CFR || t->op == OP_CFR_LIBC)) {
		if (r->offin != c->pos_in + r->ret || r->offout != c->pos_out + r->ret)
			return FAIL(c, "offsets updated to %lld/%lld, expected %lld/%lld", r->offin,
				    r->offout, c->pos_in + r->ret, c->pos_out + r->ret);
		if (r->posin != 0 || r->posout != 0)
			return FAIL(c, "file positions moved to %lld/%lld with explicit offsets",
				    r->posin, r->posout);
	}
	if (r->ret > 0 && t->op == OP_CFR_NULL &&
	    (r->posin != c->pos_in + r->ret || r->posout != c->pos_out + r->ret))
		return FAIL(c, "file positions %lld/%lld, expected %lld/%lld", r->posin, r->posout,
			    c->pos_in + r->ret, c->pos_out + r->ret);
	if ((t->flags & F_RLIMIT) && post_sigx(c))
		return 1;
	if (r->ret >= 0 && t->op <= OP_CFR_NULL)
		n = r->ret;
	else if (r->ret == 0 && (t->op == OP_CLONE || t->op == OP_CLONE_RANGE))
		n = t->op == OP_CLONE || !c->len ? c->iimgsz - c->pos_in : (long long)c->len;
	if (t->post && t->post(c))	/* before check_images reads the files */
		return 1;
	return !(t->flags & F_NOIMG) && c->oimg && c->iimg ? check_images(c, n) : 0;
}

static int run_case(const struct tcase *t, const struct fsent *fi, const struct fsent *fo)
{
	struct ctx *c = cx;
	int rc;

	memset(c, 0, sizeof(*c));
	c->tc = t; c->fi = fi; c->fo = fo; c->r = shared_res;
	c->fin = c->fout = c->extra[0] = c->extra[1] = -1;
	c->pos_in = t->pos_in; c->pos_out = t->pos_out; c->len = t->len;
	c->doing = "setting up its files";
	if (mkcasedir(c->din, fi, t->id) || (fo != fi && mkcasedir(c->dout, fo, t->id))) {
		rc = SKIP(c, "mkdir in %s: %s", fi->dir, ename(errno));
		goto out;
	}
	if (fo == fi)
		strcpy(c->dout, c->din);
	c->fin = open_kind(c, t->in_kind, 1, c->din, c->pin, t->in_size, t->in_size, t->in_flags, 0);
	if (c->fin < 0) {
		rc = SKIP(c, "setup source (kind %d): %s", t->in_kind, ename(errno));
		goto out;
	}
	if (t->out_kind == K_SAME)
		strcpy(c->pout, c->pin);
	c->fout = open_kind(c, t->out_kind, 0, c->dout, c->pout, t->out_size, t->out_same, t->out_flags, t->out_mode);
	if (c->fout < 0) {
		rc = SKIP(c, "setup dest (kind %d): %s", t->out_kind, ename(errno));
		goto out;
	}
	c->doing = "preparing (prep)";
	if (t->prep && (rc = t->prep(c)))
		goto out;
	if (t->in_kind == K_REG)
		c->iimg = slurp(c->pin, &c->iimgsz), stat(c->pin, &c->sti);
	if (t->out_kind == K_REG || t->out_kind == K_SAME)
		c->oimg = slurp(c->pout, &c->oimgsz), stat(c->pout, &c->sto);
	c->doing = "in the call";
	if (inject && !strcmp(inject, "hang"))
		for (;;)
			pause();
	if (inject && !strcmp(inject, "shutdown")) {	/* XFS only: the fs goes down */
		uint32_t fl = 2;			/* XFS_FSOP_GOING_FLAGS_NOLOGFLUSH */
		if (ioctl(c->fin, SG_XFS_IOC_GOINGDOWN, &fl)) {
			rc = SKIP(c, "XFS_IOC_GOINGDOWN: %s", ename(errno));
			goto out;
		}
	} else if (inject && !strcmp(inject, "flaky")) {
		rc = FAIL(c, "injected: fails on its first run only");
		goto out;
	} else if (inject) {
		raise(SIGSEGV);
	}
	if ((rc = run_call(c)))
		goto out;
	c->doing = "checking the result";
	rc = check_result(c);
out:
	c->doing = "cleaning up";
	cleanup(c, 0);
	return rc;
}

/* fs_gone I ID: 0 while fss[I] can still run cases; 1 when it has just been
 * found read-only or shut down (mkdir fails) before case ID, -1 when that
 * (or a stuck case) was found before. gone[I] says which. */
static int fs_down(int i, const char *id, char *why, size_t n)
{
	struct statvfs sv;
	char p[1100];
	snprintf(p, sizeof(p), "%s/.sg-probe", fss[i].dir);
	if (statvfs(fss[i].dir, &sv) == 0 && (sv.f_flag & ST_RDONLY))
		snprintf(why, n, "%s went read-only before %s", fss[i].name, id);
	else if (mkdir(p, 0700) && errno != EEXIST)
		snprintf(why, n, "%s: mkdir fails (%s) since before %s (shut down?)",
			 fss[i].name, ename(errno), id);
	else
		return rmdir(p), 0;
	return 1;
}

static int fs_gone(int i, const char *id)
{
	if (gone[i][0])
		return -1;
	return fs_down(i, id, gone[i], sizeof(gone[i]));
}

/* What a case's child runs: its result as the exit status, 0 pass, 1 FAIL, 2 SKIP. */
struct case_run { const struct tcase *t; const struct fsent *fi, *fo; };
static int case_child(void *arg)
{
	const struct case_run *r = arg;
	int rc = run_case(r->t, r->fi, r->fo);
	return rc == 0 ? 0 : rc < 0 ? 2 : 1;
}

/* Each case runs in its own child and process group (sg_run_isolated), as
 * kselftest_harness.h runs each test: a case that crashes or hangs costs
 * that case, reported as "timeout" or "signal N" with what it was doing, and
 * the next case runs. A child stuck in the kernel cannot be reaped even by
 * SIGKILL; its filesystem is then marked gone, like one that shut down, and
 * later cases on it are skipped naming the case that stuck it, instead of
 * each waiting out its own timeout. */
static int run_isolated(const struct tcase *t, const struct fsent *fi, const struct fsent *fo, char *why)
{
	struct case_run run = { t, fi, fo };
	struct sg_end end;
	int st;

	abnormal = 1;
	for (int i = 0; i < nfs; i++)
		if (&fss[i] == fi || &fss[i] == fo) {
			int g = fs_gone(i, t->id);
			if (g) {
				snprintf(why, WHY_MAX, "%.700s", gone[i]);
				return g;
			}
		}
	if ((t->flags & F_GUEST) && !guest) {
		snprintf(why, WHY_MAX, "needs --guest (root-only kernel state)");
		return -1;
	}
	memset(cx, 0, sizeof(*cx));
	if (sg_run_isolated(case_child, &run, case_timeout, &end)) {
		snprintf(why, WHY_MAX, "fork: %s", ename(errno));
		return -1;
	}
	inject = NULL;			/* only the first case run */
	st = end.status;
	if (!end.timed_out && WIFEXITED(st) && WEXITSTATUS(st) <= 2) {
		abnormal = 0;
		data_failed = cx->data;
		snprintf(why, WHY_MAX, "%s", cx->why);
		return WEXITSTATUS(st) == 2 ? -1 : WEXITSTATUS(st);
	}
	if (end.timed_out)
		snprintf(why, WHY_MAX, "timeout: no result after %d s, %s%s", case_timeout,
			 cx->doing ? cx->doing : "starting",
			 end.reaped ? "; killed" : "; SIGKILL did not end it (stuck in the kernel)");
	else if (WIFSIGNALED(st))
		snprintf(why, WHY_MAX, "signal %d (%s) %s", WTERMSIG(st), strsignal(WTERMSIG(st)),
			 cx->doing ? cx->doing : "starting");
	else
		snprintf(why, WHY_MAX, "case child exited %d", WEXITSTATUS(st));
	if (end.reaped)
		cleanup(cx, 1);
	else
		for (int i = 0; i < nfs; i++)
			if (&fss[i] == fi || &fss[i] == fo)
				snprintf(gone[i], sizeof(gone[i]), "%s: a process of %s is stuck in the kernel",
					 fss[i].name, t->id);
	return 1;
}

/* ----------------------------------------------------------------- table */

/* Case k of the table, built for the current B, into *t (when k is in it);
 * returns how many cases there are. */
static int case_at(int k, struct tcase *t)
{
	const struct tcase cases[] = {
#include "table-copy.h"
#include "table-remap.h"
#include "table-dio.h"
	};
	int n = (int)(sizeof(cases) / sizeof(cases[0]));

	if (k >= 0 && k < n)
		*t = cases[k];
	return n;
}

/* ------------------------------------------------------------------ main */

static void fsmask_str(const struct tcase *t, char *buf, size_t n)
{
	int k = 0;

	buf[0] = 0;
	for (size_t i = 0; i < 3; i++)
		if (t->fs & fstype[i].bit)
			k += sg_fmt(buf + k, n - k, "%s%s", k ? "," : "", fstype[i].name);
	if (t->fs & CROSS)
		sg_fmt(buf + k, n - k, "%scross", k ? "," : "");
}

static int usage(const char *m)
{
	fprintf(stderr, "sg-syscall: %s\nusage: sg-syscall --fs NAME:DIR [--fs NAME:DIR ...] "
		"[--cross SRC:DST ...] [--guest] [--only GLOB] [--timeout SEC] [--repeat N]\n\t\t[--inject hang|crash|shutdown|flaky (self-test: the first case hangs, crashes,\n\t\tshuts its XFS down or fails its first run only)] | --list\n", m);
	return 2;
}

static int find_fs(const char *name)
{
	for (int i = 0; i < nfs; i++)
		if (!strcmp(fss[i].name, name))
			return i;
	return -1;
}

static int selected(const struct tcase *t, const char *name)
{
	return !only || !fnmatch(only, t->id, 0) || !fnmatch(only, name, 0);
}

/* --list: each case's id, filesystems and what it pins, a line each */
static int list_cases(void)
{
	char m[64];
	struct tcase t;

	for (int k = 0, n = case_at(-1, NULL); k < n; k++) {
		case_at(k, &t);
		fsmask_str(&t, m, sizeof(m));
		printf("%s\t%s%s\t%s\n", t.id, m, (t.flags & F_GUEST) ? ",guest" : "", t.pins);
	}
	return 0;
}

static char crossarg[8][64];	/* the --cross SRC:DST arguments, read once every --fs is */
static int ncrossarg;

/* --fs NAME:DIR into fss[] */
static int add_fs(const char *arg)
{
	struct sg_fs f;
	const char *bad;
	int k;
	if (nfs == 8)
		return usage("too many --fs");
	if (sg_fs_parse(arg, &f, &bad))
		return usage(bad);
	for (k = 0; k < 3 && sg_fs_magic(f.name) != sg_fs_magic(fstype[k].name); k++)
		;
	if (k == 3)
		return usage("unknown fs name (xfs, ext4, tmpfs, or one of them _PROFILE)");
	if (find_fs(f.name) >= 0)
		return usage("fs named twice");
	fss[nfs].name = strdup(f.name);
	fss[nfs].bit = fstype[k].bit;
	snprintf(fss[nfs++].dir, sizeof(fss[0].dir), "%.1023s", f.dir);
	return 0;
}

/* The command line, in order (--list lists at once): -1 to go on, else the
 * exit status (0 after --list, 2 after a usage error). */
static int parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--list")) {
			return list_cases();
		} else if (!strcmp(a, "--guest")) {
			guest = 1;
		} else if (!strcmp(a, "--timeout") && v) {
			case_timeout = atoi(v), i++;
			if (case_timeout <= 0)
				return usage("--timeout wants seconds > 0");
		} else if (!strcmp(a, "--repeat") && v) {
			repeat = atoi(v), i++;
			if (repeat <= 0 || repeat > 100)
				return usage("--repeat wants runs 1..100");
		} else if (!strcmp(a, "--inject") && v && (!strcmp(v, "hang") || !strcmp(v, "crash") ||
							   !strcmp(v, "flaky") ||
							   !strcmp(v, "shutdown"))) {
			inject = v, i++;
		} else if (!strcmp(a, "--only") && v) {
			only = v, i++;
		} else if (!strcmp(a, "--fs") && v) {
			i++;
			if (add_fs(v))
				return 2;
		} else if (!strcmp(a, "--cross") && v && ncrossarg < 8) {
			snprintf(crossarg[ncrossarg++], 64, "%s", v);
			i++;
		} else {
			return usage("bad argument");
		}
	}
	if (!nfs)
		return usage("no --fs given");
	return -1;
}

/* --cross SRC:DST into crosses[]: 0, or 2 after a Bail out */
static int add_crosses(void)
{
	for (int i = 0; i < ncrossarg; i++) {
		char *d = strchr(crossarg[i], ':');
		int s, t;
		if (d)
			*d++ = 0;
		if (!d || (s = find_fs(crossarg[i])) < 0 || (t = find_fs(d)) < 0 || s == t) {
			sg_ktap_bail("--cross %s: both names must be given with --fs and differ", crossarg[i]);
			return 2;
		}
		crosses[ncross].s = s;
		crosses[ncross++].d = t;
	}
	return 0;
}

/* Each --fs DIR is a directory on the filesystem it names: a "# fs" line
 * each, 0; or 2 after a Bail out */
static int check_filesystems(void)
{
	for (int i = 0; i < nfs; i++) {
		struct statfs sf;
		char bad[PATH_MAX + 100];
		if (sg_fs_check(fss[i].name, fss[i].dir, bad, sizeof(bad)) || statfs(fss[i].dir, &sf)) {
			sg_ktap_bail("%s", bad);
			return 2;
		}
		printf("# fs %s: %s (f_type 0x%lx, f_bsize %ld)\n", fss[i].name, fss[i].dir,
		       (unsigned long)sf.f_type, (long)sf.f_bsize);
		fss[i].block = sf.f_bsize;
	}
	return 0;
}

/* What a failing case breaks, its provenance, on the lines before its
 * result: "# kind: data|interface" (which kind of check failed; none for a
 * case that hung or crashed) and "# pins: ..." */
static void print_pins(const struct tcase *t, const char *kind)
{
	const struct prov *p = &provenance[t->prov];
	if (kind)
		sg_say("# kind: %s\n", kind);
	sg_say("# pins: commit %s seed %s patch %s%s%s\n",
	       p->commit ? p->commit : "-", p->seed ? p->seed : "-",
	       p->subject ? "\"" : "-", p->subject ? p->subject : "",
	       p->subject ? "\"" : "");
}

/* One more run of a failed case, for sg_rerun: > 0 when it failed again */
struct again { const struct tcase *t; const struct fsent *fi, *fo; };
static int run_again(void *arg)
{
	struct again *a = arg;
	char why[WHY_MAX];

	return run_isolated(a->t, a->fi, a->fo, why);
}

/* Every (case, target) selected, in order: a case on each --fs it applies
 * to, or on each --cross pair it allows. run 0: count them; run 1: run each
 * and print its result. Returns how many there are. */
static int each_target(int run)
{
	int n = 0;
	struct tcase tk;

	for (int k = 0, nk = case_at(-1, NULL); k < nk; k++) {
		const struct tcase *t = &tk;
		case_at(k, &tk);
		int ntarget = (t->fs & CROSS) ? ncross : nfs;
		for (int j = 0; j < ntarget; j++) {
			const struct fsent *fi, *fo;
			char name[160], why[WHY_MAX], why2[WHY_MAX];
			const char *kind;
			int rc;
			if (t->fs & CROSS) {
				fi = &fss[crosses[j].s];
				fo = &fss[crosses[j].d];
				if (t->cross_src && !(t->cross_src & fi->bit))
					continue;
				snprintf(name, sizeof(name), "%s.%s-%s", t->id, fi->name, fo->name);
			} else {
				fi = fo = &fss[j];
				if (!(t->fs & fi->bit))
					continue;
				snprintf(name, sizeof(name), "%s.%s", t->id, fi->name);
			}
			if (!selected(t, name))
				continue;
			n++;
			if (!run)
				continue;
			B = fi->block > fo->block ? fi->block : fo->block;
			case_at(k, &tk);
			rc = run_isolated(t, fi, fo, why);
			kind = abnormal ? NULL : data_failed ? "data" : "interface";
			/* rerun a failure, unless its filesystem went down meanwhile:
			 * the next case names that, once */
			if (rc > 0 && !abnormal && repeat > 1 && !fs_down((int)(fi - fss), t->id, why2, sizeof(why2)) &&
			    !fs_down((int)(fo - fss), t->id, why2, sizeof(why2))) {
				struct again a = { t, fi, fo };
				sg_rerun(repeat, run_again, &a, name, why, WHY_MAX);
			}
			if (rc > 0)
				print_pins(t, kind);
			sg_ktap_result(rc, name, "%s", why);
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if ((rc = parse_args(argc, argv)) >= 0)
		return rc;
	sg_ktap_header();
	if (add_crosses())
		return 2;
	if (geteuid() != 0) {
		sg_ktap_bail("must run as root (cases fork uid 65534 children themselves)");
		return 2;
	}
	if (check_filesystems())
		return 2;
	shared_res = mmap(NULL, sizeof(struct res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	cx = mmap(NULL, sizeof(struct ctx), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared_res == MAP_FAILED || cx == MAP_FAILED) {
		sg_ktap_bail("mmap: %s", strerror(errno));
		return 2;
	}
	umask(0);
	/* the same enumeration twice: the plan, then the cases */
	sg_ktap_plan(each_target(0));
	each_target(1);
	return sg_ktap_finish();
}
