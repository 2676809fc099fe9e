// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_job.c - NPUKIT_IOCTL_SUBMIT: memory, staging, results
 *
 * Every argument is checked before anything runs (npukit_submit_args.c),
 * and the Out fields are written once, so that a submit struct that
 * cannot be written fails before anything runs too.
 *
 * Before anything runs, the part of every kick the device uses (struct
 * npukit_kick, 136 bytes, whatever the caller's @kick_size) is copied into
 * kernel memory charged to the caller's memory cgroup, and checked there:
 * what runs is what was checked, and a process whose pages are slow to
 * come (userfaultfd, FUSE, swap) waits for them before it holds up
 * anybody else. The result slots (at most 1 MiB) are pinned and charged
 * to the caller's RLIMIT_MEMLOCK (npukit_pin.c). What all batches of a
 * device hold at once is capped (npukit_job_reserve()), so callers of the
 * device cannot make much of a 512 MB board's memory unreclaimable.
 *
 * The batch runs in chunks of up to %NPUKIT_CHUNK_KICKS: put their A||B
 * tiles (the first 128 bytes of struct npukit_kick are exactly the stream
 * the IP consumes) in the TX buffer with one cache flush, run them, write
 * the C tiles from the RX buffer to their pinned slots, and confirm the
 * last run (GEMM_DONE). Under the device lock nothing touches memory that
 * can fault.
 *
 * A sum (kicks accumulating after a CLEAR) may span chunks. The device
 * keeps it only while the batch holds the lock, so the batch holds the
 * lock for sections that end at a sum boundary (npukit_job_section()):
 * a chunk ends at the last sum boundary within its %NPUKIT_CHUNK_KICKS
 * kicks when there is one (npukit_job_chunk_len()), and a section ends
 * with the first chunk that ends at a sum boundary. So a section is at
 * most the sum it began with and one chunk more, whatever the pattern of
 * CLEARs; the device lock is first come, first served (npukit_lock.c), so
 * another batch waits at most that long. A sum is never interleaved with
 * another's and so never replayed. A batch with a sum left going when a
 * chunk ends overlaps that run with the next chunk's first tile load, as
 * within a chunk.
 *
 * The call is bounded by the batch's deadline and by signals throughout:
 * waiting for memory or for the device, and between any two chunks.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/build_bug.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "npukit_dev.h"

static_assert(offsetof(struct npukit_kick, b) == NPUKIT_TILE_BYTES);
static_assert(offsetof(struct npukit_kick, flags) == NPUKIT_AB_BYTES);
static_assert(sizeof(struct npukit_kick) % 8 == 0);
static_assert(NPUKIT_TILE_ELEMS * sizeof(s32) == NPUKIT_C_BYTES);
/* struct npukit_job's rb_kick holds an index in a chunk in a byte */
static_assert(NPUKIT_CHUNK_KICKS <= 256);

/**
 * struct npukit_job - one SUBMIT, from its arguments to its Out fields
 * @args: the arguments, and the Out fields being filled in
 * @b: the batch on the hardware: deadline, runs confirmed, status
 * @kicks: every kick of the batch, copied in and checked
 * @held: bytes of the device's cap this batch holds (npukit_job_reserve())
 * @result_mem: the result slots, pinned for writing
 * @done: kicks complete for userspace: run, and read-back written
 * @ran: a chunk of this batch went to the hardware
 * @base: index of the first staged kick
 * @n: kicks staged
 * @nres: of those, kicks that read C back
 * @written: read-backs of the chunk written to their result slots
 * @chunk_ran: the staged chunk went to the hardware
 * @t_dev: device time of the batch's locked sections
 * @reads: register reads of those
 * @writes: register writes of those
 * @t0: device time when the current section took the lock
 * @reads0: register reads then
 * @writes0: register writes then
 * @hw: what the protocol does with each
 * @slots: result slot of each read-back, in order
 * @rb_kick: index in the chunk of the kick of each read-back, in order
 */
struct npukit_job {
	struct npukit_submit args;
	struct npukit_batch b;
	struct npukit_kick *kicks;
	u64 held;
	struct npukit_pinned result_mem;
	u32 done;
	bool ran;
	u32 base;
	u32 n;
	u32 nres;
	u32 written;
	bool chunk_ran;
	u64 t_dev;
	u64 reads;
	u64 writes;
	u64 t0;
	u64 reads0;
	u64 writes0;
	struct npukit_hw_kick hw[NPUKIT_CHUNK_KICKS];
	u32 slots[NPUKIT_CHUNK_KICKS];
	u8 rb_kick[NPUKIT_CHUNK_KICKS];
};

/*
 * The length of the chunk that begins at kick @base: %NPUKIT_CHUNK_KICKS
 * kicks, or fewer to end at the last sum boundary among them (a kick that
 * CLEARs), so that the batch can let go of the device there
 * (npukit_job_section()). A chunk within a sum longer than a chunk has
 * none, and is whole.
 */
static u32 npukit_job_chunk_len(const struct npukit_job *job, u32 base)
{
	u32 end = min_t(u32, base + NPUKIT_CHUNK_KICKS, job->args.kick_count);
	u32 i;

	if (end == job->args.kick_count ||
	    job->kicks[end].flags & NPUKIT_KICK_CLEAR)
		return end - base;
	for (i = end - 1; i > base; i--)
		if (job->kicks[i].flags & NPUKIT_KICK_CLEAR)
			return i - base;
	return end - base;
}

/* What the protocol does with each kick of the chunk that begins at @base */
static void npukit_job_stage(struct npukit_device *nd, struct npukit_job *job,
			     u32 base)
{
	u32 i, n = npukit_job_chunk_len(job, base), nres = 0;

	npukit_cpu_work(nd, NPUKIT_CPU_KICK, n);
	for (i = 0; i < n; i++) {
		const struct npukit_kick *k = &job->kicks[base + i];

		job->hw[i].ctrl = NPUKIT_CTRL_START |
				  (k->flags & NPUKIT_KICK_CLEAR ?
				   NPUKIT_CTRL_CLEAR : 0);
		job->hw[i].read_c = k->flags & NPUKIT_KICK_READ_C;
		if (job->hw[i].read_c) {
			job->rb_kick[nres] = i;
			job->slots[nres++] = k->c_slot;
		}
	}
	npukit_cpu_work(nd, NPUKIT_CPU_READBACK, nres);
	job->base = base;
	job->n = n;
	job->nres = nres;
	job->written = 0;
	job->chunk_ran = false;
}

/*
 * Kicks complete for userspace: every kick up to the first one whose run
 * was not confirmed or whose read-back was not written. The last run of a
 * chunk may still be unconfirmed when the next chunk is staged
 * (npukit_job_run_chunk()): then nothing of that chunk is complete either.
 */
static void npukit_job_count(struct npukit_job *job)
{
	u32 done;

	if (job->b.runs_done < job->base)
		return;
	done = min(job->n, job->b.runs_done - job->base);
	/* the first read-back not written: its kick is not complete */
	if (job->written < job->nres)
		done = min_t(u32, done, job->rb_kick[job->written]);
	job->done = job->base + done;
}

/*
 * Write the chunk's first @landed read-backs, in the RX buffer, to their
 * result slots, and count the kicks that are then complete. The slots are
 * pinned: each is written whole, and nothing here can fault or fail.
 */
static void npukit_job_deliver(struct npukit_device *nd, struct npukit_job *job,
			       u32 landed)
{
	u32 from = job->written;
	s32 tile[NPUKIT_TILE_ELEMS];

	for (; job->written < landed; job->written++) {
		const void *src = (const u8 *)nd->rx +
				  job->written * NPUKIT_C_BYTES;
		const __le32 *le = src;
		u32 w;

		/* the IP streams little-endian int32, what userspace gets */
		if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN)) {
			for (w = 0; w < NPUKIT_TILE_ELEMS; w++)
				tile[w] = (s32)le32_to_cpu(le[w]);
			src = tile;
		}
		npukit_pinned_write(&job->result_mem,
				    (size_t)job->slots[job->written] *
				    NPUKIT_C_BYTES, src, NPUKIT_C_BYTES);
	}
	npukit_cpu_work(nd, NPUKIT_CPU_COPY, (landed - from) * NPUKIT_C_BYTES);
}

