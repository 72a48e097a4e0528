/*
 * sg-soak - seeded random file-operation soak test (the fsx role) with an
 * exact in-memory model of every file, and a forked multi-worker mode (the
 * fsstress role).  Output is KTAP, one result per filesystem configuration.
 *
 * Replay design (details in README.md):
 *  - op N is a pure function of (worker seed, N, model state): every op draws
 *    from its own RNG seeded by mix(wseed, N), so regenerating op N never
 *    depends on how many random numbers earlier ops consumed;
 *  - every executed op is logged in a resolved form (file, offsets, length,
 *    data seed, result, size after), as one text line;
 *  - --replay of a log starting at op 1 (a --record file) executes the logged
 *    ops verbatim, without the generator;
 *  - --replay of a ring tail (the failure oplog) regenerates ops 1..first-1
 *    from the seed in the log header, then executes the logged tail verbatim,
 *    cross-checking that the generator agrees with the logged ops;
 *  - --minimise of a failing log expands it to every op it ran (replay
 *    regenerates a ring tail's prefix), then delta-debugs it (ddmin) over
 *    verbatim replays, each in fresh files, down to a log from which no
 *    single op can be removed without losing the failure's class.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sg.h"

#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE 0x01
#endif
#ifndef FALLOC_FL_PUNCH_HOLE
#define FALLOC_FL_PUNCH_HOLE 0x02
#endif
#ifndef FALLOC_FL_COLLAPSE_RANGE
#define FALLOC_FL_COLLAPSE_RANGE 0x08
#endif
#ifndef FALLOC_FL_ZERO_RANGE
#define FALLOC_FL_ZERO_RANGE 0x10
#endif
#ifndef FALLOC_FL_INSERT_RANGE
#define FALLOC_FL_INSERT_RANGE 0x20
#endif
#ifndef FALLOC_FL_UNSHARE_RANGE
#define FALLOC_FL_UNSHARE_RANGE 0x40
#endif


typedef uint64_t u64;
typedef int64_t s64;
typedef unsigned long long ull;

#define MAXFS 16
#define MAXFILES 8              /* own files per worker */
#define NSHARED 1               /* read-only shared clone/dedupe sources */
#define MAXRING 1000
#define REPMAX (64 * 1024)
#define LOGTAG "sg-soak-log v1 "
#define OPLOG "# oplog: "
#define ABIT(o, k) (((o)->arg >> (56 + (k))) & 1)   /* flag bits of an op */

enum { OK = 0, NOOP = -1, FAILED = -2 };

static u64 min64(u64 a, u64 b) { return a < b ? a : b; }
static u64 max64(u64 a, u64 b) { return a > b ? a : b; }
static u64 rup(u64 x, u64 g) { return (x + g - 1) / g * g; }
static u64 rdown(u64 x, u64 g) { return x / g * g; }

