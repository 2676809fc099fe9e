// SPDX-License-Identifier: MIT
/*
 * test_direct_int_lists.c - the two readers of a list of integers cannot
 * disagree
 *
 * Each row or element of a list of integers, buffer data or inputs, is read
 * by the direct reader (text_json_int_list_direct.c) when it is plain, else
 * by json-c. Every text here is read twice, with the direct readers on and
 * off, and both must end the same (direct_both_ways.h): a program from
 * memory, from a file and inside a request; an inputs document from memory
 * and from a file, and run.
 *
 * The lists: each value of a table (signs, leading zeros, fractions,
 * exponents, 18 to 20 digits and beyond int64, the edges of i8 and i32,
 * white space, strings, nulls, nested lists, odd separators) at each place
 * of a row of buffer data, of a flat list and of an input row, where the
 * direct reader's own verdict on the row is checked too; every prefix and
 * 2000 random mutations of an inputs document (alone and inside a request);
 * a row cut at the fd reader's first window boundary at each of its bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rt.h"
#include "text_json_stream.h"
#include "direct_both_ways.h"
#include "direct_variants.h"
#include "../lib/test_timeout.h"

/*
 * Read @text (@len bytes; from @path when not NULL: the fd reader) as the
 * inputs of @prog, the direct readers on or off, and run it.
 */
static void load_inputs(const ttpu_program *prog, const char *text, size_t len,
			const char *path, bool direct, struct outcome *o)
{
	ttpu_inputs *in = ttpu_inputs_new(prog);

	if (!in)
		abort();
	memset(o, 0, sizeof(*o));
	set_direct(direct);
	if (path)
		o->rc = ttpu_inputs_load_file(in, path, &o->err);
	else
		o->rc = ttpu_inputs_parse(in, text, len, &o->err);
	set_direct(true);
	if (!o->rc)
		keep_response(prog, in, o);
	ttpu_inputs_free(in);
}

/* The inputs document @text read both ways agrees, as agree() says. */
static int agree_inputs(const ttpu_program *prog, const char *text, size_t len,
			const char *path, char *why, size_t n)
{
	struct outcome direct, jsonc;
	int ok;

	load_inputs(prog, text, len, path, true, &direct);
	load_inputs(prog, text, len, path, false, &jsonc);
	ok = same(&direct, &jsonc, why, n);
	free_outcome(&direct);
	free_outcome(&jsonc);
	compared++;
	return ok;
}

/* The variants' program, loaded. */
static ttpu_program *plain_program(void)
{
	char *text = variant_program(&variants[1]);
	ttpu_program *prog;
	struct ttpu_error err;

	if (ttpu_program_load_buffer(text, strlen(text), &prog, &err))
		abort();
	free(text);
	return prog;
}

/* @text with the first @old replaced by @new; malloc'd. */
static char *replace(const char *text, const char *old, const char *new)
{
	const char *at = strstr(text, old);
	size_t n = strlen(text) - strlen(old) + strlen(new) + 1;
	char *r = malloc(n);

	if (!at || !r)
		abort();
	snprintf(r, n, "%.*s%s%s", (int)(at - text), text, new, at + strlen(old));
	return r;
}

struct int_variant {
	const char *v;		/* one element's text, single-quoted JSON */
	bool plain;		/* a row holding it is the direct reader's */
};

static const struct int_variant int_variants[] = {
	{ "1", true }, { "0", true }, { "-0", true }, { "-1", true },
	{ "127", true }, { "-128", true }, { "128", true }, { "-129", true },
	{ "2147483647", true }, { "-2147483648", true },
	{ "2147483648", true }, { "-2147483649", true },
	{ "999999999999999999", true }, { "-999999999999999999", true },
	{ "1000000000000000000", false }, { "-1000000000000000000", false },
	{ "9223372036854775807", false }, { "-9223372036854775808", false },
	{ "9223372036854775808", false }, { "-9223372036854775809", false },
	{ "18446744073709551615", false }, { "18446744073709551616", false },
	{ "99999999999999999999999", false }, { "-99999999999999999999999", false },
	{ "-", false }, { "--1", false }, { "+1", false }, { "- 1", false },
	{ "01", false }, { "-01", false }, { "00", false }, { "-00", false },
	{ "1.0", false }, { "1.", false }, { "-0.0", false }, { ".5", false },
	{ "1e2", false }, { "1E+2", false }, { "1e-2", false }, { "0e0", false },
	{ "1E2", false }, { "-1e2", false },
	{ " 1 ", true }, { "\t\n1\r\n", true }, { "\f1", false }, { "1\v", false },
	{ "null", false }, { "true", false }, { "false", false }, { "'1'", false },
	{ "'x'", false }, { "[1]", false }, { "[]", false }, { "{}", false },
	{ "", false }, { "1 1", false }, { "0x10", false }, { "NaN", false },
	{ "Infinity", false }, { "-Infinity", false }, { "1,", false },
	{ "1]", false }, { "1}", false }, { "\xc3\xa9", false },
};

