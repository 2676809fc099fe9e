// SPDX-License-Identifier: MIT
/*
 * cli_valgrind_test.c - ttpu-run's error paths under valgrind
 *
 * Each variant is one failure (plus a success or two for comparison) run
 * under valgrind --error-exitcode=99 --leak-check=full: the run must end
 * with its own exit status and error kind, with no invalid access and
 * nothing leaked. --serve and --compile run here too (a dropped line, a
 * file written as it is laid out). SKIPs when valgrind is not installed.
 */
#include "kselftest_harness.h"

#include "cli_check.h"

enum vg_stdin { VG_NONE, VG_EMPTY, VG_REQUEST, VG_TRUNCATED, VG_GARBAGE, VG_DEEP, VG_SERVE };

FIXTURE(valgrind) {
	char *dir;
};

FIXTURE_VARIANT(valgrind) {
	const char *args[8];	/* "@name" is tests/cli/data/name */
	enum vg_stdin in;
	int status;
	const char *kind;	/* NULL: success */
	int lines;		/* success: 0 one JSON response, > 0 that many
				 * lines (--serve), -1 nothing on stdout */
	bool stdout_full;	/* stdout is /dev/full: no JSON error there */
};

FIXTURE_VARIANT_ADD(valgrind, ok_file) {
	.args = { "@tiny.json", "--inputs", "@tiny-inputs.json", "--stats" },
	.status = 0,
};

FIXTURE_VARIANT_ADD(valgrind, ok_request) {
	.args = { "--engine", "software" }, .in = VG_REQUEST, .status = 0,
};

FIXTURE_VARIANT_ADD(valgrind, ok_check) {
	.args = { "--check", "@tiny.json" }, .status = 0,
};

FIXTURE_VARIANT_ADD(valgrind, empty_stdin) {
	.args = { "--engine", "software" }, .in = VG_EMPTY,
	.status = 1, .kind = "SchemaError",
};

FIXTURE_VARIANT_ADD(valgrind, truncated_request) {
	.args = { "--engine", "software" }, .in = VG_TRUNCATED,
	.status = 1, .kind = "SchemaError",
};

FIXTURE_VARIANT_ADD(valgrind, trailing_garbage) {
	.args = { "--engine", "software" }, .in = VG_GARBAGE,
	.status = 1, .kind = "SchemaError",
};

FIXTURE_VARIANT_ADD(valgrind, deep_nesting) {
	.args = { "--engine", "software" }, .in = VG_DEEP,
	.status = 1, .kind = "SchemaError",
};

FIXTURE_VARIANT_ADD(valgrind, inputs_not_given) {
	.args = { "@tiny.json" }, .status = 1, .kind = "InputError",
};

FIXTURE_VARIANT_ADD(valgrind, inputs_wrong) {
	.args = { "@tiny.json", "--inputs", "@noinputs.json" },
	.status = 1, .kind = "InputError",
};

FIXTURE_VARIANT_ADD(valgrind, range_error) {
	.args = { "@range.json", "--inputs", "@range-overflow.json", "-o", "OUT" },
	.status = 1, .kind = "RangeError",
};

FIXTURE_VARIANT_ADD(valgrind, estimate_mismatch) {
	.args = { "@mismatch.json", "--inputs", "@tiny-inputs.json" },
	.status = 1, .kind = "EstimateMismatch",
};

FIXTURE_VARIANT_ADD(valgrind, missing_file) {
	.args = { "/nonexistent/program.json" }, .status = 3, .kind = "SystemError",
};

FIXTURE_VARIANT_ADD(valgrind, missing_device) {
	.args = { "-e", "npukit", "-d", "/nonexistent/npukit0", "@noinputs.json" },
	.status = 3, .kind = "DeviceError",
};

FIXTURE_VARIANT_ADD(valgrind, bad_output_dir) {
	.args = { "@noinputs.json", "-o", "/nonexistent/out.json" },
	.status = 3, .kind = "SystemError",
};

FIXTURE_VARIANT_ADD(valgrind, bogus_engine) {
	.args = { "--engine", "bogus", "@noinputs.json" },
	.status = 2, .kind = "UsageError",
};

/* Served, refused past --max-input (dropped unread), malformed, served. */
FIXTURE_VARIANT_ADD(valgrind, serve_long_line) {
	.args = { "--serve", "--max-input", "1K", "--engine", "software", "@tiny.json" },
	.in = VG_SERVE, .status = 0, .lines = 4,
};

/*
 * stdout failing at the first response: --serve's reader thread is
 * stopped and joined wherever it is, nothing of it leaked.
 */
