/* SPDX-License-Identifier: MIT */
/*
 * run_range.h - adding a chain's sum with exact step-by-step range checks,
 * redoing only the elements a cheap bound cannot settle
 */
#ifndef TTPU_RUN_RANGE_H
#define TTPU_RUN_RANGE_H

#include "engine.h"

/**
 * struct ttpu_range - per-run state of the chain checks
 * @blockmax: by buffer, max |value| of each aligned 4x4 block of an i8
 *	buffer (row-major over the block grid), or NULL until first needed
 * @blockmax_version: by buffer, the ctx->version it was taken at
 * @live: the steps of the chain at hand whose magnitude bound is not 0,
 *	in order (@nlive of them): the only ones a replay must add
 */
struct ttpu_range {
	uint8_t **blockmax;
	uint64_t *blockmax_version;
	uint32_t *live;
	size_t live_cap;
	uint32_t nlive;
};

int ttpu_range_init(struct ttpu_range *rg, const struct ttpu_program *prog,
		    struct ttpu_error *err);
void ttpu_range_release(struct ttpu_range *rg, const struct ttpu_program *prog);

/**
 * ttpu_range_add_chain() - dst += the chain's steps, as one-by-one execution
 * would, from @sum (the engine's sum of the chain's links)
 *
 * The chain's links must read the buffers as they are now (the stage has no
 * acc_writes_operand). Fails with the RangeError one-by-one execution
 * raises first in the chain: its step, its element, its value.
 */
int ttpu_range_add_chain(struct ttpu_range *rg, struct ttpu_run_ctx *ctx,
			 const struct ttpu_chain *ch, const int32_t sum[16],
			 struct ttpu_error *err);

#endif /* TTPU_RUN_RANGE_H */
