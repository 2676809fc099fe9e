// SPDX-License-Identifier: MIT
/*
 * program_inputs.c - a run's input values, checked against the program
 *
 * Values are kept in their buffer's dtype, so the runner copies them as
 * they are; every check (name, shape, integer, range) is done here, once,
 * and reported as an InputError naming the input and the element.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "program_inputs.h"
#include "util.h"

struct ttpu_inputs {
	const struct ttpu_program *prog;
	void **values;			/* by input index, NULL = not set */
};

ttpu_inputs *ttpu_inputs_new(const ttpu_program *prog)
{
	ttpu_inputs *in;

	if (!prog)
		return NULL;
	in = calloc(1, sizeof(*in));
	if (!in)
		return NULL;
	in->prog = prog;
	in->values = calloc(prog->ninputs ? prog->ninputs : 1, sizeof(*in->values));
	if (!in->values) {
		free(in);
		return NULL;
	}
	return in;
}

void ttpu_inputs_free(ttpu_inputs *in)
{
	size_t i;

	if (!in)
		return;
	for (i = 0; i < in->prog->ninputs; i++)
		free(in->values[i]);
	free(in->values);
	free(in);
}

const void *ttpu_inputs_values(const ttpu_inputs *in, uint32_t buf)
{
	int32_t i;

	if (!in || buf >= in->prog->nbuffers)
		return NULL;
	i = in->prog->buffers[buf].input_index;
	return i < 0 ? NULL : in->values[i];
}

const struct ttpu_program *ttpu_inputs_program(const ttpu_inputs *in)
{
	return in ? in->prog : NULL;
}

/* The input buffer called @name, or an InputError. */
static int find_input(const ttpu_inputs *in, const char *name,
		      const struct ttpu_buffer **out, struct ttpu_error *err)
{
	uint32_t b = ttpu_program_find_buffer(in->prog, name);
	int ret;

	if (b == TTPU_NO_BUFFER)
		ret = ttpu_error_set(err, TTPU_INPUT_ERROR,
				     "\"%s\" is not an input of program \"%s\"",
				     name, in->prog->name);
	else if (in->prog->buffers[b].input_index < 0)
		ret = ttpu_error_set(err, TTPU_INPUT_ERROR,
				     "\"%s\" is a %s buffer, not an input", name,
				     in->prog->buffers[b].kind == TTPU_KIND_CONST ? "const" : "temp");
	else {
		*out = &in->prog->buffers[b];
		return 0;
	}
	ttpu_error_at_buffer(err, name);
	return ret;
}

/* Store @count range-checked int32 values as input @b. */
static int store(ttpu_inputs *in, const struct ttpu_buffer *b,
		 const int32_t *v, struct ttpu_error *err)
{
	size_t i, size = b->dtype == TTPU_DTYPE_I8 ? 1 : 4;
	void *data;
	int ret;

	for (i = 0; i < b->count; i++) {
		if (ttpu_fits_dtype(v[i], b->dtype))
			continue;
		ret = ttpu_error_set(err, TTPU_INPUT_ERROR,
				     "input \"%s\": element (%zu, %zu) = %d does not fit %s",
				     b->name, i / b->cols, i % b->cols, v[i],
				     b->dtype == TTPU_DTYPE_I8 ? "i8" : "i32");
		ttpu_error_at_buffer(err, b->name);
		ttpu_error_at_element(err, (long)i, (long)(i / b->cols), (long)(i % b->cols));
		return ret;
	}
	data = malloc(b->count * size);
	if (!data)
		return ttpu_error_nomem(err, "storing an input");
	if (b->dtype == TTPU_DTYPE_I8) {
		int8_t *d = data;

		for (i = 0; i < b->count; i++)
			d[i] = (int8_t)v[i];
	} else {
		memcpy(data, v, b->count * size);
	}
	free(in->values[b->input_index]);
	in->values[b->input_index] = data;
	return 0;
}

int ttpu_inputs_set(ttpu_inputs *in, const char *name, const int32_t *values,
		    size_t count, struct ttpu_error *err)
{
	const struct ttpu_buffer *b;
	int ret;

	ttpu_error_clear(err);
	if (!in || !name || (!values && count))
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_inputs_set: NULL argument");
	ret = find_input(in, name, &b, err);
	if (ret)
		return ret;
	if (count != b->count) {
		ret = ttpu_error_set(err, TTPU_INPUT_ERROR,
				     "input \"%s\": expected %zu values (shape [%u, %u]), got %zu",
				     name, b->count, b->rows, b->cols, count);
		ttpu_error_at_buffer(err, name);
		return ret;
	}
	return store(in, b, values, err);
}

/*
 * Input @b from @l, checked against its shape and range: its values are
 * taken as they are where they are in @b's dtype already (the list was
 * read for it), so a read input is not copied again.
 */
static int store_list(ttpu_inputs *in, const struct ttpu_buffer *b,
		      struct ttpu_int_list *l, struct ttpu_error *err)
{
	size_t size = b->dtype == TTPU_DTYPE_I8 ? 1 : 4, cap = l->cap, i;
	void *data = NULL;

