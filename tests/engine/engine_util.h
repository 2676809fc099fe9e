/* SPDX-License-Identifier: MIT */
/*
 * engine_util.h - what the engine suites share: the device under test, the
 * simulator's knobs, requests run through the library, ttpu-run runs.
 *
 * Environment:
 *   NPUKIT_DEVICE   the node under test (default /dev/npukit0)
 *   NPUKIT_DEBUGFS  the instance's debugfs directory (default
 *                   /sys/kernel/debug/npukit/<node name>)
 *   TTPU_RUN        ttpu-run (default /bin/ttpu-run, else ENGINE_TTPU_RUN,
 *                   the build's own, relative to the top of the tree)
 *   TTPU_TEST_DATA  generated *.request.json (default ENGINE_TEST_DATA)
 */
#ifndef ENGINE_UTIL_H
#define ENGINE_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "ttpu-run.h"
#include "../lib/test_util.h"

#ifndef ENGINE_TTPU_RUN
#define ENGINE_TTPU_RUN "build/bin/ttpu-run"
#endif
#ifndef ENGINE_TEST_DATA
#define ENGINE_TEST_DATA "build/engine-data"
#endif

static inline const char *eng_device(void)
{
	const char *p = getenv("NPUKIT_DEVICE");

	return p && *p ? p : "/dev/npukit0";
}

static inline int eng_have_device(void)
{
	return access(eng_device(), F_OK) == 0;
}

static inline const char *eng_test_data(void)
{
	const char *p = getenv("TTPU_TEST_DATA");

	return p && *p ? p : ENGINE_TEST_DATA;
}

/* ---- the simulator's debugfs knobs and counters ------------------------ */

static inline void eng_knob_path(char *buf, size_t len, const char *knob)
{
	const char *dir = getenv("NPUKIT_DEBUGFS");
	char dev[128];

	if (dir && *dir) {
		snprintf(buf, len, "%s/%s", dir, knob);
		return;
	}
	snprintf(dev, sizeof(dev), "%s", eng_device());
	snprintf(buf, len, "/sys/kernel/debug/npukit/%s/%s", basename(dev), knob);
}

