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
 *
 * The parts (soak.h says what is where): ops.c, the ops and the model;
 * workers.c, the workers and the parent; minimise.c, --minimise; this
 * file, the command line.
 */
#include "soak.h"

#include <getopt.h>

/* ---- command line ---- */
static const char usage_text[] =
	"usage: sg-soak --fs NAME:DIR [--fs NAME:DIR ...] [options]\n"
	"  -N, --ops N            ops per worker (default 10000 unless --duration)\n"
	"      --duration SEC     stop after SEC seconds\n"
	"  -S, --seed S           seed (default: time based; always printed)\n"
	"      --seeds N          soak every --fs N times, with seeds S, S+1, ..., S+N-1\n"
	"                         (results soak-s1.FS ... soak-sN.FS; default 1: soak.FS)\n"
	"      --max-size BYTES   max file size (k/m/g suffix; default 256k)\n"
	"      --weights op=w,..  op weights; --disable op,.. sets weight 0\n"
	"      --align N          granularity of read/write/map/falloc/copy ops (default 1)\n"
	"      --block N          fs block for collapse/insert/clone/dedupe (default: detected)\n"
	"      --dio-align N      O_DIRECT granularity (default: detected; 0 = no O_DIRECT)\n"
	"      --workers W        forked workers, each with its own files (default 1)\n"
	"      --parallel         run every --fs (and seed) at once, each in its own process; its\n"
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

void usage(const char *why)
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
		{ "drop-caches", 0, 0, 'C' }, { "parallel", 0, 0, 'P' }, { "seeds", 1, 0, 's' },
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
		case 's': opt.seeds = parse_num(optarg, "seed count"); break;
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
	if (!opt.seeds || opt.nfs * opt.seeds > MAXCFG)
		usage("--seeds must be at least 1, and --fs times --seeds at most 64");
	if (opt.seeds > 1 && (opt.replay || opt.minimise))
		usage("--seeds cannot be combined with --replay or --minimise (the log names its seed)");
}

/* the configurations: each --fs, once per seed */
static void make_configs(void)
{
	for (unsigned i = 0; i < opt.nfs; i++)
		for (unsigned k = 0; k < opt.seeds; k++) {
			struct cfgdef *c = &opt.cfgs[opt.ncfg++];
			c->fs = i;
			c->seed = opt.seed + k;
			if (opt.seeds == 1) {
				sg_fmt(c->label, sizeof c->label, "%s", opt.fs[i].name);
				sg_fmt(c->result, sizeof c->result, "soak.%s", opt.fs[i].name);
			} else {
				sg_fmt(c->label, sizeof c->label, "%s-s%u", opt.fs[i].name, k + 1);
				sg_fmt(c->result, sizeof c->result, "soak-s%u.%s", k + 1, opt.fs[i].name);
			}
		}
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

struct options opt;
u64 pgsz;

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
	opt.seeds = 1;
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
	make_configs();
	sg_ktap_header();
	sg_ktap_plan(opt.minimise ? 1 : opt.ncfg);
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
	else if (opt.parallel && opt.ncfg > 1)
		run_parallel(recs, nrec, rworker);
	else
		for (unsigned i = 0; i < opt.ncfg; i++)
			run_config(i, recs, nrec, rworker);
	free(recs);
	return sg_ktap_finish();
}
