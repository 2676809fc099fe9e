// SPDX-License-Identifier: MIT
/*
 * run_range.c - exact range checks of a chain without redoing its products
 *
 * For the chains an engine computes (since issue 20 those into i32
 * buffers; chains into i8 buffers are the runner's, run_replay.c, except
 * in acc_writes_operand stages, which keep their own replay in run.c).
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
 * of a deferred step its exact |tmp|. When an element of the window is
 * settled by neither, the chain is replayed a tile at a time: each step
 * with a non-zero bound is one 4x4x4 product of the 16 elements (a step
 * whose bound is 0 adds exactly 0), added to the 16 partial sums and
 * checked with them, so the first failure (smallest step, then window
 * order, as one-by-one execution checks) is the chain's RangeError. The
 * replay's cost is the chain's length, whatever the values: elements no
 * longer go one by one through a bounds-checked scalar product each
 * (Documentation/host-cost.rst, "Range checks a tile at a time, then fused").
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

static int64_t get(const struct ttpu_buffer *b, const void *d, size_t e)
{
	return b->dtype == TTPU_DTYPE_I8 ? ((const int8_t *)d)[e] : ((const int32_t *)d)[e];
}

static const int32_t *tmp_of(const struct ttpu_run_ctx *ctx, const struct ttpu_step *s)
{
	return ctx->tmp + (size_t)ctx->prog->plan->tmp_index[s->slot] * TTPU_TILE_ELEMS;
}

/*
 * The chain's steps replayed a tile at a time: every element's partial
 * sums after every live step, the 16 at once. Returns the first step at
 * which an element of the window (@nr x @nc) leaves its dtype, the first
 * such element in row-major (window) order and its value; UINT32_MAX when
 * none does. The same answer as checking each element step by step, at a
 * cost that depends on the chain's length, not on its values.
 */
static uint32_t first_failure(const struct ttpu_range *rg, const struct ttpu_run_ctx *ctx,
			      const struct ttpu_chain *ch, const int64_t d0[16],
			      uint32_t nr, uint32_t nc, uint8_t dtype, uint32_t *elem,
			      int64_t *value)
{
	const struct ttpu_plan *plan = ctx->prog->plan;
	const struct ttpu_step *steps = &plan->steps[ch->first_step];
	int64_t lo = ttpu_dtype_min(dtype), hi = ttpu_dtype_max(dtype);
	int64_t v[16], vlo[16], vhi[16];
	int32_t t[16];

	/* Elements outside the window have bounds no sum can reach. */
	for (int e = 0; e < TTPU_TILE_ELEMS; e++) {
		bool in = (uint32_t)e / TTPU_TILE < nr && (uint32_t)e % TTPU_TILE < nc;

		v[e] = in ? d0[e] : 0;
		vlo[e] = in ? lo : INT64_MIN;
		vhi[e] = in ? hi : INT64_MAX;
	}
	for (uint32_t x = 0; x < rg->nlive; x++) {
		uint32_t s = rg->live[x];
		const int32_t *add = t;
		int bad = 0;

		if (steps[s].link == TTPU_NO_LINK) {
			add = tmp_of(ctx, &steps[s]);
		} else {
			const struct ttpu_link *l = &plan->links[steps[s].link];

			ttpu_link_product(ctx->prog, ctx->data, &l->a, &l->b, t);
		}
		for (int e = 0; e < TTPU_TILE_ELEMS; e++) {
			v[e] += add[e];
			bad |= (v[e] < vlo[e]) | (v[e] > vhi[e]);
		}
		if (!bad)
			continue;
		for (int e = 0; e < TTPU_TILE_ELEMS; e++) {
			if (v[e] < vlo[e] || v[e] > vhi[e]) {
				*elem = (uint32_t)e;
				*value = v[e];
				return s;
			}
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
	uint32_t live[16], link_live = 0, fail_step = UINT32_MAX, fail_x = 0, nr, nc;
	uint64_t link_bound = 0;
	size_t fail_elem = 0;
	int64_t fail_value = 0, d0[16], max_bound = 0;
	bool unsettled = false;

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
	/* Elements the bounds settle cannot fail; one that they do not makes the tile replay. */
	for (uint32_t i = 0; i < TTPU_TILE; i++) {
		for (uint32_t j = 0; j < TTPU_TILE; j++) {
			uint32_t x = i * TTPU_TILE + j, n = link_live + live[x];
			int64_t s = total[x], l = (int64_t)link_bound + bound[x];

			d0[x] = 0;
			max_bound = bound[x] > max_bound ? bound[x] : max_bound;
			if (i >= nr || j >= nc)
				continue;
			d0[x] = get(b, d, (size_t)(ch->dst.r + i) * b->cols + ch->dst.c + j);
			if (n <= 1 ? ttpu_fits_dtype(d0[x] + s, b->dtype) :
			    2 * d0[x] + s + l <= 2 * hi && 2 * d0[x] + s - l >= 2 * lo)
				continue;
			unsettled = true;
		}
	}
	/*
	 * Chains into i8 are the runner's own (run_split.h, run_replay.c):
	 * what comes here is wider, and replays in 64 bits.
	 */
	if (unsettled)
		fail_step = first_failure(rg, ctx, ch, d0, nr, nc, b->dtype, &fail_x, &fail_value);
	if (fail_step != UINT32_MAX)
		fail_elem = (size_t)(ch->dst.r + fail_x / TTPU_TILE) * b->cols + ch->dst.c +
			    fail_x % TTPU_TILE;
	if (fail_step != UINT32_MAX)
		return ttpu_host_range_error(ctx, steps[fail_step].acc_cmd, ch->dst.buf,
					     fail_elem, fail_value, TTPU_HOST_ACC_STEP, err);

	int32_t add[16];

	for (int e = 0; e < TTPU_TILE_ELEMS; e++)
		add[e] = (int32_t)total[e];
	ttpu_host_acc_add_unchecked(ctx, &ch->dst, add);
	return 0;
}
