// SPDX-License-Identifier: MIT
/*
 * test_oracle.c - the planned run (ttpu_run: plan, software engine, runner)
 * against the one-command-at-a-time executor (ttpu_run_direct), on programs
 * that go through the public loading path as JSON text: identical outputs,
 * or identical errors (kind, command, op, buffer, element).
 *
 * tests/planner does this on compact programs built in memory; here the
 * programs also exercise the loader, inputs, host commands and consts that
 * the run writes, and the layered case is checked against hand-computed
 * values too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "run_direct.h"
#include "rt.h"
#include "../lib/test_rng.h"

#define DATA "tests/runtime/data/"

static uint32_t rnd(struct rng *g, uint32_t n)
{
	return (uint32_t)(rng_next(g) >> 11) % n;
}

static int32_t rnd_range(struct rng *g, int32_t lo, int32_t hi)
{
	uint64_t span = (uint64_t)((int64_t)hi - lo + 1);

	return (int32_t)(lo + (int64_t)(rng_next(g) % span));
}

/*
 * Operands: X0, X1 (i8, input or const) and Q0, Q1 (i8 temps that accs and
 * host_relu write and passes read). Destinations: D0, D1 (i32, the same
 * shape R x Q as Q0), D2 (another shape); V (i32 [Q]) for broadcasts; b
 * (i32 [12]) biases. Near-limit consts and large values in some programs
 * make RangeErrors fire mid-program.
 */
struct shape {
	uint32_t r, c;
};

static void emit_matrix(FILE *f, struct rng *g, struct shape s, int32_t lo, int32_t hi)
{
	fputc('[', f);
	for (uint32_t i = 0; i < s.r; i++) {
		fprintf(f, "%s[", i ? "," : "");
		for (uint32_t j = 0; j < s.c; j++)
			fprintf(f, "%s%d", j ? "," : "", rnd_range(g, lo, hi));
		fputc(']', f);
	}
	fputc(']', f);
}

static void emit_window(FILE *f, struct rng *g, const char *key, const char *buf, struct shape s)
{
	uint32_t r = rnd(g, s.r + 2), c = rnd(g, s.c + 2);

	if (rnd(g, 20) == 0)
		r = 4000000000u;
	fprintf(f, ",\"%s\":{\"buf\":\"%s\",\"r\":%u,\"c\":%u}", key, buf, r, c);
}

static void emit_vector(FILE *f, struct rng *g, uint32_t n, int32_t lo, int32_t hi)
{
	fputc('[', f);
	for (uint32_t j = 0; j < n; j++)
		fprintf(f, "%s%d", j ? "," : "", rnd_range(g, lo, hi));
	fputc(']', f);
}

struct gen {
	char *prog, *inputs;
};

