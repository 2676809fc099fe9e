// SPDX-License-Identifier: MIT
/*
 * engine_software.c - job sums on the CPU
 *
 * Per run, every i8 buffer a pass reads is copied once into int16 with
 * three zero rows and columns of padding: A-side operands row-major,
 * B-side operands transposed, so both operands of an output element are
 * contiguous. A window that starts inside its buffer then lies inside the
 * padded copy, and one that starts outside contributes nothing, so the
 * inner loop has no bounds checks. Links that walk K (a.c and b.r both
 * advancing by 4, as a tiled matmul's passes do) are merged into one long
 * dot product per output element, which the compiler vectorises (pmaddwd
 * on x86, vmlal on NEON). Copies are redone only when the runner bumped
 * the buffer's version.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "error.h"

struct packed {
	int16_t *a;			/* [rows + 3][cols + 3] */
	int16_t *bt;			/* [cols + 3][rows + 3], B transposed */
	uint64_t a_version;
	uint64_t bt_version;
};

struct sw_run {
	struct packed *p;		/* by buffer */
};

/* Product terms are at most 2^14 and jobs at most 2^17 terms long: int32 is exact. */
__attribute__((optimize("O3")))
static int32_t dot(const int16_t *restrict x, const int16_t *restrict y, size_t n)
{
	int32_t s = 0;

	for (size_t k = 0; k < n; k++)
		s += (int32_t)x[k] * y[k];
	return s;
}

static int pack(struct ttpu_run_ctx *ctx, uint32_t buf, bool transposed,
		struct ttpu_error *err)
{
	struct sw_run *sw = ctx->engine_scratch;
	struct packed *pk = &sw->p[buf];
	const struct ttpu_buffer *b = &ctx->prog->buffers[buf];
	const int8_t *d = ctx->data[buf];
	int16_t **dst = transposed ? &pk->bt : &pk->a;
	uint64_t *ver = transposed ? &pk->bt_version : &pk->a_version;
	size_t rows = b->rows, cols = b->cols;

	if (*dst && *ver == ctx->version[buf])
		return 0;
	if (!*dst) {
		*dst = calloc((rows + 3) * (cols + 3), sizeof(int16_t));
		if (!*dst)
			return ttpu_error_nomem(err, "packing an operand (software engine)");
	}
	/* Padding stays zero from calloc; only the data part is rewritten. */
	if (transposed) {
		for (size_t r = 0; r < rows; r++)
			for (size_t c = 0; c < cols; c++)
				(*dst)[c * (rows + 3) + r] = d[r * cols + c];
	} else {
		for (size_t r = 0; r < rows; r++)
			for (size_t c = 0; c < cols; c++)
				(*dst)[r * (cols + 3) + c] = d[r * cols + c];
	}
	*ver = ctx->version[buf];
	return 0;
}

static int sw_run_begin(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx,
			struct ttpu_error *err)
{
	struct sw_run *sw = calloc(1, sizeof(*sw));

	if (sw)
		sw->p = calloc(ctx->prog->nbuffers + 1, sizeof(*sw->p));
	if (!sw || !sw->p) {
		free(sw);
		return ttpu_error_nomem(err, "starting the software engine");
	}
	ctx->engine_scratch = sw;
	return 0;
}

static void sw_run_end(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx)
{
	struct sw_run *sw = ctx->engine_scratch;

	if (!sw)
		return;
	for (size_t i = 0; i < ctx->prog->nbuffers; i++) {
		free(sw->p[i].a);
		free(sw->p[i].bt);
	}
	free(sw->p);
	free(sw);
	ctx->engine_scratch = NULL;
}

static bool starts_inside(const struct ttpu_program *prog, const struct ttpu_window *w)
{
	const struct ttpu_buffer *b = &prog->buffers[w->buf];

	return w->r < b->rows && w->c < b->cols;
}

