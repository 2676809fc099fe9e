/* SPDX-License-Identifier: MIT */
/*
 * run_replay_steps.h - what run_replay.c's scalar kernel and
 * run_replay_neon.c's kernels share
 *
 * A replay keeps the 16 partial sums biased by +128 (w = v + 128), so that
 * an element is inside i8 exactly when (uint32_t)w <= 255: one unsigned
 * maximum (or OR: at most 255 exactly when every sum was) per element and
 * step tracks every partial sum, and one compare at the chain's end says
 * whether any left the range. Sums are added in
 * uint32 arithmetic: a chain has at most TTPU_CHAIN_MAX_STEPS steps of at
 * most TTPU_PRODUCT_BOUND each (checked for deferred steps, whose values
 * an engine computed), so no true partial sum reaches 2^31 and none wraps.
 *
 * Where a step's link reads its chain's A and B buffers through 4x4
 * windows wholly inside them (every step of a tiled matmul but the
 * edges'), the program's replay table (run_replay.c, made once per
 * program) has the two windows' byte offsets, so a step costs two loads
 * before its arithmetic; any other step goes through
 * ttpu_replay_other_step().
 */
#ifndef TTPU_RUN_REPLAY_STEPS_H
#define TTPU_RUN_REPLAY_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define TTPU_REPLAY_BIAS 128u		/* -min(i8) */
#define TTPU_REPLAY_SPAN 255u		/* max(i8) - min(i8) */
#define TTPU_REPLAY_OTHER UINT32_MAX	/* an offset: not a rows step */

/* Derived from the program alone; made at its first run and kept with it. */
struct ttpu_replay_table {
	uint32_t (*off)[2];		/* by plan step: A's, B's window offset */
	uint32_t (*bufs)[2];		/* by plan chain: its A and B buffer */
	/*
	 * By plan chain: 1 when it and the next chain have full 4x4 windows
	 * and every step of both is a rows step reading one A window and B
	 * windows side by side (ttpu_replay_neon_two())
	 */
	uint8_t *pair_next;
};

/* One chain's operands as the kernels walk them. */
struct ttpu_replay_walk {
	const struct ttpu_step *steps;
	const uint32_t (*off)[2];	/* the chain's steps' offsets */
	const int8_t *a, *b;		/* its A and B buffers (NULL: none) */
	size_t as, bs;			/* their row strides */
	uint32_t nsteps;
};

void ttpu_replay_walk_init(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_table *t,
			   const struct ttpu_chain *ch, struct ttpu_replay_walk *w);

/*
 * A step that is not a rows step (a deferred one, or a link reaching past
 * its buffers' edges or reading other buffers, through the reference
 * product) added to @w. False when a deferred step's value is beyond
 * TTPU_PRODUCT_BOUND (no correct engine makes one): the caller then takes
 * the exact replay.
 */
bool ttpu_replay_other_step(const struct ttpu_run_ctx *ctx, const struct ttpu_step *s,
			    uint32_t w[16]);

/*
 * run_replay_neon.c: the walks with NEON (armhf, chosen at run time). On
 * entry @w holds the biased start values, on return the biased final
 * ones, and @mx the maximum over the chain's steps and the window's rows
 * (all four: the caller sees to it) of each column's biased partial sums.
 * False when ttpu_replay_other_step() was.
 */
bool ttpu_replay_neon_one(const struct ttpu_run_ctx *ctx, const struct ttpu_replay_walk *wk,
			  uint32_t w[16], uint32_t mx[4]);
/*
 * Two chains whose table entry pair_next says they pair: the same, with
 * one maximum @mx for both (their windows are full; where it is past the
 * span, the caller replays both exactly).
 */
void ttpu_replay_neon_two(const struct ttpu_replay_walk *w0, uint32_t v0[16],
			  const struct ttpu_replay_walk *w1, uint32_t v1[16], uint32_t mx[4]);

#endif /* TTPU_RUN_REPLAY_STEPS_H */
