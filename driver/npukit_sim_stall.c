// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_sim_stall.c - the simulated CPU preempted while it polls
 *
 * On a board the thread running a batch can lose the processor at any
 * instruction for milliseconds: a task of higher priority under PREEMPT,
 * a burst of softirqs, a usleep_range() that overshoots. The board does
 * not stand still meanwhile. A wait that looked at the clock after a
 * failed poll and found its hang limit passed would report a healthy
 * device hung (issue 27); the waits of npukit_hw.c look at their limits
 * before a poll instead. These knobs (struct npukit_sim_timing; module
 * parameters sim_preempt_*, debugfs per instance) make the model's CPU
 * lose the processor at random register reads, after the read sampled
 * the register, and at random reads of the model's clock, before it is
 * read: the two places between a poll and a look at the clock.
 *  - preempt_ms: for how long, 0..%SIM_PREEMPT_MS_MAX ms (0: never);
 *  - preempt_one_in: at one such access in this many, at random;
 *  - preempt_sleep: at a register read where the caller may sleep
 *    (preemptible(): not in the interrupt handler, not under a spinlock;
 *    a kernel without CONFIG_PREEMPT_COUNT never says so) the thread
 *    really sleeps for that long, the model following real time as in
 *    npukit_sim_sleep_begin(); elsewhere, and without it, the model's
 *    clock jumps, which costs no real time.
 * Either way the device does what it would have done in that time: the
 * model runs its events up to its clock at the next access. The debugfs
 * counter "preempts" says how many there were.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/debugfs.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "npukit_sim.h"

#define SIM_PREEMPT_MS_MAX	100
/* xorshift32 must not start from 0; any other seed is as good */
#define SIM_PREEMPT_SEED	0x9e3779b9U

/**
 * npukit_sim_preempt - is the CPU preempted at this access
 * @p: the model's preemptions, under the model's lock
 * @t: the knobs
 * @now: the model's clock: it jumps when the preemption is not slept
 * @can_sleep: the caller may sleep
 *
 * Return: 0, or the ns the caller must really sleep once it has let go
 * of the model's lock (preempt_sleep and @can_sleep).
 */
u64 npukit_sim_preempt(struct npukit_sim_preempt *p,
		       const struct npukit_sim_timing *t, u64 *now,
		       bool can_sleep)
{
	u32 ms = min_t(u32, READ_ONCE(t->preempt_ms), SIM_PREEMPT_MS_MAX);
	u32 one_in = READ_ONCE(t->preempt_one_in);
	u32 x = p->rng ? p->rng : SIM_PREEMPT_SEED;

	if (!ms || !one_in)
		return 0;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	p->rng = x;
	if (x % one_in)
		return 0;
	p->count++;
	if (can_sleep && READ_ONCE(t->preempt_sleep))
		return (u64)ms * NSEC_PER_MSEC;
	*now += (u64)ms * NSEC_PER_MSEC;
	return 0;
}

/**
 * npukit_sim_preempt_debugfs - the knobs and the counter, per instance
 * @p: the model's preemptions
 * @t: its timing knobs
 * @dir: the instance's debugfs directory
 */
void npukit_sim_preempt_debugfs(struct npukit_sim_preempt *p,
				struct npukit_sim_timing *t, struct dentry *dir)
{
	debugfs_create_u32("preempt_ms", 0600, dir, &t->preempt_ms);
	debugfs_create_u32("preempt_one_in", 0600, dir, &t->preempt_one_in);
	debugfs_create_bool("preempt_sleep", 0600, dir, &t->preempt_sleep);
	debugfs_create_u64("preempts", 0400, dir, &p->count);
}
