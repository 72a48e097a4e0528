/*
 * minimise.c - sg-soak --minimise (see soak.h, README.md): delta debugging
 * (ddmin) over verbatim replays, each in fresh files, of a failing log, then
 * simplification of the ops left, down to a log from which no single op can
 * be removed without losing the failure's class.
 */
#include "soak.h"

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

int minimise(const struct op *recs, size_t nrec, unsigned rworker)
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