/*
 * Queue for the device until the batch's deadline, or a signal: nothing
 * of the batch runs while it waits, and the wait is part of the call.
 */
static int npukit_job_lock(struct npukit_device *nd, struct npukit_job *job)
{
	int ret = npukit_lock_until(&nd->lock, TASK_INTERRUPTIBLE,
				    job->b.deadline_ns);

	if (ret) {
		job->b.status = ret == -ETIMEDOUT ? NPUKIT_STATUS_TIMEOUT :
			NPUKIT_STATUS_INTERRUPTED;
		return ret;
	}
	job->t0 = npukit_now_ns(nd);
	job->reads0 = nd->io.reads;
	job->writes0 = nd->io.wseq;
	return 0;
}

/*
 * Confirm the batch's last run, which a chunk leaves going for the next
 * chunk to overlap (npukit_job_run_chunk()), and count it; or recover
 * when it failed. Return: 0, or its errno (@job->b.status says why).
 */
static int npukit_job_finish(struct npukit_device *nd, struct npukit_job *job)
{
	int ret = npukit_hw_finish(nd, &job->b);

	if (ret)
		npukit_recover(nd);
	npukit_job_count(job);
	return ret;
}

/* Let go of the device, with nothing in flight: see npukit_job_finish(). */
static int npukit_job_unlock(struct npukit_device *nd, struct npukit_job *job)
{
	int ret = npukit_job_finish(nd, job);

	/* the invariant: nothing a batch started survives its lock */
	npukit_check_idle(nd);
	job->t_dev += npukit_now_ns(nd) - job->t0;
	job->reads += nd->io.reads - job->reads0;
	job->writes += nd->io.wseq - job->writes0;
	npukit_io_publish(nd);
	npukit_unlock(&nd->lock);
	return ret;
}

