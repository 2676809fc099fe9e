// SPDX-License-Identifier: MIT
/*
 * test_prepare.c - ttpu_program_prepare() (run_prepare.c): it makes what a
 * program's first run would make from the program alone (the passes list,
 * the replay table, the NpuKit engine's kick groups, the software engine's
 * K-walks), so that the first run makes nothing and costs what the others
 * do; and it changes nothing else. On both engines (the NpuKit engine on
 * the device inside the process, tests/bench-host/standin_device.c):
 * responses byte for byte as without it, a second prepare a no-op, errors
 * that say what is wrong, failing runs failing alike, and prepares racing
 * first runs on several threads (check-runtime-tsan).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "program.h"
#include "rt.h"
#include "../lib/test_timeout.h"

#define DATA "tests/runtime/data/"
#define THREADS 4
#define ROUNDS 8
/* Threads, rounds and three programs on two engines: room for valgrind and TSan. */
#define TIMEOUT 600

enum { TWO_LAYER, MLP, MATMUL, NPROGS };
static const char *const prog_names[NPROGS] = { "two-layer", "mlp", "matmul" };

/* A [@rows, @cols] matrix of ((r * @a + c * @b) mod @m) - @m / 2, as JSON. */
static void put_matrix(struct rt_text *t, int rows, int cols, int a, int b, int m)
{
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			rt_put(t, "%s%d%s", c ? "," : r ? ",[" : "[", (r * a + c * b) % m - m / 2,
			       c == cols - 1 ? "]" : "");
}

/*
 * One layer, tiled as the compiler tiles it: @a [m, 4 tk] by @b into @dst's
 * tm x tn tiles, K innermost, @last added to each tile's last acc. Returns
 * the next pass id.
 */
static uint32_t put_layer(struct rt_text *t, uint32_t id, const char *a, const char *b,
			  const char *dst, uint32_t tm, uint32_t tn, uint32_t tk,
			  const char *last)
{
	for (uint32_t i = 0; i < tm; i++)
		for (uint32_t j = 0; j < tn; j++)
			for (uint32_t s = 0; s < tk; s++, id++)
				rt_put(t, ",{\"op\":\"pass\",\"id\":%u,\"a\":{\"buf\":\"%s\",\"r\":%u,"
				       "\"c\":%u},\"b\":{\"buf\":\"%s\",\"r\":%u,\"c\":%u}},"
				       "{\"op\":\"acc\",\"pass\":%u,\"dst\":{\"buf\":\"%s\",\"r\":%u,"
				       "\"c\":%u}%s}", id, a, 4 * i, 4 * s, b, 4 * s, 4 * j, id, dst, 4 * i,
				       4 * j, s == tk - 1 ? last : "");
	return id;
}

/*
 * An MLP of @m rows, K = 16, a hidden i8 layer of 12 (bias and relu on
 * each tile's last acc: the runner's chains) and an i32 output layer of 8
 * (the engine's chains), tiled as the compiler tiles it. Its weights keep
 * every partial sum of the hidden layer in i8 for inputs within +-2.
 */
