/* SPDX-License-Identifier: MIT */
/*
 * test_util.h - what the suites that run ttpu-run share: whole files and
 * captured output in memory, anonymous temporary files, JSON members by
 * path.
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

/*
 * All of @fd from its start (a captured stdout or stderr), NUL-terminated;
 * NULL when out of memory. *@lenp, when asked for, is its length.
 */
static inline char *test_read_fd(int fd, size_t *lenp)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *q;
	ssize_t n;

	if (!buf)
		return NULL;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += (size_t)n;
		if (cap - len < 2) {
			q = realloc(buf, cap * 2);
			if (!q) {
				free(buf);
				return NULL;
			}
			buf = q;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

/* A whole file, NUL-terminated, or NULL with errno set. */
static inline char *test_slurp(const char *path, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = test_read_fd(fd, lenp);
	e = errno;
	close(fd);
	errno = e;
	return buf;
}

/* An unlinked temporary file in $TMPDIR (the suite's own), or -1. */
static inline int test_tmpfd(void)
{
	const char *dir = getenv("TMPDIR");
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/ttpu-test.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* The member at @path ("error.kind", "outputs.C.shape") of @obj, or NULL. */
static inline struct json_object *test_json_get(struct json_object *obj,
						const char *path)
{
	char key[128];
	const char *dot;
	size_t n;

	while (obj && *path) {
		dot = strchr(path, '.');
		n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(obj, key, &obj))
			return NULL;
		path += n + (dot ? 1 : 0);
	}
	return obj;
}

#endif /* TEST_UTIL_H */
