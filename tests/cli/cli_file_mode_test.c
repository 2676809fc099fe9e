// SPDX-License-Identifier: MIT
/*
 * cli_file_mode_test.c - ttpu-run PROGRAM [--inputs FILE]: file mode's
 * answers, and the inputs and programs it refuses (missing, extra, out
 * of range, mis-shaped, of the wrong type, cut short, nested too deep);
 * a run's RangeError and EstimateMismatch.
 *
 * Every test runs the real binary and checks its exit status, its stdout
 * (one JSON value: the response or {"error": ...}) and its stderr (nothing
 * on success, exactly one "ttpu-run: KIND: message" line on failure).
 */
#include "kselftest_harness.h"

#include "cli_check.h"
#include "cli_known_programs.h"

/* Run file mode on tiny.json with inputs text @inputs, expect @kind. */
static void tiny_with_inputs(struct __test_metadata *_metadata,
			     const char *inputs, const char *kind)
{
	struct proc_result r;
	char *dir, *in = tmp_file(_metadata, &dir, "in.json", inputs);
	char tiny[4096];

	snprintf(tiny, sizeof(tiny), "%s", cli_data("tiny.json"));
	RUN_CLI(&r, NULL, tiny, "--inputs", in);
	check_error(_metadata, &r, kind, 1);
	proc_result_free(&r);
	free(in);
	cli_rmdir(dir);
}

/* ---- file mode --------------------------------------------------------- */

TEST(file_with_inputs)
{
	struct proc_result r;
	char tiny[4096];

	snprintf(tiny, sizeof(tiny), "%s", cli_data("tiny.json"));
	RUN_CLI(&r, NULL, tiny, "--inputs", cli_data("tiny-inputs.json"),
		"--engine", "software");
	check_ok(_metadata, &r);
	check_tiny_response(_metadata, r.json);
	proc_result_free(&r);
}

TEST(file_without_inputs)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, cli_data("noinputs.json"), "--engine", "software");
	check_ok(_metadata, &r);
	check_noinputs_response(_metadata, r.json);
	proc_result_free(&r);
}

/* ---- bad inputs and programs in file mode ----------------------------- */

/* tiny.json with inputs text @inputs: an InputError (tiny_with_inputs). */
FIXTURE(bad_inputs) {
};

FIXTURE_VARIANT(bad_inputs) {
	const char *inputs;
};

FIXTURE_SETUP(bad_inputs)
{
}

FIXTURE_TEARDOWN(bad_inputs)
{
}

TEST_F(bad_inputs, input_error)
{
	tiny_with_inputs(_metadata, variant->inputs, "InputError");
}

FIXTURE_VARIANT_ADD(bad_inputs, missing) {
	.inputs = "{}",
};

FIXTURE_VARIANT_ADD(bad_inputs, extra) {
	.inputs = "{\"A\": [[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]], \"B\": [1]}",
};

FIXTURE_VARIANT_ADD(bad_inputs, out_of_range) {
	.inputs = "{\"A\": [[0,0,0,0],[0,128,0,0],[0,0,0,0],[0,0,0,0]]}",
};

FIXTURE_VARIANT_ADD(bad_inputs, mis_shaped) {
	.inputs = "{\"A\": [[0,0,0,0],[0,0,0,0],[0,0,0,0]]}",
};

FIXTURE_VARIANT_ADD(bad_inputs, wrong_type) {
	.inputs = "{\"A\": \"abc\"}",
};

FIXTURE_VARIANT_ADD(bad_inputs, fraction) {
	.inputs = "{\"A\": [[0,0,0,0],[0,2.0,0,0],[0,0,0,0],[0,0,0,0]]}",
};

FIXTURE_VARIANT_ADD(bad_inputs, exponent) {
	.inputs = "{\"A\": [[0,0,0,0],[0,1e2,0,0],[0,0,0,0],[0,0,0,0]]}",
};

FIXTURE_VARIANT_ADD(bad_inputs, boolean) {
	.inputs = "{\"A\": [[0,0,0,0],[0,true,0,0],[0,0,0,0],[0,0,0,0]]}",
};

FIXTURE_VARIANT_ADD(bad_inputs, number_beyond_int64) {
	.inputs = "{\"A\": [[0,0,0,0],[0,99999999999999999999,0,0],[0,0,0,0],[0,0,0,0]]}",
};

FIXTURE_VARIANT_ADD(bad_inputs, trailing_garbage) {
	.inputs = "{\"A\": [[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]} {}",
};

/*
 * Test program @file with its first @from replaced by @to (and tiny's
 * inputs when @with_inputs): a SchemaError.
 */
FIXTURE(bad_program) {
	char *dir;
	char *path;
	struct proc_result r;
};

FIXTURE_VARIANT(bad_program) {
	const char *file;
	const char *from;
	const char *to;
	bool with_inputs;
};

