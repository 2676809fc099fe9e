/* SPDX-License-Identifier: MIT */
/*
 * cli_run.h - run build/bin/ttpu-run and check what it said
 *
 * Include after kselftest_harness.h: the check helpers use its ASSERT_*
 * macros, which abort the test child from inside a helper too.
 *
 * Environment (set by mk/12-cli.mk):
 *   TTPU_RUN       the binary under test (default build/bin/ttpu-run)
 *   TTPU_CLI_DATA  the test programs (default tests/cli/data)
 */
#ifndef TTPU_CLI_RUN_H
#define TTPU_CLI_RUN_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "../lib/test_util.h"

#define CLI_MAX_ARGS 32

struct cli_result {
	int status;			/* exit status, or -1 when killed */
	int signal;			/* the killing signal, or 0 */
	char *out;			/* stdout, NUL-terminated */
	size_t out_len;
	char *err;			/* stderr, NUL-terminated */
	size_t err_len;
	struct json_object *json;	/* stdout when it is exactly one JSON value */
};

/*
 * How to run the binary: directly, or under valgrind with its report in
 * vg_log (exit status 99 when valgrind found an error or a leak).
 */
struct cli_runner {
	bool valgrind;
	long fsize_limit;		/* > 0: RLIMIT_FSIZE of the run, bytes */
	int kill_after_ms;		/* > 0: SIGTERM the run after this long */
	char vg_log[256];
};

static inline const char *cli_binary(void)
{
	const char *p = getenv("TTPU_RUN");

	return p && *p ? p : "build/bin/ttpu-run";
}

/* The path of test program @name; valid until the next call. */
static inline const char *cli_data(const char *name)
{
	static char path[4096];
	const char *dir = getenv("TTPU_CLI_DATA");

	snprintf(path, sizeof(path), "%s/%s", dir && *dir ? dir : "tests/cli/data",
		 name);
	return path;
}

