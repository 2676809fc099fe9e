// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_sim_main.c - npukit_sim.ko: simulated NpuKits, for tests only
 *
 * The register-level model (npukit_sim.c) as a module of its own, in the
 * way netdevsim and mac80211_hwsim are: it creates "npukit-sim" platform
 * devices, binds them and makes each an NpuKit instance of npukit.ko over
 * the model (npukit_backend_probe()). npukit.ko itself carries no
 * simulator code; the board packages ship it alone.
 *
 * Module parameters (all unsafe: setting them taints the kernel):
 *   sim_devices=N   0..8: create N simulated NpuKits (/dev/npukitN;
 *                   GET_INFO reports NPUKIT_BACKEND_SIMULATED and the
 *                   kernel log says so). Default 1.
 *   sim_bad_id=1    simulated NpuKits read ID 0, as a fabric without the
 *                   bitstream does: their probe fails with -ENODEV.
 *   sim_irq=1       simulated NpuKits deliver the AXI DMA's interrupts, as
 *                   a bitstream wiring both to IRQ_F2P (npukit_sim.c).
 *   sim_idle_lag=C, sim_overtake=C, sim_first_beat=C
 *                   simulated NpuKits' bus and DMA timing, in cycles
 *                   (struct npukit_sim_timing): MM2S Idle after the last
 *                   beat, DMA writes overtaking NPU writes, the first MM2S
 *                   beat after LENGTH. Also per instance in debugfs.
 *   sim_npu_lag=C   writes to the NPU land C cycles late (0..1000).
 *   sim_stall_us=U  every simulated DMA transfer starts U us late (0..1000):
 *                   waits overrun their polling budget and sleep.
 *   sim_preempt_ms=M, sim_preempt_one_in=R, sim_preempt_sleep=1
 *                   the simulated CPU loses the processor for M ms
 *                   (0..100) at one in R register and clock reads, at
 *                   random; with sim_preempt_sleep the thread really
 *                   sleeps where it may (npukit_sim_stall.c).
 *
 * Debugfs, per instance, beside npukit.ko's files: the fault knobs
 * dma_error, hang, slow, reset_line and pl_reset, the timing knobs
 * idle_lag, overtake, first_beat, npu_lag and stall_us, the preemption
 * knobs preempt_ms, preempt_one_in and preempt_sleep, the interrupt
 * knobs irq_lose and irq_spurious, the CPU cost knobs cpu_*_ps
 * (npukit_sim_debugfs()), "legacy" (npukit_sim_legacy.c); and the model's own
 * counters, sim_*, at the end of "stats".
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>

#include "npukit_sim.h"

#define NPUKIT_SIM_MAX		8
#define NPUKIT_SIM_NAME		"npukit-sim"

static unsigned int sim_devices = 1;
module_param_unsafe(sim_devices, uint, 0444);
MODULE_PARM_DESC(sim_devices, "Number of simulated NpuKits to create (0..8, default 1)");

static bool sim_bad_id;
module_param_unsafe(sim_bad_id, bool, 0444);
MODULE_PARM_DESC(sim_bad_id, "Simulated NpuKits read a wrong ID (probe fails)");

static bool sim_irq;
module_param_unsafe(sim_irq, bool, 0444);
MODULE_PARM_DESC(sim_irq, "Simulated NpuKits deliver the DMA's interrupts");

static struct npukit_sim_timing sim_timing = NPUKIT_SIM_TIMING_DEFAULT;
module_param_named_unsafe(sim_idle_lag, sim_timing.idle_lag, uint, 0444);
MODULE_PARM_DESC(sim_idle_lag, "Simulated MM2S: cycles from the last beat to Idle (0..100)");
module_param_named_unsafe(sim_overtake, sim_timing.overtake, uint, 0444);
MODULE_PARM_DESC(sim_overtake, "Simulated bus: cycles a DMA register write may overtake an NPU one (0..20)");
module_param_named_unsafe(sim_first_beat, sim_timing.first_beat, uint, 0444);
MODULE_PARM_DESC(sim_first_beat, "Simulated MM2S: cycles from LENGTH to the first beat (0..100)");
module_param_named_unsafe(sim_npu_lag, sim_timing.npu_lag, uint, 0444);
MODULE_PARM_DESC(sim_npu_lag, "Simulated bus: extra cycles before a write lands in the NPU (0..1000)");
module_param_named_unsafe(sim_stall_us, sim_timing.stall_us, uint, 0444);
MODULE_PARM_DESC(sim_stall_us, "Simulated DMA: microseconds before every transfer starts (0..1000)");
module_param_named_unsafe(sim_preempt_ms, sim_timing.preempt_ms, uint, 0444);
MODULE_PARM_DESC(sim_preempt_ms, "Simulated CPU: milliseconds a preemption of the poller lasts (0..100)");
module_param_named_unsafe(sim_preempt_one_in, sim_timing.preempt_one_in, uint, 0444);
MODULE_PARM_DESC(sim_preempt_one_in, "Simulated CPU: preempted at one in this many register and clock reads (0: never)");
module_param_named_unsafe(sim_preempt_sleep, sim_timing.preempt_sleep, bool, 0444);
MODULE_PARM_DESC(sim_preempt_sleep, "Simulated CPU: a preemption really sleeps where the thread may");

