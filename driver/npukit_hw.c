// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_hw.c - the NpuKit register protocol
 *
 * The board-proven sequence (hardware.rst 6) per kick is: LOAD_CFG = 0,
 * MM2S of the 128-byte A||B tile, poll MM2S idle, CTRL = START (with CLEAR
 * on the first kick of a sum), poll GEMM_DONE; for a read-back, S2MM of
 * 256 bytes, TX_ARM, poll S2MM idle. NpuKit's own C++ host does this in
 * ~20 us per kick. This file runs the same steps, hardened against the
 * hazards of hardware.rst 8, and pipelined so that a kick costs about two
 * register reads and well under 2 us of board time:
 *
 *  - Kick n+1's tile is loaded right after START of kick n. The NPU takes
 *    stream beats only while idle, so the DMA waits until run n is over
 *    and the load overlaps the run and the CPU's own bus traffic.
 *  - That load must not begin before START of kick n has taken effect, or
 *    the still idle array takes tile n+1 into the operands of run n. The
 *    NPU and the DMA are two AXI slaves: relaxed writes to them are not
 *    ordered on the Zynq's interconnect, and the MM2S_LENGTH write may
 *    overtake START. So before programming the MM2S, every NPU write is
 *    pushed to the NPU with a read of it (npukit_push_npu_writes()): the
 *    read completes only after them, and readl()'s barrier keeps LENGTH
 *    from being issued before it completes (a relaxed read would not:
 *    npukit_npu_read_wait()). BUSY rises two cycles after START lands; LENGTH then still
 *    has to cross the interconnect and the DMA to read DDR before its
 *    first beat, far more than two cycles. In a kick that reads C back
 *    that read also serves as the ordering read of the GEMM_DONE wait
 *    (below), so it costs nothing. In an accumulating kick it is on the
 *    longest path: Idle of tile n seen, START, the push read, MM2S_SA and
 *    MM2S_LENGTH, then the DMA's first-beat latency and 32 beats to Idle
 *    of tile n+1, where the load used to overlap run n. MM2S_SA cannot
 *    move off that path: it is written only on an Idle channel, as PG021
 *    describes the sequence and PG034 requires of the same register in
 *    its sibling AXI CDMA.
 *  - PG021 (simple mode) reprograms a channel only once it is Idle. The
 *    wait for tile n+1 is therefore a wait for MM2S Idle (DMASR bit 1),
 *    which rises some cycles after the last beat (PG021 does not say how
 *    many), and START of kick n+1 and the load of tile n+2 come only after
 *    it. Idle says more: every beat was taken, and the NPU takes beats only
 *    while idle and only after run n had started (above), so tile n+1 is
 *    in place and run n is over. START of kick n+1 is only ever issued
 *    after it, so no START is silently dropped.
 *  - The stream word counter is at 0 after every complete tile; only an
 *    aborted transfer leaves it elsewhere, and every abort goes through
 *    npukit_recover() (npukit_recover.c), which resets it with LOAD_CFG
 *    through npukit_hw_restart().
 *  - Sticky bits (8.1): reads and writes use independent AXI channels and
 *    writes are posted, so a STATUS read issued right after START can
 *    return state from before it, with the previous run's GEMM_DONE still
 *    set, and a DMASR read right after LENGTH the previous transfer's
 *    Idle. A status bit is trusted only
 *    from a read issued after another read that was itself issued after
 *    the clearing write (struct npukit_io): the first read after such
 *    writes is discarded. It is issued straight away, so its round trip
 *    overlaps the hardware's work instead of adding to it.
 *  - Between that ordering read and the read that is expected to succeed,
 *    the CPU waits an adaptive estimate of the remaining time (struct
 *    npukit_wait_est) instead of spending 0.25 us bus round trips.
 *  - TX_ARM is dropped unless GEMM_DONE is set, and the C stream has no
 *    abort, so S2MM is programmed for 256 bytes first, GEMM_DONE is
 *    confirmed, then TX_ARM, then S2MM idle is awaited before anything else
 *    may start a run (a run ending mid-stream would rewrite C) or program
 *    the S2MM again. Here the DMA's writes may overtake the NPU's
 *    harmlessly: an S2MM armed early waits for the stream, and a stream
 *    that starts before S2MM is armed waits for it (AXI-Stream TREADY).
 *  - DMA error bits come for free: every transfer is confirmed by a read
 *    of its channel's DMASR (Idle), which has them too; the GEMM_DONE wait
 *    reads DMASR only when it takes longer than expected, which is also
 *    when an error would show.
 *  - Every wait is bounded by the batch deadline (-ETIMEDOUT) and by
 *    %NPUKIT_HANG_NS of device time without the event (-EIO, device hang),
 *    with read_poll_timeout()'s rule: a wait looks at its limits before a
 *    poll, and fails only when a limit had passed before a trusted poll
 *    that still missed the event. A poller preempted for longer than the
 *    limit between a poll and its look at the clock (PREEMPT, softirqs,
 *    a long usleep_range()) polls once more, and a healthy device is
 *    never reported hung (npukit_wait_check()).
 *  - A wait polls for a budget, %NPUKIT_POLL_FACTOR times its expected
 *    time (at least %NPUKIT_POLL_MIN_NS), so a kick never leaves the
 *    polled fast path. Past the budget it stops burning the CPU: when the
 *    DMA transfer whose completion signals the event has an interrupt
 *    line, it sleeps on it (npukit_irq.c); otherwise it sleeps between
 *    polls, 2 us doubling to 64 us. Either way a hung device costs the
 *    CPU a few dozen register reads rather than thousands.
 *    After any failure npukit_recover() (npukit_recover.c) resets the DMA,
 *    drains a C stream left half-sent and proves the device clean with a
 *    known-answer kick, or marks it failed.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include <uapi/npukit.h>