static inline int cli_spit(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -1;
	if (fwrite(text, 1, len, f) != len)
		ret = -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* A copy of @text with its first @from replaced by @to; NULL if absent. */
static inline char *cli_replace(const char *text, const char *from,
				const char *to)
{
	const char *at = strstr(text, from);
	size_t head, len;
	char *s;

	if (!at)
		return NULL;
	head = (size_t)(at - text);
	len = strlen(text) - strlen(from) + strlen(to);
	s = malloc(len + 1);
	if (!s)
		return NULL;
	memcpy(s, text, head);
	strcpy(s + head, to);
	strcat(s, at + strlen(from));
	return s;
}

/* {"program": PROGRAM-FILE, "inputs": INPUTS-FILE or {}} as text. */
static inline char *cli_request(const char *program, const char *inputs)
{
	char *p = test_slurp(cli_data(program), NULL);
	char *in = inputs ? test_slurp(cli_data(inputs), NULL) : strdup("{}");
	char *req = NULL;

	if (p && in && asprintf(&req, "{\"program\": %s, \"inputs\": %s}\n", p, in) < 0)
		req = NULL;
	free(p);
	free(in);
	return req;
}

/* A fresh directory under $TMPDIR for one test's files. */
static inline char *cli_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir;

	if (asprintf(&dir, "%s/ttpu-cli.XXXXXX", base && *base ? base : "/tmp") < 0)
		return NULL;
	if (!mkdtemp(dir)) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* "dir/name"; the caller frees it. */
static inline char *cli_path(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

/* Names in @dir, space-separated (empty when none). */
static inline char *cli_listdir(const char *dir)
{
	size_t len = 0;
	struct dirent *de;
	char *s = NULL;
	FILE *f = open_memstream(&s, &len);
	DIR *d = opendir(dir);

	if (!f)
		return NULL;
	while (d && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fprintf(f, "%s ", de->d_name);
	}
	if (d)
		closedir(d);
	fclose(f);
	return s;
}

static inline void cli_rmdir(char *dir)
{
	struct dirent *de;
	DIR *d;
	char *p;

	if (!dir)
		return;
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = cli_path(dir, de->d_name);
		if (p)
			unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	free(dir);
}

/* The one JSON value of @text, or NULL (none, malformed or trailing data). */
static inline struct json_object *cli_parse_json(const char *text, size_t len)
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

/*
 * Run ttpu-run with @args (NULL-terminated) and @stdin_text on stdin
 * (NULL: /dev/null). @stdout_fd >= 0 replaces the captured stdout (a pipe,
 * /dev/full). Returns 0, or -1 when the run itself could not be set up.
 */
static inline int cli_run_fd(struct cli_runner *runner, struct cli_result *r,
			     const char *stdin_text, int stdout_fd,
			     const char *const *args)
{
	const char *argv[CLI_MAX_ARGS + 8];
	char vg_log_opt[300];
	int in, out, err, status, n = 0, i;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (runner && runner->valgrind) {
		snprintf(runner->vg_log, sizeof(runner->vg_log),
			 "%s/ttpu-cli-vg.%d.log",
			 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
			 (int)getpid());
		snprintf(vg_log_opt, sizeof(vg_log_opt), "--log-file=%s", runner->vg_log);
		argv[n++] = "valgrind";
		argv[n++] = "-q";
		argv[n++] = "--error-exitcode=99";
		argv[n++] = "--leak-check=full";
		argv[n++] = "--show-leak-kinds=definite,indirect,possible";
		argv[n++] = "--errors-for-leak-kinds=definite,indirect,possible";
		argv[n++] = vg_log_opt;
	}
	argv[n++] = cli_binary();
	for (i = 0; args[i] && i < CLI_MAX_ARGS; i++)
		argv[n++] = args[i];
	argv[n] = NULL;

	in = test_tmpfd();
	out = test_tmpfd();
	err = test_tmpfd();
	if (in < 0 || out < 0 || err < 0)
		return -1;
	if (stdin_text) {
		if (write(in, stdin_text, strlen(stdin_text)) != (ssize_t)strlen(stdin_text))
			return -1;
		lseek(in, 0, SEEK_SET);
	} else {
		close(in);
		in = open("/dev/null", O_RDONLY);
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);	/* as from a shell */
		signal(SIGXFSZ, SIG_DFL);
		if (runner && runner->fsize_limit > 0) {
			struct rlimit rl = { .rlim_cur = (rlim_t)runner->fsize_limit,
					     .rlim_max = (rlim_t)runner->fsize_limit };

			setrlimit(RLIMIT_FSIZE, &rl);
		}
		dup2(in, 0);
		dup2(stdout_fd >= 0 ? stdout_fd : out, 1);
		dup2(err, 2);
		execvp(argv[0], (char *const *)argv);
		dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (stdout_fd >= 0)
		close(stdout_fd);
	if (runner && runner->kill_after_ms > 0) {
		usleep((useconds_t)runner->kill_after_ms * 1000);
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
	close(in);
	close(out);
	close(err);
	if (!r->out || !r->err)
		return -1;
	r->json = cli_parse_json(r->out, r->out_len);
	return 0;
}

static inline void cli_result_free(struct cli_result *r)
{
	json_object_put(r->json);
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

static inline const char *cli_get_string(struct json_object *obj,
					 const char *path)
{
	struct json_object *v = test_json_get(obj, path);

	return v && json_object_is_type(v, json_type_string) ?
		json_object_get_string(v) : NULL;
}

/* ---- checks: need the harness's _metadata ------------------------------ */

#define RUN_CLI(r, stdin_text, ...) \
	ASSERT_EQ(0, cli_run_fd(NULL, (r), (stdin_text), -1, \
				(const char *const[]){ __VA_ARGS__, NULL }))

/*
 * A failure of @kind with exit status @status: {"error": {"kind": @kind,
 * "message": M}} on stdout (unless @stdout_json is false) and exactly the
 * line "ttpu-run: @kind: M" on stderr.
 */
static inline void check_error_ex(struct __test_metadata *_metadata,
				  const struct cli_result *r, const char *kind,
				  int status, bool stdout_json)
{
	const char *msg, *nl;
	char *line;

	if (r->status != status)
		TH_LOG("stdout: %s\nstderr: %s", r->out, r->err);
	ASSERT_EQ(0, r->signal);
	ASSERT_EQ(status, r->status);
	/* Exactly one line on stderr. */
	nl = strchr(r->err, '\n');
	ASSERT_NE(NULL, nl) TH_LOG("stderr has no line: '%s'", r->err);
	ASSERT_EQ(r->err_len, (size_t)(nl - r->err) + 1)
		TH_LOG("more than one line on stderr:\n%s", r->err);
	if (!stdout_json) {
		ASSERT_EQ(0, strncmp(r->err, "ttpu-run: ", 10));
		ASSERT_EQ(0, strncmp(r->err + 10, kind, strlen(kind)))
			TH_LOG("stderr: %s", r->err);
		return;
	}
	ASSERT_NE(NULL, r->json) TH_LOG("stdout is not one JSON value: '%s'", r->out);
	ASSERT_EQ(1, json_object_object_length(r->json)) TH_LOG("stdout: %s", r->out);
	ASSERT_NE(NULL, cli_get_string(r->json, "error.kind")) TH_LOG("stdout: %s", r->out);
	ASSERT_STREQ(kind, cli_get_string(r->json, "error.kind"));
	msg = cli_get_string(r->json, "error.message");
	ASSERT_NE(NULL, msg);
	ASSERT_NE(0, strlen(msg));
	ASSERT_LT(0, asprintf(&line, "ttpu-run: %s: %s\n", kind, msg));
	for (char *p = line + 10; p[1]; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	EXPECT_STREQ(line, r->err);
	free(line);
}

static inline void check_error(struct __test_metadata *_metadata,
			       const struct cli_result *r, const char *kind,
			       int status)
{
	check_error_ex(_metadata, r, kind, status, true);
}

/* Exit 0, nothing on stderr, a response on stdout. */
static inline void check_ok(struct __test_metadata *_metadata,
			    const struct cli_result *r)
{
	if (r->status != 0 || r->err_len)
		TH_LOG("status %d signal %d\nstdout: %s\nstderr: %s", r->status,
		       r->signal, r->out, r->err);
	ASSERT_EQ(0, r->signal);
	ASSERT_EQ(0, r->status);
	ASSERT_EQ(0, r->err_len);
	ASSERT_NE(NULL, r->json) TH_LOG("stdout is not one JSON value: '%s'", r->out);
	ASSERT_EQ(NULL, test_json_get(r->json, "error"));
}

#endif /* TTPU_CLI_RUN_H */
