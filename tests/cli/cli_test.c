// SPDX-License-Identifier: MIT
/*
 * cli_test.c - ttpu-run's command line, one TEST per behaviour
 *
 * Every test runs the real binary and checks its exit status, its stdout
 * (one JSON value: the response or {"error": ...}) and its stderr (nothing
 * on success, exactly one "ttpu-run: KIND: message" line on failure).
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

#include "cli_check.h"

/* tiny.json times tiny-inputs.json: W is the identity with W[3][3] = 2. */
#define TINY_C "[[1,2,3,8],[5,6,7,16],[-1,-2,-3,-8],[127,-128,0,2]]"

static const char *plain(struct json_object *v)
{
	return v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "(none)";
}

static int64_t get_int(struct json_object *obj, const char *path)
{
	struct json_object *v = test_json_get(obj, path);

	return v && json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -999;
}

/* The response of tiny.json on tiny-inputs.json, whatever the engine. */
static void check_tiny_response(struct __test_metadata *_metadata,
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
static void check_noinputs_response(struct __test_metadata *_metadata,
				    struct json_object *resp)
{
	ASSERT_STREQ("[3]", plain(test_json_get(resp, "outputs.Y.shape")));
	ASSERT_STREQ("[5,0,0]", plain(test_json_get(resp, "outputs.Y.data")));
	ASSERT_EQ(0, get_int(resp, "totalCycles"));
	ASSERT_EQ(1, get_int(resp, "hostOps.host_relu"));
}

/* Write @text to a new file @name in a new temporary directory. */
static char *tmp_file(struct __test_metadata *_metadata, char **dir,
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
static char *edited(struct __test_metadata *_metadata, char **dir,
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

/* Run a request text on stdin, expect @kind. */
static void request_fails(struct __test_metadata *_metadata, const char *req,
			  const char *kind)
{
	struct proc_result r;

	RUN_CLI(&r, req, "--engine", "software");
	check_error(_metadata, &r, kind, 1);
	proc_result_free(&r);
}

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

/* ---- -o OUT ------------------------------------------------------------ */

TEST(output_file)
{
	struct proc_result r;
	char *dir = cli_tmpdir(), *out, *text, *names;
	char tiny[4096];
	struct json_object *resp;
	size_t len;

	ASSERT_NE(NULL, dir);
	out = cli_path(dir, "out.json");
	snprintf(tiny, sizeof(tiny), "%s", cli_data("tiny.json"));
	RUN_CLI(&r, NULL, tiny, "--inputs", cli_data("tiny-inputs.json"), "-o", out);
	ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	ASSERT_EQ(0, r.out_len);
	ASSERT_EQ(0, r.err_len);
	text = test_slurp(out, &len);
	ASSERT_NE(NULL, text);
	resp = proc_parse_json(text, len);
	ASSERT_NE(NULL, resp);
	check_tiny_response(_metadata, resp);
	names = cli_listdir(dir);
	ASSERT_STREQ("out.json ", names);	/* no temporary file left */
	json_object_put(resp);
	free(names);
	free(text);
	free(out);
	proc_result_free(&r);
	cli_rmdir(dir);
}

TEST(output_file_mode_follows_umask)
{
	struct proc_result r;
	char *dir = cli_tmpdir(), *out;
	struct stat st;
	mode_t mask = umask(022);

	ASSERT_NE(NULL, dir);
	out = cli_path(dir, "out.json");
	RUN_CLI(&r, NULL, cli_data("noinputs.json"), "-o", out);
	umask(mask);
	ASSERT_EQ(0, r.status);
	ASSERT_EQ(0, stat(out, &st));
	ASSERT_EQ(0644, st.st_mode & 07777);
	free(out);
	proc_result_free(&r);
	cli_rmdir(dir);
}

TEST(output_file_none_on_failure)
{
	struct proc_result r;
	char *dir = cli_tmpdir(), *out, *names;
	char tiny[4096];

	ASSERT_NE(NULL, dir);
	out = cli_path(dir, "out.json");
	snprintf(tiny, sizeof(tiny), "%s", cli_data("tiny.json"));
	/* No --inputs: an InputError after the output was opened. */
	RUN_CLI(&r, NULL, tiny, "-o", out);
	check_error(_metadata, &r, "InputError", 1);
	names = cli_listdir(dir);
	ASSERT_STREQ("", names);
	free(names);
	free(out);
	proc_result_free(&r);
	cli_rmdir(dir);
}

TEST(output_file_existing_kept_on_failure)
{
	struct proc_result r;
	char *dir, *out = tmp_file(_metadata, &dir, "out.json", "precious\n");
	char *in, *names, *text;

	in = cli_path(dir, "in.json");
	ASSERT_EQ(0, cli_spit(in, "{\"X\": [100, 0]}", 15));
	/* A RangeError: the run itself fails. */
	RUN_CLI(&r, NULL, cli_data("range.json"), "--inputs", in, "-o", out);
	check_error(_metadata, &r, "RangeError", 1);
	text = test_slurp(out, NULL);
	ASSERT_STREQ("precious\n", text);
	names = cli_listdir(dir);
	ASSERT_TRUE(!strcmp(names, "out.json in.json ") || !strcmp(names, "in.json out.json "))
		TH_LOG("files left: %s", names);
	free(names);
	free(text);
	free(in);
	free(out);
	proc_result_free(&r);
	cli_rmdir(dir);
}

TEST(output_file_existing_replaced_on_success)
{
	struct proc_result r;
	char *dir, *out = tmp_file(_metadata, &dir, "out.json", "old\n");
	struct json_object *resp;
	char *text;
	size_t len;

	RUN_CLI(&r, NULL, cli_data("noinputs.json"), "-o", out);
	ASSERT_EQ(0, r.status);
	text = test_slurp(out, &len);
	ASSERT_NE(NULL, text);
	resp = proc_parse_json(text, len);
	ASSERT_NE(NULL, resp) TH_LOG("OUT: %s", text);
	check_noinputs_response(_metadata, resp);
	json_object_put(resp);
	free(text);
	free(out);
	proc_result_free(&r);
	cli_rmdir(dir);
}

TEST(output_file_bad_directory)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, cli_data("noinputs.json"), "-o", "/nonexistent/ttpu/out.json");
	check_error(_metadata, &r, "SystemError", 3);
	proc_result_free(&r);
}

TEST(output_dash_is_stdout)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, cli_data("noinputs.json"), "-o", "-");
	check_ok(_metadata, &r);
	check_noinputs_response(_metadata, r.json);
	proc_result_free(&r);
}

