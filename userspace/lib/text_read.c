// SPDX-License-Identifier: MIT
/*
 * text_read.c - read a whole document (file, pipe, terminal) into memory
 *
 * The first stage of loading: every loader then works on the text in
 * memory. A regular file is read in one allocation of its size; anything
 * else grows by doubling. Texts above TTPU_TEXT_MAX are refused before
 * they are read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "ttpu-run.h"

int ttpu_read_fd(int fd, const char *what, char **text, size_t *len,
		 struct ttpu_error *err)
{
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	char *buf, *nb;
	ssize_t r;

	*text = NULL;
	*len = 0;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uint64_t)st.st_size > TTPU_TEXT_MAX)
			return ttpu_error_set(err, TTPU_USAGE_ERROR,
					      "%s: %lld bytes is larger than the %zu-byte limit",
					      what, (long long)st.st_size, TTPU_TEXT_MAX);
		cap = (size_t)st.st_size + 1;
	}
	buf = malloc(cap);
	if (!buf)
		return ttpu_error_nomem(err, "reading a file");
	for (;;) {
		if (n == cap) {
			if (cap > TTPU_TEXT_MAX) {
				free(buf);
				return ttpu_error_set(err, TTPU_USAGE_ERROR,
						      "%s: larger than the %zu-byte limit",
						      what, TTPU_TEXT_MAX);
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return ttpu_error_nomem(err, "reading a file");
			}
			buf = nb;
			cap *= 2;
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
