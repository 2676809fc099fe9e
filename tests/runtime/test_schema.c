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

/* A rejected program: @sq fails with @kind at (@field, @cmd, @op, @buf). */
#define REJECT(name, kind_, sq, field, cmd, op, buf) \
	TEST(name) \
	{ \
		struct ttpu_error err; \
		int rc = load_err(sq, &err); \
		ASSERT_ERROR_AT(kind_, rc, err, field, cmd, op, buf); \
	}
#define SCHEMA(name, sq, field, cmd, op, buf) \
	REJECT(name, TTPU_SCHEMA_ERROR, sq, field, cmd, op, buf)
/*
 * A missing, unknown or duplicate key: the error points at the object that
 * holds it (@field) and the message names the key.
 */
#define SCHEMA_KEY(name, sq, field, key, cmd, op, buf) \
	TEST(name) \
	{ \
		struct ttpu_error err; \
		int rc = load_err(sq, &err); \
		ASSERT_ERROR_AT(TTPU_SCHEMA_ERROR, rc, err, field, cmd, op, buf); \
		ASSERT_NE(NULL, strstr(err.message, "\"" key "\"")) \
			TH_LOG("no \"%s\" in: %s", key, err.message); \
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

TEST(format_wrong)
{
	struct ttpu_error err;
	int rc = load_err(PROGH("'format':'tpu','version':1,'tile':4,'name':'t'",
				BUFS, "'A'", "'C'", CMDS, ""), &err);

	ASSERT_ERROR_AT(TTPU_SCHEMA_ERROR, rc, err, "format", -1, "", "");
	ASSERT_NE(NULL, strstr(err.message, "ttpu")) TH_LOG("%s", err.message);
}

TEST(version_wrong)
{
	struct ttpu_error err;
	int rc = load_err(PROGH("'format':'ttpu','version':2,'tile':4,'name':'t'",
				BUFS, "'A'", "'C'", CMDS, ""), &err);

	ASSERT_ERROR_AT(TTPU_SCHEMA_ERROR, rc, err, "version", -1, "", "");
	ASSERT_NE(NULL, strstr(err.message, "1")) TH_LOG("%s", err.message);
}

TEST(tile_wrong)
{
	struct ttpu_error err;
	int rc = load_err(PROGH("'format':'ttpu','version':1,'tile':8,'name':'t'",
				BUFS, "'A'", "'C'", CMDS, ""), &err);

	ASSERT_ERROR_AT(TTPU_SCHEMA_ERROR, rc, err, "tile", -1, "", "");
	ASSERT_NE(NULL, strstr(err.message, "4")) TH_LOG("%s", err.message);
}

SCHEMA_KEY(name_missing,
       PROGH("'format':'ttpu','version':1,'tile':4", BUFS, "'A'", "'C'", CMDS, ""),
       "", "name", -1, "", "")
SCHEMA(name_not_string,
       PROGH("'format':'ttpu','version':1,'tile':4,'name':5", BUFS, "'A'", "'C'", CMDS, ""),
       "name", -1, "", "")
SCHEMA_KEY(format_missing,
       PROGH("'version':1,'tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
       "", "format", -1, "", "")
SCHEMA(version_as_string,
       PROGH("'format':'ttpu','version':'1','tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
       "version", -1, "", "")
SCHEMA(version_as_float,
       PROGH("'format':'ttpu','version':1.0,'tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
       "version", -1, "", "")
SCHEMA(version_as_exponent,
       PROGH("'format':'ttpu','version':1e0,'tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
       "version", -1, "", "")
SCHEMA(version_as_bool,
       PROGH("'format':'ttpu','version':true,'tile':4,'name':'t'", BUFS, "'A'", "'C'", CMDS, ""),
       "version", -1, "", "")
SCHEMA(top_level_not_object, "[1,2]", NULL, -1, "", "")
SCHEMA_KEY(buffers_missing,
       "{" HDR ",'inputs':['A'],'outputs':['C'],'commands':[]}", "", "buffers", -1, "", "")SCHEMA_KEY(inputs_missing,
       "{" HDR ",'buffers':{" BUFS "},'outputs':['C'],'commands':[" CMDS "]}",
       "", "inputs", -1, "", "")
SCHEMA_KEY(outputs_missing,
       "{" HDR ",'buffers':{" BUFS "},'inputs':['A'],'commands':[" CMDS "]}",
       "", "outputs", -1, "", "")
SCHEMA_KEY(commands_missing,
       "{" HDR ",'buffers':{" BUFS "},'inputs':['A'],'outputs':['C']}",
       "", "commands", -1, "", "")
SCHEMA(buffers_not_object,
       "{" HDR ",'buffers':[],'inputs':[],'outputs':[],'commands':[]}",
       "buffers", -1, "", "")
SCHEMA(commands_not_array,
       "{" HDR ",'buffers':{" BUFS "},'inputs':['A'],'outputs':['C'],'commands':{}}",
       "commands", -1, "", "")

/* ---- unknown keys, at every level ---- */

SCHEMA_KEY(unknown_key_top, PROGH(HDR, BUFS, "'A'", "'C'", CMDS, ",'bogus':1"),
       "", "bogus", -1, "", "")
SCHEMA_KEY(unknown_key_buffer,
       PROG("'A':{'dtype':'i8','shape':[4,4],'kind':'input','bogus':1}," B_BUF "," C_BUF "," BIAS_BUF,
	    CMDS),
       "buffers.A", "bogus", -1, "", "A")
SCHEMA_KEY(unknown_key_command,
       PROG(BUFS, "{'op':'pass','id':0,'a':" RT_WIN("A", 0, 0) ",'b':" RT_WIN("B", 0, 0)
	    ",'bogus':1}," ACC0),
       "commands[0]", "bogus", 0, "pass", NULL)
SCHEMA_KEY(unknown_key_window,
       PROG(BUFS, "{'op':'pass','id':0,'a':{'buf':'A','r':0,'c':0,'bogus':1},'b':"
	    RT_WIN("B", 0, 0) "}," ACC0),
       "commands[0].a", "bogus", 0, "pass", NULL)
/* a key valid for another op is still unknown here */
SCHEMA_KEY(unknown_key_other_ops_field,
       PROG(BUFS, PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'src':'C'}"),
       "commands[1]", "src", 1, "acc", NULL)
/* unknown keys in estimate and estimate.host_ops: with the estimate tests */

/* ---- missing or mistyped fields ---- */

SCHEMA_KEY(buffer_dtype_missing,
       PROG("'A':{'shape':[4,4],'kind':'input'}," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A", "dtype", -1, "", "A")
SCHEMA_KEY(buffer_shape_missing,
       PROG("'A':{'dtype':'i8','kind':'input'}," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A", "shape", -1, "", "A")
SCHEMA_KEY(buffer_kind_missing,
       PROG("'A':{'dtype':'i8','shape':[4,4]}," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A", "kind", -1, "", "A")
SCHEMA(buffer_dtype_unknown,
       PROG(RT_BUF("A", "i16", "[4,4]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A.dtype", -1, "", "A")
SCHEMA(buffer_kind_unknown,
       PROG(RT_BUF("A", "i8", "[4,4]", "weights") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A.kind", -1, "", "A")
SCHEMA(buffer_not_object,
       PROG("'A':[4,4]," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A", -1, "", "A")
SCHEMA(buffer_name_empty,
       PROG(BUFS ",'':{'dtype':'i8','shape':[4],'kind':'temp'}", CMDS),
       "buffers", -1, "", NULL)
SCHEMA(command_not_object, PROG(BUFS, CMDS ",7"), "commands[2]", 2, NULL, NULL)
SCHEMA_KEY(op_missing,
       PROG(BUFS, "{'id':0,'a':" RT_WIN("A", 0, 0) ",'b':" RT_WIN("B", 0, 0) "}," ACC0),
       "commands[0]", "op", 0, NULL, NULL)
SCHEMA(op_unknown,
       PROG(BUFS, CMDS ",{'op':'matmul','buf':'C'}"), "commands[2].op", 2, NULL, NULL)
SCHEMA_KEY(pass_id_missing,
       PROG(BUFS, "{'op':'pass','a':" RT_WIN("A", 0, 0) ",'b':" RT_WIN("B", 0, 0) "}," ACC0),
       "commands[0]", "id", 0, "pass", NULL)
SCHEMA_KEY(pass_b_missing,
       PROG(BUFS, "{'op':'pass','id':0,'a':" RT_WIN("A", 0, 0) "}," ACC0),
       "commands[0]", "b", 0, "pass", NULL)
SCHEMA_KEY(window_r_missing,
       PROG(BUFS, "{'op':'pass','id':0,'a':{'buf':'A','c':0},'b':" RT_WIN("B", 0, 0) "}," ACC0),
       "commands[0].a", "r", 0, "pass", NULL)
SCHEMA(window_buf_not_string,
       PROG(BUFS, "{'op':'pass','id':0,'a':{'buf':3,'r':0,'c':0},'b':" RT_WIN("B", 0, 0) "}," ACC0),
       "commands[0].a.buf", 0, "pass", NULL)
SCHEMA(window_not_object,
       PROG(BUFS, "{'op':'pass','id':0,'a':'A','b':" RT_WIN("B", 0, 0) "}," ACC0),
       "commands[0].a", 0, "pass", NULL)
SCHEMA_KEY(acc_dst_missing,
       PROG(BUFS, PASS0 ",{'op':'acc','pass':0}"), "commands[1]", "dst", 1, "acc", NULL)SCHEMA_KEY(acc_pass_missing,
       PROG(BUFS, PASS0 ",{'op':'acc','dst':" RT_WIN("C", 0, 0) "}"),
       "commands[1]", "pass", 1, "acc", NULL)
SCHEMA(relu_not_bool,
       PROG(BUFS, PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'relu':1}"),
       "commands[1].relu", 1, "acc", NULL)
SCHEMA(bias_not_string,
       PROG(BUFS, PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':5}"),
       "commands[1].bias", 1, "acc", NULL)
SCHEMA_KEY(alloc_buf_missing, PROG(BUFS, CMDS ",{'op':'alloc'}"),
	   "commands[2]", "buf", 2, "alloc", NULL)SCHEMA_KEY(host_add_b_missing, PROG(BUFS, CMDS ",{'op':'host_add','dst':'C','a':'C'}"),
	   "commands[2]", "b", 2, "host_add", NULL)SCHEMA_KEY(host_relu_src_missing,
       PROG(BUFS, CMDS ",{'op':'host_relu','dst':'C'}"), "commands[2]", "src", 2, "host_relu", NULL)
/* ---- shapes ---- */

SCHEMA(shape_rank0, PROG(RT_BUF("A", "i8", "[]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A.shape", -1, "", "A")
SCHEMA(shape_rank3, PROG(RT_BUF("A", "i8", "[4,4,1]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A.shape", -1, "", "A")
SCHEMA(shape_dim0, PROG(RT_BUF("A", "i8", "[4,0]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A.shape*", -1, "", "A")
SCHEMA(shape_dim_negative,
       PROG(RT_BUF("A", "i8", "[-4,4]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A.shape*", -1, "", "A")
SCHEMA(shape_dim_float,
       PROG(RT_BUF("A", "i8", "[4.0,4]", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A.shape*", -1, "", "A")
SCHEMA(shape_not_array, PROG(RT_BUF("A", "i8", "4", "input") "," B_BUF "," C_BUF "," BIAS_BUF, CMDS),
       "buffers.A.shape", -1, "", "A")

/* 2^62 elements: must be refused from the numbers, before any allocation. */
TEST(shape_absurd_rejected_fast)
{
	struct ttpu_error err;
	struct timespec t0, t1;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = load_err(PROG(A_BUF "," B_BUF "," RT_BUF("C", "i32", "[2147483647,2147483647]", "temp")
			   "," BIAS_BUF, CMDS), &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
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

SCHEMA(duplicate_buffer_name,
       PROG(BUFS "," RT_BUF("A", "i8", "[4,4]", "temp"), CMDS), "buffers.A", -1, "", "A")
SCHEMA_KEY(duplicate_key_in_command,
	   PROG(BUFS, "{'op':'pass','id':0,'id':1,'a':" RT_WIN("A", 0, 0) ",'b':" RT_WIN("B", 0, 0)
		"}," ACC0),
	   "commands[0]", "id", 0, NULL, NULL)
SCHEMA_KEY(duplicate_key_top, PROGH(HDR, BUFS, "'A'", "'C'", CMDS, ",'name':'u'"),
       "", "name", -1, "", "")

/* ---- inputs and outputs lists ---- */

SCHEMA(inputs_omit_an_input, RT_PROG(BUFS, "", "'C'", CMDS), "inputs", -1, "", "A")
SCHEMA(inputs_name_a_const, RT_PROG(BUFS, "'A','B'", "'C'", CMDS), "inputs[1]", -1, "", "B")
SCHEMA(inputs_name_twice, RT_PROG(BUFS, "'A','A'", "'C'", CMDS), "inputs[1]", -1, "", "A")
SCHEMA(inputs_name_unknown, RT_PROG(BUFS, "'A','Z'", "'C'", CMDS), "inputs[1]", -1, "", "Z")
SCHEMA(inputs_not_strings, RT_PROG(BUFS, "'A',1", "'C'", CMDS), "inputs[1]", -1, "", NULL)
SCHEMA(outputs_unknown, RT_PROG(BUFS, "'A'", "'Z'", CMDS), "outputs[0]", -1, "", "Z")
SCHEMA(outputs_duplicate, RT_PROG(BUFS, "'A'", "'C','C'", CMDS), "outputs[1]", -1, "", "C")

/* ---- const data ---- */

SCHEMA_KEY(const_data_missing,
       PROG(A_BUF ",'B':{'dtype':'i8','shape':[4,4],'kind':'const'}," C_BUF "," BIAS_BUF, CMDS),
       "buffers.B", "data", -1, "", "B")
SCHEMA(const_data_too_few_rows,
       PROG(A_BUF "," RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0]]") ","
	    C_BUF "," BIAS_BUF, CMDS),
       "buffers.B.data*", -1, "", "B")
SCHEMA(const_data_short_row,
       PROG(A_BUF "," RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0],[0,0,1,0],[0,0,0,1]]") ","
	    C_BUF "," BIAS_BUF, CMDS),
       "buffers.B.data*", -1, "", "B")
SCHEMA(const_data_rank1_nested,
       PROG(BUFS "," RT_CONST("v", "i32", "[2]", "[[1,2]]"), CMDS), "buffers.v.data*", -1, "", "v")
SCHEMA(const_data_rank2_flat,
       PROG(BUFS "," RT_CONST("m", "i32", "[1,2]", "[1,2]"), CMDS), "buffers.m.data*", -1, "", "m")
SCHEMA(const_data_i8_too_big,
       PROG(A_BUF "," RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,128],[0,0,0,1]]") ","
	    C_BUF "," BIAS_BUF, CMDS),
       "buffers.B.data*", -1, "", "B")
SCHEMA(const_data_i8_too_small,
       PROG(A_BUF "," RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[-129,0,0,1]]") ","
	    C_BUF "," BIAS_BUF, CMDS),
       "buffers.B.data*", -1, "", "B")
SCHEMA(const_data_i32_too_big,
       PROG(A_BUF "," B_BUF "," C_BUF "," RT_CONST("bias", "i32", "[4]", "[1,2,3,2147483648]"), CMDS),
       "buffers.bias.data*", -1, "", "bias")
SCHEMA(const_data_float,
       PROG(A_BUF "," B_BUF "," C_BUF "," RT_CONST("bias", "i32", "[4]", "[1,2.0,3,4]"), CMDS),
       "buffers.bias.data*", -1, "", "bias")
SCHEMA(const_data_exponent,
       PROG(A_BUF "," B_BUF "," C_BUF "," RT_CONST("bias", "i32", "[4]", "[1,2,1e2,4]"), CMDS),
       "buffers.bias.data*", -1, "", "bias")
SCHEMA(const_data_bool,
       PROG(A_BUF "," B_BUF "," C_BUF "," RT_CONST("bias", "i32", "[4]", "[1,true,3,4]"), CMDS),
       "buffers.bias.data*", -1, "", "bias")
SCHEMA(data_on_temp,
       PROG(A_BUF "," B_BUF "," BIAS_BUF ",'C':{'dtype':'i32','shape':[1,1],'kind':'temp','data':[[0]]}",
	    CMDS),
       "buffers.C.data", -1, "", "C")
SCHEMA(data_on_input,
       PROG(B_BUF "," C_BUF "," BIAS_BUF
	    ",'A':{'dtype':'i8','shape':[1,1],'kind':'input','data':[[0]]}", CMDS),
       "buffers.A.data", -1, "", "A")

/* ---- windows ---- */

SCHEMA(window_on_rank1,
       PROG(BUFS "," RT_CONST("v", "i8", "[4]", "[1,2,3,4]"),
	    RT_PASS(0, "v", 0, 0, "B", 0, 0) "," ACC0),
       "commands[0].a*", 0, "pass", "v")
SCHEMA(window_r_negative, PROG(BUFS, RT_PASS(0, "A", -1, 0, "B", 0, 0) "," ACC0),
       "commands[0].a.r", 0, "pass", NULL)
SCHEMA(window_c_negative, PROG(BUFS, PASS0 "," RT_ACC(0, "C", 0, -4)),
       "commands[1].dst.c", 1, "acc", NULL)
SCHEMA(window_r_float, PROG(BUFS, RT_PASS(0, "A", 0, 0, "B", 4.0, 0) "," ACC0),
       "commands[0].b.r", 0, "pass", NULL)
SCHEMA(window_r_beyond_int64,
       PROG(BUFS, RT_PASS(0, "A", 99999999999999999999, 0, "B", 0, 0) "," ACC0),
       "commands[0].a.r", 0, "pass", NULL)
SCHEMA(window_buffer_unknown, PROG(BUFS, RT_PASS(0, "Z", 0, 0, "B", 0, 0) "," ACC0),
       "commands[0].a.buf", 0, "pass", "Z")
SCHEMA(pass_a_on_i32, PROG(BUFS, RT_PASS(0, "C", 0, 0, "B", 0, 0) "," ACC0),
       "commands[0].a*", 0, "pass", "C")
SCHEMA(pass_b_on_i32, PROG(BUFS, RT_PASS(0, "A", 0, 0, "C", 0, 0) "," ACC0),
       "commands[0].b*", 0, "pass", "C")

/* ---- passes and accs ---- */

SCHEMA(pass_id_duplicate,
       PROG(BUFS, PASS0 "," RT_PASS(0, "A", 0, 0, "B", 0, 0) "," ACC0 "," ACC0),
       "commands[1].id", 1, "pass", NULL)
SCHEMA(pass_id_negative, PROG(BUFS, RT_PASS(-1, "A", 0, 0, "B", 0, 0) "," RT_ACC(-1, "C", 0, 0)),
       "commands[0].id", 0, "pass", NULL)
SCHEMA(pass_id_true, PROG(BUFS, RT_PASS(true, "A", 0, 0, "B", 0, 0) "," ACC0),
       "commands[0].id", 0, "pass", NULL)
SCHEMA(pass_id_exponent, PROG(BUFS, RT_PASS(0e0, "A", 0, 0, "B", 0, 0) "," ACC0),
       "commands[0].id", 0, "pass", NULL)
SCHEMA(pass_never_consumed, PROG(BUFS, CMDS "," RT_PASS(1, "A", 0, 0, "B", 0, 0)),
       NULL, 2, "pass", NULL)
SCHEMA(pass_consumed_twice, PROG(BUFS, CMDS "," ACC0), "commands[2].pass", 2, "acc", NULL)
SCHEMA(acc_before_its_pass, PROG(BUFS, ACC0 "," PASS0), "commands[0].pass", 0, "acc", NULL)
SCHEMA(acc_unknown_pass, PROG(BUFS, PASS0 "," ACC0 "," RT_ACC(9, "C", 0, 0)),
       "commands[2].pass", 2, "acc", NULL)
/* ids are unique among all passes, consumed or not */
SCHEMA(pass_id_reused_after_consumed,
       PROG(BUFS, CMDS "," PASS0 "," ACC0), "commands[2].id", 2, "pass", NULL)
SCHEMA(acc_dst_rank1, PROG(BUFS, PASS0 "," RT_ACC(0, "bias", 0, 0)),
       "commands[1].dst*", 1, "acc", "bias")
SCHEMA(acc_dst_unknown, PROG(BUFS, PASS0 "," RT_ACC(0, "Z", 0, 0)),
       "commands[1].dst.buf", 1, "acc", "Z")
SCHEMA(acc_bias_rank2,
       PROG(BUFS "," RT_CONST("b2", "i32", "[1,4]", "[[1,2,3,4]]"),
	    PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'b2'}"),
       "commands[1].bias", 1, "acc", "b2")
SCHEMA(acc_bias_too_short,
       PROG(BUFS "," RT_CONST("b3", "i32", "[3]", "[1,2,3]"),
	    PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'b3'}"),
       "commands[1].bias", 1, "acc", "b3")
SCHEMA(acc_bias_unknown,
       PROG(BUFS, PASS0 ",{'op':'acc','pass':0,'dst':" RT_WIN("C", 0, 0) ",'bias':'Z'}"),
       "commands[1].bias", 1, "acc", "Z")
SCHEMA(epilogue_bias_too_short,
       PROG(BUFS "," RT_CONST("b3", "i32", "[3]", "[1,2,3]"),
	    CMDS ",{'op':'epilogue','dst':" RT_WIN("C", 0, 0) ",'bias':'b3'}"),
       "commands[2].bias", 2, "epilogue", "b3")
SCHEMA(epilogue_dst_rank1,
       PROG(BUFS, CMDS ",{'op':'epilogue','dst':" RT_WIN("bias", 0, 0) ",'relu':true}"),
       "commands[2].dst*", 2, "epilogue", "bias")
SCHEMA(alloc_unknown_buffer, PROG(BUFS, CMDS ",{'op':'alloc','buf':'Z'}"),
       "commands[2].buf", 2, "alloc", "Z")

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

SCHEMA(host_add_shape_mismatch,
       PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'X','a':'X','b':'Y'}"), NULL, 2, "host_add", NULL)
SCHEMA(host_add_row_vector_is_not_broadcast,
       PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'X','a':'X','b':'R'}"), NULL, 2, "host_add", NULL)
SCHEMA(host_add_broadcast_wrong_length,
       PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'X','a':'X','b':'v2'}"), NULL, 2, "host_add", NULL)
SCHEMA(host_add_dst_shape_mismatch,
       PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'Y','a':'X','b':'X'}"),
       "commands[2].dst", 2, "host_add", "Y")
SCHEMA(host_add_dst_rank1_for_broadcast,
       PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'v3','a':'X','b':'v3'}"),
       "commands[2].dst", 2, "host_add", "v3")
SCHEMA(host_add_unknown_operand,
       PROG(XY_BUFS, CMDS ",{'op':'host_add','dst':'X','a':'X','b':'Z'}"),
       "commands[2].b", 2, "host_add", "Z")
SCHEMA(host_relu_shape_mismatch,
       PROG(XY_BUFS, CMDS ",{'op':'host_relu','dst':'Y','src':'X'}"), NULL, 2, "host_relu", NULL)
SCHEMA(host_relu_rank_mismatch,
       PROG(XY_BUFS, CMDS ",{'op':'host_relu','dst':'R','src':'v3'}"), NULL, 2, "host_relu", NULL)

/* ---- JSON text ---- */

TEST(trailing_data)
{
	struct ttpu_error err;
	int rc = load_err(PROG(BUFS, CMDS) "\n x", &err);

	ASSERT_ERROR_AT(TTPU_SCHEMA_ERROR, rc, err, NULL, -1, "", "");
	ASSERT_EQ(2, err.line);
	ASSERT_EQ(2, err.column);
}

SCHEMA(trailing_second_value, PROG(BUFS, CMDS) " {}", NULL, -1, "", "")

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

SCHEMA(syntax_error, "{'format' 'ttpu'}", NULL, -1, "", "")
SCHEMA(empty_text, "", NULL, -1, "", "")

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

#define ESTIMATE(name, est, kind_, field) \
	TEST(name) \
	{ \
		struct ttpu_error err; \
		int rc = load_run_err(E_PROG(est), &err); \
		ASSERT_ERROR_AT(kind_, rc, err, field, -1, "", ""); \
	}
#define ESTIMATE_OK(name, est) \
	TEST(name) \
	{ \
		struct ttpu_error err; \
		ASSERT_EQ(0, load_run_err(E_PROG(est), &err)) TH_LOG("%s", err.message); \
	}

ESTIMATE_OK(estimate_exact, E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.234375"))
ESTIMATE_OK(estimate_passes_skipped_informational,
	    E_EST("2", "7", "15", "30", E_HOPS, "30", "128", "0.234375"))
ESTIMATE_OK(estimate_utilization_within_tolerance,
	    E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.2343750000001"))
ESTIMATE_OK(estimate_host_ops_zero_keys,
	    E_EST("2", "0", "15", "30",
		  "{'alloc':1,'acc':2,'epilogue':0,'host_add':0,'host_relu':0}",
		  "30", "128", "0.234375"))
ESTIMATE(estimate_passes_mismatch,
	 E_EST("3", "0", "15", "30", E_HOPS, "30", "128", "0.234375"),
	 TTPU_ESTIMATE_MISMATCH, "estimate.passes")
ESTIMATE(estimate_cycles_per_pass_mismatch,
	 E_EST("2", "0", "16", "30", E_HOPS, "30", "128", "0.234375"),
	 TTPU_ESTIMATE_MISMATCH, "estimate.cycles_per_pass")
ESTIMATE(estimate_rtl_cycles_mismatch,
	 E_EST("2", "0", "15", "29", E_HOPS, "30", "128", "0.234375"),
	 TTPU_ESTIMATE_MISMATCH, "estimate.rtl_cycles")
ESTIMATE(estimate_host_ops_mismatch,
	 E_EST("2", "0", "15", "30", "{'alloc':1,'acc':3}", "30", "128", "0.234375"),
	 TTPU_ESTIMATE_MISMATCH, "estimate.host_ops.acc")
ESTIMATE(estimate_host_ops_missing_key_means_zero,
	 E_EST("2", "0", "15", "30", "{'acc':2}", "30", "128", "0.234375"),
	 TTPU_ESTIMATE_MISMATCH, "estimate.host_ops.alloc")
ESTIMATE(estimate_host_ops_extra_count,
	 E_EST("2", "0", "15", "30", "{'alloc':1,'acc':2,'host_relu':1}", "30", "128", "0.234375"),
	 TTPU_ESTIMATE_MISMATCH, "estimate.host_ops.host_relu")
ESTIMATE(estimate_useful_macs_mismatch,
	 E_EST("2", "0", "15", "30", E_HOPS, "128", "128", "0.234375"),
	 TTPU_ESTIMATE_MISMATCH, "estimate.useful_macs")
ESTIMATE(estimate_capacity_macs_mismatch,
	 E_EST("2", "0", "15", "30", E_HOPS, "30", "64", "0.234375"),
	 TTPU_ESTIMATE_MISMATCH, "estimate.capacity_macs")
ESTIMATE(estimate_utilization_mismatch,
	 E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.2344"),
	 TTPU_ESTIMATE_MISMATCH, "estimate.utilization")
ESTIMATE(estimate_key_missing, "'passes':2", TTPU_SCHEMA_ERROR, "estimate")
ESTIMATE(estimate_unknown_key,
	 E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.234375") ",'bogus':1",
	 TTPU_SCHEMA_ERROR, "estimate")
ESTIMATE(estimate_host_ops_unknown_key,
	 E_EST("2", "0", "15", "30", "{'alloc':1,'acc':2,'pass':2}", "30", "128", "0.234375"),
	 TTPU_SCHEMA_ERROR, "estimate.host_ops")
ESTIMATE(estimate_passes_string,
	 E_EST("'2'", "0", "15", "30", E_HOPS, "30", "128", "0.234375"),
	 TTPU_SCHEMA_ERROR, "estimate.passes")
ESTIMATE(estimate_passes_negative,
	 E_EST("-2", "0", "15", "30", E_HOPS, "30", "128", "0.234375"),
	 TTPU_SCHEMA_ERROR, "estimate.passes")
ESTIMATE(estimate_passes_float,
	 E_EST("2.0", "0", "15", "30", E_HOPS, "30", "128", "0.234375"),
	 TTPU_SCHEMA_ERROR, "estimate.passes")
ESTIMATE(estimate_host_ops_not_object,
	 E_EST("2", "0", "15", "30", "[1]", "30", "128", "0.234375"),
	 TTPU_SCHEMA_ERROR, "estimate.host_ops")
ESTIMATE(estimate_host_ops_count_string,
	 E_EST("2", "0", "15", "30", "{'alloc':1,'acc':'2'}", "30", "128", "0.234375"),
	 TTPU_SCHEMA_ERROR, "estimate.host_ops.acc")
ESTIMATE(estimate_utilization_string,
	 E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "'0.2'"),
	 TTPU_SCHEMA_ERROR, "estimate.utilization")

SCHEMA(estimate_is_array, "{" HDR ",'buffers':{" E_BUFS "},'inputs':[],'outputs':['C'],"
       "'commands':[" E_CMDS "],'estimate':[]}", "estimate", -1, "", "")

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
