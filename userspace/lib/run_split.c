// SPDX-License-Identifier: MIT
/*
 * run_split.c - the host's share of a MATMUL stage (run_split.h says why)
 */
#include <string.h>

#include "run_split.h"

bool ttpu_chain_on_host(const struct ttpu_program *prog, const struct ttpu_stage *st,
			const struct ttpu_chain *ch)
{
	return !st->acc_writes_operand && prog->buffers[ch->dst.buf].dtype == TTPU_DTYPE_I8;
}

uint32_t ttpu_stage_host_jobs(const struct ttpu_program *prog, const struct ttpu_stage *st,
			      uint8_t *host_job)
{
	const struct ttpu_plan *plan = prog->plan;
	uint32_t n = 0;

	memset(host_job, 0, st->njobs);
	for (uint32_t k = 0; k < st->nchains; k++) {
		const struct ttpu_chain *ch = &plan->chains[st->first_chain + k];

		if (!ttpu_chain_on_host(prog, st, ch))
			continue;
		host_job[ch->job - st->first_job] = 1;
		n++;
	}
	return n;
}
