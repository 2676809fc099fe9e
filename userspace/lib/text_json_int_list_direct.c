// SPDX-License-Identifier: MIT
/*
 * text_json_int_list_direct.c - a plain row of integers read without json-c
 *
 * Once the commands were read directly, most of what json-c still did was
 * build, walk and free an array object and an int object per element for
 * each row of buffer data and inputs (the MLP's 50,176 input numbers cost
 * 68 M instructions). Rows are written plainly by every generator, so they
 * are read here straight from the jstream's window, the same way
 * program_read_command_direct.c reads commands.
 *
 * Only a strict, plainly valid subset is accepted: integers written as an
 * optional '-' then 0 or [1-9][0-9]* with at most 18 digits, not followed
 * by a digit, '.', 'e' or 'E'; JSON white space (space, tab, newline,
 * carriage return), ',' between elements and ']' at the end. Anything else
 * (a fraction, an exponent, a longer number, a string, null, a nested
 * list, a trailing comma), a row longer than its known shape, and a row or
 * number that runs to the end of the window (the fd reader's window may
 * end inside it) is "not mine": the jstream and the list are left as they
 * were and json-c (after the shape's byte scan) reads the element as it
 * always has. What this reader takes is valid JSON that json-c would
 * read to the same int64 values, so both readers hand the same numbers to
 * the same range check and messages (text_json_int_list.c): every error,
 * its message, line and column, is the same either way.
 * tests/runtime/test_direct.c loads programs and inputs both ways to show it.
 */
#include "text_json_stream.h"
#include "util.h"

bool ttpu_int_lists_direct = true;

/* JSON's white space, and only it; false at the window's end. */
static inline bool skip_ws(const char *s, size_t *i, size_t end)
{
	while (*i < end) {
		char c = s[*i];

		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			return true;
		(*i)++;
	}
	return false;
}

/* Room for one more value in @out; apart so that take() stays inlined. */
static __attribute__((noinline)) bool grow(struct ttpu_int_list *out)
{
	return !ttpu_grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v));
}

/* Append @v to @out (a value out of range is kept as 0, and noted in @d). */
static inline bool take(struct ttpu_int_list *out, int64_t v, int64_t lo,
			int64_t hi, size_t k, struct ttpu_direct_ints *d)
{
	if (out->n == out->cap && !grow(out))
		return false;
	if (v < lo || v > hi) {
		if (d->bad == SIZE_MAX) {
			d->bad = k;
			d->bad_value = v;
		}
		v = 0;
	}
	out->v[out->n++] = (int32_t)v;
	return true;
}

/*
 * At '[': a row of at most @max plain integers, appended to @out. A longer
 * row is not mine either: the caller's shape check reports it.
 */
static bool scan_row(const char *s, size_t *i, size_t end, uint64_t max,
		     int64_t lo, int64_t hi, struct ttpu_int_list *out,
		     struct ttpu_direct_ints *d)
{
	size_t p = *i + 1, k = 0;
	int64_t v;

	if (!skip_ws(s, &p, end))
		return false;
	if (s[p] != ']') {
		for (;;) {
			if (k == max || !ttpu_js_plain_int(s, &p, end, &v) ||
			    !take(out, v, lo, hi, k++, d) || !skip_ws(s, &p, end))
				return false;
			if (s[p] == ']')
				break;
			if (s[p] != ',')
				return false;
			p++;
			if (!skip_ws(s, &p, end))
				return false;
		}
	}
	*i = p + 1;
	d->len = k;
	return true;
}

bool ttpu_js_ints_scan_direct(struct ttpu_jstream *js, bool row, uint64_t max,
			      int64_t lo, int64_t hi, struct ttpu_int_list *out,
			      struct ttpu_direct_ints *d)
{
	size_t i = js->pos, n0 = out->n;
	int64_t v;
	bool ok;
	char c;

	d->bad = SIZE_MAX;
	d->len = 0;
	if (i >= js->len)
		return false;
	if (row) {
		/* The row lengths' type: json-c's path reports a longer row. */
		if (max > UINT32_MAX)
			max = UINT32_MAX;
		ok = js->text[i] == '[' && scan_row(js->text, &i, js->len, max, lo, hi, out, d);
	} else {
		ok = ttpu_js_plain_int(js->text, &i, js->len, &v);
		/* What json-c's parse would stop at, and its caller accept. */
		c = ok ? js->text[i] : 0;
		ok = ok && (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
			    c == ',' || c == ']') && take(out, v, lo, hi, 0, d);
		d->len = 1;
	}
	if (!ok) {
		out->n = n0;
		return false;
	}
	/* Where ttpu_js_value() would leave them. */
	js->elem_start = js->pos;
	js->elem_mark = 0;
	js->pos = i;
	return true;
}
