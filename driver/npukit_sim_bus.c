// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_sim_bus.c - the simulated NpuKit as the CPU sees it: register reads
 * and posted writes over the modelled bus, the clock, sleeps and the
 * interrupt delivered by a timer
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "npukit_regs.h"
#include "npukit_sim_priv.h"

/**
 * npukit_sim_settle - bring the model up to the CPU's clock
 * @sim: the model, locked
 *
 * And drive the interrupt output: a rising edge is delivered to the
 * driver's handler by @sim->irq_timer. Without interrupts nothing observes
 * the model before the next access, which advances it first: the step is
 * skipped, on the hot path.
 */
void npukit_sim_settle(struct npukit_sim *sim)
{
	bool line;

	if (!sim->irq_fn)
		return;
	npukit_sim_advance(sim, sim->now);
	line = npukit_sim_chan_irq(&sim->mm2s) || npukit_sim_chan_irq(&sim->s2mm);
	/* a rising edge the GIC never sees, or a handler run with no cause */
	if ((line && !sim->irq_line &&
	     atomic_dec_if_positive(&sim->irq_lose) < 0) ||
	    (!line && atomic_dec_if_positive(&sim->irq_spurious) >= 0))
		hrtimer_start(&sim->irq_timer, 0, HRTIMER_MODE_REL_HARD);
	sim->irq_line = line;
}

/* Modelled time follows real time while the driver sleeps. */
static void sim_catch_up(struct npukit_sim *sim)
{
	u64 real = ktime_get_ns();

	sim->now += real - sim->real_mark;
	sim->real_mark = real;
}

static enum hrtimer_restart sim_irq_timer(struct hrtimer *timer)
{
	struct npukit_sim *sim = container_of(timer, struct npukit_sim,
					      irq_timer);