static struct platform_device *npukit_sim_pdevs[NPUKIT_SIM_MAX];

/*
 * The backend's operations: the model's entry points, whose first
 * argument is the model itself rather than the interface's void *.
 */
static u32 sim_be_read(void *priv, enum npukit_space space, u32 off)
{
	return npukit_sim_read(priv, space, off);
}

static void sim_be_read_wait(void *priv, enum npukit_space space, u32 off)
{
	npukit_sim_read_wait(priv, space, off);
}

static void sim_be_write(void *priv, enum npukit_space space, u32 off,
			 u32 val)
{
	npukit_sim_write(priv, space, off, val);
}

static u64 sim_be_now_ns(void *priv)
{
	return npukit_sim_now(priv);
}

static void sim_be_delay_ns(void *priv, u32 ns)
{
	npukit_sim_delay(priv, ns);
}

static void sim_be_cpu_work(void *priv, enum npukit_cpu_item item, u32 n)
{
	npukit_sim_cpu(priv, item, n);
}

static void sim_be_cpu_sync(void *priv, size_t bytes)
{
	npukit_sim_cpu_sync(priv, bytes);
}

static int sim_be_add_window(void *priv, dma_addr_t addr, void *cpu,
			     size_t size)
{
	return npukit_sim_add_window(priv, addr, cpu, size);
}

static bool sim_be_set_irq(void *priv, irq_handler_t fn, void *data)
{
	if (!sim_irq)
		return false;
	npukit_sim_set_irq(priv, fn, data);
	return true;
}

static void sim_be_irq_sync(void *priv)
{
	npukit_sim_irq_sync(priv);
}

static void sim_be_sleep_begin(void *priv)
{
	npukit_sim_sleep_begin(priv);
}

static void sim_be_sleep_end(void *priv)
{
	npukit_sim_sleep_end(priv);
}

static bool sim_be_has_reset_line(void *priv)
{
	return npukit_sim_has_reset_line(priv);
}

static void sim_be_pl_reset(void *priv)
{
	npukit_sim_pl_reset(priv);
}

static void sim_be_debugfs(void *priv, struct npukit_device *nd,
			   struct dentry *dir)
{
	npukit_sim_debugfs(priv, dir);
	npukit_legacy_debugfs(nd, dir);
}

static void sim_be_show_stats(void *priv, struct seq_file *m)
{
	struct npukit_sim_counters sc;
	struct npukit_sim_cpu cpu;

	npukit_sim_counters(priv, &sc);
	seq_printf(m, "sim_now_ns %llu\n", npukit_sim_now(priv));
	seq_printf(m, "sim_gemm_runs %llu\n", sc.gemm_runs);
	seq_printf(m, "sim_gemm_ns %llu\n", sc.gemm_ns);
	seq_printf(m, "sim_dma_bytes %llu\n", sc.dma_bytes);
	seq_printf(m, "sim_dropped_writes %llu\n", sc.dropped);
	npukit_sim_cpu_counters(priv, &cpu);
	seq_printf(m, "sim_cpu_ns %llu\n", cpu.ns);
	seq_printf(m, "sim_cpu_syscalls %llu\n", cpu.count[NPUKIT_CPU_SYSCALL]);
	seq_printf(m, "sim_cpu_syncs %llu\n", cpu.count[NPUKIT_CPU_SYNC]);
	seq_printf(m, "sim_cpu_lines %llu\n", cpu.count[NPUKIT_CPU_LINE]);
	seq_printf(m, "sim_cpu_copy_bytes %llu\n", cpu.count[NPUKIT_CPU_COPY]);
	seq_printf(m, "sim_cpu_kicks %llu\n", cpu.count[NPUKIT_CPU_KICK]);
	seq_printf(m, "sim_cpu_readbacks %llu\n",
		   cpu.count[NPUKIT_CPU_READBACK]);
	seq_printf(m, "sim_cpu_pages %llu\n", cpu.count[NPUKIT_CPU_PAGE]);
}

