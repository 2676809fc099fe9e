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
 * npukit.ko has no module parameter and binds hardware only. Instances
 * without hardware are another module's: npukit_backend_probe() creates
 * one over a backend's register accessors (npukit_backend.h), as
 * npukit_sim.ko does for the simulated NpuKit (npukit_sim_main.c, where
 * its sim_* parameters are); GET_INFO reports those as
 * NPUKIT_BACKEND_SIMULATED, and the kernel log says so.
 *
 * Device nodes: /dev/npukit0, /dev/npukit1, ... in probe order.
 * sysfs: /sys/class/misc/npukitN/, the attributes of npukit_sysfs.c,
 * among them the root-only "reset".
 * Debugfs: /sys/kernel/debug/npukit/npukitN/stats, state, reset,
 * auto_recover and what a backend adds (npukit_debugfs.c).
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

static DEFINE_IDA(npukit_ida);

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
	/* only a backend module (npukit_sim.ko) creates instances that aren't */
	info.backend = nd->backend ? NPUKIT_BACKEND_SIMULATED :
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

	if (nd->backend)
		nd->backend->release(nd->backend_priv);
	kfree(nd);
}

/*
 * misc_open() holds misc_mtx: this cannot race with misc_deregister().
 * An open file keeps a backend's module, whose code the instance calls
 * until its last file is closed (npukit_release_device()).
 */
static int npukit_open(struct inode *inode, struct file *file)
{
	struct npukit_device *nd = container_of(file->private_data,
						struct npukit_device, misc);

	if (nd->backend && !try_module_get(nd->backend->owner))
		return -ENODEV;
	kref_get(&nd->ref);
	file->private_data = nd;
	return 0;
}