#include "npukit_dev.h"

/* Unsuccessful polls between two looks at the DMA error bits */
#define NPUKIT_DMA_CHECK_POLLS	4
/* Adaptive wait estimates: start from the physical minimum at 100 MHz */
#define NPUKIT_GEMM_MIN_NS	220	/* 22 feed cycles */
#define NPUKIT_LOAD_MIN_NS	540	/* a run, then 32 beats and Idle */
#define NPUKIT_TX_MIN_NS	640	/* 64 beats */
/* See npukit_est_update() */
#define NPUKIT_EST_STREAK	64
#define NPUKIT_EST_DOWN_NS	1
#define NPUKIT_EST_UP_NS	4
#define NPUKIT_EST_FAR_NS	64
#define NPUKIT_EST_MAX_NS	20000
/*
 * Polling budget of a wait. Below about 10 us an interrupt round trip or
 * a sleep costs more than it saves.
 */
#define NPUKIT_POLL_FACTOR	8
#define NPUKIT_POLL_MIN_NS	(10 * NSEC_PER_USEC)
#define NPUKIT_NAP_MIN_US	2
#define NPUKIT_NAP_MAX_US	64

/**
 * struct npukit_wait - one wait for an event
 * @t0: device time of the write that triggered it
 * @est_ns: its estimate when it began; the polling budget derives from it
 *	only once the first poll failed (npukit_wait_slow()), as almost no
 *	wait gets that far
 * @chan: the DMA channel whose completion signals the event (or follows
 *	it closely), %NPUKIT_CHAN_*, or 0
 * @polls: unsuccessful trusted polls
 * @naps: sleeps between polls so far
 * @expired: 0, or the errno of a limit that had passed before the latest
 *	poll was issued: -ETIMEDOUT (deadline) or -EIO (hang limit)
 */
struct npukit_wait {
	u64 t0;
	u32 est_ns;
	u32 chan;
	unsigned int polls;
	unsigned int naps;
	int expired;
};

static void npukit_wait_init(struct npukit_wait *w, u64 t0,
			     const struct npukit_wait_est *est, u32 chan)
{
	w->t0 = t0;
	w->est_ns = est->ns;
	w->chan = chan;
	w->polls = 0;
	w->naps = 0;
	w->expired = 0;
}

/* Device time a wait polls before it sleeps */
static u64 npukit_wait_budget(const struct npukit_wait *w)
{
	return max_t(u64, (u64)w->est_ns * NPUKIT_POLL_FACTOR,
		     NPUKIT_POLL_MIN_NS);
}

static void npukit_settle(struct npukit_device *nd, u64 t0,
			  const struct npukit_wait_est *est)
{
	u64 now = npukit_now_ns(nd);
	u64 until = t0 + est->ns;

	if (now < until)
		npukit_delay_ns(nd, min_t(u64, until - now, NPUKIT_EST_MAX_NS));
}

