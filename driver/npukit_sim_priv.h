/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npukit_sim_priv.h - inside the simulated NpuKit: its cost model, its
 * state and how its files (npukit_sim.c the NPU and the event queue,
 * npukit_sim_dma.c the AXI DMA, npukit_sim_bus.c the CPU's accesses,
 * npukit_sim_cpu.c the CPU's share, npukit_sim_dev.c its life) share them
 *
 * Copyright (C) 2026 The npukit authors
 */
#ifndef _NPUKIT_SIM_PRIV_H
#define _NPUKIT_SIM_PRIV_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "npukit_sim.h"

/*
 * Cost model, in ns of board time.
 * READ_RTT: a CPU load from a PL register over M_AXI_GP0 is a full round
 *	trip through the PS-PL bridge and the AXI interconnect at 100 MHz,
 *	about 25 PL cycles; the CPU stalls for all of it.
 * READ_SAMPLE: the request reaches the slave about halfway.
 * WRITE: a posted store costs the CPU only the issue, ~3 PL cycles.
 * WRITE_LAND: the store reaches the slave ~20 cycles later; it is later
 *	than READ_SAMPLE after a following read, which is hazard 8.1, and
 *	shorter than READ_RTT, so a completed read proves earlier writes
 *	have landed.
 * WRITE_QUEUE: posted writes in flight before the CPU stalls.
 * CYCLE: FCLK_CLK0, 100 MHz; each DMA beat moves 4 bytes per cycle.
 * S2MM_SETUP: S2MM LENGTH landing to the channel taking beats: it reads
 *	no memory first, only queues the command to its datamover.
 * S2MM_FLUSH: last beat to the data being in DDR and Idle set.
 * START_TAKE: a START/CLEAR write landing to the sequencer taking it
 *	(BUSY up, GEMM_DONE down): the RTL registers the write, then the
 *	request.
 * RUN_CYCLES: START landing to GEMM_DONE: 22 feed cycles, the capture and
 *	the sequencer's steps (npukit_axil.sv); CLEAR adds one cycle.
 * TX_START: TX_ARM landing to the first C beat (it acts two cycles in).
 * DMA_RESET: soft reset of the DMA until DMACR.Reset reads 0.
 */
#define SIM_READ_RTT_NS		250
#define SIM_READ_SAMPLE_NS	120
#define SIM_WRITE_NS		30
#define SIM_WRITE_LAND_NS	200
#define SIM_WRITE_QUEUE		8
#define SIM_CYCLE_NS		10
#define SIM_FIRST_BEAT_MAX	100
#define SIM_S2MM_SETUP_NS	30
#define SIM_S2MM_FLUSH_NS	100
#define SIM_IDLE_LAG_MAX	100
#define SIM_OVERTAKE_MAX	(SIM_WRITE_LAND_NS / SIM_CYCLE_NS)
#define SIM_NPU_LAG_MAX		1000
#define SIM_STALL_US_MAX	1000
#define SIM_START_TAKE_CYCLES	2
#define SIM_RUN_CYCLES		27
#define SIM_TX_START_NS		30
#define SIM_DMA_RESET_NS	100
#define SIM_SLOW_MAX		1000
#define SIM_WINDOWS		4
/* While the driver sleeps: the shortest step of the model's timer */
#define SIM_TIMER_MIN_NS	1000

#define SIM_VERSION		0x302
#define SIM_FEATURES		(NPUKIT_FEATURE_GEMM | NPUKIT_FEATURE_GLUE | \
				 NPUKIT_FEATURE_WS | NPUKIT_FEATURE_PP | \
				 NPUKIT_FEATURE_WMEM)
#define SIM_N			8
#define SIM_C_WORDS		64
/* The glue's register banks (hardware.rst 2): X, Y, OUT, GAMMA */
#define SIM_GLUE_BANK		0x500
#define SIM_GLUE_END		0x900
#define SIM_GLUE_OUT		2
#define SIM_GLUE_WORDS		16
#define SIM_GLUE_LEN_MASK	0xFF
#define SIM_TILE_KJ_MASK	0xFFFF
/* Reset values (hardware.rst 2) */
#define SIM_GLUE_LEN_RESET	16
#define SIM_GLUE_PARAM_RESET	1
#define SIM_W_SHAPE_RESET	0x00080008

struct sim_write {
	u64 land;
	u32 off;
	u32 val;
	enum npukit_space space;
};

struct sim_chan {
	u32 dmacr;
	u32 dmasr;
	u32 addr;
	u32 length;
	bool active;		/* a transfer is moving beats */
	bool flushing;		/* last beat moved, Idle not yet up (next_beat) */
	u8 *buf;		/* CPU address of @addr in a window */
	u32 done;		/* bytes moved by the current transfer */
	u64 next_beat;
	u64 reset_until;
};

struct sim_window {
	dma_addr_t addr;
	u8 *cpu;
	size_t size;
};

