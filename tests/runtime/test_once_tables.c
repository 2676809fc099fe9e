// SPDX-License-Identifier: MIT
/*
 * test_once_tables.c - what a program's first run works out from the
 * program alone, checked against the plain derivations they replaced, on
 * many random programs: the replay table (run_replay.c: every step's two
 * window offsets, every chain's buffers, which neighbours pair) and the
 * NpuKit engine's kick groups (engine_npukit_groups.c), with and without
 * a mask of the runner's jobs. The references below are the derivations
 * as they were before they were made cheap (a step at a time, every
 * window looked up; every job hashed and sorted), kept only here.
 *
 * The programs: a tiled matmul's chains (A (4i, 4s) by B (4s, 4j) into
 * tile (i, j) of an i8 or i32 destination), with what breaks the tiling
 * drawn in at random: windows moved, past an edge or at coordinates past
 * 32 bits, another A buffer, passes written in reverse, passes deferred
 * past a host command, chains into one window, tiles past the edges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "engine_npukit_groups.h"
#include "plan.h"
#include "run_replay.h"
#include "run_replay_steps.h"
#include "rt.h"
#include "../lib/test_rng.h"

#define CASES 400

static uint32_t pick(struct rng *g, uint32_t n)
{
	return (uint32_t)(rng_next(g) % n);
}

/* A coordinate of a window that breaks the tiling: anywhere, often outside. */
static uint64_t odd_coord(struct rng *g, uint32_t dim)
{
	static const uint64_t far[] = { 4294967292u, 4294967295u, 4294967296u };

	return pick(g, 8) ? pick(g, dim + 7) : far[pick(g, 3)];
}

/* The program's shape: A [m, ka], B [kb, n], K's tiles tk, tiles tm x tn. */
struct dims {
	uint32_t m, ka, kb, n, tm, tn, tk;
	int messy;			/* windows and orders that break the tiling */
};

/* Pass @id: step s of tile (i, j), or a window of it moved (sometimes). */
static void pass(struct rt_text *t, struct rng *g, const struct dims *d, int messy,
		 uint32_t id, uint32_t i, uint32_t s, uint32_t j)
{
	uint64_t ar = 4 * i, ac = 4 * s, br = 4 * s, bc = 4 * j;
	const char *a = "A", *b = "B";

	if (messy && !pick(g, 6)) {
		switch (pick(g, 8)) {
		case 0: ar = odd_coord(g, d->m); break;
		case 1: ac = odd_coord(g, d->ka); break;
		case 2: br = odd_coord(g, d->kb); break;
		case 3: bc = odd_coord(g, d->n); break;
		case 4: a = "A2"; break;
		case 5: b = "B2"; break;
		case 6: ac = br = 4 * (s ? s - 1 : s); break;	/* the step before's */
		default: ac += 1; break;
		}
	}
	rt_put(t, ",{\"op\":\"pass\",\"id\":%u,\"a\":{\"buf\":\"%s\",\"r\":%llu,\"c\":%llu},"
	       "\"b\":{\"buf\":\"%s\",\"r\":%llu,\"c\":%llu}}", id, a, (unsigned long long)ar,
	       (unsigned long long)ac, b, (unsigned long long)br, (unsigned long long)bc);
}

static void acc(struct rt_text *t, uint32_t id, const char *dst, uint32_t i, uint32_t j)
{
	rt_put(t, ",{\"op\":\"acc\",\"pass\":%u,\"dst\":{\"buf\":\"%s\",\"r\":%u,\"c\":%u}}",
	       id, dst, 4 * i, 4 * j);
}

/*
 * One chain of @steps into tile (i, j): its passes and accs, in one of
 * four orders; the last puts after each pass a decoy, the next step's
 * windows as the tiling has them, summed into E.
 */
