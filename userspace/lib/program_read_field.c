// SPDX-License-Identifier: MIT
/*
 * program_read_field.c - one field of a program object, as every reader
 * of one (program_read.c, program_read_buffers.c, program_read_commands.c)
 * reads it: a JSON path formatted only for a message, an integer with a
 * lower bound, a buffer name interned (see program_read_field.h)
 */
#include <json-c/json.h>

#include "error.h"
#include "program_read_field.h"

const char *ttpu_jpath_str(const struct ttpu_jpath *p, char *buf, size_t n)
{
	if (p->s)
		return p->s;
	ttpu_js_path(buf, n, "%s[%zu]%s%s%s%s", p->base, p->idx,
		     p->k1 ? "." : "", p->k1 ? p->k1 : "",
		     p->k2 ? "." : "", p->k2 ? p->k2 : "");
	return buf;
}

int ttpu_read_uint(struct ttpu_jstream *js, const struct ttpu_jpath *p,
		   struct json_object *obj, int64_t min, int64_t *v)
{
	char path[TTPU_PATH_MAX];
	int r = ttpu_js_get_int(obj, v);

	if (!r && *v >= min)
		return 0;
	ttpu_jpath_str(p, path, sizeof(path));
	if (r == 1)
		return ttpu_js_error(js, ttpu_jpath_str(p, path, sizeof(path)),
				     "expected an integer >= %lld, got %s",
				     (long long)min, ttpu_js_describe(obj));
	if (r == 2)
		return ttpu_js_error(js, ttpu_jpath_str(p, path, sizeof(path)),
				     "%s is beyond the int64 range",
				     json_object_get_string(obj));
	return ttpu_js_error(js, ttpu_jpath_str(p, path, sizeof(path)),
			     "expected an integer >= %lld, got %lld",
			     (long long)min, (long long)*v);
}

int ttpu_read_name(struct ttpu_loader *L, const struct ttpu_jpath *p,
		   struct json_object *obj, uint32_t *id)
{
	char path[TTPU_PATH_MAX];

	if (!json_object_is_type(obj, json_type_string))
		return ttpu_js_error(L->js, ttpu_jpath_str(p, path, sizeof(path)),
				     "expected a buffer name (a string), got %s",
				     ttpu_js_describe(obj));
	return ttpu_intern_name(L, p, json_object_get_string(obj),
				(size_t)json_object_get_string_len(obj), id);
}

int ttpu_intern_name(struct ttpu_loader *L, const struct ttpu_jpath *p,
		     const char *s, size_t len, uint32_t *id)
{
	char path[TTPU_PATH_MAX];
	bool created;

	if (!len)
		return ttpu_js_error(L->js, ttpu_jpath_str(p, path, sizeof(path)),
				     "buffer names must not be empty");
	*id = ttpu_names_intern(L->intern, s, len, &created);
	if (*id == TTPU_NO_NAME)
		return ttpu_error_nomem(L->err, "interning a buffer name");
	return 0;
}
