// SPDX-License-Identifier: MIT
/*
 * test_software_engine.c - the software engine's NEON dot products
 * (engine_software_neon.c) are the scalar loop's, bit for bit, and a
 * stage shared by two threads answers as one thread does
 *
 * Rows of int16 values in i8's range (what engine_software.c packs), at
 * every length from 4 to 260 in steps of 4 and some up to 2^16, at odd
 * offsets (no alignment), four B rows at random distances, added into
 * random starting values: random values, and every value -128 or 127 (the
 * largest products, sums up to 2^30). Where the NEON path is not chosen
 * (x86, armhf without NEON) there is nothing to compare and the test says
 * so; the emulated Zynq suites run it with NEON. Random programs through
 * the whole engine, both paths, are test_replay's (its "D" layer).
 *
 * Threads: ttpu_program_matmul() layers of random shapes (edge tiles in
 * every dimension, bias and relu), random i8 operands and biases, now and
 * then one at the edge of int32 so that the epilogue fails, run on one
 * thread (TTPU_RUN_THREADS=1) and on two (=2: every stage of two jobs or
 * more is shared), with the scalar and the chosen dot product: the same
 * outputs or the same error, and the outputs the plain product's. The
 * shared path must have run (ttpu_software_shared_stages). Under
 * ThreadSanitizer too (make check-runtime-tsan).
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "engine.h"
#include "engine_software_neon.h"
#include "rt.h"
#include "run_range_neon.h"
#include "../lib/test_rng.h"
#include "../lib/test_timeout.h"

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The reference: the scalar loop's sums, in int64 (no overflow to hide). */
static int64_t dot64(const int16_t *x, const int16_t *y, size_t n)
{
	int64_t s = 0;

	for (size_t k = 0; k < n; k++)
		s += (int64_t)x[k] * y[k];
	return s;
}

/* Fill @n values: random in [-128, 127], or each -128 or 127 (@extreme). */
static void fill(int16_t *p, size_t n, int extreme, uint64_t *g)
{
	for (size_t k = 0; k < n; k++)
		p[k] = extreme ? ((next(g) & 1) ? 127 : -128) : (int16_t)((int)(next(g) & 255) - 128);
}

/* One case: returns 0 and says why on a difference. */
static int one_case(size_t len, int extreme, uint64_t *g, char *why, size_t whylen)
{
	size_t off = next(g) % 7, bs = len + next(g) % 9;
	int16_t *a = malloc((len + 8) * sizeof(*a));
	int16_t *b = malloc((4 * bs + 8) * sizeof(*b));
	int32_t out[4], start[4];
	int ok = 1;

	fill(a, len + 8, extreme, g);
	fill(b, 4 * bs + 8, extreme, g);
	for (int j = 0; j < 4; j++)
		start[j] = out[j] = (int32_t)(next(g) % 2001) - 1000;
	ttpu_sw_dot4_neon(a + off, b + off, bs, len, out);
	for (int j = 0; j < 4 && ok; j++) {
		int64_t want = start[j] + dot64(a + off, b + off + j * bs, len);

		if (out[j] != want) {
			snprintf(why, whylen, "len %zu, row %d: %d, not %lld", len, j, out[j],
				 (long long)want);
			ok = 0;
		}
	}
	free(a);
	free(b);
	return ok;
}

TEST_TIMEOUT(neon_dot_is_the_scalar_dot, 300)
{
	uint64_t g = 0x9e3779b97f4a7c15ull;
	char why[128];
	size_t cases = 0;

	if (!ttpu_range_neon_on())
		SKIP(return, "the NEON path is not chosen here: nothing to compare");
	for (int extreme = 0; extreme <= 1; extreme++) {
		for (size_t len = 4; len <= 260; len += 4, cases++)
			ASSERT_TRUE(one_case(len, extreme, &g, why, sizeof(why))) TH_LOG("%s", why);
		for (size_t len = 1024; len <= 65536; len *= 4, cases++)
			ASSERT_TRUE(one_case(len, extreme, &g, why, sizeof(why))) TH_LOG("%s", why);
	}
	TH_LOG("%zu cases, NEON against int64", cases);
}

/* A run's outputs, or its error. */
struct outcome {
	int rc;
	struct ttpu_error err;
	int32_t *c;
	size_t nc;
};

