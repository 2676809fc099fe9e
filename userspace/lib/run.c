// SPDX-License-Identifier: MIT
/*
 * run.c - ttpu_run(): execute a program's plan on an engine
 *
 * The engine computes each MATMUL stage's job sums, except the chains into
 * i8 buffers (run_split.h): their exact check is their product taken step
 * by step, so the runner computes those itself, once, fused with the check
 * (run_replay.c), and the engine leaves their jobs alone. Everything that
 * can raise a RangeError happens here, in run_replay.c, run_range.c and
 * run_host.c, so every engine gives the answers of one-by-one execution.
 * An engine's chain (an i32 destination) is added at once when the bound
 * of plan.h proves no intermediate "dst += tmp" can leave the dtype;
 * otherwise run_range.c settles it element by element from the same sum.
 * Only in a stage where an acc writes a buffer a pass of the stage reads
 * (acc_writes_operand) do all chains stay the engine's, replayed one step
 * at a time from per-link products taken before any chain of the stage
 * wrote anything.
 *
 * Two cores: a stage with enough host work starts one worker thread that
 * runs the engine's share (on NpuKit, asleep in SUBMIT while the device
 * works) and then joins the replays, which the calling thread has been
 * taking meanwhile from a shared index; after the join the calling thread
 * applies every chain in order, as the serial path does
 * (compute_and_replay()).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "program_inputs.h"
#include "run_host.h"
#include "run_range.h"
#include "run_range_neon.h"
#include "run_replay.h"
#include "run_split.h"
#include "plan.h"
#include "run.h"
#include "util.h"

static size_t elem_size(const struct ttpu_buffer *b)
{
	return b->dtype == TTPU_DTYPE_I8 ? 1 : 4;
}

static int missing_inputs(const struct ttpu_program *prog, const ttpu_inputs *in,
			  struct ttpu_error *err)
{
	char names[TTPU_ERROR_MESSAGE_MAX - 64] = "";
	size_t len = 0, n = 0;
	uint32_t first = 0;

	for (size_t i = 0; i < prog->ninputs; i++) {
		uint32_t b = prog->inputs[i];

		if (in && ttpu_inputs_values(in, b))
			continue;
		if (!n++)
			first = b;
		if (len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s\"%s\"",
						n > 1 ? ", " : "", prog->buffers[b].name);
	}
	if (!n)
		return 0;
	ttpu_error_set(err, TTPU_INPUT_ERROR, "missing input%s: %s", n > 1 ? "s" : "", names);
	ttpu_error_at_buffer(err, prog->buffers[first].name);
	return -TTPU_INPUT_ERROR;
}

int ttpu_run_ctx_init(struct ttpu_run_ctx *ctx, const struct ttpu_program *prog,
		      const ttpu_inputs *in, struct ttpu_error *err)
{
	size_t total = 0;
	char *base;
	int ret;

	memset(ctx, 0, sizeof(*ctx));
	ctx->prog = prog;
	if (in && ttpu_inputs_program(in) != prog)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				     "the inputs were made for another program");
	ret = missing_inputs(prog, in, err);
	if (ret)
		return ret;

	ctx->data = calloc(prog->nbuffers + 1, sizeof(*ctx->data));
	ctx->version = calloc(prog->nbuffers + 1, sizeof(*ctx->version));
	/* One block for every buffer, each 64-byte aligned; data[0] is its start. */
	for (size_t i = 0; i < prog->nbuffers; i++)
		total += (prog->buffers[i].count * elem_size(&prog->buffers[i]) + 63) & ~(size_t)63;
	base = aligned_alloc(64, total ? total : 64);
	if (!ctx->data || !ctx->version || !base) {
		free(base);
		ttpu_run_ctx_release(ctx);
		return ttpu_error_nomem(err, "allocating the run's buffers");
	}
	ctx->data[0] = base;
	for (size_t i = 0; i < prog->nbuffers; i++) {
		const struct ttpu_buffer *b = &prog->buffers[i];
		size_t bytes = b->count * elem_size(b);
		const void *src = b->init;

		ctx->data[i] = base;
		base += (bytes + 63) & ~(size_t)63;
		if (b->kind == TTPU_KIND_INPUT)
			src = ttpu_inputs_values(in, (uint32_t)i);
		if (src)
			memcpy(ctx->data[i], src, bytes);
		else
			memset(ctx->data[i], 0, bytes);
	}
	return 0;
}