static void random_program(uint64_t seed, struct gen *out)
{
	static const char *const ops_names[] = { "X0", "X1", "Q0", "Q1" };
	static const char *const dst_names[] = { "D0", "D1", "D2", "Q0", "Q1" };
	struct rng g = { seed * 0x9e3779b97f4a7c15ull + 1 };
	struct shape rq = { 1 + rnd(&g, 9), 1 + rnd(&g, 9) };
	struct shape sh[5] = {
		{ 1 + rnd(&g, 9), 1 + rnd(&g, 9) }, { 1 + rnd(&g, 9), 1 + rnd(&g, 9) },
		rq, { 1 + rnd(&g, 9), 1 + rnd(&g, 9) }, rq,
	};	/* X0, X1, Q0, Q1, D0/D1 */
	struct shape d2 = { 1 + rnd(&g, 9), 1 + rnd(&g, 9) };
	int hot = rnd(&g, 4) == 0;	/* values near the limits */
	int32_t xl = hot ? 127 : 6;
	uint32_t pending[64], npending = 0, next_id = rnd(&g, 5), ncmds = 4 + rnd(&g, 28);
	size_t plen = 0, ilen = 0;
	FILE *f = open_memstream(&out->prog, &plen);
	FILE *in = open_memstream(&out->inputs, &ilen);
	int first = 1, is_input[2];

	fprintf(f, "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"r%llu\",\"buffers\":{",
		(unsigned long long)seed);
	fputc('{', in);
	for (int x = 0; x < 2; x++) {
		is_input[x] = rnd(&g, 2);
		fprintf(f, "\"X%d\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"%s\"", x,
			sh[x].r, sh[x].c, is_input[x] ? "input" : "const");
		if (!is_input[x]) {
			fputs(",\"data\":", f);
			emit_matrix(f, &g, sh[x], -xl, xl);
		} else {
			fprintf(in, "%s\"X%d\":", x && is_input[0] ? "," : "", x);
			emit_matrix(in, &g, sh[x], -xl, xl);
		}
		fputs("},", f);
	}
	fprintf(f, "\"Q0\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
		"\"Q1\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},",
		sh[2].r, sh[2].c, sh[3].r, sh[3].c);
	for (int d = 0; d < 2; d++) {
		int32_t lim = hot ? 2147483000 : 1000;

		fprintf(f, "\"D%d\":{\"dtype\":\"i32\",\"shape\":[%u,%u],\"kind\":\"const\",\"data\":",
			d, rq.r, rq.c);
		emit_matrix(f, &g, rq, -lim, lim);
		fputs("},", f);
	}
	fprintf(f, "\"D2\":{\"dtype\":\"i32\",\"shape\":[%u,%u],\"kind\":\"temp\"},", d2.r, d2.c);
	fprintf(f, "\"V\":{\"dtype\":\"i32\",\"shape\":[%u],\"kind\":\"const\",\"data\":", rq.c);
	emit_vector(f, &g, rq.c, -50, 50);
	fputs("},\"b\":{\"dtype\":\"i32\",\"shape\":[12],\"kind\":\"const\",\"data\":", f);
	emit_vector(f, &g, 12, hot ? -2147483000 : -100, hot ? 2147483000 : 100);
	fprintf(f, "}},\"inputs\":[%s%s%s]", is_input[0] ? "\"X0\"" : "",
		is_input[0] && is_input[1] ? "," : "", is_input[1] ? "\"X1\"" : "");
	fputs(",\"outputs\":[\"D0\",\"D1\",\"D2\",\"Q0\",\"Q1\",\"X0\"],\"commands\":[", f);

	for (uint32_t i = 0; i < ncmds || npending; i++) {
		uint32_t kind = i >= ncmds ? 4 : rnd(&g, 10);	/* then drain */

		fputs(first ? "" : ",", f);
		first = 0;
		if (kind <= 3 && npending < 64) {		/* pass */
			uint32_t a = rnd(&g, 4), b = rnd(&g, 4);

			fprintf(f, "{\"op\":\"pass\",\"id\":%u", next_id);
			emit_window(f, &g, "a", ops_names[a], sh[a]);
			emit_window(f, &g, "b", ops_names[b], sh[b]);
			fputc('}', f);
			pending[npending++] = next_id;
			next_id += 1 + rnd(&g, 3);
		} else if (kind <= 5 && npending) {		/* acc, any pending pass */
			uint32_t p = rnd(&g, npending), d = rnd(&g, 5);
			struct shape ds = d < 2 ? rq : d == 2 ? d2 : sh[d - 1];

			fprintf(f, "{\"op\":\"acc\",\"pass\":%u", pending[p]);
			pending[p] = pending[--npending];
			emit_window(f, &g, "dst", dst_names[d], ds);
			fprintf(f, "%s%s}", rnd(&g, 3) ? "" : ",\"bias\":\"b\"",
				rnd(&g, 3) ? "" : ",\"relu\":true");
		} else if (kind == 6) {
			uint32_t d = rnd(&g, 5);
			struct shape ds = d < 2 ? rq : d == 2 ? d2 : sh[d - 1];

			fputs("{\"op\":\"epilogue\"", f);
			emit_window(f, &g, "dst", dst_names[d], ds);
			fprintf(f, ",\"bias\":\"b\"%s}", rnd(&g, 2) ? ",\"relu\":true" : "");
		} else if (kind == 7) {
			static const char *const add[][3] = {
				{ "D0", "D0", "D1" }, { "D1", "V", "D0" }, { "D0", "D1", "V" },
				{ "Q0", "Q0", "Q0" }, { "V", "V", "V" }, { "D1", "D1", "D1" },
			};
			uint32_t k = rnd(&g, 6);

			fprintf(f, "{\"op\":\"host_add\",\"dst\":\"%s\",\"a\":\"%s\",\"b\":\"%s\"}",
				add[k][0], add[k][1], add[k][2]);
		} else if (kind == 8) {
			static const char *const relu[][2] = {
				{ "Q0", "D0" }, { "D1", "D0" }, { "Q0", "Q0" }, { "D0", "Q0" },
			};
			uint32_t k = rnd(&g, 4);

			fprintf(f, "{\"op\":\"host_relu\",\"dst\":\"%s\",\"src\":\"%s\"}",
				relu[k][0], relu[k][1]);
		} else {
			static const char *const bufs[] = { "D0", "D2", "Q0", "Q1", "X0" };

			fprintf(f, "{\"op\":\"alloc\",\"buf\":\"%s\"}", bufs[rnd(&g, 5)]);
		}
	}
	fputs("]}", f);
	fputc('}', in);
	fclose(f);
	fclose(in);
}