/*
 * Cache maintenance of a DMA buffer (HP0 is not coherent), and its share
 * of board time charged to the model beside it, so neither goes without
 * the other.
 */
static void npukit_sync_for_device(struct npukit_device *nd, dma_addr_t addr,
				   size_t bytes, enum dma_data_direction dir)
{
	dma_sync_single_for_device(nd->dev, addr, bytes, dir);
	npukit_cpu_sync(nd, bytes);
}

static void npukit_sync_for_cpu(struct npukit_device *nd, dma_addr_t addr,
				size_t bytes, enum dma_data_direction dir)
{
	dma_sync_single_for_cpu(nd->dev, addr, bytes, dir);
	npukit_cpu_sync(nd, bytes);
}

/*
 * Run the staged chunk and write the C tiles that landed to their slots,
 * failed or not, so that the Out fields count every kick that completed.
 * Its last run, when it reads nothing back, may still be going on return:
 * the next chunk's first tile load overlaps it as any load overlaps the
 * run before it, and confirms it (npukit_hw_run_chunk());
 * npukit_job_unlock() confirms it when the batch lets go of the device
 * instead. By then the TX buffer is free (every tile of the chunk has
 * landed) and no S2MM is in flight.
 */
static int npukit_job_run_chunk(struct npukit_device *nd,
				struct npukit_job *job)
{
	u32 i, landed;
	int ret;

