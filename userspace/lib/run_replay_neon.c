// SPDX-License-Identifier: MIT
/*
 * run_replay_neon.c - run_replay.c's walks with NEON (armhf, chosen at run
 * time as run_range_neon.c's step is)
 *
 * A row of a chain's 4x4 partial sums is one int32x4 accumulator, kept in
 * a register for the whole chain; each A value of the row scales a row of
 * B (widened to int16) into it with one multiply-accumulate by lane
 * (vmlal_lane_s16): 16 a step for its 64 products. Two neighbouring chains
 * that read one A window with B windows side by side at every step (a
 * tiled matmul's output tiles (r, c) and (r, c + 4); the program's replay
 * table says which) go as one 4x8 product: a B row is 8 bytes, one load
 * and one widening for both, 32 multiply-accumulates a step for 128
 * products, and the step's offsets are all the loop reads besides. The partial sums are biased (run_replay_steps.h),
 * so one unsigned maximum over a chain's four rows and one more into the
 * running maximum track every partial sum of the step. Exactly the scalar
 * walk's sums: int8 x int8 fits int16 x int16 -> int32.
 */
#include <string.h>

#include "run_replay_steps.h"

#if defined(__arm__)

#include <arm_neon.h>

#pragma GCC push_options
#pragma GCC target("fpu=neon")

/* Rows @p and @p + @s, four i8 each (no alignment), as one int16x8. */
static inline int16x8_t two_rows(const int8_t *p, size_t s)
{
	uint32_t x, y;

	memcpy(&x, p, 4);
	memcpy(&y, p + s, 4);
	return vmovl_s8(vcreate_s8((uint64_t)y << 32 | x));
}

static inline uint32x4_t u(int32x4_t x)
{
	return vreinterpretq_u32_s32(x);
}

/*
 * The kernels keep a chain's four rows in four named variables (r##0 to
 * r##3), never in an array, so that they stay in registers for the whole
 * chain; hence macros.
 */
#define MLA_ROWS(r, bk, a01, a23, k) do {				\
	r##0 = vmlal_lane_s16(r##0, bk, vget_low_s16(a01), k);		\
	r##1 = vmlal_lane_s16(r##1, bk, vget_high_s16(a01), k);	\
	r##2 = vmlal_lane_s16(r##2, bk, vget_low_s16(a23), k);		\
	r##3 = vmlal_lane_s16(r##3, bk, vget_high_s16(a23), k);	\
} while (0)

/* One chain's rows step: r += A (4x4 at @a) . B (4x4 at @b). */
#define STEP_ONE(a, as, b, bs, r) do {					\
	int16x8_t a01_ = two_rows(a, as), a23_ = two_rows((a) + 2 * (as), as);	\
	int16x8_t b01_ = two_rows(b, bs), b23_ = two_rows((b) + 2 * (bs), bs);	\
	MLA_ROWS(r, vget_low_s16(b01_), a01_, a23_, 0);		\
	MLA_ROWS(r, vget_high_s16(b01_), a01_, a23_, 1);		\
	MLA_ROWS(r, vget_low_s16(b23_), a01_, a23_, 2);		\
	MLA_ROWS(r, vget_high_s16(b23_), a01_, a23_, 3);		\
} while (0)

/* Two chains, one A window: p += A . B[:, 0..3], q += A . B[:, 4..7]. */
#define PAIR_K(bk, p, q, a01, a23, k) do {				\
	MLA_ROWS(p, vget_low_s16(bk), a01, a23, k);			\
	MLA_ROWS(q, vget_high_s16(bk), a01, a23, k);			\
} while (0)
#define STEP_TWO(a, as, b, bs, p, q) do {				\
	const int8_t *b_ = (b);						\
	int16x8_t a01_ = two_rows(a, as), a23_ = two_rows((a) + 2 * (as), as);	\
	int16x8_t b0_, b1_, b2_, b3_;					\
	/* Post-incremented loads: the row stride is the increment. */	\
	b0_ = vmovl_s8(vld1_s8(b_));					\
	b_ += (bs);							\
	b1_ = vmovl_s8(vld1_s8(b_));					\
	b_ += (bs);							\
	b2_ = vmovl_s8(vld1_s8(b_));					\
	b_ += (bs);							\
	b3_ = vmovl_s8(vld1_s8(b_));					\
	PAIR_K(b0_, p, q, a01_, a23_, 0);				\
	PAIR_K(b1_, p, q, a01_, a23_, 1);				\
	PAIR_K(b2_, p, q, a01_, a23_, 2);				\
	PAIR_K(b3_, p, q, a01_, a23_, 3);				\
} while (0)

