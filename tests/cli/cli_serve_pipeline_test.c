// SPDX-License-Identifier: MIT
/*
 * cli_serve_pipeline_test.c - ttpu-run --serve reading the next request on
 * a second thread while the current one runs (issue 20, cli/serve.c):
 * - a long stream mixing answers, InputErrors, RangeErrors, lines past
 *   --max-input (some past the reader's 64 KiB chunk), blank lines and a
 *   last line without its newline is answered byte for byte as by the
 *   serial loop (TTPU_SERVE_THREADS=1), from a file and through a pipe,
 *   and each response is the one its line asks for, in order;
 * - with --stats, the same per-request stderr lines, times aside;
 * - a client that writes a request and waits for its answer before
 *   writing the next gets each answer while ttpu-run's reader is waiting
 *   for more stdin, and the reader thread is there (one thread serially);
 * - a write error on stdout ends the loop at once, as serially, while the
 *   client keeps stdin open and silent;
 * - a reader thread that cannot be made (its stack cannot be mapped)
 *   leaves the serial loop, same answers;
 * - a read error on stdin is the same error in both loops.
 */
#include <ctype.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "cli_check.h"

/* Thousands of requests, or a minute's wait for an answer: time for a loaded machine. */
FIXTURE(pipeline) {
	int unused;
};

FIXTURE_SETUP(pipeline)
{
}

FIXTURE_TEARDOWN(pipeline)
{
}

/* range.json: Y = X + X, i8 [2]; --max-input 1K in the stream tests. */
enum req_kind { REQ_OK, REQ_RANGE, REQ_BAD_JSON, REQ_SHAPE, REQ_VALUE, REQ_LONG,
		REQ_HUGE, REQ_AT_LIMIT, REQ_BLANK, REQ_KINDS };

static const char *const kind_of[REQ_KINDS] = {
	[REQ_RANGE] = "RangeError", [REQ_BAD_JSON] = "InputError",
	[REQ_SHAPE] = "InputError", [REQ_VALUE] = "InputError",
	[REQ_LONG] = "UsageError", [REQ_HUGE] = "UsageError",
};

#define LIMIT 1024
#define EXIT_SYSTEM 3

/* Line @i of the stream: which kind, from a fixed sequence. */
static enum req_kind stream_kind(unsigned int i)
{
	static const enum req_kind cycle[] = {
		REQ_OK, REQ_OK, REQ_BAD_JSON, REQ_OK, REQ_RANGE, REQ_BLANK, REQ_OK,
		REQ_SHAPE, REQ_LONG, REQ_OK, REQ_VALUE, REQ_AT_LIMIT, REQ_BLANK, REQ_OK,
	};
	uint32_t x = i * 2654435761u;

	if (i % 97 == 50)
		return REQ_HUGE;
	return cycle[(x >> 16) % (sizeof(cycle) / sizeof(cycle[0]))];
}

/*
 * @n lines of the stream into a malloc'ed text (the last without its
 * newline), the kind of each in @kinds.
 */
