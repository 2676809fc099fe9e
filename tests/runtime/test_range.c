// SPDX-License-Identifier: MIT
/*
 * test_range.c - RangeError: a value that leaves its buffer's dtype fails
 * the run, checked after every step as written (after "+= tmp", after
 * "+= bias", after relu, after each host_add element), naming the command,
 * the op, the buffer and the element (in buffer coordinates), and it is the
 * FIRST such value in command order. A failed run returns no outputs.
 *
 * relu alone can never leave a range: max(x, 0) of an in-range x is in
 * range for both dtypes (0 is in range, and x > 0 is x). The only relu
 * that can fail is host_relu into a narrower dst (i32 -> i8).
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "kselftest_harness.h"
#include "rt.h"

/* tmp = A window . I, so tmp is A's window itself */
#define ID4 "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]"
#define BUFS_A8 RT_BUF("A", "i8", "[4,8]", "input") "," RT_CONST("I", "i8", "[4,4]", ID4)
/* C[1][2] = 2^31 - 1 - 10: adding 11 there overflows */
#define C_NEAR_MAX(name) RT_CONST(name, "i32", "[4,4]", \
	"[[0,0,0,0],[0,0,2147483637,0],[0,0,0,0],[0,0,0,0]]")
#define C_NEAR_MIN(name) RT_CONST(name, "i32", "[4,4]", \
	"[[0,0,0,0],[0,0,-2147483638,0],[0,0,0,0],[0,0,0,0]]")
/* A(0,0) has 11 at [1][2], A(0,4) has -11 at [1][2] */
#define IN_PM11 "{'A':[[0,0,0,0,0,0,0,0],[0,0,11,0,0,0,-11,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0]]}"
#define IN_SMALL "{'A':[[0,0,0,0,0,0,0,0],[0,0,10,0,0,0,-3,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0]]}"
/* A(0,0) has 11 at [1][2], A(0,4) has 5 */
#define IN_11_5 "{'A':[[0,0,0,0,0,0,0,0],[0,0,11,0,0,0,5,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0]]}"
#define I2 RT_CONST("I2", "i8", "[4,4]", "[[2,0,0,0],[0,2,0,0],[0,0,2,0],[0,0,0,2]]")
#define P0 RT_PASS(0, "A", 0, 0, "I", 0, 0)
#define P1 RT_PASS(1, "A", 0, 4, "I", 0, 0)

static int run(const char *prog, const char *in, struct ttpu_error *err)
{
	ttpu_result *res;
	int rc = rt_load_run(prog, in, &res, err);

	if (!rc)
		ttpu_result_free(res);
	return rc;
}

/*
 * Program @prog run on @inputs: a RangeError at command @cmd (@op), naming
 * buffer @buf and its element @elem at row @r, column @c.
 */
FIXTURE(range_error) {
	struct ttpu_error err;
};

FIXTURE_VARIANT(range_error) {
	const char *prog;	/* single-quoted JSON (RT_PROG) */
	const char *inputs;	/* single-quoted JSON, or NULL: none */
	long cmd;
	const char *op;
	const char *buf;
	long elem, r, c;
};

FIXTURE_SETUP(range_error)
{
	memset(&self->err, 0, sizeof(self->err));
}

FIXTURE_TEARDOWN(range_error)
{
}

TEST_F(range_error, named)
{
	int rc = run(variant->prog, variant->inputs, &self->err);

	ASSERT_ERROR_AT(TTPU_RANGE_ERROR, rc, self->err, NULL, variant->cmd, variant->op,
			variant->buf);
	ASSERT_AT_ELEMENT(self->err, variant->buf, variant->elem, variant->r, variant->c);
}

FIXTURE_VARIANT_ADD(range_error, acc_overflow_after_add_tmp) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MAX("C"), "'A'", "'C'", P0 "," RT_ACC(0, "C", 0, 0)),
	.inputs = IN_PM11,
	.cmd = 1, .op = "acc", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

FIXTURE_VARIANT_ADD(range_error, acc_underflow_after_add_tmp) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MIN("C"), "'A'", "'C'", P1 "," RT_ACC(1, "C", 0, 0)),
	.inputs = IN_PM11,
	.cmd = 1, .op = "acc", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

/* tmp fits (2^31 - 1 - 10 + 10), the bias does not */
FIXTURE_VARIANT_ADD(range_error, acc_overflow_after_bias) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," RT_CONST("b", "i32", "[4]", "[0,0,1,0]"),
			"'A'", "'C'",
			P0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'b'}"),
	.inputs = IN_SMALL,
	.cmd = 1, .op = "acc", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