/*
 * Succeeding on the first trusted poll may mean the wait was longer than
 * needed; each extra poll means it was too short, and costs a whole bus
 * round trip (0.25 us), where a wait a few ns too long costs those few
 * ns. So the estimate probes downwards only after %NPUKIT_EST_STREAK
 * waits in a row succeeded on the first poll, by a step that doubles
 * while the probes keep succeeding (an estimate inflated by a slow spell
 * comes back within about a thousand waits) and falls back to
 * %NPUKIT_EST_DOWN_NS when one fails. One extra poll means the event came
 * within a round trip of the estimate: lengthen it by %NPUKIT_EST_UP_NS;
 * each further poll means it is far off: %NPUKIT_EST_FAR_NS more. It
 * settles a few ns above the time the event takes, with about one wait
 * in a hundred needing a second poll: about 6 ns per wait, where
 * shortening it after every first-poll success (by 16 ns, lengthening by
 * 64 per extra poll) cost about 80 ns.
 */
static void npukit_est_update(struct npukit_wait_est *est, unsigned int polls)
{
	if (polls) {
		est->ns = min_t(u32, est->ns + NPUKIT_EST_UP_NS +
				(polls - 1) * NPUKIT_EST_FAR_NS,
				NPUKIT_EST_MAX_NS);
		est->streak = 0;
		est->step = NPUKIT_EST_DOWN_NS;
		return;
	}
	if (++est->streak < NPUKIT_EST_STREAK)
		return;
	est->streak = 0;
	est->ns -= min(est->ns, est->step);
	est->step = max_t(u32, min(est->step * 2, est->ns / 4), NPUKIT_EST_DOWN_NS);
}

static void npukit_est_init(struct npukit_wait_est *est, u32 ns)
{
	est->ns = ns;
	est->streak = 0;
	est->step = NPUKIT_EST_DOWN_NS;
}

/**
 * npukit_hw_waits_init - the adaptive wait estimates, from the physical
 *	minimum of each event at 100 MHz
 * @nd: the device, at probe
 */
void npukit_hw_waits_init(struct npukit_device *nd)
{
	struct npukit_hw_state *hw = &nd->hw;

	npukit_est_init(&hw->est_load, NPUKIT_LOAD_MIN_NS);
	npukit_est_init(&hw->est_gemm, NPUKIT_GEMM_MIN_NS);
	npukit_est_init(&hw->est_tx, NPUKIT_TX_MIN_NS);
}

static void npukit_log_dma_error(struct npukit_device *nd, const char *chan,
				 u32 sr)
{
	dev_err_ratelimited(nd->dev, "%s error, DMASR %#x:%s%s%s\n", chan, sr,
			    sr & NPUKIT_DMASR_INT_ERR ? " DMAIntErr" : "",
			    sr & NPUKIT_DMASR_SLV_ERR ? " DMASlvErr" : "",
			    sr & NPUKIT_DMASR_DEC_ERR ?
			    " DMADecErr (address not decoded)" : "");
}

static int npukit_dma_error(struct npukit_device *nd, struct npukit_batch *b,
			    u32 off, u32 sr)
{
	/*
	 * Polling saw it first: let the error interrupt, if any, be handled
	 * before the recovery resets the DMA under it.
	 */
	if (nd->nirqs)
		npukit_irq_sync(nd);
	npukit_log_dma_error(nd, off == NPUKIT_MM2S_DMASR ? "MM2S" : "S2MM",
			     sr);
	b->status = NPUKIT_STATUS_DMA_ERROR;
	return -EIO;
}

/*
 * Called after each unsuccessful poll, before the next: is there a
 * reason to stop waiting? A DMA error is one at once. A limit that has
 * passed is one only if the poll after it fails too (@w->expired, then
 * npukit_wait_expired()): read_poll_timeout()'s rule. Time that passed
 * between the failed poll and this look at the clock, the thread
 * preempted or a sleep overshooting, says nothing about the device; the
 * next poll does. @dmasr is the DMA channel the event depends on, or 0.
 */
static int npukit_wait_check(struct npukit_device *nd, struct npukit_batch *b,
			     struct npukit_wait *w, u32 dmasr)
{
	unsigned int polls = ++w->polls;
	u32 sr;