	for (i = 0; i < job->n; i++)
		memcpy((u8 *)nd->tx + i * NPUKIT_AB_BYTES,
		       &job->kicks[job->base + i], NPUKIT_AB_BYTES);
	npukit_cpu_work(nd, NPUKIT_CPU_COPY, job->n * NPUKIT_AB_BYTES);
	/* HP0 is not coherent: one flush for the chunk's tiles */
	npukit_sync_for_device(nd, nd->tx_dma, job->n * NPUKIT_AB_BYTES,
			       DMA_TO_DEVICE);
	/* and no dirty line may later be evicted over the C tiles */
	if (job->nres)
		npukit_sync_for_device(nd, nd->rx_dma,
				       job->nres * NPUKIT_C_BYTES,
				       DMA_FROM_DEVICE);
	/* the tiles are in memory before the (relaxed) writes start MM2S */
	wmb();
	job->ran = true;
	job->chunk_ran = true;
	ret = npukit_hw_run_chunk(nd, &job->b, job->hw, job->n);
	landed = job->b.chunk_readbacks;
	if (landed) {
		/* the (relaxed) status reads that saw S2MM finish come first */
		rmb();
		npukit_sync_for_cpu(nd, nd->rx_dma, landed * NPUKIT_C_BYTES,
				    DMA_FROM_DEVICE);
		npukit_job_deliver(nd, job, landed);
	}
	npukit_job_count(job);
	if (ret)
		npukit_recover(nd);
	return ret;
}

/* The device lock is held and a chunk staged: may it run? */
static int npukit_job_may_run(struct npukit_device *nd, struct npukit_job *job)
{
	if (READ_ONCE(nd->gone))
		return -ENODEV;
	if (nd->failed) {
		atomic64_inc(&nd->stats.failed_submits);
		job->b.status = NPUKIT_STATUS_DEVICE_FAILED;
		return -EIO;
	}
	if (ktime_get_ns() >= job->b.deadline_ns) {
		job->b.status = NPUKIT_STATUS_TIMEOUT;
		return -ETIMEDOUT;
	}
	/* any signal: the caller learns how far it got (kicks_done) */
	if (signal_pending(current)) {
		job->b.status = NPUKIT_STATUS_INTERRUPTED;
		return -EINTR;
	}
	return 0;
}

/* The device lock is held and a chunk staged: run it if it may. */
static int npukit_job_chunk(struct npukit_device *nd, struct npukit_job *job)
{
	int ret, err;

	ret = npukit_job_may_run(nd, job);
	if (ret) {
		/*
		 * The batch stops before the chunk, as it would have after
		 * the chunk before had finished: the run that one left going
		 * is confirmed first, and a failure of it is what it gets.
		 */
		err = npukit_job_finish(nd, job);
		return err ? err : ret;
	}
	return npukit_job_run_chunk(nd, job);
}

/*
 * With the lock held: run the staged chunk and the chunks after it up to
 * the first that ends at a sum boundary, or the batch's end. The
 * accumulators hold the sum that is open, so the lock is not let go
 * before it ends; see npukit_job_chunk_len() for why a section is at most
 * a sum and a chunk long.
 */
static int npukit_job_section(struct npukit_device *nd, struct npukit_job *job)
{
	u32 end;
	int ret;

	for (;;) {
		ret = npukit_job_chunk(nd, job);
		end = job->base + job->n;
		if (ret || end == job->args.kick_count ||
		    job->kicks[end].flags & NPUKIT_KICK_CLEAR)
			return ret;
		npukit_job_stage(nd, job, end);
	}
}

/*
 * The batch, one section at a time. A sum is never interrupted by another
 * batch and never replayed, so it always makes progress; between sections
 * the lock is handed to the longest waiter, if any
 * (Documentation/npukit/design.rst).
 */
static int npukit_job_run(struct npukit_device *nd, struct npukit_job *job)
{
	u32 next = 0;
	int ret, last;

	for (;;) {
		npukit_job_stage(nd, job, next);
		ret = npukit_job_lock(nd, job);
		if (ret)
			return ret;
		ret = npukit_job_section(nd, job);
		last = npukit_job_unlock(nd, job);
		if (ret || last)
			return ret ? ret : last;
		next = job->base + job->n;
		if (next == job->args.kick_count)
			return 0;
	}
}

/*
 * A batch counts itself without the device lock (struct npukit_stats): a
 * batch stopped by a fatal signal while it waited for the device must not
 * then wait for it again, behind a holder that may run a long sum.
 */
