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
 * any more: a read error is an error, never taken for EOF.
 *
 * Lines are read by hand rather than with getline(), which holds a line
 * whatever its length and reports a line too long for memory the way it
 * reports EOF. Here a line is held up to the input-size limit and no
 * further: the rest of a longer line is read and dropped a chunk at a
 * time, so memory stays bounded whatever the client sends.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* What is read at once, and what the buffer shrinks back to after a long line. */
#define SERVE_CHUNK ((size_t)64 << 10)

/* stdin, a line at a time: bytes [start, end) of buf are read, not yet served. */
struct line_reader {
	int fd;
	char *buf;
	size_t cap, start, end;
	size_t limit;			/* the longest line held, '\n' excluded */
	unsigned long long line;	/* of the line last returned, 1-based */
	bool eof;
};

enum line_status {
	LINE_OK,			/* a line, its '\n' excluded */
	LINE_END,			/* EOF */
	LINE_TOO_LONG,			/* longer than the limit: skipped */
	LINE_NO_MEMORY,			/* could not be held: skipped */
	LINE_READ_ERROR,		/* errno set */
};

/* More bytes at buf + end: > 0, 0 at EOF, < 0 (errno set) on a read error. */
static ssize_t reader_fill(struct line_reader *r)
{
	for (;;) {
		ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end);

		if (n >= 0) {
			r->end += (size_t)n;
			r->eof = !n;
			return n;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			/* A non-blocking stdin: wait for it rather than fail. */
			struct pollfd p = { .fd = r->fd, .events = POLLIN };

			if (poll(&p, 1, -1) >= 0 || errno == EINTR)
				continue;
		}
		return -1;
	}
}

/* Drop the rest of the current line, up to and including its '\n'. */
static enum line_status reader_skip_line(struct line_reader *r)
{
	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);

		if (nl) {
			r->start = (size_t)(nl - r->buf) + 1;
			return LINE_OK;
		}
		r->start = r->end = 0;
		if (r->eof)
			return LINE_OK;
		if (reader_fill(r) < 0)
			return LINE_READ_ERROR;
	}
}

/*
 * The next line in *@line (not NUL-terminated, valid until the next call)
 * and its length. A line past r->limit, or one that memory cannot hold, is
 * read to its end and dropped: LINE_TOO_LONG or LINE_NO_MEMORY.
 */
static enum line_status reader_next(struct line_reader *r, const char **line, size_t *len)
{
	size_t scanned = 0;	/* bytes of this line known to hold no '\n' */

	/* A long line's room is given back once it is served. */
	if (r->cap > SERVE_CHUNK && r->end - r->start <= SERVE_CHUNK) {
		char *nb;

		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
		nb = realloc(r->buf, SERVE_CHUNK);
		if (nb) {
			r->buf = nb;
			r->cap = SERVE_CHUNK;
		}
	}
	if (r->start == r->end && r->eof)
		return LINE_END;
	r->line++;
	for (;;) {
		char *nl = memchr(r->buf + r->start + scanned, '\n',
				  r->end - r->start - scanned);
		size_t have = r->end - r->start;

		if (nl || (r->eof && have)) {
			*line = r->buf + r->start;
			*len = nl ? (size_t)(nl - *line) : have;
			if (*len > r->limit)
				break;
			r->start += *len + (nl ? 1 : 0);
			return LINE_OK;
		}
		if (r->eof)
			return LINE_END;
		scanned = have;
		if (have > r->limit)
			break;
		if (r->start) {
			memmove(r->buf, r->buf + r->start, have);
			r->start = 0;
			r->end = have;
		}
		if (r->end == r->cap) {
			/* Room for limit bytes and the '\n' that ends them. */
			size_t ncap = r->cap > (r->limit + 1) / 2 ? r->limit + 1 : r->cap * 2;
			char *nb = realloc(r->buf, ncap);

			if (!nb) {
				enum line_status s = reader_skip_line(r);

				return s == LINE_OK ? LINE_NO_MEMORY : s;
			}
			r->buf = nb;
			r->cap = ncap;
		}
		if (reader_fill(r) < 0)
			return LINE_READ_ERROR;
	}
	{
		enum line_status s = reader_skip_line(r);

		return s == LINE_OK ? LINE_TOO_LONG : s;
	}
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

/* One request: @line parsed as inputs, run, answered on stdout. */
static void serve_one(const ttpu_program *prog, ttpu_engine *eng, const char *line,
		      size_t len, bool stats, unsigned long long n,
		      unsigned long long line_no)
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
		serve_error(&err, line_no);
	cli_times_add(&t, CLI_PHASE_OUTPUT, &mark);
	if (stats)
		serve_stats(n, &t, ret ? &err : NULL, res);
	ttpu_result_free(res);
	ttpu_inputs_free(in);
}

/* A line that was dropped unread (@s): its error line. */
static void serve_dropped(const struct line_reader *r, enum line_status s, bool stats,
			  unsigned long long n)
{
	struct cli_times t = { 0 };
	struct ttpu_error err;

	if (s == LINE_TOO_LONG)
		ttpu_error_set(&err, TTPU_USAGE_ERROR,
			       "line %llu: longer than the %zu-byte input limit (--max-input)",
			       r->line, r->limit);
	else
		ttpu_error_sys(&err, ENOMEM,
			       "line %llu: too long to hold in memory (--max-input is %zu bytes)",
			       r->line, r->limit);
	serve_error(&err, r->line);
	if (stats)
		serve_stats(n, &t, &err, NULL);
}

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

int cli_serve(const ttpu_program *prog, ttpu_engine *eng, bool stats,
	      struct ttpu_error *err)
{
	struct line_reader r = {
		.fd = STDIN_FILENO, .cap = SERVE_CHUNK, .limit = ttpu_text_limit(),
	};
	unsigned long long n = 0;
	enum line_status s;
	const char *line;
	size_t len;
	int ret = 0;

	r.buf = malloc(r.cap);
	if (!r.buf)
		return ttpu_error_sys(err, ENOMEM, "allocating the request buffer");
	while ((s = reader_next(&r, &line, &len)) != LINE_END) {
		if (s == LINE_READ_ERROR) {
			ret = ttpu_error_sys(err, errno ? errno : EIO, "reading stdin (line %llu)",
					     r.line);
			break;
		}
		if (s == LINE_OK && blank(line, len))
			continue;
		n++;
		if (s == LINE_OK)
			serve_one(prog, eng, line, len, stats, n, r.line);
		else
			serve_dropped(&r, s, stats, n);
		if (fflush(stdout) || ferror(stdout)) {
			ret = ttpu_error_sys(err, errno ? errno : EIO, "writing response %llu", n);
			break;
		}
	}
	free(r.buf);
	return ret;
}
