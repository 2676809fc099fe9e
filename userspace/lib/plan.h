/* SPDX-License-Identifier: MIT */
/*
 * plan.h - a program's commands grouped into stages an engine can compute
 *
 * The plan is built once at load time and is immutable.
 *
 * A HOST stage is one host command (alloc, epilogue, host_add, host_relu),
 * run by run_host.c.
 *
 * A MATMUL stage is a maximal run of pass/acc commands in which
 *   - no pass reads a buffer that an earlier acc of the stage wrote, so
 *     every pass of the stage reads the state at the start of the stage;
 *   - no acc reads a bias buffer that an earlier acc of the stage wrote;
 *   - the dst windows of different chains never partly overlap (identical
 *     windows are fine: their chains follow each other in command order).
 * Its accs are grouped into chains: the accs into one dst window, in
 * command order, ending at the first acc that carries an epilogue (bias or
 * relu), at the end of the stage, or after TTPU_CHAIN_MAX_STEPS accs.
 *
 * An engine computes jobs: job j is the sum over its links of
 * a_window * b_window (4x4x4, int8 x int8 -> int32), one 4x4 int32 result.
 * Each chain's computable links (passes of this stage) form one job. A
 * pass of this stage whose acc lies in a later stage is "deferred": it is
 * a one-link job whose result is kept in per-run tmp storage until its acc
 * runs.
 *
 * Why sums are exact: |one 4x4x4 product element| <= 4 * 128 * 128 = 2^16,
 * so a job of at most TTPU_CHAIN_MAX_STEPS links cannot leave int32, and
 * the host (run.c) adds a chain's sum at once only when
 * max|dst| + nsteps * 2^16 fits the dst dtype, which proves that no
 * intermediate "dst += tmp" of the one-by-one execution leaves the range.
 * Otherwise it replays the chain step by step with the reference kernel,
 * so RangeErrors are raised exactly where one-by-one execution raises them.
 * How the host settles a chain the bound above cannot: run_range.c. A
 * chain into an i8 buffer no engine computes: the runner takes its
 * product and its check at once (run_split.h, run_replay.c).
 */
#ifndef TTPU_PLAN_H
#define TTPU_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "program.h"

#define TTPU_PRODUCT_BOUND 65536	/* 4 * 128 * 128 */
#define TTPU_CHAIN_MAX_STEPS 32767	/* 32767 * 2^16 < 2^31 */
#define TTPU_NO_LINK UINT32_MAX

/** One pass: its operand windows, and where it came from. */
struct ttpu_link {
	struct ttpu_window a;
	struct ttpu_window b;
	uint32_t pass_cmd;		/* index of the pass command */
};

/** One 4x4 result: the sum of links [first_link, first_link + nlinks). */
struct ttpu_job {
	uint32_t first_link;
	uint32_t nlinks;
};

/** One acc of a chain. */
struct ttpu_step {
	uint32_t acc_cmd;		/* index of the acc command */
	uint32_t slot;			/* pass slot it consumes */
	uint32_t link;			/* link index, or TTPU_NO_LINK if deferred */
};

/** Accs into one dst window; the last may carry the epilogue. */
struct ttpu_chain {
	struct ttpu_window dst;
	uint32_t job;			/* job summing the chain's links */
	uint32_t first_step;
	uint32_t nsteps;
	uint32_t bias;			/* epilogue of the last step, or TTPU_NO_BUFFER */
	uint8_t relu;
	/*
	 * An earlier chain of the same stage has this very dst window, so
	 * dst at this chain's turn is not the stage-start value.
	 */
	uint8_t follows;
};

/** A pass whose acc is in a later stage: job result -> tmp[tmp_index]. */
struct ttpu_deferred {
	uint32_t job;
	uint32_t slot;
};

enum ttpu_stage_kind { TTPU_STAGE_HOST = 0, TTPU_STAGE_MATMUL = 1 };

struct ttpu_stage {
	uint8_t kind;
	uint32_t first_cmd;		/* command range [first_cmd, end_cmd) */
	uint32_t end_cmd;
	uint32_t first_job, njobs;
	uint32_t first_chain, nchains;
	uint32_t first_deferred, ndeferred;
	/*
	 * An acc of the stage writes a buffer that a pass of the stage reads,
	 * so once a chain was added, the operands of later chains' links are
	 * no longer in memory: their products must be taken beforehand.
	 */
	uint8_t acc_writes_operand;
};

struct ttpu_plan {
	struct ttpu_stage *stages;
	size_t nstages;
	struct ttpu_job *jobs;
	size_t njobs;
	struct ttpu_link *links;
	size_t nlinks;
	struct ttpu_chain *chains;
	size_t nchains;
	struct ttpu_step *steps;
	size_t nsteps;
	struct ttpu_deferred *deferred;
	size_t ndeferred;
	uint32_t *tmp_index;		/* by pass slot: tmp storage index, or UINT32_MAX */
	size_t ntmp;			/* deferred passes: 16 int32 each per run */
	size_t max_stage_jobs;		/* largest njobs of a stage */
};

/** Build the plan of a validated program. Returns 0 or -TTPU_SYSTEM_ERROR. */
int ttpu_plan_build(const struct ttpu_program *prog, struct ttpu_plan **out,
		    struct ttpu_error *err);
void ttpu_plan_free(struct ttpu_plan *plan);

#endif /* TTPU_PLAN_H */