FIXTURE_VARIANT_ADD(range_error, epilogue_overflow_after_bias) {
	.prog = RT_PROG(C_NEAR_MAX("C") "," RT_CONST("b", "i32", "[4]", "[0,0,11,0]"), "", "'C'",
			"{'op':'epilogue','dst':" RT_WIN("C", 0, 0) ",'bias':'b'}"),
	.cmd = 0, .op = "epilogue", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

/* "+= tmp" overflows; the bias would bring it back: still an error. */
FIXTURE_VARIANT_ADD(range_error, acc_overflow_undone_by_bias) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," RT_CONST("b", "i32", "[4]", "[0,0,-100,0]"),
			"'A'", "'C'",
			P0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'b'}"),
	.inputs = IN_PM11,
	.cmd = 1, .op = "acc", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

/* "+= tmp" underflows; relu would bring it back to 0: still an error. */
FIXTURE_VARIANT_ADD(range_error, acc_underflow_undone_by_relu) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MIN("C"), "'A'", "'C'",
			P1 ",{'op':'acc','pass':1,'dst':" RT_WIN("C", 0, 0) ",'relu':true}"),
	.inputs = IN_PM11,
	.cmd = 1, .op = "acc", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

/* "+= bias" underflows; relu would bring it back: still an error. */
FIXTURE_VARIANT_ADD(range_error, bias_underflow_undone_by_relu) {
	.prog = RT_PROG(C_NEAR_MIN("C") "," RT_CONST("b", "i32", "[4]", "[0,0,-11,0]"), "", "'C'",
			"{'op':'epilogue','dst':" RT_WIN("C", 0, 0) ",'bias':'b','relu':true}"),
	.cmd = 0, .op = "epilogue", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

/*
 * The first acc of a chain overflows, the second would bring the sum back:
 * computing the chain's sum at once would miss it.
 */
FIXTURE_VARIANT_ADD(range_error, chain_overflow_undone_by_next_acc) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MAX("C"), "'A'", "'C'",
			P0 "," P1 "," RT_ACC(0, "C", 0, 0) "," RT_ACC(1, "C", 0, 0)),
	.inputs = IN_PM11,
	.cmd = 2, .op = "acc", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

/* ... and the other way round: the first is fine, the second is not. */
FIXTURE_VARIANT_ADD(range_error, chain_overflow_at_second_acc) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MAX("C"), "'A'", "'C'",
			P0 "," P1 "," RT_ACC(1, "C", 0, 0) "," RT_ACC(0, "C", 0, 0) ","
			"{'op':'alloc','buf':'C'}"),
	.inputs = IN_11_5,
	.cmd = 3, .op = "acc", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

/* i8 dst: 100 * 2 = 200 does not fit */
FIXTURE_VARIANT_ADD(range_error, acc_i8_dst_overflow) {
	.prog = RT_PROG(BUFS_A8 "," I2 "," RT_BUF("C8", "i8", "[4,4]", "temp"), "'A'", "'C8'",
			RT_PASS(0, "A", 0, 0, "I2", 0, 0) "," RT_ACC(0, "C8", 0, 0)),
	.inputs = "{'A':[[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],[0,0,0,100,0,0,0,0],[0,0,0,0,0,0,0,0]]}",
	.cmd = 1, .op = "acc", .buf = "C8", .elem = 11, .r = 2, .c = 3,
};

FIXTURE_VARIANT_ADD(range_error, acc_i8_dst_underflow) {
	.prog = RT_PROG(BUFS_A8 "," RT_CONST("C8", "i8", "[4,4]",
					     "[[0,0,0,0],[0,0,0,0],[0,0,0,0],[-120,0,0,0]]"), "'A'", "'C8'",
			RT_PASS(0, "A", 0, 0, "I", 0, 0) "," RT_ACC(0, "C8", 0, 0)),
	.inputs = "{'A':[[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],[-9,0,0,0,0,0,0,0]]}",
	.cmd = 1, .op = "acc", .buf = "C8", .elem = 12, .r = 3, .c = 0,
};

/* The element is named in buffer coordinates: window (4,4) of an [8,8]. */
FIXTURE_VARIANT_ADD(range_error, element_in_buffer_coordinates) {
	.prog = RT_PROG(BUFS_A8 "," RT_BUF("C8", "i8", "[8,8]", "temp"), "'A'", "'C8'",
			"{'op':'alloc','buf':'C8'}," P0 "," RT_PASS(1, "A", 0, 0, "I", 0, 0) ","
			RT_ACC(0, "C8", 4, 4) "," RT_ACC(1, "C8", 4, 4)),
	.inputs = "{'A':[[0,0,0,0,0,0,0,0],[0,0,-128,0,0,0,0,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0]]}",
	.cmd = 4, .op = "acc", .buf = "C8", .elem = 46, .r = 5, .c = 6,
}; /* C8[5][6] = -128 + -128 */

