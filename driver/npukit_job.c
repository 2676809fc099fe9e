// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_job.c - NPUKIT_IOCTL_SUBMIT: validation, staging, results
 *
 * Every argument is checked before anything runs, each failure with its
 * own errno (see npukit_submit_check() and npukit_kick_check()), and the
 * Out fields are written once, so that a submit struct that cannot be
 * written fails before anything runs too.
 *
 * The batch then runs in chunks of %NPUKIT_CHUNK_KICKS, each staged in a
 * per-SUBMIT kernel buffer (struct npukit_job, bounded whatever the batch
 * size): copy the chunk's kicks in, take the device lock, put their A||B
 * tiles (the first 128 bytes of struct npukit_kick are exactly the stream
 * the IP consumes) in the TX buffer with one cache flush, run them, take
 * the C tiles out of the RX buffer, confirm the last run (GEMM_DONE), and
 * let go of the lock before the tiles are written to userspace. User
 * memory is never touched in a way that can sleep while the lock is held,
 * so a process whose pages fault slowly (userfaultfd, FUSE, swap) holds up
 * nobody else, nor unbind, nor debugfs; and since the lock is let go with
 * nothing in flight, an unbind or another process gets the device within
 * one chunk.
 *
 * A sum (kicks accumulating after a CLEAR) may span chunks. The device
 * keeps it only as long as the batch keeps the lock: between two chunks of
 * one sum the batch keeps the lock if the next chunk's kicks and this
 * chunk's results can be copied without faulting (copy_*_user_nofault()),
 * the usual case; the last run of a chunk then goes on while the next one
 * is staged, and the next chunk's first tile load confirms it, as within
 * a chunk. Otherwise it lets go, copies with faults, and when it
 * gets the device back after another batch used the array, it replays the
 * running sum from its CLEAR (npukit_job_replay(), without read-backs).
 *
 * The kicks are read from userspace twice (flags and slots once up front,
 * then the whole kick); the second read is checked again, so a concurrent
 * change can only fail the batch, never mislead the hardware.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/build_bug.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "npukit_dev.h"

static_assert(offsetof(struct npukit_kick, b) == NPUKIT_TILE_BYTES);
static_assert(offsetof(struct npukit_kick, flags) == NPUKIT_AB_BYTES);
static_assert(sizeof(struct npukit_kick) % 8 == 0);
static_assert(NPUKIT_TILE_ELEMS * sizeof(s32) == NPUKIT_C_BYTES);
/* struct npukit_job's rb_kick holds an index in a chunk in a byte */
static_assert(NPUKIT_CHUNK_KICKS <= 256);

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
	size_t kbytes, rbytes;

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
			       (size_t)args->kick_size, &kbytes) ||
	    !access_ok(u64_to_user_ptr(args->kicks_ptr), kbytes) ||
	    check_mul_overflow((size_t)args->result_count,
			       (size_t)NPUKIT_C_BYTES, &rbytes) ||
	    !access_ok(u64_to_user_ptr(args->results_ptr), rbytes)) {
		dev_dbg(nd->dev, "submit: kicks or results outside the address space\n");
		return -EFAULT;
	}
	/* results written by one chunk would rewrite kicks of a later one */
	if (rbytes && args->results_ptr < args->kicks_ptr + kbytes &&
	    args->kicks_ptr < args->results_ptr + rbytes) {
		dev_dbg(nd->dev, "submit: results overlap the kicks\n");
		return -EINVAL;
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
	npukit_cpu_work(nd, NPUKIT_CPU_COPY, 2 * sizeof(u32) * i);
	return 0;
}

/**
 * struct npukit_job - one SUBMIT, from its arguments to its Out fields
 * @args: the arguments, and the Out fields being filled in
 * @b: the batch on the hardware: deadline, runs confirmed, status
 * @id: tells this batch's running sum from another's (@nd->acc_owner)
 * @done: kicks complete for userspace: run, and read-back written
 * @ran: a chunk of this batch went to the hardware
 * @sum_start: index of the CLEAR kick of the sum open after the last chunk
 * @base: index of the first staged kick
 * @n: kicks staged
 * @nres: of those, kicks that read C back
 * @last_clear: 1 + the index in the chunk of its last CLEAR kick, 0 if none
 * @landed: read-backs of the chunk taken out of the RX buffer, into @c
 * @written: of those, written to their result slots
 * @chunk_ran: the staged chunk went to the hardware
 * @delivered: and its read-backs are all written
 * @t_dev: device time of the batch's locked sections
 * @reads: register reads of those
 * @writes: register writes of those
 * @t0: device time when the current section took the lock
 * @reads0: register reads then
 * @writes0: register writes then
 * @kicks: the chunk's kicks, as copied in
 * @hw: what the protocol does with each
 * @slots: result slot of each read-back, in order
 * @rb_kick: index in the chunk of the kick of each read-back, in order
 * @replay: the protocol's kicks of a sum's replay
 * @c: the chunk's read-backs, CPU byte order
 */
