// SPDX-License-Identifier: MIT
/*
 * test_response.c - the response's numbers, written as printf writes them
 *
 * response.c formats integers itself, two digits at a time, and makes each
 * pass record in place. Here the edge values of i32 and i8 outputs (the
 * limits, 0, -1, every power of ten and its neighbours) and of pass ids
 * (0 up to the largest) must come out exactly as "%d" and "%lld" write
 * them, in a response compared byte for byte. Issue 29: the passes list's
 * forms (ttpu_result_write_json_passes()).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "rt.h"

/* Append to @buf (of @cap bytes, @*n used) or abort. */
static void put(char *buf, size_t cap, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(buf + *n, cap - *n, fmt, ap);
	va_end(ap);

	if (k < 0 || (size_t)k >= cap - *n)
		abort();
	*n += (size_t)k;
}

/* INT32_MIN, INT32_MAX, 0, -1, and ±(10^k - 1, 10^k, 10^k + 1): 62 values. */
static size_t edge_values(int32_t *v)
{
	size_t n = 0;
	long long p;

	v[n++] = INT32_MIN;
	v[n++] = INT32_MAX;
	v[n++] = 0;
	v[n++] = -1;
	for (p = 1; p <= 1000000000; p *= 10) {
		for (long long d = -1; d <= 1; d++) {
			if (p + d > 0 && p + d <= INT32_MAX) {
				v[n++] = (int32_t)(p + d);
				v[n++] = (int32_t)-(p + d);
			}
		}
	}
	return n;
}

