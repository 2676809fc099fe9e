// SPDX-License-Identifier: GPL-2.0
/*
 * hwemu_monitor.c - the driver's reliance, checked on the pins
 * (hwemu_monitor.h). With NPUKIT_HWEMU_STRICT set in the environment the
 * first violation aborts the program, so that no suite can pass over one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "npukit_regs.h"
#include "hwemu_monitor.h"

/* The NPU's registered write path: a request acts at the edge two cycles
 * after its write is taken, and shows on the pins the cycle after that. */
#define MON_ACT		2
#define MON_TILE_BEATS	32	/* A||B: 128 bytes */

static void violation(struct hwemu_monitor *m, uint64_t cycle, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (!m->violations++) {
		len = snprintf(m->first, sizeof(m->first), "cycle %llu: ",
			       (unsigned long long)cycle);
		va_start(ap, fmt);
		vsnprintf(m->first + len, sizeof(m->first) - len, fmt, ap);
		va_end(ap);
	}
	if (getenv("NPUKIT_HWEMU_STRICT")) {
		fprintf(stderr, "hw-emu: the driver did what it must not (hwemu_monitor.h): %s\n",
			m->first);
		abort();
	}
}

void hwemu_monitor_write(struct hwemu_monitor *m, uint64_t cycle, uint32_t off,
			 uint32_t val, const struct hwemu_pins *p, const struct axi_dma *d)
{
	off &= NPUKIT_DECODE_MASK;
	if (off == NPUKIT_CTRL) {
		if (val == NPUKIT_CTRL_TX_ARM) {
			if (!p->done)
				violation(m, cycle, "TX_ARM landed without GEMM_DONE");
			m->tx_check = cycle + MON_ACT + 1;
			return;
		}
		if (val != NPUKIT_CTRL_START && val != (NPUKIT_CTRL_START | NPUKIT_CTRL_CLEAR)) {
			violation(m, cycle, "CTRL written with %#x", val);
			return;
		}
		if (p->busy || m->start_check > cycle)
			violation(m, cycle, "START landed while the array was busy");
		m->start_check = cycle + MON_ACT + 1;
		return;
	}
	if (off == NPUKIT_LOAD_CFG) {
		if (val != NPUKIT_LOAD_AB)
			violation(m, cycle, "LOAD_CFG written with %#x", val);
		if (d->mm2s.nq)
			violation(m, cycle, "LOAD_CFG landed with an MM2S transfer in flight");
		m->load_cfg_until = cycle + MON_ACT;
		m->load_cfg_pending = true;
		return;
	}
	violation(m, cycle, "NPU register %#x written", off);
}

void hwemu_monitor_read(struct hwemu_monitor *m, uint64_t cycle, uint32_t off)
{
	off &= NPUKIT_DECODE_MASK;
	if (off != NPUKIT_ID && off != NPUKIT_VERSION && off != NPUKIT_STATUS &&
	    off != NPUKIT_N && off != NPUKIT_FEATURES)
		violation(m, cycle, "NPU register %#x read", off);
}

void hwemu_monitor_cycle(struct hwemu_monitor *m, uint64_t cycle, const struct hwemu_pins *p)
{
	if (m->start_check && m->start_check == cycle) {
		if (!p->busy)
			violation(m, cycle, "the NPU dropped a START (BUSY not up)");
		m->beats = 0;
	}
	if (m->tx_check && m->tx_check == cycle && !p->m_tvalid)
		violation(m, cycle, "the NPU dropped TX_ARM (no C stream)");
	if (p->s_tvalid && p->s_tready) {
		if (m->load_cfg_pending)
			violation(m, cycle, "a stream beat within two cycles of LOAD_CFG");
		if (++m->beats > MON_TILE_BEATS)
			violation(m, cycle, "a second tile streamed in before the START using the first was taken");
	}
	if (m->load_cfg_pending && cycle >= m->load_cfg_until) {
		m->load_cfg_pending = false;
		m->beats = 0;
	}
}

void hwemu_monitor_reset(struct hwemu_monitor *m)
{
	m->start_check = 0;
	m->tx_check = 0;
	m->load_cfg_pending = false;
	m->beats = 0;
}

void hwemu_monitor_dma(struct hwemu_monitor *m, uint64_t cycle, const char *why)
{
	violation(m, cycle, "%s", why);
}
