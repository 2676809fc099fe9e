// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_sim.c - the simulated NpuKit: a register-level model of the NPU
 * (IP VERSION 0x302 map) and of its AXI DMA in simple mode, written from
 * Documentation/npukit/hardware.rst, in the spirit of netdevsim and null_blk.
 *
 * The driver's register accessors call npukit_sim_read()/_write() instead
 * of readl()/writel() on a simulated instance, so the real protocol code
 * runs against it, hazards included:
 *  - GEMM_DONE, AXIS_RX_DONE and AXIS_TX_DONE are sticky; only START/CLEAR,
 *    LOAD_CFG and TX_ARM clear them (CLEAR clears AXIS_RX_DONE too, with or
 *    without START, as the RTL's npukit_axil.sv does);
 *  - a CTRL write acts two cycles after it lands, as the RTL registers the
 *    write, then the request: a START or CLEAR is taken then, BUSY rises
 *    and GEMM_DONE falls only then, and until then the array, still idle,
 *    takes stream beats into the tile it is about to multiply; GEMM_DONE
 *    comes 27 cycles after START lands, 28 after CLEAR|START (one cycle of
 *    the RTL's ST_CLEAR); CLEAR alone is busy for that one cycle and sets
 *    no GEMM_DONE, and a START acting in that cycle runs as CLEAR|START;
 *  - START/CLEAR that find the array busy when they act, TX_ARM that finds
 *    no GEMM_DONE or the sender streaming then, and MMIO tile writes while
 *    busy are silently dropped;
 *  - the stream word counter wraps, and only LOAD_CFG resets it;
 *  - the NPU takes stream beats only while idle (the MM2S waits);
 *  - the C stream has no abort: without an S2MM transfer it waits forever;
 *  - posted writes land after a read issued right behind them has already
 *    sampled the slave (hardware.rst 8.1), so a status read straight after
 *    START can see the previous run's GEMM_DONE;
 *  - the C tile is streamed live from the output registers, so a run that
 *    ends during a read-back corrupts it.
 * Modelled: GEMM with CLEAR/accumulate, stream-in modes A||B, A only and
 * B only, stream-out, the DMA (reset, run/stop, errors), and the registers
 * as the RTL keeps them: GLUE_LEN 8 bits wide, TILE_KJ 16, the glue's X, Y
 * and GAMMA banks (16 words each, aliased over their 256 bytes; OUT reads
 * 0, it is the glue's to write), a PL reset restoring every register's
 * reset value but not the banks (block RAM). Not modelled: glue
 * operations, the weight bank and A ping-pong, which the driver does not
 * use; FEATURES reads what a 0x302 bitstream reads (0x1F) all the same,
 * since the driver must cope with what the hardware reports. Where the
 * RTL's timing differs from this model's (hardware.rst, "Where the
 * simulator and the RTL differ"), the driver never issues the sequence;
 * hw-emu checks that it does not (Documentation/npukit/hw-emu.rst).
 *
 * Bus and DMA timing the driver must not depend on are knobs (module
 * parameters sim_idle_lag, sim_overtake, sim_first_beat for every instance,
 * debugfs per instance, npukit_sim_debugfs()):
 *  - MM2S Idle rises some cycles after the last beat (PG021 does not say
 *    how many); a LENGTH written before then is dropped, as on a busy
 *    channel;
 *  - a write to the DMA may land before an earlier write to the NPU (two
 *    AXI slaves behind the interconnect): it takes a shorter path, while
 *    writes to one slave stay in order and a completed read still proves
 *    that every write issued before it has landed;
 *  - the MM2S's first beat follows LENGTH by the DDR read latency;
 *  - writes to the NPU may land later than a read round trip (npu_lag): a
 *    read of the NPU still arrives behind them, but only a read the CPU
 *    waits for in full (npukit_sim_read_wait()) keeps a later DMA write
 *    from landing first;
 *  - every DMA transfer may start late (stall_us), so that waits overrun
 *    their polling budget and sleep; interrupt edges may be lost
 *    (irq_lose) and the handler may run for nothing (irq_spurious);
 *  - the CPU may lose the processor for milliseconds between a poll and
 *    its next look at the clock (preempt_ms, npukit_sim_stall.c).
 *
 * Time is virtual. Each access advances the model's clock by what it costs
 * on the PYNQ-Z2 (hardware.rst sections 1, 3 and 7, and the figures below),
 * and every state change of the hardware happens at a modelled time, so a
 * poll sees BUSY until the time a run takes has passed. The DMA reads and
 * writes only the buffers the driver registered with
 * npukit_sim_add_window(); anything else fails with DMADecErr.
 *
 * While the driver sleeps (npukit_sim_sleep_begin() to _end()) the board
 * does not stand still: modelled time follows the real time that passes.
 *
 * Interrupts (module parameter sim_irq, npukit_sim_set_irq()): the model
 * computes the level of the AXI DMA's interrupt output, (IOC_Irq and
 * IOC_IrqEn) or (Err_Irq and Err_IrqEn) of either channel, after every
 * access. There is no interrupt line to raise, so a rising edge starts a
 * hard hrtimer that expires at once and runs the driver's interrupt
 * handler in hard interrupt context, as the GIC would. A timer rather than
 * irq_work: without an IPI to raise it (a single-CPU ARM) irq_work runs
 * only from the next tick, so irq_work_sync() on that CPU would spin
 * forever; a pending timer can simply be cancelled. During a sleep a
 * second hrtimer fires at the next modelled event, advances the model to
 * it and so raises the interrupt of a transfer that completes while the
 * driver sleeps. The model has a spinlock since the handler may run while
 * the driver uses it.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "npukit_regs.h"
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

/*
 * The CPU's share, in ps, on the PYNQ-Z2's Cortex-A9 at 650 MHz (1.54 ns a
 * cycle). The bus model above sees only register accesses and DMA beats;
 * these are charged by the driver for the work around them and kept apart
 * (npukit_sim_cpu_counters()), never added to the bus clock: the CPU does
 * them between register accesses, so board time is the sum of the two.
 * Sources and ranges: Documentation/npukit/board-time.rst.
 * SYSCALL: ioctl entry and exit with the file lookup and dispatch, 1.5 us
 *	(lmbench-class null syscalls on a 650 MHz A9 take 0.5-1 us; an ioctl
 *	through VFS and a misc device more; range 0.7-3 us).
 * SYNC: one dma_sync_single_*() over a range: the call chain, a DSB, the
 *	PL310 Cache Sync (an atomic operation, PL310 TRM 3.3.9) and the
 *	outer cache's spinlock, 0.3 us (range 0.15-0.6 us).
 * LINE: one 32-byte line by address, in L1 (DCCMVAC/DCIMVAC, a few
 *	cycles: Cortex-A9 TRM, 32-byte lines) and in L2 (one write of the
 *	PA to the PL310's Clean/Invalidate Line by PA register, an atomic
 *	operation that stalls until done, PL310 TRM 3.3.9; plus the
 *	write-back of a dirty line), 60 ns (range 25-150 ns).
 * COPY: a byte copied by the CPU through L1/L2 (copy_{from,to}_user of a
 *	kick or a C tile, the staging memcpy), 0.5 ns (range 0.25-1.5 ns:
 *	L1-resident ldm/stm to DDR-bound memcpy, published Zynq-7000 bare
 *	metal memcpy figures of ~0.7-1 GB/s).
 * KICK: the driver's own instructions per kick (the checks, staging, the
 *	protocol in npukit_hw.c and the register accessors, the chunk's
 *	bookkeeping), counted: 286 armhf instructions, the unmodified driver
 *	built for the A9 with the kernel's flags and run against this model
 *	(make bench-kick-insn, check-driver-user), at 0.75 instructions a
 *	cycle, 590 ns (IPC 1.0-0.5: 443-885 ns). It was 381 (780 ns) before
 *	issue 11 item 4 (board-time.rst): the write counter is the write
 *	sequence number, a wait's first poll is inline and the rest out of
 *	line, the chunk's bookkeeping is done once at staging.
 * READBACK: what a kick that reads its C tile back runs on top (the
 *	S2MM's programming, its two waits, taking the tile out of the RX
 *	buffer), counted the same way: 200 instructions, 410 ns
 *	(308-615 ns). It was 597 (1225 ns) while each tile was converted
 *	word by word; one copy of the chunk's tiles does it now, its bytes
 *	charged as COPY.
 * HOST_KICK: the C++ host's own code per kick (two 8x8 tile gathers,
 *	pack_i8_tile(), the XRT/xlnk call layers above the sync ioctl),
 *	500 ns (range 300-1500 ns).
 * PAGE: one page of a batch's kicks or results pinned and unpinned
 *	(npukit_pin.c): pin_user_pages_fast()'s lockless walk of the page
 *	table and its two atomics on the page's refcount, the unpin's, and
 *	for a result page set_page_dirty_lock(): about 300 instructions,
 *	400 ns (range 250-1000 ns). Estimated from the code, not counted.
 */
#define SIM_CPU_SYSCALL_PS	1500000
#define SIM_CPU_SYNC_PS		300000
#define SIM_CPU_LINE_PS		60000
#define SIM_CPU_COPY_PS		500
#define SIM_CPU_KICK_PS		590000
#define SIM_CPU_READBACK_PS	370000
#define SIM_CPU_HOST_KICK_PS	500000
#define SIM_CPU_PAGE_PS		400000
#define SIM_CACHE_LINE		32

static const u32 sim_cpu_default_ps[NPUKIT_CPU_ITEMS] = {
	[NPUKIT_CPU_SYSCALL] = SIM_CPU_SYSCALL_PS,
	[NPUKIT_CPU_SYNC] = SIM_CPU_SYNC_PS,
	[NPUKIT_CPU_LINE] = SIM_CPU_LINE_PS,
	[NPUKIT_CPU_COPY] = SIM_CPU_COPY_PS,
	[NPUKIT_CPU_KICK] = SIM_CPU_KICK_PS,
	[NPUKIT_CPU_READBACK] = SIM_CPU_READBACK_PS,
	[NPUKIT_CPU_HOST_KICK] = SIM_CPU_HOST_KICK_PS,
	[NPUKIT_CPU_PAGE] = SIM_CPU_PAGE_PS,
};

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

/*
 * The reference int8 GEMM step of the array: acc += A * B for 8x8 tiles,
 * A[i][k] at 8i+k, B[k][j] at 8k+j. Accumulators wrap like the RTL's int32
 * registers; u32 arithmetic keeps that defined.
 */
static void sim_gemm8(s32 *acc, const u8 *a, const u8 *b)
{
	unsigned int i, j, k;

	for (i = 0; i < SIM_N; i++) {
		for (j = 0; j < SIM_N; j++) {
			u32 sum = acc[SIM_N * i + j];

			for (k = 0; k < SIM_N; k++)
				sum += (u32)((s32)(s8)a[SIM_N * i + k] *
					     (s32)(s8)b[SIM_N * k + j]);
			acc[SIM_N * i + j] = (s32)sum;
		}
	}
}

static u32 sim_le32(const u8 *p)
{
	return p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void sim_put_le32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static u8 *sim_window(struct npukit_sim *sim, u32 addr, u32 len)
{
	unsigned int i;

	for (i = 0; i < sim->nwin; i++) {
		struct sim_window *w = &sim->win[i];

		if (addr >= w->addr && len <= w->size &&
		    addr - w->addr <= w->size - len)
			return w->cpu + (addr - w->addr);
	}
	return NULL;
}

/* From the sequencer taking the request to GEMM_DONE */
static u64 sim_gemm_ns(struct npukit_sim *sim, bool clear)
{
	u32 slow = clamp_t(u32, READ_ONCE(sim->slow), 1, SIM_SLOW_MAX);
	u32 cycles = SIM_RUN_CYCLES - SIM_START_TAKE_CYCLES + clear;

	return (u64)cycles * SIM_CYCLE_NS * slow;
}

/* A knob in cycles, clamped to its range, in ns */
static u64 sim_knob_ns(const u32 *knob, u32 max)
{
	return (u64)min(READ_ONCE(*knob), max) * SIM_CYCLE_NS;
}

static void sim_stream_in(struct npukit_sim *sim, u32 word)
{
	u32 mode = sim->load_cfg & NPUKIT_LOAD_CFG_MODE;
	u32 target = mode == NPUKIT_LOAD_AB ? 32 :
		     mode == NPUKIT_LOAD_WMEM ? 256 : 16;
	u32 idx = sim->words;
	u8 *dst = NULL;

	if (mode == NPUKIT_LOAD_AB)
		dst = idx < 16 ? &sim->a[4 * idx] : &sim->b[4 * (idx - 16)];
	else if (mode == NPUKIT_LOAD_A)
		dst = &sim->a[4 * idx];
	else if (mode == NPUKIT_LOAD_B)
		dst = &sim->b[4 * idx];
	/* the weight bank is not modelled: its words are consumed */
	if (dst)
		sim_put_le32(dst, word);
	if (++sim->words == target) {
		sim->words = 0;
		sim->sticky |= NPUKIT_STATUS_RX_DONE;
	}
}

static void sim_chan_fail(struct sim_chan *ch, u32 err)
{
	ch->active = false;
	ch->flushing = false;
	ch->dmasr |= err | NPUKIT_DMASR_ERR_IRQ | NPUKIT_DMASR_HALTED;
	ch->dmasr &= ~NPUKIT_DMASR_IDLE;
	ch->dmacr &= ~NPUKIT_DMACR_RS;
}

static void sim_chan_start(struct npukit_sim *sim, struct sim_chan *ch)
{
	if (!(ch->dmacr & NPUKIT_DMACR_RS) || ch->active || ch->flushing ||
	    !ch->length) {
		sim->cnt.dropped++;
		return;
	}
	if (atomic_dec_if_positive(&sim->dma_error) >= 0) {
		sim_chan_fail(ch, NPUKIT_DMASR_SLV_ERR);
		return;
	}
	ch->buf = sim_window(sim, ch->addr, ch->length);
	if (!ch->buf) {
		sim_chan_fail(ch, NPUKIT_DMASR_DEC_ERR);
		return;
	}
	/* no DRE: an unaligned buffer cannot be moved correctly */
	if (ch->addr & 3) {
		sim_chan_fail(ch, NPUKIT_DMASR_INT_ERR);
		return;
	}
	ch->active = true;
	ch->done = 0;
	ch->next_beat = sim->st +
		(u64)min_t(u32, READ_ONCE(sim->timing.stall_us),
			   SIM_STALL_US_MAX) * NSEC_PER_USEC + (ch == &sim->mm2s ?
		sim_knob_ns(&sim->timing.first_beat, SIM_FIRST_BEAT_MAX) :
		SIM_S2MM_SETUP_NS);
	ch->dmasr &= ~NPUKIT_DMASR_IDLE;
}

static void sim_dma_reset(struct npukit_sim *sim)
{
	struct sim_chan *chans[] = { &sim->mm2s, &sim->s2mm };
	unsigned int i;

	/* a reset of either channel resets the whole AXI DMA (PG021) */
	for (i = 0; i < ARRAY_SIZE(chans); i++) {
		struct sim_chan *ch = chans[i];

		ch->active = false;
		ch->flushing = false;
		ch->dmacr = 0;
		ch->dmasr = NPUKIT_DMASR_HALTED;
		ch->reset_until = sim->st + SIM_DMA_RESET_NS;
	}
}

static void sim_dma_write(struct npukit_sim *sim, u32 off, u32 val)
{
	struct sim_chan *ch = off < NPUKIT_S2MM_DMACR ? &sim->mm2s : &sim->s2mm;
	/* the S2MM registers mirror the MM2S ones 0x30 higher */
	u32 reg = off < NPUKIT_S2MM_DMACR ? off : off - NPUKIT_S2MM_DMACR;

	if (sim->st < ch->reset_until)
		return;
	switch (reg) {
	case NPUKIT_MM2S_DMACR:
		if (val & NPUKIT_DMACR_RESET) {
			sim_dma_reset(sim);
			break;
		}
		ch->dmacr = val & (NPUKIT_DMACR_RS | NPUKIT_DMACR_IOC_IRQ_EN |
				   NPUKIT_DMACR_ERR_IRQ_EN);
		if (val & NPUKIT_DMACR_RS)
			ch->dmasr &= ~NPUKIT_DMASR_HALTED;
		else if (!ch->active)
			ch->dmasr |= NPUKIT_DMASR_HALTED;
		break;
	case NPUKIT_MM2S_DMASR:
		ch->dmasr &= ~(val & (NPUKIT_DMASR_IOC_IRQ |
				      NPUKIT_DMASR_ERR_IRQ | BIT(13)));
		break;
	case NPUKIT_MM2S_SA:		/* S2MM_DA */
		ch->addr = val;
		break;
	case NPUKIT_MM2S_LENGTH:	/* S2MM_LENGTH */
		ch->length = val & NPUKIT_DMA_MAX_BYTES;
		sim_chan_start(sim, ch);
		break;
	}
}

static u32 sim_dma_read(struct npukit_sim *sim, u32 off)
{
	struct sim_chan *ch = off < NPUKIT_S2MM_DMACR ? &sim->mm2s : &sim->s2mm;
	u32 reg = off < NPUKIT_S2MM_DMACR ? off : off - NPUKIT_S2MM_DMACR;

	switch (reg) {
	case NPUKIT_MM2S_DMACR:
		if (sim->st < ch->reset_until)
			return ch->dmacr | NPUKIT_DMACR_RESET;
		return ch->dmacr;
	case NPUKIT_MM2S_DMASR:
		return ch->dmasr;
	case NPUKIT_MM2S_SA:		/* S2MM_DA */
		return ch->addr;
	case NPUKIT_MM2S_LENGTH:	/* S2MM_LENGTH */
		return ch->length;
	}
	return 0;
}

/*
 * A CTRL write landed. The RTL registers the write, then the request, and
 * acts on it two cycles after it landed (sim_take()): until then BUSY
 * stays low and the array keeps taking stream beats. Writes to one slave
 * land at least three cycles apart, so one request is pending at a time.
 */
static void sim_ctrl(struct npukit_sim *sim, u32 val)
{
	u32 req = val & (NPUKIT_CTRL_START | NPUKIT_CTRL_CLEAR |
			 NPUKIT_CTRL_TX_ARM);

	if (!req)
		return;
	if (sim->take) {
		sim->cnt.dropped++;
		return;
	}
	sim->take = req;
	sim->take_at = sim->st + SIM_START_TAKE_CYCLES * SIM_CYCLE_NS;
}

/* TX_ARM acts: the sender starts only on GEMM_DONE, when it is idle */
static void sim_tx_arm(struct npukit_sim *sim)
{
	if ((sim->sticky & NPUKIT_STATUS_GEMM_DONE) && !sim->tx_left) {
		sim->tx_left = SIM_C_WORDS;
		sim->tx_ready = sim->st + SIM_TX_START_NS -
				SIM_START_TAKE_CYCLES * SIM_CYCLE_NS;
		sim->sticky &= ~NPUKIT_STATUS_TX_DONE;
	} else {
		sim->cnt.dropped++;
	}
}

/*
 * The request acts, as the RTL decides it then: CLEAR clears AXIS_RX_DONE
 * whatever the sequencer does; TX_ARM looks at GEMM_DONE as it was before
 * this cycle; the sequencer takes START/CLEAR only when idle (BUSY up,
 * GEMM_DONE down), except that a START acting in CLEAR's one cycle makes
 * that CLEAR a CLEAR|START.
 */
static void sim_take(struct npukit_sim *sim)
{
	u32 req = sim->take;
	bool clear = req & NPUKIT_CTRL_CLEAR;

	sim->take = 0;
	if (clear)
		sim->sticky &= ~NPUKIT_STATUS_RX_DONE;
	if (req & NPUKIT_CTRL_TX_ARM)
		sim_tx_arm(sim);
	if (!(req & (NPUKIT_CTRL_START | NPUKIT_CTRL_CLEAR)))
		return;
	if (sim->busy) {
		if ((req & NPUKIT_CTRL_START) && !sim->run &&
		    sim->st == sim->gemm_start + SIM_CYCLE_NS) {
			sim->run = true;
			sim->stuck = READ_ONCE(sim->hang);
			sim->gemm_end = sim->gemm_start + sim_gemm_ns(sim, true);
			sim->cnt.gemm_runs++;
		} else {
			sim->cnt.dropped++;
		}
		return;
	}
	sim->run = req & NPUKIT_CTRL_START;
	sim->busy = true;
	sim->sticky &= ~NPUKIT_STATUS_GEMM_DONE;
	if (clear)
		memset(sim->acc, 0, sizeof(sim->acc));
	sim->gemm_start = sim->st;
	if (sim->run) {
		sim->stuck = READ_ONCE(sim->hang);
		sim->gemm_end = sim->st + sim_gemm_ns(sim, clear);
		sim->cnt.gemm_runs++;
	} else {
		/* CLEAR alone: one cycle in ST_CLEAR, no GEMM_DONE */
		sim->stuck = false;
		sim->gemm_end = sim->st + SIM_CYCLE_NS;
	}
}

/* A glue bank word: the bank by 256 bytes, the word by addr[5:2] */
static u32 *sim_glue_word(struct npukit_sim *sim, u32 off)
{
	return &sim->glue[(off - SIM_GLUE_BANK) >> 8][(off >> 2) % SIM_GLUE_WORDS];
}

static void sim_npu_write(struct npukit_sim *sim, u32 off, u32 val)
{
	off &= NPUKIT_DECODE_MASK;
	if (off >= SIM_GLUE_BANK && off < SIM_GLUE_END) {
		if ((off - SIM_GLUE_BANK) >> 8 != SIM_GLUE_OUT)
			*sim_glue_word(sim, off) = val;
		return;
	}
	if (off >= NPUKIT_A_TILE && off < NPUKIT_A_TILE + NPUKIT_TILE_BYTES) {
		if (sim->busy)
			sim->cnt.dropped++;
		else
			sim_put_le32(&sim->a[(off - NPUKIT_A_TILE) & ~3], val);
		return;
	}
	if (off >= NPUKIT_B_TILE && off < NPUKIT_B_TILE + NPUKIT_TILE_BYTES) {
		if (sim->busy)
			sim->cnt.dropped++;
		else
			sim_put_le32(&sim->b[(off - NPUKIT_B_TILE) & ~3], val);
		return;
	}
	switch (off) {
	case NPUKIT_CTRL:
		sim_ctrl(sim, val);
		break;
	case NPUKIT_LOAD_CFG:
		sim->load_cfg = val & NPUKIT_LOAD_CFG_MODE;
		sim->words = 0;
		sim->sticky &= ~NPUKIT_STATUS_RX_DONE;
		break;
	case NPUKIT_W_SHAPE:
		sim->w_shape = val;
		break;
	case NPUKIT_TILE_KJ:
		sim->tile_kj = val & SIM_TILE_KJ_MASK;
		break;
	case NPUKIT_GLUE_LEN:
		sim->glue_len = val & SIM_GLUE_LEN_MASK;
		break;
	case NPUKIT_GLUE_PARAM:
		sim->glue_param = val;
		break;
	}
}

static u32 sim_npu_read(struct npukit_sim *sim, u32 off)
{
	off &= NPUKIT_DECODE_MASK;
	if (off >= NPUKIT_A_TILE && off < NPUKIT_A_TILE + NPUKIT_TILE_BYTES)
		return sim_le32(&sim->a[(off - NPUKIT_A_TILE) & ~3]);
	if (off >= NPUKIT_B_TILE && off < NPUKIT_B_TILE + NPUKIT_TILE_BYTES)
		return sim_le32(&sim->b[(off - NPUKIT_B_TILE) & ~3]);
	if (off >= NPUKIT_C_TILE && off < NPUKIT_C_TILE + NPUKIT_C_BYTES)
		return sim->c[(off - NPUKIT_C_TILE) / 4];
	if (off >= SIM_GLUE_BANK && off < SIM_GLUE_END)
		return *sim_glue_word(sim, off);
	switch (off) {
	case NPUKIT_ID:
		return sim->bad_id ? 0 : NPUKIT_ID_MAGIC;
	case NPUKIT_VERSION:
		return SIM_VERSION;
	case NPUKIT_STATUS:
		return sim->sticky | (sim->busy ? NPUKIT_STATUS_BUSY : 0);
	case NPUKIT_N:
		return SIM_N;
	case NPUKIT_FEATURES:
		return SIM_FEATURES;
	case NPUKIT_GLUE_LEN:
		return sim->glue_len;
	case NPUKIT_GLUE_PARAM:
		return sim->glue_param;
	case NPUKIT_LOAD_CFG:
		return sim->load_cfg;
	case NPUKIT_W_SHAPE:
		return sim->w_shape;
	case NPUKIT_TILE_KJ:
		return sim->tile_kj;
	}
	return 0;
}

static void sim_mm2s_beat(struct npukit_sim *sim)
{
	struct sim_chan *ch = &sim->mm2s;

	sim_stream_in(sim, sim_le32(ch->buf + ch->done));
	ch->done += 4;
	ch->next_beat = sim->st + SIM_CYCLE_NS;
	if (ch->done >= ch->length) {
		/* Idle (and IOC) only once the status reaches DMASR */
		ch->flushing = true;
		ch->next_beat = sim->st +
			sim_knob_ns(&sim->timing.idle_lag, SIM_IDLE_LAG_MAX);
	}
}

static void sim_s2mm_beat(struct npukit_sim *sim)
{
	struct sim_chan *ch = &sim->s2mm;

	sim_put_le32(ch->buf + ch->done, sim->c[SIM_C_WORDS - sim->tx_left]);
	ch->done += 4;
	ch->next_beat = sim->st + SIM_CYCLE_NS;
	if (!--sim->tx_left) {
		/* TLAST: the transfer ends here even if LENGTH is larger */
		sim->sticky |= NPUKIT_STATUS_TX_DONE;
		ch->flushing = true;
		ch->next_beat = sim->st + SIM_S2MM_FLUSH_NS;
	} else if (ch->done >= ch->length) {
		/* stream longer than the buffer; the sender keeps waiting */
		sim_chan_fail(ch, NPUKIT_DMASR_INT_ERR);
	}
}

/* A channel's last beat is through: its transfer completes, Idle rises. */
static void sim_chan_flushed(struct npukit_sim *sim, struct sim_chan *ch)
{
	/*
	 * S2MM: the model wrote through the CPU mapping; clean it to memory
	 * the way the real S2MM writes DDR, so the driver's invalidate before
	 * reading keeps the data on non-coherent systems.
	 */
	if (ch == &sim->s2mm) {
		dma_sync_single_for_device(sim->dev, ch->addr, ch->done,
					   DMA_TO_DEVICE);
		ch->length = ch->done;
	}
	ch->flushing = false;
	ch->active = false;
	ch->dmasr |= NPUKIT_DMASR_IDLE | NPUKIT_DMASR_IOC_IRQ;
	sim->cnt.dma_bytes += ch->done;
}

enum sim_event {
	SIM_EV_NONE, SIM_EV_WRITE, SIM_EV_TAKE, SIM_EV_GEMM, SIM_EV_MM2S,
	SIM_EV_S2MM, SIM_EV_MM2S_IDLE, SIM_EV_S2MM_IDLE
};

/* The write that lands first; on a tie, the one issued first */
static unsigned int sim_wq_first(const struct npukit_sim *sim)
{
	unsigned int i, first = 0;

	for (i = 1; i < sim->wq_len; i++)
		if (sim->wq[i].land < sim->wq[first].land)
			first = i;
	return first;
}

/* The model's next event and its time (U64_MAX with SIM_EV_NONE) */
static u64 sim_next(struct npukit_sim *sim, enum sim_event *evp)
{
	enum sim_event ev = SIM_EV_NONE;
	u64 next = U64_MAX, bt;

	if (sim->wq_len && sim->wq[sim_wq_first(sim)].land < next) {
		next = sim->wq[sim_wq_first(sim)].land;
		ev = SIM_EV_WRITE;
	}
	if (sim->take && sim->take_at < next) {
		next = sim->take_at;
		ev = SIM_EV_TAKE;
	}
	if (sim->busy && !sim->stuck && sim->gemm_end < next) {
		next = sim->gemm_end;
		ev = SIM_EV_GEMM;
	}
	/* the NPU back-pressures the stream while it runs */
	if (sim->mm2s.active && !sim->mm2s.flushing && !sim->busy) {
		bt = max(sim->mm2s.next_beat, sim->st);
		if (bt < next) {
			next = bt;
			ev = SIM_EV_MM2S;
		}
	}
	if (sim->s2mm.active && !sim->s2mm.flushing && sim->tx_left) {
		bt = max3(sim->s2mm.next_beat, sim->tx_ready, sim->st);
		if (bt < next) {
			next = bt;
			ev = SIM_EV_S2MM;
		}
	}
	if (sim->mm2s.flushing && sim->mm2s.next_beat < next) {
		next = max(sim->mm2s.next_beat, sim->st);
		ev = SIM_EV_MM2S_IDLE;
	}
	if (sim->s2mm.flushing && sim->s2mm.next_beat < next) {
		next = max(sim->s2mm.next_beat, sim->st);
		ev = SIM_EV_S2MM_IDLE;
	}
	*evp = ev;
	return next;
}

/* Run the model's events in time order up to time @t. */
static void sim_advance(struct npukit_sim *sim, u64 t)
{
	if (sim->stuck && !READ_ONCE(sim->hang)) {
		sim->stuck = false;
		sim->gemm_end = max(sim->gemm_end, sim->st);
	}
	for (;;) {
		enum sim_event ev;
		u64 next = sim_next(sim, &ev);

		if (ev == SIM_EV_NONE || next > t)
			break;
		sim->st = max(sim->st, next);

		switch (ev) {
		case SIM_EV_WRITE: {
			unsigned int i = sim_wq_first(sim);
			struct sim_write w = sim->wq[i];

			sim->wq_len--;
			memmove(&sim->wq[i], &sim->wq[i + 1],
				(sim->wq_len - i) * sizeof(w));
			if (w.space == NPUKIT_SPACE_NPU)
				sim_npu_write(sim, w.off, w.val);
			else
				sim_dma_write(sim, w.off, w.val);
			break;
		}
		case SIM_EV_TAKE:
			sim_take(sim);
			break;
		case SIM_EV_GEMM:
			sim->busy = false;
			if (!sim->run)
				break;
			sim_gemm8(sim->acc, sim->a, sim->b);
			memcpy(sim->c, sim->acc, sizeof(sim->c));
			sim->sticky |= NPUKIT_STATUS_GEMM_DONE;
			sim->cnt.gemm_ns += sim->st - sim->gemm_start;
			break;
		case SIM_EV_MM2S:
			sim_mm2s_beat(sim);
			break;
		case SIM_EV_S2MM:
			sim_s2mm_beat(sim);
			break;
		case SIM_EV_MM2S_IDLE:
			sim_chan_flushed(sim, &sim->mm2s);
			break;
		case SIM_EV_S2MM_IDLE:
			sim_chan_flushed(sim, &sim->s2mm);
			break;
		case SIM_EV_NONE:
			break;
		}
	}
	sim->st = max(sim->st, t);
}

static bool sim_chan_irq(const struct sim_chan *ch)
{
	return ((ch->dmasr & NPUKIT_DMASR_IOC_IRQ) &&
		(ch->dmacr & NPUKIT_DMACR_IOC_IRQ_EN)) ||
	       ((ch->dmasr & NPUKIT_DMASR_ERR_IRQ) &&
		(ch->dmacr & NPUKIT_DMACR_ERR_IRQ_EN));
}

/*
 * Bring the model up to the CPU's clock and drive the interrupt output:
 * a rising edge is delivered to the driver's handler by sim->irq_timer.
 * Without interrupts nothing observes the model before the next access,
 * which advances it first: the step is skipped, on the hot path.
 */
static void sim_settle(struct npukit_sim *sim)
{
	bool line;

	if (!sim->irq_fn)
		return;
	sim_advance(sim, sim->now);
	line = sim_chan_irq(&sim->mm2s) || sim_chan_irq(&sim->s2mm);
	/* a rising edge the GIC never sees, or a handler run with no cause */
	if ((line && !sim->irq_line &&
	     atomic_dec_if_positive(&sim->irq_lose) < 0) ||
	    (!line && atomic_dec_if_positive(&sim->irq_spurious) >= 0))
		hrtimer_start(&sim->irq_timer, 0, HRTIMER_MODE_REL_HARD);
	sim->irq_line = line;
}

/* Modelled time follows real time while the driver sleeps. */
static void sim_catch_up(struct npukit_sim *sim)
{
	u64 real = ktime_get_ns();

	sim->now += real - sim->real_mark;
	sim->real_mark = real;
}

static enum hrtimer_restart sim_irq_timer(struct hrtimer *timer)
{
	struct npukit_sim *sim = container_of(timer, struct npukit_sim,
					      irq_timer);

	sim->irq_fn(0, sim->irq_data);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart sim_timer(struct hrtimer *timer)
{
	struct npukit_sim *sim = container_of(timer, struct npukit_sim, timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	enum sim_event ev;
	unsigned long flags;
	u64 next;

	spin_lock_irqsave(&sim->lock, flags);
	sim_catch_up(sim);
	sim_settle(sim);
	next = sim_next(sim, &ev);
	if (ev != SIM_EV_NONE) {
		/* a board event is due: wake up when it is */
		hrtimer_forward_now(timer, ns_to_ktime(max_t(u64, next - min(next, sim->now),
							     SIM_TIMER_MIN_NS)));
		ret = HRTIMER_RESTART;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return ret;
}

static u32 sim_read(struct npukit_sim *sim, enum npukit_space space,
		    u32 off, bool wait)
{
	bool can_sleep = preemptible();
	unsigned long flags;
	u64 sample, preempt;
	u32 val;

	spin_lock_irqsave(&sim->lock, flags);
	sample = sim->now + SIM_READ_SAMPLE_NS;
	if (space == NPUKIT_SPACE_NPU) {
		/*
		 * Accesses to one peripheral arrive in program order (UG585
		 * 3.2.4): a read of the NPU reaches it behind the writes
		 * issued before it, at worst a cycle before the last of them
		 * takes effect (8.1), and after the reads before it.
		 */
		if (sim->npu_land > sample + 1)
			sample = sim->npu_land - 1;
		sample = max(sample, sim->npu_sample + 1);
		sim->npu_sample = sample;
	}
	sim_advance(sim, sample);
	if (space == NPUKIT_SPACE_NPU)
		val = sim_npu_read(sim, off);
	else
		val = sim_dma_read(sim, off);
	/*
	 * The CPU issues its next access a round trip later; it waits for
	 * a read held up behind late writes only when told to, as a DSB or
	 * a use of the value would make it (npukit_sim_read_wait()).
	 */
	sim->now += SIM_READ_RTT_NS;
	if (wait)
		sim->now = max(sim->now, sample + SIM_READ_RTT_NS -
			       SIM_READ_SAMPLE_NS);
	preempt = npukit_sim_preempt(&sim->preempt, &sim->timing, &sim->now,
				     can_sleep);
	sim->cnt.reads++;
	sim_settle(sim);
	spin_unlock_irqrestore(&sim->lock, flags);
	if (preempt) {
		npukit_sim_sleep_begin(sim);
		usleep_range(div_u64(preempt, NSEC_PER_USEC),
			     div_u64(preempt, NSEC_PER_USEC) + 100);
		npukit_sim_sleep_end(sim);
	}
	return val;
}

/**
 * npukit_sim_read - a register read as the CPU sees it
 * @sim: the model
 * @space: NPU or DMA register block
 * @off: register offset
 *
 * The slave is sampled halfway through the round trip (a read of the NPU
 * no earlier than the NPU writes before it arrive); the CPU issues its
 * next access a nominal round trip later.
 *
 * Return: the register value.
 */
u32 npukit_sim_read(struct npukit_sim *sim, enum npukit_space space,
		    u32 off)
{
	return sim_read(sim, space, off, false);
}

/**
 * npukit_sim_read_wait - a register read the CPU waits for in full
 * @sim: the model
 * @space: NPU or DMA register block
 * @off: register offset
 *
 * As npukit_sim_read(), but nothing is issued after it until its response
 * is back, however late the writes it queued behind landed: readl() on
 * 32-bit ARM, whose DSB waits for the load to complete.
 *
 * Return: the register value.
 */
u32 npukit_sim_read_wait(struct npukit_sim *sim, enum npukit_space space,
			 u32 off)
{
	return sim_read(sim, space, off, true);
}

/**
 * npukit_sim_write - a posted register write
 * @sim: the model
 * @space: NPU or DMA register block
 * @off: register offset
 * @val: value
 *
 * The write takes effect when it lands, %SIM_WRITE_LAND_NS after issue,
 * a write to the DMA up to the overtake knob sooner but never before an
 * earlier one to the DMA; the CPU stalls only when the write queue is
 * full.
 */
void npukit_sim_write(struct npukit_sim *sim, enum npukit_space space,
		      u32 off, u32 val)
{
	struct sim_write *w;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	if (sim->wq_len == SIM_WRITE_QUEUE) {
		u64 land = sim->wq[sim_wq_first(sim)].land;

		sim_advance(sim, land);
		sim->now = max(sim->now, land);
	}
	w = &sim->wq[sim->wq_len];
	w->land = sim->now + SIM_WRITE_LAND_NS;
	if (space == NPUKIT_SPACE_NPU) {
		w->land += sim_knob_ns(&sim->timing.npu_lag, SIM_NPU_LAG_MAX);
		sim->npu_land = max(sim->npu_land, w->land);
	} else {
		w->land -= sim_knob_ns(&sim->timing.overtake, SIM_OVERTAKE_MAX);
		w->land = max(w->land, sim->dma_land);
		sim->dma_land = w->land;
	}
	w->space = space;
	w->off = off;
	w->val = val;
	sim->wq_len++;
	sim->now += SIM_WRITE_NS;
	sim->cnt.writes++;
	sim_settle(sim);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_now - the model's clock
 * @sim: the model
 *
 * Return: modelled board time in ns since the model was created.
 */
u64 npukit_sim_now(struct npukit_sim *sim)
{
	unsigned long flags;
	u64 now;

	spin_lock_irqsave(&sim->lock, flags);
	/* preempted before the clock is read, as after a failed poll */
	npukit_sim_preempt(&sim->preempt, &sim->timing, &sim->now, false);
	now = sim->now;
	spin_unlock_irqrestore(&sim->lock, flags);
	return now;
}

/**
 * npukit_sim_delay - let modelled time pass, as ndelay() does on hardware
 * @sim: the model
 * @ns: nanoseconds
 */
void npukit_sim_delay(struct npukit_sim *sim, u32 ns)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sim->now += ns;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_set_irq - deliver the DMA's interrupt (module parameter sim_irq)
 * @sim: the model
 * @fn: the driver's interrupt handler; called with irq 0 and @data in hard
 *	interrupt context (a hard hrtimer) on each rising edge of the
 *	interrupt
 * @data: its argument
 *
 * Call before the first register access.
 */
void npukit_sim_set_irq(struct npukit_sim *sim, irq_handler_t fn, void *data)
{
	sim->irq_fn = fn;
	sim->irq_data = data;
}

/**
 * npukit_sim_sleep_begin - the driver is about to sleep
 * @sim: the model
 *
 * From now until npukit_sim_sleep_end() modelled time follows real time,
 * and with interrupts on, a timer runs the model's events as they fall due
 * so that a transfer completing meanwhile raises its interrupt.
 */
void npukit_sim_sleep_begin(struct npukit_sim *sim)
{
	enum sim_event ev;
	unsigned long flags;
	u64 next;

	spin_lock_irqsave(&sim->lock, flags);
	sim->real_mark = ktime_get_ns();
	sim->sleeping = true;
	next = sim_next(sim, &ev);
	if (sim->irq_fn && ev != SIM_EV_NONE)
		hrtimer_start(&sim->timer,
			      ns_to_ktime(max_t(u64, next - min(next, sim->now),
						SIM_TIMER_MIN_NS)),
			      HRTIMER_MODE_REL);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_sleep_end - the driver woke up: stop the timer, catch up
 * @sim: the model
 */
void npukit_sim_sleep_end(struct npukit_sim *sim)
{
	unsigned long flags;

	hrtimer_cancel(&sim->timer);
	spin_lock_irqsave(&sim->lock, flags);
	if (sim->sleeping) {
		sim_catch_up(sim);
		sim_settle(sim);
		sim->sleeping = false;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_irq_sync - have every interrupt raised so far handled
 * @sim: the model
 *
 * Waits for a running handler call only, never for the timer to expire:
 * a delivery still pending is taken back and the handler called here,
 * with interrupts off as in the timer's interrupt. On return no handler
 * call raised before is pending or running. Must not be called with the
 * model's lock held or from the handler.
 */
void npukit_sim_irq_sync(struct npukit_sim *sim)
{
	unsigned long flags;

	if (!sim->irq_fn || !hrtimer_cancel(&sim->irq_timer))
		return;
	local_irq_save(flags);
	sim->irq_fn(0, sim->irq_data);
	local_irq_restore(flags);
}

/**
 * npukit_sim_add_window - let the modelled DMA reach a buffer
 * @sim: the model
 * @addr: bus address of the buffer
 * @cpu: its kernel mapping
 * @size: its size in bytes
 *
 * Return: 0, or -ENOSPC when all windows are in use.
 */
int npukit_sim_add_window(struct npukit_sim *sim, dma_addr_t addr, void *cpu,
			  size_t size)
{
	if (sim->nwin == SIM_WINDOWS)
		return -ENOSPC;
	sim->win[sim->nwin].addr = addr;
	sim->win[sim->nwin].cpu = cpu;
	sim->win[sim->nwin].size = size;
	sim->nwin++;
	return 0;
}

/**
 * npukit_sim_counters - snapshot of what the model measured
 * @sim: the model
 * @out: filled in
 */
void npukit_sim_counters(struct npukit_sim *sim,
			 struct npukit_sim_counters *out)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	*out = sim->cnt;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_cpu - charge CPU work to the model's CPU share
 * @sim: the model
 * @item: what the CPU did
 * @n: how many times
 *
 * Kept apart from the bus clock, which does not move: see %SIM_CPU_*_PS.
 */
void npukit_sim_cpu(struct npukit_sim *sim, enum npukit_cpu_item item,
		    u32 n)
{
	unsigned long flags;

	if (item >= NPUKIT_CPU_ITEMS)
		return;
	spin_lock_irqsave(&sim->lock, flags);
	sim->cpu.count[item] += n;
	sim->cpu_sum_ps += (u64)n * READ_ONCE(sim->cpu_ps[item]);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_cpu_sync - charge one cache maintenance call over @bytes
 * @sim: the model
 * @bytes: the range, from a line boundary (the driver's buffers are)
 */
void npukit_sim_cpu_sync(struct npukit_sim *sim, size_t bytes)
{
	npukit_sim_cpu(sim, NPUKIT_CPU_SYNC, 1);
	npukit_sim_cpu(sim, NPUKIT_CPU_LINE,
		       DIV_ROUND_UP(bytes, SIM_CACHE_LINE));
}

/**
 * npukit_sim_cpu_counters - snapshot of the CPU's share
 * @sim: the model
 * @out: filled in
 */
void npukit_sim_cpu_counters(struct npukit_sim *sim,
			     struct npukit_sim_cpu *out)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	*out = sim->cpu;
	out->ns = div_u64(sim->cpu_sum_ps, 1000);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_has_reset_line - does the modelled board wire the PL reset
 * @sim: the model
 *
 * Return: the reset_line knob.
 */
bool npukit_sim_has_reset_line(struct npukit_sim *sim)
{
	return READ_ONCE(sim->reset_line);
}

/* The registers' reset values; the glue banks are block RAM and keep theirs */
static void sim_reset_regs(struct npukit_sim *sim)
{
	sim->glue_len = SIM_GLUE_LEN_RESET;
	sim->glue_param = SIM_GLUE_PARAM_RESET;
	sim->w_shape = SIM_W_SHAPE_RESET;
	sim->tile_kj = 0;
}

/**
 * npukit_sim_pl_reset - reset the programmable logic
 * @sim: the model
 *
 * What FCLK_RESET0_N does to the NpuKit block design: the NPU and both DMA
 * channels return to their power-on state, and with them a C stream the
 * NPU had not finished sending, the accumulators and the stream word
 * counter. Writes still on their way to the PL are lost.
 */
void npukit_sim_pl_reset(struct npukit_sim *sim)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sim_advance(sim, sim->now);
	sim->wq_len = 0;
	sim->dma_land = sim->st;
	memset(sim->a, 0, sizeof(sim->a));
	memset(sim->b, 0, sizeof(sim->b));
	memset(sim->acc, 0, sizeof(sim->acc));
	memset(sim->c, 0, sizeof(sim->c));
	sim->sticky = 0;
	sim->take = 0;
	sim->busy = false;
	sim->run = false;
	sim->stuck = false;
	sim->load_cfg = 0;
	sim->words = 0;
	sim->tx_left = 0;
	sim_reset_regs(sim);
	/* the DMA is in the PL too: it comes out as from its own reset */
	sim_dma_reset(sim);
	sim_settle(sim);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/* debugfs pl_reset: a bitstream reload, when the driver has no reset line */
static ssize_t sim_pl_reset_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	bool val;
	int ret;

	ret = kstrtobool_from_user(buf, count, &val);
	if (ret)
		return ret;
	if (val)
		npukit_sim_pl_reset(file->private_data);
	return count;
}

static const struct file_operations sim_pl_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_pl_reset_write,
	.llseek = noop_llseek,
};

/**
 * npukit_sim_debugfs - create the fault knobs
 * @sim: the model
 * @dir: the instance's debugfs directory
 *
 * dma_error: the next N DMA transfers fail with DMASlvErr;
 * hang: while 1, GEMM runs never finish (writing 0 lets a stuck run end);
 * slow: GEMM runs take N times longer (1..1000);
 * reset_line: 1 (the default): the board wires the PL reset, which the
 *	driver pulls through npukit_sim_pl_reset(); 0: it does not;
 * pl_reset: writing 1 resets the PL, as reloading the bitstream would;
 * and the timing knobs, in 10 ns cycles, values above the range acting as
 * its maximum (see struct npukit_sim_timing): idle_lag (0..100),
 * overtake (0..20), first_beat (0..100), npu_lag (0..1000), and stall_us
 * in microseconds (0..1000); preempt_ms, preempt_one_in, preempt_sleep and
 * the counter preempts (npukit_sim_stall.c);
 * irq_lose: the next this many rising edges of the interrupt output are
 * lost; irq_spurious: the handler runs this many times with the output
 * low (sim_irq only);
 * and the CPU cost model, in ps per item (%SIM_CPU_*_PS): cpu_syscall_ps,
 * cpu_sync_ps, cpu_line_ps, cpu_copy_ps, cpu_kick_ps, cpu_readback_ps,
 * cpu_host_kick_ps, cpu_page_ps.
 */
void npukit_sim_debugfs(struct npukit_sim *sim, struct dentry *dir)
{
	static const char * const sim_cpu_knobs[NPUKIT_CPU_ITEMS] = {
		"cpu_syscall_ps", "cpu_sync_ps", "cpu_line_ps", "cpu_copy_ps",
		"cpu_kick_ps", "cpu_readback_ps", "cpu_host_kick_ps",
		"cpu_page_ps",
	};
	unsigned int i;

	debugfs_create_atomic_t("dma_error", 0600, dir, &sim->dma_error);
	debugfs_create_bool("hang", 0600, dir, &sim->hang);
	debugfs_create_u32("slow", 0600, dir, &sim->slow);
	debugfs_create_u32("idle_lag", 0600, dir, &sim->timing.idle_lag);
	debugfs_create_u32("overtake", 0600, dir, &sim->timing.overtake);
	debugfs_create_u32("first_beat", 0600, dir, &sim->timing.first_beat);
	debugfs_create_u32("npu_lag", 0600, dir, &sim->timing.npu_lag);
	debugfs_create_u32("stall_us", 0600, dir, &sim->timing.stall_us);
	npukit_sim_preempt_debugfs(&sim->preempt, &sim->timing, dir);
	debugfs_create_atomic_t("irq_lose", 0600, dir, &sim->irq_lose);
	debugfs_create_atomic_t("irq_spurious", 0600, dir, &sim->irq_spurious);
	debugfs_create_bool("reset_line", 0600, dir, &sim->reset_line);
	debugfs_create_file("pl_reset", 0200, dir, sim, &sim_pl_reset_fops);
	for (i = 0; i < NPUKIT_CPU_ITEMS; i++)
		debugfs_create_u32(sim_cpu_knobs[i], 0600, dir, &sim->cpu_ps[i]);
}

/**
 * npukit_sim_set_timing - set the timing knobs (module parameters)
 * @sim: the model, before its first register access
 * @t: the knobs
 */
void npukit_sim_set_timing(struct npukit_sim *sim,
			   const struct npukit_sim_timing *t)
{
	sim->timing = *t;
}

/**
 * npukit_sim_create - a simulated NpuKit in its power-on state
 * @dev: the device that owns it (for DMA cache maintenance)
 * @bad_id: make the ID register read 0, as a fabric without the bitstream
 *
 * Return: the model, or NULL when out of memory.
 */
struct npukit_sim *npukit_sim_create(struct device *dev, bool bad_id)
{
	struct npukit_sim *sim = kzalloc(sizeof(*sim), GFP_KERNEL);

	if (!sim)
		return NULL;
	sim->dev = dev;
	sim->bad_id = bad_id;
	sim->slow = 1;
	sim->timing = (struct npukit_sim_timing)NPUKIT_SIM_TIMING_DEFAULT;
	sim->reset_line = true;
	memcpy(sim->cpu_ps, sim_cpu_default_ps, sizeof(sim->cpu_ps));
	sim_reset_regs(sim);
	sim->mm2s.dmasr = NPUKIT_DMASR_HALTED;
	sim->s2mm.dmasr = NPUKIT_DMASR_HALTED;
	atomic_set(&sim->dma_error, 0);
	spin_lock_init(&sim->lock);
	hrtimer_init(&sim->irq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	sim->irq_timer.function = sim_irq_timer;
	hrtimer_init(&sim->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	sim->timer.function = sim_timer;
	return sim;
}

/**
 * npukit_sim_destroy - free a model
 * @sim: the model, or NULL
 */
void npukit_sim_destroy(struct npukit_sim *sim)
{
	if (!sim)
		return;
	hrtimer_cancel(&sim->timer);
	hrtimer_cancel(&sim->irq_timer);
	kfree(sim);
}