	sr = npukit_irq_take_error(nd);
	if (sr)
		return npukit_dma_error(nd, b, sr >> 16 == NPUKIT_CHAN_MM2S ?
					NPUKIT_MM2S_DMASR : NPUKIT_S2MM_DMASR,
					sr & NPUKIT_DMASR_ERRORS);
	if (dmasr && !(polls % NPUKIT_DMA_CHECK_POLLS)) {
		sr = npukit_dma_read(nd, dmasr);
		if (sr & NPUKIT_DMASR_ERRORS)
			return npukit_dma_error(nd, b, dmasr, sr);
	}
	if (ktime_get_ns() >= b->deadline_ns)
		w->expired = -ETIMEDOUT;
	else if (npukit_now_ns(nd) - w->t0 > NPUKIT_HANG_NS)
		w->expired = -EIO;
	if (!(polls % 64))
		cond_resched();
	return 0;
}

/*
 * A trusted poll issued after a limit had passed missed the event too: the
 * deadline, or a device that really did not act (hang).
 */
static int npukit_wait_expired(struct npukit_device *nd,
			       struct npukit_batch *b,
			       const struct npukit_wait *w)
{
	u32 st, mm2s, s2mm;

	if (w->expired == -ETIMEDOUT) {
		dev_dbg(nd->dev, "batch deadline passed after %u kicks\n",
			b->runs_done);
		b->status = NPUKIT_STATUS_TIMEOUT;
		return -ETIMEDOUT;
	}
	/* a person can act on the state: read it all once */
	st = npukit_npu_read(nd, NPUKIT_STATUS);
	mm2s = npukit_dma_read(nd, NPUKIT_MM2S_DMASR);
	s2mm = npukit_dma_read(nd, NPUKIT_S2MM_DMASR);
	if ((mm2s | s2mm) & NPUKIT_DMASR_ERRORS)
		return npukit_dma_error(nd, b, mm2s & NPUKIT_DMASR_ERRORS ?
					NPUKIT_MM2S_DMASR : NPUKIT_S2MM_DMASR,
					mm2s & NPUKIT_DMASR_ERRORS ? mm2s : s2mm);
	dev_err_ratelimited(nd->dev,
			    "no progress for %llu us: STATUS %#x MM2S %#x S2MM %#x%s\n",
			    div_u64(npukit_now_ns(nd) - w->t0, NSEC_PER_USEC),
			    st, mm2s, s2mm, st & NPUKIT_STATUS_BUSY ?
			    "; NPU stuck busy: a PL reset (bitstream reload) recovers it" :
			    "");
	b->status = NPUKIT_STATUS_DEVICE_HANG;
	return -EIO;
}

/*
 * Past its polling budget a wait sleeps: on the interrupt of the DMA
 * channel that signals its event, or else between polls. Never beyond the
 * hang limit or the deadline, which the next npukit_wait_check() looks at.
 */
static void npukit_wait_slow(struct npukit_device *nd, struct npukit_batch *b,
			     struct npukit_wait *w)
{
	u64 now = npukit_now_ns(nd), real = ktime_get_ns(), left;
	unsigned long us;

	if (now - w->t0 < npukit_wait_budget(w) ||
	    now - w->t0 >= NPUKIT_HANG_NS || real >= b->deadline_ns)
		return;
	left = min(w->t0 + NPUKIT_HANG_NS - now, b->deadline_ns - real);
	if ((w->chan & nd->irq_chans) && npukit_irq_sleep(nd, w->chan, left))
		return;
	us = min(NPUKIT_NAP_MIN_US << min(w->naps, 5U), NPUKIT_NAP_MAX_US);
	us = min_t(u64, us, div_u64(left, NSEC_PER_USEC) + 1);
	w->naps++;
	atomic64_inc(&nd->stats.poll_sleeps);
	npukit_sleep_range(nd, us, 2 * us);
}

/*
 * A wait's first trusted poll usually succeeds (the estimate sees to it,
 * npukit_est_update()), and it is made by the wait itself, below. These
 * are the rest of a wait whose first poll failed: the limits, the sleeps
 * and the polls after it, kept out of line so that the common case sets
 * none of it up (its frame, its struct npukit_wait, the stack canary).
 * The waits themselves are inline: on the A9 a call passing two 64-bit
 * arguments costs about as many instructions as the first poll.
 */
