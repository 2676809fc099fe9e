// SPDX-License-Identifier: MIT
/*
 * plan.c - group a validated program's commands into stages, chains and
 * jobs (the rules and why they make fused sums exact are in plan.h)
 *
 * One pass over the commands, O(1) work per command: the per-stage state
 * (which buffers an acc wrote, which chain owns each dst element, which
 * passes the stage consumed) is stamped with the stage number, or with a
 * chain number that only grows, instead of being cleared, so a new stage
 * costs nothing however large the buffers.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "error.h"
#include "util.h"

/* A chain while its stage is still open. */
struct open_chain {
	struct ttpu_window dst;
	uint32_t nsteps;
	uint32_t bias;
	uint8_t relu;
	uint8_t closed;
	uint8_t follows;
};

struct builder {
	const struct ttpu_program *prog;
	struct ttpu_plan *p;
	uint32_t stamp;			/* current stage's stamp, 0 = none open */
	uint32_t next_stamp;
	uint32_t first_cmd;
	uint32_t *written;		/* by buffer: stamp of an acc that wrote it */
	uint32_t *read;			/* by buffer: stamp of a pass that read it */
	/*
	 * By buffer, by element: the tag of the chain whose window covers it,
	 * tags numbering the chains of all stages from 1, so that a tag above
	 * tag_base is a chain of the open stage (tag_base + 1 its first):
	 * 4 bytes an element, where a stamp and a chain would take 8.
	 */
	uint32_t **owner;
	uint32_t tags;			/* chains opened so far */
	uint32_t tag_base;		/* ... before the open stage */
	uint32_t *pass_stamp;		/* by slot: stamp of the pass's stage */
	uint32_t *consumed;		/* by slot: stamp of the stage of its acc */
	uint32_t *spass;		/* the open stage's pass slots */
	size_t nspass;
	uint32_t *sacc_cmd;		/* the open stage's accs, in order */
	uint32_t *sacc_chain;
	size_t nsacc;
	struct open_chain *sch;
	size_t nsch;
	uint32_t *cursor;		/* by open chain: next step position */
	size_t stages_cap;
	bool nomem;			/* a stage could not be added */
};

/*
 * The next stage, or NULL (bd->nomem set) when out of memory. Stages grow
 * as they come: a worst case of one per command would reserve 36 bytes
 * per command that most programs never use.
 */
static struct ttpu_stage *new_stage(struct builder *bd)
{
	struct ttpu_plan *p = bd->p;
	struct ttpu_stage *st;

	if (ttpu_grow(&p->stages, &bd->stages_cap, p->nstages + 1, sizeof(*p->stages))) {
		bd->nomem = true;
		return NULL;
	}
	st = &p->stages[p->nstages++];
	memset(st, 0, sizeof(*st));
	return st;
}

static bool same_window(const struct ttpu_window *x, const struct ttpu_window *y)
{
	return x->buf == y->buf && x->r == y->r && x->c == y->c;
}

static bool in_bounds(const struct ttpu_buffer *b, const struct ttpu_window *w)
{
	return w->r < b->rows && w->c < b->cols;
}

static void open_stage(struct builder *bd, uint32_t cmd)
{
	bd->stamp = ++bd->next_stamp;
	bd->tag_base = bd->tags;
	bd->first_cmd = cmd;
}

