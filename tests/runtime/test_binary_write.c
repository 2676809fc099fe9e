// SPDX-License-Identifier: MIT
/*
 * test_binary_write.c - ttpu_program_write_binary_file(): the compiled
 * program written onto a stream as it is laid out, never held whole. Its
 * bytes are ttpu_program_write_binary()'s, onto a file or a pipe (no seek);
 * a stream that fails is a SystemError with its errno; NULL is a
 * UsageError.
 *
 * The programs have names and const data of every length modulo 8 (i8
 * [3,5]: 15 bytes; i32 [3]: 12), so that every padding rule of the layout
 * is crossed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "rt.h"
#include "../lib/test_util.h"

/* C = A @ W (+ b, relu), D = relu(C): every section holds something. */
#define PROG_PADDED RT_PROG(RT_BUF("A", "i8", "[4,8]", "input") ","			\
	RT_CONST("Wide", "i8", "[8,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1],"	\
		 "[2,0,0,0],[0,2,0,0],[0,0,2,0],[0,0,0,2]]") ","			\
	RT_CONST("odd", "i8", "[3,5]", "[[1,2,3,4,5],[6,7,8,9,10],[11,12,13,14,15]]") ","	\
	RT_CONST("bias3", "i32", "[3]", "[1,-2,3]") ","				\
	RT_CONST("b", "i32", "[4]", "[1,-2,3,-4]") ","				\
	RT_BUF("C", "i32", "[4,4]", "temp") "," RT_BUF("Dee", "i32", "[4,4]", "temp"),	\
	"'A'", "'C','Dee'",							\
	"{'op':'alloc','buf':'C'}," RT_PASS(0, "A", 0, 0, "Wide", 0, 0) ","		\
	RT_PASS(1, "A", 0, 4, "Wide", 4, 0) "," RT_ACC(0, "C", 0, 0) ","		\
	"{'op':'host_relu','dst':'Dee','src':'C'},"					\
	"{'op':'acc','pass':1,'dst':" RT_WIN("C", 0, 0) ",'bias':'b','relu':true}")

/* Load @text (single-quoted JSON, or a path when @file) into *@prog. */
static int load(const char *text, bool file, ttpu_program **prog, struct ttpu_error *err)
{
	return file ? ttpu_program_load_file(text, prog, err) : rt_load(text, prog, err);
}

/* The stream writer's bytes of @prog through a temporary file; malloc'd. */
static char *via_file(const ttpu_program *prog, size_t *len, struct ttpu_error *err)
{
	FILE *f = tmpfile();
	char *bytes = NULL;
	long n;

	if (!f)
		return NULL;
	if (!ttpu_program_write_binary_file(prog, f, err) && !fflush(f) &&
	    (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) && (bytes = malloc((size_t)n + 1))) {
		*len = fread(bytes, 1, (size_t)n, f);
		if (*len != (size_t)n) {
			free(bytes);
			bytes = NULL;
		}
	}
	fclose(f);
	return bytes;
}

struct pipe_writer {
	const ttpu_program *prog;
	int fd;
	int ret;
};

static void *write_to_pipe(void *arg)
{
	struct pipe_writer *w = arg;
	FILE *f = fdopen(w->fd, "w");

	w->ret = -1;
	if (!f) {
		close(w->fd);
		return NULL;
	}
	w->ret = ttpu_program_write_binary_file(w->prog, f, NULL);
	if (fclose(f) && !w->ret)
		w->ret = -1;
	return NULL;
}

/* The same through a pipe, written by a thread: a stream with no seek. */
static char *via_pipe(const ttpu_program *prog, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *bytes = malloc(cap);
	struct pipe_writer w = { .prog = prog };
	int fds[2];
	pthread_t t;
	ssize_t r;

	if (!bytes || pipe(fds)) {
		free(bytes);
		return NULL;
	}
	w.fd = fds[1];
	if (pthread_create(&t, NULL, write_to_pipe, &w)) {
		close(fds[0]);
		close(fds[1]);
		free(bytes);
		return NULL;
	}
	while ((r = read(fds[0], bytes + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap) {
			char *nb = realloc(bytes, cap * 2);

			if (!nb)
				break;
			bytes = nb;
			cap *= 2;
		}
	}
	close(fds[0]);
	pthread_join(t, NULL);
	if (w.ret) {
		free(bytes);
		return NULL;
	}
	*len = n;
	return bytes;
}

FIXTURE(stream) {
	ttpu_program *prog;
};

FIXTURE_VARIANT(stream) {
	const char *text;	/* single-quoted JSON, or a path */
	bool file;
};

FIXTURE_VARIANT_ADD(stream, padded) { .text = PROG_PADDED };
FIXTURE_VARIANT_ADD(stream, two_layer) { .text = "tests/runtime/data/two-layer.json", .file = true };
FIXTURE_VARIANT_ADD(stream, tiny) { .text = "tests/cli/data/tiny.json", .file = true };

FIXTURE_SETUP(stream)
{
	struct ttpu_error err;

	ASSERT_EQ(0, load(variant->text, variant->file, &self->prog, &err)) {
		TH_LOG("%s", err.message);
	}
}

FIXTURE_TEARDOWN(stream)
{
	ttpu_program_free(self->prog);
}

/* The memory writer's bytes, onto a file and onto a pipe. */
TEST_F(stream, same_bytes)
{
	struct ttpu_error err;
	size_t len, flen = 0, plen = 0;
	char *image, *file, *piped;

	ASSERT_EQ(0, ttpu_program_write_binary(self->prog, &image, &len, &err));
	file = via_file(self->prog, &flen, &err);
	ASSERT_NE(NULL, file) { TH_LOG("%s", err.message); }
	ASSERT_EQ(len, flen);
	EXPECT_EQ(0, memcmp(image, file, len));
	piped = via_pipe(self->prog, &plen);
	ASSERT_NE(NULL, piped);
	ASSERT_EQ(len, plen);
	EXPECT_EQ(0, memcmp(image, piped, len));
	free(piped);
	free(file);
	free(image);
}

/* Unbuffered onto /dev/full: the write's own failure, with its errno. */
TEST_F(stream, write_error)
{
	struct ttpu_error err;
	FILE *f = fopen("/dev/full", "w");

	ASSERT_NE(NULL, f);
	setvbuf(f, NULL, _IONBF, 0);
	ASSERT_KIND(TTPU_SYSTEM_ERROR, ttpu_program_write_binary_file(self->prog, f, &err), err);
	EXPECT_EQ(ENOSPC, err.sys_errno);
	EXPECT_NE(NULL, strstr(err.message, "writing the compiled program")) {
		TH_LOG("%s", err.message);
	}
	fclose(f);
}

TEST_F(stream, null_arguments)
{
	struct ttpu_error err;

	ASSERT_KIND(TTPU_USAGE_ERROR, ttpu_program_write_binary_file(NULL, stdout, &err), err);
	EXPECT_NE(NULL, strstr(err.message, "prog is NULL"));
	ASSERT_KIND(TTPU_USAGE_ERROR, ttpu_program_write_binary_file(self->prog, NULL, &err), err);
	EXPECT_NE(NULL, strstr(err.message, "f is NULL"));
	/* @err may be NULL, as everywhere. */
	EXPECT_EQ(-TTPU_USAGE_ERROR, ttpu_program_write_binary_file(NULL, stdout, NULL));
}

TEST_HARNESS_MAIN
