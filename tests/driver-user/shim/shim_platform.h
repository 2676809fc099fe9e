/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim_platform.h - the platform bus of the driver's userspace build, and
 * what a device on it has on a board: MMIO resources that
 * devm_platform_ioremap_resource() maps, interrupts by name, a clock and
 * a reset line from its device-tree node (struct shim_of_node), each
 * device-managed as the kernel's are (shim_platform.c).
 *
 * A mapping is an address nothing may dereference (reserved, PROT_NONE):
 * readl()/writel() and their relaxed forms take it to the board that
 * stands behind the bus (struct shim_board_ops: hw-emu's hwemu_board.c),
 * by physical address. The board is also the CPU's clock: ktime_get_ns()
 * reads it and ndelay(), udelay() and usleep_range() let its time pass;
 * and the source of the interrupt lines (shim_irq.h). Without a board,
 * nothing is mapped, a platform device has no resource, and the clock is
 * CLOCK_MONOTONIC (a simulated instance, npukit_backend.h, needs none).
 *
 * Counted, for tests that a failed probe or a remove leaves nothing
 * behind (struct shim_live): live allocations, DMA buffers, mappings,
 * requested regions and interrupts, enabled clocks, reset lines held,
 * device-managed actions, registered nodes.
 */
#ifndef SHIM_PLATFORM_H
#define SHIM_PLATFORM_H

#include "npukit_shim.h"

/* linux/ioport.h */
#define IORESOURCE_MEM	0x00000200UL
#define IORESOURCE_IRQ	0x00000400UL
struct resource {
	u64 start;
	u64 end;
	const char *name;
	unsigned long flags;
};

static inline u64 resource_size(const struct resource *res)
{
	return res->end - res->start + 1;
}

/* linux/io.h: out of line, to the board (shim_platform.c) */
u32 shim_readl(const volatile void __iomem *addr);
void shim_writel(u32 val, volatile void __iomem *addr);
void shim_mb(void);
#ifdef SHIM_BOARD_IO
#define readl_relaxed(addr) shim_readl(addr)
#define writel_relaxed(val, addr) shim_writel(val, addr)
/*
 * readl() and writel() carry barriers against memory on ARM (__iormb(),
 * __iowmb()); against the device they are the relaxed access, and memory
 * is ordered here by the DMA model's cache rules, not by them
 */
#define readl(addr) shim_readl(addr)
#define writel(val, addr) shim_writel(val, addr)
/*
 * The mandatory barrier (mb(), a DSB on the Cortex-A9): a fence, and on a
 * board what the DSB does on its bus (struct shim_board_ops.barrier)
 */
#define mb() shim_mb()
#else
/*
 * Without a board (kick_count, mk/42-driver-user.mk) only the simulated
 * branch runs: the accessors are what the A9's are, an inline load or
 * store and a fence, so that the code around them is compiled as for the
 * board and the driver's instructions are counted as they will run there
 * (calls here cost a simulated read-back 25 instructions more).
 */
static inline u32 readl_relaxed(const volatile void __iomem *addr)
{
	return *(const volatile u32 *)addr;
}

static inline void writel_relaxed(u32 val, volatile void __iomem *addr)
{
	*(volatile u32 *)addr = val;
}

#define readl readl_relaxed
#define writel writel_relaxed
#define mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

/*
 * A device-tree node's properties besides reg and interrupts, and faults
 * its lookups can be made to return (0: none)
 * @compatible: matched against a driver's of_match_table
 * @clk_rate: the "clocks" property's clock and its rate; 0: no property
 * @clk_get_err: devm_clk_get*() fails with it (-EPROBE_DEFER, ...)
 * @clk_enable_err: clk_prepare_enable() fails with it
 * @has_reset: a "resets" property
 * @reset_get_err: devm_reset_control_get*() fails with it
 * @reset_assert_err: reset_control_assert() fails with it
 * @irq_err: looking an interrupt up fails with it: -EPROBE_DEFER (an
 *	interrupt controller not probed yet) is returned; any other is
 *	"no such interrupt", as of_irq_get_byname() failing is
 */
struct shim_of_node {
	const char *compatible;
	unsigned long clk_rate;
	int clk_get_err;
	int clk_enable_err;
	bool has_reset;
	int reset_get_err;
	int reset_assert_err;
	int irq_err;
};

/* linux/platform_device.h, linux/of.h */
struct of_device_id {
	char compatible[128];
};

#define PLATFORM_NAME_SIZE 20
struct platform_device_id {
	char name[PLATFORM_NAME_SIZE];
	unsigned long driver_data;
};

struct platform_device {
	const char *name;
	int id;
	struct device dev;
	const struct platform_device_id *id_entry;
	u64 dma_mask;
	u32 num_resources;
	struct resource *resource;
	const struct shim_of_node *of_node;
};

struct platform_device_info {
	const char *name;
	int id;
	u64 dma_mask;
	const struct resource *res;
	unsigned int num_res;
	const struct shim_of_node *of_node;
};

struct device_driver {
	const char *name;
	const struct of_device_id *of_match_table;
};

struct platform_driver {
	int (*probe)(struct platform_device *pdev);
	void (*remove)(struct platform_device *pdev);
	const struct platform_device_id *id_table;
	struct device_driver driver;
};

int platform_driver_register(struct platform_driver *drv);
void platform_driver_unregister(struct platform_driver *drv);
struct platform_device *
platform_device_register_full(const struct platform_device_info *info);
void platform_device_unregister(struct platform_device *pdev);
#define platform_get_device_id(pdev) ((pdev)->id_entry)
#define platform_set_drvdata(pdev, data) dev_set_drvdata(&(pdev)->dev, data)
#define platform_get_drvdata(pdev) dev_get_drvdata(&(pdev)->dev)
struct resource *platform_get_resource(struct platform_device *pdev,
				       unsigned int type, unsigned int num);
void __iomem *devm_platform_ioremap_resource(struct platform_device *pdev,
					     unsigned int index);
int platform_get_irq_byname_optional(struct platform_device *pdev,
				     const char *name);

/* linux/clk.h */
struct clk;
struct clk *devm_clk_get_optional(struct device *dev, const char *id);
struct clk *devm_clk_get_optional_enabled(struct device *dev, const char *id);
int clk_prepare_enable(struct clk *clk);
void clk_disable_unprepare(struct clk *clk);
struct clk *clk_get(struct device *dev, const char *id);
unsigned long clk_get_rate(struct clk *clk);
void clk_put(struct clk *clk);

/* linux/reset.h */
struct reset_control;
struct reset_control *devm_reset_control_get_optional_exclusive(struct device *dev,
								const char *id);
int reset_control_assert(struct reset_control *rstc);
int reset_control_deassert(struct reset_control *rstc);

/*
 * The board behind the bus. Physical addresses are the resources'; the
 * board says what answers there.
 * @read: a 32-bit read (readl_relaxed())
 * @write: a 32-bit write (writel_relaxed())
 * @barrier: mb() on its bus
 * @now: the CPU's clock, ns (ktime_get_ns())
 * @delay: let @ns of the CPU's time pass (ndelay(), udelay(), a sleep)
 * @enter: the task enters the kernel (a system call): the board's clock
 *	catches up with the time userspace took
 * @irq_level: is interrupt line @irq asserted now
 * @clk_enable: the fabric clock @rate goes on (@on) or off
 * @reset: the reset line is asserted or deasserted: 0 or an errno
 */
struct shim_board_ops {
	u32 (*read)(void *ctx, u64 phys);
	void (*write)(void *ctx, u64 phys, u32 val);
	void (*barrier)(void *ctx);
	u64 (*now)(void *ctx);
	void (*delay)(void *ctx, u64 ns);
	void (*enter)(void *ctx);
	bool (*irq_level)(void *ctx, unsigned int irq);
	void (*clk_enable)(void *ctx, unsigned long rate, bool on);
	int (*reset)(void *ctx, bool asserted);
};

/* One board at a time; NULL @ops: none */
void shim_board_attach(const struct shim_board_ops *ops, void *ctx);
const struct shim_board_ops *shim_board(void **ctx);
/* For ktime_get_ns() and the delays: false without a board */
bool shim_board_now(u64 *ns);
bool shim_board_delay(u64 ns);
/* A system call enters the driver (driver_user.c) */
void shim_syscall_enter(void);
/* Did the last probe of @pdev fail, and how (0: bound; 1: no driver) */
int shim_platform_probe_result(struct platform_device *pdev);

/* What is held; each must be back to 0 once every device is gone */
struct shim_live {
	long allocs;		/* kzalloc(), kvmalloc*() not freed */
	long dma_buffers;	/* dma_alloc_noncoherent() not freed */
	long mappings;		/* ioremaps */
	long regions;		/* requested MMIO regions */
	long irqs;		/* interrupt handlers requested */
	long clocks_on;		/* clocks prepared and enabled */
	long resets;		/* reset controls held */
	long resets_asserted;	/* reset lines asserted and not deasserted */
	long devres;		/* device-managed actions pending */
	long nodes;		/* misc devices registered */
};

/* Kept up to date by every file of the shim */
extern struct shim_live shim_held;

/* Run @dev's device-managed actions, the newest first (npukit_shim.c) */
void shim_devres_release_all(struct device *dev);

/*
 * The order in which device-managed resources were released, as short
 * words ("irq 61", "clk", "unmap 0x40400000", ...), the oldest first;
 * cleared by shim_release_log_clear()
 */
const char *shim_release_log(void);
void shim_release_log_clear(void);
void shim_release_note(const char *fmt, ...) __printf(1, 2);

#endif /* SHIM_PLATFORM_H */
