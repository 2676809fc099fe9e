/* SPDX-License-Identifier: MIT */
/*
 * engine_software_neon.h - the software engine's dot products with NEON
 * (armhf, chosen at run time with the other NEON paths: run_range_neon.h)
 */
#ifndef TTPU_ENGINE_SOFTWARE_NEON_H
#define TTPU_ENGINE_SOFTWARE_NEON_H

#include <stddef.h>
#include <stdint.h>

/**
 * ttpu_sw_dot4_neon() - four dot products of one row against four
 * @a: @len int16 values
 * @b: the first of four rows of @len int16 values, @bs values apart
 * @bs: the distance between @b's rows, in values
 * @len: a multiple of 4
 * @out: out[j] += a . (b + j * bs), exact in int32 when each sum fits
 *
 * Not built where this is not armhf (ttpu_range_neon_on() is false there).
 */
void ttpu_sw_dot4_neon(const int16_t *a, const int16_t *b, size_t bs, size_t len,
		       int32_t out[4]);

#endif /* TTPU_ENGINE_SOFTWARE_NEON_H */