struct npukit_job {
	struct npukit_submit args;
	struct npukit_batch b;
	u64 id;
	u32 done;
	bool ran;
	u32 sum_start;
	u32 base;
	u32 n;
	u32 nres;
	u32 last_clear;
	u32 landed;
	u32 written;
	bool chunk_ran;
	bool delivered;
	u64 t_dev;
	u64 reads;
	u64 writes;
	u64 t0;
	u64 reads0;
	u64 writes0;
	struct npukit_kick kicks[NPUKIT_CHUNK_KICKS];
	struct npukit_hw_kick hw[NPUKIT_CHUNK_KICKS];
	u32 slots[NPUKIT_CHUNK_KICKS];
	u8 rb_kick[NPUKIT_CHUNK_KICKS];
	struct npukit_hw_kick replay[NPUKIT_CHUNK_KICKS];
	s32 c[NPUKIT_CHUNK_KICKS][NPUKIT_TILE_ELEMS];
};

static const void __user *npukit_job_kick_ptr(const struct npukit_job *job,
					      u32 index)
{
	return (const u8 __user *)u64_to_user_ptr(job->args.kicks_ptr) +
	       (size_t)index * job->args.kick_size;
}

static unsigned long npukit_copy_in(void *dst, const void __user *src,
				    size_t size, bool nofault)
{
	return nofault ? copy_from_user_nofault(dst, src, size) :
			 copy_from_user(dst, src, size);
}

/*
 * Copy kicks [@base, @base + %NPUKIT_CHUNK_KICKS) in and check them again;
 * @nofault: fail rather than fault a page in (the device lock is held).
 * A kick's unknown tail was checked to be zero up front and is not copied.
 */
static int npukit_job_stage(struct npukit_device *nd, struct npukit_job *job,
			    u32 base, bool nofault)
{
	const struct npukit_submit *args = &job->args;
	u32 i, n = min_t(u32, NPUKIT_CHUNK_KICKS, args->kick_count - base);
	u32 nres = 0, last_clear = 0;
	int ret;

	if (args->kick_size == sizeof(struct npukit_kick)) {
		if (npukit_copy_in(job->kicks, npukit_job_kick_ptr(job, base),
				   n * sizeof(struct npukit_kick), nofault))
			return -EFAULT;
	} else {
		for (i = 0; i < n; i++)
			if (npukit_copy_in(&job->kicks[i],
					   npukit_job_kick_ptr(job, base + i),
					   sizeof(struct npukit_kick), nofault))
				return -EFAULT;
	}
	npukit_cpu_work(nd, NPUKIT_CPU_COPY, n * sizeof(struct npukit_kick));
	npukit_cpu_work(nd, NPUKIT_CPU_KICK, n);
	for (i = 0; i < n; i++) {
		const struct npukit_kick *k = &job->kicks[i];

		ret = npukit_kick_check(nd, k->flags, k->c_slot, base + i,
					args->result_count);
		if (ret)
			/* changed since the check: EINVAL only if nothing ran */
			return job->ran ? -EFAULT : ret;
		job->hw[i].ctrl = NPUKIT_CTRL_START |
				  (k->flags & NPUKIT_KICK_CLEAR ?
				   NPUKIT_CTRL_CLEAR : 0);
		job->hw[i].read_c = k->flags & NPUKIT_KICK_READ_C;
		if (k->flags & NPUKIT_KICK_CLEAR)
			last_clear = i + 1;
		if (job->hw[i].read_c) {
			job->rb_kick[nres] = i;
			job->slots[nres++] = k->c_slot;
		}
	}
	npukit_cpu_work(nd, NPUKIT_CPU_READBACK, nres);
	job->base = base;
	job->n = n;
	job->nres = nres;
	job->last_clear = last_clear;
	job->landed = 0;
	job->written = 0;
	job->chunk_ran = false;
	job->delivered = false;
	return 0;
}

