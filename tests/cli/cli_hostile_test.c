// SPDX-License-Identifier: MIT
/*
 * cli_hostile_test.c - ttpu-run under hostile input (issue 13), one TEST
 * or variant per finding:
 *   text   invalid UTF-8, lone surrogates, cuts inside a character: a
 *          SchemaError/InputError naming the field, and every byte
 *          written is valid UTF-8 (checked by cli_check.h's own table)
 *   -o     FIFOs, character devices, symlinks, our own descriptors are
 *          never replaced; directories and sockets are refused
 *   memory the input-size limit holds while reading; the first row or
 *          element beyond a known shape is the error, at once
 *   schema null is not "absent" for an acc's relu and bias
 * Every node is made in a fresh directory under $TMPDIR.
 */
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "cli_check.h"
#include "../lib/test_timeout.h"

/* A new file @name in the new directory *@dir, holding @len bytes. */
static char *put_file(struct __test_metadata *_metadata, char **dir,
		      const char *name, const char *text, size_t len)
{
	char *path;

	if (!*dir)
		*dir = cli_tmpdir();
	ASSERT_NE(NULL, *dir);
	path = cli_path(*dir, name);
	ASSERT_NE(NULL, path);
	ASSERT_EQ(0, cli_spit(path, text, len));
	return path;
}

/* Test program @name with every @from replaced by @to. */
static char *program_with(struct __test_metadata *_metadata, char **dir,
			  const char *name, const char *from, const char *to)
{
	char *text = test_slurp(cli_data(name), NULL), *ed, *path;

	ASSERT_NE(NULL, text);
	while ((ed = cli_replace(text, from, to))) {
		free(text);
		text = ed;
	}
	path = put_file(_metadata, dir, name, text, strlen(text));
	free(text);
	return path;
}

/* ---- text: what comes in ------------------------------------------------ */

/* tiny.json with the buffer name "C" spelled @name: refused as @kind. */
FIXTURE(bad_text) {
	char *dir;
	struct proc_result r;
};

FIXTURE_VARIANT(bad_text) {
	const char *name;	/* replaces "C" (quotes included) */
	const char *field;	/* the error names it */
};

FIXTURE_SETUP(bad_text)
{
	memset(&self->r, 0, sizeof(self->r));
	self->dir = NULL;
}

FIXTURE_TEARDOWN(bad_text)
{
	proc_result_free(&self->r);
	cli_rmdir(self->dir);
}

TEST_F(bad_text, schema_error_naming_the_field)
{
	char *prog = program_with(_metadata, &self->dir, "tiny.json", "\"C\"",
				  variant->name);

	RUN_CLI(&self->r, NULL, prog, "--check");
	check_error(_metadata, &self->r, "SchemaError", 1);
	ASSERT_STREQ(variant->field, cli_get_string(self->r.json, "error.field"));
	free(prog);
}

FIXTURE_VARIANT_ADD(bad_text, invalid_byte) {
	.name = "\"C\xff\"", .field = "buffers",
};

FIXTURE_VARIANT_ADD(bad_text, overlong) {
	.name = "\"C\xc0\xaf\"", .field = "buffers",
};

FIXTURE_VARIANT_ADD(bad_text, encoded_surrogate) {
	.name = "\"C\xed\xa0\x80\"", .field = "buffers",
};

FIXTURE_VARIANT_ADD(bad_text, cut_sequence) {
	.name = "\"C\xe2\x82\"", .field = "buffers",
};

FIXTURE_VARIANT_ADD(bad_text, above_u10ffff) {
	.name = "\"C\xf4\x90\x80\x80\"", .field = "buffers",
};

FIXTURE_VARIANT_ADD(bad_text, lone_high_surrogate) {
	.name = "\"C\\ud800\"", .field = "buffers",
};

FIXTURE_VARIANT_ADD(bad_text, lone_low_surrogate) {
	.name = "\"C\\udc00\"", .field = "buffers",
};

FIXTURE_VARIANT_ADD(bad_text, high_surrogate_then_letter) {
	.name = "\"C\\ud800\\u0041\"", .field = "buffers",
};

/* Five bytes: the error document is JSON and valid UTF-8. */
TEST(truncated_invalid_key_on_stdin)
{
	struct proc_result r;

	RUN_CLI(&r, "{\"\xff\":", "--check");
	check_error(_metadata, &r, "SchemaError", 1);
	proc_result_free(&r);
}

