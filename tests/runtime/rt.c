// SPDX-License-Identifier: MIT
/*
 * rt.c - helpers shared by the runtime library's tests (see rt.h)
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

char *rt_dq(const char *sq)
{
	char *s = strdup(sq);

	if (!s)
		abort();
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	return s;
}

int rt_load(const char *sq, ttpu_program **out, struct ttpu_error *err)
{
	char *json = rt_dq(sq);
	int rc;

	*out = (ttpu_program *)&rc;	/* a failed load must reset it */
	rc = ttpu_program_load_buffer(json, strlen(json), out, err);
	free(json);
	if (rc && *out) {
		fprintf(stderr, "# load failed (%d) but returned a program\n", rc);
		*out = NULL;
		return RT_LEFT_OBJECT;
	}
	return rc;
}

static pthread_once_t engine_once = PTHREAD_ONCE_INIT;
static ttpu_engine *engine;

static void engine_open(void)
{
	struct ttpu_error err;

	if (ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &engine, &err)) {
		fprintf(stderr, "# cannot open the software engine: %s\n",
			err.message);
		abort();
	}
}

ttpu_engine *rt_engine(void)
{
	pthread_once(&engine_once, engine_open);
	return engine;
}

int rt_run(const ttpu_program *prog, const char *sq_inputs, ttpu_result **out,
	   struct ttpu_error *err)
{
	ttpu_inputs *in = ttpu_inputs_new(prog);
	int rc = 0;

	*out = NULL;
	if (!in)
		abort();
	if (sq_inputs) {
		char *json = rt_dq(sq_inputs);

		rc = ttpu_inputs_parse(in, json, strlen(json), err);
		free(json);
	}
	if (!rc) {
		*out = (ttpu_result *)&rc;	/* a failed run must reset it */
		rc = ttpu_run(prog, rt_engine(), in, out, err);
		if (rc && *out) {
			fprintf(stderr, "# run failed (%d) but returned a result\n", rc);
			*out = NULL;
			rc = RT_LEFT_OBJECT;
		}
	}
	ttpu_inputs_free(in);
	return rc;
}

int rt_load_run(const char *sq_prog, const char *sq_inputs, ttpu_result **out,
		struct ttpu_error *err)
{
	ttpu_program *prog;
	int rc;

	*out = NULL;
	rc = rt_load(sq_prog, &prog, err);
	if (rc)
		return rc;
	rc = rt_run(prog, sq_inputs, out, err);
	ttpu_program_free(prog);
	return rc;
}

long rt_cmp(const ttpu_result *res, const char *name, const int32_t *exp,
	    size_t n, char *why, size_t len)
{
	size_t count = 0;
	const int32_t *got;

	if (!res) {
		snprintf(why, len, "no result");
		return -2;
	}
	got = ttpu_result_output(res, name, &count);
	if (!got || count != n) {
		snprintf(why, len, "output %s: %s, %zu values, expected %zu",
			 name, got ? "present" : "missing", count, n);
		return -2;
	}
	for (size_t i = 0; i < n; i++) {
		if (got[i] != exp[i]) {
			snprintf(why, len, "output %s[%zu] = %d, expected %d",
				 name, i, got[i], exp[i]);
			return (long)i;
		}
	}
	why[0] = '\0';
	return -1;
}

static int str_differs(const char *what, const char *exp, const char *got,
		       char *why, size_t len)
{
	size_t n = strlen(exp);
	int prefix = n && exp[n - 1] == '*';

	if (prefix ? strncmp(exp, got, n - 1) : strcmp(exp, got)) {
		snprintf(why, len, "%s is \"%s\", expected \"%s\"", what, got, exp);
		return 1;
	}
	return 0;
}

int rt_where(const struct ttpu_error *err, const char *field, long command,
	     const char *op, const char *buffer, char *why, size_t len)
{
	char msg[sizeof(err->message) + 64];

	snprintf(msg, sizeof(msg), " (message: %s)", err->message);
	why[0] = '\0';
	if (field && str_differs("field", field, err->field, why, len))
		goto differs;
	if (op && str_differs("op", op, err->op, why, len))
		goto differs;
	if (buffer && str_differs("buffer", buffer, err->buffer, why, len))
		goto differs;
	if (command != err->command) {
		snprintf(why, len, "command is %ld, expected %ld", err->command,
			 command);
		goto differs;
	}
	return 1;
differs:
	strncat(why, msg, len - strlen(why) - 1);
	return 0;
}

void rt_put(struct rt_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n >= 0 && t->s && (size_t)n < t->cap - t->len)
			break;
		t->cap = t->cap * 2 + 4096 + (size_t)n;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			abort();
	}
	t->len += (size_t)n;
}

char *rt_response(const ttpu_result *res)
{
	struct ttpu_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (ttpu_result_write_json(res, f, 0, &err)) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	return text;
}
