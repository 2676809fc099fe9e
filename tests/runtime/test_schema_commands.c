// SPDX-License-Identifier: MIT
/*
 * test_schema_commands.c - one test per way a program's commands are
 * rejected: windows, passes and their accs, epilogues and allocs, the
 * shapes of host_add and host_relu.
 *
 * Every program here is the valid base program of rt_reject.h with exactly
 * one thing wrong, so only one check can fire; each test asserts the kind
 * and where the error points (field, command, op, buffer).
 */

#include "kselftest_harness.h"
#include "rt.h"
#include "rt_reject.h"

/* ---- windows ---- */

FIXTURE_VARIANT_ADD(reject, window_on_rank1) {
	.sq = PROG(BUFS "," RT_CONST("v", "i8", "[4]", "[1,2,3,4]"),
		RT_PASS(0, "v", 0, 0, "B", 0, 0) "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].a*", .cmd = 0, .op = "pass", .buf = "v",
};

FIXTURE_VARIANT_ADD(reject, window_r_negative) {
	.sq = PROG(BUFS, RT_PASS(0, "A", -1, 0, "B", 0, 0) "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].a.r", .cmd = 0, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, window_c_negative) {
	.sq = PROG(BUFS, PASS0 "," RT_ACC(0, "C", 0, -4)),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1].dst.c", .cmd = 1, .op = "acc", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, window_r_float) {
	.sq = PROG(BUFS, RT_PASS(0, "A", 0, 0, "B", 4.0, 0) "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].b.r", .cmd = 0, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, window_r_beyond_int64) {
	.sq = PROG(BUFS, RT_PASS(0, "A", 99999999999999999999, 0, "B", 0, 0) "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].a.r", .cmd = 0, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, window_buffer_unknown) {
	.sq = PROG(BUFS, RT_PASS(0, "Z", 0, 0, "B", 0, 0) "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].a.buf", .cmd = 0, .op = "pass", .buf = "Z",
};

FIXTURE_VARIANT_ADD(reject, pass_a_on_i32) {
	.sq = PROG(BUFS, RT_PASS(0, "C", 0, 0, "B", 0, 0) "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].a*", .cmd = 0, .op = "pass", .buf = "C",
};

FIXTURE_VARIANT_ADD(reject, pass_b_on_i32) {
	.sq = PROG(BUFS, RT_PASS(0, "A", 0, 0, "C", 0, 0) "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].b*", .cmd = 0, .op = "pass", .buf = "C",
};

/* ---- passes and accs ---- */

FIXTURE_VARIANT_ADD(reject, pass_id_duplicate) {
	.sq = PROG(BUFS, PASS0 "," RT_PASS(0, "A", 0, 0, "B", 0, 0) "," ACC0 "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1].id", .cmd = 1, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, pass_id_negative) {
	.sq = PROG(BUFS, RT_PASS(-1, "A", 0, 0, "B", 0, 0) "," RT_ACC(-1, "C", 0, 0)),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].id", .cmd = 0, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, pass_id_true) {
	.sq = PROG(BUFS, RT_PASS(true, "A", 0, 0, "B", 0, 0) "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].id", .cmd = 0, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, pass_id_exponent) {
	.sq = PROG(BUFS, RT_PASS(0e0, "A", 0, 0, "B", 0, 0) "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].id", .cmd = 0, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, pass_never_consumed) {
	.sq = PROG(BUFS, CMDS "," RT_PASS(1, "A", 0, 0, "B", 0, 0)),
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = 2, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, pass_consumed_twice) {
	.sq = PROG(BUFS, CMDS "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2].pass", .cmd = 2, .op = "acc", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, acc_before_its_pass) {
	.sq = PROG(BUFS, ACC0 "," PASS0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].pass", .cmd = 0, .op = "acc", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, acc_unknown_pass) {
	.sq = PROG(BUFS, PASS0 "," ACC0 "," RT_ACC(9, "C", 0, 0)),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2].pass", .cmd = 2, .op = "acc", .buf = NULL,
};
/* ids are unique among all passes, consumed or not */
FIXTURE_VARIANT_ADD(reject, pass_id_reused_after_consumed) {
	.sq = PROG(BUFS, CMDS "," PASS0 "," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2].id", .cmd = 2, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, acc_dst_rank1) {
	.sq = PROG(BUFS, PASS0 "," RT_ACC(0, "bias", 0, 0)),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "commands[1].dst*", .cmd = 1, .op = "acc", .buf = "bias",
};

FIXTURE_VARIANT_ADD(reject, acc_dst_unknown) {
	.sq = PROG(BUFS, PASS0 "," RT_ACC(0, "Z", 0, 0)),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "commands[1].dst.buf", .cmd = 1, .op = "acc", .buf = "Z",
};

FIXTURE_VARIANT_ADD(reject, acc_bias_rank2) {
	.sq = PROG(BUFS "," RT_CONST("b2", "i32", "[1,4]", "[[1,2,3,4]]"),
		PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'b2'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1].bias", .cmd = 1, .op = "acc", .buf = "b2",
};

FIXTURE_VARIANT_ADD(reject, acc_bias_too_short) {
	.sq = PROG(BUFS "," RT_CONST("b3", "i32", "[3]", "[1,2,3]"),
		PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'b3'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1].bias", .cmd = 1, .op = "acc", .buf = "b3",
};

FIXTURE_VARIANT_ADD(reject, acc_bias_unknown) {
	.sq = PROG(BUFS, PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'Z'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1].bias", .cmd = 1, .op = "acc", .buf = "Z",
};

FIXTURE_VARIANT_ADD(reject, epilogue_bias_too_short) {
	.sq = PROG(BUFS "," RT_CONST("b3", "i32", "[3]", "[1,2,3]"),
		CMDS ",{'op':'epilogue','dst':" RT_WIN("C", 0, 0) ",'bias':'b3'}"),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "commands[2].bias", .cmd = 2, .op = "epilogue", .buf = "b3",
};

FIXTURE_VARIANT_ADD(reject, epilogue_dst_rank1) {
	.sq = PROG(BUFS, CMDS ",{'op':'epilogue','dst':" RT_WIN("bias", 0, 0) ",'relu':true}"),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "commands[2].dst*", .cmd = 2, .op = "epilogue", .buf = "bias",
};

FIXTURE_VARIANT_ADD(reject, alloc_unknown_buffer) {
	.sq = PROG(BUFS, CMDS ",{'op':'alloc','buf':'Z'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2].buf", .cmd = 2, .op = "alloc", .buf = "Z",
};

/* ---- host_add / host_relu shapes ---- */

#define XY_BUFS BUFS "," RT_BUF("X", "i32", "[2,3]", "temp") "," \
	RT_BUF("Y", "i32", "[3,2]", "temp") "," RT_BUF("R", "i32", "[1,3]", "temp") "," \
	RT_BUF("v3", "i32", "[3]", "temp") "," RT_BUF("v2", "i32", "[2]", "temp") "," \
	RT_BUF("X8", "i8", "[2,3]", "temp")

/* the positive control for the shapes below */
TEST(host_shapes_valid)
{
	struct ttpu_error err;

	ASSERT_EQ(0, load_err(PROG(XY_BUFS, CMDS
				   ",{'op':'host_add','dst':'X','a':'X','b':'v3'}"
				   ",{'op':'host_add','dst':'X','a':'v3','b':'X'}"
				   ",{'op':'host_add','dst':'X8','a':'X','b':'X'}"
				   ",{'op':'host_add','dst':'v3','a':'v3','b':'v3'}"
				   ",{'op':'host_relu','dst':'X8','src':'X'}"), &err))
		TH_LOG("%s", err.message);
}

FIXTURE_VARIANT_ADD(reject, host_add_shape_mismatch) {
	.sq = PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'X','a':'X','b':'Y'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = 2, .op = "host_add", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, host_add_row_vector_is_not_broadcast) {
	.sq = PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'X','a':'X','b':'R'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = 2, .op = "host_add", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, host_add_broadcast_wrong_length) {
	.sq = PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'X','a':'X','b':'v2'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = 2, .op = "host_add", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, host_add_dst_shape_mismatch) {
	.sq = PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'Y','a':'X','b':'X'}"),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "commands[2].dst", .cmd = 2, .op = "host_add", .buf = "Y",
};

FIXTURE_VARIANT_ADD(reject, host_add_dst_rank1_for_broadcast) {
	.sq = PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'v3','a':'X','b':'v3'}"),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "commands[2].dst", .cmd = 2, .op = "host_add", .buf = "v3",
};

FIXTURE_VARIANT_ADD(reject, host_add_unknown_operand) {
	.sq = PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'X','a':'X','b':'Z'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2].b", .cmd = 2, .op = "host_add", .buf = "Z",
};

FIXTURE_VARIANT_ADD(reject, host_relu_shape_mismatch) {
	.sq = PROG(XY_BUFS, CMDS ",{'op':'host_relu','dst':'Y','src':'X'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = 2, .op = "host_relu", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, host_relu_rank_mismatch) {
	.sq = PROG(XY_BUFS, CMDS ",{'op':'host_relu','dst':'R','src':'v3'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = 2, .op = "host_relu", .buf = NULL,
};

TEST_HARNESS_MAIN
