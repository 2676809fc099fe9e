// SPDX-License-Identifier: GPL-2.0
/*
 * npu_portmodel.c - the NPU behind the pins of hwemu_port.h, modelled in C
 * cycle by cycle, so that the bus glue and the DMA model in front of the
 * pins are tested in CI without NpuKit's RTL (tests/hw-emu/README.md).
 *
 * Written from Documentation/npukit/hardware.rst (sections 2 to 4, 8) and
 * the cycle counts the C simulator uses (driver/npukit_sim.c, npukit_sim_priv.h): a write is
 * accepted when address and data are both valid and no response is
 * pending, registered, decoded the next cycle, and a START or CLEAR is
 * taken by the sequencer the cycle after that; a run feeds 22 cycles and
 * captures C, which changes one cycle before GEMM_DONE rises, 27 cycles
 * after START landed (28 with CLEAR). Stream beats are taken only while
 * the sequencer is idle; a beat taken with a LOAD_CFG write in the same
 * cycle wins over its counter reset. The product is computed whole at
 * the end of the feed, not through a systolic array: operands cannot
 * change while the array is busy. Not modelled: the glue unit, the weight
 * bank and the A ping-pong, which the driver does not use.
 */
#include <stdlib.h>
#include <string.h>

#include "npukit_regs.h"
#include "hwemu_port.h"

#define FEED_CYCLES	22
#define C_WORDS		64

enum seq { SEQ_IDLE, SEQ_CLEAR, SEQ_RUN, SEQ_WAIT, SEQ_CAPTURE, SEQ_DONE };

struct hwemu_npu {
	/* AXI4-Lite write: the registered write and what it decoded to */
	bool bvalid, wr_en;
	uint32_t wr_addr, wr_data;
	bool start_req, clear_req, tx_arm_req, load_cfg_we, w_shape_we, tile_kj_we;
	uint32_t req_data;
	bool rvalid;
	uint32_t rdata;
	/* sequencer */
	enum seq seq;
	unsigned int t;
	bool busy, done, run_after_clear, capture;
	/* operands, accumulators, C */
	uint8_t a[64], b[64];
	int32_t acc[64], c[64];
	/* stream in */
	uint32_t load_mode, rx_idx;
	bool rx_done;
	uint32_t w_shape, tile_kj, glue_len, glue_param;
	/* stream out */
	bool tx_stream, tx_done;
	unsigned int tx_idx;
};

static void reset(struct hwemu_npu *n)
{
	memset(n, 0, sizeof(*n));
	n->w_shape = 0x00080008;
	n->glue_len = 16;
	n->glue_param = 1;
}

struct hwemu_npu *hwemu_npu_create(void)
{
	struct hwemu_npu *n = malloc(sizeof(*n));

	if (n)
		reset(n);
	return n;
}

void hwemu_npu_destroy(struct hwemu_npu *npu)
{
	free(npu);
}

const char *hwemu_npu_name(void)
{
	return "port model";
}

static uint32_t rx_target(const struct hwemu_npu *n)
{
	if (n->load_mode == NPUKIT_LOAD_A || n->load_mode == NPUKIT_LOAD_B)
		return 16;
	if (n->load_mode == NPUKIT_LOAD_WMEM) {
		uint32_t bytes = (n->w_shape & 0xffff) * (n->w_shape >> 16);

		return ((bytes + 3) / 4) & 0x1ff;
	}
	return 32;
}

static bool rx_ready(const struct hwemu_npu *n)
{
	return n->rx_idx < rx_target(n) && !n->busy && n->seq == SEQ_IDLE;
}

void hwemu_npu_settle(struct hwemu_npu *n, struct hwemu_pins *p)
{
	bool fire = p->rst_n && p->awvalid && p->wvalid && !n->bvalid;

	p->awready = fire;
	p->wready = fire;
	p->bvalid = n->bvalid;
	p->arready = p->rst_n && !n->rvalid;
	p->rvalid = n->rvalid;
	p->rdata = n->rdata;
	p->s_tready = p->rst_n && rx_ready(n);
	p->m_tvalid = n->tx_stream;
	p->m_tdata = (uint32_t)n->c[n->tx_idx];
	p->m_tlast = n->tx_stream && n->tx_idx == C_WORDS - 1;
	p->busy = n->busy;
	p->done = n->done;
}

