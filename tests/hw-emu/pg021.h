/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pg021.h - the AXI DMA v7.1's registers in direct register mode, written
 * from Xilinx/AMD PG021 ("AXI DMA LogiCORE IP Product Guide", v7.1),
 * chapter "Product Specification", section "Register Space", and NOT from
 * driver/npukit_regs.h: the DMA model (axi_dma.c) decodes its registers
 * with these, and dma_test.c checks the driver's header against them, so
 * a wrong offset or bit in the driver shows as a disagreement instead of
 * being copied into the model. Section titles as PG021 names them.
 */
#ifndef PG021_H
#define PG021_H

/* "Direct Register Mode Register Address Map" (Table: Address Space Offset) */
#define PG021_MM2S_DMACR	0x00	/* MM2S DMA Control register */
#define PG021_MM2S_DMASR	0x04	/* MM2S DMA Status register */
#define PG021_MM2S_SA		0x18	/* MM2S Source Address, lower 32 bits */
#define PG021_MM2S_SA_MSB	0x1c	/* upper 32 bits (address width > 32) */
#define PG021_MM2S_LENGTH	0x28	/* MM2S Transfer Length (Bytes) */
#define PG021_S2MM_DMACR	0x30	/* S2MM DMA Control register */
#define PG021_S2MM_DMASR	0x34	/* S2MM DMA Status register */
#define PG021_S2MM_DA		0x48	/* S2MM Destination Address, lower 32 */
#define PG021_S2MM_DA_MSB	0x4c	/* upper 32 bits */
#define PG021_S2MM_LENGTH	0x58	/* S2MM Buffer Length (Bytes) */
/* the S2MM registers are the MM2S ones this far on */
#define PG021_S2MM_BASE		PG021_S2MM_DMACR

/*
 * "MM2S_DMACR (MM2S DMA Control Register - Offset 00h)" and
 * "S2MM_DMACR (... Offset 30h)", Table "Register Details"
 */
#define PG021_DMACR_RS		(1u << 0)	/* Run/Stop */
#define PG021_DMACR_ONE		(1u << 1)	/* Reserved, RO, always reads 1 */
#define PG021_DMACR_RESET	(1u << 2)	/* soft reset of the whole core */
#define PG021_DMACR_KEYHOLE	(1u << 3)
#define PG021_DMACR_CYCLIC_BD	(1u << 4)	/* Cyclic BD Enable (SG only) */
#define PG021_DMACR_IOC_IRQEN	(1u << 12)
#define PG021_DMACR_DLY_IRQEN	(1u << 13)
#define PG021_DMACR_ERR_IRQEN	(1u << 14)
#define PG021_DMACR_IRQTHRESHOLD (0xffu << 16)	/* bits 23 to 16 */

/*
 * "MM2S_DMASR (MM2S DMA Status Register - Offset 04h)" and
 * "S2MM_DMASR (... Offset 34h)", Table "Register Details"
 */
#define PG021_DMASR_HALTED	(1u << 0)	/* default 1 */
#define PG021_DMASR_IDLE	(1u << 1)
#define PG021_DMASR_SGINCLD	(1u << 3)	/* 0 in direct register mode */
#define PG021_DMASR_DMAINTERR	(1u << 4)
#define PG021_DMASR_DMASLVERR	(1u << 5)
#define PG021_DMASR_DMADECERR	(1u << 6)
#define PG021_DMASR_SGINTERR	(1u << 8)
#define PG021_DMASR_SGSLVERR	(1u << 9)
#define PG021_DMASR_SGDECERR	(1u << 10)
#define PG021_DMASR_IOC_IRQ	(1u << 12)	/* R/WC: write 1 to clear */
#define PG021_DMASR_DLY_IRQ	(1u << 13)	/* R/WC */
#define PG021_DMASR_ERR_IRQ	(1u << 14)	/* R/WC */
#define PG021_DMASR_DMA_ERRORS	(PG021_DMASR_DMAINTERR | PG021_DMASR_DMASLVERR | \
				 PG021_DMASR_DMADECERR)

/*
 * Each AXI DMA offset and bit of the driver's header (npukit_regs.h)
 * against the table above: @ok(equal, name, driver's value, PG021's)
 * (pg021_driver.c, built with the driver's flags)
 */
void pg021_check_driver(void (*ok)(int cond, const char *what, unsigned long driver,
				   unsigned long pg021));

#endif /* PG021_H */
