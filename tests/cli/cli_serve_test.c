// SPDX-License-Identifier: MIT
/*
 * cli_serve_test.c - ttpu-run --serve PROGRAM: one response line per
 * inputs line on stdin, in order; a bad request gets an {"error": ...}
 * line and the following requests are still answered; blank lines are
 * skipped; EOF ends it with status 0; --stats gives one stderr line per
 * request; --serve without PROGRAM, or with --inputs, is a UsageError.
 * Issue 19: a line longer than --max-input, or than memory can hold, is
 * an error line for that request and the next is served, in bounded
 * memory; a read error is exit 3, never EOF; each error names its line of
 * stdin; "nul" and "n" are not called null; a line's newline is not part
 * of its request. Issue 29: what depends on the program alone is derived
 * at start-up, and the responses stay byte for byte a one-request run's.
 */
#include "kselftest_harness.h"
#include "cli_check.h"

/* tiny.json: C = A . diag(1, 1, 1, 2) */
#define GOOD "{\"A\": [[1,2,3,4],[5,6,7,8],[0,0,0,0],[1,1,1,1]]}\n"
#define GOOD_C "[[1, 2, 3, 8], [5, 6, 7, 16], [0, 0, 0, 0], [1, 1, 1, 2]]"
#define BAD_SHAPE "{\"A\": [[1,2,3],[5,6,7,8],[0,0,0,0],[1,1,1,1]]}\n"

/* Line @n (from 0) of @text, or NULL; malloc'ed. */
static char *line_of(const char *text, int n)
{
	const char *end;

	for (; n > 0 && text; n--) {
		text = strchr(text, '\n');
		if (text)
			text++;
	}
	if (!text || !*text)
		return NULL;
	end = strchr(text, '\n');
	return strndup(text, end ? (size_t)(end - text) : strlen(text));
}

static int lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

TEST(answers_each_line_and_goes_on_after_errors)
{
	const char *args[] = { "--serve", "--engine", "software", cli_data_kept("tiny.json"), NULL };
	struct proc_opts o = { .stdin_text = GOOD BAD_SHAPE "\n   \n" "not json\n" GOOD };
	struct proc_result r;
	const char *kinds[] = { NULL, "InputError", "InputError", NULL };

	ASSERT_EQ(0, proc_run_ttpu(args, &o, &r));
	EXPECT_EQ(0, r.status) { TH_LOG("%s", r.err); }
	ASSERT_EQ(4, lines(r.out)) { TH_LOG("%s", r.out); }
	for (int i = 0; i < 4; i++) {
		char *l = line_of(r.out, i);
		struct json_object *j = l ? proc_parse_json(l, strlen(l)) : NULL, *e, *k;

		ASSERT_NE(NULL, j) { TH_LOG("line %d: %s", i, l); }
		if (kinds[i]) {
			ASSERT_TRUE(json_object_object_get_ex(j, "error", &e));
			ASSERT_TRUE(json_object_object_get_ex(e, "kind", &k));
			EXPECT_STREQ(kinds[i], json_object_get_string(k));
		} else {
			EXPECT_NE(NULL, strstr(l, GOOD_C)) { TH_LOG("%s", l); }
		}
		json_object_put(j);
		free(l);
	}
	proc_result_free(&r);
}

/* A response per request, as a one-request run writes it. */
TEST(same_response_as_file_mode)
{
	const char *serve[] = { "--serve", "--engine", "software", cli_data_kept("tiny.json"), NULL };
	const char *once[] = { "--engine", "software", cli_data_kept("tiny.json"), "--inputs",
			       cli_data_kept("tiny-inputs.json"), NULL };
	char *in = test_slurp(cli_data_kept("tiny-inputs.json"), NULL), *oneline;
	struct proc_result a, b;
	struct proc_opts o = { 0 };

	ASSERT_NE(NULL, in);
	for (char *p = in; *p; p++)
		if (*p == '\n')
			*p = ' ';
	ASSERT_LT(0, asprintf(&oneline, "%s\n%s\n", in, in));
	o.stdin_text = oneline;
	ASSERT_EQ(0, proc_run_ttpu(serve, &o, &a));
	ASSERT_EQ(0, proc_run_ttpu(once, NULL, &b));
	ASSERT_EQ(0, a.status);
	ASSERT_EQ(0, b.status);
	ASSERT_EQ(2 * b.out_len, a.out_len);
	EXPECT_EQ(0, memcmp(a.out, b.out, b.out_len));
	EXPECT_EQ(0, memcmp(a.out + b.out_len, b.out, b.out_len));
	proc_result_free(&a);
	proc_result_free(&b);
	free(oneline);
	free(in);
}

