/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwemu_monitor.h - what the driver relies on, checked on the pins while
 * it runs (Documentation/npukit/hardware.rst, "Where the simulator and the
 * RTL differ"). The C simulator and NpuKit's RTL disagree on some register
 * sequences (issue 21); the driver is correct on both only because it
 * never issues them. The monitor watches every NPU access and stream beat
 * and records a violation when one of these no longer holds:
 *
 *  1. The NPU is written only at CTRL and LOAD_CFG; CTRL only with START,
 *     START|CLEAR or TX_ARM; LOAD_CFG only with 0 (A||B). Nothing else:
 *     no MMIO tile writes, no CLEAR alone, no ping-pong or weight bank, no
 *     glue, so register widths, reset values and tile write timing never
 *     matter.
 *  2. A START lands while the array is idle, and the sequencer takes it
 *     (BUSY is up three cycles later): it is never dropped, on either.
 *  3. TX_ARM lands with GEMM_DONE already set, and the sender starts.
 *  4. LOAD_CFG lands with no MM2S transfer in flight and no stream beat
 *     within the two cycles it takes to act.
 *  5. The NPU is read only at ID, VERSION, STATUS, N and FEATURES (never
 *     the C tile, whose update runs a cycle ahead of GEMM_DONE on the RTL).
 *  6. At most one A||B tile (32 beats) streams in between two STARTs taken
 *     (or a LOAD_CFG): the next tile never starts before the START that
 *     multiplies the previous one has been taken (hardware.rst 8.1, the
 *     ordering argument of npukit_hw.c).
 *  7. The DMA reaches only memory the CPU handed to it (shim_dma.h): an
 *     MM2S transfer reads lines cleaned TO_DEVICE or BIDIRECTIONAL, an
 *     S2MM transfer writes lines handed over FROM_DEVICE or BIDIRECTIONAL
 *     and not taken back by dma_sync_single_for_cpu() since; and it takes
 *     every transfer the driver starts: a LENGTH write the DMA ignores
 *     (the channel halted, stopped or still busy) is a violation unless
 *     the channel is halted by an error the driver has yet to read.
 */
#ifndef HWEMU_MONITOR_H
#define HWEMU_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "axi_dma.h"
#include "hwemu_port.h"

struct hwemu_monitor {
	uint64_t violations;
	char first[200];	/* the first one, in words */
	uint64_t start_check;	/* cycle at which BUSY must be up (0: none) */
	uint64_t tx_check;	/* cycle at which the sender must stream */
	uint64_t load_cfg_until;	/* no beat up to this cycle */
	bool load_cfg_pending;
	uint32_t beats;		/* stream beats since the last START taken */
};

/* An NPU write taken at @cycle; @p as settled before the edge */
void hwemu_monitor_write(struct hwemu_monitor *m, uint64_t cycle, uint32_t off,
			 uint32_t val, const struct hwemu_pins *p, const struct axi_dma *d);
/* An NPU read taken at @cycle */
void hwemu_monitor_read(struct hwemu_monitor *m, uint64_t cycle, uint32_t off);
/* Every clocked cycle, @p as settled before the edge */
void hwemu_monitor_cycle(struct hwemu_monitor *m, uint64_t cycle, const struct hwemu_pins *p);
/* The DMA at @cycle: a transfer on memory not handed to it, or one dropped: @why */
void hwemu_monitor_dma(struct hwemu_monitor *m, uint64_t cycle, const char *why);
/* A PL reset: nothing pending */
void hwemu_monitor_reset(struct hwemu_monitor *m);

#endif /* HWEMU_MONITOR_H */
