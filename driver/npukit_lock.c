// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_lock.c - the device lock: the one hardware queue
 *
 * A batch holds the device for one section at a time (npukit_job.c) and
 * queues for it again for the next, so the lock must be
 *
 *  - first come, first served, with hand-off: the holder that lets go
 *    between two sections gives the device to the longest waiter, and only
 *    then queues behind it. A mutex does not promise this (an unlocking
 *    task that locks again at once usually wins), and a waiter could then
 *    wait for a whole batch of 65,536 kicks instead of one section;
 *  - bounded by the batch's deadline: SUBMIT's timeout_ns is an absolute
 *    CLOCK_MONOTONIC time for the whole call, the wait for the device
 *    included, and no mutex or semaphore primitive waits interruptibly
 *    with an absolute timeout;
 *  - interruptible by any signal for a SUBMIT, by a fatal one for the
 *    debugfs and sysfs writers, by none for unbind.
 *
 * It is the semaphore's algorithm (kernel/locking/semaphore.c: a FIFO of
 * on-stack waiters under a spinlock, up() hands the lock to the first and
 * wakes it) with an absolute hrtimer deadline. Lockdep sees it as a
 * mutex-like lock through its own map, so ordering against the other
 * locks of the driver is still checked.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>

#include "npukit_dev.h"

/**
 * struct npukit_lock_waiter - a task queued for the device, on its stack
 * @next: the next in the queue
 * @task: the task, woken when the lock is handed to it
 * @granted: the lock was handed to this waiter: it holds it now
 */
struct npukit_lock_waiter {
	struct npukit_lock_waiter *next;
	struct task_struct *task;
	bool granted;
};

/**
 * npukit_lock_init - an unlocked device lock
 * @l: the lock
 */
void npukit_lock_init(struct npukit_lock *l)
{
	static struct lock_class_key key;

	spin_lock_init(&l->wait_lock);
	l->held = false;
	l->head = NULL;
	l->tail = NULL;
	lockdep_init_map(&l->dep_map, "npukit_device_lock", &key, 0);
}

/* Take @w out of the queue, with the wait_lock held. */
static void npukit_lock_dequeue(struct npukit_lock *l,
				struct npukit_lock_waiter *w)
{
	struct npukit_lock_waiter **p = &l->head, *prev = NULL;

	while (*p && *p != w) {
		prev = *p;
		p = &(*p)->next;
	}
	if (!*p)
		return;
	*p = w->next;
	if (l->tail == w)
		l->tail = prev;
}

/*
 * Queue and sleep until the lock is handed over, a signal that @state
 * lets in arrives, or @deadline_ns (CLOCK_MONOTONIC, U64_MAX: none)
 * passes. A hand-off that races with either still counts: the waiter
 * then holds the lock, which is what the caller wanted.
 */
static int npukit_lock_slow(struct npukit_lock *l, unsigned int state,
			    u64 deadline_ns)
	__must_hold(&l->wait_lock)
{
	struct npukit_lock_waiter w = { .task = current };
	ktime_t until = ns_to_ktime(deadline_ns);
	int ret = 0;

	if (l->tail)
		l->tail->next = &w;
	else
		l->head = &w;
	l->tail = &w;
	for (;;) {
		set_current_state(state);
		if (w.granted)
			break;
		if (signal_pending_state(state, current)) {
			ret = -EINTR;
			break;
		}
		if (deadline_ns != U64_MAX && ktime_get_ns() >= deadline_ns) {
			ret = -ETIMEDOUT;
			break;
		}
		spin_unlock(&l->wait_lock);
		if (deadline_ns == U64_MAX)
			schedule();
		else
			schedule_hrtimeout(&until, HRTIMER_MODE_ABS);
		spin_lock(&l->wait_lock);
	}
	__set_current_state(TASK_RUNNING);
	if (!w.granted)
		npukit_lock_dequeue(l, &w);
	return ret;
}

/**
 * npukit_lock_until - take the device lock
 * @l: the lock
 * @state: %TASK_INTERRUPTIBLE (any signal stops the wait),
 *	%TASK_KILLABLE (a fatal one) or %TASK_UNINTERRUPTIBLE
 * @deadline_ns: absolute CLOCK_MONOTONIC time to give up at, or U64_MAX
 *
 * Return: 0 with the lock held, -EINTR when a signal stopped the wait or
 * -ETIMEDOUT when the deadline passed first; then nothing is held.
 */
int npukit_lock_until(struct npukit_lock *l, unsigned int state,
		      u64 deadline_ns)
{
	int ret = 0;

	might_sleep();
	/* before the wait, as mutex_lock() does: lockdep sees a deadlock */
	lock_map_acquire(&l->dep_map);
	spin_lock(&l->wait_lock);
	if (!l->held && !l->head)
		l->held = true;
	else
		ret = npukit_lock_slow(l, state, deadline_ns);
	spin_unlock(&l->wait_lock);
	if (ret)
		lock_map_release(&l->dep_map);
	return ret;
}

/**
 * npukit_unlock - let go of the device lock
 * @l: the lock, held
 *
 * The first waiter, if any, holds the lock on return (hand-off).
 */
void npukit_unlock(struct npukit_lock *l)
{
	struct npukit_lock_waiter *w;

	lock_map_release(&l->dep_map);
	spin_lock(&l->wait_lock);
	w = l->head;
	if (w) {
		l->head = w->next;
		if (!l->head)
			l->tail = NULL;
		/* the waiter cannot leave before it retakes the wait_lock */
		w->granted = true;
		wake_up_process(w->task);
	} else {
		l->held = false;
	}
	spin_unlock(&l->wait_lock);
}
