// SPDX-License-Identifier: MIT
/*
 * test_npukit_pack.c - the NpuKit engine's compute_stage() on random
 * programs, against the reference product, with the device in the process
 * (tests/bench-host/standin_device.c, linked in: it answers the engine's
 * ioctls and computes each kick on the CPU; every SUBMIT's kicks are
 * recorded here first).
 *
 * - packing: the scalar path and the one chosen at run time (NEON on
 *   armhf: the Zynq suites and qemu-arm run this binary) give the same kick
 *   bytes, SUBMIT by SUBMIT, and the same sums, which are the reference
 *   ones; on random tilings with windows partly and wholly outside their
 *   buffers, chains of odd lengths, and SUBMITs split small
 *   (TTPU_NPUKIT_MAX_KICKS);
 * - the runner's jobs (run_split.h): with the program's mask, their sums
 *   are left as they were (a canary) and no kick carries them: the kicks
 *   are byte for byte those of the program without those chains, and a
 *   stage of only such jobs makes no SUBMIT; without a mask every job is
 *   computed; a mask that is not the program's is honoured too.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "engine.h"
#include "engine_npukit_pack.h"
#include "npukit.h"
#include "run.h"
#include "run_split.h"
#include "../lib/test_rng.h"
#include "../lib/test_timeout.h"

/* standin_device.c */
extern int (*standin_submit_hook)(struct npukit_submit *s);

#define CANARY 0x5a5a5a5a

/* Every SUBMIT's kicks, as the device got them. */
struct record {
	uint8_t *bytes;
	size_t len;
	size_t submits;
	size_t kicks;
	size_t from_worker;	/* SUBMITs made on another thread than the test's */
	size_t fail_at;		/* fail this SUBMIT (1 the first; 0 none) with EIO */
	size_t failed_kicks;	/* the failed SUBMIT's kick count */
};

static struct record rec;
static pthread_t test_thread;

static int record_submit(struct npukit_submit *s)
{
	size_t n = (size_t)s->kick_count * sizeof(struct npukit_kick);
	uint8_t *p;

	rec.from_worker += !pthread_equal(pthread_self(), test_thread);
	if (++rec.submits == rec.fail_at) {
		rec.failed_kicks = s->kick_count;
		return EIO;
	}
	p = realloc(rec.bytes, rec.len + n + 1);
	if (!p)
		return ENOMEM;
	memcpy(p + rec.len, (const void *)(uintptr_t)s->kicks_ptr, n);
	rec.bytes = p;
	rec.len += n;
	rec.kicks += s->kick_count;
	return 0;
}

static void record_reset(void)
{
	size_t fail_at = rec.fail_at;

	free(rec.bytes);
	memset(&rec, 0, sizeof(rec));
	rec.fail_at = fail_at;
	test_thread = pthread_self();
}

static unsigned pick(struct rng *g, unsigned n)
{
	return (unsigned)(rng_next(g) % n);
}

/*
 * A random matmul into C (i32) and D (i8), A [m, k] and B [k, n] temps the
 * test fills: one chain per 4x4 output tile, into C or D by @into_d's odds
 * in 4. Every other program is the compiler's tiling of shapes that are
 * multiples of 8 (the kicks packed as rows), a chain in 16 reading random
 * windows; the others have any shape, a tile row and column past the edges
 * sometimes, chains of K's tiles plus or minus one step, and a chain in
 * four reading random windows, partly or wholly outside A and B. With @drop_d the chains into D are
 * left out, the rest drawn identically.
 */
