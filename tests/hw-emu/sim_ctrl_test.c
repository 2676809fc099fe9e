// SPDX-License-Identifier: GPL-2.0
/*
 * sim_ctrl_test.c - when a CTRL write acts, as NpuKit's RTL decides it
 * (issue 21, divergences 1 to 3), checked through the npukit_sim.h
 * interface: linked with the C simulator (driver/npukit_sim.c, in CI) and
 * with the co-simulated RTL (make hw-emu), where the expectations were
 * read from. Writes land 200 ns after issue, each 30 ns after the one
 * before at the least; a delay of d ns between two writes' issue is d
 * between their landing. TAP.
 *
 *  1. CLEAR, then START 30 ns later: the START acts in CLEAR's one cycle
 *     and runs.
 *  2. START d ns after CLEAR|START: dropped while the run is not over two
 *     cycles after it lands, taken (accumulating) from then.
 *  3. TX_ARM d ns after CLEAR|START, S2MM armed: C streams when GEMM_DONE
 *     is up two cycles after TX_ARM lands.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hwemu_sim_api.h"

#define STATUS		0x008
#define CTRL		0x00C
#define A_TILE		0x100
#define B_TILE		0x200
#define C_TILE		0x400
#define START		0x1
#define CLEAR		0x2
#define TX_ARM		0x4
#define GEMM_DONE	0x2
#define S2MM_DMACR	0x30
#define S2MM_DMASR	0x34
#define S2MM_DA		0x48
#define S2MM_LENGTH	0x58
#define DMASR_IDLE	0x2
#define RX_BUS		0x10000000u
#define WRITE_NS	30	/* what a write costs the CPU: the next one's earliest issue */

static int32_t rx[64];
static int32_t ab[64];
static unsigned int tests, failed;

static void ok(int good, const char *what)
{
	printf("%sok %u %s\n", good ? "" : "not ", ++tests, what);
	failed += !good;
}

/* A fresh model with A and B loaded through MMIO, S2MM running */
static struct npukit_sim *fresh(void)
{
	struct npukit_sim *s = npukit_sim_create(NULL, 0);
	uint8_t a[64], b[64];

	if (!s || npukit_sim_add_window(s, RX_BUS, rx, sizeof(rx))) {
		printf("Bail out! no model\n");
		return NULL;
	}
	for (int i = 0; i < 64; i++) {
		a[i] = (uint8_t)(i * 3 - 70);
		b[i] = (uint8_t)(i * 7 + 5);
	}
	for (int i = 0; i < 64; i++) {
		int32_t c = 0;

		for (int k = 0; k < 8; k++)
			c += (int8_t)a[8 * (i / 8) + k] * (int8_t)b[8 * k + i % 8];
		ab[i] = c;
	}
	npukit_sim_delay(s, 1000);
	for (int i = 0; i < 64; i += 4) {
		npukit_sim_write(s, NPU, A_TILE + i, a[i] | a[i + 1] << 8 | a[i + 2] << 16 |
				 (uint32_t)a[i + 3] << 24);
		npukit_sim_write(s, NPU, B_TILE + i, b[i] | b[i + 1] << 8 | b[i + 2] << 16 |
				 (uint32_t)b[i + 3] << 24);
	}
	npukit_sim_write(s, DMA, S2MM_DMACR, 1);
	npukit_sim_delay(s, 1000);
	npukit_sim_read(s, NPU, STATUS);
	return s;
}

/* C as a multiple of A*B (0, 1, 2), or -1 */
static int c_factor(struct npukit_sim *s)
{
	int k = -1;

	npukit_sim_delay(s, 2000);
	for (int f = 0; f <= 2 && k < 0; f++) {
		int same = 1;

		for (int i = 0; i < 64; i++)
			same &= (int32_t)npukit_sim_read(s, NPU, C_TILE + 4 * i) == f * ab[i];
		if (same)
			k = f;
	}
	return k;
}

static void gap(struct npukit_sim *s, uint32_t ns)
{
	if (ns > WRITE_NS)
		npukit_sim_delay(s, ns - WRITE_NS);
}

int main(void)
{
	/* the RTL: START accumulates from 270 ns on, TX_ARM streams from 270 ns */
	static const uint32_t start_taken = 270, tx_taken = 270;
	struct npukit_sim *s;
	char what[120];

	printf("TAP version 13\n");
	s = fresh();
	if (!s)
		return 1;
	npukit_sim_write(s, NPU, CTRL, CLEAR);
	npukit_sim_write(s, NPU, CTRL, START);
	ok(c_factor(s) == 1 && (npukit_sim_read(s, NPU, STATUS) & GEMM_DONE),
	   "CLEAR, then START 30 ns later: the START runs (C = A*B, GEMM_DONE)");
	npukit_sim_destroy(s);

	for (uint32_t d = 230; d <= 300; d += 10) {
		int want = d >= start_taken ? 2 : 1, got;

		s = fresh();
		if (!s)
			return 1;
		npukit_sim_write(s, NPU, CTRL, CLEAR | START);
		gap(s, d);
		npukit_sim_write(s, NPU, CTRL, START);
		got = c_factor(s);
		snprintf(what, sizeof(what), "START %u ns after CLEAR|START: C = %d*A*B, as the RTL's %d*A*B",
			 d, got, want);
		ok(got == want, what);
		npukit_sim_destroy(s);
	}

	for (uint32_t d = 230; d <= 300; d += 10) {
		int want = d >= tx_taken, got;

		s = fresh();
		if (!s)
			return 1;
		memset(rx, 0, sizeof(rx));
		npukit_sim_write(s, DMA, S2MM_DA, RX_BUS);
		npukit_sim_write(s, DMA, S2MM_LENGTH, sizeof(rx));
		npukit_sim_delay(s, 500);
		npukit_sim_write(s, NPU, CTRL, CLEAR | START);
		gap(s, d);
		npukit_sim_write(s, NPU, CTRL, TX_ARM);
		npukit_sim_delay(s, 3000);
		got = !!(npukit_sim_read(s, DMA, S2MM_DMASR) & DMASR_IDLE) &&
		      !memcmp(rx, ab, sizeof(rx));
		snprintf(what, sizeof(what), "TX_ARM %u ns after CLEAR|START: C %s, as on the RTL",
			 d, got ? "streams" : "does not stream");
		ok(got == want, what);
		npukit_sim_destroy(s);
	}
	printf("1..%u\n", tests);
	return failed ? 1 : 0;
}