static char *mlp_text(uint32_t m)
{
	struct rt_text t = { 0 };
	uint32_t id;

	rt_put(&t, "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"mlp\",\"buffers\":{"
	       "\"X\":{\"dtype\":\"i8\",\"shape\":[%u,16],\"kind\":\"input\"},"
	       "\"W1\":{\"dtype\":\"i8\",\"shape\":[16,12],\"kind\":\"const\",\"data\":[", m);
	put_matrix(&t, 16, 12, 7, 5, 3);
	rt_put(&t, "]},\"b1\":{\"dtype\":\"i32\",\"shape\":[12],\"kind\":\"const\",\"data\":"
	       "[1,-2,3,0,-1,2,-3,1,0,2,-1,1]},"
	       "\"H\":{\"dtype\":\"i8\",\"shape\":[%u,12],\"kind\":\"temp\"},"
	       "\"W2\":{\"dtype\":\"i8\",\"shape\":[12,8],\"kind\":\"const\",\"data\":[", m);
	put_matrix(&t, 12, 8, 3, 11, 7);
	rt_put(&t, "]},\"Y\":{\"dtype\":\"i32\",\"shape\":[%u,8],\"kind\":\"temp\"}},"
	       "\"inputs\":[\"X\"],\"outputs\":[\"H\",\"Y\"],\"commands\":["
	       "{\"op\":\"alloc\",\"buf\":\"H\"}", m);
	id = put_layer(&t, 0, "X", "W1", "H", m / 4, 3, 4, ",\"bias\":\"b1\",\"relu\":true");
	rt_put(&t, ",{\"op\":\"alloc\",\"buf\":\"Y\"}");
	put_layer(&t, id, "H", "W2", "Y", m / 4, 2, 3, "");
	rt_put(&t, "]}");
	return t.s;
}

/* Program @which, freshly loaded, with inputs for it. */
static int load(int which, ttpu_program **prog, ttpu_inputs **in, struct ttpu_error *err)
{
	int ret;

	*in = NULL;
	if (which == TWO_LAYER) {
		ret = ttpu_program_load_file(DATA "two-layer.json", prog, err);
		if (ret)
			return ret;
		*in = ttpu_inputs_new(*prog);
		return *in ? ttpu_inputs_load_file(*in, DATA "two-layer-inputs.json", err) :
			     -TTPU_SYSTEM_ERROR;
	}
	if (which == MLP) {
		int32_t x[16 * 16];
		char *text = mlp_text(16);

		ret = ttpu_program_load_buffer(text, strlen(text), prog, err);
		free(text);
		if (ret)
			return ret;
		for (size_t e = 0; e < 16 * 16; e++)
			x[e] = (int32_t)(e * 7 % 5) - 2;
		*in = ttpu_inputs_new(*prog);
		return *in ? ttpu_inputs_set(*in, "X", x, 16 * 16, err) : -TTPU_SYSTEM_ERROR;
	}
	{
		/* i32 only: every chain the engine's, the NpuKit engine's groups. */
		int32_t a[12 * 20], b[20 * 9];

		ret = ttpu_program_matmul(12, 20, 9, 0, prog, err);
		if (ret)
			return ret;
		for (size_t e = 0; e < 12 * 20; e++)
			a[e] = (int32_t)(e * 37 % 255) - 127;
		for (size_t e = 0; e < 20 * 9; e++)
			b[e] = (int32_t)(e * 91 % 255) - 127;
		*in = ttpu_inputs_new(*prog);
		if (!*in)
			return -TTPU_SYSTEM_ERROR;
		ret = ttpu_inputs_set(*in, "A", a, 12 * 20, err);
		return ret ? ret : ttpu_inputs_set(*in, "B", b, 20 * 9, err);
	}
}

/* A run of @prog on @eng as its response text, or NULL with @err filled. */
static char *run_text(const ttpu_program *prog, ttpu_engine *eng, const ttpu_inputs *in,
		      struct ttpu_error *err)
{
	ttpu_result *res;
	char *text;

	if (ttpu_run(prog, eng, in, &res, err))
		return NULL;
	text = rt_response(res);
	ttpu_result_free(res);
	return text;
}

/* The two engines: the software engine and the NpuKit on the stand-in device. */
static ttpu_engine *engines[2];
static const char *const engine_names[2] = { "software", "npukit" };

static int open_engines(void)
{
	struct ttpu_error err;

	if (!engines[0] && ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &engines[0], &err))
		return -1;
	if (!engines[1] && ttpu_engine_open(TTPU_ENGINE_NPUKIT, "/dev/null", &engines[1], &err))
		return -1;
	return 0;
}

/* What a program keeps, as pointers: made, and the same ones after a run. */
struct kept {
	const void *passes, *table, *groups, *walks;
};