static uint32_t tile_word(const uint8_t *t, uint32_t off)
{
	const uint8_t *q = t + (off & 0x3c);

	return q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

static uint32_t reg_read(const struct hwemu_npu *n, uint32_t off)
{
	off &= NPUKIT_DECODE_MASK;
	if (off >= NPUKIT_A_TILE && off < NPUKIT_A_TILE + NPUKIT_TILE_BYTES)
		return tile_word(n->a, off);
	if (off >= NPUKIT_B_TILE && off < NPUKIT_B_TILE + NPUKIT_TILE_BYTES)
		return tile_word(n->b, off);
	if (off >= NPUKIT_C_TILE && off < NPUKIT_C_TILE + NPUKIT_C_BYTES)
		return (uint32_t)n->c[(off - NPUKIT_C_TILE) / 4];
	switch (off) {
	case NPUKIT_ID:
		return NPUKIT_ID_MAGIC;
	case NPUKIT_VERSION:
		return 0x302;
	case NPUKIT_STATUS:
		return (n->tx_done ? NPUKIT_STATUS_TX_DONE : 0) |
		       (n->rx_done ? NPUKIT_STATUS_RX_DONE : 0) |
		       (n->done ? NPUKIT_STATUS_GEMM_DONE : 0) |
		       (n->busy ? NPUKIT_STATUS_BUSY : 0);
	case NPUKIT_N:
		return 8;
	case NPUKIT_FEATURES:
		return 0x1f;
	case NPUKIT_GLUE_LEN:
		return n->glue_len;
	case NPUKIT_GLUE_PARAM:
		return n->glue_param;
	case NPUKIT_LOAD_CFG:
		return n->load_mode;
	case NPUKIT_W_SHAPE:
		return n->w_shape;
	case NPUKIT_TILE_KJ:
		return n->tile_kj;
	}
	return 0;
}

/* acc += A * B, int8 operands, int32 accumulators that wrap */
static void gemm(struct hwemu_npu *n)
{
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			uint32_t sum = (uint32_t)n->acc[8 * i + j];

			for (int k = 0; k < 8; k++)
				sum += (uint32_t)((int32_t)(int8_t)n->a[8 * i + k] *
						  (int32_t)(int8_t)n->b[8 * k + j]);
			n->acc[8 * i + j] = (int32_t)sum;
		}
}