	/* A list read for i8 holds only i8 values, so this is never narrowing. */
	if (l->width == 1 && size == 4) {
		if (ttpu_resize(&l->v, l->n ? l->n : 1, sizeof(*l->v)))
			return ttpu_error_nomem(err, "storing an input");
		for (i = 0; i < l->n; i++)
			l->v[i] = l->v8[i];
		return store(in, b, l->v, err);
	}
	if (size == 1 && l->width == 1) {
		data = l->v8;
		l->v8 = NULL;
	} else if (size == 4) {
		data = l->v;
		l->v = NULL;
	}
	if (!data)
		return store(in, b, l->v, err);
	l->cap = 0;
	/* Give back what the list held beyond the values (in place). */
	if (l->n && l->n < cap) {
		void *shrunk = realloc(data, l->n * size);

		if (shrunk)
			data = shrunk;
	}
	free(in->values[b->input_index]);
	in->values[b->input_index] = data;
	return 0;
}

int ttpu_inputs_set_list(ttpu_inputs *in, struct ttpu_jstream *js,
			 const char *path, const char *name,
			 struct ttpu_int_list *l)
{
	const struct ttpu_buffer *b;
	int ret;

	ret = find_input(in, name, &b, js->err);
	if (!ret)
		ret = ttpu_js_int_list_shape(js, path, l, b->rank, b->rows, b->cols);
	if (!ret)
		ret = ttpu_js_int_list_range(js, path, l, b->rank, b->cols,
					     ttpu_dtype_min(b->dtype), ttpu_dtype_max(b->dtype),
					     b->dtype == TTPU_DTYPE_I8 ? "i8" : "i32");
	if (!ret)
		ret = store_list(in, b, l, js->err);
	if (ret) {
		if (js->err && !js->err->line)
			ttpu_js_locate(js, l->offset);
		ttpu_error_at_buffer(js->err, name);
	}
	return ret;
}

int ttpu_inputs_read_object(ttpu_inputs *in, struct ttpu_jstream *js,
			    const char *path)
{
	const struct ttpu_buffer *b;
	struct ttpu_int_list l;
	char ipath[TTPU_ERROR_NAME_MAX];
	bool first = true;
	bool *seen;
	int ret;

	seen = calloc(in->prog->ninputs ? in->prog->ninputs : 1, sizeof(*seen));
	if (!seen)
		return ttpu_error_nomem(js->err, "reading inputs");
	ret = ttpu_js_object_begin(js, path);
	while (!ret && (ret = ttpu_js_object_next(js, path, &first)) > 0) {
		ret = find_input(in, js->key, &b, js->err);
		if (ret) {
			ttpu_js_locate(js, ttpu_js_mark_elem(js));
			break;
		}
		if (seen[b->input_index]) {
			ret = ttpu_js_error(js, path, "input \"%s\" is given twice", b->name);
			ttpu_error_at_buffer(js->err, b->name);
			break;
		}
		seen[b->input_index] = true;
		ttpu_js_path(ipath, sizeof(ipath), "%s.%s", path, b->name);
		ret = ttpu_js_int_list_shaped_w(js, ipath, ttpu_dtype_min(b->dtype),
						ttpu_dtype_max(b->dtype),
						b->dtype == TTPU_DTYPE_I8 ? "i8" : "i32",
						b->rank, b->rows, b->cols,
						b->dtype == TTPU_DTYPE_I8 ? 1 : 4, &l);
		if (ret) {
			ttpu_error_at_buffer(js->err, b->name);
			break;
		}
		ret = ttpu_inputs_set_list(in, js, ipath, b->name, &l);
		ttpu_int_list_free(&l);
	}
	free(seen);
	return ret < 0 ? ret : 0;
}

int ttpu_inputs_check_complete(const ttpu_inputs *in, struct ttpu_error *err)
{
	size_t i;
	int ret;

	for (i = 0; i < in->prog->ninputs; i++) {
		const char *name = in->prog->buffers[in->prog->inputs[i]].name;

		if (in->values[i])
			continue;
		ret = ttpu_error_set(err, TTPU_INPUT_ERROR, "input \"%s\" is missing", name);
		ttpu_error_at_buffer(err, name);
		return ret;
	}
	return 0;
}

/* The inputs object that is the whole of @js's text; @js is finished here. */
static int inputs_read_stream(ttpu_inputs *in, struct ttpu_jstream *js)
{
	int ret = ttpu_inputs_read_object(in, js, "inputs");

	if (!ret)
		ret = ttpu_js_end(js);
	ttpu_js_fini(js);
	return ret;
}

int ttpu_inputs_parse(ttpu_inputs *in, const char *json, size_t len,
		      struct ttpu_error *err)
{
	struct ttpu_jstream js;
	int ret;

	ttpu_error_clear(err);
	if (!in || !json)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_inputs_parse: NULL argument");
	ret = ttpu_js_init(&js, json, len, TTPU_INPUT_ERROR, err);
	if (ret)
		return ret;
	return inputs_read_stream(in, &js);
}

int ttpu_inputs_load_file(ttpu_inputs *in, const char *path,
			  struct ttpu_error *err)
{
	struct ttpu_jstream js;
	int fd, ret;

	ttpu_error_clear(err);
	if (!in || !path)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_inputs_load_file: NULL argument");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ttpu_error_sys(err, errno, "cannot open %s", path);
	ret = ttpu_js_init_fd(&js, fd, path, TTPU_INPUT_ERROR, err);
	if (!ret)
		ret = inputs_read_stream(in, &js);
	close(fd);
	return ret;
}
