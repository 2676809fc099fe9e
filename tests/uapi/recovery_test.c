// SPDX-License-Identifier: GPL-2.0
/*
 * Recovery after a fault is proven, never hoped (issue 8, findings 1 and
 * 2): a DMA error in the middle of read-backs can leave the NPU with a C
 * stream half sent, which only a PL reset clears. Whatever the timing, no
 * later SUBMIT may return 0 with a wrong tile, and once the fault is gone
 * the next valid batch must succeed (no stale error left behind). When
 * the device cannot be proven clean it is failed: every SUBMIT gets EIO
 * and NPUKIT_STATUS_DEVICE_FAILED until a recovery proves it clean: a
 * reset (debugfs here, sysfs in reset_test.c) or the driver's own retries.
 */
#include <pthread.h>

#include "npukit_test.h"

/* 4 chunks of read-backs: a fault lands in the middle of one */
#define NREAD		256
#define ROUNDS		40
#define ROUNDS_NS	(6LL * 1000 * 1000 * 1000)

/* What the rounds saw, for the log */
struct round_tally {
	int failed_batches;
	int later_failures;
	int resets;
};

/*
 * One round: a batch of read-backs on @fd with @errs DMA errors armed at
 * a random moment, then, with the knob cleared, a clean batch on @fd2.
 * @must_succeed: the clean batch must return 0 (finding 2); otherwise it
 * may fail, but never return 0 with a wrong tile (finding 1).
 */
static void fault_round(struct __test_metadata *_metadata, int fd, int fd2,
			uint64_t *seed, int errs, bool must_succeed,
			struct round_tally *tally)
{
	static struct npukit_kick k[NREAD], k2[NREAD];
	static npu_ctile want[NREAD], got[NREAD], want2[NREAD], got2[NREAD];
	struct npu_submitter t = { .fd = fd };
	struct npukit_submit s;
	pthread_t th;
	int r;

	npu_readback_batch(k, NREAD, want, npu_rand(seed));
	npu_submit_init(&t.s, k, NREAD, got, NREAD);
	ASSERT_EQ(0, pthread_create(&th, NULL, npu_submit_thread, &t));
	usleep(npu_rand(seed) % 3000);
	ASSERT_EQ(0, npu_knob_write("dma_error", errs));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, npu_knob_write("dma_error", 0));
	if (t.ret) {
		tally->failed_batches++;
		ASSERT_TRUE(t.err == EIO) TH_LOG("faulted batch: %s", strerror(t.err));
	}
	/* success or not, the tiles it reports written are right */
	ASSERT_TILES_EQ(want, got, t.s.kicks_done);

	if (npu_stat("failed") > 0) {
		/* no fault is armed any more: a reset must prove it clean */
		ASSERT_EQ(0, npu_knob_write("reset", 1));
		tally->resets++;
	}
	npu_readback_batch(k2, NREAD, want2, npu_rand(seed));
	npu_submit_init(&s, k2, NREAD, got2, NREAD);
	r = ioctl(fd2, NPUKIT_IOCTL_SUBMIT, &s);
	if (r) {
		tally->later_failures++;
		ASSERT_FALSE(must_succeed)
			TH_LOG("clean batch after a DMA error: %s, status %u, kicks_done %u",
			       strerror(errno), s.status, s.kicks_done);
		ASSERT_TILES_EQ(want2, got2, s.kicks_done);
		return;
	}
	ASSERT_EQ(NREAD, s.kicks_done);
	ASSERT_TILES_EQ(want2, got2, NREAD);
}

static void fault_rounds(struct __test_metadata *_metadata, int fd,
			 bool must_succeed, uint64_t seed)
{
	int fd2 = open(npu_device_path(), O_RDWR | O_CLOEXEC);
	int64_t end = npu_now_ns() + ROUNDS_NS;
	struct round_tally tally = { 0 };
	long long pl0 = npu_stat("pl_resets"), rec0 = npu_stat("recoveries");
	int round;

	ASSERT_LE(0, fd2);
	for (round = 0; round < ROUNDS && npu_now_ns() < end; round++) {
		fault_round(_metadata, fd, fd2, &seed, 1 + round % 3,
			    must_succeed, &tally);
	}
	close(fd2);
	TH_LOG("%d rounds: %d faulted batches, %d later failures, %d resets, %lld recoveries, %lld PL resets",
	       round, tally.failed_batches, tally.later_failures, tally.resets,
	       npu_stat("recoveries") - rec0, npu_stat("pl_resets") - pl0);
}

