/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwemu_board.h - the emulated board for the driver's hardware branch
 * (hwemu_board.c): a device-tree node of NpuKit as dts/npukit-zynq.dtsi
 * describes it (reg 0x43c00000 and 0x40400000, 64 KiB each, FCLK_CLK0 at
 * 100 MHz, the PL reset line; optionally the DMA's two interrupts) added
 * to the shim's platform bus, so that npukit.ko's own probe binds it and
 * its register accessors take the readl()/writel() branch, which reach
 * the NPU (the RTL or the port model) and the AXI DMA model through the
 * same bus model a simulated instance has (hwemu_bus.h).
 *
 * What a program sees: plain C types. The driver is loaded and the node
 * opened through driver_user.h as usual; GET_INFO then says
 * NPUKIT_BACKEND_HARDWARE.
 */
#ifndef HWEMU_BOARD_H
#define HWEMU_BOARD_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The node and its faults; all zero is the PYNQ-Z2's stock bitstream
 * (no interrupt wired), with the node's clock and reset line
 * @no_npu_reg, @no_dma_reg: leave reg[0] (NPU) or reg[1] (DMA) out
 * @irq_mm2s, @irq_s2mm: interrupt numbers of "mm2s" and "s2mm" (0: not
 *	wired); the same number for both is one line for both channels
 * @other_irq_user: another PL device requested the lines first: 1 shared
 *	(IRQF_SHARED), 2 exclusively; its handler never claims an interrupt
 * @irq_err: looking the interrupts up fails with it (-EPROBE_DEFER)
 * @no_clock: the node has no "clocks" (FCLK_CLK0 then always runs)
 * @clk_get_err, @clk_enable_err: getting or enabling the clock fails
 * @no_reset: the node has no "resets"
 * @reset_get_err, @reset_assert_err: getting or asserting the line fails
 */
struct hwemu_board_config {
	bool no_npu_reg;
	bool no_dma_reg;
	unsigned int irq_mm2s;
	unsigned int irq_s2mm;
	int other_irq_user;
	int irq_err;
	bool no_clock;
	int clk_get_err;
	int clk_enable_err;
	bool no_reset;
	int reset_get_err;
	int reset_assert_err;
};

/* The kernel's EPROBE_DEFER, which the C library's errno.h does not have */
#define HWEMU_EPROBE_DEFER	517

/* The GIC's numbers of IRQ_F2P[1:0] (SPI 29 and 30) */
#define HWEMU_BOARD_IRQ_MM2S	61
#define HWEMU_BOARD_IRQ_S2MM	62

/*
 * Add the node (one at a time): the probe's result, 0 when npukit.ko
 * bound it, its errno when its probe failed, 1 when no driver is
 * registered yet (it is probed when npukit.ko is loaded)
 */
int hwemu_board_add(const struct hwemu_board_config *c);
/* The node's state now, as hwemu_board_add() returns it */
int hwemu_board_bound(void);
/* Remove the node (unbinding it), then the emulated PL */
void hwemu_board_remove(void);
/*
 * NPUKIT_HWEMU_BOARD: unset, -1; "polled" (or "1") the stock bitstream,
 * "irq" both interrupts on lines of their own, "shared" both on one line
 * another PL device shares: hwemu_board_add() of that node
 */
int hwemu_board_from_env(void);

/*
 * What the board saw
 * @irq_handled, @irq_unhandled, @irq_still_asserted, @irq_calls: the
 *	DMA's lines, summed (shim_irq.h: struct shim_irq_stats)
 * @other_calls: calls of the other PL device's handler
 * @reset_asserts, @reset_deasserts: edges of the PL reset line
 * @clk_enables, @clk_disables: of the fabric clock
 * @clock_on: the fabric clock runs now
 * @reset_asserted: the PL is held in reset now
 */
struct hwemu_board_stats {
	uint64_t irq_handled;
	uint64_t irq_unhandled;
	uint64_t irq_still_asserted;
	uint64_t irq_calls;
	uint64_t other_calls;
	uint64_t reset_asserts;
	uint64_t reset_deasserts;
	uint64_t clk_enables;
	uint64_t clk_disables;
	bool clock_on;
	bool reset_asserted;
};

void hwemu_board_stats(struct hwemu_board_stats *out);

/* What the driver holds of the kernel (shim_platform.h: struct shim_live) */
struct hwemu_board_live {
	long allocs, dma_buffers, mappings, regions, irqs, clocks_on;
	long resets, resets_asserted, devres, nodes;
};

void hwemu_board_live(struct hwemu_board_live *out);
/* Device-managed releases in order, comma-separated ("irq 61,clk off,...") */
const char *hwemu_board_release_log(void);
void hwemu_board_release_log_clear(void);

#endif /* HWEMU_BOARD_H */
