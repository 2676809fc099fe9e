// SPDX-License-Identifier: MIT
/*
 * run_range_neon.c - run_range.c's replay step with NEON: a row of the
 * 4x4 partial sums is one vector, and each A value of the row scales a
 * row of B into it with one multiply-accumulate by lane (vmlal_lane_s16),
 * 16 a step where the scalar step does 64 multiplies; then one unsigned
 * compare a row. Built for armhf only, for a NEON unit the kernel reports
 * (HWCAP_ARM_NEON): Debian's armhf code assumes none.
 */
#include <string.h>

#include "run_range_neon.h"

int ttpu_range_neon = -1;

#if defined(__arm__)

#include <arm_neon.h>
#include <sys/auxv.h>

bool ttpu_range_neon_on(void)
{
	/* Runs on several threads may ask at once: the same answer, atomically. */
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (ttpu_range_neon >= 0)
		return ttpu_range_neon;
	if (h < 0) {
		h = !!(getauxval(AT_HWCAP) & HWCAP_ARM_NEON);
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}

#pragma GCC push_options
#pragma GCC target("fpu=neon")

/* Four i8 at @p (no alignment, nothing read past them) as int16x4. */
static inline int16x4_t load4(const int8_t *p)
{
	int32_t w;

	memcpy(&w, p, 4);
	return vget_low_s16(vmovl_s8(vreinterpret_s8_s32(vdup_n_s32(w))));
}

bool ttpu_range_step_neon(const int8_t *a, size_t as, const int8_t *b, size_t bs,
			  int32_t v[16], int32_t lo, uint32_t span)
{
	int16x4_t b0 = load4(b), b1 = load4(b + bs), b2 = load4(b + 2 * bs), b3 = load4(b + 3 * bs);
	uint32x4_t ulo = vdupq_n_u32((uint32_t)lo), uspan = vdupq_n_u32(span), out = vdupq_n_u32(0);

	for (int i = 0; i < 4; i++) {
		int16x4_t ar = load4(a + i * as);
		int32x4_t row = vld1q_s32(v + 4 * i);

		row = vmlal_lane_s16(row, b0, ar, 0);
		row = vmlal_lane_s16(row, b1, ar, 1);
		row = vmlal_lane_s16(row, b2, ar, 2);
		row = vmlal_lane_s16(row, b3, ar, 3);
		vst1q_s32(v + 4 * i, row);
		out = vorrq_u32(out, vcgtq_u32(vsubq_u32(vreinterpretq_u32_s32(row), ulo), uspan));
	}
	uint32x2_t r = vorr_u32(vget_low_u32(out), vget_high_u32(out));

	return (vget_lane_u32(r, 0) | vget_lane_u32(r, 1)) != 0;
}

#pragma GCC pop_options

#else

/* No NEON step where this is not armhf: the scalar step is the only one. */
bool ttpu_range_neon_on(void)
{
	return false;
}

bool ttpu_range_step_neon(const int8_t *a, size_t as, const int8_t *b, size_t bs,
			  int32_t v[16], int32_t lo, uint32_t span)
{
	return false;
}

#endif
