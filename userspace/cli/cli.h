/* SPDX-License-Identifier: MIT */
/*
 * cli.h - pieces of ttpu-run shared between its files
 *
 * ttpu-run.c: options and the request -> response flow.
 * sink.c:     where the response goes: stdout, or OUT written atomically.
 * serve.c:    --serve, one program answering inputs lines on stdin, the
 *             next read and parsed on a second thread.
 * serve_reader.c: --serve's stdin a line at a time (serve_reader.h).
 * report.c:   errors (JSON on stdout, one line on stderr, exit status) and
 *             the --stats summary.
 * info.c:     --info: the NpuKit devices, GET_INFO, state and counters.
 * repeat.c:   --repeat N: N timed runs, ms per run min/median/max.
 */
#ifndef TTPU_CLI_H
#define TTPU_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The library's public header only: the CLI is an ordinary client. */
#include "ttpu-run.h"

#define CLI_NAME "ttpu-run"

/* Exit statuses, documented in --help and Documentation/ttpu-run.rst. */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_PROGRAM = 1,	/* SchemaError, InputError, RangeError, EstimateMismatch */
	CLI_EXIT_USAGE = 2,	/* UsageError */
	CLI_EXIT_SYSTEM = 3,	/* DeviceError, SystemError */
};

/* ---- sink.c ------------------------------------------------------------ */

/*
 * The response's destination. With a path to a regular file (or to a
 * symlink to one, or to nothing yet), everything goes to a temporary file
 * beside the final target that replaces it only on cli_sink_commit(): a
 * failed run leaves no OUT, and never a truncated one in place of an
 * existing OUT. A FIFO or character device is written in place.
 */
struct cli_sink {
	FILE *f;
	const char *path;	/* NULL: stdout */
	char *target;		/* path with its symlinks followed */
	char *tmp_path;
	bool in_place;		/* a FIFO, a character device, a descriptor */
	char *buf;
	bool failed;		/* a write to f failed: write nothing more there */
};

/* Set stdout's buffering; call before anything is written to stdout. */
void cli_sink_setup_stdout(void);
int cli_sink_open(struct cli_sink *sink, const char *path,
		  struct ttpu_error *err);
/* Check every buffered write, flush, and put OUT in place. */
int cli_sink_commit(struct cli_sink *sink, struct ttpu_error *err);
/* Drop everything written to an OUT file; a no-op for stdout. */
void cli_sink_abort(struct cli_sink *sink);
/* Whether stdout can still take an error document. */
bool cli_sink_stdout_usable(const struct cli_sink *sink);

/* ---- serve.c ----------------------------------------------------------- */

/*
 * Answer each line of stdin (an inputs document for @prog) with a
 * response line on stdout until EOF. Returns 0, or an error when stdin or
 * stdout failed; a failed request is its error line, not a return value.
 */
int cli_serve(const ttpu_program *prog, ttpu_engine *eng, bool stats,
	      enum ttpu_passes_form passes, struct ttpu_error *err);

/* ---- report.c ---------------------------------------------------------- */

enum cli_phase {
	CLI_PHASE_LOAD,		/* read (in chunks, while parsed) + validate + plan */
	CLI_PHASE_OPEN,		/* opening the engine */
	CLI_PHASE_RUN,
	CLI_PHASE_OUTPUT,
	CLI_PHASE_COUNT
};

struct cli_times {
	uint64_t ns[CLI_PHASE_COUNT];
	uint64_t start;
};

/* CLOCK_MONOTONIC in nanoseconds, for the phase times. */
uint64_t cli_now_ns(void);
/* Add the time since *@mark to @phase and move *@mark to now. */
void cli_times_add(struct cli_times *t, enum cli_phase phase, uint64_t *mark);

/* The exit status for an error of @kind. */
int cli_exit_status(enum ttpu_error_kind kind);
/*
 * Report @err: {"error": ...} on stdout (unless stdout itself is what
 * failed), one "ttpu-run: KIND: message" line on stderr. Returns the exit
 * status.
 */
int cli_report_error(const struct ttpu_error *err, bool stdout_usable);

/* The --stats summary, on stderr. @eng and @res may be NULL (--check). */
/*
 * Each output of @res as a right-aligned matrix on stderr. Outputs larger
 * than the screen show their first and last rows and columns around "...".
 */
void cli_report_outputs(const ttpu_program *prog, const ttpu_result *res);
void cli_report_stats(const ttpu_program *prog, const ttpu_engine *eng,
		      const ttpu_result *res, const struct cli_times *t);

/* ---- info.c ------------------------------------------------------------ */

/*
 * List @device, or every /dev/npukitN, on @out: for people, or as
 * {"devices": [...]} with @json. A DeviceError when there is none.
 */
int cli_info(const char *device, bool json, FILE *out, struct ttpu_error *err);

/* ---- repeat.c ---------------------------------------------------------- */

#define CLI_REPEAT_MAX 1000000

/* @arg as a run count, 1 to CLI_REPEAT_MAX. */
int cli_parse_repeat(const char *arg, unsigned long *n, struct ttpu_error *err);
/*
 * Run @prog @n times; *@res is the last run's result. Prints the ms per
 * run (min/median/max) on stderr.
 */
int cli_run_repeat(const ttpu_program *prog, ttpu_engine *eng,
		   const ttpu_inputs *in, unsigned long n, ttpu_result **res,
		   struct ttpu_error *err);

#endif /* TTPU_CLI_H */
