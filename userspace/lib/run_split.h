/* SPDX-License-Identifier: MIT */
/*
 * run_split.h - which jobs of a stage the runner computes on the host,
 * fused with their exact range checks, and which an engine computes
 */
#ifndef TTPU_RUN_SPLIT_H
#define TTPU_RUN_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"
#include "program.h"

/**
 * ttpu_chain_on_host() - whether the runner takes chain @ch's products itself
 * @prog: the program
 * @st: the MATMUL stage of @ch
 * @ch: one of @st's chains
 *
 * The contract checks an i8 destination after every step, and an i8 sum
 * leaves its range after one product of most values, so no bound settles
 * such a chain without its partial sums: the exact check is the chain's
 * product taken step by step. The runner takes it (run_range.c), once, on
 * the host's cores, and no engine computes the chain's job again
 * (Documentation/npukit/board-time.rst, "Narrow destinations"). Stages
 * where an acc writes an operand of the stage keep the engine's products.
 * Depends on the program alone, never on values: engines may cache what
 * they derive from it with the program.
 */
bool ttpu_chain_on_host(const struct ttpu_program *prog, const struct ttpu_stage *st,
			const struct ttpu_chain *ch);

/**
 * ttpu_stage_host_jobs() - ttpu_chain_on_host() by job of @st
 * @prog: the program
 * @st: a MATMUL stage
 * @host_job: st->njobs bytes, filled: [j - st->first_job] is 1 when job j
 *	is a chain's job that the runner computes, else 0
 *
 * Returns the number of such jobs.
 */
uint32_t ttpu_stage_host_jobs(const struct ttpu_program *prog, const struct ttpu_stage *st,
			      uint8_t *host_job);

#endif /* TTPU_RUN_SPLIT_H */