/*
 * --serve derives what depends on the program alone at its start-up
 * (ttpu_program_prepare(): the passes list, the replay table of two-layer's
 * i8 layer, the engine's own), not at its first request: every response
 * is still byte for byte what a one-request run writes, the first as the
 * later ones, from the JSON program and from its compiled form, with the
 * passes in every form.
 */
TEST(prepared_at_start_up_same_bytes)
{
	static const char *const inputs[2] = {
		"{\"X\": [[3, -1, 2, 0, 1, -2], [1, 2, -3, 4, 0, 1]]}",
		"{\"X\": [[-5, 4, 0, 2, -1, 3], [2, 0, 1, -1, 4, -2]]}",
	};
	static const char *const forms[] = { "full", "summary", "none" };
	char *dir = cli_tmpdir(), *ttpb, *in_path[2], *stream;
	const char *progs[2];
	struct proc_result c;

	ASSERT_NE(NULL, dir);
	ttpb = cli_path(dir, "two-layer.ttpb");
	ASSERT_NE(NULL, ttpb);
	progs[0] = cli_data_kept("two-layer.json");
	progs[1] = ttpb;
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--compile", progs[0], "-o", ttpb,
							  NULL }, NULL, &c));
	ASSERT_EQ(0, c.status) { TH_LOG("%s", c.err); }
	proc_result_free(&c);
	for (int i = 0; i < 2; i++) {
		in_path[i] = cli_path(dir, i ? "in1.json" : "in0.json");
		ASSERT_NE(NULL, in_path[i]);
		ASSERT_EQ(0, cli_spit(in_path[i], inputs[i], strlen(inputs[i])));
	}
	ASSERT_LT(0, asprintf(&stream, "%s\n%s\n%s\n", inputs[0], inputs[1], inputs[0]));
	for (int p = 0; p < 2; p++) {
		for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
			const char *serve[] = { "--serve", "--engine", "software", "--passes",
						forms[f], progs[p], NULL };
			struct proc_opts o = { .stdin_text = stream };
			struct proc_result a, once[2];

			for (int i = 0; i < 2; i++) {
				const char *args[] = { "--engine", "software", "--passes", forms[f],
						       progs[p], "--inputs", in_path[i], NULL };

				ASSERT_EQ(0, proc_run_ttpu(args, NULL, &once[i]));
				ASSERT_EQ(0, once[i].status) { TH_LOG("%s", once[i].err); }
			}
			ASSERT_EQ(0, proc_run_ttpu(serve, &o, &a));
			ASSERT_EQ(0, a.status) { TH_LOG("%s", a.err); }
			ASSERT_EQ(2 * once[0].out_len + once[1].out_len, a.out_len) {
				TH_LOG("%s --passes %s: %s", progs[p], forms[f], a.out);
			}
			EXPECT_EQ(0, memcmp(a.out, once[0].out, once[0].out_len));
			EXPECT_EQ(0, memcmp(a.out + once[0].out_len, once[1].out, once[1].out_len));
			EXPECT_EQ(0, memcmp(a.out + once[0].out_len + once[1].out_len, once[0].out,
					    once[0].out_len));
			proc_result_free(&a);
			proc_result_free(&once[0]);
			proc_result_free(&once[1]);
		}
	}
	free(stream);
	free(in_path[0]);
	free(in_path[1]);
	free(ttpb);
	cli_rmdir(dir);
}

