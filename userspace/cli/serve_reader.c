// SPDX-License-Identifier: MIT
/*
 * serve_reader.c - --serve's stdin, a line at a time
 *
 * Lines are read by hand rather than with getline(), which holds a line
 * whatever its length and reports a line too long for memory the way it
 * reports EOF. Here a line is held up to the input-size limit and no
 * further: the rest of a longer line is read and dropped a chunk at a
 * time, so memory stays bounded whatever the client sends.
 *
 * With a wake_fd the reader runs on serve.c's reader thread, which may sit
 * in read() for as long as the client sends nothing: it waits in poll()
 * on stdin and wake_fd together, so the serving thread can end it at any
 * time (a write error on stdout) without another byte of stdin.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve_reader.h"

/*
 * Until stdin can be read (bytes, EOF or an error to report) or wake_fd
 * is readable: 0, or -1 with errno set (ECANCELED when woken).
 */
static int reader_wait(const struct line_reader *r)
{
	struct pollfd p[2] = {
		{ .fd = r->fd, .events = POLLIN },
		{ .fd = r->wake_fd, .events = POLLIN },
	};

	for (;;) {
		if (poll(p, r->wake_fd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r->wake_fd >= 0 && p[1].revents) {
			errno = ECANCELED;
			return -1;
		}
		return 0;
	}
}

/* More bytes at buf + end: > 0, 0 at EOF, < 0 (errno set) on a read error. */
static ssize_t reader_fill(struct line_reader *r)
{
	for (;;) {
		ssize_t n;

		/* A reader that can be woken never sleeps in read() itself. */
		if (r->wake_fd >= 0 && reader_wait(r))
			return -1;
		n = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (n >= 0) {
			r->end += (size_t)n;
			r->eof = !n;
			return n;
		}
		if (errno == EINTR)
			continue;
		/* A non-blocking stdin: wait for it rather than fail. */
		if ((errno == EAGAIN || errno == EWOULDBLOCK) &&
		    (r->wake_fd >= 0 || !reader_wait(r)))
			continue;
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

/* The next line of stdin (serve_reader.h). */
enum line_status serve_reader_next(struct line_reader *r, const char **line, size_t *len)
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
