// SPDX-License-Identifier: MIT
/*
 * program_read.c - stream a ttpu program object into a loader
 *
 * The document is never held as a json-c tree: the top-level object, the
 * "buffers" object, each buffer's "data" and the "commands" array are
 * walked one key or element at a time, and json-c parses one small
 * element at a time (a command, a row of data), which is converted at once
 * and freed. This file reads the top-level object and its small values
 * (header, name lists, estimate); the buffers and the commands have their
 * own readers.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "error.h"
#include "program_read.h"
#include "program_read_buffers.h"
#include "program_read_commands.h"
#include "program_read_field.h"

enum top_key {
	K_FORMAT, K_VERSION, K_TILE, K_NAME, K_BUFFERS, K_INPUTS, K_OUTPUTS,
	K_COMMANDS, K_ESTIMATE, K_COUNT
};

static const char *const top_keys[K_COUNT] = {
	"format", "version", "tile", "name", "buffers", "inputs", "outputs",
	"commands", "estimate",
};

static int read_name_list(struct ttpu_loader *L, const char *what,
			  uint32_t **out, size_t *n, ttpu_js_pos *offset)
{
	struct json_object *obj;
	size_t i, len;
	int ret = ttpu_js_value(L->js, what, &obj);

	if (ret)
		return ret;
	*offset = ttpu_js_mark_elem(L->js);
	if (!json_object_is_type(obj, json_type_array)) {
		ret = ttpu_js_error(L->js, what, "expected a list of buffer names, got %s",
				    ttpu_js_describe(obj));
		goto out;
	}
	len = json_object_array_length(obj);
	*out = malloc((len ? len : 1) * sizeof(**out));
	if (!*out) {
		ret = ttpu_error_nomem(L->err, "reading a name list");
		goto out;
	}
	for (i = 0; i < len && !ret; i++) {
		char path[48];

		ttpu_js_path(path, sizeof(path), "%s[%zu]", what, i);
		ret = ttpu_read_name(L, TTPU_JP(path), json_object_array_get_idx(obj, i), &(*out)[i]);
	}
	*n = len;
out:
	json_object_put(obj);
	return ret;
}

static const char *const est_keys[] = {
	"passes", "passes_skipped", "cycles_per_pass", "rtl_cycles", "host_ops",
	"useful_macs", "capacity_macs", "utilization",
};
#define N_EST_KEYS ((int)(sizeof(est_keys) / sizeof(est_keys[0])))

static int read_estimate(struct ttpu_loader *L)
{
	static const char *const host_keys[TTPU_OP_COUNT] = {
		[TTPU_OP_ALLOC] = "alloc", [TTPU_OP_ACC] = "acc",
		[TTPU_OP_EPILOGUE] = "epilogue", [TTPU_OP_HOST_ADD] = "host_add",
		[TTPU_OP_HOST_RELU] = "host_relu",
	};
	struct ttpu_estimate *e = &L->estimate;
	uint64_t *fields[] = {
		&e->passes, &e->passes_skipped, &e->cycles_per_pass, &e->rtl_cycles,
		NULL, &e->useful_macs, &e->capacity_macs, NULL,
	};
	struct json_object *obj, *v;
	char path[64];
	int64_t n;
	int ret = ttpu_js_value(L->js, "estimate", &obj), i;

	if (ret)
		return ret;
	L->estimate_offset = ttpu_js_mark_elem(L->js);
	if (!json_object_is_type(obj, json_type_object)) {
		ret = ttpu_js_error(L->js, "estimate", "expected an object, got %s",
				    ttpu_js_describe(obj));
		goto out;
	}
	json_object_object_foreach(obj, key, val) {
		(void)val;
		if (ttpu_js_key_index(key, est_keys, N_EST_KEYS) < 0) {
			ret = ttpu_js_unknown_key(L->js, "estimate", key, est_keys, N_EST_KEYS);
			goto out;
		}
	}
	for (i = 0; i < N_EST_KEYS && !ret; i++) {
		ttpu_js_path(path, sizeof(path), "estimate.%s", est_keys[i]);
		if (!json_object_object_get_ex(obj, est_keys[i], &v)) {
			ret = ttpu_js_error(L->js, "estimate", "missing key \"%s\"", est_keys[i]);
		} else if (fields[i]) {
			ret = ttpu_read_uint(L->js, TTPU_JP(path), v, 0, &n);
			*fields[i] = (uint64_t)n;
		} else if (!strcmp(est_keys[i], "utilization")) {
			if (!json_object_is_type(v, json_type_double) &&
			    !json_object_is_type(v, json_type_int))
				ret = ttpu_js_error(L->js, path, "expected a number, got %s",
						    ttpu_js_describe(v));
			e->utilization = json_object_get_double(v);
		} else if (!json_object_is_type(v, json_type_object)) {
			ret = ttpu_js_error(L->js, path, "expected an object, got %s",
					    ttpu_js_describe(v));
		} else {
			json_object_object_foreach(v, hkey, hval) {
				int k = ttpu_js_key_index(hkey, host_keys, TTPU_OP_COUNT);

				if (k < 0) {
					ret = ttpu_js_unknown_key(L->js, path, hkey, host_keys,
							  TTPU_OP_COUNT);
					break;
				}
				char hpath[64];

				ttpu_js_path(hpath, sizeof(hpath), "estimate.host_ops.%s", hkey);
				ret = ttpu_read_uint(L->js, TTPU_JP(hpath), hval, 0, &n);
				if (ret)
					break;
				e->host_ops.count[k] = (uint64_t)n;
			}
		}
	}
	L->has_estimate = !ret;
out:
	json_object_put(obj);
	return ret;
}

/* "format", "version", "tile", "name": a fixed value or any string. */
static int read_header(struct ttpu_loader *L, int key)
{
	struct json_object *obj;
	const char *what = top_keys[key];
	int ret = ttpu_js_value(L->js, what, &obj);
	int64_t n;

	if (ret)
		return ret;
	switch (key) {
	case K_FORMAT:
		if (!json_object_is_type(obj, json_type_string) ||
		    strcmp(json_object_get_string(obj), "ttpu") ||
		    json_object_get_string_len(obj) != 4)
			ret = ttpu_js_error(L->js, what, "must be \"ttpu\" (the only supported format), got %s",
					    json_object_is_type(obj, json_type_string) ?
					    json_object_get_string(obj) : ttpu_js_describe(obj));
		break;
	case K_VERSION:
	case K_TILE: {
		int64_t want = key == K_VERSION ? 1 : TTPU_TILE;

		if (ttpu_js_get_int(obj, &n) || n != want)
			ret = ttpu_js_error(L->js, what, "must be %lld (the only supported %s), got %s",
					    (long long)want, what,
					    json_object_is_type(obj, json_type_int) ?
					    json_object_get_string(obj) : ttpu_js_describe(obj));
		break;
	}
	case K_NAME:
		if (!json_object_is_type(obj, json_type_string)) {
			ret = ttpu_js_error(L->js, what, "expected a string, got %s",
					    ttpu_js_describe(obj));
			break;
		}
		free(L->prog->name);
		L->prog->name = strdup(json_object_get_string(obj));
		if (!L->prog->name)
			ret = ttpu_error_nomem(L->err, "reading the name");
		break;
	}
	json_object_put(obj);
	return ret;
}

