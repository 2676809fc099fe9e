// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_drv.c - NpuKit int8 8x8 NPU: module, platform driver, /dev/npukitN
 *
 * Binding: compatible "netkit-labs,npukit-3.2" (the IP VERSION 0x302 build)
 * or the generic "netkit-labs,npukit"; reg[0] = NPU control block
 * (0x43C00000, 64 KiB on the PYNQ-Z2), reg[1] = AXI DMA registers
 * (0x40400000, 64 KiB); optional clocks = <FCLK_CLK0>; optional
 * interrupts, the AXI DMA's mm2s_introut and/or s2mm_introut, named by
 * interrupt-names "mm2s" and "s2mm"; optional resets, the PL reset (an
 * FCLK reset of the Zynq's SLCR, reset-zynq), pulled when recovery after
 * a fault needs it (npukit_recover.c). The VERSION register, not the
 * compatible, decides what runs: 0x200..0x302 are supported.
 * The stock bitstream wires no interrupt: the driver then polls. A kick
 * completes in about a microsecond, less than an interrupt round trip, so
 * with interrupts it still polls each wait first and sleeps on the
 * interrupt only past a polling budget (npukit_hw.c, npukit_irq.c).
 *
 * Module parameters (all unsafe: setting them taints the kernel):
 *   sim_devices=N   0..8: also create N simulated NpuKits ("npukit-sim"
 *                   platform devices bound to this driver; GET_INFO
 *                   reports NPUKIT_BACKEND_SIMULATED and the kernel log
 *                   says so). Never created on their own.
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
 * Device nodes: /dev/npukit0, /dev/npukit1, ... in probe order.
 * sysfs: /sys/class/misc/npukitN/, the attributes of npukit_sysfs.c,
 * among them the root-only "reset".
 * Debugfs: /sys/kernel/debug/npukit/npukitN/stats, state, reset,
 * auto_recover and, on
 * simulated instances, the fault knobs dma_error, hang, slow, reset_line
 * and pl_reset, the timing knobs idle_lag, overtake, first_beat, npu_lag
 * and stall_us, the preemption knobs preempt_ms, preempt_one_in and
 * preempt_sleep, and the interrupt knobs irq_lose and irq_spurious
 * (npukit_debugfs.c).
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/clk.h>
#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npukit_dev.h"

/*
 * Kbuild passes NPUKIT_KVER = 1000 * VERSION + PATCHLEVEL of the kernel
 * being built against (LINUX_VERSION_CODE, in a form checkpatch accepts).
 */
#ifndef NPUKIT_KVER
#error "build with the repository's Kbuild"
#endif

#define NPUKIT_SIM_MAX		8
#define NPUKIT_SIM_NAME		"npukit-sim"

static unsigned int sim_devices;
module_param_unsafe(sim_devices, uint, 0444);
MODULE_PARM_DESC(sim_devices, "Number of simulated NpuKits to create (0..8; testing only)");

static bool sim_bad_id;
module_param_unsafe(sim_bad_id, bool, 0444);
MODULE_PARM_DESC(sim_bad_id, "Simulated NpuKits read a wrong ID (probe fails; testing only)");

static bool sim_irq;
module_param_unsafe(sim_irq, bool, 0444);
MODULE_PARM_DESC(sim_irq, "Simulated NpuKits deliver the DMA's interrupts (testing only)");

static struct npukit_sim_timing sim_timing = NPUKIT_SIM_TIMING_DEFAULT;
module_param_named_unsafe(sim_idle_lag, sim_timing.idle_lag, uint, 0444);
MODULE_PARM_DESC(sim_idle_lag, "Simulated MM2S: cycles from the last beat to Idle (0..100; testing only)");
module_param_named_unsafe(sim_overtake, sim_timing.overtake, uint, 0444);
MODULE_PARM_DESC(sim_overtake, "Simulated bus: cycles a DMA register write may overtake an NPU one (0..20; testing only)");
module_param_named_unsafe(sim_first_beat, sim_timing.first_beat, uint, 0444);
MODULE_PARM_DESC(sim_first_beat, "Simulated MM2S: cycles from LENGTH to the first beat (0..100; testing only)");
module_param_named_unsafe(sim_npu_lag, sim_timing.npu_lag, uint, 0444);
MODULE_PARM_DESC(sim_npu_lag, "Simulated bus: extra cycles before a write lands in the NPU (0..1000; testing only)");
module_param_named_unsafe(sim_stall_us, sim_timing.stall_us, uint, 0444);
MODULE_PARM_DESC(sim_stall_us, "Simulated DMA: microseconds before every transfer starts (0..1000; testing only)");
module_param_named_unsafe(sim_preempt_ms, sim_timing.preempt_ms, uint, 0444);
MODULE_PARM_DESC(sim_preempt_ms, "Simulated CPU: milliseconds a preemption of the poller lasts (0..100; testing only)");
module_param_named_unsafe(sim_preempt_one_in, sim_timing.preempt_one_in, uint, 0444);
MODULE_PARM_DESC(sim_preempt_one_in, "Simulated CPU: preempted at one in this many register and clock reads (0: never; testing only)");
module_param_named_unsafe(sim_preempt_sleep, sim_timing.preempt_sleep, bool, 0444);
MODULE_PARM_DESC(sim_preempt_sleep, "Simulated CPU: a preemption really sleeps where the thread may (testing only)");

static DEFINE_IDA(npukit_ida);
static struct platform_device *npukit_sim_pdevs[NPUKIT_SIM_MAX];

/**
 * npukit_copy_args - copy a size-first ioctl argument in
 * @dst: kernel struct
 * @ksize: its size
 * @uarg: user pointer; its first __u32 is the size userspace knows
 *
 * Return: 0; -EFAULT; -EINVAL when smaller than the first version of the
 * struct (all of @ksize today); -E2BIG when larger with a non-zero tail.
 */
int npukit_copy_args(void *dst, size_t ksize, void __user *uarg)
{
	u32 usize;

	if (get_user(usize, (u32 __user *)uarg))
		return -EFAULT;
	if (usize < ksize)
		return -EINVAL;
	return copy_struct_from_user(dst, ksize, uarg, usize);
}

static int npukit_ioctl_get_info(struct npukit_device *nd, void __user *uarg)
{
	struct npukit_info info;
	int ret;

	ret = npukit_copy_args(&info, sizeof(info), uarg);
	if (ret)
		return ret;
	if (info.pad)
		return -EINVAL;
	info.uapi_version = NPUKIT_UAPI_VERSION;
	info.ip_id = nd->ip_id;
	info.ip_version = nd->ip_version;
	info.ip_features = nd->ip_features;
	info.array_n = nd->array_n;
	info.backend = nd->sim ? NPUKIT_BACKEND_SIMULATED :
		       NPUKIT_BACKEND_HARDWARE;
	info.max_kicks = NPUKIT_MAX_KICKS;
	info.max_results = NPUKIT_MAX_RESULTS;
	info.dma_max_bytes = NPUKIT_DMA_MAX_BYTES;
	info.kick_size = sizeof(struct npukit_kick);
	if (copy_to_user(uarg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

struct npukit_ioctl_desc {
	unsigned int cmd;
	int (*fn)(struct npukit_device *nd, void __user *uarg);
};

/* Indexed by ioctl number (_IOC_NR), append-only like the UAPI list */
static const struct npukit_ioctl_desc npukit_ioctls[] = {
	[_IOC_NR(NPUKIT_IOCTL_GET_INFO)] = {
		NPUKIT_IOCTL_GET_INFO, npukit_ioctl_get_info },
	[_IOC_NR(NPUKIT_IOCTL_SUBMIT)] = {
		NPUKIT_IOCTL_SUBMIT, npukit_ioctl_submit },
};

static long npukit_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct npukit_device *nd = file->private_data;
	unsigned int nr = _IOC_NR(cmd);

	if (nr >= ARRAY_SIZE(npukit_ioctls) || npukit_ioctls[nr].cmd != cmd)
		return -ENOTTY;
	if (READ_ONCE(nd->gone))
		return -ENODEV;
	return npukit_ioctls[nr].fn(nd, (void __user *)arg);
}

static void npukit_release_device(struct kref *ref)
{
	struct npukit_device *nd = container_of(ref, struct npukit_device, ref);

	npukit_sim_destroy(nd->sim);
	kfree(nd);
}

/* misc_open() holds misc_mtx: this cannot race with misc_deregister() */
static int npukit_open(struct inode *inode, struct file *file)
{
	struct npukit_device *nd = container_of(file->private_data,
						struct npukit_device, misc);

	kref_get(&nd->ref);
	file->private_data = nd;
	return 0;
}

static int npukit_release(struct inode *inode, struct file *file)
{
	struct npukit_device *nd = file->private_data;

	kref_put(&nd->ref, npukit_release_device);
	return 0;
}

static const struct file_operations npukit_fops = {
	.owner = THIS_MODULE,
	.open = npukit_open,
	.release = npukit_release,
	.unlocked_ioctl = npukit_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static void npukit_put_action(void *data)
{
	struct npukit_device *nd = data;

	kref_put(&nd->ref, npukit_release_device);
}

static void npukit_free_tx(void *data)
{
	struct npukit_device *nd = data;

	dma_free_noncoherent(nd->dev, NPUKIT_TX_BYTES, nd->tx, nd->tx_dma,
			     DMA_TO_DEVICE);
}

static void npukit_free_rx(void *data)
{
	struct npukit_device *nd = data;

	dma_free_noncoherent(nd->dev, NPUKIT_RX_BYTES, nd->rx, nd->rx_dma,
			     DMA_BIDIRECTIONAL);
}

/*
 * devm_clk_get_optional_enabled() appeared in 6.0 (PYNQ images run 5.15).
 * Stable trees got it later as a backport (Debian 11's 5.10.223 has it, the
 * board's 5.15.36 does not), so the fallback has a name of its own.
 */
#if NPUKIT_KVER < 6000
static void npukit_clk_disable(void *clk)
{
	clk_disable_unprepare(clk);
}

static struct clk *npukit_clk_get_optional_enabled(struct device *dev,
						   const char *id)
{
	struct clk *clk = devm_clk_get_optional(dev, id);
	int ret;

	if (IS_ERR(clk))
		return clk;
	ret = clk_prepare_enable(clk);
	if (ret)
		return ERR_PTR(ret);
	ret = devm_add_action_or_reset(dev, npukit_clk_disable, clk);
	return ret ? ERR_PTR(ret) : clk;
}
#else
static struct clk *npukit_clk_get_optional_enabled(struct device *dev,
						   const char *id)
{
	return devm_clk_get_optional_enabled(dev, id);
}
#endif

static int npukit_map_hw(struct npukit_device *nd, struct platform_device *pdev)
{
	struct clk *clk;

	nd->npu = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(nd->npu))
		return dev_err_probe(nd->dev, PTR_ERR(nd->npu),
				     "cannot map the NPU registers (reg 0)\n");
	nd->dma = devm_platform_ioremap_resource(pdev, 1);
	if (IS_ERR(nd->dma))
		return dev_err_probe(nd->dev, PTR_ERR(nd->dma),
				     "cannot map the AXI DMA registers (reg 1)\n");
	clk = npukit_clk_get_optional_enabled(nd->dev, NULL);
	if (IS_ERR(clk))
		return dev_err_probe(nd->dev, PTR_ERR(clk),
				     "cannot enable the fabric clock\n");
	return 0;
}

static int npukit_alloc_buffers(struct npukit_device *nd)
{
	int ret;

	/* the DMA has 32-bit address registers and no DRE */
	ret = dma_set_mask_and_coherent(nd->dev, DMA_BIT_MASK(32));
	if (ret)
		return dev_err_probe(nd->dev, ret, "no 32-bit DMA\n");
	/* HP0 is not coherent: cacheable buffers, explicit maintenance */
	nd->tx = dma_alloc_noncoherent(nd->dev, NPUKIT_TX_BYTES, &nd->tx_dma,
				       DMA_TO_DEVICE, GFP_KERNEL);
	if (!nd->tx)
		return -ENOMEM;
	ret = devm_add_action_or_reset(nd->dev, npukit_free_tx, nd);
	if (ret)
		return ret;
	/*
	 * Bidirectional only because the simulator, writing as the device
	 * through the CPU mapping, cleans what it wrote to memory; the
	 * driver itself only ever syncs it DMA_FROM_DEVICE.
	 */
	nd->rx = dma_alloc_noncoherent(nd->dev, NPUKIT_RX_BYTES, &nd->rx_dma,
				       DMA_BIDIRECTIONAL, GFP_KERNEL);
	if (!nd->rx)
		return -ENOMEM;
	ret = devm_add_action_or_reset(nd->dev, npukit_free_rx, nd);
	if (ret)
		return ret;
	if (nd->sim) {
		ret = npukit_sim_add_window(nd->sim, nd->tx_dma, nd->tx,
					    NPUKIT_TX_BYTES);
		if (!ret)
			ret = npukit_sim_add_window(nd->sim, nd->rx_dma, nd->rx,
						    NPUKIT_RX_BYTES);
	}
	return ret;
}

static int npukit_register(struct npukit_device *nd)
{
	int ret;

	nd->id = ida_alloc(&npukit_ida, GFP_KERNEL);
	if (nd->id < 0)
		return nd->id;
	snprintf(nd->name, sizeof(nd->name), "npukit%d", nd->id);
	nd->misc.minor = MISC_DYNAMIC_MINOR;
	nd->misc.name = nd->name;
	nd->misc.fops = &npukit_fops;
	nd->misc.parent = nd->dev;
	nd->misc.groups = npukit_sysfs_groups;
	ret = misc_register(&nd->misc);
	if (ret) {
		ida_free(&npukit_ida, nd->id);
		return dev_err_probe(nd->dev, ret, "cannot register %s\n",
				     nd->name);
	}
	npukit_debugfs_add(nd);
	return 0;
}

static int npukit_probe(struct platform_device *pdev)
{
	const struct platform_device_id *id = platform_get_device_id(pdev);
	struct device *dev = &pdev->dev;
	struct npukit_device *nd;
	int ret;

	nd = kzalloc(sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return -ENOMEM;
	kref_init(&nd->ref);
	npukit_lock_init(&nd->lock);
	atomic64_set(&nd->held_bytes, 0);
	init_waitqueue_head(&nd->held_wq);
	nd->dev = dev;
	ret = devm_add_action_or_reset(dev, npukit_put_action, nd);
	if (ret)
		return ret;

	if (id && id->driver_data) {
		nd->sim = npukit_sim_create(dev, sim_bad_id);
		if (!nd->sim)
			return -ENOMEM;
		npukit_sim_set_timing(nd->sim, &sim_timing);
	} else {
		ret = npukit_map_hw(nd, pdev);
		if (ret)
			return ret;
		ret = npukit_get_pl_reset(nd);
		if (ret)
			return ret;
	}
	ret = npukit_irq_init(nd, pdev, sim_irq);
	if (ret)
		return ret;
	ret = npukit_alloc_buffers(nd);
	if (ret)
		return ret;
	ret = npukit_hw_init(nd);
	if (ret)
		return ret;
	ret = npukit_recover_init(nd);
	if (ret)
		return ret;
	/*
	 * Bind is also how root brings a failed device back: prove it clean
	 * before the node appears. A device that cannot be is registered
	 * failed, so that its state can be read and reset.
	 */
	if (npukit_self_test(nd))
		npukit_recover(nd);
	ret = npukit_register(nd);
	if (ret)
		return ret;
	platform_set_drvdata(pdev, nd);
	npukit_announce_start(nd);

	if (nd->sim)
		dev_warn(dev, "%s: SIMULATED NpuKit (module parameter sim_devices), not hardware; %s\n",
			 nd->name, nd->nirqs ? "simulated DMA interrupts" :
			 "polled");
	else
		dev_info(dev, "%s: NpuKit IP version %#x, features %#x; %s%s%s\n",
			 nd->name, nd->ip_version, nd->ip_features,
			 nd->nirqs ? "interrupts:" : "no interrupt, polled",
			 nd->irq_chans & NPUKIT_CHAN_MM2S ? " mm2s" : "",
			 nd->irq_chans & NPUKIT_CHAN_S2MM ? " s2mm" : "");
	return 0;
}

static void npukit_remove_device(struct platform_device *pdev)
{
	struct npukit_device *nd = platform_get_drvdata(pdev);

	/* a running batch stops at its next chunk, with -ENODEV */
	WRITE_ONCE(nd->gone, true);
	/*
	 * Waits for the chunk on the hardware, if any; nothing runs after,
	 * no uevent goes to the node and no retry is queued (the one queued
	 * finds the device gone, and is cancelled by a devm action).
	 */
	npukit_announce_stop(nd);
	npukit_debugfs_remove(nd);
	misc_deregister(&nd->misc);
	ida_free(&npukit_ida, nd->id);
}

/* platform_driver.remove returns void from 6.11 */
#if NPUKIT_KVER >= 6011
static void npukit_remove(struct platform_device *pdev)
{
	npukit_remove_device(pdev);
}
#else
static int npukit_remove(struct platform_device *pdev)
{
	npukit_remove_device(pdev);
	return 0;
}
#endif

static const struct of_device_id npukit_of_match[] = {
	{ .compatible = "netkit-labs,npukit-3.2" },
	{ .compatible = "netkit-labs,npukit" },
	{ }
};
MODULE_DEVICE_TABLE(of, npukit_of_match);

static const struct platform_device_id npukit_ids[] = {
	{ .name = NPUKIT_SIM_NAME, .driver_data = 1 },
	{ }
};

static struct platform_driver npukit_driver = {
	.probe = npukit_probe,
	.remove = npukit_remove,
	.id_table = npukit_ids,
	.driver = {
		.name = "npukit",
		.of_match_table = npukit_of_match,
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

	if (sim_devices > NPUKIT_SIM_MAX) {
		pr_err("npukit: sim_devices=%u, at most %u\n", sim_devices,
		       NPUKIT_SIM_MAX);
		return -EINVAL;
	}
	if (sim_devices)
		pr_warn("npukit: creating %u SIMULATED NpuKit device(s): not hardware\n",
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

static int __init npukit_init(void)
{
	int ret;

	npukit_debugfs_init();
	ret = platform_driver_register(&npukit_driver);
	if (ret)
		goto err_debugfs;
	ret = npukit_sim_devices_add();
	if (ret)
		goto err_driver;
	return 0;

err_driver:
	platform_driver_unregister(&npukit_driver);
err_debugfs:
	npukit_debugfs_exit();
	return ret;
}
module_init(npukit_init);

static void __exit npukit_exit(void)
{
	npukit_sim_devices_del();
	platform_driver_unregister(&npukit_driver);
	npukit_debugfs_exit();
	ida_destroy(&npukit_ida);
}
module_exit(npukit_exit);

MODULE_DESCRIPTION("NpuKit int8 8x8 systolic-array NPU (PYNQ-Z2) and its simulator");
MODULE_AUTHOR("The npukit authors");
MODULE_LICENSE("GPL");
/* dkms.conf's PACKAGE_VERSION; /sys/module/npukit/version, ttpu-run --info */
MODULE_VERSION("1.0.0");