/*
 * Finding 1: DMA errors (1 to 3 in a row) at random moments of read-back
 * batches. No batch after them returns 0 with a wrong tile, from this fd
 * or another.
 */
NPU_TEST_TIMEOUT(stale_c_stream_never_succeeds, 120)
{
	NEED_SIM();
	fault_rounds(_metadata, self->fd, false, 0x5eed1);
}

/* The same without a PL reset line: proven clean, or failed and reset. */
NPU_TEST_TIMEOUT(stale_c_stream_without_reset_line, 120)
{
	NEED_SIM();
	ASSERT_EQ(0, npu_knob_write("reset_line", 0));
	fault_rounds(_metadata, self->fd, false, 0x5eed2);
	ASSERT_EQ(0, npu_knob_write("reset_line", 1));
}

/*
 * Finding 2: once the fault is consumed, the next valid batch succeeds;
 * in particular no error latched by the interrupt handler before a DMA
 * reset fails it (sim_irq=1).
 */
NPU_TEST_TIMEOUT(next_batch_after_dma_error_succeeds, 120)
{
	NEED_SIM();
	fault_rounds(_metadata, self->fd, true, 0x5eed3);
}

/*
 * A fault that outlives recovery (a run that never ends, and no reset
 * line): the device is failed. SUBMITs fail at once with EIO and
 * DEVICE_FAILED, run nothing, write nothing, even after the fault went
 * away, until a reset proves the device clean (with the driver's own
 * retries off, which would run known-answer kicks meanwhile).
 */
NPU_TEST_TIMEOUT(failed_until_reset, 60)
{
	static struct npukit_kick k[8];
	npu_ctile want[8], got[8], poison[8];
	struct npukit_submit s;
	long long runs, fails, pl;

	NEED_SIM();
	ASSERT_EQ(0, npu_knob_write("auto_recover", 0));
	ASSERT_EQ(0, npu_knob_write("reset_line", 0));
	ASSERT_EQ(0, npu_knob_write("hang", 1));
	npu_readback_batch(k, 8, want, 11);
	npu_submit_init(&s, k, 8, got, 8);
	test_err_submit(EIO, self->fd, &s);
	ASSERT_EQ(NPUKIT_STATUS_DEVICE_HANG, s.status);
	ASSERT_EQ(1, npu_stat("failed"));
	ASSERT_EQ(0, npu_knob_write("hang", 0));

	pl = npu_stat("pl_resets");
	runs = npu_stat("sim_gemm_runs");
	fails = npu_stat("failed_submits");
	memset(poison, 0x5a, sizeof(poison));
	memcpy(got, poison, sizeof(got));
	npu_submit_init(&s, k, 8, got, 8);
	test_err_submit(EIO, self->fd, &s);
	ASSERT_EQ(NPUKIT_STATUS_DEVICE_FAILED, s.status);
	ASSERT_EQ(0, s.kicks_done);
	ASSERT_EQ(0, memcmp(got, poison, sizeof(got)));
	ASSERT_EQ(runs, npu_stat("sim_gemm_runs"));
	ASSERT_EQ(fails + 1, npu_stat("failed_submits"));

	/* the reset proves it clean; without a line it pulls none */
	ASSERT_EQ(0, npu_knob_write("reset", 1));
	ASSERT_EQ(0, npu_stat("failed"));
	ASSERT_EQ(pl, npu_stat("pl_resets"));
	ASSERT_EQ(0, npu_knob_write("reset_line", 1));
	ASSERT_EQ(0, npu_knob_write("auto_recover", 1));
	npu_submit_init(&s, k, 8, got, 8);
	test_submit(self->fd, &s);
	ASSERT_EQ(8, s.kicks_done);
	ASSERT_TILES_EQ(want, got, 8);
}

/* A reset cannot hide a fault that is still there: it fails, EIO. */
NPU_TEST_TIMEOUT(reset_fails_while_fault_persists, 60)
{
	NEED_SIM();
	ASSERT_EQ(0, npu_knob_write("hang", 1));
	ASSERT_EQ(-EIO, npu_knob_write("reset", 1));
	ASSERT_EQ(1, npu_stat("failed"));
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	ASSERT_EQ(0, npu_knob_write("reset", 1));
	ASSERT_EQ(0, npu_stat("failed"));
}

TEST_HARNESS_MAIN
