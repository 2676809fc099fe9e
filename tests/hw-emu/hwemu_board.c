// SPDX-License-Identifier: GPL-2.0
/*
 * hwemu_board.c - the emulated PYNQ-Z2 for the driver's hardware branch
 * (hwemu_board.h): a platform device with NpuKit's device-tree node
 * (dts/npukit-zynq.dtsi) on the shim's platform bus, and the board
 * behind the shim's MMIO (shim_platform.h, struct shim_board_ops):
 *
 *  - reg 0x43c00000 is the NPU's AXI4-Lite slave and reg 0x40400000 the
 *    AXI DMA's registers, both reached through hwemu_sim.c's bus model
 *    (hwemu_bus.h), so readl()/writel() on the driver's ioremap of them
 *    are the posted writes and sampled reads a simulated instance's
 *    backend calls are; mb() is the bus's barrier. Anything else on GP0
 *    is a bus error.
 *  - FCLK_CLK0 clocks both: with the node's clock off an access would hang
 *    the bus, which aborts here with what happened.
 *  - The PL reset line (FCLK_RESET0_N) holds the NPU and the DMA in reset
 *    while asserted.
 *  - The DMA's mm2s_introut and s2mm_introut, when the node has the
 *    interrupts, are the lines shim_irq.c delivers.
 *  - The CPU's clock is the bus model's: device time, in the driver's
 *    ktime_get_ns(), ndelay() and sleeps, as on the board. Userspace runs
 *    in real time: a system call's entry lets the board's clock catch up,
 *    so that a deadline the caller took from CLOCK_MONOTONIC means there
 *    what it means on the board.
 */
#include <stdlib.h>
#include <time.h>

#include <linux/platform_device.h>

#include "npukit_sim.h"
#include "hwemu_board.h"
#include "hwemu_bus.h"

#define HW_NPU_BASE	0x43c00000ULL
#define HW_DMA_BASE	0x40400000ULL
#define HW_REG_SIZE	0x10000ULL
#define HW_FCLK0_HZ	100000000UL
#define HW_COMPATIBLE	"netkit-labs,npukit-3.2"

static struct hw_board {
	struct hwemu_board_config cfg;
	struct shim_of_node of;
	struct platform_device *pdev;
	struct npukit_sim *bus;
	u64 anchor;		/* ns: the CPU's clock less the bus model's */
	bool clock_on;
	bool reset_asserted;
	long other_irqs;	/* the other PL device's handlers, not the driver's */
	struct hwemu_board_stats st;
} hw_board;

static int hw_other_token;

static void __attribute__((noreturn)) hw_die(const char *what, u64 phys)
{
	fprintf(stderr, "hw-emu board: %s %#llx\n", what, phys);
	abort();
}

/* The slave at @phys and the offset in it */
static enum npukit_space hw_decode(u64 phys, u32 *off, const char *what)
{
	if (!hw_board.clock_on)
		hw_die(what, phys);
	if (phys >= HW_NPU_BASE && phys < HW_NPU_BASE + HW_REG_SIZE) {
		*off = (u32)(phys - HW_NPU_BASE);
		return NPUKIT_SPACE_NPU;
	}
	if (phys >= HW_DMA_BASE && phys < HW_DMA_BASE + HW_REG_SIZE) {
		*off = (u32)(phys - HW_DMA_BASE);
		return NPUKIT_SPACE_DMA;
	}
	hw_die("bus error (no slave on GP0) at", phys);
}

static u32 hw_read(void *ctx, u64 phys)
{
	enum npukit_space space;
	u32 off;

	space = hw_decode(phys, &off, "a read with FCLK_CLK0 off (the bus hangs) at");
	return npukit_sim_read(hw_board.bus, space, off);
}

static void hw_write(void *ctx, u64 phys, u32 val)
{
	enum npukit_space space;
	u32 off;

	space = hw_decode(phys, &off, "a write with FCLK_CLK0 off (the bus hangs) at");
	npukit_sim_write(hw_board.bus, space, off, val);
}

static void hw_barrier(void *ctx)
{
	hwemu_bus_barrier(hw_board.bus);
}

static u64 hw_now(void *ctx)
{
	return hw_board.anchor + npukit_sim_now(hw_board.bus);
}

