// SPDX-License-Identifier: MIT
/*
 * test_schema.c - one test per reason a program is rejected at load time.
 *
 * Every program here is the valid base program below with exactly one
 * thing wrong, so only one check can fire; each test asserts the kind and
 * where the error points (field, command, op, buffer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"
#include "program_load.h"
#include "rt.h"

#define HDR "'format':'ttpu','version':1,'tile':4,'name':'t'"
#define PROGH(hdr, bufs, ins, outs, cmds, extra) \
	"{" hdr ",'buffers':{" bufs "},'inputs':[" ins "],'outputs':[" outs \
	"],'commands':[" cmds "]" extra "}"

#define A_BUF RT_BUF("A", "i8", "[4,4]", "input")
#define B_BUF RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]")
#define C_BUF RT_BUF("C", "i32", "[4,4]", "temp")
#define BIAS_BUF RT_CONST("bias", "i32", "[4]", "[1,2,3,4]")
#define BUFS A_BUF "," B_BUF "," C_BUF "," BIAS_BUF
#define PASS0 RT_PASS(0, "A", 0, 0, "B", 0, 0)
#define ACC0 RT_ACC(0, "C", 0, 0)
#define CMDS PASS0 "," ACC0
/* The base: buffers, inputs, outputs, commands each replaceable. */
#define PROG(bufs, cmds) RT_PROG(bufs, "'A'", "'C'", cmds)

static int load_err(const char *sq, struct ttpu_error *err)
{
	ttpu_program *prog;
	int rc = rt_load(sq, &prog, err);

	if (!rc)
		ttpu_program_free(prog);
	return rc;
}

/*
 * A rejected program: a variant per mistake (FIXTURE_VARIANT_ADD(reject,
 * ...) below), each failing with its kind at its place (rt_where()), and
 * where the message must name something (a missing, unknown or duplicate
 * key, in quotes), saying it.
 */
FIXTURE(reject) {
	struct ttpu_error err;
};

FIXTURE_VARIANT(reject) {
	const char *sq;			/* the program, single-quoted JSON */
	enum ttpu_error_kind kind;
	const char *field;		/* where, as rt_where() takes it */
	long cmd;
	const char *op;
	const char *buf;
	const char *says;		/* in the message, or NULL */
};

FIXTURE_SETUP(reject)
{
	memset(&self->err, 0, sizeof(self->err));
}

FIXTURE_TEARDOWN(reject)
{
}

TEST_F(reject, fails_where_it_should)
{
	int rc = load_err(variant->sq, &self->err);

	ASSERT_ERROR_AT(variant->kind, rc, self->err, variant->field, variant->cmd,
			variant->op, variant->buf);
	if (variant->says) {
		ASSERT_NE(NULL, strstr(self->err.message, variant->says))
			TH_LOG("no %s in: %s", variant->says, self->err.message);
	}
}

TEST(base_program_loads)
{
	struct ttpu_error err;
	ttpu_program *prog;
	size_t dims[2];
	int is_i8 = -1;

	ASSERT_EQ(0, rt_load(PROG(BUFS, CMDS), &prog, &err)) TH_LOG("%s", err.message);
	ASSERT_STREQ("t", ttpu_program_name(prog));
	ASSERT_EQ(2, ttpu_program_command_count(prog));
	ASSERT_EQ(1, ttpu_program_pass_count(prog));
	ASSERT_EQ(1, ttpu_program_input_count(prog));
	ASSERT_STREQ("A", ttpu_program_input_name(prog, 0));
	ASSERT_EQ(1, ttpu_program_output_count(prog));
	ASSERT_STREQ("C", ttpu_program_output_name(prog, 0));
	ASSERT_EQ(1, ttpu_program_buffer_shape(prog, "bias", dims, &is_i8));
	ASSERT_EQ(4, dims[0]);
	ASSERT_EQ(0, is_i8);
	ASSERT_EQ(2, ttpu_program_buffer_shape(prog, "A", dims, &is_i8));
	ASSERT_EQ(1, is_i8);
	ASSERT_EQ(0, ttpu_program_buffer_shape(prog, "nope", dims, &is_i8));
	ttpu_program_free(prog);
}

