/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npukit_regs.h - NpuKit NPU and AXI DMA (PG021, simple mode) registers
 *
 * Offsets and bit fields only; the protocol that uses them is in
 * npukit_hw.c. Source: Documentation/npukit/hardware.rst sections 2 and 5
 * (IP VERSION 0x302).
 *
 * Copyright (C) 2026 The npukit authors
 */
#ifndef _NPUKIT_REGS_H
#define _NPUKIT_REGS_H

#include <linux/bits.h>

/* NPU control block (AXI4-Lite, only addr[11:0] decoded) */
#define NPUKIT_ID			0x000
#define NPUKIT_ID_MAGIC			0x4E50554B	/* "NPUK" */
#define NPUKIT_VERSION			0x004
#define NPUKIT_STATUS			0x008
#define NPUKIT_STATUS_BUSY		BIT(0)
#define NPUKIT_STATUS_GEMM_DONE		BIT(1)
#define NPUKIT_STATUS_RX_DONE		BIT(2)
#define NPUKIT_STATUS_TX_DONE		BIT(3)
#define NPUKIT_STATUS_GLUE_DONE		BIT(4)
#define NPUKIT_STATUS_SHADOW_A_READY	BIT(5)
#define NPUKIT_CTRL			0x00C
#define NPUKIT_CTRL_START		BIT(0)
#define NPUKIT_CTRL_CLEAR		BIT(1)
#define NPUKIT_CTRL_TX_ARM		BIT(2)
#define NPUKIT_CTRL_USE_WMEM		BIT(3)
#define NPUKIT_N			0x010
#define NPUKIT_FEATURES			0x014
#define NPUKIT_FEATURE_GEMM		BIT(0)
#define NPUKIT_FEATURE_GLUE		BIT(1)
#define NPUKIT_FEATURE_WS		BIT(2)
#define NPUKIT_FEATURE_PP		BIT(3)
#define NPUKIT_FEATURE_WMEM		BIT(4)
#define NPUKIT_GLUE_CTRL		0x018
#define NPUKIT_GLUE_LEN			0x01C
#define NPUKIT_GLUE_PARAM		0x020
#define NPUKIT_GLUE_COUNT		0x024
#define NPUKIT_LOAD_CFG			0x028
#define NPUKIT_LOAD_CFG_MODE		GENMASK(1, 0)
#define NPUKIT_LOAD_AB			0	/* A then B, 32 words */
#define NPUKIT_LOAD_A			1	/* A only, 16 words */
#define NPUKIT_LOAD_B			2	/* B only, 16 words */
#define NPUKIT_LOAD_WMEM		3	/* weight bank */
#define NPUKIT_W_SHAPE			0x02C
#define NPUKIT_TILE_KJ			0x030
#define NPUKIT_A_TILE			0x100
#define NPUKIT_B_TILE			0x200
#define NPUKIT_TILE_BYTES		64
#define NPUKIT_C_TILE			0x400
#define NPUKIT_C_BYTES			256
#define NPUKIT_DECODE_MASK		0xFFF

/* IP versions whose A||B stream path this driver runs */
#define NPUKIT_VERSION_MIN		0x200
#define NPUKIT_VERSION_MAX		0x302
#define NPUKIT_VERSION_FEATURES		0x300	/* FEATURES reads 0 before */
#define NPUKIT_VERSION_LOAD_CFG		0x301	/* LOAD_CFG exists from */

/* AXI DMA v7.1, simple (direct register) mode */
#define NPUKIT_MM2S_DMACR		0x00
#define NPUKIT_MM2S_DMASR		0x04
#define NPUKIT_MM2S_SA			0x18
#define NPUKIT_MM2S_LENGTH		0x28
#define NPUKIT_S2MM_DMACR		0x30
#define NPUKIT_S2MM_DMASR		0x34
#define NPUKIT_S2MM_DA			0x48
#define NPUKIT_S2MM_LENGTH		0x58
#define NPUKIT_DMA_REGS_SIZE		0x5C

#define NPUKIT_DMACR_RS			BIT(0)
#define NPUKIT_DMACR_RESET		BIT(2)
#define NPUKIT_DMACR_IOC_IRQ_EN		BIT(12)
#define NPUKIT_DMACR_ERR_IRQ_EN		BIT(14)

#define NPUKIT_DMASR_HALTED		BIT(0)
#define NPUKIT_DMASR_IDLE		BIT(1)
#define NPUKIT_DMASR_INT_ERR		BIT(4)
#define NPUKIT_DMASR_SLV_ERR		BIT(5)
#define NPUKIT_DMASR_DEC_ERR		BIT(6)
#define NPUKIT_DMASR_IOC_IRQ		BIT(12)
#define NPUKIT_DMASR_ERR_IRQ		BIT(14)
#define NPUKIT_DMASR_ERRORS		(NPUKIT_DMASR_INT_ERR | \
					 NPUKIT_DMASR_SLV_ERR | \
					 NPUKIT_DMASR_DEC_ERR)

/* IP default 14-bit LENGTH register: largest single transfer */
#define NPUKIT_DMA_MAX_BYTES		16383

#endif /* _NPUKIT_REGS_H */
