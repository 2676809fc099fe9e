// SPDX-License-Identifier: GPL-2.0
/*
 * The kick sequence holds under the bus and DMA timings it may not rely
 * on (issue 8): the simulated NpuKit's timing knobs (debugfs, in 10 ns
 * cycles, struct npukit_sim_timing) are set to the settings that broke
 * the sequence before it read MM2S Idle and pushed its NPU writes ahead
 * of the DMA's, and every batch must still compute exactly what the CPU
 * reference computes.
 *
 *  - idle_lag: MM2S Idle rises this long after the last beat; a LENGTH
 *    written before then is dropped and its tile never arrives (hang).
 *  - overtake: a DMA register write lands this much sooner than an NPU
 *    write issued at the same time; the next tile's LENGTH overtaking
 *    START lets the still idle array take the next tile into the run's
 *    operands (wrong tile, then a misaligned stream).
 *  - first_beat: MM2S_LENGTH landing to the first beat; with a small
 *    overtake the first beat falls in the two cycles between START
 *    landing and BUSY rising, when the array still takes beats.
 *  - npu_lag: NPU writes land this much later, past a read round trip:
 *    only a read the CPU waits for in full keeps the next tile's MM2S
 *    writes behind START (issue 18).
 *  - stall_us: every DMA transfer starts this late, so that every wait
 *    overruns its polling budget and sleeps, on the interrupt when there
 *    is one (sim_irq=1), lost and spurious interrupts included.
 *
 * Each test restores the knobs it found (the VMs also run this suite with
 * the worst settings as module parameters). On hardware these tests SKIP.
 */
#include "npukit_test.h"

#define NK		64
#define SEED		0x7131e5eedULL

static const char *const knobs[] = {
	"idle_lag", "overtake", "first_beat", "npu_lag", "stall_us",
};
#define NKNOBS		(sizeof(knobs) / sizeof(knobs[0]))

/* The ranges' worst ends (driver/npukit_sim.h) */
#define IDLE_LAG_MAX	100
#define OVERTAKE_MAX	20
#define STALL_US	400

FIXTURE(timing) {
	int fd;
	struct npukit_info info;
	long saved[NKNOBS];
	int nsaved;
};

FIXTURE_SETUP(timing)
{
	self->nsaved = 0;
	NPU_OPEN_DEVICE();
	if (self->info.backend != NPUKIT_BACKEND_SIMULATED)
		SKIP(return, "timing knobs exist only on the simulated NpuKit");
	for (unsigned int i = 0; i < NKNOBS; i++) {
		self->saved[i] = npu_knob_read(knobs[i]);
		ASSERT_LE(0, self->saved[i]) TH_LOG("no knob %s", knobs[i]);
		self->nsaved++;
	}
}

FIXTURE_TEARDOWN(timing)
{
	for (int i = 0; i < self->nsaved; i++)
		npu_knob_write(knobs[i], self->saved[i]);
	if (self->fd >= 0)
		close(self->fd);
}

static void set_timing(struct __test_metadata *_metadata, unsigned long lag,
		       unsigned long overtake, unsigned long first_beat)
{
	ASSERT_EQ(0, npu_knob_write("idle_lag", lag));
	ASSERT_EQ(0, npu_knob_write("overtake", overtake));
	ASSERT_EQ(0, npu_knob_write("first_beat", first_beat));
}

/*
 * A batch of @n random kicks in sums of @krun, each sum read back, must
 * complete and match the reference. @what names the setting on failure.
 */
