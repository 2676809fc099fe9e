// SPDX-License-Identifier: GPL-2.0
/*
 * hwemu_probe_test.c - the driver's hardware branch on the emulated board
 * (hwemu_board.h): npukit.ko's platform probe binds NpuKit's device-tree
 * node (its reg, clock, reset line and optional interrupts), its register
 * accessors take readl()/writel() on the ioremap of the node's resources,
 * and those reach the NPU behind the pins (the RTL under make hw-emu, the
 * port model in CI) and the AXI DMA model. Each test binds a node of its
 * own in a process of its own (the harness forks).
 *
 *  - the probe binds it as hardware, and GET_INFO and sysfs say what the
 *    IP and the node are; batches give the CPU reference's tiles, also
 *    with NPU writes landing later than a read round trip;
 *  - a node without a reg, an interrupt lookup deferred, a line another
 *    device holds, a clock or a reset line that cannot be had: the probe
 *    fails with that errno and holds nothing afterwards;
 *  - remove releases everything, in the reverse of the order the probe
 *    took it (the interrupts before the clock, the clock before the
 *    mappings); an open file outlives it and gets ENODEV;
 *  - interrupts on lines of their own, one line for both channels, a line
 *    shared with another device: waits past their polling budget sleep
 *    and are woken, every interrupt is claimed and acked before its
 *    handler returns, and a DMA error ends a batch through the error
 *    interrupt;
 *  - recovery pulses the PL reset line and the device works again;
 *    without a clock or reset property the node binds too;
 *  - rmmod unbinds and insmod binds the node again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npukit.h"
#include "npukit_ref.h"
#include "kselftest_harness.h"

#include "driver_user.h"
#include "hwemu.h"
#include "hwemu_board.h"

#define NPU_ID		0x4E50554BU
#define NODE		"npukit0"
#define MAX_KICKS	1024
#define NRES		16

/* Every count of what the driver holds is 0 */
#define ASSERT_NOTHING_HELD() do {					\
	struct hwemu_board_live __l;					\
									\
	hwemu_board_live(&__l);						\
	ASSERT_EQ(0, __l.allocs);					\
	ASSERT_EQ(0, __l.dma_buffers);					\
	ASSERT_EQ(0, __l.mappings);					\
	ASSERT_EQ(0, __l.regions);					\
	ASSERT_EQ(0, __l.irqs);						\
	ASSERT_EQ(0, __l.clocks_on);					\
	ASSERT_EQ(0, __l.resets);					\
	ASSERT_EQ(0, __l.resets_asserted);				\
	ASSERT_EQ(0, __l.devres);					\
	ASSERT_EQ(0, __l.nodes);					\
} while (0)

static struct npukit_kick kicks[MAX_KICKS];
static npu_ctile got[NRES], want[NRES];

/* SUBMIT @n kicks: the ioctl's result, @s filled in */
static long submit(struct driver_user_file *f, struct npukit_submit *s, uint32_t n)
{
	memset(got, 0x5a, sizeof(got));
	memset(want, 0x5a, sizeof(want));
	npu_ref_batch(kicks, n, want);
	npu_submit_init(s, kicks, n, got, NRES);
	return driver_user_ioctl(f, NPUKIT_IOCTL_SUBMIT, s);
}

/* A batch of @n kicks in sums of @krun (0: random sums) gives the reference's tiles */
#define ASSERT_BATCH_RIGHT(f, krun, n, seed) do {			\
	struct npukit_submit __s;					\
	uint64_t __seed = (seed);					\
									\
	if (krun)							\
		npu_krun_batch(kicks, (n), (krun), NRES, &__seed);	\
	else								\
		npu_random_batch(kicks, (n), NRES, &__seed);		\
	ASSERT_EQ(0, submit((f), &__s, (n)))				\
		TH_LOG("status %u, %u done", __s.status, __s.kicks_done);	\
	ASSERT_EQ((n), __s.kicks_done);					\
	ASSERT_EQ(0, __s.status);					\
	ASSERT_EQ(0, memcmp(got, want, sizeof(got)))			\
		TH_LOG("K-run %u: tiles differ from the CPU reference", (krun));	\
	ASSERT_LT(0, __s.device_ns);					\
} while (0)

