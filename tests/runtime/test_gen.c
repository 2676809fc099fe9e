// SPDX-License-Identifier: MIT
/*
 * test_gen.c - compiler-like programs from tests/gen/ttpu_gen.py, run
 * through the library API, against the generator's expected responses
 * (computed on whole matrices, never from the tiles): outputs, passes in
 * order, totalCycles and hostOps, or the exact RangeError. Each program is
 * also run by the direct executor and loaded from a buffer and from a
 * json-c object, and run on two threads (TTPU_RUN_THREADS=2), which must
 * all answer the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kselftest_harness.h"
#include "run_direct.h"
#include "rt.h"

#define GEN "tests/gen/ttpu_gen.py"

FIXTURE(gen) {
	char dir[64];
	char prog[96], inputs[96], expected[96];
	struct json_object *exp;
};

FIXTURE_VARIANT(gen) {
	const char *args;
};

FIXTURE_VARIANT_ADD(gen, one_tile) { .args = "mlp --batch 4 --dims 4,4 --bias 0 --relu 0" };
FIXTURE_VARIANT_ADD(gen, k_is_1) { .args = "mlp --batch 5 --dims 1,6,3 --seed 21" };
FIXTURE_VARIANT_ADD(gen, batch_1) { .args = "mlp --batch 1 --dims 9,5 --seed 22" };
FIXTURE_VARIANT_ADD(gen, fused_input) { .args = "mlp --batch 3 --dims 10,7,6 --seed 23" };
FIXTURE_VARIANT_ADD(gen, host_epilogue_narrow) {
	.args = "mlp --batch 6 --dims 14,9,7 --epilogue host --chain narrow --seed 24" };
FIXTURE_VARIANT_ADD(gen, fused_narrow) {
	.args = "mlp --batch 2 --dims 17,12,5 --chain narrow --bias 1,0 --relu 1,1 --seed 25" };
FIXTURE_VARIANT_ADD(gen, skip_zero) {
	.args = "mlp --batch 7 --dims 24,18 --skip-zero --zero-blocks 0.5 --seed 26" };
FIXTURE_VARIANT_ADD(gen, deep) {
	.args = "mlp --batch 9 --dims 29,22,13,8,3 --bias 1,0,1,0 --relu 0,1,1,0 --seed 27" };
FIXTURE_VARIANT_ADD(gen, range_acc) { .args = "range --variant acc --batch 5 --dims 12,9 --seed 31" };
FIXTURE_VARIANT_ADD(gen, range_bias) { .args = "range --variant bias --batch 4 --dims 9,13 --seed 32" };
FIXTURE_VARIANT_ADD(gen, range_epilogue) {
	.args = "range --variant epilogue --batch 1 --dims 6,11 --seed 33" };
FIXTURE_VARIANT_ADD(gen, range_host_add) {
	.args = "range --variant host_add --batch 2 --dims 10,7 --seed 34" };
FIXTURE_VARIANT_ADD(gen, range_host_relu) {
	.args = "range --variant host_relu --batch 6 --dims 12,6 --seed 35" };

FIXTURE_SETUP(gen)
{
	char cmd[1024];

	strcpy(self->dir, "/tmp/ttpu-rt-gen-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->prog, sizeof(self->prog), "%s/p.json", self->dir);
	snprintf(self->inputs, sizeof(self->inputs), "%s/i.json", self->dir);
	snprintf(self->expected, sizeof(self->expected), "%s/e.json", self->dir);
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 " GEN " %s --name gen --program %s "
		 "--inputs %s --expected %s", variant->args, self->prog, self->inputs,
		 self->expected);
	ASSERT_EQ(0, system(cmd)) TH_LOG("%s", cmd);
	self->exp = json_object_from_file(self->expected);
	ASSERT_NE(NULL, self->exp);
}

FIXTURE_TEARDOWN(gen)
{
	json_object_put(self->exp);
	unlink(self->prog);
	unlink(self->inputs);
	unlink(self->expected);
	rmdir(self->dir);
}

/* Append the integers of nested list @v to @out (capacity @cap). */
static size_t flatten(struct json_object *v, int32_t *out, size_t n, size_t cap)
{
	if (json_object_is_type(v, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(v); i++)
			n = flatten(json_object_array_get_idx(v, i), out, n, cap);
	} else if (n < cap) {
		out[n++] = json_object_get_int(v);
	}
	return n;
}

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

