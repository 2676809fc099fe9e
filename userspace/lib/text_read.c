// SPDX-License-Identifier: MIT
/*
 * text_read.c - read a whole document (file, pipe, terminal) into memory,
 * and the input-size limit every text is held to
 *
 * The limit is enforced while reading: a regular file larger than it is
 * refused before a byte is read, and anything else is read at most one
 * byte past it, so a hostile stream (/dev/zero) costs the limit and no
 * more. Buffers grow by doubling, clamped to the limit; large blocks grow
 * by mremap(), so growing does not hold two copies.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "ttpu-run.h"

#define TEXT_LIMIT_ENV "TTPU_TEXT_MAX"

/* 0 until first use, then the limit in bytes. */
static _Atomic size_t text_limit;

/* "1048576", "64K", "512M", "1G" (binary units); 0 is refused. */
static int parse_size(const char *s, size_t *out)
{
	unsigned long long v, mul = 1;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': mul = 1ull << 10; end++; break;
	case 'm': case 'M': mul = 1ull << 20; end++; break;
	case 'g': case 'G': mul = 1ull << 30; end++; break;
	}
	if (*end || !v || v > SIZE_MAX / 2 / mul)
		return -1;
	*out = (size_t)(v * mul);
	return 0;
}

size_t ttpu_text_limit(void)
{
	size_t v = atomic_load(&text_limit);

	if (!v) {
		/* A bad value in the environment falls back to the default. */
		if (parse_size(getenv(TEXT_LIMIT_ENV), &v))
			v = TTPU_TEXT_MAX;
		atomic_store(&text_limit, v);
	}
	return v;
}

int ttpu_text_limit_set(const char *size, struct ttpu_error *err)
{
	size_t v;

	if (parse_size(size, &v))
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "input size limit \"%s\": expected a positive number of bytes, optionally followed by K, M or G",
				      size ? size : "(null)");
	atomic_store(&text_limit, v);
	return 0;
}

int ttpu_read_fd(int fd, const char *what, char **text, size_t *len,
		 struct ttpu_error *err)
{
	size_t limit = ttpu_text_limit(), cap = 1 << 16, n = 0;
	struct stat st;
	char *buf, *nb;
	ssize_t r;

	*text = NULL;
	*len = 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uint64_t)st.st_size > limit)
			return ttpu_error_set(err, TTPU_USAGE_ERROR,
					      "%s: %lld bytes is larger than the %zu-byte input limit",
					      what, (long long)st.st_size, limit);
		/* One more byte, to see a file that grew since fstat(). */
		cap = (size_t)st.st_size + 1;
	}
	if (cap > limit + 1)
		cap = limit + 1;
	buf = malloc(cap);
	if (!buf)
		return ttpu_error_nomem(err, "reading a file");
	for (;;) {
		if (n > limit) {
			free(buf);
			return ttpu_error_set(err, TTPU_USAGE_ERROR,
					      "%s: larger than the %zu-byte input limit",
					      what, limit);
		}
		if (n == cap) {
			size_t ncap = cap > (limit + 1) / 2 ? limit + 1 : cap * 2;

			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				return ttpu_error_nomem(err, "reading a file");
			}
			buf = nb;
			cap = ncap;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			return ttpu_error_sys(err, e, "cannot read %s", what);
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	*text = buf;
	*len = n;
	return 0;
}

int ttpu_read_file(const char *path, char **text, size_t *len,
		   struct ttpu_error *err)
{
	int fd, ret;

	*text = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ttpu_error_sys(err, errno, "cannot open %s", path);
	ret = ttpu_read_fd(fd, path, text, len, err);
	close(fd);
	return ret;
}
