// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_submit_args.c - a SUBMIT's arguments, checked and copied in
 *
 * Every argument is checked before anything runs, each failure with its
 * own errno (npukit_submit_check(), npukit_kick_check()). The part of
 * every kick the device uses (struct npukit_kick, 136 bytes, whatever the
 * caller's @kick_size) is copied into kernel memory and checked there, so
 * that what runs is what was checked; the rest of each kick must be zero,
 * for a later UAPI to give it a meaning.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npukit_dev.h"

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

/**
 * npukit_submit_check - a SUBMIT's own fields: everything but the kicks
 * @nd: the device
 * @args: the arguments, copied in
 *
 * Return: 0, or the errno of the first field found wrong: -EINVAL,
 * -EFAULT for memory outside the address space, -ETIME for a deadline
 * already passed.
 */
int npukit_submit_check(struct npukit_device *nd,
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

/*
 * Copy kicks [@from, @to) in and check their unknown tails: the device
 * uses the first sizeof(struct npukit_kick) bytes of each.
 */
static int npukit_kicks_copy(struct npukit_device *nd, struct npukit_kick *dst,
			     const struct npukit_submit *args, u32 from, u32 to)
{
	const size_t tail = args->kick_size - sizeof(struct npukit_kick);
	const u8 __user *p = u64_to_user_ptr(args->kicks_ptr);
	u32 i;
	int ret;

	p += (size_t)from * args->kick_size;
	if (!tail)
		return copy_from_user(dst, p, (size_t)(to - from) *
				      sizeof(*dst)) ? -EFAULT : 0;
	for (i = from; i < to; i++, p += args->kick_size) {
		if (copy_from_user(dst + (i - from), p, sizeof(*dst)))
			return -EFAULT;
		ret = check_zeroed_user(p + sizeof(*dst), tail);
		if (ret <= 0) {
			dev_dbg(nd->dev, "kick %u: unknown tail not zero\n", i);
			return ret ? ret : -E2BIG;
		}
	}
	return 0;
}

/*
 * Kicks [@from, @to), copied to @k (kick @from at @k[0]) and checked
 */
static int npukit_kicks_take(struct npukit_device *nd, struct npukit_kick *k,
			     const struct npukit_submit *args, u32 from, u32 to)
{
	u32 i;
	int ret;

	ret = npukit_kicks_copy(nd, k, args, from, to);
	if (ret)
		return ret;
	for (i = from; i < to; i++, k++) {
		ret = npukit_kick_check(nd, k->flags, k->c_slot, i,
					args->result_count);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * npukit_kicks_load - every kick, copied in and checked before anything runs
 * @nd: the device
 * @k: room for @args->kick_count kicks
 * @args: the arguments, checked by npukit_submit_check()
 *
 * The batch runs the copy, so a concurrent change of the caller's memory
 * changes nothing.
 *
 * Return: 0, or the errno of the first kick found wrong (-EINVAL,
 * -EOVERFLOW, -E2BIG) or unreadable (-EFAULT).
 */
int npukit_kicks_load(struct npukit_device *nd, struct npukit_kick *k,
		      const struct npukit_submit *args)
{
	u32 i, to;
	int ret;

	for (i = 0; i < args->kick_count; i = to) {
		to = min_t(u32, i + 1024, args->kick_count);
		ret = npukit_kicks_take(nd, k + i, args, i, to);
		if (ret)
			return ret;
		cond_resched();
	}
	npukit_cpu_work(nd, NPUKIT_CPU_COPY,
			args->kick_count * sizeof(struct npukit_kick));
	return 0;
}

#define NPUKIT_PRECHECK_KICKS	32

/**
 * npukit_kicks_precheck - every kick checked, none kept
 * @nd: the device
 * @args: the arguments, checked by npukit_submit_check()
 *
 * For a batch about to wait for the device's cap (npukit_job.c): through
 * a bounce buffer of %NPUKIT_PRECHECK_KICKS, so that an argument error is
 * the same errno, as soon, however busy the device, and the batch holds
 * no memory while it waits. npukit_kicks_load() checks the copy that runs
 * again: the caller's memory may change in between.
 *
 * Return: as npukit_kicks_load(), or -ENOMEM.
 */
int npukit_kicks_precheck(struct npukit_device *nd,
			  const struct npukit_submit *args)
{
	struct npukit_kick *buf;
	u32 i, to;
	int ret = 0;

	buf = kvmalloc_array(NPUKIT_PRECHECK_KICKS, sizeof(*buf),
			     GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < args->kick_count && !ret; i = to) {
		to = min_t(u32, i + NPUKIT_PRECHECK_KICKS, args->kick_count);
		ret = npukit_kicks_take(nd, buf, args, i, to);
		cond_resched();
	}
	kvfree(buf);
	return ret;
}
