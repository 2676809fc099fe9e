// SPDX-License-Identifier: MIT
/*
 * engine_software_walks.c - the software engine's K-walks, once per program
 *
 * A job's links that walk K (a.c and b.r both advancing by 4 from one
 * link to the next, on the same buffers, rows and columns, as a tiled
 * matmul's passes do) are one dot product per output element
 * (engine_software.c); links whose window starts outside its buffer
 * contribute nothing and are dropped. Which links merge depends on the
 * program alone, and deciding it link by link cost about as much as the
 * products themselves once those had NEON (armhf), so it is decided at
 * the program's first software run and kept with it, as the NpuKit
 * engine's kick groups are.
 */
#include <stdlib.h>

#include "engine_software_walks.h"
#include "plan.h"
#include "util.h"

static bool starts_inside(const struct ttpu_program *prog, const struct ttpu_window *w)
{
	const struct ttpu_buffer *b = &prog->buffers[w->buf];

	return w->r < b->rows && w->c < b->cols;
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

void ttpu_sw_walks_free(struct ttpu_sw_walks *w)
{
	if (!w)
		return;
	free(w->first);
	free(w->walk);
	free(w);
}

static struct ttpu_sw_walks *walks_make(const struct ttpu_program *prog)
{
	const struct ttpu_plan *plan = prog->plan;
	struct ttpu_sw_walks *w = calloc(1, sizeof(*w));
	uint32_t nw = 0;

	if (!w)
		return NULL;
	/* At most one walk a link; the array is cut to size at the end. */
	w->first = calloc((size_t)plan->njobs + 1, sizeof(*w->first));
	w->walk = calloc(plan->nlinks ? plan->nlinks : 1, sizeof(*w->walk));
	if (!w->first || !w->walk) {
		ttpu_sw_walks_free(w);
		return NULL;
	}
	for (size_t j = 0; j < plan->njobs; j++) {
		const struct ttpu_job *job = &plan->jobs[j];
		uint32_t i = 0;

		w->first[j] = nw;
		while (i < job->nlinks) {
			uint32_t k = job->first_link + i;
			const struct ttpu_link *l = &plan->links[k];

			if (!starts_inside(prog, &l->a) || !starts_inside(prog, &l->b)) {
				i++;
				continue;
			}
			w->walk[nw].link = k;
			w->walk[nw].n = walk_length(prog, l, job->nlinks - i);
			i += w->walk[nw++].n;
		}
	}
	w->first[plan->njobs] = nw;
	/* Shrinking cannot fail in a way that matters: the larger array stays. */
	ttpu_resize(&w->walk, nw ? nw : 1, sizeof(*w->walk));
	return w;
}

const struct ttpu_sw_walks *ttpu_sw_walks_of(const struct ttpu_program *prog)
{
	/* A cache: the program is otherwise immutable once loaded. */
	struct ttpu_sw_walks **slot = &((struct ttpu_program *)prog)->sw_walks;
	struct ttpu_sw_walks *w = __atomic_load_n(slot, __ATOMIC_ACQUIRE), *mine;

	if (w)
		return w;
	/* Runs on several threads may race: the first to publish wins. */
	mine = walks_make(prog);
	if (!mine)
		return NULL;
	if (__atomic_compare_exchange_n(slot, &w, mine, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return mine;
	ttpu_sw_walks_free(mine);
	return w;
}