static void chain(struct rt_text *t, struct rng *g, const struct dims *d, uint32_t *id,
		  uint32_t i, uint32_t j, uint32_t steps)
{
	const char *dst = pick(g, 4) ? "C" : "D";
	uint32_t first = *id, order = d->messy ? pick(g, 6) : 0;
	uint64_t deferred = rng_next(g);	/* bit s: step s's pass comes early */

	*id += steps;
	if (order == 1) {		/* every pass first, in reverse */
		for (uint32_t s = steps; s-- > 0;)
			pass(t, g, d, d->messy, first + s, i, s, j);
		for (uint32_t s = 0; s < steps; s++)
			acc(t, first + s, dst, i, j);
		return;
	}
	if (order == 2) {		/* some passes deferred past a host command */
		for (uint32_t s = 0; s < steps; s++)
			if (deferred >> (s % 64) & 1)
				pass(t, g, d, d->messy, first + s, i, s, j);
		rt_put(t, ",{\"op\":\"host_relu\",\"dst\":\"Z\",\"src\":\"Z\"}");
	}
	for (uint32_t s = 0; s < steps; s++) {
		if (order != 2 || !(deferred >> (s % 64) & 1))
			pass(t, g, d, d->messy, first + s, i, s, j);
		acc(t, first + s, dst, i, j);
		if (order == 3) {
			pass(t, g, d, 0, *id, i, s + 1, j);
			acc(t, (*id)++, "E", 0, 0);
		}
	}
}

static char *random_program(struct rng *g)
{
	struct rt_text t = { 0 };
	struct dims d = { .messy = (int)pick(g, 2) };
	uint32_t k = 1 + pick(g, 40), id = 0, js;

	d.m = 1 + pick(g, 24);
	d.n = 1 + pick(g, 24);
	if (!d.messy) {			/* the compiler's shapes: multiples of 8 */
		d.m = (d.m + 7) & ~7u;
		d.n = (d.n + 7) & ~7u;
		k = (k + 7) & ~7u;
	} else if (pick(g, 2)) {	/* whole K tiles: chains can pair */
		k = (k + 3) & ~3u;
	}
	d.ka = k + (d.messy && !pick(g, 3) ? 1 + pick(g, 8) : 0);
	d.kb = k + (d.messy && !pick(g, 3) ? 1 + pick(g, 8) : 0);
	d.tm = (d.m + 3) / 4 + (d.messy ? pick(g, 2) : 0);
	d.tn = (d.n + 3) / 4 + (d.messy ? pick(g, 2) : 0);
	d.tk = (k + 3) / 4;
	js = d.messy && !pick(g, 4) ? 2 : 1;
	rt_put(&t, "{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"once\",\"buffers\":{"
	       "\"A\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
	       "\"A2\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
	       "\"B\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
	       "\"B2\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
	       "\"C\":{\"dtype\":\"i8\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
	       "\"D\":{\"dtype\":\"i32\",\"shape\":[%u,%u],\"kind\":\"temp\"},"
	       "\"E\":{\"dtype\":\"i32\",\"shape\":[4,4],\"kind\":\"temp\"},"
	       "\"Z\":{\"dtype\":\"i8\",\"shape\":[1,4],\"kind\":\"temp\"}},"
	       "\"inputs\":[],\"outputs\":[\"C\",\"D\",\"E\"],\"commands\":["
	       "{\"op\":\"host_relu\",\"dst\":\"Z\",\"src\":\"Z\"}",
	       d.m, d.ka, d.m, d.ka, d.kb, d.n, d.kb, d.n, d.m, d.n, d.m, d.n);
	for (uint32_t i = 0; i < d.tm; i++)
		for (uint32_t j = 0; j < d.tn; j += js) {
			uint32_t steps = d.tk, more = d.messy ? pick(g, 3) : 1;

			/* one step more or less, now and then */
			steps = steps + more > 1 ? steps + more - 1 : 1;
			chain(&t, g, &d, &id, i, j, steps);
			if (d.messy && !pick(g, 6))	/* a second chain into the window */
				chain(&t, g, &d, &id, i, j, pick(g, 2) ? steps : 1 + pick(g, d.tk));
		}
	rt_put(&t, "]}");
	return t.s;
}

/* ---- the replay table, a step at a time (the reference) ---------------- */

static uint32_t ref_rows_offset(const struct ttpu_buffer *b, const struct ttpu_window *w)
{
	uint64_t off;

	if ((uint64_t)w->r + TTPU_TILE > b->rows || (uint64_t)w->c + TTPU_TILE > b->cols)
		return TTPU_REPLAY_OTHER;
	off = (uint64_t)w->r * b->cols + w->c;
	return off < TTPU_REPLAY_OTHER ? (uint32_t)off : TTPU_REPLAY_OTHER;
}

