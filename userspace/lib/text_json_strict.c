// SPDX-License-Identifier: MIT
/*
 * text_json_strict.c - what json-c accepts and a ttpu text may not hold
 * (see text_json_strict.h)
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "text_json_strict.h"
#include "text_utf8.h"

size_t ttpu_js_count_members(struct json_object *obj)
{
	size_t n = 0, i, len;

	if (json_object_is_type(obj, json_type_object)) {
		json_object_object_foreach(obj, key, val) {
			(void)key;
			n += 1 + ttpu_js_count_members(val);
		}
	} else if (json_object_is_type(obj, json_type_array)) {
		len = json_object_array_length(obj);
		for (i = 0; i < len; i++)
			n += ttpu_js_count_members(json_object_array_get_idx(obj, i));
	}
	return n;
}

/* The 4 hex digits of a \u escape json-c has already accepted. */
static unsigned int hex4(const char *s)
{
	unsigned int v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];

		v = v * 16 + (unsigned int)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

int ttpu_js_scan_value(const char *s, size_t start, size_t end, size_t *colons,
		       size_t *bad)
{
	const unsigned char *u = (const unsigned char *)s;
	bool in_str = false;
	size_t n = 0, i, len;
	unsigned int cp;

	for (i = start; i < end; i++) {
		if (!in_str) {
			if (s[i] == '"')
				in_str = true;
			else if (s[i] == ':')
				n++;
			continue;
		}
		if (u[i] >= 0x80) {
			len = ttpu_utf8_char_len(u + i, end - i);
			if (!len) {
				*bad = i;
				return 1;
			}
			i += len - 1;
		} else if (s[i] == '"') {
			in_str = false;
		} else if (s[i] == '\\') {
			if (s[++i] != 'u')
				continue;
			cp = hex4(s + i + 1);
			if (cp >= 0xdc00 && cp <= 0xdfff) {
				*bad = i - 1;
				return 2;
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (end - i < 11 || s[i + 5] != '\\' || s[i + 6] != 'u' ||
				    hex4(s + i + 7) < 0xdc00 || hex4(s + i + 7) > 0xdfff) {
					*bad = i - 1;
					return 2;
				}
				i += 6;		/* the low half, checked */
			}
			i += 4;
		}
	}
	*colons = n;
	return 0;
}

void ttpu_js_find_duplicate_key(const char *s, size_t start, size_t end,
				char *out, size_t size)
{
	struct key_ref { size_t at, len; int depth; } keys[512];
	bool in_obj[TTPU_JSON_MAX_DEPTH + 2] = { false };
	bool want_key = false;
	size_t nkeys = 0, i, j, k0;
	int depth = 0;

	snprintf(out, size, "?");
	for (i = start; i < end; i++) {
		char c = s[i];

		if (c == '"') {
			k0 = ++i;
			while (i < end && s[i] != '"')
				i += s[i] == '\\' ? 2 : 1;
			if (!want_key || depth <= 0 || !in_obj[depth])
				continue;
			want_key = false;
			for (j = 0; j < nkeys; j++) {
				if (keys[j].depth == depth && keys[j].len == i - k0 &&
				    !memcmp(s + keys[j].at, s + k0, i - k0)) {
					snprintf(out, size, "%.*s", (int)(i - k0), s + k0);
					return;
				}
			}
			if (nkeys < sizeof(keys) / sizeof(keys[0]))
				keys[nkeys++] = (struct key_ref){ k0, i - k0, depth };
		} else if (c == '{' || c == '[') {
			if (depth + 1 >= (int)(sizeof(in_obj) / sizeof(in_obj[0])))
				return;
			in_obj[++depth] = c == '{';
			want_key = c == '{';
		} else if (c == '}' || c == ']') {
			while (nkeys && keys[nkeys - 1].depth == depth)
				nkeys--;
			depth--;
			want_key = false;
		} else if (c == ',') {
			want_key = depth > 0 && in_obj[depth];
		}
	}
}