int ttpu_loader_read(struct ttpu_loader *L, const char *path)
{
	bool first = true;
	int ret, key;

	ret = ttpu_js_object_begin(L->js, path);
	while (!ret && (ret = ttpu_js_object_next(L->js, path, &first)) > 0) {
		key = ttpu_js_key_index(L->js->key, top_keys, K_COUNT);
		if (key < 0) {
			ret = ttpu_js_unknown_key(L->js, path, L->js->key, top_keys, K_COUNT);
			break;
		}
		if (L->seen & (1u << key)) {
			ret = ttpu_js_error(L->js, path, "duplicate key \"%s\"", top_keys[key]);
			break;
		}
		L->seen |= 1u << key;
		switch (key) {
		case K_BUFFERS: ret = ttpu_loader_read_buffers(L); break;
		case K_COMMANDS: ret = ttpu_loader_read_commands(L); break;
		case K_INPUTS:
			ret = read_name_list(L, "inputs", &L->inputs, &L->ninputs,
					     &L->inputs_offset);
			break;
		case K_OUTPUTS:
			ret = read_name_list(L, "outputs", &L->outputs, &L->noutputs,
					     &L->outputs_offset);
			break;
		case K_ESTIMATE: ret = read_estimate(L); break;
		default: ret = read_header(L, key); break;
		}
	}
	if (ret < 0)
		return ret;
	for (key = 0; key < K_COUNT; key++)
		if (key != K_ESTIMATE && !(L->seen & (1u << key)))
			return ttpu_js_error_at(L->js, L->js->pos, path,
						"missing key \"%s\"", top_keys[key]);
	return 0;
}
