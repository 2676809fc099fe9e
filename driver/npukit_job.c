// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_job.c - NPUKIT_IOCTL_SUBMIT: validation, staging, results
 *
 * Every argument is checked before anything runs, each failure with its
 * own errno (see npukit_submit_check() and npukit_kick_check()). The batch
 * then runs in chunks of %NPUKIT_CHUNK_KICKS: copy the kicks in, stage
 * their A||B tiles (the first 128 bytes of struct npukit_kick are exactly
 * the stream the IP consumes) in the TX buffer with one cache flush, run
 * them, and copy the chunk's C tiles out. The kicks are read from
 * userspace twice (flags and slots once up front, then the whole kick);
 * the second read is checked again, so a concurrent change can only fail
 * the batch, never mislead the hardware.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/build_bug.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "npukit_dev.h"

static_assert(offsetof(struct npukit_kick, b) == NPUKIT_TILE_BYTES);
static_assert(offsetof(struct npukit_kick, flags) == NPUKIT_AB_BYTES);
static_assert(sizeof(struct npukit_kick) % 8 == 0);

static int npukit_kick_check(struct npukit_device *nd, u32 flags, u32 c_slot,
			     u32 index, u32 result_count)
{
	if (flags & ~NPUKIT_KICK_FLAGS_ALL) {
		dev_dbg(nd->dev, "kick %u: unknown flags %#x\n", index, flags);
		return -EINVAL;
	}
	if (!index && !(flags & NPUKIT_KICK_CLEAR)) {
		dev_dbg(nd->dev, "kick 0 must clear the accumulators\n");
		return -EINVAL;
	}
	if (!(flags & NPUKIT_KICK_READ_C)) {
		if (c_slot) {
			dev_dbg(nd->dev, "kick %u: c_slot without READ_C\n",
				index);
			return -EINVAL;
		}
		return 0;
	}
	if (c_slot >= result_count) {
		dev_dbg(nd->dev, "kick %u: c_slot %u beyond %u results\n",
			index, c_slot, result_count);
		return -EOVERFLOW;
	}
	return 0;
}

/* The batch's own fields: everything but the kicks. */
static int npukit_submit_check(struct npukit_device *nd,
			       const struct npukit_submit *args)
{
	size_t bytes;

	if (args->flags || args->pad) {
		dev_dbg(nd->dev, "submit: flags %#x / pad %#x must be zero\n",
			args->flags, args->pad);
		return -EINVAL;
	}
	if (!args->kick_count || args->kick_count > NPUKIT_MAX_KICKS) {
		dev_dbg(nd->dev, "submit: kick_count %u not in 1..%u\n",
			args->kick_count, NPUKIT_MAX_KICKS);
		return -EINVAL;
	}
	if (args->result_count > NPUKIT_MAX_RESULTS) {
		dev_dbg(nd->dev, "submit: result_count %u above %u\n",
			args->result_count, NPUKIT_MAX_RESULTS);
		return -EINVAL;
	}
	if (args->kick_size < sizeof(struct npukit_kick) ||
	    args->kick_size > NPUKIT_KICK_SIZE_MAX || args->kick_size % 8) {
		dev_dbg(nd->dev, "submit: kick_size %u invalid\n",
			args->kick_size);
		return -EINVAL;
	}
	if (check_mul_overflow((size_t)args->kick_count,
			       (size_t)args->kick_size, &bytes) ||
	    !access_ok(u64_to_user_ptr(args->kicks_ptr), bytes) ||
	    check_mul_overflow((size_t)args->result_count,
			       (size_t)NPUKIT_C_BYTES, &bytes) ||
	    !access_ok(u64_to_user_ptr(args->results_ptr), bytes)) {
		dev_dbg(nd->dev, "submit: kicks or results outside the address space\n");
		return -EFAULT;
	}
	if (args->timeout_ns <= (s64)ktime_get_ns()) {
		dev_dbg(nd->dev, "submit: deadline already passed\n");
		return -ETIME;
	}
	return 0;
}

