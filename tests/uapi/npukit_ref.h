/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npukit_ref.h - the CPU reference of NpuKit kicks, seeded random batches
 * and a SUBMIT argument builder: shared by the UAPI suites and the driver
 * benchmark (no test harness here).
 */
#ifndef NPUKIT_REF_H
#define NPUKIT_REF_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "npukit.h"

#define NPU_TILE	NPUKIT_TILE_N
#define NPU_ELEMS	NPUKIT_TILE_ELEMS
/* Generous: the batches here take milliseconds even under TCG emulation. */
#define NPU_DEADLINE_NS	(20LL * 1000 * 1000 * 1000)

typedef int32_t npu_ctile[NPU_ELEMS];

static inline int64_t npu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The CPU reference: one kick applied to the accumulators @acc. */
static inline void npu_ref_kick(const struct npukit_kick *k, int32_t acc[NPU_ELEMS])
{
	if (k->flags & NPUKIT_KICK_CLEAR)
		memset(acc, 0, sizeof(int32_t) * NPU_ELEMS);
	for (int i = 0; i < NPU_TILE; i++)
		for (int j = 0; j < NPU_TILE; j++) {
			int32_t s = 0;

			for (int k2 = 0; k2 < NPU_TILE; k2++)
				s += (int32_t)k->a[NPU_TILE * i + k2] *
				     (int32_t)k->b[NPU_TILE * k2 + j];
			acc[NPU_TILE * i + j] += s;
		}
}

/* The CPU reference of a whole batch: the result slots it writes. */
static inline void npu_ref_batch(const struct npukit_kick *kicks, uint32_t n,
				 npu_ctile *results)
{
	int32_t acc[NPU_ELEMS] = { 0 };

	for (uint32_t i = 0; i < n; i++) {
		npu_ref_kick(&kicks[i], acc);
		if (kicks[i].flags & NPUKIT_KICK_READ_C)
			memcpy(results[kicks[i].c_slot], acc, sizeof(acc));
	}
}

/* xorshift64*: seeded, so a failure reproduces from the seed in the log. */
static inline uint64_t npu_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545F4914F6CDD1DULL;
}

static inline void npu_fill_random(struct npukit_kick *k, uint64_t *state)
{
	for (int i = 0; i < NPU_ELEMS; i++) {
		k->a[i] = (int8_t)npu_rand(state);
		k->b[i] = (int8_t)npu_rand(state);
	}
}

/*
 * A random but valid batch of @n kicks writing @nres slots: runs of 1..8
 * K-accumulating kicks, each run ending with a read-back into a random slot.
 */
static inline void npu_random_batch(struct npukit_kick *kicks, uint32_t n,
				    uint32_t nres, uint64_t *state)
{
	uint32_t left = 0;

	memset(kicks, 0, sizeof(*kicks) * n);
	for (uint32_t i = 0; i < n; i++) {
		npu_fill_random(&kicks[i], state);
		if (!left) {
			kicks[i].flags = NPUKIT_KICK_CLEAR;
			left = 1 + npu_rand(state) % 8;
		}
		if (--left == 0 || i == n - 1) {
			kicks[i].flags |= NPUKIT_KICK_READ_C;
			kicks[i].c_slot = npu_rand(state) % nres;
			left = 0;
		}
	}
}

/*
 * A batch of @n kicks in sums of @krun, each sum read back into the next
 * of @nres slots (round robin): the K-run batches of the benchmarks.
 * Returns the number of read-backs.
 */
static inline uint32_t npu_krun_batch(struct npukit_kick *kicks, uint32_t n,
				      uint32_t krun, uint32_t nres, uint64_t *state)
{
	uint32_t reads = 0;

	memset(kicks, 0, sizeof(*kicks) * n);
	for (uint32_t i = 0; i < n; i++) {
		npu_fill_random(&kicks[i], state);
		if (i % krun == 0)
			kicks[i].flags = NPUKIT_KICK_CLEAR;
		if (i % krun == krun - 1 || i == n - 1) {
			kicks[i].flags |= NPUKIT_KICK_READ_C;
			kicks[i].c_slot = reads++ % nres;
		}
	}
	return reads;
}

static inline void npu_submit_init(struct npukit_submit *s,
				   const struct npukit_kick *kicks, uint32_t nkicks,
				   npu_ctile *results, uint32_t nresults)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->kicks_ptr = (uintptr_t)kicks;
	s->results_ptr = (uintptr_t)results;
	s->kick_count = nkicks;
	s->kick_size = sizeof(struct npukit_kick);
	s->result_count = nresults;
	s->timeout_ns = npu_now_ns() + NPU_DEADLINE_NS;
}

/*
 * A SUBMIT of a fresh npu_random_batch() of @n kicks into @got (zeroed)
 * in @s, and the reference's @nres results in @want.
 */
static inline void npu_random_submit(struct npukit_submit *s,
				     struct npukit_kick *kicks, uint32_t n,
				     npu_ctile *got, npu_ctile *want,
				     uint32_t nres, uint64_t *state)
{
	npu_random_batch(kicks, n, nres, state);
	memset(got, 0, sizeof(*got) * nres);
	memset(want, 0, sizeof(*want) * nres);
	npu_ref_batch(kicks, n, want);
	npu_submit_init(s, kicks, n, got, nres);
}

/* How the SUBMITs of a long run ended, by the way each failed */
struct npu_outcomes {
	unsigned int eio;
	unsigned int etimedout;
	unsigned int other;
	unsigned int wrong;
};

/*
 * Count one SUBMIT of @n kicks: @err is its errno (0 when it returned 0),
 * @got and @want its @bytes of results and the reference's. Returns 1
 * when it succeeded with the reference's results, else 0.
 */
static inline int npu_outcome(struct npu_outcomes *o, int err,
			      const struct npukit_submit *s, uint32_t n,
			      const void *got, const void *want, size_t bytes)
{
	if (err == EIO)
		o->eio++;
	else if (err == ETIMEDOUT)
		o->etimedout++;
	else if (err || s->status || s->kicks_done != n)
		o->other++;
	else if (memcmp(got, want, bytes))
		o->wrong++;
	else
		return 1;
	return 0;
}

#endif /* NPUKIT_REF_H */