/*
 * The next @errors MM2S transfers fail at their 2nd beat: a batch of @n
 * kicks whose first tile load is the first of them ends with EIO
 */
#define ASSERT_MM2S_ERRORS_FAIL(f, errors, n, seed) do {		\
	struct npukit_submit __s;					\
	uint64_t __seed = (seed);					\
									\
	ASSERT_EQ(0, hwemu_knob_set("error_chan", 1));			\
	ASSERT_EQ(0, hwemu_knob_set("error_beat", 1));			\
	ASSERT_EQ(0, hwemu_knob_set("dma_error", (errors)));		\
	npu_krun_batch(kicks, (n), 8, NRES, &__seed);			\
	ASSERT_EQ(-EIO, submit((f), &__s, (n)));			\
	ASSERT_EQ(NPUKIT_STATUS_DMA_ERROR, __s.status);			\
} while (0)

/* sysfs attribute @attr of the node is @text */
#define ASSERT_SYSFS(attr, text) do {					\
	char __b[128];							\
									\
	ASSERT_LT(0, driver_user_sysfs(NODE, (attr), __b, sizeof(__b)));	\
	ASSERT_STREQ((text), __b);					\
} while (0)

/* insmod with no simulated instance; the test adds its node */
static void node_setup(struct __test_metadata *_metadata,
			struct driver_user_file **f)
{
	*f = NULL;
	ASSERT_EQ(0, driver_user_param("sim_devices", 0));
	ASSERT_EQ(0, driver_user_load());
}

static void node_teardown(struct driver_user_file **f)
{
	if (*f)
		driver_user_close(*f);
	hwemu_board_remove();
	driver_user_unload();
}

FIXTURE(board) {
	struct driver_user_file *f;
};

FIXTURE_SETUP(board)
{
	node_setup(_metadata, &self->f);
}

FIXTURE_TEARDOWN(board)
{
	node_teardown(&self->f);
}

/* Bind @cfg's node and open it */
#define BIND(cfg) do {							\
	ASSERT_EQ(0, hwemu_board_add(cfg));				\
	self->f = driver_user_open(NODE);				\
	ASSERT_NE(NULL, self->f);					\
} while (0)

TEST_F(board, probe_binds_hardware)
{
	struct hwemu_board_config cfg = { 0 };
	struct npukit_info info = { .size = sizeof(info) };
	struct hwemu_board_stats st;
	struct hwemu_board_live l;

	BIND(&cfg);
	ASSERT_EQ(0, driver_user_ioctl(self->f, NPUKIT_IOCTL_GET_INFO, &info));
	ASSERT_EQ(NPUKIT_BACKEND_HARDWARE, info.backend);
	ASSERT_EQ(NPUKIT_UAPI_VERSION, info.uapi_version);
	ASSERT_EQ(NPU_ID, info.ip_id);
	ASSERT_EQ(0x302, info.ip_version);
	ASSERT_EQ(0x1f, info.ip_features);
	ASSERT_EQ(NPUKIT_TILE_N, info.array_n);
	ASSERT_EQ(65536, info.max_kicks);
	ASSERT_EQ(4096, info.max_results);
	ASSERT_EQ(16383, info.dma_max_bytes);
	ASSERT_EQ(sizeof(struct npukit_kick), info.kick_size);
	ASSERT_SYSFS("backend", "hardware\n");
	ASSERT_SYSFS("completion", "polled\n");
	ASSERT_SYSFS("pl_clock_hz", "100000000\n");
	ASSERT_SYSFS("state", "ok\n");
	hwemu_board_stats(&st);
	ASSERT_TRUE(st.clock_on);
	ASSERT_EQ(1, st.clk_enables);
	ASSERT_EQ(0, st.reset_asserts);
	hwemu_board_live(&l);
	ASSERT_EQ(2, l.mappings);
	ASSERT_EQ(1, l.clocks_on);
	ASSERT_EQ(1, l.resets);
	ASSERT_EQ(0, l.irqs);
	ASSERT_EQ(2, l.dma_buffers);
	ASSERT_EQ(1, l.nodes);
}

