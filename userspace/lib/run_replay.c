// SPDX-License-Identifier: MIT
/*
 * run_replay.c - a host chain's product and its exact range check, fused
 *
 * One-by-one execution adds a chain's steps to an i8 window and checks
 * every element after every step. For dense data no bound settles that
 * without the partial sums, so the check is the chain's product taken step
 * by step; the runner takes it once here, and no engine computes the chain
 * (run_split.h). The replay adds every step, whatever its values (no step
 * or window is skipped for being zero or small), tracking each element's
 * largest biased partial sum (run_replay_steps.h): its cost is the chain's
 * length. Only when a partial sum left i8 does the exact replay
 * (ttpu_replay_exact()) run again to find the first failing step, element
 * and value, the RangeError one-by-one execution raises: failing runs
 * cost more, legal ones never do.
 *
 * The kernels: here the walk with SSE2 on x86-64, in plain C elsewhere
 * (armhf without NEON), both also for windows past the destination's
 * edge; NEON in run_replay_neon.c (armhf with NEON, chosen at run time),
 * which also does two neighbouring chains' steps as one 4x8 product when
 * they read one A window.
 */
#include <stdlib.h>
#include <string.h>

#include "run_host.h"
#include "run_range_neon.h"
#include "run_replay.h"
#include "run_replay_steps.h"

void ttpu_replay_table_free(struct ttpu_replay_table *t)
{
	if (!t)
		return;
	free(t->off);
	free(t->bufs);
	free(t->pair_next);
	free(t);
}

static bool full_window(const struct ttpu_program *prog, const struct ttpu_window *w)
{
	const struct ttpu_buffer *b = &prog->buffers[w->buf];

	return (uint64_t)w->r + TTPU_TILE <= b->rows && (uint64_t)w->c + TTPU_TILE <= b->cols;
}

/*
 * What one chain's steps read, worked out once a chain: its A and B
 * buffers, how far a window's origin may go in each and still be wholly
 * inside it, and their row strides. A buffer of OTHER elements or more
 * would have no rows step; no program has one (TTPU_MAX_TOTAL_ELEMENTS,
 * 2^28, is every buffer's limit).
 */
struct chain_bufs {
	uint32_t a, b;			/* buffer ids */
	uint64_t ar, ac, br, bc;	/* largest origin row, column + 1; 0: none */
	uint32_t as, bs;		/* row strides */
};

static uint64_t origins(uint32_t extent)
{
	return extent >= TTPU_TILE ? (uint64_t)extent - TTPU_TILE + 1 : 0;
}

static void chain_bufs_of(const struct ttpu_program *prog, const struct ttpu_link *l,
			  struct chain_bufs *cb)
{
	const struct ttpu_buffer *a = &prog->buffers[l->a.buf], *b = &prog->buffers[l->b.buf];
	bool fits = (uint64_t)a->rows * a->cols < TTPU_REPLAY_OTHER &&
		    (uint64_t)b->rows * b->cols < TTPU_REPLAY_OTHER;

	cb->a = l->a.buf;
	cb->b = l->b.buf;
	cb->ar = fits ? origins(a->rows) : 0;
	cb->ac = origins(a->cols);
	cb->br = origins(b->rows);
	cb->bc = origins(b->cols);
	cb->as = a->cols;
	cb->bs = b->cols;
}

/*
 * The compiler's tiling: step s of @ch reads link first + s, A at (r, c +
 * 4s) and B at (r + 4s, c), every window inside its buffer (the first's
 * and the last's are, so all are). The offsets then go up by 4 and by 4
 * rows of B a step: each step's link is compared with the windows
 * expected of it, and nothing is computed from it. False when a step is
 * otherwise (what was written is then written again).
 */
