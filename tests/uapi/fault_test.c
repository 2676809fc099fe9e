// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated NpuKit's fault knobs (debugfs): each fault gives its
 * documented errno and status, reports how far the batch got, and the
 * next batch on the same fd succeeds. Also a deadline passing mid-batch.
 *
 * Knobs live in $NPUKIT_DEBUGFS, by default
 * /sys/kernel/debug/npukit/<device name>/. On hardware these tests SKIP;
 * on the simulator a missing knob is a failure.
 */
#include "npukit_test.h"

#define NK	32

/*
 * With the DMA's interrupts (sim_irq=1, or a bitstream wiring them) the
 * driver's stats say irq_chans > 0; without, waits past their polling
 * budget sleep between polls.
 */
static int irq_mode(void)
{
	return npu_stat("irq_chans") > 0;
}

/* A batch of NK kicks, a read-back every 4, and its reference. */
static void make_batch(struct npukit_kick *k, npu_ctile *want, uint64_t seed)
{
	memset(k, 0, sizeof(*k) * NK);
	for (int i = 0; i < NK; i++) {
		npu_fill_random(&k[i], &seed);
		if (i % 4 == 0)
			k[i].flags = NPUKIT_KICK_CLEAR;
		if (i % 4 == 3) {
			k[i].flags |= NPUKIT_KICK_READ_C;
			k[i].c_slot = i / 4;
		}
	}
	npu_ref_batch(k, NK, want);
}

/* After a fault the very next batch on the same fd must be right. */
static void assert_recovered(struct __test_metadata *_metadata, int fd)
{
	struct npukit_kick k[NK];
	npu_ctile want[NK / 4], got[NK / 4];
	struct npukit_submit s;

	make_batch(k, want, 77);
	npu_submit_init(&s, k, NK, got, NK / 4);
	test_submit(fd, &s);
	ASSERT_EQ(NPUKIT_STATUS_OK, s.status);
	ASSERT_EQ(NK, s.kicks_done);
	ASSERT_TILES_EQ(want, got, NK / 4);
}

/*
 * Read-backs of the kicks that completed were written and are right:
 * "how far a batch got" must be true, not only a number.
 */
static uint32_t done_slots(uint32_t kicks_done)
{
	return kicks_done / 4;
}

NPU_TEST(dma_error)
{
	struct npukit_kick k[NK];
	npu_ctile want[NK / 4], got[NK / 4];
	struct npukit_submit s;

	long long errs, irq_errs;

	NEED_SIM();
	make_batch(k, want, 1);
	errs = npu_stat("dma_errors");
	ASSERT_LE(0, errs) TH_LOG("no dma_errors line in debugfs stats");
	irq_errs = npu_stat("irq_errors");
	ASSERT_LE(0, irq_errs) TH_LOG("no irq_errors line in debugfs stats");
	ASSERT_EQ(0, npu_knob_write("dma_error", 1));
	npu_submit_init(&s, k, NK, got, NK / 4);
	test_err_submit(EIO, self->fd, &s);
	ASSERT_EQ(NPUKIT_STATUS_DMA_ERROR, s.status);
	ASSERT_EQ(errs + 1, npu_stat("dma_errors"));
	/* with interrupts, the error interrupt reported it, exactly once */
	ASSERT_EQ(irq_errs + irq_mode(), npu_stat("irq_errors"));
	ASSERT_GT(NK, s.kicks_done);
	ASSERT_TILES_EQ(want, got, done_slots(s.kicks_done));
	ASSERT_EQ(0, npu_knob_read("dma_error")) TH_LOG("the fault was not consumed");
	assert_recovered(_metadata, self->fd);
}

/* Errors in a row: each batch stops cleanly, none poisons the next. */
NPU_TEST(dma_error_repeated)
{
	struct npukit_kick k[NK];
	npu_ctile want[NK / 4], got[NK / 4];
	struct npukit_submit s;

	NEED_SIM();
	make_batch(k, want, 2);
	for (int b = 0; b < 3; b++) {
		ASSERT_EQ(0, npu_knob_write("dma_error", 1));
		npu_submit_init(&s, k, NK, got, NK / 4);
		test_err_submit(EIO, self->fd, &s);
		ASSERT_EQ(NPUKIT_STATUS_DMA_ERROR, s.status);
		ASSERT_TILES_EQ(want, got, done_slots(s.kicks_done));
	}
	assert_recovered(_metadata, self->fd);
}