static char *stream_text(unsigned int n, enum req_kind *kinds)
{
	size_t len = 0;
	char *s = NULL;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (unsigned int i = 0; i < n; i++) {
		enum req_kind k = kinds[i] = stream_kind(i);
		int a = (int)(i % 60) - 30, b = (int)(i % 17);

		switch (k) {
		case REQ_OK:
			fprintf(f, "{\"X\": [%d, %d]}", a, b);
			break;
		case REQ_RANGE:
			fprintf(f, "{\"X\": [%d, 1]}", 64 + (int)(i % 60));
			break;
		case REQ_BAD_JSON:
			fprintf(f, i % 2 ? "{\"X\": [1, 2]" : "nul");
			break;
		case REQ_SHAPE:
			fprintf(f, "{\"X\": [%d]}", a);
			break;
		case REQ_VALUE:
			fprintf(f, "{\"X\": [%d, 1]}", 200 + (int)i);
			break;
		case REQ_LONG:
		case REQ_AT_LIMIT:
			/* "{"X": [1, 2]" (12 bytes), spaces, "}": LIMIT + 1 or LIMIT. */
			fprintf(f, "{\"X\": [1, 2]%*s}", LIMIT - 13 + (k == REQ_LONG), "");
			break;
		case REQ_HUGE:
			fprintf(f, "{\"X\": [1, 2]%*s}", 100000 + (int)i, "");
			break;
		case REQ_BLANK:
			fprintf(f, i % 2 ? "" : " \t\r");
			break;
		default:
			break;
		}
		if (i + 1 < n)
			fputc('\n', f);
	}
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

/* The next line of *@text, its '\n' made a NUL, *@text moved past it; NULL at the end. */
static char *next_line(char **text)
{
	char *l = *text, *nl;

	if (!l || !*l)
		return NULL;
	nl = strchr(l, '\n');
	if (nl) {
		*nl = '\0';
		*text = nl + 1;
	} else {
		*text = l + strlen(l);
	}
	return l;
}

/* Each response of @out is what its line (@kinds, @n of them) asks for. */
static void check_stream_answers(struct __test_metadata *_metadata, const char *out,
				 const enum req_kind *kinds, unsigned int n)
{
	char *copy = strdup(out), *p = copy, *l;
	unsigned int i = 0;

	ASSERT_NE(NULL, copy);
	for (; i < n; i++) {
		char want[64];

		if (kinds[i] == REQ_BLANK)
			continue;
		l = next_line(&p);
		ASSERT_NE(NULL, l) TH_LOG("no response for line %u", i + 1);
		if (!kind_of[kinds[i]]) {
			int a = (int)(i % 60) - 30, b = (int)(i % 17);

			if (kinds[i] == REQ_AT_LIMIT)
				a = 1, b = 2;
			snprintf(want, sizeof(want), "\"data\": [%d, %d]", 2 * a, 2 * b);
			ASSERT_NE(NULL, strstr(l, want)) TH_LOG("line %u: %.200s", i + 1, l);
		} else {
			snprintf(want, sizeof(want), "\"kind\": \"%s\"", kind_of[kinds[i]]);
			ASSERT_NE(NULL, strstr(l, want)) TH_LOG("line %u: %.200s", i + 1, l);
			snprintf(want, sizeof(want), "\"line\": %u", i + 1);
			ASSERT_NE(NULL, strstr(l, want)) TH_LOG("line %u: %.200s", i + 1, l);
			ASSERT_FALSE(isdigit((unsigned char)strstr(l, want)[strlen(want)]));
		}
	}
	EXPECT_EQ(NULL, next_line(&p));
	free(copy);
}

/*
 * `ttpu-run --serve --max-input MAX -e software [--stats] PROGRAM` with
 * @env ("NAME=VALUE"s, NULL-terminated) added, on @text: from a file, or
 * with @piped through a pipe as cat writes it.
 */
static void serve_stream_of(struct __test_metadata *_metadata, const char *program,
			    const char *max, const char *text, bool stats,
			    const char *const *env, bool piped, struct proc_result *r)
{
	const struct proc_opts o = { .stdin_text = text, .env = env };
	char prog[4096], script[256];
	const char *args[] = { "/bin/sh", "-c", script, proc_ttpu_path(), prog, NULL };

	snprintf(prog, sizeof(prog), "%s", cli_data(program));
	snprintf(script, sizeof(script),
		 "%sexec \"$0\" --serve --max-input %s -e software %s \"$1\"",
		 piped ? "cat | " : "", max, stats ? "--stats" : "");
	ASSERT_EQ(0, proc_run(args, &o, r));
}

/* serve_stream_of() range.json, --max-input 1K, with one @env setting (or NULL). */
static void serve_stream(struct __test_metadata *_metadata, const char *text, bool stats,
			 const char *env, bool piped, struct proc_result *r)
{
	const char *envs[] = { env, NULL };

	serve_stream_of(_metadata, "range.json", "1K", text, stats, envs, piped, r);
}

#define STREAM_LINES 3000

TEST_F_TIMEOUT(pipeline, mixed_stream_same_as_serial, 300)
{
	enum req_kind *kinds = calloc(STREAM_LINES, sizeof(*kinds));
	char *text = kinds ? stream_text(STREAM_LINES, kinds) : NULL;
	struct proc_result serial, ahead;

	ASSERT_NE(NULL, text);
	serve_stream(_metadata, text, false, "TTPU_SERVE_THREADS=1", false, &serial);
	ASSERT_EQ(0, serial.status) TH_LOG("%s", serial.err);
	EXPECT_EQ(0, serial.err_len);
	check_stream_answers(_metadata, serial.out, kinds, STREAM_LINES);
	for (int piped = 0; piped <= 1; piped++) {
		serve_stream(_metadata, text, false, "TTPU_SERVE_THREADS=2", piped, &ahead);
		EXPECT_EQ(serial.status, ahead.status) TH_LOG("%s", ahead.err);
		EXPECT_EQ(0, ahead.err_len);
		ASSERT_EQ(serial.out_len, ahead.out_len) TH_LOG("piped %d", piped);
		ASSERT_EQ(0, memcmp(serial.out, ahead.out, serial.out_len)) TH_LOG("piped %d", piped);
		proc_result_free(&ahead);
	}
	proc_result_free(&serial);
	free(text);
	free(kinds);
}

/*
 * two-layer.json's hidden layer accumulates into i8: its chains are the
 * runner's own (the replay table made at the first run, kept with the
 * program), and with TTPU_RUN_THREADS=2 every run uses a worker thread
 * too, all while the next request is parsed. Some requests leave i8
 * (RangeError), some are no inputs at all.
 */
TEST_F_TIMEOUT(pipeline, threaded_runs_same_as_serial, 300)
{
	const char *serial_env[] = { "TTPU_RUN_THREADS=2", "TTPU_SERVE_THREADS=1", NULL };
	const char *ahead_env[] = { "TTPU_RUN_THREADS=2", NULL };
	struct proc_result serial, ahead;
	size_t len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);
	uint32_t x = 12345;

	ASSERT_NE(NULL, f);
	for (int i = 0; i < 600; i++) {
		int amp = i % 3 ? 20 : 120;

		if (i % 11 == 5) {
			fputs(i % 2 ? "{\"X\": [[1]]}\n" : "\n", f);
			continue;
		}
		fputs("{\"X\": [", f);
		for (int r = 0; r < 2; r++) {
			fputs(r ? "], [" : "[", f);
			for (int c = 0; c < 6; c++) {
				x = x * 1103515245u + 12345u;
				fprintf(f, c ? ", %d" : "%d", (int)((x >> 16) % (2 * amp + 1)) - amp);
			}
		}
		fputs("]]}\n", f);
	}
	ASSERT_EQ(0, fclose(f));
	serve_stream_of(_metadata, "two-layer.json", "1M", text, false, serial_env, false, &serial);
	serve_stream_of(_metadata, "two-layer.json", "1M", text, false, ahead_env, false, &ahead);
	ASSERT_EQ(0, serial.status) TH_LOG("%s", serial.err);
	ASSERT_EQ(0, ahead.status) TH_LOG("%s", ahead.err);
	EXPECT_NE(NULL, strstr(serial.out, "\"RangeError\""));
	EXPECT_NE(NULL, strstr(serial.out, "\"outputs\""));
	ASSERT_EQ(serial.out_len, ahead.out_len);
	EXPECT_EQ(0, memcmp(serial.out, ahead.out, serial.out_len));
	proc_result_free(&serial);
	proc_result_free(&ahead);
	free(text);
}

