/* SPDX-License-Identifier: MIT */
/*
 * text_json_stream.h - walk a JSON text one element at a time
 *
 * json-c does the lexing, but only of one element at a time: the caller
 * walks the structure it knows (the top-level object, the big arrays)
 * with ttpu_js_object_next()/ttpu_js_array_next() and has json-c parse
 * each small element with ttpu_js_value(), freeing it at once. So memory
 * stays proportional to one element, never to the document. Two readers
 * scan the window themselves instead, where json-c's objects would cost
 * most: lists of integers (text_json_int_list.c, its plain rows
 * text_json_int_list_direct.c) and plain commands
 * (program_read_command_direct.c). What json-c lets through and a ttpu
 * text may not hold (strings not valid UTF-8, lone surrogates, duplicate
 * keys) is checked on each value it parses by text_json_strict.c.
 *
 * The text is either all in memory (ttpu_js_init) or read from a file
 * descriptor in chunks (ttpu_js_init_fd): then only a window of it is held,
 * from the element being parsed on, so memory follows the largest element,
 * not the document; the input-size limit is enforced as it is read.
 * Offsets (pos, elem_start, ...) index the window; a place that must be
 * reported after the window has moved on is kept as a ttpu_js_pos.
 *
 * Every function returns 0 (or 1 for "one more member") on success, or a
 * negative ttpu_error_kind with @err filled: the message starts with the
 * JSON path given by the caller, and line/column point into the text.
 */
#ifndef TTPU_TEXT_JSON_STREAM_H
#define TTPU_TEXT_JSON_STREAM_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ttpu-run.h"

struct json_object;
struct json_tokener;

/* A place in the text: line << 32 | column (both 1-based), 0 if unknown. */
typedef uint64_t ttpu_js_pos;

struct ttpu_jstream {
	const char *text;		/* the window: the text from byte base on */
	size_t len;			/* bytes in the window */
	size_t pos;
	size_t elem_start;		/* offset of the last value or key parsed */
	ttpu_js_pos elem_mark;		/* its place, once the window has left it */
	uint64_t base;			/* offset of text[0] in the document */
	uint32_t line, column;		/* of text[0] */
	size_t at;			/* a place already located, for ttpu_js_mark() */
	uint32_t at_line, at_column;
	int fd;				/* read from, or -1: all the text is in memory */
	const char *what;		/* names the source in messages */
	char *buf;			/* the window's storage (fd only) */
	size_t cap;
	bool eof;
	size_t limit;			/* ttpu_text_limit() (fd only) */
	int read_error;			/* < 0: reading failed; every later error is it */
	struct json_tokener *tok;
	enum ttpu_error_kind kind;	/* kind of the errors it reports */
	bool positions;			/* line/column are meaningful */
	char *key;			/* the last key, NUL-terminated */
	size_t key_len, key_cap;
	struct ttpu_error *err;
	locale_t saved_locale;		/* the thread's, restored by fini */
};

/*
 * The thread runs in the "C" locale from init to fini: json-c switches
 * LC_NUMERIC to "C" around every json_tokener_parse_ex() call (a locale
 * copy, a new locale and a free each time), and glibc does that for free
 * only when the thread's locale is already the built-in "C" object.
 */
int ttpu_js_init(struct ttpu_jstream *js, const char *text, size_t len,
		 enum ttpu_error_kind kind, struct ttpu_error *err);
/*
 * The same, reading @fd (not closed) in chunks; @what names it in
 * messages. On failure @js needs no ttpu_js_fini().
 */
int ttpu_js_init_fd(struct ttpu_jstream *js, int fd, const char *what,
		    enum ttpu_error_kind kind, struct ttpu_error *err);

/* The place of window offset @offset, to report later. */
ttpu_js_pos ttpu_js_mark(struct ttpu_jstream *js, size_t offset);
/* The place of the start of the last parsed value. */
static inline ttpu_js_pos ttpu_js_mark_elem(struct ttpu_jstream *js)
{
	return js->elem_mark ? js->elem_mark : ttpu_js_mark(js, js->elem_start);
}
/* Put @pos in js->err's line and column (when positions are meaningful). */
void ttpu_js_locate(struct ttpu_jstream *js, ttpu_js_pos pos);
void ttpu_js_fini(struct ttpu_jstream *js);

/* The next non-space byte, or -1 at the end of the text. */
int ttpu_js_peek(struct ttpu_jstream *js);