static void hw_delay(void *ctx, u64 ns)
{
	while (ns) {
		u32 step = (u32)min_t(u64, ns, U32_MAX);

		npukit_sim_delay(hw_board.bus, step);
		ns -= step;
	}
}

static u64 hw_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

/* Userspace took real time: the board's clock is never behind it on entry */
static void hw_enter(void *ctx)
{
	u64 real = hw_real_ns();

	if (hw_now(ctx) < real)
		hw_board.anchor = real - npukit_sim_now(hw_board.bus);
}

static bool hw_irq_level(void *ctx, unsigned int irq)
{
	const struct hwemu_board_config *c = &hw_board.cfg;

	hwemu_bus_sync(hw_board.bus);
	return (irq == c->irq_mm2s && hwemu_bus_introut(hw_board.bus, 0)) ||
	       (irq == c->irq_s2mm && hwemu_bus_introut(hw_board.bus, 1));
}

static void hw_clk_enable(void *ctx, unsigned long rate, bool on)
{
	if (rate != HW_FCLK0_HZ)
		hw_die("FCLK_CLK0 is 100 MHz, not", rate);
	hw_board.clock_on = on;
	if (on)
		hw_board.st.clk_enables++;
	else
		hw_board.st.clk_disables++;
}

static int hw_reset(void *ctx, bool asserted)
{
	hwemu_bus_reset(hw_board.bus, asserted);
	hw_board.reset_asserted = asserted;
	if (asserted)
		hw_board.st.reset_asserts++;
	else
		hw_board.st.reset_deasserts++;
	return 0;
}

static const struct shim_board_ops hw_board_ops = {
	.read = hw_read,
	.write = hw_write,
	.barrier = hw_barrier,
	.now = hw_now,
	.delay = hw_delay,
	.enter = hw_enter,
	.irq_level = hw_irq_level,
	.clk_enable = hw_clk_enable,
	.reset = hw_reset,
};

/* Another PL device on the DMA's lines, whose interrupts never come */
static irqreturn_t hw_other_handler(int irq, void *data)
{
	hw_board.st.other_calls++;
	return IRQ_NONE;
}

static void hw_other_irqs(bool request)
{
	const struct hwemu_board_config *c = &hw_board.cfg;
	unsigned long flags = c->other_irq_user == 1 ? IRQF_SHARED : 0;
	unsigned int irqs[2] = { c->irq_mm2s, c->irq_s2mm };
	unsigned int i;

	if (!c->other_irq_user)
		return;
	for (i = 0; i < 2; i++) {
		if (!irqs[i] || (i && irqs[1] == irqs[0]))
			continue;
		if (!request)
			free_irq(irqs[i], &hw_other_token);
		else if (request_irq(irqs[i], hw_other_handler, flags, "other-pl-ip",
				     &hw_other_token))
			hw_die("the other PL device cannot request interrupt", irqs[i]);
		hw_board.other_irqs += request ? 1 : -1;
	}
}

/* The node's reg and interrupts, in the binding's order */
static unsigned int hw_resources(const struct hwemu_board_config *c, struct resource *res)
{
	unsigned int n = 0;

	if (!c->no_npu_reg)
		res[n++] = (struct resource){ HW_NPU_BASE, HW_NPU_BASE + HW_REG_SIZE - 1,
					      "npu", IORESOURCE_MEM };
	if (!c->no_dma_reg)
		res[n++] = (struct resource){ HW_DMA_BASE, HW_DMA_BASE + HW_REG_SIZE - 1,
					      "dma", IORESOURCE_MEM };
	if (c->irq_mm2s)
		res[n++] = (struct resource){ c->irq_mm2s, c->irq_mm2s, "mm2s", IORESOURCE_IRQ };
	if (c->irq_s2mm)
		res[n++] = (struct resource){ c->irq_s2mm, c->irq_s2mm, "s2mm", IORESOURCE_IRQ };
	return n;
}

