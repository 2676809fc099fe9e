// SPDX-License-Identifier: MIT
/*
 * text_json_stream.c - walk a JSON text one element at a time
 * (see text_json_stream.h)
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "error.h"
#include "text_json_stream.h"
#include "text_json_strict.h"
#include "text_utf8.h"
#include "util.h"

int ttpu_js_init(struct ttpu_jstream *js, const char *text, size_t len,
		 enum ttpu_error_kind kind, struct ttpu_error *err)
{
	locale_t c_locale;

	memset(js, 0, sizeof(*js));
	js->text = text;
	js->len = len;
	js->kind = kind;
	js->positions = true;
	js->err = err;
	js->fd = -1;
	js->line = js->at_line = 1;
	js->column = js->at_column = 1;
	js->tok = json_tokener_new_ex(TTPU_JSON_MAX_DEPTH);
	if (!js->tok)
		return ttpu_error_nomem(err, "creating a JSON tokener");
	/* Never allocates: "C" with no base is glibc's static C locale. */
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (c_locale)
		js->saved_locale = uselocale(c_locale);
	/*
	 * Strict: no single quotes, leading zeros or trailing commas. Trailing
	 * characters are expected: each element is followed by the rest of
	 * the document.
	 */
	json_tokener_set_flags(js->tok, JSON_TOKENER_STRICT |
				       JSON_TOKENER_ALLOW_TRAILING_CHARS);
	return 0;
}

/* The first window; it doubles only for an element larger than it. */
#define JS_CHUNK (256 * 1024)

int ttpu_js_init_fd(struct ttpu_jstream *js, int fd, const char *what,
		    enum ttpu_error_kind kind, struct ttpu_error *err)
{
	struct stat st;
	int ret = ttpu_js_init(js, NULL, 0, kind, err);

	if (ret)
		return ret;
	js->fd = fd;
	js->what = what;
	js->limit = ttpu_text_limit();
	/* A file known to be too long is refused before a byte is read. */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_size > js->limit)
		ret = ttpu_error_set(err, TTPU_USAGE_ERROR,
				     "%s: %lld bytes is larger than the %zu-byte input limit",
				     what, (long long)st.st_size, js->limit);
	else if (!(js->buf = malloc(JS_CHUNK)))
		ret = ttpu_error_nomem(err, "reading a document");
	if (ret) {
		ttpu_js_fini(js);
		return ret;
	}
	js->cap = JS_CHUNK;
	js->text = js->buf;
	return 0;
}

void ttpu_js_fini(struct ttpu_jstream *js)
{
	if (js->saved_locale) {
		locale_t c_locale = uselocale(js->saved_locale);

		freelocale(c_locale);
		js->saved_locale = (locale_t)0;
	}
	if (js->tok)
		json_tokener_free(js->tok);
	free(js->key);
	free(js->buf);
	js->tok = NULL;
	js->key = NULL;
	js->buf = NULL;
}

ttpu_js_pos ttpu_js_mark(struct ttpu_jstream *js, size_t offset)
{
	size_t i;

	if (offset > js->len)
		offset = js->len;
	/* Marks mostly move forward: go on from the last one. */
	if (offset < js->at) {
		js->at = 0;
		js->at_line = js->line;
		js->at_column = js->column;
	}
	/*
	 * A line at a time (memchr): a served request is one long line, and a
	 * list's mark walks over every input before it.
	 */
	for (i = js->at; i < offset;) {
		const char *nl = memchr(js->text + i, '\n', offset - i);

		if (!nl) {
			js->at_column += (uint32_t)(offset - i);
			break;
		}
		js->at_line++;
		js->at_column = 1;
		i = (size_t)(nl - js->text) + 1;
	}
	js->at = offset;
	return (uint64_t)js->at_line << 32 | js->at_column;
}

void ttpu_js_locate(struct ttpu_jstream *js, ttpu_js_pos pos)
{
	if (!js->positions || !js->err || !pos)
		return;
	js->err->line = (long)(pos >> 32);
	js->err->column = (long)(pos & UINT32_MAX);
}

/*
 * Read more of the document into the window, first dropping what lies
 * before both the cursor and the last element. 1: more text; 0: the end
 * (or all of it was in memory); < 0: an error.
 */
