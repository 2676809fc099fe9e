// SPDX-License-Identifier: MIT
/*
 * test_replay.c - the host chains' replay (run_replay.c) and the runner's
 * two cores (run.c), against independent answers
 *
 * Programs: C (i8, the host's chains) and sometimes D (i32, the engine's)
 * += A . W over a tile grid shifted by 0-3 rows and columns (so edge
 * windows cross their buffers), K in one or two halves (a window's second
 * chain follows its first), passes interleaved with their accs, ahead of
 * them, or in an earlier stage (deferred steps), relu on some last accs.
 *
 * - kernels: every chain replayed from dst values chosen so that a partial
 *   sum lands exactly on 127, -128, 128 or -129 at a chosen step, with the
 *   scalar kernel, the one chosen at run time (NEON on armhf), in pairs and
 *   alone, each against the test's own step-by-step sums (the reference
 *   link product in int64): the same add, or the same first failing step,
 *   element and value;
 * - runs: the same programs run serially, on two threads for every stage
 *   (TTPU_RUN_THREADS=2), with either kernel, and one command at a time
 *   (ttpu_run_direct): the same outputs or the same error;
 * - faults: an engine whose compute_stage fails at a random stage, while
 *   the other core replays: the run gives that error and no result, on
 *   two threads as serially.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "error.h"
#include "run.h"
#include "run_direct.h"
#include "run_range_neon.h"
#include "run_replay.h"
#include "run_split.h"
#include "rt.h"
#include "../lib/test_rng.h"

static uint32_t pick(struct rng *g, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(rng_next(g) % ((uint64_t)hi - lo + 1));
}

struct shape {
	uint32_t r, k, n;		/* A [r, k], W [k, n], C and D [r, n] */
	uint32_t or, oc;		/* the tile grid's shift */
	int mode;			/* 0 interleaved, 1 passes first, 2 deferred */
	int halves;			/* K in 1 or 2 chains a window */
	int with_d;			/* an i32 destination too (the engine's) */
};

static void random_shape(struct rng *g, struct shape *s)
{
	s->r = pick(g, 1, 14);
	s->k = pick(g, 1, 40);
	if (pick(g, 0, 1))	/* no window past K's edge: whole chains pair */
		s->k = (s->k + 3) & ~3u;
	s->n = pick(g, 1, 17);
	s->or = pick(g, 0, 3) ? 0 : pick(g, 1, 3);
	s->oc = pick(g, 0, 3) ? 0 : pick(g, 1, 3);
	s->mode = (int)pick(g, 0, 2);
	s->halves = (int)pick(g, 1, 2);
	s->with_d = (int)pick(g, 0, 1);
}

static void accs(struct rt_text *t, int first, int last, const char *dst, uint32_t r, uint32_t c,
		 int relu)
{
	for (int p = first; p < last; p++)
		rt_put(t, ",{\"op\":\"acc\",\"pass\":%d,\"dst\":{\"buf\":\"%s\",\"r\":%u,\"c\":%u}%s}",
		    p, dst, r, c, relu && p == last - 1 ? ",\"relu\":true" : "");
}

/* One dst's tiles, K range [k0, k1) in 4-column blocks. */
static void tiles(struct rt_text *t, struct rng *g, const struct shape *s, const char *dst,
		  uint32_t k0, uint32_t k1, int *id)
{
	for (uint32_t r = s->or; r < s->r; r += 4) {
		for (uint32_t c = s->oc; c < s->n; c += 4) {
			int first = *id, relu = (int)pick(g, 0, 3) == 0;

			for (uint32_t k = k0; k < k1; k++) {
				rt_put(t, ",{\"op\":\"pass\",\"id\":%d,\"a\":{\"buf\":\"A\",\"r\":%u,"
				       "\"c\":%u},\"b\":{\"buf\":\"W\",\"r\":%u,\"c\":%u}}",
				    *id, r, 4 * k, 4 * k, c);
				if (s->mode == 0)
					accs(t, *id, *id + 1, dst, r, c, relu && k + 1 == k1);
				++*id;
			}
			if (s->mode == 2)	/* a host command between: the accs' own stage */
				rt_put(t, ",{\"op\":\"host_relu\",\"dst\":\"Z\",\"src\":\"Z\"}");
			if (s->mode)
				accs(t, first, *id, dst, r, c, relu);
		}
	}
}