static void run_checked(struct __test_metadata *_metadata, int fd, uint32_t n,
			uint32_t krun, uint64_t seed, const char *what)
{
	struct npukit_kick k[NK];
	npu_ctile want[NK], got[NK];
	struct npukit_submit s;
	uint32_t reads = 0;
	long long dropped = npu_stat("sim_dropped_writes");

	ASSERT_LE(0, dropped) TH_LOG("no sim_dropped_writes in debugfs stats");
	ASSERT_GE(NK, n);
	memset(k, 0, sizeof(k));
	for (uint32_t i = 0; i < n; i++) {
		npu_fill_random(&k[i], &seed);
		if (i % krun == 0)
			k[i].flags = NPUKIT_KICK_CLEAR;
		if (i % krun == krun - 1 || i == n - 1) {
			k[i].flags |= NPUKIT_KICK_READ_C;
			k[i].c_slot = reads++;
		}
	}
	memset(got, 0x5a, sizeof(got));
	memcpy(want, got, sizeof(want));
	npu_ref_batch(k, n, want);
	npu_submit_init(&s, k, n, got, reads);
	ASSERT_EQ(0, ioctl(fd, NPUKIT_IOCTL_SUBMIT, &s))
		TH_LOG("%s, %u kicks in sums of %u: %s, status %u, %u done",
		       what, n, krun, strerror(errno), s.status, s.kicks_done);
	ASSERT_EQ(NPUKIT_STATUS_OK, s.status);
	ASSERT_EQ(n, s.kicks_done);
	for (uint32_t r = 0; r < reads; r++) {
		ASSERT_EQ(0, memcmp(want[r], got[r], sizeof(want[r])))
			TH_LOG("%s, %u kicks in sums of %u: C tile %u wrong",
			       what, n, krun, r);
	}
	/* e.g. a LENGTH written to a channel not yet Idle */
	ASSERT_EQ(dropped, npu_stat("sim_dropped_writes"))
		TH_LOG("%s: the hardware dropped a register write", what);
}

/* Batches of every shape that matters: read-back each kick, or rarely. */
static void run_shapes(struct __test_metadata *_metadata, int fd,
		       uint64_t seed, const char *what)
{
	static const uint32_t kruns[] = { 1, 2, 8, NK };

	for (unsigned int i = 0; i < sizeof(kruns) / sizeof(kruns[0]); i++)
		run_checked(_metadata, fd, NK, kruns[i], seed + i, what);
}

/*
 * PG021: MM2S is reprogrammed only once Idle. The old sequence wrote the
 * next LENGTH ~43 cycles after the last beat, whatever DMASR said: from
 * a lag of about 50 cycles the LENGTH was dropped and the batch hung.
 */
NPU_TEST_F(timing, mm2s_idle_lag)
{
	static const unsigned long lags[] = { 0, 40, 45, 50, 60, IDLE_LAG_MAX };
	char what[64];

	for (unsigned int i = 0; i < sizeof(lags) / sizeof(lags[0]); i++) {
		set_timing(_metadata, lags[i], self->saved[1], self->saved[2]);
		snprintf(what, sizeof(what), "idle_lag %lu", lags[i]);
		run_shapes(_metadata, self->fd, SEED + i, what);
	}
}

/*
 * The next tile's MM2S_LENGTH overtaking START: with the DMA's writes
 * landing up to 200 ns sooner and a quick first beat, the next tile
 * arrived while the array was still idle, before the run had read its
 * operands.
 */
NPU_TEST_F(timing, dma_write_overtakes_start)
{
	static const unsigned long beats[] = { 0, 1, 5, 20 };
	char what[64];

	for (unsigned long o = 10; o <= OVERTAKE_MAX; o += 5) {
		for (unsigned int i = 0; i < sizeof(beats) / sizeof(beats[0]); i++) {
			set_timing(_metadata, self->saved[0], o, beats[i]);
			snprintf(what, sizeof(what), "overtake %lu first_beat %lu",
				 o, beats[i]);
			run_shapes(_metadata, self->fd, SEED + 16 * o + i, what);
		}
	}
}

/*
 * START is taken two cycles after it lands: until BUSY rises, the array
 * still takes stream beats. A first beat landing in that window (small
 * overtakes, no first-beat latency) corrupted the run's first words and
 * then misaligned the tile.
 */