/* ---- randomness: splitmix64 ---- */
static u64 mix64(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
struct rng { u64 s; };
static u64 rnext(struct rng *r) { return mix64(r->s += 0x9e3779b97f4a7c15ULL); }
static u64 rnd(struct rng *r, u64 n) { return n ? rnext(r) % n : 0; }
static void fill(unsigned char *p, u64 len, u64 seed)
{
	struct rng r = { seed };
	for (u64 i = 0; i < len; i += 8) {
		u64 v = rnext(&r);
		memcpy(p + i, &v, min64(8, len - i));
	}
}

/* ---- ops ---- */
struct op {
	uint32_t n;
	uint8_t type, f, sf, pad;
	u64 off, len, soff, arg;
	s64 res;
	u64 size;               /* destination size after the op */
};

enum {
	OP_READ, OP_WRITE, OP_MAPREAD, OP_MAPWRITE, OP_TRUNCATE,
	OP_FALLOC, OP_FALLOC_KEEP, OP_PUNCH, OP_ZERO, OP_ZERO_KEEP,
	OP_COLLAPSE, OP_INSERT, OP_UNSHARE, OP_FSYNC, OP_COPY, OP_CLONE,
	OP_DEDUPE, OP_DREAD, OP_DWRITE, OP_REOPEN, OP_INJECT, OP_VERIFY, NOPS
};

/* generation/exec flags */
enum {
	G_OWN = 1,      /* target is one of the worker's own files */
	G_WITHIN = 2,   /* range must lie inside the current size */
	G_DIO = 4,      /* O_DIRECT granularity */
	G_NOLEN = 8,    /* op has no length; never a no-op */
	G_EINVAL = 16,  /* EINVAL on first use means "unsupported" */
	G_REMAP = 32,   /* copy/clone/dedupe: --reread re-reads everything */
};
enum { F_DIO = 1 };     /* features shared by several ops */

struct worker;
struct optype;
typedef void gen_fn(struct worker *, const struct optype *, struct rng *, struct op *);
typedef int exec_fn(struct worker *, const struct optype *, struct op *);
struct optype {
	const char *name;
	unsigned weight, flags, feat;
	int mode;
	gen_fn *gen;
	exec_fn *exec;
};
static const struct optype optab[NOPS];

/* ---- options and per-configuration values ---- */
static struct {
	u64 seed, ops, max_size, verify_every, full_every;
	double duration, progress, hang;
	u64 inject_hang;
	unsigned align, block, workers, nfiles, log_ops;
	int dio_align, seed_set, reread, inject, keep;
	const char *log, *record, *replay;
	const char *minimise, *minimise_out;    /* --minimise: the log, the output record */
	u64 minimise_secs;                      /* its time bound, 0: none */
	int drop_caches, quiet;                 /* between tries; no notes (the tries) */
	int parallel;                           /* every --fs at once, a process each */
	unsigned weight[NOPS];
	unsigned nfs;
	struct sg_fs fs[MAXFS];
} opt;

static struct {
	const char *name;
	char sub[PATH_MAX];
	unsigned block, dio;
	u64 maxsz, maxlen, shared_size;
} cfg;
static u64 pgsz;

static u64 shared_seed(unsigned k) { return mix64(opt.seed ^ 0x5ea5edULL) + k; }

/* ---- workers ---- */
struct wshared {                /* in MAP_SHARED memory, read by the parent */
	volatile u64 ops;
	u64 cnt[NOPS], tk[NOPS];        /* ops run, ticks spent in each op type */
	u64 vtk, t0tk, t0ns;            /* ticks spent verifying; the worker's start, for the tick rate */
	char summary[256];
	int fkind, ferr;        /* how it failed (K_MISMATCH or K_ERROR, errno) */
	u64 nring;
	struct op ring[MAXRING];
	size_t replen;
	char rep[REPMAX];
};

struct mfile { char path[PATH_MAX]; int fd, dfd; u64 size; unsigned char *d; };
struct touch { unsigned f; u64 off, len; int resized; };

struct worker {
	unsigned idx, nown, nf, misfits;
	u64 wseed, inject_at;
	struct mfile f[MAXFILES + NSHARED];
	unsigned char *buf, *rbuf;
	int disabled[NOPS], worked[NOPS];
	struct wshared *sh;
	FILE *rec;
	struct op *cur;
	struct touch t;
	const char *what;       /* the call that failed */
};

static u64 nsnow(void) { return (u64)(sg_mono() * 1e9); }

/* The per-op timing clock: the TSC where there is one (clock_gettime may be
 * a syscall in a guest whose clocksource is not the TSC: two per op), turned
 * into seconds at the end against CLOCK_MONOTONIC over the whole run. */
static u64 ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	return nsnow();
#endif
}
static double tick_secs(const struct wshared *s)      /* seconds per tick */
{
	u64 dt = ticks() - s->t0tk;
	return dt ? (nsnow() - s->t0ns) / 1e9 / dt : 0;
}
SG_PRINTF(2, 3) static void report(struct worker *w, const char *fmt, ...)
{
	struct wshared *s = w->sh;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(s->rep + s->replen, REPMAX - s->replen, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->replen = min64(s->replen + n, REPMAX - 1);
}

SG_PRINTF(2, 3) static void note(struct worker *w, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	if (opt.quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(b, sizeof b, fmt, ap);
	va_end(ap);
	if (opt.workers > 1)
		sg_say("# note: %s w%u: %s\n", cfg.name, w->idx, b);
	else
		sg_say("# note: %s: %s\n", cfg.name, b);
}

static void fmt_op(char *b, size_t sz, const struct op *o)
{
	sg_fmt(b, sz, "op=%u %s f=%u off=0x%llx len=0x%llx sf=%u soff=0x%llx arg=0x%llx res=%lld size=0x%llx",
		 o->n, optab[o->type].name, o->f, (ull)o->off, (ull)o->len, o->sf,
		 (ull)o->soff, (ull)o->arg, (long long)o->res, (ull)o->size);
}

static int parse_op(const char *p, struct op *o)
{
	char name[32];
	unsigned n, f, sf;
	ull off, len, soff, arg, size;
	long long res;
	if (sscanf(p, "op=%u %31s f=%u off=%llx len=%llx sf=%u soff=%llx arg=%llx res=%lld size=%llx",
		   &n, name, &f, &off, &len, &sf, &soff, &arg, &res, &size) != 10)
		return -1;
	memset(o, 0, sizeof *o);
	for (o->type = 0; o->type < NOPS && strcmp(optab[o->type].name, name); o->type++)
		;
	if (o->type == NOPS || f >= MAXFILES + NSHARED || sf >= MAXFILES + NSHARED)
		return -1;
	*o = (struct op){ n, o->type, f, sf, 0, off, len, soff, arg, res, size };
	return 0;
}

/* ---- failure reporting ---- */
/* The kinds of failure; with the op type and the errno or signal they are
 * the class --minimise keeps. */
enum { K_PASS, K_MISMATCH, K_ERROR, K_SIGNAL, K_HANG, K_SETUP };
static const char *const kind_name[] = { "pass", "mismatch", "error", "signal", "hang", "setup" };

static void set_kind(struct worker *w, int kind, int err)
{
	if (!w->sh->fkind)
		w->sh->fkind = kind, w->sh->ferr = err;
}

static int fail_err(struct worker *w, int e)
{
	struct op *o = w->cur;
	set_kind(w, K_ERROR, e);
	sg_fmt(w->sh->summary, sizeof w->sh->summary, "error at op %u (%s) off %llu: %s: %s",
		 o->n, optab[o->type].name, (ull)o->off, w->what, strerror(e));
	report(w, "# error: op %u (%s) f%u off %llu len %llu: %s failed: %s\n", o->n,
	    optab[o->type].name, o->f, (ull)o->off, (ull)o->len, w->what, strerror(e));
	return FAILED;
}

SG_PRINTF(4, 5) static int mismatch(struct worker *w, unsigned fi, u64 off, const char *fmt, ...)
{
	struct op *o = w->cur;
	struct mfile *F = &w->f[fi];
	char b[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b, sizeof b, fmt, ap);
	va_end(ap);
	set_kind(w, K_MISMATCH, 0);
	sg_fmt(w->sh->summary, sizeof w->sh->summary, "mismatch at op %u (%s) off %llu",
		 o->n, optab[o->type].name, (ull)off);
	report(w, "# mismatch: op %u (%s) exposed it: file f%u (%s) off %llu (0x%llx), model size %llu%s: %s\n",
	    o->n, optab[o->type].name, fi, F->path, (ull)off, (ull)off, (ull)F->size,
	    off >= F->size ? " (past EOF: must read as zero)" : "", b);
	return FAILED;
}

static void hexrow(char *b, const unsigned char *p, u64 n)
{
	for (u64 k = 0; k < n; k++)
		sprintf(b + 3 * k, " %02x", p[k]);
	if (!n)
		*b = 0;
}

static int compare(struct worker *w, unsigned fi, u64 base, const unsigned char *act, u64 len, const char *how)
{
	const unsigned char *exp = w->f[fi].d + base;
	if (!memcmp(exp, act, len))
		return OK;
	u64 i = 0, r0;
	while (exp[i] == act[i])
		i++;
	mismatch(w, fi, base + i, "%s differs from the model (expected 0x%02x, got 0x%02x)", how, exp[i], act[i]);
	r0 = rdown(i, 16);
	r0 = r0 >= 16 ? r0 - 16 : 0;
	for (u64 r = r0; r < len && r < r0 + 48; r += 16) {
		u64 n = min64(16, len - r);
		char e[64], a[64];
		hexrow(e, exp + r, n);
		hexrow(a, act + r, n);
		report(w, "# %08llx expected:%s%s\n", (ull)(base + r), e, memcmp(exp + r, act + r, n) ? "  <--" : "");
		report(w, "# %08llx actual:  %s\n", (ull)(base + r), a);
	}
	return FAILED;
}

/* ---- guarded access to mappings (a broken fs may SIGBUS) ---- */
/* sigsetjmp without the signal mask (a syscall each time otherwise): the
 * handler runs with SA_NODEFER, so nothing is left blocked after a jump */
static sigjmp_buf bus_jmp;
static volatile sig_atomic_t bus_armed;
static void on_bus(int sig)
{
	if (bus_armed)
		siglongjmp(bus_jmp, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}
static int safe_copy(void *dst, const void *src, size_t n)
{
	if (sigsetjmp(bus_jmp, 0)) {
		bus_armed = 0;
		return -1;
	}
	bus_armed = 1;
	memcpy(dst, src, n);
	bus_armed = 0;
	return 0;
}

/* ---- the model ---- */
static void m_put(struct mfile *F, u64 off, const void *src, u64 len)
{
	if (!len)
		return;
	memmove(F->d + off, src, len);
	F->size = max64(F->size, off + len);
}
static void m_size(struct mfile *F, u64 s)
{
	if (s < F->size)
		memset(F->d + s, 0, F->size - s);  /* invariant: zero past EOF */
	F->size = s;
}
static void m_zero(struct mfile *F, u64 off, u64 len)
{
	if (off < F->size)
		memset(F->d + off, 0, min64(len, F->size - off));
}
static void set_touched(struct worker *w, unsigned f, u64 off, u64 len)
{
	w->t.f = f;
	w->t.off = off;
	w->t.len = len;
}

/* ---- checks against the model ---- */
static u64 nread;               /* what check_read read */
static int check_read(struct worker *w, unsigned fi, int dio, u64 off, u64 len, const char *how)
{
	struct mfile *F = &w->f[fi];
	int fd = dio ? F->dfd : F->fd;
	ssize_t n = 0;
	for (nread = 0; nread < len && (n = pread(fd, w->rbuf + nread, len - nread, off + nread)) > 0;)
		if ((nread += n) && dio)
			break;          /* O_DIRECT: one call, a retry would be misaligned */
	if (n < 0)
		return w->what = dio ? "pread(O_DIRECT)" : "pread", errno;
	u64 want = off < F->size ? min64(len, F->size - off) : 0;
	if (nread != want)
		return mismatch(w, fi, off + min64(nread, want), "%s returned %llu bytes, model expects %llu",
			   how, (ull)nread, (ull)want);
	return compare(w, fi, off, w->rbuf, nread, how);
}

/* Compare [off, off+len) through mmap; if the range reaches the last page,
 * also the bytes past EOF in that page, which must be zero (seed 011). */
static int check_map(struct worker *w, unsigned fi, u64 off, u64 len)
{
	struct mfile *F = &w->f[fi];
	u64 s = F->size;
	if (off >= s || !len)
		return OK;
	u64 end = min64(off + len, s), mo = rdown(off, pgsz), mend = rup(end, pgsz);
	u64 cend = mend == rup(s, pgsz) ? mend : end;
	unsigned char *p = mmap(NULL, mend - mo, PROT_READ, MAP_SHARED, F->fd, mo);
	if (p == MAP_FAILED)
		return w->what = "mmap", errno;
	int r = safe_copy(w->rbuf, p + (off - mo), cend - off);
	munmap(p, mend - mo);
	if (r)
		return mismatch(w, fi, off, "SIGBUS reading the mapping");
	return compare(w, fi, off, w->rbuf, cend - off,
		       cend > end ? "mmap read (incl. past-EOF tail of the last page)" : "mmap read");
}

/* fstat(2) itself: glibc's fstat is newfstatat(fd, "", AT_EMPTY_PATH),
 * which before Linux 6.11 copies and looks up the empty name (a PATH_MAX
 * buffer from names_cache, each time) before it gets to the same getattr.
 * The check runs 4 times an op; in the TCG guest each call took ~100 us. */
static int fstat_fd(int fd, struct stat *st)
{
#if defined(SYS_fstat) && defined(__x86_64__)
	return syscall(SYS_fstat, fd, st);     /* x86-64: the kernel's struct stat is glibc's */
#else
	return fstat(fd, st);
#endif
}

static int check_size(struct worker *w, unsigned fi)
{
	struct stat st;
	if (fstat_fd(w->f[fi].fd, &st))
		return w->what = "fstat", errno;
	if ((u64)st.st_size != w->f[fi].size)
		return mismatch(w, fi, w->f[fi].size, "st_size is %lld, model says %llu",
			   (long long)st.st_size, (ull)w->f[fi].size);
	return OK;
}

static int verify(struct worker *w, int full)
{
	int e = OK;
	struct mfile *T = &w->f[w->t.f];
	for (unsigned i = 0; i < w->nf && !e; i++)
		e = check_size(w, i);
	if (!e && w->t.len)
		e = check_read(w, w->t.f, 0, w->t.off, w->t.len, "read");
	if (!e && w->t.len && w->t.resized && T->size)
		e = check_map(w, w->t.f, T->size - 1, 1);  /* EOF page right after a size change */
	for (unsigned i = 0; full && !e && i < w->nf; i++) {
		e = check_read(w, i, 0, 0, w->f[i].size + pgsz, "read (whole file)");
		if (!e)
			e = check_map(w, i, 0, w->f[i].size);
	}
	return e > 0 ? fail_err(w, e) : e;
}

/* ---- generators ---- */
static u64 gran(const struct optype *t)
{
	return t->flags & G_DIO ? cfg.dio : opt.align;
}
static u64 pick(struct rng *r, u64 lo, u64 hi, u64 g)   /* multiple of g in [lo, hi] */
{
	lo = rup(lo, g);
	return hi < lo ? lo : lo + g * rnd(r, (hi - lo) / g + 1);
}
static u64 plen(struct rng *r, u64 g)                   /* length in [g, maxlen] */
{
	return g * (1 + rnd(r, cfg.maxlen / g));
}

static void gen_range(struct worker *w, const struct optype *t, struct rng *r, struct op *o)
{
	u64 g = gran(t), s;
	o->f = rnd(r, t->flags & G_OWN ? w->nown : w->nf);
	s = w->f[o->f].size;
	if (t->flags & G_WITHIN) {
		if (s) {
			o->off = pick(r, 0, s - 1, g);
			o->len = min64(plen(r, g), s - o->off);
		}
		return;
	}
	switch (rnd(r, 4)) {
	case 0:         /* anywhere */
		o->off = pick(r, 0, cfg.maxsz - g, g);
		break;
	case 1:         /* short, just past EOF: sub-block EOF extension */
		o->off = rup(s, g) + g * rnd(r, 2);
		o->len = g * (1 + rnd(r, 3));
		break;
	default:        /* inside or at EOF */
		o->off = pick(r, 0, s, g);
	}
	if (!o->len)
		o->len = plen(r, g);
	o->len = o->off < cfg.maxsz ? min64(o->len, cfg.maxsz - o->off) : 0;
}

static void gen_file(struct worker *w, const struct optype *t, struct rng *r, struct op *o)
{
	(void)t;
	o->f = rnd(r, w->nown);
}

static void gen_trunc(struct worker *w, const struct optype *t, struct rng *r, struct op *o)
{
	gen_file(w, t, r, o);
	o->off = pick(r, 0, rnd(r, 2) ? w->f[o->f].size : cfg.maxsz, opt.align);
}

static void gen_shift(struct worker *w, const struct optype *t, struct rng *r, struct op *o)
{
	u64 B = cfg.block, s, j, k, m;
	gen_file(w, t, r, o);
	s = w->f[o->f].size;
	if (t->mode & FALLOC_FL_COLLAPSE_RANGE) {
		m = s ? (s - 1) / B : 0;        /* off + len must stay below EOF */
		if (!m)
			return;
		k = 1 + rnd(r, min64(m, cfg.maxlen / B));
		j = rnd(r, m - k + 1);
	} else {
		if (!s || s + B > cfg.maxsz)
			return;
		j = rnd(r, (s - 1) / B + 1);    /* off below EOF */
		k = 1 + rnd(r, min64((cfg.maxsz - s) / B, cfg.maxlen / B));
	}
	o->off = j * B;
	o->len = k * B;
}

static int overlap(const struct op *o, u64 len)
{
	return o->sf == o->f && o->off < o->soff + len && o->soff < o->off + len;
}

static void gen_copy(struct worker *w, const struct optype *t, struct rng *r, struct op *o)
{
	u64 g = gran(t);
	for (int i = 0; i < 4; i++) {
		o->sf = rnd(r, w->nf);
		o->f = rnd(r, w->nown);
		u64 ss = w->f[o->sf].size, ds = w->f[o->f].size;
		if (!ss)
			continue;
		o->soff = pick(r, 0, ss - 1, g);
		o->len = plen(r, g);            /* may run past source EOF: short copy */
		o->off = pick(r, 0, min64(ds + cfg.maxlen, cfg.maxsz - o->len), g);
		if (!overlap(o, o->len))
			return;
	}
	o->len = 0;
}

/* clone (mode 0) and dedupe (mode 1): block-aligned offsets */
static void gen_remap(struct worker *w, const struct optype *t, struct rng *r, struct op *o)
{
	u64 B = cfg.block;
	for (int i = 0; i < 4; i++) {
		o->sf = rnd(r, w->nf);
		o->f = rnd(r, w->nown);
		u64 ss = w->f[o->sf].size, ds = w->f[o->f].size, len, blen;
		if (!ss)
			continue;
		o->soff = B * rnd(r, (ss - 1) / B + 1);
		len = B * (1 + rnd(r, cfg.maxlen / B));
		if (t->mode) {          /* dedupe: both ranges inside EOF, aligned */
			len = min64(len, rdown(ss - o->soff, B));
			if (!len || ds < len)
				continue;
			o->off = B * rnd(r, (ds - len) / B + 1);
		} else {
			if (o->soff + len > ss || !rnd(r, 4))
				len = ss - o->soff;     /* clone ending at source EOF */
			blen = rup(len, B);
			if (blen > cfg.maxsz)
				continue;
			o->off = B * rnd(r, min64(rup(ds, B) + cfg.maxlen, cfg.maxsz - blen) / B + 1);
			if (len % B && o->off + len < ds)       /* partial EOF block: only at/after dst EOF */
				o->off = rup(ds - len, B);
			if (o->off + blen > cfg.maxsz)
				continue;
		}
		if (!overlap(o, rup(len, B))) {
			o->len = len;
			return;
		}
	}
	o->len = 0;
}

/* returns -1 if every op is disabled */
static int gen_op(struct worker *w, u64 n, struct op *o)
{
	struct rng r = { mix64(w->wseed ^ mix64(n)) };
	u64 tot = 0, x;
	unsigned i;
	for (i = 0; i < NOPS; i++)
		tot += w->disabled[i] ? 0 : opt.weight[i];
	if (!tot)
		return -1;
	memset(o, 0, sizeof *o);
	o->n = n;
	x = rnd(&r, tot);
	for (i = 0; w->disabled[i] || x >= opt.weight[i]; i++)
		x -= w->disabled[i] ? 0 : opt.weight[i];
	o->type = i;
	o->arg = rnext(&r);
	optab[i].gen(w, &optab[i], &r, o);
	return 0;
}

static int gen_inject(struct worker *w, u64 n, struct op *o)
{
	struct rng r = { mix64(w->wseed ^ mix64(n) ^ 0x1e7ec7edULL) };
	unsigned f0 = rnd(&r, w->nown);
	for (unsigned i = 0; i < w->nown; i++) {
		unsigned f = (f0 + i) % w->nown;
		if (!w->f[f].size)
			continue;
		memset(o, 0, sizeof *o);
		o->n = n;
		o->type = OP_INJECT;
		o->f = f;
		o->off = rnd(&r, w->f[f].size);
		o->arg = 1 + rnd(&r, 255);
		return 1;
	}
	return 0;
}

/* ---- executors: apply to the real file and to the model ---- */
static int dio_fd(struct worker *w, unsigned fi)
{
	struct mfile *F = &w->f[fi];
	if (F->dfd < 0 && (F->dfd = open(F->path, O_RDWR | O_DIRECT)) < 0)
		return w->what = "open(O_DIRECT)", errno;
	return OK;
}

static int x_read(struct worker *w, const struct optype *t, struct op *o)
{
	int dio = t->flags & G_DIO, e = dio ? dio_fd(w, o->f) : OK;
	if (!e)
		e = check_read(w, o->f, dio, o->off, o->len, t->name);
	o->res = nread;
	return e;
}

static int x_write(struct worker *w, const struct optype *t, struct op *o)
{
	struct mfile *F = &w->f[o->f];
	int dio = t->flags & G_DIO, e = dio ? dio_fd(w, o->f) : OK;
	if (e)
		return e;
	fill(w->buf, o->len, o->arg);
	ssize_t n = pwrite(dio ? F->dfd : F->fd, w->buf, o->len, o->off);
	if (n < 0)
		return w->what = dio ? "pwrite(O_DIRECT)" : "pwrite", errno;
	o->res = n;
	m_put(F, o->off, w->buf, n);
	set_touched(w, o->f, o->off, o->len);
	if ((u64)n != o->len)
		return mismatch(w, o->f, o->off + n, "short write: %zd of %llu bytes", n, (ull)o->len);
	return OK;
}

static int x_mapread(struct worker *w, const struct optype *t, struct op *o)
{
	(void)t;
	return check_map(w, o->f, o->off, o->len);
}

static int x_mapwrite(struct worker *w, const struct optype *t, struct op *o)
{
	struct mfile *F = &w->f[o->f];
	u64 mo = rdown(o->off, pgsz), ml = o->off + o->len - mo;
	int e = OK;
	(void)t;
	unsigned char *p = mmap(NULL, ml, PROT_READ | PROT_WRITE, MAP_SHARED, F->fd, mo);
	if (p == MAP_FAILED)
		return w->what = "mmap", errno;
	fill(w->buf, o->len, o->arg);
	int r = safe_copy(p + (o->off - mo), w->buf, o->len);
	if (!r && ABIT(o, 0) && msync(p, ml, MS_SYNC))
		w->what = "msync", e = errno;
	munmap(p, ml);
	if (r)
		return mismatch(w, o->f, o->off, "SIGBUS writing the mapping");
	m_put(F, o->off, w->buf, o->len);       /* inside EOF: size unchanged */
	set_touched(w, o->f, o->off, o->len);
	return e;
}

static int x_truncate(struct worker *w, const struct optype *t, struct op *o)
{
	struct mfile *F = &w->f[o->f];
	u64 lo = min64(F->size, o->off), hi = max64(F->size, o->off);
	(void)t;
	if (ftruncate(F->fd, o->off))
		return w->what = "ftruncate", errno;
	m_size(F, o->off);
	lo = lo > pgsz ? lo - pgsz : 0;
	set_touched(w, o->f, lo, hi + pgsz - lo);
	return OK;
}

static int x_falloc(struct worker *w, const struct optype *t, struct op *o)
{
	struct mfile *F = &w->f[o->f];
	u64 old = F->size, end = o->off + o->len;
	if (fallocate(F->fd, t->mode, o->off, o->len))
		return w->what = "fallocate", errno;
	switch (t->mode & ~FALLOC_FL_KEEP_SIZE) {
	case FALLOC_FL_ZERO_RANGE:
		m_zero(F, o->off, o->len);
		/* fall through */
	case 0:
		if (!(t->mode & FALLOC_FL_KEEP_SIZE) && end > F->size)
			F->size = end;
		break;
	case FALLOC_FL_PUNCH_HOLE:
		m_zero(F, o->off, o->len);
		break;
	case FALLOC_FL_COLLAPSE_RANGE:
		memmove(F->d + o->off, F->d + end, old - end);
		m_size(F, old - o->len);
		break;
	case FALLOC_FL_INSERT_RANGE:
		memmove(F->d + end, F->d + o->off, old - o->off);
		memset(F->d + o->off, 0, o->len);
		F->size = old + o->len;
		break;
	}                       /* UNSHARE: contents unchanged */
	set_touched(w, o->f, o->off, F->size != old ? max64(old, F->size) - o->off : o->len);
	return OK;
}

static int x_fsync(struct worker *w, const struct optype *t, struct op *o)
{
	(void)t;
	if (ABIT(o, 0) ? fdatasync(w->f[o->f].fd) : fsync(w->f[o->f].fd))
		return w->what = ABIT(o, 0) ? "fdatasync" : "fsync", errno;
	return OK;
}

/* close and reopen to drop cached state; optionally flush and drop pages */
static int x_reopen(struct worker *w, const struct optype *t, struct op *o)
{
	struct mfile *F = &w->f[o->f];
	int e;
	(void)t;
	if (ABIT(o, 0)) {
		if (fdatasync(F->fd))
			return w->what = "fdatasync", errno;
		if ((e = posix_fadvise(F->fd, 0, 0, POSIX_FADV_DONTNEED)))
			return w->what = "posix_fadvise", e;
	}
	close(F->fd);
	if (F->dfd >= 0)
		close(F->dfd);
	F->dfd = -1;
	if ((F->fd = open(F->path, O_RDWR)) < 0)
		return w->what = "open", errno;
	set_touched(w, o->f, 0, F->size);
	return OK;
}

static int x_copy(struct worker *w, const struct optype *t, struct op *o)
{
	struct mfile *S = &w->f[o->sf], *D = &w->f[o->f];
	loff_t si = o->soff, di = o->off;
	u64 avail = o->soff < S->size ? S->size - o->soff : 0;
	(void)t;
	ssize_t n = sg_copy_file_range(S->fd, &si, D->fd, &di, (size_t)o->len, 0u);
	if (n < 0)
		return w->what = "copy_file_range", errno;
	o->res = n;
	if ((u64)n > min64(o->len, avail) || (u64)si != o->soff + n || (u64)di != o->off + n)
		return mismatch(w, o->f, o->off, "copy_file_range returned %zd (asked %llu, %llu available), offsets now %lld/%lld",
			   n, (ull)o->len, (ull)avail, (long long)si, (long long)di);
	m_put(D, o->off, S->d + o->soff, n);    /* exactly the bytes reported */
	set_touched(w, o->f, o->off, o->len);
	return OK;
}

static int x_clone(struct worker *w, const struct optype *t, struct op *o)
{
	struct mfile *S = &w->f[o->sf], *D = &w->f[o->f];
	struct file_clone_range a = { S->fd, o->soff, o->len, o->off };
	(void)t;
	if (ioctl(D->fd, FICLONERANGE, &a))
		return w->what = "FICLONERANGE", errno;
	o->res = o->len;
	m_put(D, o->off, S->d + o->soff, o->len);
	set_touched(w, o->f, o->off, rup(o->len, cfg.block));
	return OK;
}

static int x_dedupe(struct worker *w, const struct optype *t, struct op *o)
{
	struct mfile *S = &w->f[o->sf], *D = &w->f[o->f];
	struct { struct file_dedupe_range h; struct file_dedupe_range_info i; } a = {
		{ o->soff, o->len, 1, 0, 0 }, { D->fd, o->off, 0, 0, 0 } };
	(void)t;
	if (ABIT(o, 0)) {       /* make the ranges identical first */
		ssize_t n = pwrite(D->fd, S->d + o->soff, o->len, o->off);
		if (n != (ssize_t)o->len)
			return w->what = "pwrite (dedupe prime)", n < 0 ? errno : EIO;
		m_put(D, o->off, S->d + o->soff, o->len);
	}
	int same = !memcmp(S->d + o->soff, D->d + o->off, o->len);
	set_touched(w, o->f, o->off, o->len);
	if (ioctl(S->fd, FIDEDUPERANGE, &a))
		return w->what = "FIDEDUPERANGE", errno;
	if (a.i.status < 0)
		return w->what = "FIDEDUPERANGE status", -a.i.status;
	o->res = a.i.status == FILE_DEDUPE_RANGE_SAME ? (s64)a.i.bytes_deduped : -1;
	if ((a.i.status == FILE_DEDUPE_RANGE_SAME) != same)
		return mismatch(w, o->f, o->off, "FIDEDUPERANGE says %s, the model says the ranges %s",
			   same ? "DIFFERS" : "SAME", same ? "are identical" : "differ");
	return OK;              /* SAME or DIFFERS: contents unchanged */
}

/* the self-test hook: flip one byte behind the model's back */
static int x_inject(struct worker *w, const struct optype *t, struct op *o)
{
	unsigned char c, d;
	int fd = open(w->f[o->f].path, O_RDWR);
	(void)t;
	if (fd < 0)
		return w->what = "open (inject)", errno;
	int ok = pread(fd, &c, 1, o->off) == 1;
	d = c ^ (unsigned char)o->arg;
	ok = ok && pwrite(fd, &d, 1, o->off) == 1;
	close(fd);
	if (!ok)
		return w->what = "pread/pwrite (inject)", EIO;
	if (!opt.quiet)
		sg_say("# inject-corruption: after op %u: file f%u off %llu changed 0x%02x -> 0x%02x through a second descriptor\n",
		    o->n, o->f, (ull)o->off, c, d);
	return OK;
}

static int x_verify(struct worker *w, const struct optype *t, struct op *o)
{
	(void)t;
	(void)o;
	return verify(w, 1);
}

#define KEEP FALLOC_FL_KEEP_SIZE
static const struct optype optab[NOPS] = {
	[OP_READ]       = { "read",      10, 0, 0, 0, gen_range, x_read },
	[OP_WRITE]      = { "write",     10, G_OWN, 0, 0, gen_range, x_write },
	[OP_MAPREAD]    = { "mapread",    5, G_WITHIN, 0, 0, gen_range, x_mapread },
	[OP_MAPWRITE]   = { "mapwrite",   5, G_OWN | G_WITHIN, 0, 0, gen_range, x_mapwrite },
	[OP_TRUNCATE]   = { "truncate",   3, G_NOLEN, 0, 0, gen_trunc, x_truncate },
	[OP_FALLOC]     = { "falloc",     1, G_OWN, 0, 0, gen_range, x_falloc },
	[OP_FALLOC_KEEP] = { "falloc_keep", 1, G_OWN, 0, KEEP, gen_range, x_falloc },
	[OP_PUNCH]      = { "punch",      2, G_OWN, 0, FALLOC_FL_PUNCH_HOLE | KEEP, gen_range, x_falloc },
	[OP_ZERO]       = { "zero",       1, G_OWN, 0, FALLOC_FL_ZERO_RANGE, gen_range, x_falloc },
	[OP_ZERO_KEEP]  = { "zero_keep",  1, G_OWN, 0, FALLOC_FL_ZERO_RANGE | KEEP, gen_range, x_falloc },
	[OP_COLLAPSE]   = { "collapse",   1, 0, 0, FALLOC_FL_COLLAPSE_RANGE, gen_shift, x_falloc },
	[OP_INSERT]     = { "insert",     1, 0, 0, FALLOC_FL_INSERT_RANGE, gen_shift, x_falloc },
	[OP_UNSHARE]    = { "unshare",    1, G_OWN | G_WITHIN | G_EINVAL, 0, FALLOC_FL_UNSHARE_RANGE | KEEP, gen_range, x_falloc },
	[OP_FSYNC]      = { "fsync",      1, G_NOLEN, 0, 0, gen_file, x_fsync },
	[OP_COPY]       = { "copy",       4, G_REMAP, 0, 0, gen_copy, x_copy },
	[OP_CLONE]      = { "clone",      4, G_REMAP | G_EINVAL, 0, 0, gen_remap, x_clone },
	[OP_DEDUPE]     = { "dedupe",     3, G_REMAP | G_EINVAL, 0, 1, gen_remap, x_dedupe },
	[OP_DREAD]      = { "dread",      4, G_OWN | G_DIO | G_EINVAL, F_DIO, 0, gen_range, x_read },
	[OP_DWRITE]     = { "dwrite",     4, G_OWN | G_DIO | G_EINVAL, F_DIO, 0, gen_range, x_write },
	[OP_REOPEN]     = { "reopen",     1, G_NOLEN, 0, 0, gen_file, x_reopen },
	[OP_INJECT]     = { "inject",     0, G_NOLEN, 0, 0, gen_file, x_inject },
	[OP_VERIFY]     = { "verify",     0, G_NOLEN, 0, 0, gen_file, x_verify },
};

/* ---- dispatch ---- */
static void set_state(int *arr, unsigned type)
{
	for (unsigned i = 0; i < NOPS; i++)
		if (i == type || (optab[type].feat && optab[i].feat == optab[type].feat))
			arr[i] = 1;
}

static int unsupported(const struct optype *t, int e)
{
	return e == EOPNOTSUPP || e == ENOTTY || e == ENOSYS || e == ENODEV ||
	       (e == EINVAL && (t->flags & G_EINVAL));
}


/* Why a logged op does not fit the files as they are now, or NULL. The
 * generator makes only ops that fit; a log with ops removed (--minimise), or
 * replayed after a divergence, can hold ones that do not, on which the model
 * would not be exact (a mapwrite past EOF, an insert past the model's
 * capacity) or which the kernel can only refuse. run_op skips them. */
static const char *misfit(const struct worker *w, const struct op *o)
{
	u64 s = w->f[o->f].size, ss = w->f[o->sf].size, B = cfg.block, end = o->off + o->len, M = cfg.maxsz;
	unsigned ro = o->type == OP_READ || o->type == OP_MAPREAD;     /* may read the shared source */
	if (o->f >= (ro ? w->nf : w->nown) || o->sf >= w->nf)
		return "no such file";
	if (o->off > M || o->len > M - o->off || o->soff > M)
		return "past the size limit";
	if ((optab[o->type].flags & G_WITHIN) && end > s)
		return "range past EOF";
	switch (o->type) {
	case OP_COLLAPSE:
		return end >= s ? "collapse reaching EOF" : NULL;
	case OP_INSERT:
		return o->off >= s || s + o->len > cfg.maxsz ? "insert at EOF or past the size limit" : NULL;
	case OP_COPY:
		return o->soff >= ss || overlap(o, o->len) ? "source offset past EOF, or overlapping ranges" : NULL;
	case OP_CLONE:
		if (o->soff + o->len > ss || overlap(o, rup(o->len, B)))
			return "source range past EOF, or overlapping ranges";
		return o->len % B && (o->soff + o->len != ss || end < s) ? "partial EOF block inside the destination" : NULL;
	case OP_DEDUPE:         /* primed (bit 0): its write makes the destination range */
		return o->soff + o->len > ss || (end > s && !ABIT(o, 0)) || overlap(o, rup(o->len, B)) ?
		       "a range past EOF" : NULL;
	case OP_INJECT:
		return o->off >= s ? "offset past EOF" : NULL;
	}
	return NULL;
}

/* --minimise: every op the worker runs, in shared memory */
static struct { struct op *ops; u64 *n, max; size_t sz; } capture;

static int capture_start(u64 max)
{
	capture.sz = sizeof(u64) + max * sizeof(struct op);
	void *m = mmap(NULL, capture.sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	capture.n = m;
	capture.ops = (struct op *)(capture.n + 1);
	capture.max = max;
	return 0;
}

static void capture_stop(void)
{
	munmap(capture.n, capture.sz);
	capture.ops = NULL;
}

static int run_op(struct worker *w, struct op *o)
{
	const struct optype *t = &optab[o->type];
	struct mfile *F = &w->f[o->f];
	struct wshared *s = w->sh;
	struct op *slot = &s->ring[s->nring++ % opt.log_ops];
	u64 old = F->size, t0 = ticks();
	const char *why = NULL;
	struct op *kept = capture.ops && *capture.n < capture.max ? &capture.ops[(*capture.n)++] : slot;
	int e;

	*slot = *kept = *o;     /* logged before it runs: a crash still leaves a trace */
	w->cur = o;
	while (opt.inject_hang && o->n == opt.inject_hang)
		pause();        /* self-test of the hang watchdog */
	w->what = t->name;
	memset(&w->t, 0, sizeof w->t);
	if ((t->flags & G_NOLEN) || o->len)
		why = misfit(w, o);
	if (why && !w->misfits++)
		note(w, "replay: op %u (%s) does not fit the files here (%s): skipped, as is any later such op",
		     o->n, t->name, why);
	e = !why && ((t->flags & G_NOLEN) || o->len) ? t->exec(w, t, o) : NOOP;
	if (e != NOOP) {
		s->cnt[o->type]++;
		s->tk[o->type] += ticks() - t0;
	}
	if (e > 0 && !w->worked[o->type] && unsupported(t, e)) {
		note(w, "%s unsupported (%s: %s), disabled%s", t->name, w->what, strerror(e),
		     t->feat ? " with the ops sharing its feature" : "");
		set_state(w->disabled, o->type);
		o->res = -e;
		e = OK;
	} else if (e > 0) {
		e = fail_err(w, e);
	} else if (e == OK) {
		set_state(w->worked, o->type);
	}
	o->size = F->size;
	w->t.resized = F->size != old;
	*slot = *kept = *o;
	if (w->rec) {
		char b[256];
		fmt_op(b, sizeof b, o);
		fprintf(w->rec, "%s\n", b);
	}
	return e == NOOP ? OK : e;
}

/* run op o, then the injection (logged, or due now: chosen after the op ran,
 * so it lands inside the current size), then verify */
static int run_and_verify(struct worker *w, struct op *o, struct op *inj)
{
	struct op due;
	int e = run_op(w, o), full;
	if (!e && !inj && w->inject_at && o->n >= w->inject_at && gen_inject(w, o->n, &due)) {
		inj = &due;
		w->inject_at = 0;
	}
	full = inj != NULL;
	if (!e && inj) {
		struct touch t = w->t;
		e = run_op(w, inj);
		w->t = t;
		w->cur = o;
	}
	w->sh->ops++;
	if (e)
		return e;
	full |= opt.full_every && o->n % opt.full_every == 0;
	full |= opt.reread && (optab[o->type].flags & G_REMAP);
	u64 t0 = ticks();
	if (!full && !opt.verify_every) {       /* fsx's level: the op's file's size */
		e = check_size(w, o->f);
		e = e > 0 ? fail_err(w, e) : e;
	} else if (full || o->n % opt.verify_every == 0) {
		e = verify(w, full);
	}
	w->sh->vtk += ticks() - t0;
	return e;
}

/* ---- canonical argument strings (cmdline, log headers) ---- */
static int fmt_args(char *b, size_t sz, int hdr)
{
	int n = sg_fmt(b, sz, "--seed %llu --max-size %llu --align %u --nfiles %u --verify-every %llu --full-every %llu",
			 (ull)opt.seed, (ull)opt.max_size, opt.align, opt.nfiles,
			 (ull)opt.verify_every, (ull)opt.full_every);
	if (hdr)
		n += sg_fmt(b + n, sz - n, " --block %u --dio-align %u", cfg.block, cfg.dio);
	else {
		if (opt.ops)
			n += sg_fmt(b + n, sz - n, " --ops %llu", (ull)opt.ops);
		if (opt.duration)
			n += sg_fmt(b + n, sz - n, " --duration %g", opt.duration);
		n += sg_fmt(b + n, sz - n, " --workers %u --log-ops %u", opt.workers, opt.log_ops);
		if (opt.parallel)
			n += sg_fmt(b + n, sz - n, " --parallel");
		if (opt.block)
			n += sg_fmt(b + n, sz - n, " --block %u", opt.block);
		if (opt.dio_align >= 0)
			n += sg_fmt(b + n, sz - n, " --dio-align %d", opt.dio_align);
	}
	if (opt.reread)
		n += sg_fmt(b + n, sz - n, " --reread");
	const char *sep = " --weights ";
	for (unsigned i = 0; i < NOPS; i++)
		if (opt.weight[i] != optab[i].weight) {
			n += sg_fmt(b + n, sz - n, "%s%s=%u", sep, optab[i].name, opt.weight[i]);
			sep = ",";
		}
	return n;
}

static void name_path(char *out, const char *base, unsigned widx)
{
	int n = sg_fmt(out, PATH_MAX, "%s", base);
	if (opt.nfs > 1)
		n += sg_fmt(out + n, PATH_MAX - n, ".%s", cfg.name);
	if (opt.workers > 1)
		sg_fmt(out + n, PATH_MAX - n, ".w%u", widx);
}

static void fmt_header(char *b, size_t sz, unsigned widx)
{
	int n = sg_fmt(b, sz, LOGTAG "worker=%u args: ", widx);
	fmt_args(b + n, sz - n, 1);
}

/* ---- worker process ---- */
static int worker_main(unsigned idx, struct wshared *sh, const struct op *recs, size_t nrec)
{
	static struct worker W;
	struct worker *w = &W;
	size_t cap = cfg.maxsz + 2 * cfg.maxlen + 2 * pgsz, i = 0;
	char path[PATH_MAX], b[4096];
	int e = OK, diverged = 0;

	w->idx = idx;
	w->sh = sh;
	w->nown = opt.nfiles;
	w->nf = w->nown + NSHARED;
	w->wseed = mix64(opt.seed ^ mix64(0x5eed0000ULL + idx));
	w->buf = aligned_alloc(65536, cap);
	w->rbuf = aligned_alloc(65536, cap);
	if (!w->buf || !w->rbuf)
		return sg_say("# error: out of memory\n"), 1;
	for (unsigned f = 0; f < w->nf; f++) {
		struct mfile *F = &w->f[f];
		int own = f < w->nown;
		if (own)
			sg_fmt(F->path, PATH_MAX, "%s/w%u-f%u", cfg.sub, idx, f);
		else
			sg_fmt(F->path, PATH_MAX, "%s/shared%u", cfg.sub, f - w->nown);
		F->dfd = -1;
		F->d = calloc(1, cap);
		F->fd = open(F->path, own ? O_RDWR | O_CREAT | O_TRUNC : O_RDONLY, 0644);
		if (!F->d || F->fd < 0) {
			sg_fmt(sh->summary, sizeof sh->summary, "setup: open %s: %s", F->path, strerror(errno));
			return 1;
		}
		if (!own) {
			F->size = cfg.shared_size;
			fill(F->d, F->size, shared_seed(f - w->nown));
		}
	}
	for (unsigned k = 0; k < NOPS; k++)
		w->disabled[k] = !opt.weight[k] || (!cfg.dio && optab[k].feat == F_DIO);
	if (opt.record) {
		name_path(path, opt.record, idx);
		if (!(w->rec = fopen(path, "w"))) {
			sg_fmt(sh->summary, sizeof sh->summary, "setup: --record %s: %s", path, strerror(errno));
			return 1;
		}
		fmt_header(b, sizeof b, idx);
		fprintf(w->rec, "%s\n", b);
	}
	struct sigaction sa = { .sa_handler = on_bus, .sa_flags = SA_NODEFER };
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sh->t0tk = ticks();
	sh->t0ns = nsnow();
	if (opt.inject && idx == 0)
		w->inject_at = 1 + mix64(w->wseed ^ 0x1abe11edULL) % (opt.ops ? opt.ops : 1000);

	u64 first = nrec ? recs[0].n : 0, n, last = 0;
	double t0 = sg_mono();
	for (n = 1; !e; n++) {
		struct op o, inj, *pi = NULL, g;
		if (nrec && n >= first) {       /* replay: the logged op, verbatim */
			if (i >= nrec)
				break;
			o = recs[i++];
			if (first > 1 && !diverged && o.type != OP_INJECT && !gen_op(w, o.n, &g) &&
			    (g.type != o.type || g.f != o.f || g.sf != o.sf || g.off != o.off ||
			     g.len != o.len || g.soff != o.soff || g.arg != o.arg)) {
				diverged = 1;
				note(w, "replay: regenerated op %u differs from the log (prefix diverged: other kernel, fs or sg-soak version?); continuing with the logged ops", o.n);
			}
			if (i < nrec && recs[i].type == OP_INJECT && recs[i].n == o.n)
				inj = recs[i++], pi = &inj;
		} else if (!nrec && ((opt.ops && n > opt.ops) || (opt.duration && sg_mono() - t0 >= opt.duration))) {
			break;
		} else if (gen_op(w, n, &o)) {
			note(w, "every op is disabled, stopping");
			break;
		}
		struct op want = o;
		last = o.n;
		e = run_and_verify(w, &o, pi);
		if (!e && nrec && n >= first && !diverged && (o.res != want.res || o.size != want.size)) {
			diverged = 1;
			note(w, "replay: op %u result differs from the log (res %lld size %llu, logged res %lld size %llu)",
			     o.n, (long long)o.res, (ull)o.size, (long long)want.res, (ull)want.size);
		}
	}
	if (!e) {
		struct op v = { .n = last, .type = OP_VERIFY };
		w->cur = &v;
		memset(&w->t, 0, sizeof w->t);
		e = verify(w, 1);
	}
	if (w->rec && fclose(w->rec))
		sg_say("# note: %s: writing the record failed: %s\n", cfg.name, strerror(errno));
	return e ? 1 : 0;
}

/* ---- parent: one filesystem configuration ---- */
static unsigned probe_dio(const char *dir, unsigned block)
{
	char p[PATH_MAX];
	unsigned char *buf = aligned_alloc(65536, 65536);
	unsigned a = 0;
	int fd, dfd;
	sg_fmt(p, sizeof p, "%s/dio-probe", dir);
	if (!buf || (fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644)) < 0)
		return 0;
	memset(buf, 0x5a, 65536);
	if (pwrite(fd, buf, 65536, 0) == 65536 && !fsync(fd) && (dfd = open(p, O_RDONLY | O_DIRECT)) >= 0) {
		for (a = 512; a <= max64(block, 4096) && pread(dfd, buf, a, a) != (ssize_t)a; a *= 2)
			;
		if (a > max64(block, 4096))
			a = 0;
		close(dfd);
	} else {
		sg_say("# note: %s: O_DIRECT unavailable (%s)\n", cfg.name, strerror(errno));
	}
	close(fd);
	unlink(p);
	free(buf);
	return a;
}

static void write_oplog(const struct wshared *s, unsigned widx)
{
	char path[PATH_MAX], b[4096];
	FILE *f = NULL;
	if (opt.log) {
		name_path(path, opt.log, widx);
		if (!(f = fopen(path, "w")))
			sg_say("# note: cannot write --log %s: %s; oplog follows\n", path, strerror(errno));
	}
	u64 first = s->nring > opt.log_ops ? s->nring - opt.log_ops : 0;
	fmt_header(b, sizeof b, widx);
	for (u64 i = first; ; i++) {
		if (f)
			fprintf(f, "%s\n", b);
		else
			sg_say(OPLOG "%s\n", b);
		if (i >= s->nring)
			break;
		fmt_op(b, sizeof b, &s->ring[i % opt.log_ops]);
	}
	if (f) {
		fclose(f);
		sg_say("# oplog: last %llu ops written to %s\n", (ull)(s->nring - first), path);
	}
	sg_say("# replay: sg-soak --fs %s:<dir> --replay %s\n", cfg.name,
	    f ? path : "<file holding the '# oplog: ' lines, or this console log>");
}

/* After a hang: SIGKILL every worker still running, reap what ends within
 * 5 s. A worker stuck in the kernel is not reaped: it is left (st -1) and
 * the run goes on to the next configuration. Returns 0, the workers alive. */
static unsigned reap_or_abandon(const pid_t *pid, int *st, unsigned W)
{
	unsigned left = sg_kill_reap(pid, st, W, 0, 5);
	if (left)
		sg_say("# hang: %u worker(s) of %s not reaped after SIGKILL (stuck in the kernel), left behind\n",
		    left, cfg.name);
	return 0;
}

/* cfg for opt.fs[ci], in the directory cfg.sub (made here): 0, or -1 with
 * the reason in why */
static int cfg_setup(unsigned ci, char *why, size_t n)
{
	struct statvfs sv;
	cfg.name = opt.fs[ci].name;
	if (mkdir(cfg.sub, 0755) || statvfs(cfg.sub, &sv))
		return sg_fmt(why, n, "setup: cannot create %s: %s", cfg.sub, strerror(errno)), -1;
	cfg.block = opt.block ? opt.block : (unsigned)min64(max64(sv.f_bsize, 512), 65536);
	cfg.dio = opt.dio_align >= 0 ? (unsigned)opt.dio_align : probe_dio(cfg.sub, cfg.block);
	u64 g = max64(max64(cfg.block, cfg.dio), max64(opt.align, pgsz));
	cfg.maxlen = max64(g, rdown(min64(65536, opt.max_size / 4), g));
	cfg.maxsz = rdown(opt.max_size, g);
	cfg.shared_size = cfg.maxsz / 2 - 37;   /* unaligned EOF: clone-to-EOF cases */
	if (cfg.maxsz < 4 * cfg.maxlen)
		return sg_fmt(why, n, "setup: --max-size too small for block size %u", cfg.block), -1;
	return 0;
}

/* the read-only sources shared by all workers, in cfg.sub: 0, or -1 and why */
static int make_shared(char *why, size_t n)
{
	char b[PATH_MAX];
	for (unsigned f = 0; f < NSHARED; f++) {
		unsigned char *d = malloc(cfg.shared_size);
		sg_fmt(b, sizeof b, "%s/shared%u", cfg.sub, f);
		int fd = open(b, O_WRONLY | O_CREAT | O_TRUNC, 0444), ok = d && fd >= 0;
		if (ok) {
			fill(d, cfg.shared_size, shared_seed(f));
			ok = pwrite(fd, d, cfg.shared_size, 0) == (ssize_t)cfg.shared_size && !fsync(fd);
		}
		free(d);
		if (fd >= 0)
			close(fd);
		if (!ok)
			return sg_fmt(why, n, "setup: cannot create %s: %s", b, strerror(errno)), -1;
	}
	return 0;
}

/* --parallel: each configuration runs in a process of its own, all at once
 * (a guest with a CPU per filesystem soaks both in the time of one). Its
 * lines go to a file of its own, copied out in configuration order when all
 * have ended, so each report and oplog stays under its "# soak name=" line;
 * only the progress lines go out at once (a console must not fall silent for
 * a whole run), and the results are printed by the parent, in order. */
static int live_fd = 1;
static struct cresult { int rc; char why[1024]; } *cres;       /* shared; rc -2: none */

SG_PRINTF(4, 5) static void cfg_result(unsigned ci, int rc, const char *nm, const char *fmt, ...)
{
	char b[1024] = "";
	va_list ap;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(b, sizeof b, fmt, ap);
		va_end(ap);
	}
	if (!cres) {
		sg_ktap_result(rc, nm, "%s", b);
		return;
	}
	cres[ci].rc = rc;
	sg_fmt(cres[ci].why, sizeof cres[ci].why, "%s", b);
}

static unsigned mtry;   /* --minimise: the try running */

/* what a worker process runs (sg_spawn): worker_main, its result the exit status */
struct worker_args { unsigned idx; struct wshared *sh; const struct op *recs; size_t nrec; };
static int worker_entry(void *arg)
{
	const struct worker_args *a = arg;
	return worker_main(a->idx, a->sh, a->recs, a->nrec);
}

/* Fork *pW workers (fewer if fork fails) on recs (a replay) or the generator
 * and wait for them, with progress lines and the hang watchdog. st[i] gets
 * each one's wait status (-1: not reaped), *secs the time taken. Returns
 * the hung worker, or ~0u. */
static unsigned run_workers(struct wshared *sh, unsigned *pW, int *st, const struct op *recs, size_t nrec,
			    unsigned rworker, double *secs)
{
	unsigned W = *pW, alive = 0, hung = ~0u;
	pid_t pid[64];
	char b[4096];
	double t0 = sg_mono(), last = t0, delay = 0.001;
	u64 tot = opt.ops * W, next = tot / 10, done = 0;
	for (unsigned i = 0; i < W; i++) {
		struct worker_args a = { nrec ? rworker : i, &sh[i], recs, nrec };
		if ((pid[i] = sg_spawn(worker_entry, &a, 0)) < 0) {
			sg_say("# error: fork: %s\n", strerror(errno));
			*pW = W = i;
			break;
		}
		st[i] = -1;
		alive++;
	}
	u64 seen[64] = { 0 };
	double moved[64];
	for (unsigned i = 0; i < W; i++)
		moved[i] = t0;
	while (alive) {
		usleep(delay * 1e6);
		delay = delay < 0.1 ? delay * 2 : 0.2;
		for (unsigned i = 0; i < W; i++)
			if (st[i] == -1 && waitpid(pid[i], &st[i], WNOHANG) > 0)
				alive--;
		done = 0;
		for (unsigned i = 0; i < W; i++)
			done += sh[i].ops;
		double t = sg_mono();
		for (unsigned i = 0; i < W && hung == ~0u; i++) {
			if (st[i] != -1 || sh[i].ops != seen[i]) {
				seen[i] = sh[i].ops, moved[i] = t;
				continue;
			}
			if (t - moved[i] < opt.hang)
				continue;
			/* The op logged last is the one that does not return. */
			hung = i;
			fmt_op(b, sizeof b, &sh[i].ring[(sh[i].nring - 1) % opt.log_ops]);
			sg_fmt(sh[i].summary, sizeof sh[i].summary, "hung: no progress for %.0f s in %s", t - moved[i], b);
			sg_say("# hang name=%s worker=%u %s\n", cfg.name, i, sh[i].summary);
			alive = reap_or_abandon(pid, st, W);
		}
		if (alive && opt.minimise && t - last >= opt.progress) {
			sg_say("# minimise: try %u running: %llu of %zu ops after %.0f s\n", mtry, (ull)done, nrec, t - t0);
			last = t;
		} else if (alive && !opt.minimise && ((tot && done >= next) || t - last >= opt.progress)) {
			sg_say_fd(live_fd, "# progress name=%s ops=%llu/%llu secs=%.1f ops_per_sec=%.0f\n", cfg.name,
				 (ull)done, (ull)tot, t - t0, done / (t - t0));
			last = t;
			while (tot && next <= done)
				next += tot / 10 ? tot / 10 : 1;
		}
	}
	*secs = sg_mono() - t0;
	return hung;
}

static int run_config(unsigned ci, const struct op *recs, size_t nrec, unsigned rworker)
{
	unsigned W = opt.workers, bad = ~0u, hung;
	int st[64];
	char *r, b[4096], nm[80];
	double secs;

	sg_fmt(nm, sizeof nm, "soak.%s", opt.fs[ci].name);
	sg_fmt(cfg.sub, sizeof cfg.sub, "%s/sg-soak-%s-%d", opt.fs[ci].dir, opt.fs[ci].name, (int)getpid());
	if (cfg_setup(ci, b, sizeof b)) {
		cfg_result(ci, 1, nm, "%s", b);
		return 1;
	}
	sg_say("# soak name=%s dir=%s seed=%llu workers=%u block=%u dio-align=%u max-size=%llu\n", cfg.name,
	    cfg.sub, (ull)opt.seed, W, cfg.block, cfg.dio, (ull)cfg.maxsz);
	if (!cfg.dio)
		sg_say("# note: %s: O_DIRECT unsupported, dread and dwrite disabled\n", cfg.name);
	if (make_shared(b, sizeof b)) {
		cfg_result(ci, 1, nm, "%s", b);
		return 1;
	}

	struct wshared *sh = mmap(NULL, W * sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		cfg_result(ci, 1, nm, "setup: mmap: %s", strerror(errno));
		return 1;
	}
	hung = run_workers(sh, &W, st, recs, nrec, rworker, &secs);
	u64 done = 0;
	for (unsigned i = 0; i < W; i++)
		done += sh[i].ops;

	u64 cnt[NOPS] = { 0 };
	double ns[NOPS] = { 0 }, opsecs = 0, vsecs = 0;
	for (unsigned i = 0; i < W; i++) {
		double ts = tick_secs(&sh[i]);
		for (unsigned k = 0; k < NOPS; k++) {
			cnt[k] += sh[i].cnt[k], ns[k] += sh[i].tk[k] * ts * 1e9;
			opsecs += sh[i].tk[k] * ts;
		}
		vsecs += sh[i].vtk * ts;
	}
	int n = sg_fmt(b, sizeof b, "# soak-stats name=%s ops=%llu secs=%.2f ops_per_sec=%.0f", cfg.name,
			 (ull)done, secs, secs > 0 ? done / secs : 0);
	for (unsigned k = 0; k < OP_INJECT; k++)
		n += sg_fmt(b + n, sizeof b - n, " %s=%llu", optab[k].name, (ull)cnt[k]);
	sg_say("%s\n", b);
	n = sg_fmt(b, sizeof b, "# soak-rates name=%s", cfg.name);
	for (unsigned k = 0; k < OP_INJECT; k++)
		n += sg_fmt(b + n, sizeof b - n, " %s=%.0f", optab[k].name, ns[k] > 0 ? cnt[k] * 1e9 / ns[k] : 0);
	sg_say("%s\n", b);
	sg_say("# soak-time name=%s secs=%.2f in_ops=%.2f verifying=%.2f (summed over workers)\n", cfg.name, secs,
	    opsecs, vsecs);

	for (unsigned i = 0; i < W; i++) {
		if (i != hung && WIFEXITED(st[i]) && WEXITSTATUS(st[i]) == 0)
			continue;
		if (i == hung)
			;       /* the summary names the op */
		else if (st[i] == -1)
			sg_fmt(sh[i].summary, sizeof sh[i].summary, "worker %u not reaped after SIGKILL", i);
		else if (WIFSIGNALED(st[i]))
			sg_fmt(sh[i].summary, sizeof sh[i].summary, "worker %u killed by signal %d (%s) after %llu ops",
				 i, WTERMSIG(st[i]), strsignal(WTERMSIG(st[i])), (ull)sh[i].ops);
		else if (!sh[i].summary[0])
			sg_fmt(sh[i].summary, sizeof sh[i].summary, "worker %u failed", i);
		if (bad == ~0u || i == hung)
			bad = i;
		if (W > 1)
			sg_say("# worker %u (seed derived from %llu): %s\n", i, (ull)opt.seed, sh[i].summary);
		for (char *line = sh[i].rep; (r = strchr(line, '\n')); line = r + 1)
			sg_say("%.*s\n", (int)(r - line), line);
		if (sh[i].nring)
			write_oplog(&sh[i], nrec ? rworker : i);
	}
	if (bad == ~0u) {
		cfg_result(ci, 0, nm, NULL);
		if (!opt.keep)
			sg_rm_tree(cfg.sub);
	} else {
		sg_say("# kept %s for inspection\n", cfg.sub);
		cfg_result(ci, 1, nm, "%s%s", sh[bad].summary,
			   W > 1 ? (sg_fmt(b, sizeof b, " (worker %u)", bad), b) : "");
	}
	munmap(sh, W * sizeof *sh);
	return bad != ~0u;
}

/* what a --parallel configuration's process runs (sg_spawn): run_config,
 * its lines into its own file */
struct config_args { unsigned ci; int out; const struct op *recs; size_t nrec; unsigned rworker; };
static int config_entry(void *arg)
{
	const struct config_args *a = arg;
	dup2(a->out, 1);
	run_config(a->ci, a->recs, a->nrec, a->rworker);
	return 0;
}

/* --parallel: run_config for every --fs at once, see cres */
static void run_parallel(const struct op *recs, size_t nrec, unsigned rworker)
{
	pid_t pid[MAXFS];
	FILE *out[MAXFS];
	int st;
	char b[4096];
	ssize_t n;

	cres = mmap(NULL, opt.nfs * sizeof *cres, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cres == MAP_FAILED) {
		cres = NULL;
		sg_say("# note: --parallel: mmap: %s; one configuration after another\n", strerror(errno));
		for (unsigned i = 0; i < opt.nfs; i++)
			run_config(i, recs, nrec, rworker);
		return;
	}
	fflush(stdout);
	live_fd = dup(1);
	for (unsigned i = 0; i < opt.nfs; i++) {
		cres[i].rc = -2;
		pid[i] = -1;
		if (!(out[i] = tmpfile())) {
			sg_fmt(cres[i].why, sizeof cres[i].why, "setup: tmpfile: %s", strerror(errno));
			continue;
		}
		struct config_args a = { i, fileno(out[i]), recs, nrec, rworker };
		if ((pid[i] = sg_spawn(config_entry, &a, 0)) < 0)
			sg_fmt(cres[i].why, sizeof cres[i].why, "setup: fork: %s", strerror(errno));
	}
	for (unsigned i = 0; i < opt.nfs; i++) {
		if (pid[i] > 0 && waitpid(pid[i], &st, 0) == pid[i] && cres[i].rc == -2)
			sg_fmt(cres[i].why, sizeof cres[i].why, "its process ended without a result (%s %d)",
			     WIFSIGNALED(st) ? "signal" : "exit status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		if (out[i]) {
			rewind(out[i]);
			while ((n = fread(b, 1, sizeof b, out[i])) > 0)
				if (write(1, b, n) < 0) { /* nowhere to report it */ }
			fclose(out[i]);
		}
		sg_fmt(b, sizeof b, "soak.%s", opt.fs[i].name);
		sg_ktap_result(cres[i].rc == -2 ? 1 : cres[i].rc, b, "%s", cres[i].why);
	}
	munmap(cres, opt.nfs * sizeof *cres);
	cres = NULL;
	close(live_fd);
	live_fd = 1;
}

/* ---- --minimise: delta debugging (ddmin) over verbatim replays ---- */
static void usage(const char *why);
struct outcome { int kind, err; unsigned type; u64 n; char summary[256]; };

static struct {
	char top[PATH_MAX];             /* the tries' directories are made in it */
	struct op *all, *buf;           /* every op the log ran up to its failure; one try's */
	size_t nall;
	struct outcome cls;             /* the log's own failure: what a try must show */
	unsigned rworker, tries, cached;
	double t0;
	int stopped;                    /* 1: the time bound; 2: a worker stuck in the kernel */
	u64 *seen, *hits;               /* the lists tried that did not fail, that did (hashes) */
	size_t nseen, capseen, nhits, caphits;
} mn;

/* The class of a failure: its kind, the op that ran last when it was seen
 * (the one that failed, the one whose check saw a mismatch, or an
 * injection), and the errno or signal. Nothing else counts as the failure. */
static int same_class(const struct outcome *a, const struct outcome *b)
{
	return a->kind == b->kind && a->type == b->type && a->err == b->err;
}

static void fmt_class(char *b, size_t n, const struct outcome *o, int key)
{
	if (key)
		sg_fmt(b, n, o->err ? "%s/%s/%d" : "%s/%s", kind_name[o->kind], optab[o->type].name, o->err);
	else if (o->kind == K_ERROR)
		sg_fmt(b, n, "error %d (%s) at %s", o->err, strerror(o->err), optab[o->type].name);
	else if (o->kind == K_SIGNAL)
		sg_fmt(b, n, "signal %d (%s) at %s", o->err, strsignal(o->err), optab[o->type].name);
	else
		sg_fmt(b, n, "%s at %s", kind_name[o->kind], optab[o->type].name);
}

/* Between tries: write back, and with --drop-caches start the next from an
 * empty page cache. Writing 4 first silences the kernel's line per drop
 * (where it knows bit 2; one that does not refuses it, and says each). */
static void settle(void)
{
	static int quiet;
	sync();
	if (!opt.drop_caches)
		return;
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd >= 0 && !quiet++ && pwrite(fd, "4\n", 2, 0) < 0)
		errno = 0;
	int ok = fd >= 0 && pwrite(fd, "3\n", 2, 0) == 2;      /* at 0: a sysctl ignores a write past it */
	if (!ok) {
		sg_say("# note: %s: cannot drop caches (%s); the tries go on without\n", cfg.name, strerror(errno));
		opt.drop_caches = 0;
	}
	if (fd >= 0)
		close(fd);
}

/* One try: recs replayed by one worker in a directory of its own (fresh
 * files), removed after; how it ended in out. show: print its report. */
static void run_try(const struct op *recs, size_t nrec, struct outcome *out, int show)
{
	unsigned W = 1, hung;
	int st = 0;
	double secs;
	char *r;

	memset(out, 0, sizeof *out);
	sg_fmt(cfg.sub, sizeof cfg.sub, "%s/t%u", mn.top, mtry);
	if (mkdir(cfg.sub, 0755)) {
		out->kind = K_SETUP;
		sg_fmt(out->summary, sizeof out->summary, "setup: cannot create %s: %s", cfg.sub, strerror(errno));
		return;
	}
	struct wshared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || make_shared(out->summary, sizeof out->summary)) {
		out->kind = K_SETUP;
		if (sh == MAP_FAILED)
			sg_fmt(out->summary, sizeof out->summary, "setup: mmap: %s", strerror(errno));
		else
			munmap(sh, sizeof *sh);
		sg_rm_tree(cfg.sub);
		return;
	}
	hung = run_workers(sh, &W, &st, recs, nrec, mn.rworker, &secs);
	const struct op *last = sh->nring ? &sh->ring[(sh->nring - 1) % opt.log_ops] : NULL;
	out->type = last ? last->type : OP_VERIFY;
	out->n = last ? last->n : 0;
	if (!W)
		out->kind = K_SETUP;
	else if (hung == 0 || st == -1)
		out->kind = K_HANG, mn.stopped = st == -1 ? 2 : mn.stopped;
	else if (WIFSIGNALED(st))
		out->kind = K_SIGNAL, out->err = WTERMSIG(st);
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		out->kind = K_PASS;
	else
		out->kind = sh->fkind ? sh->fkind : K_SETUP, out->err = sh->ferr;
	if (sh->summary[0])
		sg_fmt(out->summary, sizeof out->summary, "%s", sh->summary);
	else if (out->kind == K_SIGNAL)
		sg_fmt(out->summary, sizeof out->summary, "killed by signal %d (%s) after %llu ops", out->err,
		     strsignal(out->err), (ull)sh->ops);
	else
		sg_fmt(out->summary, sizeof out->summary, out->kind == K_PASS ? "%llu ops clean" : "failed after %llu ops",
		     (ull)sh->ops);
	for (char *line = sh->rep; show && (r = strchr(line, '\n')); line = r + 1)
		sg_say("%.*s\n", (int)(r - line), line);
	munmap(sh, sizeof *sh);
	if (!opt.keep && st != -1)
		sg_rm_tree(cfg.sub);
	settle();
}

