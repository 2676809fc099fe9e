// SPDX-License-Identifier: MIT
/*
 * test_commands.c - every command kind, with expected values computed by
 * hand from the format's definitions (Documentation/ttpu-format.rst).
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "kselftest_harness.h"
#include "rt.h"
#include "rt_program.h"

/*
 * A (input) and B (const), both i8 [4,4]:
 *   A.B = [[9,8,0,6],[1,4,0,2],[41,-44,20,-10],[1,-2,-4,2]]
 */
#define BUFS_AB \
	RT_BUF("A", "i8", "[4,4]", "input") "," \
	RT_CONST("B", "i8", "[4,4]", "[[1,0,2,-1],[0,1,-3,2],[4,-2,0,1],[-1,3,1,0]]") "," \
	RT_CONST("bias", "i32", "[4]", "[-20,5,-3,10]") "," \
	RT_BUF("C", "i32", "[4,4]", "temp")
#define IN_A "{'A':[[1,2,3,4],[-1,0,1,2],[5,-6,7,-8],[0,1,0,-1]]}"

/* Each command and option: a program, its inputs, the output it computes. */

FIXTURE_VARIANT_ADD(program, alloc_zeroes_a_buffer) {
	.prog = RT_PROG(RT_CONST("C", "i32", "[2,3]", "[[1,2,3],[4,5,6]]"),
			"", "'C'", "{'op':'alloc','buf':'C'}"),
	.output = "C",
	WANT(0, 0, 0, 0, 0, 0),
};

/* alloc between two accs into one window restarts the sum. */
FIXTURE_VARIANT_ADD(program, alloc_between_accs_restarts_the_sum) {
	.prog = RT_PROG(BUFS_AB, "'A'", "'C'",
			RT_PASS(0, "A", 0, 0, "B", 0, 0) ","
			RT_PASS(1, "A", 0, 0, "B", 0, 0) ","
			RT_ACC(0, "C", 0, 0) ","
			"{'op':'alloc','buf':'C'},"
			RT_ACC(1, "C", 0, 0)),
	.inputs = IN_A,
	.output = "C",
	WANT(9, 8, 0, 6, 1, 4, 0, 2, 41, -44, 20, -10, 1, -2, -4, 2),
};

FIXTURE_VARIANT_ADD(program, pass_and_acc) {
	.prog = RT_PROG(BUFS_AB, "'A'", "'C'",
			RT_PASS(0, "A", 0, 0, "B", 0, 0) ","
			RT_ACC(0, "C", 0, 0)),
	.inputs = IN_A,
	.output = "C",
	WANT(9, 8, 0, 6, 1, 4, 0, 2, 41, -44, 20, -10, 1, -2, -4, 2),
};

/* acc adds into what dst holds: a const dst starts from its data. */
FIXTURE_VARIANT_ADD(program, acc_adds_to_existing_contents) {
	.prog = RT_PROG(RT_BUF("A", "i8", "[4,4]", "input") ","
			RT_CONST("B", "i8", "[4,4]", "[[1,0,2,-1],[0,1,-3,2],[4,-2,0,1],[-1,3,1,0]]") ","
			RT_CONST("C", "i32", "[4,4]", "[[1,1,1,1],[2,2,2,2],[3,3,3,3],[-1000,0,0,1000]]"),
			"'A'", "'C'",
			RT_PASS(7, "A", 0, 0, "B", 0, 0) ","
			RT_ACC(7, "C", 0, 0)),
	.inputs = IN_A,
	.output = "C",
	WANT(10, 9, 1, 7, 3, 6, 2, 4, 44, -41, 23, -7, -999, -2, -4, 1002),
};

/* Two passes over K (A [4,8] . B [8,4]) summed into one window. */
FIXTURE_VARIANT_ADD(program, acc_chain_over_k) {
	.prog = RT_PROG(RT_BUF("A", "i8", "[4,8]", "input") ","
			RT_CONST("B", "i8", "[8,4]",
				 "[[1,0,2,-1],[0,1,-3,2],[4,-2,0,1],[-1,3,1,0],"
				 "[2,2,2,2],[1,-1,1,-1],[0,5,0,-5],[3,0,0,3]]") ","
			RT_BUF("C", "i32", "[4,4]", "temp"),
			"'A'", "'C'",
			RT_PASS(0, "A", 0, 0, "B", 0, 0) ","
			RT_PASS(1, "A", 0, 4, "B", 4, 0) ","
			RT_ACC(0, "C", 0, 0) ","
			RT_ACC(1, "C", 0, 0)),
	.inputs = "{'A':[[1,2,3,4,1,0,0,1],[-1,0,1,2,2,1,0,0],"
		   "[5,-6,7,-8,0,0,3,0],[0,1,0,-1,0,-1,0,4]]}",
	.output = "C",
	WANT(14, 10, 2, 11, 6, 7, 5, 5, 41, -29, 20, -25, 12, -1, -5, 15),
};