/* Add the sum of links [l, l + n) of one K-walk into out. */
static void add_walk(const struct ttpu_run_ctx *ctx, const struct ttpu_link *l,
		     uint32_t n, int32_t out[16])
{
	const struct sw_run *sw = ctx->engine_scratch;
	const struct ttpu_buffer *ab = &ctx->prog->buffers[l->a.buf];
	const struct ttpu_buffer *bb = &ctx->prog->buffers[l->b.buf];
	size_t as = (size_t)ab->cols + 3, bs = (size_t)bb->rows + 3;
	const int16_t *a = sw->p[l->a.buf].a + (size_t)l->a.r * as + l->a.c;
	const int16_t *b = sw->p[l->b.buf].bt + (size_t)l->b.c * bs + l->b.r;
	size_t len = (size_t)n * TTPU_TILE;

	for (int i = 0; i < TTPU_TILE; i++)
		for (int j = 0; j < TTPU_TILE; j++)
			out[i * TTPU_TILE + j] += dot(a + i * as, b + j * bs, len);
}

/* How many links from @l on continue one K-walk, all starting inside. */
static uint32_t walk_length(const struct ttpu_program *prog, const struct ttpu_link *l,
			    uint32_t left)
{
	const struct ttpu_buffer *ab = &prog->buffers[l->a.buf];
	const struct ttpu_buffer *bb = &prog->buffers[l->b.buf];
	uint32_t n = 1;

	while (n < left) {
		const struct ttpu_link *x = &l[n];

		if (x->a.buf != l->a.buf || x->b.buf != l->b.buf ||
		    x->a.r != l->a.r || x->b.c != l->b.c ||
		    (uint64_t)x->a.c != (uint64_t)l->a.c + (uint64_t)n * TTPU_TILE ||
		    (uint64_t)x->b.r != (uint64_t)l->b.r + (uint64_t)n * TTPU_TILE ||
		    x->a.c >= ab->cols || x->b.r >= bb->rows)
			break;
		n++;
	}
	return n;
}

static int sw_compute_stage(struct ttpu_engine *eng, struct ttpu_run_ctx *ctx,
			    const struct ttpu_stage *stage, const uint8_t *host_job,
			    int32_t (*sums)[16], struct ttpu_error *err)
{
	const struct ttpu_program *prog = ctx->prog;
	const struct ttpu_plan *plan = prog->plan;
	int ret;

	for (uint32_t j = 0; j < stage->njobs; j++) {
		const struct ttpu_job *job = &plan->jobs[stage->first_job + j];
		const struct ttpu_link *links = &plan->links[job->first_link];
		uint32_t i = 0;

		if (host_job && host_job[j])
			continue;	/* the runner's, fused with its range check */
		memset(sums[j], 0, sizeof(sums[j]));
		while (i < job->nlinks) {
			const struct ttpu_link *l = &links[i];
			uint32_t n;

			if (!starts_inside(prog, &l->a) || !starts_inside(prog, &l->b)) {
				i++;
				continue;
			}
			ret = pack(ctx, l->a.buf, false, err);
			if (!ret)
				ret = pack(ctx, l->b.buf, true, err);
			if (ret)
				return ret;
			n = walk_length(prog, l, job->nlinks - i);
			add_walk(ctx, l, n, sums[j]);
			i += n;
		}
	}
	return 0;
}

static void sw_close(struct ttpu_engine *eng)
{
	free(eng);
}

static const struct ttpu_engine_ops sw_ops = {
	.run_begin = sw_run_begin,
	.compute_stage = sw_compute_stage,
	.run_end = sw_run_end,
	.close = sw_close,
};

/* The CPU is always there: AUTO's last resort. */
static int sw_present(const char *device, char *why, size_t why_size,
		      struct ttpu_error *err)
{
	return 1;
}

static int sw_open(const char *device, struct ttpu_engine **out,
		   struct ttpu_error *err)
{
	struct ttpu_engine *eng = calloc(1, sizeof(*eng));

	*out = NULL;
	if (!eng)
		return ttpu_error_nomem(err, "starting the software engine");
	eng->ops = &sw_ops;
	snprintf(eng->reason, sizeof(eng->reason), "software engine requested");
	*out = eng;
	return 0;
}

const struct ttpu_engine_type ttpu_software_engine_type = {
	.name = "software",
	.present = sw_present,
	.open = sw_open,
};