/* the ops all[idx[0..k)] into mn.buf, numbered from 1 (an injection keeps
 * the number of the op before it, so replay runs it right after that op) */
static void renumber(const size_t *idx, size_t k)
{
	uint32_t n = 0;
	for (size_t i = 0; i < k; i++) {
		mn.buf[i] = mn.all[idx[i]];
		mn.buf[i].n = mn.buf[i].type == OP_INJECT && n ? n : ++n;
	}
}

static void remember(u64 **set, size_t *n, size_t *cap, u64 h)
{
	if (*n == *cap && !(*set = realloc(*set, (*cap = 2 * *cap + 256) * sizeof **set)))
		usage("out of memory");
	(*set)[(*n)++] = h;
}

/* Do the ops all[idx[0..k)] fail in the log's class? A list of ops seen not
 * to fail before is not run again; none is run past the time bound. fresh:
 * a list seen to fail before does not count either (simplify's changes must
 * each reach a new list, or two of them could undo each other for ever). */
static int fails_in_class(const size_t *idx, size_t k, const char *what, int fresh)
{
	struct outcome o;
	char c[400], cl[160];
	u64 h = mix64(k);
	renumber(idx, k);
	for (size_t i = 0; i < k; i++) {
		const struct op *p = &mn.buf[i];
		h = mix64(h ^ mix64(p->n ^ (u64)p->type << 32 ^ (u64)p->f << 40 ^ (u64)p->sf << 48));
		h = mix64(h ^ p->off ^ mix64(p->len ^ mix64(p->soff ^ mix64(p->arg))));
	}
	for (size_t i = 0; i < mn.nseen; i++)
		if (mn.seen[i] == h)
			return mn.cached++, 0;
	for (size_t i = 0; fresh && i < mn.nhits; i++)
		if (mn.hits[i] == h)
			return mn.cached++, 0;
	if (mn.stopped)
		return 0;
	if (opt.minimise_secs && sg_mono() - mn.t0 >= opt.minimise_secs) {
		mn.stopped = 1;
		sg_say("# minimise: the %llu s bound is reached: stopping early with the shortest failing log so far\n",
		    (ull)opt.minimise_secs);
		return 0;
	}
	mtry = ++mn.tries;
	opt.quiet = 1;          /* notes on ops that no longer fit, results that differ from the log */
	run_try(mn.buf, k, &o, 0);
	opt.quiet = 0;
	int hit = same_class(&o, &mn.cls);
	fmt_class(cl, sizeof cl, &o, 0);
	if (o.kind == K_PASS)
		sg_fmt(c, sizeof c, "passes");
	else
		sg_fmt(c, sizeof c, "%s: %s", hit ? "fails, the same class" : "fails differently, not the class", o.summary);
	if (o.kind != K_PASS && !hit)
		sg_fmt(c + strlen(c), sizeof c - strlen(c), " (%s)", cl);
	sg_say("# minimise: try %u: %zu ops (%s): %s\n", mn.tries, k, what, c);
	if (hit)
		remember(&mn.hits, &mn.nhits, &mn.caphits, h);
	else
		remember(&mn.seen, &mn.nseen, &mn.capseen, h);
	return hit;
}