static char *make_program(uint64_t seed, int into_d, int drop_d)
{
	struct rng g = { seed * 2654435761u + 1 };
	/* Every other program is the compiler's tiling of multiples of 8. */
	int tidy = seed % 2 == 0;
	unsigned m = tidy ? 8 * (1 + pick(&g, 3)) : 1 + pick(&g, 24);
	unsigned k = tidy ? 8 * (1 + pick(&g, 5)) : 1 + pick(&g, 40);
	unsigned n = tidy ? 8 * (1 + pick(&g, 3)) : 1 + pick(&g, 24);
	unsigned tm = (m + 3) / 4 + (tidy ? 0 : pick(&g, 2));
	unsigned tn = (n + 3) / 4 + (tidy ? 0 : pick(&g, 2));
	unsigned tk = (k + 3) / 4, id = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const char *sep = "";

	if (!f)
		return NULL;
	fprintf(f, "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"pack\",\"buffers\":{"
		"\"A\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
		"\"B\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
		"\"C\":{\"dtype\":\"i32\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
		"\"D\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"}},"
		"\"inputs\":[],\"outputs\":[\"C\",\"D\"],\"commands\":[", m, k, k, n, m, n, m, n);
	for (unsigned ti = 0; ti < tm; ti++)
		for (unsigned tj = 0; tj < tn; tj++) {
			int d = (int)pick(&g, 4) < into_d;
			int messy = pick(&g, tidy ? 16 : 4) == 0;
			unsigned steps = tk + pick(&g, 3);

			steps = tidy ? tk : steps > 1 ? steps - 1 : 1;
			for (unsigned s = 0; s < steps; s++) {
				unsigned ar = 4 * ti, ac = 4 * s, br = 4 * s, bc = 4 * tj;

				if (messy) {
					ar = pick(&g, m + 6);
					ac = pick(&g, k + 6);
					br = pick(&g, k + 6);
					bc = pick(&g, n + 6);
				}
				if (d && drop_d)
					continue;
				fprintf(f, "%s{\"op\":\"pass\",\"id\":%u,\"a\":{\"buf\":\"A\",\"r\":%u,"
					"\"c\":%u},\"b\":{\"buf\":\"B\",\"r\":%u,\"c\":%u}},"
					"{\"op\":\"acc\",\"pass\":%u,\"dst\":{\"buf\":\"%s\",\"r\":%u,"
					"\"c\":%u}}", sep, id, ar, ac, br, bc, id, d ? "D" : "C",
					4 * ti, 4 * tj);
				id++;
				sep = ",";
			}
		}
	fprintf(f, "]}");
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

static ttpu_program *load(const char *json, struct ttpu_error *err)
{
	ttpu_program *prog = NULL;

	if (ttpu_program_load_buffer(json, strlen(json), &prog, err))
		return NULL;
	return prog;
}

/* A and B random over the whole i8 range, from @seed. */
static void fill_operands(const struct ttpu_program *prog, void **data, uint64_t seed)
{
	struct rng g = { seed ^ 0x9e3779b97f4a7c15ull };

	for (size_t i = 0; i < prog->nbuffers; i++) {
		const struct ttpu_buffer *b = &prog->buffers[i];

		if (b->dtype != TTPU_DTYPE_I8 || strcmp(b->name, "D") == 0)
			continue;
		for (size_t e = 0; e < b->count; e++)
			((int8_t *)data[i])[e] = (int8_t)rng_next(&g);
	}
}

/* The sums of every MATMUL stage's jobs, in plan order. */
struct sums {
	int32_t (*v)[16];
	size_t njobs;
};

/*
 * Run every MATMUL stage of @prog on a fresh NpuKit engine with the
 * program's mask (@mask 1), none (0) or @own_mask (2: st->njobs bytes a
 * stage, concatenated). The sums start as CANARY. The device's kick count
 * in *@kicks.
 */
static int stages_on_engine(const struct ttpu_program *prog, uint64_t seed, int mask,
			    const uint8_t *own_mask, struct sums *out, uint64_t *kicks,
			    struct ttpu_error *err)
{
	const struct ttpu_plan *plan = prog->plan;
	struct ttpu_run_ctx ctx;
	ttpu_engine *eng = NULL;
	uint8_t *host_job = NULL;
	int ret;

	out->njobs = plan->njobs;
	out->v = malloc((plan->njobs + 1) * sizeof(*out->v));
	host_job = malloc(plan->max_stage_jobs + 1);
	if (!out->v || !host_job) {
		free(host_job);
		return -TTPU_SYSTEM_ERROR;
	}
	memset(out->v, 0x5a, (plan->njobs + 1) * sizeof(*out->v));
	ret = ttpu_engine_open(TTPU_ENGINE_NPUKIT, "/dev/null", &eng, err);
	if (ret)
		goto out_free;
	ret = ttpu_run_ctx_init(&ctx, prog, NULL, err);
	if (ret)
		goto out_close;
	fill_operands(prog, ctx.data, seed);
	ret = eng->ops->run_begin(eng, &ctx, err);
	for (size_t i = 0; !ret && i < plan->nstages; i++) {
		const struct ttpu_stage *st = &plan->stages[i];
		const uint8_t *hj = NULL;

		if (st->kind != TTPU_STAGE_MATMUL || !st->njobs)
			continue;
		if (mask == 1) {
			ttpu_stage_host_jobs(prog, st, host_job);
			hj = host_job;
		} else if (mask == 2) {
			hj = own_mask + st->first_job;
		}
		ret = eng->ops->compute_stage(eng, &ctx, st, hj, out->v + st->first_job, err);
	}
	*kicks = ctx.stats.kicks;
	eng->ops->run_end(eng, &ctx);
	ttpu_run_ctx_release(&ctx);
out_close:
	ttpu_engine_close(eng);
out_free:
	free(host_job);
	return ret;
}

