// SPDX-License-Identifier: MIT
/*
 * test_engines_and_responses.c - the engine chosen when there is no node or
 * a node that is no NpuKit, and the JSON of a run's response and of an
 * error
 */
#include <json-c/json.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "compact_build.h"
#include "error.h"
#include "run.h"

TEST(engine_auto_without_node_is_software)
{
	ttpu_engine *eng = NULL;

	ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_AUTO, "/nonexistent/npukit9", &eng, NULL));
	EXPECT_STREQ("software", ttpu_engine_name(eng));
	EXPECT_NE(NULL, strstr(ttpu_engine_reason(eng), "no /nonexistent/npukit9"));
	ttpu_engine_close(eng);
}

TEST(engine_npukit_refuses_clearly)
{
	struct ttpu_error e;
	ttpu_engine *eng = (ttpu_engine *)&e;

	/* Asked for by name, a missing node is an error naming the node. */
	ASSERT_EQ(-TTPU_DEVICE_ERROR,
		  ttpu_engine_open(TTPU_ENGINE_NPUKIT, "/nonexistent/npukit9", &eng, &e));
	EXPECT_NULL(eng);
	EXPECT_NE(NULL, strstr(e.message, "/nonexistent/npukit9")) TH_LOG("%s", e.message);
	EXPECT_EQ(ENOENT, e.sys_errno);
	/* An existing node that is no NpuKit is an error, never a fall-back. */
	ASSERT_EQ(-TTPU_DEVICE_ERROR, ttpu_engine_open(TTPU_ENGINE_AUTO, "/dev/null", &eng, &e));
	EXPECT_NULL(eng);
}

TEST(response_and_error_json)
{
	struct pbuild *b = calloc(1, sizeof(*b));
	struct rng g = { 5 };
	ttpu_engine *eng;
	ttpu_result *r;
	struct ttpu_error e;
	struct json_object *o, *x;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	uint32_t a, d;

	ASSERT_NE(NULL, b);
	pb_init(b);
	a = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 2, 3, &g, -4, 4);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_TEMP, 2, 2, 2, &g, 0, 0);
	add_acc(b, add_pass(b, a, 0, 0, a, 0, 0), d, 0, 0, TTPU_NO_BUFFER, true);
	add_cmd(b, TTPU_OP_ALLOC)->u.alloc.buf = d;
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &eng, NULL));
	ASSERT_EQ(0, ttpu_run(&b->p, eng, NULL, &r, &e));
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ttpu_result_write_json(r, f, 1, &e));
	fclose(f);
	o = json_tokener_parse(text);
	ASSERT_NE(NULL, o);
	ASSERT_TRUE(json_object_object_get_ex(o, "outputs", &x));
	ASSERT_TRUE(json_object_object_get_ex(x, "b1", &x));
	EXPECT_STREQ("{ \"shape\": [ 2, 2 ], \"data\": [ [ 0, 0 ], [ 0, 0 ] ] }",
		     json_object_to_json_string_ext(x, JSON_C_TO_STRING_SPACED));
	ASSERT_TRUE(json_object_object_get_ex(o, "passes", &x));
	EXPECT_STREQ("[ { \"id\": 1000, \"cycles\": 15 } ]",
		     json_object_to_json_string_ext(x, JSON_C_TO_STRING_SPACED));
	ASSERT_TRUE(json_object_object_get_ex(o, "totalCycles", &x));
	EXPECT_EQ(15, json_object_get_int(x));
	ASSERT_TRUE(json_object_object_get_ex(o, "hostOps", &x));
	EXPECT_STREQ("{ \"alloc\": 1, \"acc\": 1, \"epilogue\": 0, \"host_add\": 0, \"host_relu\": 0 }",
		     json_object_to_json_string_ext(x, JSON_C_TO_STRING_SPACED));
	ASSERT_TRUE(json_object_object_get_ex(o, "engine", &x));
	EXPECT_STREQ("software", json_object_get_string(x));
	ASSERT_TRUE(json_object_object_get_ex(o, "stats", &x));
	ASSERT_TRUE(json_object_object_get_ex(x, "runNs", &x));
	json_object_put(o);
	free(text);
	ttpu_result_free(r);

	/* Error objects escape what they quote. */
	ttpu_error_clear(&e);
	e.kind = TTPU_RANGE_ERROR;
	snprintf(e.message, sizeof(e.message), "bad \"name\"\\\n");
	snprintf(e.buffer, sizeof(e.buffer), "q\"\x01");
	e.command = 3;
	text = NULL;
	f = open_memstream(&text, &len);
	ASSERT_EQ(0, ttpu_error_write_json(&e, f));
	fclose(f);
	x = json_tokener_parse(text);
	ASSERT_NE(NULL, x);
	ASSERT_TRUE(json_object_object_get_ex(x, "error", &o));
	EXPECT_STREQ("RangeError", json_object_get_string(json_object_object_get(o, "kind")));
	EXPECT_STREQ("bad \"name\"\\\n", json_object_get_string(json_object_object_get(o, "message")));
	EXPECT_STREQ("q\"\x01", json_object_get_string(json_object_object_get(o, "buffer")));
	EXPECT_EQ(3, json_object_get_int(json_object_object_get(o, "command")));
	EXPECT_NULL(json_object_object_get(o, "row"));
	json_object_put(x);
	free(text);
	ttpu_engine_close(eng);
	pb_release(b);
	free(b);
}

TEST_HARNESS_MAIN