/* Flags, slots and tails of every kick, before anything runs. */
static int npukit_kicks_check(struct npukit_device *nd,
			      const struct npukit_submit *args)
{
	const u8 __user *p = u64_to_user_ptr(args->kicks_ptr);
	u32 i, flags, c_slot;
	int ret;

	for (i = 0; i < args->kick_count; i++, p += args->kick_size) {
		if (get_user(flags, (const u32 __user *)
			     (p + offsetof(struct npukit_kick, flags))) ||
		    get_user(c_slot, (const u32 __user *)
			     (p + offsetof(struct npukit_kick, c_slot))))
			return -EFAULT;
		ret = npukit_kick_check(nd, flags, c_slot, i,
					args->result_count);
		if (ret)
			return ret;
		if (args->kick_size > sizeof(struct npukit_kick)) {
			ret = check_zeroed_user(p + sizeof(struct npukit_kick),
						args->kick_size -
						sizeof(struct npukit_kick));
			if (ret <= 0) {
				dev_dbg(nd->dev, "kick %u: unknown tail not zero\n",
					i);
				return ret ? ret : -E2BIG;
			}
		}
		if (!(i % 1024))
			cond_resched();
	}
	return 0;
}

/* Copy kicks [@base, @base + @n) in, check them again, stage them. */
static int npukit_stage_chunk(struct npukit_device *nd,
			      const struct npukit_submit *args, u32 base,
			      u32 n, u32 *nres)
{
	struct npukit_chunk *ch = nd->chunk;
	const u8 __user *p = (const u8 __user *)u64_to_user_ptr(args->kicks_ptr) +
			     (size_t)base * args->kick_size;
	u32 i;
	int ret;

	if (args->kick_size == sizeof(struct npukit_kick)) {
		if (copy_from_user(ch->kicks, p, n * sizeof(struct npukit_kick)))
			return -EFAULT;
	} else {
		for (i = 0; i < n; i++) {
			ret = copy_struct_from_user(&ch->kicks[i],
						    sizeof(ch->kicks[i]),
						    p + (size_t)i * args->kick_size,
						    args->kick_size);
			if (ret)
				return ret;
		}
	}
	*nres = 0;
	for (i = 0; i < n; i++) {
		const struct npukit_kick *k = &ch->kicks[i];

		ret = npukit_kick_check(nd, k->flags, k->c_slot, base + i,
					args->result_count);
		if (ret)
			return ret;
		memcpy((u8 *)nd->tx + i * NPUKIT_AB_BYTES, k, NPUKIT_AB_BYTES);
		ch->hw[i].ctrl = NPUKIT_CTRL_START |
				 (k->flags & NPUKIT_KICK_CLEAR ?
				  NPUKIT_CTRL_CLEAR : 0);
		ch->hw[i].read_c = k->flags & NPUKIT_KICK_READ_C;
		if (ch->hw[i].read_c)
			ch->slots[(*nres)++] = k->c_slot;
	}
	/* HP0 is not coherent: one flush for the chunk's tiles */
	dma_sync_single_for_device(nd->dev, nd->tx_dma, n * NPUKIT_AB_BYTES,
				   DMA_TO_DEVICE);
	/* and no dirty line may later be evicted over the C tiles */
	if (*nres)
		dma_sync_single_for_device(nd->dev, nd->rx_dma,
					   *nres * NPUKIT_C_BYTES,
					   DMA_FROM_DEVICE);
	/* the tiles are in memory before the (relaxed) writes start MM2S */
	wmb();
	return 0;
}

/* The chunk's completed read-backs to their result slots. */
static int npukit_copy_results(struct npukit_device *nd,
			       const struct npukit_submit *args, u32 nres,
			       u32 done)
{
	u8 __user *results = u64_to_user_ptr(args->results_ptr);
	u32 i, w;

	if (!nres)
		return 0;
	/* the (relaxed) status reads that saw S2MM finish come first */
	rmb();
	dma_sync_single_for_cpu(nd->dev, nd->rx_dma, nres * NPUKIT_C_BYTES,
				DMA_FROM_DEVICE);
	for (i = 0; i < done; i++) {
		u32 *c = (u32 *)((u8 *)nd->rx + i * NPUKIT_C_BYTES);

		/* the IP streams little-endian int32 */
		for (w = 0; w < NPUKIT_TILE_ELEMS; w++)
			le32_to_cpus(&c[w]);
		if (copy_to_user(results +
				 (size_t)nd->chunk->slots[i] * NPUKIT_C_BYTES,
				 c, NPUKIT_C_BYTES))
			return -EFAULT;
	}
	return 0;
}

