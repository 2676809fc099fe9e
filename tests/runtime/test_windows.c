// SPDX-License-Identifier: MIT
/*
 * test_windows.c - windows at and beyond every edge of their buffer, and
 * buffers whose shapes are not multiples of the tile.
 *
 * Reading outside a buffer yields 0 and writing outside is dropped. Window
 * origins are >= 0 (a negative r or c is a SchemaError,
 * test_schema_commands), so the top and left edges are met only by windows
 * at r = 0 / c = 0 over buffers smaller than a tile; the bottom and right
 * edges by any origin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "rt.h"
#include "rt_program.h"

/* A [6,7]: A[i][j] = 10 i + j - 30 */
#define A_ROWS 6
#define A_COLS 7
#define IN_A "{'A':[[-30,-29,-28,-27,-26,-25,-24],[-20,-19,-18,-17,-16,-15,-14]," \
	"[-10,-9,-8,-7,-6,-5,-4],[0,1,2,3,4,5,6],[10,11,12,13,14,15,16],[20,21,22,23,24,25,26]]}"
#define ID4 "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]"
#define BUFS RT_BUF("A", "i8", "[6,7]", "input") "," RT_CONST("I", "i8", "[4,4]", ID4) "," \
	RT_BUF("C", "i32", "[4,4]", "temp")

static int32_t a_at(long long r, long long c)
{
	return r < A_ROWS && c < A_COLS ? (int32_t)(10 * r + c - 30) : 0;
}

/*
 * Run one pass whose operand window is A at (r, c) (as a, or as b with I
 * as a), acc'd into C: C must be that window of A, zero-padded.
 */
static int window_run(struct __test_metadata *_metadata, const char *r, const char *c,
		      long long rv, long long cv, int as_b)
{
	char prog[4096], why[256];
	int32_t exp[16];
	struct ttpu_error err;
	ttpu_result *res;
	int rc;

	snprintf(prog, sizeof(prog),
		 RT_PROG(BUFS, "'A'", "'C'",
			 "{'op':'pass','id':0,'a':{'buf':'%s','r':%s,'c':%s},"
			 "'b':{'buf':'%s','r':%s,'c':%s}}," RT_ACC(0, "C", 0, 0)),
		 as_b ? "I" : "A", as_b ? "0" : r, as_b ? "0" : c,
		 as_b ? "A" : "I", as_b ? r : "0", as_b ? c : "0");
	rc = rt_load_run(prog, IN_A, &res, &err);
	if (rc) {
		TH_LOG("window (%s,%s): %s", r, c, err.message);
		return 0;
	}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			exp[i * 4 + j] = a_at(rv + i, cv + j);
	rc = rt_cmp(res, "C", exp, 16, why, sizeof(why)) == -1;
	if (!rc)
		TH_LOG("window (%s,%s)%s: %s", r, c, as_b ? " as b" : "", why);
	ttpu_result_free(res);
	return rc;
}

/* A window of A at (r, c), as a and as b: a variant per place (WINDOW). */
FIXTURE(window) {
};

FIXTURE_VARIANT(window) {
	const char *r, *c;	/* the origin as the program says it */
	long long rv, cv;	/* and as a number */
};

FIXTURE_SETUP(window)
{
}

FIXTURE_TEARDOWN(window)
{
}

TEST_F(window, reads_a_zero_padded)
{
	ASSERT_TRUE(window_run(_metadata, variant->r, variant->c, variant->rv, variant->cv, 0));
	ASSERT_TRUE(window_run(_metadata, variant->r, variant->c, variant->rv, variant->cv, 1));
}

