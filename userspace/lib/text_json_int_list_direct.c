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
 * tests/runtime/test_direct_int_lists.c loads programs and inputs both ways
 * to show it.
 *
 * A row is read in gears (issue 20: on the board the MLP's inputs cost
 * 143 to 172 armhf instructions a number, the int64 scan, a capacity and
 * a 64-bit range check per value, then two more passes over the values in
 * program_inputs.c). A row of an i8 input (-128..127) goes through
 * run_i8(): one loop, up to three digits unrolled, each way out of a
 * number its own store, a range check only for three digits, the value
 * stored as int8 straight into the list that becomes the input (the
 * range pass and the copy after it are then free). A row of any other
 * int32 range goes through run_any(): the same with a digit loop and one
 * unsigned range compare. Neither checks the window's end per byte: a
 * number starts only where its longest read stays inside the window
 * (run_i8()), or before the window's last non-digit byte, where every
 * digit loop stops (run_any()); nor the row's length per value: numbers
 * start at least two bytes apart, so a bound on where the next may start
 * bounds how many are read. What they do not take (white space before a
 * number, 10 to 18 digits, a value out of range, the window's last bytes,
 * anything not plain) goes to the careful gear, one element at a time:
 * ttpu_js_plain_int() with every bound checked, the reader this file had
 * before, which also leaves the row to json-c as before. All gears accept
 * the same texts and give the same values: tests/runtime/test_int_rows.c
 * reads thousands of random inputs documents with the direct reader on
 * and off.
 */
#include "text_json_stream.h"
#include "util.h"

bool ttpu_int_lists_direct = true;

#define ALWAYS_INLINE inline __attribute__((always_inline))

static inline bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Past JSON's white space; @e at the window's end. */
static inline const unsigned char *skip_ws(const unsigned char *p,
					   const unsigned char *e)
{
	while (p < e && is_ws(*p))
		p++;
	return p;
}

/*
 * Room for @more values after the @n in @l (a row's values are added past
 * @n before it is moved on); apart so the loops stay small.
 */
static __attribute__((noinline)) bool reserve(struct ttpu_int_list *l, size_t more)
{
	size_t cap = l->cap;

	if (l->width == 1 ? ttpu_grow(&l->v8, &cap, l->n + more, sizeof(*l->v8)) :
	    ttpu_grow(&l->v, &cap, l->n + more, sizeof(*l->v)))
		return false;
	l->cap = cap;
	return true;
}

static ALWAYS_INLINE void put(struct ttpu_int_list *l, size_t at, int32_t v,
			      const int width)
{
	if (width == 1)
		l->v8[at] = (int8_t)v;
	else
		l->v[at] = v;
}

/* What a fast number did: taken, ',' after it; taken, something else; left. */
enum fast { TAKEN_NEXT, TAKEN_AFTER, NOT_FAST };

/*
 * i8 numbers (-128..127) from *@pp while they are fast and start before
 * @plimit, stored from @o on (*@taken says how many): up to three digits,
 * unrolled; a value is stored after the byte that follows it is read (an
 * int8 store may alias the text). Only three digits need a range check;
 * four are not fast. A number reads at most FAST_I8 bytes from its start
 * (one more @spaced). Apart, and not inlined, so that its loop has the
 * registers to itself (about 20 armhf instructions for "-5," and 30 for
 * "-128,").
 */
#define FAST_I8 5

static ALWAYS_INLINE enum fast run_i8_w(const unsigned char **pp,
					const unsigned char *plimit,
					int8_t *o, size_t *taken, const bool spaced)
{
	const unsigned char *p = *pp, *q;
	int8_t *o0 = o;
	uint32_t a, v, c;
	enum fast r = TAKEN_NEXT;

/*
 * Take @val, @len digits at q (its sign, @neg, before them), and the
 * ',' after it, and when @spaced a space after that.
 */
#define STORE(neg, val, len)				\
	do {						\
		*o = (int8_t)((neg) ? -(val) : (val));	\
		if (c != ',') {				\
			p = q + (len);			\
			o++;				\
			r = TAKEN_AFTER;		\
			goto out;			\
		}					\
		p = q + (len) + 1;			\
		if (spaced)				\
			p += *p == ' ';			\
	} while (0)
/* The number at q; each exit its own store, so no exit joins another. */
#define NUMBER(neg)						\
	do {							\
		a = (uint32_t)q[0] - '0';			\
		c = q[1];					\
		if (a - 1 <= 8) {				\
			if (c - '0' > 9) {			\
				STORE(neg, a, 1);		\
				break;				\
			}					\
			v = a * 10 + (c - '0');			\
			c = q[2];				\
			if (c - '0' > 9) {			\
				STORE(neg, v, 2);		\
				break;				\
			}					\
			v = v * 10 + (c - '0');			\
			c = q[3];				\
			/* Out of range, or four digits. */	\
			if (v > 127 + (neg) || c - '0' <= 9)	\
				goto not_fast;			\
			STORE(neg, v, 3);			\
			break;					\
		}						\
		/* "0" (not "01"); or white space, or not plain. */ \
		if (a || c - '0' <= 9)				\
			goto not_fast;				\
		STORE(neg, 0u, 1);				\
	} while (0)

	do {
		q = p;
		if (*q != '-') {
			NUMBER(0);
		} else {
			q++;
			NUMBER(1);
		}
		o++;
	} while (p < plimit);
	goto out;
#undef NUMBER
#undef STORE
not_fast:
	r = NOT_FAST;
out:
	*pp = p;
	*taken = (size_t)(o - o0);
	return r;
}

