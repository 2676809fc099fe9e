/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwemu_port.h - the NPU as the bus sees it: the pins of NpuKit's
 * top-level AXI4-Lite slave and its two AXI4-Stream ports, one clock
 * cycle at a time (tests/hw-emu/README.md).
 *
 * Two implementations link behind it: npu_rtl.cpp, NpuKit's own RTL
 * (rtl/npukit_axil.sv of a checkout the user names) built by Verilator,
 * and npu_portmodel.c, the project's cycle-level C model of the same
 * pins, which lets CI test everything in front of them without the RTL.
 *
 * A cycle is: the bus side sets the inputs, hwemu_npu_settle() computes
 * the outputs the NPU drives before the clock edge (its ready signals
 * depend on its inputs), the bus side reads them and so knows which
 * handshakes take place, then hwemu_npu_clock() is the rising edge.
 */
#ifndef HWEMU_PORT_H
#define HWEMU_PORT_H

#include <stdbool.h>
#include <stdint.h>

struct hwemu_pins {
	/* inputs: reset (active low) */
	bool rst_n;
	/* inputs: AXI4-Lite write address, data, response */
	uint16_t awaddr;
	bool awvalid;
	uint32_t wdata;
	uint8_t wstrb;
	bool wvalid;
	bool bready;
	/* inputs: AXI4-Lite read */
	uint16_t araddr;
	bool arvalid;
	bool rready;
	/* inputs: MM2S -> NPU stream, and the NPU -> S2MM stream's ready */
	uint32_t s_tdata;
	bool s_tvalid;
	bool s_tlast;
	bool m_tready;

	/* outputs */
	bool awready, wready, bvalid;
	bool arready, rvalid;
	uint32_t rdata;
	bool s_tready;
	uint32_t m_tdata;
	bool m_tvalid, m_tlast;
	bool busy, done;
};

struct hwemu_npu;

/* A new NPU, its pins all low (in reset until rst_n is raised); NULL on ENOMEM */
struct hwemu_npu *hwemu_npu_create(void);
void hwemu_npu_destroy(struct hwemu_npu *npu);
/* Outputs for the current inputs, before the clock edge */
void hwemu_npu_settle(struct hwemu_npu *npu, struct hwemu_pins *p);
/* One rising edge of the clock with the current inputs */
void hwemu_npu_clock(struct hwemu_npu *npu, struct hwemu_pins *p);
/* What stands behind the pins, for reports: "rtl" or "port model" */
const char *hwemu_npu_name(void);

#endif /* HWEMU_PORT_H */
