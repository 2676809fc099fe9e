// SPDX-License-Identifier: GPL-2.0
/*
 * A poller that loses the CPU never reports a healthy device hung (issue
 * 27, item 3). The simulated NpuKit's preemption knobs (debugfs,
 * driver/npukit_sim_stall.c) take the processor from the thread running a
 * batch for preempt_ms, longer than the driver's 2 ms hang limit, at one
 * in preempt_one_in register reads (after the read sampled) and clock
 * reads (before it), at random, while the modelled board goes on. A wait
 * that looked at its hang limit only after a failed poll failed these
 * batches with EIO (NPUKIT_STATUS_DEVICE_HANG), and the recovery's own
 * known-answer kick the same way, leaving the device failed. A wait that
 * looks at its limits before each poll (read_poll_timeout()) fails none,
 * and still reports a device that really hangs.
 *
 * Run in the VMs polled and with sim_irq=1 (the rerun pass); sized for
 * TCG: up to BATCHES, past MIN_BATCHES only while BUDGET_NS of real time
 * lasts (tests/driver-user's check-preempt runs 10,000).
 * On hardware these tests SKIP.
 */
#include "npukit_test.h"

#define PREEMPT_MS	3
#define ONE_IN		16
#define BATCHES		2000
#define MIN_BATCHES	200
#define BUDGET_NS	(5LL * 1000 * 1000 * 1000)
#define NKICKS		16
#define NSLOTS		4

static const char *const knobs[] = {
	"preempt_ms", "preempt_one_in", "preempt_sleep", "stall_us",
};
#define NKNOBS		(sizeof(knobs) / sizeof(knobs[0]))

FIXTURE(stall) {
	int fd;
	struct npukit_info info;
	long saved[NKNOBS];
	int nsaved;
};

FIXTURE_SETUP(stall)
{
	self->nsaved = 0;
	NPU_OPEN_DEVICE();
	if (self->info.backend != NPUKIT_BACKEND_SIMULATED)
		SKIP(return, "preemption knobs exist only on the simulated NpuKit");
	for (unsigned int i = 0; i < NKNOBS; i++) {
		self->saved[i] = npu_knob_read(knobs[i]);
		ASSERT_LE(0, self->saved[i]) TH_LOG("no knob %s", knobs[i]);
		self->nsaved++;
	}
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	ASSERT_EQ(0, npu_knob_write("reset", 1));
}

