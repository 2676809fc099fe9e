// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_debugfs.c - counters, state and reset, and a backend's files
 *
 * /sys/kernel/debug/npukit/npukitN/stats      counters, "name value" lines
 * /sys/kernel/debug/npukit/npukitN/state      "ok" or "failed" (npukit_recover.c)
 * /sys/kernel/debug/npukit/npukitN/reset      write 1: reset the device (PL
 *                                             reset when there is a line),
 *                                             then prove it with the
 *                                             known-answer kick; the same
 *                                             as sysfs "reset"
 * /sys/kernel/debug/npukit/npukitN/auto_recover  Y (default): the driver
 *                                             retries recovery of a failed
 *                                             device on its own; N: only a
 *                                             reset does (tests that need
 *                                             the failed state to stay)
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

/* One line per counter of struct npukit_stats */
static void npukit_stat_line(struct seq_file *m, const char *name, atomic64_t *v)
{
	seq_printf(m, "%s %llu\n", name, (u64)atomic64_read(v));
}

/*
 * Without the device lock, which a batch holds for a whole sum: the
 * counters are atomic, the flags and the wait estimates one word each, the
 * register counts published at each release (npukit_io_publish()), and
 * the model has a lock of its own.
 */
static int npukit_stats_show(struct seq_file *m, void *unused)
{
	struct npukit_device *nd = m->private;
	struct npukit_stats *s = &nd->stats;

	seq_printf(m, "backend %s\n", nd->backend ? "simulated" : "hardware");
	npukit_stat_line(m, "batches", &s->batches);
	npukit_stat_line(m, "kicks", &s->kicks);
	npukit_stat_line(m, "readbacks", &s->readbacks);
	npukit_stat_line(m, "dma_bytes", &s->dma_bytes);
	npukit_stat_line(m, "errors", &s->errors);
	npukit_stat_line(m, "timeouts", &s->timeouts);
	npukit_stat_line(m, "dma_errors", &s->dma_errors);
	npukit_stat_line(m, "hangs", &s->hangs);
	npukit_stat_line(m, "interrupted", &s->interrupted);
	seq_printf(m, "failed %u\n", READ_ONCE(nd->failed));
	npukit_stat_line(m, "recoveries", &s->recoveries);
	npukit_stat_line(m, "recovery_retries", &s->recovery_retries);
	npukit_stat_line(m, "self_test_failures", &s->self_test_failures);
	npukit_stat_line(m, "pl_resets", &s->pl_resets);
	npukit_stat_line(m, "failed_submits", &s->failed_submits);
	npukit_stat_line(m, "mmio_reads", &s->mmio_reads);
	npukit_stat_line(m, "mmio_writes", &s->mmio_writes);
	npukit_stat_line(m, "device_ns", &s->device_ns);
	/* bytes of %NPUKIT_HELD_BYTES_MAX the device's batches hold now */
	npukit_stat_line(m, "held_bytes", &nd->held_bytes);
	seq_printf(m, "wait_load_ns %u\n", READ_ONCE(nd->hw.est_load.ns));
	seq_printf(m, "wait_gemm_ns %u\n", READ_ONCE(nd->hw.est_gemm.ns));
	seq_printf(m, "wait_tx_ns %u\n", READ_ONCE(nd->hw.est_tx.ns));
	/* irq_chans: 0 polled, 1 mm2s, 2 s2mm, 3 both (NPUKIT_CHAN_*) */
	seq_printf(m, "irq_chans %u\n", nd->irq_chans);
	npukit_stat_line(m, "irqs", &nd->irq_count);
	npukit_stat_line(m, "irq_errors", &nd->irq_errors);
	npukit_stat_line(m, "irq_waits", &s->irq_waits);
	npukit_stat_line(m, "irq_wakeups", &s->irq_wakeups);
	npukit_stat_line(m, "poll_sleeps", &s->poll_sleeps);
	if (nd->backend && nd->backend->show_stats && !READ_ONCE(nd->gone))
		nd->backend->show_stats(nd->backend_priv, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npukit_stats);

static int npukit_state_show(struct seq_file *m, void *unused)
{
	struct npukit_device *nd = m->private;

	seq_printf(m, "%s\n", READ_ONCE(nd->gone) ? "gone" :
		   READ_ONCE(nd->failed) ? "failed" : "ok");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npukit_state);

/*
 * Writing 1 resets the device and proves it clean, as sysfs "reset" does
 * (npukit_reset()). Fails with -EIO when the device stays failed.
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
	ret = npukit_reset(nd);
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
	debugfs_create_bool("auto_recover", 0600, nd->debugfs,
			    &nd->auto_recover);
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
