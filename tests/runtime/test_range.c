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

#define RANGE(name, prog, in, cmd, op, buf, elem, r, c) \
	TEST(name) \
	{ \
		struct ttpu_error err; \
		int rc = run(prog, in, &err); \
		ASSERT_ERROR_AT(TTPU_RANGE_ERROR, rc, err, NULL, cmd, op, buf); \
		ASSERT_AT_ELEMENT(err, buf, elem, r, c); \
	}

RANGE(acc_overflow_after_add_tmp,
      RT_PROG(BUFS_A8 "," C_NEAR_MAX("C"), "'A'", "'C'", P0 "," RT_ACC(0, "C", 0, 0)),
      IN_PM11, 1, "acc", "C", 6, 1, 2)

RANGE(acc_underflow_after_add_tmp,
      RT_PROG(BUFS_A8 "," C_NEAR_MIN("C"), "'A'", "'C'", P1 "," RT_ACC(1, "C", 0, 0)),
      IN_PM11, 1, "acc", "C", 6, 1, 2)

/* tmp fits (2^31 - 1 - 10 + 10), the bias does not */
RANGE(acc_overflow_after_bias,
      RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," RT_CONST("b", "i32", "[4]", "[0,0,1,0]"),
	      "'A'", "'C'",
	      P0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'b'}"),
      IN_SMALL, 1, "acc", "C", 6, 1, 2)

RANGE(epilogue_overflow_after_bias,
      RT_PROG(C_NEAR_MAX("C") "," RT_CONST("b", "i32", "[4]", "[0,0,11,0]"), "", "'C'",
	      "{'op':'epilogue','dst':" RT_WIN("C", 0, 0) ",'bias':'b'}"),
      NULL, 0, "epilogue", "C", 6, 1, 2)

/* "+= tmp" overflows; the bias would bring it back: still an error. */
RANGE(acc_overflow_undone_by_bias,
      RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," RT_CONST("b", "i32", "[4]", "[0,0,-100,0]"),
	      "'A'", "'C'",
	      P0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'b'}"),
      IN_PM11, 1, "acc", "C", 6, 1, 2)

/* "+= tmp" underflows; relu would bring it back to 0: still an error. */
RANGE(acc_underflow_undone_by_relu,
      RT_PROG(BUFS_A8 "," C_NEAR_MIN("C"), "'A'", "'C'",
	      P1 ",{'op':'acc','pass':1,'dst':" RT_WIN("C", 0, 0) ",'relu':true}"),
      IN_PM11, 1, "acc", "C", 6, 1, 2)

/* "+= bias" underflows; relu would bring it back: still an error. */
RANGE(bias_underflow_undone_by_relu,
      RT_PROG(C_NEAR_MIN("C") "," RT_CONST("b", "i32", "[4]", "[0,0,-11,0]"), "", "'C'",
	      "{'op':'epilogue','dst':" RT_WIN("C", 0, 0) ",'bias':'b','relu':true}"),
      NULL, 0, "epilogue", "C", 6, 1, 2)

/*
 * The first acc of a chain overflows, the second would bring the sum back:
 * computing the chain's sum at once would miss it.
 */
RANGE(chain_overflow_undone_by_next_acc,
      RT_PROG(BUFS_A8 "," C_NEAR_MAX("C"), "'A'", "'C'",
	      P0 "," P1 "," RT_ACC(0, "C", 0, 0) "," RT_ACC(1, "C", 0, 0)),
      IN_PM11, 2, "acc", "C", 6, 1, 2)

/* ... and the other way round: the first is fine, the second is not. */
RANGE(chain_overflow_at_second_acc,
      RT_PROG(BUFS_A8 "," C_NEAR_MAX("C"), "'A'", "'C'",
	      P0 "," P1 "," RT_ACC(1, "C", 0, 0) "," RT_ACC(0, "C", 0, 0) ","
	      "{'op':'alloc','buf':'C'}"),
      IN_11_5, 3, "acc", "C", 6, 1, 2)

/* i8 dst: 100 * 2 = 200 does not fit */
RANGE(acc_i8_dst_overflow,
      RT_PROG(BUFS_A8 "," I2 "," RT_BUF("C8", "i8", "[4,4]", "temp"), "'A'", "'C8'",
	      RT_PASS(0, "A", 0, 0, "I2", 0, 0) "," RT_ACC(0, "C8", 0, 0)),
      "{'A':[[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],[0,0,0,100,0,0,0,0],[0,0,0,0,0,0,0,0]]}",
      1, "acc", "C8", 11, 2, 3)

RANGE(acc_i8_dst_underflow,
      RT_PROG(BUFS_A8 "," RT_CONST("C8", "i8", "[4,4]",
				   "[[0,0,0,0],[0,0,0,0],[0,0,0,0],[-120,0,0,0]]"), "'A'", "'C8'",
	      RT_PASS(0, "A", 0, 0, "I", 0, 0) "," RT_ACC(0, "C8", 0, 0)),
      "{'A':[[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0],[-9,0,0,0,0,0,0,0]]}",
      1, "acc", "C8", 12, 3, 0)

