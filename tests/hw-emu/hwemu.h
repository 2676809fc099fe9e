/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwemu.h - what a program sees of the co-simulation backend
 * (hwemu_sim.c) beyond the npukit_sim.h interface the driver calls: its
 * knobs and what it measured. Plain C types.
 *
 * Knobs, in 10 ns cycles unless said otherwise (tests/hw-emu/README.md):
 *   idle_lag, idle_early, first_beat, mm2s_gap (%), s2mm_stall (%),
 *   error_beat, error_chan   the DMA model's (axi_dma.h)
 *   overtake   a write to the DMA lands up to this much sooner than an
 *              earlier one to the NPU (the two slaves' paths differ)
 *   late       writes to the NPU land this much later, which can be later
 *              than a read issued after them returns
 *   no_reset_line  1: the driver has no PL reset to recover with, so a C
 *              stream cut short by an error leaves the NPU stuck and the
 *              device failed until it is bound again (a new instance,
 *              as after reloading the bitstream)
 *   dma_error  inject: the next N transfers fail mid-transfer (DMASlvErr)
 * They are also read at creation from the environment, NPUKIT_HWEMU=
 * "name=value,name=value", and override the driver's timing parameters.
 */
#ifndef HWEMU_H
#define HWEMU_H

#include <stdint.h>

struct hwemu_stats {
	uint64_t cycles;	/* cycles of board time modelled */
	uint64_t clocked;	/* of which the NPU was clocked (the rest idle) */
	uint64_t busy_cycles;	/* with BUSY up */
	uint64_t runs;		/* GEMM_DONE rising edges */
	uint64_t run_cycles;	/* BUSY rising to GEMM_DONE, summed over runs */
	uint64_t dma_bytes;
	uint64_t dropped;	/* DMA LENGTH writes the DMA ignored */
	uint64_t injected;	/* injected DMA errors that struck (dma_error) */
	uint64_t reads, writes;
	uint64_t violations;	/* of what the driver relies on (hwemu_monitor.h) */
};

/* Set a knob on every instance and for those created later: 0 or -1 (no such knob) */
int hwemu_knob_set(const char *name, uint64_t val);
/* Sum over the instances */
void hwemu_stats(struct hwemu_stats *out);
/* What stands behind the pins: "rtl" or "port model" */
const char *hwemu_backend(void);

#endif /* HWEMU_H */
