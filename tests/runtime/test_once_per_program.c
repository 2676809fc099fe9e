// SPDX-License-Identifier: MIT
/*
 * test_once_per_program.c - what a program's first run makes and keeps
 * (the response's "passes" list, response.c): the same bytes as before
 * on every run, shared by results that outlive the program, made once
 * when several threads start the program's first runs together, and
 * every id as printf() writes it (runs of consecutive ids are rendered by
 * incrementing the one before's digits).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "rt.h"
#include "../lib/test_rng.h"

#define DATA "tests/runtime/data/"
#define THREADS 4

struct job {
	const ttpu_program *prog;
	const ttpu_inputs *in;
	char *response;
};

static void *run_one(void *arg)
{
	struct job *j = arg;
	struct ttpu_error err;
	ttpu_result *res;

	if (ttpu_run(j->prog, rt_engine(), j->in, &res, &err))
		return NULL;
	j->response = rt_response(res);
	ttpu_result_free(res);
	return NULL;
}

static int load(ttpu_program **prog, ttpu_inputs **in)
{
	struct ttpu_error err;

	if (ttpu_program_load_file(DATA "two-layer.json", prog, &err))
		return -1;
	*in = ttpu_inputs_new(*prog);
	return !*in || ttpu_inputs_load_file(*in, DATA "two-layer-inputs.json", &err);
}

/* Two runs, then the program freed while the results are still written. */
TEST(results_outlive_the_program)
{
	ttpu_program *prog;
	ttpu_inputs *in;
	ttpu_result *r1, *r2;
	struct ttpu_error err;
	char *t1, *t2;

	ASSERT_EQ(0, load(&prog, &in));
	ASSERT_EQ(0, ttpu_run(prog, rt_engine(), in, &r1, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_run(prog, rt_engine(), in, &r2, &err)) TH_LOG("%s", err.message);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
	t1 = rt_response(r1);
	t2 = rt_response(r2);
	ASSERT_NE(NULL, t1);
	ASSERT_NE(NULL, t2);
	EXPECT_STREQ(t1, t2);
	EXPECT_NE(NULL, strstr(t1, "\"passes\": [{\"id\": "));
	ttpu_result_free(r1);
	ttpu_result_free(r2);
	free(t1);
	free(t2);
}

/* First runs on several threads at once: every response the same bytes. */
TEST(first_runs_race)
{
	for (int round = 0; round < 20; round++) {
		struct job jobs[THREADS];
		pthread_t t[THREADS];
		ttpu_program *prog;
		ttpu_inputs *in;

		ASSERT_EQ(0, load(&prog, &in));
		for (int i = 0; i < THREADS; i++) {
			jobs[i] = (struct job){ .prog = prog, .in = in };
			ASSERT_EQ(0, pthread_create(&t[i], NULL, run_one, &jobs[i]));
		}
		for (int i = 0; i < THREADS; i++)
			ASSERT_EQ(0, pthread_join(t[i], NULL));
		for (int i = 0; i < THREADS; i++) {
			ASSERT_NE(NULL, jobs[i].response);
			EXPECT_STREQ(jobs[0].response, jobs[i].response);
		}
		for (int i = 0; i < THREADS; i++)
			free(jobs[i].response);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
	}
}

/*
 * A program of @n passes with ids @ids, and the "passes" list the response
 * must hold, each id printed by printf(); run and compared.
 */
static int passes_as_printed(const int64_t *ids, size_t n, char *why, size_t len)
{
	struct rt_text prog = { 0 }, want = { 0 };
	struct ttpu_error err;
	ttpu_program *p = NULL;
	ttpu_result *res = NULL;
	char *text = NULL, *at;
	int bad = 1;

	rt_put(&prog, "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"ids\","
	       "\"buffers\":{\"A\":{\"dtype\":\"i8\",\"shape\":[4,4],\"kind\":\"temp\"},"
	       "\"C\":{\"dtype\":\"i32\",\"shape\":[4,4],\"kind\":\"temp\"}},"
	       "\"inputs\":[],\"outputs\":[\"C\"],\"commands\":[");
	rt_put(&want, "\"passes\": [");
	for (size_t i = 0; i < n; i++) {
		rt_put(&prog, "%s{\"op\":\"pass\",\"id\":%" PRId64 ",\"a\":{\"buf\":\"A\","
		       "\"r\":0,\"c\":0},\"b\":{\"buf\":\"A\",\"r\":0,\"c\":0}},{\"op\":\"acc\","
		       "\"pass\":%" PRId64 ",\"dst\":{\"buf\":\"C\",\"r\":0,\"c\":0}}",
		       i ? "," : "", ids[i], ids[i]);
		rt_put(&want, "%s{\"id\": %" PRId64 ", \"cycles\": 15}", i ? ", " : "", ids[i]);
	}
	rt_put(&prog, "]}");
	rt_put(&want, "]");
	if (ttpu_program_load_buffer(prog.s, prog.len, &p, &err) ||
	    ttpu_run(p, rt_engine(), NULL, &res, &err)) {
		snprintf(why, len, "%.150s", err.message);
		goto out;
	}
	text = rt_response(res);
	at = text ? strstr(text, "\"passes\": [") : NULL;
	bad = !at || strncmp(at, want.s, want.len);
	if (bad)
		snprintf(why, len, "passes: %.80s, want %.80s", at ? at : "(none)", want.s);
out:
	ttpu_result_free(res);
	ttpu_program_free(p);
	free(text);
	free(prog.s);
	free(want.s);
	return bad;
}

/* Runs of consecutive ids (>= 0) through every carry and width, and gaps. */
TEST(pass_ids_as_printf_writes_them)
{
	static const int64_t starts[] = { 0, 7, 95, 995, 9995, 4294967290, 9999999995,
					  99999999999999995, INT64_MAX - 7 };
	int64_t ids[1100];
	char why[200];
	struct rng g = { 20 };

	for (size_t k = 0; k < sizeof(starts) / sizeof(starts[0]); k++) {
		size_t n = 0;

		for (int64_t v = starts[k]; n < 7; v++)
			ids[n++] = v;
		ASSERT_EQ(0, passes_as_printed(ids, n, why, sizeof(why)))
			TH_LOG("from %" PRId64 ": %s", starts[k], why);
	}
	ASSERT_EQ(0, passes_as_printed(ids, 0, why, sizeof(why))) TH_LOG("none: %s", why);
	for (size_t n = 0; n < 1100; n++)	/* 0 .. 1099: every carry up to 1000 */
		ids[n] = (int64_t)n;
	ASSERT_EQ(0, passes_as_printed(ids, 1100, why, sizeof(why))) TH_LOG("%s", why);
	for (int round = 0; round < 20; round++) {
		/* Runs of 1 to 8 taken from a low and a high range in turn. */
		int64_t v[2] = { (int64_t)(rng_next(&g) % 2000), 999990 };
		size_t n = 0;

		for (int side = 0; n < 200; side ^= 1) {
			for (uint64_t r = 1 + rng_next(&g) % 8; r-- > 0 && n < 200;)
				ids[n++] = v[side]++;
			v[side] += (int64_t)(rng_next(&g) % 3);
		}
		ASSERT_EQ(0, passes_as_printed(ids, n, why, sizeof(why))) TH_LOG("%s", why);
	}
	for (int round = 0; round < 20; round++) {
		/*
		 * Rising runs of 1 to 35 (whole and partial decades), with
		 * gaps of a few ids or a jump of a digit or more between.
		 */
		int64_t v = (int64_t)(rng_next(&g) % 30);
		size_t n = 0;

		while (n < 1000) {
			for (uint64_t r = 1 + rng_next(&g) % 35; r-- > 0 && n < 1000;)
				ids[n++] = v++;
			v += rng_next(&g) % 4 || v > 100000000000 ? (int64_t)(1 + rng_next(&g) % 50) : v * 9;
		}
		ASSERT_EQ(0, passes_as_printed(ids, n, why, sizeof(why))) TH_LOG("%s", why);
	}
}

TEST_HARNESS_MAIN
