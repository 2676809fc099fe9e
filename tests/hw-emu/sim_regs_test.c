// SPDX-License-Identifier: GPL-2.0
/*
 * sim_regs_test.c - the NPU's registers as NpuKit's RTL keeps them (issue
 * 21, divergence 7), checked through the npukit_sim.h interface: linked
 * with the C simulator (driver/npukit_sim.c, in CI) and with the
 * co-simulated RTL (make hw-emu), which is where the expectations were
 * read from. Widths, the glue banks (16 words each, aliased over their
 * 256 bytes; OUT is not the host's to write), and what a PL reset
 * restores. TAP.
 */
#include <stdint.h>
#include <stdio.h>

#include "hwemu_sim_api.h"

#define GLUE_LEN	0x01C
#define GLUE_PARAM	0x020
#define LOAD_CFG	0x028
#define W_SHAPE		0x02C
#define TILE_KJ		0x030

static unsigned int tests, failed;

static void check(uint32_t got, uint32_t want, const char *what)
{
	int good = got == want;

	printf("%sok %u %s: %#x%s\n", good ? "" : "not ", ++tests, what, got,
	       good ? "" : " (the RTL reads something else)");
	failed += !good;
}

static uint32_t rd(struct npukit_sim *s, uint32_t off)
{
	return npukit_sim_read(s, NPU, off);
}

static void wr(struct npukit_sim *s, uint32_t off, uint32_t val)
{
	npukit_sim_write(s, NPU, off, val);
	npukit_sim_delay(s, 60);
}

int main(void)
{
	static const struct { uint32_t off, reset, all_ones; const char *name; } regs[] = {
		{ GLUE_LEN, 0x10, 0xff, "GLUE_LEN" },
		{ GLUE_PARAM, 0x1, 0xffffffff, "GLUE_PARAM" },
		{ LOAD_CFG, 0, 0x3, "LOAD_CFG" },
		{ W_SHAPE, 0x80008, 0xffffffff, "W_SHAPE" },
		{ TILE_KJ, 0, 0xffff, "TILE_KJ" },
	};
	struct npukit_sim *s = npukit_sim_create(NULL, 0);
	char what[80];

	if (!s) {
		printf("Bail out! no model\n");
		return 1;
	}
	printf("TAP version 13\n");
	npukit_sim_delay(s, 1000);
	for (unsigned int i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		snprintf(what, sizeof(what), "%s at power-on", regs[i].name);
		check(rd(s, regs[i].off), regs[i].reset, what);
	}
	for (unsigned int i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		wr(s, regs[i].off, 0xffffffff);
	for (uint32_t a = 0x500; a < 0x900; a += 4)
		wr(s, a, 0x1000 + a);
	npukit_sim_delay(s, 1000);
	for (unsigned int i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		snprintf(what, sizeof(what), "%s written with all ones", regs[i].name);
		check(rd(s, regs[i].off), regs[i].all_ones, what);
	}
	/* each bank word is addr[5:2]: the last of its four aliases wins */
	check(rd(s, 0x500), 0x15c0, "glue X word 0 (0x500): its last alias, 0x5c0");
	check(rd(s, 0x53c), 0x15fc, "glue X word 15 through its alias 0x53c");
	check(rd(s, 0x604), 0x16c4, "glue Y word 1");
	check(rd(s, 0x700), 0, "glue OUT: host writes do not land");
	check(rd(s, 0x8fc), 0x18fc, "glue GAMMA word 15");
	npukit_sim_pl_reset(s);
	npukit_sim_delay(s, 1000);
	for (unsigned int i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		snprintf(what, sizeof(what), "%s after a PL reset", regs[i].name);
		check(rd(s, regs[i].off), regs[i].reset, what);
	}
	check(rd(s, 0x500), 0x15c0, "glue X after a PL reset: block RAM keeps it");
	npukit_sim_destroy(s);
	printf("1..%u\n", tests);
	return failed ? 1 : 0;
}
