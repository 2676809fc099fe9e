// SPDX-License-Identifier: MIT
/*
 * cli_output_test.c - -o OUT and stdout: OUT written whole or not at
 * all (no temporary file left, an old OUT kept on failure and replaced on
 * success, its mode from the umask, none after SIGTERM), -o - as stdout,
 * and a stdout or OUT that fails: a full disk, a closed pipe, a file size
 * limit.
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
#include "cli_known_programs.h"

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

TEST_HARNESS_MAIN
