// SPDX-License-Identifier: MIT
/*
 * test_inputs.c - a request's input values: every way the caller can get
 * them wrong is an InputError naming the input (and the element, when one
 * element is at fault); the program itself is valid throughout.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "rt.h"

/* A: i8 [2,3], W: i32 [3], out = A + W (broadcast) */
#define PROG_AW RT_PROG(RT_BUF("A", "i8", "[2,3]", "input") "," \
			RT_BUF("W", "i32", "[3]", "input") "," \
			RT_BUF("O", "i32", "[2,3]", "temp"), \
			"'A','W'", "'O'", "{'op':'host_add','dst':'O','a':'A','b':'W'}")

TEST(valid_inputs_run)
{
	ttpu_result *res;
	struct ttpu_error err;
	int rc = rt_load_run(PROG_AW, "{'W':[1000,-2147483648,0],'A':[[-128,0,127],[1,2,3]]}",
			     &res, &err);

	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "O", 872, -2147483648, 127, 1001, -2147483646, 3);
	ttpu_result_free(res);
}

/*
 * Inputs @sq for PROG_AW: an InputError naming input @buf and, when one
 * element is at fault, that element (@elem, at row @r, column @c; -1 when
 * none). A @text error (the inputs are not JSON, or not an object of
 * arrays) is checked for its kind only.
 */
FIXTURE(input_error) {
	ttpu_program *prog;
};

FIXTURE_VARIANT(input_error) {
	const char *sq;		/* single-quoted JSON, or NULL: none given */
	const char *buf;
	long elem, r, c;
	bool text;
};

FIXTURE_SETUP(input_error)
{
	struct ttpu_error err;

	ASSERT_EQ(0, rt_load(PROG_AW, &self->prog, &err)) TH_LOG("%s", err.message);
}

FIXTURE_TEARDOWN(input_error)
{
	ttpu_program_free(self->prog);
}

TEST_F(input_error, named)
{
	struct ttpu_error err;
	ttpu_result *res = NULL;
	int rc = rt_run(self->prog, variant->sq, &res, &err);

	ttpu_result_free(res);
	if (variant->text) {
		ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, NULL);
		return;
	}
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, variant->buf);
	ASSERT_EQ(variant->elem, err.element);
	ASSERT_EQ(variant->r, err.row);
	ASSERT_EQ(variant->c, err.col);
}

FIXTURE_VARIANT_ADD(input_error, missing) {
	.sq = "{'A':[[1,2,3],[4,5,6]]}",
	.buf = "W", .elem = -1, .r = -1, .c = -1,
};

FIXTURE_VARIANT_ADD(input_error, none_given) {
	.sq = NULL,
	.buf = "A", .elem = -1, .r = -1, .c = -1,
};

FIXTURE_VARIANT_ADD(input_error, extra) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[1,2,3],'Z':[1]}",
	.buf = "Z", .elem = -1, .r = -1, .c = -1,
};

FIXTURE_VARIANT_ADD(input_error, duplicate_key) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[1,2,3],'A':[[1,2,3],[4,5,6]]}",
	.buf = "A", .elem = -1, .r = -1, .c = -1,
};

FIXTURE_VARIANT_ADD(input_error, too_few_rows) {
	.sq = "{'A':[[1,2,3]],'W':[1,2,3]}",
	.buf = "A", .elem = -1, .r = -1, .c = -1,
};

FIXTURE_VARIANT_ADD(input_error, short_row) {
	.sq = "{'A':[[1,2,3],[4,5]],'W':[1,2,3]}",
	.buf = "A", .elem = -1, .r = -1, .c = -1,
};

FIXTURE_VARIANT_ADD(input_error, rank1_given_nested) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[[1,2,3]]}",
	.buf = "W", .elem = -1, .r = -1, .c = -1,
};

FIXTURE_VARIANT_ADD(input_error, rank2_given_flat) {
	.sq = "{'A':[1,2,3,4,5,6],'W':[1,2,3]}",
	.buf = "A", .elem = -1, .r = -1, .c = -1,
};

FIXTURE_VARIANT_ADD(input_error, fraction) {
	.sq = "{'A':[[1,2,3],[4,2.0,6]],'W':[1,2,3]}",
	.buf = "A", .elem = 4, .r = 1, .c = 1,
};