static int npukit_release(struct inode *inode, struct file *file)
{
	struct npukit_device *nd = file->private_data;
	struct module *owner = nd->backend ? nd->backend->owner : NULL;

	kref_put(&nd->ref, npukit_release_device);
	module_put(owner);
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
	 * Bidirectional only because a backend (the simulator), writing as
	 * the device through the CPU mapping, cleans what it wrote to
	 * memory; the driver itself only ever syncs it DMA_FROM_DEVICE.
	 */
	nd->rx = dma_alloc_noncoherent(nd->dev, NPUKIT_RX_BYTES, &nd->rx_dma,
				       DMA_BIDIRECTIONAL, GFP_KERNEL);
	if (!nd->rx)
		return -ENOMEM;
	ret = devm_add_action_or_reset(nd->dev, npukit_free_rx, nd);
	if (ret)
		return ret;
	if (nd->backend) {
		ret = nd->backend->add_window(nd->backend_priv, nd->tx_dma,
					      nd->tx, NPUKIT_TX_BYTES);
		if (!ret)
			ret = nd->backend->add_window(nd->backend_priv,
						      nd->rx_dma, nd->rx,
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

/* The instance, referenced by @dev's binding until it is unbound */
static struct npukit_device *npukit_alloc(struct device *dev)
{
	struct npukit_device *nd;

	nd = kzalloc(sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return NULL;
	kref_init(&nd->ref);
	npukit_lock_init(&nd->lock);
	atomic64_set(&nd->held_bytes, 0);
	init_waitqueue_head(&nd->held_wq);
	nd->dev = dev;
	if (devm_add_action_or_reset(dev, npukit_put_action, nd))
		return NULL;
	return nd;
}

/* Registers mapped or backend set: probe what is there, give it a node */
static int npukit_bring_up(struct npukit_device *nd,
			   struct platform_device *pdev)
{
	int ret;

	ret = npukit_irq_init(nd, pdev);
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
	dev_set_drvdata(nd->dev, nd);
	npukit_announce_start(nd);
	return 0;
}

static int npukit_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct npukit_device *nd;
	int ret;

	nd = npukit_alloc(dev);
	if (!nd)
		return -ENOMEM;
	ret = npukit_map_hw(nd, pdev);
	if (ret)
		return ret;
	ret = npukit_get_pl_reset(nd);
	if (ret)
		return ret;
	ret = npukit_bring_up(nd, pdev);
	if (ret)
		return ret;
	dev_info(dev, "%s: NpuKit IP version %#x, features %#x; %s%s%s\n",
		 nd->name, nd->ip_version, nd->ip_features,
		 nd->nirqs ? "interrupts:" : "no interrupt, polled",
		 nd->irq_chans & NPUKIT_CHAN_MM2S ? " mm2s" : "",
		 nd->irq_chans & NPUKIT_CHAN_S2MM ? " s2mm" : "");
	return 0;
}

/**
 * npukit_backend_probe - create an NpuKit instance over a backend
 * @dev: the device it belongs to, being bound by the backend's driver: the
 *	instance's resources are device-managed (devm) on it, and its DMA
 *	buffers allocated for it
 * @ops: the backend's operations; every one is required but @set_irq,
 *	@debugfs and @show_stats
 * @priv: their first argument. From this call on it is the instance's:
 *	@ops->release() frees it, also when the probe fails.
 *
 * The instance is probed as hardware is (ID, version, known-answer kick)
 * and gets its /dev/npukitN; GET_INFO reports %NPUKIT_BACKEND_SIMULATED.
 * The backend's driver calls npukit_backend_remove() from its remove.
 *
 * Return: 0, or an errno (-ENODEV when the backend's ID is not NpuKit's).
 */
int npukit_backend_probe(struct device *dev,
			 const struct npukit_backend_ops *ops, void *priv)
{
	struct npukit_device *nd;
	int ret;

	nd = npukit_alloc(dev);
	if (!nd) {
		ops->release(priv);
		return -ENOMEM;
	}
	nd->backend = ops;
	nd->backend_priv = priv;
	ret = npukit_bring_up(nd, NULL);
	if (ret)
		return ret;
	dev_warn(dev, "%s: SIMULATED NpuKit (%s), not hardware; %s\n",
		 nd->name, module_name(ops->owner),
		 nd->nirqs ? "simulated DMA interrupts" : "polled");
	return 0;
}
EXPORT_SYMBOL_GPL(npukit_backend_probe);

/**
 * npukit_backend_exclusive - run a backend's own register sequence
 * @nd: an instance npukit_backend_probe() made
 * @fn: the sequence, called with the device locked: between two sums of
 *	any batch, so it finds no accumulator in use. It may use the
 *	register accessors of npukit_dev.h and the DMA buffers.
 * @arg: its second argument
 *
 * Afterwards the device is put back into a state the protocol knows:
 * recovered (npukit_recover()) when @fn failed, else its protocol state
 * restarted.
 *
 * Return: what @fn returned; -EINTR on a fatal signal while waiting for
 * the device, -ENODEV when it is gone, -EIO when it is failed.
 */
int npukit_backend_exclusive(struct npukit_device *nd,
			     int (*fn)(struct npukit_device *nd, void *arg),
			     void *arg)
{
	int ret;

	if (npukit_lock_killable(nd))
		return -EINTR;
	if (nd->gone || nd->failed) {
		ret = nd->gone ? -ENODEV : -EIO;
	} else {
		ret = fn(nd, arg);
		if (ret)
			npukit_recover(nd);
		else
			npukit_hw_restart(nd);
	}
	npukit_io_publish(nd);
	npukit_unlock_device(nd);
	return ret;
}
EXPORT_SYMBOL_GPL(npukit_backend_exclusive);

static void npukit_remove_device(struct device *dev)
{
	struct npukit_device *nd = dev_get_drvdata(dev);

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

/**
 * npukit_backend_remove - remove an instance npukit_backend_probe() made
 * @dev: its device, being unbound
 *
 * Its node goes, a batch running on it stops at its next chunk; open
 * files get -ENODEV until closed, and the last close releases the
 * backend's priv (&npukit_backend_ops.release).
 */
void npukit_backend_remove(struct device *dev)
{
	npukit_remove_device(dev);
}
EXPORT_SYMBOL_GPL(npukit_backend_remove);

/* platform_driver.remove returns void from 6.11 */
#if NPUKIT_KVER >= 6011
static void npukit_remove(struct platform_device *pdev)
{
	npukit_remove_device(&pdev->dev);
}
#else
static int npukit_remove(struct platform_device *pdev)
{
	npukit_remove_device(&pdev->dev);
	return 0;
}
#endif

static const struct of_device_id npukit_of_match[] = {
	{ .compatible = "netkit-labs,npukit-3.2" },
	{ .compatible = "netkit-labs,npukit" },
	{ }
};
MODULE_DEVICE_TABLE(of, npukit_of_match);

static struct platform_driver npukit_driver = {
	.probe = npukit_probe,
	.remove = npukit_remove,
	.driver = {
		.name = "npukit",
		.of_match_table = npukit_of_match,
	},
};

static int __init npukit_init(void)
{
	int ret;

	npukit_debugfs_init();
	ret = platform_driver_register(&npukit_driver);
	if (ret)
		goto err_debugfs;
	return 0;

err_debugfs:
	npukit_debugfs_exit();
	return ret;
}
module_init(npukit_init);

static void __exit npukit_exit(void)
{
	platform_driver_unregister(&npukit_driver);
	npukit_debugfs_exit();
	ida_destroy(&npukit_ida);
}
module_exit(npukit_exit);

MODULE_DESCRIPTION("NpuKit int8 8x8 systolic-array NPU (PYNQ-Z2)");
MODULE_AUTHOR("The npukit authors");
MODULE_LICENSE("GPL");
/* dkms.conf's PACKAGE_VERSION; /sys/module/npukit/version, ttpu-run --info */
MODULE_VERSION("1.0.0");
