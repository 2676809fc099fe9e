// SPDX-License-Identifier: MIT
/*
 * test_api.c - the functions ttpu-run.h gained so that the CLI (and any
 * other client) needs nothing else: requests, reading texts, reporting
 * errors in the contract's form, and the engine table by name. Only the
 * public header is used here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rt.h"

/* A: i8 [2,3], W: i32 [3], out = A + W (broadcast) */
#define PROG_AW RT_PROG(RT_BUF("A", "i8", "[2,3]", "input") "," \
			RT_BUF("W", "i32", "[3]", "input") "," \
			RT_BUF("O", "i32", "[2,3]", "temp"), \
			"'A','W'", "'O'", "{'op':'host_add','dst':'O','a':'A','b':'W'}")
#define INPUTS_AW "{'A':[[1,2,3],[4,5,6]],'W':[10,20,30]}"

/* ttpu_request_load_buffer() on single-quoted @sq, then run it. */
static int request_run(const char *sq, ttpu_result **res, struct ttpu_error *err)
{
	char *text = rt_dq(sq);
	ttpu_program *prog = (ttpu_program *)text;	/* must be overwritten */
	ttpu_inputs *in = (ttpu_inputs *)text;
	int rc;

	*res = NULL;
	rc = ttpu_request_load_buffer(text, strlen(text), &prog, &in, err);
	free(text);
	if (rc)
		return prog || in ? RT_LEFT_OBJECT : rc;
	rc = ttpu_run(prog, rt_engine(), in, res, err);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
	return rc;
}

/* Inputs before their program are kept and checked once it is known. */
TEST(request_either_order)
{
	static const char *const requests[] = {
		"{'program':" PROG_AW ",'inputs':" INPUTS_AW "}",
		"{'inputs':" INPUTS_AW ",'program':" PROG_AW "}",
	};
	struct ttpu_error err;
	ttpu_result *res;

	for (size_t i = 0; i < RT_N(requests); i++) {
		int rc = request_run(requests[i], &res, &err);

		ASSERT_EQ(0, rc) TH_LOG("request %zu: %s", i, err.message);
		ASSERT_OUTPUT(res, "O", 11, 22, 33, 14, 25, 36);
		ttpu_result_free(res);
	}
}

TEST(request_missing_input)
{
	struct ttpu_error err;
	ttpu_result *res;
	int rc = request_run("{'program':" PROG_AW ",'inputs':{'A':[[1,2,3],[4,5,6]]}}",
			     &res, &err);

	ASSERT_ERROR_AT(TTPU_INPUT_ERROR, rc, err, NULL, -1, NULL, "W");
}

TEST(request_missing_program)
{
	struct ttpu_error err;
	ttpu_result *res;
	int rc = request_run("{'inputs':" INPUTS_AW "}", &res, &err);

	ASSERT_KIND(TTPU_SCHEMA_ERROR, rc, err);
	ASSERT_NE(NULL, strstr(err.message, "missing key \"program\"")) TH_LOG("%s", err.message);
}

TEST(request_null_arguments)
{
	struct ttpu_error err;
	ttpu_program *prog;
	int rc = ttpu_request_load_buffer("{}", 2, &prog, NULL, &err);

	ASSERT_KIND(TTPU_USAGE_ERROR, rc, err);
}

TEST(read_fd_pipe)
{
	static const char msg[] = "{\"program\": 1}\n";
	struct ttpu_error err;
	size_t len;
	char *text;
	int fds[2], rc;

	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ((ssize_t)strlen(msg), write(fds[1], msg, strlen(msg)));
	close(fds[1]);
	rc = ttpu_read_fd(fds[0], "a pipe", &text, &len, &err);
	close(fds[0]);
	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	ASSERT_EQ(strlen(msg), len);
	ASSERT_EQ(0, memcmp(msg, text, len));
	free(text);
}

/*
 * The input-size limit holds while reading a pipe: a text one byte past
 * it is refused, one at it is read; the same limit for a streamed request.
 */
TEST(read_fd_pipe_limit)
{
	char msg[1025];
	struct ttpu_error err;
	ttpu_program *prog;
	ttpu_inputs *in;
	size_t len;
	char *text;
	int fds[2], rc;

	memset(msg, ' ', sizeof(msg));
	ASSERT_EQ(0, ttpu_text_limit_set("1K", &err));
	ASSERT_EQ(1024, ttpu_text_limit());
	for (int over = 0; over <= 1; over++) {
		ASSERT_EQ(0, pipe(fds));
		ASSERT_EQ(1024 + over, write(fds[1], msg, 1024 + (size_t)over));
		close(fds[1]);
		rc = ttpu_read_fd(fds[0], "a pipe", &text, &len, &err);
		close(fds[0]);
		if (over) {
			ASSERT_KIND(TTPU_USAGE_ERROR, rc, err);
			ASSERT_EQ(NULL, text);
		} else {
			ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
			ASSERT_EQ(1024, len);
			free(text);
		}
	}
	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(1025, write(fds[1], msg, 1025));
	close(fds[1]);
	rc = ttpu_request_load_fd(fds[0], "a pipe", &prog, &in, &err);
	close(fds[0]);
	ASSERT_KIND(TTPU_USAGE_ERROR, rc, err);
	ASSERT_NE(NULL, strstr(err.message, "1024-byte input limit")) TH_LOG("%s", err.message);
	ASSERT_KIND(TTPU_USAGE_ERROR, ttpu_text_limit_set("0", &err), err);
}

