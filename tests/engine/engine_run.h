/* SPDX-License-Identifier: MIT */
/*
 * engine_run.h - what the engine suites share: requests run through the
 * library on one engine or another, and their responses compared. The
 * device under test and its knobs are tests/lib/npukit_dev.h's, ttpu-run
 * runs tests/lib/proc_run.h's.
 *
 * Environment:
 *   TTPU_TEST_DATA  generated *.request.json (default ENGINE_TEST_DATA)
 */
#ifndef ENGINE_RUN_H
#define ENGINE_RUN_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "ttpu-run.h"
#include "../lib/npukit_dev.h"
#include "../lib/npukit_need.h"
#include "../lib/proc_run.h"
#include "../lib/test_util.h"

#ifndef ENGINE_TEST_DATA
#define ENGINE_TEST_DATA "build/engine-data"
#endif

static inline const char *eng_test_data(void)
{
	const char *p = getenv("TTPU_TEST_DATA");

	return p && *p ? p : ENGINE_TEST_DATA;
}

/* ---- requests through the library ------------------------------------- */

/* A loaded request: the program and its inputs. */
struct eng_req {
	ttpu_program *prog;
	ttpu_inputs *in;
};

static inline void eng_req_free(struct eng_req *r)
{
	ttpu_inputs_free(r->in);
	ttpu_program_free(r->prog);
	memset(r, 0, sizeof(*r));
}

/* Load {"program", "inputs"}; 0 or a negative error kind with @err. */
static inline int eng_req_load(const char *text, struct eng_req *r,
			       struct ttpu_error *err)
{
	struct json_object *doc, *p, *i;
	const char *itext;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(err, 0, sizeof(*err));
	doc = json_tokener_parse(text);
	if (!doc || !json_object_object_get_ex(doc, "program", &p) ||
	    !json_object_object_get_ex(doc, "inputs", &i)) {
		json_object_put(doc);
		snprintf(err->message, sizeof(err->message), "not a request object");
		return -TTPU_USAGE_ERROR;
	}
	ret = ttpu_program_load_json(p, &r->prog, err);
	if (!ret) {
		r->in = ttpu_inputs_new(r->prog);
		itext = json_object_to_json_string_ext(i, JSON_C_TO_STRING_PLAIN);
		ret = r->in ? ttpu_inputs_parse(r->in, itext, strlen(itext), err) :
			      -TTPU_SYSTEM_ERROR;
	}
	json_object_put(doc);
	if (ret)
		eng_req_free(r);
	return ret;
}

/* What one engine made of a request. */
struct eng_outcome {
	int ret;			/* 0 or a negative error kind */
	struct ttpu_error err;
	char *response;			/* the response JSON text when ret == 0 */
	struct ttpu_run_stats stats;
	char engine[16];
};

static inline void eng_outcome_free(struct eng_outcome *o)
{
	free(o->response);
	o->response = NULL;
}

static inline void eng_run_on(const struct eng_req *r, ttpu_engine *eng,
			      struct eng_outcome *o)
{
	ttpu_result *res = NULL;
	size_t len;
	FILE *f;

	memset(o, 0, sizeof(*o));
	snprintf(o->engine, sizeof(o->engine), "%s", ttpu_engine_name(eng));
	o->ret = ttpu_run(r->prog, eng, r->in, &res, &o->err);
	if (o->ret)
		return;
	o->stats = *ttpu_result_stats(res);
	f = open_memstream(&o->response, &len);
	if (!f || ttpu_result_write_json(res, f, 1, &o->err))
		o->ret = -TTPU_SYSTEM_ERROR;
	if (f)
		fclose(f);
	ttpu_result_free(res);
}

/* Run on a freshly opened engine of @choice on the device under test. */
static inline void eng_run(const struct eng_req *r, enum ttpu_engine_choice choice,
			   struct eng_outcome *o)
{
	ttpu_engine *eng = NULL;

	memset(o, 0, sizeof(*o));
	o->ret = ttpu_engine_open(choice, choice == TTPU_ENGINE_SOFTWARE ? NULL : npu_device_path(),
				  &eng, &o->err);
	if (o->ret)
		return;
	eng_run_on(r, eng, o);
	ttpu_engine_close(eng);
}

/*
 * The keys every engine must agree on, compared as JSON values: 1 when
 * equal, else 0 with the first differing key in @why.
 */
static inline int eng_same_response(const char *x, const char *y, char *why, size_t whylen)
{
	static const char *const keys[] = { "outputs", "passes", "totalCycles", "hostOps" };
	struct json_object *jx = json_tokener_parse(x), *jy = json_tokener_parse(y);
	int same = jx && jy;

	if (!same)
		snprintf(why, whylen, "a response is not JSON");
	for (size_t k = 0; same && k < sizeof(keys) / sizeof(keys[0]); k++) {
		struct json_object *vx = NULL, *vy = NULL;

		json_object_object_get_ex(jx, keys[k], &vx);
		json_object_object_get_ex(jy, keys[k], &vy);
		if (!vx || !vy || !json_object_equal(vx, vy)) {
			snprintf(why, whylen, "responses differ in \"%s\"", keys[k]);
			same = 0;
		}
	}
	json_object_put(jx);
	json_object_put(jy);
	return same;
}

/* The string at "a.b.c" in @obj, or NULL. */
static inline const char *eng_json_str(struct json_object *obj, const char *path)
{
	obj = test_json_get(obj, path);
	return obj ? json_object_get_string(obj) : NULL;
}

/*
 * In a test body: SKIP without the device node (FAIL under
 * NPUKIT_REQUIRE_DEVICE). The harness of Debian's 6.1 source still runs a
 * test's body after its fixture setup SKIPped, so the check is the body's.
 */
#define NEED_DEVICE() NPU_NEED_DEVICE()

#endif /* ENGINE_RUN_H */
