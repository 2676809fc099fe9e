// SPDX-License-Identifier: GPL-2.0
/*
 * pg021_driver.c - the driver's AXI DMA registers (driver/npukit_regs.h)
 * against PG021's table (pg021.h): built with the driver's own flags, so
 * that the header is read as the driver reads it; dma_test.c runs it.
 */
#include "npukit_regs.h"
#include "pg021.h"

#define PAIR(drv, pg) { #drv, drv, pg }
static const struct {
	const char *name;
	unsigned long driver, pg021;
} pg021_pairs[] = {
	PAIR(NPUKIT_MM2S_DMACR, PG021_MM2S_DMACR),
	PAIR(NPUKIT_MM2S_DMASR, PG021_MM2S_DMASR),
	PAIR(NPUKIT_MM2S_SA, PG021_MM2S_SA),
	PAIR(NPUKIT_MM2S_LENGTH, PG021_MM2S_LENGTH),
	PAIR(NPUKIT_S2MM_DMACR, PG021_S2MM_DMACR),
	PAIR(NPUKIT_S2MM_DMASR, PG021_S2MM_DMASR),
	PAIR(NPUKIT_S2MM_DA, PG021_S2MM_DA),
	PAIR(NPUKIT_S2MM_LENGTH, PG021_S2MM_LENGTH),
	PAIR(NPUKIT_DMACR_RS, PG021_DMACR_RS),
	PAIR(NPUKIT_DMACR_RESET, PG021_DMACR_RESET),
	PAIR(NPUKIT_DMACR_IOC_IRQ_EN, PG021_DMACR_IOC_IRQEN),
	PAIR(NPUKIT_DMACR_ERR_IRQ_EN, PG021_DMACR_ERR_IRQEN),
	PAIR(NPUKIT_DMASR_HALTED, PG021_DMASR_HALTED),
	PAIR(NPUKIT_DMASR_IDLE, PG021_DMASR_IDLE),
	PAIR(NPUKIT_DMASR_INT_ERR, PG021_DMASR_DMAINTERR),
	PAIR(NPUKIT_DMASR_SLV_ERR, PG021_DMASR_DMASLVERR),
	PAIR(NPUKIT_DMASR_DEC_ERR, PG021_DMASR_DMADECERR),
	PAIR(NPUKIT_DMASR_IOC_IRQ, PG021_DMASR_IOC_IRQ),
	PAIR(NPUKIT_DMASR_ERR_IRQ, PG021_DMASR_ERR_IRQ),
	PAIR(NPUKIT_DMASR_ERRORS, PG021_DMASR_DMA_ERRORS),
};

void pg021_check_driver(void (*ok)(int cond, const char *what, unsigned long driver,
				   unsigned long pg021))
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pg021_pairs); i++)
		ok(pg021_pairs[i].driver == pg021_pairs[i].pg021, pg021_pairs[i].name,
		   pg021_pairs[i].driver, pg021_pairs[i].pg021);
}