static void close_stage(struct builder *bd, uint32_t end_cmd)
{
	const struct ttpu_program *prog = bd->prog;
	struct ttpu_plan *p = bd->p;
	struct ttpu_stage *st;
	uint32_t pos = (uint32_t)p->nsteps;

	if (!bd->stamp)
		return;
	st = new_stage(bd);
	if (!st)
		return;
	st->kind = TTPU_STAGE_MATMUL;
	st->first_cmd = bd->first_cmd;
	st->end_cmd = end_cmd;
	st->first_chain = (uint32_t)p->nchains;
	st->nchains = (uint32_t)bd->nsch;
	st->first_job = (uint32_t)p->njobs;

	/* Steps grouped by chain, chains in order of their first acc. */
	for (size_t k = 0; k < bd->nsch; k++) {
		bd->cursor[k] = pos;
		pos += bd->sch[k].nsteps;
	}
	for (size_t i = 0; i < bd->nsacc; i++) {
		struct ttpu_step *s = &p->steps[bd->cursor[bd->sacc_chain[i]]++];

		s->acc_cmd = bd->sacc_cmd[i];
		s->slot = prog->cmds[s->acc_cmd].u.acc.slot;
	}
	for (size_t k = 0; k < bd->nsch; k++) {
		const struct open_chain *oc = &bd->sch[k];
		struct ttpu_chain *ch = &p->chains[p->nchains++];
		struct ttpu_job *job = &p->jobs[p->njobs];

		/* Padding too: a compiled program (program_binary_write.c) holds it. */
		memset(ch, 0, sizeof(*ch));
		ch->dst = oc->dst;
		ch->job = (uint32_t)p->njobs++;
		ch->first_step = (uint32_t)p->nsteps;
		ch->nsteps = oc->nsteps;
		ch->bias = oc->bias;
		ch->relu = oc->relu;
		ch->follows = oc->follows;
		if (bd->read[oc->dst.buf] == bd->stamp)
			st->acc_writes_operand = 1;
		job->first_link = (uint32_t)p->nlinks;
		for (uint32_t i = 0; i < oc->nsteps; i++) {
			struct ttpu_step *s = &p->steps[p->nsteps++];
			const struct ttpu_command *pc;
			struct ttpu_link *l;

			if (bd->pass_stamp[s->slot] != bd->stamp) {
				s->link = TTPU_NO_LINK;
				continue;
			}
			s->link = (uint32_t)p->nlinks;
			l = &p->links[p->nlinks++];
			l->pass_cmd = prog->pass_cmd[s->slot];
			pc = &prog->cmds[l->pass_cmd];
			l->a = pc->u.pass.a;
			l->b = pc->u.pass.b;
		}
		job->nlinks = (uint32_t)p->nlinks - job->first_link;
	}

	/* Passes whose acc comes in a later stage: one-link jobs kept in tmp. */
	st->first_deferred = (uint32_t)p->ndeferred;
	for (size_t i = 0; i < bd->nspass; i++) {
		uint32_t slot = bd->spass[i];
		const struct ttpu_command *pc;
		struct ttpu_deferred *d;
		struct ttpu_link *l;

		if (bd->consumed[slot] == bd->stamp)
			continue;
		d = &p->deferred[p->ndeferred++];
		d->job = (uint32_t)p->njobs;
		d->slot = slot;
		p->tmp_index[slot] = (uint32_t)p->ntmp++;
		p->jobs[p->njobs].first_link = (uint32_t)p->nlinks;
		p->jobs[p->njobs++].nlinks = 1;
		l = &p->links[p->nlinks++];
		l->pass_cmd = prog->pass_cmd[slot];
		pc = &prog->cmds[l->pass_cmd];
		l->a = pc->u.pass.a;
		l->b = pc->u.pass.b;
	}
	st->ndeferred = (uint32_t)p->ndeferred - st->first_deferred;
	st->njobs = (uint32_t)p->njobs - st->first_job;
	if (st->njobs > p->max_stage_jobs)
		p->max_stage_jobs = st->njobs;

	bd->nspass = 0;
	bd->nsacc = 0;
	bd->nsch = 0;
	bd->stamp = 0;
}

static void add_pass(struct builder *bd, uint32_t cmd)
{
	const struct ttpu_command *c = &bd->prog->cmds[cmd];

	if (bd->stamp && (bd->written[c->u.pass.a.buf] == bd->stamp ||
			  bd->written[c->u.pass.b.buf] == bd->stamp))
		close_stage(bd, cmd);
	if (!bd->stamp)
		open_stage(bd, cmd);
	bd->pass_stamp[c->u.pass.slot] = bd->stamp;
	bd->read[c->u.pass.a.buf] = bd->stamp;
	bd->read[c->u.pass.b.buf] = bd->stamp;
	bd->spass[bd->nspass++] = c->u.pass.slot;
}

