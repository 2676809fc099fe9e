// SPDX-License-Identifier: GPL-2.0
/*
 * dma_test.c - the AXI DMA model (axi_dma.h) on its own: its registers as
 * PG021 describes them and its stream pins against a test bench that
 * stands for the NPU (a sink that takes MM2S beats when it is ready, a
 * source of C words with TLAST on the 64th), cycle by cycle. TAP.
 */
#include <stdio.h>
#include <string.h>

#define BIT(n) (1UL << (n))
#include "axi_dma.h"
#include "pg021.h"

/* From PG021 / hardware.rst 5: spelled out here, not taken from the model */
/* The registers as PG021 gives them, not as the driver's header does */
#define MM2S_DMACR	PG021_MM2S_DMACR
#define MM2S_DMASR	PG021_MM2S_DMASR
#define MM2S_SA		PG021_MM2S_SA
#define MM2S_LENGTH	PG021_MM2S_LENGTH
#define S2MM_DMACR	PG021_S2MM_DMACR
#define S2MM_DMASR	PG021_S2MM_DMASR
#define S2MM_DA		PG021_S2MM_DA
#define S2MM_LENGTH	PG021_S2MM_LENGTH
#define CR_RS		PG021_DMACR_RS
#define CR_RESET	PG021_DMACR_RESET
#define CR_IOC_EN	PG021_DMACR_IOC_IRQEN
#define CR_ERR_EN	PG021_DMACR_ERR_IRQEN
#define SR_HALTED	PG021_DMASR_HALTED
#define SR_IDLE		PG021_DMASR_IDLE
#define SR_INT_ERR	PG021_DMASR_DMAINTERR
#define SR_SLV_ERR	PG021_DMASR_DMASLVERR
#define SR_DEC_ERR	PG021_DMASR_DMADECERR
#define SR_IOC		PG021_DMASR_IOC_IRQ
#define SR_ERR		PG021_DMASR_ERR_IRQ

#define TX_BUS	0x10000000u
#define RX_BUS	0x20000000u

static unsigned int tests, failed;
static uint8_t tx[4096], rx[4096];

static void ok(int cond, const char *what)
{
	printf("%sok %u %s\n", cond ? "" : "not ", ++tests, what);
	failed += !cond;
}

static void ok_reg(int cond, const char *what, unsigned long driver, unsigned long pg021)
{
	printf("%sok %u the driver's %s is PG021's (%#lx, PG021 %#lx)\n", cond ? "" : "not ",
	       ++tests, what, driver, pg021);
	failed += !cond;
}

/* The bench: what the NPU side does with the pins */
struct bench {
	struct axi_dma d;
	struct hwemu_pins p;
	uint64_t cycle;
	bool sink_ready;	/* takes MM2S beats */
	uint32_t got[1024];	/* MM2S words received */
	unsigned int ngot;
	uint64_t last_beat;	/* cycle of the last MM2S beat */
	uint64_t first_beat;
	unsigned int src_left;	/* C words the source still has to send */
	unsigned int src_words;
};

static void setup(struct bench *b, const struct axi_dma_knobs *k)
{
	memset(b, 0, sizeof(*b));
	axi_dma_init(&b->d, k);
	axi_dma_add_window(&b->d, TX_BUS, tx, sizeof(tx));
	axi_dma_add_window(&b->d, RX_BUS, rx, sizeof(rx));
	b->sink_ready = true;
	b->first_beat = UINT64_MAX;
}

static void wr(struct bench *b, uint32_t off, uint32_t val)
{
	b->d.cycle = b->cycle;
	axi_dma_write(&b->d, off, val);
}

static uint32_t rd(struct bench *b, uint32_t off)
{
	b->d.cycle = b->cycle;
	return axi_dma_read(&b->d, off);
}

static void step(struct bench *b, unsigned int n)
{
	while (n--) {
		axi_dma_drive(&b->d, b->cycle, &b->p);
		b->p.s_tready = b->sink_ready;
		b->p.m_tvalid = b->src_left > 0;
		b->p.m_tdata = 0xc0de0000u + (b->src_words - b->src_left);
		b->p.m_tlast = b->src_left == 1;
		if (b->p.s_tvalid && b->p.s_tready) {
			if (b->ngot < 1024)
				b->got[b->ngot++] = b->p.s_tdata;
			if (b->first_beat == UINT64_MAX)
				b->first_beat = b->cycle;
			b->last_beat = b->cycle;
		}
		axi_dma_clock(&b->d, &b->p);
		if (b->p.m_tvalid && b->p.m_tready)
			b->src_left--;
		b->cycle++;
	}
}