FIXTURE_VARIANT_ADD(program, acc_with_bias) {
	.prog = RT_PROG(BUFS_AB, "'A'", "'C'",
			RT_PASS(0, "A", 0, 0, "B", 0, 0) ","
			"{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'bias'}"),
	.inputs = IN_A,
	.output = "C",
	WANT(-11, 13, -3, 16, -19, 9, -3, 12, 21, -39, 17, 0, -19, 3, -7, 12),
};

FIXTURE_VARIANT_ADD(program, acc_with_relu) {
	.prog = RT_PROG(BUFS_AB, "'A'", "'C'",
			RT_PASS(0, "A", 0, 0, "B", 0, 0) ","
			"{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'relu':true}"),
	.inputs = IN_A,
	.output = "C",
	WANT(9, 8, 0, 6, 1, 4, 0, 2, 41, 0, 20, 0, 1, 0, 0, 2),
};

/* "relu": false is the same as no relu. */
FIXTURE_VARIANT_ADD(program, acc_with_relu_false) {
	.prog = RT_PROG(BUFS_AB, "'A'", "'C'",
			RT_PASS(0, "A", 0, 0, "B", 0, 0) ","
			"{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'relu':false}"),
	.inputs = IN_A,
	.output = "C",
	WANT(9, 8, 0, 6, 1, 4, 0, 2, 41, -44, 20, -10, 1, -2, -4, 2),
};

/*
 * Bias first, then relu: relu-then-bias would give C[0][0] = 9 - 20 = -11
 * and C[2][3] = 0 + 10 = 10 instead of 0 and 0.
 */
FIXTURE_VARIANT_ADD(program, acc_with_bias_then_relu) {
	.prog = RT_PROG(BUFS_AB, "'A'", "'C'",
			RT_PASS(0, "A", 0, 0, "B", 0, 0) ","
			"{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0)
			",'bias':'bias','relu':true}"),
	.inputs = IN_A,
	.output = "C",
	WANT(0, 13, 0, 16, 0, 9, 0, 12, 21, 0, 17, 0, 0, 3, 0, 12),
};

FIXTURE_VARIANT_ADD(program, epilogue_alone) {
	.prog = RT_PROG(RT_CONST("C", "i32", "[4,4]",
				 "[[9,8,0,6],[1,4,0,2],[41,-44,20,-10],[1,-2,-4,2]]") ","
			RT_CONST("bias", "i32", "[4]", "[-20,5,-3,10]"),
			"", "'C'",
			"{'op':'epilogue','dst':" RT_WIN("C", 0, 0)
			",'bias':'bias','relu':true}"),
	.output = "C",
	WANT(0, 13, 0, 16, 0, 9, 0, 12, 21, 0, 17, 0, 0, 3, 0, 12),
};

FIXTURE_VARIANT_ADD(program, epilogue_bias_only) {
	.prog = RT_PROG(RT_CONST("C", "i32", "[2,2]", "[[1,2],[3,4]]") ","
			RT_CONST("bias", "i32", "[2]", "[10,-10]"),
			"", "'C'",
			"{'op':'epilogue','dst':" RT_WIN("C", 0, 0) ",'bias':'bias'}"),
	.output = "C",
	WANT(11, -8, 13, -6),
};

/* An epilogue with neither bias nor relu changes nothing. */
FIXTURE_VARIANT_ADD(program, epilogue_empty_is_identity) {
	.prog = RT_PROG(RT_CONST("C", "i8", "[2,2]", "[[-1,2],[-128,127]]"),
			"", "'C'",
			"{'op':'epilogue','dst':" RT_WIN("C", 0, 0) "}"),
	.output = "C",
	WANT(-1, 2, -128, 127),
};