static void npukit_account(struct npukit_device *nd,
			   const struct npukit_job *job, int ret)
{
	struct npukit_stats *s = &nd->stats;
	const struct npukit_batch *b = &job->b;

	atomic64_inc(&s->batches);
	atomic64_add(job->done, &s->kicks);
	atomic64_add(b->readbacks, &s->readbacks);
	atomic64_add(b->dma_bytes, &s->dma_bytes);
	atomic64_add(job->t_dev, &s->device_ns);
	if (!ret)
		return;
	atomic64_inc(&s->errors);
	switch (b->status) {
	case NPUKIT_STATUS_TIMEOUT:
		atomic64_inc(&s->timeouts);
		break;
	case NPUKIT_STATUS_DMA_ERROR:
		atomic64_inc(&s->dma_errors);
		break;
	case NPUKIT_STATUS_DEVICE_HANG:
		atomic64_inc(&s->hangs);
		break;
	case NPUKIT_STATUS_INTERRUPTED:
		atomic64_inc(&s->interrupted);
		break;
	}
}

/*
 * What one batch holds of the device's cap while it runs: its kicks'
 * copy and its pinned result pages.
 */
static u64 npukit_job_bytes(const struct npukit_submit *args)
{
	return (u64)args->kick_count * sizeof(struct npukit_kick) +
	       (u64)args->result_count * NPUKIT_C_BYTES + PAGE_SIZE;
}

static bool npukit_job_try_hold(struct npukit_device *nd, u64 bytes)
{
	s64 old = atomic64_read(&nd->held_bytes);

	do {
		/* a batch alone is always let in: none is above the cap */
		if (old && old + bytes > NPUKIT_HELD_BYTES_MAX)
			return false;
	} while (!atomic64_try_cmpxchg(&nd->held_bytes, &old, old + bytes));
	return true;
}

/*
 * Take the batch's share of what the device's batches may hold at once,
 * %NPUKIT_HELD_BYTES_MAX: waiting for other batches to end is bounded by
 * the deadline and any signal, like the wait for the device, and comes
 * after the kicks are found valid. Return: 0; an argument's errno (Out
 * fields not written); or -ETIMEDOUT or -EINTR with @job's status set.
 */
static int npukit_job_reserve(struct npukit_device *nd, struct npukit_job *job)
{
	u64 bytes = npukit_job_bytes(&job->args);
	s64 left;
	long ret;

	if (npukit_job_try_hold(nd, bytes))
		goto held;
	ret = npukit_kicks_precheck(nd, &job->args);
	if (ret)
		return ret;
	left = job->b.deadline_ns - (s64)ktime_get_ns();
	if (left <= 0)
		ret = -ETIME;
	else
		ret = wait_event_interruptible_hrtimeout(nd->held_wq,
							 npukit_job_try_hold(nd, bytes),
							 ns_to_ktime(left));
	if (ret) {
		job->b.status = ret == -ETIME ? NPUKIT_STATUS_TIMEOUT :
			NPUKIT_STATUS_INTERRUPTED;
		return ret == -ETIME ? -ETIMEDOUT : -EINTR;
	}
held:
	job->held = bytes;
	return 0;
}

static void npukit_job_release(struct npukit_device *nd, struct npukit_job *job)
{
	kvfree(job->kicks);
	job->kicks = NULL;
	if (!job->held)
		return;
	atomic64_sub(job->held, &nd->held_bytes);
	job->held = 0;
	wake_up_all(&nd->held_wq);
}

/* The Out fields, from what the batch did */
static int npukit_job_out(struct npukit_job *job, void __user *uarg)
{
	const size_t out = offsetof(struct npukit_submit, kicks_done);
	struct npukit_submit *args = &job->args;

	args->device_ns = job->t_dev;
	args->mmio_reads = job->reads;
	args->mmio_writes = job->writes;
	args->kicks_done = job->done;
	args->status = job->b.status;
	args->dma_bytes = job->b.dma_bytes;
	return copy_to_user((u8 __user *)uarg + out, (u8 *)args + out,
			    sizeof(*args) - out) ? -EFAULT : 0;
}

