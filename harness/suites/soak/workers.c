/*
 * workers.c - sg-soak's workers (see soak.h): a worker process runs ops one
 * at a time (run_op: logged before it runs, checked against the model
 * after), replays a log, or both; the parent runs one filesystem
 * configuration: forks the workers, watches them (progress, the hang
 * watchdog), prints their statistics, reports and the failure oplog, and
 * with --parallel runs every configuration at once.
 */
#include "soak.h"

struct config cfg;
unsigned mtry;
struct capture capture;

/* ---- a worker: one op, run, logged and checked ---- */
int capture_start(u64 max)
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

void capture_stop(void)
{
	munmap(capture.n, capture.sz);
	capture.ops = NULL;
}

/* Run op o (one that does not fit the files is skipped), log it in the
 * ring (and the capture, the record) before and after: a crash still leaves
 * a trace. An op type that proves unsupported is disabled. OK or FAILED. */
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
int fmt_args(char *b, size_t sz, int hdr)
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
		if (opt.seeds > 1)
			n += sg_fmt(b + n, sz - n, " --seeds %u", opt.seeds);
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
	if (opt.ncfg > 1)
		n += sg_fmt(out + n, PATH_MAX - n, ".%s", cfg.name);
	if (opt.workers > 1)
		sg_fmt(out + n, PATH_MAX - n, ".w%u", widx);
}

void fmt_header(char *b, size_t sz, unsigned widx)
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
	guard_mappings();
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
static double tick_secs(const struct wshared *s)      /* seconds per tick */
{
	u64 dt = ticks() - s->t0tk;
	return dt ? (nsnow() - s->t0ns) / 1e9 / dt : 0;
}

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
	sg_say("# replay: sg-soak --fs %s:<dir> --replay %s\n", cfg.fsname,
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

/* cfg for configuration ci (opt.cfgs), in the directory cfg.sub (made
 * here): 0, or -1 with the reason in why */
int cfg_setup(unsigned ci, char *why, size_t n)
{
	struct statvfs sv;
	cfg.name = opt.cfgs[ci].label;
	cfg.fsname = opt.fs[opt.cfgs[ci].fs].name;
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
int make_shared(char *why, size_t n)
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
unsigned run_workers(struct wshared *sh, unsigned *pW, int *st, const struct op *recs, size_t nrec,
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

int run_config(unsigned ci, const struct op *recs, size_t nrec, unsigned rworker)
{
	unsigned W = opt.workers, bad = ~0u, hung;
	int st[64];
	char *r, b[4096], nm[128];
	double secs;

	const struct cfgdef *c = &opt.cfgs[ci];
	opt.seed = c->seed;
	sg_fmt(nm, sizeof nm, "%s", c->result);
	sg_fmt(cfg.sub, sizeof cfg.sub, "%s/sg-soak-%s-%d", opt.fs[c->fs].dir, c->label, (int)getpid());
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
	int n = sg_fmt(b, sizeof b, "# soak-stats name=%s ops=%llu secs=%.2f ops_per_sec=%.0f seed=%llu", cfg.name,
			 (ull)done, secs, secs > 0 ? done / secs : 0, (ull)opt.seed);
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
void run_parallel(const struct op *recs, size_t nrec, unsigned rworker)
{
	pid_t pid[MAXCFG];
	FILE *out[MAXCFG];
	int st;
	char b[4096];
	ssize_t n;

	cres = mmap(NULL, opt.ncfg * sizeof *cres, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cres == MAP_FAILED) {
		cres = NULL;
		sg_say("# note: --parallel: mmap: %s; one configuration after another\n", strerror(errno));
		for (unsigned i = 0; i < opt.ncfg; i++)
			run_config(i, recs, nrec, rworker);
		return;
	}
	fflush(stdout);
	live_fd = dup(1);
	for (unsigned i = 0; i < opt.ncfg; i++) {
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
	for (unsigned i = 0; i < opt.ncfg; i++) {
		if (pid[i] > 0 && waitpid(pid[i], &st, 0) == pid[i] && cres[i].rc == -2)
			sg_fmt(cres[i].why, sizeof cres[i].why, "its process ended without a result (%s %d)",
			     WIFSIGNALED(st) ? "signal" : "exit status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		if (out[i]) {
			rewind(out[i]);
			while ((n = fread(b, 1, sizeof b, out[i])) > 0)
				if (write(1, b, n) < 0) { /* nowhere to report it */ }
			fclose(out[i]);
		}
		sg_ktap_result(cres[i].rc == -2 ? 1 : cres[i].rc, opt.cfgs[i].result, "%s", cres[i].why);
	}
	munmap(cres, opt.ncfg * sizeof *cres);
	cres = NULL;
	close(live_fd);
	live_fd = 1;
}

