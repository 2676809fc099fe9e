// SPDX-License-Identifier: MIT
/*
 * sink.c - where the response goes
 *
 * The response is written through a large buffer and every write, flush
 * and close is checked, so a full disk or a closed pipe is a SystemError
 * rather than a silently short document. With -o OUT the response goes to
 * a temporary file in OUT's directory (so rename() cannot cross a file
 * system) that is renamed over OUT only once complete.
 */
#include <errno.h>
#include <fcntl.h>
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
	/* Caught now, not after the run: rename() would refuse at the end. */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return ttpu_error_sys(err, EISDIR, "cannot write %s", path);
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
	sink->tmp_path = NULL;
	return ret;
}

static void sink_release(struct cli_sink *sink)
{
	sink_guard(NULL);
	free(sink->tmp_path);
	free(sink->buf);
	sink->tmp_path = NULL;
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
	/* rename() must never expose a file whose data is not on disk yet. */
	if (!ret && fsync(fileno(sink->f)) < 0)
		ret = ttpu_error_sys(err, errno, "writing the response to %s", what);
	errno = 0;
	if (fclose(sink->f) != 0 && !ret)
		ret = ttpu_error_sys(err, sink_errno(), "writing the response to %s",
				     what);
	sink->f = NULL;
	if (!ret && rename(sink->tmp_path, sink->path) < 0)
		ret = ttpu_error_sys(err, errno, "cannot replace %s", sink->path);
	if (ret)
		unlink(sink->tmp_path);
	sink_release(sink);
	return ret;
}

void cli_sink_abort(struct cli_sink *sink)
{
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