static const char *const outputs[] = { "D0", "D1", "D2", "Q0", "Q1", "X0" };

/* 0 when the two runs agree; else describes the first difference. */
static int differ(int rc1, const ttpu_result *r1, const struct ttpu_error *e1,
		  int rc2, const ttpu_result *r2, const struct ttpu_error *e2,
		  char *why, size_t len)
{
	if (rc1 != rc2) {
		snprintf(why, len, "planned rc %d (%s), direct rc %d (%s)", rc1,
			 rc1 ? e1->message : "ok", rc2, rc2 ? e2->message : "ok");
		return 1;
	}
	if (rc1) {
		if (e1->command != e2->command || strcmp(e1->op, e2->op) ||
		    strcmp(e1->buffer, e2->buffer) || e1->element != e2->element ||
		    e1->row != e2->row || e1->col != e2->col) {
			snprintf(why, len, "errors differ:\n#  planned: %.200s\n#  direct:  %.200s",
				 e1->message, e2->message);
			return 1;
		}
		return 0;
	}
	for (size_t o = 0; o < RT_N(outputs); o++) {
		size_t n1 = 0, n2 = 0;
		const int32_t *v1 = ttpu_result_output(r1, outputs[o], &n1);
		const int32_t *v2 = ttpu_result_output(r2, outputs[o], &n2);

		if (!v1 || !v2 || n1 != n2 || memcmp(v1, v2, n1 * sizeof(*v1))) {
			snprintf(why, len, "output %s differs", outputs[o]);
			return 1;
		}
	}
	if (ttpu_result_stats(r1)->passes != ttpu_result_stats(r2)->passes) {
		snprintf(why, len, "pass counts differ");
		return 1;
	}
	return 0;
}

/* One program: planned vs direct. Returns 1 when ran and ok, 0 on mismatch. */
static int compare_seed(uint64_t seed, int *errors, char *why, size_t len)
{
	struct ttpu_error err, e1, e2;
	ttpu_result *r1 = NULL, *r2 = NULL;
	ttpu_program *prog;
	ttpu_inputs *in;
	struct gen g;
	int rc1, rc2, ok;

	random_program(seed, &g);
	if (ttpu_program_load_buffer(g.prog, strlen(g.prog), &prog, &err)) {
		snprintf(why, len, "seed %llu does not load: %.300s", (unsigned long long)seed,
			 err.message);
		free(g.prog);
		free(g.inputs);
		return 0;
	}
	in = ttpu_inputs_new(prog);
	if (!in || ttpu_inputs_parse(in, g.inputs, strlen(g.inputs), &err)) {
		snprintf(why, len, "seed %llu: inputs rejected: %.300s", (unsigned long long)seed,
			 in ? err.message : "no memory");
		ok = 0;
		goto out;
	}
	rc1 = ttpu_run(prog, rt_engine(), in, &r1, &e1);
	rc2 = ttpu_run_direct(prog, in, &r2, &e2);
	ok = !differ(rc1, r1, &e1, rc2, r2, &e2, why, len);
	/* valid programs with valid inputs: only a RangeError may stop them */
	if (ok && rc1 && rc1 != -TTPU_RANGE_ERROR) {
		snprintf(why, len, "unexpected %s: %.300s", ttpu_error_kind_name(e1.kind), e1.message);
		ok = 0;
	}
	*errors += rc1 != 0;
	if (!ok) {
		size_t n = strlen(why);

		snprintf(why + n, len - n, "\n#  seed %llu: %.1500s", (unsigned long long)seed,
			 g.prog);
	}
out:
	ttpu_result_free(r1);
	ttpu_result_free(r2);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
	free(g.prog);
	free(g.inputs);
	return ok;
}

