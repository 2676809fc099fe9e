// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_sim_cpu.c - the simulated board's CPU share: what the driver's own
 * code, system calls, copies and cache maintenance cost on the A9
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "npukit_regs.h"
#include "npukit_sim_priv.h"

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
 * npukit_sim_cpu_init - the CPU cost model's defaults (%SIM_CPU_*_PS)
 * @sim: the model, not yet shared
 */
void npukit_sim_cpu_init(struct npukit_sim *sim)
{
	memcpy(sim->cpu_ps, sim_cpu_default_ps, sizeof(sim->cpu_ps));
}
