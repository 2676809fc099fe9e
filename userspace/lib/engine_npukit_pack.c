// SPDX-License-Identifier: MIT
/*
 * engine_npukit_pack.c - operands into kicks, results out of them.
 *
 * A rows group's kick (engine_npukit_groups.c) is A as 8 rows of 8
 * contiguous bytes of one buffer and B likewise, from two offsets worked
 * out once per program: 16 copies of 8 bytes, no bounds check (the
 * grouping proved every row inside its buffer). Scalar, a row is two
 * 32-bit loads and stores; with NEON (armhf, chosen at run time: Debian's
 * armhf code assumes none, the PYNQ-Z2's A9 has it) a row is one vld1 and
 * two rows one vst1. Any other group (pairs, singles, windows across a
 * buffer's edge) is gathered 4x4 block by block with bounds checks.
 * Collecting adds a read-back's result blocks into their jobs' sums, a row
 * of four at a time (one NEON add). Both paths give the same bytes and
 * sums: tests/runtime/test_npukit_pack.c holds them to it.
 */
#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "engine_npukit_pack.h"
#include "run_range_neon.h"

/* The NEON kick is one run of stores: A, then B, then flags and c_slot. */
static_assert(offsetof(struct npukit_kick, b) == offsetof(struct npukit_kick, a) + 64 &&
	      offsetof(struct npukit_kick, flags) == offsetof(struct npukit_kick, b) + 64 &&
	      offsetof(struct npukit_kick, c_slot) == offsetof(struct npukit_kick, flags) + 4,
	      "struct npukit_kick: a, b, flags and c_slot back to back");

int ttpu_npukit_pack_neon = -1;

/* Copy the 4x4 window @w (zero outside its buffer) into an 8x8 tile block. */
static void gather_block(const struct ttpu_program *prog, void *const *data,
			 const struct ttpu_window *w, int8_t *tile, int br, int bc)
{
	const struct ttpu_buffer *buf = &prog->buffers[w->buf];
	const int8_t *src = data[w->buf];
	uint64_t r0 = w->r, c0 = w->c;

	for (int i = 0; i < 4; i++) {
		int8_t *dst = tile + (br * 4 + i) * NPUKIT_TILE_N + bc * 4;
		uint64_t r = r0 + i;

		if (r >= buf->rows) {
			memset(dst, 0, 4);
			continue;
		}
		if (c0 + 4 <= buf->cols) {
			memcpy(dst, src + r * buf->cols + c0, 4);
			continue;
		}
		for (int k = 0; k < 4; k++)
			dst[k] = c0 + k < buf->cols ? src[r * buf->cols + c0 + k] : 0;
	}
}

static void zero_block(int8_t *tile, int br, int bc)
{
	for (int i = 0; i < 4; i++)
		memset(tile + (br * 4 + i) * NPUKIT_TILE_N + bc * 4, 0, 4);
}

/* Link @step of stage-relative job @j, or NULL past its end / no job. */
static const struct ttpu_link *job_link(const struct ttpu_plan *plan,
					const struct ttpu_stage *st, uint32_t j,
					uint32_t step)
{
	const struct ttpu_job *job;

	if (j == NO_JOB)
		return NULL;
	job = &plan->jobs[st->first_job + j];
	return step < job->nlinks ? &plan->links[job->first_link + step] : NULL;
}

/* The kick of links @step and @step + 1 of @g, gathered block by block. */
static void fill_kick(const struct ttpu_program *prog, void *const *data,
		      const struct ttpu_stage *st, const struct npk_group *g,
		      uint32_t step, struct npukit_kick *k)
{
	const struct ttpu_plan *plan = prog->plan;

	for (int h = 0; h < 2; h++) {		/* the kick's two K-steps */
		for (int p = 0; p < 2; p++) {
			const struct ttpu_link *l = job_link(plan, st, g->row[p], step + h);

			if (l)
				gather_block(prog, data, &l->a, k->a, p, h);
			else
				zero_block(k->a, p, h);
		}
		for (int q = 0; q < 2; q++) {
			const struct ttpu_link *l = job_link(plan, st, g->col[q], step + h);

			if (l)
				gather_block(prog, data, &l->b, k->b, h, q);
			else
				zero_block(k->b, h, q);
		}
	}
}

/* Eight rows of 8 bytes, @stride apart, into @dst: a row is two words. */
static inline void copy_rows(int8_t *dst, const int8_t *src, size_t stride)
{
#pragma GCC unroll 8
	for (int i = 0; i < NPUKIT_TILE_N; i++, src += stride)
		memcpy(dst + i * NPUKIT_TILE_N, src, NPUKIT_TILE_N);
}

static void pack_rows_scalar(const int8_t *a, size_t as, const int8_t *b, size_t bs,
			     const struct npk_kick_src *src, uint32_t n, struct npukit_kick *k)
{
	for (; n; n--, k++, src++) {
		copy_rows(k->a, a + src->a, as);
		copy_rows(k->b, b + src->b, bs);
		k->flags = 0;
		k->c_slot = 0;
	}
}

