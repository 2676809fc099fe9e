// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_sim_dev.c - a simulated NpuKit's life: created in its power-on
 * state, its fault and timing knobs, the PL reset, freed
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "npukit_regs.h"
#include "npukit_sim_priv.h"

/**
 * npukit_sim_has_reset_line - does the modelled board wire the PL reset
 * @sim: the model
 *
 * Return: the reset_line knob.
 */
bool npukit_sim_has_reset_line(struct npukit_sim *sim)
{
	return READ_ONCE(sim->reset_line);
}

/**
 * npukit_sim_pl_reset - reset the programmable logic
 * @sim: the model
 *
 * What FCLK_RESET0_N does to the NpuKit block design: the NPU and both DMA
 * channels return to their power-on state, and with them a C stream the
 * NPU had not finished sending, the accumulators and the stream word
 * counter. Writes still on their way to the PL are lost.
 */
void npukit_sim_pl_reset(struct npukit_sim *sim)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	npukit_sim_advance(sim, sim->now);
	sim->wq_len = 0;
	sim->dma_land = sim->st;
	memset(sim->a, 0, sizeof(sim->a));
	memset(sim->b, 0, sizeof(sim->b));
	memset(sim->acc, 0, sizeof(sim->acc));
	memset(sim->c, 0, sizeof(sim->c));
	sim->sticky = 0;
	sim->take = 0;
	sim->busy = false;
	sim->run = false;
	sim->stuck = false;
	sim->load_cfg = 0;
	sim->words = 0;
	sim->tx_left = 0;
	npukit_sim_reset_regs(sim);
	/* the DMA is in the PL too: it comes out as from its own reset */
	npukit_sim_dma_reset(sim);
	npukit_sim_settle(sim);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/* debugfs pl_reset: a bitstream reload, when the driver has no reset line */
static ssize_t sim_pl_reset_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	bool val;
	int ret;

	ret = kstrtobool_from_user(buf, count, &val);
	if (ret)
		return ret;
	if (val)
		npukit_sim_pl_reset(file->private_data);
	return count;
}

static const struct file_operations sim_pl_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_pl_reset_write,
	.llseek = noop_llseek,
};

/**
 * npukit_sim_debugfs - create the fault knobs
 * @sim: the model
 * @dir: the instance's debugfs directory
 *
 * dma_error: the next N DMA transfers fail with DMASlvErr;
 * hang: while 1, GEMM runs never finish (writing 0 lets a stuck run end);
 * slow: GEMM runs take N times longer (1..1000);
 * reset_line: 1 (the default): the board wires the PL reset, which the
 *	driver pulls through npukit_sim_pl_reset(); 0: it does not;
 * pl_reset: writing 1 resets the PL, as reloading the bitstream would;
 * and the timing knobs, in 10 ns cycles, values above the range acting as
 * its maximum (see struct npukit_sim_timing): idle_lag (0..100),
 * overtake (0..20), first_beat (0..100), npu_lag (0..1000), and stall_us
 * in microseconds (0..1000); preempt_ms, preempt_one_in, preempt_sleep and
 * the counter preempts (npukit_sim_stall.c);
 * irq_lose: the next this many rising edges of the interrupt output are
 * lost; irq_spurious: the handler runs this many times with the output
 * low (sim_irq only);
 * and the CPU cost model, in ps per item (%SIM_CPU_*_PS): cpu_syscall_ps,
 * cpu_sync_ps, cpu_line_ps, cpu_copy_ps, cpu_kick_ps, cpu_readback_ps,
 * cpu_host_kick_ps, cpu_page_ps.
 */
void npukit_sim_debugfs(struct npukit_sim *sim, struct dentry *dir)
{
	static const char * const sim_cpu_knobs[NPUKIT_CPU_ITEMS] = {
		"cpu_syscall_ps", "cpu_sync_ps", "cpu_line_ps", "cpu_copy_ps",
		"cpu_kick_ps", "cpu_readback_ps", "cpu_host_kick_ps",
		"cpu_page_ps",
	};
	unsigned int i;

	debugfs_create_atomic_t("dma_error", 0600, dir, &sim->dma_error);
	debugfs_create_bool("hang", 0600, dir, &sim->hang);
	debugfs_create_u32("slow", 0600, dir, &sim->slow);
	debugfs_create_u32("idle_lag", 0600, dir, &sim->timing.idle_lag);
	debugfs_create_u32("overtake", 0600, dir, &sim->timing.overtake);
	debugfs_create_u32("first_beat", 0600, dir, &sim->timing.first_beat);
	debugfs_create_u32("npu_lag", 0600, dir, &sim->timing.npu_lag);
	debugfs_create_u32("stall_us", 0600, dir, &sim->timing.stall_us);
	npukit_sim_preempt_debugfs(&sim->preempt, &sim->timing, dir);
	debugfs_create_atomic_t("irq_lose", 0600, dir, &sim->irq_lose);
	debugfs_create_atomic_t("irq_spurious", 0600, dir, &sim->irq_spurious);
	debugfs_create_bool("reset_line", 0600, dir, &sim->reset_line);
	debugfs_create_file("pl_reset", 0200, dir, sim, &sim_pl_reset_fops);
	for (i = 0; i < NPUKIT_CPU_ITEMS; i++)
		debugfs_create_u32(sim_cpu_knobs[i], 0600, dir, &sim->cpu_ps[i]);
}

/**
 * npukit_sim_set_timing - set the timing knobs (module parameters)
 * @sim: the model, before its first register access
 * @t: the knobs
 */
void npukit_sim_set_timing(struct npukit_sim *sim,
			   const struct npukit_sim_timing *t)
{
	sim->timing = *t;
}

/**
 * npukit_sim_create - a simulated NpuKit in its power-on state
 * @dev: the device that owns it (for DMA cache maintenance)
 * @bad_id: make the ID register read 0, as a fabric without the bitstream
 *
 * Return: the model, or NULL when out of memory.
 */
struct npukit_sim *npukit_sim_create(struct device *dev, bool bad_id)
{
	struct npukit_sim *sim = kzalloc(sizeof(*sim), GFP_KERNEL);

	if (!sim)
		return NULL;
	sim->dev = dev;
	sim->bad_id = bad_id;
	sim->slow = 1;
	sim->timing = (struct npukit_sim_timing)NPUKIT_SIM_TIMING_DEFAULT;
	sim->reset_line = true;
	npukit_sim_cpu_init(sim);
	npukit_sim_reset_regs(sim);
	sim->mm2s.dmasr = NPUKIT_DMASR_HALTED;
	sim->s2mm.dmasr = NPUKIT_DMASR_HALTED;
	atomic_set(&sim->dma_error, 0);
	npukit_sim_bus_init(sim);
	return sim;
}

/**
 * npukit_sim_destroy - free a model
 * @sim: the model, or NULL
 */
void npukit_sim_destroy(struct npukit_sim *sim)
{
	if (!sim)
		return;
	npukit_sim_bus_exit(sim);
	kfree(sim);
}
