// SPDX-License-Identifier: GPL-2.0
/*
 * monitor_test.c - the monitor of what the driver relies on
 * (hwemu_monitor.h) catches each sequence it exists to catch, and not the
 * driver's own: register sequences written straight through the
 * co-simulation's bus (npukit_sim_write()/_read(), as the driver's
 * accessors call them) to the NPU behind the pins, RTL or port model. TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwemu.h"

#include "hwemu_sim_api.h"

#define STATUS		0x008
#define CTRL		0x00C
#define LOAD_CFG	0x028
#define A_TILE		0x100
#define C_TILE		0x400
#define START		0x1
#define CLEAR		0x2
#define TX_ARM		0x4
#define GEMM_DONE	0x2
#define MM2S_DMACR	0x00
#define MM2S_SA		0x18
#define MM2S_LENGTH	0x28
#define S2MM_DMACR	0x30
#define S2MM_DA		0x48
#define S2MM_LENGTH	0x58
#define TX_BUS		0x10000000u
#define RX_BUS		0x10001000u

static uint8_t tx[4096];
static int32_t rx[256];
static unsigned int tests, failed;

static struct npukit_sim *fresh(void)
{
	struct npukit_sim *s = npukit_sim_create(NULL, 0);

	if (!s || npukit_sim_add_window(s, TX_BUS, tx, sizeof(tx)) ||
	    npukit_sim_add_window(s, RX_BUS, rx, sizeof(rx))) {
		printf("Bail out! no co-simulation\n");
		exit(1);
	}
	npukit_sim_write(s, DMA, MM2S_DMACR, 1);
	npukit_sim_write(s, DMA, S2MM_DMACR, 1);
	npukit_sim_delay(s, 1000);
	return s;
}

/* The violations @s has seen, then it is gone */
static uint64_t done(struct npukit_sim *s)
{
	struct hwemu_stats st;

	npukit_sim_delay(s, 2000);
	npukit_sim_read(s, NPU, STATUS);
	hwemu_stats(&st);
	npukit_sim_destroy(s);
	return st.violations;
}

static void expect(struct npukit_sim *s, int want, const char *what)
{
	uint64_t v = done(s);
	int good = want ? v > 0 : v == 0;

	printf("%sok %u %s (%llu violations)\n", good ? "" : "not ", ++tests, what,
	       (unsigned long long)v);
	failed += !good;
}

/* A||B from @tx + @off: 128 bytes, then wait for it */
static void load(struct npukit_sim *s, uint32_t off, uint32_t len)
{
	npukit_sim_write(s, DMA, MM2S_SA, TX_BUS + off);
	npukit_sim_write(s, DMA, MM2S_LENGTH, len);
	npukit_sim_delay(s, 3000);
}

int main(void)
{
	struct npukit_sim *s;
	int right = 1;

	for (unsigned int i = 0; i < sizeof(tx); i++)
		tx[i] = (uint8_t)(i * 5 + 1);
	printf("TAP version 13\n");

	/* the driver's own sequence: LOAD_CFG, load, CLEAR|START, S2MM, TX_ARM */
	s = fresh();
	npukit_sim_write(s, NPU, LOAD_CFG, 0);
	npukit_sim_read(s, NPU, STATUS);
	load(s, 0, 128);
	npukit_sim_write(s, NPU, CTRL, START | CLEAR);
	npukit_sim_delay(s, 1000);
	right &= !!(npukit_sim_read(s, NPU, STATUS) & GEMM_DONE);
	npukit_sim_write(s, DMA, S2MM_DA, RX_BUS);
	npukit_sim_write(s, DMA, S2MM_LENGTH, 256);
	npukit_sim_write(s, NPU, CTRL, TX_ARM);
	npukit_sim_delay(s, 3000);
	/* the model moves when the bus is used: S2MM Idle, as the driver polls it */
	right &= !!(npukit_sim_read(s, DMA, S2MM_DMACR + 4) & 0x2);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			int32_t c = 0;

			for (int k = 0; k < 8; k++)
				c += (int8_t)tx[8 * i + k] * (int8_t)tx[64 + 8 * k + j];
			right &= rx[8 * i + j] == c;
		}
	printf("%sok %u the raw protocol computes A*B on the %s\n", right ? "" : "not ",
	       ++tests, hwemu_backend());
	failed += !right;
	expect(s, 0, "the driver's sequence is no violation");

	s = fresh();
	npukit_sim_write(s, NPU, CTRL, CLEAR);
	expect(s, 1, "CLEAR alone");

	s = fresh();
	npukit_sim_write(s, NPU, CTRL, START | CLEAR);
	npukit_sim_delay(s, 60);
	npukit_sim_write(s, NPU, CTRL, START);
	expect(s, 1, "START while the array is busy");

	s = fresh();
	npukit_sim_write(s, NPU, CTRL, TX_ARM);
	expect(s, 1, "TX_ARM without GEMM_DONE");

	s = fresh();
	npukit_sim_write(s, NPU, A_TILE, 0x01020304);
	expect(s, 1, "an MMIO tile write");

	s = fresh();
	npukit_sim_read(s, NPU, C_TILE);
	expect(s, 1, "a C tile read");

	s = fresh();
	npukit_sim_write(s, NPU, LOAD_CFG, 1);
	expect(s, 1, "LOAD_CFG A only");

	s = fresh();
	npukit_sim_write(s, DMA, MM2S_SA, TX_BUS);
	npukit_sim_write(s, DMA, MM2S_LENGTH, 128);
	npukit_sim_delay(s, 300);
	npukit_sim_write(s, NPU, LOAD_CFG, 0);
	expect(s, 1, "LOAD_CFG with a transfer in flight");

	s = fresh();
	load(s, 0, 256);
	expect(s, 1, "two tiles streamed in without a START between them");

	printf("1..%u\n", tests);
	return failed ? 1 : 0;
}
