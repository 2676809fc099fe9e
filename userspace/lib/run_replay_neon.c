// SPDX-License-Identifier: MIT
/*
 * run_replay_neon.c - run_replay.c's walks with NEON (armhf, chosen at run
 * time as run_range_neon.c's step is)
 *
 * A row of a chain's 4x4 partial sums is one int32x4 accumulator, kept in
 * a register for the whole chain; each A value of the row scales a row of
 * B (widened to int16) into it with one multiply-accumulate by lane
 * (vmlal_lane_s16): 16 a step for its 64 products. Two neighbouring chains
 * that read one A window with B windows side by side (a tiled matmul's
 * output tiles (r, c) and (r, c + 4)) go as one 4x8 product: a B row is
 * 8 bytes, one load and one widening for both, 32 multiply-accumulates a
 * step for 128 products. The partial sums are biased (run_replay_steps.h),
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

/* The largest of four rows' biased sums, lane by lane (column by column). */
static inline uint32x4_t rows_max(const int32x4_t r[4])
{
	return vmaxq_u32(vmaxq_u32(u(r[0]), u(r[1])), vmaxq_u32(u(r[2]), u(r[3])));
}

#define MLA_ROWS(r, bk, a01, a23, k) do {				\
	r[0] = vmlal_lane_s16(r[0], bk, vget_low_s16(a01), k);		\
	r[1] = vmlal_lane_s16(r[1], bk, vget_high_s16(a01), k);		\
	r[2] = vmlal_lane_s16(r[2], bk, vget_low_s16(a23), k);		\
	r[3] = vmlal_lane_s16(r[3], bk, vget_high_s16(a23), k);		\
} while (0)

/* One chain's rows step: r += A (4x4 at @a) . B (4x4 at @b). */
static inline void step_one(const int8_t *a, size_t as, const int8_t *b, size_t bs,
			    int32x4_t r[4])
{
	int16x8_t a01 = two_rows(a, as), a23 = two_rows(a + 2 * as, as);
	int16x8_t b01 = two_rows(b, bs), b23 = two_rows(b + 2 * bs, bs);

	MLA_ROWS(r, vget_low_s16(b01), a01, a23, 0);
	MLA_ROWS(r, vget_high_s16(b01), a01, a23, 1);
	MLA_ROWS(r, vget_low_s16(b23), a01, a23, 2);
	MLA_ROWS(r, vget_high_s16(b23), a01, a23, 3);
}

/* Two chains' rows step, one A window: r0 += A . B[:, 0..3], r1 += A . B[:, 4..7]. */
static inline void step_two(const int8_t *a, size_t as, const int8_t *b, size_t bs,
			    int32x4_t r0[4], int32x4_t r1[4])
{
	int16x8_t a01 = two_rows(a, as), a23 = two_rows(a + 2 * as, as);
	int16x8_t bk;

#define PAIR_K(k) do {							\
	bk = vmovl_s8(vld1_s8(b + (k) * bs));				\
	MLA_ROWS(r0, vget_low_s16(bk), a01, a23, k);			\
	MLA_ROWS(r1, vget_high_s16(bk), a01, a23, k);			\
} while (0)
	PAIR_K(0);
	PAIR_K(1);
	PAIR_K(2);
	PAIR_K(3);
#undef PAIR_K
}

static inline void load_rows(int32x4_t r[4], const uint32_t w[16])
{
	for (int i = 0; i < 4; i++)
		r[i] = vreinterpretq_s32_u32(vld1q_u32(w + 4 * i));
}

static inline void store_rows(uint32_t w[16], const int32x4_t r[4])
{
	for (int i = 0; i < 4; i++)
		vst1q_u32(w + 4 * i, u(r[i]));
}

/* A step that is not a rows step, through memory; false as other_step(). */
static bool other(const struct ttpu_run_ctx *ctx, const struct ttpu_step *s, int32x4_t r[4])
{
	uint32_t w[16];
	bool ok;

	store_rows(w, r);
	ok = ttpu_replay_other_step(ctx, s, w);
	load_rows(r, w);
	return ok;
}

bool ttpu_replay_neon_one(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_walk *wk,
			  uint32_t w[16], uint32_t mx[4])
{
	int32x4_t r[4];
	uint32x4_t m = vdupq_n_u32(0);
	bool ok = true;

	load_rows(r, w);
	for (uint32_t s = 0; ok && s < wk->nsteps; s++) {
		uint32_t oa = wk->off[s][0], ob = wk->off[s][1];

		if (oa != TTPU_REPLAY_OTHER)
			step_one(wk->a + oa, wk->as, wk->b + ob, wk->bs, r);
		else
			ok = other(ctx, &wk->steps[s], r);
		m = vmaxq_u32(m, rows_max(r));
	}
	store_rows(w, r);
	vst1q_u32(mx, m);
	return ok;
}

bool ttpu_replay_neon_two(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_walk *w0,
			  const struct ttpu_replay_walk *w1, uint32_t v0[16], uint32_t v1[16],
			  uint32_t mx0[4], uint32_t mx1[4])
{
	int32x4_t r0[4], r1[4];
	uint32x4_t m0 = vdupq_n_u32(0), m1 = vdupq_n_u32(0);
	/* Side by side: one A buffer, one B buffer, one stride each. */
	bool same = w0->a && w0->a == w1->a && w0->b == w1->b && w0->as == w1->as &&
		    w0->bs == w1->bs;
	bool ok = true;

	load_rows(r0, v0);
	load_rows(r1, v1);
	for (uint32_t s = 0; ok && s < w0->nsteps; s++) {
		uint32_t a0 = w0->off[s][0], b0 = w0->off[s][1];
		uint32_t a1 = w1->off[s][0], b1 = w1->off[s][1];

		if (same && a0 != TTPU_REPLAY_OTHER && a1 == a0 && b1 == b0 + TTPU_TILE &&
		    b1 != TTPU_REPLAY_OTHER) {
			step_two(w0->a + a0, w0->as, w0->b + b0, w0->bs, r0, r1);
		} else {
			if (a0 != TTPU_REPLAY_OTHER)
				step_one(w0->a + a0, w0->as, w0->b + b0, w0->bs, r0);
			else
				ok = other(ctx, &w0->steps[s], r0);
			if (a1 != TTPU_REPLAY_OTHER)
				step_one(w1->a + a1, w1->as, w1->b + b1, w1->bs, r1);
			else
				ok &= other(ctx, &w1->steps[s], r1);
		}
		m0 = vmaxq_u32(m0, rows_max(r0));
		m1 = vmaxq_u32(m1, rows_max(r1));
	}
	store_rows(v0, r0);
	store_rows(v1, r1);
	vst1q_u32(mx0, m0);
	vst1q_u32(mx1, m1);
	return ok;
}

#pragma GCC pop_options

#else

/* Not built where this is not armhf: ttpu_range_neon_on() is false there. */
bool ttpu_replay_neon_one(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_walk *wk,
			  uint32_t w[16], uint32_t mx[4])
{
	return false;
}

bool ttpu_replay_neon_two(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_walk *w0,
			  const struct ttpu_replay_walk *w1, uint32_t v0[16], uint32_t v1[16],
			  uint32_t mx0[4], uint32_t mx1[4])
{
	return false;
}

#endif
