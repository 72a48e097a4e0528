/*
 * soak.h - what the parts of sg-soak share; suites/lib/sg.h has what every
 * suite shares (KTAP, the clock, the print helpers, forking and reaping).
 *   ops.c       the ops: generators, executors, the exact in-memory model of
 *               every file and the checks against it (optab[]);
 *   workers.c   a worker process running ops (run_op), and the parent: one
 *               filesystem configuration, its workers and the hang
 *               watchdog, the failure oplog, --parallel;
 *   minimise.c  --minimise: ddmin and simplification over verbatim replays;
 *   sg-soak.c   the command line, --replay's log reader, main.
 */
#ifndef SOAK_H
#define SOAK_H
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#define MAXCFG 64      /* --fs times --seeds */
#define MAXFILES 8              /* own files per worker */
#define NSHARED 1               /* read-only shared clone/dedupe sources */
#define MAXRING 1000
#define REPMAX (64 * 1024)
#define LOGTAG "sg-soak-log v1 "
#define OPLOG "# oplog: "
#define ABIT(o, k) (((o)->arg >> (56 + (k))) & 1)   /* flag bits of an op */

enum { OK = 0, NOOP = -1, FAILED = -2 };

static inline u64 min64(u64 a, u64 b) { return a < b ? a : b; }
static inline u64 max64(u64 a, u64 b) { return a > b ? a : b; }
static inline u64 rup(u64 x, u64 g) { return (x + g - 1) / g * g; }
static inline u64 rdown(u64 x, u64 g) { return x / g * g; }

/* ---- randomness: splitmix64 ---- */
static inline u64 mix64(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
struct rng { u64 s; };
static inline u64 rnext(struct rng *r) { return mix64(r->s += 0x9e3779b97f4a7c15ULL); }
static inline u64 rnd(struct rng *r, u64 n) { return n ? rnext(r) % n : 0; }

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
extern const struct optype optab[NOPS];         /* every op (ops.c) */

/* ---- options and per-configuration values ---- */
struct options {
	u64 seed, ops, max_size, verify_every, full_every;
	double duration, progress, hang;
	u64 inject_hang;
	unsigned align, block, workers, nfiles, log_ops;
	int dio_align, seed_set, reread, inject, keep;
	const char *log, *record, *replay;
	const char *minimise, *minimise_out;    /* --minimise: the log, the output record */
	u64 minimise_secs;                      /* its time bound, 0: none */
	int drop_caches, quiet;                 /* between tries; no notes (the tries) */
	int parallel;                           /* every configuration at once, a process each */
	unsigned weight[NOPS];
	unsigned nfs;
	struct sg_fs fs[MAXFS];
	/* the configurations: every --fs once per seed (--seeds N: the seed,
	 * seed+1, ..., seed+N-1), each with its label ("xfs", or "xfs-s2" when
	 * N > 1), its result's name ("soak.xfs", "soak-s2.xfs") and its seed */
	unsigned seeds, ncfg;
	struct cfgdef { unsigned fs; u64 seed; char label[80], result[96]; } cfgs[MAXCFG];
};
extern struct options opt;                      /* the command line (sg-soak.c) */

struct config {
	const char *name, *fsname;       /* its label (opt.cfgs), its --fs name */
	char sub[PATH_MAX];
	unsigned block, dio;
	u64 maxsz, maxlen, shared_size;
};
extern struct config cfg;                       /* the configuration running (workers.c) */
extern u64 pgsz;

static inline u64 shared_seed(unsigned k) { return mix64(opt.seed ^ 0x5ea5edULL) + k; }

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

/* ---- the clocks ---- */
static inline u64 nsnow(void) { return (u64)(sg_mono() * 1e9); }

/* The per-op timing clock: the TSC where there is one (clock_gettime may be
 * a syscall in a guest whose clocksource is not the TSC: two per op), turned
 * into seconds at the end against CLOCK_MONOTONIC over the whole run
 * (tick_secs). */
static inline u64 ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	return nsnow();
#endif
}

/* ---- failure reporting ---- */
/* The kinds of failure; with the op type and the errno or signal they are
 * the class --minimise keeps. */
enum { K_PASS, K_MISMATCH, K_ERROR, K_SIGNAL, K_HANG, K_SETUP };
extern const char *const kind_name[];

/* ---- ops.c */
void fill(unsigned char *p, u64 len, u64 seed);
SG_PRINTF(2, 3) void note(struct worker *w, const char *fmt, ...);
void fmt_op(char *b, size_t sz, const struct op *o);
int parse_op(const char *p, struct op *o);
int fail_err(struct worker *w, int e);
void guard_mappings(void);
int check_size(struct worker *w, unsigned fi);
int verify(struct worker *w, int full);
int gen_op(struct worker *w, u64 n, struct op *o);
int gen_inject(struct worker *w, u64 n, struct op *o);
void set_state(int *arr, unsigned type);
int unsupported(const struct optype *t, int e);
const char *misfit(const struct worker *w, const struct op *o);

/* ---- workers.c */
/* --minimise: every op the worker runs, in shared memory (capture_start) */
extern struct capture { struct op *ops; u64 *n, max; size_t sz; } capture;
int capture_start(u64 max);
void capture_stop(void);
extern unsigned mtry;                           /* --minimise: the try running */
int fmt_args(char *b, size_t sz, int hdr);
void fmt_header(char *b, size_t sz, unsigned widx);
int cfg_setup(unsigned ci, char *why, size_t n);
int make_shared(char *why, size_t n);
unsigned run_workers(struct wshared *sh, unsigned *pW, int *st, const struct op *recs, size_t nrec,
		     unsigned rworker, double *secs);
int run_config(unsigned ci, const struct op *recs, size_t nrec, unsigned rworker);
void run_parallel(const struct op *recs, size_t nrec, unsigned rworker);

/* ---- minimise.c */
int minimise(const struct op *recs, size_t nrec, unsigned rworker);

/* ---- sg-soak.c */
__attribute__((noreturn)) void usage(const char *why);

#endif