static struct kept kept_of(const ttpu_program *prog)
{
	return (struct kept){ prog->passes_text, prog->replay_table, prog->npukit_groups,
			      prog->sw_walks };
}

/*
 * Every program on every engine: prepared, its first and second runs
 * answer byte for byte as an unprepared program's first run, and neither
 * run makes anything (what the program keeps is what the prepare made).
 */
TEST(prepared_runs_answer_byte_for_byte)
{
	ASSERT_EQ(0, open_engines());
	for (int e = 0; e < 2; e++) {
		for (int p = 0; p < NPROGS; p++) {
			ttpu_program *plain, *prep;
			ttpu_inputs *in_plain, *in_prep;
			struct ttpu_error err;
			struct kept before, after;
			char *want, *first, *second;

			ASSERT_EQ(0, load(p, &plain, &in_plain, &err)) TH_LOG("%s", err.message);
			ASSERT_EQ(0, load(p, &prep, &in_prep, &err)) TH_LOG("%s", err.message);
			want = run_text(plain, engines[e], in_plain, &err);
			ASSERT_NE(NULL, want) TH_LOG("%s", err.message);
			ASSERT_EQ(0, ttpu_program_prepare(prep, engines[e], &err))
				TH_LOG("%s", err.message);
			before = kept_of(prep);
			EXPECT_NE(NULL, before.passes);
			/* two-layer and mlp have i8 layers: the runner's chains */
			EXPECT_EQ((int)(p != MATMUL), (int)(before.table != NULL));
			EXPECT_EQ((int)(e == 1), (int)(before.groups != NULL));
			EXPECT_EQ((int)(e == 0), (int)(before.walks != NULL));
			first = run_text(prep, engines[e], in_prep, &err);
			ASSERT_NE(NULL, first) TH_LOG("%s", err.message);
			second = run_text(prep, engines[e], in_prep, &err);
			ASSERT_NE(NULL, second) TH_LOG("%s", err.message);
			after = kept_of(prep);
			EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)))
				TH_LOG("%s on %s: a run after the prepare made something",
				       prog_names[p], engine_names[e]);
			EXPECT_STREQ(want, first) TH_LOG("%s on %s", prog_names[p], engine_names[e]);
			EXPECT_STREQ(want, second) TH_LOG("%s on %s", prog_names[p], engine_names[e]);
			free(want);
			free(first);
			free(second);
			ttpu_inputs_free(in_plain);
			ttpu_inputs_free(in_prep);
			ttpu_program_free(plain);
			ttpu_program_free(prep);
		}
	}
}

/*
 * A second prepare, on the same engine or another, after a run or before:
 * nothing made again, nothing of the first lost. Without an engine only
 * what every engine's runs share is made.
 */