TEST(invalid_utf8_input_name)
{
	static const char in[] = "{\"A\xff\": [[1,2,3,4],[1,2,3,4],[1,2,3,4],[1,2,3,4]]}";
	struct proc_result r;
	char *dir = NULL, *path = put_file(_metadata, &dir, "in.json", in, sizeof(in) - 1);

	RUN_CLI(&r, NULL, cli_data("tiny.json"), "--inputs", path);
	check_error(_metadata, &r, "InputError", 1);
	ASSERT_STREQ("inputs", cli_get_string(r.json, "error.field"));
	proc_result_free(&r);
	free(path);
	cli_rmdir(dir);
}

/*
 * json-c turns a lone "\udfff" into U+FFFD: an input named "A\udfff" would
 * fill the buffer named "A\ufffd", a different name.
 */
TEST(lone_surrogate_input_name)
{
	static const char in[] = "{\"A\\udfff\": [[1,2,3,4],[1,2,3,4],[1,2,3,4],[1,2,3,4]]}";
	struct proc_result r;
	char *dir = NULL, *path = put_file(_metadata, &dir, "in.json", in, sizeof(in) - 1);
	char *prog = program_with(_metadata, &dir, "tiny.json", "\"A\"", "\"A\\ufffd\"");

	RUN_CLI(&r, NULL, prog, "--inputs", path);
	check_error(_metadata, &r, "InputError", 1);
	ASSERT_STREQ("inputs", cli_get_string(r.json, "error.field"));
	proc_result_free(&r);
	free(prog);
	free(path);
	cli_rmdir(dir);
}

/* A pair is one character: the response names the buffer as the request did. */
TEST(surrogate_pair_name_round_trips)
{
	struct proc_result r;
	char *dir = NULL, *prog = program_with(_metadata, &dir, "tiny.json", "\"C\"",
					       "\"C\\ud83d\\ude00\"");

	RUN_CLI(&r, NULL, prog, "--inputs", cli_data("tiny-inputs.json"), "--show");
	ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	check_utf8(_metadata, &r);
	ASSERT_NE(NULL, r.json);
	ASSERT_NE(NULL, test_json_get(test_json_get(r.json, "outputs"), "C\xf0\x9f\x98\x80"))
		TH_LOG("stdout: %s", r.out);
	ASSERT_NE(NULL, strstr(r.err, "C\xf0\x9f\x98\x80 [4 x 4]")) TH_LOG("stderr: %s", r.err);
	proc_result_free(&r);
	free(prog);
	cli_rmdir(dir);
}

/* ---- text: what goes out, cut at a character ---------------------------- */

/* A @count-fold @ch, quoted. */
static char *repeated(const char *ch, int count)
{
	size_t n = strlen(ch);
	char *s = malloc(n * (size_t)count + 3);

	if (!s)
		return NULL;
	s[0] = '"';
	for (int i = 0; i < count; i++)
		memcpy(s + 1 + n * (size_t)i, ch, n);
	strcpy(s + 1 + n * (size_t)count, "\"");
	return s;
}

/*
 * Messages (512 bytes) and the buffer field (128 bytes) are cut: a name of
 * 300 x "é" used but never defined is echoed in both.
 */
TEST(long_name_cut_at_a_character)
{
	char *name = repeated("\xc3\xa9", 300), *dir = NULL, *prog, *text, *ed;
	struct proc_result r;
	const char *msg, *buf;

	ASSERT_NE(NULL, name);
	text = test_slurp(cli_data("tiny.json"), NULL);
	ASSERT_NE(NULL, text);
	ed = cli_replace(text, "{\"op\": \"alloc\", \"buf\": \"C\"}",
			 "{\"op\": \"alloc\", \"buf\": \"C\"}, {\"op\": \"alloc\", \"buf\": NAME}");
	ASSERT_NE(NULL, ed);
	free(text);
	text = cli_replace(ed, "NAME", name);
	ASSERT_NE(NULL, text);
	prog = put_file(_metadata, &dir, "long.json", text, strlen(text));
	RUN_CLI(&r, NULL, prog, "--check");
	check_error(_metadata, &r, "SchemaError", 1);
	msg = cli_get_string(r.json, "error.message");
	buf = cli_get_string(r.json, "error.buffer");
	ASSERT_NE(NULL, msg);
	/* It was cut, and at a character: only whole "é" remain. */
	ASSERT_GT(strlen(msg), 400);
	ASSERT_LT(strlen(msg), 512);
	if (buf) {
		ASSERT_LT(strlen(buf), 128);
		ASSERT_EQ(0, strlen(buf) % 2) TH_LOG("buffer: %s", buf);
	}
	proc_result_free(&r);
	free(prog);
	free(text);
	free(ed);
	free(name);
	cli_rmdir(dir);
}