static char *program(struct rng *g, const struct shape *s)
{
	struct rt_text t = { 0 };
	uint32_t kb = (s->k + 3) / 4;
	int id = 0;

	rt_put(&t, "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"replay\",\"buffers\":{"
		"\"A\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"input\"},"
		"\"W\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"input\"},"
		"\"C\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
		"\"D\":{\"dtype\":\"i32\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
		"\"Z\":{\"dtype\":\"i8\",\"shape\":[1,4],\"kind\":\"temp\"}},"
		"\"inputs\":[\"A\",\"W\"],\"outputs\":[\"C\",\"D\"],\"commands\":[",
		s->r, s->k, s->k, s->n, s->r, s->n, s->r, s->n);
	rt_put(&t, "{\"op\":\"host_relu\",\"dst\":\"Z\",\"src\":\"Z\"}");
	for (int h = 0; h < s->halves; h++) {
		uint32_t k0 = h ? kb / 2 : 0, k1 = s->halves == 1 || h ? kb : kb / 2;

		tiles(&t, g, s, "C", k0, k1, &id);
		if (s->with_d)
			tiles(&t, g, s, "D", k0, k1, &id);
	}
	rt_put(&t, "]}");
	return t.s;
}

/* Operands over a range chosen per case, W with some zeros. */
static void random_operands(struct rng *g, int8_t *a, size_t na, int8_t *w, size_t nw)
{
	static const int32_t amax[] = { 2, 8, 40, 127 }, wmax[] = { 1, 3, 16, 127 };
	int32_t am = amax[pick(g, 0, 3)], wm = wmax[pick(g, 0, 3)];
	uint32_t zeros = pick(g, 0, 9);

	for (size_t i = 0; i < na; i++)
		a[i] = (int8_t)((int32_t)pick(g, 0, (uint32_t)(2 * am)) - am);
	for (size_t i = 0; i < nw; i++)
		w[i] = pick(g, 0, 9) < zeros ? 0 : (int8_t)((int32_t)pick(g, 0, (uint32_t)(2 * wm)) - wm);
}

/* ---- kernels ------------------------------------------------------------ */

/* The test's own replay: step by step, int64, the reference product. */
static void reference(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		      int64_t sums[][16], uint32_t nsteps)
{
	const struct ttpu_plan *plan = ctx->prog->plan;
	const struct ttpu_buffer *b = &ctx->prog->buffers[ch->dst.buf];
	const int8_t *d = ctx->data[ch->dst.buf];
	int64_t v[16];

	for (uint32_t e = 0; e < 16; e++) {
		uint64_t r = (uint64_t)ch->dst.r + e / 4, c = (uint64_t)ch->dst.c + e % 4;

		v[e] = r < b->rows && c < b->cols ? d[r * b->cols + c] : 0;
	}
	for (uint32_t s = 0; s < nsteps; s++) {
		const struct ttpu_step *st = &plan->steps[ch->first_step + s];
		const struct ttpu_link *l = &plan->links[st->link];
		int32_t p[16];

		ttpu_link_product(ctx->prog, ctx->data, &l->a, &l->b, p);
		for (int e = 0; e < 16; e++)
			sums[s][e] = v[e] += p[e];
	}
}

/* Whether element @e of @ch's window is inside its buffer. */
static int in_window(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch, uint32_t e)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[ch->dst.buf];

	return (uint64_t)ch->dst.r + e / 4 < b->rows && (uint64_t)ch->dst.c + e % 4 < b->cols;
}

/* What @ch must come to from dst's current values: the test's answer. */
static void expected(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		     struct ttpu_replay *x)
{
	int64_t (*sums)[16] = calloc(ch->nsteps + 1, sizeof(*sums));
	const struct ttpu_buffer *b = &ctx->prog->buffers[ch->dst.buf];
	const int8_t *d = ctx->data[ch->dst.buf];

	reference(ctx, ch, sums, ch->nsteps);
	memset(x, 0, sizeof(*x));
	x->fail_step = UINT32_MAX;
	for (uint32_t s = 0; s < ch->nsteps; s++)
		for (uint32_t e = 0; e < 16; e++)
			if (in_window(ctx, ch, e) && (sums[s][e] < -128 || sums[s][e] > 127)) {
				x->fail_step = s;
				x->fail_elem = e;
				x->fail_value = sums[s][e];
				free(sums);
				return;
			}
	for (uint32_t e = 0; e < 16; e++)
		if (in_window(ctx, ch, e))
			x->add[e] = (int32_t)(sums[ch->nsteps - 1][e] -
					      d[(size_t)(ch->dst.r + e / 4) * b->cols + ch->dst.c + e % 4]);
	free(sums);
}