/* Numbers separated by ',' alone; by ", " (json.dumps()), one more read. */
static __attribute__((noinline)) enum fast run_i8(const unsigned char **pp,
						  const unsigned char *plimit,
						  int8_t *o, size_t *taken)
{
	return run_i8_w(pp, plimit, o, taken, false);
}

static __attribute__((noinline)) enum fast run_i8_spaced(const unsigned char **pp,
							 const unsigned char *plimit,
							 int8_t *o, size_t *taken)
{
	return run_i8_w(pp, plimit, o, taken, true);
}

/*
 * Numbers of any int32 range [ulo, ulo + span] from *@pp, while they are
 * fast and start before @plimit: at most 9 digits (a longer number, or
 * one out of range, is not fast). @plimit is at most the window's last
 * non-digit byte, where every digit loop stops, so the loop needs no
 * bound. The values go to @o; *@taken says how many. Apart, as run_i8().
 */
static __attribute__((noinline)) enum fast run_any(const unsigned char **pp,
						   const unsigned char *plimit,
						   int32_t *o, uint32_t ulo,
						   uint32_t span, size_t *taken)
{
	const unsigned char *p = *pp, *q, *first;
	int32_t *o0 = o;
	uint32_t v, dg, neg;
	enum fast r = TAKEN_NEXT;

	do {
		neg = *p == '-';
		first = q = p + neg;
		v = (uint32_t)*q - '0';
		if (v - 1 <= 8) {
			while ((dg = (uint32_t)*++q - '0') <= 9)
				v = v * 10 + dg;
			if (q - first > 9)
				goto not_fast;
		} else if (!v && (uint32_t)q[1] - '0' > 9) {
			q++;			/* "0"; not "01" */
		} else if (*p == ' ') {
			/* Spaces after ',' (json.dumps() writes ", "): on to the number. */
			while (*p == ' ' && ++p < plimit)
				;
			if (p < plimit)
				continue;
			goto out;
		} else {
			goto not_fast;		/* white space, or not plain */
		}
		if (neg)
			v = -v;
		if (v - ulo > span)
			goto not_fast;
		*o = (int32_t)v;
		if (*q != ',') {
			o++;
			p = q;
			r = TAKEN_AFTER;
			goto out;
		}
		o++;
		p = q + 1;
	} while (p < plimit);
	goto out;
not_fast:
	r = NOT_FAST;
out:
	*pp = p;
	*taken = (size_t)(o - o0);
	return r;
}

/* Which fast gear a row takes: none, run_i8() or run_any(). */
enum gear { CAREFUL, I8, ANY };

/*
 * At '[': a row of at most @max plain integers, appended to @out in its
 * @width. A longer row is not mine either: the caller's shape check
 * reports it. A value outside [@lo, @hi] is kept as 0, the first noted in
 * @d, as ttpu_js_ints_scan_direct() says.
 */