int hwemu_board_add(const struct hwemu_board_config *c)
{
	struct resource res[4];
	struct platform_device_info info = {
		.name = "43c00000.npu",
		.id = -1,
		.dma_mask = DMA_BIT_MASK(32),
		.res = res,
		.of_node = &hw_board.of,
	};

	if (hw_board.bus) {
		fprintf(stderr, "hw-emu board: one board at a time\n");
		abort();
	}
	memset(&hw_board, 0, sizeof(hw_board));
	hw_board.cfg = *c;
	hw_board.bus = hwemu_bus_create();
	if (!hw_board.bus)
		return -ENOMEM;
	hw_board.of = (struct shim_of_node){
		.compatible = HW_COMPATIBLE,
		.clk_rate = c->no_clock ? 0 : HW_FCLK0_HZ,
		.clk_get_err = c->clk_get_err,
		.clk_enable_err = c->clk_enable_err,
		.has_reset = !c->no_reset,
		.reset_get_err = c->reset_get_err,
		.reset_assert_err = c->reset_assert_err,
		.irq_err = c->irq_err,
	};
	/* without "clocks" FCLK_CLK0 runs as the bitstream's loader left it */
	hw_board.clock_on = c->no_clock;
	shim_board_attach(&hw_board_ops, &hw_board);
	hw_enter(NULL);
	hw_other_irqs(true);
	info.num_res = hw_resources(c, res);
	hw_board.pdev = platform_device_register_full(&info);
	if (IS_ERR(hw_board.pdev)) {
		int ret = PTR_ERR(hw_board.pdev);

		hw_board.pdev = NULL;
		hwemu_board_remove();
		return ret;
	}
	return shim_platform_probe_result(hw_board.pdev);
}

int hwemu_board_bound(void)
{
	return hw_board.pdev ? shim_platform_probe_result(hw_board.pdev) : -ENODEV;
}

void hwemu_board_remove(void)
{
	if (!hw_board.bus)
		return;
	shim_syscall_enter();
	platform_device_unregister(hw_board.pdev);
	hw_board.pdev = NULL;
	hw_other_irqs(false);
	shim_board_attach(NULL, NULL);
	npukit_sim_destroy(hw_board.bus);
	hw_board.bus = NULL;
}

int hwemu_board_from_env(void)
{
	const char *v = getenv("NPUKIT_HWEMU_BOARD");
	struct hwemu_board_config c = { 0 };

	if (!v || !*v)
		return -1;
	if (!strcmp(v, "irq")) {
		c.irq_mm2s = HWEMU_BOARD_IRQ_MM2S;
		c.irq_s2mm = HWEMU_BOARD_IRQ_S2MM;
	} else if (!strcmp(v, "shared")) {
		c.irq_mm2s = HWEMU_BOARD_IRQ_MM2S;
		c.irq_s2mm = HWEMU_BOARD_IRQ_MM2S;
		c.other_irq_user = 1;
	} else if (strcmp(v, "polled") && strcmp(v, "1")) {
		fprintf(stderr, "hw-emu board: NPUKIT_HWEMU_BOARD=%s: polled, irq or shared\n", v);
		return -EINVAL;
	}
	return hwemu_board_add(&c);
}

void hwemu_board_stats(struct hwemu_board_stats *out)
{
	const struct hwemu_board_config *c = &hw_board.cfg;
	unsigned int irqs[2] = { c->irq_mm2s, c->irq_s2mm };
	struct shim_irq_stats st;
	unsigned int i;

	*out = hw_board.st;
	out->clock_on = hw_board.clock_on;
	out->reset_asserted = hw_board.reset_asserted;
	for (i = 0; i < 2; i++) {
		if (!irqs[i] || (i && irqs[1] == irqs[0]) || shim_irq_stats(irqs[i], &st))
			continue;
		out->irq_handled += st.handled;
		out->irq_unhandled += st.unhandled;
		out->irq_still_asserted += st.still_asserted;
		out->irq_calls += st.calls;
	}
}

void hwemu_board_live(struct hwemu_board_live *out)
{
	*out = (struct hwemu_board_live){
		shim_held.allocs, shim_held.dma_buffers, shim_held.mappings,
		shim_held.regions, shim_held.irqs - hw_board.other_irqs, shim_held.clocks_on,
		shim_held.resets, shim_held.resets_asserted, shim_held.devres,
		shim_held.nodes,
	};
}

const char *hwemu_board_release_log(void)
{
	return shim_release_log();
}

void hwemu_board_release_log_clear(void)
{
	shim_release_log_clear();
}