/* 0 or -errno. */
static inline int eng_knob_write(const char *knob, unsigned long val)
{
	char path[256], s[32];
	int fd, n, ok;

	eng_knob_path(path, sizeof(path), knob);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(s, sizeof(s), "%lu\n", val);
	ok = write(fd, s, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -EIO;
}

/* A counter of the instance's debugfs "stats" file, or -1. */
static inline long long eng_dev_counter(const char *name)
{
	char path[256], key[64];
	long long v, found = -1;
	FILE *f;

	eng_knob_path(path, sizeof(path), "stats");
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/* ---- requests through the library ------------------------------------- */

/* A loaded request: the program and its inputs. */
struct eng_req {
	ttpu_program *prog;
	ttpu_inputs *in;
};

static inline void eng_req_free(struct eng_req *r)
{
	ttpu_inputs_free(r->in);
	ttpu_program_free(r->prog);
	memset(r, 0, sizeof(*r));
}

/* Load {"program", "inputs"}; 0 or a negative error kind with @err. */
static inline int eng_req_load(const char *text, struct eng_req *r,
			       struct ttpu_error *err)
{
	struct json_object *doc, *p, *i;
	const char *itext;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(err, 0, sizeof(*err));
	doc = json_tokener_parse(text);
	if (!doc || !json_object_object_get_ex(doc, "program", &p) ||
	    !json_object_object_get_ex(doc, "inputs", &i)) {
		json_object_put(doc);
		snprintf(err->message, sizeof(err->message), "not a request object");
		return -TTPU_USAGE_ERROR;
	}
	ret = ttpu_program_load_json(p, &r->prog, err);
	if (!ret) {
		r->in = ttpu_inputs_new(r->prog);
		itext = json_object_to_json_string_ext(i, JSON_C_TO_STRING_PLAIN);
		ret = r->in ? ttpu_inputs_parse(r->in, itext, strlen(itext), err) :
			      -TTPU_SYSTEM_ERROR;
	}
	json_object_put(doc);
	if (ret)
		eng_req_free(r);
	return ret;
}

/* What one engine made of a request. */
struct eng_outcome {
	int ret;			/* 0 or a negative error kind */
	struct ttpu_error err;
	char *response;			/* the response JSON text when ret == 0 */
	struct ttpu_run_stats stats;
	char engine[16];
};

static inline void eng_outcome_free(struct eng_outcome *o)
{
	free(o->response);
	o->response = NULL;
}

static inline void eng_run_on(const struct eng_req *r, ttpu_engine *eng,
			      struct eng_outcome *o)
{
	ttpu_result *res = NULL;
	size_t len;
	FILE *f;

	memset(o, 0, sizeof(*o));
	snprintf(o->engine, sizeof(o->engine), "%s", ttpu_engine_name(eng));
	o->ret = ttpu_run(r->prog, eng, r->in, &res, &o->err);
	if (o->ret)
		return;
	o->stats = *ttpu_result_stats(res);
	f = open_memstream(&o->response, &len);
	if (!f || ttpu_result_write_json(res, f, 1, &o->err))
		o->ret = -TTPU_SYSTEM_ERROR;
	if (f)
		fclose(f);
	ttpu_result_free(res);
}

/* Run on a freshly opened engine of @choice on the device under test. */
static inline void eng_run(const struct eng_req *r, enum ttpu_engine_choice choice,
			   struct eng_outcome *o)
{
	ttpu_engine *eng = NULL;

	memset(o, 0, sizeof(*o));
	o->ret = ttpu_engine_open(choice, choice == TTPU_ENGINE_SOFTWARE ? NULL : eng_device(),
				  &eng, &o->err);
	if (o->ret)
		return;
	eng_run_on(r, eng, o);
	ttpu_engine_close(eng);
}

/*
 * The keys every engine must agree on, compared as JSON values: 1 when
 * equal, else 0 with the first differing key in @why.
 */
static inline int eng_same_response(const char *x, const char *y, char *why, size_t whylen)
{
	static const char *const keys[] = { "outputs", "passes", "totalCycles", "hostOps" };
	struct json_object *jx = json_tokener_parse(x), *jy = json_tokener_parse(y);
	int same = jx && jy;

	if (!same)
		snprintf(why, whylen, "a response is not JSON");
	for (size_t k = 0; same && k < sizeof(keys) / sizeof(keys[0]); k++) {
		struct json_object *vx = NULL, *vy = NULL;

		json_object_object_get_ex(jx, keys[k], &vx);
		json_object_object_get_ex(jy, keys[k], &vy);
		if (!vx || !vy || !json_object_equal(vx, vy)) {
			snprintf(why, whylen, "responses differ in \"%s\"", keys[k]);
			same = 0;
		}
	}
	json_object_put(jx);
	json_object_put(jy);
	return same;
}

/* ---- ttpu-run ---------------------------------------------------------- */

static inline const char *eng_cli_binary(void)
{
	const char *p = getenv("TTPU_RUN");

	if (p && *p)
		return p;
	if (access("/bin/ttpu-run", X_OK) == 0)
		return "/bin/ttpu-run";
	return ENGINE_TTPU_RUN;
}

struct eng_cli {
	int status;			/* exit status, or -1 when killed */
	char *out;			/* stdout */
	char *err;			/* stderr */
	struct json_object *json;	/* stdout parsed, or NULL */
};

static inline void eng_cli_free(struct eng_cli *c)
{
	json_object_put(c->json);
	free(c->out);
	free(c->err);
	memset(c, 0, sizeof(*c));
}

/*
 * Run ttpu-run with @argv (NULL-terminated, without argv[0]) and @env
 * ("NAME=VALUE" strings added to the environment, NULL-terminated or
 * NULL). Returns 0, or -1 when it could not be run at all.
 */
static inline int eng_cli_run(struct eng_cli *c, const char *const *argv,
			      const char *const *env)
{
	const char *args[40];
	int out = test_tmpfd(), err = test_tmpfd(), status, n = 0;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	if (out < 0 || err < 0)
		return -1;
	args[n++] = eng_cli_binary();
	for (int i = 0; argv[i] && n < 39; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);

		for (int i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		dup2(in, 0);
		dup2(out, 1);
		dup2(err, 2);
		execv(args[0], (char *const *)args);
		dprintf(2, "exec %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	c->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	c->out = test_read_fd(out, NULL);
	c->err = test_read_fd(err, NULL);
	close(out);
	close(err);
	if (!c->out || !c->err)
		return -1;
	c->json = json_tokener_parse(c->out);
	return 0;
}

/* The string at "a.b.c" in @obj, or NULL. */
static inline const char *eng_json_str(struct json_object *obj, const char *path)
{
	obj = test_json_get(obj, path);
	return obj ? json_object_get_string(obj) : NULL;
}

#endif /* ENGINE_UTIL_H */