static ALWAYS_INLINE bool scan_row(const char *s, size_t *i, size_t end,
				   uint64_t max, int64_t lo, int64_t hi,
				   struct ttpu_int_list *out,
				   struct ttpu_direct_ints *d, const int width,
				   const enum gear gear)
{
	const unsigned char *t = (const unsigned char *)s;
	const unsigned char *p = t + *i + 1, *e = t + end, *stop = p, *edge;
	const uint32_t ulo = (uint32_t)lo, span = (uint32_t)((uint64_t)hi - (uint64_t)lo);
	size_t n0 = out->n, k = 0, limit, blk, room, at;
	bool spaced = false;
	enum fast r;
	int64_t v64;

	/* A row that ends in the window has at most one value every two bytes. */
	limit = (size_t)(e - p) / 2 + 1;
	if (limit > max)
		limit = max;
	/* The last byte of the window that is not a digit: run_any()'s stop. */
	if (gear == ANY) {
		for (stop = e; stop > p && (unsigned char)(stop[-1] - '0') <= 9; stop--)
			;
		stop--;
	}
	p = skip_ws(p, e);
	if (p == e)
		return false;
	if (*p == ']')
		goto done;
	for (;;) {
		/*
		 * At an element's first byte, not white space. Where the fast
		 * gear may start a number: before the window's end less its
		 * longest read (run_i8()), or before the last non-digit
		 * (run_any()); and, as a number starts at least two bytes after
		 * the one before, before p + 2 * (limit - k) - 1, so that at
		 * most limit - k are read.
		 */
		if (gear == I8)
			room = (size_t)(e - p) > FAST_I8 - 1 + (size_t)spaced ?
			       (size_t)(e - p) - (FAST_I8 - 1 + (size_t)spaced) : 0;
		else if (gear == ANY)
			room = p < stop ? (size_t)(stop - p) : 0;
		else
			room = 0;
		blk = room ? limit - k : 0;
		/*
		 * Room in the list for a block's values, checked once a block:
		 * grown as they come (doubling), never ahead of the text.
		 */
		if (blk > out->cap - (n0 + k)) {
			size_t more = n0 + k > 4096 ? n0 + k : 4096;

			if (!reserve(out, k + (more < blk ? more : blk)))
				return false;
			if (blk > out->cap - (n0 + k))
				blk = out->cap - (n0 + k);
		}
		if (blk && room > 2 * blk - 1)
			room = 2 * blk - 1;
		edge = p + room;
		r = TAKEN_NEXT;
		if (gear == I8 && blk) {
			size_t taken;

			r = (spaced ? run_i8_spaced : run_i8)(&p, edge, out->v8 + n0 + k, &taken);
			k += taken;
		} else if (gear == ANY && blk) {
			size_t taken;

			r = run_any(&p, edge, out->v + n0 + k, ulo, span, &taken);
			k += taken;
		}
		if (r == TAKEN_AFTER)
			goto after;
		if (r == TAKEN_NEXT && blk)
			continue;	/* the block is read: count the next one */
		/*
		 * White space after ',' (the element is still ahead), or the
		 * window's end: a fast gear stops at both.
		 */
		if (p == e || is_ws(*p)) {
			/* A space after ',': the row is spaced (i8 rows' own loop). */
			spaced = true;
			p = skip_ws(p, e);
			if (p == e)
				return false;
			if (blk)
				continue;
		}
		/* The careful gear, one element. */
		if (k == limit || (n0 + k == out->cap && !reserve(out, k + 1)))
			return false;
		at = (size_t)(p - t);
		if (!ttpu_js_plain_int(s, &at, end, &v64))
			return false;
		p = t + at;
		if (v64 < lo || v64 > hi) {
			if (d->bad == SIZE_MAX) {
				d->bad = k;
				d->bad_value = v64;
			}
			v64 = 0;
		}
		put(out, n0 + k++, (int32_t)v64, width);
after:
		/* After a number: ',' or ']', white space around them. */
		p = skip_ws(p, e);
		if (p == e)
			return false;
		if (*p == ']')
			break;
		if (*p != ',')
			return false;
		p = skip_ws(p + 1, e);
		if (p == e)
			return false;
	}
done:
	*i = (size_t)(p - t) + 1;
	out->n = n0 + k;
	d->len = k;
	return true;
}

typedef bool scan_row_fn(const char *s, size_t *i, size_t end, uint64_t max,
			 int64_t lo, int64_t hi, struct ttpu_int_list *out,
			 struct ttpu_direct_ints *d);

/* The gears a row can take, each its own copy of the loop. */
#define SCAN_ROW(name, width, gear)						\
static bool name(const char *s, size_t *i, size_t end, uint64_t max,		\
		 int64_t lo, int64_t hi, struct ttpu_int_list *out,		\
		 struct ttpu_direct_ints *d)					\
{										\
	return scan_row(s, i, end, max, lo, hi, out, d, width, gear);		\
}
SCAN_ROW(scan_row_i8, 1, I8)
SCAN_ROW(scan_row_narrow, 1, CAREFUL)
SCAN_ROW(scan_row_int, 4, ANY)
SCAN_ROW(scan_row_wide, 4, CAREFUL)
#undef SCAN_ROW

/* The copy for @out's width and [@lo, @hi]. */
static scan_row_fn *row_scanner(const struct ttpu_int_list *out, int64_t lo, int64_t hi)
{
	if (out->width == 1)
		return lo == INT8_MIN && hi == INT8_MAX ? scan_row_i8 : scan_row_narrow;
	return lo >= INT32_MIN && hi <= INT32_MAX ? scan_row_int : scan_row_wide;
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
		ok = js->text[i] == '[' &&
		     row_scanner(out, lo, hi)(js->text, &i, js->len, max, lo, hi, out, d);
	} else {
		ok = ttpu_js_plain_int(js->text, &i, js->len, &v);
		/* What json-c's parse would stop at, and its caller accept. */
		c = ok ? js->text[i] : 0;
		ok = ok && (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
			    c == ',' || c == ']') && (out->n < out->cap || reserve(out, 1));
		if (ok) {
			if (v < lo || v > hi) {
				d->bad = 0;
				d->bad_value = v;
				v = 0;
			}
			if (out->width == 1)
				out->v8[out->n++] = (int8_t)v;
			else
				out->v[out->n++] = (int32_t)v;
		}
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
