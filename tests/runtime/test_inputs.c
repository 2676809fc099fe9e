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

static ttpu_program *prog;

static int run_inputs(const char *sq, struct ttpu_error *err)
{
	ttpu_result *res;
	int rc;

	if (!prog && rt_load(PROG_AW, &prog, err))
		return 1000;
	rc = rt_run(prog, sq, &res, err);
	if (!rc)
		ttpu_result_free(res);
	return rc;
}

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

#define INPUT_ERROR(name, sq, buf, elem, r, c) \
	TEST(name) \
	{ \
		struct ttpu_error err; \
		int rc = run_inputs(sq, &err); \
		ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, buf); \
		ASSERT_EQ((long)(elem), err.element); \
		ASSERT_EQ((long)(r), err.row); \
		ASSERT_EQ((long)(c), err.col); \
		ttpu_program_free(prog); \
	}

INPUT_ERROR(input_missing, "{'A':[[1,2,3],[4,5,6]]}", "W", -1, -1, -1)
INPUT_ERROR(input_none_given, NULL, "A", -1, -1, -1)
INPUT_ERROR(input_extra, "{'A':[[1,2,3],[4,5,6]],'W':[1,2,3],'Z':[1]}", "Z", -1, -1, -1)
INPUT_ERROR(input_duplicate_key, "{'A':[[1,2,3],[4,5,6]],'W':[1,2,3],'A':[[1,2,3],[4,5,6]]}",
	    "A", -1, -1, -1)
INPUT_ERROR(input_too_few_rows, "{'A':[[1,2,3]],'W':[1,2,3]}", "A", -1, -1, -1)
INPUT_ERROR(input_short_row, "{'A':[[1,2,3],[4,5]],'W':[1,2,3]}", "A", -1, -1, -1)
INPUT_ERROR(input_rank1_given_nested, "{'A':[[1,2,3],[4,5,6]],'W':[[1,2,3]]}", "W", -1, -1, -1)
INPUT_ERROR(input_rank2_given_flat, "{'A':[1,2,3,4,5,6],'W':[1,2,3]}", "A", -1, -1, -1)
INPUT_ERROR(input_float, "{'A':[[1,2,3],[4,2.0,6]],'W':[1,2,3]}", "A", 4, 1, 1)
INPUT_ERROR(input_exponent, "{'A':[[1,2,3],[4,5,6]],'W':[1,1e2,3]}", "W", 1, 0, 1)
INPUT_ERROR(input_bool, "{'A':[[true,2,3],[4,5,6]],'W':[1,2,3]}", "A", 0, 0, 0)
INPUT_ERROR(input_string, "{'A':[[1,2,3],[4,5,'6']],'W':[1,2,3]}", "A", 5, 1, 2)
INPUT_ERROR(input_null, "{'A':[[1,2,3],[4,5,6]],'W':[null,2,3]}", "W", 0, 0, 0)
INPUT_ERROR(input_i8_too_big, "{'A':[[1,2,128],[4,5,6]],'W':[1,2,3]}", "A", 2, 0, 2)
INPUT_ERROR(input_i8_too_small, "{'A':[[1,2,3],[-129,5,6]],'W':[1,2,3]}", "A", 3, 1, 0)
INPUT_ERROR(input_i32_too_big, "{'A':[[1,2,3],[4,5,6]],'W':[1,2,2147483648]}", "W", 2, 0, 2)
INPUT_ERROR(input_i32_too_small, "{'A':[[1,2,3],[4,5,6]],'W':[-2147483649,2,3]}", "W", 0, 0, 0)
INPUT_ERROR(input_beyond_int64, "{'A':[[1,2,3],[4,5,6]],'W':[1,99999999999999999999,3]}",
	    "W", 1, 0, 1)

#define INPUT_TEXT_ERROR(name, sq) \
	TEST(name) \
	{ \
		struct ttpu_error err; \
		int rc = run_inputs(sq, &err); \
		ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, NULL); \
		ttpu_program_free(prog); \
	}

INPUT_TEXT_ERROR(inputs_not_object, "[1,2,3]")
INPUT_TEXT_ERROR(inputs_truncated, "{'A':[[1,2,3],[4,5,6]],'W':[1,2")
INPUT_TEXT_ERROR(inputs_trailing_data, "{'A':[[1,2,3],[4,5,6]],'W':[1,2,3]} x")
INPUT_TEXT_ERROR(input_not_array, "{'A':5,'W':[1,2,3]}")

