// SPDX-License-Identifier: MIT
/*
 * engine_software_neon.c - engine_software.c's dot products with NEON
 *
 * Debian's armhf code has no NEON, so the compiler makes the software
 * engine's int16 dot product a multiply-accumulate per product (about six
 * instructions with its loads and loop), while the PYNQ-Z2's Cortex-A9
 * has NEON. Here one row of A goes against four of B transposed: eight A
 * values are loaded once for the four rows, and each widening
 * multiply-accumulate (vmlal_s16) takes four products, 13 instructions
 * for 32 products. The sums are the scalar loop's: the lanes add the same
 * products in another order, and int32 addition is exact while the sum
 * fits (engine_software.c argues that it does).
 */
#include "engine_software_neon.h"

#if defined(__arm__)

#include <arm_neon.h>

#pragma GCC push_options
#pragma GCC target("fpu=neon")

void ttpu_sw_dot4_neon(const int16_t *a, const int16_t *b, size_t bs, size_t len,
		       int32_t out[4])
{
	const int16_t *b0 = b, *b1 = b + bs, *b2 = b + 2 * bs, *b3 = b + 3 * bs;
	int32x4_t s0 = vdupq_n_s32(0), s1 = s0, s2 = s0, s3 = s0;
	size_t k = 0;

	for (; k + 8 <= len; k += 8) {
		int16x8_t x = vld1q_s16(a + k);
		int16x4_t xl = vget_low_s16(x), xh = vget_high_s16(x);
		int16x8_t y0 = vld1q_s16(b0 + k), y1 = vld1q_s16(b1 + k);
		int16x8_t y2 = vld1q_s16(b2 + k), y3 = vld1q_s16(b3 + k);

		s0 = vmlal_s16(s0, xl, vget_low_s16(y0));
		s1 = vmlal_s16(s1, xl, vget_low_s16(y1));
		s2 = vmlal_s16(s2, xl, vget_low_s16(y2));
		s3 = vmlal_s16(s3, xl, vget_low_s16(y3));
		s0 = vmlal_s16(s0, xh, vget_high_s16(y0));
		s1 = vmlal_s16(s1, xh, vget_high_s16(y1));
		s2 = vmlal_s16(s2, xh, vget_high_s16(y2));
		s3 = vmlal_s16(s3, xh, vget_high_s16(y3));
	}
	if (k < len) {		/* @len is a multiple of 4: four are left */
		int16x4_t x = vld1_s16(a + k);

		s0 = vmlal_s16(s0, x, vld1_s16(b0 + k));
		s1 = vmlal_s16(s1, x, vld1_s16(b1 + k));
		s2 = vmlal_s16(s2, x, vld1_s16(b2 + k));
		s3 = vmlal_s16(s3, x, vld1_s16(b3 + k));
	}
	/* Each accumulator's four lanes added, the four sums side by side. */
	int32x2_t t01 = vpadd_s32(vpadd_s32(vget_low_s32(s0), vget_high_s32(s0)),
				  vpadd_s32(vget_low_s32(s1), vget_high_s32(s1)));
	int32x2_t t23 = vpadd_s32(vpadd_s32(vget_low_s32(s2), vget_high_s32(s2)),
				  vpadd_s32(vget_low_s32(s3), vget_high_s32(s3)));

	vst1q_s32(out, vaddq_s32(vld1q_s32(out), vcombine_s32(t01, t23)));
}

#pragma GCC pop_options

#else

void ttpu_sw_dot4_neon(const int16_t *a, const int16_t *b, size_t bs, size_t len,
		       int32_t out[4])
{
}

#endif
