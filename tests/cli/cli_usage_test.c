// SPDX-License-Identifier: MIT
/*
 * cli_usage_test.c - ttpu-run's command line: every run that fails on its
 * arguments, its stdin, a file or a device, with its exit status and
 * error kind (one table); an option given an argument it does not take;
 * --help and --version.
 *
 * Every test runs the real binary and checks its exit status, its stdout
 * (one JSON value: the response or {"error": ...}) and its stderr (nothing
 * on success, exactly one "ttpu-run: KIND: message" line on failure).
 */
#include "kselftest_harness.h"

#include "cli_check.h"

/* ---- runs that fail: arguments and stdin, exit status and kind ---------- */

/*
 * ttpu-run with @args (and @in on stdin) fails with exit status @status and
 * error @kind (check_error: the JSON error on stdout, one line on stderr),
 * its stderr naming @says when given.
 */
FIXTURE(fails) {
	struct proc_result r;
};

FIXTURE_VARIANT(fails) {
	const char *args[6];	/* "@name" is tests/cli/data/name */
	const char *in;		/* stdin, or NULL: /dev/null */
	int status;
	const char *kind;
	const char *says;	/* on stderr, or NULL */
};

FIXTURE_SETUP(fails)
{
	memset(&self->r, 0, sizeof(self->r));
}

FIXTURE_TEARDOWN(fails)
{
	proc_result_free(&self->r);
}

TEST_F(fails, with_its_kind)
{
	const char *args[PROC_MAX_ARGS];
	char *owned[6];

	cli_args(variant->args, 6, NULL, args, owned);
	ASSERT_EQ(0, proc_run_ttpu(args, &(struct proc_opts){ .stdin_text = variant->in },
				   &self->r));
	cli_args_free(owned, 6);
	check_error(_metadata, &self->r, variant->kind, variant->status);
	if (variant->says) {
		ASSERT_NE(NULL, strstr(self->r.err, variant->says)) TH_LOG("%s", self->r.err);
	}
}

FIXTURE_VARIANT_ADD(fails, empty_stdin) {
	.args = { "--engine", "software" }, .in = "",
	.status = 1, .kind = "SchemaError", .says = "empty request on stdin",
};

FIXTURE_VARIANT_ADD(fails, blank_stdin) {
	.args = { "--engine", "software" }, .in = " \n\t\r\n",
	.status = 1, .kind = "SchemaError", .says = "empty request on stdin",
};

FIXTURE_VARIANT_ADD(fails, request_malformed_json) {
	.args = { "--engine", "software" }, .in = "{\"program\": {\"format\": \"ttpu\",, }",
	.status = 1, .kind = "SchemaError",
};

FIXTURE_VARIANT_ADD(fails, request_not_an_object) {
	.args = { "--engine", "software" }, .in = "[1, 2, 3]\n",
	.status = 1, .kind = "SchemaError",
};

FIXTURE_VARIANT_ADD(fails, request_program_wrong_type) {
	.args = { "--engine", "software" }, .in = "{\"program\": 5, \"inputs\": {}}",
	.status = 1, .kind = "SchemaError",
};

FIXTURE_VARIANT_ADD(fails, file_inputs_option_missing) {
	.args = { "@tiny.json", "--engine", "software" },
	.status = 1, .kind = "InputError", .says = "--inputs",
};

FIXTURE_VARIANT_ADD(fails, missing_program_file) {
	.args = { "/nonexistent/ttpu/program.json" },
	.status = 3, .kind = "SystemError", .says = "/nonexistent/ttpu/program.json",
};

FIXTURE_VARIANT_ADD(fails, missing_inputs_file) {
	.args = { "@tiny.json", "--inputs", "/nonexistent/ttpu/inputs.json" },
	.status = 3, .kind = "SystemError",
};

FIXTURE_VARIANT_ADD(fails, program_is_a_directory) {
	.args = { "/" }, .status = 3, .kind = "SystemError",
};

FIXTURE_VARIANT_ADD(fails, engine_npukit_missing_device) {
	.args = { "--engine", "npukit", "--device", "/nonexistent/npukit0", "@noinputs.json" },
	.status = 3, .kind = "DeviceError",
};

FIXTURE_VARIANT_ADD(fails, info_missing_device) {
	.args = { "--info", "--device", "/nonexistent/npukit0" },
	.status = 3, .kind = "DeviceError", .says = "then the module",
};

FIXTURE_VARIANT_ADD(fails, info_not_an_npukit) {
	.args = { "--info", "--device", "/dev/null" },
	.status = 3, .kind = "DeviceError", .says = "/dev/null: not an NpuKit device",
};

FIXTURE_VARIANT_ADD(fails, info_with_a_program) {
	.args = { "--info", "@noinputs.json" }, .status = 2, .kind = "UsageError",
	.says = "--info takes only",
};

FIXTURE_VARIANT_ADD(fails, json_without_info) {
	.args = { "--json", "@noinputs.json" }, .status = 2, .kind = "UsageError",
	.says = "--json goes with --info",
};

FIXTURE_VARIANT_ADD(fails, repeat_not_a_number) {
	.args = { "--repeat", "5x", "@noinputs.json" }, .status = 2, .kind = "UsageError",
	.says = "--repeat needs a count",
};

FIXTURE_VARIANT_ADD(fails, usage_engine_bogus) {
	.args = { "--engine", "bogus", "@noinputs.json" },
	.status = 2, .kind = "UsageError", .says = "bogus",
};

FIXTURE_VARIANT_ADD(fails, usage_unknown_long_option) {
	.args = { "--frobnicate", "@noinputs.json" },
	.status = 2, .kind = "UsageError", .says = "--frobnicate",
};

FIXTURE_VARIANT_ADD(fails, usage_unknown_short_option) {
	.args = { "-x", "@noinputs.json" },
	.status = 2, .kind = "UsageError", .says = "-x",
};

FIXTURE_VARIANT_ADD(fails, usage_missing_argument) {
	.args = { "@noinputs.json", "--engine" }, .status = 2, .kind = "UsageError",
};

FIXTURE_VARIANT_ADD(fails, usage_two_programs) {
	.args = { "@noinputs.json", "@tiny.json" }, .status = 2, .kind = "UsageError",
};

FIXTURE_VARIANT_ADD(fails, usage_inputs_with_request) {
	.args = { "--inputs", "@tiny-inputs.json" }, .in = "{}",
	.status = 2, .kind = "UsageError",
};

TEST(usage_flag_with_argument)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--check=yes", cli_data("noinputs.json"));
	check_error(_metadata, &r, "UsageError", 2);
	ASSERT_NE(NULL, strstr(r.err, "'--check' takes no argument")) TH_LOG("%s", r.err);
	proc_result_free(&r);
}

/* ---- usage ------------------------------------------------------------- */

TEST(help)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--help");
	ASSERT_EQ(0, r.status);
	ASSERT_EQ(0, r.err_len);
	ASSERT_EQ(0, strncmp(r.out, "Usage: ttpu-run", 15));
	ASSERT_NE(NULL, strstr(r.out, "--engine"));
	/* Every exit status is documented. */
	ASSERT_NE(NULL, strstr(r.out, "Exit status"));
	ASSERT_NE(NULL, strstr(r.out, "  1  "));
	ASSERT_NE(NULL, strstr(r.out, "  2  "));
	ASSERT_NE(NULL, strstr(r.out, "  3  "));
	proc_result_free(&r);
}

TEST(version)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--version");
	ASSERT_EQ(0, r.status);
	ASSERT_EQ(0, r.err_len);
	ASSERT_STREQ("ttpu-run 1.0.0\n", r.out);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
