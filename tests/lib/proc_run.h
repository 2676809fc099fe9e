/* SPDX-License-Identifier: MIT */
/*
 * proc_run.h - run a program (ttpu-run, mostly) the way a shell would and
 * keep what it said: exit status or killing signal, stdout, stderr, and
 * stdout parsed when it is one JSON value. Used by the CLI and engine
 * suites; no test harness here, the suites assert on the result.
 *
 * Environment:
 *   TTPU_RUN  the ttpu-run under test (default: this build's, TTPU_RUN_BUILT,
 *             relative to the top of the tree)
 *   TMPDIR    where the captured output is kept while the child runs
 */
#ifndef PROC_RUN_H
#define PROC_RUN_H

#include <stddef.h>

#include <json-c/json.h>

/* The most arguments a run takes, argv[0] included. */
#define PROC_MAX_ARGS 40

/* How to run it; all zero is "as a shell would, stdin from /dev/null". */
struct proc_opts {
	const char *stdin_text;		/* the child's stdin, or NULL: /dev/null */
	int stdout_fd;			/* > 0: the child's stdout (a pipe, /dev/full),
					 * closed here; 0: stdout is captured */
	const char *const *env;		/* "NAME=VALUE" added to the child's
					 * environment, NULL-terminated, or NULL */
	long fsize_limit;		/* > 0: the child's RLIMIT_FSIZE, bytes */
	int kill_after_ms;		/* > 0: SIGTERM the child after this long */
	const char *valgrind_log;	/* set: run under valgrind, which writes its
					 * report there and exits 99 on an error
					 * or a leak */
};

struct proc_result {
	int status;			/* exit status, or -1 when killed */
	int signal;			/* the killing signal, or 0 */
	char *out;			/* stdout, NUL-terminated */
	size_t out_len;
	char *err;			/* stderr, NUL-terminated */
	size_t err_len;
	struct json_object *json;	/* stdout when it is exactly one JSON value */
};

/*
 * Run @argv (argv[0] looked up in $PATH, NULL-terminated) with @opts (NULL:
 * all defaults) and wait for it. Returns 0 with @r filled in, or -1 when
 * the run could not be set up at all. Free @r with proc_result_free().
 */
int proc_run(const char *const *argv, const struct proc_opts *opts,
	     struct proc_result *r);

void proc_result_free(struct proc_result *r);

/* The one JSON value of @text, or NULL (none, malformed, or followed by more). */
struct json_object *proc_parse_json(const char *text, size_t len);

/* $TTPU_RUN, or this build's ttpu-run. */
const char *proc_ttpu_path(void);

/* proc_run() of proc_ttpu_path() with @args (NULL-terminated, no argv[0]). */
int proc_run_ttpu(const char *const *args, const struct proc_opts *opts,
	     struct proc_result *r);

#endif /* PROC_RUN_H */