int ttpu_js_more(struct ttpu_jstream *js)
{
	size_t keep = js->pos;
	ssize_t r;

	if (js->fd < 0 || js->eof)
		return 0;
	/*
	 * Only the cursor on is kept (the last element may lie far behind it,
	 * past white space): the element's place is kept as a mark instead.
	 */
	if (js->elem_start < js->pos) {
		js->elem_mark = ttpu_js_mark(js, js->elem_start);
		js->elem_start = js->pos;
	}
	if (keep) {
		ttpu_js_pos at = ttpu_js_mark(js, keep);

		js->line = (uint32_t)(at >> 32);
		js->column = (uint32_t)at;
		memmove(js->buf, js->buf + keep, js->len - keep);
		js->len -= keep;
		js->pos -= keep;
		js->elem_start -= keep;
		js->base += keep;
		js->at = 0;
	}
	if (js->len == js->cap) {
		char *nb = realloc(js->buf, js->cap * 2);

		if (!nb)
			return js->read_error = ttpu_error_nomem(js->err, "reading a document");
		js->buf = nb;
		js->cap *= 2;
		js->text = nb;
	}
	do {
		r = read(js->fd, js->buf + js->len, js->cap - js->len);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return js->read_error = ttpu_error_sys(js->err, errno, "cannot read %s",
						       js->what);
	if (!r) {
		js->eof = true;
		return 0;
	}
	js->len += (size_t)r;
	if (js->base + js->len > js->limit)
		return js->read_error = ttpu_error_set(js->err, TTPU_USAGE_ERROR,
						       "%s: larger than the %zu-byte input limit",
						       js->what, js->limit);
	return 1;
}

static int js_verror(struct ttpu_jstream *js, ttpu_js_pos at, const char *path,
		     const char *fmt, va_list ap)
{
	char msg[TTPU_ERROR_MESSAGE_MAX];
	int ret;

	/* The text could not be read on: that, not what it led to, is the error. */
	if (js->read_error)
		return js->read_error;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (path && *path)
		ret = ttpu_error_set(js->err, js->kind, "%s: %s", path, msg);
	else
		ret = ttpu_error_set(js->err, js->kind, "%s", msg);
	ttpu_error_at_field(js->err, path);
	ttpu_js_locate(js, at);
	return ret;
}

int ttpu_js_error_at(struct ttpu_jstream *js, size_t offset, const char *path,
		     const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = js_verror(js, ttpu_js_mark(js, offset), path, fmt, ap);
	va_end(ap);
	return ret;
}

int ttpu_js_error_pos(struct ttpu_jstream *js, ttpu_js_pos pos, const char *path,
		      const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = js_verror(js, pos, path, fmt, ap);
	va_end(ap);
	return ret;
}

int ttpu_js_error(struct ttpu_jstream *js, const char *path, const char *fmt,
		  ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = js_verror(js, ttpu_js_mark_elem(js), path, fmt, ap);
	va_end(ap);
	return ret;
}

void ttpu_js_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	ttpu_utf8_fix(buf, size);
}

/* 0, or < 0 when reading more of the text failed. */
static int skip_ws(struct ttpu_jstream *js)
{
	int ret;

	for (;;) {
		while (js->pos < js->len) {
			char c = js->text[js->pos];

			if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
				return 0;
			js->pos++;
		}
		ret = ttpu_js_more(js);
		if (ret <= 0)
			return ret;
	}
}

int ttpu_js_peek(struct ttpu_jstream *js)
{
	/* A read error is kept in js->read_error: the caller's next step fails. */
	skip_ws(js);
	return js->pos < js->len ? (unsigned char)js->text[js->pos] : -1;
}

const char *ttpu_js_describe_byte(int c)
{
	switch (c) {
	case -1: return "the end of the text";
	case '{': return "an object";
	case '[': return "an array";
	case '"': return "a string";
	case 't': case 'f': return "a boolean";
	case 'n': return "null";
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return "a number";
		return "an unexpected character";
	}
}

int ttpu_js_key_index(const char *key, const char *const *keys, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (keys[i] && !strcmp(key, keys[i]))
			return i;
	return -1;
}

int ttpu_js_unknown_key(struct ttpu_jstream *js, const char *path,
			const char *key, const char *const *keys, int n)
{
	char allowed[200];
	size_t len = 0;
	int i;

	allowed[0] = '\0';
	for (i = 0; i < n && len < sizeof(allowed); i++)
		if (keys[i])
			len += (size_t)snprintf(allowed + len, sizeof(allowed) - len,
						"%s%s", len ? ", " : "", keys[i]);
	return ttpu_js_error(js, path, "unknown key \"%s\" (allowed: %s)", key,
			     allowed);
}

