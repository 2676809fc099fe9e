// SPDX-License-Identifier: MIT
/*
 * run_prepare.c - ttpu_program_prepare(): what a program's runs derive
 * from the program alone, derived before the first run
 *
 * A program's runs keep with it what depends on the program alone (the
 * runner's replay table of the host chains, run_replay.c; the response's
 * passes list, response_passes.c; each engine's own: the NpuKit engine's
 * kick groups, the software engine's K-walks). A run makes whatever is
 * not made yet, so a program's first run pays for all of it: 8.0 M of
 * the 13.8 M armhf instructions of a served MLP's first request on the
 * NpuKit engine, 11.8 M of 17.5 M on the software engine (make
 * bench-board, Documentation/npukit/board-time.rst). ttpu_program_prepare()
 * makes them through the very functions the run calls, which publish
 * each one once with an atomic compare-and-exchange: a run or another
 * prepare on another thread either finds it made or makes its own and
 * drops it, so preparing changes no answer and no byte of a response,
 * only when the work is paid for (ttpu-run --serve: at its start-up).
 *
 * Nothing of it is stored in a compiled program: a .ttpb's every claim
 * must be verified before it is trusted (issue 19), and verifying these
 * costs what deriving them does (board-time.rst, "The first request").
 */
#include "engine.h"
#include "error.h"
#include "plan.h"
#include "response_passes.h"
#include "run_replay.h"
#include "run_split.h"

/* Whether a run of @prog replays host chains: then it needs the table. */
static bool has_host_chains(const struct ttpu_program *prog)
{
	const struct ttpu_plan *plan = prog->plan;

	for (size_t i = 0; i < plan->nstages; i++) {
		const struct ttpu_stage *st = &plan->stages[i];

		if (st->kind != TTPU_STAGE_MATMUL)
			continue;
		for (uint32_t k = 0; k < st->nchains; k++)
			if (ttpu_chain_on_host(prog, st, &plan->chains[st->first_chain + k]))
				return true;
	}
	return false;
}

int ttpu_program_prepare(const ttpu_program *prog, ttpu_engine *eng, struct ttpu_error *err)
{
	struct ttpu_passes_text *passes;

	if (!prog)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_prepare: no program");
	if (!prog->plan)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				     "ttpu_program_prepare: the program has no plan (not loaded by ttpu_program_load_*)");
	if (has_host_chains(prog) && !ttpu_replay_table_of(prog))
		return ttpu_error_nomem(err, "tabling the host chains' steps");
	/* Made and kept with the program; this reference is not needed. */
	passes = ttpu_passes_text_get(prog);
	if (!passes)
		return ttpu_error_nomem(err, "rendering the passes list");
	ttpu_passes_text_put(passes);
	if (eng && eng->ops->prepare)
		return eng->ops->prepare(eng, prog, err);
	return 0;
}