TEST(empty_stdin_is_success)
{
	const char *args[] = { "--serve", "--engine", "software", cli_data_kept("tiny.json"), NULL };
	struct proc_result r;

	ASSERT_EQ(0, proc_run_ttpu(args, NULL, &r));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(0, r.out_len);
	proc_result_free(&r);
}

TEST(stats_per_request)
{
	const char *args[] = { "--serve", "--stats", "--engine", "software",
			       cli_data_kept("tiny.json"), NULL };
	struct proc_opts o = { .stdin_text = GOOD BAD_SHAPE GOOD };
	struct proc_result r;

	ASSERT_EQ(0, proc_run_ttpu(args, &o, &r));
	EXPECT_EQ(0, r.status);
	/* The start-up's prepare, before the first request */
	EXPECT_EQ(r.err, strstr(r.err, "stats: prepare ")) { TH_LOG("%s", r.err); }
	EXPECT_NE(NULL, strstr(r.err, "stats: request 1: ok"));
	EXPECT_NE(NULL, strstr(r.err, "stats: request 2: InputError"));
	EXPECT_NE(NULL, strstr(r.err, "stats: request 3: ok"));
	EXPECT_NE(NULL, strstr(r.out, "\"stats\""));
	proc_result_free(&r);
}

TEST(usage_errors)
{
	struct proc_result r;

	RUN_CLI(&r, NULL, "--serve");
	check_error(_metadata, &r, "UsageError", 2);
	proc_result_free(&r);
	RUN_CLI(&r, NULL, "--serve", cli_data_kept("tiny.json"), "--inputs",
		cli_data_kept("tiny-inputs.json"));
	check_error(_metadata, &r, "UsageError", 2);
	proc_result_free(&r);
}

/* A program that does not load ends it before any request: exit 1. */
TEST(bad_program)
{
	const char *args[] = { "--serve", "--engine", "software", cli_data_kept("mismatch.json"), NULL };
	struct proc_opts o = { .stdin_text = GOOD };
	struct proc_result r;

	ASSERT_EQ(0, proc_run_ttpu(args, &o, &r));
	EXPECT_EQ(1, r.status);
	proc_result_free(&r);
}

/* The error line @l: its kind, and its "line" (stdin's, 1-based). */
static void check_error_line(struct __test_metadata *_metadata, const char *out, int l,
			     const char *kind, int line)
{
	char *text = line_of(out, l);
	struct json_object *j = text ? proc_parse_json(text, strlen(text)) : NULL;

	ASSERT_NE(NULL, j) { TH_LOG("response %d: %s", l, text); }
	EXPECT_STREQ(kind, cli_get_string(j, "error.kind")) { TH_LOG("%s", text); }
	EXPECT_EQ(line, json_object_get_int64(test_json_get(j, "error.line"))) {
		TH_LOG("%s", text);
	}
	json_object_put(j);
	free(text);
}

static void check_answer_line(struct __test_metadata *_metadata, const char *out, int l)
{
	char *text = line_of(out, l);

	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, GOOD_C)) { TH_LOG("response %d: %s", l, text); }
	free(text);
}

/*
 * Each error names its request's line on stdin, blank lines counted, and
 * the column within it; the newline is no part of the request, so "{"
 * is cut short at its own line, column 2.
 */