TEST_F_TIMEOUT(board, batches_match_reference, 300)
{
	struct hwemu_board_config cfg = { 0 };
	struct hwemu_stats hs;

	BIND(&cfg);
	ASSERT_BATCH_RIGHT(self->f, 1, 256, 1);
	ASSERT_BATCH_RIGHT(self->f, 8, 512, 2);
	ASSERT_BATCH_RIGHT(self->f, 64, 1024, 3);
	ASSERT_BATCH_RIGHT(self->f, 100, 1000, 4);
	ASSERT_BATCH_RIGHT(self->f, 0, 777, 5);
	hwemu_stats(&hs);
	ASSERT_EQ(0, hs.violations);
	ASSERT_EQ(0, hs.dropped);
}

/*
 * NPU writes landing 500 ns late, DMA writes at their most prompt: only
 * the ordering read, readl() then mb() on the board (npukit_npu_read_wait()),
 * keeps the next tile from streaming in before START has landed
 */
TEST_F_TIMEOUT(board, late_npu_writes_ordered, 300)
{
	struct hwemu_board_config cfg = { 0 };
	struct hwemu_stats hs;

	ASSERT_EQ(0, hwemu_knob_set("late", 50));
	ASSERT_EQ(0, hwemu_knob_set("overtake", 20));
	ASSERT_EQ(0, hwemu_knob_set("first_beat", 0));
	ASSERT_EQ(0, hwemu_knob_set("idle_lag", 0));
	BIND(&cfg);
	ASSERT_BATCH_RIGHT(self->f, 1, 256, 6);
	hwemu_stats(&hs);
	ASSERT_EQ(0, hs.violations);
}

TEST_F(board, remove_releases_in_reverse)
{
	struct hwemu_board_config cfg = {
		.irq_mm2s = HWEMU_BOARD_IRQ_MM2S,
		.irq_s2mm = HWEMU_BOARD_IRQ_S2MM,
	};
	struct hwemu_board_stats st;
	const char *log;
	char *irq, *dma, *clk, *unmap_dma, *unmap_npu;

	BIND(&cfg);
	ASSERT_BATCH_RIGHT(self->f, 8, 64, 7);
	driver_user_close(self->f);
	self->f = NULL;
	hwemu_board_release_log_clear();
	hwemu_board_remove();
	ASSERT_NOTHING_HELD();
	hwemu_board_stats(&st);
	ASSERT_FALSE(st.clock_on);
	ASSERT_EQ(1, st.clk_disables);
	log = hwemu_board_release_log();
	TH_LOG("released: %s", log);
	dma = strstr(log, "dma free");
	irq = strstr(log, "irq 6");
	clk = strstr(log, "clk off");
	unmap_dma = strstr(log, "unmap 0x40400000");
	unmap_npu = strstr(log, "unmap 0x43c00000");
	ASSERT_TRUE(dma && irq && clk && unmap_dma && unmap_npu);
	/* no handler runs on a clock that is off or registers unmapped */
	ASSERT_TRUE(dma < irq && irq < clk && clk < unmap_dma && unmap_dma < unmap_npu);
}

TEST_F(board, remove_while_open)
{
	struct hwemu_board_config cfg = { 0 };
	struct npukit_info info = { .size = sizeof(info) };
	struct hwemu_board_live l;

	BIND(&cfg);
	hwemu_board_remove();
	ASSERT_EQ(-ENODEV, driver_user_ioctl(self->f, NPUKIT_IOCTL_GET_INFO, &info));
	/* the instance itself stays until its last file is closed */
	hwemu_board_live(&l);
	ASSERT_EQ(1, l.allocs);
	ASSERT_EQ(0, l.mappings);
	ASSERT_EQ(0, l.dma_buffers);
	ASSERT_EQ(0, l.nodes);
	driver_user_close(self->f);
	self->f = NULL;
	ASSERT_NOTHING_HELD();
}

/*
 * The first beat of a transfer after 200 us: every wait for a tile is
 * past its polling budget (8 times the longest estimate a wait adapts
 * to, npukit_hw.c) and sleeps on the interrupt
 */
#define IRQ_FIRST_BEAT	20000

/* The DMA's interrupts as a bitstream may wire them */
FIXTURE(irq) {
	struct driver_user_file *f;
};