void ttpu_run_ctx_release(struct ttpu_run_ctx *ctx)
{
	if (ctx->data)
		free(ctx->data[0]);
	free(ctx->data);
	free(ctx->version);
	free(ctx->tmp);
	ctx->data = NULL;
	ctx->version = NULL;
	ctx->tmp = NULL;
}

/* Per-run state of the chain application. */
struct runner {
	struct ttpu_run_ctx ctx;
	ttpu_engine *eng;
	const struct ttpu_plan *plan;
	int32_t (*sums)[16];
	uint32_t *prod_first;		/* by chain of the stage, or UINT32_MAX */
	int32_t (*prod)[16];		/* per-link products for replays */
	size_t prod_cap;
	struct ttpu_range range;
	const struct ttpu_replay_table *table;
	uint8_t *host_job;		/* by job of the stage (run_split.h) */
	struct ttpu_replay *replays;	/* by chain of the stage: host chains' answers */
	uint32_t *items;		/* the stage's replays: chain | ITEM_PAIR */
	uint64_t thread_min_steps;	/* UINT64_MAX: serial (run_threads()) */
};

/* An item replays its chain and the next one (ttpu_replay_pair()). */
#define ITEM_PAIR 0x80000000u
/*
 * A stage replays on both cores when its host chains have at least this
 * many steps (each a 4x4x4 product, ~30-60 armhf instructions with NEON):
 * below, a thread's start and join (tens of microseconds) is not repaid.
 */
#define THREAD_MIN_STEPS 2048

static bool sum_fits(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch)
{
	uint8_t dtype = ctx->prog->buffers[ch->dst.buf].dtype;

	return ttpu_host_window_maxabs(ctx, &ch->dst) +
	       (int64_t)ch->nsteps * TTPU_PRODUCT_BOUND <= ttpu_dtype_max(dtype);
}

/*
 * In a stage with acc_writes_operand: products of the chains that may
 * need a replay, taken while every buffer still holds its stage-start
 * contents. A chain that follows another one on the same window cannot be
 * judged before that one ran, so it is always prepared.
 */
static int prepare_replays(struct runner *rn, const struct ttpu_stage *st,
			   struct ttpu_error *err)
{
	const struct ttpu_plan *plan = rn->plan;
	size_t n = 0;

	if (!st->acc_writes_operand)
		return 0;
	for (uint32_t k = 0; k < st->nchains; k++) {
		const struct ttpu_chain *ch = &plan->chains[st->first_chain + k];
		const struct ttpu_job *job = &plan->jobs[ch->job];

		rn->prod_first[k] = UINT32_MAX;
		if (!ch->follows && sum_fits(&rn->ctx, ch))
			continue;
		if (ttpu_grow(&rn->prod, &rn->prod_cap, n + job->nlinks, sizeof(*rn->prod)))
			return ttpu_error_nomem(err, "taking replay products");
		rn->prod_first[k] = (uint32_t)n;
		for (uint32_t l = 0; l < job->nlinks; l++) {
			const struct ttpu_link *lk = &plan->links[job->first_link + l];

			ttpu_link_product(rn->ctx.prog, rn->ctx.data, &lk->a, &lk->b,
					  rn->prod[n++]);
		}
	}
	return 0;
}

static const int32_t *tmp_of(const struct runner *rn, uint32_t slot)
{
	return rn->ctx.tmp + (size_t)rn->plan->tmp_index[slot] * TTPU_TILE_ELEMS;
}

static int apply_chain(struct runner *rn, const struct ttpu_stage *st, uint32_t k,
		       struct ttpu_error *err)
{
	const struct ttpu_plan *plan = rn->plan;
	const struct ttpu_chain *ch = &plan->chains[st->first_chain + k];
	const struct ttpu_step *steps = &plan->steps[ch->first_step];
	const struct ttpu_job *job = &plan->jobs[ch->job];
	bool fits;
	int ret;