static noinline int npukit_wait_status_polls(struct npukit_device *nd,
					     struct npukit_batch *b, u32 want,
					     u64 seq, u64 t0,
					     struct npukit_wait_est *est,
					     u32 dmasr, u32 chan)
{
	struct npukit_wait w;
	int ret;

	npukit_wait_init(&w, t0, est, chan);
	for (;;) {
		u32 st;

		ret = npukit_wait_check(nd, b, &w, dmasr);
		if (ret)
			return ret;
		npukit_wait_slow(nd, b, &w);
		st = npukit_npu_read(nd, NPUKIT_STATUS);
		if (!npukit_io_landed(nd, seq))
			continue;
		if ((st & want) == want) {
			npukit_est_update(est, w.polls);
			return 0;
		}
		if (w.expired)
			return npukit_wait_expired(nd, b, &w);
	}
}

static noinline int npukit_wait_dma_idle_polls(struct npukit_device *nd,
					       struct npukit_batch *b,
					       u32 dmasr, u64 seq, u64 t0,
					       struct npukit_wait_est *est)
{
	struct npukit_wait w;
	int ret;

	npukit_wait_init(&w, t0, est, dmasr == NPUKIT_MM2S_DMASR ?
			 NPUKIT_CHAN_MM2S : NPUKIT_CHAN_S2MM);
	for (;;) {
		u32 sr;

		ret = npukit_wait_check(nd, b, &w, 0);
		if (ret)
			return ret;
		npukit_wait_slow(nd, b, &w);
		sr = npukit_dma_read(nd, dmasr);
		if (sr & NPUKIT_DMASR_ERRORS)
			return npukit_dma_error(nd, b, dmasr, sr);
		if (!npukit_io_landed(nd, seq))
			continue;
		if (sr & NPUKIT_DMASR_IDLE) {
			npukit_est_update(est, w.polls);
			return 0;
		}
		if (w.expired)
			return npukit_wait_expired(nd, b, &w);
	}
}

/*
 * Wait until STATUS has all of @want, in a read that was issued after
 * write @seq (the write that cleared those sticky bits) had landed.
 */
static inline int npukit_wait_status(struct npukit_device *nd,
				     struct npukit_batch *b, u32 want, u64 seq,
				     u64 t0, struct npukit_wait_est *est,
				     u32 dmasr, u32 chan)
{
	u32 st;

	/*
	 * Ordering read: it may sample before write @seq takes effect, so
	 * its value is moot; the CPU waits for it to complete, so the read
	 * after it samples after the write took effect, however late the
	 * write landed (hardware.rst 8.1, 8.9).
	 */
	if (nd->io.last_issue < seq)
		npukit_npu_read_wait(nd, NPUKIT_STATUS);
	npukit_settle(nd, t0, est);
	st = npukit_npu_read(nd, NPUKIT_STATUS);
	if (npukit_io_landed(nd, seq) && (st & want) == want) {
		npukit_est_update(est, 0);
		return 0;
	}
	return npukit_wait_status_polls(nd, b, want, seq, t0, est, dmasr, chan);
}

/* Wait for a DMA channel's transfer started by write @seq to complete. */
static inline int npukit_wait_dma_idle(struct npukit_device *nd,
				       struct npukit_batch *b, u32 dmasr,
				       u64 seq, u64 t0,
				       struct npukit_wait_est *est)
{
	u32 sr;

	/* Idle of the previous transfer is as sticky as a status bit */
	if (nd->io.last_issue < seq)
		npukit_dma_read(nd, dmasr);
	npukit_settle(nd, t0, est);
	sr = npukit_dma_read(nd, dmasr);
	if (sr & NPUKIT_DMASR_ERRORS)
		return npukit_dma_error(nd, b, dmasr, sr);
	if (npukit_io_landed(nd, seq) && (sr & NPUKIT_DMASR_IDLE)) {
		npukit_est_update(est, 0);
		return 0;
	}
	return npukit_wait_dma_idle_polls(nd, b, dmasr, seq, t0, est);
}

/*
 * Make every NPU write issued so far land before any later DMA write can:
 * a read of the NPU arrives behind the writes to it issued before, and
 * npukit_npu_read_wait() issues nothing until that read completes. Skipped
 * when the latest NPU write is known to have landed already.
 */