FIXTURE_VARIANT(irq) {
	unsigned int mm2s, s2mm;
	int other_irq_user;
	long requests;		/* the driver's request_irq() calls */
};

FIXTURE_VARIANT_ADD(irq, lines_of_their_own) {
	HWEMU_BOARD_IRQ_MM2S, HWEMU_BOARD_IRQ_S2MM, 0, 2,
};

FIXTURE_VARIANT_ADD(irq, one_line_both_channels) {
	HWEMU_BOARD_IRQ_MM2S, HWEMU_BOARD_IRQ_MM2S, 0, 1,
};

/* the driver's one request beside the other device's */
FIXTURE_VARIANT_ADD(irq, line_shared_with_another_device) {
	HWEMU_BOARD_IRQ_MM2S, HWEMU_BOARD_IRQ_MM2S, 1, 1,
};

FIXTURE_SETUP(irq)
{
	node_setup(_metadata, &self->f);
}

FIXTURE_TEARDOWN(irq)
{
	node_teardown(&self->f);
}

TEST_F_TIMEOUT(irq, sleeping_waits_woken, 120)
{
	struct hwemu_board_config cfg = {
		.irq_mm2s = variant->mm2s,
		.irq_s2mm = variant->s2mm,
		.other_irq_user = variant->other_irq_user,
	};
	struct hwemu_board_stats st;
	struct hwemu_board_live l;

	ASSERT_EQ(0, hwemu_knob_set("first_beat", IRQ_FIRST_BEAT));
	BIND(&cfg);
	ASSERT_SYSFS("completion", "interrupt mm2s s2mm\n");
	hwemu_board_live(&l);
	ASSERT_EQ(variant->requests, l.irqs);
	ASSERT_BATCH_RIGHT(self->f, 8, 64, 8);
	/* one interrupt per wait at least, each claimed and acked in time */
	hwemu_board_stats(&st);
	ASSERT_LE(64, st.irq_handled);
	ASSERT_EQ(0, st.irq_unhandled);
	ASSERT_EQ(0, st.irq_still_asserted);
	/* another device's handler is asked every time, and claims none */
	ASSERT_EQ(variant->other_irq_user ? st.irq_handled : 0, st.other_calls);
}

/* An error mid-transfer, seen through Err_IrqEn's interrupt: EIO, then clean */
TEST_F_TIMEOUT(board, irq_reports_dma_error, 120)
{
	struct hwemu_board_config cfg = {
		.irq_mm2s = HWEMU_BOARD_IRQ_MM2S,
		.irq_s2mm = HWEMU_BOARD_IRQ_S2MM,
	};
	struct hwemu_board_stats st;

	ASSERT_EQ(0, hwemu_knob_set("first_beat", IRQ_FIRST_BEAT));
	BIND(&cfg);
	ASSERT_MM2S_ERRORS_FAIL(self->f, 1, 64, 9);
	hwemu_board_stats(&st);
	ASSERT_LT(0, st.irq_handled);
	ASSERT_EQ(0, st.irq_unhandled);
	ASSERT_BATCH_RIGHT(self->f, 8, 64, 10);
	ASSERT_SYSFS("state", "ok\n");
}

/*
 * Two DMA errors on the MM2S: the batch's first tile load, then the
 * recovery's first known-answer kick; its second try pulls the PL reset
 * line (asserted, held 1 us, deasserted) and passes
 */
TEST_F_TIMEOUT(board, pl_reset_recovers, 120)
{
	struct hwemu_board_config cfg = { 0 };
	struct hwemu_board_stats st;

	BIND(&cfg);
	ASSERT_BATCH_RIGHT(self->f, 8, 64, 12);
	ASSERT_MM2S_ERRORS_FAIL(self->f, 2, 8, 11);
	hwemu_board_stats(&st);
	ASSERT_EQ(1, st.reset_asserts);
	ASSERT_EQ(1, st.reset_deasserts);
	ASSERT_FALSE(st.reset_asserted);
	ASSERT_SYSFS("stats/pl_resets", "1\n");
	ASSERT_SYSFS("state", "ok\n");
	ASSERT_BATCH_RIGHT(self->f, 8, 64, 13);
}

