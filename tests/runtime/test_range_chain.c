// SPDX-License-Identifier: MIT
/*
 * test_range_chain.c - a chain of accs into an i8 destination, where the
 * plan's whole-chain bound never holds, settled by run_range.c: by the
 * per-element bound, by the one-live-step rule, or by replaying the
 * elements neither settles. Each case is checked against a walk of the
 * chain written here step by step, element by element: the same outputs,
 * or the RangeError at the same acc, element and value.
 *
 * The chain: C8 (i8 [4,4]) += A(0, 4k) . W for k = 0..3, pass and acc
 * interleaved (acc k is command 2k + 1), W = w * identity, so step k adds
 * w times A's k-th 4x4 block.
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "rt.h"

#define STEPS 4

FIXTURE(chain) {
	char prog[4096];
	char inputs[1024];
	int32_t want[16];
	long fail_step, fail_elem;	/* -1: no RangeError */
};

FIXTURE_VARIANT(chain) {
	int8_t a[4][4 * STEPS];
	int w;
};

FIXTURE_SETUP(chain)
{
	size_t n;

	n = (size_t)snprintf(self->prog, sizeof(self->prog),
			     "{'format':'ttpu','version':1,'tile':4,'name':'t','buffers':{"
			     RT_BUF("A", "i8", "[4,16]", "input") ","
			     RT_BUF("C8", "i8", "[4,4]", "temp") ","
			     "'W':{'dtype':'i8','shape':[4,4],'kind':'const','data':"
			     "[[%d,0,0,0],[0,%d,0,0],[0,0,%d,0],[0,0,0,%d]]}},"
			     "'inputs':['A'],'outputs':['C8'],'commands':[",
			     variant->w, variant->w, variant->w, variant->w);
	for (int k = 0; k < STEPS; k++)
		n += (size_t)snprintf(self->prog + n, sizeof(self->prog) - n,
				      "%s{'op':'pass','id':%d,'a':{'buf':'A','r':0,'c':%d},"
				      "'b':{'buf':'W','r':0,'c':0}},"
				      "{'op':'acc','pass':%d,'dst':{'buf':'C8','r':0,'c':0}}",
				      k ? "," : "", k, 4 * k, k);
	snprintf(self->prog + n, sizeof(self->prog) - n, "]}");

	n = (size_t)snprintf(self->inputs, sizeof(self->inputs), "{'A':[");
	for (int r = 0; r < 4; r++) {
		n += (size_t)snprintf(self->inputs + n, sizeof(self->inputs) - n, "%s[", r ? "," : "");
		for (int c = 0; c < 4 * STEPS; c++)
			n += (size_t)snprintf(self->inputs + n, sizeof(self->inputs) - n, "%s%d",
					      c ? "," : "", variant->a[r][c]);
		n += (size_t)snprintf(self->inputs + n, sizeof(self->inputs) - n, "]");
	}
	snprintf(self->inputs + n, sizeof(self->inputs) - n, "]}");

	/* One-by-one: every element after every step, in window order. */
	memset(self->want, 0, sizeof(self->want));
	self->fail_step = -1;
	for (int k = 0; k < STEPS && self->fail_step < 0; k++) {
		for (int e = 0; e < 16; e++) {
			self->want[e] += variant->w * variant->a[e / 4][4 * k + e % 4];
			if (self->want[e] < -128 || self->want[e] > 127) {
				self->fail_step = k;
				self->fail_elem = e;
				break;
			}
		}
	}
}

FIXTURE_TEARDOWN(chain)
{
}

TEST_F(chain, as_one_by_one)
{
	struct ttpu_error err;
	ttpu_result *res = NULL;
	int rc = rt_load_run(self->prog, self->inputs, &res, &err);

	if (self->fail_step < 0) {
		char why[256];

		ASSERT_EQ(0, rc) { TH_LOG("%s", err.message); }
		EXPECT_EQ(-1L, rt_cmp(res, "C8", self->want, 16, why, sizeof(why))) {
			TH_LOG("%s", why);
		}
		ttpu_result_free(res);
		return;
	}
	ASSERT_ERROR_AT(TTPU_RANGE_ERROR, rc, err, NULL, 2 * self->fail_step + 1, "acc", "C8");
	ASSERT_AT_ELEMENT(err, "C8", self->fail_elem, self->fail_elem / 4, self->fail_elem % 4);
	{
		char value[32];

		snprintf(value, sizeof(value), " be %d after", self->want[self->fail_elem]);
		EXPECT_NE(NULL, strstr(err.message, value)) { TH_LOG("%s", err.message); }
	}
}

/* |A| <= 2: 2 * d0 + S + L stays within 2 * 127, the bound settles all. */
FIXTURE_VARIANT_ADD(chain, bound_holds) {
	.w = 1,
	.a = { { 2, -2, 1, 0, 2, 2, 2, 2, -1, 1, 0, 0, 2, 1, 1, 1 },
	       { -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2, -2 },
	       { 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1 },
	       { 1, 1, 1, 1, 2, 2, 2, 2, -1, -1, -1, -1, 0, 0, 0, 0 } },
};

/* Only one block of each row is non-zero: exact from the final sum. */
FIXTURE_VARIANT_ADD(chain, one_live_step_fits) {
	.w = 1,
	.a = { { 0, 0, 0, 0, 127, -128, 100, -100, 0, 0, 0, 0, 0, 0, 0, 0 },
	       { 0 }, { 0 }, { 0 } },
};

FIXTURE_VARIANT_ADD(chain, one_live_step_overflows) {
	.w = 2,
	.a = { { 0 }, { 0 }, { 0 },
	       { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0 } },
};

/* The bound fails everywhere; large steps cancel, nothing leaves i8. */
FIXTURE_VARIANT_ADD(chain, bound_fails_no_error) {
	.w = 1,
	.a = { { 100, -100, 127, -128, -100, 100, -127, 127, 100, -100, 0, 1, -100, 100, 0, -1 },
	       { 127, 127, 127, 127, -127, -127, -127, -127, 127, 127, 127, 127, -127, -127, -127, -127 },
	       { -128, 0, 64, 1, 127, 0, 63, 0, 0, 0, -127, 0, 1, 0, 0, 126 },
	       { 50, 50, 50, 50, 50, 50, 50, 50, -100, -100, -100, -100, 27, 27, 27, 27 } },
};

/*
 * C8[1][2] reaches 128 at step 2, then would come back; C8[0][0] leaves at
 * step 3 and comes first in window order: the error is step 2's.
 */
FIXTURE_VARIANT_ADD(chain, error_at_the_overflowing_step) {
	.w = 1,
	.a = { { 100, 0, 0, 0, 20, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0 },
	       { 0, 0, 100, 0, 0, 0, 27, 0, 0, 0, 1, 0, 0, 0, -100, 0 },
	       { 0 }, { 0 } },
};

/* Two elements leave at the same step: the first in window order. */
FIXTURE_VARIANT_ADD(chain, same_step_window_order) {
	.w = 1,
	.a = { { 0 },
	       { 0, 0, 0, -100, 0, 0, 0, -29, 0, 0, 0, 0, 0, 0, 0, 0 },
	       { 0, 100, 0, 0, 0, 28, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	       { 0 } },
};

/* An underflow at the last step, after the sum dipped and recovered. */
FIXTURE_VARIANT_ADD(chain, underflow_at_last_step) {
	.w = 2,
	.a = { { 0 }, { 0 }, { 0 },
	       { -60, 0, 0, 0, 60, 0, 0, 0, -60, 0, 0, 0, -5, 0, 0, 0 } },
};

TEST_HARNESS_MAIN
