/* SPDX-License-Identifier: MIT */
/*
 * direct_both_ways.h - a text loaded with the direct readers on and off,
 * and how the two loads ended, compared
 *
 * A command is read by the direct reader (program_read_command_direct.c)
 * when it is plain, else by json-c; so is each row or element of a list of
 * integers, buffer data or inputs (text_json_int_list_direct.c). The tests
 * of the direct readers (test_direct_commands.c, test_direct_int_lists.c)
 * load each text twice, with the direct readers on and off
 * (ttpu_commands_direct, ttpu_int_lists_direct, internal), and both loads
 * must end the same: the same error (kind, message, field, command, op,
 * buffer, line, column, ...) or the same program, compared as its
 * compiled bytes (ttpu_program_write_binary()), and inside a request the
 * same response of a run on its inputs. A suite includes it once, after
 * kselftest_harness.h and rt.h.
 */
#ifndef DIRECT_BOTH_WAYS_H
#define DIRECT_BOTH_WAYS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "program_read_commands.h"
#include "rt.h"
#include "text_json_stream.h"

/* JS_CHUNK of text_json_stream.c: the fd reader's first window. */
#define FD_WINDOW (256 * 1024)

/*
 * Every test of the direct readers loads a corpus or thousands of mutated
 * texts: natively 0.1 to 3.4 s each on a 2-core machine at a load of 15, up
 * to 31 s under ASan and 41 s on the emulated Zynq (test_timeout.h).
 */
#define TIMEOUT_MUTATIONS 300

/* How one load ended. */
struct outcome {
	int rc;
	struct ttpu_error err;
	char *image;			/* the program compiled, on success */
	size_t len;
	char *response;			/* a request's or inputs' run, on success */
	size_t response_len;
};

/* Both direct readers on (the library's default) or both off. */
static inline void set_direct(bool direct)
{
	ttpu_commands_direct = direct;
	ttpu_int_lists_direct = direct;
}

/* Run @prog on @in (software engine): the response or the error in @o. */
static inline void keep_response(const ttpu_program *prog, const ttpu_inputs *in,
				 struct outcome *o)
{
	ttpu_result *res = NULL;
	FILE *f;

	f = open_memstream(&o->response, &o->response_len);
	if (!f)
		abort();
	o->rc = ttpu_run(prog, rt_engine(), in, &res, &o->err);
	if (!o->rc && ttpu_result_write_json(res, f, 0, &o->err))
		abort();
	if (fclose(f))
		abort();
	ttpu_result_free(res);
}

enum way { FROM_MEMORY, FROM_FILE, IN_REQUEST };

static const char *const way_names[] = { "memory", "file", "request" };

/* Texts loaded both ways (each twice), for the log. */
static unsigned long compared;

static inline void keep_program(ttpu_program *prog, struct outcome *o)
{
	if (ttpu_program_write_binary(prog, &o->image, &o->len, &o->err))
		abort();
	ttpu_program_free(prog);
}

/*
 * Load @text (@len bytes; from @path too for FROM_FILE) one way, the
 * direct reader on or off. A request carries @inputs (JSON) as its inputs.
 */
static inline void load(const char *text, size_t len, const char *path,
			const char *inputs, enum way way, bool direct, struct outcome *o)
{
	ttpu_program *prog = NULL;
	ttpu_inputs *in = NULL;
	char *req;
	size_t n;

	memset(o, 0, sizeof(*o));
	set_direct(direct);
	switch (way) {
	case FROM_MEMORY:
		o->rc = ttpu_program_load_buffer(text, len, &prog, &o->err);
		break;
	case FROM_FILE:
		o->rc = ttpu_program_load_file(path, &prog, &o->err);
		break;
	case IN_REQUEST:
		n = len + strlen(inputs) + 32;
		req = malloc(n);
		if (!req)
			abort();
		n = (size_t)snprintf(req, n, "{\"program\": %.*s, \"inputs\": %s}",
				     (int)len, text, inputs);
		o->rc = ttpu_request_load_buffer(req, n, &prog, &in, &o->err);
		free(req);
		set_direct(true);
		if (!o->rc)
			keep_response(prog, in, o);
		ttpu_inputs_free(in);
		break;
	}
	set_direct(true);
	if (!o->rc)
		keep_program(prog, o);
	else
		ttpu_program_free(prog);
}

