// SPDX-License-Identifier: MIT
/*
 * test_runs.c - one loaded program, many runs: each run starts from the
 * program's original contents (even when it writes its const and input
 * buffers), concurrent runs on one engine do not disturb each other, and a
 * program loaded from a file, a buffer or a json-c object runs the same.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "kselftest_harness.h"
#include "rt.h"

#define DATA "tests/runtime/data/"

/*
 * Writes its const (C += A.I2, I2 = 2I) and its input (V = V + V) every
 * run; a run that saw the previous run's writes would double up.
 */
#define SELF_WRITING RT_PROG( \
	RT_BUF("A", "i8", "[4,4]", "input") "," \
	RT_CONST("I2", "i8", "[4,4]", "[[2,0,0,0],[0,2,0,0],[0,0,2,0],[0,0,0,2]]") "," \
	RT_CONST("C", "i32", "[2,2]", "[[100,200],[300,400]]") "," \
	RT_BUF("V", "i32", "[3]", "input"), \
	"'A','V'", "'C','V','A'", \
	RT_PASS(0, "A", 0, 0, "I2", 0, 0) "," RT_ACC(0, "C", 0, 0) "," \
	"{'op':'host_add','dst':'V','a':'V','b':'V'}," \
	"{'op':'host_relu','dst':'A','src':'A'}")

TEST(many_runs_start_from_original_contents)
{
	struct ttpu_error err;
	ttpu_program *prog;

	ASSERT_EQ(0, rt_load(SELF_WRITING, &prog, &err)) TH_LOG("%s", err.message);
	for (int i = 0; i < 50; i++) {
		int32_t a[16], v[3] = { i, -i, 1000 * i }, c[4], v2[3], ar[16];
		ttpu_inputs *in = ttpu_inputs_new(prog);
		ttpu_result *res;
		size_t n;

		ASSERT_NE(NULL, in);
		for (int k = 0; k < 16; k++) {
			a[k] = (k * 7 + i * 13) % 101 - 50;
			ar[k] = a[k] > 0 ? a[k] : 0;
		}
		c[0] = 100 + 2 * a[0];
		c[1] = 200 + 2 * a[1];
		c[2] = 300 + 2 * a[4];
		c[3] = 400 + 2 * a[5];
		for (int k = 0; k < 3; k++)
			v2[k] = 2 * v[k];
		ASSERT_EQ(0, ttpu_inputs_set(in, "A", a, 16, &err)) TH_LOG("%s", err.message);
		ASSERT_EQ(0, ttpu_inputs_set(in, "V", v, 3, &err)) TH_LOG("%s", err.message);
		ASSERT_EQ(0, ttpu_run(prog, rt_engine(), in, &res, &err))
			TH_LOG("run %d: %s", i, err.message);
		ASSERT_EQ(0, memcmp(c, ttpu_result_output(res, "C", &n), sizeof(c))) TH_LOG("run %d", i);
		ASSERT_EQ(4, n);
		ASSERT_EQ(0, memcmp(v2, ttpu_result_output(res, "V", &n), sizeof(v2))) TH_LOG("run %d", i);
		ASSERT_EQ(0, memcmp(ar, ttpu_result_output(res, "A", &n), sizeof(ar))) TH_LOG("run %d", i);
		/* the caller's values are the caller's: a run must not write them */
		ASSERT_EQ(i, v[0]);
		ttpu_result_free(res);
		/* one inputs object, run twice: the same answer */
		ASSERT_EQ(0, ttpu_run(prog, rt_engine(), in, &res, &err)) TH_LOG("%s", err.message);
		ASSERT_EQ(0, memcmp(v2, ttpu_result_output(res, "V", &n), sizeof(v2)));
		ASSERT_EQ(0, memcmp(c, ttpu_result_output(res, "C", &n), sizeof(c)));
		ttpu_result_free(res);
		ttpu_inputs_free(in);
	}
	ttpu_program_free(prog);
}

