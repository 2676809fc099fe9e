// SPDX-License-Identifier: MIT
/*
 * cli_compile_test.c - ttpu-run --compile PROGRAM -o OUT: OUT starts with
 * the .ttpb magic and runs in file mode to the JSON program's response; a
 * program that does not load leaves no OUT and fails as a run would;
 * --compile without PROGRAM, or with --inputs, is a UsageError; a
 * truncated compiled file is a SchemaError (exit 1), not a crash.
 * (Every corpus program: tests/gen/check_compiled.py.)
 */
#include "kselftest_harness.h"
#include "cli_check.h"

static char *tmp_path(const char *name)
{
	char *p;
	const char *dir = getenv("TMPDIR");

	if (asprintf(&p, "%s/%s", dir && *dir ? dir : "/tmp", name) < 0)
		return NULL;
	return p;
}

TEST(compile_then_run)
{
	char *out = tmp_path("tiny.ttpb"), *bin;
	const char *comp[] = { "--compile", cli_data_kept("tiny.json"), "-o", out, NULL };
	const char *json[] = { "--engine", "software", cli_data_kept("tiny.json"), "--inputs",
			       cli_data_kept("tiny-inputs.json"), NULL };
	const char *run[] = { "--engine", "software", out, "--inputs",
			      cli_data_kept("tiny-inputs.json"), NULL };
	struct proc_result c, a, b;
	size_t len;

	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, proc_run_ttpu(comp, NULL, &c));
	ASSERT_EQ(0, c.status) { TH_LOG("%s", c.err); }
	EXPECT_EQ(0, c.out_len);
	bin = test_slurp(out, &len);
	ASSERT_NE(NULL, bin);
	ASSERT_LT(8, len);
	EXPECT_EQ(0, memcmp(bin, "TTPB\0\r\n\x1a", 8));
	ASSERT_EQ(0, proc_run_ttpu(json, NULL, &a));
	ASSERT_EQ(0, proc_run_ttpu(run, NULL, &b));
	EXPECT_EQ(0, b.status);
	EXPECT_STREQ(a.out, b.out);

	/* Cut short: a SchemaError naming the truncation. */
	ASSERT_EQ(0, cli_spit(out, bin, len - 5));
	proc_result_free(&b);
	ASSERT_EQ(0, proc_run_ttpu(run, NULL, &b));
	EXPECT_EQ(1, b.status);
	EXPECT_NE(NULL, strstr(b.err, "SchemaError: compiled program: truncated")) {
		TH_LOG("%s", b.err);
	}
	proc_result_free(&a);
	proc_result_free(&b);
	proc_result_free(&c);
	unlink(out);
	free(bin);
	free(out);
}

TEST(bad_program_leaves_no_file)
{
	char *out = tmp_path("mismatch.ttpb");
	const char *comp[] = { "--compile", cli_data_kept("mismatch.json"), "-o", out, NULL };
	struct proc_result r;

	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, proc_run_ttpu(comp, NULL, &r));
	EXPECT_EQ(1, r.status);
	EXPECT_NE(0, access(out, F_OK));
	proc_result_free(&r);
	free(out);
}

TEST(usage_errors)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--compile");
	check_error(_metadata, &r, "UsageError", 2);
	proc_result_free(&r);
	RUN_CLI(&r, NULL, "--compile", cli_data_kept("tiny.json"), "--inputs",
		cli_data_kept("tiny-inputs.json"));
	check_error(_metadata, &r, "UsageError", 2);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