/* The element is named in buffer coordinates: window (4,4) of an [8,8]. */
RANGE(element_in_buffer_coordinates,
      RT_PROG(BUFS_A8 "," RT_BUF("C8", "i8", "[8,8]", "temp"), "'A'", "'C8'",
	      "{'op':'alloc','buf':'C8'}," P0 "," RT_PASS(1, "A", 0, 0, "I", 0, 0) ","
	      RT_ACC(0, "C8", 4, 4) "," RT_ACC(1, "C8", 4, 4)),
      "{'A':[[0,0,0,0,0,0,0,0],[0,0,-128,0,0,0,0,0],[0,0,0,0,0,0,0,0],[0,0,0,0,0,0,0,0]]}",
      4, "acc", "C8", 46, 5, 6) /* C8[5][6] = -128 + -128 */

/* Two elements of one acc overflow: the first in row-major order. */
RANGE(first_element_row_major,
      RT_PROG(BUFS_A8 "," RT_CONST("C", "i32", "[4,4]",
				   "[[0,0,0,0],[0,0,0,2147483647],[0,2147483647,0,0],[0,0,0,0]]"),
	      "'A'", "'C'", P0 "," RT_ACC(0, "C", 0, 0)),
      "{'A':[[0,0,0,0,0,0,0,0],[0,0,0,1,0,0,0,0],[0,1,0,0,0,0,0,0],[0,0,0,0,0,0,0,0]]}",
      1, "acc", "C", 7, 1, 3)

/* Two chains overflow: the error is the one whose acc comes first. */
RANGE(first_chain_in_command_order,
      RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," C_NEAR_MAX("D"), "'A'", "'C','D'",
	      P0 "," RT_PASS(1, "A", 0, 0, "I", 0, 0) "," RT_ACC(1, "D", 0, 0) ","
	      RT_ACC(0, "C", 0, 0)),
      IN_PM11, 2, "acc", "D", 6, 1, 2)

RANGE(first_chain_in_command_order_swapped,
      RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," C_NEAR_MAX("D"), "'A'", "'C','D'",
	      P0 "," RT_PASS(1, "A", 0, 0, "I", 0, 0) "," RT_ACC(0, "C", 0, 0) ","
	      RT_ACC(1, "D", 0, 0)),
      IN_PM11, 2, "acc", "C", 6, 1, 2)

/* Interleaved chains: C's first acc is fine, D overflows before C's second. */
RANGE(first_error_across_interleaved_chains,
      RT_PROG(BUFS_A8 "," C_NEAR_MAX("C") "," C_NEAR_MAX("D"), "'A'", "'C','D'",
	      P0 "," P1 "," RT_PASS(2, "A", 0, 0, "I", 0, 0) ","
	      RT_ACC(1, "C", 0, 0) "," RT_ACC(2, "D", 0, 0) "," RT_ACC(0, "C", 0, 0)),
      IN_11_5, 4, "acc", "D", 6, 1, 2)

RANGE(host_add_overflow,
      RT_PROG(RT_CONST("X", "i32", "[2,2]", "[[0,2147483647],[0,0]]") ","
	      RT_CONST("Y", "i32", "[2,2]", "[[0,1],[0,0]]") "," RT_BUF("Z", "i32", "[2,2]", "temp"),
	      "", "'Z'", "{'op':'alloc','buf':'Z'},{'op':'host_add','dst':'Z','a':'X','b':'Y'}"),
      NULL, 1, "host_add", "Z", 1, 0, 1)

RANGE(host_add_broadcast_underflow,
      RT_PROG(RT_CONST("X", "i32", "[2,2]", "[[0,0],[-2147483648,0]]") ","
	      RT_CONST("v", "i32", "[2]", "[-1,0]") "," RT_BUF("Z", "i32", "[2,2]", "temp"),
	      "", "'Z'", "{'op':'host_add','dst':'Z','a':'v','b':'X'}"),
      NULL, 0, "host_add", "Z", 2, 1, 0)

RANGE(host_add_i8_dst_overflow,
      RT_PROG(RT_CONST("p", "i8", "[3]", "[0,100,0]") "," RT_CONST("q", "i8", "[3]", "[0,28,0]")
	      "," RT_BUF("s", "i8", "[3]", "temp"),
	      "", "'s'", "{'op':'host_add','dst':'s','a':'p','b':'q'}"),
      NULL, 0, "host_add", "s", 1, 0, 1)

/* The one relu that can fail: an i32 source into an i8 dst. */
RANGE(host_relu_into_narrower_dst,
      RT_PROG(RT_CONST("x", "i32", "[1,3]", "[[-500,127,128]]") "," RT_BUF("y", "i8", "[1,3]", "temp"),
	      "", "'y'", "{'op':'host_relu','dst':'y','src':'x'}"),
      NULL, 0, "host_relu", "y", 2, 0, 2)

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