/*
 * stages_on_engine(), packing with @pack_neon (ttpu_npukit_pack_neon),
 * every SUBMIT's kicks recorded in rec.
 */
static int run_stages(const struct ttpu_program *prog, uint64_t seed, int pack_neon,
		      int mask, const uint8_t *own_mask, struct sums *out,
		      struct ttpu_error *err)
{
	uint64_t kicks = 0;
	int ret;

	ttpu_npukit_pack_neon = pack_neon;
	record_reset();
	standin_submit_hook = record_submit;
	ret = stages_on_engine(prog, seed, mask, own_mask, out, &kicks, err);
	standin_submit_hook = NULL;
	ttpu_npukit_pack_neon = -1;
	if (!ret && kicks != rec.kicks) {
		ttpu_error_set(err, TTPU_SYSTEM_ERROR, "stats.kicks %llu, the device saw %zu",
			       (unsigned long long)kicks, rec.kicks);
		ret = -TTPU_SYSTEM_ERROR;
	}
	return ret;
}

/* The reference sum of job @j: its links' products, added. */
static void reference(const struct ttpu_program *prog, void *const *data, uint32_t j,
		      int32_t out[16])
{
	const struct ttpu_job *job = &prog->plan->jobs[j];

	memset(out, 0, 16 * sizeof(*out));
	for (uint32_t l = 0; l < job->nlinks; l++) {
		const struct ttpu_link *lk = &prog->plan->links[job->first_link + l];
		int32_t p[16];

		ttpu_link_product(prog, data, &lk->a, &lk->b, p);
		for (int e = 0; e < 16; e++)
			out[e] += p[e];
	}
}

/*
 * Job by job: @skip[j] set (NULL: none) must have kept the canary, every
 * other the reference. Returns the first wrong job, or -1.
 */
static long check_sums(const struct ttpu_program *prog, uint64_t seed, const struct sums *s,
		       const uint8_t *skip)
{
	struct ttpu_run_ctx ctx;
	long bad = -1;

	if (ttpu_run_ctx_init(&ctx, prog, NULL, NULL))
		return 0;
	fill_operands(prog, ctx.data, seed);
	for (uint32_t j = 0; bad < 0 && j < s->njobs; j++) {
		int32_t want[16];

		if (skip && skip[j])
			for (int e = 0; e < 16; e++)
				want[e] = CANARY;
		else
			reference(prog, ctx.data, j, want);
		if (memcmp(want, s->v[j], sizeof(want)))
			bad = j;
	}
	ttpu_run_ctx_release(&ctx);
	return bad;
}

/* The program's own mask over all its jobs. */
static uint8_t *program_mask(const struct ttpu_program *prog)
{
	const struct ttpu_plan *plan = prog->plan;
	uint8_t *m = calloc(plan->njobs + 1, 1);

	for (size_t i = 0; m && i < plan->nstages; i++)
		if (plan->stages[i].kind == TTPU_STAGE_MATMUL)
			ttpu_stage_host_jobs(prog, &plan->stages[i], m + plan->stages[i].first_job);
	return m;
}

struct kicks {
	uint8_t *bytes;
	size_t len, submits, from_worker;
};

static struct kicks take_record(void)
{
	struct kicks k = { rec.bytes, rec.len, rec.submits, rec.from_worker };

	rec.bytes = NULL;
	record_reset();
	return k;
}

/* The groups packed as rows (16 row copies a kick) of @prog's stages. */
static size_t count_rows_groups(const struct ttpu_program *prog)
{
	size_t n = 0;

	for (size_t i = 0; i < prog->plan->nstages; i++) {
		const struct ttpu_stage *st = &prog->plan->stages[i];
		const struct npk_stage_groups *sg;

		if (st->kind != TTPU_STAGE_MATMUL || !st->njobs)
			continue;
		sg = ttpu_npukit_stage_groups(prog, st, false);
		for (size_t g = 0; sg && g < sg->ngroups; g++)
			n += sg->groups[g].rows;
	}
	return n;
}