FIXTURE_SETUP(bad_program)
{
	memset(&self->r, 0, sizeof(self->r));
	self->dir = NULL;
	self->path = edited(_metadata, &self->dir, variant->file, variant->from, variant->to);
}

FIXTURE_TEARDOWN(bad_program)
{
	proc_result_free(&self->r);
	free(self->path);
	cli_rmdir(self->dir);
}

TEST_F(bad_program, schema_error)
{
	char in[4096];

	snprintf(in, sizeof(in), "%s", cli_data("tiny-inputs.json"));
	if (variant->with_inputs) {
		RUN_CLI(&self->r, NULL, self->path, "--inputs", in);
	} else {
		RUN_CLI(&self->r, NULL, self->path);
	}
	check_error(_metadata, &self->r, "SchemaError", 1);
}

FIXTURE_VARIANT_ADD(bad_program, trailing_garbage) {
	.file = "noinputs.json",
	.from = "\"host_relu\", \"dst\": \"Y\", \"src\": \"X\"}]\n}",
	.to = "\"host_relu\", \"dst\": \"Y\", \"src\": \"X\"}]\n}}",
};

FIXTURE_VARIANT_ADD(bad_program, wrong_type) {
	.file = "noinputs.json", .from = "\"tile\": 4", .to = "\"tile\": \"4\"",
};

FIXTURE_VARIANT_ADD(bad_program, number_beyond_int64) {
	.file = "noinputs.json", .from = "[5, -7, 0]", .to = "[5, 99999999999999999999, 0]",
};

FIXTURE_VARIANT_ADD(bad_program, fraction) {
	.file = "tiny.json", .from = "\"r\": 0", .to = "\"r\": 0.5", .with_inputs = true,
};

TEST(program_truncated)
{
	struct proc_result r;
	char *text = test_slurp(cli_data("tiny.json"), NULL), *dir, *path;

	ASSERT_NE(NULL, text);
	text[strlen(text) / 3] = '\0';
	path = tmp_file(_metadata, &dir, "p.json", text);
	RUN_CLI(&r, NULL, path, "--check");
	check_error(_metadata, &r, "SchemaError", 1);
	proc_result_free(&r);
	free(path);
	free(text);
	cli_rmdir(dir);
}

TEST(program_deep_nesting)
{
	struct proc_result r;
	size_t depth = 5000, i;
	char *deep = malloc(2 * depth + 1), *dir, *path;

	ASSERT_NE(NULL, deep);
	for (i = 0; i < depth; i++) {
		deep[i] = '[';
		deep[depth + i] = ']';
	}
	deep[2 * depth] = '\0';
	path = edited(_metadata, &dir, "noinputs.json", "\"noinputs\"", deep);
	RUN_CLI(&r, NULL, path);
	check_error(_metadata, &r, "SchemaError", 1);
	proc_result_free(&r);
	free(path);
	free(deep);
	cli_rmdir(dir);
}

TEST(inputs_deep_nesting)
{
	size_t depth = 3000, i;
	char *text = malloc(2 * depth + 16);

	ASSERT_NE(NULL, text);
	strcpy(text, "{\"A\": ");
	for (i = 0; i < depth; i++)
		text[6 + i] = '[';
	for (i = 0; i < depth; i++)
		text[6 + depth + i] = ']';
	strcpy(text + 6 + 2 * depth, "}");
	tiny_with_inputs(_metadata, text, "InputError");
	free(text);
}

TEST(range_error)
{
	struct proc_result r;
	char *dir, *in = tmp_file(_metadata, &dir, "in.json", "{\"X\": [100, 0]}");
	char range[4096];

	snprintf(range, sizeof(range), "%s", cli_data("range.json"));
	RUN_CLI(&r, NULL, range, "--inputs", in, "--engine", "software");
	check_error(_metadata, &r, "RangeError", 1);
	ASSERT_EQ(NULL, test_json_get(r.json, "outputs"));
	proc_result_free(&r);
	free(in);
	cli_rmdir(dir);
}

TEST(range_in_range)
{
	struct proc_result r;
	char *dir, *in = tmp_file(_metadata, &dir, "in.json", "{\"X\": [63, -64]}");
	char range[4096];

	snprintf(range, sizeof(range), "%s", cli_data("range.json"));
	RUN_CLI(&r, NULL, range, "--inputs", in, "--engine", "software");
	check_ok(_metadata, &r);
	ASSERT_STREQ("[126,-128]", plain(test_json_get(r.json, "outputs.Y.data")));
	proc_result_free(&r);
	free(in);
	cli_rmdir(dir);
}

TEST(estimate_mismatch)
{
	struct proc_result r;
	char prog[4096];

	snprintf(prog, sizeof(prog), "%s", cli_data("mismatch.json"));
	RUN_CLI(&r, NULL, prog, "--inputs", cli_data("tiny-inputs.json"),
		"--engine", "software");
	check_error(_metadata, &r, "EstimateMismatch", 1);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
