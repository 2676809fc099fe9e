// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_irq.c - the AXI DMA's optional interrupts, and how a wait sleeps
 *
 * The stock bitstream wires no interrupt; a build may wire mm2s_introut
 * and s2mm_introut to IRQ_F2P (hardware.rst 5), which the device tree then
 * gives as interrupts = <mm2s>, <s2mm> with interrupt-names. Either line
 * may be missing: a wait that no interrupt signals polls.
 *
 * A kick takes about a microsecond, less than an interrupt round trip, so
 * interrupts never replace the polled fast path (npukit_hw.c). They are
 * for the slow path, a wait past its polling budget:
 *  - Err_IrqEn stays set on a channel that has a line: an error ends the
 *    batch at once, whether the driver polls or sleeps.
 *  - IOC_IrqEn is set only while a wait sleeps on it (npukit_irq_sleep()):
 *    left on, every transfer, two per kick, would interrupt the CPU.
 * The handler acks DMASR (W1C), records error bits and wakes the waiter.
 * It does not use the accounted accessors of npukit_dev.h, since it may
 * run while the batch's thread does: its accesses are not in SUBMIT's MMIO
 * counters, and it never changes what the protocol trusts.
 *
 * On an instance over a backend that delivers interrupts (npukit_sim.ko
 * with sim_irq=1) the backend raises the very same handler, one line for
 * both channels (the simulator: from a hard hrtimer on each rising edge of
 * the DMA's interrupt output); npukit_irq_sync() then has it take back a
 * delivery still pending and run it, rather than wait for a timer
 * interrupt.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/platform_device.h>

#include "npukit_dev.h"

static const char * const npukit_irq_names[NPUKIT_IRQS] = { "mm2s", "s2mm" };

static u32 npukit_chan_sr(u32 chan)
{
	return chan == NPUKIT_CHAN_MM2S ? NPUKIT_MM2S_DMASR : NPUKIT_S2MM_DMASR;
}

static u32 npukit_chan_cr(u32 chan)
{
	return chan == NPUKIT_CHAN_MM2S ? NPUKIT_MM2S_DMACR : NPUKIT_S2MM_DMACR;
}

static u32 npukit_irq_rd(struct npukit_device *nd, u32 off)
{
	if (nd->backend)
		return nd->backend->read(nd->backend_priv, NPUKIT_SPACE_DMA, off);
	return readl(nd->dma + off);
}

static void npukit_irq_wr(struct npukit_device *nd, u32 off, u32 val)
{
	if (nd->backend)
		nd->backend->write(nd->backend_priv, NPUKIT_SPACE_DMA, off, val);
	else
		writel(val, nd->dma + off);
}

static irqreturn_t npukit_irq_handler(int irq, void *data)
{
	struct npukit_irq *line = data;
	struct npukit_device *nd = line->nd;
	u32 chan, off, sr, ack, last = 0;

	for (chan = NPUKIT_CHAN_MM2S; chan <= NPUKIT_CHAN_S2MM; chan <<= 1) {
		if (!(line->chans & chan))
			continue;
		off = npukit_chan_sr(chan);
		sr = npukit_irq_rd(nd, off);
		ack = sr & (NPUKIT_DMASR_IOC_IRQ | NPUKIT_DMASR_ERR_IRQ);
		if (!ack)
			continue;
		npukit_irq_wr(nd, off, ack);
		last = off;
		if (ack & NPUKIT_DMASR_ERR_IRQ) {
			atomic_or((sr & NPUKIT_DMASR_ERRORS) | chan << 16,
				  &nd->irq_err);
			atomic64_inc(&nd->irq_errors);
		}
	}
	if (!last)
		return IRQ_NONE;
	/*
	 * The line is level triggered and the ack a posted write: a read
	 * that completes has pushed it to the DMA, so the line is low before
	 * the handler returns.
	 */
	npukit_irq_rd(nd, last);
	atomic64_inc(&nd->irq_count);
	WRITE_ONCE(nd->irq_fired, true);
	wake_up(&nd->irq_wq);
	return IRQ_HANDLED;
}

/* The line already requested for interrupt @irq, or NULL */
static struct npukit_irq *npukit_irq_line(struct npukit_device *nd, int irq)
{
	unsigned int i;

	for (i = 0; i < nd->nirqs; i++)
		if (nd->irqs[i].irq == irq)
			return &nd->irqs[i];
	return NULL;
}

/**
 * npukit_irq_init - find and request the DMA's interrupts, at probe
 * @nd: the device, its registers mapped
 * @pdev: its platform device; NULL for an instance over a backend
 *
 * Return: 0 (also with no interrupt: the driver then polls), or an errno.
 */
int npukit_irq_init(struct npukit_device *nd, struct platform_device *pdev)
{
	struct npukit_irq *line;
	unsigned int i;
	int irq, ret;

	init_waitqueue_head(&nd->irq_wq);
	atomic_set(&nd->irq_err, 0);
	atomic64_set(&nd->irq_count, 0);
	atomic64_set(&nd->irq_errors, 0);
	if (nd->backend) {
		line = &nd->irqs[0];
		line->nd = nd;
		line->chans = NPUKIT_CHAN_BOTH;
		if (nd->backend->set_irq &&
		    nd->backend->set_irq(nd->backend_priv, npukit_irq_handler,
					 line)) {
			nd->nirqs = 1;
			nd->irq_chans = NPUKIT_CHAN_BOTH;
		}
		return 0;
	}
	for (i = 0; i < NPUKIT_IRQS; i++) {
		irq = platform_get_irq_byname_optional(pdev,
						       npukit_irq_names[i]);
		if (irq == -ENXIO)
			continue;
		if (irq < 0)
			return dev_err_probe(nd->dev, irq,
					     "cannot get the %s interrupt\n",
					     npukit_irq_names[i]);
		/* one line may carry both channels (a wired OR, a concat) */
		line = npukit_irq_line(nd, irq);
		if (line) {
			line->chans |= BIT(i);
			nd->irq_chans |= BIT(i);
			continue;
		}
		line = &nd->irqs[nd->nirqs];
		line->nd = nd;
		line->irq = irq;
		line->chans = BIT(i);
		/*
		 * Shared: the handler acks only its own DMASR bits and says
		 * IRQ_NONE when there were none, so the line may carry other
		 * PL interrupts too.
		 */
		ret = devm_request_irq(nd->dev, irq, npukit_irq_handler,
				       IRQF_SHARED, dev_name(nd->dev), line);
		if (ret)
			return dev_err_probe(nd->dev, ret,
					     "cannot request the %s interrupt %d\n",
					     npukit_irq_names[i], irq);
		nd->nirqs++;
		nd->irq_chans |= line->chans;
	}
	return 0;
}

/**
 * npukit_irq_dmacr - interrupt enables a channel's DMACR always carries
 * @nd: the device
 * @chan: %NPUKIT_CHAN_MM2S or %NPUKIT_CHAN_S2MM
 *
 * Return: Err_IrqEn when the channel has an interrupt line, else 0.
 */
u32 npukit_irq_dmacr(const struct npukit_device *nd, u32 chan)
{
	return nd->irq_chans & chan ? NPUKIT_DMACR_ERR_IRQ_EN : 0;
}

/**
 * npukit_irq_take_error - DMA errors the error interrupt reported
 * @nd: the device
 *
 * Return: the DMASR error bits | channel mask << 16 since the last call,
 * or 0.
 */
u32 npukit_irq_take_error(struct npukit_device *nd)
{
	if (!nd->nirqs || !atomic_read(&nd->irq_err))
		return 0;
	return atomic_xchg(&nd->irq_err, 0);
}

/**
 * npukit_irq_sync - wait for a running (or, on a backend, raised) handler
 * @nd: the device
 */
void npukit_irq_sync(struct npukit_device *nd)
{
	unsigned int i;

	if (nd->backend) {
		if (nd->nirqs)
			nd->backend->irq_sync(nd->backend_priv);
		return;
	}
	for (i = 0; i < nd->nirqs; i++)
		synchronize_irq(nd->irqs[i].irq);
}

/**
 * npukit_sleep_range - sleep; on a backend's model the board's time
 *	passes meanwhile, as it would on hardware
 * @nd: the device
 * @min_us: as usleep_range()
 * @max_us: as usleep_range()
 */
void npukit_sleep_range(struct npukit_device *nd, unsigned long min_us,
			unsigned long max_us)
{
	if (nd->backend)
		nd->backend->sleep_begin(nd->backend_priv);
	usleep_range(min_us, max_us);
	if (nd->backend)
		nd->backend->sleep_end(nd->backend_priv);
}

/**
 * npukit_irq_sleep - sleep until the channel's transfer completes
 * @nd: the device, locked
 * @chan: %NPUKIT_CHAN_MM2S or %NPUKIT_CHAN_S2MM; it has an interrupt line
 * @max_ns: longest sleep (hang limit, deadline)
 *
 * Arms IOC_IrqEn, sleeps until the interrupt or @max_ns, and disarms it,
 * with the handler synchronised: on return no handler runs for this wait.
 * An error interrupt wakes it too; the caller's next check reports it.
 *
 * Return: true when it slept; false when the transfer was already over,
 * or had failed, so that no interrupt could be awaited.
 */
bool npukit_irq_sleep(struct npukit_device *nd, u32 chan, u64 max_ns)
{
	u32 sr_off = npukit_chan_sr(chan), cr_off = npukit_chan_cr(chan);
	u32 cr = NPUKIT_DMACR_RS | npukit_irq_dmacr(nd, chan);
	bool slept = false;
	u32 sr;

	WRITE_ONCE(nd->irq_fired, false);
	/* an IOC_Irq left by an earlier transfer would fire at once */
	npukit_dma_write(nd, sr_off, NPUKIT_DMASR_IOC_IRQ);
	npukit_dma_write(nd, cr_off, cr | NPUKIT_DMACR_IOC_IRQ_EN);
	/* completing from here on raises the interrupt; before, it shows */
	sr = npukit_dma_read(nd, sr_off);
	if (!(sr & (NPUKIT_DMASR_IDLE | NPUKIT_DMASR_HALTED |
		    NPUKIT_DMASR_ERRORS))) {
		atomic64_inc(&nd->stats.irq_waits);
		if (nd->backend)
			nd->backend->sleep_begin(nd->backend_priv);
		if (!wait_event_hrtimeout(nd->irq_wq, READ_ONCE(nd->irq_fired),
					  ns_to_ktime(max_ns)))
			atomic64_inc(&nd->stats.irq_wakeups);
		if (nd->backend)
			nd->backend->sleep_end(nd->backend_priv);
		slept = true;
	}
	npukit_dma_write(nd, cr_off, cr);
	/* once this read completes the disarm has landed (8.1) */
	npukit_dma_read(nd, cr_off);
	npukit_irq_sync(nd);
	return slept;
}