	if (rn->host_job[ch->job - st->first_job]) {
		struct ttpu_replay *r = &rn->replays[k];

		/* From the value the chain before it on this window left. */
		if (ch->follows)
			ttpu_replay_chain(&rn->ctx, rn->table, ch, r);
		ret = ttpu_replay_apply(&rn->ctx, ch, r, err);
		if (ret)
			return ret;
		return ttpu_host_epilogue(&rn->ctx, steps[ch->nsteps - 1].acc_cmd, &ch->dst,
					  ch->bias, ch->relu, err);
	}
	fits = sum_fits(&rn->ctx, ch);
	if (!fits && !st->acc_writes_operand) {
		ret = ttpu_range_add_chain(&rn->range, &rn->ctx, ch,
					   rn->sums[ch->job - st->first_job], err);
		if (ret)
			return ret;
	} else if (fits || rn->prod_first[k] == UINT32_MAX) {
		int32_t total[16];

		memcpy(total, rn->sums[ch->job - st->first_job], sizeof(total));
		/* Every step a link of the job (a tiled matmul's): no deferred value to add. */
		for (uint32_t s = job->nlinks == ch->nsteps ? ch->nsteps : 0; s < ch->nsteps; s++) {
			if (steps[s].link != TTPU_NO_LINK)
				continue;
			const int32_t *t = tmp_of(rn, steps[s].slot);

			for (int e = 0; e < TTPU_TILE_ELEMS; e++)
				total[e] += t[e];
		}
		ttpu_host_acc_add_unchecked(&rn->ctx, &ch->dst, total);
	} else {
		for (uint32_t s = 0; s < ch->nsteps; s++) {
			const int32_t *t = steps[s].link == TTPU_NO_LINK ?
				tmp_of(rn, steps[s].slot) :
				rn->prod[rn->prod_first[k] + steps[s].link - job->first_link];

			ret = ttpu_host_acc_add(&rn->ctx, steps[s].acc_cmd, &ch->dst, t, err);
			if (ret)
				return ret;
		}
	}
	return ttpu_host_epilogue(&rn->ctx, steps[ch->nsteps - 1].acc_cmd, &ch->dst,
				  ch->bias, ch->relu, err);
}

/*
 * The stage's host chains that replay from the stage's start (those that
 * follow another chain replay when they are applied), as items: two
 * neighbouring chains together where they can. Returns their steps.
 */
static uint64_t stage_items(struct runner *rn, const struct ttpu_stage *st, uint32_t *nitems)
{
	const struct ttpu_chain *chains = &rn->plan->chains[st->first_chain];
	uint64_t steps = 0;
	uint32_t n = 0;

	for (uint32_t k = 0; k < st->nchains; k++) {
		const struct ttpu_chain *ch = &chains[k];

		if (!rn->host_job[ch->job - st->first_job] || ch->follows)
			continue;
		steps += ch->nsteps;
		if (k + 1 < st->nchains && rn->host_job[chains[k + 1].job - st->first_job] &&
		    ttpu_replay_can_pair(rn->ctx.prog, rn->table, ch, &chains[k + 1])) {
			steps += chains[k + 1].nsteps;
			rn->items[n++] = k++ | ITEM_PAIR;
		} else {
			rn->items[n++] = k;
		}
	}
	*nitems = n;
	return steps;
}

/* What the cores share while a stage's replays run. */
struct stage_work {
	struct runner *rn;
	const struct ttpu_stage *st;
	uint32_t nitems;
	uint32_t next;			/* the next item to take, atomic */
	int engine_ret;			/* the worker's compute_stage() */
	struct ttpu_error engine_err;
};

