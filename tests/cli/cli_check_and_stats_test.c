// SPDX-License-Identifier: MIT
/*
 * cli_check_and_stats_test.c - --check (a program or request validated, nothing
 * run) and the reports on stderr (--stats, --show), which leave the
 * response as it is and are not written on failure.
 *
 * Every test runs the real binary and checks its exit status, its stdout
 * (one JSON value: the response or {"error": ...}) and its stderr (nothing
 * on success, exactly one "ttpu-run: KIND: message" line on failure).
 */
#include "kselftest_harness.h"

#include "cli_check.h"
#include "cli_known_programs.h"

/* ---- --check, --stats -------------------------------------------------- */

TEST(check_program)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--check", cli_data("tiny.json"));
	check_ok(_metadata, &r);
	ASSERT_EQ(4, json_object_object_length(r.json)) TH_LOG("%s", r.out);
	ASSERT_STREQ("true", plain(test_json_get(r.json, "ok")));
	ASSERT_STREQ("tiny", cli_get_string(r.json, "name"));
	ASSERT_EQ(1, get_int(r.json, "passes"));
	ASSERT_EQ(3, get_int(r.json, "commands"));
	proc_result_free(&r);
}

TEST(check_request)
{
	struct proc_result r;
	char *req = cli_request("noinputs.json", NULL);

	ASSERT_NE(NULL, req);
	RUN_CLI(&r, req, "--check");
	check_ok(_metadata, &r);
	ASSERT_STREQ("noinputs", cli_get_string(r.json, "name"));
	ASSERT_EQ(0, get_int(r.json, "passes"));
	ASSERT_EQ(1, get_int(r.json, "commands"));
	ASSERT_EQ(NULL, test_json_get(r.json, "outputs"));
	proc_result_free(&r);
	free(req);
}

TEST(check_bad_program)
{
	struct proc_result r;
	char *dir, *path = edited(_metadata, &dir, "noinputs.json",
				  "\"version\": 1", "\"version\": 2");

	RUN_CLI(&r, NULL, "--check", path);
	check_error(_metadata, &r, "SchemaError", 1);
	proc_result_free(&r);
	free(path);
	cli_rmdir(dir);
}

TEST(check_bad_inputs)
{
	struct proc_result r;
	char *dir, *in = tmp_file(_metadata, &dir, "in.json", "{\"X\": [1, 2, 3]}");
	char range[4096];

	snprintf(range, sizeof(range), "%s", cli_data("range.json"));
	RUN_CLI(&r, NULL, "--check", range, "--inputs", in);
	check_error(_metadata, &r, "InputError", 1);
	proc_result_free(&r);
	free(in);
	cli_rmdir(dir);
}

TEST(stats_on_stderr)
{
	struct proc_result r;
	char tiny[4096];

	snprintf(tiny, sizeof(tiny), "%s", cli_data("tiny.json"));
	RUN_CLI(&r, NULL, tiny, "--inputs", cli_data("tiny-inputs.json"),
		"--engine", "software", "--stats");
	ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	check_tiny_response(_metadata, r.json);
	ASSERT_NE(NULL, strstr(r.err, "stats: engine software (")) TH_LOG("%s", r.err);
	ASSERT_NE(NULL, strstr(r.err, "1 passes, 15 cycles")) TH_LOG("%s", r.err);
	ASSERT_NE(NULL, strstr(r.err, "read+parse+validate+plan ")) TH_LOG("%s", r.err);
	ASSERT_NE(NULL, strstr(r.err, "run ")) TH_LOG("%s", r.err);
	ASSERT_NE(NULL, strstr(r.err, "output ")) TH_LOG("%s", r.err);
	/* The software engine touches no device: no device line. */
	ASSERT_EQ(NULL, strstr(r.err, "kicks")) TH_LOG("%s", r.err);
	proc_result_free(&r);
}

/* --show: each output as a matrix on stderr; the response is unchanged. */
TEST(show_outputs_on_stderr)
{
	struct proc_result r;
	char tiny[4096];

	snprintf(tiny, sizeof(tiny), "%s", cli_data("tiny.json"));
	RUN_CLI(&r, NULL, tiny, "--inputs", cli_data("tiny-inputs.json"),
		"--engine", "software", "--show");
	ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	check_tiny_response(_metadata, r.json);
	/* A header line, then one line per row of C. */
	ASSERT_EQ(0, strncmp(r.err, "C [4 x 4] i32:\n", 15)) TH_LOG("%s", r.err);
	{
		int lines = 0;

		for (const char *p = r.err; *p; p++)
			lines += *p == '\n';
		ASSERT_EQ(5, lines) TH_LOG("%s", r.err);
	}
	proc_result_free(&r);
}

TEST(stats_not_on_failure)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--stats", cli_data("tiny.json"));
	check_error(_metadata, &r, "InputError", 1);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
