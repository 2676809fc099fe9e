// SPDX-License-Identifier: MIT
/*
 * test_int_rows.c - the fast gears of the direct row reader agree with
 * json-c on every input text
 *
 * text_json_int_list_direct.c reads a plain row of an i8 input in a tight
 * loop (run_i8(): up to three digits unrolled, the range known, values
 * stored as int8 straight into what the run uses) and a row of any other
 * int32 range with fast_any(); anything else falls back, an element at a
 * time, to the careful reader, and a row that is not plain to json-c.
 * Here thousands of inputs documents are made at random for a program
 * with an i8 input of rows of 37, an i32 input of rows of 11 and a flat i8
 * input: values at and one past the edges of i8 and i32, 9 to 20 digits,
 * "-0", and, now and then, leading zeros, a lone '-', '+', fractions,
 * exponents, strings, null, non-ASCII and invalid UTF-8 bytes, white
 * space of every JSON kind (and \f, \v) around every token, rows one too
 * short or too long, one row too many, nested lists, a missing or extra
 * ']', then random byte edits and truncation. Each is read with the
 * direct readers on and with them off (json-c for every list), from
 * memory, from a file (the fd reader) and inside a request, the program
 * first and the inputs first (read before their program, as i32 lists);
 * both must end the same: the same error (kind, message, field, buffer,
 * element, row, col, line, column) or the same values of every input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "program.h"
#include "program_inputs.h"
#include "program_read_commands.h"
#include "rt.h"
#include "../lib/test_timeout.h"

/* Thousands of texts, each read eight times: ~2 s natively. */
#define TIMEOUT_ROWS 300
#define DOCS 3000

#define PROGRAM								\
	"{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"rows\",\"buffers\":{" \
	"\"X\":{\"dtype\":\"i8\",\"shape\":[6,37],\"kind\":\"input\"},"	\
	"\"Y\":{\"dtype\":\"i32\",\"shape\":[3,11],\"kind\":\"input\"},"	\
	"\"Z\":{\"dtype\":\"i8\",\"shape\":[9],\"kind\":\"input\"}},"		\
	"\"inputs\":[\"X\",\"Y\",\"Z\"],\"outputs\":[\"X\",\"Y\",\"Z\"],\"commands\":[]}"

static const char *const input_names[3] = { "X", "Y", "Z" };

/* A growing text. */
struct text {
	char *s;
	size_t len, cap;
};

