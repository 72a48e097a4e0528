/*
 * ops.c - sg-soak's ops (see soak.h): for each op type (optab[]) a generator,
 * which makes op N from its own RNG and the model, and an executor, which
 * applies it to the real file and to the model, an exact in-memory copy of
 * every file; the checks of the files against the model; and what run_op
 * asks before and after an op (does it fit the files, is the op supported).
 */
#include "soak.h"

#include <setjmp.h>

/* ---- randomness: a write's data, from its seed (splitmix64, soak.h) ---- */
void fill(unsigned char *p, u64 len, u64 seed)
{
	struct rng r = { seed };
	for (u64 i = 0; i < len; i += 8) {
		u64 v = rnext(&r);
		memcpy(p + i, &v, min64(8, len - i));
	}
}

/* ---- notes and reports, op log lines ---- */
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

SG_PRINTF(2, 3) void note(struct worker *w, const char *fmt, ...)
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

void fmt_op(char *b, size_t sz, const struct op *o)
{
	sg_fmt(b, sz, "op=%u %s f=%u off=0x%llx len=0x%llx sf=%u soff=0x%llx arg=0x%llx res=%lld size=0x%llx",
		 o->n, optab[o->type].name, o->f, (ull)o->off, (ull)o->len, o->sf,
		 (ull)o->soff, (ull)o->arg, (long long)o->res, (ull)o->size);
}

int parse_op(const char *p, struct op *o)
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
const char *const kind_name[] = { "pass", "mismatch", "error", "signal", "hang", "setup" };

static void set_kind(struct worker *w, int kind, int err)
{
	if (!w->sh->fkind)
		w->sh->fkind = kind, w->sh->ferr = err;
}

int fail_err(struct worker *w, int e)
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
/* in a worker, before its first op */
void guard_mappings(void)
{
	struct sigaction sa = { .sa_handler = on_bus, .sa_flags = SA_NODEFER };
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
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

int check_size(struct worker *w, unsigned fi)
{
	struct stat st;
	if (fstat_fd(w->f[fi].fd, &st))
		return w->what = "fstat", errno;
	if ((u64)st.st_size != w->f[fi].size)
		return mismatch(w, fi, w->f[fi].size, "st_size is %lld, model says %llu",
			   (long long)st.st_size, (ull)w->f[fi].size);
	return OK;
}

int verify(struct worker *w, int full)
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
int gen_op(struct worker *w, u64 n, struct op *o)
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

int gen_inject(struct worker *w, u64 n, struct op *o)
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
const struct optype optab[NOPS] = {
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
void set_state(int *arr, unsigned type)
{
	for (unsigned i = 0; i < NOPS; i++)
		if (i == type || (optab[type].feat && optab[i].feat == optab[type].feat))
			arr[i] = 1;
}

int unsupported(const struct optype *t, int e)
{
	return e == EOPNOTSUPP || e == ENOTTY || e == ENOSYS || e == ENODEV ||
	       (e == EINVAL && (t->flags & G_EINVAL));
}


/* Why a logged op does not fit the files as they are now, or NULL. The
 * generator makes only ops that fit; a log with ops removed (--minimise), or
 * replayed after a divergence, can hold ones that do not, on which the model
 * would not be exact (a mapwrite past EOF, an insert past the model's
 * capacity) or which the kernel can only refuse. run_op skips them. */
const char *misfit(const struct worker *w, const struct op *o)
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

