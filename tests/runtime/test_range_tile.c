// SPDX-License-Identifier: MIT
/*
 * test_range_tile.c - run_range.c's replay a tile at a time against the
 * contract's step-by-step checks (the one-command-at-a-time executor,
 * ttpu_run_direct): tiled matmuls accumulated straight into an i8 buffer,
 * whose chains the runner's bounds cannot settle, on random data and on
 * data whose partial sums walk exactly onto the i8 bounds (127, -128) and
 * one past them (128, -129) at chosen steps. Identical outputs, or the
 * identical RangeError (command, buffer, element, value in the message).
 *
 * The matmul: C (i8 [R, N]) += A (i8 [R, K], input) . W (i8 [K, N],
 * input), output tiles row-major, K innermost, in two halves (all tiles'
 * first half of K, then all tiles' second half), so a window's second
 * chain starts from what its first one left. The shapes are not multiples
 * of 4, so edge windows take the bounds-checked product. Passes and accs
 * interleaved in some programs, a tile's passes before its accs (deferred
 * steps) in others. Every case runs with the scalar replay step and with
 * the one chosen at run time (NEON on an armhf machine that has it:
 * run_range_neon.c), so the two are held to the same answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "run_direct.h"
#include "run_range_neon.h"
#include "rt.h"
#include "../lib/test_rng.h"

#define R 10
#define K 26
#define N 11
#define KB ((K + 3) / 4)

static void matrix(struct rt_text *t, const int8_t *m, int rows, int cols)
{
	rt_put(t, "[");
	for (int r = 0; r < rows; r++) {
		rt_put(t, "%s[", r ? "," : "");
		for (int c = 0; c < cols; c++)
			rt_put(t, "%s%d", c ? "," : "", m[r * cols + c]);
		rt_put(t, "]");
	}
	rt_put(t, "]");
}

static char *program(int deferred)
{
	struct rt_text t = { 0 };
	int id = 0;

	rt_put(&t, "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"tile\",\"buffers\":{"
		"\"A\":{\"dtype\":\"i8\",\"shape\":[%d,%d],\"kind\":\"input\"},"
		"\"W\":{\"dtype\":\"i8\",\"shape\":[%d,%d],\"kind\":\"input\"},"
		"\"C\":{\"dtype\":\"i8\",\"shape\":[%d,%d],\"kind\":\"temp\"}},"
		"\"inputs\":[\"A\",\"W\"],\"outputs\":[\"C\"],\"commands\":[", R, K, K, N, R, N);
	for (int half = 0; half < 2; half++) {
		int k0 = half ? KB / 2 : 0, k1 = half ? KB : KB / 2;

		for (int r = 0; r < R; r += 4) {
			for (int c = 0; c < N; c += 4) {
				int first = id;

				for (int k = k0; k < k1; k++) {
					rt_put(&t, "%s{\"op\":\"pass\",\"id\":%d,\"a\":{\"buf\":\"A\",\"r\":%d,"
						"\"c\":%d},\"b\":{\"buf\":\"W\",\"r\":%d,\"c\":%d}}",
						id ? "," : "", id, r, 4 * k, 4 * k, c);
					if (!deferred)
						rt_put(&t, ",{\"op\":\"acc\",\"pass\":%d,\"dst\":{\"buf\":\"C\","
							"\"r\":%d,\"c\":%d}}", id, r, c);
					id++;
				}
				for (int p = first; deferred && p < id; p++)
					rt_put(&t, ",{\"op\":\"acc\",\"pass\":%d,\"dst\":{\"buf\":\"C\","
						"\"r\":%d,\"c\":%d}}", p, r, c);
			}
		}
	}
	rt_put(&t, "]}");
	return t.s;
}

static int32_t pick(struct rng *g, int32_t lo, int32_t hi)
{
	return (int32_t)(lo + (int64_t)(rng_next(g) % (uint64_t)((int64_t)hi - lo + 1)));
}

/*
 * Uniform operands over a range chosen per run (up to the whole of i8),
 * W with a fraction of zeros: some runs stay in i8, some leave it.
 */
static void random_data(struct rng *g, int8_t *a, int8_t *w)
{
	static const int32_t amax[] = { 4, 16, 64, 127 }, wmax[] = { 1, 2, 8, 127 };
	int zeros = pick(g, 0, 9);
	int32_t am = amax[pick(g, 0, 3)], wm = wmax[pick(g, 0, 3)];

	for (int i = 0; i < R * K; i++)
		a[i] = (int8_t)pick(g, -am - (am == 127), am);
	for (int i = 0; i < K * N; i++)
		w[i] = pick(g, 0, 9) < zeros ? 0 : (int8_t)pick(g, -wm - (wm == 127), wm);
}

/*
 * Each column j of W has one +-1 per 4-row block, in row 4b + j % 4, so
 * element (i, j)'s partial sum after block b is the sum of A[i][4b' + j % 4]
 * times those signs: A is chosen to make each such walk land exactly on
 * 127 or -128 often, and, in half the runs, one past now and then.
 */
