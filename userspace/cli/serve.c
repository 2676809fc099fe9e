// SPDX-License-Identifier: MIT
/*
 * serve.c - ttpu-run --serve: one program, many requests
 *
 * The program is loaded and the engine opened once; then each line of
 * stdin is one inputs document (NDJSON) and gets one response line on
 * stdout, flushed at once, so a client can write a request and wait for
 * its answer. A request that fails (bad JSON, missing inputs, a RangeError,
 * a line longer than --max-input or than memory can hold) gets an
 * {"error": ...} line whose "line" is the request's line on stdin, and the
 * loop goes on; blank lines are skipped; EOF ends the loop. Only a failure
 * of stdin or stdout itself ends it early, since nothing could be answered
 * any more: a read error is an error, never taken for EOF. Lines are read
 * by serve_reader.c, in bounded memory.
 *
 * Two cores (issue 20): a reader thread reads and parses the next request
 * while the calling thread runs the current one and writes its response,
 * so on a steady stream a request's inputs are ready when the run before
 * it ends. Requests are still answered one at a time, in order, each from
 * the same parsed inputs and with the same errors as one thread would
 * give; the reader is at most one request ahead (the one it prepares, or
 * the one it has prepared and waits to hand over), so at most two requests
 * are held, each line bounded by the input-size limit. A response is
 * written and flushed before the next request is awaited: a client that
 * waits for each answer before writing the next line gets it at once.
 * TTPU_SERVE_THREADS=1 (Documentation/ttpu-run.rst), or a thread or pipe
 * that cannot be made, serves on the calling thread alone.
 *
 * Why parsing request k + 1 beside ttpu_run() of request k is safe: the
 * parse reads only what the program was loaded with and never changes
 * (its name, buffers, input list and name index: ttpu_inputs_new(),
 * ttpu_inputs_parse() in program_inputs.c and the text_*.c readers), and
 * writes only its own ttpu_inputs, json-c tokener and error. A run writes
 * nothing of the program but what it derives from the program alone, each
 * its own pointer published with an atomic compare-and-exchange (the
 * replay table, run_replay.c; the NpuKit engine's kick groups,
 * engine_npukit_groups.c; the software engine's K-walks; the passes text,
 * response_passes.c), none of which the parse reads; and those are made
 * by ttpu_program_prepare() before the reader thread starts, so a run
 * only reads them (the first request costs what the others do). The input
 * limit is an atomic (text_read.c), the parse's C locale is per thread
 * (uselocale()), errno is per thread, and the engine, stdout and stderr
 * are used by the calling thread alone. make check-cli-tsan runs the
 * serve tests under ThreadSanitizer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "serve_reader.h"

/* A request read from stdin and made ready to run, or why there is none. */
struct serve_request {
	enum line_status status;	/* LINE_END, LINE_READ_ERROR: no request */
	unsigned long long line;	/* its line on stdin, 1-based */
	int read_errno;			/* LINE_READ_ERROR */
	size_t limit;			/* the input limit, for LINE_TOO_LONG */
	ttpu_inputs *in;		/* LINE_OK: parsed unless ret */
	int ret;			/* LINE_OK: non-zero when err says why not */
	struct ttpu_error err;
	uint64_t inputs_ns;		/* ttpu_inputs_new() and the parse */
};

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/*
 * The next request of @r in @q, blank lines skipped: its line read and,
 * unless dropped, parsed as @prog's inputs. Touches nothing but @r and
 * @q, and @prog only to read it: the reader thread runs it.
 */
static void serve_prepare(struct line_reader *r, const ttpu_program *prog,
			  struct serve_request *q)
{
	const char *line = NULL;
	enum line_status s;
	uint64_t start;
	size_t len = 0;

	do
		s = serve_reader_next(r, &line, &len);
	while (s == LINE_OK && blank(line, len));
	q->status = s;
	q->line = r->line;
	q->limit = r->limit;
	q->read_errno = s == LINE_READ_ERROR ? (errno ? errno : EIO) : 0;
	q->in = NULL;
	q->ret = 0;
	q->inputs_ns = 0;
	if (s != LINE_OK)
		return;
	start = cli_now_ns();
	q->in = ttpu_inputs_new(prog);
	if (!q->in)
		q->ret = ttpu_error_sys(&q->err, ENOMEM, "allocating the inputs");
	else
		q->ret = ttpu_inputs_parse(q->in, line, len, &q->err);
	q->inputs_ns = cli_now_ns() - start;
}