static void add(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			abort();
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

static void adds(struct text *t, const char *s)
{
	add(t, s, strlen(s));
}

static unsigned int rnd(unsigned int *state)
{
	*state = *state * 1103515245u + 12345u;
	return (*state >> 8) & 0xffffff;
}

/* True one time in @n. */
static bool one_in(unsigned int *rs, unsigned int n)
{
	return rnd(rs) % n == 0;
}

/*
 * One value in @faults per ten thousand is made wrong (out of range, not
 * an integer), and one row or bracket in @faults per thousand: 0 for half
 * the documents, which must then read.
 */
static unsigned int faults;

static bool fault(unsigned int *rs, unsigned int per)
{
	return faults && rnd(rs) % per < faults;
}

/* JSON's white space, and the two bytes that look like it and are not. */
static void ws(struct text *t, unsigned int *rs, unsigned int style)
{
	static const char *const runs[] = { " ", "\t", "\n", "\r\n", "  \t", "\r", "\f", "\v" };

	/* Style 0: none; 1: a space now and then; 2: any run, often. */
	if (style == 0 || (style == 1 && !one_in(rs, 8)) || (style == 2 && one_in(rs, 2)))
		return;
	/* \f and \v are not JSON's: a fault. */
	adds(t, runs[rnd(rs) % (fault(rs, 300) ? 8 : 6)]);
}

/* Values at the edges of @lo..@hi, and, as a fault, one past them. */
static long long edge(unsigned int *rs, long long lo, long long hi)
{
	switch (rnd(rs) % 8) {
	case 0: return lo;
	case 1: return hi;
	case 2: return fault(rs, 10) ? lo - 1 : lo + 1;
	case 3: return fault(rs, 10) ? hi + 1 : hi - 1;
	case 4: return lo + (long long)(rnd(rs) % 3);
	case 5: return hi - (long long)(rnd(rs) % 3);
	case 6: return 0;
	}
	return -(long long)(rnd(rs) % 10);
}

/* Something other than a plain integer, one time in many. */
static const char *const odd_values[] = {
	"01", "-01", "00", "-00", "-0", "-", "--1", "+1", "- 1", "1.0", "1.", "-0.0", ".5",
	"1e2", "1E2", "1e-2", "0e0", "-1E+2", "0x10", "null", "true", "\"1\"", "\"\xc3\xa9\"",
	"\xc3\xa9", "\xff", "\x80", "NaN", "-Infinity", "", "[1]", "[]", "{}", "1 1",
	"127.0", "-128e0", "0127", "999999999999999999", "1000000000000000000",
	"9223372036854775808", "-9223372036854775809", "18446744073709551616",
};

/* One element of an input of [@lo, @hi]. */
static void value(struct text *t, unsigned int *rs, long long lo, long long hi)
{
	char num[32];
	long long v;
	unsigned int k = rnd(rs) % 100;

	if (fault(rs, 10000)) {
		adds(t, odd_values[rnd(rs) % (sizeof(odd_values) / sizeof(odd_values[0]))]);
		return;
	}
	if (k < 20) {
		v = edge(rs, lo, hi);
	} else if (k < 24) {
		/* 9 to 20 digits (10 and more are out of range, or a fault). */
		size_t n = (faults ? 9 + rnd(rs) % 12 : 9), i;

		if (hi < 1000)
			n = faults ? n : 2;

		if (one_in(rs, 2))
			adds(t, "-");
		num[0] = (char)('1' + rnd(rs) % 9);
		for (i = 1; i < n; i++)
			num[i] = (char)('0' + rnd(rs) % 10);
		add(t, num, n);
		return;
	} else {
		unsigned long long span = (unsigned long long)(hi - lo) + 1;

		v = lo + (long long)(((unsigned long long)rnd(rs) << 24 | rnd(rs)) % span);
		/* Mostly short numbers, as real inputs are. */
		if (k < 60 && hi > 1000)
			v %= 1000;
	}
	snprintf(num, sizeof(num), "%lld", v);
	adds(t, num);
}

/* A list of @rows rows of @cols values (@rows 0: a flat list of @cols). */
static void list(struct text *t, unsigned int *rs, unsigned int style, int rows,
		 int cols, long long lo, long long hi)
{
	static const char *const seps[] = { ",", ", ", ",\n", " , ", "\t,\t", ",\r\n" };
	const char *sep = seps[rnd(rs) % 6];
	int r, c, n, nrows = rows ? rows : 1;

	if (fault(rs, 1000))
		nrows++;			/* one row too many */
	adds(t, "[");
	for (r = 0; r < nrows; r++) {
		if (r)
			adds(t, one_in(rs, 4) ? "," : sep);
		ws(t, rs, style);
		if (rows)
			adds(t, fault(rs, 1000) ? "[[" : "[");
		n = cols;
		if (fault(rs, 1000))
			n += one_in(rs, 2) ? 1 : -1;	/* a row too long or short */
		for (c = 0; c < n; c++) {
			if (c)
				adds(t, one_in(rs, 3) ? "," : sep);
			ws(t, rs, style);
			value(t, rs, lo, hi);
			ws(t, rs, style);
		}
		if (rows && !fault(rs, 3000))
			adds(t, fault(rs, 3000) ? "]]" : "]");
		ws(t, rs, style);
	}
	adds(t, "]");
}

/* An inputs document, in an order of its own. */
static void document(struct text *t, unsigned int *rs)
{
	unsigned int style = rnd(rs) % 3, first = rnd(rs) % 3, i;

	faults = one_in(rs, 2) ? 0 : 1 + rnd(rs) % 8;

	t->len = 0;
	adds(t, "{");
	for (i = 0; i < 3; i++) {
		unsigned int which = (first + i) % 3;

		if (i)
			adds(t, ",");
		ws(t, rs, style);
		adds(t, "\"");
		adds(t, input_names[which]);
		adds(t, "\":");
		ws(t, rs, style);
		if (which == 0)
			list(t, rs, style, 6, 37, -128, 127);
		else if (which == 1)
			list(t, rs, style, 3, 11, INT32_MIN, INT32_MAX);
		else
			list(t, rs, style, 0, 9, -128, 127);
	}
	ws(t, rs, style);
	adds(t, "}");
}

/* Random edits: a byte changed, inserted or removed; a cut. */
static void mutate(struct text *t, unsigned int *rs)
{
	static const char bytes[] = "[],-0123456789 \t\r\n.eE+\"x\xc3\x80\xff";
	unsigned int n = one_in(rs, 3) ? 1 + rnd(rs) % 3 : 0, i;
	size_t at;

	for (i = 0; i < n && t->len; i++) {
		at = rnd(rs) % t->len;
		switch (rnd(rs) % 3) {
		case 0:
			t->s[at] = bytes[rnd(rs) % (sizeof(bytes) - 1)];
			break;
		case 1:
			add(t, "", 1);		/* room for one more */
			t->len--;
			memmove(t->s + at + 1, t->s + at, t->len - at);
			t->s[at] = bytes[rnd(rs) % (sizeof(bytes) - 1)];
			t->len++;
			break;
		default:
			memmove(t->s + at, t->s + at + 1, t->len - at - 1);
			t->len--;
			break;
		}
	}
	if (one_in(rs, 10) && t->len)
		t->len = rnd(rs) % t->len;	/* truncated */
	t->s[t->len] = '\0';
}

/* How one read ended: its error, or the values of each input. */
struct outcome {
	int rc;
	struct ttpu_error err;
	unsigned char values[3][6 * 37 * 4];
	bool set[3];
};

static void keep_values(const ttpu_program *prog, const ttpu_inputs *in,
			struct outcome *o)
{
	for (int i = 0; i < 3; i++) {
		uint32_t b = ttpu_program_find_buffer(prog, input_names[i]);
		const void *v = ttpu_inputs_values(in, b);
		const struct ttpu_buffer *buf = &prog->buffers[b];

		o->set[i] = v != NULL;
		if (v)
			memcpy(o->values[i], v, buf->count * (buf->dtype == TTPU_DTYPE_I8 ? 1 : 4));
	}
}

enum way { FROM_MEMORY, FROM_FILE, PROGRAM_FIRST, INPUTS_FIRST };

static const char *const way_names[] = { "memory", "file", "program first", "inputs first" };

/* Read @t one @way, the direct readers on or off. */
static void read_one(const ttpu_program *prog, const struct text *t, enum way way,
		     bool direct, struct outcome *o)
{
	ttpu_program *rprog = NULL;
	ttpu_inputs *in = NULL;
	struct text req = { 0 };
	char path[] = "/tmp/test_int_rows.XXXXXX";
	int fd;

	memset(o, 0, sizeof(*o));
	ttpu_int_lists_direct = direct;
	ttpu_commands_direct = direct;
	if (way == FROM_MEMORY || way == FROM_FILE) {
		in = ttpu_inputs_new(prog);
		if (!in)
			abort();
		if (way == FROM_MEMORY) {
			/* Exactly the text, no NUL after it: a read past it is ASan's. */
			char *exact = malloc(t->len ? t->len : 1);

			if (!exact)
				abort();
			memcpy(exact, t->s, t->len);
			o->rc = ttpu_inputs_parse(in, exact, t->len, &o->err);
			free(exact);
		} else {
			fd = mkstemp(path);
			if (fd < 0 || write(fd, t->s, t->len) != (ssize_t)t->len || close(fd))
				abort();
			o->rc = ttpu_inputs_load_file(in, path, &o->err);
			unlink(path);
		}
		if (!o->rc)
			keep_values(prog, in, o);
	} else {
		adds(&req, way == PROGRAM_FIRST ? "{\"program\":" PROGRAM ",\"inputs\":" :
			   "{\"inputs\":");
		add(&req, t->s, t->len);
		adds(&req, way == PROGRAM_FIRST ? "}" : ",\"program\":" PROGRAM "}");
		req.s = realloc(req.s, req.len);	/* exactly the text, as above */
		if (!req.s)
			abort();
		o->rc = ttpu_request_load_buffer(req.s, req.len, &rprog, &in, &o->err);
		if (!o->rc)
			keep_values(rprog, in, o);
		free(req.s);
	}
	ttpu_int_lists_direct = true;
	ttpu_commands_direct = true;
	ttpu_inputs_free(in);
	ttpu_program_free(rprog);
}

static int same(const struct outcome *a, const struct outcome *b, char *why, size_t n)
{
	const struct ttpu_error *x = &a->err, *y = &b->err;

	if (a->rc != b->rc) {
		snprintf(why, n, "rc %d (%.200s) vs %d (%.200s)", a->rc, a->rc ? x->message : "",
			 b->rc, b->rc ? y->message : "");
		return 0;
	}
	if (!a->rc) {
		if (!memcmp(a->set, b->set, sizeof(a->set)) &&
		    !memcmp(a->values, b->values, sizeof(a->values)))
			return 1;
		snprintf(why, n, "the values differ");
		return 0;
	}
	if (x->kind == y->kind && !strcmp(x->message, y->message) &&
	    x->command == y->command && !strcmp(x->op, y->op) &&
	    !strcmp(x->field, y->field) && !strcmp(x->buffer, y->buffer) &&
	    x->element == y->element && x->row == y->row && x->col == y->col &&
	    x->line == y->line && x->column == y->column && x->sys_errno == y->sys_errno)
		return 1;
	snprintf(why, n, "\"%.200s\" (field %.60s, element %ld, %ld:%ld) vs \"%.200s\" (field %.60s, element %ld, %ld:%ld)",
		 x->message, x->field, x->element, x->line, x->column,
		 y->message, y->field, y->element, y->line, y->column);
	return 0;
}

TEST_TIMEOUT(random_inputs_both_ways, TIMEOUT_ROWS)
{
	static struct outcome direct, jsonc;
	unsigned int rs = 20, ok_texts = 0, errors = 0, doc, w;
	struct text t = { 0 };
	struct ttpu_error err;
	ttpu_program *prog;
	char why[600];

	ASSERT_EQ(0, ttpu_program_load_buffer(PROGRAM, strlen(PROGRAM), &prog, &err))
		TH_LOG("%s", err.message);
	for (doc = 0; doc < DOCS; doc++) {
		document(&t, &rs);
		if (faults)
			mutate(&t, &rs);
		for (w = FROM_MEMORY; w <= INPUTS_FIRST; w++) {
			read_one(prog, &t, (enum way)w, true, &direct);
			read_one(prog, &t, (enum way)w, false, &jsonc);
			ASSERT_TRUE(same(&direct, &jsonc, why, sizeof(why)))
				TH_LOG("document %u, %s: %s\n%.*s", doc, way_names[w], why,
				       (int)(t.len > 2000 ? 2000 : t.len), t.s);
			if (w == FROM_MEMORY)
				direct.rc ? errors++ : ok_texts++;
		}
	}
	/* Both outcomes are common: the texts are neither all good nor all bad. */
	EXPECT_LT(DOCS / 20, ok_texts);
	EXPECT_LT(DOCS / 4, errors);
	TH_LOG("%u documents (%u read, %u errors), each read 4 ways both ways",
	       DOCS, ok_texts, errors);
	free(t.s);
	ttpu_program_free(prog);
}

/*
 * Every prefix of a document written as json.dumps() writes it (", "
 * between numbers, here with runs of spaces too), read from a buffer of
 * exactly its length: a fast gear that skips spaces, or ends a block, at
 * the text's end must stop there (ASan), and agree with json-c.
 */
TEST_TIMEOUT(every_prefix_with_spaces, TIMEOUT_ROWS)
{
	static struct outcome direct, jsonc;
	static const char *const seps[] = { ", ", ",  ", " ,   ", ",", ",        " };
	unsigned int rs = 7, i, r, c;
	struct text t = { 0 }, cut = { 0 };
	struct ttpu_error err;
	ttpu_program *prog;
	char why[600], num[16];
	size_t len;

	ASSERT_EQ(0, ttpu_program_load_buffer(PROGRAM, strlen(PROGRAM), &prog, &err))
		TH_LOG("%s", err.message);
	adds(&t, "{\"Z\": [1, -2, 3, 0, -0, 127, -128, 9, 10], \"Y\": [");
	for (r = 0; r < 3; r++) {
		adds(&t, r ? ", [" : "[");
		for (c = 0; c < 11; c++) {
			snprintf(num, sizeof(num), "%d", (int)(rnd(&rs) % 200000) - 100000);
			if (c)
				adds(&t, seps[rnd(&rs) % 5]);
			adds(&t, num);
		}
		adds(&t, "]");
	}
	adds(&t, "], \"X\": [");
	for (r = 0; r < 6; r++) {
		adds(&t, r ? ", [" : "[");
		for (c = 0; c < 37; c++) {
			snprintf(num, sizeof(num), "%d", (int)(rnd(&rs) % 256) - 128);
			if (c)
				adds(&t, seps[rnd(&rs) % 5]);
			adds(&t, num);
		}
		adds(&t, "]");
	}
	adds(&t, "]}");
	for (len = 0; len <= t.len; len++) {
		cut.len = 0;
		add(&cut, t.s, len);
		for (i = FROM_MEMORY; i <= PROGRAM_FIRST; i += PROGRAM_FIRST - FROM_MEMORY) {
			read_one(prog, &cut, (enum way)i, true, &direct);
			read_one(prog, &cut, (enum way)i, false, &jsonc);
			ASSERT_TRUE(same(&direct, &jsonc, why, sizeof(why)))
				TH_LOG("prefix of %zu bytes, %s: %s", len, way_names[i], why);
		}
	}
	/* The whole text reads. */
	EXPECT_EQ(0, direct.rc) TH_LOG("%s", direct.err.message);
	free(t.s);
	free(cut.s);
	ttpu_program_free(prog);
}

TEST_HARNESS_MAIN