/* A format string of 300 x "€" is echoed in the message, cut whole. */
TEST(long_format_cut_at_a_character)
{
	char *fmt = repeated("\xe2\x82\xac", 300), *dir = NULL, *prog;
	struct proc_result r;

	ASSERT_NE(NULL, fmt);
	prog = program_with(_metadata, &dir, "noinputs.json", "\"ttpu\"", fmt);
	RUN_CLI(&r, NULL, prog);
	check_error(_metadata, &r, "SchemaError", 1);
	ASSERT_GT(strlen(cli_get_string(r.json, "error.message")), 400);
	proc_result_free(&r);
	free(prog);
	free(fmt);
	cli_rmdir(dir);
}

/* ---- -o never destroys --------------------------------------------------- */

/* ttpu-run noinputs.json -o @out: the response is there, exit 0. */
static void run_to(struct __test_metadata *_metadata, const char *out,
		   struct proc_result *r)
{
	RUN_CLI(r, NULL, cli_data("noinputs.json"), "-o", out);
	ASSERT_EQ(0, r->status) TH_LOG("stdout: %s\nstderr: %s", r->out, r->err);
}

static void check_noinputs_text(struct __test_metadata *_metadata,
				const char *text)
{
	struct json_object *resp;

	ASSERT_NE(NULL, text);
	resp = proc_parse_json(text, strlen(text));
	ASSERT_NE(NULL, resp) TH_LOG("OUT: %s", text);
	ASSERT_STREQ("[5,0,0]", json_object_to_json_string_ext(
			test_json_get(resp, "outputs.Y.data"), JSON_C_TO_STRING_PLAIN));
	json_object_put(resp);
}

TEST(output_fifo_written_in_place)
{
	char *dir = cli_tmpdir(), *fifo, *got, *text;
	struct proc_result r;
	struct stat st;
	pid_t reader;
	int status;

	ASSERT_NE(NULL, dir);
	fifo = cli_path(dir, "fifo");
	got = cli_path(dir, "got");
	ASSERT_EQ(0, mkfifo(fifo, 0600));
	reader = fork();
	ASSERT_LE(0, reader);
	if (reader == 0) {
		/* The reader: copy what comes through the FIFO into "got". */
		char buf[4096];
		int in = open(fifo, O_RDONLY), out = open(got, O_WRONLY | O_CREAT, 0600);
		ssize_t n;

		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(in < 0 || out < 0);
	}
	run_to(_metadata, fifo, &r);
	ASSERT_EQ(reader, waitpid(reader, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, lstat(fifo, &st));
	ASSERT_TRUE(S_ISFIFO(st.st_mode));
	text = test_slurp(got, NULL);
	check_noinputs_text(_metadata, text);
	free(text);
	free(got);
	free(fifo);
	proc_result_free(&r);
	cli_rmdir(dir);
}

/* A character device 1:3 (what /dev/null is), made here: needs root. */
TEST(output_char_device_kept)
{
	char *dir = cli_tmpdir(), *dev;
	struct proc_result r;
	struct stat st;

	ASSERT_NE(NULL, dir);
	dev = cli_path(dir, "null");
	if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) < 0) {
		free(dev);
		cli_rmdir(dir);
		SKIP(return, "mknod of a character device needs CAP_MKNOD");
	}
	run_to(_metadata, dev, &r);
	ASSERT_EQ(0, lstat(dev, &st));
	ASSERT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_EQ(makedev(1, 3), st.st_rdev);
	free(dev);
	proc_result_free(&r);
	cli_rmdir(dir);
}

TEST(output_symlink_target_replaced_link_kept)
{
	char *dir = NULL, *target = put_file(_metadata, &dir, "target", "old\n", 4);
	char *link = cli_path(dir, "link"), *text, *names;
	struct proc_result r;
	struct stat st;

	ASSERT_EQ(0, symlink("target", link));
	run_to(_metadata, link, &r);
	ASSERT_EQ(0, lstat(link, &st));
	ASSERT_TRUE(S_ISLNK(st.st_mode));
	text = test_slurp(target, NULL);
	check_noinputs_text(_metadata, text);
	names = cli_listdir(dir);
	ASSERT_TRUE(!strcmp(names, "link target ") || !strcmp(names, "target link "))
		TH_LOG("files: %s", names);	/* no temporary file left */
	free(names);
	free(text);
	free(link);
	free(target);
	proc_result_free(&r);
	cli_rmdir(dir);
}

