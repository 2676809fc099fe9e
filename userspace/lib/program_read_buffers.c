// SPDX-License-Identifier: MIT
/*
 * program_read_buffers.c - stream a program's "buffers" object
 *
 * Each buffer is checked as soon as its object closes (required keys, the
 * loader's cap on elements before anything is allocated for them, its data
 * against its shape and dtype); names used before or without a definition
 * are program_validate.c's to find.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "error.h"
#include "program_read_buffers.h"
#include "program_read_field.h"
#include "util.h"

enum buf_key { B_DTYPE, B_SHAPE, B_KIND, B_DATA, B_COUNT };
static const char *const buf_keys[B_COUNT] = { "dtype", "shape", "kind", "data" };
static const char *const kind_names[3] = { "input", "const", "temp" };

static int read_shape(struct ttpu_loader *L, const char *path,
		      struct ttpu_pending_buffer *b)
{
	struct json_object *obj;
	size_t i, n;
	int64_t d;
	int ret = ttpu_js_value(L->js, path, &obj);

	if (ret)
		return ret;
	if (!json_object_is_type(obj, json_type_array)) {
		ret = ttpu_js_error(L->js, path, "expected [n] or [rows, cols], got %s",
				    ttpu_js_describe(obj));
		goto out;
	}
	n = json_object_array_length(obj);
	if (n != 1 && n != 2) {
		ret = ttpu_js_error(L->js, path, "rank must be 1 or 2, got %zu", n);
		goto out;
	}
	b->rank = (uint8_t)n;
	b->dims[0] = 1;
	for (i = 0; i < n; i++) {
		char ipath[TTPU_PATH_MAX];

		ttpu_js_path(ipath, sizeof(ipath), "%s[%zu]", path, i);
		ret = ttpu_read_uint(L->js, TTPU_JP(ipath), json_object_array_get_idx(obj, i), 1, &d);
		if (ret)
			goto out;
		b->dims[n == 1 ? 1 : i] = (uint64_t)d;
	}
out:
	json_object_put(obj);
	return ret;
}

static int read_enum(struct ttpu_loader *L, const char *path,
		     const char *const *names, int n, const char *what,
		     uint8_t *out)
{
	struct json_object *obj;
	int ret = ttpu_js_value(L->js, path, &obj), i;

	if (ret)
		return ret;
	i = json_object_is_type(obj, json_type_string) ?
		ttpu_js_key_index(json_object_get_string(obj), names, n) : -1;
	if (i < 0)
		ret = ttpu_js_error(L->js, path, "expected %s, got %s%s%s", what,
				    json_object_is_type(obj, json_type_string) ? "\"" : "",
				    json_object_is_type(obj, json_type_string) ?
				    json_object_get_string(obj) : ttpu_js_describe(obj),
				    json_object_is_type(obj, json_type_string) ? "\"" : "");
	else
		*out = (uint8_t)i;
	json_object_put(obj);
	return ret;
}

static const char *dtype_name(uint8_t dtype)
{
	return dtype == TTPU_DTYPE_I8 ? "i8" : "i32";
}

/* The buffer just closed: required keys, its size, data against shape. */
static int check_buffer(struct ttpu_loader *L, const char *base,
			struct ttpu_pending_buffer *b)
{
	static const char *const dtypes[2] = { "i8", "i32" };
	char path[TTPU_PATH_MAX];
	uint64_t count;
	int i;

	(void)dtypes;
	for (i = 0; i < B_DATA; i++) {
		bool has = i == B_DTYPE ? b->has_dtype : i == B_SHAPE ? b->has_shape : b->has_kind;

		if (!has)
			return ttpu_js_error_pos(L->js, b->offset, base, "missing key \"%s\"",
						buf_keys[i]);
	}
	ttpu_js_path(path, sizeof(path), "%s.shape", base);
	/*
	 * Cap the elements of all buffers before anything is allocated for
	 * them: a shape is only a few bytes of text.
	 */
	if (b->dims[0] > TTPU_MAX_TOTAL_ELEMENTS || b->dims[1] > TTPU_MAX_TOTAL_ELEMENTS ||
	    (count = b->dims[0] * b->dims[1]) > TTPU_MAX_TOTAL_ELEMENTS - L->total_elements)
	{
		char shape[48];

		if (b->rank == 1)
			ttpu_js_path(shape, sizeof(shape), "[%llu]",
				     (unsigned long long)b->dims[1]);
		else
			ttpu_js_path(shape, sizeof(shape), "[%llu, %llu]",
				     (unsigned long long)b->dims[0],
				     (unsigned long long)b->dims[1]);
		return ttpu_js_error_pos(L->js, b->offset, path,
					"shape %s is too large: all buffers together may hold at most %llu elements",
					shape, (unsigned long long)TTPU_MAX_TOTAL_ELEMENTS);
	}
	L->total_elements += count;
	ttpu_js_path(path, sizeof(path), "%s.data", base);
	if (b->kind == TTPU_KIND_CONST && !b->has_data)
		return ttpu_js_error_pos(L->js, b->offset, base,
					"a const buffer needs \"data\"");
	if (b->kind != TTPU_KIND_CONST && b->has_data)
		return ttpu_js_error_pos(L->js, b->data.offset, path,
					"only const buffers carry data, this one is %s",
					kind_names[b->kind]);
	if (!b->has_data)
		return 0;
	if (ttpu_js_int_list_shape(L->js, path, &b->data, b->rank, b->dims[0], b->dims[1]) ||
	    ttpu_js_int_list_range(L->js, path, &b->data, b->rank, b->dims[1],
				   ttpu_dtype_min(b->dtype), ttpu_dtype_max(b->dtype),
				   dtype_name(b->dtype)))
		return -TTPU_SCHEMA_ERROR;
	return 0;
}