TEST(stdout_full_disk)
{
	struct proc_result r;
	int fd = open("/dev/full", O_WRONLY);

	if (fd < 0)
		SKIP(return, "no /dev/full");
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ cli_data("noinputs.json"), NULL },
			      &(struct proc_opts){ .stdout_fd = fd }, &r));
	check_error_ex(_metadata, &r, "SystemError", 3, false);
	ASSERT_NE(NULL, strstr(r.err, "No space left on device")) TH_LOG("%s", r.err);
	proc_result_free(&r);
}

TEST(stdout_closed_pipe)
{
	struct proc_result r;
	int p[2];

	ASSERT_EQ(0, pipe(p));
	close(p[0]);	/* nobody will read: a write gets SIGPIPE or EPIPE */
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ cli_data("noinputs.json"), NULL },
			      &(struct proc_opts){ .stdout_fd = p[1] }, &r));
	ASSERT_EQ(0, r.signal) TH_LOG("killed by signal %d", r.signal);
	check_error_ex(_metadata, &r, "SystemError", 3, false);
	ASSERT_NE(NULL, strstr(r.err, "Broken pipe")) TH_LOG("%s", r.err);
	proc_result_free(&r);
}

/* A program whose response (600 x 600 i32) is larger than any buffer. */
static char *big_program(struct __test_metadata *_metadata, char **dir)
{
	size_t n = 600 * 600, i, len = 0;
	char *text = NULL, *path;
	FILE *f = open_memstream(&text, &len);

	ASSERT_NE(NULL, f);
	fprintf(f, "{\"format\": \"ttpu\", \"version\": 1, \"tile\": 4, \"name\": \"big\",\n"
		"\"buffers\": {\"X\": {\"dtype\": \"i32\", \"shape\": [%zu], \"kind\": \"const\", \"data\": [", n);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%zu", i ? "," : "", 1000000 + i);
	fprintf(f, "]}, \"Y\": {\"dtype\": \"i32\", \"shape\": [%zu], \"kind\": \"temp\"}},\n"
		"\"inputs\": [], \"outputs\": [\"Y\"],\n"
		"\"commands\": [{\"op\": \"host_relu\", \"dst\": \"Y\", \"src\": \"X\"}]}\n", n);
	ASSERT_EQ(0, fclose(f));
	path = tmp_file(_metadata, dir, "big.json", text);
	free(text);
	return path;
}