static void sequencer(struct hwemu_npu *n, const struct hwemu_npu *o)
{
	switch (o->seq) {
	case SEQ_IDLE:
		n->busy = false;
		if (o->clear_req || o->start_req) {
			n->busy = true;
			n->done = false;
			n->run_after_clear = o->clear_req && o->start_req;
			n->seq = o->clear_req ? SEQ_CLEAR : SEQ_RUN;
			n->t = 0;
		}
		break;
	case SEQ_CLEAR:
		memset(n->acc, 0, sizeof(n->acc));
		n->t = 0;
		if (o->start_req || o->run_after_clear) {
			n->seq = SEQ_RUN;
			n->run_after_clear = false;
		} else {
			n->busy = false;
			n->seq = SEQ_IDLE;
		}
		break;
	case SEQ_RUN:
		if (o->t == FEED_CYCLES - 1) {
			gemm(n);
			n->seq = SEQ_WAIT;
		} else {
			n->t = o->t + 1;
		}
		break;
	case SEQ_WAIT:
		n->capture = true;
		n->seq = SEQ_CAPTURE;
		break;
	case SEQ_CAPTURE:
		n->seq = SEQ_DONE;
		break;
	case SEQ_DONE:
		n->done = true;
		n->busy = false;
		n->seq = SEQ_IDLE;
		break;
	}
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void stream_in(struct hwemu_npu *n, const struct hwemu_npu *o, uint32_t word)
{
	uint8_t *dst = NULL;
	uint32_t i = o->rx_idx;

	if (o->load_mode == NPUKIT_LOAD_AB)
		dst = i < 16 ? &n->a[4 * i] : &n->b[4 * (i - 16)];
	else if (o->load_mode == NPUKIT_LOAD_A)
		dst = &n->a[4 * i];
	else if (o->load_mode == NPUKIT_LOAD_B)
		dst = &n->b[4 * i];
	if (dst)	/* the weight bank is not modelled: its words are taken */
		put_le32(dst, word);
	if (i == rx_target(o) - 1) {
		n->rx_idx = 0;
		n->rx_done = true;
	} else {
		n->rx_idx = i + 1;
	}
}

static void tile_write(uint8_t *t, uint32_t off, uint32_t val)
{
	put_le32(t + (off & 0x3c), val);
}

/* The registered write of the last cycle, decoded */
static void decode(struct hwemu_npu *n, const struct hwemu_npu *o)
{
	n->start_req = n->clear_req = n->tx_arm_req = false;
	n->load_cfg_we = n->w_shape_we = n->tile_kj_we = false;
	if (!o->wr_en)
		return;
	n->req_data = o->wr_data;
	switch (o->wr_addr) {
	case NPUKIT_CTRL:
		n->start_req = o->wr_data & NPUKIT_CTRL_START;
		n->clear_req = o->wr_data & NPUKIT_CTRL_CLEAR;
		n->tx_arm_req = o->wr_data & NPUKIT_CTRL_TX_ARM;
		break;
	case NPUKIT_LOAD_CFG:
		n->load_cfg_we = true;
		break;
	case NPUKIT_W_SHAPE:
		n->w_shape_we = true;
		break;
	case NPUKIT_TILE_KJ:
		n->tile_kj_we = true;
		break;
	case NPUKIT_GLUE_LEN:
		n->glue_len = o->wr_data & 0xff;
		break;
	case NPUKIT_GLUE_PARAM:
		n->glue_param = o->wr_data;
		break;
	}
}

/* Stream in, register effects, MMIO tile writes */
static void datapath(struct hwemu_npu *n, const struct hwemu_npu *o, const struct hwemu_pins *p)
{
	if (o->clear_req)
		n->rx_done = false;
	if (o->load_cfg_we) {
		n->load_mode = o->req_data & NPUKIT_LOAD_CFG_MODE;
		n->rx_idx = 0;
		n->rx_done = false;
	}
	if (o->w_shape_we)
		n->w_shape = o->req_data;
	if (o->tile_kj_we)
		n->tile_kj = o->req_data & 0xffff;
	if (o->capture)
		memcpy(n->c, o->acc, sizeof(n->c));
	if (p->s_tvalid && rx_ready(o)) {
		stream_in(n, o, p->s_tdata);
	} else if (o->wr_en && !o->busy && !o->load_cfg_we) {
		if (o->wr_addr >= NPUKIT_A_TILE && o->wr_addr < NPUKIT_A_TILE + NPUKIT_TILE_BYTES)
			tile_write(n->a, o->wr_addr, o->wr_data);
		else if (o->wr_addr >= NPUKIT_B_TILE && o->wr_addr < NPUKIT_B_TILE + NPUKIT_TILE_BYTES)
			tile_write(n->b, o->wr_addr, o->wr_data);
	}
}

void hwemu_npu_clock(struct hwemu_npu *n, struct hwemu_pins *p)
{
	struct hwemu_npu o = *n;
	bool fire = p->awvalid && p->wvalid && !o.bvalid;

	if (!p->rst_n) {
		reset(n);
		return;
	}
	n->capture = false;
	sequencer(n, &o);
	datapath(n, &o, p);
	decode(n, &o);
	if (!o.tx_stream) {
		n->tx_idx = 0;
		if (o.tx_arm_req && o.done) {
			n->tx_done = false;
			n->tx_stream = true;
		}
	} else if (p->m_tready) {
		if (o.tx_idx == C_WORDS - 1) {
			n->tx_done = true;
			n->tx_stream = false;
		} else {
			n->tx_idx = o.tx_idx + 1;
		}
	}
	n->wr_en = fire;
	if (fire) {
		n->wr_addr = p->awaddr & NPUKIT_DECODE_MASK;
		n->wr_data = p->wdata;
		n->bvalid = true;
	} else if (o.bvalid && p->bready) {
		n->bvalid = false;
	}
	if (p->arvalid && !o.rvalid) {
		n->rvalid = true;
		n->rdata = reg_read(&o, p->araddr);
	} else if (o.rvalid && p->rready) {
		n->rvalid = false;
	}
}
