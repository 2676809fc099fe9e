// SPDX-License-Identifier: MIT
/*
 * proc_run.c - fork, exec and capture (see proc_run.h).
 */
#include "proc_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

#ifndef TTPU_RUN_BUILT
#define TTPU_RUN_BUILT "build/bin/ttpu-run"
#endif

static const char *const valgrind_args[] = {
	"valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
	"--show-leak-kinds=definite,indirect,possible",
	"--errors-for-leak-kinds=definite,indirect,possible",
};
#define VALGRIND_NARGS (sizeof(valgrind_args) / sizeof(valgrind_args[0]))

const char *proc_ttpu_path(void)
{
	const char *p = getenv("TTPU_RUN");

	return p && *p ? p : TTPU_RUN_BUILT;
}

struct json_object *proc_parse_json(const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *obj;
	size_t end;

	if (!tok)
		return NULL;
	obj = json_tokener_parse_ex(tok, text, (int)len);
	end = json_tokener_get_parse_end(tok);
	if (obj && json_tokener_get_error(tok) == json_tokener_success) {
		while (end < len && strchr(" \t\r\n", text[end]))
			end++;
		if (end != len) {
			json_object_put(obj);
			obj = NULL;
		}
	} else if (obj) {
		json_object_put(obj);
		obj = NULL;
	}
	json_tokener_free(tok);
	return obj;
}

/* The child's stdin: @text in an unlinked file, or /dev/null. */
static int stdin_fd(const char *text)
{
	size_t len;
	int fd;

	if (!text)
		return open("/dev/null", O_RDONLY | O_CLOEXEC);
	fd = test_tmpfd();
	len = strlen(text);
	if (fd >= 0 && (write(fd, text, len) != (ssize_t)len ||
			lseek(fd, 0, SEEK_SET) != 0)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* In the child: become the program. Never returns. */
static void exec_child(const char *const *argv, const struct proc_opts *o,
		       int in, int out, int err)
{
	signal(SIGPIPE, SIG_DFL);	/* as from a shell */
	signal(SIGXFSZ, SIG_DFL);
	if (o->fsize_limit > 0) {
		struct rlimit rl = { .rlim_cur = (rlim_t)o->fsize_limit,
				     .rlim_max = (rlim_t)o->fsize_limit };

		setrlimit(RLIMIT_FSIZE, &rl);
	}
	for (int i = 0; o->env && o->env[i]; i++)
		putenv((char *)o->env[i]);
	dup2(in, 0);
	dup2(o->stdout_fd > 0 ? o->stdout_fd : out, 1);
	dup2(err, 2);
	execvp(argv[0], (char *const *)argv);
	dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int proc_run(const char *const *argv, const struct proc_opts *opts,
	     struct proc_result *r)
{
	static const struct proc_opts defaults;
	const struct proc_opts *o = opts ? opts : &defaults;
	const char *args[PROC_MAX_ARGS + VALGRIND_NARGS + 2];
	char vg_log_opt[300];
	int in, out, err, status, n = 0, ret = -1;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (o->valgrind_log) {
		for (size_t i = 0; i < VALGRIND_NARGS; i++)
			args[n++] = valgrind_args[i];
		snprintf(vg_log_opt, sizeof(vg_log_opt), "--log-file=%s", o->valgrind_log);
		args[n++] = vg_log_opt;
	}
	for (int i = 0; argv[i] && i < PROC_MAX_ARGS; i++)
		args[n++] = argv[i];
	args[n] = NULL;

	in = stdin_fd(o->stdin_text);
	out = test_tmpfd();
	err = test_tmpfd();
	if (in < 0 || out < 0 || err < 0)
		goto out;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		goto out;
	if (pid == 0)
		exec_child(args, o, in, out, err);
	if (o->kill_after_ms > 0) {
		usleep((useconds_t)o->kill_after_ms * 1000);
		kill(pid, SIGTERM);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status)) {
		r->status = WEXITSTATUS(status);
	} else {
		r->status = -1;
		r->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	}
	r->out = test_read_fd(out, &r->out_len);
	r->err = test_read_fd(err, &r->err_len);
	if (r->out && r->err) {
		r->json = proc_parse_json(r->out, r->out_len);
		ret = 0;
	}
out:
	if (o->stdout_fd > 0)
		close(o->stdout_fd);
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	return ret;
}

void proc_result_free(struct proc_result *r)
{
	json_object_put(r->json);
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

int proc_run_ttpu(const char *const *args, const struct proc_opts *opts,
	     struct proc_result *r)
{
	const char *argv[PROC_MAX_ARGS + 1];
	int n = 0;

	argv[n++] = proc_ttpu_path();
	for (int i = 0; args[i] && n < PROC_MAX_ARGS; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return proc_run(argv, opts, r);
}