/* A result outlives the next runs and the program's other results. */
TEST(results_are_independent)
{
	struct ttpu_error err;
	ttpu_program *prog;
	ttpu_result *r1, *r2;

	ASSERT_EQ(0, rt_load(SELF_WRITING, &prog, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, rt_run(prog, "{'A':[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],'V':[1,2,3]}",
			    &r1, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, rt_run(prog, "{'A':[[5,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],'V':[7,8,9]}",
			    &r2, &err)) TH_LOG("%s", err.message);
	ASSERT_OUTPUT(r1, "C", 102, 200, 300, 400);
	ASSERT_OUTPUT(r1, "V", 2, 4, 6);
	ASSERT_OUTPUT(r2, "C", 110, 200, 300, 400);
	ttpu_result_free(r2);
	ttpu_result_free(r1);
	ttpu_program_free(prog);
}

/*
 * The concurrency program: out = relu(A . W + b), A [9,13] input, W [13,10]
 * const, tiled with K-chains, the epilogue on each chain's last acc.
 */
enum { M = 9, K = 13, N = 10, THREADS = 4, RUNS = 25 };

static int8_t w_data[K][N];
static int32_t b_data[N];

static char *tiled_program(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int id = 0;

	fprintf(f, "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"mt\",\"buffers\":{"
		"\"A\":{\"dtype\":\"i8\",\"shape\":[%d,%d],\"kind\":\"input\"},"
		"\"O\":{\"dtype\":\"i32\",\"shape\":[%d,%d],\"kind\":\"temp\"},"
		"\"W\":{\"dtype\":\"i8\",\"shape\":[%d,%d],\"kind\":\"const\",\"data\":[", M, K, M, N, K, N);
	for (int k = 0; k < K; k++) {
		fprintf(f, "%s[", k ? "," : "");
		for (int n = 0; n < N; n++) {
			w_data[k][n] = (int8_t)((k * 31 + n * 17) % 255 - 127);
			fprintf(f, "%s%d", n ? "," : "", w_data[k][n]);
		}
		fprintf(f, "]");
	}
	fprintf(f, "]},\"b\":{\"dtype\":\"i32\",\"shape\":[%d],\"kind\":\"const\",\"data\":[", N);
	for (int n = 0; n < N; n++) {
		b_data[n] = (n - 5) * 1000;
		fprintf(f, "%s%d", n ? "," : "", b_data[n]);
	}
	fprintf(f, "]}},\"inputs\":[\"A\"],\"outputs\":[\"O\"],\"commands\":[");
	for (int i = 0; i < M; i += 4) {
		for (int j = 0; j < N; j += 4) {
			for (int k = 0; k < K; k += 4, id++) {
				fprintf(f, "%s{\"op\":\"pass\",\"id\":%d,\"a\":{\"buf\":\"A\",\"r\":%d,\"c\":%d},"
					"\"b\":{\"buf\":\"W\",\"r\":%d,\"c\":%d}},", id ? "," : "",
					id, i, k, k, j);
				fprintf(f, "{\"op\":\"acc\",\"pass\":%d,\"dst\":{\"buf\":\"O\",\"r\":%d,\"c\":%d}%s}",
					id, i, j, k + 4 >= K ? ",\"bias\":\"b\",\"relu\":true" : "");
			}
		}
	}
	fprintf(f, "]}");
	fclose(f);
	return text;
}

static void reference(const int32_t *a, int32_t *out)
{
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++) {
			int64_t s = b_data[j];

			for (int k = 0; k < K; k++)
				s += (int64_t)a[i * K + k] * w_data[k][j];
			out[i * N + j] = s > 0 ? (int32_t)s : 0;
		}
	}
}

struct worker {
	const ttpu_program *prog;
	ttpu_engine *eng;
	unsigned int seed;
	int failures;
	char why[TTPU_ERROR_MESSAGE_MAX + 32];
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct ttpu_error err;

	for (int r = 0; r < RUNS; r++) {
		int32_t a[M * K], exp[M * N];
		ttpu_inputs *in = ttpu_inputs_new(w->prog);
		ttpu_result *res = NULL;
		const int32_t *got;
		size_t n = 0;

		for (int e = 0; e < M * K; e++)
			a[e] = (int32_t)(rand_r(&w->seed) % 256) - 128;
		reference(a, exp);
		if (!in || ttpu_inputs_set(in, "A", a, M * K, &err) ||
		    ttpu_run(w->prog, w->eng, in, &res, &err)) {
			snprintf(w->why, sizeof(w->why), "run %d: %s", r, in ? err.message : "no inputs");
			w->failures++;
		} else {
			got = ttpu_result_output(res, "O", &n);
			if (!got || n != M * N || memcmp(got, exp, sizeof(exp))) {
				snprintf(w->why, sizeof(w->why), "run %d: wrong output", r);
				w->failures++;
			}
		}
		ttpu_result_free(res);
		ttpu_inputs_free(in);
	}
	return NULL;
}

FIXTURE(concurrent_runs) {
	ttpu_program *prog;
};

/* One program shared by every thread; the engine shared too, or one each. */
FIXTURE_VARIANT(concurrent_runs) {
	bool engine_per_thread;
	unsigned int seed, seed_step;	/* thread t's inputs: seed + t * seed_step */
};

FIXTURE_VARIANT_ADD(concurrent_runs, one_program_one_engine) {
	.engine_per_thread = false, .seed = 1234, .seed_step = 1,
};

/* Engines are independent too: one per thread, one program. */
FIXTURE_VARIANT_ADD(concurrent_runs, engine_per_thread) {
	.engine_per_thread = true, .seed = 0, .seed_step = 99,
};