/* Cycles until @off has @mask set, at most @max */
static int64_t until(struct bench *b, uint32_t off, uint32_t mask, unsigned int max)
{
	uint64_t t0 = b->cycle;

	while (!(rd(b, off) & mask)) {
		if (b->cycle - t0 >= max)
			return -1;
		step(b, 1);
	}
	return (int64_t)(b->cycle - t0);
}

static void fill_tx(void)
{
	for (unsigned int i = 0; i < sizeof(tx); i++)
		tx[i] = (uint8_t)(i * 7 + 3);
}

static int got_tx(const struct bench *b, unsigned int words)
{
	for (unsigned int i = 0; i < words; i++) {
		const uint8_t *p = tx + 4 * i;

		if (b->got[i] != (p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				  (uint32_t)p[3] << 24))
			return 0;
	}
	return b->ngot == words;
}

static void start_mm2s(struct bench *b, uint32_t addr, uint32_t len)
{
	wr(b, MM2S_DMACR, CR_RS);
	wr(b, MM2S_SA, addr);
	wr(b, MM2S_LENGTH, len);
}

/* S2MM of @len bytes, with the source about to send a 64-word C tile */
static void start_s2mm(struct bench *b, uint32_t dmacr, uint32_t len)
{
	wr(b, S2MM_DMACR, dmacr);
	wr(b, S2MM_DA, RX_BUS);
	wr(b, S2MM_LENGTH, len);
	b->src_left = b->src_words = 64;
}

static void test_registers(void)
{
	struct axi_dma_knobs k = AXI_DMA_KNOBS_DEFAULT;
	struct bench b;

	setup(&b, &k);
	ok(rd(&b, MM2S_DMASR) == SR_HALTED && rd(&b, S2MM_DMASR) == SR_HALTED &&
	   rd(&b, MM2S_DMACR) == PG021_DMACR_ONE,
	   "power-on: both channels Halted, DMACR 0 but its reserved bit 1 (reads 1)");
	wr(&b, MM2S_SA, TX_BUS);
	wr(&b, MM2S_LENGTH, 128);
	step(&b, 200);
	ok(b.ngot == 0 && b.d.mm2s.dropped == 1 && rd(&b, MM2S_DMASR) == SR_HALTED,
	   "LENGTH on a halted channel is ignored");
	wr(&b, MM2S_DMACR, CR_RS | CR_IOC_EN);
	ok(rd(&b, MM2S_DMASR) == 0 && rd(&b, MM2S_DMACR) == (CR_RS | CR_IOC_EN | PG021_DMACR_ONE),
	   "RS: neither Halted nor Idle before the first transfer");
	wr(&b, S2MM_DMACR, CR_RESET);
	ok(rd(&b, S2MM_DMACR) & CR_RESET, "DMACR.Reset reads back set while the reset runs");
	ok(rd(&b, MM2S_DMASR) == SR_HALTED && !(rd(&b, MM2S_DMACR) & CR_RS),
	   "a reset of S2MM resets MM2S too");
	wr(&b, MM2S_DMACR, CR_RS);
	ok(!(rd(&b, MM2S_DMACR) & CR_RS), "writes during the reset are ignored");
	step(&b, k.reset_cycles);
	ok(!(rd(&b, S2MM_DMACR) & CR_RESET), "Reset clears itself");
	wr(&b, MM2S_DMACR, CR_RS);
	wr(&b, MM2S_LENGTH, 0x10000 | 8);
	ok(rd(&b, MM2S_LENGTH) == 8, "LENGTH keeps 14 bits");
}

