// SPDX-License-Identifier: MIT
/*
 * engine_npukit_groups.c - a stage's jobs grouped into kicks: quads where
 * the compiler's 2x2 tile structure exists, then pairs, then a single
 * (engine_npukit.c says what each is). Grouping hashes the windows of
 * every job the device computes (in one walk of its links) and sorts the
 * hashes three ways; the jobs left out (the runner's, and those with no
 * links) are neither hashed nor sorted, which leaves the groups as they
 * were. It depends on the plan alone, so it is done once per program, at
 * its first run on the NpuKit engine, for every stage, and kept with the
 * program: two sets, one of every job and one without the jobs the runner
 * takes (run_split.h), each made when first asked for. With the groups,
 * each rows kick's operand offsets are worked out once (rows_sources()).
 */
#include <stdlib.h>
#include <string.h>

#include "engine_npukit_groups.h"
#include "run_split.h"
#include "util.h"

/* One set of groups: every stage's, by stage index. */
struct npk_set {
	struct npk_stage_groups *stage;
	size_t nstages;
};

/*
 * A program's sets, each made at the first run that asks for it: [0] of
 * every job (compute_stage() without a mask), [1] of the device's jobs.
 */
struct ttpu_npukit_groups {
	struct npk_set *set[2];
};

/* Scratch of build_groups(), for one stage at a time. */
struct npk_scratch {
	struct npk_jobkey *keys;
	size_t keys_cap;
	uint8_t *taken;
	size_t taken_cap;
};

struct npk_jobkey {
	uint64_t ha;			/* hash of the job's A windows */
	uint64_t hb;			/* hash of the job's B windows */
	uint32_t job;			/* index within the stage */
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

/* Hashes of the job's A windows and of its B windows, in one walk of its links. */
static void hash_windows(const struct ttpu_plan *plan, const struct ttpu_job *job,
			 struct npk_jobkey *key)
{
	uint64_t ha = mix(0x12345, job->nlinks), hb = ha;
	const struct ttpu_link *l = &plan->links[job->first_link];