/* Parse the value at the cursor with json-c; *@out is the caller's to put. */
int ttpu_js_value(struct ttpu_jstream *js, const char *path,
		  struct json_object **out);
/*
 * The same without the duplicate-key check, for a caller that counts the
 * members while it converts the value anyway: *@colons is the number of
 * name/value separators in the value's text; when the members (all
 * levels) are fewer, call ttpu_js_duplicate() (the value is the last one
 * parsed).
 */
int ttpu_js_value_raw(struct ttpu_jstream *js, const char *path,
		      struct json_object **out, size_t *colons);
int ttpu_js_duplicate(struct ttpu_jstream *js, const char *path);
/* Skip the value at the cursor (parsed and freed). */
int ttpu_js_skip(struct ttpu_jstream *js, const char *path);

/*
 * Objects: ttpu_js_object_begin() consumes '{'; then each
 * ttpu_js_object_next() returns 1 with js->key set and the cursor at the
 * member's value, or 0 after the closing '}'. @first must start true.
 */
int ttpu_js_object_begin(struct ttpu_jstream *js, const char *path);
int ttpu_js_object_next(struct ttpu_jstream *js, const char *path, bool *first);
/* Arrays: the same, the cursor at each element. */
int ttpu_js_array_begin(struct ttpu_jstream *js, const char *path);
int ttpu_js_array_next(struct ttpu_jstream *js, const char *path, bool *first);

/* Only white space may follow the document. */
int ttpu_js_end(struct ttpu_jstream *js);

/*
 * Report an error at byte @offset: kind js->kind, message "@path: ...".
 * Returns -kind.
 */