static bool progression(const struct ttpu_plan *plan, const struct ttpu_chain *ch,
			const struct chain_bufs *cb, uint32_t (*off)[2])
{
	const struct ttpu_step *st = &plan->steps[ch->first_step];
	uint32_t n = ch->nsteps, first = st[0].link, s;
	const struct ttpu_link *l = &plan->links[first];
	uint32_t ar = l->a.r, ac = l->a.c, br = l->b.r, bc = l->b.c, oa, ob;
	uint64_t last = (uint64_t)TTPU_TILE * (n - 1);

	if (ar >= cb->ar || ac + last >= cb->ac || br + last >= cb->br || bc >= cb->bc)
		return false;
	oa = ar * cb->as + ac;
	ob = br * cb->bs + bc;
	for (s = 0; s < n; s++, l++) {
		if (st[s].link != first + s || l->a.buf != cb->a || l->a.r != ar ||
		    l->a.c != ac + TTPU_TILE * s || l->b.buf != cb->b ||
		    l->b.r != br + TTPU_TILE * s || l->b.c != bc)
			return false;
		off[s][0] = oa + TTPU_TILE * s;
		off[s][1] = ob + TTPU_TILE * s * cb->bs;
	}
	return true;
}

/*
 * Chain @ch's steps' offsets into @off and its buffers into @bufs; @lead
 * gets its first step's offsets when its steps are a progression(), OTHER
 * otherwise. A step is a rows step when its link reads the chain's A and
 * B buffers (its first link's) through windows wholly inside them; its
 * offsets are then those windows' first bytes. The buffers' limits are
 * worked out once a chain, not a step.
 */
static void chain_offsets(const struct ttpu_program *prog, const struct ttpu_chain *ch,
			  uint32_t (*off)[2], uint32_t bufs[2], uint32_t lead[2])
{
	const struct ttpu_plan *plan = prog->plan;
	const struct ttpu_step *st = &plan->steps[ch->first_step];
	struct chain_bufs cb;
	uint32_t s = 0;

	bufs[0] = bufs[1] = TTPU_NO_BUFFER;
	lead[0] = lead[1] = TTPU_REPLAY_OTHER;
	for (; s < ch->nsteps && st[s].link == TTPU_NO_LINK; s++)
		off[s][0] = off[s][1] = TTPU_REPLAY_OTHER;
	if (s == ch->nsteps)
		return;
	chain_bufs_of(prog, &plan->links[st[s].link], &cb);
	bufs[0] = cb.a;
	bufs[1] = cb.b;
	if (!s && progression(plan, ch, &cb, off)) {
		lead[0] = off[0][0];
		lead[1] = off[0][1];
		return;
	}
	for (; s < ch->nsteps; s++) {
		const struct ttpu_link *l;

		off[s][0] = off[s][1] = TTPU_REPLAY_OTHER;
		if (st[s].link == TTPU_NO_LINK)
			continue;
		l = &plan->links[st[s].link];
		if (l->a.buf == cb.a && l->b.buf == cb.b && l->a.r < cb.ar && l->a.c < cb.ac &&
		    l->b.r < cb.br && l->b.c < cb.bc) {
			/* Below rows * cols < OTHER: no wrap in 32 bits. */
			off[s][0] = l->a.r * cb.as + l->a.c;
			off[s][1] = l->b.r * cb.bs + l->b.c;
		}
	}
}

/*
 * Whether @c1 can go with @c0 through the NEON 4x8 step, at every step:
 * the same buffers, full windows, and every step a rows step of both
 * reading one A window and B windows side by side. Two progressions (the
 * same buffers, so the same strides) do when their first steps do.
 */
static bool pairs(const struct ttpu_program *prog, const struct ttpu_replay_table *t,
		  const uint32_t (*lead)[2], const struct ttpu_chain *c0,
		  const struct ttpu_chain *c1)
{
	const struct ttpu_plan *plan = prog->plan;
	size_t k0 = (size_t)(c0 - plan->chains), k1 = (size_t)(c1 - plan->chains);
	const uint32_t *bufs0 = t->bufs[k0], *bufs1 = t->bufs[k1];
	const uint32_t (*o0)[2] = (const uint32_t (*)[2])t->off + c0->first_step;
	const uint32_t (*o1)[2] = (const uint32_t (*)[2])t->off + c1->first_step;

	if (c0->nsteps != c1->nsteps || !c0->nsteps || bufs0[0] == TTPU_NO_BUFFER ||
	    bufs0[0] != bufs1[0] || bufs0[1] != bufs1[1] ||
	    !full_window(prog, &c0->dst) || !full_window(prog, &c1->dst))
		return false;
	if (lead[k0][0] != TTPU_REPLAY_OTHER && lead[k1][0] != TTPU_REPLAY_OTHER)
		return lead[k1][0] == lead[k0][0] && lead[k1][1] == lead[k0][1] + TTPU_TILE;
	for (uint32_t s = 0; s < c0->nsteps; s++)
		if (o0[s][0] == TTPU_REPLAY_OTHER || o1[s][0] != o0[s][0] ||
		    o1[s][1] != o0[s][1] + TTPU_TILE)
			return false;
	return true;
}

