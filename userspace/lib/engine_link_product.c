// SPDX-License-Identifier: MIT
/*
 * engine_link_product.c - the reference 4x4x4 product of one pass
 *
 * Straight from the contract's definition, every element read through a
 * bounds check: this is the oracle the fast kernels are compared with, so
 * it stays simple rather than fast.
 */
#include "engine.h"

static int32_t read_i8(const struct ttpu_buffer *b, const int8_t *d,
		       uint64_t r, uint64_t c)
{
	if (r >= b->rows || c >= b->cols)
		return 0;
	return d[r * b->cols + c];
}

void ttpu_link_product(const struct ttpu_program *prog, void *const *data,
		       const struct ttpu_window *a, const struct ttpu_window *b,
		       int32_t out[16])
{
	const struct ttpu_buffer *ab = &prog->buffers[a->buf];
	const struct ttpu_buffer *bb = &prog->buffers[b->buf];
	const int8_t *ad = data[a->buf];
	const int8_t *bd = data[b->buf];

	for (int i = 0; i < TTPU_TILE; i++) {
		for (int j = 0; j < TTPU_TILE; j++) {
			int32_t s = 0;

			for (int k = 0; k < TTPU_TILE; k++)
				s += read_i8(ab, ad, (uint64_t)a->r + i, (uint64_t)a->c + k) *
				     read_i8(bb, bd, (uint64_t)b->r + k, (uint64_t)b->c + j);
			out[i * TTPU_TILE + j] = s;
		}
	}
}