/*
 * dst values for @ch such that an element's largest (or smallest) partial
 * sum lands exactly on 127 (or -128), and, in a third of the chains, one
 * element's one past it, where an i8 start can make that.
 */
static void edge_start(struct rng *g, struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[ch->dst.buf];
	int8_t *d = ctx->data[ch->dst.buf];
	int64_t (*sums)[16] = calloc(ch->nsteps + 1, sizeof(*sums));
	uint32_t past = pick(g, 0, 2) ? 16 : pick(g, 0, 15);

	for (uint32_t e = 0; e < 16; e++)
		if (in_window(ctx, ch, e))
			d[(size_t)(ch->dst.r + e / 4) * b->cols + ch->dst.c + e % 4] = 0;
	reference(ctx, ch, sums, ch->nsteps);
	for (uint32_t e = 0; e < 16; e++) {
		int high = (int)pick(g, 0, 1);
		int64_t best = sums[0][e], d0;

		if (!in_window(ctx, ch, e))
			continue;
		for (uint32_t s = 1; s < ch->nsteps; s++)
			best = high ? (sums[s][e] > best ? sums[s][e] : best) :
				      (sums[s][e] < best ? sums[s][e] : best);
		d0 = (high ? 127 : -128) + (e == past ? (high ? 1 : -1) : 0) - best;
		if (d0 < -128 || d0 > 127)
			d0 = (int64_t)pick(g, 0, 255) - 128;
		d[(size_t)(ch->dst.r + e / 4) * b->cols + ch->dst.c + e % 4] = (int8_t)d0;
	}
	free(sums);
}

static int same(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		const struct ttpu_replay *x, const struct ttpu_replay *y)
{
	if (x->fail_step != y->fail_step)
		return 0;
	if (x->fail_step != UINT32_MAX)
		return x->fail_elem == y->fail_elem && x->fail_value == y->fail_value;
	for (uint32_t e = 0; e < 16; e++)
		if (in_window(ctx, ch, e) && x->add[e] != y->add[e])
			return 0;
	return 1;
}

/* Only chains whose every step is a link of their stage (no tmp needed). */
static int all_links(const struct ttpu_plan *plan, const struct ttpu_chain *ch)
{
	for (uint32_t s = 0; s < ch->nsteps; s++)
		if (plan->steps[ch->first_step + s].link == TTPU_NO_LINK)
			return 0;
	return 1;
}