static bool ref_inside(const struct ttpu_program *prog, const struct ttpu_window *w)
{
	return ref_rows_offset(&prog->buffers[w->buf], w) != TTPU_REPLAY_OTHER;
}

/* Step @s of chain @k: its offsets, and the chain's buffers as they stand. */
static void ref_step(const struct ttpu_program *prog, const struct ttpu_step *st,
		     uint32_t bufs[2], uint32_t off[2])
{
	const struct ttpu_link *l;

	off[0] = off[1] = TTPU_REPLAY_OTHER;
	if (st->link == TTPU_NO_LINK)
		return;
	l = &prog->plan->links[st->link];
	if (bufs[0] == TTPU_NO_BUFFER) {
		bufs[0] = l->a.buf;
		bufs[1] = l->b.buf;
	}
	if (l->a.buf != bufs[0] || l->b.buf != bufs[1])
		return;
	off[0] = ref_rows_offset(&prog->buffers[l->a.buf], &l->a);
	off[1] = ref_rows_offset(&prog->buffers[l->b.buf], &l->b);
	if (off[0] == TTPU_REPLAY_OTHER || off[1] == TTPU_REPLAY_OTHER)
		off[0] = off[1] = TTPU_REPLAY_OTHER;
}

/* The first difference from the reference, described into @why; 0: none. */
static int table_differs(const struct ttpu_program *prog, const struct ttpu_replay_table *t,
			 char *why, size_t len)
{
	const struct ttpu_plan *plan = prog->plan;

	for (size_t k = 0; k < plan->nchains; k++) {
		const struct ttpu_chain *ch = &plan->chains[k], *c1 = ch + 1;
		uint32_t bufs[2] = { TTPU_NO_BUFFER, TTPU_NO_BUFFER }, b1[2] = { TTPU_NO_BUFFER,
										   TTPU_NO_BUFFER };
		bool pair = k + 1 < plan->nchains && ch->nsteps == c1->nsteps && ch->nsteps &&
			    ref_inside(prog, &ch->dst) && ref_inside(prog, &c1->dst);

		for (uint32_t s = 0; s < ch->nsteps; s++) {
			uint32_t off[2], o1[2];

			ref_step(prog, &plan->steps[ch->first_step + s], bufs, off);
			if (off[0] != t->off[ch->first_step + s][0] ||
			    off[1] != t->off[ch->first_step + s][1]) {
				snprintf(why, len, "chain %zu step %u: %u %u, table %u %u", k, s,
					 off[0], off[1], t->off[ch->first_step + s][0],
					 t->off[ch->first_step + s][1]);
				return 1;
			}
			if (!pair)
				continue;
			ref_step(prog, &plan->steps[c1->first_step + s], b1, o1);
			pair = off[0] != TTPU_REPLAY_OTHER && o1[0] == off[0] &&
			       o1[1] == off[1] + TTPU_TILE;
		}
		pair = pair && bufs[0] != TTPU_NO_BUFFER && bufs[0] == b1[0] && bufs[1] == b1[1];
		if (bufs[0] != t->bufs[k][0] || bufs[1] != t->bufs[k][1] ||
		    (k + 1 < plan->nchains && pair != (t->pair_next[k] != 0))) {
			snprintf(why, len, "chain %zu: buffers %u %u, table %u %u; pairs %d, table %d",
				 k, bufs[0], bufs[1], t->bufs[k][0], t->bufs[k][1], pair,
				 t->pair_next[k]);
			return 1;
		}
	}
	return 0;
}

/* ---- the kick groups, every job hashed and sorted (the reference) ------ */

struct ref_key {
	uint64_t ha, hb;
	uint32_t job;
};

static uint64_t ref_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static const struct ttpu_window *side(const struct ttpu_plan *plan, const struct ttpu_job *j,
				      uint32_t i, int b)
{
	const struct ttpu_link *l = &plan->links[j->first_link + i];

	return b ? &l->b : &l->a;
}

static uint64_t ref_hash(const struct ttpu_plan *plan, const struct ttpu_job *j, int b)
{
	uint64_t h = ref_mix(0x12345, j->nlinks);

	for (uint32_t i = 0; i < j->nlinks; i++) {
		const struct ttpu_window *w = side(plan, j, i, b);

		h = ref_mix(ref_mix(h, ((uint64_t)w->buf << 32) ^ w->r), w->c);
	}
	return h;
}