/* Zeller's ddmin over c[0..*len) (which fails): split into n chunks, try
 * each chunk alone, then each complement; a failing one becomes c (n back
 * to 2, or n - 1 for a complement); if none fails, n doubles. It ends when
 * n = len and no complement fails: removing any single op loses the class
 * (1-minimal). Returns 1 if it got there, 0 if it stopped early. */
static int ddmin(size_t *c, size_t *plen)
{
	size_t len = *plen, n = 2, *t = malloc(len * sizeof *t);
	char what[80];
	if (!t)
		usage("out of memory");
	while (len >= 2 && !mn.stopped) {
		int found = 0;
		for (size_t i = 0; i < n && !found; i++) {
			size_t a = i * len / n, b = (i + 1) * len / n;
			sg_fmt(what, sizeof what, "chunk %zu of %zu", i + 1, n);
			if ((found = fails_in_class(c + a, b - a, what, 0))) {
				memmove(c, c + a, (b - a) * sizeof *c);
				len = b - a, n = 2;
			}
		}
		for (size_t i = 0; i < n && !found; i++) {
			size_t a = i * len / n, b = (i + 1) * len / n, k = 0;
			for (size_t j = 0; j < len; j++)
				if (j < a || j >= b)
					t[k++] = c[j];
			sg_fmt(what, sizeof what, "without chunk %zu of %zu", i + 1, n);
			if ((found = fails_in_class(t, k, what, 0))) {
				memcpy(c, t, k * sizeof *c);
				len = k, n = n > 2 ? n - 1 : 2;
			}
		}
		if (!found && n >= len)
			break;
		if (!found)
			n = min64(2 * n, len);
	}
	free(t);
	*plen = len;
	return !mn.stopped;
}