#define CASES 500
/*
 * Natively 0.1 to 0.4 s a test; ~20 s all four under valgrind, ~15 s under
 * qemu-arm: sized for valgrind and the emulated Zynq on a loaded machine
 * (test_timeout.h).
 */
#define TIMEOUT 300

TEST_TIMEOUT(packing_paths_agree_and_are_exact, TIMEOUT)
{
	struct ttpu_error err;
	size_t kicks = 0, rows_groups = 0, pipelined = 0;

	TH_LOG("packing: scalar, and %s", ttpu_npukit_pack_neon_on() ? "NEON" : "scalar");
	for (uint64_t seed = 1; seed <= CASES; seed++) {
		char *json = make_program(seed, (int)(seed % 3), 0);
		ttpu_program *prog;
		struct sums s[2];
		struct kicks k[2];
		char cap[16];

		ASSERT_NE(NULL, json);
		prog = load(json, &err);
		ASSERT_NE(NULL, prog) TH_LOG("seed %llu: %s", (unsigned long long)seed, err.message);
		/* SUBMITs split small in some cases: groups in segments. */
		snprintf(cap, sizeof(cap), "%u", 1 + (unsigned)(seed % 7));
		if (seed % 3 == 0)
			setenv("TTPU_NPUKIT_MAX_KICKS", cap, 1);
		for (int path = 0; path < 2; path++) {
			ASSERT_EQ(0, run_stages(prog, seed, path ? -1 : 0, 0, NULL, &s[path], &err))
				TH_LOG("seed %llu: %s", (unsigned long long)seed, err.message);
			k[path] = take_record();
			EXPECT_EQ(-1, check_sums(prog, seed, &s[path], NULL))
				TH_LOG("seed %llu, %s path", (unsigned long long)seed,
				       path ? "chosen" : "scalar");
		}
		unsetenv("TTPU_NPUKIT_MAX_KICKS");
		ASSERT_EQ(k[0].len, k[1].len);
		EXPECT_EQ(k[0].submits, k[1].submits);
		EXPECT_EQ(0, memcmp(k[0].bytes, k[1].bytes, k[0].len))
			TH_LOG("seed %llu: the two paths packed different kicks",
			       (unsigned long long)seed);
		EXPECT_EQ(0, memcmp(s[0].v, s[1].v, s[0].njobs * sizeof(*s[0].v)));
		kicks += k[0].len / sizeof(struct npukit_kick);
		pipelined += k[0].from_worker > 0;
		/* Chunks SUBMIT on the worker thread, a single one on the test's. */
		EXPECT_EQ(k[0].from_worker ? k[0].submits : 0, k[0].from_worker);
		rows_groups += count_rows_groups(prog);
		for (int path = 0; path < 2; path++) {
			free(k[path].bytes);
			free(s[path].v);
		}
		ttpu_program_free(prog);
		free(json);
	}
	TH_LOG("%d programs, %zu kicks a path", CASES, kicks);
	TH_LOG("%zu groups packed as rows; %zu cases in SUBMITs from the worker thread",
	       rows_groups, pipelined);
	EXPECT_LT(CASES / 10, pipelined);
	EXPECT_LT(CASES, rows_groups);
}

