// SPDX-License-Identifier: MIT
/*
 * repeat.c - ttpu-run --repeat N: how long one run takes, N times over
 *
 * The program is loaded and the engine opened once; ttpu_run() is timed
 * N times and the last run's result is the response. The summary on
 * stderr gives ms per run as min/median/max, the figure a board owner
 * compares with Documentation/npukit/pynq-z2.rst.
 */
#include <errno.h>
#include <stdlib.h>

#include "cli.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int cli_parse_repeat(const char *arg, unsigned long *n, struct ttpu_error *err)
{
	char *end;

	errno = 0;
	*n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || *n < 1 || *n > CLI_REPEAT_MAX)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "--repeat needs a count from 1 to %d, got '%s'",
				      CLI_REPEAT_MAX, arg);
	return 0;
}

int cli_run_repeat(const ttpu_program *prog, ttpu_engine *eng,
		   const ttpu_inputs *in, unsigned long n, ttpu_result **res,
		   struct ttpu_error *err)
{
	uint64_t *ns = calloc(n, sizeof(*ns));
	uint64_t t0;
	double median;
	int ret = 0;

	*res = NULL;
	if (!ns)
		return ttpu_error_sys(err, ENOMEM, "--repeat");
	for (unsigned long i = 0; i < n; i++) {
		ttpu_result_free(*res);
		t0 = cli_now_ns();
		ret = ttpu_run(prog, eng, in, res, err);
		ns[i] = cli_now_ns() - t0;
		if (ret)
			goto out;
	}
	qsort(ns, n, sizeof(*ns), cmp_u64);
	median = n % 2 ? (double)ns[n / 2] : ((double)ns[n / 2 - 1] + (double)ns[n / 2]) / 2;
	fprintf(stderr, "repeat: %lu runs on %s, ms per run: min %.3f, median %.3f, max %.3f\n",
		n, ttpu_engine_name(eng), (double)ns[0] / 1e6, median / 1e6,
		(double)ns[n - 1] / 1e6);
out:
	free(ns);
	return ret;
}