/* Simplify each op of c[0..len) in place, one change at a time, each kept
 * only if the ops still fail in the class: its length, offset or source
 * offset lowered to a smaller block-aligned value (0 or one block, then half,
 * then aligned down), its range started at 0 with its end kept, or given the
 * range of an earlier op on the same file (a source offset: where an earlier
 * op on the source file starts). Ops entangled by exact sizes (a
 * clone to an unaligned source EOF needs the ops that made that size) come
 * apart this way, and an op moved onto another's range can make ops that
 * only prepared the old one removable: ddmin runs again after. Returns the
 * changes kept. */
static unsigned simplify(const size_t *c, size_t len, int first)
{
	static const char *const fname[] = { "len", "off", "soff", "range" };
	u64 B = cfg.block;
	unsigned kept = 0;
	char what[160];
	for (size_t i = 0; i < len && !mn.stopped; i++) {
		struct op *o = &mn.all[c[i]];
		const struct optype *t = &optab[o->type];
		u64 g = t->flags & G_DIO ? cfg.dio : 1;
		int remap = o->type == OP_COPY || o->type == OP_CLONE || o->type == OP_DEDUPE;
		if (o->type == OP_INJECT || o->type == OP_REOPEN || o->type == OP_FSYNC || o->type == OP_VERIFY)
			continue;       /* where a byte is flipped, a whole file: nothing simpler */
		/* the ranges of the earlier ops on its file, and on its source file
		 * (where they start) for a copy, clone or dedupe, as candidates */
		for (size_t j = 0; j < i && remap && !mn.stopped; j++) {
			const struct op *p = &mn.all[c[j]];
			u64 sg = o->type == OP_COPY ? 1 : B, x = rdown(p->off, sg);
			if (p->f != o->sf || (optab[p->type].flags & G_NOLEN) || x == o->soff)
				continue;
			struct op old = *o;
			o->soff = x;
			sg_fmt(what, sizeof what, "op %zu %s: soff 0x%llx -> op %zu's, 0x%llx", i + 1, t->name,
			     (ull)old.soff, j + 1, (ull)x);
			if (fails_in_class(c, len, what, 1)) {
				kept++;
				break;
			}
			*o = old;
		}
		if (first && kept)
			return kept;
		for (size_t j = 0; j < i && !(t->flags & G_NOLEN) && !mn.stopped; j++) {
			const struct op *p = &mn.all[c[j]];
			u64 pl = p->type == OP_CLONE || p->type == OP_DEDUPE ? rup(p->len, B) : p->len;
			if (p->f != o->f || (optab[p->type].flags & G_NOLEN) || (p->off == o->off && pl == o->len) ||
			    p->off % g || pl % g || !pl)
				continue;
			struct op old = *o;
			o->off = p->off, o->len = pl;
			sg_fmt(what, sizeof what, "op %zu %s: range 0x%llx+0x%llx -> op %zu's, 0x%llx+0x%llx", i + 1, t->name,
			     (ull)old.off, (ull)old.len, j + 1, (ull)o->off, (ull)o->len);
			if (fails_in_class(c, len, what, 1)) {
				kept++;
				break;
			}
			*o = old;
		}
		if (first && kept)
			return kept;
		for (int fld = 0; fld < 4 && !mn.stopped; fld++) {
			if ((fld == 0 || fld == 3) && (t->flags & G_NOLEN))
				continue;       /* a truncate has only its size (off) */
			if (fld == 2 && !remap)
				continue;
			u64 *v = fld == 0 || fld == 3 ? &o->len : fld == 1 ? &o->off : &o->soff;
			u64 lo = fld == 0 ? B : 0;
			u64 cand[3] = { lo, rdown(*v / 2, B), rdown(*v, B) };
			for (int k = 0; k < (fld == 3 ? 1 : 3); k++) {
				struct op old = *o;
				u64 x = cand[k];
				if (fld == 3) {                 /* [0, end) */
					if (!o->off)
						break;
					o->len += o->off, o->off = 0;
				} else {
					if (x >= *v || x < lo || x % g || (k && x == cand[k - 1]))
						continue;
					*v = x;
				}
				if (fld == 3)
					sg_fmt(what, sizeof what, "op %zu %s: range 0x%llx+0x%llx -> 0x0+0x%llx", i + 1, t->name,
					     (ull)old.off, (ull)old.len, (ull)o->len);
				else
					sg_fmt(what, sizeof what, "op %zu %s: %s 0x%llx -> 0x%llx", i + 1, t->name, fname[fld],
					     (ull)(fld == 0 ? old.len : fld == 1 ? old.off : old.soff), (ull)x);
				if (fails_in_class(c, len, what, 1)) {
					kept++;
					break;
				}
				*o = old;
			}
			if (first && kept)
				return kept;
		}
	}
	return kept;
}