#define BUFS_XY \
	RT_CONST("X", "i32", "[2,3]", "[[1,-2,3],[100,-100,7]]") "," \
	RT_CONST("Y", "i32", "[2,3]", "[[10,20,30],[-5,5,2147483000]]") "," \
	RT_CONST("v", "i32", "[3]", "[1000,-1000,-2147483648]") "," \
	RT_BUF("Z", "i32", "[2,3]", "temp")

FIXTURE_VARIANT_ADD(program, host_add_same_shape) {
	.prog = RT_PROG(BUFS_XY, "", "'Z'",
			"{'op':'host_add','dst':'Z','a':'X','b':'Y'}"),
	.output = "Z",
	WANT(11, 18, 33, 95, -95, 2147483007),
};

FIXTURE_VARIANT_ADD(program, host_add_broadcast_b_over_rows) {
	.prog = RT_PROG(BUFS_XY, "", "'Z'",
			"{'op':'host_add','dst':'Z','a':'X','b':'v'}"),
	.output = "Z",
	WANT(1001, -1002, -2147483645, 1100, -1100, -2147483641),
};

FIXTURE_VARIANT_ADD(program, host_add_broadcast_a_over_rows) {
	.prog = RT_PROG(BUFS_XY, "", "'Z'",
			"{'op':'host_add','dst':'Z','a':'v','b':'X'}"),
	.output = "Z",
	WANT(1001, -1002, -2147483645, 1100, -1100, -2147483641),
};

FIXTURE_VARIANT_ADD(program, host_add_rank1) {
	.prog = RT_PROG(RT_CONST("p", "i8", "[3]", "[1,-128,60]") ","
			RT_CONST("q", "i8", "[3]", "[-1,0,67]") ","
			RT_BUF("s", "i8", "[3]", "temp"),
			"", "'s'",
			"{'op':'host_add','dst':'s','a':'p','b':'q'}"),
	.output = "s",
	WANT(0, -128, 127),
};

/* dst may be an operand: the sum reads each element before writing it. */
FIXTURE_VARIANT_ADD(program, host_add_in_place) {
	.prog = RT_PROG(BUFS_XY, "", "'X'",
			"{'op':'host_add','dst':'X','a':'X','b':'X'}"),
	.output = "X",
	WANT(2, -4, 6, 200, -200, 14),
};

FIXTURE_VARIANT_ADD(program, host_relu_i32) {
	.prog = RT_PROG(BUFS_XY, "", "'Z'",
			"{'op':'host_relu','dst':'Z','src':'X'}"),
	.output = "Z",
	WANT(1, 0, 3, 100, 0, 7),
};

FIXTURE_VARIANT_ADD(program, host_relu_i8_rank1_in_place) {
	.prog = RT_PROG(RT_CONST("p", "i8", "[4]", "[-128,-1,0,127]"),
			"", "'p'",
			"{'op':'host_relu','dst':'p','src':'p'}"),
	.output = "p",
	WANT(0, 0, 0, 127),
};

/* An output may be an input or const buffer nothing writes. */
TEST(outputs_of_every_kind)
{
	ttpu_result *res;
	struct ttpu_error err;
	int rc = rt_load_run(RT_PROG(RT_BUF("A", "i8", "[2]", "input") ","
				     RT_CONST("K", "i32", "[1,2]", "[[5,6]]") ","
				     RT_BUF("T", "i32", "[2]", "temp"),
				     "'A'", "'K','A','T'", ""),
			     "{'A':[-3,4]}", &res, &err);

	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "K", 5, 6);
	ASSERT_OUTPUT(res, "A", -3, 4);
	ASSERT_OUTPUT(res, "T", 0, 0);
	ASSERT_EQ(NULL, ttpu_result_output(res, "nope", NULL));
	ttpu_result_free(res);
}

TEST(stats_count_passes_and_cycles)
{
	ttpu_result *res;
	struct ttpu_error err;
	const struct ttpu_run_stats *st;
	int rc = rt_load_run(RT_PROG(BUFS_AB, "'A'", "'C'",
				     RT_PASS(3, "A", 0, 0, "B", 0, 0) ","
				     RT_PASS(1, "A", 0, 0, "B", 0, 0) ","
				     RT_ACC(3, "C", 0, 0) ","
				     RT_ACC(1, "C", 0, 0)),
			     IN_A, &res, &err);

	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	st = ttpu_result_stats(res);
	ASSERT_NE(NULL, st);
	ASSERT_EQ(2, st->passes);
	ASSERT_EQ(30, st->total_cycles);
	ASSERT_OUTPUT(res, "C", 18, 16, 0, 12, 2, 8, 0, 4, 82, -88, 40, -20, 2, -4, -8, 4);
	ttpu_result_free(res);
}

