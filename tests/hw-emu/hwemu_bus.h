/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwemu_bus.h - hwemu_sim.c's bus between the Zynq's CPU and the PL, for
 * a board (hwemu_board.c) whose driver reaches it through ioremap'd
 * addresses rather than as a simulated instance's backend.
 *
 * The bus instance is the same struct npukit_sim, with the same calls
 * for what the two share (npukit_sim_read(), npukit_sim_write(),
 * npukit_sim_now(), npukit_sim_delay(), npukit_sim_destroy()); these are
 * what a board needs beyond them: the barrier that mb() is, the PL reset
 * line held rather than pulsed, the DMA's interrupt pins, and DMA memory
 * by bus address. Plain C types.
 */
#ifndef HWEMU_BUS_H
#define HWEMU_BUS_H

#include <stdbool.h>
#include <stdint.h>

struct npukit_sim;

/*
 * A bus with its NPU and DMA, power-on state, whose DMA reaches every DMA
 * buffer allocated from now on by its bus address (shim_dma.h); NULL on
 * ENOMEM
 */
struct npukit_sim *hwemu_bus_create(void);
/*
 * mb() after a read of the NPU (npukit_npu_read_wait()): the CPU issues
 * nothing until every NPU write issued before has reached the NPU and the
 * read's response is back, as npukit_sim_read_wait() models it
 */
void hwemu_bus_barrier(struct npukit_sim *bus);
/* Model every cycle before the CPU's present, so the pins are the present's */
void hwemu_bus_sync(struct npukit_sim *bus);
/*
 * The PL reset line (FCLK_RESET0_N through the SLCR): asserted, the NPU's
 * rst_n is low and the DMA in reset, writes in flight lost; deasserted,
 * both start from their power-on state
 */
void hwemu_bus_reset(struct npukit_sim *bus, bool asserted);
/* The DMA's interrupt pin of one channel (0 mm2s_introut, 1 s2mm_introut) */
bool hwemu_bus_introut(struct npukit_sim *bus, int chan);

#endif /* HWEMU_BUS_H */