/* The response fails in the middle: the library's writes see EPIPE. */
TEST(stdout_closed_pipe_large_response)
{
	struct proc_result r;
	char *dir, *path = big_program(_metadata, &dir);
	int p[2];

	ASSERT_EQ(0, pipe(p));
	close(p[0]);
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ path, NULL },
			      &(struct proc_opts){ .stdout_fd = p[1] }, &r));
	ASSERT_EQ(0, r.signal) TH_LOG("killed by signal %d", r.signal);
	check_error_ex(_metadata, &r, "SystemError", 3, false);
	ASSERT_NE(NULL, strstr(r.err, "Broken pipe")) TH_LOG("%s", r.err);
	proc_result_free(&r);
	free(path);
	cli_rmdir(dir);
}

/*
 * OUT cannot be written in full (a file size limit, as a full disk would):
 * a SystemError, the old OUT intact, no temporary file left.
 */
TEST(output_file_write_error_keeps_old)
{
	struct proc_opts opts = { .fsize_limit = 256 * 1024 };
	char *dir, *path = big_program(_metadata, &dir), *out, *text, *names;
	struct proc_result r;

	out = cli_path(dir, "out.json");
	ASSERT_EQ(0, cli_spit(out, "old\n", 4));
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ path, "-o", out, NULL }, &opts, &r));
	ASSERT_EQ(0, r.signal) TH_LOG("killed by signal %d", r.signal);
	check_error(_metadata, &r, "SystemError", 3);
	ASSERT_NE(NULL, strstr(r.err, "File too large")) TH_LOG("%s", r.err);
	text = test_slurp(out, NULL);
	ASSERT_STREQ("old\n", text);
	names = cli_listdir(dir);
	ASSERT_TRUE(!strcmp(names, "out.json big.json ") || !strcmp(names, "big.json out.json "))
		TH_LOG("files left: %s", names);
	free(names);
	free(text);
	free(out);
	free(path);
	proc_result_free(&r);
	cli_rmdir(dir);
}

/* The same without an old OUT: none appears. */
TEST(output_file_write_error_no_file)
{
	struct proc_opts opts = { .fsize_limit = 256 * 1024 };
	char *dir, *path = big_program(_metadata, &dir), *out, *names;
	struct proc_result r;

	out = cli_path(dir, "out.json");
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ path, "-o", out, NULL }, &opts, &r));
	check_error(_metadata, &r, "SystemError", 3);
	names = cli_listdir(dir);
	ASSERT_STREQ("big.json ", names);
	free(names);
	free(out);
	free(path);
	proc_result_free(&r);
	cli_rmdir(dir);
}

/*
 * Killed while OUT is being prepared (the sink opens before the program is
 * parsed, which takes a while here): the temporary file goes too.
 */
TEST(output_file_none_after_sigterm)
{
	struct proc_opts opts = { .kill_after_ms = 30 };
	char *dir, *path = big_program(_metadata, &dir), *out, *names;
	struct proc_result r;

	out = cli_path(dir, "out.json");
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ path, "-o", out, NULL }, &opts, &r));
	names = cli_listdir(dir);
	if (r.status == 0)
		TH_LOG("finished within %d ms: nothing to check", opts.kill_after_ms);
	else
		ASSERT_EQ(SIGTERM, r.signal);
	ASSERT_TRUE(!strcmp(names, "big.json ") ||
		    (r.status == 0 && (!strcmp(names, "big.json out.json ") ||
				       !strcmp(names, "out.json big.json "))))
		TH_LOG("files left: %s", names);
	free(names);
	free(out);
	free(path);
	proc_result_free(&r);
	cli_rmdir(dir);
}

TEST(usage_flag_with_argument)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--check=yes", cli_data("noinputs.json"));
	check_error(_metadata, &r, "UsageError", 2);
	ASSERT_NE(NULL, strstr(r.err, "'--check' takes no argument")) TH_LOG("%s", r.err);
	proc_result_free(&r);
}

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

/* ---- engines ----------------------------------------------------------- */

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