NPU_TEST_F(timing, first_beat_before_busy)
{
	char what[64];

	for (unsigned long o = 0; o < 12; o++) {
		for (unsigned long fb = 0; fb <= 3; fb++) {
			set_timing(_metadata, self->saved[0], o, fb);
			snprintf(what, sizeof(what), "overtake %lu first_beat %lu",
				 o, fb);
			run_checked(_metadata, self->fd, NK, 2, SEED + 8 * o + fb,
				    what);
		}
	}
}

/* All three at their worst at once, many seeds. */
NPU_TEST_F(timing, worst_of_all)
{
	set_timing(_metadata, IDLE_LAG_MAX, OVERTAKE_MAX, 0);
	for (uint64_t seed = 0; seed < 8; seed++)
		run_shapes(_metadata, self->fd, SEED ^ (seed << 32),
			   "idle_lag 100 overtake 20 first_beat 0");
}

/* The knobs clamp to their ranges: beyond the worst is the worst. */
NPU_TEST_F(timing, beyond_range_is_worst)
{
	set_timing(_metadata, 100000, 100000, 100000);
	run_shapes(_metadata, self->fd, SEED + 99, "all knobs at 100000");
}

/*
 * START landing up to 10 us late, the DMA's writes promptly and the first
 * beat at once: a relaxed read pushing START let MM2S_LENGTH land first,
 * and the idle array took the next tile into the run's operands (status
 * 0, wrong tiles). Only a read the CPU waits for orders them.
 */
NPU_TEST_F(timing, late_npu_writes)
{
	static const unsigned long lags[] = { 5, 10, 30, 100, 300, 1000 };
	char what[64];

	for (unsigned int i = 0; i < sizeof(lags) / sizeof(lags[0]); i++) {
		ASSERT_EQ(0, npu_knob_write("npu_lag", lags[i]));
		set_timing(_metadata, self->saved[0], OVERTAKE_MAX, 0);
		snprintf(what, sizeof(what), "npu_lag %lu overtake %d first_beat 0",
			 lags[i], OVERTAKE_MAX);
		run_shapes(_metadata, self->fd, SEED + 32 * i, what);
	}
}

/*
 * Waits past their polling budget sleep: on the DMA interrupt when the
 * instance has one (irq_waits counts them), else between polls
 * (poll_sleeps). A lost interrupt costs a sleep to the hang limit, a
 * spurious one a wakeup for nothing; neither may cost a right answer.
 * The stall is past the longest polling budget the wait estimates can
 * learn (8 x 20 us), so every wait on a transfer sleeps however many
 * batches ran before.
 */
NPU_TEST_F(timing, waits_sleep_on_interrupts)
{
	long long chans = npu_stat("irq_chans");
	long long waits = npu_stat("irq_waits");
	long long naps = npu_stat("poll_sleeps");

	ASSERT_LE(0, chans);
	ASSERT_EQ(0, npu_knob_write("stall_us", STALL_US));
	run_checked(_metadata, self->fd, NK, 8, SEED + 7, "stall_us 400");
	if (!chans) {
		ASSERT_LT(naps, npu_stat("poll_sleeps"));
		return;
	}
	ASSERT_LT(waits, npu_stat("irq_waits"))
		TH_LOG("sim_irq: no wait slept on an interrupt");
	ASSERT_EQ(0, npu_knob_write("irq_lose", 2));
	ASSERT_EQ(0, npu_knob_write("irq_spurious", 4));
	run_checked(_metadata, self->fd, NK, 8, SEED + 8,
		    "stall_us 400, 2 interrupts lost, 4 spurious");
	ASSERT_EQ(0, npu_knob_read("irq_lose"));
	ASSERT_EQ(0, npu_knob_read("irq_spurious"));
	ASSERT_LT(0, npu_stat("irq_wakeups"));
}

/* FEATURES reads what the RTL's 0x302 build reads (npukit_axil.sv). */
NPU_TEST_F(timing, features_as_rtl)
{
	if (self->info.ip_version == 0x302)
		ASSERT_EQ(0x1FU, self->info.ip_features);
}

TEST_HARNESS_MAIN