static struct ttpu_replay_table *table_make(const struct ttpu_program *prog)
{
	const struct ttpu_plan *plan = prog->plan;
	struct ttpu_replay_table *t = calloc(1, sizeof(*t));
	uint32_t (*lead)[2] = malloc((plan->nchains + 1) * sizeof(*lead));

	if (!t || !lead)
		goto oom;
	t->off = malloc((plan->nsteps + 1) * sizeof(*t->off));
	t->bufs = malloc((plan->nchains + 1) * sizeof(*t->bufs));
	t->pair_next = calloc(plan->nchains + 1, 1);
	if (!t->off || !t->bufs || !t->pair_next)
		goto oom;
	for (size_t k = 0; k < plan->nchains; k++)
		chain_offsets(prog, &plan->chains[k], t->off + plan->chains[k].first_step,
			      t->bufs[k], lead[k]);
	for (size_t k = 0; k + 1 < plan->nchains; k++)
		t->pair_next[k] = pairs(prog, t, (const uint32_t (*)[2])lead, &plan->chains[k],
					&plan->chains[k + 1]);
	free(lead);
	return t;
oom:
	free(lead);
	ttpu_replay_table_free(t);
	return NULL;
}

const struct ttpu_replay_table *ttpu_replay_table_of(const struct ttpu_program *prog)
{
	/* A cache: the program is otherwise immutable once loaded. */
	struct ttpu_replay_table **slot = &((struct ttpu_program *)prog)->replay_table;
	struct ttpu_replay_table *t = __atomic_load_n(slot, __ATOMIC_ACQUIRE), *mine;

	if (t)
		return t;
	/* Runs on several threads may race: the first to publish wins. */
	mine = table_make(prog);
	if (!mine)
		return NULL;
	if (__atomic_compare_exchange_n(slot, &t, mine, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return mine;
	ttpu_replay_table_free(mine);
	return t;
}

void ttpu_replay_walk_init(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_table *t,
			   const struct ttpu_chain *ch, struct ttpu_replay_walk *w)
{
	const struct ttpu_plan *plan = ctx->prog->plan;
	const uint32_t *bufs = t->bufs[ch - plan->chains];

	w->steps = &plan->steps[ch->first_step];
	w->off = (const uint32_t (*)[2])t->off + ch->first_step;
	w->nsteps = ch->nsteps;
	w->a = w->b = NULL;
	w->as = w->bs = 0;
	if (bufs[0] == TTPU_NO_BUFFER)
		return;		/* no rows step: every offset is OTHER */
	w->a = ctx->data[bufs[0]];
	w->b = ctx->data[bufs[1]];
	w->as = ctx->prog->buffers[bufs[0]].cols;
	w->bs = ctx->prog->buffers[bufs[1]].cols;
}

static const int32_t *tmp_of(const struct ttpu_run_ctx *ctx, const struct ttpu_step *s)
{
	return ctx->tmp + (size_t)ctx->prog->plan->tmp_index[s->slot] * TTPU_TILE_ELEMS;
}

bool ttpu_replay_other_step(const struct ttpu_run_ctx *ctx, const struct ttpu_step *s,
			    uint32_t w[16])
{
	const struct ttpu_plan *plan = ctx->prog->plan;
	int32_t prod[16];
	const int32_t *t = prod;

	if (s->link == TTPU_NO_LINK) {
		t = tmp_of(ctx, s);
		for (int e = 0; e < TTPU_TILE_ELEMS; e++)
			if (t[e] > TTPU_PRODUCT_BOUND || t[e] < -TTPU_PRODUCT_BOUND)
				return false;
	} else {
		const struct ttpu_link *l = &plan->links[s->link];

		ttpu_link_product(ctx->prog, ctx->data, &l->a, &l->b, prod);
	}
	for (int e = 0; e < TTPU_TILE_ELEMS; e++)
		w[e] += (uint32_t)t[e];
	return true;
}

/* The in-bounds extent of @ch's window: nr rows, nc columns. */
static void extent(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		   uint32_t *nr, uint32_t *nc)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[ch->dst.buf];
	const struct ttpu_window *w = &ch->dst;

	*nr = w->r >= b->rows ? 0 : (uint32_t)(b->rows - w->r < TTPU_TILE ? b->rows - w->r : TTPU_TILE);
	*nc = w->c >= b->cols ? 0 : (uint32_t)(b->cols - w->c < TTPU_TILE ? b->cols - w->c : TTPU_TILE);
}

/* dst's current values, biased (0 outside the window), and the window's extent. */
static void start(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		  uint32_t w0[16], uint32_t *nr, uint32_t *nc)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[ch->dst.buf];
	const int8_t *d = ctx->data[ch->dst.buf];

	extent(ctx, ch, nr, nc);
	memset(w0, 0, 16 * sizeof(*w0));
	for (uint32_t i = 0; i < *nr; i++)
		for (uint32_t j = 0; j < *nc; j++)
			w0[i * TTPU_TILE + j] = (uint32_t)(d[(size_t)(ch->dst.r + i) * b->cols +
						   ch->dst.c + j] + (int)TTPU_REPLAY_BIAS);
}

