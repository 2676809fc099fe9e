// SPDX-License-Identifier: MIT
/*
 * request.c - a request {"program": ..., "inputs": {...}} in one text
 *
 * Above both programs and inputs: the program is loaded as any other
 * (program_load.c), the inputs are checked against it (program_inputs.c).
 * Both keys are streamed in either order; inputs met before their program
 * are kept as plain lists and checked once the program is known.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "program_inputs.h"
#include "program_load.h"
#include "util.h"

struct pending_input {
	char *name;
	struct ttpu_int_list list;
};

static int read_pending_inputs(struct ttpu_jstream *js,
			       struct pending_input **out, size_t *n)
{
	struct pending_input *p = NULL;
	size_t cap = 0, i;
	bool first = true;
	char path[TTPU_ERROR_NAME_MAX];
	int ret;

	ret = ttpu_js_object_begin(js, "inputs");
	while (!ret && (ret = ttpu_js_object_next(js, "inputs", &first)) > 0) {
		for (i = 0; i < *n; i++)
			if (!strcmp((*out)[i].name, js->key))
				return ttpu_js_error(js, "inputs", "input \"%s\" is given twice",
						     js->key);
		if (ttpu_grow(out, &cap, *n + 1, sizeof(**out)))
			return ttpu_error_nomem(js->err, "reading inputs");
		p = &(*out)[*n];
		memset(p, 0, sizeof(*p));
		p->name = strdup(js->key);
		if (!p->name)
			return ttpu_error_nomem(js->err, "reading inputs");
		(*n)++;
		ttpu_js_path(path, sizeof(path), "inputs.%s", p->name);
		/* The dtype is not known yet: the range is checked again later. */
		ret = ttpu_js_int_list(js, path, INT32_MIN, INT32_MAX, "i32", &p->list);
	}
	return ret < 0 ? ret : 0;
}

static const char *const request_keys[2] = { "program", "inputs" };

/*
 * The request that is the whole of @js's text (@js->err filled on
 * failure); @js is finished here.
 */
static int request_load(struct ttpu_jstream *js, ttpu_program **prog_out,
			ttpu_inputs **inputs_out)
{
	struct pending_input *pending = NULL;
	size_t npending = 0, i;
	struct ttpu_error *err = js->err;
	struct ttpu_loader L;
	ttpu_inputs *in = NULL;
	bool first = true, have_prog = false, have_inputs = false;
	int ret;

	ret = ttpu_loader_init(&L, js, err);
	if (!ret)
		ret = ttpu_js_object_begin(js, "request");
	while (!ret && (ret = ttpu_js_object_next(js, "request", &first)) > 0) {
		int key = ttpu_js_key_index(js->key, request_keys, 2);

		if (key < 0 || (key == 0 ? have_prog : have_inputs)) {
			ret = key < 0 ? ttpu_js_unknown_key(js, "request", js->key, request_keys, 2) :
				ttpu_js_error(js, "request", "duplicate key \"%s\"", js->key);
			break;
		}
		if (key == 0) {
			have_prog = true;
			ret = ttpu_loader_load(&L, "program");
			if (!ret) {
				in = ttpu_inputs_new(L.prog);
				if (!in)
					ret = ttpu_error_nomem(err, "creating inputs");
			}
			continue;
		}
		have_inputs = true;
		js->kind = TTPU_INPUT_ERROR;
		if (in)
			ret = ttpu_inputs_read_object(in, js, "inputs");
		else
			ret = read_pending_inputs(js, &pending, &npending);
		js->kind = TTPU_SCHEMA_ERROR;
	}
	if (ret > 0)
		ret = 0;
	if (!ret)
		ret = ttpu_js_end(js);
	if (!ret && !have_prog)
		ret = ttpu_js_error_at(js, 0, "request", "missing key \"program\"");
	/* The protocol (and the schema) want "inputs", even when it is {}. */
	if (!ret && !have_inputs)
		ret = ttpu_js_error_at(js, 0, "request", "missing key \"inputs\"");
	js->kind = TTPU_INPUT_ERROR;
	for (i = 0; !ret && i < npending; i++) {
		char path[TTPU_ERROR_NAME_MAX];

		ttpu_js_path(path, sizeof(path), "inputs.%s", pending[i].name);
		ret = ttpu_inputs_set_list(in, js, path, pending[i].name, &pending[i].list);
	}
	if (!ret)
		ret = ttpu_inputs_check_complete(in, err);
	for (i = 0; i < npending; i++) {
		free(pending[i].name);
		ttpu_int_list_free(&pending[i].list);
	}
	free(pending);
	if (ret) {
		ttpu_inputs_free(in);
	} else {
		*prog_out = L.prog;
		*inputs_out = in;
	}
	ttpu_loader_fini(&L, !ret);
	ttpu_js_fini(js);
	return ret;
}


int ttpu_request_load_buffer(const char *text, size_t len, ttpu_program **prog_out,
			     ttpu_inputs **inputs_out, struct ttpu_error *err)
{
	struct ttpu_jstream js;
	int ret;

	ttpu_error_clear(err);
	if (!prog_out || !inputs_out || !text)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_request_load_buffer: NULL argument");
	*prog_out = NULL;
	*inputs_out = NULL;
	if (len > ttpu_text_limit())
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "request of %zu bytes is larger than the %zu-byte input limit",
				      len, ttpu_text_limit());
	ret = ttpu_js_init(&js, text, len, TTPU_SCHEMA_ERROR, err);
	if (ret)
		return ret;
	return request_load(&js, prog_out, inputs_out);
}

int ttpu_request_load_fd(int fd, const char *what, ttpu_program **prog_out,
			 ttpu_inputs **inputs_out, struct ttpu_error *err)
{
	struct ttpu_jstream js;
	int ret;

	ttpu_error_clear(err);
	if (!prog_out || !inputs_out || !what)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_request_load_fd: NULL argument");
	*prog_out = NULL;
	*inputs_out = NULL;
	/* Read in chunks as it is parsed: memory follows the program, not its text. */
	ret = ttpu_js_init_fd(&js, fd, what, TTPU_SCHEMA_ERROR, err);
	if (ret)
		return ret;
	if (ttpu_js_peek(&js) == -1 && !js.read_error) {
		ttpu_js_fini(&js);
		return ttpu_error_set(err, TTPU_SCHEMA_ERROR,
				      "empty request on %s: expected {\"program\": ..., \"inputs\": ...}",
				      what);
	}
	return request_load(&js, prog_out, inputs_out);
}