FIXTURE_VARIANT_ADD(valgrind, serve_write_error) {
	.args = { "--serve", "--max-input", "1K", "--engine", "software", "@tiny.json" },
	.in = VG_SERVE, .status = 3, .kind = "SystemError", .stdout_full = true,
};

/* Written as it is laid out, onto OUT replaced atomically. */
FIXTURE_VARIANT_ADD(valgrind, compile) {
	.args = { "--compile", "@range.json", "-o", "OUT" }, .status = 0, .lines = -1,
};

FIXTURE_VARIANT_ADD(valgrind, unknown_option) {
	.args = { "--frobnicate" }, .status = 2, .kind = "UsageError",
};

FIXTURE_SETUP(valgrind)
{
	self->dir = NULL;
	if (system("valgrind --version >/dev/null 2>&1") != 0)
		SKIP(return, "valgrind is not installed");
	self->dir = cli_tmpdir();
	ASSERT_NE(NULL, self->dir);
}

FIXTURE_TEARDOWN(valgrind)
{
	cli_rmdir(self->dir);
}

static char *vg_stdin_text(enum vg_stdin in)
{
	char *req, *s;
	size_t depth = 100000;

	switch (in) {
	case VG_NONE:
		return NULL;
	case VG_EMPTY:
		return strdup("");
	case VG_SERVE:
		s = malloc(3 * 4096);
		if (s) {
			static const char good[] = "{\"A\": [[1,2,3,4],[5,6,7,8],[0,0,0,0],[1,1,1,1]]}\n";

			strcpy(s, good);
			memset(s + strlen(s), 'x', 5000);
			strcpy(s + strlen(good) + 5000, "\nnul\n");
			strcat(s, good);
		}
		return s;
	case VG_DEEP:
		s = malloc(depth + 1);
		if (s) {
			memset(s, '[', depth);
			s[depth] = '\0';
		}
		return s;
	default:
		break;
	}
	req = cli_request("tiny.json", "tiny-inputs.json");
	if (!req)
		return NULL;
	if (in == VG_TRUNCATED) {
		req[strlen(req) / 2] = '\0';
	} else if (in == VG_GARBAGE) {
		if (asprintf(&s, "%s ]", req) < 0)
			s = NULL;
		free(req);
		req = s;
	}
	return req;
}

TEST_F_TIMEOUT(valgrind, clean, 120)
{
	const char *args[PROC_MAX_ARGS];
	char *owned[8], *text, *log, *vg_log, *out;
	struct proc_result r;
	int full;

	if (!self->dir)
		return;	/* skipped in setup */
	out = cli_path(self->dir, "out.json");
	ASSERT_NE(NULL, out);
	cli_args(variant->args, 8, out, args, owned);
	text = vg_stdin_text(variant->in);
	if (variant->in != VG_NONE)
		ASSERT_NE(NULL, text);
	vg_log = cli_path(self->dir, "valgrind.log");
	ASSERT_NE(NULL, vg_log);
	full = variant->stdout_full ? open("/dev/full", O_WRONLY | O_CLOEXEC) : 0;
	ASSERT_LE(0, full);
	ASSERT_EQ(0, proc_run_ttpu(args, &(struct proc_opts){ .stdin_text = text,
							      .stdout_fd = full,
							      .valgrind_log = vg_log }, &r));
	if (r.status == 99) {
		log = test_slurp(vg_log, NULL);
		TH_LOG("valgrind found errors:\n%s", log ? log : "(no log)");
		free(log);
	}
	unlink(vg_log);
	free(vg_log);
	ASSERT_NE(99, r.status);
	if (variant->kind) {
		check_error_ex(_metadata, &r, variant->kind, variant->status, !variant->stdout_full);
	} else if (variant->lines) {
		int n = 0;

		ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
		for (size_t i = 0; i < r.out_len; i++)
			n += r.out[i] == '\n';
		ASSERT_EQ(variant->lines < 0 ? 0 : variant->lines, n) TH_LOG("stdout: %s", r.out);
	} else {
		ASSERT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
		ASSERT_NE(NULL, r.json);
		ASSERT_EQ(NULL, test_json_get(r.json, "error"));
	}
	/* A failed run with -o leaves nothing behind. */
	if (variant->kind) {
		char *names = cli_listdir(self->dir);

		ASSERT_EQ(NULL, strstr(names, "out.json")) TH_LOG("left: %s", names);
		free(names);
	}
	proc_result_free(&r);
	free(text);
	free(out);
	cli_args_free(owned, 8);
}

TEST_HARNESS_MAIN
