/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npukit_dev.h - NpuKit driver internals shared by its files
 *
 * Every register access goes through the four accessors below. They count
 * the accesses, keep the posted-write bookkeeping that the protocol uses to
 * know when a status read can be trusted, and send the access either to
 * the MMIO mapping or, on an instance another module created over a
 * backend (npukit_backend.h: npukit_sim.ko's register-level model), to the
 * backend, so the very same protocol code runs against both.
 *
 * Copyright (C) 2026 The npukit authors
 */
#ifndef _NPUKIT_DEV_H
#define _NPUKIT_DEV_H

#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <uapi/npukit.h>

#include "npukit_regs.h"
#include "npukit_backend.h"

struct attribute_group;
struct dentry;
struct mm_struct;
struct platform_device;
struct reset_control;

/* Limits of one SUBMIT, reported by GET_INFO */
#define NPUKIT_MAX_KICKS	65536
#define NPUKIT_MAX_RESULTS	4096
#define NPUKIT_KICK_SIZE_MAX	4096
/*
 * What the batches of one device may hold at once: their kicks' copies
 * (136 bytes a kick) and pinned result slots. The largest batch holds
 * 9.5 MiB and is always let in alone; on a 512 MB board the cap keeps
 * what callers of one device make unreclaimable under 5% of its memory.
 */
#define NPUKIT_HELD_BYTES_MAX	(24 * 1024 * 1024)

/*
 * Kicks are staged and run in chunks: one copy from userspace, one cache
 * flush and one copy-out of results per chunk, and a bounded amount of
 * kernel memory whatever the batch size. A chunk is also the longest a
 * batch keeps the device from unbind or a fault from being noticed.
 */
#define NPUKIT_CHUNK_KICKS	64
#define NPUKIT_AB_BYTES		128	/* A||B: the first 128 bytes of a kick */
#define NPUKIT_TX_BYTES		(NPUKIT_CHUNK_KICKS * NPUKIT_AB_BYTES)
/* One C tile per kick of a chunk, plus a scratch tile to drain the NPU */
#define NPUKIT_RX_SCRATCH	NPUKIT_CHUNK_KICKS
#define NPUKIT_RX_BYTES		((NPUKIT_CHUNK_KICKS + 1) * NPUKIT_C_BYTES)

/**
 * struct npukit_io - register access accounting
 * @reads: register reads since probe
 * @wseq: sequence number of the latest write: writes count from 1, so it
 *	is also the number of register writes since probe (one counter fewer
 *	to keep up on every write)
 * @last_issue: @wseq when the latest read was issued
 * @trusted: every write with a sequence number up to this has reached its
 *	slave before the latest read sampled it
 * @npu_wseq: sequence number of the latest write to the NPU
 * @npu_pushed: every NPU write with a sequence number up to this has
 *	landed: a read of the NPU issued after it completed before anything
 *	else was issued (npukit_npu_read_wait()), or a trusted read saw its
 *	effect (npukit_hw.c)
 *
 * AXI reads and writes travel on independent channels and the GP port
 * posts writes, so a read issued right after a write can overtake it and
 * return state from before the write (hardware.rst 8.1). A read that
 * completed has, however, pushed every write issued before it to the
 * slaves; so a read is trusted for all writes issued before the
 * previous read was issued. The NPU and the DMA are two slaves behind the
 * interconnect: a write to one may overtake an earlier write to the other,
 * and only a read of the NPU that the CPU waits for proves that NPU writes
 * have landed before a later DMA write (@npu_pushed, npukit_hw.c).
 */
struct npukit_io {
	u64 reads;
	u64 wseq;
	u64 last_issue;
	u64 trusted;
	u64 npu_wseq;
	u64 npu_pushed;
};

/* AXI DMA channels, as a mask: which interrupt a wait can sleep on */
#define NPUKIT_CHAN_MM2S	BIT(0)
#define NPUKIT_CHAN_S2MM	BIT(1)
#define NPUKIT_CHAN_BOTH	(NPUKIT_CHAN_MM2S | NPUKIT_CHAN_S2MM)
#define NPUKIT_IRQS		2

struct npukit_device;
struct npukit_lock_waiter;

/**
 * struct npukit_lock - the device lock, first come first served, with a
 *	deadline (npukit_lock.c)
 * @wait_lock: guards the rest
 * @held: somebody holds the lock
 * @head: the longest waiter
 * @tail: the newest waiter
 * @dep_map: what lockdep knows of it
 */
struct npukit_lock {
	spinlock_t wait_lock;	/* guards the fields below */
	bool held;
	struct npukit_lock_waiter *head;
	struct npukit_lock_waiter *tail;
	struct lockdep_map dep_map;
};

/* npukit_backend.c: the accessors' calls into a backend, out of line */
u32 npukit_backend_read(struct npukit_device *nd, enum npukit_space space,
			u32 off);
void npukit_backend_read_wait(struct npukit_device *nd, u32 off);
void npukit_backend_write(struct npukit_device *nd, enum npukit_space space,
			  u32 off, u32 val);
u64 npukit_backend_now(struct npukit_device *nd);
void npukit_backend_delay(struct npukit_device *nd, u32 ns);
void npukit_backend_cpu_work(struct npukit_device *nd,
			     enum npukit_cpu_item item, u32 n);
void npukit_backend_cpu_sync(struct npukit_device *nd, size_t bytes);

/**
 * struct npukit_irq - one interrupt line of the AXI DMA
 * @nd: its device
 * @irq: Linux interrupt number (0 for a backend's)
 * @chans: the channels it signals, %NPUKIT_CHAN_*
 */
struct npukit_irq {
	struct npukit_device *nd;
	int irq;
	u32 chans;
};

/**
 * struct npukit_wait_est - adaptive delay before polling one kind of event
 * @ns: time from the triggering write to the first poll that tends to
 *	succeed. Polling earlier only spends 0.25 us bus round trips.
 * @streak: waits in a row that succeeded on their first trusted poll
 *	since @ns last changed
 * @step: how much @ns is shortened after the next such streak
 */
struct npukit_wait_est {
	u32 ns;
	u32 streak;
	u32 step;
};

/**
 * struct npukit_hw_state - protocol state kept across chunks of a batch
 * @est_load: START of kick n to the tile of kick n+1 having landed
 * @est_gemm: START to GEMM_DONE
 * @est_tx: TX_ARM to S2MM idle
 * @run_pending: a START was issued whose GEMM_DONE is not confirmed yet
 * @start_seq: write sequence number of that START
 * @t_start: device time of that START
 * @tx_pending: TX_ARM issued and the C stream not confirmed complete
 * @load_pending: a tile load is programmed and not confirmed landed; its
 *	MM2S completion then also says the running GEMM is over
 */
struct npukit_hw_state {
	struct npukit_wait_est est_load;
	struct npukit_wait_est est_gemm;
	struct npukit_wait_est est_tx;
	bool run_pending;
	u64 start_seq;
	u64 t_start;
	bool tx_pending;
	bool load_pending;
};

/**
 * struct npukit_stats - per-device counters (sysfs stats/, debugfs "stats")
 * @batches: SUBMITs whose arguments were valid
 * @kicks: kicks completed
 * @readbacks: C tiles read back
 * @dma_bytes: bytes moved by the AXI DMA
 * @errors: batches that failed for any reason
 * @timeouts: batches that hit their deadline
 * @dma_errors: batches stopped by an AXI DMA error
 * @hangs: batches stopped because the device made no progress
 * @interrupted: batches stopped by a fatal signal
 * @device_ns: device time of all batches (modelled on a backend)
 * @recoveries: recoveries after a failed batch (npukit_recover.c)
 * @self_test_failures: known-answer kicks that came back wrong or failed
 * @pl_resets: PL resets issued through the reset line
 * @failed_submits: SUBMITs refused because the device is failed
 * @recovery_retries: recoveries the driver retried on its own while the
 *	device was failed (npukit_recover.c)
 * @irq_waits: waits that slept on a DMA interrupt
 * @irq_wakeups: of those, woken by the interrupt before their time limit
 * @poll_sleeps: sleeps between polls of a wait that no interrupt signals
 * @mmio_reads: register reads since probe, as of the last time the device
 *	lock was let go (npukit_io_publish())
 * @mmio_writes: register writes, likewise
 *
 * Each counter is updated and read on its own, without a lock: a reader
 * never waits for a batch, which holds the device lock for a whole sum,
 * and a batch never waits for a reader. atomic64_t rather than u64 so that
 * a 32-bit CPU never shows half an update.
 */
struct npukit_stats {
	atomic64_t batches;
	atomic64_t kicks;
	atomic64_t readbacks;
	atomic64_t dma_bytes;
	atomic64_t errors;
	atomic64_t timeouts;
	atomic64_t dma_errors;
	atomic64_t hangs;
	atomic64_t interrupted;
	atomic64_t device_ns;
	atomic64_t recoveries;
	atomic64_t self_test_failures;
	atomic64_t pl_resets;
	atomic64_t failed_submits;
	atomic64_t recovery_retries;
	atomic64_t irq_waits;
	atomic64_t irq_wakeups;
	atomic64_t poll_sleeps;
	atomic64_t mmio_reads;
	atomic64_t mmio_writes;
};

/**
 * struct npukit_batch - one SUBMIT while it runs on the hardware
 * @deadline_ns: absolute CLOCK_MONOTONIC deadline
 * @runs_done: runs confirmed complete (GEMM_DONE seen); a kick is only
 *	complete for userspace once its read-back is written too (npukit_job.c)
 * @chunk_readbacks: read-backs of the current chunk that landed in the RX
 *	buffer (S2MM idle)
 * @readbacks: C tiles read back
 * @status: &enum npukit_submit_status
 * @dma_bytes: bytes moved by the DMA for this batch
 * @recovery: the recovery's own known-answer kick: a fatal signal does not
 *	stop it, since the device must be proven clean whoever recovers it
 */
struct npukit_batch {
	u64 deadline_ns;
	u32 runs_done;
	u32 chunk_readbacks;
	u32 readbacks;
	u32 status;
	u64 dma_bytes;
	bool recovery;
};

/**
 * struct npukit_hw_kick - what the protocol needs of one kick
 * @ctrl: CTRL value that starts it (START, with CLEAR on the first of a sum)
 * @read_c: read the C tile back after the run
 */
struct npukit_hw_kick {
	u32 ctrl;
	bool read_c;
};

/**
 * struct npukit_pinned - user memory pinned for one batch (npukit_pin.c)
 * @pages: the pinned pages
 * @npages: how many
 * @offset: of the first byte in the first page
 * @size: bytes
 * @write: pinned for the device's results
 * @mm: the address space whose pinned_vm the pages are charged to
 */
struct npukit_pinned {
	struct page **pages;
	unsigned int npages;
	size_t offset;
	size_t size;
	bool write;
	struct mm_struct *mm;
};

/**
 * struct npukit_device - one NpuKit instance
 * @ref: held by the platform device binding and by every open file
 * @dev: the platform device
 * @misc: /dev/npukitN
 * @name: "npukitN"
 * @id: N
 * @npu: NPU register mapping (hardware backend)
 * @dma: AXI DMA register mapping (hardware backend)
 * @backend: the backend's operations, or NULL on hardware
 * @backend_priv: their first argument
 * @lock: the one hardware queue: serialises register access; a batch
 *	holds it for one sum at a time (npukit_job.c)
 * @gone: the device was unbound; open files get -ENODEV, a running batch
 *	stops at its next chunk
 * @failed: recovery could not prove the device clean: every SUBMIT fails
 *	until a recovery does (npukit_recover.c). Written under @lock, read
 *	without it by sysfs and debugfs.
 * @announce: uevents go to the node: set once it is registered, cleared
 *	before it is removed (npukit_recover.c)
 * @auto_recover: the driver retries recovery of a failed device on its own
 *	(debugfs knob; on by default)
 * @retries: automatic retries since the device last became failed
 * @retry_work: the next automatic retry
 * @pl_reset: the PL reset line (the "resets" property), or NULL
 * @held_bytes: what running and queued batches hold of
 *	%NPUKIT_HELD_BYTES_MAX (npukit_job.c)
 * @held_wq: batches waiting for their share of it
 * @io: register access accounting
 * @ip_id: ID register
 * @ip_version: VERSION register
 * @ip_features: FEATURES register
 * @array_n: N register
 * @tx: MM2S buffer: a chunk of A||B tiles
 * @tx_dma: its bus address
 * @rx: S2MM buffer: a chunk of C tiles and a scratch tile
 * @rx_dma: its bus address
 * @hw: protocol state
 * @stats: counters
 * @debugfs: this instance's debugfs directory
 * @irqs: the DMA's interrupt lines in use (npukit_irq.c)
 * @nirqs: how many; 0: every wait polls
 * @irq_chans: channels whose completion raises one of them
 * @irq_wq: a wait sleeping on an interrupt
 * @irq_fired: set by the handler, cleared before a wait arms the interrupt
 * @irq_err: DMASR error bits the handler saw, | channel mask << 16
 * @irq_count: interrupts handled
 * @irq_errors: DMA errors reported by the error interrupt
 */
struct npukit_device {
	struct kref ref;
	struct device *dev;
	struct miscdevice misc;
	char name[24];
	int id;
	void __iomem *npu;
	void __iomem *dma;
	const struct npukit_backend_ops *backend;
	void *backend_priv;
	struct npukit_lock lock;	/* the hardware queue; guards all below */
	bool gone;
	bool failed;
	bool announce;
	bool auto_recover;
	unsigned int retries;
	struct delayed_work retry_work;
	struct reset_control *pl_reset;
	atomic64_t held_bytes;
	wait_queue_head_t held_wq;
	struct npukit_io io;
	u32 ip_id;
	u32 ip_version;
	u32 ip_features;
	u32 array_n;
	void *tx;
	dma_addr_t tx_dma;
	void *rx;
	dma_addr_t rx_dma;
	struct npukit_hw_state hw;
	struct npukit_stats stats;
	struct dentry *debugfs;
	struct npukit_irq irqs[NPUKIT_IRQS];
	unsigned int nirqs;
	u32 irq_chans;
	wait_queue_head_t irq_wq;
	bool irq_fired;
	atomic_t irq_err;
	atomic64_t irq_count;
	atomic64_t irq_errors;
};

/*
 * Register accesses are relaxed: accesses to one device stay in order
 * anyway, and the full readl()/writel() would add a barrier to every one
 * of them (on the Cortex-A9 a DSB plus an L2 cache sync per write). The
 * only ordering against memory that matters, the A||B tiles before the
 * MM2S transfers and the C tiles after the S2MM ones, is made once per
 * chunk in npukit_job.c.
 */
static inline u32 npukit_io_read(struct npukit_device *nd,
				 enum npukit_space space, u32 off)
{
	struct npukit_io *io = &nd->io;
	u32 val;

	io->reads++;
	io->trusted = io->last_issue;
	io->last_issue = io->wseq;
	if (nd->backend)
		val = npukit_backend_read(nd, space, off);
	else if (space == NPUKIT_SPACE_NPU)
		val = readl_relaxed(nd->npu + off);
	else
		val = readl_relaxed(nd->dma + off);
	return val;
}

static inline u64 npukit_io_write(struct npukit_device *nd,
				  enum npukit_space space, u32 off, u32 val)
{
	struct npukit_io *io = &nd->io;
	u64 seq = ++io->wseq;

	if (nd->backend)
		npukit_backend_write(nd, space, off, val);
	else if (space == NPUKIT_SPACE_NPU)
		writel_relaxed(val, nd->npu + off);
	else
		writel_relaxed(val, nd->dma + off);
	if (space == NPUKIT_SPACE_NPU)
		io->npu_wseq = seq;
	return seq;
}

static inline u32 npukit_npu_read(struct npukit_device *nd, u32 off)
{
	return npukit_io_read(nd, NPUKIT_SPACE_NPU, off);
}

/*
 * A read of the NPU that completes before anything after it is issued:
 * every NPU write issued before it has then landed (struct npukit_io,
 * @npu_pushed). A relaxed read does not do it: its value unused, nothing
 * keeps the CPU from issuing a later write to another slave before the
 * read's response is back, and UG585 (3.2.4) orders accesses only within
 * one peripheral. Nor does readl() by what the kernel promises of it:
 * memory-barriers.txt ("KERNEL I/O BARRIER EFFECTS") orders it against
 * accesses to the same peripheral, later reads of memory and delay
 * loops, not against a later write to another peripheral; that ARM's
 * readl() happens to end in a DSB is an implementation detail. The
 * mandatory barrier is what the kernel promises for this: mb() orders
 * every access before it, MMIO through relaxed accessors included, before
 * every access after it as the devices see them (memory-barriers.txt,
 * "CPU MEMORY BARRIERS": mandatory barriers "may be used to control MMIO
 * effects on accesses through relaxed memory I/O windows"); the DMA
 * write that follows cannot be seen before the NPU has answered the read,
 * and the NPU answers it only behind the writes issued to it before (same
 * peripheral, in order). On the Cortex-A9 mb() is a DSB, which completes
 * only once the load has its response (ARMv7-A ARM A3.8.3), and a PL310
 * sync. Documentation/npukit/hardware.rst, "Ordering across the two
 * slaves".
 */
static inline void npukit_npu_read_wait(struct npukit_device *nd, u32 off)
{
	struct npukit_io *io = &nd->io;

	io->reads++;
	io->trusted = io->last_issue;
	io->last_issue = io->wseq;
	io->npu_pushed = io->wseq;
	if (nd->backend) {
		npukit_backend_read_wait(nd, off);
	} else {
		(void)readl_relaxed(nd->npu + off);
		/* the read before any later access to another slave: above */
		mb();
	}
}

/* Returns the write's sequence number, see struct npukit_io. */
static inline u64 npukit_npu_write(struct npukit_device *nd, u32 off, u32 val)
{
	return npukit_io_write(nd, NPUKIT_SPACE_NPU, off, val);
}

static inline u32 npukit_dma_read(struct npukit_device *nd, u32 off)
{
	return npukit_io_read(nd, NPUKIT_SPACE_DMA, off);
}

static inline u64 npukit_dma_write(struct npukit_device *nd, u32 off, u32 val)
{
	return npukit_io_write(nd, NPUKIT_SPACE_DMA, off, val);
}

/* Did the latest read see the effect of write @seq? */
static inline bool npukit_io_landed(const struct npukit_device *nd, u64 seq)
{
	return seq <= nd->io.trusted;
}

/*
 * Let lock-free readers (debugfs "stats") see the register access counts,
 * which the protocol keeps as plain u64 under the device lock; called by
 * every holder that accessed registers before it lets go.
 */
static inline void npukit_io_publish(struct npukit_device *nd)
{
	atomic64_set(&nd->stats.mmio_reads, nd->io.reads);
	atomic64_set(&nd->stats.mmio_writes, nd->io.wseq);
}

/* Device time: a backend's (the model's virtual clock), or CLOCK_MONOTONIC */
static inline u64 npukit_now_ns(struct npukit_device *nd)
{
	if (nd->backend)
		return npukit_backend_now(nd);
	return ktime_get_ns();
}

/* Let device time pass without bus traffic */
static inline void npukit_delay_ns(struct npukit_device *nd, u32 ns)
{
	if (nd->backend)
		npukit_backend_delay(nd, ns);
	else
		ndelay(ns);
}

/*
 * The CPU's share of board time (cache maintenance, copies, system calls,
 * the driver's own code), charged to a backend's model beside the work
 * itself. The bus model cannot see it; on hardware it is simply spent.
 */
static inline void npukit_cpu_work(struct npukit_device *nd,
				   enum npukit_cpu_item item, u32 n)
{
	if (nd->backend)
		npukit_backend_cpu_work(nd, item, n);
}

/* One dma_sync_single_*() over @bytes of a DMA buffer */
static inline void npukit_cpu_sync(struct npukit_device *nd, size_t bytes)
{
	if (nd->backend)
		npukit_backend_cpu_sync(nd, bytes);
}

/* npukit_lock.c */
void npukit_lock_init(struct npukit_lock *l);
int npukit_lock_until(struct npukit_lock *l, unsigned int state,
		      u64 deadline_ns);
void npukit_unlock(struct npukit_lock *l);

/* The device lock for a wait that a fatal signal stops (debugfs, sysfs) */
static inline int npukit_lock_killable(struct npukit_device *nd)
{
	return npukit_lock_until(&nd->lock, TASK_KILLABLE, U64_MAX);
}

/* The device lock for a wait that any signal stops (sysfs reset) */
static inline int npukit_lock_interruptible(struct npukit_device *nd)
{
	return npukit_lock_until(&nd->lock, TASK_INTERRUPTIBLE, U64_MAX);
}

/* The device lock for a wait that nothing stops (unbind) */
static inline void npukit_lock_device(struct npukit_device *nd)
{
	npukit_lock_until(&nd->lock, TASK_UNINTERRUPTIBLE, U64_MAX);
}

static inline void npukit_unlock_device(struct npukit_device *nd)
{
	npukit_unlock(&nd->lock);
}

/* The IP has the LOAD_CFG register (hardware.rst 2, from VERSION 0x301) */
static inline bool npukit_hw_has_load_cfg(const struct npukit_device *nd)
{
	return nd->ip_version >= NPUKIT_VERSION_LOAD_CFG;
}

/*
 * The longest a single event may take before the device is declared hung,
 * in device time: a run is ~0.3 us, ~300 us with the simulator's slowest
 * setting; a tile load or read-back is below 2 us; a DMA reset takes a
 * few cycles (npukit_hw.c, npukit_hw_setup.c).
 */
#define NPUKIT_HANG_NS		(2 * NSEC_PER_MSEC)

/* npukit_hw.c */
void npukit_hw_waits_init(struct npukit_device *nd);
int npukit_hw_run_chunk(struct npukit_device *nd, struct npukit_batch *b,
			const struct npukit_hw_kick *kicks, unsigned int n);
int npukit_hw_finish(struct npukit_device *nd, struct npukit_batch *b);
int npukit_drain_c(struct npukit_device *nd);
bool npukit_hw_idle(const struct npukit_device *nd);

/* npukit_hw_setup.c */
int npukit_hw_init(struct npukit_device *nd);
int npukit_dma_reset(struct npukit_device *nd);
void npukit_hw_restart(struct npukit_device *nd);

/* npukit_recover.c */
int npukit_recover(struct npukit_device *nd);
int npukit_reset(struct npukit_device *nd);
int npukit_recover_init(struct npukit_device *nd);
void npukit_announce_start(struct npukit_device *nd);
void npukit_announce_stop(struct npukit_device *nd);
int npukit_self_test(struct npukit_device *nd);
void npukit_check_idle(struct npukit_device *nd);
int npukit_get_pl_reset(struct npukit_device *nd);

/* npukit_irq.c */
int npukit_irq_init(struct npukit_device *nd, struct platform_device *pdev);
u32 npukit_irq_dmacr(const struct npukit_device *nd, u32 chan);
bool npukit_irq_sleep(struct npukit_device *nd, u32 chan, u64 max_ns);
u32 npukit_irq_take_error(struct npukit_device *nd);
void npukit_irq_sync(struct npukit_device *nd);
void npukit_sleep_range(struct npukit_device *nd, unsigned long min_us,
			unsigned long max_us);

/* npukit_pin.c */
int npukit_pin(struct npukit_pinned *pin, u64 uaddr, size_t size, bool write);
void npukit_unpin(struct npukit_pinned *pin);
void npukit_pinned_write(struct npukit_pinned *pin, size_t off,
			 const void *src, size_t len);

/* npukit_drv.c */
int npukit_copy_args(void *dst, size_t ksize, void __user *uarg);

/* npukit_job.c */
int npukit_ioctl_submit(struct npukit_device *nd, void __user *uarg);

/* npukit_submit_args.c */
int npukit_submit_check(struct npukit_device *nd,
			const struct npukit_submit *args);
int npukit_kicks_load(struct npukit_device *nd, struct npukit_kick *k,
		      const struct npukit_submit *args);
int npukit_kicks_precheck(struct npukit_device *nd,
			  const struct npukit_submit *args);

/* npukit_debugfs.c */
void npukit_debugfs_init(void);
void npukit_debugfs_exit(void);
void npukit_debugfs_add(struct npukit_device *nd);
void npukit_debugfs_remove(struct npukit_device *nd);

/* npukit_sysfs.c: the node's attributes, for &miscdevice.groups */
extern const struct attribute_group *npukit_sysfs_groups[];

#endif /* _NPUKIT_DEV_H */