/* Does @w partly overlap the window of another chain of the open stage? */
static bool overlaps_other(struct builder *bd, const struct ttpu_window *w)
{
	const struct ttpu_buffer *b = &bd->prog->buffers[w->buf];
	const uint32_t *own = bd->owner[w->buf];

	if (!own || !in_bounds(b, w))
		return false;
	for (uint64_t r = w->r; r < (uint64_t)w->r + TTPU_TILE && r < b->rows; r++) {
		for (uint64_t c = w->c; c < (uint64_t)w->c + TTPU_TILE && c < b->cols; c++) {
			uint32_t o = own[r * b->cols + c];

			if (o > bd->tag_base &&
			    !same_window(&bd->sch[o - bd->tag_base - 1].dst, w))
				return true;
		}
	}
	return false;
}

static int add_acc(struct builder *bd, uint32_t cmd, struct ttpu_error *err)
{
	const struct ttpu_command *c = &bd->prog->cmds[cmd];
	const struct ttpu_window *w = &c->u.acc.dst;
	const struct ttpu_buffer *b = &bd->prog->buffers[w->buf];
	uint32_t bias = c->u.acc.bias;
	uint32_t k = UINT32_MAX;
	bool follows = false;

	if (bd->stamp && ((bias != TTPU_NO_BUFFER && bd->written[bias] == bd->stamp) ||
			  overlaps_other(bd, w)))
		close_stage(bd, cmd);
	if (!bd->stamp)
		open_stage(bd, cmd);

	if (in_bounds(b, w)) {
		if (!bd->owner[w->buf]) {
			bd->owner[w->buf] = calloc(b->count, sizeof(uint32_t));
			if (!bd->owner[w->buf])
				return ttpu_error_nomem(err, "planning");
		}
		uint32_t o = bd->owner[w->buf][(size_t)w->r * b->cols + w->c];

		/* No partial overlap: a chain owning the corner has this window. */
		if (o > bd->tag_base) {
			follows = true;
			if (!bd->sch[o - bd->tag_base - 1].closed)
				k = o - bd->tag_base - 1;
		}
	}
	if (k == UINT32_MAX) {
		struct open_chain *oc = &bd->sch[bd->nsch];

		k = (uint32_t)bd->nsch++;
		bd->tags = bd->tag_base + k + 1;
		memset(oc, 0, sizeof(*oc));
		oc->dst = *w;
		oc->bias = TTPU_NO_BUFFER;
		oc->follows = follows;
		if (in_bounds(b, w)) {
			uint32_t tag = bd->tag_base + k + 1;

			for (uint64_t r = w->r; r < (uint64_t)w->r + TTPU_TILE && r < b->rows; r++)
				for (uint64_t cc = w->c; cc < (uint64_t)w->c + TTPU_TILE && cc < b->cols; cc++)
					bd->owner[w->buf][r * b->cols + cc] = tag;
		}
	}

	struct open_chain *oc = &bd->sch[k];

	oc->nsteps++;
	if (bias != TTPU_NO_BUFFER || c->relu || oc->nsteps == TTPU_CHAIN_MAX_STEPS) {
		oc->closed = 1;
		oc->bias = bias;
		oc->relu = c->relu;
	}
	bd->sacc_cmd[bd->nsacc] = cmd;
	bd->sacc_chain[bd->nsacc++] = k;
	bd->written[w->buf] = bd->stamp;
	bd->consumed[c->u.acc.slot] = bd->stamp;
	return 0;
}

static void builder_release(struct builder *bd)
{
	if (bd->owner)
		for (size_t i = 0; i < bd->prog->nbuffers; i++)
			free(bd->owner[i]);
	free(bd->owner);
	free(bd->written);
	free(bd->read);
	free(bd->pass_stamp);
	free(bd->consumed);
	free(bd->spass);
	free(bd->sacc_cmd);
	free(bd->sacc_chain);
	free(bd->sch);
	free(bd->cursor);
}

void ttpu_plan_free(struct ttpu_plan *plan)
{
	if (!plan)
		return;
	free(plan->stages);
	free(plan->jobs);
	free(plan->links);
	free(plan->chains);
	free(plan->steps);
	free(plan->deferred);
	free(plan->tmp_index);
	free(plan);
}