FIXTURE_SETUP(concurrent_runs)
{
	struct ttpu_error err;
	char *text = tiled_program();

	ASSERT_EQ(0, ttpu_program_load_buffer(text, strlen(text), &self->prog, &err))
		TH_LOG("%s", err.message);
	free(text);
}

FIXTURE_TEARDOWN(concurrent_runs)
{
	ttpu_program_free(self->prog);
}

TEST_F(concurrent_runs, agree)
{
	struct worker w[THREADS];
	pthread_t th[THREADS];
	struct ttpu_error err;

	for (int t = 0; t < THREADS; t++) {
		w[t] = (struct worker){ .prog = self->prog, .eng = rt_engine(),
					.seed = variant->seed + (unsigned int)t * variant->seed_step };
		if (variant->engine_per_thread) {
			ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &w[t].eng, &err));
			ASSERT_STREQ("software", ttpu_engine_name(w[t].eng));
		}
		ASSERT_EQ(0, pthread_create(&th[t], NULL, worker_main, &w[t]));
	}
	for (int t = 0; t < THREADS; t++) {
		ASSERT_EQ(0, pthread_join(th[t], NULL));
	}
	for (int t = 0; t < THREADS; t++) {
		ASSERT_EQ(0, w[t].failures) TH_LOG("thread %d: %s", t, w[t].why);
		if (variant->engine_per_thread)
			ttpu_engine_close(w[t].eng);
	}
}

/* two-layer.json: layer 2 reads H, which layer 1's accs wrote */
static const int32_t two_layer_h[] = { 7, 0, 3, 8, 0, 0, 9, 3, 0, 11 };
static const int32_t two_layer_y[] = { -1, 10, 13, 29, 20, 17 };

static void run_two_layer(struct __test_metadata *_metadata, const ttpu_program *prog)
{
	struct ttpu_error err;
	ttpu_inputs *in = ttpu_inputs_new(prog);
	ttpu_result *res;
	char why[256];

	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, ttpu_inputs_load_file(in, DATA "two-layer-inputs.json", &err))
		TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_run(prog, rt_engine(), in, &res, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(-1, rt_cmp(res, "H", two_layer_h, RT_N(two_layer_h), why, sizeof(why)))
		TH_LOG("%s", why);
	ASSERT_EQ(-1, rt_cmp(res, "Y", two_layer_y, RT_N(two_layer_y), why, sizeof(why)))
		TH_LOG("%s", why);
	ASSERT_EQ(6, ttpu_result_stats(res)->passes);
	ttpu_result_free(res);
	ttpu_inputs_free(in);
}

TEST(load_from_file)
{
	struct ttpu_error err;
	ttpu_program *prog;

	ASSERT_EQ(0, ttpu_program_load_file(DATA "two-layer.json", &prog, &err))
		TH_LOG("%s", err.message);
	ASSERT_STREQ("two-layer", ttpu_program_name(prog));
	run_two_layer(_metadata, prog);
	ttpu_program_free(prog);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

TEST(load_from_buffer_not_nul_terminated)
{
	struct ttpu_error err;
	ttpu_program *prog;
	size_t len;
	char *text = slurp(DATA "two-layer.json", &len);

	ASSERT_NE(NULL, text);
	/* garbage after len must not be read: it would be trailing data */
	text[len] = 'x';
	ASSERT_EQ(0, ttpu_program_load_buffer(text, len, &prog, &err)) TH_LOG("%s", err.message);
	free(text);
	run_two_layer(_metadata, prog);
	ttpu_program_free(prog);
}

TEST(load_from_json_object)
{
	struct ttpu_error err;
	ttpu_program *prog;
	struct json_object *obj = json_object_from_file(DATA "two-layer.json");

	ASSERT_NE(NULL, obj);
	ASSERT_EQ(0, ttpu_program_load_json(obj, &prog, &err)) TH_LOG("%s", err.message);
	/* the program keeps nothing of the object */
	json_object_put(obj);
	run_two_layer(_metadata, prog);
	ttpu_program_free(prog);
}

TEST(load_json_object_rejects_like_text)
{
	struct ttpu_error err;
	ttpu_program *prog;
	char *json = rt_dq(RT_PROG(RT_BUF("A", "i8", "[4,0]", "temp"), "", "", ""));
	struct json_object *obj = json_tokener_parse(json);
	int rc;

	free(json);
	ASSERT_NE(NULL, obj);
	rc = ttpu_program_load_json(obj, &prog, &err);
	json_object_put(obj);
	ASSERT_ERROR_AT(TTPU_SCHEMA_ERROR, rc, err, "buffers.A.shape*", -1, "", "A");
	ASSERT_EQ(NULL, prog);
}

TEST_HARNESS_MAIN
