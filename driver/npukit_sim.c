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

#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "npukit_regs.h"
#include "npukit_sim_priv.h"

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

/* From the sequencer taking the request to GEMM_DONE */
static u64 sim_gemm_ns(struct npukit_sim *sim, bool clear)
{
	u32 slow = clamp_t(u32, READ_ONCE(sim->slow), 1, SIM_SLOW_MAX);
	u32 cycles = SIM_RUN_CYCLES - SIM_START_TAKE_CYCLES + clear;

	return (u64)cycles * SIM_CYCLE_NS * slow;
}

/**
 * npukit_sim_stream_in - one stream word reaches the NPU
 * @sim: the model, locked
 * @word: the word
 *
 * Into the A or B tile by LOAD_CFG's mode and the word counter; the
 * weight bank is not modelled, its words are consumed.
 */
void npukit_sim_stream_in(struct npukit_sim *sim, u32 word)
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

/**
 * npukit_sim_npu_write - a write lands on the NPU's AXI4-Lite slave
 * @sim: the model, locked
 * @off: register offset
 * @val: value
 *
 * Tile writes while the array is busy are dropped, as the RTL drops them.
 */
void npukit_sim_npu_write(struct npukit_sim *sim, u32 off, u32 val)
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

/**
 * npukit_sim_npu_read - the NPU's slave answers a read
 * @sim: the model, locked, advanced to the time the read samples
 * @off: register offset
 *
 * Return: the register value.
 */
u32 npukit_sim_npu_read(struct npukit_sim *sim, u32 off)
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

/**
 * npukit_sim_wq_first - the posted write that lands first
 * @sim: the model, locked
 *
 * Return: its index in @sim->wq; on a tie, the one issued first.
 */
unsigned int npukit_sim_wq_first(const struct npukit_sim *sim)
{
	unsigned int i, first = 0;

	for (i = 1; i < sim->wq_len; i++)
		if (sim->wq[i].land < sim->wq[first].land)
			first = i;
	return first;
}

/**
 * npukit_sim_next - the model's next event
 * @sim: the model, locked
 * @evp: set to the event, %SIM_EV_NONE when there is none
 *
 * Return: its time, U64_MAX with %SIM_EV_NONE.
 */
u64 npukit_sim_next(struct npukit_sim *sim, enum sim_event *evp)
{
	enum sim_event ev = SIM_EV_NONE;
	u64 next = U64_MAX, bt;

	if (sim->wq_len && sim->wq[npukit_sim_wq_first(sim)].land < next) {
		next = sim->wq[npukit_sim_wq_first(sim)].land;
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

/**
 * npukit_sim_advance - run the model's events in time order up to @t
 * @sim: the model, locked
 * @t: modelled time
 */
void npukit_sim_advance(struct npukit_sim *sim, u64 t)
{
	if (sim->stuck && !READ_ONCE(sim->hang)) {
		sim->stuck = false;
		sim->gemm_end = max(sim->gemm_end, sim->st);
	}
	for (;;) {
		enum sim_event ev;
		u64 next = npukit_sim_next(sim, &ev);

		if (ev == SIM_EV_NONE || next > t)
			break;
		sim->st = max(sim->st, next);

		switch (ev) {
		case SIM_EV_WRITE: {
			unsigned int i = npukit_sim_wq_first(sim);
			struct sim_write w = sim->wq[i];

			sim->wq_len--;
			memmove(&sim->wq[i], &sim->wq[i + 1],
				(sim->wq_len - i) * sizeof(w));
			if (w.space == NPUKIT_SPACE_NPU)
				npukit_sim_npu_write(sim, w.off, w.val);
			else
				npukit_sim_dma_write(sim, w.off, w.val);
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
			npukit_sim_mm2s_beat(sim);
			break;
		case SIM_EV_S2MM:
			npukit_sim_s2mm_beat(sim);
			break;
		case SIM_EV_MM2S_IDLE:
			npukit_sim_chan_flushed(sim, &sim->mm2s);
			break;
		case SIM_EV_S2MM_IDLE:
			npukit_sim_chan_flushed(sim, &sim->s2mm);
			break;
		case SIM_EV_NONE:
			break;
		}
	}
	sim->st = max(sim->st, t);
}

/**
 * npukit_sim_reset_regs - the registers' reset values
 * @sim: the model, locked or not yet shared
 *
 * The glue banks are block RAM and keep theirs.
 */
void npukit_sim_reset_regs(struct npukit_sim *sim)
{
	sim->glue_len = SIM_GLUE_LEN_RESET;
	sim->glue_param = SIM_GLUE_PARAM_RESET;
	sim->w_shape = SIM_W_SHAPE_RESET;
	sim->tile_kj = 0;
}