/* Shrink an array allocated for the worst case to what was used. */
static void *fit(void *ptr, size_t n, size_t size)
{
	void *q = realloc(ptr, (n ? n : 1) * size);

	return q ? q : ptr;
}

int ttpu_plan_build(const struct ttpu_program *prog, struct ttpu_plan **out,
		    struct ttpu_error *err)
{
	size_t np = prog->npasses, nc = prog->ncmds, nb = prog->nbuffers;
	struct builder bd = { .prog = prog };
	struct ttpu_plan *p;
	int ret = 0;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return ttpu_error_nomem(err, "planning");
	bd.p = p;
	/* Worst cases: one chain and one deferred job per pass. */
	p->jobs = malloc((2 * np + 1) * sizeof(*p->jobs));
	p->links = malloc((np + 1) * sizeof(*p->links));
	p->chains = malloc((np + 1) * sizeof(*p->chains));
	p->steps = malloc((np + 1) * sizeof(*p->steps));
	p->deferred = malloc((np + 1) * sizeof(*p->deferred));
	p->tmp_index = malloc((np + 1) * sizeof(*p->tmp_index));
	bd.written = calloc(nb + 1, sizeof(*bd.written));
	bd.read = calloc(nb + 1, sizeof(*bd.read));
	bd.owner = calloc(nb + 1, sizeof(*bd.owner));
	bd.pass_stamp = calloc(np + 1, sizeof(*bd.pass_stamp));
	bd.consumed = calloc(np + 1, sizeof(*bd.consumed));
	bd.spass = malloc((np + 1) * sizeof(*bd.spass));
	bd.sacc_cmd = malloc((np + 1) * sizeof(*bd.sacc_cmd));
	bd.sacc_chain = malloc((np + 1) * sizeof(*bd.sacc_chain));
	bd.sch = malloc((np + 1) * sizeof(*bd.sch));
	bd.cursor = malloc((np + 1) * sizeof(*bd.cursor));
	if (!p->jobs || !p->links || !p->chains || !p->steps ||
	    !p->deferred || !p->tmp_index || !bd.written || !bd.read || !bd.owner ||
	    !bd.pass_stamp || !bd.consumed || !bd.spass || !bd.sacc_cmd ||
	    !bd.sacc_chain || !bd.sch || !bd.cursor) {
		ret = ttpu_error_nomem(err, "planning");
		goto fail;
	}
	for (size_t i = 0; i < np; i++)
		p->tmp_index[i] = UINT32_MAX;

	for (uint32_t i = 0; i < nc && !bd.nomem; i++) {
		switch (prog->cmds[i].op) {
		case TTPU_OP_PASS:
			add_pass(&bd, i);
			break;
		case TTPU_OP_ACC:
			ret = add_acc(&bd, i, err);
			if (ret)
				goto fail;
			break;
		default: {
			struct ttpu_stage *st;

			close_stage(&bd, i);
			st = new_stage(&bd);
			if (!st)
				break;
			st->kind = TTPU_STAGE_HOST;
			st->first_cmd = i;
			st->end_cmd = i + 1;
			/* Empty ranges at the right place keep "first_x" monotonic. */
			st->first_job = (uint32_t)p->njobs;
			st->first_chain = (uint32_t)p->nchains;
			st->first_deferred = (uint32_t)p->ndeferred;
			break;
		}
		}
	}
	close_stage(&bd, (uint32_t)nc);
	builder_release(&bd);
	if (bd.nomem) {
		ret = ttpu_error_nomem(err, "planning");
		goto fail_released;
	}

	p->stages = fit(p->stages, p->nstages, sizeof(*p->stages));
	p->jobs = fit(p->jobs, p->njobs, sizeof(*p->jobs));
	p->links = fit(p->links, p->nlinks, sizeof(*p->links));
	p->chains = fit(p->chains, p->nchains, sizeof(*p->chains));
	p->steps = fit(p->steps, p->nsteps, sizeof(*p->steps));
	p->deferred = fit(p->deferred, p->ndeferred, sizeof(*p->deferred));
	*out = p;
	return 0;
fail:
	builder_release(&bd);
fail_released:
	ttpu_plan_free(p);
	return ret;
}