TEST(output_dangling_symlink_creates_its_target)
{
	char *dir = cli_tmpdir(), *link, *target, *text;
	struct proc_result r;
	struct stat st;

	ASSERT_NE(NULL, dir);
	link = cli_path(dir, "link");
	target = cli_path(dir, "target");
	ASSERT_EQ(0, symlink("target", link));
	run_to(_metadata, link, &r);
	ASSERT_EQ(0, lstat(link, &st));
	ASSERT_TRUE(S_ISLNK(st.st_mode));
	text = test_slurp(target, NULL);
	check_noinputs_text(_metadata, text);
	free(text);
	free(target);
	free(link);
	proc_result_free(&r);
	cli_rmdir(dir);
}

/* Our stdout by name: written through the descriptor, not renamed over. */
TEST(output_own_descriptor_in_place)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, cli_data("noinputs.json"), "-o", "/proc/self/fd/1");
	check_ok(_metadata, &r);
	check_noinputs_text(_metadata, r.out);
	proc_result_free(&r);
}

TEST(output_socket_refused)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char *dir = cli_tmpdir(), *sock;
	struct proc_result r;
	struct stat st;
	int fd;

	ASSERT_NE(NULL, dir);
	sock = cli_path(dir, "sock");
	ASSERT_LT(strlen(sock), sizeof(sa.sun_path));
	strcpy(sa.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0) {
		/* the emulated Zynq's small kernel has no sockets at all */
		int e = errno;

		free(sock);
		cli_rmdir(dir);
		SKIP(return, "socket(AF_UNIX): %s", strerror(e));
	}
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	RUN_CLI(&r, NULL, cli_data("noinputs.json"), "-o", sock);
	check_error(_metadata, &r, "UsageError", 2);
	ASSERT_EQ(0, lstat(sock, &st));
	ASSERT_TRUE(S_ISSOCK(st.st_mode));
	close(fd);
	free(sock);
	proc_result_free(&r);
	cli_rmdir(dir);
}

/* ---- memory --------------------------------------------------------------- */

/*
 * The san suites run an ASan build (they set ASAN_OPTIONS): its shadow
 * memory defeats both an address-space limit and an RSS bound.
 */
/*
 * Reading tens of MiB: a fraction of a second natively, past the harness's
 * 30 s default on the emulated Zynq at a load of 15 (test_timeout.h).
 */
#define TIMEOUT_LARGE_INPUT 300

/*
 * `yes` feeds an endless stream of white space: refused at the limit set
 * by the environment, and the process never held much more than it.
 */
TEST_TIMEOUT(input_limit_holds_while_reading, TIMEOUT_LARGE_INPUT)
{
	const char *env[] = { "TTPU_TEXT_MAX=16M", NULL };
	const char *args[] = { "/bin/sh", "-c", "yes '' | \"$0\"", proc_ttpu_path(), NULL };
	struct proc_result r;
	struct rusage ru;

	if (cli_sanitized())
		SKIP(return, "peak RSS means nothing under ASan");
	ASSERT_EQ(0, proc_run(args, &(struct proc_opts){ .env = env }, &r));
	check_error(_metadata, &r, "UsageError", 2);
	ASSERT_NE(NULL, strstr(cli_get_string(r.json, "error.message"), "16777216-byte input limit"));
	ASSERT_EQ(0, getrusage(RUSAGE_CHILDREN, &ru));
	/* ru_maxrss is in KiB: the 16 MiB text and a few MiB of program. */
	ASSERT_LT(ru.ru_maxrss, 16 * 1024 + 8 * 1024) TH_LOG("peak RSS %ld KiB", ru.ru_maxrss);
	proc_result_free(&r);
}

TEST(input_limit_option)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--max-input", "100", cli_data("tiny.json"));
	check_error(_metadata, &r, "UsageError", 2);
	ASSERT_NE(NULL, strstr(cli_get_string(r.json, "error.message"), "100-byte input limit"));
	proc_result_free(&r);
	RUN_CLI(&r, NULL, "--max-input", "12x", cli_data("tiny.json"));
	check_error(_metadata, &r, "UsageError", 2);
	proc_result_free(&r);
}