static void npukit_push_npu_writes(struct npukit_device *nd)
{
	if (nd->io.npu_pushed < nd->io.npu_wseq)
		npukit_npu_read_wait(nd, NPUKIT_STATUS);
}

/*
 * A trusted read saw an effect of NPU write @seq (the run a START began
 * is over, the C stream a TX_ARM began arrived): it and the NPU writes
 * before it have landed, so a batch that begins right after a read-back
 * needs no read to push them.
 */
static void npukit_npu_write_seen(struct npukit_device *nd, u64 seq)
{
	nd->io.npu_pushed = max(nd->io.npu_pushed, seq);
}

/*
 * Program the load of tile @idx of the TX buffer; returns its last write.
 * The MM2S is Idle: the load before it was awaited to Idle by
 * npukit_wait_loaded(), or a DMA reset came since.
 */
static u64 npukit_load_tile(struct npukit_device *nd, unsigned int idx)
{
	nd->hw.load_pending = true;
	npukit_push_npu_writes(nd);
	npukit_dma_write(nd, NPUKIT_MM2S_SA,
			 nd->tx_dma + idx * NPUKIT_AB_BYTES);
	return npukit_dma_write(nd, NPUKIT_MM2S_LENGTH, NPUKIT_AB_BYTES);
}

static void npukit_run_confirmed(struct npukit_device *nd,
				 struct npukit_batch *b)
{
	nd->hw.run_pending = false;
	npukit_npu_write_seen(nd, nd->hw.start_seq);
	b->runs_done++;
}

/*
 * The tile programmed by write @seq landed and the array is idle, with
 * the previous run (if any) complete: MM2S Idle says all three (see the
 * top of this file), and that the MM2S may be programmed again.
 */
static int npukit_wait_loaded(struct npukit_device *nd, struct npukit_batch *b,
			      u64 seq, u64 t0)
{
	struct npukit_hw_state *hw = &nd->hw;
	int ret;

	ret = npukit_wait_dma_idle(nd, b, NPUKIT_MM2S_DMASR, seq, t0,
				   &hw->est_load);
	if (ret)
		return ret;
	hw->load_pending = false;
	if (hw->run_pending)
		npukit_run_confirmed(nd, b);
	return 0;
}

/* Read the C tile of the run just started into RX slot @slot. */
static int npukit_read_c(struct npukit_device *nd, struct npukit_batch *b,
			 unsigned int slot)
{
	struct npukit_hw_state *hw = &nd->hw;
	u64 s2mm_seq, tx_seq, t_tx;
	int ret;

	npukit_dma_write(nd, NPUKIT_S2MM_DA, nd->rx_dma + slot * NPUKIT_C_BYTES);
	s2mm_seq = npukit_dma_write(nd, NPUKIT_S2MM_LENGTH, NPUKIT_C_BYTES);
	/* the next tile, if loading, only lands once the run is over */
	ret = npukit_wait_status(nd, b, NPUKIT_STATUS_GEMM_DONE, hw->start_seq,
				 hw->t_start, &hw->est_gemm, 0,
				 hw->load_pending ? NPUKIT_CHAN_MM2S : 0);
	if (ret)
		return ret;
	npukit_run_confirmed(nd, b);
	tx_seq = npukit_npu_write(nd, NPUKIT_CTRL, NPUKIT_CTRL_TX_ARM);
	t_tx = npukit_now_ns(nd);
	hw->tx_pending = true;
	ret = npukit_wait_dma_idle(nd, b, NPUKIT_S2MM_DMASR, s2mm_seq, t_tx,
				   &hw->est_tx);
	if (ret)
		return ret;
	npukit_npu_write_seen(nd, tx_seq);
	hw->tx_pending = false;
	b->readbacks++;
	b->dma_bytes += NPUKIT_C_BYTES;
	return 0;
}

/**
 * npukit_hw_run_chunk - run kicks whose A||B tiles are staged in the TX buffer
 * @nd: the device, locked
 * @b: the batch; its deadline, progress and status
 * @kicks: what to do with each tile
 * @n: number of kicks, 1..%NPUKIT_CHUNK_KICKS
 *
 * The TX buffer holds the tiles in order and has been flushed; the i-th
 * read-back of the chunk lands in RX slot i. The last run may still be
 * going on return: the next chunk or npukit_hw_finish() confirms it.
 * @b->runs_done counts the runs confirmed complete and
 * @b->chunk_readbacks the C tiles of this chunk in the RX buffer.
 *
 * Return: 0, -ETIMEDOUT, -EIO (@b->status says why) or -EINTR.
 */