/* The expected outputs, passes, totalCycles and hostOps against @res. */
static int check_response(struct __test_metadata *_metadata, struct json_object *exp,
			  const ttpu_result *res)
{
	struct json_object *resp;
	struct ttpu_error err;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ok = 1;

	json_object_object_foreach(get(exp, "outputs"), name, out) {
		size_t cap = 1 << 16, n, got_n = 0;
		int32_t *want = malloc(cap * sizeof(*want));
		const int32_t *got = ttpu_result_output(res, name, &got_n);

		n = flatten(get(out, "data"), want, 0, cap);
		if (!got || got_n != n || memcmp(got, want, n * sizeof(*want))) {
			TH_LOG("output %s differs from the generator's", name);
			ok = 0;
		}
		free(want);
	}
	if (ttpu_result_write_json(res, f, 0, &err)) {
		TH_LOG("write_json: %s", err.message);
		ok = 0;
	}
	fclose(f);
	resp = json_tokener_parse(text);
	free(text);
	if (!resp) {
		TH_LOG("response is not JSON");
		return 0;
	}
	for (const char *const *k = (const char *const[]){ "passes", "totalCycles", "hostOps", NULL };
	     *k; k++) {
		if (!json_object_equal(get(exp, *k), get(resp, *k))) {
			TH_LOG("%s: expected %s, got %s", *k, json_object_to_json_string(get(exp, *k)),
			       json_object_to_json_string(get(resp, *k)));
			ok = 0;
		}
	}
	json_object_put(resp);
	return ok;
}

static int check_error(struct __test_metadata *_metadata, struct json_object *want,
		       int rc, const struct ttpu_error *err)
{
	const char *kind = json_object_get_string(get(want, "kind"));

	if (rc == 0 || strcmp(kind, ttpu_error_kind_name(err->kind)) ||
	    err->command != json_object_get_int64(get(want, "command")) ||
	    strcmp(err->op, json_object_get_string(get(want, "op"))) ||
	    strcmp(err->buffer, json_object_get_string(get(want, "buffer"))) ||
	    err->element != json_object_get_int64(get(want, "element")) ||
	    err->row != json_object_get_int64(get(want, "row")) ||
	    err->col != json_object_get_int64(get(want, "col"))) {
		TH_LOG("expected %s, got rc %d: %s", json_object_to_json_string(want), rc,
		       rc ? err->message : "success");
		return 0;
	}
	return 1;
}

static int check_run(struct __test_metadata *_metadata, FIXTURE_DATA(gen) *self,
		     const ttpu_program *prog, int direct)
{
	struct json_object *want_err = get(self->exp, "error");
	ttpu_inputs *in = ttpu_inputs_new(prog);
	struct ttpu_error err;
	ttpu_result *res = NULL;
	int rc, ok;

	if (!in || ttpu_inputs_load_file(in, self->inputs, &err)) {
		TH_LOG("inputs: %s", in ? err.message : "no memory");
		ttpu_inputs_free(in);
		return 0;
	}
	rc = direct ? ttpu_run_direct(prog, in, &res, &err)
		    : ttpu_run(prog, rt_engine(), in, &res, &err);
	if (want_err)
		ok = check_error(_metadata, want_err, rc, &err) && !res;
	else if (rc) {
		TH_LOG("run failed: %s", err.message);
		ok = 0;
	} else
		ok = check_response(_metadata, self->exp, res);
	ttpu_result_free(res);
	ttpu_inputs_free(in);
	return ok;
}

TEST_F(gen, from_file_planned)
{
	struct ttpu_error err;
	ttpu_program *prog;

	ASSERT_EQ(0, ttpu_program_load_file(self->prog, &prog, &err)) TH_LOG("%s", err.message);
	ASSERT_STREQ("gen", ttpu_program_name(prog));
	ASSERT_TRUE(check_run(_metadata, self, prog, 0));
	ttpu_program_free(prog);
}

/* Every stage with host chains on two threads (run.c), the same answers. */
TEST_F(gen, from_file_two_threads)
{
	struct ttpu_error err;
	ttpu_program *prog;
	int ok;

	ASSERT_EQ(0, ttpu_program_load_file(self->prog, &prog, &err)) TH_LOG("%s", err.message);
	setenv("TTPU_RUN_THREADS", "2", 1);
	ok = check_run(_metadata, self, prog, 0);
	unsetenv("TTPU_RUN_THREADS");
	ASSERT_TRUE(ok);
	ttpu_program_free(prog);
}

TEST_F(gen, from_file_direct)
{
	struct ttpu_error err;
	ttpu_program *prog;

	ASSERT_EQ(0, ttpu_program_load_file(self->prog, &prog, &err)) TH_LOG("%s", err.message);
	ASSERT_TRUE(check_run(_metadata, self, prog, 1));
	ttpu_program_free(prog);
}

TEST_F(gen, from_buffer_and_json_object)
{
	struct json_object *obj = json_object_from_file(self->prog);
	const char *text;
	struct ttpu_error err;
	ttpu_program *prog;

	ASSERT_NE(NULL, obj);
	ASSERT_EQ(0, ttpu_program_load_json(obj, &prog, &err)) TH_LOG("%s", err.message);
	ASSERT_TRUE(check_run(_metadata, self, prog, 0));
	ttpu_program_free(prog);
	text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY);
	ASSERT_EQ(0, ttpu_program_load_buffer(text, strlen(text), &prog, &err))
		TH_LOG("%s", err.message);
	json_object_put(obj);
	ASSERT_TRUE(check_run(_metadata, self, prog, 0));
	ttpu_program_free(prog);
}

TEST_HARNESS_MAIN