/* Two elements of one acc overflow: the first in row-major order. */
FIXTURE_VARIANT_ADD(range_error, first_element_row_major) {
	.prog = RT_PROG(BUFS_A8 "," RT_CONST("C", "i32", "[4,4]",
					     "[[0,0,0,0],[0,0,0,2147483647],[0,2147483647,0,0],[0,0,0,0]]"),
			"'A'", "'C'", P0 "," RT_ACC(0, "C", 0, 0)),
	.inputs = "{'A':[[0,0,0,0,0,0,0,0],[0,0,0,1,0,0,0,0],[0,1,0,0,0,0,0,0],[0,0,0,0,0,0,0,0]]}",
	.cmd = 1, .op = "acc", .buf = "C", .elem = 7, .r = 1, .c = 3,
};

/* Two chains overflow: the error is the one whose acc comes first. */
FIXTURE_VARIANT_ADD(range_error, first_chain_in_command_order) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," C_NEAR_MAX("D"), "'A'", "'C','D'",
			P0 "," RT_PASS(1, "A", 0, 0, "I", 0, 0) "," RT_ACC(1, "D", 0, 0) ","
			RT_ACC(0, "C", 0, 0)),
	.inputs = IN_PM11,
	.cmd = 2, .op = "acc", .buf = "D", .elem = 6, .r = 1, .c = 2,
};

FIXTURE_VARIANT_ADD(range_error, first_chain_in_command_order_swapped) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," C_NEAR_MAX("D"), "'A'", "'C','D'",
			P0 "," RT_PASS(1, "A", 0, 0, "I", 0, 0) "," RT_ACC(0, "C", 0, 0) ","
			RT_ACC(1, "D", 0, 0)),
	.inputs = IN_PM11,
	.cmd = 2, .op = "acc", .buf = "C", .elem = 6, .r = 1, .c = 2,
};

/* Interleaved chains: C's first acc is fine, D overflows before C's second. */
FIXTURE_VARIANT_ADD(range_error, first_error_across_interleaved_chains) {
	.prog = RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," C_NEAR_MAX("D"), "'A'", "'C','D'",
			P0 "," P1 "," RT_PASS(2, "A", 0, 0, "I", 0, 0) ","
			RT_ACC(1, "C", 0, 0) "," RT_ACC(2, "D", 0, 0) "," RT_ACC(0, "C", 0, 0)),
	.inputs = IN_11_5,
	.cmd = 4, .op = "acc", .buf = "D", .elem = 6, .r = 1, .c = 2,
};

FIXTURE_VARIANT_ADD(range_error, host_add_overflow) {
	.prog = RT_PROG(RT_CONST("X", "i32", "[2,2]", "[[0,2147483647],[0,0]]") ","
			RT_CONST("Y", "i32", "[2,2]", "[[0,1],[0,0]]") "," RT_BUF("Z", "i32", "[2,2]", "temp"),
			"", "'Z'", "{'op':'alloc','buf':'Z'},{'op':'host_add','dst':'Z','a':'X','b':'Y'}"),
	.cmd = 1, .op = "host_add", .buf = "Z", .elem = 1, .r = 0, .c = 1,
};

FIXTURE_VARIANT_ADD(range_error, host_add_broadcast_underflow) {
	.prog = RT_PROG(RT_CONST("X", "i32", "[2,2]", "[[0,0],[-2147483648,0]]") ","
			RT_CONST("v", "i32", "[2]", "[-1,0]") "," RT_BUF("Z", "i32", "[2,2]", "temp"),
			"", "'Z'", "{'op':'host_add','dst':'Z','a':'v','b':'X'}"),
	.cmd = 0, .op = "host_add", .buf = "Z", .elem = 2, .r = 1, .c = 0,
};

FIXTURE_VARIANT_ADD(range_error, host_add_i8_dst_overflow) {
	.prog = RT_PROG(RT_CONST("p", "i8", "[3]", "[0,100,0]") "," RT_CONST("q", "i8", "[3]", "[0,28,0]")
			"," RT_BUF("s", "i8", "[3]", "temp"),
			"", "'s'", "{'op':'host_add','dst':'s','a':'p','b':'q'}"),
	.cmd = 0, .op = "host_add", .buf = "s", .elem = 1, .r = 0, .c = 1,
};

