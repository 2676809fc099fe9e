/* SPDX-License-Identifier: MIT */
/*
 * run_replay.h - a host chain (run_split.h) computed and checked at once:
 * its steps added one by one from dst's current values, every partial sum
 * of the window checked, at a cost set by the chain's length alone
 */
#ifndef TTPU_RUN_REPLAY_H
#define TTPU_RUN_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

/**
 * struct ttpu_replay - what one host chain comes to
 * @add: dst += add (in-window elements; the chain's whole sum), when no
 *	step fails
 * @fail_step: the first step (index into the chain's steps) after which
 *	an element of the window is outside i8, or UINT32_MAX
 * @fail_elem: the first such element in window (row-major) order, 0..15
 * @fail_value: its value after that step
 */
struct ttpu_replay {
	int32_t add[16];
	uint32_t fail_step;
	uint32_t fail_elem;
	int64_t fail_value;
};

struct ttpu_replay_table;

/**
 * ttpu_replay_table_of() - the program's replay table, made at its first
 * call and kept with the program (NULL: out of memory)
 */
const struct ttpu_replay_table *ttpu_replay_table_of(const struct ttpu_program *prog);

/**
 * ttpu_replay_chain() - replay host chain @ch from dst's current values
 * @ctx: the run, read only (any thread, while no one writes ctx->data)
 * @t: ttpu_replay_table_of(ctx->prog)
 * @ch: a chain into an i8 buffer
 * @out: its answer
 */
void ttpu_replay_chain(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_table *t,
		       const struct ttpu_chain *ch, struct ttpu_replay *out);

/**
 * ttpu_replay_pair() - ttpu_replay_chain() of @c0 and @c1 at once, the
 * same answers; where every step of both reads one A window and two B
 * windows side by side (a tiled matmul's neighbouring output tiles), the
 * NEON step does the two as one 4x8 product.
 */
void ttpu_replay_pair(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_table *t,
		      const struct ttpu_chain *c0,
		      const struct ttpu_chain *c1, struct ttpu_replay *o0,
		      struct ttpu_replay *o1);

/**
 * ttpu_replay_can_pair() - whether chains @c0, @c1 (in this order) go to
 * ttpu_replay_pair() with profit: neighbours that replay from the stage's
 * start and pair at every step (any two chains give the right answers)
 */
bool ttpu_replay_can_pair(const struct ttpu_program *prog, const struct ttpu_replay_table *t,
			  const struct ttpu_chain *c0, const struct ttpu_chain *c1);

/**
 * ttpu_replay_apply() - the chain's answer into dst: dst += @r->add, or
 * the RangeError one-by-one execution raises first in the chain
 */
int ttpu_replay_apply(struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		      const struct ttpu_replay *r, struct ttpu_error *err);

/*
 * The exact replay in int64 with the reference products, one element
 * after another: where the kernels found a partial sum outside i8, it
 * finds the first; it also takes what the 32-bit kernels do not. The
 * kernels are chosen as run_range.c's step is (ttpu_range_neon_on()).
 */
void ttpu_replay_exact(const struct ttpu_run_ctx *ctx, const struct ttpu_chain *ch,
		       struct ttpu_replay *out);

#endif /* TTPU_RUN_REPLAY_H */