TEST(errors_name_their_line)
{
	const char *args[] = { "--serve", "--engine", "software", cli_data_kept("tiny.json"), NULL };
	struct proc_opts o = { .stdin_text = GOOD "\n" "nul\n" "n\n" "{\n" "  \r\n" "{\"A\": 3}\n"
					     "{\"A\": [[1,2,3,4],[5,6,7,8],[0,0,0,0],[1,1,1,1]]}\r\n"
					     "{\"A\": 3}" };
	struct proc_result r;
	char *l;

	ASSERT_EQ(0, proc_run_ttpu(args, &o, &r));
	EXPECT_EQ(0, r.status) { TH_LOG("%s", r.err); }
	ASSERT_EQ(7, lines(r.out)) { TH_LOG("%s", r.out); }
	check_answer_line(_metadata, r.out, 0);
	check_error_line(_metadata, r.out, 1, "InputError", 3);
	check_error_line(_metadata, r.out, 2, "InputError", 4);
	check_error_line(_metadata, r.out, 3, "InputError", 5);
	check_error_line(_metadata, r.out, 4, "InputError", 7);
	check_answer_line(_metadata, r.out, 5);
	check_error_line(_metadata, r.out, 6, "InputError", 9);
	/* "nul" and "n" are no JSON at all, not a null. */
	for (int i = 1; i <= 2; i++) {
		l = line_of(r.out, i);
		EXPECT_EQ(NULL, strstr(l, "got null")) { TH_LOG("%s", l); }
		EXPECT_NE(NULL, strstr(l, i == 1 ? "malformed JSON: expected an object, got \\\"nul\\\"" :
					   "malformed JSON: expected an object, got \\\"n\\\"")) {
			TH_LOG("%s", l);
		}
		free(l);
	}
	l = line_of(r.out, 3);
	EXPECT_NE(NULL, strstr(l, "\"line\": 5, \"column\": 2")) { TH_LOG("%s", l); }
	free(l);
	l = line_of(r.out, 4);
	EXPECT_NE(NULL, strstr(l, "\"line\": 7, \"column\": 7")) { TH_LOG("%s", l); }
	free(l);
	proc_result_free(&r);
}

/* GOOD with @pad spaces inside its object: valid, and @pad bytes longer. */
static char *padded_good(size_t pad)
{
	static const char head[] = "{\"A\": [[1,2,3,4],[5,6,7,8],[0,0,0,0],[1,1,1,1]]";
	char *s = malloc(sizeof(head) + pad + 2);

	if (!s)
		return NULL;
	memcpy(s, head, sizeof(head) - 1);
	memset(s + sizeof(head) - 1, ' ', pad);
	strcpy(s + sizeof(head) - 1 + pad, "}\n");
	return s;
}

/* --max-input holds per line: a valid request past it is refused, the next served. */
TEST(line_past_max_input_is_its_error)
{
	const char *args[] = { "--serve", "--max-input", "1M", "--engine", "software",
			       cli_data_kept("tiny.json"), NULL };
	char *big = padded_good(2 << 20), *in, *l;
	struct proc_result r;

	ASSERT_NE(NULL, big);
	ASSERT_LT(0, asprintf(&in, "%s%s%s", GOOD, big, GOOD));
	ASSERT_EQ(0, proc_run_ttpu(args, &(struct proc_opts){ .stdin_text = in }, &r));
	EXPECT_EQ(0, r.status) { TH_LOG("%s", r.err); }
	ASSERT_EQ(3, lines(r.out)) { TH_LOG("%.300s", r.out); }
	check_answer_line(_metadata, r.out, 0);
	check_error_line(_metadata, r.out, 1, "UsageError", 2);
	l = line_of(r.out, 1);
	EXPECT_NE(NULL, strstr(l, "longer than the 1048576-byte input limit")) { TH_LOG("%s", l); }
	free(l);
	check_answer_line(_metadata, r.out, 2);
	proc_result_free(&r);

	/* At the limit exactly (its newline not counted) it is served; a byte more is not. */
	for (int over = 0; over <= 1; over++) {
		free(big);
		big = padded_good((1 << 20) + 1 + (size_t)over - strlen(GOOD));
		ASSERT_NE(NULL, big);
		ASSERT_EQ((size_t)(1 << 20) + 1 + (size_t)over, strlen(big));
		ASSERT_EQ(0, proc_run_ttpu(args, &(struct proc_opts){ .stdin_text = big }, &r));
		EXPECT_EQ(0, r.status);
		ASSERT_EQ(1, lines(r.out));
		if (over)
			check_error_line(_metadata, r.out, 0, "UsageError", 1);
		else
			check_answer_line(_metadata, r.out, 0);
		proc_result_free(&r);
	}
	free(big);
	free(in);
}