/* Whole rows of W (shape [8, 4]), for what the table cannot say. */
static const struct int_variant row_variants[] = {
	{ "[]", true }, { "[ ]", true }, { "[1,0,0]", true }, { "[ 1 ,0, 0 ,0 ]", true },
	{ "[1,0,0,0,0]", true }, { "[1,0,0,0,]", false }, { "[,1,0,0,0]", false },
	{ "[1,,0,0,0]", false }, { "[1 0,0,0]", false }, { "[1,0,0,0}", false },
	{ "[1;0,0,0]", false }, { "[[1,0,0,0]]", false }, { "[1,0,0,[0]]", false },
};

/* Whether the direct reader takes the row @sq (single-quoted) whole. */
static bool int_row_taken(const char *sq)
{
	char *row = rt_dq(sq), *text;
	struct ttpu_int_list l = { 0 };
	struct ttpu_direct_ints d;
	struct ttpu_jstream js;
	struct ttpu_error err;
	size_t len;
	bool took;

	/* What follows a row in a list: the direct reader must not need it. */
	len = strlen(row) + 2;
	text = malloc(len + 1);
	if (!text)
		abort();
	snprintf(text, len + 1, "%s]}", row);
	if (ttpu_js_init(&js, text, len, TTPU_SCHEMA_ERROR, &err))
		abort();
	took = ttpu_js_ints_scan_direct(&js, true, UINT64_MAX, -128, 127, &l, &d);
	/* Taken, the cursor is after the row; left, all is as it was. */
	if (took ? js.elem_start != 0 || l.n != d.len : js.pos != 0 || l.n != 0)
		abort();
	/* A row that ends early ("[1]]..."): the rest is the list's to read. */
	took = took && js.pos == strlen(row);
	ttpu_js_fini(&js);
	ttpu_int_list_free(&l);
	free(row);
	free(text);
	return took;
}

/* The variants' program with its first @old replaced by @sq (single-quoted); malloc'd. */
static char *program_with(const char *old, const char *sq)
{
	char *prog = variant_program(&variants[1]), *dq = rt_dq(sq), *text;

	text = replace(prog, old, dq);
	free(prog);
	free(dq);
	return text;
}

/*
 * The row @sq in place of W's first row (buffer data, in the program) and
 * of A's first row (inputs): both agree everywhere.
 */
static void try_row(struct __test_metadata *_metadata, const ttpu_program *prog,
		    const char *sq, const char *sq_flat)
{
	char *text, *inputs = rt_dq(INPUTS_A), *in_sq, *in_text, *row;
	char why[1024], path[32];
	size_t n;
	int rc;

	/* W's first row. */
	n = strlen(sq) + 16;
	row = malloc(n);
	if (!row)
		abort();
	snprintf(row, n, "'data':[%s", sq);
	text = program_with("\"data\":[[1,0,0,0]", row);
	EXPECT_TRUE(agree_everywhere(text, strlen(text), inputs, &rc, why, sizeof(why))) {
		TH_LOG("W row %s: %s", sq, why);
	}
	free(text);
	free(row);

	/* b's flat data. */
	if (sq_flat) {
		text = program_with("[1,-2,3,-4,5,-6,7,-8]", sq_flat);
		EXPECT_TRUE(agree_everywhere(text, strlen(text), inputs, &rc, why, sizeof(why))) {
			TH_LOG("b %s: %s", sq_flat, why);
		}
		free(text);
	}

	/* A's first row, in an inputs document. */
	in_sq = replace(INPUTS_A, "[1,-2,3,-4,5,-6,7,-8]", sq);
	in_text = rt_dq(in_sq);
	write_temp(in_text, strlen(in_text), path);
	EXPECT_TRUE(agree_inputs(prog, in_text, strlen(in_text), NULL, why, sizeof(why))) {
		TH_LOG("A row %s (memory): %s", sq, why);
	}
	EXPECT_TRUE(agree_inputs(prog, in_text, strlen(in_text), path, why, sizeof(why))) {
		TH_LOG("A row %s (file): %s", sq, why);
	}
	unlink(path);
	free(in_sq);
	free(in_text);
	free(inputs);
}