void ttpu_replay_exact(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		       struct ttpu_replay *out)
{
	const struct ttpu_plan *plan = ctx->prog->plan;
	const struct ttpu_step *steps = &plan->steps[ch->first_step];
	uint32_t w0[16], nr, nc;
	int64_t v[16];
	int32_t prod[16];

	start(ctx, ch, w0, &nr, &nc);
	for (int e = 0; e < TTPU_TILE_ELEMS; e++)
		v[e] = (int64_t)w0[e] - TTPU_REPLAY_BIAS;
	out->fail_step = UINT32_MAX;
	for (uint32_t s = 0; s < ch->nsteps; s++) {
		const int32_t *t = prod;

		if (steps[s].link == TTPU_NO_LINK) {
			t = tmp_of(ctx, &steps[s]);
		} else {
			const struct ttpu_link *l = &plan->links[steps[s].link];

			ttpu_link_product(ctx->prog, ctx->data, &l->a, &l->b, prod);
		}
		for (int e = 0; e < TTPU_TILE_ELEMS; e++)
			v[e] += t[e];
		/* The window's elements in its order: the first outside i8 fails. */
		for (uint32_t i = 0; i < nr; i++) {
			for (uint32_t j = 0; j < nc; j++) {
				int64_t x = v[i * TTPU_TILE + j];

				if (x >= -(int64_t)TTPU_REPLAY_BIAS &&
				    x <= (int64_t)TTPU_REPLAY_SPAN - TTPU_REPLAY_BIAS)
					continue;
				out->fail_step = s;
				out->fail_elem = i * TTPU_TILE + j;
				out->fail_value = x;
				return;
			}
		}
	}
	for (int e = 0; e < TTPU_TILE_ELEMS; e++)
		out->add[e] = (int32_t)(v[e] - ((int64_t)w0[e] - TTPU_REPLAY_BIAS));
}

#if defined(__SSE2__)

#include <emmintrin.h>

/* Four i8 at @p (no alignment) as the low four int16 lanes, sign-extended. */
static inline __m128i four_i16(const int8_t *p)
{
	int32_t x;
	__m128i v;

	memcpy(&x, p, 4);
	v = _mm_cvtsi32_si128(x);
	return _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8);
}

/* Rows @p and @p + @s interleaved: p[0], s[0], p[1], s[1], ... as int16. */
static inline __m128i two_rows_i16(const int8_t *p, size_t s)
{
	int32_t x, y;
	__m128i v;

	memcpy(&x, p, 4);
	memcpy(&y, p + s, 4);
	v = _mm_unpacklo_epi8(_mm_cvtsi32_si128(x), _mm_cvtsi32_si128(y));
	return _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8);
}

/*
 * The walk with SSE2 (x86-64's baseline): row i of the sums is one vector;
 * pmaddwd of B's rows k, k + 1 interleaved with A[i][k], A[i][k + 1]
 * gives their two products for the row's four columns at once. @mx gets
 * the OR of each element's biased sums over the steps rather than their
 * maximum (SSE2 has no unsigned maximum): it is at most 255 exactly when
 * every sum was.
 */