static void collect_scalar(const struct npk_group *g, const int32_t *c, int32_t (*sums)[16])
{
	for (int p = 0; p < 2; p++)
		for (int q = 0; q < 2; q++) {
			uint32_t j = g->out[p][q];
			const int32_t *cb = c + p * 4 * NPUKIT_TILE_N + q * 4;

			if (j == NO_JOB)
				continue;
			for (int i = 0; i < 4; i++)
				for (int x = 0; x < 4; x++)
					sums[j][i * 4 + x] += cb[i * NPUKIT_TILE_N + x];
		}
}

#if defined(__arm__)

#include <arm_neon.h>

#pragma GCC push_options
#pragma GCC target("fpu=neon")

/* Two rows of 8 bytes at @src, @stride apart, into @dst; both move on. */
#define COPY2_NEON(dst, src, stride) do {					\
		int8x8_t r0_ = vld1_s8(src);					\
		int8x8_t r1_ = vld1_s8((src) + (stride));			\
		vst1q_s8(dst, vcombine_s8(r0_, r1_));				\
		(src) += 2 * (stride);						\
		(dst) += 2 * NPUKIT_TILE_N;					\
	} while (0)

/*
 * A kick's A and B, each eight rows of 8 bytes @as and @bs apart, with
 * flags and c_slot 0: 16 loads and 9 stores, the pointers stepping on.
 */
static inline void kick_rows_neon(struct npukit_kick *k, const int8_t *a, size_t as,
				  const int8_t *b, size_t bs)
{
	int8_t *dst = k->a;

	COPY2_NEON(dst, a, as);
	COPY2_NEON(dst, a, as);
	COPY2_NEON(dst, a, as);
	COPY2_NEON(dst, a, as);
	COPY2_NEON(dst, b, bs);		/* k->b follows k->a */
	COPY2_NEON(dst, b, bs);
	COPY2_NEON(dst, b, bs);
	COPY2_NEON(dst, b, bs);
	vst1_u32((uint32_t *)dst, vdup_n_u32(0));	/* flags, c_slot */
}

static void pack_rows_neon(const int8_t *a, size_t as, const int8_t *b, size_t bs,
			   const struct npk_kick_src *src, uint32_t n, struct npukit_kick *k)
{
	for (; n; n--, k++, src++)
		kick_rows_neon(k, a + src->a, as, b + src->b, bs);
}

static void collect_neon(const struct npk_group *g, const int32_t *c, int32_t (*sums)[16])
{
	for (int p = 0; p < 2; p++)
		for (int q = 0; q < 2; q++) {
			uint32_t j = g->out[p][q];
			const int32_t *cb = c + p * 4 * NPUKIT_TILE_N + q * 4;

			if (j == NO_JOB)
				continue;
			for (int i = 0; i < 4; i++)
				vst1q_s32(sums[j] + 4 * i, vaddq_s32(vld1q_s32(sums[j] + 4 * i),
								     vld1q_s32(cb + i * NPUKIT_TILE_N)));
		}
}

#pragma GCC pop_options

bool ttpu_npukit_pack_neon_on(void)
{
	if (ttpu_npukit_pack_neon >= 0)
		return ttpu_npukit_pack_neon;
	return ttpu_range_neon_on();
}

#else

/* No NEON packing where this is not armhf: the scalar one is the only one. */
bool ttpu_npukit_pack_neon_on(void)
{
	return false;
}

#define pack_rows_neon pack_rows_scalar
#define collect_neon collect_scalar

#endif

void ttpu_npukit_pack(const struct ttpu_program *prog, void *const *data,
		      const struct ttpu_stage *st, const struct npk_stage_groups *sg,
		      const struct npk_group *g, uint32_t first, uint32_t n,
		      struct npukit_kick *k, bool neon)
{
	if (g->rows) {
		const int8_t *a = data[g->abuf], *b = data[g->bbuf];
		size_t as = prog->buffers[g->abuf].cols, bs = prog->buffers[g->bbuf].cols;
		const struct npk_kick_src *src = sg->src + g->src + first;

		if (neon)
			pack_rows_neon(a, as, b, bs, src, n, k);
		else
			pack_rows_scalar(a, as, b, bs, src, n, k);
		return;
	}
	for (uint32_t t = 0; t < n; t++, k++) {
		fill_kick(prog, data, st, g, 2 * (first + t), k);
		k->flags = 0;
		k->c_slot = 0;
	}
}

void ttpu_npukit_collect(const struct npk_group *g, const int32_t *c, int32_t (*sums)[16],
			 bool neon)
{
	if (neon)
		collect_neon(g, c, sums);
	else
		collect_scalar(g, c, sums);
}