const char *ttpu_js_describe(const struct json_object *obj)
{
	switch (json_object_get_type(obj)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a number with a fraction or exponent";
	case json_type_int: return "an integer";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	}
	return "an unknown value";
}

int ttpu_js_get_int(const struct json_object *obj, int64_t *v)
{
	if (!json_object_is_type(obj, json_type_int))
		return 1;
	*v = json_object_get_int64(obj);
	/* json-c saturates: a value above INT64_MAX survives only as uint64. */
	if (*v == INT64_MAX && json_object_get_uint64(obj) > (uint64_t)INT64_MAX)
		return 2;
	return 0;
}

int ttpu_js_value_raw(struct ttpu_jstream *js, const char *path,
		      struct json_object **out, size_t *colons)
{
	enum json_tokener_error jerr;
	struct json_object *obj;
	size_t avail, end, bad;
	int ret;

	*out = NULL;
	ret = skip_ws(js);
	if (ret < 0)
		return ret;
	js->elem_start = js->pos;
	js->elem_mark = 0;
	if (js->pos >= js->len)
		return ttpu_js_error(js, path, "truncated JSON: a value is missing at the end of the text");
	for (;;) {
		avail = js->len - js->pos;
		if (avail > INT_MAX)
			avail = INT_MAX;
		json_tokener_reset(js->tok);
		obj = json_tokener_parse_ex(js->tok, js->text + js->pos, (int)avail);
		jerr = json_tokener_get_error(js->tok);
		end = js->pos + json_tokener_get_parse_end(js->tok);
		if (jerr != json_tokener_continue)
			break;
		/* The value goes on past the window: read on, parse it again whole. */
		json_object_put(obj);
		obj = NULL;
		ret = ttpu_js_more(js);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
	}
	if (jerr != json_tokener_success) {
		json_object_put(obj);
		if (jerr == json_tokener_continue)
			return ttpu_js_error_at(js, end, path, "truncated JSON: the text ends inside this value");
		if (jerr == json_tokener_error_depth)
			return ttpu_js_error_at(js, end, path, "JSON nested deeper than %d levels",
						TTPU_JSON_MAX_DEPTH);
		return ttpu_js_error_at(js, end, path, "malformed JSON: %s",
					json_tokener_error_desc(jerr));
	}
	switch (ttpu_js_scan_value(js->text, js->pos, end, colons, &bad)) {
	case 1:
		json_object_put(obj);
		return ttpu_js_error_at(js, bad, path,
					"a string is not valid UTF-8 (byte 0x%02x)",
					(unsigned char)js->text[bad]);
	case 2:
		json_object_put(obj);
		return ttpu_js_error_at(js, bad, path,
					"a string holds a lone UTF-16 surrogate (\\%.5s)",
					js->text + bad + 1);
	}
	js->pos = end;
	*out = obj;
	return 0;
}

int ttpu_js_duplicate(struct ttpu_jstream *js, const char *path)
{
	char key[64];

	ttpu_js_find_duplicate_key(js->text, js->elem_start, js->pos, key, sizeof(key));
	return ttpu_js_error(js, path, "duplicate key \"%s\"", key);
}

int ttpu_js_value(struct ttpu_jstream *js, const char *path,
		  struct json_object **out)
{
	size_t colons;
	int ret = ttpu_js_value_raw(js, path, out, &colons);

	/*
	 * json-c keeps the last of duplicate keys silently; a duplicate key
	 * is as much a mistake as an unknown one, so count them.
	 */
	if (!ret && colons && colons != ttpu_js_count_members(*out)) {
		json_object_put(*out);
		*out = NULL;
		return ttpu_js_duplicate(js, path);
	}
	return ret;
}

int ttpu_js_skip(struct ttpu_jstream *js, const char *path)
{
	struct json_object *obj;
	int ret = ttpu_js_value(js, path, &obj);

	json_object_put(obj);
	return ret;
}

/* The longest word shown in a message; longer ones end in "...". */
#define WORD_SHOWN 24

static bool is_word_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * The cursor is on a letter where @what was expected. Its first byte
 * alone would call "nul" or "n" null and "tru" a boolean: only the whole
 * word tells a literal that is merely the wrong value from one that is no
 * JSON at all. At most WORD_SHOWN + 1 bytes are looked at, so a hostile
 * word costs nothing.
 */