/* tiny.json with @pad bytes of white space inside its commands list. */
static char *padded_tiny(struct __test_metadata *_metadata, size_t pad)
{
	char *text = test_slurp(cli_data("tiny.json"), NULL), *at, *s;
	size_t head, len;

	ASSERT_NE(NULL, text);
	at = strstr(text, "\"commands\": [");
	ASSERT_NE(NULL, at);
	head = (size_t)(at - text) + strlen("\"commands\": [");
	len = strlen(text);
	s = malloc(len + pad + 1);
	ASSERT_NE(NULL, s);
	memcpy(s, text, head);
	memset(s + head, ' ', pad);
	memcpy(s + head + pad, text + head, len - head + 1);
	free(text);
	return s;
}

/*
 * A program file and a request on stdin are parsed as they are read:
 * 64 MiB of white space costs no memory, and an error after it still
 * points at its line and column.
 */
TEST_TIMEOUT(text_is_not_held_in_memory, TIMEOUT_LARGE_INPUT)
{
	const size_t pad = 64u << 20;
	char *text, *req, *dir = NULL, *path, *req_path;
	const char *args[] = { "/bin/sh", "-c", "exec \"$0\" --check < \"$1\"",
			       proc_ttpu_path(), NULL, NULL };
	struct proc_result r;
	struct rusage ru;

	if (cli_sanitized())
		SKIP(return, "peak RSS means nothing under ASan");
	text = padded_tiny(_metadata, pad);
	path = put_file(_metadata, &dir, "padded.json", text, strlen(text));
	ASSERT_LE(0, asprintf(&req, "{\"inputs\": {}, \"program\": %s}", text));
	req_path = put_file(_metadata, &dir, "request.json", req, strlen(req));
	/* A child's peak RSS counts what it shared with this process before exec. */
	free(req);
	free(text);
	RUN_CLI(&r, NULL, path, "--check");
	check_ok(_metadata, &r);
	proc_result_free(&r);
	args[4] = req_path;
	ASSERT_EQ(0, proc_run(args, NULL, &r));
	check_error(_metadata, &r, "InputError", 1);	/* A is missing: all was read */
	proc_result_free(&r);
	ASSERT_EQ(0, getrusage(RUSAGE_CHILDREN, &ru));
	ASSERT_LT(ru.ru_maxrss, 16 * 1024) TH_LOG("peak RSS %ld KiB", ru.ru_maxrss);
	free(req_path);
	free(path);
	cli_rmdir(dir);
}

/* An error found at the end, in a command far behind the reader's window. */
TEST(late_error_points_at_its_command)
{
	char *text = padded_tiny(_metadata, 4u << 20), *dir = NULL, *path, *bad;
	struct proc_result r;

	bad = cli_replace(text, "\"a\": {\"buf\": \"A\"", "\"a\": {\"buf\": \"Z\"");
	ASSERT_NE(NULL, bad);
	path = put_file(_metadata, &dir, "late.json", bad, strlen(bad));
	RUN_CLI(&r, NULL, path, "--check");
	check_error(_metadata, &r, "SchemaError", 1);
	/* tiny.json's pass is on line 13, 5 columns in; 4 MiB of spaces before it on line 12. */
	ASSERT_EQ(13, json_object_get_int64(test_json_get(r.json, "error.line"))) TH_LOG("%s", r.out);
	ASSERT_EQ(5, json_object_get_int64(test_json_get(r.json, "error.column"))) TH_LOG("%s", r.out);
	proc_result_free(&r);
	free(path);
	free(bad);
	free(text);
	cli_rmdir(dir);
}

/* "[ROW, ROW, ...]" of @rows rows "[1,2,3,4]" for input A of tiny.json. */
static char *many_rows(const char *prefix, size_t rows, const char *suffix,
		       size_t *len)
{
	size_t n = strlen(prefix), i;
	char *s = malloc(n + rows * 10 + strlen(suffix) + 1), *p;

	if (!s)
		return NULL;
	p = s + n;
	memcpy(s, prefix, n);
	for (i = 0; i < rows; i++, p += 10)
		memcpy(p, i ? ",[1,2,3,4]" : " [1,2,3,4]", 10);
	strcpy(p, suffix);
	*len = (size_t)(p - s) + strlen(suffix);
	return s;
}

/*
 * 10^6 rows for a [4, 4] input: the fifth row is the error, at its own
 * column, with or without a memory limit (the same InputError).
 */