static bool scalar_walk(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_walk *wk,
			uint32_t w[16], uint32_t mx[16])
{
	__m128i r[4], o[4];
	bool ok = true;

	for (int i = 0; i < 4; i++) {
		r[i] = _mm_loadu_si128((const __m128i *)(w + 4 * i));
		o[i] = _mm_loadu_si128((const __m128i *)(mx + 4 * i));
	}
	for (uint32_t s = 0; s < wk->nsteps; s++) {
		uint32_t oa = wk->off[s][0], ob = wk->off[s][1];

		if (oa != TTPU_REPLAY_OTHER) {
			const int8_t *a = wk->a + oa, *b = wk->b + ob;
			size_t as = wk->as, bs = wk->bs;
			__m128i b01 = two_rows_i16(b, bs), b23 = two_rows_i16(b + 2 * bs, bs);

			for (int i = 0; i < 4; i++) {
				__m128i ai = four_i16(a + i * as);

				r[i] = _mm_add_epi32(r[i], _mm_madd_epi16(b01, _mm_shuffle_epi32(ai, 0x00)));
				r[i] = _mm_add_epi32(r[i], _mm_madd_epi16(b23, _mm_shuffle_epi32(ai, 0x55)));
			}
		} else {
			for (int i = 0; i < 4; i++)
				_mm_storeu_si128((__m128i *)(w + 4 * i), r[i]);
			ok = ttpu_replay_other_step(ctx, &wk->steps[s], w);
			for (int i = 0; i < 4; i++)
				r[i] = _mm_loadu_si128((const __m128i *)(w + 4 * i));
			if (!ok)
				break;
		}
		for (int i = 0; i < 4; i++)
			o[i] = _mm_or_si128(o[i], r[i]);
	}
	for (int i = 0; i < 4; i++) {
		_mm_storeu_si128((__m128i *)(w + 4 * i), r[i]);
		_mm_storeu_si128((__m128i *)(mx + 4 * i), o[i]);
	}
	return ok;
}

#else

/* w += the 4x4 product of A's rows at @a and B's at @b. */
static inline void rows_step(const int8_t *a, size_t as, const int8_t *b, size_t bs,
			     uint32_t w[16])
{
	/* A column of B in registers, the rows of A streamed past it. */
#pragma GCC unroll 4
	for (int j = 0; j < TTPU_TILE; j++) {
		int32_t b0 = b[j], b1 = b[bs + j], b2 = b[2 * bs + j], b3 = b[3 * bs + j];

#pragma GCC unroll 4
		for (int i = 0; i < TTPU_TILE; i++) {
			const int8_t *ar = a + i * as;

			w[i * TTPU_TILE + j] += (uint32_t)(ar[0] * b0 + ar[1] * b1 + ar[2] * b2 +
							   ar[3] * b3);
		}
	}
}

/* The scalar walk: @w from start to end, @mx each element's largest. */
static bool scalar_walk(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_walk *wk,
			uint32_t w[16], uint32_t mx[16])
{
	for (uint32_t s = 0; s < wk->nsteps; s++) {
		uint32_t oa = wk->off[s][0], ob = wk->off[s][1];

		if (oa != TTPU_REPLAY_OTHER)
			rows_step(wk->a + oa, wk->as, wk->b + ob, wk->bs, w);
		else if (!ttpu_replay_other_step(ctx, &wk->steps[s], w))
			return false;
		for (int e = 0; e < TTPU_TILE_ELEMS; e++)
			mx[e] = w[e] > mx[e] ? w[e] : mx[e];
	}
	return true;
}

#endif

/* The answer from a walk: the add, or the exact replay where a sum left i8. */
static void finish(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		   const uint32_t w0[16], const uint32_t w[16], bool fine,
		   struct ttpu_replay *out)
{
	if (!fine) {
		ttpu_replay_exact(ctx, ch, out);
		return;
	}
	out->fail_step = UINT32_MAX;
	for (int e = 0; e < TTPU_TILE_ELEMS; e++)
		out->add[e] = (int32_t)(w[e] - w0[e]);
}