/*
 * `sh -c SCRIPT ttpu-run tiny.json GOOD`: SCRIPT feeds ttpu-run's stdin;
 * the requests' lines are checked as for a direct run.
 */
static void run_script(struct __test_metadata *_metadata, const char *script,
		       struct proc_result *r)
{
	char tiny[4096], good[256];
	const char *args[] = { "/bin/sh", "-c", script, proc_ttpu_path(), tiny, good, NULL };

	snprintf(tiny, sizeof(tiny), "%s", cli_data("tiny.json"));
	snprintf(good, sizeof(good), "%.*s", (int)strlen(GOOD) - 1, GOOD);
	ASSERT_EQ(0, proc_run(args, NULL, r));
}

/*
 * GOOD, a line of @bytes 'x', GOOD into `ttpu-run --serve @opts tiny.json`
 * run under `ulimit -v @kib`: exit 0, the two GOODs answered and the long
 * line refused with @kind, naming line 2.
 */
static void serve_long_line(struct __test_metadata *_metadata, long bytes, const char *opts,
			    long kib, const char *kind, struct proc_result *r)
{
	char *script;

	ASSERT_LT(0, asprintf(&script,
			      "{ printf '%%s\\n' \"$2\"; head -c %ld /dev/zero | tr '\\0' x; echo;"
			      "  printf '%%s\\n' \"$2\"; } |"
			      "{ ulimit -v %ld; exec \"$0\" --serve %s --engine software \"$1\"; }",
			      bytes, kib, opts));
	run_script(_metadata, script, r);
	free(script);
	EXPECT_EQ(0, r->status) { TH_LOG("%s", r->err); }
	ASSERT_EQ(3, lines(r->out)) { TH_LOG("%s\n%s", r->out, r->err); }
	check_answer_line(_metadata, r->out, 0);
	check_error_line(_metadata, r->out, 1, kind, 2);
	check_answer_line(_metadata, r->out, 2);
}

/* Hundreds of MB through a pipe: time for a loaded machine. */
FIXTURE(long_line) {
	int unused;
};

FIXTURE_SETUP(long_line)
{
}

FIXTURE_TEARDOWN(long_line)
{
}

/*
 * A 100 MB line past --max-input 1M within 64 MB of address space: it is
 * read past and dropped, never held.
 */
TEST_F_TIMEOUT(long_line, skipped_in_bounded_memory, 300)
{
	struct proc_result r;

	if (cli_sanitized())
		SKIP(return, "sanitizers cannot run under ulimit -v");
	serve_long_line(_metadata, 100000000, "--max-input 1M", 65536, "UsageError", &r);
	proc_result_free(&r);
}

/*
 * Issue 19: under the board's 256 MB, a 300 MB line within the default
 * 1 GiB limit cannot be held. getline() took that for EOF: no answer,
 * nothing on stderr, exit 0. Now it is that request's SystemError (ENOMEM)
 * and the next line is served.
 */
TEST_F_TIMEOUT(long_line, beyond_memory_is_its_error, 300)
{
	struct proc_result r;
	char *l;

	if (cli_sanitized())
		SKIP(return, "sanitizers cannot run under ulimit -v");
	serve_long_line(_metadata, 300000000, "", 262144, "SystemError", &r);
	l = line_of(r.out, 1);
	EXPECT_NE(NULL, strstr(l, "\"errno\": 12")) { TH_LOG("%s", l); }
	free(l);
	proc_result_free(&r);
}

/* stdin that cannot be read: SystemError, exit 3, never a quiet EOF. */
TEST(read_error_is_exit_3)
{
	struct proc_result r;

	run_script(_metadata, "exec \"$0\" --serve --engine software \"$1\" < /", &r);
	check_error(_metadata, &r, "SystemError", 3);
	EXPECT_NE(NULL, strstr(r.err, "reading stdin (line 1): Is a directory")) {
		TH_LOG("%s", r.err);
	}
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