/* The one relu that can fail: an i32 source into an i8 dst. */
FIXTURE_VARIANT_ADD(range_error, host_relu_into_narrower_dst) {
	.prog = RT_PROG(RT_CONST("x", "i32", "[1,3]", "[[-500,127,128]]") "," RT_BUF("y", "i8", "[1,3]", "temp"),
			"", "'y'", "{'op':'host_relu','dst':'y','src':'x'}"),
	.cmd = 0, .op = "host_relu", .buf = "y", .elem = 2, .r = 0, .c = 2,
};

TEST(relu_at_range_edges_never_fails)
{
	ttpu_result *res;
	struct ttpu_error err;
	int rc = rt_load_run(RT_PROG(BUFS_A8 "," RT_CONST("C", "i32", "[4,4]",
				     "[[-2147483648,2147483647,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]") ","
				     RT_CONST("x", "i8", "[2]", "[-128,127]") ","
				     RT_BUF("y", "i8", "[2]", "temp"),
				     "'A'", "'C','y'",
				     P0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'relu':true},"
				     "{'op':'host_relu','dst':'y','src':'x'}"),
			     "{'A':[[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0]]}",
			     &res, &err);

	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "C", 0, 2147483647, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	ASSERT_OUTPUT(res, "y", 0, 127);
	ttpu_result_free(res);
}

/* Writes outside dst are dropped, so they cannot overflow either. */
TEST(dropped_writes_are_not_checked)
{
	ttpu_result *res;
	struct ttpu_error err;
	int rc = rt_load_run(RT_PROG(BUFS_A8 "," I2 "," RT_CONST("C8", "i8", "[2,2]", "[[1,2],[3,4]]"),
				     "'A'", "'C8'",
				     RT_PASS(0, "A", 0, 0, "I2", 0, 0) "," RT_ACC(0, "C8", 0, 0)),
			     "{'A':[[10,20,0,0,0,0,0,0],[30,40,0,-128,0,0,0,0],"
			     "[0,0,-128,0,0,0,0,0],[0,0,0,0,0,0,0,0]]}", &res, &err);

	/* in bounds: 2 * A + C8; out of bounds: -256, dropped */
	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "C8", 21, 42, 63, 84);
	ttpu_result_free(res);
}

/* A failed run leaves nothing behind: the next run starts clean. */
TEST(run_after_range_error)
{
	struct ttpu_error err;
	ttpu_program *prog;
	ttpu_result *res;

	ASSERT_EQ(0, rt_load(RT_PROG(BUFS_A8 "," C_NEAR_MAX("C"), "'A'", "'C'",
				     P0 "," P1 "," RT_ACC(0, "C", 0, 0) "," RT_ACC(1, "C", 0, 0)),
			     &prog, &err)) TH_LOG("%s", err.message);
	ASSERT_KIND(TTPU_RANGE_ERROR, rt_run(prog, IN_PM11, &res, &err), err);
	ASSERT_EQ(NULL, res);
	ASSERT_EQ(0, rt_run(prog, IN_SMALL, &res, &err)) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(res, "C", 0, 0, 0, 0, 0, 0, 2147483644, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	ttpu_result_free(res);
	ttpu_program_free(prog);
}

/* The contract's failure response carries the same where. */
TEST(error_json_names_the_element)
{
	struct json_object *obj, *e, *v;
	struct ttpu_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc = run(RT_PROG(BUFS_A8 "," C_NEAR_MAX("C"), "'A'", "'C'", P0 "," RT_ACC(0, "C", 0, 0)),
		     IN_PM11, &err);

	ASSERT_KIND(TTPU_RANGE_ERROR, rc, err);
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ttpu_error_write_json(&err, f));
	fclose(f);
	obj = json_tokener_parse(text);
	ASSERT_NE(NULL, obj) TH_LOG("not JSON: %s", text);
	ASSERT_TRUE(json_object_object_get_ex(obj, "error", &e));
	ASSERT_TRUE(json_object_object_get_ex(e, "kind", &v));
	ASSERT_STREQ("RangeError", json_object_get_string(v));
	ASSERT_TRUE(json_object_object_get_ex(e, "message", &v));
	ASSERT_STREQ(err.message, json_object_get_string(v));
	ASSERT_TRUE(json_object_object_get_ex(e, "command", &v));
	ASSERT_EQ(1, json_object_get_int(v));
	ASSERT_TRUE(json_object_object_get_ex(e, "buffer", &v));
	ASSERT_STREQ("C", json_object_get_string(v));
	ASSERT_TRUE(json_object_object_get_ex(e, "element", &v));
	ASSERT_EQ(6, json_object_get_int(v));
	json_object_put(obj);
	free(text);
}

TEST_HARNESS_MAIN