static void scalar_chain(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_table *t,
			 const struct ttpu_chain *ch, struct ttpu_replay *out)
{
	struct ttpu_replay_walk wk;
	uint32_t w0[16], w[16], mx[16] = { 0 }, nr, nc;
	bool fine;

	start(ctx, ch, w0, &nr, &nc);
	memcpy(w, w0, sizeof(w));
	ttpu_replay_walk_init(ctx, t, ch, &wk);
	fine = scalar_walk(ctx, &wk, w, mx);
	for (uint32_t i = 0; fine && i < nr; i++)
		for (uint32_t j = 0; j < nc; j++)
			fine &= mx[i * TTPU_TILE + j] <= TTPU_REPLAY_SPAN;
	finish(ctx, ch, w0, w, fine, out);
}

/* Whether a column of @nc in-window ones has a maximum past the span. */
static bool columns_fine(const uint32_t mx[4], uint32_t nc)
{
	bool fine = true;

	for (uint32_t j = 0; j < nc; j++)
		fine &= mx[j] <= TTPU_REPLAY_SPAN;
	return fine;
}

void ttpu_replay_chain(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_table *t,
		       const struct ttpu_chain *ch, struct ttpu_replay *out)
{
	struct ttpu_replay_walk wk;
	uint32_t w0[16], w[16], mx[4], nr, nc;
	bool fine;

	if (!ttpu_range_neon_on()) {
		scalar_chain(ctx, t, ch, out);
		return;
	}
	start(ctx, ch, w0, &nr, &nc);
	if (nr != TTPU_TILE) {
		/* NEON keeps a column's maximum over all four rows. */
		scalar_chain(ctx, t, ch, out);
		return;
	}
	memcpy(w, w0, sizeof(w));
	ttpu_replay_walk_init(ctx, t, ch, &wk);
	fine = ttpu_replay_neon_one(ctx, &wk, w, mx) && columns_fine(mx, nc);
	finish(ctx, ch, w0, w, fine, out);
}

bool ttpu_replay_can_pair(const struct ttpu_program *prog, const struct ttpu_replay_table *t,
			  const struct ttpu_chain *c0, const struct ttpu_chain *c1)
{
	return c1 == c0 + 1 && !c0->follows && !c1->follows &&
	       t->pair_next[c0 - prog->plan->chains];
}

void ttpu_replay_pair(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_table *t,
		      const struct ttpu_chain *c0, const struct ttpu_chain *c1,
		      struct ttpu_replay *o0, struct ttpu_replay *o1)
{
	const struct ttpu_plan *plan = ctx->prog->plan;
	struct ttpu_replay_walk k0, k1;
	uint32_t s0[16], s1[16], w0[16], w1[16], mx[4], nr, nc;
	bool fine;

	if (!ttpu_range_neon_on() || c1 != c0 + 1 || !t->pair_next[c0 - plan->chains]) {
		ttpu_replay_chain(ctx, t, c0, o0);
		ttpu_replay_chain(ctx, t, c1, o1);
		return;
	}
	start(ctx, c0, s0, &nr, &nc);
	start(ctx, c1, s1, &nr, &nc);
	memcpy(w0, s0, sizeof(w0));
	memcpy(w1, s1, sizeof(w1));
	ttpu_replay_walk_init(ctx, t, c0, &k0);
	ttpu_replay_walk_init(ctx, t, c1, &k1);
	ttpu_replay_neon_two(&k0, w0, &k1, w1, mx);
	/* Full windows (the table's word): every column counts. */
	fine = columns_fine(mx, TTPU_TILE);
	finish(ctx, c0, s0, w0, fine, o0);
	finish(ctx, c1, s1, w1, fine, o1);
}

int ttpu_replay_apply(struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		      const struct ttpu_replay *r, struct ttpu_error *err)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[ch->dst.buf];

	if (r->fail_step != UINT32_MAX) {
		size_t elem = (size_t)(ch->dst.r + r->fail_elem / TTPU_TILE) * b->cols +
			      ch->dst.c + r->fail_elem % TTPU_TILE;

		return ttpu_host_range_error(ctx,
					     ctx->prog->plan->steps[ch->first_step + r->fail_step].acc_cmd,
					     ch->dst.buf, elem, r->fail_value,
					     TTPU_HOST_ACC_STEP, err);
	}
	ttpu_host_acc_add_unchecked(ctx, &ch->dst, r->add);
	return 0;
}