/* The --stats line of request @n: @kind, or "ok" with @res's counts. */
static void serve_stats(unsigned long long n, const struct cli_times *t,
			const struct ttpu_error *err, const ttpu_result *res)
{
	const struct ttpu_run_stats *s = res ? ttpu_result_stats(res) : NULL;

	fprintf(stderr, "stats: request %llu: %s, inputs %.3f ms, run %.3f ms, output %.3f ms, %llu passes, %llu kicks\n",
		n, err ? ttpu_error_kind_name(err->kind) : "ok",
		t->ns[CLI_PHASE_LOAD] / 1e6, t->ns[CLI_PHASE_RUN] / 1e6,
		t->ns[CLI_PHASE_OUTPUT] / 1e6,
		(unsigned long long)(s ? s->passes : 0),
		(unsigned long long)(s ? s->kicks : 0));
}

/* The {"error": ...} line of request @n, on line @line_no of stdin. */
static void serve_error(struct ttpu_error *err, unsigned long long line_no)
{
	/* A request is one line: a column stands as the parser found it. */
	err->line = (long)line_no;
	ttpu_error_write_json(err, stdout);
}

/* A line that was dropped unread: its error line. */
static void serve_dropped(struct serve_request *q, bool stats, unsigned long long n)
{
	struct cli_times t = { 0 };

	if (q->status == LINE_TOO_LONG)
		ttpu_error_set(&q->err, TTPU_USAGE_ERROR,
			       "line %llu: longer than the %zu-byte input limit (--max-input)",
			       q->line, q->limit);
	else
		ttpu_error_sys(&q->err, ENOMEM,
			       "line %llu: too long to hold in memory (--max-input is %zu bytes)",
			       q->line, q->limit);
	serve_error(&q->err, q->line);
	if (stats)
		serve_stats(n, &t, &q->err, NULL);
}

/* Request @n, prepared in @q: run and answered on stdout. */
static void serve_answer(const ttpu_program *prog, ttpu_engine *eng,
			 struct serve_request *q, bool stats, enum ttpu_passes_form passes,
			 unsigned long long n)
{
	struct cli_times t = { .start = cli_now_ns() };
	uint64_t mark = t.start;
	ttpu_result *res = NULL;
	int ret = q->ret;

	if (q->status != LINE_OK) {
		serve_dropped(q, stats, n);
		return;
	}
	/* Parsed ahead, perhaps while the request before ran. */
	t.ns[CLI_PHASE_LOAD] = q->inputs_ns;
	if (!ret)
		ret = ttpu_run(prog, eng, q->in, &res, &q->err);
	cli_times_add(&t, CLI_PHASE_RUN, &mark);
	if (!ret)
		ret = ttpu_result_write_json_passes(res, stdout, stats, passes, &q->err);
	else
		serve_error(&q->err, q->line);
	cli_times_add(&t, CLI_PHASE_OUTPUT, &mark);
	if (stats)
		serve_stats(n, &t, ret ? &q->err : NULL, res);
	ttpu_result_free(res);
}

/*
 * The reader thread and the one request it hands over. It prepares a
 * request only while the slot is empty, so it is never more than one
 * request ahead of the one being answered.
 */
struct serve_ahead {
	pthread_mutex_t lock;
	pthread_cond_t changed;		/* full or stop changed */
	struct line_reader *r;
	const ttpu_program *prog;
	struct serve_request slot;
	bool full;			/* slot holds a request not yet taken */
	bool stop;			/* the serving thread takes no more */
	int wake[2];			/* written on stop: ends a wait for stdin */
	pthread_t thread;
};