static void test_mm2s(void)
{
	struct axi_dma_knobs k = AXI_DMA_KNOBS_DEFAULT;
	struct bench b;
	int64_t t;

	fill_tx();
	k.first_beat = 37;
	k.idle_lag = 13;
	setup(&b, &k);
	start_mm2s(&b, TX_BUS, 128);
	t = until(&b, MM2S_DMASR, SR_IDLE, 1000);
	ok(got_tx(&b, 32), "MM2S: 128 bytes stream in order, little-endian words");
	ok(b.first_beat == 37, "MM2S: the first beat follows LENGTH by first_beat");
	/* set at the edge idle_lag cycles after the last beat's, read from the next */
	ok(t > 0 && b.cycle - b.last_beat == 13 + 1,
	   "MM2S: Idle rises idle_lag cycles after the last beat");
	ok((rd(&b, MM2S_DMASR) & (SR_IDLE | SR_IOC)) == (SR_IDLE | SR_IOC) &&
	   b.d.mm2s.bytes == 128, "MM2S: Idle and IOC_Irq at the end, bytes counted");
	wr(&b, MM2S_DMASR, SR_IOC | SR_IDLE);
	ok(rd(&b, MM2S_DMASR) == SR_IDLE, "DMASR: IOC_Irq is write-one-to-clear, Idle is not");

	/* the sink back-pressures: nothing is lost, Idle waits for the last beat */
	setup(&b, &k);
	start_mm2s(&b, TX_BUS, 128);
	b.sink_ready = false;
	step(&b, 500);
	ok(b.ngot == 0 && !(rd(&b, MM2S_DMASR) & SR_IDLE),
	   "MM2S: a sink that is not ready holds the transfer, no Idle");
	b.sink_ready = true;
	until(&b, MM2S_DMASR, SR_IDLE, 1000);
	ok(got_tx(&b, 32), "MM2S: back-pressure loses no beat");

	/* a busy channel ignores LENGTH */
	setup(&b, &k);
	start_mm2s(&b, TX_BUS, 128);
	step(&b, 40);
	wr(&b, MM2S_LENGTH, 64);
	until(&b, MM2S_DMASR, SR_IDLE, 1000);
	step(&b, 200);
	ok(b.ngot == 32 && b.d.mm2s.dropped == 1, "MM2S: LENGTH while busy is ignored");

	/* gaps in the stream */
	k.mm2s_gap = 60;
	setup(&b, &k);
	start_mm2s(&b, TX_BUS, 512);
	until(&b, MM2S_DMASR, SR_IDLE, 5000);
	ok(got_tx(&b, 128) && b.last_beat - b.first_beat > 128,
	   "MM2S: with mm2s_gap the stream has holes and keeps its order");
}

static void test_idle_early(void)
{
	struct axi_dma_knobs k = AXI_DMA_KNOBS_DEFAULT;
	struct bench b;
	unsigned int at_idle;

	fill_tx();
	k.idle_early = 4;
	setup(&b, &k);
	start_mm2s(&b, TX_BUS, 128);
	until(&b, MM2S_DMASR, SR_IDLE, 1000);
	at_idle = b.ngot;
	ok(at_idle == 28, "idle_early 4: Idle rises with 4 beats still to go");
	wr(&b, MM2S_DMASR, SR_IOC);
	wr(&b, MM2S_SA, TX_BUS + 128);
	wr(&b, MM2S_LENGTH, 128);
	until(&b, MM2S_DMASR, SR_IDLE, 1000);
	step(&b, 20);
	ok(b.ngot == 64 && got_tx(&b, 64), "idle_early: both transfers arrive whole and in order");
}

static void test_s2mm(void)
{
	struct axi_dma_knobs k = AXI_DMA_KNOBS_DEFAULT;
	struct bench b;
	int right = 1;

	memset(rx, 0, sizeof(rx));
	k.s2mm_stall = 50;
	setup(&b, &k);
	start_s2mm(&b, CR_RS, 1024);
	until(&b, S2MM_DMASR, SR_IDLE, 5000);
	for (unsigned int i = 0; i < 64; i++)
		right &= (rx[4 * i] | (uint32_t)rx[4 * i + 1] << 8 |
			  (uint32_t)rx[4 * i + 2] << 16 | (uint32_t)rx[4 * i + 3] << 24) ==
			 0xc0de0000u + i;
	ok(right && !b.src_left, "S2MM: 64 words under 50% back-pressure land in order");
	ok(rd(&b, S2MM_LENGTH) == 256, "S2MM: the transfer ends at TLAST; LENGTH reads the bytes received");

	setup(&b, &k);
	start_s2mm(&b, CR_RS | CR_ERR_EN, 128);
	until(&b, S2MM_DMASR, SR_HALTED, 5000);
	ok((rd(&b, S2MM_DMASR) & (SR_INT_ERR | SR_ERR | SR_HALTED | SR_IDLE)) ==
	   (SR_INT_ERR | SR_ERR | SR_HALTED) && !(rd(&b, S2MM_DMACR) & CR_RS),
	   "S2MM: a stream longer than LENGTH is DMAIntErr: halted, RS cleared");
	ok(axi_dma_irq(&b.d), "interrupt output: Err_Irq with Err_IrqEn");
	wr(&b, S2MM_DMASR, SR_ERR);
	ok(!axi_dma_irq(&b.d), "interrupt output falls when Err_Irq is cleared");
}

