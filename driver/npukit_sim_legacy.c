// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_sim_legacy.c - NpuKit's own C++ host sequence, run on the simulated
 * NpuKit, so that the driver and the C++ host are measured with one
 * ruler (Documentation/npukit/board-time.rst).
 *
 * /sys/kernel/debug/npukit/npukitN/legacy (simulated instances only):
 * write "KICKS KRUN PATH" and read back what it cost, "name value" lines:
 * KICKS kicks in sums of KRUN accumulating kicks, each sum's C tile read
 * back, in the register sequence of host/cpp/src/device.cpp of
 * NetKit-Labs/npukit (written from a reading of it, not copied):
 *
 * PATH 0, matmul_i8_legacy() (the A||B path), per kick: read VERSION and
 * write LOAD_CFG, a cache flush of the 128-byte tile (a system call),
 * DMASR read and written back (W1C), MM2S_SA, MM2S_LENGTH, poll MM2S
 * Idle, CTRL = START (| CLEAR), poll GEMM_DONE. Per C tile: S2MM DMASR
 * read and written back, S2MM_DA, S2MM_LENGTH, CTRL = TX_ARM, poll S2MM
 * Idle, a cache invalidate of 256 bytes (a system call), a 256-byte copy.
 *
 * PATH 1, matmul_i8_wmem() (the weight-bank path, NPUKIT_WMEM=1): per
 * sum (one call of the host's matmul per C tile, as in the board's
 * measurement) W_SHAPE, then the bank's KRUN * 64 bytes loaded as above
 * with LOAD_CFG = 3; per kick TILE_KJ, then a 64-byte A load (LOAD_CFG =
 * A only) as above, CTRL = START (| CLEAR) | USE_WMEM, poll GEMM_DONE.
 * The model consumes the bank's words without keeping them, and its run
 * takes as long with USE_WMEM: the figures are the bus's and the CPU's.
 *
 * The CPU work around it (system calls, cache lines, copies, the host's
 * own code per kick) is charged to the model's CPU share
 * (npukit_sim_cpu()), as the driver's own is. It is npukit_sim.ko's, run
 * through npukit_backend_exclusive(): with the device lock, between two
 * sums of any batch (a batch holds it for a whole sum, npukit_job.c), so
 * no sum sees its accumulators; it uses the driver's DMA buffers and
 * leaves no transfer in flight.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "npukit_dev.h"
#include "npukit_sim.h"

/* Reads a poll may take: 5 ms of modelled time, far beyond any transfer */
#define NPUKIT_LEGACY_POLLS	20000
#define NPUKIT_LEGACY_MAX_KICKS	65536
/* The weight bank holds K * N <= 1024 bytes: 16 kicks of one 8-column N */
#define NPUKIT_LEGACY_WMEM_KRUN	16

enum npukit_legacy_path {
	NPUKIT_LEGACY_AB,	/* matmul_i8_legacy() */
	NPUKIT_LEGACY_WMEM,	/* matmul_i8_wmem() */
};

/**
 * struct npukit_legacy_run - one run and what it cost
 * @kicks: kicks run
 * @outputs: C tiles read back
 * @bus_ns: modelled bus time
 * @cpu_ns: modelled CPU time
 * @reads: register reads
 * @writes: register writes
 * @cpu: the CPU items charged
 */
struct npukit_legacy_run {
	u32 kicks;
	u32 outputs;
	u64 bus_ns;
	u64 cpu_ns;
	u64 reads;
	u64 writes;
	u64 cpu[NPUKIT_CPU_ITEMS];
};

static int npukit_legacy_poll(struct npukit_device *nd,
			      enum npukit_space space, u32 off, u32 bit)
{
	unsigned int i;

	for (i = 0; i < NPUKIT_LEGACY_POLLS; i++)
		if (npukit_io_read(nd, space, off) & bit)
			return 0;
	return -EIO;
}

/* The C++ host's cache sync of one buffer: a system call over @bytes */
static void npukit_legacy_sync(struct npukit_device *nd, size_t bytes)
{
	npukit_cpu_work(nd, NPUKIT_CPU_SYSCALL, 1);
	npukit_cpu_sync(nd, bytes);
}

