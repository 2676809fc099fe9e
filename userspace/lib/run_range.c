// SPDX-License-Identifier: MIT
/*
 * run_range.c - exact range checks of a chain without redoing its products
 *
 * One-by-one execution of a chain adds its steps t_1..t_n to dst and checks
 * every element after every step. The engine gives the total S = sum t_s.
 * With per-step magnitude bounds |t_s| <= U_s and L = sum U_s, every
 * partial sum P_k = t_1 + ... + t_k satisfies both |P_k| <= A_k and
 * |S - P_k| <= L - A_k (A_k = U_1 + ... + U_k), hence
 *
 *	(S - L) / 2 <= P_k <= (S + L) / 2	for every k,
 *
 * so an element whose d0 + (S +- L) / 2 fits its dtype cannot fail at any
 * step, and one with at most one step of non-zero bound fails iff d0 + S
 * does not fit. U_s of a link is 4 * max|a window| * max|b window| (read
 * from a per-buffer table of aligned 4x4 block maxima, kept per version),
 * of a deferred step its exact |tmp|. Only the elements neither settles
 * are replayed, each as its own dot products over the chain's steps with
 * the zero-bound ones skipped, and the first failure among them (smallest
 * step, then window order, as one-by-one execution checks) is the
 * chain's RangeError.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "run_host.h"
#include "run_range.h"
#include "util.h"

int ttpu_range_init(struct ttpu_range *rg, const struct ttpu_program *prog,
		    struct ttpu_error *err)
{
	memset(rg, 0, sizeof(*rg));
	rg->blockmax = calloc(prog->nbuffers + 1, sizeof(*rg->blockmax));
	rg->blockmax_version = calloc(prog->nbuffers + 1, sizeof(*rg->blockmax_version));
	if (!rg->blockmax || !rg->blockmax_version) {
		ttpu_range_release(rg, prog);
		return ttpu_error_nomem(err, "starting the range checks");
	}
	return 0;
}

void ttpu_range_release(struct ttpu_range *rg, const struct ttpu_program *prog)
{
	if (rg->blockmax)
		for (size_t i = 0; i < prog->nbuffers; i++)
			free(rg->blockmax[i]);
	free(rg->blockmax);
	free(rg->blockmax_version);
	free(rg->live);
	memset(rg, 0, sizeof(*rg));
}

static uint8_t absmax_i8(uint8_t m, int8_t v)
{
	uint8_t a = (uint8_t)(v < 0 ? -(int)v : v);

	return a > m ? a : m;
}

static size_t grid_cols(const struct ttpu_buffer *b)
{
	return (b->cols + TTPU_TILE - 1) / TTPU_TILE;
}

/* The block-maximum table of i8 buffer @buf as it is now. */
static const uint8_t *blockmax_of(struct ttpu_range *rg, const struct ttpu_run_ctx *ctx,
				  uint32_t buf)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[buf];
	const int8_t *d = ctx->data[buf];
	size_t gc = grid_cols(b), gr = (b->rows + TTPU_TILE - 1) / TTPU_TILE;
	uint8_t *m = rg->blockmax[buf];

	if (m && rg->blockmax_version[buf] == ctx->version[buf])
		return m;
	if (!m) {
		m = calloc(gr * gc + 1, 1);
		if (!m)
			return NULL;
		rg->blockmax[buf] = m;
	} else {
		memset(m, 0, gr * gc);
	}
	for (size_t r = 0; r < b->rows; r++) {
		const int8_t *dr = d + r * b->cols;
		uint8_t *row = m + (r / TTPU_TILE) * gc;
		size_t c = 0, t = 0;

		/* A tile's columns at a time: one load and store of its maximum. */
		for (; c + TTPU_TILE <= b->cols; c += TTPU_TILE, t++) {
			uint8_t x = row[t];

			for (size_t k = 0; k < TTPU_TILE; k++)
				x = absmax_i8(x, dr[c + k]);
			row[t] = x;
		}
		for (; c < b->cols; c++)
			row[t] = absmax_i8(row[t], dr[c]);
	}
	rg->blockmax_version[buf] = ctx->version[buf];
	return m;
}

/*
 * The block table last used, so that a chain's links, which read the same
 * two buffers, look it up once.
 */