/* The largest of a chain's four rows' biased sums, column by column, into m. */
#define ROWS_MAX(m, r) \
	(m = vmaxq_u32(m, vmaxq_u32(vmaxq_u32(u(r##0), u(r##1)), vmaxq_u32(u(r##2), u(r##3)))))

#define LOAD_ROWS(r, w) do {						\
	r##0 = vreinterpretq_s32_u32(vld1q_u32((w)));			\
	r##1 = vreinterpretq_s32_u32(vld1q_u32((w) + 4));		\
	r##2 = vreinterpretq_s32_u32(vld1q_u32((w) + 8));		\
	r##3 = vreinterpretq_s32_u32(vld1q_u32((w) + 12));		\
} while (0)
#define STORE_ROWS(w, r) do {						\
	vst1q_u32((w), u(r##0));					\
	vst1q_u32((w) + 4, u(r##1));					\
	vst1q_u32((w) + 8, u(r##2));					\
	vst1q_u32((w) + 12, u(r##3));					\
} while (0)

bool ttpu_replay_neon_one(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_walk *wk,
			  uint32_t w[16], uint32_t mx[4])
{
	const uint32_t (*off)[2] = wk->off;
	const int8_t *a = wk->a, *b = wk->b;
	size_t as = wk->as, bs = wk->bs;
	uint32_t n = wk->nsteps;
	int32x4_t r0, r1, r2, r3;
	uint32x4_t m = vdupq_n_u32(0);
	bool ok = true;

	LOAD_ROWS(r, w);
	for (uint32_t s = 0; s < n; s++) {
		uint32_t oa = off[s][0], ob = off[s][1];

		if (__builtin_expect(oa != TTPU_REPLAY_OTHER, 1)) {
			STEP_ONE(a + oa, as, b + ob, bs, r);
		} else {
			STORE_ROWS(w, r);
			ok = ttpu_replay_other_step(ctx, &wk->steps[s], w);
			LOAD_ROWS(r, w);
			if (!ok)
				break;
		}
		ROWS_MAX(m, r);
	}
	STORE_ROWS(w, r);
	vst1q_u32(mx, m);
	return ok;
}

void ttpu_replay_neon_two(const struct ttpu_replay_walk *w0, uint32_t v0[16],
			  const struct ttpu_replay_walk *w1, uint32_t v1[16], uint32_t mx[4])
{
	const uint32_t (*off)[2] = w0->off;
	const int8_t *a = w0->a, *b = w0->b;
	size_t as = w0->as, bs = w0->bs;
	uint32_t n = w0->nsteps;
	int32x4_t p0, p1, p2, p3, q0, q1, q2, q3;
	uint32x4_t m = vdupq_n_u32(0);

	LOAD_ROWS(p, v0);
	LOAD_ROWS(q, v1);
	/* Every step pairs (the table says so): no test in the loop. */
	for (uint32_t s = 0; s < n; s++) {
		STEP_TWO(a + off[s][0], as, b + off[s][1], bs, p, q);
		m = vmaxq_u32(m, vmaxq_u32(vmaxq_u32(vmaxq_u32(u(p0), u(p1)), vmaxq_u32(u(p2), u(p3))),
					   vmaxq_u32(vmaxq_u32(u(q0), u(q1)), vmaxq_u32(u(q2), u(q3)))));
	}
	STORE_ROWS(v0, p);
	STORE_ROWS(v1, q);
	vst1q_u32(mx, m);
}

#pragma GCC pop_options

#else

/* Not built where this is not armhf: ttpu_range_neon_on() is false there. */
bool ttpu_replay_neon_one(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_walk *wk,
			  uint32_t w[16], uint32_t mx[4])
{
	return false;
}

void ttpu_replay_neon_two(const struct ttpu_replay_walk *w0, uint32_t v0[16],
			  const struct ttpu_replay_walk *w1, uint32_t v1[16], uint32_t mx[4])
{
}

#endif
