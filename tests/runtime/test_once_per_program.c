// SPDX-License-Identifier: MIT
/*
 * test_once_per_program.c - what a program's first run makes and keeps
 * (the response's "passes" list, response.c): the same bytes as before
 * on every run, shared by results that outlive the program, and made once
 * when several threads start the program's first runs together.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "rt.h"

#define DATA "tests/runtime/data/"
#define THREADS 4

static char *response_of(const ttpu_result *res)
{
	struct ttpu_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (ttpu_result_write_json(res, f, 0, &err)) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	return text;
}

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
	j->response = response_of(res);
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
	t1 = response_of(r1);
	t2 = response_of(r2);
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

TEST_HARNESS_MAIN