TEST(prepare_again_changes_nothing)
{
	ttpu_program *prog;
	ttpu_inputs *in;
	struct ttpu_error err;
	struct kept k1, k2;
	char *a, *b;

	ASSERT_EQ(0, open_engines());
	ASSERT_EQ(0, load(MLP, &prog, &in, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_program_prepare(prog, NULL, &err)) TH_LOG("%s", err.message);
	k1 = kept_of(prog);
	EXPECT_NE(NULL, k1.passes);
	EXPECT_NE(NULL, k1.table);
	EXPECT_EQ(NULL, k1.groups);
	EXPECT_EQ(NULL, k1.walks);
	ASSERT_EQ(0, ttpu_program_prepare(prog, engines[1], &err)) TH_LOG("%s", err.message);
	k2 = kept_of(prog);
	EXPECT_EQ(k1.passes, k2.passes);
	EXPECT_EQ(k1.table, k2.table);
	EXPECT_NE(NULL, k2.groups);
	EXPECT_EQ(NULL, k2.walks);
	a = run_text(prog, engines[1], in, &err);
	ASSERT_NE(NULL, a) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_program_prepare(prog, engines[1], NULL));
	ASSERT_EQ(0, ttpu_program_prepare(prog, engines[0], &err)) TH_LOG("%s", err.message);
	k1 = kept_of(prog);
	EXPECT_EQ(k2.passes, k1.passes);
	EXPECT_EQ(k2.table, k1.table);
	EXPECT_EQ(k2.groups, k1.groups);
	EXPECT_NE(NULL, k1.walks);
	ASSERT_EQ(0, ttpu_program_prepare(prog, engines[0], &err)) TH_LOG("%s", err.message);
	k2 = kept_of(prog);
	EXPECT_EQ(0, memcmp(&k1, &k2, sizeof(k1)));
	b = run_text(prog, engines[0], in, &err);
	ASSERT_NE(NULL, b) TH_LOG("%s", err.message);
	/* The response ends naming its engine: all before is the same. */
	ASSERT_NE(NULL, strstr(a, "\"engine\""));
	EXPECT_EQ(strstr(a, "\"engine\"") - a, strstr(b, "\"engine\"") - b);
	EXPECT_EQ(0, strncmp(a, b, (size_t)(strstr(a, "\"engine\"") - a)));
	free(a);
	free(b);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

/*
 * What cannot be prepared says why: no program, or one the library's
 * loaders did not make (no plan). A NULL @err is allowed.
 */
TEST(prepare_errors_say_what_is_wrong)
{
	struct ttpu_program bare;
	struct ttpu_error err;

	ASSERT_EQ(0, open_engines());
	memset(&err, 0, sizeof(err));
	ASSERT_KIND(TTPU_USAGE_ERROR, ttpu_program_prepare(NULL, engines[0], &err), err);
	EXPECT_STREQ("ttpu_program_prepare: no program", err.message);
	EXPECT_EQ(-TTPU_USAGE_ERROR, ttpu_program_prepare(NULL, NULL, NULL));
	memset(&bare, 0, sizeof(bare));
	memset(&err, 0, sizeof(err));
	ASSERT_KIND(TTPU_USAGE_ERROR, ttpu_program_prepare(&bare, engines[1], &err), err);
	EXPECT_NE(NULL, strstr(err.message, "ttpu_program_prepare: the program has no plan"))
		TH_LOG("%s", err.message);
	EXPECT_EQ(NULL, bare.passes_text);
	EXPECT_EQ(-TTPU_USAGE_ERROR, ttpu_program_prepare(&bare, NULL, NULL));
}

/*
 * A program whose runs fail (a RangeError in the runner's i8 chain, an
 * input missing) prepares: the derivations depend on the program alone.
 * Its runs then fail exactly as an unprepared program's do.
 */
TEST(failing_runs_fail_alike)
{
	static const char *const sq = RT_PROG(
		RT_CONST("A", "i8", "[4,4]", "[[127,127,127,127],[127,127,127,127],"
		"[127,127,127,127],[127,127,127,127]]") ","
		RT_BUF("X", "i8", "[4,4]", "input") ","
		RT_BUF("H", "i8", "[4,4]", "temp"),
		"'X'", "'H'",
		"{'op':'alloc','buf':'H'}," RT_PASS(0, "X", 0, 0, "A", 0, 0) ","
		RT_ACC(0, "H", 0, 0));

	ASSERT_EQ(0, open_engines());
	for (int e = 0; e < 2; e++) {
		for (int missing = 0; missing < 2; missing++) {
			ttpu_program *plain, *prep;
			ttpu_inputs *in_plain, *in_prep;
			struct ttpu_error want, got;
			ttpu_result *res = NULL;
			int32_t x[16];

			/* 4 x 127 > 127 at the first acc */
			for (int i = 0; i < 16; i++)
				x[i] = 1;
			ASSERT_EQ(0, rt_load(sq, &plain, &want)) TH_LOG("%s", want.message);
			ASSERT_EQ(0, rt_load(sq, &prep, &got)) TH_LOG("%s", got.message);
			in_plain = ttpu_inputs_new(plain);
			in_prep = ttpu_inputs_new(prep);
			ASSERT_NE(NULL, in_plain);
			ASSERT_NE(NULL, in_prep);
			if (!missing) {
				ASSERT_EQ(0, ttpu_inputs_set(in_plain, "X", x, 16, &want));
				ASSERT_EQ(0, ttpu_inputs_set(in_prep, "X", x, 16, &got));
			}
			ASSERT_EQ(0, ttpu_program_prepare(prep, engines[e], &got))
				TH_LOG("%s", got.message);
			ASSERT_KIND(missing ? TTPU_INPUT_ERROR : TTPU_RANGE_ERROR,
				    ttpu_run(plain, engines[e], in_plain, &res, &want), want);
			ASSERT_EQ(NULL, res);
			ASSERT_KIND(want.kind, ttpu_run(prep, engines[e], in_prep, &res, &got), got);
			ASSERT_EQ(NULL, res);
			EXPECT_STREQ(want.message, got.message);
			EXPECT_EQ(want.command, got.command);
			EXPECT_EQ(want.element, got.element);
			EXPECT_STREQ(want.buffer, got.buffer);
			ttpu_inputs_free(in_plain);
			ttpu_inputs_free(in_prep);
			ttpu_program_free(plain);
			ttpu_program_free(prep);
		}
	}
}

struct job {
	const ttpu_program *prog;
	const ttpu_inputs *in;
	ttpu_engine *eng;
	bool prepare;
	int prepare_ret;
	char *response;
};

static void *job_main(void *arg)
{
	struct job *j = arg;
	struct ttpu_error err;

	if (j->prepare)
		j->prepare_ret = ttpu_program_prepare(j->prog, j->eng, &err);
	j->response = run_text(j->prog, j->eng, j->in, &err);
	return NULL;
}

/*
 * Prepares beside first runs: on a fresh program each round, half the
 * threads prepare before they run, half run at once, on both engines at
 * the same time; every response the unprepared one. Under ThreadSanitizer
 * (check-runtime-tsan), any unsynchronised publication is a race.
 */
TEST_TIMEOUT(prepares_race_first_runs, TIMEOUT)
{
	char *want[2];

	ASSERT_EQ(0, open_engines());
	for (int e = 0; e < 2; e++) {
		ttpu_program *prog;
		ttpu_inputs *in;
		struct ttpu_error err;

		ASSERT_EQ(0, load(MLP, &prog, &in, &err)) TH_LOG("%s", err.message);
		want[e] = run_text(prog, engines[e], in, &err);
		ASSERT_NE(NULL, want[e]) TH_LOG("%s", err.message);
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
	}
	for (int round = 0; round < ROUNDS; round++) {
		struct job jobs[2 * THREADS];
		pthread_t t[2 * THREADS];
		ttpu_program *prog;
		ttpu_inputs *in;
		struct ttpu_error err;

		ASSERT_EQ(0, load(MLP, &prog, &in, &err)) TH_LOG("%s", err.message);
		for (int i = 0; i < 2 * THREADS; i++) {
			jobs[i] = (struct job){ .prog = prog, .in = in, .eng = engines[i % 2],
						.prepare = (i / 2 + round) % 2 };
			ASSERT_EQ(0, pthread_create(&t[i], NULL, job_main, &jobs[i]));
		}
		for (int i = 0; i < 2 * THREADS; i++)
			ASSERT_EQ(0, pthread_join(t[i], NULL));
		for (int i = 0; i < 2 * THREADS; i++) {
			EXPECT_EQ(0, jobs[i].prepare_ret);
			ASSERT_NE(NULL, jobs[i].response);
			EXPECT_STREQ(want[i % 2], jobs[i].response) TH_LOG("round %d, thread %d",
									   round, i);
			free(jobs[i].response);
		}
		ttpu_inputs_free(in);
		ttpu_program_free(prog);
	}
	free(want[0]);
	free(want[1]);
}

TEST_HARNESS_MAIN