/* Take items until none is left. Each writes only its chains' records. */
static void replay_items(struct stage_work *w)
{
	const struct ttpu_chain *chains = &w->rn->plan->chains[w->st->first_chain];
	const struct ttpu_run_ctx *ctx = &w->rn->ctx;

	for (;;) {
		uint32_t i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED), k;

		if (i >= w->nitems)
			return;
		k = w->rn->items[i] & ~ITEM_PAIR;
		if (w->rn->items[i] & ITEM_PAIR)
			ttpu_replay_pair(ctx, w->rn->table, &chains[k], &chains[k + 1],
					 &w->rn->replays[k], &w->rn->replays[k + 1]);
		else
			ttpu_replay_chain(ctx, w->rn->table, &chains[k], &w->rn->replays[k]);
	}
}

static int compute(struct stage_work *w, struct ttpu_error *err)
{
	struct runner *rn = w->rn;

	if (!w->st->njobs)
		return 0;
	return rn->eng->ops->compute_stage(rn->eng, &rn->ctx, w->st, rn->host_job, rn->sums, err);
}

/* The second core: the engine's jobs (on NpuKit, asleep in SUBMIT), then replays. */
static void *worker(void *arg)
{
	struct stage_work *w = arg;

	w->engine_ret = compute(w, &w->engine_err);
	replay_items(w);
	return NULL;
}

/*
 * The engine's jobs and the host chains' replays of a stage. Nothing here
 * writes what the other reads: the engine fills sums[] of its jobs (and
 * its own scratch and counters), the replays their chains' records, and
 * ctx->data stays as the stage found it until both are done. So the
 * answers are the serial ones, and an engine error, which one-by-one
 * execution would meet before any chain of the stage is applied, is
 * returned as it is when run serially, whatever the replays found.
 */
static int compute_and_replay(struct runner *rn, const struct ttpu_stage *st,
			      struct ttpu_error *err)
{
	struct stage_work w = { .rn = rn, .st = st };
	uint64_t steps = stage_items(rn, st, &w.nitems);
	pthread_t th;

	if (steps >= rn->thread_min_steps && !pthread_create(&th, NULL, worker, &w)) {
		replay_items(&w);
		pthread_join(th, NULL);
		if (w.engine_ret && err)
			*err = w.engine_err;
		return w.engine_ret;
	}
	/* Serial: the same work in the same order of results. */
	w.engine_ret = compute(&w, err);
	if (w.engine_ret)
		return w.engine_ret;
	replay_items(&w);
	return 0;
}

static int run_matmul(struct runner *rn, const struct ttpu_stage *st,
		      struct ttpu_error *err)
{
	const struct ttpu_plan *plan = rn->plan;
	struct ttpu_error cerr;
	long first_bad = -1;
	int ret, bad = 0;

	/* The replay table is the program's; one without host chains never makes it. */
	if (ttpu_stage_host_jobs(rn->ctx.prog, st, rn->host_job) && !rn->table) {
		rn->table = ttpu_replay_table_of(rn->ctx.prog);
		if (!rn->table)
			return ttpu_error_nomem(err, "tabling the host chains' steps");
	}
	ret = compute_and_replay(rn, st, err);
	if (ret)
		return ret;
	for (uint32_t i = 0; i < st->ndeferred; i++) {
		const struct ttpu_deferred *d = &plan->deferred[st->first_deferred + i];

		memcpy(rn->ctx.tmp + (size_t)plan->tmp_index[d->slot] * TTPU_TILE_ELEMS,
		       rn->sums[d->job - st->first_job], sizeof(rn->sums[0]));
	}
	ret = prepare_replays(rn, st, err);
	if (ret)
		return ret;
	/*
	 * Chains write disjoint windows (or follow each other on the same
	 * one), so each one fails exactly where one-by-one execution would
	 * first fail in it; the run fails at the smallest such command. Chains
	 * are in order of their first acc, so none after a failure can matter.
	 */
	for (uint32_t k = 0; k < st->nchains; k++) {
		const struct ttpu_chain *ch = &plan->chains[st->first_chain + k];

		if (bad && (long)plan->steps[ch->first_step].acc_cmd > first_bad)
			break;
		ret = apply_chain(rn, st, k, &cerr);
		if (ret && (!bad || cerr.command < first_bad)) {
			bad = ret;
			first_bad = cerr.command;
			if (err)
				*err = cerr;
		}
	}
	return bad;
}