/* load_tile_ab_dma() and its siblings: one MM2S load of @bytes */
static int npukit_legacy_load(struct npukit_device *nd, u32 mode, u32 bytes,
			      bool wait)
{
	if (npukit_npu_read(nd, NPUKIT_VERSION) >= NPUKIT_VERSION_LOAD_CFG)
		npukit_npu_write(nd, NPUKIT_LOAD_CFG, mode);
	npukit_legacy_sync(nd, bytes);
	npukit_dma_write(nd, NPUKIT_MM2S_DMASR,
			 npukit_dma_read(nd, NPUKIT_MM2S_DMASR));
	npukit_dma_write(nd, NPUKIT_MM2S_SA, (u32)nd->tx_dma);
	npukit_dma_write(nd, NPUKIT_MM2S_LENGTH, bytes);
	if (!wait)
		return 0;
	return npukit_legacy_poll(nd, NPUKIT_SPACE_DMA, NPUKIT_MM2S_DMASR,
				  NPUKIT_DMASR_IDLE);
}

/* read_tile_dma(): one C tile */
static int npukit_legacy_read_c(struct npukit_device *nd)
{
	int ret;

	npukit_dma_write(nd, NPUKIT_S2MM_DMASR,
			 npukit_dma_read(nd, NPUKIT_S2MM_DMASR));
	npukit_dma_write(nd, NPUKIT_S2MM_DA, (u32)nd->rx_dma);
	npukit_dma_write(nd, NPUKIT_S2MM_LENGTH, NPUKIT_C_BYTES);
	npukit_npu_write(nd, NPUKIT_CTRL, NPUKIT_CTRL_TX_ARM);
	ret = npukit_legacy_poll(nd, NPUKIT_SPACE_DMA, NPUKIT_S2MM_DMASR,
				 NPUKIT_DMASR_IDLE);
	npukit_legacy_sync(nd, NPUKIT_C_BYTES);
	npukit_cpu_work(nd, NPUKIT_CPU_COPY, NPUKIT_C_BYTES);
	return ret;
}

static int npukit_legacy_kick(struct npukit_device *nd,
			      enum npukit_legacy_path path, u32 k0)
{
	bool first = !k0;
	u32 ctrl = NPUKIT_CTRL_START | (first ? NPUKIT_CTRL_CLEAR : 0);
	int ret;

	npukit_cpu_work(nd, NPUKIT_CPU_HOST_KICK, 1);
	if (path == NPUKIT_LEGACY_AB) {
		ret = npukit_legacy_load(nd, NPUKIT_LOAD_AB, NPUKIT_AB_BYTES,
					 true);
		if (ret)
			return ret;
		npukit_npu_write(nd, NPUKIT_CTRL, ctrl);
		return npukit_legacy_poll(nd, NPUKIT_SPACE_NPU, NPUKIT_STATUS,
					  NPUKIT_STATUS_GEMM_DONE);
	}
	npukit_npu_write(nd, NPUKIT_TILE_KJ, k0);
	ret = npukit_legacy_load(nd, NPUKIT_LOAD_A, NPUKIT_TILE_BYTES, true);
	if (ret)
		return ret;
	npukit_npu_write(nd, NPUKIT_CTRL, ctrl | NPUKIT_CTRL_USE_WMEM);
	return npukit_legacy_poll(nd, NPUKIT_SPACE_NPU, NPUKIT_STATUS,
				  NPUKIT_STATUS_GEMM_DONE);
}

/* load_weight_bank_dma(): a K x 8 bank for a sum of @krun kicks */
static int npukit_legacy_bank(struct npukit_device *nd, u32 krun)
{
	npukit_npu_write(nd, NPUKIT_W_SHAPE, (8 << 16) | (8 * krun));
	return npukit_legacy_load(nd, NPUKIT_LOAD_WMEM,
				  krun * NPUKIT_TILE_BYTES, true);
}

/**
 * struct npukit_legacy_req - one run asked for, and its account
 * @path: which sequence
 * @kicks: kicks in all
 * @krun: kicks a sum
 * @r: what it cost
 */
struct npukit_legacy_req {
	enum npukit_legacy_path path;
	u32 kicks;
	u32 krun;
	struct npukit_legacy_run *r;
};

