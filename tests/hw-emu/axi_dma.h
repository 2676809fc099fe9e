/* SPDX-License-Identifier: GPL-2.0 */
/*
 * axi_dma.h - a model of the AXI DMA v7.1 in direct register mode (Xilinx
 * PG021), as NpuKit's block design instantiates it (hardware.rst 1 and 5):
 * no scatter-gather, no DRE, 32-bit memory and stream, a 14-bit LENGTH.
 * Cycle-stepped: it drives the stream pins of struct hwemu_pins and takes
 * their handshakes, so it streams between memory and whatever NPU stands
 * behind them (the RTL or the port model).
 *
 * Registers: DMACR (RS, Reset, IOC_IrqEn, Err_IrqEn), DMASR (Halted,
 * Idle, DMAIntErr, DMASlvErr, DMADecErr, IOC_Irq and Err_Irq, write one to
 * clear), SA/DA, LENGTH (writing it starts a transfer). A reset of either
 * channel resets both and reads back set for a few cycles. The interrupt
 * outputs are computed (axi_dma_irq(), axi_dma_introut()); NpuKit's
 * board does not wire them, a bitstream may (hwemu_board.c).
 *
 * Adversarial knobs (struct axi_dma_knobs), all the driver must survive:
 * Idle lagging the last beat, Idle raised while beats are still on their
 * way to the NPU, the first beat's latency, gaps in the MM2S stream and
 * back-pressure on the S2MM stream, and errors injected mid-transfer.
 */
#ifndef AXI_DMA_H
#define AXI_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwemu_port.h"

#define AXI_DMA_WINDOWS 4

/**
 * struct axi_dma_knobs - timing and faults, in 10 ns cycles
 * @idle_lag: MM2S: cycles from the last beat to Idle
 * @idle_early: MM2S: Idle (and IOC) rise while this many beats of the
 *	transfer have still to reach the NPU (0: after the last, @idle_lag)
 * @first_beat: MM2S: LENGTH landing to the first beat (the DDR read)
 * @s2mm_setup: S2MM: LENGTH landing to taking beats
 * @s2mm_flush: S2MM: TLAST to the data in memory and Idle
 * @mm2s_gap: MM2S: percent of cycles without a beat on offer
 * @s2mm_stall: S2MM: percent of cycles with TREADY low
 * @error_beat: an injected error strikes after this many beats
 * @error_chan: 0 either channel, 1 MM2S only, 2 S2MM only
 * @reset_cycles: DMACR.Reset reads back set this long
 */
struct axi_dma_knobs {
	uint32_t idle_lag;
	uint32_t idle_early;
	uint32_t first_beat;
	uint32_t s2mm_setup;
	uint32_t s2mm_flush;
	uint32_t mm2s_gap;
	uint32_t s2mm_stall;
	uint32_t error_beat;
	uint32_t error_chan;
	uint32_t reset_cycles;
};

/* Realistic values (the C simulator's defaults, npukit_sim_priv.h) */
#define AXI_DMA_KNOBS_DEFAULT {				\
	.idle_lag = 4, .idle_early = 0, .first_beat = 20,	\
	.s2mm_setup = 3, .s2mm_flush = 10, .mm2s_gap = 0,	\
	.s2mm_stall = 0, .error_beat = 8, .error_chan = 0,	\
	.reset_cycles = 10,					\
}

struct axi_dma_window {
	uint32_t addr;
	uint8_t *cpu;
	size_t size;
};

/* One transfer in a channel's datamover */
struct axi_dma_xfer {
	uint8_t *buf;
	uint32_t addr;
	uint32_t len;
	uint32_t done;		/* bytes through the stream */
	uint32_t fail_at;	/* bytes after which an injected error strikes */
	bool fail;
	uint64_t start;		/* first cycle it may move a beat */
};

struct axi_dma_chan {
	uint32_t dmacr, dmasr, addr, length;
	struct axi_dma_xfer q[2];	/* [0] streaming, [1] queued behind it */
	unsigned int nq;
	bool flushing;		/* last beat through, Idle at @idle_at */
	uint64_t idle_at;
	uint64_t bytes;		/* moved, all transfers */
	uint64_t dropped;	/* LENGTH writes ignored */
};

struct axi_dma {
	struct axi_dma_knobs k;
	struct axi_dma_chan mm2s, s2mm;
	struct axi_dma_window win[AXI_DMA_WINDOWS];
	unsigned int nwin;
	uint64_t cycle;		/* the cycle being driven */
	uint64_t reset_until;
	uint32_t errors;	/* transfers still to fail */
	uint64_t injected;	/* injected errors that struck */
	uint64_t rng;
	bool s_offer, m_take;	/* what axi_dma_drive() drove this cycle */
	/*
	 * The CPU's cache in front of the windows' memory (hwemu_sim.c), or
	 * NULL: told as a transfer starts (@done false) and as an S2MM
	 * transfer has written its @len bytes (@done true)
	 */
	void (*mem_access)(void *ctx, uint32_t addr, uint32_t len, bool write, bool done);
	void *mem_ctx;
	/*
	 * Memory outside the windows, or NULL: a board's DMA reaches the DMA
	 * buffers by bus address (hwemu_board.c); NULL where there are none
	 */
	uint8_t *(*mem_find)(uint32_t addr, uint32_t len);
};

/* Power-on state (both channels Halted) with @knobs */
void axi_dma_init(struct axi_dma *d, const struct axi_dma_knobs *knobs);
/* Memory the DMA can reach: 0, or -1 when all windows are used */
int axi_dma_add_window(struct axi_dma *d, uint32_t addr, void *cpu, size_t size);
/* A register write landing at cycle @d->cycle; @off within the block */
void axi_dma_write(struct axi_dma *d, uint32_t off, uint32_t val);
uint32_t axi_dma_read(const struct axi_dma *d, uint32_t off);
/* The next @n transfers fail with DMASlvErr mid-transfer */
void axi_dma_inject(struct axi_dma *d, uint32_t n);
/* Before the edge of cycle @cycle: the stream pins the DMA drives */
void axi_dma_drive(struct axi_dma *d, uint64_t cycle, struct hwemu_pins *p);
/* At the edge: the handshakes of that cycle (outputs as settled) */
void axi_dma_clock(struct axi_dma *d, const struct hwemu_pins *p);
/* The interrupt output: (IOC_Irq and IOC_IrqEn) or (Err_Irq and Err_IrqEn) */
bool axi_dma_irq(const struct axi_dma *d);
/* The same of one channel: its own pin, mm2s_introut (@s2mm false) or s2mm_introut */
bool axi_dma_introut(const struct axi_dma *d, bool s2mm);
/* Nothing in flight and nothing due: cycles can be skipped */
bool axi_dma_quiet(const struct axi_dma *d);
/* A PL reset: the power-on state, windows and knobs kept */
void axi_dma_pl_reset(struct axi_dma *d);

#endif /* AXI_DMA_H */
