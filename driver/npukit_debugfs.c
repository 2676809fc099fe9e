// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_debugfs.c - counters, state and reset, and a backend's files
 *
 * /sys/kernel/debug/npukit/npukitN/stats      counters, "name value" lines
 * /sys/kernel/debug/npukit/npukitN/state      "ok" or "failed" (npukit_recover.c)
 * /sys/kernel/debug/npukit/npukitN/reset      write 1: reset the device (PL
 *                                             reset when there is a line),
 *                                             then prove it with the
 *                                             known-answer kick
 * /sys/kernel/debug/npukit/npukitN/...        an instance over a backend:
 *                                             what it adds
 *                                             (&npukit_backend_ops.debugfs;
 *                                             npukit_sim.ko: the fault and
 *                                             timing knobs, "legacy")
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "npukit_dev.h"

static struct dentry *npukit_debugfs_root;

static int npukit_stats_show(struct seq_file *m, void *unused)
{
	struct npukit_device *nd = m->private;
	const struct npukit_stats *s = &nd->stats;

	/* the device lock for most counters, stats_lock for a batch's own */
	if (mutex_lock_killable(&nd->lock))
		return -EINTR;
	spin_lock(&nd->stats_lock);
	seq_printf(m, "backend %s\n", nd->backend ? "simulated" : "hardware");
	seq_printf(m, "batches %llu\n", s->batches);
	seq_printf(m, "kicks %llu\n", s->kicks);
	seq_printf(m, "readbacks %llu\n", s->readbacks);
	seq_printf(m, "dma_bytes %llu\n", s->dma_bytes);
	seq_printf(m, "errors %llu\n", s->errors);
	seq_printf(m, "timeouts %llu\n", s->timeouts);
	seq_printf(m, "dma_errors %llu\n", s->dma_errors);
	seq_printf(m, "hangs %llu\n", s->hangs);
	seq_printf(m, "interrupted %llu\n", s->interrupted);
	seq_printf(m, "failed %u\n", nd->failed);
	seq_printf(m, "recoveries %llu\n", s->recoveries);
	seq_printf(m, "self_test_failures %llu\n", s->self_test_failures);
	seq_printf(m, "pl_resets %llu\n", s->pl_resets);
	seq_printf(m, "failed_submits %llu\n", s->failed_submits);
	seq_printf(m, "mmio_reads %llu\n", nd->io.reads);
	seq_printf(m, "mmio_writes %llu\n", nd->io.wseq);
	seq_printf(m, "device_ns %llu\n", s->device_ns);
	seq_printf(m, "wait_load_ns %u\n", nd->hw.est_load.ns);
	seq_printf(m, "wait_gemm_ns %u\n", nd->hw.est_gemm.ns);
	seq_printf(m, "wait_tx_ns %u\n", nd->hw.est_tx.ns);
	/* irq_chans: 0 polled, 1 mm2s, 2 s2mm, 3 both (NPUKIT_CHAN_*) */
	seq_printf(m, "irq_chans %u\n", nd->irq_chans);
	seq_printf(m, "irqs %lld\n", (long long)atomic64_read(&nd->irq_count));
	seq_printf(m, "irq_errors %lld\n",
		   (long long)atomic64_read(&nd->irq_errors));
	seq_printf(m, "irq_waits %llu\n", s->irq_waits);
	seq_printf(m, "irq_wakeups %llu\n", s->irq_wakeups);
	seq_printf(m, "poll_sleeps %llu\n", s->poll_sleeps);
	if (nd->backend && nd->backend->show_stats && !nd->gone)
		nd->backend->show_stats(nd->backend_priv, m);
	spin_unlock(&nd->stats_lock);
	mutex_unlock(&nd->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npukit_stats);

static int npukit_state_show(struct seq_file *m, void *unused)
{
	struct npukit_device *nd = m->private;

	if (mutex_lock_killable(&nd->lock))
		return -EINTR;
	seq_printf(m, "%s\n", nd->gone ? "gone" : nd->failed ? "failed" : "ok");
	mutex_unlock(&nd->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npukit_state);

/*
 * Writing 1 resets the device and proves it clean: the way out of the
 * failed state. Fails with -EIO when the device stays failed.
 */
static ssize_t npukit_reset_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	struct npukit_device *nd = file->private_data;
	bool val;
	int ret;

	ret = kstrtobool_from_user(buf, count, &val);
	if (ret)
		return ret;
	if (!val)
		return count;
	if (mutex_lock_killable(&nd->lock))
		return -EINTR;
	ret = nd->gone ? -ENODEV : npukit_recover(nd);
	mutex_unlock(&nd->lock);
	return ret ? ret : count;
}

static const struct file_operations npukit_reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = npukit_reset_write,
	.llseek = noop_llseek,
};

/**
 * npukit_debugfs_add - the instance's debugfs directory
 * @nd: the device
 */
void npukit_debugfs_add(struct npukit_device *nd)
{
	nd->debugfs = debugfs_create_dir(nd->name, npukit_debugfs_root);
	debugfs_create_file("stats", 0444, nd->debugfs, nd, &npukit_stats_fops);
	debugfs_create_file("state", 0444, nd->debugfs, nd, &npukit_state_fops);
	debugfs_create_file("reset", 0200, nd->debugfs, nd, &npukit_reset_fops);
	if (nd->backend && nd->backend->debugfs)
		nd->backend->debugfs(nd->backend_priv, nd, nd->debugfs);
}

/**
 * npukit_debugfs_remove - remove it; waits for readers to finish
 * @nd: the device
 */
void npukit_debugfs_remove(struct npukit_device *nd)
{
	debugfs_remove_recursive(nd->debugfs);
	nd->debugfs = NULL;
}

/**
 * npukit_debugfs_init - create /sys/kernel/debug/npukit, at module load
 *
 * The instances' directories go under it (npukit_debugfs_add()). debugfs
 * failures are not fatal: the driver works without its statistics.
 */
void npukit_debugfs_init(void)
{
	npukit_debugfs_root = debugfs_create_dir("npukit", NULL);
}

/**
 * npukit_debugfs_exit - remove /sys/kernel/debug/npukit, at module unload
 *
 * Called after every instance is gone, so no directory under it is in use.
 */
void npukit_debugfs_exit(void)
{
	debugfs_remove_recursive(npukit_debugfs_root);
}
