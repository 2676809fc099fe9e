// SPDX-License-Identifier: MIT
/*
 * sink.c - where the response goes
 *
 * The response is written through a large buffer and every write, flush
 * and close is checked, so a full disk or a closed pipe is a SystemError
 * rather than a silently short document. -o OUT never destroys a node:
 *  - a regular file (or no file yet) gets the response in a temporary file
 *    in its directory (so rename() cannot cross a file system), renamed
 *    over it only once complete;
 *  - a symlink is followed: its final target is replaced that way and the
 *    link stays a link;
 *  - a FIFO, a character device, or a name of one of our descriptors
 *    (/dev/stdout, /dev/fd/N, /proc/self/fd/N) is written in place;
 *  - anything else (a directory, a block device, a socket) is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define SINK_BUFFER_SIZE (1024 * 1024)

static char stdout_buffer[SINK_BUFFER_SIZE];

/* The temporary file to remove if a signal ends the process first. */
static char *volatile sink_doomed;
static const int sink_fatal_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };

static void sink_on_signal(int sig)
{
	char *tmp = sink_doomed;

	if (tmp)
		unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void sink_guard(char *tmp_path)
{
	struct sigaction sa = { .sa_handler = sink_on_signal };
	size_t i;

	sink_doomed = tmp_path;
	if (!tmp_path)
		return;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sink_fatal_signals) / sizeof(sink_fatal_signals[0]); i++)
		sigaddset(&sa.sa_mask, sink_fatal_signals[i]);
	for (i = 0; i < sizeof(sink_fatal_signals) / sizeof(sink_fatal_signals[0]); i++)
		sigaction(sink_fatal_signals[i], &sa, NULL);
}

void cli_sink_setup_stdout(void)
{
	/* glibc ignores the size unless it is given the buffer too. */
	setvbuf(stdout, stdout_buffer, _IOFBF, sizeof(stdout_buffer));
}

static bool sink_is_stdout(const char *path)
{
	return !path || strcmp(path, "-") == 0;
}

/* "dir/.base.XXXXXX" for "dir/base"; ".base.XXXXXX" for "base". */
static char *sink_tmp_template(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dirlen;
	size_t len = dirlen + 1 + strlen(base) + sizeof(".XXXXXX");
	char *tmpl = malloc(len);

	if (tmpl)
		snprintf(tmpl, len, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
	return tmpl;
}

/*
 * The descriptor @path names as "/dev/stdout", "/dev/stderr", "/dev/fd/N"
 * or "/proc/self/fd/N", or -1. Writing to it keeps the offset and mode the
 * shell gave it: renaming a file over its name would orphan the descriptor.
 */
static int sink_fd_alias(const char *path)
{
	static const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/" };
	char *end;
	long fd;
	size_t i;

	if (!strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);

		if (strncmp(path, prefixes[i], n) || !path[n])
			continue;
		errno = 0;
		fd = strtol(path + n, &end, 10);
		if (!*end && !errno && fd >= 0 && fd <= INT_MAX)
			return (int)fd;
	}
	return -1;
}

/*
 * The final target of the symlink @path, which need not exist yet (a
 * dangling link): malloc'ed, or NULL with errno set.
 */
static char *sink_follow(const char *path)
{
	char *cur = strdup(path), *next, *slash;
	char link[PATH_MAX];
	struct stat st;
	ssize_t n;
	int hops;

	for (hops = 0; cur && hops < 40; hops++) {
		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		link[n] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash) {
			next = strdup(link);
		} else {
			size_t dirlen = (size_t)(slash - cur) + 1;

			next = malloc(dirlen + (size_t)n + 1);
			if (next)
				snprintf(next, dirlen + (size_t)n + 1, "%.*s%s",
					 (int)dirlen, cur, link);
		}
		free(cur);
		cur = next;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	}
	return NULL;
}

/* Write in place to @fd (a FIFO, a character device, our own descriptor). */
static int sink_open_in_place(struct cli_sink *sink, int fd, const char *path,
			      struct ttpu_error *err)
{
	sink->f = fdopen(fd, "w");
	if (!sink->f) {
		int e = errno;

		close(fd);
		return ttpu_error_sys(err, e, "cannot write %s", path);
	}
	sink->in_place = true;
	sink->buf = malloc(SINK_BUFFER_SIZE);
	if (sink->buf)
		setvbuf(sink->f, sink->buf, _IOFBF, SINK_BUFFER_SIZE);
	return 0;
}

int cli_sink_open(struct cli_sink *sink, const char *path,
		  struct ttpu_error *err)
{
	struct stat st;
	mode_t mask;
	int fd, ret;