/*
 * Kicks complete for userspace: every kick up to the first one whose run
 * was not confirmed or whose read-back was not written. A chunk is staged
 * only once every read-back before it is written, but the last run before
 * it may still be unconfirmed (npukit_job_run_chunk()): then nothing of
 * the chunk is complete either.
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
 * Write the chunk's read-backs that landed to their result slots, in
 * order, and count the kicks that are then complete. @nofault: fail
 * rather than fault a page in.
 */
static int npukit_job_deliver(struct npukit_device *nd, struct npukit_job *job,
			      bool nofault)
{
	u8 __user *results = u64_to_user_ptr(job->args.results_ptr);
	u32 from = job->written;
	int ret = 0;

	if (!job->chunk_ran || job->delivered)
		return 0;
	while (job->written < job->landed) {
		void __user *dst = results + (size_t)job->slots[job->written] *
					     NPUKIT_C_BYTES;
		const void *src = job->c[job->written];

		if (nofault ? copy_to_user_nofault(dst, src, NPUKIT_C_BYTES) :
			      copy_to_user(dst, src, NPUKIT_C_BYTES)) {
			ret = -EFAULT;
			break;
		}
		job->written++;
	}
	npukit_cpu_work(nd, NPUKIT_CPU_COPY, (job->written - from) * NPUKIT_C_BYTES);
	npukit_job_count(job);
	job->delivered = !ret;
	return ret;
}

