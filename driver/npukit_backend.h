/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npukit_backend.h - NpuKit instances whose registers are not MMIO
 *
 * npukit.ko binds the NpuKit in the FPGA fabric (device tree) and nothing
 * else. Another module may create an instance over a backend of its own,
 * as npukit_sim.ko does with the register-level model (in the way
 * netdevsim and mac80211_hwsim create their devices): the register
 * accessors of npukit_dev.h then call the backend instead of
 * readl()/writel(), and the very same protocol code runs against it. On
 * hardware the accessors test one pointer and call nothing.
 *
 * Copyright (C) 2026 The npukit authors
 */
#ifndef _NPUKIT_BACKEND_H
#define _NPUKIT_BACKEND_H

#include <linux/interrupt.h>
#include <linux/types.h>

struct dentry;
struct device;
struct module;
struct npukit_device;
struct seq_file;

/**
 * enum npukit_space - which register block an access targets
 * @NPUKIT_SPACE_NPU: the NPU's AXI4-Lite slave
 * @NPUKIT_SPACE_DMA: the AXI DMA's register block
 */
enum npukit_space {
	NPUKIT_SPACE_NPU,
	NPUKIT_SPACE_DMA,
};

/**
 * enum npukit_cpu_item - CPU work a backend's bus model does not see
 * @NPUKIT_CPU_SYSCALL: one system call's entry and exit (an ioctl)
 * @NPUKIT_CPU_SYNC: one cache maintenance call over a range: the call
 *	chain, its barriers and the PL310's cache sync
 * @NPUKIT_CPU_LINE: one 32-byte line cleaned or invalidated in L1 and L2
 * @NPUKIT_CPU_COPY: one byte copied by the CPU (user copies, staging)
 * @NPUKIT_CPU_KICK: the driver's own code for one kick
 * @NPUKIT_CPU_READBACK: the driver's own code for one read-back, beyond
 *	the kick's
 * @NPUKIT_CPU_HOST_KICK: the C++ host's own code for one kick
 * @NPUKIT_CPU_PAGE: one page of a batch's memory pinned and unpinned
 * @NPUKIT_CPU_ITEMS: how many there are
 */
enum npukit_cpu_item {
	NPUKIT_CPU_SYSCALL,
	NPUKIT_CPU_SYNC,
	NPUKIT_CPU_LINE,
	NPUKIT_CPU_COPY,
	NPUKIT_CPU_KICK,
	NPUKIT_CPU_READBACK,
	NPUKIT_CPU_HOST_KICK,
	NPUKIT_CPU_PAGE,
	NPUKIT_CPU_ITEMS,
};

/**
 * struct npukit_backend_ops - what an instance's backend does for it
 * @owner: the module providing the backend: an open node of the instance
 *	holds it, so that the backend outlives every call into it
 * @read: a register read (readl_relaxed())
 * @read_wait: a register read that completes before anything after it is
 *	issued (readl(), npukit_npu_read_wait())
 * @write: a register write (writel_relaxed())
 * @now_ns: device time
 * @delay_ns: let device time pass without bus traffic (ndelay())
 * @cpu_work: charge CPU work that the backend's bus model cannot see
 * @cpu_sync: charge one dma_sync_single_*() over @bytes
 * @add_window: a DMA buffer of the instance: the backend's DMA may reach
 *	it, and only it
 * @set_irq: have the backend deliver the AXI DMA's interrupt (both
 *	channels on one line) by calling @fn(0, @data) in hard interrupt
 *	context. Return: false when it delivers none (every wait polls).
 *	Optional.
 * @irq_sync: wait for a raised or running delivery
 * @sleep_begin: the driver starts to sleep (device time follows real time)
 * @sleep_end: it stopped sleeping
 * @has_reset_line: the PL reset line exists
 * @pl_reset: pull it
 * @debugfs: add the backend's files to the instance's debugfs directory
 *	@dir. Optional.
 * @show_stats: append the backend's own counters to debugfs "stats", as
 *	"name value" lines, with the device locked. Optional.
 * @release: free what the backend's priv holds; called once the instance
 *	is gone and its last open file closed, or when the probe fails
 */
struct npukit_backend_ops {
	struct module *owner;
	u32 (*read)(void *priv, enum npukit_space space, u32 off);
	void (*read_wait)(void *priv, enum npukit_space space, u32 off);
	void (*write)(void *priv, enum npukit_space space, u32 off, u32 val);
	u64 (*now_ns)(void *priv);
	void (*delay_ns)(void *priv, u32 ns);
	void (*cpu_work)(void *priv, enum npukit_cpu_item item, u32 n);
	void (*cpu_sync)(void *priv, size_t bytes);
	int (*add_window)(void *priv, dma_addr_t addr, void *cpu, size_t size);
	bool (*set_irq)(void *priv, irq_handler_t fn, void *data);
	void (*irq_sync)(void *priv);
	void (*sleep_begin)(void *priv);
	void (*sleep_end)(void *priv);
	bool (*has_reset_line)(void *priv);
	void (*pl_reset)(void *priv);
	void (*debugfs)(void *priv, struct npukit_device *nd,
			struct dentry *dir);
	void (*show_stats)(void *priv, struct seq_file *m);
	void (*release)(void *priv);
};

int npukit_backend_probe(struct device *dev,
			 const struct npukit_backend_ops *ops, void *priv);
void npukit_backend_remove(struct device *dev);
int npukit_backend_exclusive(struct npukit_device *nd,
			     int (*fn)(struct npukit_device *nd, void *arg),
			     void *arg);

#endif /* _NPUKIT_BACKEND_H */