static void run_as(const ttpu_program *prog, ttpu_engine *eng, const ttpu_inputs *in,
		   const char *threads, int simd, struct outcome *o)
{
	ttpu_result *res = NULL;
	const int32_t *c;

	setenv("TTPU_RUN_THREADS", threads, 1);
	ttpu_range_neon = simd;
	o->rc = ttpu_run(prog, eng, in, &res, &o->err);
	ttpu_range_neon = -1;
	unsetenv("TTPU_RUN_THREADS");
	o->c = NULL;
	o->nc = 0;
	if (o->rc)
		return;
	c = ttpu_result_output(res, "C", &o->nc);
	o->c = malloc(o->nc * sizeof(*o->c) + 1);
	if (o->c)
		memcpy(o->c, c, o->nc * sizeof(*o->c));
	ttpu_result_free(res);
}

static int same(const struct outcome *x, const struct outcome *y)
{
	if (x->rc || y->rc)
		return x->rc == y->rc && x->err.command == y->err.command &&
		       !strcmp(x->err.message, y->err.message);
	return x->nc == y->nc && x->c && y->c && !memcmp(x->c, y->c, x->nc * sizeof(*x->c));
}

static int32_t *values(struct rng *g, size_t n, int64_t lo, int64_t hi)
{
	int32_t *v = malloc(n * sizeof(*v) + 1);

	for (size_t i = 0; v && i < n; i++)
		v[i] = (int32_t)(lo + (int64_t)(rng_next(g) % (uint64_t)(hi - lo + 1)));
	return v;
}

TEST_TIMEOUT(two_threads_answer_as_one, 600)
{
	struct rng g = { 0x2545f4914f6cdd1dull };
	ttpu_engine *eng = rt_engine();
	unsigned long shared0 = ttpu_software_shared_stages;
	int failed = 0, cases = 60;

	for (int t = 0; t < cases; t++) {
		size_t m = 1 + rng_next(&g) % 40, k = 1 + rng_next(&g) % 70;
		size_t n = 1 + rng_next(&g) % 40;
		unsigned int flags = rng_next(&g) % 4;
		int edge = !(rng_next(&g) % 4);
		int32_t *a = values(&g, m * k, -128, 127), *b = values(&g, k * n, -128, 127);
		int32_t *bias = values(&g, n, edge ? INT32_MAX - 4000 : -40000,
				       edge ? INT32_MAX : 40000);
		struct outcome one, two[2];
		struct ttpu_error err;
		ttpu_program *prog;
		ttpu_inputs *in;

		ASSERT_TRUE(a && b && bias);
		ASSERT_EQ(0, ttpu_program_matmul(m, k, n, flags, &prog, &err))
			TH_LOG("%s", err.message);
		in = ttpu_inputs_new(prog);
		ASSERT_NE(NULL, in);
		ASSERT_EQ(0, ttpu_inputs_set(in, "A", a, m * k, &err));
		ASSERT_EQ(0, ttpu_inputs_set(in, "B", b, k * n, &err));
		if (flags & TTPU_MATMUL_BIAS)
			ASSERT_EQ(0, ttpu_inputs_set(in, "bias", bias, n, &err));
		run_as(prog, eng, in, "1", 0, &one);
		run_as(prog, eng, in, "2", 0, &two[0]);
		run_as(prog, eng, in, "2", -1, &two[1]);
		for (int x = 0; x < 2; x++) {
			ASSERT_TRUE(same(&one, &two[x]))
				TH_LOG("case %d (%zux%zux%zu, flags %u), %s dot: rc %d/%d %s", t,
				       m, k, n, flags, x ? "chosen" : "scalar", one.rc, two[x].rc,
				       one.rc ? one.err.message : two[x].rc ? two[x].err.message : "");
		}
		failed += !!one.rc;
		/* And the plain product's answer. */
		for (size_t r = 0; !one.rc && r < m; r++) {
			for (size_t j = 0; j < n; j++) {
				int64_t s = 0;

				for (size_t p = 0; p < k; p++)
					s += (int64_t)a[r * k + p] * b[p * n + j];
				if (flags & TTPU_MATMUL_BIAS)
					s += bias[j];
				if ((flags & TTPU_MATMUL_RELU) && s < 0)
					s = 0;
				ASSERT_EQ(s, one.c[r * n + j]) TH_LOG("case %d, C[%zu][%zu]", t, r, j);
			}
		}
		free(one.c);
		free(two[0].c);
		free(two[1].c);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
		free(a);
		free(b);
		free(bias);
	}
	TH_LOG("%d cases, %d stopped with the same error; %lu stages shared", cases, failed,
	       ttpu_software_shared_stages - shared0);
	/* Both outcomes, and the shared path taken, or this proves little. */
	ASSERT_GT(failed, 0);
	ASSERT_LT(failed, cases);
	ASSERT_GT(ttpu_software_shared_stages - shared0, (unsigned long)cases / 2);
}

TEST_HARNESS_MAIN