static void sim_be_release(void *priv)
{
	npukit_sim_destroy(priv);
}

static const struct npukit_backend_ops npukit_sim_ops = {
	.owner = THIS_MODULE,
	.read = sim_be_read,
	.read_wait = sim_be_read_wait,
	.write = sim_be_write,
	.now_ns = sim_be_now_ns,
	.delay_ns = sim_be_delay_ns,
	.cpu_work = sim_be_cpu_work,
	.cpu_sync = sim_be_cpu_sync,
	.add_window = sim_be_add_window,
	.set_irq = sim_be_set_irq,
	.irq_sync = sim_be_irq_sync,
	.sleep_begin = sim_be_sleep_begin,
	.sleep_end = sim_be_sleep_end,
	.has_reset_line = sim_be_has_reset_line,
	.pl_reset = sim_be_pl_reset,
	.debugfs = sim_be_debugfs,
	.show_stats = sim_be_show_stats,
	.release = sim_be_release,
};

static int npukit_sim_probe(struct platform_device *pdev)
{
	struct npukit_sim *sim;

	sim = npukit_sim_create(&pdev->dev, sim_bad_id);
	if (!sim)
		return -ENOMEM;
	npukit_sim_set_timing(sim, &sim_timing);
	return npukit_backend_probe(&pdev->dev, &npukit_sim_ops, sim);
}

/* platform_driver.remove returns void from 6.11 */
#if NPUKIT_KVER >= 6011
static void npukit_sim_remove(struct platform_device *pdev)
{
	npukit_backend_remove(&pdev->dev);
}
#else
static int npukit_sim_remove(struct platform_device *pdev)
{
	npukit_backend_remove(&pdev->dev);
	return 0;
}
#endif

static struct platform_driver npukit_sim_driver = {
	.probe = npukit_sim_probe,
	.remove = npukit_sim_remove,
	.driver = {
		.name = NPUKIT_SIM_NAME,
	},
};

static void npukit_sim_devices_del(void)
{
	unsigned int i;

	for (i = 0; i < NPUKIT_SIM_MAX; i++) {
		platform_device_unregister(npukit_sim_pdevs[i]);
		npukit_sim_pdevs[i] = NULL;
	}
}

static int npukit_sim_devices_add(void)
{
	struct platform_device_info info = {
		.name = NPUKIT_SIM_NAME,
		.dma_mask = DMA_BIT_MASK(32),
	};
	struct platform_device *pdev;
	unsigned int i;

	if (sim_devices)
		pr_warn("npukit_sim: creating %u SIMULATED NpuKit device(s): not hardware\n",
			sim_devices);
	for (i = 0; i < sim_devices; i++) {
		info.id = i;
		pdev = platform_device_register_full(&info);
		if (IS_ERR(pdev)) {
			npukit_sim_devices_del();
			return PTR_ERR(pdev);
		}
		npukit_sim_pdevs[i] = pdev;
	}
	return 0;
}

static int __init npukit_sim_init(void)
{
	int ret;

	if (sim_devices > NPUKIT_SIM_MAX) {
		pr_err("npukit_sim: sim_devices=%u, at most %u\n", sim_devices,
		       NPUKIT_SIM_MAX);
		return -EINVAL;
	}
	ret = platform_driver_register(&npukit_sim_driver);
	if (ret)
		return ret;
	ret = npukit_sim_devices_add();
	if (ret)
		platform_driver_unregister(&npukit_sim_driver);
	return ret;
}
module_init(npukit_sim_init);

static void __exit npukit_sim_exit(void)
{
	npukit_sim_devices_del();
	platform_driver_unregister(&npukit_sim_driver);
}
module_exit(npukit_sim_exit);

MODULE_DESCRIPTION("Simulated NpuKit NPUs for npukit.ko's tests (not hardware)");
MODULE_AUTHOR("The npukit authors");
MODULE_LICENSE("GPL");
MODULE_VERSION("1.0.0");