/* ttpu_inputs_set(): count and range checked like parsed values */
TEST(set_wrong_count)
{
	static const int32_t v[5] = { 1, 2, 3, 4, 5 };
	struct ttpu_error err;
	ttpu_inputs *in;
	int rc;

	ASSERT_EQ(0, rt_load(PROG_AW, &prog, &err));
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	rc = ttpu_inputs_set(in, "A", v, 5, &err);
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, "A");
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

TEST(set_out_of_range)
{
	static const int32_t v[6] = { 1, 2, 3, 4, -200, 6 };
	struct ttpu_error err;
	ttpu_inputs *in;
	int rc;

	ASSERT_EQ(0, rt_load(PROG_AW, &prog, &err));
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	rc = ttpu_inputs_set(in, "A", v, 6, &err);
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, "A");
	ASSERT_EQ(4, err.element);
	ASSERT_EQ(1, err.row);
	ASSERT_EQ(1, err.col);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

TEST(set_unknown_and_non_input)
{
	static const int32_t v[6] = { 0 };
	struct ttpu_error err;
	ttpu_inputs *in;

	ASSERT_EQ(0, rt_load(PROG_AW, &prog, &err));
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, ttpu_inputs_set(in, "Z", v, 6, &err), err,
			NULL, -1, NULL, "Z");
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, ttpu_inputs_set(in, "O", v, 6, &err), err,
			NULL, -1, NULL, "O");
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

/* A run with a missing input names it, after values were set by the API. */
TEST(set_then_run_missing_one)
{
	static const int32_t a[6] = { 1, 2, 3, 4, 5, 6 };
	struct ttpu_error err;
	ttpu_result *res = NULL;
	ttpu_inputs *in;
	int rc;

	ASSERT_EQ(0, rt_load(PROG_AW, &prog, &err));
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, ttpu_inputs_set(in, "A", a, 6, &err)) TH_LOG("%s", err.message);
	rc = ttpu_run(prog, rt_engine(), in, &res, &err);
	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, "W");
	ASSERT_EQ(NULL, res);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

TEST(set_then_run)
{
	static const int32_t a[6] = { 1, 2, 3, 4, 5, 6 }, w[3] = { 10, 20, -30 };
	struct ttpu_error err;
	ttpu_result *res = NULL;
	ttpu_inputs *in;

	ASSERT_EQ(0, rt_load(PROG_AW, &prog, &err));
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, ttpu_inputs_set(in, "A", a, 6, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_inputs_set(in, "W", w, 3, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_run(prog, rt_engine(), in, &res, &err)) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "O", 11, 22, -27, 14, 25, -24);
	ttpu_result_free(res);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

/* The same inputs may be set again; the last values count. */
TEST(set_twice_last_wins)
{
	static const int32_t a1[6] = { 1, 1, 1, 1, 1, 1 }, a2[6] = { 2, 2, 2, 2, 2, 2 };
	static const int32_t w[3] = { 0, 0, 0 };
	struct ttpu_error err;
	ttpu_result *res = NULL;
	ttpu_inputs *in;

	ASSERT_EQ(0, rt_load(PROG_AW, &prog, &err));
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, ttpu_inputs_set(in, "A", a1, 6, &err));
	ASSERT_EQ(0, ttpu_inputs_set(in, "A", a2, 6, &err));
	ASSERT_EQ(0, ttpu_inputs_set(in, "W", w, 3, &err));
	ASSERT_EQ(0, ttpu_run(prog, rt_engine(), in, &res, &err)) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "O", 2, 2, 2, 2, 2, 2);
	ttpu_result_free(res);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

TEST(inputs_load_file_missing)
{
	struct ttpu_error err;
	ttpu_inputs *in;
	int rc;

	ASSERT_EQ(0, rt_load(PROG_AW, &prog, &err));
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	rc = ttpu_inputs_load_file(in, "/nonexistent/in.json", &err);
	ASSERT_KIND(TTPU_SYSTEM_ERROR, rc, err);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

TEST_HARNESS_MAIN