/* A node without "clocks" and "resets": bound, polled, recovered without a PL reset */
TEST_F_TIMEOUT(board, clock_and_reset_optional, 120)
{
	struct hwemu_board_config cfg = { .no_clock = true, .no_reset = true };
	struct hwemu_board_stats st;
	struct hwemu_board_live l;

	BIND(&cfg);
	ASSERT_SYSFS("pl_clock_hz", "unknown\n");
	hwemu_board_live(&l);
	ASSERT_EQ(0, l.clocks_on);
	ASSERT_EQ(0, l.resets);
	ASSERT_MM2S_ERRORS_FAIL(self->f, 2, 8, 14);
	hwemu_board_stats(&st);
	ASSERT_EQ(0, st.reset_asserts);
	ASSERT_BATCH_RIGHT(self->f, 8, 64, 15);
}

/* rmmod unbinds the node and frees all; insmod binds it again */
TEST_F_TIMEOUT(board, module_reload_rebinds, 120)
{
	struct hwemu_board_config cfg = { 0 };

	BIND(&cfg);
	ASSERT_BATCH_RIGHT(self->f, 8, 64, 16);
	driver_user_close(self->f);
	self->f = NULL;
	driver_user_unload();
	ASSERT_EQ(1, hwemu_board_bound());
	ASSERT_NOTHING_HELD();
	ASSERT_EQ(0, driver_user_load());
	ASSERT_EQ(0, hwemu_board_bound());
	self->f = driver_user_open(NODE);
	ASSERT_NE(NULL, self->f);
	ASSERT_BATCH_RIGHT(self->f, 8, 64, 17);
}

/* A probe that cannot have what the node promises fails, and holds nothing */
FIXTURE(probe_fails) {
	struct driver_user_file *f;
};

FIXTURE_VARIANT(probe_fails) {
	struct hwemu_board_config cfg;
	int err;
};

FIXTURE_VARIANT_ADD(probe_fails, no_npu_reg) {
	.cfg = { .no_npu_reg = true }, .err = -EINVAL,
};

FIXTURE_VARIANT_ADD(probe_fails, no_dma_reg) {
	.cfg = { .no_dma_reg = true }, .err = -EINVAL,
};

FIXTURE_VARIANT_ADD(probe_fails, irq_deferred) {
	.cfg = { .irq_mm2s = HWEMU_BOARD_IRQ_MM2S, .irq_s2mm = HWEMU_BOARD_IRQ_S2MM,
		 .irq_err = -HWEMU_EPROBE_DEFER },
	.err = -HWEMU_EPROBE_DEFER,
};

FIXTURE_VARIANT_ADD(probe_fails, irq_line_taken) {
	.cfg = { .irq_mm2s = HWEMU_BOARD_IRQ_MM2S, .irq_s2mm = HWEMU_BOARD_IRQ_MM2S,
		 .other_irq_user = 2 },
	.err = -EBUSY,
};

FIXTURE_VARIANT_ADD(probe_fails, clock_deferred) {
	.cfg = { .clk_get_err = -HWEMU_EPROBE_DEFER }, .err = -HWEMU_EPROBE_DEFER,
};

FIXTURE_VARIANT_ADD(probe_fails, clock_enable_fails) {
	.cfg = { .clk_enable_err = -EIO }, .err = -EIO,
};

FIXTURE_VARIANT_ADD(probe_fails, reset_deferred) {
	.cfg = { .reset_get_err = -HWEMU_EPROBE_DEFER }, .err = -HWEMU_EPROBE_DEFER,
};

FIXTURE_SETUP(probe_fails)
{
	node_setup(_metadata, &self->f);
}

FIXTURE_TEARDOWN(probe_fails)
{
	node_teardown(&self->f);
}

TEST_F(probe_fails, cleanly)
{
	struct hwemu_board_stats st;

	ASSERT_EQ(variant->err, hwemu_board_add(&variant->cfg));
	ASSERT_NOTHING_HELD();
	ASSERT_EQ(NULL, driver_user_open(NODE));
	hwemu_board_stats(&st);
	ASSERT_FALSE(st.clock_on && !variant->cfg.no_clock);
	ASSERT_EQ(0, st.reset_asserts);
}

TEST_HARNESS_MAIN