TEST_TIMEOUT(int_list_variants, TIMEOUT_MUTATIONS)
{
	ttpu_program *prog = plain_program();
	size_t i, pos, plain = 0, rows = 0;
	char row[160], flat[160];

	for (i = 0; i < sizeof(int_variants) / sizeof(int_variants[0]); i++) {
		const char *v = int_variants[i].v;

		/* First, inside and last in a row of 4 (W) and in the flat list b. */
		for (pos = 0; pos < 3; pos++) {
			snprintf(row, sizeof(row), pos == 0 ? "[%s,0,0,0]" :
				 pos == 1 ? "[1,%s,0,0]" : "[1,0,0,%s]", v);
			snprintf(flat, sizeof(flat), pos == 0 ? "[%s,-2,3,-4,5,-6,7,-8]" :
				 pos == 1 ? "[1,-2,3,%s,5,-6,7,-8]" : "[1,-2,3,-4,5,-6,7,%s]", v);
			EXPECT_EQ(int_variants[i].plain, int_row_taken(row)) {
				TH_LOG("row %s", row);
			}
			try_row(_metadata, prog, row, flat);
			plain += int_variants[i].plain;
			rows++;
		}
	}
	for (i = 0; i < sizeof(row_variants) / sizeof(row_variants[0]); i++) {
		EXPECT_EQ(row_variants[i].plain, int_row_taken(row_variants[i].v)) {
			TH_LOG("row %s", row_variants[i].v);
		}
		try_row(_metadata, prog, row_variants[i].v, NULL);
		plain += row_variants[i].plain;
		rows++;
	}
	TH_LOG("%zu rows (%zu plain), %lu texts loaded both ways", rows, plain, compared);
	ttpu_program_free(prog);
}

/* Every prefix and random mutations of an inputs document. */
TEST_TIMEOUT(inputs_prefixes_and_mutations, TIMEOUT_MUTATIONS)
{
	ttpu_program *prog = plain_program();
	char *text = rt_dq(INPUTS_A), *prog_text = variant_program(&variants[1]), *m;
	size_t len = strlen(text), n;
	unsigned int state = 7;
	char why[1024];

	for (n = 0; n <= len; n++) {
		ASSERT_TRUE(agree_inputs(prog, text, n, NULL, why, sizeof(why))) {
			TH_LOG("cut at %zu: %s", n, why);
		}
	}
	m = malloc(len + 8);
	ASSERT_NE(NULL, m);
	for (int i = 0; i < 2000; i++) {
		n = mutate(m, text, len, 0, &state);
		m[n] = '\0';
		ASSERT_TRUE(agree_inputs(prog, m, n, NULL, why, sizeof(why))) {
			TH_LOG("mutation %d: %s\n%s", i, why, m);
		}
		/* The same inputs inside a request (read with the program). */
		ASSERT_TRUE(agree(prog_text, strlen(prog_text), NULL, m, IN_REQUEST, NULL, why,
				  sizeof(why))) {
			TH_LOG("mutation %d in a request: %s\n%s", i, why, m);
		}
	}
	TH_LOG("%zu prefixes, 2000 mutations, %lu texts loaded both ways", len + 1, compared);
	free(m);
	free(text);
	free(prog_text);
	ttpu_program_free(prog);
}

/*
 * A row of A's inputs, and one of W's data, cut by the end of the fd
 * reader's first window at each of their bytes.
 */
TEST_TIMEOUT(int_rows_at_window_boundary, TIMEOUT_MUTATIONS)
{
	ttpu_program *prog = plain_program();
	char *inputs = rt_dq(INPUTS_A), *prog_text = variant_program(&variants[1]);
	const char *row = "[[1,-2,3,-4,5,-6,7,-8]", *wrow = "[[1,0,0,0]";
	char why[1024], path[32];
	size_t cuts = 0;

	for (int which = 0; which < 2; which++) {
		const char *base = which ? prog_text : inputs, *mark = which ? wrow : row;
		size_t head = (size_t)(strstr(base, mark) - base), blen = strlen(base);

		for (size_t before = 1; before <= strlen(mark) + 1; before++) {
			size_t pad = FD_WINDOW - before - head, len = blen + pad;
			char *text = malloc(len + 1);

			ASSERT_NE(NULL, text);
			memcpy(text, base, head);
			for (size_t i = 0; i < pad; i++)
				text[head + i] = i % 100 == 99 ? '\n' : ' ';
			strcpy(text + head + pad, base + head);
			write_temp(text, len, path);
			if (which) {
				EXPECT_TRUE(agree(text, len, path, inputs, FROM_FILE, NULL, why,
						  sizeof(why))) {
					TH_LOG("W's data cut %zu bytes in: %s", before, why);
				}
			} else {
				EXPECT_TRUE(agree_inputs(prog, text, len, path, why, sizeof(why))) {
					TH_LOG("A's row cut %zu bytes in: %s", before, why);
				}
			}
			unlink(path);
			free(text);
			cuts++;
		}
	}
	TH_LOG("%zu cuts, %lu texts loaded both ways", cuts, compared);
	free(inputs);
	free(prog_text);
	ttpu_program_free(prog);
}

TEST_HARNESS_MAIN
