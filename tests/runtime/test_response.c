// SPDX-License-Identifier: MIT
/*
 * test_response.c - the response's numbers, written as printf writes them
 *
 * response.c formats integers itself, two digits at a time, and makes each
 * pass record in place. Here the edge values of i32 and i8 outputs (the
 * limits, 0, -1, every power of ten and its neighbours) and of pass ids
 * (0 up to the largest) must come out exactly as "%d" and "%lld" write
 * them, in a response compared byte for byte.
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
TEST(pass_id_edges)
{
	static const long long ids[] = {
		0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65535, 99999, 100000, 1234567,
		2147483647, 2147483648, 4294967296, 999999999999999999,
		1000000000000000000, 9223372036854775806, 9223372036854775807,
	};
	size_t nid = sizeof(ids) / sizeof(ids[0]), len = 0, plen = 0, got_len;
	char prog_text[8192], want[4096], *got, *at;
	struct ttpu_error err;
	ttpu_result *res;
	FILE *f;

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
	ASSERT_EQ(0, rt_load_run(prog_text, "{'A':[[1,2,3,4],[5,6,7,8],[0,0,0,0],[-1,-2,-3,-4]]}",
				 &res, &err)) TH_LOG("%s", err.message);

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

TEST_HARNESS_MAIN