TEST_TIMEOUT(runner_jobs_are_left_alone, TIMEOUT)
{
	struct ttpu_error err;
	size_t host_jobs = 0, empty_stages = 0;

	for (uint64_t seed = 1; seed <= CASES; seed++) {
		int into_d = 1 + (int)(seed % 4);	/* 4: every chain into D */
		char *json = make_program(seed, into_d, 0);
		char *json_dev = make_program(seed, into_d, 1);
		ttpu_program *prog, *dev;
		uint8_t *mask, *own;
		struct sums s, sd, so;
		struct kicks k, kd;

		ASSERT_NE(NULL, json);
		ASSERT_NE(NULL, json_dev);
		prog = load(json, &err);
		ASSERT_NE(NULL, prog) TH_LOG("seed %llu: %s", (unsigned long long)seed, err.message);
		mask = program_mask(prog);
		ASSERT_NE(NULL, mask);
		for (size_t j = 0; j < prog->plan->njobs; j++)
			host_jobs += mask[j];

		/* Both paths, the program's mask: canaries kept, the rest exact. */
		for (int path = 1; path >= 0; path--) {
			ASSERT_EQ(0, run_stages(prog, seed, path ? -1 : 0, 1, NULL, &s, &err))
				TH_LOG("seed %llu: %s", (unsigned long long)seed, err.message);
			EXPECT_EQ(-1, check_sums(prog, seed, &s, mask))
				TH_LOG("seed %llu", (unsigned long long)seed);
			free(s.v);
			if (path)
				free(take_record().bytes);
		}
		k = take_record();	/* the scalar path's */
		/* The very kicks of the program without the runner's chains. */
		if (json_dev[strlen(json_dev) - 3] != '[') {
			dev = load(json_dev, &err);
			ASSERT_NE(NULL, dev) TH_LOG("seed %llu: %s", (unsigned long long)seed,
						    err.message);
			ASSERT_EQ(0, run_stages(dev, seed, 0, 0, NULL, &sd, &err));
			kd = take_record();
			EXPECT_EQ(kd.len, k.len) TH_LOG("seed %llu", (unsigned long long)seed);
			EXPECT_EQ(kd.submits, k.submits);
			if (kd.len == k.len)
				EXPECT_EQ(0, memcmp(kd.bytes, k.bytes, k.len))
					TH_LOG("seed %llu", (unsigned long long)seed);
			free(kd.bytes);
			free(sd.v);
			ttpu_program_free(dev);
		} else {
			EXPECT_EQ(0, k.submits) TH_LOG("seed %llu: a stage of the runner's jobs only",
						      (unsigned long long)seed);
			empty_stages++;
		}
		free(k.bytes);

		/* No mask: every job computed. */
		ASSERT_EQ(0, run_stages(prog, seed, -1, 0, NULL, &s, &err));
		EXPECT_EQ(-1, check_sums(prog, seed, &s, NULL));
		free(s.v);
		free(take_record().bytes);

		/* A mask that is not the program's: honoured all the same. */
		own = calloc(prog->plan->njobs + 1, 1);
		ASSERT_NE(NULL, own);
		for (size_t j = 0; j < prog->plan->njobs; j++)
			own[j] = (seed + j * 7) % 3 == 0;
		ASSERT_EQ(0, run_stages(prog, seed, -1, 2, own, &so, &err));
		EXPECT_EQ(-1, check_sums(prog, seed, &so, own))
			TH_LOG("seed %llu", (unsigned long long)seed);
		free(so.v);
		free(take_record().bytes);

		free(own);
		free(mask);
		ttpu_program_free(prog);
		free(json);
		free(json_dev);
	}
	TH_LOG("%zu jobs of the runner's, %zu stages of them only", host_jobs, empty_stages);
	EXPECT_LT(0, host_jobs);
	EXPECT_LT(0, empty_stages);
}

/*
 * A SUBMIT failed at a random chunk of a pipelined stage (and of a serial
 * one): compute_stage() returns the DeviceError one thread would, naming
 * that SUBMIT, its kicks and the stage's commands; no SUBMIT follows it;
 * the run ends cleanly and the engine's next run is exact.
 */