/* With the device locked (npukit_backend_exclusive()) */
static int npukit_legacy_run(struct npukit_device *nd, void *arg)
{
	const struct npukit_legacy_req *rq = arg;
	enum npukit_legacy_path path = rq->path;
	struct npukit_legacy_run *r = rq->r;
	u32 kicks = rq->kicks, krun = rq->krun;
	struct npukit_sim *sim = nd->backend_priv;
	struct npukit_sim_cpu c0, c1;
	u64 t0, reads0, writes0;
	unsigned int i;
	u32 k;
	int ret = 0;
	/* tiles of ones: what they hold does not change the cost */
	memset(nd->tx, 1, NPUKIT_LEGACY_WMEM_KRUN * NPUKIT_TILE_BYTES);
	dma_sync_single_for_device(nd->dev, nd->tx_dma,
				   NPUKIT_LEGACY_WMEM_KRUN * NPUKIT_TILE_BYTES,
				   DMA_TO_DEVICE);
	t0 = npukit_now_ns(nd);
	reads0 = nd->io.reads;
	writes0 = nd->io.wseq;
	npukit_sim_cpu_counters(sim, &c0);
	memset(r, 0, sizeof(*r));
	for (k = 0; k < kicks && !ret; k++) {
		bool last = k % krun == krun - 1 || k == kicks - 1;

		if (path == NPUKIT_LEGACY_WMEM && !(k % krun))
			ret = npukit_legacy_bank(nd, krun);
		if (!ret)
			ret = npukit_legacy_kick(nd, path, k % krun);
		if (!ret && last) {
			ret = npukit_legacy_read_c(nd);
			r->outputs += !ret;
		}
		r->kicks += !ret;
		if (!(k % NPUKIT_CHUNK_KICKS))
			cond_resched();
	}
	npukit_sim_cpu_counters(sim, &c1);
	r->bus_ns = npukit_now_ns(nd) - t0;
	r->cpu_ns = c1.ns - c0.ns;
	r->reads = nd->io.reads - reads0;
	r->writes = nd->io.wseq - writes0;
	for (i = 0; i < NPUKIT_CPU_ITEMS; i++)
		r->cpu[i] = c1.count[i] - c0.count[i];
	return ret;
}

static int npukit_legacy_open(struct inode *inode, struct file *file)
{
	struct npukit_legacy_run *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return -ENOMEM;
	file->private_data = r;
	return 0;
}

static int npukit_legacy_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static ssize_t npukit_legacy_write(struct file *file, const char __user *buf,
				   size_t count, loff_t *ppos)
{
	struct npukit_device *nd = file_inode(file)->i_private;
	struct npukit_legacy_req rq = { .r = file->private_data };
	u32 kicks, krun, path;
	char cmd[48] = "";	/* one gcc build saw sscanf() read it uninitialized */
	int ret;

	if (count >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, buf, count))
		return -EFAULT;
	cmd[count] = '\0';
	if (sscanf(cmd, "%u %u %u", &kicks, &krun, &path) != 3 ||
	    !kicks || kicks > NPUKIT_LEGACY_MAX_KICKS || !krun ||
	    path > NPUKIT_LEGACY_WMEM ||
	    (path == NPUKIT_LEGACY_WMEM && krun > NPUKIT_LEGACY_WMEM_KRUN))
		return -EINVAL;
	rq.path = path;
	rq.kicks = kicks;
	rq.krun = krun;
	ret = npukit_backend_exclusive(nd, npukit_legacy_run, &rq);
	return ret ? ret : count;
}

static ssize_t npukit_legacy_read(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	static const char * const items[NPUKIT_CPU_ITEMS] = {
		"syscalls", "syncs", "lines", "copy_bytes", "driver_kicks",
		"driver_readbacks", "host_kicks",
	};
	const struct npukit_legacy_run *r = file->private_data;
	char out[512];
	int len, i;

	len = scnprintf(out, sizeof(out),
			"kicks %u\noutputs %u\nbus_ns %llu\ncpu_ns %llu\nreads %llu\nwrites %llu\n",
			r->kicks, r->outputs, r->bus_ns, r->cpu_ns, r->reads,
			r->writes);
	for (i = 0; i < NPUKIT_CPU_ITEMS; i++)
		len += scnprintf(out + len, sizeof(out) - len, "%s %llu\n",
				 items[i], r->cpu[i]);
	return simple_read_from_buffer(buf, count, ppos, out, len);
}

static const struct file_operations npukit_legacy_fops = {
	.owner = THIS_MODULE,
	.open = npukit_legacy_open,
	.release = npukit_legacy_release,
	.read = npukit_legacy_read,
	.write = npukit_legacy_write,
	.llseek = default_llseek,
};

/**
 * npukit_legacy_debugfs - the "legacy" file of a simulated instance
 * @nd: the device, simulated
 * @dir: its debugfs directory
 */
void npukit_legacy_debugfs(struct npukit_device *nd, struct dentry *dir)
{
	debugfs_create_file("legacy", 0600, dir, nd, &npukit_legacy_fops);
}