TEST(kernels_against_the_reference)
{
	struct rng g = { 0x5eed0001 };
	long chains = 0, failing = 0, exact_edges = 0, pairs = 0;
	int way;

	for (int cs = 0; cs < 300; cs++) {
		struct shape s;
		char *text;
		ttpu_program *prog;
		ttpu_inputs *in;
		struct ttpu_run_ctx ctx;
		struct ttpu_error err;
		int8_t *a, *w;

		random_shape(&g, &s);
		s.mode = (int)pick(&g, 0, 1);	/* no deferred steps: no tmp here */
		text = program(&g, &s);
		ASSERT_EQ(0, ttpu_program_load_buffer(text, strlen(text), &prog, &err))
			TH_LOG("%s", err.message);
		in = ttpu_inputs_new(prog);
		a = malloc(s.r * s.k);
		w = malloc(s.k * s.n);
		ASSERT_TRUE(in && a && w);
		random_operands(&g, a, s.r * s.k, w, s.k * s.n);
		{
			int32_t *av = malloc(s.r * s.k * sizeof(*av)), *wv = malloc(s.k * s.n * sizeof(*wv));

			for (size_t i = 0; i < s.r * s.k; i++)
				av[i] = a[i];
			for (size_t i = 0; i < s.k * s.n; i++)
				wv[i] = w[i];
			ASSERT_EQ(0, ttpu_inputs_set(in, "A", av, s.r * s.k, &err));
			ASSERT_EQ(0, ttpu_inputs_set(in, "W", wv, s.k * s.n, &err));
			free(av);
			free(wv);
		}
		ASSERT_EQ(0, ttpu_run_ctx_init(&ctx, prog, in, &err));
		const struct ttpu_plan *plan = prog->plan;
		const struct ttpu_replay_table *t = ttpu_replay_table_of(prog);

		ASSERT_NE(NULL, t);
		for (size_t i = 0; i < plan->nstages; i++) {
			const struct ttpu_stage *st = &plan->stages[i];

			for (uint32_t k = 0; st->kind == TTPU_STAGE_MATMUL && k < st->nchains; k++) {
				const struct ttpu_chain *ch = &plan->chains[st->first_chain + k];
				struct ttpu_replay x, y[4];

				if (!ttpu_chain_on_host(prog, st, ch) || !all_links(plan, ch))
					continue;
				edge_start(&g, &ctx, ch);
				expected(&ctx, ch, &x);
				chains++;
				failing += x.fail_step != UINT32_MAX;
				exact_edges += x.fail_step != UINT32_MAX &&
					       (x.fail_value == 128 || x.fail_value == -129);
				ttpu_range_neon = 0;
				ttpu_replay_chain(&ctx, t, ch, &y[0]);
				ttpu_range_neon = -1;
				ttpu_replay_chain(&ctx, t, ch, &y[1]);
				ttpu_replay_exact(&ctx, ch, &y[2]);
				for (way = 0; way < 3; way++)
					ASSERT_TRUE(same(&ctx, ch, &x, &y[way]))
						TH_LOG("case %d chain %u way %d: step %u/%u elem %u/%u value %lld/%lld",
						       cs, k, way, x.fail_step, y[way].fail_step, x.fail_elem,
						       y[way].fail_elem, (long long)x.fail_value,
						       (long long)y[way].fail_value);
				/* With its neighbour, both ways. */
				if (k + 1 < st->nchains) {
					const struct ttpu_chain *nb = ch + 1;
					struct ttpu_replay xn, p0, p1;

					if (!ttpu_chain_on_host(prog, st, nb) || !all_links(plan, nb))
						continue;
					pairs += ttpu_replay_can_pair(prog, t, ch, nb);
					edge_start(&g, &ctx, nb);
					expected(&ctx, ch, &x);
					expected(&ctx, nb, &xn);
					for (int simd = 0; simd >= -1; simd--) {
						ttpu_range_neon = simd;
						ttpu_replay_pair(&ctx, t, ch, nb, &p0, &p1);
						ASSERT_TRUE(same(&ctx, ch, &x, &p0) && same(&ctx, nb, &xn, &p1))
							TH_LOG("case %d pair at chain %u (%s)", cs, k,
							       simd ? "chosen" : "scalar");
					}
				}
			}
		}
		ttpu_range_neon = -1;
		ttpu_run_ctx_release(&ctx);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
		free(a);
		free(w);
		free(text);
	}
	TH_LOG("%ld chains (%s kernel chosen), %ld failing, %ld of them one past a bound; %ld pairs",
	       chains, ttpu_range_neon_on() ? "NEON" : "scalar", failing, exact_edges, pairs);
	ASSERT_GT(failing, chains / 10);
	ASSERT_LT(failing, chains * 9 / 10);
	ASSERT_GT(exact_edges, 20);
	ASSERT_GT(pairs, 100);
}

/* ---- runs --------------------------------------------------------------- */

static char *inputs_text(const int8_t *a, uint32_t na, const int8_t *w, uint32_t nw,
			 const struct shape *s)
{
	struct rt_text t = { 0 };

	rt_put(&t, "{\"A\":[");
	for (uint32_t i = 0; i < na; i++)
		rt_put(&t, "%s%s%d%s", i % s->k ? "" : (i ? ",[" : "["), i % s->k ? "," : "", a[i],
		    (i + 1) % s->k ? "" : "]");
	rt_put(&t, "],\"W\":[");
	for (uint32_t i = 0; i < nw; i++)
		rt_put(&t, "%s%s%d%s", i % s->n ? "" : (i ? ",[" : "["), i % s->n ? "," : "", w[i],
		    (i + 1) % s->n ? "" : "]");
	rt_put(&t, "]}");
	return t.s;
}

