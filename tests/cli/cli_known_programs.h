/* SPDX-License-Identifier: MIT */
/*
 * cli_known_programs.h - tiny.json and noinputs.json, the test programs
 * most of the ttpu-run suites run: their responses as checks, and the
 * files a test writes, or edits from tests/cli/data, into its own
 * temporary directory.
 *
 * Include after kselftest_harness.h: the checks use its ASSERT_* macros.
 */
#ifndef TTPU_CLI_KNOWN_PROGRAMS_H
#define TTPU_CLI_KNOWN_PROGRAMS_H

#include "cli_check.h"

/* tiny.json times tiny-inputs.json: W is the identity with W[3][3] = 2. */
#define TINY_C "[[1,2,3,8],[5,6,7,16],[-1,-2,-3,-8],[127,-128,0,2]]"

static inline const char *plain(struct json_object *v)
{
	return v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "(none)";
}

static inline int64_t get_int(struct json_object *obj, const char *path)
{
	struct json_object *v = test_json_get(obj, path);

	return v && json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -999;
}

/* The response of tiny.json on tiny-inputs.json, whatever the engine. */
static inline void check_tiny_response(struct __test_metadata *_metadata,
				       struct json_object *resp)
{
	struct json_object *passes, *pass;

	ASSERT_STREQ("[4,4]", plain(test_json_get(resp, "outputs.C.shape")));
	ASSERT_STREQ(TINY_C, plain(test_json_get(resp, "outputs.C.data")));
	ASSERT_EQ(1, json_object_object_length(test_json_get(resp, "outputs")));
	passes = test_json_get(resp, "passes");
	ASSERT_NE(NULL, passes);
	ASSERT_TRUE(json_object_is_type(passes, json_type_array));
	ASSERT_EQ(1, json_object_array_length(passes));
	pass = json_object_array_get_idx(passes, 0);
	ASSERT_EQ(0, get_int(pass, "id"));
	ASSERT_EQ(15, get_int(pass, "cycles"));
	ASSERT_EQ(15, get_int(resp, "totalCycles"));
	ASSERT_EQ(1, get_int(resp, "hostOps.alloc"));
	ASSERT_EQ(1, get_int(resp, "hostOps.acc"));
}

/* The response of noinputs.json: Y = relu([5, -7, 0]). */
static inline void check_noinputs_response(struct __test_metadata *_metadata,
					   struct json_object *resp)
{
	ASSERT_STREQ("[3]", plain(test_json_get(resp, "outputs.Y.shape")));
	ASSERT_STREQ("[5,0,0]", plain(test_json_get(resp, "outputs.Y.data")));
	ASSERT_EQ(0, get_int(resp, "totalCycles"));
	ASSERT_EQ(1, get_int(resp, "hostOps.host_relu"));
}

/* Write @text to a new file @name in a new temporary directory. */
static inline char *tmp_file(struct __test_metadata *_metadata, char **dir,
			     const char *name, const char *text)
{
	char *path;

	*dir = cli_tmpdir();
	ASSERT_NE(NULL, *dir);
	path = cli_path(*dir, name);
	ASSERT_NE(NULL, path);
	ASSERT_EQ(0, cli_spit(path, text, strlen(text)));
	return path;
}

/* Test file @name with its first @from replaced by @to, as a new file. */
static inline char *edited(struct __test_metadata *_metadata, char **dir,
			   const char *name, const char *from, const char *to)
{
	char *text = test_slurp(cli_data(name), NULL), *ed, *path;

	ASSERT_NE(NULL, text);
	ed = cli_replace(text, from, to);
	ASSERT_NE(NULL, ed) TH_LOG("'%s' not in %s", from, name);
	path = tmp_file(_metadata, dir, name, ed);
	free(text);
	free(ed);
	return path;
}

#endif /* TTPU_CLI_KNOWN_PROGRAMS_H */