static int expect_open_word(struct ttpu_jstream *js, const char *path, const char *what)
{
	static const char *const literals[] = { "null", "true", "false" };
	size_t n = 0;

	for (;;) {
		while (n <= WORD_SHOWN && js->pos + n < js->len && is_word_byte(js->text[js->pos + n]))
			n++;
		if (n > WORD_SHOWN || js->pos + n < js->len || ttpu_js_more(js) <= 0)
			break;
	}
	for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); i++)
		if (n == strlen(literals[i]) && !memcmp(js->text + js->pos, literals[i], n))
			return ttpu_js_error(js, path, "expected %s, got %s", what,
					     ttpu_js_describe_byte(literals[i][0]));
	return ttpu_js_error(js, path, "malformed JSON: expected %s, got \"%.*s%s\"", what,
			     (int)(n > WORD_SHOWN ? WORD_SHOWN : n), js->text + js->pos,
			     n > WORD_SHOWN ? "..." : "");
}

static int expect_open(struct ttpu_jstream *js, const char *path, char open,
		       const char *what)
{
	int c = ttpu_js_peek(js);

	js->elem_start = js->pos;
	js->elem_mark = 0;
	if (c != open) {
		if (c == -1)
			return ttpu_js_error(js, path, "truncated JSON: expected %s", what);
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			return expect_open_word(js, path, what);
		return ttpu_js_error(js, path, "expected %s, got %s", what,
				     ttpu_js_describe_byte(c));
	}
	js->pos++;
	return 0;
}

int ttpu_js_object_begin(struct ttpu_jstream *js, const char *path)
{
	return expect_open(js, path, '{', "an object");
}

int ttpu_js_array_begin(struct ttpu_jstream *js, const char *path)
{
	return expect_open(js, path, '[', "an array");
}

/* After a member or element: ',' or the closing byte. 1, 0 or < 0. */
static int next_member(struct ttpu_jstream *js, const char *path, bool *first,
		       char close)
{
	int c = ttpu_js_peek(js);

	if (c == close) {
		js->pos++;
		return 0;
	}
	if (!*first) {
		if (c != ',') {
			if (c == -1)
				return ttpu_js_error_at(js, js->pos, path, "truncated JSON: expected ',' or '%c'",
							close);
			return ttpu_js_error_at(js, js->pos, path, "malformed JSON: expected ',' or '%c', got %s",
						close, ttpu_js_describe_byte(c));
		}
		js->pos++;
		c = ttpu_js_peek(js);
		if (c == close)
			return ttpu_js_error_at(js, js->pos, path, "malformed JSON: trailing comma before '%c'",
						close);
	}
	if (c == -1)
		return ttpu_js_error_at(js, js->pos, path, "truncated JSON: expected %s",
					close == '}' ? "a key or '}'" : "a value or ']'");
	*first = false;
	return 1;
}

int ttpu_js_object_next(struct ttpu_jstream *js, const char *path, bool *first)
{
	struct json_object *key;
	size_t len;
	int ret, c;

	ret = next_member(js, path, first, '}');
	if (ret <= 0)
		return ret;
	if (ttpu_js_peek(js) != '"')
		return ttpu_js_error_at(js, js->pos, path, "malformed JSON: expected a key string, got %s",
					ttpu_js_describe_byte(ttpu_js_peek(js)));
	ret = ttpu_js_value(js, path, &key);
	if (ret)
		return ret;
	len = (size_t)json_object_get_string_len(key);
	if (len + 1 > js->key_cap) {
		char *k = realloc(js->key, len + 1);

		if (!k) {
			json_object_put(key);
			return ttpu_error_nomem(js->err, "reading a key");
		}
		js->key = k;
		js->key_cap = len + 1;
	}
	memcpy(js->key, json_object_get_string(key), len);
	js->key[len] = '\0';
	js->key_len = len;
	json_object_put(key);
	c = ttpu_js_peek(js);
	if (c != ':')
		return ttpu_js_error_at(js, js->pos, path, "%s: expected ':' after the key, got %s",
					c == -1 ? "truncated JSON" : "malformed JSON",
					ttpu_js_describe_byte(c));
	js->pos++;
	return 1;
}

int ttpu_js_array_next(struct ttpu_jstream *js, const char *path, bool *first)
{
	return next_member(js, path, first, ']');
}

int ttpu_js_end(struct ttpu_jstream *js)
{
	int c = ttpu_js_peek(js);

	if (js->read_error)
		return js->read_error;
	if (c != -1)
		return ttpu_js_error_at(js, js->pos, "",
					"trailing data after the JSON document (%s)",
					ttpu_js_describe_byte(c));
	return 0;
}