static void edge_data(struct rng *g, int8_t *a, int8_t *w)
{
	int8_t sign[KB][4];
	int past = pick(g, 0, 1);

	memset(w, 0, K * N);
	for (int b = 0; b < KB; b++)
		for (int q = 0; q < 4; q++) {
			sign[b][q] = pick(g, 0, 1) ? 1 : -1;
			for (int j = q; j < N && 4 * b + q < K; j += 4)
				w[(4 * b + q) * N + j] = sign[b][q];
		}
	for (int i = 0; i < R * K; i++)
		a[i] = (int8_t)pick(g, -128, 127);
	for (int i = 0; i < R; i++) {
		for (int q = 0; q < 4; q++) {
			int32_t p = 0;

			for (int b = 0; b < KB && 4 * b + q < K; b++) {
				/* (want - p) * sign must be an i8 */
				int32_t dlo = sign[b][q] > 0 ? -128 : -127, dhi = dlo + 255;
				int32_t lo = p + dlo > -129 ? p + dlo : -129;
				int32_t hi = p + dhi < 128 ? p + dhi : 128;
				int32_t want, roll = pick(g, 0, 19);

				if (roll < 6)
					want = 127;
				else if (roll < 12)
					want = -128;
				else if (roll == 12)
					want = past ? 128 : 127;
				else if (roll == 13)
					want = past ? -129 : -128;
				else
					want = pick(g, -128, 127);
				if (want < lo || want > hi)
					want = pick(g, lo > -128 ? lo : -128, hi < 127 ? hi : 127);
				a[i * K + 4 * b + q] = (int8_t)((want - p) * sign[b][q]);
				p = want;
				if (p > 127 || p < -128)
					break;	/* past the bound: the rest is random */
			}
		}
	}
}

static char *inputs(const int8_t *a, const int8_t *w)
{
	struct rt_text t = { 0 };

	rt_put(&t, "{\"A\":");
	matrix(&t, a, R, K);
	rt_put(&t, ",\"W\":");
	matrix(&t, w, K, N);
	rt_put(&t, "}");
	return t.s;
}

/* 1 when planned and direct agree on @seed's data; else @why says how. */
static int agree(const ttpu_program *prog, uint64_t seed, int edge, int *failed,
		 char *why, size_t len)
{
	struct rng g = { seed * 0x9e3779b97f4a7c15ULL | 1 };
	int8_t a[R * K], w[K * N];
	struct ttpu_error err, e1, e2;
	ttpu_result *r1 = NULL, *r2 = NULL;
	ttpu_inputs *in = ttpu_inputs_new(prog);
	char *text;
	int rc1, rc2, ok = 0;

	if (edge)
		edge_data(&g, a, w);
	else
		random_data(&g, a, w);
	text = inputs(a, w);
	if (!in || ttpu_inputs_parse(in, text, strlen(text), &err)) {
		snprintf(why, len, "seed %llu: inputs rejected", (unsigned long long)seed);
		goto out;
	}
	rc1 = ttpu_run(prog, rt_engine(), in, &r1, &e1);
	rc2 = ttpu_run_direct(prog, in, &r2, &e2);
	if (rc1 != rc2) {
		snprintf(why, len, "seed %llu: planned rc %d (%.200s), direct rc %d (%.200s)",
			 (unsigned long long)seed, rc1, rc1 ? e1.message : "ok", rc2,
			 rc2 ? e2.message : "ok");
		goto out;
	}
	if (rc1) {
		*failed += 1;
		if (rc1 != -TTPU_RANGE_ERROR || e1.command != e2.command ||
		    strcmp(e1.buffer, e2.buffer) || e1.element != e2.element ||
		    strcmp(e1.message, e2.message)) {
			snprintf(why, len, "seed %llu: errors differ:\n#  planned: %.300s\n#  direct:  %.300s",
				 (unsigned long long)seed, e1.message, e2.message);
			goto out;
		}
	} else {
		size_t n1 = 0, n2 = 0;
		const int32_t *v1 = ttpu_result_output(r1, "C", &n1);
		const int32_t *v2 = ttpu_result_output(r2, "C", &n2);

		if (!v1 || !v2 || n1 != n2 || memcmp(v1, v2, n1 * sizeof(*v1))) {
			snprintf(why, len, "seed %llu: outputs differ", (unsigned long long)seed);
			goto out;
		}
	}
	ok = 1;
out:
	ttpu_result_free(r1);
	ttpu_result_free(r2);
	ttpu_inputs_free(in);
	free(text);
	return ok;
}

static void sweep(struct __test_metadata *_metadata, int deferred, int edge)
{
	enum { CASES = 300 };
	char *text = program(deferred), why[1024];
	struct ttpu_error err;
	ttpu_program *prog;
	int failed = 0;

	ASSERT_EQ(0, ttpu_program_load_buffer(text, strlen(text), &prog, &err))
		TH_LOG("%s", err.message);
	/* The scalar step, then the one the machine chooses. */
	for (int simd = 0; simd >= -1; simd--) {
		ttpu_range_neon = simd;
		failed = 0;
		for (uint64_t seed = 1; seed <= CASES; seed++)
			ASSERT_TRUE(agree(prog, seed + 1000 * (uint64_t)(2 * deferred + edge), edge,
					  &failed, why, sizeof(why)))
				TH_LOG("%s step: %s", simd ? "chosen" : "scalar", why);
		TH_LOG("%s step (%s): %d of %d runs stopped with the same RangeError",
		       simd ? "chosen" : "scalar", ttpu_range_neon_on() ? "NEON" : "scalar",
		       failed, CASES);
		/* Both outcomes, or the comparison proves little. */
		ASSERT_GT(failed, CASES / 10);
		ASSERT_LT(failed, CASES * 9 / 10);
	}
	ttpu_program_free(prog);
	free(text);
}

TEST(random_data_interleaved) { sweep(_metadata, 0, 0); }
TEST(random_data_deferred) { sweep(_metadata, 1, 0); }
TEST(bounds_exactly_interleaved) { sweep(_metadata, 0, 1); }
TEST(bounds_exactly_deferred) { sweep(_metadata, 1, 1); }

TEST_HARNESS_MAIN
