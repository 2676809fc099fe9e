// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_hw_setup.c - the NpuKit protocol brought up: the IP identified at
 * probe, the AXI DMA reset and set running, the protocol's state dropped
 * after a reset
 *
 * None of this is on a kick's path: npukit_hw.c runs the kicks and waits.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/device.h>

#include <uapi/npukit.h>

#include "npukit_dev.h"

/**
 * npukit_dma_reset - reset the AXI DMA and set both channels running
 * @nd: the device, locked
 *
 * A reset of one channel resets both. It also clears the DMASR bits the
 * interrupt handler acks, so whatever the handler latched from before the
 * reset is forgotten here, at every reset: a stale error must never fail
 * the next transfer. Bounded by %NPUKIT_HANG_NS of device time.
 *
 * Return: 0, or -EIO when the DMA does not come out of reset or run.
 */
int npukit_dma_reset(struct npukit_device *nd)
{
	u64 seq, t0;
	u32 cr, mm2s, s2mm;

	seq = npukit_dma_write(nd, NPUKIT_MM2S_DMACR, NPUKIT_DMACR_RESET);
	t0 = npukit_now_ns(nd);
	for (;;) {
		/* the limit before the poll, as in npukit_wait_check() */
		bool expired = npukit_now_ns(nd) - t0 > NPUKIT_HANG_NS;

		cr = npukit_dma_read(nd, NPUKIT_MM2S_DMACR);
		if (!npukit_io_landed(nd, seq))
			continue;
		if (!(cr & NPUKIT_DMACR_RESET))
			break;
		if (expired) {
			dev_err(nd->dev, "AXI DMA stuck in reset (MM2S_DMACR %#x)\n",
				cr);
			return -EIO;
		}
	}
	/* a handler raised before the reset may still run: let it, then forget */
	npukit_irq_sync(nd);
	atomic_set(&nd->irq_err, 0);
	WRITE_ONCE(nd->irq_fired, false);
	npukit_dma_write(nd, NPUKIT_MM2S_DMACR, NPUKIT_DMACR_RS |
			 npukit_irq_dmacr(nd, NPUKIT_CHAN_MM2S));
	seq = npukit_dma_write(nd, NPUKIT_S2MM_DMACR, NPUKIT_DMACR_RS |
			       npukit_irq_dmacr(nd, NPUKIT_CHAN_S2MM));
	/* one ordering read, then both status registers are trusted */
	npukit_dma_read(nd, NPUKIT_MM2S_DMASR);
	mm2s = npukit_dma_read(nd, NPUKIT_MM2S_DMASR);
	s2mm = npukit_dma_read(nd, NPUKIT_S2MM_DMASR);
	if ((mm2s | s2mm) & (NPUKIT_DMASR_HALTED | NPUKIT_DMASR_ERRORS)) {
		dev_err(nd->dev, "AXI DMA does not run after reset: MM2S_DMASR %#x S2MM_DMASR %#x\n",
			mm2s, s2mm);
		return -EIO;
	}
	return 0;
}

/**
 * npukit_hw_restart - after a reset: reset the stream word counter and
 *	drop the protocol's pending state
 * @nd: the device, locked
 */
void npukit_hw_restart(struct npukit_device *nd)
{
	struct npukit_hw_state *hw = &nd->hw;

	if (npukit_hw_has_load_cfg(nd))
		npukit_npu_write(nd, NPUKIT_LOAD_CFG, NPUKIT_LOAD_AB);
	hw->run_pending = false;
	hw->tx_pending = false;
	hw->load_pending = false;
}

/**
 * npukit_hw_init - identify the IP and bring the DMA up, at probe
 * @nd: the device, with its register access set up
 *
 * Return: 0, -ENODEV when the IP is not a supported NpuKit, -EIO when the
 * DMA does not come up.
 */
int npukit_hw_init(struct npukit_device *nd)
{
	int ret;

	nd->ip_id = npukit_npu_read(nd, NPUKIT_ID);
	if (nd->ip_id != NPUKIT_ID_MAGIC)
		return dev_err_probe(nd->dev, -ENODEV,
				     "ID reads %#010x, not NpuKit's %#010x: is the NpuKit bitstream loaded?\n",
				     nd->ip_id, NPUKIT_ID_MAGIC);
	nd->ip_version = npukit_npu_read(nd, NPUKIT_VERSION);
	if (nd->ip_version < NPUKIT_VERSION_MIN ||
	    nd->ip_version > NPUKIT_VERSION_MAX)
		return dev_err_probe(nd->dev, -ENODEV,
				     "NpuKit IP version %#x not supported (supported: %#x..%#x, the A||B stream path)\n",
				     nd->ip_version, NPUKIT_VERSION_MIN,
				     NPUKIT_VERSION_MAX);
	if (nd->ip_version >= NPUKIT_VERSION_FEATURES) {
		nd->ip_features = npukit_npu_read(nd, NPUKIT_FEATURES);
		if (!(nd->ip_features & NPUKIT_FEATURE_GEMM))
			return dev_err_probe(nd->dev, -ENODEV,
					     "NpuKit FEATURES %#x has no GEMM\n",
					     nd->ip_features);
	}
	nd->array_n = npukit_npu_read(nd, NPUKIT_N);
	if (nd->array_n != NPUKIT_TILE_N)
		return dev_err_probe(nd->dev, -ENODEV,
				     "NpuKit array is %ux%u, only %ux%u is supported\n",
				     nd->array_n, nd->array_n, NPUKIT_TILE_N,
				     NPUKIT_TILE_N);
	ret = npukit_dma_reset(nd);
	if (ret)
		return ret;
	if (npukit_hw_has_load_cfg(nd))
		npukit_npu_write(nd, NPUKIT_LOAD_CFG, NPUKIT_LOAD_AB);
	npukit_hw_waits_init(nd);
	return 0;
}