TEST(i32_and_i8_edges)
{
	int32_t v[2 * 80], x[256];
	size_t n = edge_values(v), len = 0, got_len;
	char inputs[4096], want[8192], *got, *text;
	struct ttpu_error err;
	ttpu_program *prog;
	ttpu_inputs *in;
	ttpu_result *res;
	FILE *f;

	for (int i = 0; i < 256; i++)
		x[i] = i - 128;
	snprintf(inputs, sizeof(inputs),
		 "{'format':'ttpu','version':1,'tile':4,'name':'t','buffers':{"
		 "'V':{'dtype':'i32','shape':[%zu],'kind':'input'},"
		 "'W':{'dtype':'i32','shape':[2,%zu],'kind':'input'},"
		 "'X':{'dtype':'i8','shape':[2,128],'kind':'input'}},"
		 "'inputs':['V','W','X'],'outputs':['V','W','X'],'commands':[]}", n, n);
	ASSERT_EQ(0, rt_load(inputs, &prog, &err)) TH_LOG("%s", err.message);
	in = ttpu_inputs_new(prog);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(0, ttpu_inputs_set(in, "V", v, n, &err)) TH_LOG("%s", err.message);
	memcpy(v + n, v, n * sizeof(*v));
	ASSERT_EQ(0, ttpu_inputs_set(in, "W", v, 2 * n, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_inputs_set(in, "X", x, 256, &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_run(prog, rt_engine(), in, &res, &err)) TH_LOG("%s", err.message);

	/* What printf writes. */
	put(want, sizeof(want), &len, "{\"outputs\": {\"V\": {\"shape\": [%zu], \"data\": [", n);
	for (size_t i = 0; i < n; i++)
		put(want, sizeof(want), &len, i ? ", %d" : "%d", v[i]);
	put(want, sizeof(want), &len, "]}, \"W\": {\"shape\": [2, %zu], \"data\": [", n);
	for (size_t r = 0; r < 2; r++) {
		put(want, sizeof(want), &len, r ? ", [%d" : "[%d", v[0]);
		for (size_t i = 1; i < n; i++)
			put(want, sizeof(want), &len, ", %d", v[i]);
		put(want, sizeof(want), &len, "]");
	}
	put(want, sizeof(want), &len, "]}, \"X\": {\"shape\": [2, 128], \"data\": [[");
	for (int i = 0; i < 256; i++)
		put(want, sizeof(want), &len, i == 128 ? "], [%d" : i ? ", %d" : "%d", x[i]);
	put(want, sizeof(want), &len, "]]}}, \"passes\": [], ");

	f = open_memstream(&got, &got_len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ttpu_result_write_json(res, f, 0, &err));
	fclose(f);
	text = strndup(got, len);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ(want, text);
	free(text);
	free(got);
	ttpu_result_free(res);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
}

/* Pass ids of every length, 0 to the largest a program may give. */
static const long long edge_ids[] = {
	0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65535, 99999, 100000, 1234567,
	2147483647, 2147483648, 4294967296, 999999999999999999,
	1000000000000000000, 9223372036854775806, 9223372036854775807,
};

/* A program of one pass per id of @ids, run; its result. */
static int run_ids(const long long *ids, size_t nid, ttpu_result **res, struct ttpu_error *err)
{
	static char prog_text[8192];
	size_t plen = 0;

	put(prog_text, sizeof(prog_text), &plen,
	    "{'format':'ttpu','version':1,'tile':4,'name':'t','buffers':{"
	    "'A':{'dtype':'i8','shape':[4,4],'kind':'input'},"
	    "'C':{'dtype':'i32','shape':[4,4],'kind':'temp'}},"
	    "'inputs':['A'],'outputs':['C'],'commands':[{'op':'alloc','buf':'C'}");
	for (size_t i = 0; i < nid; i++) {
		put(prog_text, sizeof(prog_text), &plen,
		    ",{'op':'pass','id':%lld,'a':{'buf':'A','r':0,'c':0},"
		    "'b':{'buf':'A','r':0,'c':0}}", ids[i]);
		put(prog_text, sizeof(prog_text), &plen,
		    ",{'op':'acc','pass':%lld,'dst':{'buf':'C','r':0,'c':0}}", ids[i]);
	}
	put(prog_text, sizeof(prog_text), &plen, "]}");
	return rt_load_run(prog_text, "{'A':[[1,2,3,4],[5,6,7,8],[0,0,0,0],[-1,-2,-3,-4]]}",
			   res, err);
}

TEST(pass_id_edges)
{
	const long long *ids = edge_ids;
	size_t nid = sizeof(edge_ids) / sizeof(edge_ids[0]), len = 0, got_len;
	char want[4096], *got, *at;
	struct ttpu_error err;
	ttpu_result *res;
	FILE *f;

	ASSERT_EQ(0, run_ids(ids, nid, &res, &err)) TH_LOG("%s", err.message);

	put(want, sizeof(want), &len, "\"passes\": [");
	for (size_t i = 0; i < nid; i++)
		put(want, sizeof(want), &len, i ? ", {\"id\": %lld, \"cycles\": 15}" :
		    "{\"id\": %lld, \"cycles\": 15}", ids[i]);
	put(want, sizeof(want), &len, "], ");

	f = open_memstream(&got, &got_len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, ttpu_result_write_json(res, f, 0, &err));
	fclose(f);
	at = strstr(got, "\"passes\": [");
	ASSERT_NE(NULL, at) TH_LOG("%s", got);
	EXPECT_EQ(0, strncmp(want, at, len)) TH_LOG("want %s\ngot %.*s", want, (int)len, at);
	free(got);
	ttpu_result_free(res);
}

/*
 * @res written with @form (or by ttpu_result_write_json() when @form < 0).
 * Not inlined: GCC takes open_memstream()'s pointers for dangling ones.
 */
__attribute__((noinline)) static char *written(ttpu_result *res, int form, int *ret)
{
	struct ttpu_error err;
	size_t len;
	char *text;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	*ret = form < 0 ? ttpu_result_write_json(res, f, 1, &err) :
	       ttpu_result_write_json_passes(res, f, 1, (enum ttpu_passes_form)form, &err);
	fclose(f);
	return text;
}

/*
 * Issue 29: TTPU_PASSES_FULL is ttpu_result_write_json() byte for byte;
 * SUMMARY and NONE differ from it in "passes" alone, the summary's ids
 * at their edges as "%lld" writes them; a value that is no form writes
 * nothing and is a UsageError; names and parse agree.
 */
TEST(passes_forms)
{
	static const long long ids[] = { 9223372036854775807, 5, 17, 0 };
	struct { const long long *ids; size_t n; const char *summary; } cases[] = {
		{ edge_ids, sizeof(edge_ids) / sizeof(edge_ids[0]),
		  "\"passes\": {\"count\": 21, \"firstId\": 0, \"lastId\": 9223372036854775807}, " },
		{ ids, 4, "\"passes\": {\"count\": 4, \"firstId\": 9223372036854775807, \"lastId\": 0}, " },
	};
	enum ttpu_passes_form form;
	struct ttpu_error err;

	for (size_t c = 0; c < 2; c++) {
		char *full, *dflt, *sum, *none, *at, *end;
		ttpu_result *res;
		int ret;

		ASSERT_EQ(0, run_ids(cases[c].ids, cases[c].n, &res, &err)) TH_LOG("%s", err.message);
		dflt = written(res, -1, &ret);
		ASSERT_EQ(0, ret);
		full = written(res, TTPU_PASSES_FULL, &ret);
		ASSERT_EQ(0, ret);
		EXPECT_STREQ(dflt, full);
		sum = written(res, TTPU_PASSES_SUMMARY, &ret);
		ASSERT_EQ(0, ret);
		none = written(res, TTPU_PASSES_NONE, &ret);
		ASSERT_EQ(0, ret);
		/* full = head "passes": [...], tail; none = head tail; summary = head S tail. */
		at = strstr(full, "\"passes\": [");
		ASSERT_NE(NULL, at);
		end = strstr(at, "], ") + 3;
		EXPECT_EQ(0, strncmp(full, none, (size_t)(at - full)));
		EXPECT_STREQ(end, none + (at - full));
		EXPECT_EQ(0, strncmp(full, sum, (size_t)(at - full)));
		EXPECT_EQ(0, strncmp(cases[c].summary, sum + (at - full), strlen(cases[c].summary)))
			TH_LOG("%s", sum);
		EXPECT_STREQ(end, sum + (at - full) + strlen(cases[c].summary));
		free(dflt);
		free(full);
		free(sum);
		free(none);
		for (int bad = 3; bad <= 1000; bad += 997) {
			char *text = written(res, bad, &ret);

			EXPECT_EQ(-TTPU_USAGE_ERROR, ret);
			EXPECT_EQ(0, strlen(text));
			free(text);
		}
		ttpu_result_free(res);
	}
	for (int f = 0; f < 3; f++) {
		ASSERT_NE(NULL, ttpu_passes_form_name((enum ttpu_passes_form)f));
		ASSERT_EQ(0, ttpu_passes_form_parse(ttpu_passes_form_name((enum ttpu_passes_form)f),
						    &form, &err));
		EXPECT_EQ(f, (int)form);
	}
	EXPECT_EQ(NULL, ttpu_passes_form_name((enum ttpu_passes_form)3));
	EXPECT_EQ(-TTPU_USAGE_ERROR, ttpu_passes_form_parse("Full", &form, &err));
	EXPECT_STREQ("unknown passes form 'Full' (expected full, summary or none)", err.message);
	EXPECT_EQ(-TTPU_USAGE_ERROR, ttpu_passes_form_parse(NULL, &form, &err));
	EXPECT_EQ(-TTPU_USAGE_ERROR, ttpu_passes_form_parse("none", NULL, &err));
}

TEST_HARNESS_MAIN