/* @err's lines with each "N.NNN ms" replaced by "T ms". */
static char *without_times(const char *err)
{
	size_t len = 0;
	char *s = NULL;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		return NULL;
	for (const char *p = err; *p; p++) {
		const char *q = p;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q > p && *q == '.' && !strncmp(q + 4, " ms", 3)) {
			fputc('T', f);
			p = q + 3;
		} else {
			fputc(*p, f);
		}
	}
	fclose(f);
	return s;
}

TEST_F_TIMEOUT(pipeline, stats_lines_same_as_serial, 300)
{
	enum req_kind kinds[400];
	char *text = stream_text(400, kinds), *a, *b;
	struct proc_result serial, ahead;

	ASSERT_NE(NULL, text);
	serve_stream(_metadata, text, true, "TTPU_SERVE_THREADS=1", false, &serial);
	serve_stream(_metadata, text, true, NULL, false, &ahead);
	ASSERT_EQ(0, serial.status);
	ASSERT_EQ(0, ahead.status);
	a = without_times(serial.err);
	b = without_times(ahead.err);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_NE(NULL, strstr(a, "stats: request 1: ok, inputs T ms, run T ms, output T ms, 0 passes, 0 kicks\n"))
		TH_LOG("%.300s", a);
	EXPECT_STREQ(a, b);
	/* The responses' "stats" hold run times: the same number of lines. */
	check_stream_answers(_metadata, ahead.out, kinds, 400);
	free(a);
	free(b);
	proc_result_free(&serial);
	proc_result_free(&ahead);
	free(text);
}