static int npukit_job_lock(struct npukit_device *nd, struct npukit_job *job)
{
	if (mutex_lock_killable(&nd->lock)) {
		job->b.status = NPUKIT_STATUS_INTERRUPTED;
		return -EINTR;
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
	mutex_unlock(&nd->lock);
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
 * The array's accumulators were taken by another batch while this one was
 * faulting its pages in, in the middle of a sum: run the sum's kicks up to
 * the staged chunk again, without read-backs, and not counted. Tiles are
 * copied without faulting (the lock is held): -EAGAIN when one is not at
 * hand, the caller then faults them in without the lock and comes back.
 */
static int npukit_job_replay(struct npukit_device *nd, struct npukit_job *job)
{
	struct npukit_batch rb = { .deadline_ns = job->b.deadline_ns };
	u32 first, i, n;
	int ret;

	for (first = job->sum_start; first < job->base; first += n) {
		n = min_t(u32, NPUKIT_CHUNK_KICKS, job->base - first);
		for (i = 0; i < n; i++) {
			if (copy_from_user_nofault((u8 *)nd->tx +
						   i * NPUKIT_AB_BYTES,
						   npukit_job_kick_ptr(job, first + i),
						   NPUKIT_AB_BYTES))
				return -EAGAIN;
			npukit_cpu_work(nd, NPUKIT_CPU_COPY, NPUKIT_AB_BYTES);
			job->replay[i].ctrl = NPUKIT_CTRL_START |
				(first + i == job->sum_start ?
				 NPUKIT_CTRL_CLEAR : 0);
			job->replay[i].read_c = false;
		}
		npukit_sync_for_device(nd, nd->tx_dma, n * NPUKIT_AB_BYTES,
				       DMA_TO_DEVICE);
		/* the tiles are in memory before the writes start MM2S */
		wmb();
		ret = npukit_hw_run_chunk(nd, &rb, job->replay, n);
		if (!ret)
			ret = npukit_hw_finish(nd, &rb);
		if (ret) {
			job->b.status = rb.status;
			job->b.dma_bytes += rb.dma_bytes;
			npukit_recover(nd);
			return ret;
		}
		job->b.dma_bytes += rb.dma_bytes;
	}
	nd->stats.replays++;
	nd->acc_owner = job->id;
	return 0;
}

/* Fault in the tiles of the running sum, without the lock. */
static int npukit_job_fault_in_sum(struct npukit_job *job)
{
	u8 tile[NPUKIT_AB_BYTES];
	u32 i;

	for (i = job->sum_start; i < job->base; i++) {
		if (copy_from_user(tile, npukit_job_kick_ptr(job, i),
				   sizeof(tile)))
			return -EFAULT;
		if (!(i % 1024))
			cond_resched();
	}
	return 0;
}

/*
 * Take @n C tiles out of the RX buffer, whose slots are in the order of
 * @c's rows and as long. The IP streams little-endian int32: on a
 * little-endian CPU that is already what userspace gets, and one copy of
 * the whole run of tiles costs a fraction of converting word by word.
 */
static void npukit_c_tiles_from_rx(s32 (*c)[NPUKIT_TILE_ELEMS],
				   const void *rx, u32 n)
{
	const __le32 *src = rx;
	u32 w;

	if (!IS_ENABLED(CONFIG_CPU_BIG_ENDIAN)) {
		memcpy(c, rx, n * NPUKIT_C_BYTES);
		return;
	}
	for (w = 0; w < n * NPUKIT_TILE_ELEMS; w++)
		c[w / NPUKIT_TILE_ELEMS][w % NPUKIT_TILE_ELEMS] =
			(s32)le32_to_cpu(src[w]);
}

/*
 * Run the staged chunk and take its C tiles out. Its last run, when it
 * reads nothing back, may still be going on return: the next chunk's
 * first tile load overlaps it as any load overlaps the run before it, and
 * confirms it (npukit_hw_run_chunk()); npukit_job_unlock() confirms it
 * when the batch lets go of the device instead. By then the TX buffer is
 * free (every tile of the chunk has landed) and no S2MM is in flight.
 */
static int npukit_job_run_chunk(struct npukit_device *nd,
				struct npukit_job *job)
{
	u32 i, nres = job->nres;
	int ret;

	for (i = 0; i < job->n; i++)
		memcpy((u8 *)nd->tx + i * NPUKIT_AB_BYTES, &job->kicks[i],
		       NPUKIT_AB_BYTES);
	npukit_cpu_work(nd, NPUKIT_CPU_COPY, job->n * NPUKIT_AB_BYTES);
	/* HP0 is not coherent: one flush for the chunk's tiles */
	npukit_sync_for_device(nd, nd->tx_dma, job->n * NPUKIT_AB_BYTES,
			       DMA_TO_DEVICE);
	/* and no dirty line may later be evicted over the C tiles */
	if (nres)
		npukit_sync_for_device(nd, nd->rx_dma, nres * NPUKIT_C_BYTES,
				       DMA_FROM_DEVICE);
	/* the tiles are in memory before the (relaxed) writes start MM2S */
	wmb();
	job->ran = true;
	job->chunk_ran = true;
	ret = npukit_hw_run_chunk(nd, &job->b, job->hw, job->n);
	job->landed = job->b.chunk_readbacks;
	if (job->landed) {
		/* the (relaxed) status reads that saw S2MM finish come first */
		rmb();
		npukit_sync_for_cpu(nd, nd->rx_dma,
				    job->landed * NPUKIT_C_BYTES,
				    DMA_FROM_DEVICE);
		npukit_cpu_work(nd, NPUKIT_CPU_COPY,
				job->landed * NPUKIT_C_BYTES);
		npukit_c_tiles_from_rx(job->c, nd->rx, job->landed);
	}
	if (ret) {
		npukit_recover(nd);
		return ret;
	}
	nd->acc_owner = job->id;
	if (job->last_clear)
		job->sum_start = job->base + job->last_clear - 1;
	return 0;
}

/* The device lock is held and a chunk staged: may it run? */
static int npukit_job_may_run(struct npukit_device *nd, struct npukit_job *job)
{
	if (READ_ONCE(nd->gone))
		return -ENODEV;
	if (nd->failed) {
		nd->stats.failed_submits++;
		job->b.status = NPUKIT_STATUS_DEVICE_FAILED;
		return -EIO;
	}
	if (ktime_get_ns() >= job->b.deadline_ns) {
		job->b.status = NPUKIT_STATUS_TIMEOUT;
		return -ETIMEDOUT;
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
	if (!(job->kicks[0].flags & NPUKIT_KICK_CLEAR) &&
	    nd->acc_owner != job->id) {
		ret = npukit_job_replay(nd, job);
		if (ret)
			return ret;
	}
	return npukit_job_run_chunk(nd, job);
}

/*
 * Between two chunks, with the lock held: keep it (and the accumulators)
 * when the next chunk goes on with a sum and its memory, and this chunk's
 * results' memory, are at hand. Return: true when the next chunk is
 * staged and the lock kept.
 */
static bool npukit_job_keep(struct npukit_device *nd, struct npukit_job *job,
			    bool *staged)
{
	*staged = false;
	if (npukit_job_deliver(nd, job, true))
		return false;
	*staged = !npukit_job_stage(nd, job, job->base + job->n, true);
	return *staged && !(job->kicks[0].flags & NPUKIT_KICK_CLEAR);
}

static int npukit_job_run(struct npukit_device *nd, struct npukit_job *job)
{
	bool locked = false, staged;
	int ret, err, last;

	ret = npukit_job_stage(nd, job, 0, false);
	if (ret)
		return ret;
	for (;;) {
		if (!locked) {
			ret = npukit_job_lock(nd, job);
			if (ret)
				return ret;
			locked = true;
		}
		ret = npukit_job_chunk(nd, job);
		if (ret == -EAGAIN) {
			/* no run is pending: the replay comes before any */
			ret = npukit_job_unlock(nd, job);
			locked = false;
			if (!ret)
				ret = npukit_job_fault_in_sum(job);
			if (ret)
				return ret;
			continue;
		}
		if (ret || job->base + job->n == job->args.kick_count)
			break;
		if (npukit_job_keep(nd, job, &staged))
			continue;
		ret = npukit_job_unlock(nd, job);
		locked = false;
		err = npukit_job_deliver(nd, job, false);
		if (!ret && !err && !staged)
			err = npukit_job_stage(nd, job, job->base + job->n,
					       false);
		if (ret || err)
			return ret ? ret : err;
	}
	last = npukit_job_unlock(nd, job);
	err = npukit_job_deliver(nd, job, false);
	return ret ? ret : last ? last : err;
}

static void npukit_account(struct npukit_device *nd,
			   const struct npukit_job *job, int ret)
{
	struct npukit_stats *s = &nd->stats;
	const struct npukit_batch *b = &job->b;

	mutex_lock(&nd->lock);
	s->batches++;
	s->kicks += job->done;
	s->readbacks += b->readbacks;
	s->dma_bytes += b->dma_bytes;
	s->device_ns += job->t_dev;
	if (ret) {
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
	mutex_unlock(&nd->lock);
}

/**
 * npukit_ioctl_submit - NPUKIT_IOCTL_SUBMIT
 * @nd: the device
 * @uarg: user pointer to struct npukit_submit
 *
 * Return: 0 when every kick completed. -EINVAL, -E2BIG, -EOVERFLOW,
 * -EFAULT or -ETIME for invalid arguments or memory found bad before
 * anything ran. Once it runs: -ETIMEDOUT, -EIO or -EINTR when the batch
 * stopped (@status says why), -EFAULT when kick or result memory failed,
 * -ENODEV when the device went away; the Out fields say exactly how far
 * it got. See Documentation/npukit/index.rst for the full table.
 */
int npukit_ioctl_submit(struct npukit_device *nd, void __user *uarg)
{
	const size_t out = offsetof(struct npukit_submit, kicks_done);
	struct npukit_submit *args;
	struct npukit_job *job;
	int ret;

	/* entry and exit, and the submit struct in and out */
	npukit_cpu_work(nd, NPUKIT_CPU_SYSCALL, 1);
	npukit_cpu_work(nd, NPUKIT_CPU_COPY, 3 * sizeof(*args));
	job = kvmalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	/* the chunk's arrays are always written before they are read */
	memset(job, 0, offsetof(struct npukit_job, kicks));
	args = &job->args;
	ret = npukit_copy_args(args, sizeof(*args), uarg);
	if (!ret)
		ret = npukit_submit_check(nd, args);
	if (!ret)
		ret = npukit_kicks_check(nd, args);
	if (ret)
		goto free;
	/* a submit struct that cannot take the Out fields fails now */
	memset((u8 *)args + out, 0, sizeof(*args) - out);
	if (copy_to_user((u8 __user *)uarg + out, (u8 *)args + out,
			 sizeof(*args) - out)) {
		ret = -EFAULT;
		goto free;
	}
	job->b.deadline_ns = args->timeout_ns;
	job->id = atomic64_inc_return(&nd->job_ids);

	ret = npukit_job_run(nd, job);
	npukit_account(nd, job, ret);

	args->device_ns = job->t_dev;
	args->mmio_reads = job->reads;
	args->mmio_writes = job->writes;
	args->kicks_done = job->done;
	args->status = job->b.status;
	args->dma_bytes = job->b.dma_bytes;
	if (copy_to_user((u8 __user *)uarg + out, (u8 *)args + out,
			 sizeof(*args) - out) && !ret)
		ret = -EFAULT;
free:
	kvfree(job);
	return ret;
}