FIXTURE_VARIANT_ADD(input_error, exponent) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[1,1e2,3]}",
	.buf = "W", .elem = 1, .r = 0, .c = 1,
};

FIXTURE_VARIANT_ADD(input_error, boolean) {
	.sq = "{'A':[[true,2,3],[4,5,6]],'W':[1,2,3]}",
	.buf = "A", .elem = 0, .r = 0, .c = 0,
};

FIXTURE_VARIANT_ADD(input_error, string_value) {
	.sq = "{'A':[[1,2,3],[4,5,'6']],'W':[1,2,3]}",
	.buf = "A", .elem = 5, .r = 1, .c = 2,
};

FIXTURE_VARIANT_ADD(input_error, null_value) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[null,2,3]}",
	.buf = "W", .elem = 0, .r = 0, .c = 0,
};

FIXTURE_VARIANT_ADD(input_error, i8_too_big) {
	.sq = "{'A':[[1,2,128],[4,5,6]],'W':[1,2,3]}",
	.buf = "A", .elem = 2, .r = 0, .c = 2,
};

FIXTURE_VARIANT_ADD(input_error, i8_too_small) {
	.sq = "{'A':[[1,2,3],[-129,5,6]],'W':[1,2,3]}",
	.buf = "A", .elem = 3, .r = 1, .c = 0,
};

FIXTURE_VARIANT_ADD(input_error, i32_too_big) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[1,2,2147483648]}",
	.buf = "W", .elem = 2, .r = 0, .c = 2,
};

FIXTURE_VARIANT_ADD(input_error, i32_too_small) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[-2147483649,2,3]}",
	.buf = "W", .elem = 0, .r = 0, .c = 0,
};

FIXTURE_VARIANT_ADD(input_error, beyond_int64) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[1,99999999999999999999,3]}",
	.buf = "W", .elem = 1, .r = 0, .c = 1,
};

FIXTURE_VARIANT_ADD(input_error, not_object) {
	.sq = "[1,2,3]",
	.text = true,
};

FIXTURE_VARIANT_ADD(input_error, truncated) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[1,2",
	.text = true,
};

FIXTURE_VARIANT_ADD(input_error, trailing_data) {
	.sq = "{'A':[[1,2,3],[4,5,6]],'W':[1,2,3]} x",
	.text = true,
};

FIXTURE_VARIANT_ADD(input_error, not_array) {
	.sq = "{'A':5,'W':[1,2,3]}",
	.text = true,
};

/* PROG_AW loaded, and an empty set of its inputs to fill by the API. */
FIXTURE(inputs_api) {
	ttpu_program *prog;
	ttpu_inputs *in;
};

FIXTURE_SETUP(inputs_api)
{
	struct ttpu_error err;

	self->in = NULL;
	ASSERT_EQ(0, rt_load(PROG_AW, &self->prog, &err)) TH_LOG("%s", err.message);
	self->in = ttpu_inputs_new(self->prog);
	ASSERT_NE(NULL, self->in);
}

FIXTURE_TEARDOWN(inputs_api)
{
	ttpu_inputs_free(self->in);
	ttpu_program_free(self->prog);
}

/* ttpu_inputs_set(): count and range checked like parsed values */
TEST_F(inputs_api, set_wrong_count)
{
	static const int32_t v[5] = { 1, 2, 3, 4, 5 };
	struct ttpu_error err;
	int rc;

	rc = ttpu_inputs_set(self->in, "A", v, 5, &err);
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, "A");
}

TEST_F(inputs_api, set_out_of_range)
{
	static const int32_t v[6] = { 1, 2, 3, 4, -200, 6 };
	struct ttpu_error err;
	int rc;

	rc = ttpu_inputs_set(self->in, "A", v, 6, &err);
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, "A");
	ASSERT_EQ(4, err.element);
	ASSERT_EQ(1, err.row);
	ASSERT_EQ(1, err.col);
}

TEST_F(inputs_api, set_unknown_and_non_input)
{
	static const int32_t v[6] = { 0 };
	struct ttpu_error err;

	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, ttpu_inputs_set(self->in, "Z", v, 6, &err), err,
			NULL, -1, NULL, "Z");
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, ttpu_inputs_set(self->in, "O", v, 6, &err), err,
			NULL, -1, NULL, "O");
}