/* ---- one request at a time, through pipes ------------------------------ */

struct served {
	pid_t pid;
	int in, out, err;	/* its stdin, stdout (or -1), stderr */
	char buf[4096];
	size_t have;
};

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * `ttpu-run --serve -e software tiny.json` with @env ("NAME=VALUE" or
 * NULL), stdin and stderr pipes, stdout @stdout_fd or a pipe (-1). With
 * @no_thread, its stack limit is set past its address space limit: a
 * thread's stack (RLIMIT_STACK by default) cannot be mapped.
 */
static int serve_spawn(struct served *s, const char *env, int stdout_fd, bool no_thread)
{
	int in[2], out[2] = { -1, -1 }, err[2];
	char prog[4096];

	snprintf(prog, sizeof(prog), "%s", cli_data("tiny.json"));
	if (pipe2(in, O_CLOEXEC) || pipe2(err, O_CLOEXEC) ||
	    (stdout_fd < 0 && pipe2(out, O_CLOEXEC)))
		return -1;
	fflush(stdout);
	fflush(stderr);
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (!s->pid) {
		signal(SIGPIPE, SIG_DFL);
		if (env)
			putenv((char *)env);
		if (no_thread) {
			struct rlimit stack = { 1UL << 30, 1UL << 30 }, as = { 512UL << 20, 512UL << 20 };

			if (setrlimit(RLIMIT_STACK, &stack) || setrlimit(RLIMIT_AS, &as))
				_exit(126);
		}
		dup2(in[0], 0);
		dup2(stdout_fd >= 0 ? stdout_fd : out[1], 1);
		dup2(err[1], 2);
		execl(proc_ttpu_path(), proc_ttpu_path(), "--serve", "-e", "software", prog,
		      (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(err[1]);
	if (out[1] >= 0)
		close(out[1]);
	s->in = in[1];
	s->out = out[0];
	s->err = err[0];
	s->have = 0;
	return 0;
}

/* Its next response line, waiting at most @ms: malloc'ed, or NULL. */
static char *serve_read_line(struct served *s, int ms)
{
	long end = now_ms() + ms;

	for (;;) {
		char *nl = memchr(s->buf, '\n', s->have), *l;
		struct pollfd p = { .fd = s->out, .events = POLLIN };
		ssize_t n;

		if (nl) {
			l = strndup(s->buf, (size_t)(nl - s->buf));
			s->have -= (size_t)(nl - s->buf) + 1;
			memmove(s->buf, nl + 1, s->have);
			return l;
		}
		if (s->have == sizeof(s->buf) || now_ms() >= end ||
		    poll(&p, 1, (int)(end - now_ms())) <= 0)
			return NULL;
		n = read(s->out, s->buf + s->have, sizeof(s->buf) - s->have);
		if (n <= 0)
			return NULL;
		s->have += (size_t)n;
	}
}

/* Its exit status once it exits within @ms (then killed: -1). */
static int serve_wait(struct served *s, int ms)
{
	long end = now_ms() + ms;
	int status;

	while (waitpid(s->pid, &status, WNOHANG) == 0) {
		if (now_ms() >= end) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &status, 0);
			return -1;
		}
		usleep(10000);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Threads of process @pid (/proc/PID/task). */
static int threads_of(pid_t pid)
{
	char path[64], *names;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	names = cli_listdir(path);
	for (char *p = names; p && *p; p++)
		n += *p == ' ';
	free(names);
	return n;
}

#define GOOD "{\"A\": [[1,2,3,4],[5,6,7,8],[0,0,0,0],[1,1,1,1]]}"
#define GOOD_C "[[1, 2, 3, 8], [5, 6, 7, 16], [0, 0, 0, 0], [1, 1, 1, 2]]"
/* Generous: the machine may be loaded; a delayed answer never comes at all. */
#define ANSWER_MS 60000

/*
 * Requests written one at a time, each only once the one before is
 * answered: every answer comes while ttpu-run's reader waits for stdin.
 * Returns the threads in the process then (the same after each request),
 * or -1.
 */
static int one_at_a_time(struct __test_metadata *_metadata, const char *env,
			 bool no_thread)
{
	static const char *const reqs[] = { GOOD "\n", "nul\n", "\n \n" GOOD "\n", "{\"A\": 3}\n",
					    GOOD "\n" };
	int threads = -1;
	struct served s;
	char *l;

	/* A ttpu-run that exited early fails the test, not a SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	if (serve_spawn(&s, env, -1, no_thread))
		return -1;
	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		bool good = strchr(reqs[i], 'A') && !strstr(reqs[i], ": 3");

		EXPECT_EQ((ssize_t)strlen(reqs[i]), write(s.in, reqs[i], strlen(reqs[i])));
		l = serve_read_line(&s, ANSWER_MS);
		EXPECT_NE(NULL, l) {
			TH_LOG("request %zu: no answer while stdin stays open", i + 1);
			break;
		}
		if (good) {
			EXPECT_NE(NULL, strstr(l, GOOD_C)) TH_LOG("%s", l);
		} else {
			EXPECT_NE(NULL, strstr(l, "\"InputError\"")) TH_LOG("%s", l);
		}
		free(l);
		if (!i)
			threads = threads_of(s.pid);
		else
			EXPECT_EQ(threads, threads_of(s.pid));
	}
	close(s.in);
	EXPECT_EQ(0, serve_wait(&s, ANSWER_MS));
	EXPECT_EQ(NULL, serve_read_line(&s, 0));
	close(s.out);
	close(s.err);
	return threads;
}

/*
 * The reader waits for stdin on a thread of its own: more threads than
 * serially (2 and 1; TSan starts one more of its own with the first).
 */
TEST_F_TIMEOUT(pipeline, answered_before_the_next_request, 300)
{
	int serial = one_at_a_time(_metadata, "TTPU_SERVE_THREADS=1", false);

	ASSERT_LT(0, serial);
	EXPECT_LT(serial, one_at_a_time(_metadata, NULL, false));
}

/* No thread to read ahead: the serial loop, the same answers. */
TEST_F_TIMEOUT(pipeline, no_thread_serves_serially, 300)
{
	if (cli_sanitized())
		SKIP(return, "sanitizers cannot run under an address space limit");
	EXPECT_EQ(1, one_at_a_time(_metadata, NULL, true));
}

/*
 * stdout failing ends the loop at once, though stdin stays open with
 * nothing more to read: the reader waiting for it is woken, not waited for.
 * With @reader_end (the read end of stdout's pipe, left full) the response
 * blocks until it is closed after a while, so that by then the reader has
 * parsed a second request, left unanswered (and freed: ASan's leak check),
 * and is waiting for a third.
 */
static void write_error(struct __test_metadata *_metadata, const char *env, int out,
			int reader_end, const char *msg)
{
	struct served s;
	char err[512];
	ssize_t n;

	signal(SIGPIPE, SIG_IGN);
	ASSERT_EQ(0, serve_spawn(&s, env, out, false));
	close(out);
	ASSERT_EQ((ssize_t)strlen(GOOD "\n"), write(s.in, GOOD "\n", strlen(GOOD "\n")));
	if (reader_end >= 0) {
		ASSERT_EQ((ssize_t)strlen(GOOD "\n"), write(s.in, GOOD "\n", strlen(GOOD "\n")));
		usleep(500000);
		close(reader_end);
	}
	EXPECT_EQ(EXIT_SYSTEM, serve_wait(&s, ANSWER_MS));
	n = read(s.err, err, sizeof(err) - 1);
	ASSERT_LT(0, n);
	err[n] = '\0';
	EXPECT_STREQ(msg, err);
	close(s.in);
	close(s.err);
}

/* A pipe whose write end (p[1]) blocks until p[0] is read or closed. */
static int full_pipe(int p[2])
{
	char block[4096] = { 0 };
	int fl;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	fl = fcntl(p[1], F_GETFL);
	if (fl < 0 || fcntl(p[1], F_SETFL, fl | O_NONBLOCK))
		return -1;
	while (write(p[1], block, sizeof(block)) > 0 || errno == EINTR)
		;
	return errno == EAGAIN ? fcntl(p[1], F_SETFL, fl) : -1;
}

TEST_F_TIMEOUT(pipeline, write_error_ends_it_with_stdin_open, 300)
{
	static const char *const envs[] = { NULL, "TTPU_SERVE_THREADS=1" };
	int p[2];

	for (int i = 0; i < 2; i++) {
		int full = open("/dev/full", O_WRONLY | O_CLOEXEC);

		if (full < 0)
			SKIP(return, "no /dev/full");
		write_error(_metadata, envs[i], full, -1,
			    "ttpu-run: SystemError: writing response 1: No space left on device\n");
		ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
		close(p[0]);
		write_error(_metadata, envs[i], p[1], -1,
			    "ttpu-run: SystemError: writing response 1: Broken pipe\n");
		ASSERT_EQ(0, full_pipe(p));
		write_error(_metadata, envs[i], p[1], p[0],
			    "ttpu-run: SystemError: writing response 1: Broken pipe\n");
	}
}

/* stdin that cannot be read: the same error either way. */
TEST(read_error_same_as_serial)
{
	const char *script = "exec \"$0\" --serve --engine software \"$1\" < /";
	struct proc_result r[2];
	char prog[4096];

	snprintf(prog, sizeof(prog), "%s", cli_data("tiny.json"));
	for (int i = 0; i < 2; i++) {
		const char *args[] = { "/bin/sh", "-c", script, proc_ttpu_path(), prog, NULL };
		const char *env[] = { i ? "TTPU_SERVE_THREADS=1" : "TTPU_SERVE_THREADS=2", NULL };

		ASSERT_EQ(0, proc_run(args, &(struct proc_opts){ .env = env }, &r[i]));
		check_error(_metadata, &r[i], "SystemError", 3);
	}
	EXPECT_STREQ(r[0].out, r[1].out);
	EXPECT_STREQ(r[0].err, r[1].err);
	proc_result_free(&r[0]);
	proc_result_free(&r[1]);
}

TEST_HARNESS_MAIN