struct outcome {
	int rc;
	struct ttpu_error err;
	int32_t *c, *d;
	size_t nc, nd;
};

static void outcome_free(struct outcome *o)
{
	free(o->c);
	free(o->d);
}

static void take(struct outcome *o, int rc, ttpu_result *res, const struct ttpu_error *err)
{
	memset(o, 0, sizeof(*o));
	o->rc = rc;
	if (rc) {
		o->err = *err;
		return;
	}
	const int32_t *c = ttpu_result_output(res, "C", &o->nc);
	const int32_t *d = ttpu_result_output(res, "D", &o->nd);

	o->c = malloc(o->nc * sizeof(int32_t) + 1);
	o->d = malloc(o->nd * sizeof(int32_t) + 1);
	memcpy(o->c, c, o->nc * sizeof(int32_t));
	memcpy(o->d, d, o->nd * sizeof(int32_t));
	ttpu_result_free(res);
}

static int outcomes_agree(const struct outcome *x, const struct outcome *y, char *why, size_t len)
{
	if (x->rc != y->rc) {
		snprintf(why, len, "rc %d (%.200s) against %d (%.200s)", x->rc,
			 x->rc ? x->err.message : "ok", y->rc, y->rc ? y->err.message : "ok");
		return 0;
	}
	if (x->rc) {
		if (x->err.command != y->err.command || x->err.element != y->err.element ||
		    strcmp(x->err.message, y->err.message)) {
			snprintf(why, len, "errors differ: %.300s | %.300s", x->err.message,
				 y->err.message);
			return 0;
		}
		return 1;
	}
	if (x->nc != y->nc || x->nd != y->nd || memcmp(x->c, y->c, x->nc * sizeof(int32_t)) ||
	    memcmp(x->d, y->d, x->nd * sizeof(int32_t))) {
		snprintf(why, len, "outputs differ");
		return 0;
	}
	return 1;
}

static int run_with(const ttpu_program *prog, ttpu_engine *eng, const ttpu_inputs *in,
		    const char *threads, int simd, struct outcome *o)
{
	ttpu_result *res = NULL;
	struct ttpu_error err;
	int rc;

	setenv("TTPU_RUN_THREADS", threads, 1);
	ttpu_range_neon = simd;
	rc = ttpu_run(prog, eng, in, &res, &err);
	ttpu_range_neon = -1;
	unsetenv("TTPU_RUN_THREADS");
	if (rc && res)
		return 0;		/* an error never comes with a result */
	take(o, rc, res, &err);
	return 1;
}

/* A random program and data of case @cs, loaded, with its inputs. */
static int make_case(struct rng *g, ttpu_program **prog, ttpu_inputs **in, char **texts)
{
	struct shape s;
	struct ttpu_error err;
	int8_t *a, *w;
	int ok;

	random_shape(g, &s);
	texts[0] = program(g, &s);
	a = malloc(s.r * s.k);
	w = malloc(s.k * s.n);
	random_operands(g, a, s.r * s.k, w, s.k * s.n);
	texts[1] = inputs_text(a, s.r * s.k, w, s.k * s.n, &s);
	free(a);
	free(w);
	*in = NULL;
	if (ttpu_program_load_buffer(texts[0], strlen(texts[0]), prog, &err))
		return 0;
	*in = ttpu_inputs_new(*prog);
	ok = *in && !ttpu_inputs_parse(*in, texts[1], strlen(texts[1]), &err);
	return ok;
}

TEST(threaded_serial_direct_agree)
{
	struct rng g = { 0x5eed0002 };
	int failed = 0, runs = 0;
	char why[800];

	for (int cs = 0; cs < 200; cs++) {
		ttpu_program *prog = NULL;
		ttpu_inputs *in = NULL;
		char *texts[2] = { NULL, NULL };
		struct outcome ref, o;
		ttpu_result *res = NULL;
		struct ttpu_error err;
		int rc;

		ASSERT_TRUE(make_case(&g, &prog, &in, texts)) TH_LOG("case %d", cs);
		rc = ttpu_run_direct(prog, in, &res, &err);
		take(&ref, rc, res, &err);
		failed += rc != 0;
		for (int way = 0; way < 4; way++) {
			ASSERT_TRUE(run_with(prog, rt_engine(), in, way & 1 ? "2" : "1",
					     way & 2 ? -1 : 0, &o));
			ASSERT_TRUE(outcomes_agree(&ref, &o, why, sizeof(why)))
				TH_LOG("case %d, %s, %s kernel: %s\n%s", cs,
				       way & 1 ? "two threads" : "serial", way & 2 ? "chosen" : "scalar",
				       why, texts[0]);
			outcome_free(&o);
			runs++;
		}
		outcome_free(&ref);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
		free(texts[0]);
		free(texts[1]);
	}
	TH_LOG("%d runs, %d of 200 cases stopped with a RangeError", runs, failed);
	ASSERT_GT(failed, 20);
	ASSERT_LT(failed, 180);
}