	sim->irq_fn(0, sim->irq_data);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart sim_timer(struct hrtimer *timer)
{
	struct npukit_sim *sim = container_of(timer, struct npukit_sim, timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	enum sim_event ev;
	unsigned long flags;
	u64 next;

	spin_lock_irqsave(&sim->lock, flags);
	sim_catch_up(sim);
	npukit_sim_settle(sim);
	next = npukit_sim_next(sim, &ev);
	if (ev != SIM_EV_NONE) {
		/* a board event is due: wake up when it is */
		hrtimer_forward_now(timer, ns_to_ktime(max_t(u64, next - min(next, sim->now),
							     SIM_TIMER_MIN_NS)));
		ret = HRTIMER_RESTART;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
	return ret;
}

static u32 sim_read(struct npukit_sim *sim, enum npukit_space space,
		    u32 off, bool wait)
{
	bool can_sleep = preemptible();
	unsigned long flags;
	u64 sample, preempt;
	u32 val;

	spin_lock_irqsave(&sim->lock, flags);
	sample = sim->now + SIM_READ_SAMPLE_NS;
	if (space == NPUKIT_SPACE_NPU) {
		/*
		 * Accesses to one peripheral arrive in program order (UG585
		 * 3.2.4): a read of the NPU reaches it behind the writes
		 * issued before it, at worst a cycle before the last of them
		 * takes effect (8.1), and after the reads before it.
		 */
		if (sim->npu_land > sample + 1)
			sample = sim->npu_land - 1;
		sample = max(sample, sim->npu_sample + 1);
		sim->npu_sample = sample;
	}
	npukit_sim_advance(sim, sample);
	if (space == NPUKIT_SPACE_NPU)
		val = npukit_sim_npu_read(sim, off);
	else
		val = npukit_sim_dma_read(sim, off);
	/*
	 * The CPU issues its next access a round trip later; it waits for
	 * a read held up behind late writes only when told to, as a DSB or
	 * a use of the value would make it (npukit_sim_read_wait()).
	 */
	sim->now += SIM_READ_RTT_NS;
	if (wait)
		sim->now = max(sim->now, sample + SIM_READ_RTT_NS -
			       SIM_READ_SAMPLE_NS);
	preempt = npukit_sim_preempt(&sim->preempt, &sim->timing, &sim->now,
				     can_sleep);
	sim->cnt.reads++;
	npukit_sim_settle(sim);
	spin_unlock_irqrestore(&sim->lock, flags);
	if (preempt) {
		npukit_sim_sleep_begin(sim);
		usleep_range(div_u64(preempt, NSEC_PER_USEC),
			     div_u64(preempt, NSEC_PER_USEC) + 100);
		npukit_sim_sleep_end(sim);
	}
	return val;
}

/**
 * npukit_sim_read - a register read as the CPU sees it
 * @sim: the model
 * @space: NPU or DMA register block
 * @off: register offset
 *
 * The slave is sampled halfway through the round trip (a read of the NPU
 * no earlier than the NPU writes before it arrive); the CPU issues its
 * next access a nominal round trip later.
 *
 * Return: the register value.
 */
u32 npukit_sim_read(struct npukit_sim *sim, enum npukit_space space,
		    u32 off)
{
	return sim_read(sim, space, off, false);
}

/**
 * npukit_sim_read_wait - a register read the CPU waits for in full
 * @sim: the model
 * @space: NPU or DMA register block
 * @off: register offset
 *
 * As npukit_sim_read(), but nothing is issued after it until its response
 * is back, however late the writes it queued behind landed: readl() on
 * 32-bit ARM, whose DSB waits for the load to complete.
 *
 * Return: the register value.
 */
u32 npukit_sim_read_wait(struct npukit_sim *sim, enum npukit_space space,
			 u32 off)
{
	return sim_read(sim, space, off, true);
}

/**
 * npukit_sim_write - a posted register write
 * @sim: the model
 * @space: NPU or DMA register block
 * @off: register offset
 * @val: value
 *
 * The write takes effect when it lands, %SIM_WRITE_LAND_NS after issue,
 * a write to the DMA up to the overtake knob sooner but never before an
 * earlier one to the DMA; the CPU stalls only when the write queue is
 * full.
 */
void npukit_sim_write(struct npukit_sim *sim, enum npukit_space space,
		      u32 off, u32 val)
{
	struct sim_write *w;
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	if (sim->wq_len == SIM_WRITE_QUEUE) {
		u64 land = sim->wq[npukit_sim_wq_first(sim)].land;

		npukit_sim_advance(sim, land);
		sim->now = max(sim->now, land);
	}
	w = &sim->wq[sim->wq_len];
	w->land = sim->now + SIM_WRITE_LAND_NS;
	if (space == NPUKIT_SPACE_NPU) {
		w->land += sim_knob_ns(&sim->timing.npu_lag, SIM_NPU_LAG_MAX);
		sim->npu_land = max(sim->npu_land, w->land);
	} else {
		w->land -= sim_knob_ns(&sim->timing.overtake, SIM_OVERTAKE_MAX);
		w->land = max(w->land, sim->dma_land);
		sim->dma_land = w->land;
	}
	w->space = space;
	w->off = off;
	w->val = val;
	sim->wq_len++;
	sim->now += SIM_WRITE_NS;
	sim->cnt.writes++;
	npukit_sim_settle(sim);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_now - the model's clock
 * @sim: the model
 *
 * Return: modelled board time in ns since the model was created.
 */
u64 npukit_sim_now(struct npukit_sim *sim)
{
	unsigned long flags;
	u64 now;

	spin_lock_irqsave(&sim->lock, flags);
	/* preempted before the clock is read, as after a failed poll */
	npukit_sim_preempt(&sim->preempt, &sim->timing, &sim->now, false);
	now = sim->now;
	spin_unlock_irqrestore(&sim->lock, flags);
	return now;
}

/**
 * npukit_sim_delay - let modelled time pass, as ndelay() does on hardware
 * @sim: the model
 * @ns: nanoseconds
 */
void npukit_sim_delay(struct npukit_sim *sim, u32 ns)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sim->now += ns;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_set_irq - deliver the DMA's interrupt (module parameter sim_irq)
 * @sim: the model
 * @fn: the driver's interrupt handler; called with irq 0 and @data in hard
 *	interrupt context (a hard hrtimer) on each rising edge of the
 *	interrupt
 * @data: its argument
 *
 * Call before the first register access.
 */
void npukit_sim_set_irq(struct npukit_sim *sim, irq_handler_t fn, void *data)
{
	sim->irq_fn = fn;
	sim->irq_data = data;
}

/**
 * npukit_sim_sleep_begin - the driver is about to sleep
 * @sim: the model
 *
 * From now until npukit_sim_sleep_end() modelled time follows real time,
 * and with interrupts on, a timer runs the model's events as they fall due
 * so that a transfer completing meanwhile raises its interrupt.
 */
void npukit_sim_sleep_begin(struct npukit_sim *sim)
{
	enum sim_event ev;
	unsigned long flags;
	u64 next;

	spin_lock_irqsave(&sim->lock, flags);
	sim->real_mark = ktime_get_ns();
	sim->sleeping = true;
	next = npukit_sim_next(sim, &ev);
	if (sim->irq_fn && ev != SIM_EV_NONE)
		hrtimer_start(&sim->timer,
			      ns_to_ktime(max_t(u64, next - min(next, sim->now),
						SIM_TIMER_MIN_NS)),
			      HRTIMER_MODE_REL);
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_sleep_end - the driver woke up: stop the timer, catch up
 * @sim: the model
 */
void npukit_sim_sleep_end(struct npukit_sim *sim)
{
	unsigned long flags;

	hrtimer_cancel(&sim->timer);
	spin_lock_irqsave(&sim->lock, flags);
	if (sim->sleeping) {
		sim_catch_up(sim);
		npukit_sim_settle(sim);
		sim->sleeping = false;
	}
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_irq_sync - have every interrupt raised so far handled
 * @sim: the model
 *
 * Waits for a running handler call only, never for the timer to expire:
 * a delivery still pending is taken back and the handler called here,
 * with interrupts off as in the timer's interrupt. On return no handler
 * call raised before is pending or running. Must not be called with the
 * model's lock held or from the handler.
 */
void npukit_sim_irq_sync(struct npukit_sim *sim)
{
	unsigned long flags;

	if (!sim->irq_fn || !hrtimer_cancel(&sim->irq_timer))
		return;
	local_irq_save(flags);
	sim->irq_fn(0, sim->irq_data);
	local_irq_restore(flags);
}

/**
 * npukit_sim_counters - snapshot of what the model measured
 * @sim: the model
 * @out: filled in
 */
void npukit_sim_counters(struct npukit_sim *sim,
			 struct npukit_sim_counters *out)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	*out = sim->cnt;
	spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * npukit_sim_bus_init - the model's lock and timers, before its first use
 * @sim: the model
 */
void npukit_sim_bus_init(struct npukit_sim *sim)
{
	spin_lock_init(&sim->lock);
	hrtimer_init(&sim->irq_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	sim->irq_timer.function = sim_irq_timer;
	hrtimer_init(&sim->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	sim->timer.function = sim_timer;
}

/**
 * npukit_sim_bus_exit - stop the timers, before the model is freed
 * @sim: the model
 */
void npukit_sim_bus_exit(struct npukit_sim *sim)
{
	hrtimer_cancel(&sim->timer);
	hrtimer_cancel(&sim->irq_timer);
}