static int read_buffer(struct ttpu_loader *L, const char *name, size_t len)
{
	struct ttpu_pending_buffer *b;
	char base[TTPU_PATH_MAX], path[TTPU_PATH_MAX];
	bool first = true, created;
	uint32_t id;
	size_t k;
	int ret, key;

	ttpu_js_path(base, sizeof(base), "buffers.%s", name);
	if (!len)
		return ttpu_js_error(L->js, "buffers", "buffer names must not be empty");
	if (memchr(name, '\0', len))
		return ttpu_js_error(L->js, "buffers", "a buffer name contains a NUL character");
	id = ttpu_names_intern(L->intern, name, len, &created);
	if (id == TTPU_NO_NAME)
		return ttpu_error_nomem(L->err, "interning a buffer name");
	if (id >= L->buf_of_name_cap) {
		size_t old = L->buf_of_name_cap;

		if (ttpu_grow(&L->buf_of_name, &L->buf_of_name_cap, (size_t)id + 1,
			 sizeof(*L->buf_of_name)))
			return ttpu_error_nomem(L->err, "reading buffers");
		for (k = old; k < L->buf_of_name_cap; k++)
			L->buf_of_name[k] = UINT32_MAX;
	}
	if (L->buf_of_name[id] != UINT32_MAX) {
		ret = ttpu_js_error(L->js, base, "buffer \"%s\" is defined twice", name);
		ttpu_error_at_buffer(L->err, name);
		return ret;
	}
	if (ttpu_grow(&L->bufs, &L->bufs_cap, L->nbufs + 1, sizeof(*L->bufs)))
		return ttpu_error_nomem(L->err, "reading buffers");
	b = &L->bufs[L->nbufs];
	memset(b, 0, sizeof(*b));
	b->name = id;
	L->buf_of_name[id] = (uint32_t)L->nbufs++;

	ret = ttpu_js_object_begin(L->js, base);
	b->offset = ttpu_js_mark_elem(L->js);
	while (!ret && (ret = ttpu_js_object_next(L->js, base, &first)) > 0) {
		key = ttpu_js_key_index(L->js->key, buf_keys, B_COUNT);
		if (key < 0) {
			ret = ttpu_js_unknown_key(L->js, base, L->js->key, buf_keys, B_COUNT);
			break;
		}
		ttpu_js_path(path, sizeof(path), "%s.%s", base, buf_keys[key]);
		if ((key == B_DTYPE && b->has_dtype) || (key == B_SHAPE && b->has_shape) ||
		    (key == B_KIND && b->has_kind) || (key == B_DATA && b->has_data)) {
			ret = ttpu_js_error(L->js, base, "duplicate key \"%s\"", buf_keys[key]);
			break;
		}
		switch (key) {
		case B_DTYPE: {
			static const char *const dtypes[2] = { "i8", "i32" };

			ret = read_enum(L, path, dtypes, 2, "\"i8\" or \"i32\"", &b->dtype);
			b->has_dtype = true;
			break;
		}
		case B_SHAPE:
			ret = read_shape(L, path, b);
			b->has_shape = true;
			break;
		case B_KIND:
			ret = read_enum(L, path, kind_names, 3,
					"\"input\", \"const\" or \"temp\"", &b->kind);
			b->has_kind = true;
			break;
		case B_DATA:
			/* The dtype and shape, when already known, bound it early. */
			ret = ttpu_js_int_list_shaped(L->js, path,
						      b->has_dtype ? ttpu_dtype_min(b->dtype) : INT32_MIN,
						      b->has_dtype ? ttpu_dtype_max(b->dtype) : INT32_MAX,
						      b->has_dtype ? dtype_name(b->dtype) : "i32",
						      b->has_shape ? b->rank : 0,
						      b->dims[0], b->dims[1], &b->data);
			b->has_data = !ret;
			break;
		}
	}
	if (!ret)
		ret = check_buffer(L, base, b);
	if (ret < 0 && L->err && !L->err->buffer[0] && L->err->kind == TTPU_SCHEMA_ERROR)
		ttpu_error_at_buffer(L->err, name);
	return ret < 0 ? ret : 0;
}

int ttpu_loader_read_buffers(struct ttpu_loader *L)
{
	bool first = true;
	char *name;
	int ret;

	ret = ttpu_js_object_begin(L->js, "buffers");
	while (!ret && (ret = ttpu_js_object_next(L->js, "buffers", &first)) > 0) {
		/* js->key is reused by the buffer's own keys. */
		name = malloc(L->js->key_len + 1);
		if (!name)
			return ttpu_error_nomem(L->err, "reading buffers");
		memcpy(name, L->js->key, L->js->key_len + 1);
		ret = read_buffer(L, name, L->js->key_len);
		free(name);
	}
	return ret < 0 ? ret : 0;
}
