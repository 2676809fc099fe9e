// SPDX-License-Identifier: MIT
/*
 * test_schema_buffers.c - one test per way a program's buffers are
 * rejected: shapes, the inputs and outputs lists, const data.
 *
 * Every program here is the valid base program of rt_reject.h with exactly
 * one thing wrong, so only one check can fire; each test asserts the kind
 * and where the error points (field, command, op, buffer).
 */
#include <stdint.h>
#include <time.h>

#include "kselftest_harness.h"
#include "program_load.h"
#include "rt.h"
#include "rt_reject.h"

/* ---- shapes ---- */

FIXTURE_VARIANT_ADD(reject, shape_rank0) {
	.sq = PROG(RT_BUF("A", "i8", "[]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A.shape", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, shape_rank3) {
	.sq = PROG(RT_BUF("A", "i8", "[4,4,1]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A.shape", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, shape_dim0) {
	.sq = PROG(RT_BUF("A", "i8", "[4,0]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A.shape*", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, shape_dim_negative) {
	.sq = PROG(RT_BUF("A", "i8", "[-4,4]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A.shape*", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, shape_dim_float) {
	.sq = PROG(RT_BUF("A", "i8", "[4.0,4]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A.shape*", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, shape_not_array) {
	.sq = PROG(RT_BUF("A", "i8", "4", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A.shape", .cmd = -1, .op = "", .buf = "A",
};

/*
 * 2^62 elements: must be refused from the numbers, before any allocation.
 * "Fast" is in this process's CPU time, which other work on the machine
 * does not stretch as it does the wall clock (valgrind, at a load of 10 on
 * 2 cores: 541 ms of wall clock).
 */
TEST(shape_absurd_rejected_fast)
{
	struct ttpu_error err;
	struct timespec t0, t1;
	int rc;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	rc = load_err(PROG(A_BUF "," B_BUF "," RT_BUF("C", "i32", "[2147483647,2147483647]", "temp")
			   "," BIAS_BUF, CMDS), &err);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	ASSERT_ERROR_AT(TTPU_SCHEMA_ERROR, rc, err, "buffers.C.shape*", -1, "", "C");
	ASSERT_LT((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec),
		  500000000L);
}

/*
 * Each buffer fits the loader's total (TTPU_MAX_TOTAL_ELEMENTS = 2^28), the
 * two together do not: the second is refused, again before allocating.
 */
TEST(shapes_beyond_total_cap)
{
	struct ttpu_error err;
	int rc;

	ASSERT_EQ((uint64_t)1 << 28, TTPU_MAX_TOTAL_ELEMENTS);
	rc = load_err(PROG(BUFS "," RT_BUF("T1", "i8", "[16384,16000]", "temp") ","
			   RT_BUF("T2", "i8", "[16384,1000]", "temp"), CMDS), &err);
	ASSERT_ERROR_AT(TTPU_SCHEMA_ERROR, rc, err, "buffers.T2.shape", -1, "", "T2");
}

/* ---- inputs and outputs lists ---- */

FIXTURE_VARIANT_ADD(reject, inputs_omit_an_input) {
	.sq = RT_PROG(BUFS, "", "'C'", CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "inputs", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, inputs_name_a_const) {
	.sq = RT_PROG(BUFS, "'A','B'", "'C'", CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "inputs[1]", .cmd = -1, .op = "", .buf = "B",
};

FIXTURE_VARIANT_ADD(reject, inputs_name_twice) {
	.sq = RT_PROG(BUFS, "'A','A'", "'C'", CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "inputs[1]", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, inputs_name_unknown) {
	.sq = RT_PROG(BUFS, "'A','Z'", "'C'", CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "inputs[1]", .cmd = -1, .op = "", .buf = "Z",
};

FIXTURE_VARIANT_ADD(reject, inputs_not_strings) {
	.sq = RT_PROG(BUFS, "'A',1", "'C'", CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "inputs[1]", .cmd = -1, .op = "", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, outputs_unknown) {
	.sq = RT_PROG(BUFS, "'A'", "'Z'", CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "outputs[0]", .cmd = -1, .op = "", .buf = "Z",
};

FIXTURE_VARIANT_ADD(reject, outputs_duplicate) {
	.sq = RT_PROG(BUFS, "'A'", "'C','C'", CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "outputs[1]", .cmd = -1, .op = "", .buf = "C",
};

/* ---- const data ---- */

FIXTURE_VARIANT_ADD(reject, const_data_missing) {
	.sq = PROG(A_BUF ",'B':{'dtype':'i8','shape':[4,4],'kind':'const'}," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.B", .cmd = -1, .op = "", .buf = "B",
	.says = "\"data\"",
};

FIXTURE_VARIANT_ADD(reject, const_data_too_few_rows) {
	.sq = PROG(A_BUF "," RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0]]") ","
		C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.B.data*", .cmd = -1, .op = "", .buf = "B",
};

FIXTURE_VARIANT_ADD(reject, const_data_short_row) {
	.sq = PROG(A_BUF "," RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0],[0,0,1,0],[0,0,0,1]]") ","
		C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.B.data*", .cmd = -1, .op = "", .buf = "B",
};

FIXTURE_VARIANT_ADD(reject, const_data_rank1_nested) {
	.sq = PROG(BUFS "," RT_CONST("v", "i32", "[2]", "[[1,2]]"), CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.v.data*", .cmd = -1, .op = "", .buf = "v",
};

FIXTURE_VARIANT_ADD(reject, const_data_rank2_flat) {
	.sq = PROG(BUFS "," RT_CONST("m", "i32", "[1,2]", "[1,2]"), CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.m.data*", .cmd = -1, .op = "", .buf = "m",
};

FIXTURE_VARIANT_ADD(reject, const_data_i8_too_big) {
	.sq = PROG(A_BUF "," RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,128],[0,0,0,1]]") ","
		C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.B.data*", .cmd = -1, .op = "", .buf = "B",
};

FIXTURE_VARIANT_ADD(reject, const_data_i8_too_small) {
	.sq = PROG(A_BUF "," RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[-129,0,0,1]]") ","
		C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.B.data*", .cmd = -1, .op = "", .buf = "B",
};

FIXTURE_VARIANT_ADD(reject, const_data_i32_too_big) {
	.sq = PROG(A_BUF "," B_BUF "," C_BUF "," RT_CONST("bias", "i32", "[4]", "[1,2,3,2147483648]"), CMDS),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "buffers.bias.data*", .cmd = -1, .op = "", .buf = "bias",
};

FIXTURE_VARIANT_ADD(reject, const_data_float) {
	.sq = PROG(A_BUF "," B_BUF "," C_BUF "," RT_CONST("bias", "i32", "[4]", "[1,2.0,3,4]"), CMDS),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "buffers.bias.data*", .cmd = -1, .op = "", .buf = "bias",
};

FIXTURE_VARIANT_ADD(reject, const_data_exponent) {
	.sq = PROG(A_BUF "," B_BUF "," C_BUF "," RT_CONST("bias", "i32", "[4]", "[1,2,1e2,4]"), CMDS),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "buffers.bias.data*", .cmd = -1, .op = "", .buf = "bias",
};

FIXTURE_VARIANT_ADD(reject, const_data_bool) {
	.sq = PROG(A_BUF "," B_BUF "," C_BUF "," RT_CONST("bias", "i32", "[4]", "[1,true,3,4]"), CMDS),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "buffers.bias.data*", .cmd = -1, .op = "", .buf = "bias",
};

FIXTURE_VARIANT_ADD(reject, data_on_temp) {
	.sq = PROG(A_BUF "," B_BUF "," BIAS_BUF ",'C':{'dtype':'i32','shape':[1,1],'kind':'temp','data':[[0]]}",
		CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.C.data", .cmd = -1, .op = "", .buf = "C",
};

FIXTURE_VARIANT_ADD(reject, data_on_input) {
	.sq = PROG(B_BUF "," C_BUF "," BIAS_BUF
		",'A':{'dtype':'i8','shape':[1,1],'kind':'input','data':[[0]]}", CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A.data", .cmd = -1, .op = "", .buf = "A",
};

TEST_HARNESS_MAIN
