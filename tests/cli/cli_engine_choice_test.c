// SPDX-License-Identifier: MIT
/*
 * cli_engine_choice_test.c - which engine runs: --engine software (-e), the
 * NpuKit on its default node, auto falling back to the software engine
 * when the node is missing, --device alone asking for the NpuKit.
 *
 * Every test runs the real binary and checks its exit status, its stdout
 * (one JSON value: the response or {"error": ...}) and its stderr (nothing
 * on success, exactly one "ttpu-run: KIND: message" line on failure).
 */
#include "kselftest_harness.h"

#include "cli_check.h"
#include "cli_known_programs.h"

/* ---- engines ----------------------------------------------------------- */

TEST(engine_software)
{
	struct proc_result r;
	const char *engine;
	char tiny[4096];

	snprintf(tiny, sizeof(tiny), "%s", cli_data("tiny.json"));
	RUN_CLI(&r, NULL, "-e", "software", tiny, "-i", cli_data("tiny-inputs.json"));
	check_ok(_metadata, &r);
	check_tiny_response(_metadata, r.json);
	engine = cli_get_string(r.json, "engine");
	if (!engine)
		engine = cli_get_string(r.json, "engine.name");
	if (engine)
		ASSERT_STREQ("software", engine);
	proc_result_free(&r);
}

TEST(engine_npukit_default_node)
{
	struct proc_result r;

	if (access("/dev/npukit0", F_OK) == 0 || access("/dev/npukit", F_OK) == 0)
		SKIP(return, "this machine has an NpuKit node");
	RUN_CLI(&r, NULL, "--engine", "npukit", cli_data("noinputs.json"));
	check_error(_metadata, &r, "DeviceError", 3);
	proc_result_free(&r);
}

TEST(engine_auto_missing_device_falls_back)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--engine", "auto", "--device", "/nonexistent/npukit0", "--stats",
		cli_data("noinputs.json"));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	check_noinputs_response(_metadata, r.json);
	ASSERT_NE(NULL, strstr(r.err, "engine software")) TH_LOG("%s", r.err);
	proc_result_free(&r);
}

/*
 * --device alone asks for the NpuKit: a missing node is a DeviceError that
 * says what to load, with the path unescaped in the JSON error.
 */
TEST(device_implies_engine_npukit)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--device", "/nonexistent/npukit0", cli_data("noinputs.json"));
	check_error(_metadata, &r, "DeviceError", 3);
	ASSERT_NE(NULL, strstr(r.err, "load the bitstream and its overlay, then the module"))
		TH_LOG("%s", r.err);
	ASSERT_NE(NULL, strstr(r.err, "Documentation/npukit/pynq-z2.rst")) TH_LOG("%s", r.err);
	ASSERT_NE(NULL, strstr(r.out, "\"/nonexistent/npukit0: cannot open")) TH_LOG("%s", r.out);
	ASSERT_EQ(NULL, strstr(r.out, "\\/")) TH_LOG("%s", r.out);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