	memset(sink, 0, sizeof(*sink));
	if (sink_is_stdout(path)) {
		sink->f = stdout;
		return 0;
	}
	sink->path = path;
	fd = sink_fd_alias(path);
	if (fd >= 0) {
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (fd < 0)
			return ttpu_error_sys(err, errno, "cannot write %s", path);
		return sink_open_in_place(sink, fd, path, err);
	}
	if (stat(path, &st) == 0) {
		/* Caught now, not after the run: rename() would refuse at the end. */
		if (S_ISDIR(st.st_mode))
			return ttpu_error_sys(err, EISDIR, "cannot write %s", path);
		if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
			/* No O_CREAT: if it went away meanwhile, create nothing. */
			fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
			if (fd < 0)
				return ttpu_error_sys(err, errno, "cannot write %s", path);
			return sink_open_in_place(sink, fd, path, err);
		}
		if (!S_ISREG(st.st_mode))
			return ttpu_error_set(err, TTPU_USAGE_ERROR,
					      "-o %s: not a regular file, a FIFO or a character device: refusing to replace it",
					      path);
	}
	/* A symlink stays: its final target is what gets replaced. */
	sink->target = sink_follow(path);
	if (!sink->target)
		return ttpu_error_sys(err, errno, "cannot resolve %s", path);
	path = sink->target;
	sink->tmp_path = sink_tmp_template(path);
	if (!sink->tmp_path)
		return ttpu_error_sys(err, ENOMEM, "cannot write %s", path);
	/* Guarded before it exists: a signal in between finds no file. */
	sink_guard(sink->tmp_path);
	fd = mkostemp(sink->tmp_path, O_CLOEXEC);
	if (fd < 0) {
		ret = ttpu_error_sys(err, errno, "cannot create a temporary file for %s",
				     path);
		goto err_free;
	}
	/* mkostemp() makes it 0600; OUT gets what a plain create would give. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0) {
		ret = ttpu_error_sys(err, errno, "cannot set the mode of %s",
				     sink->tmp_path);
		close(fd);
		goto err_unlink;
	}
	sink->f = fdopen(fd, "w");
	if (!sink->f) {
		ret = ttpu_error_sys(err, errno, "cannot write %s", sink->tmp_path);
		close(fd);
		goto err_unlink;
	}
	sink->buf = malloc(SINK_BUFFER_SIZE);
	if (sink->buf)
		setvbuf(sink->f, sink->buf, _IOFBF, SINK_BUFFER_SIZE);
	return 0;

err_unlink:
	unlink(sink->tmp_path);
err_free:
	sink_guard(NULL);
	free(sink->tmp_path);
	free(sink->target);
	sink->tmp_path = NULL;
	sink->target = NULL;
	return ret;
}

static void sink_release(struct cli_sink *sink)
{
	sink_guard(NULL);
	free(sink->tmp_path);
	free(sink->target);
	free(sink->buf);
	sink->tmp_path = NULL;
	sink->target = NULL;
	sink->buf = NULL;
	sink->f = NULL;
}

static int sink_errno(void)
{
	return errno ? errno : EIO;
}

int cli_sink_commit(struct cli_sink *sink, struct ttpu_error *err)
{
	const char *what = sink->path ? sink->path : "stdout";
	int ret = 0;

	errno = 0;
	if (fflush(sink->f) != 0 || ferror(sink->f)) {
		ret = ttpu_error_sys(err, sink_errno(), "writing the response to %s",
				     what);
		sink->failed = true;
	}
	if (!sink->path)
		return ret;
	if (sink->in_place) {
		errno = 0;
		if (fclose(sink->f) != 0 && !ret)
			ret = ttpu_error_sys(err, sink_errno(), "writing the response to %s",
					     what);
		sink_release(sink);
		return ret;
	}
	/* rename() must never expose a file whose data is not on disk yet. */
	if (!ret && fsync(fileno(sink->f)) < 0)
		ret = ttpu_error_sys(err, errno, "writing the response to %s", what);
	errno = 0;
	if (fclose(sink->f) != 0 && !ret)
		ret = ttpu_error_sys(err, sink_errno(), "writing the response to %s",
				     what);
	sink->f = NULL;
	if (!ret && rename(sink->tmp_path, sink->target) < 0)
		ret = ttpu_error_sys(err, errno, "cannot replace %s", sink->path);
	if (ret)
		unlink(sink->tmp_path);
	sink_release(sink);
	return ret;
}

void cli_sink_abort(struct cli_sink *sink)
{
	if (sink->in_place) {
		/* What is written is written: a FIFO cannot take it back. */
		fclose(sink->f);
		sink_release(sink);
		return;
	}
	if (!sink->path || !sink->tmp_path)
		return;
	if (sink->f)
		fclose(sink->f);
	unlink(sink->tmp_path);
	sink_release(sink);
}

bool cli_sink_stdout_usable(const struct cli_sink *sink)
{
	return sink->path || !sink->failed;
}