/* ---- faults ------------------------------------------------------------- */

/* The software engine's sums, except that stage call number fail_at fails. */
struct faulty {
	struct ttpu_engine eng;
	ttpu_engine *inner;
	int calls, fail_at;
};

static int faulty_begin(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx, struct ttpu_error *err)
{
	struct faulty *f = (struct faulty *)eng;

	f->calls = 0;
	return f->inner->ops->run_begin(f->inner, ctx, err);
}

static int faulty_compute(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx,
			  const struct ttpu_stage *st, const uint8_t *host_job,
			  int32_t (*sums)[16], struct ttpu_error *err)
{
	struct faulty *f = (struct faulty *)eng;
	int ret = f->inner->ops->compute_stage(f->inner, ctx, st, host_job, sums, err);

	if (ret || f->calls++ != f->fail_at)
		return ret;
	/* Garbage where the sums were: they must never be used. */
	for (uint32_t j = 0; j < st->njobs; j++)
		for (int e = 0; e < 16; e++)
			if (!host_job || !host_job[j])
				sums[j][e] = 0x7fffffff - e;
	return ttpu_error_set(err, TTPU_DEVICE_ERROR, "injected fault at stage call %d",
			      f->fail_at);
}

static void faulty_end(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx)
{
	struct faulty *f = (struct faulty *)eng;

	f->inner->ops->run_end(f->inner, ctx);
}

static const struct ttpu_engine_ops faulty_ops = {
	.run_begin = faulty_begin,
	.compute_stage = faulty_compute,
	.run_end = faulty_end,
};

TEST(engine_fault_is_a_clean_error)
{
	struct rng g = { 0x5eed0003 };
	struct faulty f = { .eng = { .ops = &faulty_ops }, .inner = rt_engine() };

	f.eng.type = f.inner->type;	/* the response's engine name */
	int faults = 0;
	char why[800];

	for (int cs = 0; cs < 150; cs++) {
		ttpu_program *prog = NULL;
		ttpu_inputs *in = NULL;
		char *texts[2] = { NULL, NULL };
		struct outcome serial, threaded;
		int stages = 0;

		ASSERT_TRUE(make_case(&g, &prog, &in, texts));
		for (size_t i = 0; i < prog->plan->nstages; i++)
			stages += prog->plan->stages[i].kind == TTPU_STAGE_MATMUL &&
				  prog->plan->stages[i].njobs;
		f.fail_at = (int)pick(&g, 0, (uint32_t)stages);	/* == stages: no fault */
		ASSERT_TRUE(run_with(prog, &f.eng, in, "1", -1, &serial));
		ASSERT_TRUE(run_with(prog, &f.eng, in, "2", -1, &threaded));
		ASSERT_TRUE(outcomes_agree(&serial, &threaded, why, sizeof(why)))
			TH_LOG("case %d, fault at %d of %d: %s", cs, f.fail_at, stages, why);
		if (f.fail_at < stages) {
			/* The fault, unless a RangeError of an earlier stage came first. */
			ASSERT_TRUE(threaded.rc == -TTPU_DEVICE_ERROR ||
				    threaded.rc == -TTPU_RANGE_ERROR);
			if (threaded.rc == -TTPU_DEVICE_ERROR) {
				ASSERT_NE(NULL, strstr(threaded.err.message, "injected fault"));
				faults++;
			}
		}
		outcome_free(&serial);
		outcome_free(&threaded);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
		free(texts[0]);
		free(texts[1]);
	}
	TH_LOG("%d runs ended with the injected fault", faults);
	ASSERT_GT(faults, 30);
}

TEST_HARNESS_MAIN