#define WINDOW(name, r_, c_) \
	FIXTURE_VARIANT_ADD(window, name) { .r = #r_, .c = #c_, .rv = r_##LL, .cv = c_##LL }

WINDOW(inside, 1, 2);
WINDOW(top_left_corner, 0, 0);
WINDOW(off_bottom, 4, 1);
WINDOW(off_right, 1, 5);
WINDOW(off_bottom_right_corner, 4, 5);
WINDOW(last_element_only, 5, 6);
WINDOW(wholly_below, 6, 0);
WINDOW(wholly_right, 0, 7);
WINDOW(wholly_outside_far, 2147483647, 2147483647);
/* beyond uint32: still just outside */
WINDOW(beyond_uint32, 4294967296, 1099511627776);

/* A buffer smaller than a tile: the window crosses its bottom and right. */
FIXTURE_VARIANT_ADD(program, buffer_smaller_than_tile) {
	.prog = RT_PROG(RT_CONST("S", "i8", "[3,2]", "[[1,2],[3,4],[5,6]]") ","
			RT_CONST("T", "i8", "[2,1]", "[[10],[-1]]") ","
			RT_BUF("C", "i32", "[3,1]", "temp"),
			"", "'C'",
			RT_PASS(0, "S", 0, 0, "T", 0, 0) "," RT_ACC(0, "C", 0, 0)),
	.output = "C",
	WANT(8, 26, 44),
};

/* tmp = A(0,0) = rows 0..3 of A; D [5,6] gets only its in-bounds part. */
#define DBUFS BUFS "," RT_BUF("D", "i32", "[5,6]", "temp")

FIXTURE_VARIANT_ADD(program, dst_off_bottom_right_drops_writes) {
	.prog = RT_PROG(DBUFS, "'A'", "'D'",
			RT_PASS(0, "A", 0, 0, "I", 0, 0) "," RT_ACC(0, "D", 3, 4)),
	.inputs = IN_A,
	.output = "D",
	WANT(0, 0, 0, 0, 0, 0,
	     0, 0, 0, 0, 0, 0,
	     0, 0, 0, 0, 0, 0,
	     0, 0, 0, 0, -30, -29,
	     0, 0, 0, 0, -20, -19),
};

FIXTURE_VARIANT_ADD(program, dst_wholly_outside_writes_nothing) {
	.prog = RT_PROG(DBUFS, "'A'", "'D'",
			RT_PASS(0, "A", 0, 0, "I", 0, 0) "," RT_ACC(0, "D", 5, 0) ","
			RT_PASS(1, "A", 0, 0, "I", 0, 0) "," RT_ACC(1, "D", 0, 6)),
	.inputs = IN_A,
	.output = "D",
	WANT(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
};

/* The bias is indexed by the buffer's column (c = 4, 5 use bias[4], [5]). */
FIXTURE_VARIANT_ADD(program, epilogue_partly_outside) {
	.prog = RT_PROG(RT_CONST("D", "i32", "[2,6]",
				 "[[1,2,3,4,5,6],[-1,-2,-3,-4,-5,-6]]") ","
			RT_CONST("b", "i32", "[8]", "[100,100,100,100,10,-20,1000,1000]"),
			"", "'D'",
			"{'op':'epilogue','dst':" RT_WIN("D", 1, 4) ",'bias':'b','relu':true}"),
	.output = "D",
	WANT(1, 2, 3, 4, 5, 6, -1, -2, -3, -4, 5, 0),
};

/* Whole tiled product of shapes that are not multiples of 4. */
TEST(tiled_matmul_ragged_shapes)
{
	/* B [7,5]: B[k][n] = (5k + 3n) % 9 - 4; A.B computed by hand */
	static const int32_t exp[30] = {
		122, 23, -67, 122, 23, 82, 13, -47, 82, 13, 42, 3, -27, 42, 3,
		2, -7, -7, 2, -7, -38, -17, 13, -38, -17, -78, -27, 33, -78, -27,
	};
	char *text = NULL, why[256];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct ttpu_error err;
	ttpu_result *res;
	int id = 0, rc;

	fputs(RT_PROG(RT_BUF("A", "i8", "[6,7]", "input") ","
		      RT_CONST("B", "i8", "[7,5]", "[[-4,-1,2,-4,-1],[1,4,-2,1,4],[-3,0,3,-3,0],"
			       "[2,-4,-1,2,-4],[-2,1,4,-2,1],[3,-3,0,3,-3],[-1,2,-4,-1,2]]") ","
		      RT_BUF("C", "i32", "[6,5]", "temp"), "'A'", "'C'", ""), f);
	fseek(f, -2, SEEK_CUR);		/* reopen the commands list */
	for (int i = 0; i < 6; i += 4)
		for (int j = 0; j < 5; j += 4)
			for (int k = 0; k < 7; k += 4, id++)
				fprintf(f, "%s" RT_PASS(%d, "A", %d, %d, "B", %d, %d) "," RT_ACC(%d, "C", %d, %d),
					id ? "," : "", id, i, k, k, j, id, i, j);
	fputs("]}", f);
	fclose(f);
	rc = rt_load_run(text, IN_A, &res, &err);
	free(text);
	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	ASSERT_EQ(-1, rt_cmp(res, "C", exp, 30, why, sizeof(why))) TH_LOG("%s", why);
	ASSERT_EQ(8, ttpu_result_stats(res)->passes);
	ttpu_result_free(res);
}

/*
 * A chain with its epilogue mid-way, then more accs into the same window:
 * C = relu(p0 + p1 + bias) + p2, with p0 = A(0,0), p1 = A(0,4), p2 = A(2,3).
 */
#define CHAIN_BUFS BUFS "," RT_CONST("b", "i32", "[4]", "[5,-7,9,-11]")
#define CHAIN_PASSES RT_PASS(0, "A", 0, 0, "I", 0, 0) "," RT_PASS(1, "A", 0, 4, "I", 0, 0) "," \
	RT_PASS(2, "A", 2, 3, "I", 0, 0)

FIXTURE_VARIANT_ADD(program, epilogue_mid_chain_then_more_accs) {
	.prog = RT_PROG(CHAIN_BUFS, "'A'", "'C'",
			CHAIN_PASSES "," RT_ACC(0, "C", 0, 0) ","
			"{'op':'acc','pass':1,'dst':" RT_WIN("C", 0, 0)
			",'bias':'b','relu':true}," RT_ACC(2, "C", 0, 0)),
	.inputs = IN_A,
	.output = "C",
	WANT(-7, -6, -5, -4, 3, 4, 5, 6, 13, 14, 15, 16, 32, 24, 42, 26),
};

/* The same with the passes interleaved (one acc right after each pass). */
FIXTURE_VARIANT_ADD(program, epilogue_mid_chain_interleaved) {
	.prog = RT_PROG(CHAIN_BUFS, "'A'", "'C'",
			RT_PASS(0, "A", 0, 0, "I", 0, 0) "," RT_ACC(0, "C", 0, 0) ","
			RT_PASS(1, "A", 0, 4, "I", 0, 0) ","
			"{'op':'acc','pass':1,'dst':" RT_WIN("C", 0, 0)
			",'bias':'b','relu':true},"
			RT_PASS(2, "A", 2, 3, "I", 0, 0) "," RT_ACC(2, "C", 0, 0)),
	.inputs = IN_A,
	.output = "C",
	WANT(-7, -6, -5, -4, 3, 4, 5, 6, 13, 14, 15, 16, 32, 24, 42, 26),
};

/*
 * An epilogue command between two accs of one window: relu(p0) + p2.
 * C(0,4) is wholly outside C [4,4]: p1 is consumed and dropped.
 */
FIXTURE_VARIANT_ADD(program, epilogue_command_between_accs) {
	.prog = RT_PROG(CHAIN_BUFS, "'A'", "'C'",
			CHAIN_PASSES "," RT_ACC(0, "C", 0, 0) ","
			"{'op':'epilogue','dst':" RT_WIN("C", 0, 0) ",'relu':true},"
			RT_ACC(2, "C", 0, 0) "," RT_ACC(1, "C", 0, 4)),
	.inputs = IN_A,
	.output = "C",
	WANT(-7, -6, -5, -4, 3, 4, 5, 6, 13, 14, 15, 16, 23, 25, 27, 29),
};

/* Overlapping (not identical) dst windows: each acc adds where it lands. */
FIXTURE_VARIANT_ADD(program, overlapping_dst_windows) {
	.prog = RT_PROG(BUFS "," RT_CONST("J", "i8", "[4,4]",
					  "[[1,1,1,1],[1,1,1,1],[1,1,1,1],[1,1,1,1]]") ","
			RT_BUF("D", "i32", "[5,5]", "temp"),
			"'A'", "'D'",
			RT_PASS(0, "J", 0, 0, "I", 0, 0) "," RT_PASS(1, "J", 0, 0, "I", 0, 0) ","
			RT_ACC(0, "D", 0, 0) "," RT_ACC(1, "D", 1, 1)),
	.inputs = IN_A,
	.output = "D",
	WANT(1, 1, 1, 1, 0,
	     1, 2, 2, 2, 1,
	     1, 2, 2, 2, 1,
	     1, 2, 2, 2, 1,
	     0, 1, 1, 1, 1),
};

TEST_HARNESS_MAIN