/* The reader thread: a request whenever the slot is empty, until EOF, a read error or stop. */
static void *ahead_main(void *arg)
{
	struct serve_ahead *a = arg;
	struct serve_request q;
	bool last = false;

	pthread_mutex_lock(&a->lock);
	while (!last) {
		while (a->full && !a->stop)
			pthread_cond_wait(&a->changed, &a->lock);
		if (a->stop)
			break;
		pthread_mutex_unlock(&a->lock);
		serve_prepare(a->r, a->prog, &q);
		last = q.status == LINE_END || q.status == LINE_READ_ERROR;
		pthread_mutex_lock(&a->lock);
		if (a->stop) {
			ttpu_inputs_free(q.in);
			break;
		}
		a->slot = q;
		a->full = true;
		pthread_cond_broadcast(&a->changed);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/* Start reading ahead from @r; false (nothing started, nothing read) if it cannot. */
static bool ahead_start(struct serve_ahead *a, struct line_reader *r,
			const ttpu_program *prog)
{
	a->r = r;
	a->prog = prog;
	a->full = a->stop = false;
	if (pipe2(a->wake, O_CLOEXEC))
		return false;
	if (pthread_mutex_init(&a->lock, NULL))
		goto no_lock;
	if (pthread_cond_init(&a->changed, NULL))
		goto no_cond;
	r->wake_fd = a->wake[0];
	if (!pthread_create(&a->thread, NULL, ahead_main, a))
		return true;
	r->wake_fd = -1;
	pthread_cond_destroy(&a->changed);
no_cond:
	pthread_mutex_destroy(&a->lock);
no_lock:
	close(a->wake[0]);
	close(a->wake[1]);
	return false;
}

/* The next request, as serve_prepare() gives it, once the reader has it. */
static void ahead_take(struct serve_ahead *a, struct serve_request *q)
{
	pthread_mutex_lock(&a->lock);
	while (!a->full)
		pthread_cond_wait(&a->changed, &a->lock);
	*q = a->slot;
	a->full = false;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
}

/* Stop the reader wherever it is (a read() of stdin included) and join it. */
static void ahead_stop(struct serve_ahead *a)
{
	static const char byte = 1;

	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	/* A full pipe already wakes it; nothing else can fail here. */
	while (write(a->wake[1], &byte, 1) < 0 && errno == EINTR)
		;
	pthread_join(a->thread, NULL);
	if (a->full)
		ttpu_inputs_free(a->slot.in);
	a->r->wake_fd = -1;
	pthread_cond_destroy(&a->changed);
	pthread_mutex_destroy(&a->lock);
	close(a->wake[0]);
	close(a->wake[1]);
}

/* Whether to read ahead: not with TTPU_SERVE_THREADS=1. */
static bool ahead_wanted(void)
{
	const char *v = getenv("TTPU_SERVE_THREADS");

	return !v || strcmp(v, "1");
}

int cli_serve(const ttpu_program *prog, ttpu_engine *eng, bool stats,
	      enum ttpu_passes_form passes, struct ttpu_error *err)
{
	struct line_reader r = {
		.fd = STDIN_FILENO, .wake_fd = -1, .cap = SERVE_CHUNK,
		.limit = ttpu_text_limit(),
	};
	struct serve_ahead ahead;
	bool threaded;
	unsigned long long n = 0;
	struct serve_request q;
	uint64_t start;
	int ret;

	/*
	 * What every run derives from the program alone, made now: the
	 * start-up pays for it, and the first request costs what the others
	 * do (Documentation/npukit/board-time.rst, "The first request").
	 */
	start = cli_now_ns();
	ret = ttpu_program_prepare(prog, eng, err);
	if (ret)
		return ret;
	if (stats)
		fprintf(stderr, "stats: prepare %.3f ms\n", (cli_now_ns() - start) / 1e6);
	r.buf = malloc(r.cap);
	if (!r.buf)
		return ttpu_error_sys(err, ENOMEM, "allocating the request buffer");
	threaded = ahead_wanted() && ahead_start(&ahead, &r, prog);
	for (;;) {
		if (threaded)
			ahead_take(&ahead, &q);
		else
			serve_prepare(&r, prog, &q);
		if (q.status == LINE_END)
			break;
		if (q.status == LINE_READ_ERROR) {
			ret = ttpu_error_sys(err, q.read_errno, "reading stdin (line %llu)", q.line);
			break;
		}
		n++;
		serve_answer(prog, eng, &q, stats, passes, n);
		ttpu_inputs_free(q.in);
		if (fflush(stdout) || ferror(stdout)) {
			ret = ttpu_error_sys(err, errno ? errno : EIO, "writing response %llu", n);
			break;
		}
	}
	if (threaded)
		ahead_stop(&ahead);
	free(r.buf);
	return ret;
}