/* Past ddmin and simplify no single op can go and no single change helps;
 * an op may still go if another changes with it (a truncate that only
 * dropped a shared extent, once the unshare is moved onto that extent).
 * For each op, the list without it gets one simplify() change: the first
 * that fails in the class is kept. Returns 1 if an op went. */
static int repair(size_t *c, size_t *plen)
{
	size_t len = *plen, *t = malloc(len * sizeof *t);
	if (!t)
		usage("out of memory");
	for (size_t k = 0; k < len && len > 1 && !mn.stopped; k++) {
		for (size_t j = 0, n = 0; j < len; j++)
			if (j != k)
				t[n++] = c[j];
		sg_say("# minimise: without op %zu %s, with one change to the others:\n", k + 1,
		    optab[mn.all[c[k]].type].name);
		if (simplify(t, len - 1, 1)) {
			memcpy(c, t, (len - 1) * sizeof *c);
			*plen = len - 1;
			free(t);
			return 1;
		}
	}
	free(t);
	return 0;
}

static int minimise(const struct op *recs, size_t nrec, unsigned rworker)
{
	char nm[80], b[4096], cl[160], key[160];
	size_t *c, len, expanded = recs[0].n - 1 + nrec;
	struct outcome o;
	FILE *out = NULL;
	int one_min, stable = 0;
	const unsigned reruns = 3;

	mn.rworker = rworker;
	mn.t0 = sg_mono();
	sg_fmt(nm, sizeof nm, "minimise.%s", opt.fs[0].name);
	sg_fmt(cfg.sub, sizeof cfg.sub, "%s/sg-soak-min-%s-%d", opt.fs[0].dir, opt.fs[0].name, (int)getpid());
	if (cfg_setup(0, b, sizeof b)) {
		sg_ktap_result(1, nm, "%s", b);
		return 1;
	}
	sg_fmt(mn.top, sizeof mn.top, "%s", cfg.sub);
	sg_say("# minimise name=%s dir=%s log=%s logged=%zu from=%u block=%u dio-align=%u bound=%llus\n", cfg.name,
	    mn.top, opt.minimise, nrec, recs[0].n, cfg.block, cfg.dio, (ull)opt.minimise_secs);

	/* the log once, as --replay runs it, keeping every op it runs */
	if (capture_start(expanded + 16)) {
		sg_ktap_result(1, nm, "setup: mmap: %s", strerror(errno));
		return 1;
	}
	run_try(recs, nrec, &mn.cls, 1);
	mn.nall = *capture.n;
	mn.all = malloc((mn.nall + 1) * sizeof *mn.all);
	mn.buf = malloc((mn.nall + 1) * sizeof *mn.buf);
	c = malloc((mn.nall + 1) * sizeof *c);
	if (!mn.all || !mn.buf || !c)
		usage("out of memory");
	memcpy(mn.all, capture.ops, mn.nall * sizeof *mn.all);
	capture_stop();
	sg_say("# minimise: the log as replayed: %zu ops (%zu regenerated from the seed, %zu logged) in %.1f s\n",
	    expanded, expanded - nrec, nrec, sg_mono() - mn.t0);
	if (mn.cls.kind == K_PASS || mn.cls.kind == K_SETUP || !mn.nall) {
		sg_ktap_result(1, nm, "%s: %s", mn.cls.kind == K_PASS ? "the log does not fail here" : "cannot run it",
			       mn.cls.summary);
		sg_rm_tree(mn.top);
		return 1;
	}
	fmt_class(cl, sizeof cl, &mn.cls, 0);
	fmt_class(key, sizeof key, &mn.cls, 1);
	sg_say("# minimise: it fails: %s\n", mn.cls.summary);
	sg_say("# minimise: class: %s; a try fails only if it fails with this class\n", cl);
	sg_say("# minimise: truncated after the failing op %llu: %zu of %zu ops\n", (ull)mn.cls.n, mn.nall, expanded);

	/* the shortest failing tail first (cheap when the cause is recent), then ddmin */
	len = mn.nall;
	for (size_t i = 0; i < len; i++)
		c[i] = i;
	for (size_t k = 1; 2 * k < len && !mn.stopped; k *= 2) {
		sg_fmt(b, sizeof b, "the last %zu", k);
		if (fails_in_class(c + len - k, k, b, 0)) {
			memmove(c, c + len - k, k * sizeof *c);
			len = k;
			break;
		}
	}
	one_min = ddmin(c, &len);
	size_t subset = len;
	unsigned changed = 0, n;
	while (!mn.stopped && ((n = simplify(c, len, 0)) || (n = repair(c, &len)))) {
		changed += n;
		one_min = ddmin(c, &len);
	}
	if (mn.stopped == 2)
		sg_say("# minimise: stopped: a worker is stuck in the kernel\n");

	/* the result once more, to log its own results, then as a record
	 * parsed back, replayed the way --replay runs it, a few times */
	renumber(c, len);
	mtry = mn.tries + 1;
	if (!capture_start(len + 1)) {
		opt.quiet = 1;  /* its results differ from the log's: that is why it runs */
		run_try(mn.buf, len, &o, 1);
		opt.quiet = 0;
		if (*capture.n == len)
			memcpy(mn.buf, capture.ops, len * sizeof *mn.buf);
		capture_stop();
	}
	if (opt.minimise_out && !(out = fopen(opt.minimise_out, "w")))
		sg_say("# note: cannot write --minimise-out %s: %s\n", opt.minimise_out, strerror(errno));
	fmt_header(b, sizeof b, rworker);
	sg_say("# minimised: %s\n", b);
	if (out)
		fprintf(out, "%s\n", b);
	for (size_t i = 0; i < len; i++) {
		struct op p = mn.buf[i];
		fmt_op(b, sizeof b, &p);
		sg_say("# minimised: %s\n", b);
		if (out)
			fprintf(out, "%s\n", b);
		if (parse_op(b, &mn.buf[i]))
			usage("internal error: an op line does not parse back");
	}
	if (out && fclose(out))
		sg_say("# note: writing --minimise-out %s failed: %s\n", opt.minimise_out, strerror(errno));
	for (unsigned i = 0; i < reruns; i++) {
		mtry = mn.tries + 2 + i;
		opt.quiet = 1;
		run_try(mn.buf, len, &o, 0);
		opt.quiet = 0;
		stable += same_class(&o, &mn.cls);
		sg_say("# minimise: rerun %u of %u: %s: %s\n", i + 1, reruns,
		    o.kind == K_PASS ? "passes" : same_class(&o, &mn.cls) ? "fails, the same class" : "fails differently",
		    o.summary);
	}
	sg_say("# minimise: done name=%s before=%zu after=%zu subset=%zu simplified=%u tries=%u cached=%u secs=%.1f stopped_early=%d one_minimal=%d reruns=%u/%u class=%s\n",
	    cfg.name, mn.nall, len, subset, changed, mn.tries, mn.cached, sg_mono() - mn.t0, mn.stopped != 0, one_min,
	    stable, reruns, key);
	if (opt.minimise_out)
		sg_say("# minimise: record written to %s; replay: sg-soak --fs %s:<dir> --replay %s\n", opt.minimise_out,
		    cfg.name, opt.minimise_out);
	if (!opt.keep)
		sg_rm_tree(mn.top);
	free(c);
	if (stable == reruns)
		sg_ktap_result(0, nm, NULL);
	else
		sg_ktap_result(1, nm, "the minimised log failed as the original in %u of %u reruns", stable, reruns);
	return stable != reruns;
}

