// SPDX-License-Identifier: MIT
/*
 * ttpu_bench.c - libttpu-run's phases on one program, timed apart:
 * load (parse + validate + plan; median of 3), run on the software engine (median of
 * several runs, the program loaded once), response writing, and the same
 * run through the pass-at-a-time direct executor, the baseline the planned
 * path must beat. Both runs' outputs are compared, so a fast wrong answer
 * cannot pass for a result.
 *
 * Usage: ttpu_bench PROGRAM.json INPUTS.json [RUNS]
 * Prints "key value" lines for tests/bench/run-bench.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_direct.h"
#include "program.h"
#include "ttpu-run.h"
#include "util.h"
#include "../lib/test_results.h"

typedef int (*run_fn)(const ttpu_program *prog, ttpu_engine *eng,
		      const ttpu_inputs *in, ttpu_result **out,
		      struct ttpu_error *err);

static double now(void)
{
	return (double)ttpu_now_ns() * 1e-9;
}

static int fail(const char *what, const struct ttpu_error *err)
{
	fprintf(stderr, "ttpu_bench: %s: %s: %s\n", what,
		ttpu_error_kind_name(err->kind), err->message);
	return 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int run_direct(const ttpu_program *prog, ttpu_engine *eng,
		      const ttpu_inputs *in, ttpu_result **out,
		      struct ttpu_error *err)
{
	return ttpu_run_direct(prog, in, out, err);
}

/* Median wall time of @runs runs; the last run's result is kept in *@keep. */
static int time_runs(run_fn fn, const ttpu_program *prog, ttpu_engine *eng,
		     const ttpu_inputs *in, int runs, double *median,
		     ttpu_result **keep, struct ttpu_error *err)
{
	double *t = calloc(runs, sizeof(*t));
	int ret = 0;

	if (!t) {
		err->kind = TTPU_SYSTEM_ERROR;
		snprintf(err->message, sizeof(err->message), "out of memory for %d timings", runs);
		return -TTPU_SYSTEM_ERROR;
	}
	*keep = NULL;
	for (int i = 0; i < runs && !ret; i++) {
		ttpu_result *res;
		double t0 = now();

		ret = fn(prog, eng, in, &res, err);
		t[i] = now() - t0;
		if (!ret) {
			ttpu_result_free(*keep);
			*keep = res;
		}
	}
	qsort(t, runs, sizeof(*t), cmp_double);
	*median = t[runs / 2];
	free(t);
	return ret;
}

int main(int argc, char **argv)
{
	ttpu_result *planned = NULL, *direct = NULL;
	int runs = argc > 3 ? atoi(argv[3]) : 7;
	struct ttpu_error err;
	ttpu_program *prog = NULL;
	ttpu_inputs *in;
	ttpu_engine *eng;
	double t0, loads[3], load_s, run_s, direct_s, write_s;
	FILE *null;

	if (argc < 3 || runs < 1) {
		fprintf(stderr, "usage: %s PROGRAM.json INPUTS.json [RUNS]\n", argv[0]);
		return 2;
	}
	/* Three loads (the last one is kept): the median is less noisy. */
	for (int i = 0; i < 3; i++) {
		if (i)
			ttpu_program_free(prog);
		t0 = now();
		if (ttpu_program_load_file(argv[1], &prog, &err))
			return fail(argv[1], &err);
		loads[i] = now() - t0;
	}
	qsort(loads, 3, sizeof(loads[0]), cmp_double);
	load_s = loads[1];
	in = ttpu_inputs_new(prog);
	if (!in || ttpu_inputs_load_file(in, argv[2], &err))
		return fail(argv[2], &err);
	if (ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &eng, &err))
		return fail("software engine", &err);
	if (time_runs(ttpu_run, prog, eng, in, runs, &run_s, &planned, &err))
		return fail("run", &err);
	/* The baseline is slow by design: fewer runs. */
	if (time_runs(run_direct, prog, eng, in, runs < 3 ? runs : 3, &direct_s,
		      &direct, &err))
		return fail("direct run", &err);

	null = fopen("/dev/null", "w");
	if (!null) {
		perror("/dev/null");
		return 1;
	}
	t0 = now();
	if (ttpu_result_write_json(planned, null, 0, &err))
		return fail("response", &err);
	fflush(null);
	write_s = now() - t0;
	fclose(null);

	printf("passes %zu\n", ttpu_program_pass_count(prog));
	printf("useful_macs %llu\n", (unsigned long long)prog->measured.useful_macs);
	printf("load_s %.6f\nrun_s %.6f\nwrite_s %.6f\ndirect_s %.6f\n",
	       load_s, run_s, write_s, direct_s);
	printf("runs %d\nsame_outputs %d\n", runs,
	       same_outputs(prog, planned, direct));
	ttpu_result_free(planned);
	ttpu_result_free(direct);
	ttpu_engine_close(eng);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
	return 0;
}
