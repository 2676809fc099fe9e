// SPDX-License-Identifier: GPL-2.0
/*
 * npu_rtl.cpp - NpuKit's own RTL behind the pins of hwemu_port.h: the
 * top-level npukit_axil of the checkout named by NPUKIT_RTL, built by
 * Verilator (mk/43-hw-emu.mk). Nothing of the RTL is in this project; this
 * file only moves the pins in and out of the Verilated model and toggles
 * its clock.
 */
#include <new>

#include "Vnpukit_axil.h"
#include "verilated.h"

extern "C" {
#include "hwemu_port.h"
}

struct hwemu_npu {
	VerilatedContext ctx;
	Vnpukit_axil *top;
};

static void inputs(Vnpukit_axil *t, const struct hwemu_pins *p)
{
	t->rst_n = p->rst_n;
	t->s_axi_awaddr = p->awaddr;
	t->s_axi_awvalid = p->awvalid;
	t->s_axi_wdata = p->wdata;
	t->s_axi_wstrb = p->wstrb;
	t->s_axi_wvalid = p->wvalid;
	t->s_axi_bready = p->bready;
	t->s_axi_araddr = p->araddr;
	t->s_axi_arvalid = p->arvalid;
	t->s_axi_rready = p->rready;
	t->s_axis_tdata = p->s_tdata;
	t->s_axis_tvalid = p->s_tvalid;
	t->s_axis_tlast = p->s_tlast;
	t->m_axis_tready = p->m_tready;
}

static void outputs(const Vnpukit_axil *t, struct hwemu_pins *p)
{
	p->awready = t->s_axi_awready;
	p->wready = t->s_axi_wready;
	p->bvalid = t->s_axi_bvalid;
	p->arready = t->s_axi_arready;
	p->rvalid = t->s_axi_rvalid;
	p->rdata = t->s_axi_rdata;
	p->s_tready = t->s_axis_tready;
	p->m_tdata = t->m_axis_tdata;
	p->m_tvalid = t->m_axis_tvalid;
	p->m_tlast = t->m_axis_tlast;
	p->busy = t->busy;
	p->done = t->done;
}

struct hwemu_npu *hwemu_npu_create(void)
{
	struct hwemu_npu *n = new (std::nothrow) hwemu_npu;

	if (!n)
		return nullptr;
	n->top = new (std::nothrow) Vnpukit_axil(&n->ctx, "npukit");
	if (!n->top) {
		delete n;
		return nullptr;
	}
	n->top->clk = 0;
	n->top->rst_n = 0;
	n->top->eval();
	return n;
}

void hwemu_npu_destroy(struct hwemu_npu *npu)
{
	if (!npu)
		return;
	npu->top->final();
	delete npu->top;
	delete npu;
}

const char *hwemu_npu_name(void)
{
	return "rtl";
}

void hwemu_npu_settle(struct hwemu_npu *npu, struct hwemu_pins *p)
{
	inputs(npu->top, p);
	npu->top->clk = 0;
	npu->top->eval();
	outputs(npu->top, p);
}

void hwemu_npu_clock(struct hwemu_npu *npu, struct hwemu_pins *p)
{
	inputs(npu->top, p);
	npu->top->clk = 1;
	npu->top->eval();
	npu->top->clk = 0;
	npu->top->eval();
}
