// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_sim_dma.c - the simulated NpuKit's AXI DMA (PG021, direct register
 * mode): two channels, their registers, beats, errors and windows
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/atomic.h>
#include <linux/dma-mapping.h>
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "npukit_regs.h"
#include "npukit_sim_priv.h"

/**
 * npukit_sim_window - where a DMA transfer lands, in a window
 * @sim: the model, locked
 * @addr: bus address
 * @len: bytes
 *
 * Return: the CPU address of @addr, or NULL when [@addr, @addr + @len) is
 * not inside one window (the DMA fails it with DMADecErr).
 */
u8 *npukit_sim_window(struct npukit_sim *sim, u32 addr, u32 len)
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
	ch->buf = npukit_sim_window(sim, ch->addr, ch->length);
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

/**
 * npukit_sim_dma_reset - a soft reset of the AXI DMA
 * @sim: the model, locked
 *
 * A reset of either channel resets the whole AXI DMA (PG021): both
 * channels halt, and DMACR.Reset reads 1 for %SIM_DMA_RESET_NS.
 */
void npukit_sim_dma_reset(struct npukit_sim *sim)
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

/**
 * npukit_sim_dma_write - a write lands on the AXI DMA's register block
 * @sim: the model, locked
 * @off: register offset
 * @val: value
 */
void npukit_sim_dma_write(struct npukit_sim *sim, u32 off, u32 val)
{
	struct sim_chan *ch = off < NPUKIT_S2MM_DMACR ? &sim->mm2s : &sim->s2mm;
	/* the S2MM registers mirror the MM2S ones 0x30 higher */
	u32 reg = off < NPUKIT_S2MM_DMACR ? off : off - NPUKIT_S2MM_DMACR;

	if (sim->st < ch->reset_until)
		return;
	switch (reg) {
	case NPUKIT_MM2S_DMACR:
		if (val & NPUKIT_DMACR_RESET) {
			npukit_sim_dma_reset(sim);
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

/**
 * npukit_sim_dma_read - the AXI DMA's register block answers a read
 * @sim: the model, locked, advanced to the time the read samples
 * @off: register offset
 *
 * Return: the register value.
 */
u32 npukit_sim_dma_read(struct npukit_sim *sim, u32 off)
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

/**
 * npukit_sim_mm2s_beat - the MM2S moves one beat into the NPU
 * @sim: the model, locked
 */
void npukit_sim_mm2s_beat(struct npukit_sim *sim)
{
	struct sim_chan *ch = &sim->mm2s;

	npukit_sim_stream_in(sim, sim_le32(ch->buf + ch->done));
	ch->done += 4;
	ch->next_beat = sim->st + SIM_CYCLE_NS;
	if (ch->done >= ch->length) {
		/* Idle (and IOC) only once the status reaches DMASR */
		ch->flushing = true;
		ch->next_beat = sim->st +
			sim_knob_ns(&sim->timing.idle_lag, SIM_IDLE_LAG_MAX);
	}
}

/**
 * npukit_sim_s2mm_beat - the S2MM takes one beat of the C stream
 * @sim: the model, locked
 */
void npukit_sim_s2mm_beat(struct npukit_sim *sim)
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

/**
 * npukit_sim_chan_flushed - a channel's last beat is through
 * @sim: the model, locked
 * @ch: the channel
 *
 * Its transfer completes: Idle and IOC_Irq rise.
 */
void npukit_sim_chan_flushed(struct npukit_sim *sim, struct sim_chan *ch)
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

/**
 * npukit_sim_chan_irq - a channel's share of the DMA's interrupt output
 * @ch: the channel
 *
 * Return: (IOC_Irq and IOC_IrqEn) or (Err_Irq and Err_IrqEn).
 */
bool npukit_sim_chan_irq(const struct sim_chan *ch)
{
	return ((ch->dmasr & NPUKIT_DMASR_IOC_IRQ) &&
		(ch->dmacr & NPUKIT_DMACR_IOC_IRQ_EN)) ||
	       ((ch->dmasr & NPUKIT_DMASR_ERR_IRQ) &&
		(ch->dmacr & NPUKIT_DMACR_ERR_IRQ_EN));
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
