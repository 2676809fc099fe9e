// SPDX-License-Identifier: MIT
/*
 * test_matmul.c - ttpu_program_matmul(): the built program computes
 * A @ B (+ bias, relu) for any shape, against a plain triple loop, and is
 * tiled in the compiler's order (output tiles row-major, K innermost, the
 * epilogue on each tile's last acc), read back from the loaded program.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "program.h"
#include "rt.h"
#include "../lib/test_rng.h"

struct mm_case {
	size_t m, k, n;
	unsigned int flags;
};

/* Aligned, ragged in each dimension, a vector, and 8-bit extremes. */
static const struct mm_case cases[] = {
	{ 4, 4, 4, 0 }, { 16, 16, 16, 0 }, { 32, 32, 32, 0 },
	{ 1, 1, 1, 0 }, { 5, 7, 3, 0 }, { 1, 13, 1, 0 }, { 9, 4, 17, 0 },
	{ 6, 10, 5, TTPU_MATMUL_BIAS }, { 6, 10, 5, TTPU_MATMUL_RELU },
	{ 11, 3, 9, TTPU_MATMUL_BIAS | TTPU_MATMUL_RELU },
};

static int32_t *random_values(struct rng *g, size_t count, int lo, int hi)
{
	int32_t *v = malloc(count * sizeof(*v));

	for (size_t i = 0; v && i < count; i++)
		v[i] = lo + (int32_t)(rng_next(g) % (uint64_t)(hi - lo + 1));
	return v;
}

/* The plain product, then bias, then relu: the whole-matrix reference. */
static void reference(const struct mm_case *c, const int32_t *a,
		      const int32_t *b, const int32_t *bias, int32_t *out)
{
	for (size_t i = 0; i < c->m; i++) {
		for (size_t j = 0; j < c->n; j++) {
			int64_t s = 0;

			for (size_t p = 0; p < c->k; p++)
				s += (int64_t)a[i * c->k + p] * b[p * c->n + j];
			if (c->flags & TTPU_MATMUL_BIAS)
				s += bias[j];
			if ((c->flags & TTPU_MATMUL_RELU) && s < 0)
				s = 0;
			out[i * c->n + j] = (int32_t)s;
		}
	}
}

TEST(matches_the_plain_product)
{
	struct rng g = { 0x9e3779b97f4a7c15ull };
	ttpu_engine *eng = rt_engine();

	for (size_t t = 0; t < RT_N(cases); t++) {
		const struct mm_case *c = &cases[t];
		int32_t *a = random_values(&g, c->m * c->k, -128, 127);
		int32_t *b = random_values(&g, c->k * c->n, -128, 127);
		int32_t *bias = random_values(&g, c->n, -40000, 40000);
		int32_t *exp = malloc(c->m * c->n * sizeof(*exp));
		struct ttpu_error err;
		ttpu_program *prog;
		ttpu_inputs *in;
		ttpu_result *res;
		char why[256];
		int rc;

		ASSERT_TRUE(a && b && bias && exp);
		reference(c, a, b, bias, exp);
		rc = ttpu_program_matmul(c->m, c->k, c->n, c->flags, &prog, &err);
		ASSERT_EQ(0, rc) TH_LOG("case %zu: %s", t, err.message);
		in = ttpu_inputs_new(prog);
		ASSERT_NE(NULL, in);
		ASSERT_EQ(0, ttpu_inputs_set(in, "A", a, c->m * c->k, &err));
		ASSERT_EQ(0, ttpu_inputs_set(in, "B", b, c->k * c->n, &err));
		if (c->flags & TTPU_MATMUL_BIAS)
			ASSERT_EQ(0, ttpu_inputs_set(in, "bias", bias, c->n, &err));
		rc = ttpu_run(prog, eng, in, &res, &err);
		ASSERT_EQ(0, rc) TH_LOG("case %zu: %s", t, err.message);
		ASSERT_EQ(-1L, rt_cmp(res, "C", exp, c->m * c->n, why, sizeof(why)))
			TH_LOG("case %zu (%zux%zux%zu, flags %u): %s", t,
			       c->m, c->k, c->n, c->flags, why);
		ttpu_result_free(res);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
		free(a);
		free(b);
		free(bias);
		free(exp);
	}
}

