/* SPDX-License-Identifier: MIT */
/*
 * serve_reader.h - --serve's stdin, one request line at a time, each held
 * up to the input-size limit and no further (serve_reader.c).
 */
#ifndef TTPU_CLI_SERVE_READER_H
#define TTPU_CLI_SERVE_READER_H

#include <stdbool.h>
#include <stddef.h>

/* What is read at once, and what the buffer shrinks back to after a long line. */
#define SERVE_CHUNK ((size_t)64 << 10)

/* stdin, a line at a time: bytes [start, end) of buf are read, not yet served. */
struct line_reader {
	int fd;
	int wake_fd;			/* >= 0: readable once the reader must stop */
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
	LINE_READ_ERROR,		/* errno set (ECANCELED: woken by wake_fd) */
};

/*
 * The next line in *@line (not NUL-terminated, valid until the next call)
 * and its length. A line past r->limit, or one that memory cannot hold, is
 * read to its end and dropped: LINE_TOO_LONG or LINE_NO_MEMORY.
 */
enum line_status serve_reader_next(struct line_reader *r, const char **line, size_t *len);

#endif /* TTPU_CLI_SERVE_READER_H */