TEST_TIMEOUT(a_failed_submit_is_a_clean_device_error, TIMEOUT)
{
	struct ttpu_error err;
	size_t pipelined = 0, cases = 0;

	for (uint64_t seed = 1; seed <= CASES; seed++) {
		char *json = make_program(seed, 0, 0);
		ttpu_program *prog;
		const struct ttpu_stage *st = NULL;
		struct sums s;
		struct kicks k;
		char cap[16], want[TTPU_ERROR_MESSAGE_MAX];
		size_t total;

		ASSERT_NE(NULL, json);
		prog = load(json, &err);
		ASSERT_NE(NULL, prog);
		for (size_t i = 0; i < prog->plan->nstages; i++)
			if (prog->plan->stages[i].kind == TTPU_STAGE_MATMUL)
				st = &prog->plan->stages[i];
		snprintf(cap, sizeof(cap), "%u", 1 + (unsigned)(seed % 5));
		setenv("TTPU_NPUKIT_MAX_KICKS", cap, 1);
		ASSERT_EQ(0, run_stages(prog, seed, -1, 0, NULL, &s, &err));
		free(s.v);
		k = take_record();
		free(k.bytes);
		total = k.submits;
		if (!total) {
			unsetenv("TTPU_NPUKIT_MAX_KICKS");
			ttpu_program_free(prog);
			free(json);
			continue;
		}
		cases++;
		pipelined += k.from_worker > 0;
		rec.fail_at = 1 + seed * 7919 % total;
		memset(&err, 0, sizeof(err));
		EXPECT_EQ(-TTPU_DEVICE_ERROR, run_stages(prog, seed, -1, 0, NULL, &s, &err));
		EXPECT_EQ(TTPU_DEVICE_ERROR, err.kind);
		EXPECT_EQ(EIO, err.sys_errno);
		EXPECT_EQ(rec.fail_at, rec.submits) TH_LOG("seed %llu: a SUBMIT after the failed one",
							   (unsigned long long)seed);
		snprintf(want, sizeof(want),
			 "/dev/null: SUBMIT %zu of the run (%zu kicks, commands %u..%u) failed after 0 kicks: %s (status: rejected)",
			 rec.fail_at, rec.failed_kicks, st->first_cmd, st->end_cmd - 1,
			 strerror(EIO));
		EXPECT_STREQ(want, err.message) TH_LOG("seed %llu", (unsigned long long)seed);
		free(s.v);
		rec.fail_at = 0;
		free(take_record().bytes);
		/* The next run on a fresh engine is exact. */
		ASSERT_EQ(0, run_stages(prog, seed, -1, 0, NULL, &s, &err));
		EXPECT_EQ(-1, check_sums(prog, seed, &s, NULL));
		free(s.v);
		free(take_record().bytes);
		unsetenv("TTPU_NPUKIT_MAX_KICKS");
		ttpu_program_free(prog);
		free(json);
	}
	TH_LOG("%zu failed runs, %zu of them pipelined", cases, pipelined);
	EXPECT_LT(cases / 2, pipelined);
}

/* One thread of concurrent_runs_share_the_groups: its runs' first wrong job. */
struct racer {
	const struct ttpu_program *prog;
	uint64_t seed;
	const uint8_t *mask;
	int index;
	long bad;
	int ret;
};

static void *race(void *p)
{
	struct racer *r = p;
	struct ttpu_error err;
	uint64_t kicks;
	struct sums s;

	r->bad = -1;
	for (int run = 0; run < 4 && r->bad < 0 && !r->ret; run++) {
		int mask = (r->index + run) % 2;	/* both group sets, made by whoever is first */

		r->ret = stages_on_engine(r->prog, r->seed, mask, NULL, &s, &kicks, &err);
		if (!r->ret)
			r->bad = check_sums(r->prog, r->seed, &s, mask ? r->mask : NULL);
		free(s.v);
	}
	return NULL;
}

/*
 * Runs of one program on four threads at once, with and without the mask,
 * each stage big enough to be pipelined: the groups each set is made from,
 * published by the first thread to finish them, serve them all exactly
 * (under ThreadSanitizer in runtime-tsan).
 */
TEST_TIMEOUT(concurrent_runs_share_the_groups, TIMEOUT)
{
	struct ttpu_error err;

	for (uint64_t seed = 2; seed <= 40; seed += 2) {
		char *json = make_program(seed, 1, 0);
		struct racer r[4];
		pthread_t t[4];
		ttpu_program *prog;
		uint8_t *mask;

		ASSERT_NE(NULL, json);
		prog = load(json, &err);
		ASSERT_NE(NULL, prog);
		mask = program_mask(prog);
		ASSERT_NE(NULL, mask);
		setenv("TTPU_NPUKIT_MAX_KICKS", "2", 1);
		for (int i = 0; i < 4; i++) {
			r[i] = (struct racer){ .prog = prog, .seed = seed, .mask = mask, .index = i };
			ASSERT_EQ(0, pthread_create(&t[i], NULL, race, &r[i]));
		}
		for (int i = 0; i < 4; i++) {
			pthread_join(t[i], NULL);
			EXPECT_EQ(0, r[i].ret);
			EXPECT_EQ(-1, r[i].bad) TH_LOG("seed %llu, thread %d",
						      (unsigned long long)seed, i);
		}
		unsetenv("TTPU_NPUKIT_MAX_KICKS");
		free(mask);
		ttpu_program_free(prog);
		free(json);
	}
}

TEST_HARNESS_MAIN