TEST(random_programs_planned_equals_direct)
{
	enum { PROGRAMS = 400 };
	char why[2048];
	int errors = 0;

	for (uint64_t seed = 1; seed <= PROGRAMS; seed++) {
		ASSERT_TRUE(compare_seed(seed, &errors, why, sizeof(why))) TH_LOG("%s", why);
	}
	TH_LOG("%d of %d programs stopped with the same RangeError on both paths", errors, PROGRAMS);
	/* both outcomes must be exercised, or the comparison proves little */
	ASSERT_GT(errors, PROGRAMS / 20) TH_LOG("only %d of %d programs failed", errors, PROGRAMS);
	ASSERT_LT(errors, PROGRAMS * 3 / 4) TH_LOG("%d of %d programs failed", errors, PROGRAMS);
}

/*
 * Layer 2 reads H, which layer 1's accs (with bias + relu, into i8) wrote;
 * all layer-1 passes come before their accs, so a planner that grouped the
 * layer-2 passes with them would read H before it is written.
 */
TEST(layers_read_what_earlier_accs_wrote)
{
	static const int32_t h[] = { 7, 0, 3, 8, 0, 0, 9, 3, 0, 11 };
	static const int32_t y[] = { -1, 10, 13, 29, 20, 17 };
	struct ttpu_error err, e2;
	ttpu_result *res, *direct;
	ttpu_program *prog;
	ttpu_inputs *in;
	char why[256];

	ASSERT_EQ(0, ttpu_program_load_file(DATA "two-layer.json", &prog, &err))
		TH_LOG("%s", err.message);
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, ttpu_inputs_load_file(in, DATA "two-layer-inputs.json", &err))
		TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_run(prog, rt_engine(), in, &res, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_run_direct(prog, in, &direct, &e2)) TH_LOG("%s", e2.message);
	ASSERT_EQ(-1, rt_cmp(res, "H", h, RT_N(h), why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(-1, rt_cmp(res, "Y", y, RT_N(y), why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(-1, rt_cmp(direct, "Y", y, RT_N(y), why, sizeof(why))) TH_LOG("%s", why);
	/* at least: layer 1 passes, its accs, layer 2 */
	ASSERT_GE(ttpu_result_stats(res)->stages, 2);
	ttpu_result_free(direct);
	ttpu_result_free(res);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

/* A pass reading a window an acc of the same would-be stage just wrote. */
TEST(pass_reads_window_just_written)
{
	ttpu_result *res;
	struct ttpu_error err;
	int rc = rt_load_run(RT_PROG(RT_CONST("I", "i8", "[4,4]",
					      "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]") ","
				     RT_BUF("A", "i8", "[4,4]", "input") ","
				     RT_BUF("Q", "i8", "[4,4]", "temp") ","
				     RT_BUF("C", "i32", "[4,4]", "temp"),
				     "'A'", "'C'",
				     RT_PASS(0, "A", 0, 0, "I", 0, 0) "," RT_ACC(0, "Q", 0, 0) ","
				     RT_PASS(1, "Q", 0, 0, "Q", 0, 0) "," RT_ACC(1, "C", 0, 0) ","
				     RT_PASS(2, "A", 0, 0, "I", 0, 0) "," RT_ACC(2, "Q", 0, 0) ","
				     RT_PASS(3, "Q", 0, 0, "I", 0, 0) "," RT_ACC(3, "C", 0, 0)),
			     "{'A':[[1,2,0,0],[3,4,0,0],[0,0,0,0],[0,0,0,5]]}", &res, &err);

	/* C = A.A + 2A */
	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "C", 9, 14, 0, 0, 21, 30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 35);
	ttpu_result_free(res);
}

TEST_HARNESS_MAIN