/* ---- header ---- */

FIXTURE_VARIANT_ADD(reject, format_wrong) {
	.sq = PROGH("'format':'tpu','version':1,'tile':4,'name':'t'",
		    BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "format", .cmd = -1, .op = "", .buf = "",
	.says = "ttpu",
};

FIXTURE_VARIANT_ADD(reject, version_wrong) {
	.sq = PROGH("'format':'ttpu','version':2,'tile':4,'name':'t'",
		    BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "version", .cmd = -1, .op = "", .buf = "",
	.says = "1",
};

FIXTURE_VARIANT_ADD(reject, tile_wrong) {
	.sq = PROGH("'format':'ttpu','version':1,'tile':8,'name':'t'",
		    BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "tile", .cmd = -1, .op = "", .buf = "",
	.says = "4",
};

FIXTURE_VARIANT_ADD(reject, name_missing) {
	.sq = PROGH("'format':'ttpu','version':1,'tile':4", BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "", .cmd = -1, .op = "", .buf = "",
	.says = "\"name\"",
};

FIXTURE_VARIANT_ADD(reject, name_not_string) {
	.sq = PROGH("'format':'ttpu','version':1,'tile':4,'name':5", BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "name", .cmd = -1, .op = "", .buf = "",
};

FIXTURE_VARIANT_ADD(reject, format_missing) {
	.sq = PROGH("'version':1,'tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "", .cmd = -1, .op = "", .buf = "",
	.says = "\"format\"",
};

FIXTURE_VARIANT_ADD(reject, version_as_string) {
	.sq = PROGH("'format':'ttpu','version':'1','tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "version", .cmd = -1, .op = "", .buf = "",
};

FIXTURE_VARIANT_ADD(reject, version_as_float) {
	.sq = PROGH("'format':'ttpu','version':1.0,'tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "version", .cmd = -1, .op = "", .buf = "",
};

FIXTURE_VARIANT_ADD(reject, version_as_exponent) {
	.sq = PROGH("'format':'ttpu','version':1e0,'tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "version", .cmd = -1, .op = "", .buf = "",
};

FIXTURE_VARIANT_ADD(reject, version_as_bool) {
	.sq = PROGH("'format':'ttpu','version':true,'tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
	.kind = TTPU_SCHEMA_ERROR, .field = "version", .cmd = -1, .op = "", .buf = "",
};

FIXTURE_VARIANT_ADD(reject, top_level_not_object) {
	.sq = "[1,2]",
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = -1, .op = "", .buf = "",
};

FIXTURE_VARIANT_ADD(reject, buffers_missing) {
	.sq = "{" HDR ",'inputs':['A'],'outputs':['C'],'commands':[]}",
	.kind = TTPU_SCHEMA_ERROR, .field = "", .cmd = -1, .op = "", .buf = "",
	.says = "\"buffers\"",
};

FIXTURE_VARIANT_ADD(reject, inputs_missing) {
	.sq = "{" HDR ",'buffers':{" BUFS "},'outputs':['C'],'commands':[" CMDS "]}",
	.kind = TTPU_SCHEMA_ERROR, .field = "", .cmd = -1, .op = "", .buf = "",
	.says = "\"inputs\"",
};

FIXTURE_VARIANT_ADD(reject, outputs_missing) {
	.sq = "{" HDR ",'buffers':{" BUFS "},'inputs':['A'],'commands':[" CMDS "]}",
	.kind = TTPU_SCHEMA_ERROR, .field = "", .cmd = -1, .op = "", .buf = "",
	.says = "\"outputs\"",
};

FIXTURE_VARIANT_ADD(reject, commands_missing) {
	.sq = "{" HDR ",'buffers':{" BUFS "},'inputs':['A'],'outputs':['C']}",
	.kind = TTPU_SCHEMA_ERROR, .field = "", .cmd = -1, .op = "", .buf = "",
	.says = "\"commands\"",
};

FIXTURE_VARIANT_ADD(reject, buffers_not_object) {
	.sq = "{" HDR ",'buffers':[],'inputs':[],'outputs':[],'commands':[]}",
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers", .cmd = -1, .op = "", .buf = "",
};

FIXTURE_VARIANT_ADD(reject, commands_not_array) {
	.sq = "{" HDR ",'buffers':{" BUFS "},'inputs':['A'],'outputs':['C'],'commands':{}}",
	.kind = TTPU_SCHEMA_ERROR, .field = "commands", .cmd = -1, .op = "", .buf = "",
};

/* ---- unknown keys, at every level ---- */

FIXTURE_VARIANT_ADD(reject, unknown_key_top) {
	.sq = PROGH(HDR, BUFS, "'A'", "'C'", CMDS, ",'bogus':1"),
	.kind = TTPU_SCHEMA_ERROR, .field = "", .cmd = -1, .op = "", .buf = "",
	.says = "\"bogus\"",
};

FIXTURE_VARIANT_ADD(reject, unknown_key_buffer) {
	.sq = PROG("'A':{'dtype':'i8','shape':[4,4],'kind':'input','bogus':1}," B_BUF "," C_BUF "," BIAS_BUF,
		CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A", .cmd = -1, .op = "", .buf = "A",
	.says = "\"bogus\"",
};

FIXTURE_VARIANT_ADD(reject, unknown_key_command) {
	.sq = PROG(BUFS, "{'op':'pass','id':0,'a':" RT_WIN("A", 0, 0) ",'b':" RT_WIN("B", 0, 0)
		",'bogus':1}," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0]", .cmd = 0, .op = "pass", .buf = NULL,
	.says = "\"bogus\"",
};

FIXTURE_VARIANT_ADD(reject, unknown_key_window) {
	.sq = PROG(BUFS, "{'op':'pass','id':0,'a':{'buf':'A','r':0,'c':0,'bogus':1},'b':"
		RT_WIN("B", 0, 0) "}," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].a", .cmd = 0, .op = "pass", .buf = NULL,
	.says = "\"bogus\"",
};
/* a key valid for another op is still unknown here */
FIXTURE_VARIANT_ADD(reject, unknown_key_other_ops_field) {
	.sq = PROG(BUFS, PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'src':'C'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1]", .cmd = 1, .op = "acc", .buf = NULL,
	.says = "\"src\"",
};
/* unknown keys in estimate and estimate.host_ops: with the estimate tests */

/* ---- missing or mistyped fields ---- */

FIXTURE_VARIANT_ADD(reject, buffer_dtype_missing) {
	.sq = PROG("'A':{'shape':[4,4],'kind':'input'}," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A", .cmd = -1, .op = "", .buf = "A",
	.says = "\"dtype\"",
};

FIXTURE_VARIANT_ADD(reject, buffer_shape_missing) {
	.sq = PROG("'A':{'dtype':'i8','kind':'input'}," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A", .cmd = -1, .op = "", .buf = "A",
	.says = "\"shape\"",
};

FIXTURE_VARIANT_ADD(reject, buffer_kind_missing) {
	.sq = PROG("'A':{'dtype':'i8','shape':[4,4]}," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A", .cmd = -1, .op = "", .buf = "A",
	.says = "\"kind\"",
};

FIXTURE_VARIANT_ADD(reject, buffer_dtype_unknown) {
	.sq = PROG(RT_BUF("A", "i16", "[4,4]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A.dtype", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, buffer_kind_unknown) {
	.sq = PROG(RT_BUF("A", "i8", "[4,4]", "weights") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A.kind", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, buffer_not_object) {
	.sq = PROG("'A':[4,4]," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, buffer_name_empty) {
	.sq = PROG(BUFS ",'':{'dtype':'i8','shape':[4],'kind':'temp'}", CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers", .cmd = -1, .op = "", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, command_not_object) {
	.sq = PROG(BUFS, CMDS ",7"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2]", .cmd = 2, .op = NULL, .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, op_missing) {
	.sq = PROG(BUFS, "{'id':0,'a':" RT_WIN("A", 0, 0) ",'b':" RT_WIN("B", 0, 0) "}," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0]", .cmd = 0, .op = NULL, .buf = NULL,
	.says = "\"op\"",
};

FIXTURE_VARIANT_ADD(reject, op_unknown) {
	.sq = PROG(BUFS, CMDS ",{'op':'matmul','buf':'C'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2].op", .cmd = 2, .op = NULL, .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, pass_id_missing) {
	.sq = PROG(BUFS, "{'op':'pass','a':" RT_WIN("A", 0, 0) ",'b':" RT_WIN("B", 0, 0) "}," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0]", .cmd = 0, .op = "pass", .buf = NULL,
	.says = "\"id\"",
};

FIXTURE_VARIANT_ADD(reject, pass_b_missing) {
	.sq = PROG(BUFS, "{'op':'pass','id':0,'a':" RT_WIN("A", 0, 0) "}," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0]", .cmd = 0, .op = "pass", .buf = NULL,
	.says = "\"b\"",
};

FIXTURE_VARIANT_ADD(reject, window_r_missing) {
	.sq = PROG(BUFS, "{'op':'pass','id':0,'a':{'buf':'A','c':0},'b':" RT_WIN("B", 0, 0) "}," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].a", .cmd = 0, .op = "pass", .buf = NULL,
	.says = "\"r\"",
};

FIXTURE_VARIANT_ADD(reject, window_buf_not_string) {
	.sq = PROG(BUFS, "{'op':'pass','id':0,'a':{'buf':3,'r':0,'c':0},'b':" RT_WIN("B", 0, 0) "}," ACC0),
	.kind = TTPU_SCHEMA_ERROR,
	.field = "commands[0].a.buf", .cmd = 0, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, window_not_object) {
	.sq = PROG(BUFS, "{'op':'pass','id':0,'a':'A','b':" RT_WIN("B", 0, 0) "}," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0].a", .cmd = 0, .op = "pass", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, acc_dst_missing) {
	.sq = PROG(BUFS, PASS0 ",{'op':'acc','pass':0}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1]", .cmd = 1, .op = "acc", .buf = NULL,
	.says = "\"dst\"",
};

FIXTURE_VARIANT_ADD(reject, acc_pass_missing) {
	.sq = PROG(BUFS, PASS0 ",{'op':'acc','dst':" RT_WIN("C", 0, 0) "}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1]", .cmd = 1, .op = "acc", .buf = NULL,
	.says = "\"pass\"",
};

FIXTURE_VARIANT_ADD(reject, relu_not_bool) {
	.sq = PROG(BUFS, PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'relu':1}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1].relu", .cmd = 1, .op = "acc", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, bias_not_string) {
	.sq = PROG(BUFS, PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':5}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[1].bias", .cmd = 1, .op = "acc", .buf = NULL,
};

FIXTURE_VARIANT_ADD(reject, alloc_buf_missing) {
	.sq = PROG(BUFS, CMDS ",{'op':'alloc'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2]", .cmd = 2, .op = "alloc", .buf = NULL,
	.says = "\"buf\"",
};

FIXTURE_VARIANT_ADD(reject, host_add_b_missing) {
	.sq = PROG(BUFS, CMDS ",{'op':'host_add','dst':'C','a':'C'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2]", .cmd = 2, .op = "host_add", .buf = NULL,
	.says = "\"b\"",
};

FIXTURE_VARIANT_ADD(reject, host_relu_src_missing) {
	.sq = PROG(BUFS, CMDS ",{'op':'host_relu','dst':'C'}"),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[2]", .cmd = 2, .op = "host_relu", .buf = NULL,
	.says = "\"src\"",
};
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

/* ---- duplicate JSON keys ---- */

FIXTURE_VARIANT_ADD(reject, duplicate_buffer_name) {
	.sq = PROG(BUFS "," RT_BUF("A", "i8", "[4,4]", "temp"), CMDS),
	.kind = TTPU_SCHEMA_ERROR, .field = "buffers.A", .cmd = -1, .op = "", .buf = "A",
};

FIXTURE_VARIANT_ADD(reject, duplicate_key_in_command) {
	.sq = PROG(BUFS, "{'op':'pass','id':0,'id':1,'a':" RT_WIN("A", 0, 0) ",'b':" RT_WIN("B", 0, 0)
		"}," ACC0),
	.kind = TTPU_SCHEMA_ERROR, .field = "commands[0]", .cmd = 0, .op = NULL, .buf = NULL,
	.says = "\"id\"",
};

FIXTURE_VARIANT_ADD(reject, duplicate_key_top) {
	.sq = PROGH(HDR, BUFS, "'A'", "'C'", CMDS, ",'name':'u'"),
	.kind = TTPU_SCHEMA_ERROR, .field = "", .cmd = -1, .op = "", .buf = "",
	.says = "\"name\"",
};

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

/* ---- JSON text ---- */

TEST(trailing_data)
{
	struct ttpu_error err;
	int rc = load_err(PROG(BUFS, CMDS) "\n x", &err);

	ASSERT_ERROR_AT(TTPU_SCHEMA_ERROR, rc, err, NULL, -1, "", "");
	ASSERT_EQ(2, err.line);
	ASSERT_EQ(2, err.column);
}

FIXTURE_VARIANT_ADD(reject, trailing_second_value) {
	.sq = PROG(BUFS, CMDS) " {}",
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = -1, .op = "", .buf = "",
};

TEST(trailing_whitespace_is_fine)
{
	struct ttpu_error err;

	ASSERT_EQ(0, load_err(PROG(BUFS, CMDS) " \n\t\r\n", &err)) TH_LOG("%s", err.message);
}

TEST(truncated_json)
{
	static const char full[] = PROG(BUFS, CMDS);
	struct ttpu_error err;
	char *json = rt_dq(full);

	/* every cut point, so no partial state survives a half-read value */
	for (size_t n = 0; n < strlen(json); n += 7) {
		ttpu_program *prog = (ttpu_program *)json;
		int rc = ttpu_program_load_buffer(json, n, &prog, &err);

		ASSERT_EQ(-TTPU_SCHEMA_ERROR, rc) TH_LOG("cut at %zu: %d", n, rc);
		ASSERT_EQ(NULL, prog);
		ASSERT_NE('\0', err.message[0]);
	}
	free(json);
}

FIXTURE_VARIANT_ADD(reject, syntax_error) {
	.sq = "{'format' 'ttpu'}",
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = -1, .op = "", .buf = "",
};

FIXTURE_VARIANT_ADD(reject, empty_text) {
	.sq = "",
	.kind = TTPU_SCHEMA_ERROR, .field = NULL, .cmd = -1, .op = "", .buf = "",
};

/* Far deeper than any parser stack should follow; must not crash. */
TEST(deep_nesting)
{
	enum { DEPTH = 200000 };
	static const char head[] = "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":";
	size_t hl = strlen(head), len = hl + 2 * DEPTH + 1;
	char *json = malloc(len + 1);
	struct ttpu_error err;
	ttpu_program *prog;
	int rc;

	ASSERT_NE(NULL, json);
	memcpy(json, head, hl);
	memset(json + hl, '[', DEPTH);
	memset(json + hl + DEPTH, ']', DEPTH);
	json[len - 1] = '}';
	json[len] = '\0';
	rc = ttpu_program_load_buffer(json, len, &prog, &err);
	free(json);
	ASSERT_KIND(TTPU_SCHEMA_ERROR, rc, err);
	ASSERT_EQ(NULL, prog);
}

/* ---- estimate ---- */

/* No inputs, so an estimate check at run time is reached too. */
#define E_BUFS RT_CONST("A", "i8", "[3,5]", "[[1,2,3,4,5],[1,1,1,1,1],[0,0,0,0,2]]") "," \
	RT_CONST("B", "i8", "[5,2]", "[[1,0],[0,1],[1,1],[2,2],[3,-3]]") "," \
	RT_BUF("C", "i32", "[3,2]", "temp")
/*
 * Two passes: (0,0)x(0,0) has 3*4*2 = 24 useful MACs, (0,4)x(4,0) has
 * 3*1*2 = 6: useful 30, capacity 128, utilization 0.234375.
 */
#define E_CMDS "{'op':'alloc','buf':'C'}," RT_PASS(0, "A", 0, 0, "B", 0, 0) "," \
	RT_PASS(1, "A", 0, 4, "B", 4, 0) "," RT_ACC(0, "C", 0, 0) "," RT_ACC(1, "C", 0, 0)
#define E_PROG(est) "{" HDR ",'buffers':{" E_BUFS "},'inputs':[],'outputs':['C']," \
	"'commands':[" E_CMDS "],'estimate':{" est "}}"
/* A complete estimate with one value replaced (all keys are required). */
#define E_EST(passes, skipped, cpp, rtl, hops, useful, cap, util) \
	"'passes':" passes ",'passes_skipped':" skipped ",'cycles_per_pass':" cpp \
	",'rtl_cycles':" rtl ",'host_ops':" hops ",'useful_macs':" useful \
	",'capacity_macs':" cap ",'utilization':" util
#define E_HOPS "{'alloc':1,'acc':2}"

static int load_run_err(const char *sq, struct ttpu_error *err)
{
	ttpu_result *res;
	int rc = rt_load_run(sq, NULL, &res, err);

	if (!rc)
		ttpu_result_free(res);
	return rc;
}

/*
 * A program with an estimate: a variant per estimate (FIXTURE_VARIANT_ADD(
 * estimate, ...) below), accepted when it agrees with the commands, else
 * failing with its kind at its field.
 */
FIXTURE(estimate) {
	struct ttpu_error err;
};

FIXTURE_VARIANT(estimate) {
	const char *sq;			/* the program (E_PROG) */
	enum ttpu_error_kind kind;	/* TTPU_OK: the estimate is accepted */
	const char *field;
};

FIXTURE_SETUP(estimate)
{
	memset(&self->err, 0, sizeof(self->err));
}

FIXTURE_TEARDOWN(estimate)
{
}

TEST_F(estimate, checked)
{
	int rc = load_run_err(variant->sq, &self->err);

	if (variant->kind == TTPU_OK) {
		ASSERT_EQ(0, rc) TH_LOG("%s", self->err.message);
	} else {
		ASSERT_ERROR_AT(variant->kind, rc, self->err, variant->field, -1, "", "");
	}
}

FIXTURE_VARIANT_ADD(estimate, exact) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
};

FIXTURE_VARIANT_ADD(estimate, passes_skipped_informational) {
	.sq = E_PROG(E_EST("2", "7", "15", "30", E_HOPS, "30", "128", "0.234375")),
};

FIXTURE_VARIANT_ADD(estimate, utilization_within_tolerance) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.2343750000001")),
};

FIXTURE_VARIANT_ADD(estimate, host_ops_zero_keys) {
	.sq = E_PROG(E_EST("2", "0", "15", "30",
		"{'alloc':1,'acc':2,'epilogue':0,'host_add':0,'host_relu':0}",
		"30", "128", "0.234375")),
};

FIXTURE_VARIANT_ADD(estimate, passes_mismatch) {
	.sq = E_PROG(E_EST("3", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.passes",
};

FIXTURE_VARIANT_ADD(estimate, cycles_per_pass_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "16", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.cycles_per_pass",
};

FIXTURE_VARIANT_ADD(estimate, rtl_cycles_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "29", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.rtl_cycles",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'alloc':1,'acc':3}", "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.host_ops.acc",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_missing_key_means_zero) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'acc':2}", "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.host_ops.alloc",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_extra_count) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'alloc':1,'acc':2,'host_relu':1}", "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.host_ops.host_relu",
};

FIXTURE_VARIANT_ADD(estimate, useful_macs_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "128", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.useful_macs",
};

FIXTURE_VARIANT_ADD(estimate, capacity_macs_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "64", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.capacity_macs",
};

FIXTURE_VARIANT_ADD(estimate, utilization_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.2344")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.utilization",
};

FIXTURE_VARIANT_ADD(estimate, key_missing) {
	.sq = E_PROG("'passes':2"),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate",
};

FIXTURE_VARIANT_ADD(estimate, unknown_key) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.234375") ",'bogus':1"),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_unknown_key) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'alloc':1,'acc':2,'pass':2}", "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.host_ops",
};

FIXTURE_VARIANT_ADD(estimate, passes_string) {
	.sq = E_PROG(E_EST("'2'", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.passes",
};

FIXTURE_VARIANT_ADD(estimate, passes_negative) {
	.sq = E_PROG(E_EST("-2", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.passes",
};

FIXTURE_VARIANT_ADD(estimate, passes_float) {
	.sq = E_PROG(E_EST("2.0", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.passes",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_not_object) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "[1]", "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.host_ops",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_count_string) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'alloc':1,'acc':'2'}", "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.host_ops.acc",
};

FIXTURE_VARIANT_ADD(estimate, utilization_string) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "'0.2'")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.utilization",
};

FIXTURE_VARIANT_ADD(reject, estimate_is_array) {
	.sq = "{" HDR ",'buffers':{" E_BUFS "},'inputs':[],'outputs':['C'],"
		"'commands':[" E_CMDS "],'estimate':[]}",
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate", .cmd = -1, .op = "", .buf = "",
};

/* utilization is 0 when there are no passes (not NaN) */
TEST(estimate_no_passes)
{
	struct ttpu_error err;

	ASSERT_EQ(0, load_run_err("{" HDR ",'buffers':{" RT_BUF("C", "i32", "[1]", "temp")
				  "},'inputs':[],'outputs':['C'],'commands':[],'estimate':"
				  "{'passes':0,'rtl_cycles':0,'useful_macs':0,'capacity_macs':0,"
				  "'utilization':0,'host_ops':{},'passes_skipped':0,'cycles_per_pass':15}}", &err))
		TH_LOG("%s", err.message);
}

/* ---- loading from a file ---- */

TEST(load_file_missing)
{
	struct ttpu_error err;
	ttpu_program *prog;
	int rc = ttpu_program_load_file("/nonexistent/prog.json", &prog, &err);

	ASSERT_KIND(TTPU_SYSTEM_ERROR, rc, err);
	ASSERT_EQ(ENOENT, err.sys_errno);
	ASSERT_NE(NULL, strstr(err.message, "/nonexistent/prog.json")) TH_LOG("%s", err.message);
	ASSERT_EQ(NULL, prog);
}

TEST(load_file_is_a_directory)
{
	struct ttpu_error err;
	ttpu_program *prog;
	int rc = ttpu_program_load_file("/", &prog, &err);

	ASSERT_NE(0, rc);
	ASSERT_TRUE(err.kind == TTPU_SYSTEM_ERROR || err.kind == TTPU_SCHEMA_ERROR);
	ASSERT_EQ(NULL, prog);
}

TEST_HARNESS_MAIN
