// SPDX-License-Identifier: MIT
/*
 * serve.c - ttpu-run --serve: one program, many requests
 *
 * The program is loaded and the engine opened once; then each line of
 * stdin is one inputs document (NDJSON) and gets one response line on
 * stdout, flushed at once, so a client can write a request and wait for
 * its answer. A request that fails (bad JSON, missing inputs, a RangeError)
 * gets an {"error": ...} line and the loop goes on; blank lines are
 * skipped; EOF ends the loop. Only a failure of stdin or stdout itself
 * ends it early, since nothing could be answered any more.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One request: @line parsed as inputs, run, answered on stdout. */
static int serve_one(const ttpu_program *prog, ttpu_engine *eng, const char *line,
		     size_t len, bool stats, unsigned long long n)
{
	struct cli_times t = { .start = cli_now_ns() };
	uint64_t mark = t.start;
	struct ttpu_error err;
	ttpu_result *res = NULL;
	ttpu_inputs *in = ttpu_inputs_new(prog);
	int ret;

	if (!in)
		ret = ttpu_error_sys(&err, ENOMEM, "allocating the inputs");
	else
		ret = ttpu_inputs_parse(in, line, len, &err);
	cli_times_add(&t, CLI_PHASE_LOAD, &mark);
	if (!ret)
		ret = ttpu_run(prog, eng, in, &res, &err);
	cli_times_add(&t, CLI_PHASE_RUN, &mark);
	if (!ret)
		ret = ttpu_result_write_json(res, stdout, stats, &err);
	else
		ttpu_error_write_json(&err, stdout);
	cli_times_add(&t, CLI_PHASE_OUTPUT, &mark);
	if (stats) {
		const struct ttpu_run_stats *s = res ? ttpu_result_stats(res) : NULL;

		fprintf(stderr, "stats: request %llu: %s, inputs %.3f ms, run %.3f ms, output %.3f ms, %llu passes, %llu kicks\n",
			n, ret ? ttpu_error_kind_name(err.kind) : "ok",
			t.ns[CLI_PHASE_LOAD] / 1e6, t.ns[CLI_PHASE_RUN] / 1e6,
			t.ns[CLI_PHASE_OUTPUT] / 1e6,
			(unsigned long long)(s ? s->passes : 0),
			(unsigned long long)(s ? s->kicks : 0));
	}
	ttpu_result_free(res);
	ttpu_inputs_free(in);
	return ret;
}

int cli_serve(const ttpu_program *prog, ttpu_engine *eng, bool stats,
	      struct ttpu_error *err)
{
	unsigned long long n = 0;
	size_t cap = 0;
	char *line = NULL;
	ssize_t len;
	int ret = 0;

	while ((len = getline(&line, &cap, stdin)) >= 0) {
		size_t i = 0;

		while (i < (size_t)len && strchr(" \t\r\n", line[i]))
			i++;
		if (i == (size_t)len)
			continue;
		serve_one(prog, eng, line, (size_t)len, stats, ++n);
		if (fflush(stdout) || ferror(stdout)) {
			ret = ttpu_error_sys(err, errno ? errno : EIO, "writing response %llu", n);
			break;
		}
	}
	if (!ret && ferror(stdin))
		ret = ttpu_error_sys(err, errno ? errno : EIO, "reading request %llu", n + 1);
	free(line);
	return ret;
}