/* A run with a missing input names it, after values were set by the API. */
TEST_F(inputs_api, set_then_run_missing_one)
{
	static const int32_t a[6] = { 1, 2, 3, 4, 5, 6 };
	struct ttpu_error err;
	ttpu_result *res = NULL;
	int rc;

	ASSERT_EQ(0, ttpu_inputs_set(self->in, "A", a, 6, &err)) TH_LOG("%s", err.message);
	rc = ttpu_run(self->prog, rt_engine(), self->in, &res, &err);
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, "W");
	ASSERT_EQ(NULL, res);
}

TEST_F(inputs_api, set_then_run)
{
	static const int32_t a[6] = { 1, 2, 3, 4, 5, 6 }, w[3] = { 10, 20, -30 };
	struct ttpu_error err;
	ttpu_result *res = NULL;

	ASSERT_EQ(0, ttpu_inputs_set(self->in, "A", a, 6, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_inputs_set(self->in, "W", w, 3, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_run(self->prog, rt_engine(), self->in, &res, &err)) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "O", 11, 22, -27, 14, 25, -24);
	ttpu_result_free(res);
}

/* The same inputs may be set again; the last values count. */
TEST_F(inputs_api, set_twice_last_wins)
{
	static const int32_t a1[6] = { 1, 1, 1, 1, 1, 1 }, a2[6] = { 2, 2, 2, 2, 2, 2 };
	static const int32_t w[3] = { 0, 0, 0 };
	struct ttpu_error err;
	ttpu_result *res = NULL;

	ASSERT_EQ(0, ttpu_inputs_set(self->in, "A", a1, 6, &err));
	ASSERT_EQ(0, ttpu_inputs_set(self->in, "A", a2, 6, &err));
	ASSERT_EQ(0, ttpu_inputs_set(self->in, "W", w, 3, &err));
	ASSERT_EQ(0, ttpu_run(self->prog, rt_engine(), self->in, &res, &err)) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "O", 2, 2, 2, 2, 2, 2);
	ttpu_result_free(res);
}

TEST_F(inputs_api, load_file_missing)
{
	struct ttpu_error err;
	int rc;

	rc = ttpu_inputs_load_file(self->in, "/nonexistent/in.json", &err);
	ASSERT_KIND(TTPU_SYSTEM_ERROR, rc, err);
}

/*
 * A word where the inputs object belongs: only a whole literal is called
 * by its type; "nul", "n" or "tru" are no JSON value at all, and say so
 * (their first byte alone once called them null or a boolean). Programs
 * are read by the same walker.
 */
TEST(word_instead_of_object)
{
	static const struct { const char *text, *message; } cases[] = {
		{ "nul", "inputs: malformed JSON: expected an object, got \"nul\"" },
		{ "n", "inputs: malformed JSON: expected an object, got \"n\"" },
		{ "tru\n", "inputs: malformed JSON: expected an object, got \"tru\"" },
		{ "nully", "inputs: malformed JSON: expected an object, got \"nully\"" },
		{ "Null", "inputs: malformed JSON: expected an object, got \"Null\"" },
		{ "xyzzyxyzzyxyzzyxyzzyxyzzyxyzzy",
		  "inputs: malformed JSON: expected an object, got \"xyzzyxyzzyxyzzyxyzzyxyzz...\"" },
		{ "null", "inputs: expected an object, got null" },
		{ " false ", "inputs: expected an object, got a boolean" },
		{ "true,", "inputs: expected an object, got a boolean" },
	};
	struct ttpu_error err;
	ttpu_program *prog;

	ASSERT_EQ(0, rt_load(PROG_AW, &prog, &err)) TH_LOG("%s", err.message);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ttpu_inputs *in = ttpu_inputs_new(prog);
		int rc = ttpu_inputs_parse(in, cases[i].text, strlen(cases[i].text), &err);

		EXPECT_EQ(-TTPU_INPUT_ERROR, rc);
		EXPECT_STREQ(cases[i].message, err.message);
		EXPECT_EQ(1, err.line);
		EXPECT_EQ(1 + (long)strspn(cases[i].text, " "), err.column);
		ttpu_inputs_free(in);
	}
	ttpu_program_free(prog);
	ASSERT_EQ(-TTPU_SCHEMA_ERROR, ttpu_program_load_buffer("nul\n", 4, &prog, &err));
	EXPECT_STREQ("malformed JSON: expected an object, got \"nul\"", err.message);
}

TEST_HARNESS_MAIN
