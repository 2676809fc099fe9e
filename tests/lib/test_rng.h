/* SPDX-License-Identifier: MIT */
/*
 * test_rng.h - the seeded xorshift64 generator of the randomised suites:
 * a seed names a case, so a failure replays exactly.
 */
#ifndef TEST_RNG_H
#define TEST_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s;	/* never 0: xorshift would stay at 0 */
};

/* Advance @g and return its new state. */
static inline uint64_t rng_next(struct rng *g)
{
	g->s ^= g->s << 13;
	g->s ^= g->s >> 7;
	g->s ^= g->s << 17;
	return g->s;
}

#endif /* TEST_RNG_H */