FIXTURE_TEARDOWN(stall)
{
	for (int i = 0; i < self->nsaved; i++)
		npu_knob_write(knobs[i], self->saved[i]);
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Up to @n batches of random sums with the knobs set (at least
 * MIN_BATCHES, more while BUDGET_NS lasts), each checked against the CPU
 * reference; the counts of each way one can fail, then the verdict.
 */
static void run_preempted(struct __test_metadata *_metadata, int fd,
			  unsigned int n, unsigned long one_in, bool sleep)
{
	struct npukit_kick k[NKICKS];
	npu_ctile got[NSLOTS], want[NSLOTS];
	struct npu_outcomes o = { 0 };
	long long hangs = npu_stat("hangs"), preempts;
	uint64_t seed = 0x57a11 + one_in;
	struct npukit_submit s;
	int64_t start = npu_now_ns(), end = start + BUDGET_NS;
	unsigned int i, bad = 0;

	ASSERT_LE(0, hangs) TH_LOG("no hangs line in debugfs stats");
	preempts = npu_knob_read("preempts");
	ASSERT_LE(0, preempts) TH_LOG("no preempts counter in debugfs");
	ASSERT_EQ(0, npu_knob_write("preempt_sleep", sleep));
	ASSERT_EQ(0, npu_knob_write("preempt_one_in", one_in));
	ASSERT_EQ(0, npu_knob_write("preempt_ms", PREEMPT_MS));
	for (i = 0; i < n && (i < MIN_BATCHES || npu_now_ns() < end); i++) {
		int ret;

		npu_random_submit(&s, k, NKICKS, got, want, NSLOTS, &seed);
		ret = ioctl(fd, NPUKIT_IOCTL_SUBMIT, &s);
		if (!npu_outcome(&o, ret ? errno : 0, &s, NKICKS, got, want,
				 sizeof(got)) && !bad++)
			TH_LOG("batch %u: %s, status %u, %u of %u kicks done",
			       i, ret ? strerror(errno) : "0", s.status,
			       s.kicks_done, NKICKS);
	}
	ASSERT_EQ(0, npu_knob_write("preempt_ms", 0));
	preempts = npu_knob_read("preempts") - preempts;
	TH_LOG("%u batches in %lld ms, preempted %d ms at 1 in %lu reads%s: %lld preemptions, %u EIO, %u ETIMEDOUT, %u other failures, %u wrong",
	       i, (long long)(npu_now_ns() - start) / 1000000, PREEMPT_MS,
	       one_in, sleep ? " (slept where it may)" : "", preempts, o.eio,
	       o.etimedout, o.other, o.wrong);
	ASSERT_EQ(0, bad);
	ASSERT_EQ(hangs, npu_stat("hangs"));
	/* the knob acted, or the test proves nothing */
	ASSERT_LE((long long)i, preempts);
}

/* The modelled clock jumps: thousands of preemptions cost no real time. */
NPU_TEST_F_TIMEOUT(stall, no_false_hang, 120)
{
	run_preempted(_metadata, self->fd, BATCHES, ONE_IN, false);
}

/*
 * The thread really sleeps through each preemption where it may
 * (preemptible(); else the clock jumps as above), the deadline's clock
 * going on too: fewer batches, a preemption every few.
 */
NPU_TEST_F_TIMEOUT(stall, no_false_hang_sleeping, 120)
{
	run_preempted(_metadata, self->fd, 40, 64, true);
}

/*
 * Transfers that start late (stall_us) make every wait overrun its
 * polling budget and sleep, on the DMA interrupt with sim_irq=1: the
 * preemptions then fall around the sleeps and the interrupt's arming too.
 */
NPU_TEST_F_TIMEOUT(stall, no_false_hang_in_sleeping_waits, 120)
{
	long long sleeps = npu_stat("irq_waits") + npu_stat("poll_sleeps");

	ASSERT_EQ(0, npu_knob_write("stall_us", 400));
	/* rarer: a preemption past the limit leaves nothing to sleep for */
	run_preempted(_metadata, self->fd, 50, 256, false);
	ASSERT_LT(sleeps, npu_stat("irq_waits") + npu_stat("poll_sleeps"));
}

/*
 * A device that really does not act is still reported, preemptions or
 * not: the last poll after the limit fails too.
 */
NPU_TEST_F(stall, real_hang_still_reported)
{
	struct npukit_kick k[NKICKS];
	npu_ctile got[NSLOTS], want[NSLOTS];
	struct npukit_submit s;
	uint64_t seed = 0x4a46;

	ASSERT_EQ(0, npu_knob_write("preempt_one_in", ONE_IN));
	ASSERT_EQ(0, npu_knob_write("preempt_ms", PREEMPT_MS));
	npu_random_submit(&s, k, NKICKS, got, want, NSLOTS, &seed);
	ASSERT_EQ(0, npu_knob_write("hang", 1));
	test_err_submit(EIO, self->fd, &s);
	ASSERT_EQ(NPUKIT_STATUS_DEVICE_HANG, s.status);
	ASSERT_GT(NKICKS, s.kicks_done);
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	ASSERT_EQ(0, npu_knob_write("reset", 1));
	memset(got, 0, sizeof(got));
	npu_submit_init(&s, k, NKICKS, got, NSLOTS);
	test_submit(self->fd, &s);
	ASSERT_TILES_EQ(want, got, NSLOTS);
}

TEST_HARNESS_MAIN