	for (uint32_t i = 0; i < job->nlinks; i++, l++) {
		ha = mix(mix(ha, ((uint64_t)l->a.buf << 32) ^ l->a.r), l->a.c);
		hb = mix(mix(hb, ((uint64_t)l->b.buf << 32) ^ l->b.r), l->b.c);
	}
	key->ha = ha;
	key->hb = hb;
}

static int same_windows(const struct ttpu_plan *plan, uint32_t j1, uint32_t j2,
			int b_side)
{
	const struct ttpu_job *x = &plan->jobs[j1], *y = &plan->jobs[j2];

	if (x->nlinks != y->nlinks)
		return 0;
	for (uint32_t i = 0; i < x->nlinks; i++) {
		const struct ttpu_link *lx = &plan->links[x->first_link + i];
		const struct ttpu_link *ly = &plan->links[y->first_link + i];
		const struct ttpu_window *wx = b_side ? &lx->b : &lx->a;
		const struct ttpu_window *wy = b_side ? &ly->b : &ly->a;

		if (wx->buf != wy->buf || wx->r != wy->r || wx->c != wy->c)
			return 0;
	}
	return 1;
}

static int cmp_ha(const void *p, const void *q)
{
	const struct npk_jobkey *x = p, *y = q;

	if (x->ha != y->ha)
		return x->ha < y->ha ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

static int cmp_hb(const void *p, const void *q)
{
	const struct npk_jobkey *x = p, *y = q;

	if (x->hb != y->hb)
		return x->hb < y->hb ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

static int cmp_hab(const void *p, const void *q)
{
	const struct npk_jobkey *x = p, *y = q;

	if (x->ha != y->ha)
		return x->ha < y->ha ? -1 : 1;
	if (x->hb != y->hb)
		return x->hb < y->hb ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

/* First untaken job after @self in the sorted run of keys equal under @cmp. */
static uint32_t find_partner(const struct npk_jobkey *sorted, size_t n,
			     const struct npk_jobkey *key,
			     int (*cmp)(const void *, const void *),
			     const uint8_t *taken, uint32_t self)
{
	struct npk_jobkey probe = *key;
	size_t lo = 0, hi = n;

	probe.job = 0;
	while (lo < hi) {		/* lower bound of (hash, job 0) */
		size_t mid = (lo + hi) / 2;

		if (cmp(&sorted[mid], &probe) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	probe.job = UINT32_MAX;
	for (; lo < n && cmp(&sorted[lo], &probe) < 0; lo++) {
		uint32_t j = sorted[lo].job;

		if (j != self && !taken[j])
			return j;
	}
	return NO_JOB;
}

/*
 * Group the stage's jobs: quads where the compiler's 2x2 tile structure
 * exists (checked window by window, not trusted to hashes), then pairs of
 * whatever is left, then at most one single.
 */
static int build_groups(const struct ttpu_plan *plan, const struct ttpu_stage *st,
			const uint8_t *host_job, struct npk_scratch *r,
			struct npk_stage_groups *out)
{
	uint32_t n = st->njobs, pending = NO_JOB, m = 0;
	struct npk_jobkey *by_a, *by_b, *by_ab, *keys;
	size_t ng = 0;

	out->groups = malloc((n + 1) * sizeof(*out->groups));
	if (!out->groups || ttpu_grow(&r->keys, &r->keys_cap, 4 * (size_t)n, sizeof(*r->keys)) ||
	    ttpu_grow(&r->taken, &r->taken_cap, n, 1))
		return -1;
	by_a = r->keys;
	by_b = r->keys + n;
	by_ab = r->keys + 2 * (size_t)n;
	keys = r->keys + 3 * (size_t)n;
	for (uint32_t j = 0; j < n; j++) {
		const struct ttpu_job *job = &plan->jobs[st->first_job + j];

		/*
		 * A chain fed only by deferred passes has nothing to compute;
		 * the runner's jobs are not the device's. Jobs taken from the
		 * start are never anyone's partner (find_partner() skips them),
		 * so they are neither hashed nor sorted.
		 */
		r->taken[j] = job->nlinks == 0 || (host_job && host_job[j]);
		if (r->taken[j])
			continue;
		hash_windows(plan, job, &keys[j]);
		keys[j].job = j;
		by_a[m++] = keys[j];
	}
	memcpy(by_b, by_a, m * sizeof(*by_a));
	memcpy(by_ab, by_a, m * sizeof(*by_a));
	qsort(by_a, m, sizeof(*by_a), cmp_ha);
	qsort(by_b, m, sizeof(*by_b), cmp_hb);
	qsort(by_ab, m, sizeof(*by_ab), cmp_hab);

	for (uint32_t x = 0; x < n; x++) {
		const struct npk_jobkey *kx = &keys[x];
		uint32_t y, z, w, fx = st->first_job;
		struct npk_jobkey kw;
		struct npk_group *g;

		if (r->taken[x])
			continue;
		r->taken[x] = 1;
		y = find_partner(by_a, m, kx, cmp_ha, r->taken, x);
		z = find_partner(by_b, m, kx, cmp_hb, r->taken, x);
		w = NO_JOB;
		if (y != NO_JOB && z != NO_JOB && y != z) {
			kw.ha = keys[z].ha;
			kw.hb = keys[y].hb;
			kw.job = 0;
			r->taken[y] = r->taken[z] = 1;
			w = find_partner(by_ab, m, &kw, cmp_hab, r->taken, NO_JOB);
			r->taken[y] = r->taken[z] = 0;
		}
		if (w != NO_JOB &&
		    same_windows(plan, fx + x, fx + y, 0) &&
		    same_windows(plan, fx + x, fx + z, 1) &&
		    same_windows(plan, fx + z, fx + w, 0) &&
		    same_windows(plan, fx + y, fx + w, 1)) {
			g = &out->groups[ng++];
			g->row[0] = x;
			g->row[1] = z;
			g->col[0] = x;
			g->col[1] = y;
			g->out[0][0] = x;
			g->out[0][1] = y;
			g->out[1][0] = z;
			g->out[1][1] = w;
			g->nsteps = plan->jobs[fx + x].nlinks;
			r->taken[y] = r->taken[z] = r->taken[w] = 1;
			continue;
		}
		if (pending == NO_JOB) {
			pending = x;
			continue;
		}
		g = &out->groups[ng++];
		g->row[0] = g->col[0] = g->out[0][0] = pending;
		g->row[1] = g->col[1] = g->out[1][1] = x;
		g->out[0][1] = g->out[1][0] = NO_JOB;
		g->nsteps = plan->jobs[fx + pending].nlinks;
		if (plan->jobs[fx + x].nlinks > g->nsteps)
			g->nsteps = plan->jobs[fx + x].nlinks;
		pending = NO_JOB;
	}
	if (pending != NO_JOB) {
		struct npk_group *g = &out->groups[ng++];

		g->row[0] = g->col[0] = g->out[0][0] = pending;
		g->row[1] = g->col[1] = NO_JOB;
		g->out[0][1] = g->out[1][0] = g->out[1][1] = NO_JOB;
		g->nsteps = plan->jobs[st->first_job + pending].nlinks;
	}
	out->ngroups = ng;
	return 0;
}

void ttpu_npukit_stage_groups_release(struct npk_stage_groups *sg)
{
	free(sg->groups);
	free(sg->src);
	free(sg->host_job);
	memset(sg, 0, sizeof(*sg));
}

static void set_free(struct npk_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->nstages; i++)
		ttpu_npukit_stage_groups_release(&set->stage[i]);
	free(set->stage);
	free(set);
}

void ttpu_npukit_groups_free(struct ttpu_npukit_groups *g)
{
	if (!g)
		return;
	set_free(g->set[0]);
	set_free(g->set[1]);
	free(g);
}

/*
 * Whether every kick of quad @g reads A as 8 rows of 8 contiguous bytes of
 * one buffer, and B likewise: the compiler's tiling away from the
 * operands' edges, where a kick's two K-steps and two block rows (or
 * columns) are neighbours. The kick is then those rows, copied as they
 * are (engine_npukit_pack.c), exactly what the block-by-block gather
 * would make of them.
 */
static bool kicks_are_rows(const struct ttpu_program *prog, const struct ttpu_stage *st,
			   const struct npk_group *g)
{
	const struct ttpu_plan *plan = prog->plan;
	const struct ttpu_job *r0, *r1, *c0, *c1;
	uint32_t n = g->nsteps;

	if (g->row[0] == NO_JOB || g->row[1] == NO_JOB || g->col[0] == NO_JOB ||
	    g->col[1] == NO_JOB || n % 2)
		return false;
	r0 = &plan->jobs[st->first_job + g->row[0]];
	r1 = &plan->jobs[st->first_job + g->row[1]];
	c0 = &plan->jobs[st->first_job + g->col[0]];
	c1 = &plan->jobs[st->first_job + g->col[1]];
	if (r0->nlinks != n || r1->nlinks != n || c0->nlinks != n || c1->nlinks != n)
		return false;
	for (uint32_t s = 0; s < n; s++) {
		const struct ttpu_window *a0 = &plan->links[r0->first_link + s].a;
		const struct ttpu_window *a1 = &plan->links[r1->first_link + s].a;
		const struct ttpu_window *b0 = &plan->links[c0->first_link + s].b;
		const struct ttpu_window *b1 = &plan->links[c1->first_link + s].b;
		/* The kick's first K-step: where its 8x8 of A and of B start. */
		const struct ttpu_window *a = &plan->links[r0->first_link + (s & ~1u)].a;
		const struct ttpu_window *b = &plan->links[c0->first_link + (s & ~1u)].b;
		const struct ttpu_buffer *ab = &prog->buffers[a->buf], *bb = &prog->buffers[b->buf];
		uint64_t h = s & 1;

		if (a0->buf != a->buf || a1->buf != a->buf || b0->buf != b->buf || b1->buf != b->buf ||
		    (uint64_t)a->r + 8 > ab->rows || (uint64_t)a->c + 8 > ab->cols ||
		    (uint64_t)b->r + 8 > bb->rows || (uint64_t)b->c + 8 > bb->cols)
			return false;
		/* A: block row p is rows a.r + 4p, K-step h is columns a.c + 4h */
		if (a0->r != a->r || a0->c != a->c + 4 * h || a1->r != (uint64_t)a->r + 4 ||
		    a1->c != a0->c)
			return false;
		/* B: K-step h is rows b.r + 4h, block column q is columns b.c + 4q */
		if (b0->c != b->c || b0->r != b->r + 4 * h || b1->c != (uint64_t)b->c + 4 ||
		    b1->r != b0->r)
			return false;
	}
	return true;
}

/*
 * The rows groups' kicks: where each starts in its buffers, so that packing
 * one is 16 row copies from two offsets (engine_npukit_pack.c).
 */
static int rows_sources(const struct ttpu_program *prog, const struct ttpu_stage *st,
			struct npk_stage_groups *sg)
{
	const struct ttpu_plan *plan = prog->plan;
	size_t n = 0;

	for (size_t i = 0; i < sg->ngroups; i++)
		if (sg->groups[i].rows)
			n += sg->groups[i].nsteps / 2;
	if (!n)
		return 0;
	sg->src = malloc(n * sizeof(*sg->src));
	if (!sg->src)
		return -1;
	n = 0;
	for (size_t i = 0; i < sg->ngroups; i++) {
		struct npk_group *g = &sg->groups[i];
		const struct ttpu_job *r0, *c0;

		if (!g->rows)
			continue;
		r0 = &plan->jobs[st->first_job + g->row[0]];
		c0 = &plan->jobs[st->first_job + g->col[0]];
		g->abuf = plan->links[r0->first_link].a.buf;
		g->bbuf = plan->links[c0->first_link].b.buf;
		g->src = n;
		for (uint32_t s = 0; s < g->nsteps; s += 2, n++) {
			const struct ttpu_window *a = &plan->links[r0->first_link + s].a;
			const struct ttpu_window *b = &plan->links[c0->first_link + s].b;

			sg->src[n].a = (size_t)a->r * prog->buffers[a->buf].cols + a->c;
			sg->src[n].b = (size_t)b->r * prog->buffers[b->buf].cols + b->c;
		}
	}
	return 0;
}

/* One stage's groups, without the jobs @host_job marks (NULL: none). */
static int stage_make(const struct ttpu_program *prog, const struct ttpu_stage *st,
		      const uint8_t *host_job, struct npk_scratch *scratch,
		      struct npk_stage_groups *sg)
{
	bool any = false;

	memset(sg, 0, sizeof(*sg));
	for (uint32_t j = 0; host_job && j < st->njobs; j++)
		any |= host_job[j] != 0;
	if (any) {
		sg->host_job = malloc(st->njobs);
		if (!sg->host_job)
			return -1;
		memcpy(sg->host_job, host_job, st->njobs);
	}
	if (build_groups(prog->plan, st, host_job, scratch, sg))
		return -1;
	for (size_t k = 0; k < sg->ngroups; k++) {
		sg->groups[k].rows = kicks_are_rows(prog, st, &sg->groups[k]);
		sg->nkicks += (sg->groups[k].nsteps + 1) / 2;
	}
	return rows_sources(prog, st, sg);
}

int ttpu_npukit_stage_groups_make(const struct ttpu_program *prog, const struct ttpu_stage *st,
				  const uint8_t *host_job, struct npk_stage_groups *out)
{
	struct npk_scratch scratch = { .keys = NULL };
	int ret = stage_make(prog, st, host_job, &scratch, out);

	free(scratch.keys);
	free(scratch.taken);
	if (ret)
		ttpu_npukit_stage_groups_release(out);
	return ret;
}

static struct npk_set *set_make(const struct ttpu_program *prog, bool device_only)
{
	const struct ttpu_plan *plan = prog->plan;
	struct npk_set *set = calloc(1, sizeof(*set));
	struct npk_scratch scratch = { .keys = NULL };
	uint8_t *host_job = NULL;
	int bad = !set;

	if (set) {
		set->stage = calloc(plan->nstages + 1, sizeof(*set->stage));
		set->nstages = plan->nstages;
		bad = !set->stage;
	}
	for (size_t i = 0; !bad && i < plan->nstages; i++) {
		const struct ttpu_stage *st = &plan->stages[i];

		if (st->kind != TTPU_STAGE_MATMUL || !st->njobs)
			continue;
		if (device_only) {
			free(host_job);
			host_job = malloc(st->njobs);
			bad = !host_job;
			if (bad)
				break;
			ttpu_stage_host_jobs(prog, st, host_job);
		}
		bad = stage_make(prog, st, host_job, &scratch, &set->stage[i]);
	}
	free(host_job);
	free(scratch.keys);
	free(scratch.taken);
	if (bad) {
		set_free(set);
		return NULL;
	}
	return set;
}

const struct npk_stage_groups *ttpu_npukit_stage_groups(const struct ttpu_program *prog,
							const struct ttpu_stage *st,
							bool device_only)
{
	/* A cache: the program is otherwise immutable once loaded. */
	struct ttpu_npukit_groups **gslot = &((struct ttpu_program *)prog)->npukit_groups;
	struct ttpu_npukit_groups *g = __atomic_load_n(gslot, __ATOMIC_ACQUIRE);
	struct npk_set *set;

	/* Runs of one program on several threads may race: the first wins. */
	if (!g) {
		struct ttpu_npukit_groups *mine = calloc(1, sizeof(*mine));

		if (!mine)
			return NULL;
		if (__atomic_compare_exchange_n(gslot, &g, mine, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			g = mine;
		else
			free(mine);
	}
	set = __atomic_load_n(&g->set[device_only], __ATOMIC_ACQUIRE);
	if (!set) {
		struct npk_set *mine = set_make(prog, device_only);

		if (!mine)
			return NULL;
		if (__atomic_compare_exchange_n(&g->set[device_only], &set, mine, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			set = mine;
		else
			set_free(mine);
	}
	return &set->stage[st - prog->plan->stages];
}