static int ref_same(const struct ttpu_plan *plan, uint32_t x, uint32_t y, int b)
{
	const struct ttpu_job *jx = &plan->jobs[x], *jy = &plan->jobs[y];

	if (jx->nlinks != jy->nlinks)
		return 0;
	for (uint32_t i = 0; i < jx->nlinks; i++)
		if (memcmp(side(plan, jx, i, b), side(plan, jy, i, b), sizeof(struct ttpu_window)))
			return 0;
	return 1;
}

/* Keys ordered by @what: 1 A's hash, 2 B's, 3 both; then by job. */
static int ref_order(const struct ref_key *x, const struct ref_key *y, int what)
{
	if ((what & 1) && x->ha != y->ha)
		return x->ha < y->ha ? -1 : 1;
	if ((what & 2) && x->hb != y->hb)
		return x->hb < y->hb ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

/* The first job in job order, not taken and not @self, whose key matches. */
static uint32_t ref_partner(const struct ref_key *keys, uint32_t n, const struct ref_key *key,
			    int what, const uint8_t *taken, uint32_t self)
{
	uint32_t best = NO_JOB;

	for (uint32_t j = 0; j < n; j++) {
		struct ref_key probe = *key;

		probe.job = keys[j].job;
		if (j != self && !taken[j] && !ref_order(&keys[j], &probe, what) &&
		    (best == NO_JOB || j < best))
			best = j;
	}
	return best;
}

static void ref_group(struct npk_group *g, uint32_t r0, uint32_t r1, uint32_t c0, uint32_t c1,
		      uint32_t o01, uint32_t o10, uint32_t o11, uint32_t nsteps)
{
	*g = (struct npk_group){ .row = { r0, r1 }, .col = { c0, c1 },
				 .out = { { r0, o01 }, { o10, o11 } }, .nsteps = nsteps };
}

static size_t ref_groups(const struct ttpu_plan *plan, const struct ttpu_stage *st,
			 const uint8_t *host_job, struct npk_group *out)
{
	uint32_t n = st->njobs, fx = st->first_job, pending = NO_JOB;
	struct ref_key *keys = calloc(n + 1, sizeof(*keys));
	uint8_t *taken = calloc(n + 1, 1);
	size_t ng = 0;

	for (uint32_t j = 0; keys && taken && j < n; j++) {
		keys[j].ha = ref_hash(plan, &plan->jobs[fx + j], 0);
		keys[j].hb = ref_hash(plan, &plan->jobs[fx + j], 1);
		keys[j].job = j;
		taken[j] = plan->jobs[fx + j].nlinks == 0 || (host_job && host_job[j]);
	}
	for (uint32_t x = 0; keys && taken && x < n; x++) {
		uint32_t y, z, w = NO_JOB, nx = plan->jobs[fx + x].nlinks;

		if (taken[x])
			continue;
		taken[x] = 1;
		y = ref_partner(keys, n, &keys[x], 1, taken, x);
		z = ref_partner(keys, n, &keys[x], 2, taken, x);
		if (y != NO_JOB && z != NO_JOB && y != z) {
			struct ref_key kw = { keys[z].ha, keys[y].hb, 0 };

			taken[y] = taken[z] = 1;
			w = ref_partner(keys, n, &kw, 3, taken, NO_JOB);
			taken[y] = taken[z] = 0;
		}
		if (w != NO_JOB && ref_same(plan, fx + x, fx + y, 0) &&
		    ref_same(plan, fx + x, fx + z, 1) && ref_same(plan, fx + z, fx + w, 0) &&
		    ref_same(plan, fx + y, fx + w, 1)) {
			ref_group(&out[ng++], x, z, x, y, y, z, w, nx);
			taken[y] = taken[z] = taken[w] = 1;
		} else if (pending == NO_JOB) {
			pending = x;
		} else {
			uint32_t np = plan->jobs[fx + pending].nlinks;

			ref_group(&out[ng++], pending, x, pending, x, NO_JOB, NO_JOB, x,
				  nx > np ? nx : np);
			pending = NO_JOB;
		}
	}
	if (pending != NO_JOB)
		ref_group(&out[ng++], pending, NO_JOB, pending, NO_JOB, NO_JOB, NO_JOB, NO_JOB,
			  plan->jobs[fx + pending].nlinks);
	free(keys);
	free(taken);
	return ng;
}

/* The first difference between @sg and the reference's groups; 0: none. */
static int groups_differ(const struct ttpu_program *prog, const struct ttpu_stage *st,
			 const uint8_t *host_job, const struct npk_stage_groups *sg,
			 char *why, size_t len)
{
	struct npk_group *ref = calloc(st->njobs + 1, sizeof(*ref));
	size_t n = ref ? ref_groups(prog->plan, st, host_job, ref) : 0;
	int bad = !ref || n != sg->ngroups;

	for (size_t i = 0; !bad && i < n; i++) {
		const struct npk_group *g = &sg->groups[i];

		bad = memcmp(g->row, ref[i].row, sizeof(g->row)) ||
		      memcmp(g->col, ref[i].col, sizeof(g->col)) ||
		      memcmp(g->out, ref[i].out, sizeof(g->out)) || g->nsteps != ref[i].nsteps;
		if (bad)
			snprintf(why, len, "group %zu: rows %u %u cols %u %u, reference rows %u %u "
				 "cols %u %u", i, g->row[0], g->row[1], g->col[0], g->col[1],
				 ref[i].row[0], ref[i].row[1], ref[i].col[0], ref[i].col[1]);
	}
	if (bad && (!ref || n != sg->ngroups))
		snprintf(why, len, "%zu groups, reference %zu", sg->ngroups, n);
	free(ref);
	return bad;
}

static ttpu_program *load(const char *text)
{
	struct ttpu_error err;
	ttpu_program *prog;

	if (ttpu_program_load_buffer(text, strlen(text), &prog, &err)) {
		fprintf(stderr, "%s\n", err.message);
		return NULL;
	}
	return prog;
}

TEST(replay_table_matches_the_step_by_step_one)
{
	char why[200];
	int pairs = 0;

	for (uint64_t c = 1; c <= CASES; c++) {
		struct rng g = { c * 0x9e3779b97f4a7c15ULL };
		char *text = random_program(&g);
		ttpu_program *prog = load(text);
		const struct ttpu_replay_table *t;

		ASSERT_NE(NULL, prog) TH_LOG("case %llu", (unsigned long long)c);
		t = ttpu_replay_table_of(prog);
		ASSERT_NE(NULL, t);
		ASSERT_EQ(0, table_differs(prog, t, why, sizeof(why)))
			TH_LOG("case %llu: %s", (unsigned long long)c, why);
		for (size_t k = 0; k + 1 < prog->plan->nchains; k++)
			pairs += t->pair_next[k];
		ttpu_program_free(prog);
		free(text);
	}
	/* The cases reach the pairing too, not only the offsets. */
	ASSERT_LT(100, pairs);
}

TEST(kick_groups_match_every_job_hashed_and_sorted)
{
	char why[200];

	for (uint64_t c = 1; c <= CASES; c++) {
		struct rng g = { c * 0xd1b54a32d192ed03ULL };
		char *text = random_program(&g);
		ttpu_program *prog = load(text);

		ASSERT_NE(NULL, prog) TH_LOG("case %llu", (unsigned long long)c);
		for (size_t i = 0; i < prog->plan->nstages; i++) {
			const struct ttpu_stage *st = &prog->plan->stages[i];
			uint8_t *mask = calloc(st->njobs + 1, 1);
			struct npk_stage_groups sg;

			if (st->kind != TTPU_STAGE_MATMUL || !st->njobs) {
				free(mask);
				continue;
			}
			ASSERT_NE(NULL, mask);
			for (uint32_t j = 0; j < st->njobs; j++)
				mask[j] = !pick(&g, 3);
			for (int masked = 0; masked < 2; masked++) {
				const uint8_t *m = masked ? mask : NULL;

				ASSERT_EQ(0, ttpu_npukit_stage_groups_make(prog, st, m, &sg));
				ASSERT_EQ(0, groups_differ(prog, st, m, &sg, why, sizeof(why)))
					TH_LOG("case %llu stage %zu mask %d: %s",
					       (unsigned long long)c, i, masked, why);
				ttpu_npukit_stage_groups_release(&sg);
			}
			free(mask);
		}
		ttpu_program_free(prog);
		free(text);
	}
}

TEST_HARNESS_MAIN