int npukit_hw_run_chunk(struct npukit_device *nd, struct npukit_batch *b,
			const struct npukit_hw_kick *kicks, unsigned int n)
{
	struct npukit_hw_state *hw = &nd->hw;
	u64 load_seq, t_load;
	unsigned int i, started = 0;
	int ret = 0;

	b->chunk_readbacks = 0;
	load_seq = npukit_load_tile(nd, 0);
	t_load = npukit_now_ns(nd);
	for (i = 0; i < n; i++) {
		ret = npukit_wait_loaded(nd, b, load_seq, t_load);
		if (ret)
			break;
		/* the one place a batch can stop with nothing in flight */
		if (!b->recovery && fatal_signal_pending(current)) {
			b->status = NPUKIT_STATUS_INTERRUPTED;
			ret = -EINTR;
			break;
		}
		hw->start_seq = npukit_npu_write(nd, NPUKIT_CTRL, kicks[i].ctrl);
		hw->t_start = npukit_now_ns(nd);
		hw->run_pending = true;
		started++;
		if (i + 1 < n) {
			load_seq = npukit_load_tile(nd, i + 1);
			t_load = npukit_now_ns(nd);
		}
		if (kicks[i].read_c) {
			ret = npukit_read_c(nd, b, b->chunk_readbacks);
			if (ret)
				break;
			b->chunk_readbacks++;
		}
		cond_resched();
	}
	/* the tiles of the runs started: one 64-bit sum a chunk, not a kick */
	b->dma_bytes += (u64)started * NPUKIT_AB_BYTES;
	return ret;
}

/**
 * npukit_hw_finish - confirm the last run of a batch
 * @nd: the device, locked
 * @b: the batch
 *
 * Return: 0, -ETIMEDOUT or -EIO (@b->status says why).
 */
int npukit_hw_finish(struct npukit_device *nd, struct npukit_batch *b)
{
	struct npukit_hw_state *hw = &nd->hw;
	int ret;

	if (!hw->run_pending)
		return 0;
	ret = npukit_wait_status(nd, b, NPUKIT_STATUS_GEMM_DONE, hw->start_seq,
				 hw->t_start, &hw->est_gemm, 0, 0);
	if (!ret)
		npukit_run_confirmed(nd, b);
	return ret;
}

/**
 * npukit_drain_c - take a half-sent C stream into the scratch tile
 * @nd: the device, locked, its DMA freshly reset
 *
 * After a DMA reset in the middle of a read-back the NPU still holds the
 * rest of the C stream and would wait for it forever (8.5). TLAST ends
 * the transfer however much is left.
 *
 * Return: 0, or the failed wait's errno: the stream may still be there.
 */
int npukit_drain_c(struct npukit_device *nd)
{
	struct npukit_batch drain = {
		.deadline_ns = U64_MAX,
	};
	dma_addr_t scratch = nd->rx_dma + NPUKIT_RX_SCRATCH * NPUKIT_C_BYTES;
	u64 seq;

	/* the device owns what it writes, even a tile nobody reads */
	dma_sync_single_for_device(nd->dev, scratch, NPUKIT_C_BYTES,
				   DMA_FROM_DEVICE);
	npukit_dma_write(nd, NPUKIT_S2MM_DA, scratch);
	seq = npukit_dma_write(nd, NPUKIT_S2MM_LENGTH, NPUKIT_C_BYTES);
	return npukit_wait_dma_idle(nd, &drain, NPUKIT_S2MM_DMASR, seq,
				    npukit_now_ns(nd), &nd->hw.est_tx);
}

/**
 * npukit_hw_idle - nothing of a batch is in flight
 * @nd: the device, locked
 *
 * Return: true when no run, C stream or tile load is pending.
 */
bool npukit_hw_idle(const struct npukit_device *nd)
{
	const struct npukit_hw_state *hw = &nd->hw;

	return !hw->run_pending && !hw->tx_pending && !hw->load_pending;
}
