// SPDX-License-Identifier: MIT
/*
 * text_json_int_list.c - the lists of integers of a JSON text (buffer
 * data, input rows), read straight from the stream into int32 arrays,
 * checked against their range and, where the shape is known first,
 * against it as they are read (see text_json_stream.h)
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "error.h"
#include "text_json_stream.h"
#include "text_utf8.h"
#include "util.h"

void ttpu_int_list_free(struct ttpu_int_list *l)
{
	free(l->v);
	free(l->v8);
	free(l->row_len);
	memset(l, 0, sizeof(*l));
}

static int list_push(struct ttpu_jstream *js, struct ttpu_int_list *l,
		     int32_t v)
{
	if (l->width == 1 ? ttpu_grow(&l->v8, &l->cap, l->n + 1, sizeof(*l->v8)) :
	    ttpu_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v)))
		return ttpu_error_nomem(js->err, "reading a list of integers");
	if (l->width == 1)
		l->v8[l->n++] = (int8_t)v;
	else
		l->v[l->n++] = v;
	return 0;
}

static int list_push_row(struct ttpu_jstream *js, struct ttpu_int_list *l,
			 uint32_t len)
{
	if (ttpu_grow(&l->row_len, &l->rows_cap, l->nrows + 1, sizeof(*l->row_len)))
		return ttpu_error_nomem(js->err, "reading a list of rows");
	l->row_len[l->nrows++] = len;
	return 0;
}

/* @at: where to point, or 0 for the last parsed value. */
static int bad_value(struct ttpu_jstream *js, ttpu_js_pos at, const char *path,
		     long row, long col, long element, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static int bad_value(struct ttpu_jstream *js, ttpu_js_pos at, const char *path,
		     long row, long col, long element, const char *fmt, ...)
{
	char where[TTPU_ERROR_NAME_MAX + 48], msg[256];
	va_list ap;
	int ret;

	if (row >= 0)
		ttpu_js_path(where, sizeof(where), "%s[%ld][%ld]", path, row, col);
	else
		ttpu_js_path(where, sizeof(where), "%s[%ld]", path, col);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ret = ttpu_js_error_pos(js, at ? at : ttpu_js_mark_elem(js), where, "%s", msg);
	ttpu_error_at_element(js->err, element, row >= 0 ? row : 0, col);
	return ret;
}

/* @value (as text) lies outside [@lo, @hi]: both readers report it here. */
static int out_of_range(struct ttpu_jstream *js, const char *path, long row,
			long col, long element, const char *value, int64_t lo,
			int64_t hi, const char *dtype)
{
	return bad_value(js, 0, path, row, col, element,
			 "value %s does not fit %s (%lld..%lld)", value, dtype,
			 (long long)lo, (long long)hi);
}

static int check_value(struct ttpu_jstream *js, const char *path,
		       struct json_object *obj, long row, long col,
		       long element, int64_t lo, int64_t hi,
		       const char *dtype, int32_t *out)
{
	int64_t v;
	int r = ttpu_js_get_int(obj, &v);

	if (r == 1)
		return bad_value(js, 0, path, row, col, element,
				 "expected an integer, got %s", ttpu_js_describe(obj));
	if (r == 2 || v < lo || v > hi)
		return out_of_range(js, path, row, col, element,
				    json_object_get_string(obj), lo, hi, dtype);
	*out = (int32_t)v;
	return 0;
}

/*
 * The direct reader's values are in @out already: report the first out of
 * range as check_value() would have (json-c writes an int64 as "%lld").
 */
static int check_direct(struct ttpu_jstream *js, const char *path,
			const struct ttpu_direct_ints *d, long row,
			size_t n0, int64_t lo, int64_t hi, const char *dtype)
{
	char value[24];

	if (d->bad == SIZE_MAX)
		return 0;
	snprintf(value, sizeof(value), "%lld", (long long)d->bad_value);
	return out_of_range(js, path, row, row >= 0 ? (long)d->bad : (long)n0,
			    (long)(n0 + d->bad), value, lo, hi, dtype);
}

/*
 * The window offset of the first element beyond @max in the array at the
 * cursor (a row about to be parsed), or 0 when it has @max elements or
 * fewer: a byte scan, so a row of a million elements for a shape of four
 * costs no parse and no memory (it stops at element @max + 1). Malformed
 * text is left to json-c. < 0: reading failed.
 */
static long long row_overflow(struct ttpu_jstream *js, uint64_t max)
{
	uint64_t n;
	bool in_str, empty;
	int depth, ret;
	size_t i;

	for (;;) {
		n = 0;
		in_str = false;
		empty = true;
		depth = 0;
		for (i = js->pos; i < js->len; i++) {
			char c = js->text[i];

			if (in_str) {
				if (c == '\\')
					i++;
				else if (c == '"')
					in_str = false;
				continue;
			}
			if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
				continue;
			if (depth == 1 && c != ']' && c != ',' && empty) {
				empty = false;
				if (++n > max)
					return (long long)i;
			}
			if (c == '"') {
				in_str = true;
			} else if (c == '[' || c == '{') {
				depth++;
			} else if (c == ']' || c == '}') {
				if (--depth <= 0)
					return 0;
			} else if (c == ',' && depth == 1) {
				empty = true;
			}
		}
		/* The row goes on past the window: read on and count again. */
		ret = ttpu_js_more(js);
		if (ret <= 0)
			return ret;
	}
}

int ttpu_js_int_list(struct ttpu_jstream *js, const char *path, int64_t lo,
		     int64_t hi, const char *dtype, struct ttpu_int_list *out)
{
	return ttpu_js_int_list_shaped_w(js, path, lo, hi, dtype, 0, 0, 0, 4, out);
}

int ttpu_js_int_list_shaped(struct ttpu_jstream *js, const char *path,
			    int64_t lo, int64_t hi, const char *dtype,
			    int rank, uint64_t rows, uint64_t cols,
			    struct ttpu_int_list *out)
{
	return ttpu_js_int_list_shaped_w(js, path, lo, hi, dtype, rank, rows, cols, 4, out);
}

/*
 * Room for the shape's values, as far as the window's text can hold them
 * (at most one value every two bytes) and up to 2^20 of them: a short
 * text for a huge shape reserves little, a hostile one no more than
 * 4 MiB, and most lists never grow. Only a hint: on failure the values
 * are added as they come.
 */
#define RESERVE_MAX ((uint64_t)1 << 20)

static void reserve_shape(struct ttpu_jstream *js, struct ttpu_int_list *l,
			  int rank, uint64_t rows, uint64_t cols)
{
	uint64_t n = rank == 1 ? cols : rank == 2 && (!cols || rows <= UINT64_MAX / cols) ?
		     rows * cols : 0;
	uint64_t room = (js->len - js->pos) / 2 + 1;

	if (n > room)
		n = room;
	if (n > RESERVE_MAX)
		n = RESERVE_MAX;
	if (n && (l->width == 1 ? !ttpu_resize(&l->v8, (size_t)n, sizeof(*l->v8)) :
		  !ttpu_resize(&l->v, (size_t)n, sizeof(*l->v))))
		l->cap = (size_t)n;
}

int ttpu_js_int_list_shaped_w(struct ttpu_jstream *js, const char *path,
			      int64_t lo, int64_t hi, const char *dtype,
			      int rank, uint64_t rows, uint64_t cols, int width,
			      struct ttpu_int_list *out)
{
	unsigned long long r = rows, n = cols;
	char where[TTPU_ERROR_NAME_MAX + 24];
	long long extra;
	struct json_object *obj = NULL;
	struct ttpu_direct_ints d;
	bool first = true, direct;
	size_t i, len, n0;
	int32_t v;
	int ret, c;

	memset(out, 0, sizeof(*out));
	/* A value outside the range is an error: none is ever narrowed. */
	out->width = width == 1 && lo >= INT8_MIN && hi <= INT8_MAX ? 1 : 4;
	out->lo = lo;
	out->hi = hi;
	ret = ttpu_js_array_begin(js, path);
	out->offset = ttpu_js_mark_elem(js);
	if (!ret)
		reserve_shape(js, out, rank, rows, cols);
	while (!ret && (ret = ttpu_js_array_next(js, path, &first)) > 0) {
		c = ttpu_js_peek(js);
		/* A known shape: the first element too many is the error. */
		if (c == '[' && rank == 1) {
			ret = ttpu_js_error_pos(js, out->offset, path,
					       "expected a flat list of %llu integers (shape [%llu]), got a list of lists",
					       n, n);
			break;
		}
		if (c == '[' && rank == 2 && out->nrows == rows) {
			ret = ttpu_js_error_at(js, js->pos, path,
					       "expected %llu rows (shape [%llu, %llu]), got more",
					       r, r, n);
			break;
		}
		n0 = out->n;
		/*
		 * A plain row of at most @cols in the window is read before the
		 * byte scan below is needed: that scan, and json-c, only ever
		 * see what the direct reader left (untouched).
		 */
		direct = ttpu_int_lists_direct && c == '[' && rank == 2 &&
			 ttpu_js_ints_scan_direct(js, true, cols, lo, hi, out, &d);
		if (!direct && c == '[' && rank == 2 && (extra = row_overflow(js, cols))) {
			ttpu_js_path(where, sizeof(where), "%s[%zu]", path, out->nrows);
			if (extra < 0) {
				ret = (int)extra;
				break;
			}
			ret = ttpu_js_error_at(js, (size_t)extra, where,
					       "expected %llu integers (shape [%llu, %llu]), got more",
					       n, r, n);
			break;
		}
		if (c != '[' && rank == 2) {
			ret = ttpu_js_error_pos(js, out->offset, path,
					       "expected %llu rows of %llu integers (shape [%llu, %llu]), got a flat list",
					       r, n, r, n);
			break;
		}
		if (c != '[' && rank == 1 && out->n == cols) {
			ret = ttpu_js_error_at(js, js->pos, path,
					       "expected %llu integers (shape [%llu]), got more",
					       n, n);
			break;
		}
		/* The row may be whole in the window now (row_overflow() read on). */
		if (!direct)
			direct = ttpu_int_lists_direct &&
				 ttpu_js_ints_scan_direct(js, c == '[',
							  rank == 2 ? cols : UINT64_MAX,
							  lo, hi, out, &d);
		if (!direct) {
			ret = ttpu_js_value(js, path, &obj);
			if (ret)
				break;
		}
		if (c == '[') {
			if (out->depth == 1) {
				ret = ttpu_js_error(js, path, "mixes integers and lists at row %zu",
						    out->nrows + n0);
				break;
			}
			out->depth = 2;
			len = direct ? d.len : json_object_array_length(obj);
			if (len > UINT32_MAX) {
				ret = ttpu_js_error(js, path, "row %zu is too long", out->nrows);
				break;
			}
			if (direct)
				ret = check_direct(js, path, &d, (long)out->nrows, n0, lo, hi,
						   dtype);
			for (i = 0; i < len && !ret && !direct; i++) {
				ret = check_value(js, path, json_object_array_get_idx(obj, i),
						  (long)out->nrows, (long)i, (long)out->n,
						  lo, hi, dtype, &v);
				if (!ret)
					ret = list_push(js, out, v);
			}
			if (!ret)
				ret = list_push_row(js, out, (uint32_t)len);
		} else {
			if (out->depth == 2) {
				ret = ttpu_js_error(js, path, "mixes lists and integers at row %zu",
						    out->nrows);
				break;
			}
			out->depth = 1;
			if (direct) {
				ret = check_direct(js, path, &d, -1, n0, lo, hi, dtype);
				continue;
			}
			ret = check_value(js, path, obj, -1, (long)out->n, (long)out->n,
					  lo, hi, dtype, &v);
			if (!ret)
				ret = list_push(js, out, v);
		}
		json_object_put(obj);
		obj = NULL;
	}
	json_object_put(obj);
	if (ret < 0) {
		ttpu_int_list_free(out);
		return ret;
	}
	return 0;
}

int ttpu_js_int_list_shape(struct ttpu_jstream *js, const char *path,
			   const struct ttpu_int_list *l, int rank,
			   uint64_t rows, uint64_t cols)
{
	size_t r;

	if (rank == 1) {
		if (l->depth == 2)
			return ttpu_js_error_pos(js, l->offset, path,
						"expected a flat list of %llu integers (shape [%llu]), got a list of lists",
						(unsigned long long)cols, (unsigned long long)cols);
		if (l->n != cols)
			return ttpu_js_error_pos(js, l->offset, path,
						"expected %llu integers (shape [%llu]), got %zu",
						(unsigned long long)cols, (unsigned long long)cols, l->n);
		return 0;
	}
	if (l->depth == 1)
		return ttpu_js_error_pos(js, l->offset, path,
					"expected %llu rows of %llu integers (shape [%llu, %llu]), got a flat list",
					(unsigned long long)rows, (unsigned long long)cols,
					(unsigned long long)rows, (unsigned long long)cols);
	if (l->nrows != rows)
		return ttpu_js_error_pos(js, l->offset, path,
					"expected %llu rows (shape [%llu, %llu]), got %zu",
					(unsigned long long)rows, (unsigned long long)rows,
					(unsigned long long)cols, l->nrows);
	for (r = 0; r < l->nrows; r++) {
		if (l->row_len[r] != cols) {
			char where[TTPU_ERROR_NAME_MAX + 24];

			ttpu_js_path(where, sizeof(where), "%s[%zu]", path, r);
			return ttpu_js_error_pos(js, l->offset, where,
						"expected %llu integers (shape [%llu, %llu]), got %u",
						(unsigned long long)cols, (unsigned long long)rows,
						(unsigned long long)cols, l->row_len[r]);
		}
	}
	return 0;
}

int ttpu_js_int_list_range(struct ttpu_jstream *js, const char *path,
			   const struct ttpu_int_list *l, int rank,
			   uint64_t cols, int64_t lo, int64_t hi,
			   const char *dtype)
{
	size_t i;
	long row, col;
	int ret;

	/* Read against a range inside this one: every value is in it. */
	if (l->lo >= lo && l->hi <= hi)
		return 0;
	for (i = 0; i < l->n; i++) {
		if (ttpu_int_list_get(l, i) >= lo && ttpu_int_list_get(l, i) <= hi)
			continue;
		row = rank == 1 ? -1 : (long)(i / cols);
		col = (long)(rank == 1 ? i : i % cols);
		ret = bad_value(js, l->offset, path, row, col, (long)i,
				"value %d does not fit %s (%lld..%lld)", ttpu_int_list_get(l, i),
				dtype, (long long)lo, (long long)hi);
		return ret;
	}
	return 0;
}
