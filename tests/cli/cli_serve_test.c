// SPDX-License-Identifier: MIT
/*
 * cli_serve_test.c - ttpu-run --serve PROGRAM: one response line per
 * inputs line on stdin, in order; a bad request gets an {"error": ...}
 * line and the following requests are still answered; blank lines are
 * skipped; EOF ends it with status 0; --stats gives one stderr line per
 * request; --serve without PROGRAM, or with --inputs, is a UsageError.
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

TEST_HARNESS_MAIN