static int json_int(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int(v) : -12345;
}

/* The contract's response object: outputs, passes in order, cycles, host ops. */
TEST(response_json)
{
	ttpu_result *res;
	struct ttpu_error err;
	struct json_object *resp, *outs, *c, *data, *passes, *hops;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc = rt_load_run(RT_PROG(BUFS_AB, "'A'", "'C'",
				     "{'op':'alloc','buf':'C'},"
				     RT_PASS(5, "A", 0, 0, "B", 0, 0) ","
				     RT_PASS(2, "A", 0, 0, "B", 0, 0) ","
				     RT_ACC(2, "C", 0, 0) ","
				     "{'op':'acc','pass':5,'dst':" RT_WIN("C", 0, 0) ",'relu':true},"
				     "{'op':'epilogue','dst':" RT_WIN("C", 0, 0) ",'bias':'bias'},"
				     "{'op':'host_relu','dst':'C','src':'C'}"),
			     IN_A, &res, &err);

	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ttpu_result_write_json(res, f, 1, &err)) TH_LOG("%s", err.message);
	fclose(f);
	resp = json_tokener_parse(text);
	ASSERT_NE(NULL, resp) TH_LOG("not JSON: %s", text);

	ASSERT_TRUE(json_object_object_get_ex(resp, "outputs", &outs));
	ASSERT_TRUE(json_object_object_get_ex(outs, "C", &c));
	ASSERT_TRUE(json_object_object_get_ex(c, "data", &data));
	/* relu(2P) + bias, then relu: row 0 is relu([18-20, 16+5, 0-3, 12+10]) */
	ASSERT_STREQ("[ [ 0, 21, 0, 22 ], [ 0, 13, 0, 14 ], [ 62, 5, 37, 10 ], [ 0, 5, 0, 14 ] ]",
		     json_object_to_json_string_ext(data, JSON_C_TO_STRING_SPACED));
	ASSERT_TRUE(json_object_object_get_ex(c, "shape", &data));
	ASSERT_STREQ("[ 4, 4 ]", json_object_to_json_string_ext(data, JSON_C_TO_STRING_SPACED));

	ASSERT_TRUE(json_object_object_get_ex(resp, "passes", &passes));
	ASSERT_EQ(2, json_object_array_length(passes));
	ASSERT_EQ(5, json_int(json_object_array_get_idx(passes, 0), "id"));
	ASSERT_EQ(15, json_int(json_object_array_get_idx(passes, 0), "cycles"));
	ASSERT_EQ(2, json_int(json_object_array_get_idx(passes, 1), "id"));
	ASSERT_EQ(30, json_int(resp, "totalCycles"));

	ASSERT_TRUE(json_object_object_get_ex(resp, "hostOps", &hops));
	ASSERT_EQ(1, json_int(hops, "alloc"));
	ASSERT_EQ(2, json_int(hops, "acc"));
	ASSERT_EQ(1, json_int(hops, "epilogue"));
	ASSERT_EQ(1, json_int(hops, "host_relu"));
	/* absent means 0; present must say 0 */
	if (json_object_object_get_ex(hops, "host_add", &data)) {
		ASSERT_EQ(0, json_object_get_int(data));
	}

	json_object_put(resp);
	free(text);
	ttpu_result_free(res);
}

TEST(error_kind_names)
{
	ASSERT_STREQ("SchemaError", ttpu_error_kind_name(TTPU_SCHEMA_ERROR));
	ASSERT_STREQ("InputError", ttpu_error_kind_name(TTPU_INPUT_ERROR));
	ASSERT_STREQ("RangeError", ttpu_error_kind_name(TTPU_RANGE_ERROR));
	ASSERT_STREQ("EstimateMismatch", ttpu_error_kind_name(TTPU_ESTIMATE_MISMATCH));
	ASSERT_STREQ("DeviceError", ttpu_error_kind_name(TTPU_DEVICE_ERROR));
	ASSERT_STREQ("UsageError", ttpu_error_kind_name(TTPU_USAGE_ERROR));
}

TEST_HARNESS_MAIN