struct npukit_sim {
	struct device *dev;
	bool bad_id;
	u64 now;		/* when the CPU issues its next access */
	u64 st;			/* the model's state is valid up to here */
	struct sim_write wq[SIM_WRITE_QUEUE];	/* in issue order */
	unsigned int wq_len;
	u64 dma_land;		/* when the latest DMA write lands */
	u64 npu_land;		/* when the latest NPU write lands */
	u64 npu_sample;		/* when the latest NPU read sampled */

	u8 a[NPUKIT_TILE_BYTES];
	u8 b[NPUKIT_TILE_BYTES];
	s32 acc[SIM_C_WORDS];
	s32 c[SIM_C_WORDS];
	u32 sticky;		/* GEMM_DONE, RX_DONE, TX_DONE */
	u32 take;		/* START/CLEAR landed, not yet taken (CTRL bits) */
	u64 take_at;
	bool busy;
	bool run;		/* the busy spell is a GEMM run, not CLEAR alone */
	bool stuck;		/* run started while the hang knob was set */
	u64 gemm_start;
	u64 gemm_end;
	u32 load_cfg;
	u32 words;		/* stream-in word counter */
	u32 w_shape;
	u32 tile_kj;
	u32 glue_len;
	u32 glue_param;
	u32 glue[4][SIM_GLUE_WORDS];	/* X, Y, OUT (never written), GAMMA */
	u32 tx_left;		/* C words the sender still has to send */
	u64 tx_ready;

	struct sim_chan mm2s;
	struct sim_chan s2mm;
	struct sim_window win[SIM_WINDOWS];
	unsigned int nwin;

	spinlock_t lock;	/* the model: the driver, the handler, the timer */
	irq_handler_t irq_fn;	/* sim_irq: the driver's handler, or NULL */
	void *irq_data;
	bool irq_line;		/* level of the DMA's interrupt output */
	struct hrtimer irq_timer;	/* delivers a rising edge, at once */
	struct hrtimer timer;	/* advances the model while the driver sleeps */
	u64 real_mark;		/* real time that @now has caught up with */
	bool sleeping;

	bool reset_line;	/* knob: the driver can reset the PL */
	atomic_t dma_error;	/* knob: fail this many next transfers */
	atomic_t irq_lose;	/* knob: drop this many next rising edges */
	atomic_t irq_spurious;	/* knob: raise the handler this many times */
	bool hang;		/* knob: runs never finish while set */
	u32 slow;		/* knob: runs take this many times longer */
	struct npukit_sim_timing timing;	/* knobs: bus and DMA timing */
	struct npukit_sim_preempt preempt;	/* npukit_sim_stall.c */

	struct npukit_sim_counters cnt;
	u32 cpu_ps[NPUKIT_CPU_ITEMS];	/* knobs: the CPU cost model */
	struct npukit_sim_cpu cpu;	/* @cpu.ns unused: @cpu_sum_ps */
	u64 cpu_sum_ps;
};

enum sim_event {
	SIM_EV_NONE, SIM_EV_WRITE, SIM_EV_TAKE, SIM_EV_GEMM, SIM_EV_MM2S,
	SIM_EV_S2MM, SIM_EV_MM2S_IDLE, SIM_EV_S2MM_IDLE
};

/* Little-endian words of the tiles and the DMA buffers */
static inline u32 sim_le32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline void sim_put_le32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* A knob in cycles, clamped to its range, in ns */
static inline u64 sim_knob_ns(const u32 *knob, u32 max)
{
	return (u64)min(READ_ONCE(*knob), max) * SIM_CYCLE_NS;
}

/* npukit_sim.c */
void npukit_sim_stream_in(struct npukit_sim *sim, u32 word);
void npukit_sim_npu_write(struct npukit_sim *sim, u32 off, u32 val);
u32 npukit_sim_npu_read(struct npukit_sim *sim, u32 off);
unsigned int npukit_sim_wq_first(const struct npukit_sim *sim);
u64 npukit_sim_next(struct npukit_sim *sim, enum sim_event *evp);
void npukit_sim_advance(struct npukit_sim *sim, u64 t);
void npukit_sim_reset_regs(struct npukit_sim *sim);
/* npukit_sim_dma.c */
u8 *npukit_sim_window(struct npukit_sim *sim, u32 addr, u32 len);
void npukit_sim_dma_reset(struct npukit_sim *sim);
void npukit_sim_dma_write(struct npukit_sim *sim, u32 off, u32 val);
u32 npukit_sim_dma_read(struct npukit_sim *sim, u32 off);
void npukit_sim_mm2s_beat(struct npukit_sim *sim);
void npukit_sim_s2mm_beat(struct npukit_sim *sim);
void npukit_sim_chan_flushed(struct npukit_sim *sim, struct sim_chan *ch);
bool npukit_sim_chan_irq(const struct sim_chan *ch);
/* npukit_sim_bus.c */
void npukit_sim_settle(struct npukit_sim *sim);
void npukit_sim_bus_init(struct npukit_sim *sim);
void npukit_sim_bus_exit(struct npukit_sim *sim);
/* npukit_sim_cpu.c */
void npukit_sim_cpu_init(struct npukit_sim *sim);

#endif /* _NPUKIT_SIM_PRIV_H */