/*
 * The host steps from which a stage uses a second thread: TTPU_RUN_THREADS
 * (Documentation/libttpu-run.rst) "1" keeps a run on the calling thread
 * (benchmarks comparing the two), "2" uses two for any stage with host
 * chains (tests: their programs are small); otherwise THREAD_MIN_STEPS.
 */
static uint64_t run_threads(void)
{
	switch (ttpu_threads_env()) {
	case 1:
		return UINT64_MAX;
	case 2:
		return 1;
	default:
		return THREAD_MIN_STEPS;
	}
}

int ttpu_run(const ttpu_program *prog, ttpu_engine *eng,
	     const ttpu_inputs *in, ttpu_result **out, struct ttpu_error *err)
{
	struct runner rn = { .eng = eng };
	uint64_t t0 = ttpu_now_ns();
	bool began = false;
	int ret;

	if (!out)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_run: no result pointer");
	*out = NULL;
	if (!prog || !eng)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_run: no %s",
				     prog ? "engine" : "program");
	if (!prog->plan)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				     "ttpu_run: the program has no plan (not loaded by ttpu_program_load_*)");
	rn.plan = prog->plan;
	rn.thread_min_steps = run_threads();
	/* Asked once here, so that both cores only read the answer. */
	ttpu_range_neon_on();
	ret = ttpu_run_ctx_init(&rn.ctx, prog, in, err);
	if (ret)
		return ret;
	ret = ttpu_range_init(&rn.range, prog, err);
	if (ret) {
		ttpu_run_ctx_release(&rn.ctx);
		return ret;
	}
	rn.ctx.tmp = malloc((rn.plan->ntmp + 1) * TTPU_TILE_ELEMS * sizeof(int32_t));
	rn.sums = malloc((rn.plan->max_stage_jobs + 1) * sizeof(*rn.sums));
	rn.prod_first = malloc((rn.plan->max_stage_jobs + 1) * sizeof(*rn.prod_first));
	/* A stage has at most one chain a job. */
	rn.host_job = malloc(rn.plan->max_stage_jobs + 1);
	rn.replays = malloc((rn.plan->max_stage_jobs + 1) * sizeof(*rn.replays));
	rn.items = malloc((rn.plan->max_stage_jobs + 1) * sizeof(*rn.items));
	if (!rn.ctx.tmp || !rn.sums || !rn.prod_first || !rn.host_job || !rn.replays ||
	    !rn.items) {
		ret = ttpu_error_nomem(err, "starting a run");
		goto out;
	}
	if (eng->ops->run_begin) {
		ret = eng->ops->run_begin(eng, &rn.ctx, err);
		if (ret)
			goto out;
	}
	began = true;
	for (size_t i = 0; i < rn.plan->nstages && !ret; i++) {
		const struct ttpu_stage *st = &rn.plan->stages[i];

		if (st->kind == TTPU_STAGE_HOST)
			ret = ttpu_host_command(&rn.ctx, st->first_cmd, err);
		else
			ret = run_matmul(&rn, st, err);
	}
	if (ret)
		goto out;
	rn.ctx.stats.passes = prog->npasses;
	rn.ctx.stats.total_cycles = prog->npasses * TTPU_CYCLES_PER_PASS;
	rn.ctx.stats.stages = rn.plan->nstages;
	rn.ctx.stats.run_ns = ttpu_now_ns() - t0;
	ret = ttpu_result_new(prog, &rn.ctx, ttpu_engine_name(eng), eng->reason, out, err);
out:
	if (began && eng->ops->run_end)
		eng->ops->run_end(eng, &rn.ctx);
	ttpu_range_release(&rn.range, prog);
	ttpu_run_ctx_release(&rn.ctx);
	free(rn.sums);
	free(rn.prod_first);
	free(rn.prod);
	free(rn.host_job);
	free(rn.replays);
	free(rn.items);
	return ret;
}
