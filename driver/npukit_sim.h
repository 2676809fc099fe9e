/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npukit_sim.h - register-level model of the NpuKit and its AXI DMA
 *
 * Copyright (C) 2026 The npukit authors
 */
#ifndef _NPUKIT_SIM_H
#define _NPUKIT_SIM_H

#include <linux/atomic.h>
#include <linux/interrupt.h>
#include <linux/types.h>

#include "npukit_backend.h"

struct device;
struct dentry;
struct npukit_device;
struct npukit_sim;

/**
 * struct npukit_sim_counters - what the model measured
 * @reads: register reads
 * @writes: register writes
 * @dma_bytes: bytes moved by both DMA channels
 * @gemm_runs: GEMM runs started
 * @gemm_ns: modelled time the array was busy
 * @dropped: writes the modelled hardware silently dropped (hardware.rst 8.2)
 */
struct npukit_sim_counters {
	u64 reads;
	u64 writes;
	u64 dma_bytes;
	u64 gemm_runs;
	u64 gemm_ns;
	u64 dropped;
};

/**
 * struct npukit_sim_cpu - the CPU's share of board time
 * @count: how many of each item were charged
 * @ns: their modelled time, each item at its cost when it was charged
 */
struct npukit_sim_cpu {
	u64 count[NPUKIT_CPU_ITEMS];
	u64 ns;
};

/**
 * struct npukit_sim_timing - bus and DMA timing the driver must not rely on
 * @idle_lag: cycles from the MM2S's last beat to DMASR.Idle (0..100)
 * @overtake: cycles by which a write to the DMA may land before a write
 *	to the NPU issued earlier (0..20); a completed read still orders them
 * @first_beat: cycles from MM2S_LENGTH landing to the first beat (0..100)
 * @npu_lag: cycles by which writes to the NPU land later than the default
 *	(0..1000): past a read round trip, only a read the CPU waits for
 *	(npukit_sim_read_wait()) orders them before a later DMA write
 * @stall_us: microseconds added to every DMA transfer's start (0..1000),
 *	so that every wait overruns its polling budget and sleeps
 * @preempt_ms: milliseconds (0..100) the CPU loses the processor for at
 *	random register and clock reads, the board going on meanwhile
 *	(npukit_sim_stall.c); 0: never
 * @preempt_one_in: at one such access in this many, at random; 0: never
 * @preempt_sleep: where the caller may sleep, the thread really sleeps
 *	through the preemption instead of the model's clock jumping
 *
 * One cycle is 10 ns (FCLK_CLK0 at 100 MHz).
 */
struct npukit_sim_timing {
	u32 idle_lag;
	u32 overtake;
	u32 first_beat;
	u32 npu_lag;
	u32 stall_us;
	u32 preempt_ms;
	u32 preempt_one_in;
	bool preempt_sleep;
};

/**
 * struct npukit_sim_preempt - the preemptions of one model (npukit_sim_stall.c)
 * @rng: xorshift32 state choosing the accesses preempted
 * @count: preemptions so far
 */
struct npukit_sim_preempt {
	u32 rng;
	u64 count;
};

/*
 * Realistic values, the defaults: PG021 gives no Idle lag, a few cycles is
 * the datamover's status reaching DMASR; the two slaves' paths differ by
 * a few cycles; the first beat waits for a DDR read through HP0, ~200 ns.
 * The tests also run at the worst: 100, 20, 0 (tests/uapi/timing_test.c).
 */
#define NPUKIT_SIM_TIMING_DEFAULT {	\
	.idle_lag = 4,			\
	.overtake = 5,			\
	.first_beat = 20,		\
}

struct npukit_sim *npukit_sim_create(struct device *dev, bool bad_id);
void npukit_sim_destroy(struct npukit_sim *sim);
int npukit_sim_add_window(struct npukit_sim *sim, dma_addr_t addr, void *cpu,
			  size_t size);
u32 npukit_sim_read(struct npukit_sim *sim, enum npukit_space space,
		    u32 off);
u32 npukit_sim_read_wait(struct npukit_sim *sim, enum npukit_space space,
			 u32 off);
void npukit_sim_write(struct npukit_sim *sim, enum npukit_space space,
		      u32 off, u32 val);
u64 npukit_sim_now(struct npukit_sim *sim);
void npukit_sim_delay(struct npukit_sim *sim, u32 ns);
void npukit_sim_set_irq(struct npukit_sim *sim, irq_handler_t fn, void *data);
void npukit_sim_sleep_begin(struct npukit_sim *sim);
void npukit_sim_sleep_end(struct npukit_sim *sim);
void npukit_sim_irq_sync(struct npukit_sim *sim);
void npukit_sim_counters(struct npukit_sim *sim,
			 struct npukit_sim_counters *out);
void npukit_sim_cpu(struct npukit_sim *sim, enum npukit_cpu_item item,
		    u32 n);
void npukit_sim_cpu_sync(struct npukit_sim *sim, size_t bytes);
void npukit_sim_cpu_counters(struct npukit_sim *sim,
			     struct npukit_sim_cpu *out);
void npukit_sim_debugfs(struct npukit_sim *sim, struct dentry *dir);
void npukit_sim_set_timing(struct npukit_sim *sim,
			   const struct npukit_sim_timing *t);
bool npukit_sim_has_reset_line(struct npukit_sim *sim);
void npukit_sim_pl_reset(struct npukit_sim *sim);

/* npukit_sim_stall.c */
u64 npukit_sim_preempt(struct npukit_sim_preempt *p,
		       const struct npukit_sim_timing *t, u64 *now,
		       bool can_sleep);
void npukit_sim_preempt_debugfs(struct npukit_sim_preempt *p,
				struct npukit_sim_timing *t, struct dentry *dir);

/* npukit_sim_legacy.c */
void npukit_legacy_debugfs(struct npukit_device *nd, struct dentry *dir);

#endif /* _NPUKIT_SIM_H */