struct grid_cache {
	uint32_t buf;
	const uint8_t *grid;
	uint32_t rows, cols;
	size_t grid_cols;
};

/* max |value| over the in-bounds part of window @w, read value by value. */
static uint32_t window_max_slow(const struct ttpu_run_ctx *ctx, const struct ttpu_window *w)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[w->buf];
	const int8_t *d = ctx->data[w->buf];
	uint8_t m = 0;

	for (uint64_t r = w->r; r < (uint64_t)w->r + TTPU_TILE && r < b->rows; r++)
		for (uint64_t c = w->c; c < (uint64_t)w->c + TTPU_TILE && c < b->cols; c++)
			m = absmax_i8(m, d[r * b->cols + c]);
	return m;
}

/*
 * max |value| over the in-bounds part of window @w of an i8 buffer: an
 * aligned window is one entry of the block table (a tiled matmul's windows
 * all are).
 */
static inline uint32_t window_max(struct ttpu_range *rg, const struct ttpu_run_ctx *ctx,
				  struct grid_cache *gc, const struct ttpu_window *w)
{
	if ((w->r | w->c) % TTPU_TILE)
		return window_max_slow(ctx, w);
	if (gc->buf != w->buf || !gc->grid) {
		const struct ttpu_buffer *b = &ctx->prog->buffers[w->buf];

		gc->buf = w->buf;
		gc->grid = blockmax_of(rg, ctx, w->buf);
		gc->rows = b->rows;
		gc->cols = b->cols;
		gc->grid_cols = grid_cols(b);
		if (!gc->grid)
			return window_max_slow(ctx, w);
	}
	if (w->r >= gc->rows || w->c >= gc->cols)
		return 0;
	return gc->grid[(w->r / TTPU_TILE) * gc->grid_cols + w->c / TTPU_TILE];
}

/* Element (i, j) of one link's 4x4x4 product, zero outside the operands. */
static int32_t link_element(const struct ttpu_run_ctx *ctx, const struct ttpu_link *l,
			    uint32_t i, uint32_t j)
{
	const struct ttpu_buffer *ab = &ctx->prog->buffers[l->a.buf];
	const struct ttpu_buffer *bb = &ctx->prog->buffers[l->b.buf];
	const int8_t *ad = ctx->data[l->a.buf], *bd = ctx->data[l->b.buf];
	uint64_t ar = (uint64_t)l->a.r + i, bc = (uint64_t)l->b.c + j;
	int32_t s = 0;

	if (ar >= ab->rows || bc >= bb->cols)
		return 0;
	for (uint64_t k = 0; k < TTPU_TILE; k++) {
		uint64_t ac = l->a.c + k, br = l->b.r + k;

		if (ac < ab->cols && br < bb->rows)
			s += ad[ar * ab->cols + ac] * bd[br * bb->cols + bc];
	}
	return s;
}

static int64_t get(const struct ttpu_buffer *b, const void *d, size_t e)
{
	return b->dtype == TTPU_DTYPE_I8 ? ((const int8_t *)d)[e] : ((const int32_t *)d)[e];
}

static const int32_t *tmp_of(const struct ttpu_run_ctx *ctx, const struct ttpu_step *s)
{
	return ctx->tmp + (size_t)ctx->prog->plan->tmp_index[s->slot] * TTPU_TILE_ELEMS;
}

/* The first step at which element (i, j), d0 before the chain, leaves its dtype. */
static uint32_t first_failure(const struct ttpu_range *rg, const struct ttpu_run_ctx *ctx,
			      const struct ttpu_chain *ch, uint32_t i, uint32_t j,
			      int64_t d0, uint8_t dtype, int64_t *value)
{
	const struct ttpu_plan *plan = ctx->prog->plan;
	const struct ttpu_step *steps = &plan->steps[ch->first_step];
	int64_t v = d0;

	for (uint32_t x = 0; x < rg->nlive; x++) {
		uint32_t s = rg->live[x];

		if (steps[s].link == TTPU_NO_LINK)
			v += tmp_of(ctx, &steps[s])[i * TTPU_TILE + j];
		else
			v += link_element(ctx, &plan->links[steps[s].link], i, j);
		if (!ttpu_fits_dtype(v, dtype)) {
			*value = v;
			return s;
		}
	}
	return UINT32_MAX;
}

