// SPDX-License-Identifier: MIT
/*
 * test_schema_document.c - one test per way a program's document is
 * malformed: its header, keys missing, unknown, duplicated or of the wrong
 * type at every level, the JSON text itself, and the file it is read from.
 *
 * Every program here is the valid base program of rt_reject.h with exactly
 * one thing wrong, so only one check can fire; each test asserts the kind
 * and where the error points (field, command, op, buffer).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "rt.h"
#include "rt_reject.h"

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
/* unknown keys in estimate and estimate.host_ops: test_schema_estimate.c */

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