/* ---- command line ---- */
static const char usage_text[] =
	"usage: sg-soak --fs NAME:DIR [--fs NAME:DIR ...] [options]\n"
	"  -N, --ops N            ops per worker (default 10000 unless --duration)\n"
	"      --duration SEC     stop after SEC seconds\n"
	"  -S, --seed S           seed (default: time based; always printed)\n"
	"      --max-size BYTES   max file size (k/m/g suffix; default 256k)\n"
	"      --weights op=w,..  op weights; --disable op,.. sets weight 0\n"
	"      --align N          granularity of read/write/map/falloc/copy ops (default 1)\n"
	"      --block N          fs block for collapse/insert/clone/dedupe (default: detected)\n"
	"      --dio-align N      O_DIRECT granularity (default: detected; 0 = no O_DIRECT)\n"
	"      --workers W        forked workers, each with its own files (default 1)\n"
	"      --parallel         run every --fs at once, each in its own process; its\n"
	"                         report and result are printed in --fs order at the end\n"
	"      --nfiles F         files per worker (default 3, max 8)\n"
	"      --verify-every N   read back the touched range every N ops (default 1); 0: only\n"
	"                         the op's file's st_size after each op (fsx's checking)\n"
	"      --full-every M     re-read every file via read() and mmap every M ops (default 1000)\n"
	"  -X, --reread           ... and after every copy/clone/dedupe\n"
	"      --log FILE         write the failure oplog to FILE (default: stdout, '# oplog: ')\n"
	"      --log-ops K        ops kept in the failure oplog (default 100, max 1000)\n"
	"      --record FILE      record every op to FILE\n"
	"      --replay FILE      re-execute a recorded op log or a failure oplog\n"
	"      --minimise FILE    delta-debug a failing log (record or oplog; one --fs) to a\n"
	"                         shortest record failing the same way; '# minimised: ' lines\n"
	"      --minimise-secs S  stop minimising after S s with the best so far (default 300; 0: none)\n"
	"      --minimise-out OUT also write the minimised record to OUT\n"
	"      --drop-caches      minimise: sync and drop the page cache between tries (root)\n"
	"      --inject-corruption  SELF-TEST: flip one file byte behind the model's back\n"
	"      --progress SEC     progress line interval (default 30; also every 10%)\n"
	"      --hang SEC         a worker with no op done for SEC s is hung: its op is named,\n"
	"                         the configuration ends failed, the next one runs (default 60)\n"
	"      --inject-hang N    self-test only: op N never returns\n"
	"      --keep             keep the test directory even on success\n"
	"ops:";