TEST(extra_rows_are_the_error_at_once)
{
	const char *prefix = "{\"A\": [";
	char *dir = NULL, *text, *path;
	const char *args[] = { "/bin/sh", "-c", "ulimit -v 65536; exec \"$0\" \"$1\" --inputs \"$2\"",
			       proc_ttpu_path(), NULL, NULL, NULL };
	char tiny[4096];
	struct proc_result r;
	size_t len;

	text = many_rows(prefix, 1000000, "]}", &len);
	ASSERT_NE(NULL, text);
	path = put_file(_metadata, &dir, "in.json", text, len);
	snprintf(tiny, sizeof(tiny), "%s", cli_data("tiny.json"));
	RUN_CLI(&r, NULL, tiny, "--inputs", path);
	check_error(_metadata, &r, "InputError", 1);
	/* Column of the fifth row: after the prefix and four rows of 10 bytes. */
	ASSERT_EQ((int64_t)strlen(prefix) + 4 * 10 + 2,
		  json_object_get_int64(test_json_get(r.json, "error.column")))
		TH_LOG("stdout: %s", r.out);
	proc_result_free(&r);
	args[4] = tiny;
	args[5] = path;
	if (cli_sanitized()) {
		free(path);
		free(text);
		cli_rmdir(dir);
		SKIP(return, "ASan cannot run under ulimit -v");
	}
	ASSERT_EQ(0, proc_run(args, NULL, &r));
	check_error(_metadata, &r, "InputError", 1);
	proc_result_free(&r);
	free(path);
	free(text);
	cli_rmdir(dir);
}

/* A row far longer than the shape: the first extra element is the error. */
TEST(long_row_is_the_error_at_once)
{
	static const char in[] = "{\"A\": [[1,2,3,4],[1,2,3,4,5,6,7,8,9]]}";
	char *dir = NULL, *path = put_file(_metadata, &dir, "in.json", in, sizeof(in) - 1);
	struct proc_result r;

	RUN_CLI(&r, NULL, cli_data("tiny.json"), "--inputs", path);
	check_error(_metadata, &r, "InputError", 1);
	ASSERT_STREQ("inputs.A[1]", cli_get_string(r.json, "error.field"));
	/* The column of the fifth element of row 1, "5". */
	ASSERT_EQ((int64_t)(strchr(in, '5') - in) + 1,
		  json_object_get_int64(test_json_get(r.json, "error.column")));
	proc_result_free(&r);
	free(path);
	cli_rmdir(dir);
}

/* Const data after its shape: the same rule in a program. */
TEST(extra_const_rows_are_the_error_at_once)
{
	char *dir = NULL, *prog = program_with(_metadata, &dir, "tiny.json",
					       "[0, 0, 0, 2]]", "[0, 0, 0, 2], [0, 0, 0, 0]]");
	struct proc_result r;

	RUN_CLI(&r, NULL, prog, "--check");
	check_error(_metadata, &r, "SchemaError", 1);
	ASSERT_NE(NULL, strstr(cli_get_string(r.json, "error.message"), "got more"))
		TH_LOG("stdout: %s", r.out);
	proc_result_free(&r);
	free(prog);
	cli_rmdir(dir);
}

/* ---- null is not absent ---------------------------------------------------- */

FIXTURE(null_member) {
	char *dir;
	struct proc_result r;
};

FIXTURE_VARIANT(null_member) {
	const char *key;
	const char *field;
};

FIXTURE_SETUP(null_member)
{
	memset(&self->r, 0, sizeof(self->r));
	self->dir = NULL;
}

FIXTURE_TEARDOWN(null_member)
{
	proc_result_free(&self->r);
	cli_rmdir(self->dir);
}

TEST_F(null_member, schema_error)
{
	char to[128], *prog;

	snprintf(to, sizeof(to), "{%s, \"op\": \"acc\",", variant->key);
	prog = program_with(_metadata, &self->dir, "tiny.json", "{\"op\": \"acc\",", to);
	RUN_CLI(&self->r, NULL, prog, "--inputs", cli_data("tiny-inputs.json"));
	check_error(_metadata, &self->r, "SchemaError", 1);
	ASSERT_STREQ(variant->field, cli_get_string(self->r.json, "error.field"));
	free(prog);
}

FIXTURE_VARIANT_ADD(null_member, relu) {
	.key = "\"relu\": null", .field = "commands[2].relu",
};

FIXTURE_VARIANT_ADD(null_member, bias) {
	.key = "\"bias\": null", .field = "commands[2].bias",
};

TEST_HARNESS_MAIN