int ttpu_js_error_at(struct ttpu_jstream *js, size_t offset, const char *path,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same at a place marked earlier. */
int ttpu_js_error_pos(struct ttpu_jstream *js, ttpu_js_pos pos, const char *path,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same at the start of the last parsed value. */
int ttpu_js_error(struct ttpu_jstream *js, const char *path, const char *fmt,
		  ...) __attribute__((format(printf, 3, 4)));

/*
 * Format a JSON path into @buf, silently truncated: a path only labels an
 * error, and a very long buffer name must not fail the report.
 */
void ttpu_js_path(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The index of @key in @keys[0..@n) (NULL entries never match), or -1. */
int ttpu_js_key_index(const char *key, const char *const *keys, int n);
/* An error "unknown key "@key" (allowed: ...)" listing @keys. */
int ttpu_js_unknown_key(struct ttpu_jstream *js, const char *path,
			const char *key, const char *const *keys, int n);

/* "an array", "a string", ... for the value starting with byte @c. */
const char *ttpu_js_describe_byte(int c);
/* "an array", "a string", ... for a parsed value (NULL is "null"). */
const char *ttpu_js_describe(const struct json_object *obj);

/*
 * An integer value: 0 with *@v set, or 1 when @obj is not a JSON integer
 * (a fraction, an exponent, a boolean, ...), or 2 when it lies beyond the
 * int64 range.
 */
int ttpu_js_get_int(const struct json_object *obj, int64_t *v);


/*
 * Read more of the document into the window (text_json_int_list.c reads
 * rows straight from it): 1 more text, 0 the end, < 0 an error.
 */
int ttpu_js_more(struct ttpu_jstream *js);

/*
 * A list of integers as written: a flat list (depth 1) or a list of
 * lists (depth 2), before it is matched against a shape it may not know
 * yet (a buffer's "data" can come before its "shape").
 */
struct ttpu_int_list {
	int32_t *v;			/* the values, when width is 4 */
	int8_t *v8;			/* the values, when width is 1 */
	size_t n, cap;
	uint32_t *row_len;		/* depth 2: length of each row */
	size_t nrows, rows_cap;
	int depth;			/* 0: empty list, 1 or 2 */
	int width;			/* bytes a value: 4, or 1 for an i8 range */
	int64_t lo, hi;			/* the range every value was checked against */
	ttpu_js_pos offset;		/* of the list in the text */
};

/* Value @i of @l, whatever its width. */
static inline int32_t ttpu_int_list_get(const struct ttpu_int_list *l, size_t i)
{
	return l->width == 1 ? l->v8[i] : l->v[i];
}

/*
 * Read the list at the cursor, element by element (a row at a time).
 * Every value must be an integer in [@lo, @hi] (@dtype names the range in
 * messages); errors name "@path[row][col]" and the element.
 */
int ttpu_js_int_list(struct ttpu_jstream *js, const char *path, int64_t lo,
		     int64_t hi, const char *dtype, struct ttpu_int_list *out);
/*
 * The same when the shape is already known (@rank 1: [@cols]; 2: [@rows,
 * @cols]): the first row or element too many is the error, before it is
 * parsed, so memory and time stay bounded by the shape. Fewer elements
 * than the shape are left to ttpu_js_int_list_shape().
 */
int ttpu_js_int_list_shaped(struct ttpu_jstream *js, const char *path,
			    int64_t lo, int64_t hi, const char *dtype,
			    int rank, uint64_t rows, uint64_t cols,
			    struct ttpu_int_list *out);
/*
 * The same, the values kept in @width bytes each: 1 (in v8, for a range
 * inside i8: an i8 input's values read straight into what the run uses)
 * or 4 (in v).
 */
int ttpu_js_int_list_shaped_w(struct ttpu_jstream *js, const char *path,
			      int64_t lo, int64_t hi, const char *dtype,
			      int rank, uint64_t rows, uint64_t cols, int width,
			      struct ttpu_int_list *out);
void ttpu_int_list_free(struct ttpu_int_list *l);
/*
 * A plain integer (optional '-', 0 or [1-9][0-9]* of at most 18 digits)
 * at @s[*@i], not followed by a digit, '.', 'e' or 'E' before @end: true
 * with *@v set and *@i after it; false when not plain or when it may go on
 * past @end. Both direct readers' integers (text_json_int_list_direct.c,
 * program_read_command_direct.c); inline, as it runs once per number.
 */
static inline bool ttpu_js_plain_int(const char *s, size_t *i, size_t end,
				     int64_t *v)
{
	size_t p = *i, stop;
	bool neg = s[p] == '-';
	int64_t n = 0;
	char c;

	if (neg && ++p >= end)
		return false;
	if (s[p] == '0') {
		p++;
	} else if (s[p] >= '1' && s[p] <= '9') {
		stop = end - p > 18 ? p + 18 : end;
		while (p < stop && (unsigned char)(s[p] - '0') < 10)
			n = n * 10 + (s[p++] - '0');
	} else {
		return false;
	}
	if (p >= end)
		return false;
	c = s[p];
	if ((unsigned char)(c - '0') < 10 || c == '.' || c == 'e' || c == 'E')
		return false;
	*i = p;
	*v = neg ? -n : n;
	return true;
}

/* What ttpu_js_ints_scan_direct() found besides the values. */
struct ttpu_direct_ints {
	size_t len;			/* elements taken */
	size_t bad;			/* the first outside [lo, hi], or SIZE_MAX */
	int64_t bad_value;		/* its value */
};

/*
 * The element at the cursor (a row of at most @max integers when @row,
 * else one integer) read straight from the window, without json-c, when
 * it is plain (see text_json_int_list_direct.c): true with its values
 * appended to @out in its width (each outside [@lo, @hi] as 0, the first
 * of them in @d), the cursor after it and
 * js->elem_start/elem_mark on it, as ttpu_js_value() leaves them; false
 * ("not mine") with @js and @out untouched, for json-c to read it and
 * report any error in it.
 */
bool ttpu_js_ints_scan_direct(struct ttpu_jstream *js, bool row, uint64_t max,
			      int64_t lo, int64_t hi, struct ttpu_int_list *out,
			      struct ttpu_direct_ints *d);

/*
 * Whether ttpu_js_int_list_shaped() tries ttpu_js_ints_scan_direct()
 * before json-c: true, except in the tests that read every list both ways
 * and require the same outcome. Internal, as ttpu_commands_direct is.
 */
extern bool ttpu_int_lists_direct;

/* @l must have the layout of shape [@cols] (@rank 1) or [@rows, @cols]. */
int ttpu_js_int_list_shape(struct ttpu_jstream *js, const char *path,
			   const struct ttpu_int_list *l, int rank,
			   uint64_t rows, uint64_t cols);
/*
 * Every value of @l in [@lo, @hi]; @rank/@cols give each element's place.
 * Free when @l was read against a range inside [@lo, @hi].
 */
int ttpu_js_int_list_range(struct ttpu_jstream *js, const char *path,
			   const struct ttpu_int_list *l, int rank,
			   uint64_t cols, int64_t lo, int64_t hi,
			   const char *dtype);

#endif /* TTPU_TEXT_JSON_STREAM_H */