static void usage(const char *why)
{
	if (why)
		fprintf(stderr, "sg-soak: %s\n", why);
	fputs(usage_text, stderr);
	for (unsigned i = 0; i < OP_INJECT; i++)
		fprintf(stderr, " %s", optab[i].name);
	fputc('\n', stderr);
	exit(why ? 2 : 0);
}

static u64 parse_num(const char *s, const char *what)
{
	char *e;
	errno = 0;
	u64 v = strtoull(s, &e, 0);
	switch (*e) {
	case 'k': case 'K': v <<= 10, e++; break;
	case 'm': case 'M': v <<= 20, e++; break;
	case 'g': case 'G': v <<= 30, e++; break;
	}
	if (errno || e == s || *e || *s == '-') {
		fprintf(stderr, "sg-soak: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static void set_weights(char *list, int disable)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		char *eq = strchr(tok, '=');
		unsigned i;
		if (eq)
			*eq = 0;
		for (i = 0; i < OP_INJECT && strcmp(optab[i].name, tok); i++)
			;
		if (i == OP_INJECT || disable == !!eq)
			usage("bad --weights/--disable list (see the op names below)");
		opt.weight[i] = disable ? 0 : (unsigned)parse_num(eq + 1, "weight");
	}
}

static int pow2(u64 v) { return v && !(v & (v - 1)); }

static void parse_args(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "fs", 1, 0, 'f' }, { "seed", 1, 0, 'S' }, { "ops", 1, 0, 'N' }, { "duration", 1, 0, 'd' },
		{ "max-size", 1, 0, 'm' }, { "weights", 1, 0, 'w' }, { "disable", 1, 0, 'D' },
		{ "align", 1, 0, 'a' }, { "block", 1, 0, 'b' }, { "dio-align", 1, 0, 'z' },
		{ "workers", 1, 0, 'W' }, { "nfiles", 1, 0, 'n' }, { "verify-every", 1, 0, 'v' },
		{ "full-every", 1, 0, 'F' }, { "reread", 0, 0, 'X' }, { "log", 1, 0, 'l' },
		{ "log-ops", 1, 0, 'K' }, { "record", 1, 0, 'r' }, { "replay", 1, 0, 'R' },
		{ "inject-corruption", 0, 0, 'I' }, { "progress", 1, 0, 'p' }, { "keep", 0, 0, 'k' },
		{ "hang", 1, 0, 'H' }, { "inject-hang", 1, 0, 'J' },
		{ "minimise", 1, 0, 'M' }, { "minimise-secs", 1, 0, 'T' }, { "minimise-out", 1, 0, 'O' },
		{ "drop-caches", 0, 0, 'C' }, { "parallel", 0, 0, 'P' },
		{ "help", 0, 0, 'h' }, { 0, 0, 0, 0 } };
	int c;
	const char *bad;
	optind = 0;
	while ((c = getopt_long(argc, argv, "N:S:Xh", lo, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (opt.nfs == MAXFS)
				usage("too many --fs");
			if (sg_fs_parse(optarg, &opt.fs[opt.nfs], &bad))
				usage(bad);
			opt.nfs++;
			break;
		case 'S': opt.seed = parse_num(optarg, "seed"); opt.seed_set = 1; break;
		case 'N': opt.ops = parse_num(optarg, "op count"); break;
		case 'd': opt.duration = parse_num(optarg, "duration"); break;
		case 'm': opt.max_size = parse_num(optarg, "max size"); break;
		case 'w': set_weights(optarg, 0); break;
		case 'D': set_weights(optarg, 1); break;
		case 'a': opt.align = parse_num(optarg, "alignment"); break;
		case 'b': opt.block = parse_num(optarg, "block size"); break;
		case 'z': opt.dio_align = parse_num(optarg, "dio alignment"); break;
		case 'W': opt.workers = parse_num(optarg, "worker count"); break;
		case 'n': opt.nfiles = parse_num(optarg, "file count"); break;
		case 'v': opt.verify_every = parse_num(optarg, "verify interval"); break;
		case 'F': opt.full_every = parse_num(optarg, "full verify interval"); break;
		case 'X': opt.reread = 1; break;
		case 'l': opt.log = optarg; break;
		case 'K': opt.log_ops = parse_num(optarg, "log size"); break;
		case 'r': opt.record = optarg; break;
		case 'R': opt.replay = optarg; break;
		case 'I': opt.inject = 1; break;
		case 'p': opt.progress = parse_num(optarg, "progress interval"); break;
		case 'H': opt.hang = parse_num(optarg, "hang limit"); break;
		case 'J': opt.inject_hang = parse_num(optarg, "op number"); break;
		case 'k': opt.keep = 1; break;
		case 'M': opt.minimise = optarg; break;
		case 'T': opt.minimise_secs = parse_num(optarg, "time bound"); break;
		case 'O': opt.minimise_out = optarg; break;
		case 'C': opt.drop_caches = 1; break;
		case 'P': opt.parallel = 1; break;
		case 'h': usage(NULL); break;
		default: usage("unknown option");
		}
	}
	if (optind < argc)
		usage("unexpected argument");
}

static void check_opts(void)
{
	u64 tot = 0;
	for (unsigned i = 0; i < NOPS; i++)
		tot += opt.weight[i];
	if (!opt.nfs)
		usage("at least one --fs NAME:DIR is required");
	if (!tot)
		usage("every op has weight 0");
	if (!pow2(opt.align) || opt.align > 65536 || (opt.block && (!pow2(opt.block) || opt.block < 512 || opt.block > 65536)) ||
	    (opt.dio_align > 0 && (!pow2(opt.dio_align) || opt.dio_align < 512 || opt.dio_align > 65536)))
		usage("--align, --block and --dio-align must be powers of two (block, dio-align: 512..64k)");
	if (opt.max_size < 65536 || opt.max_size > (1ULL << 30))
		usage("--max-size must be within 64k..1g");
	if (!opt.workers || opt.workers > 64 || !opt.nfiles || opt.nfiles > MAXFILES)
		usage("--workers must be 1..64 and --nfiles 1..8");
	if (!opt.log_ops || opt.log_ops > MAXRING || !opt.progress || !opt.hang)
		usage("--log-ops (max 1000), --progress and --hang must be positive");
}

static void default_weights(void)
{
	for (unsigned i = 0; i < NOPS; i++)
		opt.weight[i] = optab[i].weight;
}

/* Read a --record file or a failure oplog (with or without '# oplog: '
 * prefixes, possibly inside a console log), apply its header's arguments. */
static size_t load_replay(const char *path, struct op **recs, unsigned *worker)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *p, *argv[64], *hdr = NULL;
	size_t cap = 0, n = 0, alloc = 0;
	int marked = 0, argc = 1;
	if (!f) {
		fprintf(stderr, "sg-soak: --%s %s: %s\n", opt.minimise ? "minimise" : "replay", path, strerror(errno));
		exit(2);
	}
	while (getline(&line, &cap, f) > 0)
		marked |= strstr(line, OPLOG LOGTAG) != NULL;
	rewind(f);
	while (getline(&line, &cap, f) > 0) {
		if (marked && !(p = strstr(line, OPLOG)))
			continue;
		p = marked ? p + strlen(OPLOG) : line;
		p[strcspn(p, "\r\n")] = 0;
		if (!strncmp(p, LOGTAG, strlen(LOGTAG))) {
			if (hdr && n)
				break;          /* a second log follows: replay the first */
			free(hdr);
			hdr = strdup(p);
		} else if (hdr && !strncmp(p, "op=", 3)) {
			if (n == alloc && !(*recs = realloc(*recs, (alloc = alloc * 2 + 1024) * sizeof **recs)))
				usage("out of memory");
			if (parse_op(p, &(*recs)[n]))
				fprintf(stderr, "sg-soak: --replay: ignoring bad line: %s\n", p);
			else
				n++;
		}
	}
	fclose(f);
	free(line);
	if (!hdr || !n || sscanf(hdr, LOGTAG "worker=%u", worker) != 1 || !(p = strstr(hdr, " args: ")))
		usage("--replay: no '" LOGTAG "' header followed by op lines found");
	argv[0] = "sg-soak";
	for (p = strtok(p + 7, " "); p && argc < 63; p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc] = NULL;
	default_weights();     /* the header's --weights are relative to the defaults */
	opt.block = 0;
	opt.dio_align = -1;
	opt.reread = 0;
	parse_args(argc, argv);
	opt.workers = 1;
	opt.ops = 0;
	opt.duration = 0;
	return n;
}

int main(int argc, char **argv)
{
	struct op *recs = NULL;
	size_t nrec = 0;
	unsigned rworker = 0;
	char b[4096];
	int n;

	pgsz = sysconf(_SC_PAGESIZE);
	opt.max_size = 256 << 10;
	opt.align = 1;
	opt.dio_align = -1;
	opt.workers = 1;
	opt.nfiles = 3;
	opt.verify_every = 1;
	opt.full_every = 1000;
	opt.log_ops = 100;
	opt.progress = 30;
	opt.hang = 60;
	opt.minimise_secs = 300;
	default_weights();
	parse_args(argc, argv);
	if (opt.minimise && (opt.replay || opt.record || opt.nfs != 1))
		usage("--minimise takes one --fs, and no --replay or --record");
	if (opt.replay || opt.minimise) {
		if (opt.inject)
			usage("--inject-corruption cannot be combined with --replay (the log carries the injection)");
		nrec = load_replay(opt.minimise ? opt.minimise : opt.replay, &recs, &rworker);
	} else if (!opt.ops && !opt.duration) {
		opt.ops = 10000;
	}
	check_opts();
	if (!opt.seed_set) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		opt.seed = (ts.tv_sec * 1000003ULL ^ ts.tv_nsec ^ ((u64)getpid() << 16)) & 0xffffffffULL;
	}
	sg_ktap_header();
	sg_ktap_plan(opt.nfs);
	sg_say("# seed=%llu\n", (ull)opt.seed);
	n = sg_fmt(b, sizeof b, "# cmdline: sg-soak");
	for (unsigned i = 0; i < opt.nfs; i++)
		n += sg_fmt(b + n, sizeof b - n, " --fs '%s:%s'", opt.fs[i].name, opt.fs[i].dir);
	if (opt.replay)
		n += sg_fmt(b + n, sizeof b - n, " --replay '%s'", opt.replay);
	else if (opt.minimise)
		n += sg_fmt(b + n, sizeof b - n, " --minimise '%s' --minimise-secs %llu%s", opt.minimise,
			  (ull)opt.minimise_secs, opt.drop_caches ? " --drop-caches" : "");
	else
		n += sg_fmt(b + n, sizeof b - n, " "), n += fmt_args(b + n, sizeof b - n, 0);
	sg_say("%s%s%s%s%s%s\n", b, opt.record ? " --record " : "", opt.record ? opt.record : "",
	    opt.log ? " --log " : "", opt.log ? opt.log : "", opt.inject ? " --inject-corruption" : "");
	if (nrec)
		sg_say("# replay: %zu logged ops from op %u (worker %u)%s\n", nrec, recs[0].n, rworker,
		    recs[0].n > 1 ? "; ops before it are regenerated from the seed" : "");
	if (opt.inject)
		sg_say("# WARNING: --inject-corruption is ON: this is a self-test of the verifier, results are not a filesystem verdict\n");
	if (opt.minimise)
		minimise(recs, nrec, rworker);
	else if (opt.parallel && opt.nfs > 1)
		run_parallel(recs, nrec, rworker);
	else
		for (unsigned i = 0; i < opt.nfs; i++)
			run_config(i, recs, nrec, rworker);
	free(recs);
	return sg_ktap_finish();
}
