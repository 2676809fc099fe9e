// SPDX-License-Identifier: MIT
/*
 * cli_compile_test.c - ttpu-run --compile PROGRAM -o OUT: OUT starts with
 * the .ttpb magic and runs in file mode to the JSON program's response; a
 * program that does not load leaves no OUT and fails as a run would;
 * --compile without PROGRAM, or with --inputs, is a UsageError; a
 * truncated compiled file is a SchemaError (exit 1), not a crash.
 * Issue 19: a 10^6-pass program compiles within the board's 256 MB, in
 * no more memory than loading it takes (the image is written as it is
 * laid out, never held); a write that fails leaves the old OUT and no
 * temporary file.
 * (Every corpus program: tests/gen/check_compiled.py.)
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

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

/*
 * A one-layer program of @n^3 passes: C = A @ W, [4n, 4n] each, W const,
 * every output tile the sum of n passes (pass, acc). Written to @path.
 */
static int write_matmul(const char *path, unsigned int n)
{
	unsigned int m = 4 * n, id = 0;
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -1;
	fprintf(f, "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"big\",\"buffers\":{"
		"\"A\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"input\"},"
		"\"W\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"const\",\"data\":[", m, m, m, m);
	for (unsigned int r = 0; r < m; r++)
		for (unsigned int c = 0; c < m; c++)
			fprintf(f, "%s%d%s", c ? "," : r ? ",[" : "[", (int)((r * 7 + c * 3) % 255) - 127,
				c == m - 1 ? "]" : "");
	fprintf(f, "]},\"C\":{\"dtype\":\"i32\",\"shape\":[%u,%u],\"kind\":\"temp\"}},"
		"\"inputs\":[\"A\"],\"outputs\":[\"C\"],\"commands\":[{\"op\":\"alloc\",\"buf\":\"C\"}",
		m, m);
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < n; j++)
			for (unsigned int k = 0; k < n; k++, id++)
				fprintf(f, ",\n{\"op\":\"pass\",\"id\":%u,\"a\":{\"buf\":\"A\",\"r\":%u,\"c\":%u},"
					"\"b\":{\"buf\":\"W\",\"r\":%u,\"c\":%u}},"
					"{\"op\":\"acc\",\"pass\":%u,\"dst\":{\"buf\":\"C\",\"r\":%u,\"c\":%u}}",
					id, 4 * i, 4 * k, 4 * k, 4 * j, id, 4 * i, 4 * j);
	fprintf(f, "]}\n");
	if (ferror(f))
		ret = -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* The largest peak RSS of this process's children so far, in KiB. */
static long children_maxrss(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_CHILDREN, &ru) ? -1 : ru.ru_maxrss;
}

FIXTURE(big) {
	char *dir, *prog, *out;
};

FIXTURE_SETUP(big)
{
	self->dir = cli_tmpdir();
	ASSERT_NE(NULL, self->dir);
	self->prog = cli_path(self->dir, "big.json");
	self->out = cli_path(self->dir, "big.ttpb");
	ASSERT_NE(NULL, self->out);
}

FIXTURE_TEARDOWN(big)
{
	free(self->prog);
	free(self->out);
	cli_rmdir(self->dir);
}

/*
 * 10^6 passes (a 150 MB text, a 120 MB image) under the board's
 * `ulimit -v 262144`: the program alone takes ~140 MB, so the image
 * beside it did not fit. Compiling must cost no more than loading
 * (--check): peak RSS within 16 MiB of it, the image being 100+ MB.
 * About 10 s on an idle machine, hence the timeout for a loaded one.
 */
#define BIG_DISK_BYTES	(320ULL << 20)

TEST_F_TIMEOUT(big, million_passes_within_256_mb, 600)
{
	const char *script = "ulimit -v 262144; exec \"$0\" --compile \"$1\" -o \"$2\"";
	const char *args[] = { "/bin/sh", "-c", script, proc_ttpu_path(), self->prog, self->out,
			       NULL };
	struct proc_result r;
	long load_kib, compile_kib;
	struct statvfs fs;
	struct stat st;

	if (cli_sanitized())
		SKIP(return, "ASan cannot run under ulimit -v");
	/* the text and the image side by side, ~300 MB: a VM's tmpfs has not */
	if (statvfs(self->dir, &fs) == 0 &&
	    (unsigned long long)fs.f_bavail * fs.f_frsize < BIG_DISK_BYTES)
		SKIP(return, "%s has %llu MB free, the test needs %llu MB", self->dir,
		     (unsigned long long)fs.f_bavail * fs.f_frsize >> 20, BIG_DISK_BYTES >> 20);
	ASSERT_EQ(0, write_matmul(self->prog, 100));
	RUN_CLI(&r, NULL, "--check", self->prog);
	check_ok(_metadata, &r);
	EXPECT_EQ(1000000, json_object_get_int64(test_json_get(r.json, "passes")));
	proc_result_free(&r);
	load_kib = children_maxrss();

	ASSERT_EQ(0, proc_run(args, NULL, &r));
	EXPECT_EQ(0, r.status) { TH_LOG("%s", r.err); }
	EXPECT_EQ(0, r.err_len);
	proc_result_free(&r);
	compile_kib = children_maxrss();
	ASSERT_EQ(0, stat(self->out, &st));
	TH_LOG("load %ld KiB, compile %ld KiB, image %lld bytes", load_kib, compile_kib,
	       (long long)st.st_size);
	ASSERT_LT(100 << 20, st.st_size);
	EXPECT_LT(compile_kib, load_kib + 16 * 1024);

	/* The file is whole: it loads, checksum and all. */
	unlink(self->prog);
	RUN_CLI(&r, NULL, "--check", self->out);
	check_ok(_metadata, &r);
	EXPECT_EQ(1000000, json_object_get_int64(test_json_get(r.json, "passes")));
	proc_result_free(&r);
}

/* A write that fails (a file size limit, as a full disk would): the old OUT stays, alone. */
TEST_F(big, write_error_keeps_old)
{
	struct proc_opts o = { .fsize_limit = 256 * 1024 };
	struct proc_result r;
	char *text, *names;

	ASSERT_EQ(0, write_matmul(self->prog, 16));
	ASSERT_EQ(0, cli_spit(self->out, "old\n", 4));
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--compile", self->prog, "-o",
							self->out, NULL }, &o, &r));
	check_error(_metadata, &r, "SystemError", 3);
	EXPECT_NE(NULL, strstr(r.err, "File too large")) { TH_LOG("%s", r.err); }
	text = test_slurp(self->out, NULL);
	EXPECT_STREQ("old\n", text);
	names = cli_listdir(self->dir);
	EXPECT_TRUE(!strcmp(names, "big.ttpb big.json ") || !strcmp(names, "big.json big.ttpb ")) {
		TH_LOG("files left: %s", names);
	}
	free(names);
	free(text);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