/*
 * The batch's memory, before anything runs: its share of the device's
 * cap, its kicks copied in and checked, its result slots pinned. Return:
 * 0; an argument's errno, with the Out fields not written; or, with them
 * written (nothing ran), -ETIMEDOUT or -EINTR from the wait for the cap,
 * -ENOMEM, or -EFAULT for result memory that cannot be pinned.
 */
static int npukit_job_prepare(struct npukit_device *nd, struct npukit_job *job,
			      void __user *uarg)
{
	const size_t out = offsetof(struct npukit_submit, kicks_done);
	struct npukit_submit *args = &job->args;
	int ret;

	job->b.deadline_ns = args->timeout_ns;
	ret = npukit_job_reserve(nd, job);
	if (ret == -ETIMEDOUT || ret == -EINTR)
		return npukit_job_out(job, uarg) ? -EFAULT : ret;
	if (ret)
		return ret;
	job->kicks = kvmalloc_array(args->kick_count, sizeof(*job->kicks),
				    GFP_KERNEL_ACCOUNT);
	if (!job->kicks)
		return -ENOMEM;
	ret = npukit_kicks_load(nd, job->kicks, args);
	if (ret)
		return ret;
	/* a submit struct that cannot take the Out fields fails now */
	memset((u8 *)args + out, 0, sizeof(*args) - out);
	if (npukit_job_out(job, uarg))
		return -EFAULT;
	/* nothing under the device lock may wait for memory (npukit_pin.c) */
	ret = npukit_pin(&job->result_mem, args->results_ptr,
			 (size_t)args->result_count * NPUKIT_C_BYTES, true);
	if (ret)
		return ret;
	npukit_cpu_work(nd, NPUKIT_CPU_PAGE, job->result_mem.npages);
	return 0;
}

/**
 * npukit_ioctl_submit - NPUKIT_IOCTL_SUBMIT
 * @nd: the device
 * @uarg: user pointer to struct npukit_submit
 *
 * Return: 0 when every kick completed. -EINVAL, -E2BIG, -EOVERFLOW,
 * -EFAULT or -ETIME for invalid arguments or memory found bad before
 * anything ran; -ENOMEM when the result slots are over the caller's
 * RLIMIT_MEMLOCK or memory ran out. Once the arguments are valid:
 * -ETIMEDOUT when the deadline passed, waiting or running, -EINTR when a
 * signal came, -EIO when the device failed (@status says which), -EFAULT
 * when kick or result memory failed, -ENODEV when the device went away;
 * the Out fields say exactly how far it got. See
 * Documentation/npukit/index.rst for the full table.
 */
int npukit_ioctl_submit(struct npukit_device *nd, void __user *uarg)
{
	struct npukit_submit *args;
	struct npukit_job *job;
	int ret;

	/* entry and exit, and the submit struct in and out */
	npukit_cpu_work(nd, NPUKIT_CPU_SYSCALL, 1);
	npukit_cpu_work(nd, NPUKIT_CPU_COPY, 3 * sizeof(*args));
	job = kvmalloc(sizeof(*job), GFP_KERNEL_ACCOUNT);
	if (!job)
		return -ENOMEM;
	/* the chunk's arrays are always written before they are read */
	memset(job, 0, offsetof(struct npukit_job, hw));
	args = &job->args;
	ret = npukit_copy_args(args, sizeof(*args), uarg);
	if (!ret)
		ret = npukit_submit_check(nd, args);
	if (ret)
		goto free;
	ret = npukit_job_prepare(nd, job, uarg);
	if (ret)
		goto release;
	ret = npukit_job_run(nd, job);
	npukit_unpin(&job->result_mem);
	npukit_job_release(nd, job);
	npukit_account(nd, job, ret);
	if (npukit_job_out(job, uarg) && !ret)
		ret = -EFAULT;
	goto free;
release:
	npukit_job_release(nd, job);
free:
	kvfree(job);
	return ret;
}