NPU_TEST(hang)
{
	struct npukit_kick k[NK];
	npu_ctile want[NK / 4], got[NK / 4];
	struct npukit_submit s;

	long long hangs, irq_waits, poll_sleeps;

	NEED_SIM();
	make_batch(k, want, 3);
	hangs = npu_stat("hangs");
	ASSERT_LE(0, hangs) TH_LOG("no hangs line in debugfs stats");
	irq_waits = npu_stat("irq_waits");
	poll_sleeps = npu_stat("poll_sleeps");
	ASSERT_LE(0, irq_waits) TH_LOG("no irq_waits line in debugfs stats");
	ASSERT_LE(0, poll_sleeps) TH_LOG("no poll_sleeps line in debugfs stats");
	ASSERT_EQ(0, npu_knob_write("hang", 1));
	npu_submit_init(&s, k, NK, got, NK / 4);
	test_err_submit(EIO, self->fd, &s);
	ASSERT_EQ(NPUKIT_STATUS_DEVICE_HANG, s.status);
	ASSERT_EQ(hangs + 1, npu_stat("hangs"));
	ASSERT_GT(NK, s.kicks_done);
	/*
	 * The 2 ms until the device is declared hung are slept, not spun:
	 * polling all of it would take ~8000 status reads of 0.25 us. The
	 * stuck run holds back the next tile's MM2S, so with interrupts the
	 * wait sleeps on its completion interrupt.
	 */
	ASSERT_GT(1000ULL, s.mmio_reads)
		TH_LOG("%llu register reads: the hang was polled",
		       (unsigned long long)s.mmio_reads);
	if (irq_mode()) {
		ASSERT_LT(irq_waits, npu_stat("irq_waits"));
	} else {
		ASSERT_LT(poll_sleeps, npu_stat("poll_sleeps"));
	}
	/*
	 * While the knob holds, no recovery can prove the device clean (its
	 * known-answer kick hangs too, PL reset or not): the device is
	 * failed, and stays failed after the fault goes away, until a reset
	 * (the driver's own retries, off here, would end it too).
	 */
	ASSERT_EQ(0, npu_knob_write("auto_recover", 0));
	npu_submit_init(&s, k, NK, got, NK / 4);
	test_err_submit(EIO, self->fd, &s);
	ASSERT_EQ(NPUKIT_STATUS_DEVICE_FAILED, s.status);
	ASSERT_EQ(0, s.kicks_done);
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	npu_submit_init(&s, k, NK, got, NK / 4);
	test_err_submit(EIO, self->fd, &s);
	ASSERT_EQ(NPUKIT_STATUS_DEVICE_FAILED, s.status);
	ASSERT_EQ(0, npu_knob_write("reset", 1));
	ASSERT_EQ(0, npu_knob_write("auto_recover", 1));
	assert_recovered(_metadata, self->fd);
}

/* A slower array: same answers, proportionally more device time. */
NPU_TEST(slow)
{
	struct npukit_kick k[NK];
	npu_ctile want[NK / 4], got[NK / 4];
	struct npukit_submit s;
	uint64_t fast_ns;
	long long wakeups, poll_sleeps;

	NEED_SIM();
	make_batch(k, want, 4);
	npu_submit_init(&s, k, NK, got, NK / 4);
	test_submit(self->fd, &s);
	fast_ns = s.device_ns;
	wakeups = npu_stat("irq_wakeups");
	poll_sleeps = npu_stat("poll_sleeps");
	ASSERT_EQ(0, npu_knob_write("slow", 100));
	npu_submit_init(&s, k, NK, got, NK / 4);
	test_submit(self->fd, &s);
	ASSERT_EQ(0, npu_knob_write("slow", 1));
	ASSERT_TILES_EQ(want, got, NK / 4);
	/* Each run is ~0.28 us; 100 times that is ~28 us more per kick. */
	ASSERT_LT(fast_ns + NK * 20000ULL, s.device_ns)
		TH_LOG("fast %llu ns, slow %llu ns", (unsigned long long)fast_ns,
		       (unsigned long long)s.device_ns);
	/*
	 * 28 us runs outlast the polling budget: the waits sleep, and with
	 * interrupts the DMA's completion interrupt ends the sleep.
	 */
	if (irq_mode()) {
		ASSERT_LT(wakeups, npu_stat("irq_wakeups"));
	} else {
		ASSERT_LT(poll_sleeps, npu_stat("poll_sleeps"));
	}
	assert_recovered(_metadata, self->fd);
}

/* The deadline passes mid-batch: -ETIMEDOUT, with how far it got. */
NPU_TEST_TIMEOUT(deadline_mid_batch, 60)
{
	const uint32_t n = self->info.max_kicks;
	struct npukit_kick *k = calloc(n, sizeof(*k));
	uint64_t st = 5;
	npu_ctile got[1];
	struct npukit_submit s;
	int r, e;

	long long timeouts = npu_stat("timeouts");

	ASSERT_NE(NULL, k);
	for (uint32_t i = 0; i < n; i++)
		npu_fill_random(&k[i], &st);
	k[0].flags = NPUKIT_KICK_CLEAR;
	k[n - 1].flags |= NPUKIT_KICK_READ_C;
	npu_submit_init(&s, k, n, got, 1);
	/* Far too short for max_kicks kicks, long enough to start. */
	s.timeout_ns = npu_now_ns() + 3 * 1000 * 1000;
	r = ioctl(self->fd, NPUKIT_IOCTL_SUBMIT, &s);
	e = errno;
	free(k);
	ASSERT_EQ(-1, r) TH_LOG("%u kicks finished within 3 ms", n);
	/* Under heavy emulation the deadline may pass before the batch starts. */
	if (e == ETIME)
		SKIP(return, "deadline passed before the batch started");
	ASSERT_EQ(ETIMEDOUT, e) TH_LOG("got %s", strerror(e));
	ASSERT_EQ(NPUKIT_STATUS_TIMEOUT, s.status);
	ASSERT_GT(n, s.kicks_done);
	if (timeouts >= 0) {
		ASSERT_EQ(timeouts + 1, npu_stat("timeouts"));
	}
	assert_recovered(_metadata, self->fd);
}

/* A fault and then a closed fd: the next opener finds a working device. */
NPU_TEST(fault_then_reopen)
{
	struct npukit_kick k[NK];
	npu_ctile want[NK / 4], got[NK / 4];
	struct npukit_submit s;

	NEED_SIM();
	make_batch(k, want, 6);
	ASSERT_EQ(0, npu_knob_write("hang", 1));
	npu_submit_init(&s, k, NK, got, NK / 4);
	test_err_submit(EIO, self->fd, &s);
	close(self->fd);
	/* the hung device is failed (see hang): the fault goes, root resets */
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	ASSERT_EQ(0, npu_knob_write("reset", 1));
	self->fd = open(npu_device_path(), O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	assert_recovered(_metadata, self->fd);
}

TEST_HARNESS_MAIN