/* Output tiles row-major, K innermost, pass then acc, epilogue last. */
TEST(compiler_tiling_order)
{
	const size_t m = 9, k = 10, n = 5;
	const size_t tm = 3, tk = 3, tn = 2;
	struct ttpu_error err;
	ttpu_program *prog;
	const struct ttpu_command *cmd;
	uint32_t bias;

	ASSERT_EQ(0, ttpu_program_matmul(m, k, n, TTPU_MATMUL_BIAS | TTPU_MATMUL_RELU,
					 &prog, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(tm * tk * tn, ttpu_program_pass_count(prog));
	ASSERT_EQ(1 + 2 * tm * tk * tn, ttpu_program_command_count(prog));
	bias = ttpu_program_find_buffer(prog, "bias");
	ASSERT_EQ(TTPU_OP_ALLOC, prog->cmds[0].op);
	cmd = &prog->cmds[1];
	for (size_t i = 0; i < tm; i++) {
		for (size_t j = 0; j < tn; j++) {
			for (size_t p = 0; p < tk; p++, cmd += 2) {
				bool last = p == tk - 1;

				ASSERT_EQ(TTPU_OP_PASS, cmd[0].op);
				ASSERT_EQ(4 * i, cmd[0].u.pass.a.r);
				ASSERT_EQ(4 * p, cmd[0].u.pass.a.c);
				ASSERT_EQ(4 * p, cmd[0].u.pass.b.r);
				ASSERT_EQ(4 * j, cmd[0].u.pass.b.c);
				ASSERT_EQ(TTPU_OP_ACC, cmd[1].op);
				ASSERT_EQ(cmd[0].u.pass.slot, cmd[1].u.acc.slot);
				ASSERT_EQ(4 * i, cmd[1].u.acc.dst.r);
				ASSERT_EQ(4 * j, cmd[1].u.acc.dst.c);
				ASSERT_EQ(last ? bias : TTPU_NO_BUFFER, cmd[1].u.acc.bias);
				ASSERT_EQ(last, cmd[1].relu);
			}
		}
	}
	ttpu_program_free(prog);
}

/* Bias then relu, each step range-checked as any program's. */
TEST(range_checked_like_any_program)
{
	int32_t a[] = { 127 }, b[] = { 127 }, bias[] = { INT32_MAX };
	struct ttpu_error err;
	ttpu_program *prog;
	ttpu_inputs *in;
	ttpu_result *res = (ttpu_result *)a;	/* must be overwritten */

	ASSERT_EQ(0, ttpu_program_matmul(1, 1, 1, TTPU_MATMUL_BIAS, &prog, &err));
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, ttpu_inputs_set(in, "A", a, 1, &err));
	ASSERT_EQ(0, ttpu_inputs_set(in, "B", b, 1, &err));
	ASSERT_EQ(0, ttpu_inputs_set(in, "bias", bias, 1, &err));
	ASSERT_KIND(TTPU_RANGE_ERROR, ttpu_run(prog, rt_engine(), in, &res, &err), err);
	ASSERT_EQ(NULL, res);
	ASSERT_STREQ("C", err.buffer);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

TEST(usage_errors)
{
	struct ttpu_error err;
	ttpu_program *prog = (ttpu_program *)&err;	/* must be overwritten */

	ASSERT_KIND(TTPU_USAGE_ERROR, ttpu_program_matmul(0, 4, 4, 0, &prog, &err), err);
	ASSERT_EQ(NULL, prog);
	ASSERT_NE(NULL, strstr(err.message, "at least 1"));
	ASSERT_KIND(TTPU_USAGE_ERROR, ttpu_program_matmul(4, 4, 0, 0, &prog, &err), err);
	ASSERT_KIND(TTPU_USAGE_ERROR, ttpu_program_matmul(4, 4, 4, 0x4, &prog, &err), err);
	ASSERT_NE(NULL, strstr(err.message, "flags"));
	ASSERT_KIND(TTPU_USAGE_ERROR, ttpu_program_matmul(4, 4, 4, 0, NULL, &err), err);
	/* Far more passes than a program can hold: refused before any text. */
	ASSERT_KIND(TTPU_USAGE_ERROR,
		    ttpu_program_matmul(SIZE_MAX, SIZE_MAX, SIZE_MAX, 0, &prog, &err), err);
	ASSERT_EQ(NULL, prog);
	ASSERT_KIND(TTPU_USAGE_ERROR,
		    ttpu_program_matmul(4096, 4096, 4096, 0, &prog, &err), err);
	ASSERT_NE(NULL, strstr(err.message, "passes"));
}

TEST_HARNESS_MAIN