static int npukit_submit_run(struct npukit_device *nd,
			     const struct npukit_submit *args,
			     struct npukit_batch *b)
{
	u32 base, n, nres;
	int ret = 0, err = 0;

	for (base = 0; base < args->kick_count; base += n) {
		n = min_t(u32, NPUKIT_CHUNK_KICKS, args->kick_count - base);
		if (ktime_get_ns() >= b->deadline_ns) {
			b->status = NPUKIT_STATUS_TIMEOUT;
			ret = -ETIMEDOUT;
			break;
		}
		ret = npukit_stage_chunk(nd, args, base, n, &nres);
		if (ret) {
			/* nothing in flight but the previous run */
			err = npukit_hw_finish(nd, b);
			if (err)
				npukit_hw_recover(nd);
			return ret;
		}
		ret = npukit_hw_run_chunk(nd, b, nd->chunk->hw, n);
		err = npukit_copy_results(nd, args, nres, b->chunk_readbacks);
		if (ret || err)
			break;
	}
	if (!ret && !err)
		ret = npukit_hw_finish(nd, b);
	if (ret)
		npukit_hw_recover(nd);
	return ret ? ret : err;
}

static void npukit_account(struct npukit_device *nd,
			   const struct npukit_batch *b, u64 device_ns, int ret)
{
	struct npukit_stats *s = &nd->stats;

	s->batches++;
	s->kicks += b->kicks_done;
	s->readbacks += b->readbacks;
	s->dma_bytes += b->dma_bytes;
	s->device_ns += device_ns;
	if (!ret)
		return;
	s->errors++;
	switch (b->status) {
	case NPUKIT_STATUS_TIMEOUT:
		s->timeouts++;
		break;
	case NPUKIT_STATUS_DMA_ERROR:
		s->dma_errors++;
		break;
	case NPUKIT_STATUS_DEVICE_HANG:
		s->hangs++;
		break;
	case NPUKIT_STATUS_INTERRUPTED:
		s->interrupted++;
		break;
	}
}

/**
 * npukit_ioctl_submit - NPUKIT_IOCTL_SUBMIT
 * @nd: the device
 * @uarg: user pointer to struct npukit_submit
 *
 * Return: 0 when every kick completed; -EINVAL, -E2BIG, -EOVERFLOW,
 * -EFAULT or -ETIME for invalid arguments (nothing ran, nothing written
 * back); -ETIMEDOUT, -EIO or -EINTR when the batch stopped (the Out fields
 * say how far it got and why); -ENODEV once the device is gone.
 */
int npukit_ioctl_submit(struct npukit_device *nd, void __user *uarg)
{
	const size_t out = offsetof(struct npukit_submit, kicks_done);
	struct npukit_submit args;
	struct npukit_batch b = { };
	u64 reads, writes, t0;
	int ret;

	ret = npukit_copy_args(&args, sizeof(args), uarg);
	if (ret)
		return ret;
	ret = npukit_submit_check(nd, &args);
	if (ret)
		return ret;
	ret = npukit_kicks_check(nd, &args);
	if (ret)
		return ret;

	if (mutex_lock_killable(&nd->lock))
		return -EINTR;
	if (nd->gone) {
		mutex_unlock(&nd->lock);
		return -ENODEV;
	}
	b.deadline_ns = args.timeout_ns;
	reads = nd->io.reads;
	writes = nd->io.writes;
	t0 = npukit_now_ns(nd);

	ret = npukit_submit_run(nd, &args, &b);

	args.device_ns = npukit_now_ns(nd) - t0;
	args.mmio_reads = nd->io.reads - reads;
	args.mmio_writes = nd->io.writes - writes;
	args.kicks_done = b.kicks_done;
	args.status = b.status;
	args.dma_bytes = b.dma_bytes;
	npukit_account(nd, &b, args.device_ns, ret);
	mutex_unlock(&nd->lock);

	if (copy_to_user((u8 __user *)uarg + out, (u8 *)&args + out,
			 sizeof(args) - out))
		return ret ? ret : -EFAULT;
	return ret;
}
