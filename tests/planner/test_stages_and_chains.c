// SPDX-License-Identifier: MIT
/*
 * test_stages_and_chains.c - programs built by hand for one case of the
 * plan each: a pass reading what a later acc of its stage writes, an
 * overflow mid-chain, a chain after an epilogue on its window, the first
 * error of a stage, a tiled matmul as one stage. The planned run must end
 * as the reference executor's (planned_vs_direct.h).
 */
#include <stdint.h>

#include "kselftest_harness.h"

#include "compact_build.h"
#include "planned_vs_direct.h"
#include "../lib/test_rng.h"

/* A pass reading a buffer that a later acc of its stage writes. */
TEST(pass_reads_buffer_a_later_acc_writes)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 7 };
	struct outcome oc = { 0 };
	uint32_t x, w, y, z, s0, s1;

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	x = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, -128, 127);
	w = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, -128, 127);
	y = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, -5, 5);
	z = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 2, 4, 4, &g, INT32_MAX - 10, INT32_MAX);
	s0 = add_pass(b, x, 0, 0, w, 0, 0);
	s1 = add_pass(b, y, 0, 0, w, 0, 0);
	add_acc(b, s0, y, 0, 0, TTPU_NO_BUFFER, false);	/* writes y after s1 read it */
	add_acc(b, s1, z, 0, 0, TTPU_NO_BUFFER, false);	/* z near the limit: replayed */
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(1, b->p.plan->nstages);
	check_plan(_metadata, &b->p, &oc);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

/* An overflow in the middle of a chain is a RangeError even if later steps bring it back. */
TEST(overflow_mid_chain_is_reported_at_its_step)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 9 };
	struct outcome oc = { 0 };
	struct ttpu_error e;
	ttpu_result *r = NULL;
	uint32_t pos, neg, d, s0, s1;

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	pos = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, 127, 127);
	neg = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, -128, -128);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 2, 4, 4, &g, INT32_MAX - 1000, INT32_MAX - 1000);
	s0 = add_pass(b, pos, 0, 0, pos, 0, 0);		/* +64516 each */
	s1 = add_pass(b, pos, 0, 0, neg, 0, 0);		/* -65024 each */
	add_acc(b, s0, d, 0, 0, TTPU_NO_BUFFER, false);
	add_acc(b, s1, d, 0, 0, TTPU_NO_BUFFER, false);
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(-TTPU_RANGE_ERROR, ttpu_run(&b->p, self->eng, NULL, &r, &e));
	ASSERT_NULL(r);
	EXPECT_EQ(2, e.command);
	EXPECT_STREQ("acc", e.op);
	EXPECT_EQ(0, e.element);
	EXPECT_EQ(0, e.row);
	EXPECT_EQ(0, e.col);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

/* A chain after an epilogue on the same window starts from what the epilogue left. */
TEST(chain_after_epilogue_on_same_window)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 17 };
	struct outcome oc = { 0 };
	struct ttpu_error e;
	ttpu_result *r = NULL;
	uint32_t pos, bias, d, s0, s1;

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	pos = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 4, &g, 127, 127);
	bias = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 4, &g,
		       INT32_MAX - 150000, INT32_MAX - 150000);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_TEMP, 2, 4, 4, &g, 0, 0);
	s0 = add_pass(b, pos, 0, 0, pos, 0, 0);
	s1 = add_pass(b, pos, 0, 0, pos, 0, 0);
	add_acc(b, s0, d, 0, 0, TTPU_NO_BUFFER, false);
	add_acc(b, s1, d, 0, 0, bias, false);		/* 129032 + bias: fits */
	s0 = add_pass(b, pos, 4, 0, pos, 0, 0);		/* outside: 0 */
	add_acc(b, s0, d, 0, 0, TTPU_NO_BUFFER, false);	/* + 0: fits */
	s1 = add_pass(b, pos, 0, 0, pos, 0, 0);
	add_acc(b, s1, d, 0, 0, TTPU_NO_BUFFER, false);	/* + 64516: overflows */
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(1, b->p.plan->nstages);
	ASSERT_EQ(2, b->p.plan->nchains);
	ASSERT_EQ(1, b->p.plan->chains[1].follows);
	ASSERT_EQ(-TTPU_RANGE_ERROR, ttpu_run(&b->p, self->eng, NULL, &r, &e));
	EXPECT_EQ(7, e.command);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

/* Errors in two chains of one stage: the smaller command index wins. */
TEST(first_error_of_a_stage_wins)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 11 };
	struct outcome oc = { 0 };
	struct ttpu_error e;
	ttpu_result *r = NULL;
	uint32_t pos, d, s[4];

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	pos = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 4, 8, &g, 127, 127);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 2, 4, 8, &g, INT32_MAX - 70000, INT32_MAX - 70000);
	for (int i = 0; i < 4; i++)
		s[i] = add_pass(b, pos, 0, 0, pos, 0, 0);
	add_acc(b, s[0], d, 0, 0, TTPU_NO_BUFFER, false);	/* chain A, fits */
	add_acc(b, s[1], d, 0, 4, TTPU_NO_BUFFER, false);	/* chain B, fits */
	add_acc(b, s[2], d, 0, 4, TTPU_NO_BUFFER, false);	/* chain B overflows: cmd 6 */
	add_acc(b, s[3], d, 0, 0, TTPU_NO_BUFFER, false);	/* chain A overflows: cmd 7 */
	ASSERT_EQ(0, pb_finish(b));
	ASSERT_EQ(1, b->p.plan->nstages);
	ASSERT_EQ(-TTPU_RANGE_ERROR, ttpu_run(&b->p, self->eng, NULL, &r, &e));
	EXPECT_EQ(6, e.command);
	EXPECT_EQ(4, e.col);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

/* A tiled matmul is one stage, one job per output tile, one K-walk each. */
TEST(tiled_matmul_is_one_stage)
{
	struct fx fx, *self = &fx;
	struct pbuild *b;
	struct rng g = { 13 };
	struct outcome oc = { 0 };
	uint32_t a, w, bias, d;

	ASSERT_EQ(0, fx_open(self));
	b = self->b;
	pb_init(b);
	a = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 8, 14, &g, -128, 127);
	w = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 14, 6, &g, -128, 127);
	bias = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 6, &g, -1000, 1000);
	d = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_TEMP, 2, 8, 6, &g, 0, 0);
	for (uint32_t i = 0; i < 8; i += 4)
		for (uint32_t j = 0; j < 6; j += 4)
			for (uint32_t k = 0; k < 14; k += 4)
				add_acc(b, add_pass(b, a, i, k, w, k, j), d, i, j,
					k + 4 >= 14 ? bias : TTPU_NO_BUFFER, k + 4 >= 14);
	ASSERT_EQ(0, pb_finish(b));
	EXPECT_EQ(1, b->p.plan->nstages);
	EXPECT_EQ(4, b->p.plan->nchains);
	EXPECT_EQ(0, b->p.plan->ndeferred);
	check_plan(_metadata, &b->p, &oc);
	ASSERT_EQ(0, compare(_metadata, &b->p, self->eng, &oc));
	pb_release(b);
	fx_close(self);
}

TEST_HARNESS_MAIN
