// SPDX-License-Identifier: MIT
/*
 * cli_protocol_test.c - ttpu-run's protocol: a request ({"program",
 * "inputs"}) on stdin answered on stdout, on the default engine too;
 * requests cut short, followed by garbage or a second document, with an
 * unknown key, nested too deep, or with inputs missing or out of range.
 *
 * Every test runs the real binary and checks its exit status, its stdout
 * (one JSON value: the response or {"error": ...}) and its stderr (nothing
 * on success, exactly one "ttpu-run: KIND: message" line on failure).
 */
#include "kselftest_harness.h"

#include "cli_check.h"
#include "cli_known_programs.h"

/* Run a request text on stdin, expect @kind. */
static void request_fails(struct __test_metadata *_metadata, const char *req,
			  const char *kind)
{
	struct proc_result r;

	RUN_CLI(&r, req, "--engine", "software");
	check_error(_metadata, &r, kind, 1);
	proc_result_free(&r);
}

/* ---- the protocol: a request on stdin ---------------------------------- */

TEST(protocol_request_on_stdin)
{
	struct proc_result r;
	char *req = cli_request("tiny.json", "tiny-inputs.json");

	ASSERT_NE(NULL, req);
	RUN_CLI(&r, req, "--engine", "software");
	check_ok(_metadata, &r);
	check_tiny_response(_metadata, r.json);
	proc_result_free(&r);
	free(req);
}

TEST(protocol_program_without_inputs)
{
	struct proc_result r;
	char *req = cli_request("noinputs.json", NULL);

	ASSERT_NE(NULL, req);
	RUN_CLI(&r, req, "--engine", "software");
	check_ok(_metadata, &r);
	check_noinputs_response(_metadata, r.json);
	proc_result_free(&r);
	free(req);
}

TEST(protocol_default_engine_auto)
{
	struct proc_result r;
	char *req = cli_request("tiny.json", "tiny-inputs.json");

	if (access("/dev/npukit0", F_OK) == 0)
		SKIP(return, "/dev/npukit0 exists: auto would use the device");
	RUN_CLI(&r, req, "--stats");
	ASSERT_EQ(0, r.status);
	check_tiny_response(_metadata, r.json);
	ASSERT_NE(NULL, strstr(r.err, "engine software"));
	proc_result_free(&r);
	free(req);
}

TEST(request_truncated)
{
	char *req = cli_request("tiny.json", "tiny-inputs.json");

	ASSERT_NE(NULL, req);
	req[strlen(req) / 2] = '\0';
	request_fails(_metadata, req, "SchemaError");
	free(req);
}

TEST(request_trailing_garbage)
{
	char *req = cli_request("tiny.json", "tiny-inputs.json"), *bad;

	ASSERT_NE(NULL, req);
	ASSERT_LT(0, asprintf(&bad, "%s x", req));
	request_fails(_metadata, bad, "SchemaError");
	free(bad);
	free(req);
}

TEST(request_second_document)
{
	char *req = cli_request("tiny.json", "tiny-inputs.json"), *bad;

	ASSERT_NE(NULL, req);
	ASSERT_LT(0, asprintf(&bad, "%s%s", req, req));
	request_fails(_metadata, bad, "SchemaError");
	free(bad);
	free(req);
}

TEST(request_unknown_key)
{
	char *req = cli_request("noinputs.json", NULL), *bad;

	ASSERT_NE(NULL, req);
	bad = cli_replace(req, "{\"program\"", "{\"programme\": 1, \"program\"");
	ASSERT_NE(NULL, bad);
	request_fails(_metadata, bad, "SchemaError");
	free(bad);
	free(req);
}

TEST(request_deep_nesting)
{
	size_t depth = 100000;
	char *req = malloc(depth + 1);

	ASSERT_NE(NULL, req);
	memset(req, '[', depth);
	req[depth] = '\0';
	request_fails(_metadata, req, "SchemaError");
	free(req);
}

TEST(request_inputs_out_of_range)
{
	char *req = cli_request("tiny.json", "tiny-inputs.json"), *bad;

	ASSERT_NE(NULL, req);
	bad = cli_replace(req, "[1, 2, 3, 4]", "[1, 2, 300, 4]");
	ASSERT_NE(NULL, bad);
	request_fails(_metadata, bad, "InputError");
	free(bad);
	free(req);
}

TEST(request_inputs_missing)
{
	char *req = cli_request("tiny.json", NULL);

	ASSERT_NE(NULL, req);
	request_fails(_metadata, req, "InputError");
	free(req);
}

TEST_HARNESS_MAIN