static void test_errors(void)
{
	struct axi_dma_knobs k = AXI_DMA_KNOBS_DEFAULT;
	struct bench b;

	setup(&b, &k);
	start_mm2s(&b, 0x30000000u, 128);
	ok((rd(&b, MM2S_DMASR) & (SR_DEC_ERR | SR_HALTED | SR_ERR)) ==
	   (SR_DEC_ERR | SR_HALTED | SR_ERR), "an address outside memory is DMADecErr");
	setup(&b, &k);
	start_mm2s(&b, TX_BUS + 2, 128);
	ok(rd(&b, MM2S_DMASR) & SR_INT_ERR, "an unaligned address is DMAIntErr (no DRE)");
	setup(&b, &k);
	wr(&b, MM2S_DMACR, CR_RS | CR_IOC_EN);
	wr(&b, MM2S_SA, TX_BUS);
	wr(&b, MM2S_LENGTH, 128);
	ok(!axi_dma_irq(&b.d), "interrupt output low while the transfer runs");
	until(&b, MM2S_DMASR, SR_IDLE, 1000);
	ok(axi_dma_irq(&b.d), "interrupt output: IOC_Irq with IOC_IrqEn");

	k.error_beat = 9;
	k.error_chan = 1;
	setup(&b, &k);
	axi_dma_inject(&b.d, 1);
	start_s2mm(&b, CR_RS, 256);
	until(&b, S2MM_DMASR, SR_IDLE, 1000);
	ok(!b.src_left, "error_chan 1 spares the S2MM");
	start_mm2s(&b, TX_BUS, 128);
	until(&b, MM2S_DMASR, SR_HALTED, 1000);
	step(&b, 50);
	ok(b.ngot == 9 && (rd(&b, MM2S_DMASR) & (SR_SLV_ERR | SR_ERR | SR_HALTED | SR_IDLE)) ==
	   (SR_SLV_ERR | SR_ERR | SR_HALTED), "an injected error halts the MM2S after error_beat beats: DMASlvErr");
	start_mm2s(&b, TX_BUS, 128);
	step(&b, 200);
	ok(b.ngot == 9 && (rd(&b, MM2S_DMASR) & SR_HALTED) && !(rd(&b, MM2S_DMACR) & CR_RS),
	   "after an error RS does not restart the channel: only a reset does");
	wr(&b, MM2S_DMACR, CR_RESET);
	step(&b, k.reset_cycles);
	b.ngot = 0;
	start_mm2s(&b, TX_BUS, 128);
	until(&b, MM2S_DMASR, SR_IDLE, 1000);
	ok(got_tx(&b, 32), "after a reset the next transfer is clean");

	k.error_chan = 2;
	k.error_beat = 30;
	setup(&b, &k);
	axi_dma_inject(&b.d, 1);
	start_s2mm(&b, CR_RS, 256);
	until(&b, S2MM_DMASR, SR_HALTED, 1000);
	step(&b, 50);
	ok(b.src_left == 34 && (rd(&b, S2MM_DMASR) & SR_SLV_ERR),
	   "an injected error on the S2MM strikes mid-stream: the sender is left waiting");
}

int main(void)
{
	printf("TAP version 13\n");
	pg021_check_driver(ok_reg);
	test_registers();
	test_mm2s();
	test_idle_early();
	test_s2mm();
	test_errors();
	printf("1..%u\n", tests);
	return failed ? 1 : 0;
}