static inline int same(const struct outcome *a, const struct outcome *b, char *why,
		       size_t n)
{
	const struct ttpu_error *x = &a->err, *y = &b->err;

	if (a->rc != b->rc) {
		snprintf(why, n, "rc %d (%.200s) vs %d (%.200s)", a->rc, a->rc ? x->message : "",
			 b->rc, b->rc ? y->message : "");
		return 0;
	}
	if (!a->rc) {
		if (a->len != b->len || (a->len && memcmp(a->image, b->image, a->len))) {
			snprintf(why, n, "the programs differ (%zu and %zu bytes compiled)",
				 a->len, b->len);
			return 0;
		}
		if (a->response_len == b->response_len &&
		    (!a->response_len || !memcmp(a->response, b->response, a->response_len)))
			return 1;
		snprintf(why, n, "the responses differ (%zu and %zu bytes)",
			 a->response_len, b->response_len);
		return 0;
	}
	if (x->kind == y->kind && !strcmp(x->message, y->message) &&
	    x->command == y->command && !strcmp(x->op, y->op) &&
	    !strcmp(x->field, y->field) && !strcmp(x->buffer, y->buffer) &&
	    x->element == y->element && x->row == y->row && x->col == y->col &&
	    x->line == y->line && x->column == y->column &&
	    x->sys_errno == y->sys_errno)
		return 1;
	snprintf(why, n, "\"%.200s\" (field %.60s, command %ld, %ld:%ld) vs \"%.200s\" (field %.60s, command %ld, %ld:%ld)",
		 x->message, x->field, x->command, x->line, x->column,
		 y->message, y->field, y->command, y->line, y->column);
	return 0;
}

static inline void free_outcome(struct outcome *o)
{
	free(o->image);
	free(o->response);
}

/*
 * Load @text both ways through @way; 1 when they end the same, else 0
 * with the difference in @why. *@rc (when not NULL) is how they ended.
 */
static inline int agree(const char *text, size_t len, const char *path,
			const char *inputs, enum way way, int *rc, char *why, size_t n)
{
	struct outcome direct, jsonc;
	int ok;

	load(text, len, path, inputs, way, true, &direct);
	load(text, len, path, inputs, way, false, &jsonc);
	ok = same(&direct, &jsonc, why, n);
	if (rc)
		*rc = direct.rc;
	free_outcome(&direct);
	free_outcome(&jsonc);
	compared++;
	return ok;
}

/* A file under /tmp holding @len bytes of @text; its path in @path[32]. */
static inline void write_temp(const char *text, size_t len, char path[32])
{
	int fd;

	snprintf(path, 32, "/tmp/direct_both_ways.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd))
		abort();
}

/*
 * @text agrees both ways from memory, from a file and in a request; *@rc
 * is how it loaded from memory.
 */
static inline int agree_everywhere(const char *text, size_t len, const char *inputs,
				   int *rc, char *why, size_t n)
{
	char path[32];
	int ok = 1;

	write_temp(text, len, path);
	for (int w = FROM_MEMORY; w <= IN_REQUEST && ok; w++) {
		ok = agree(text, len, path, inputs, (enum way)w,
			   w == FROM_MEMORY ? rc : NULL, why, n);
		if (!ok) {
			size_t at = strlen(why);

			snprintf(why + at, n - at, " (from %s)", way_names[w]);
		}
	}
	unlink(path);
	return ok;
}

#endif /* DIRECT_BOTH_WAYS_H */