int ttpu_range_add_chain(struct ttpu_range *rg, struct ttpu_run_ctx *ctx,
			 const struct ttpu_chain *ch, const int32_t sum[16],
			 struct ttpu_error *err)
{
	const struct ttpu_plan *plan = ctx->prog->plan;
	const struct ttpu_step *steps = &plan->steps[ch->first_step];
	const struct ttpu_buffer *b = &ctx->prog->buffers[ch->dst.buf];
	const void *d = ctx->data[ch->dst.buf];
	int64_t total[16], bound[16], lo = ttpu_dtype_min(b->dtype), hi = ttpu_dtype_max(b->dtype);
	uint32_t live[16], link_live = 0, fail_step = UINT32_MAX, nr, nc;
	uint64_t link_bound = 0;
	size_t fail_elem = 0;
	int64_t fail_value = 0;

	struct grid_cache ga = { .grid = NULL }, gb = { .grid = NULL };

	if (ttpu_grow(&rg->live, &rg->live_cap, ch->nsteps, sizeof(*rg->live)))
		return ttpu_error_nomem(err, "checking a chain's range");
	rg->nlive = 0;
	for (int e = 0; e < TTPU_TILE_ELEMS; e++) {
		total[e] = sum[e];
		bound[e] = 0;
		live[e] = 0;
	}
	for (uint32_t s = 0; s < ch->nsteps; s++) {
		if (steps[s].link == TTPU_NO_LINK) {
			const int32_t *t = tmp_of(ctx, &steps[s]);

			rg->live[rg->nlive++] = s;	/* its values are at hand */
			for (int e = 0; e < TTPU_TILE_ELEMS; e++) {
				total[e] += t[e];
				bound[e] += t[e] < 0 ? -(int64_t)t[e] : t[e];
				live[e] += t[e] != 0;
			}
			continue;
		}
		const struct ttpu_link *l = &plan->links[steps[s].link];

		/* Weights (b) are the sparse side of a matmul: look there first. */
		uint32_t u = window_max(rg, ctx, &gb, &l->b);

		if (u)
			u *= TTPU_TILE * window_max(rg, ctx, &ga, &l->a);
		if (!u)
			continue;
		rg->live[rg->nlive++] = s;
		link_bound += u;
		link_live++;
	}

	nr = ch->dst.r >= b->rows ? 0 : (uint32_t)(b->rows - ch->dst.r < TTPU_TILE ? b->rows - ch->dst.r : TTPU_TILE);
	nc = ch->dst.c >= b->cols ? 0 : (uint32_t)(b->cols - ch->dst.c < TTPU_TILE ? b->cols - ch->dst.c : TTPU_TILE);
	for (uint32_t i = 0; i < nr; i++) {
		for (uint32_t j = 0; j < nc; j++) {
			size_t e = (size_t)(ch->dst.r + i) * b->cols + ch->dst.c + j;
			int64_t d0 = get(b, d, e), s = total[i * TTPU_TILE + j];
			int64_t l = (int64_t)link_bound + bound[i * TTPU_TILE + j], v;
			uint32_t n = link_live + live[i * TTPU_TILE + j], at;

			if (n <= 1 ? ttpu_fits_dtype(d0 + s, b->dtype) :
			    2 * d0 + s + l <= 2 * hi && 2 * d0 + s - l >= 2 * lo)
				continue;
			at = first_failure(rg, ctx, ch, i, j, d0, b->dtype, &v);
			if (at < fail_step) {
				fail_step = at;
				fail_elem = e;
				fail_value = v;
			}
		}
	}
	if (fail_step != UINT32_MAX)
		return ttpu_host_range_error(ctx, steps[fail_step].acc_cmd, ch->dst.buf,
					     fail_elem, fail_value, TTPU_HOST_ACC_STEP, err);

	int32_t add[16];

	for (int e = 0; e < TTPU_TILE_ELEMS; e++)
		add[e] = (int32_t)total[e];
	ttpu_host_acc_add_unchecked(ctx, &ch->dst, add);
	return 0;
}