TEST(read_file_missing)
{
	struct ttpu_error err;
	char *text = (char *)&err;
	size_t len;
	int rc = ttpu_read_file("/nonexistent/npukit-test.json", &text, &len, &err);

	ASSERT_KIND(TTPU_SYSTEM_ERROR, rc, err);
	ASSERT_EQ(ENOENT, err.sys_errno);
	ASSERT_EQ(NULL, text);
	ASSERT_NE(NULL, strstr(err.message, "/nonexistent/npukit-test.json"));
}

/* A caller's own failure: every place field reads "unknown". */
TEST(error_set_resets)
{
	struct ttpu_error err;

	memset(&err, 0x5a, sizeof(err));
	ASSERT_EQ(-TTPU_USAGE_ERROR, ttpu_error_set(&err, TTPU_USAGE_ERROR, "bad %s", "flag"));
	ASSERT_EQ(TTPU_USAGE_ERROR, err.kind);
	ASSERT_STREQ("bad flag", err.message);
	ASSERT_EQ(-1, err.command);
	ASSERT_EQ(-1, err.element);
	ASSERT_STREQ("", err.field);
	ASSERT_STREQ("", err.op);
	ASSERT_EQ(0, err.sys_errno);
	ASSERT_EQ(-TTPU_SYSTEM_ERROR, ttpu_error_set(NULL, TTPU_SYSTEM_ERROR, "no details"));
}

TEST(error_sys_appends_strerror)
{
	struct ttpu_error err;
	char want[TTPU_ERROR_MESSAGE_MAX];

	ASSERT_EQ(-TTPU_SYSTEM_ERROR, ttpu_error_sys(&err, ENOSPC, "cannot write %s", "OUT"));
	snprintf(want, sizeof(want), "cannot write OUT: %s", strerror(ENOSPC));
	ASSERT_STREQ(want, err.message);
	ASSERT_EQ(ENOSPC, err.sys_errno);
	ASSERT_EQ(TTPU_SYSTEM_ERROR, err.kind);
}

/* The table, in order, named as users type them; parse inverts name. */
TEST(engine_choices_enumerate)
{
	static const char *const want[] = { "auto", "npukit", "software" };
	enum ttpu_engine_choice c;
	size_t i;

	ASSERT_EQ(TTPU_ENGINE_AUTO, 0);
	for (i = 0; i < RT_N(want); i++) {
		ASSERT_STREQ(want[i], ttpu_engine_choice_name((enum ttpu_engine_choice)i));
		c = (enum ttpu_engine_choice)-1;
		ASSERT_EQ(0, ttpu_engine_choice_parse(want[i], &c, NULL));
		ASSERT_EQ((enum ttpu_engine_choice)i, c);
	}
	ASSERT_EQ(NULL, ttpu_engine_choice_name((enum ttpu_engine_choice)RT_N(want)));
	ASSERT_EQ(NULL, ttpu_engine_choice_name((enum ttpu_engine_choice)-1));
	ASSERT_STREQ("npukit", ttpu_engine_choice_name(TTPU_ENGINE_NPUKIT));
	ASSERT_STREQ("software", ttpu_engine_choice_name(TTPU_ENGINE_SOFTWARE));
}

TEST(engine_choice_unknown)
{
	enum ttpu_engine_choice c = TTPU_ENGINE_SOFTWARE;
	struct ttpu_error err;
	int rc = ttpu_engine_choice_parse("Software", &c, &err);

	ASSERT_KIND(TTPU_USAGE_ERROR, rc, err);
	ASSERT_STREQ("unknown engine 'Software' (expected auto, npukit or software)",
		     err.message);
	ASSERT_EQ(TTPU_ENGINE_SOFTWARE, c);
}

/* An engine's name is its table name, whichever way it was chosen. */
TEST(engine_open_named)
{
	struct ttpu_error err;
	ttpu_engine *eng;
	int rc = ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &eng, &err);

	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	ASSERT_STREQ("software", ttpu_engine_name(eng));
	ASSERT_STREQ("software engine requested", ttpu_engine_reason(eng));
	ttpu_engine_close(eng);
}

TEST(engine_open_unknown_choice)
{
	struct ttpu_error err;
	ttpu_engine *eng = (ttpu_engine *)&err;
	int rc = ttpu_engine_open((enum ttpu_engine_choice)3, NULL, &eng, &err);

	ASSERT_KIND(TTPU_USAGE_ERROR, rc, err);
	ASSERT_EQ(NULL, eng);
}

TEST_HARNESS_MAIN
