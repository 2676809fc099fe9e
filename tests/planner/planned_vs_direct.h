/* SPDX-License-Identifier: MIT */
/*
 * planned_vs_direct.h - what the planner's tests check of a compact
 * program: the planned path (plan + software engine + runner) against the
 * one-command-at-a-time reference executor, the same outputs or the same
 * error, and the plan's invariants; and each test's engine and program
 * builder. A suite includes it after kselftest_harness.h.
 */
#ifndef PLANNED_VS_DIRECT_H
#define PLANNED_VS_DIRECT_H

#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "engine.h"
#include "plan.h"
#include "program.h"
#include "run.h"
#include "run_direct.h"
#include "compact_build.h"

/* ---- comparing the two executors ------------------------------------ */

struct outcome {
	int ok, range_errors, deferred, follows, replays_possible;
};

/* Returns 0 when the planned run and the direct run agree. */
static inline int compare(struct __test_metadata *_metadata, struct ttpu_program *p,
			  ttpu_engine *eng, struct outcome *oc)
{
	struct ttpu_error e1, e2;
	ttpu_result *r1 = NULL, *r2 = NULL;
	int ret1, ret2;

	ret1 = ttpu_run(p, eng, NULL, &r1, &e1);
	ret2 = ttpu_run_direct(p, NULL, &r2, &e2);
	EXPECT_EQ(ret2, ret1);
	if (ret1 != ret2) {
		TH_LOG("planned: %s", ret1 ? e1.message : "ok");
		TH_LOG("direct: %s", ret2 ? e2.message : "ok");
	} else if (ret1) {
		EXPECT_NULL(r1);
		EXPECT_EQ(e2.kind, e1.kind);
		EXPECT_EQ(e2.command, e1.command);
		EXPECT_EQ(e2.element, e1.element);
		EXPECT_STREQ(e2.buffer, e1.buffer);
		EXPECT_STREQ(e2.message, e1.message);
		oc->range_errors += e1.kind == TTPU_RANGE_ERROR;
	} else {
		for (size_t i = 0; i < p->noutputs; i++) {
			const char *name = p->buffers[p->outputs[i]].name;
			size_t n1, n2;
			const int32_t *d1 = ttpu_result_output(r1, name, &n1);
			const int32_t *d2 = ttpu_result_output(r2, name, &n2);

			ASSERT_NE(NULL, d1);
			ASSERT_NE(NULL, d2);
			ASSERT_EQ(n2, n1);
			EXPECT_EQ(0, memcmp(d1, d2, n1 * sizeof(*d1)));
		}
		EXPECT_EQ(p->npasses * 15, ttpu_result_stats(r1)->total_cycles);
		EXPECT_EQ(p->plan->nstages, ttpu_result_stats(r1)->stages);
		oc->ok++;
	}
	ttpu_result_free(r1);
	ttpu_result_free(r2);
	return _metadata->passed ? 0 : -1;
}

/* ---- plan invariants -------------------------------------------------- */

static inline void check_plan(struct __test_metadata *_metadata, const struct ttpu_program *p,
			      struct outcome *oc)
{
	const struct ttpu_plan *pl = p->plan;
	uint32_t next = 0, nacc = 0, chains = 0, jobs = 0;
	size_t deferred = 0;

	for (size_t s = 0; s < pl->nstages; s++) {
		const struct ttpu_stage *st = &pl->stages[s];

		ASSERT_EQ(next, st->first_cmd);
		ASSERT_LT(st->first_cmd, st->end_cmd);
		next = st->end_cmd;
		ASSERT_EQ(jobs, st->first_job);
		ASSERT_EQ(chains, st->first_chain);
		jobs += st->njobs;
		chains += st->nchains;
		ASSERT_LE(st->njobs, pl->max_stage_jobs);
		ASSERT_EQ(st->nchains + st->ndeferred, st->njobs);
		if (st->kind == TTPU_STAGE_HOST) {
			ASSERT_EQ(st->first_cmd + 1, st->end_cmd);
			ASSERT_NE(TTPU_OP_PASS, p->cmds[st->first_cmd].op);
			ASSERT_NE(TTPU_OP_ACC, p->cmds[st->first_cmd].op);
			continue;
		}
		for (uint32_t k = 0; k < st->nchains; k++) {
			const struct ttpu_chain *ch = &pl->chains[st->first_chain + k];
			const struct ttpu_job *job = &pl->jobs[ch->job];
			uint32_t links = 0;

			ASSERT_GE(ch->nsteps, 1);
			ASSERT_LE(ch->nsteps, TTPU_CHAIN_MAX_STEPS);
			oc->follows += ch->follows;
			for (uint32_t i = 0; i < ch->nsteps; i++) {
				const struct ttpu_step *sp = &pl->steps[ch->first_step + i];
				const struct ttpu_command *c = &p->cmds[sp->acc_cmd];

				ASSERT_EQ(TTPU_OP_ACC, c->op);
				ASSERT_GE(sp->acc_cmd, st->first_cmd);
				ASSERT_LT(sp->acc_cmd, st->end_cmd);
				ASSERT_EQ(c->u.acc.slot, sp->slot);
				ASSERT_EQ(ch->dst.buf, c->u.acc.dst.buf);
				ASSERT_EQ(ch->dst.r, c->u.acc.dst.r);
				ASSERT_EQ(ch->dst.c, c->u.acc.dst.c);
				/* Only the last step may carry an epilogue. */
				if (i + 1 < ch->nsteps) {
					ASSERT_EQ(TTPU_NO_BUFFER, c->u.acc.bias);
					ASSERT_EQ(0, c->relu);
				} else {
					ASSERT_EQ(c->u.acc.bias, ch->bias);
					ASSERT_EQ(c->relu, ch->relu);
				}
				if (sp->link == TTPU_NO_LINK) {
					ASSERT_LT(p->pass_cmd[sp->slot], st->first_cmd);
					ASSERT_NE(UINT32_MAX, pl->tmp_index[sp->slot]);
				} else {
					ASSERT_EQ(job->first_link + links, sp->link);
					ASSERT_EQ(p->pass_cmd[sp->slot], pl->links[sp->link].pass_cmd);
					links++;
				}
				nacc++;
			}
			ASSERT_EQ(links, job->nlinks);
		}
		for (uint32_t i = 0; i < st->ndeferred; i++) {
			const struct ttpu_deferred *d = &pl->deferred[st->first_deferred + i];

			ASSERT_EQ(1, pl->jobs[d->job].nlinks);
			ASSERT_GE(p->pass_cmd[d->slot], st->first_cmd);
			ASSERT_LT(p->pass_cmd[d->slot], st->end_cmd);
			deferred++;
		}
	}
	ASSERT_EQ(p->ncmds, next);
	ASSERT_EQ(pl->njobs, jobs);
	ASSERT_EQ(pl->nchains, chains);
	ASSERT_EQ(pl->ndeferred, deferred);
	ASSERT_EQ(pl->ntmp, deferred);
	ASSERT_EQ(p->npasses, nacc);
	oc->deferred += (int)deferred;
}

/* Each test's engine and program builder. */
struct fx {
	ttpu_engine *eng;
	struct pbuild *b;
};

static inline int fx_open(struct fx *f)
{
	f->b = calloc(1, sizeof(*f->b));
	return f->b ? ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &f->eng, NULL) : -1;
}

static inline void fx_close(struct fx *f)
{
	ttpu_engine_close(f->eng);
	free(f->b);
}

#endif /* PLANNED_VS_DIRECT_H */
