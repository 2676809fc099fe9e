// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_sysfs.c - what anyone may read about an instance, and its reset
 *
 * /sys/class/misc/npukitN/{id,version,features,array_n,backend,state,
 * completion,pl_clock_hz} and
 * /sys/class/misc/npukitN/stats/<counter>, one value per file, mode 0444,
 * and /sys/class/misc/npukitN/reset, mode 0200
 * (Documentation/ABI/testing/sysfs-driver-npukit). No reader takes the
 * device lock, which a batch holds for a whole sum: what they show is
 * fixed at probe, atomic, or one word. debugfs keeps the simulator's
 * knobs.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/clk.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "npukit_dev.h"

/* misc_register() makes the miscdevice the node's driver data. */
static struct npukit_device *npukit_from_dev(struct device *dev)
{
	struct miscdevice *misc = dev_get_drvdata(dev);

	return container_of(misc, struct npukit_device, misc);
}

/* id, version, features: read once at probe and never changed after */
static ssize_t npukit_reg_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct npukit_device *nd = npukit_from_dev(dev);
	u32 val;

	if (!strcmp(attr->attr.name, "id"))
		val = nd->ip_id;
	else if (!strcmp(attr->attr.name, "version"))
		val = nd->ip_version;
	else
		val = nd->ip_features;
	return sysfs_emit(buf, "0x%08x\n", val);
}

static struct device_attribute dev_attr_id = __ATTR(id, 0444, npukit_reg_show, NULL);
static struct device_attribute dev_attr_version =
	__ATTR(version, 0444, npukit_reg_show, NULL);
static struct device_attribute dev_attr_features =
	__ATTR(features, 0444, npukit_reg_show, NULL);

static ssize_t array_n_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", npukit_from_dev(dev)->array_n);
}
static DEVICE_ATTR_RO(array_n);

static ssize_t backend_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct npukit_device *nd = npukit_from_dev(dev);

	return sysfs_emit(buf, "%s\n", nd->backend ? "simulated" : "hardware");
}
static DEVICE_ATTR_RO(backend);

/* "ok", "failed" (until a recovery proves it clean) or "gone" (unbound) */
static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct npukit_device *nd = npukit_from_dev(dev);

	return sysfs_emit(buf, "%s\n", READ_ONCE(nd->gone) ? "gone" :
			  READ_ONCE(nd->failed) ? "failed" : "ok");
}
static DEVICE_ATTR_RO(state);

/*
 * Root writes 1: recover now (PL reset when there is a line, then the
 * known-answer kick). The write succeeds only when the device is then
 * proven clean: -EIO when it is (still) failed.
 */
static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	bool val;
	int ret;

	ret = kstrtobool(buf, &val);
	if (ret || !val)
		return -EINVAL;
	ret = npukit_reset(npukit_from_dev(dev));
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(reset);

/*
 * How a wait for the DMA learns it is done: "polled", or "interrupt" and
 * the channels whose completion raises one (fixed at probe).
 */
static ssize_t completion_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	struct npukit_device *nd = npukit_from_dev(dev);

	if (!nd->nirqs)
		return sysfs_emit(buf, "polled\n");
	return sysfs_emit(buf, "interrupt%s%s\n",
			  nd->irq_chans & NPUKIT_CHAN_MM2S ? " mm2s" : "",
			  nd->irq_chans & NPUKIT_CHAN_S2MM ? " s2mm" : "");
}
static DEVICE_ATTR_RO(completion);

/*
 * The rate of the fabric clock the device tree gives the node, as the
 * common clock framework knows it (a PYNQ-Z2: FCLK_CLK0); "unknown"
 * without a clock (the simulator, or a node without "clocks").
 */
static ssize_t pl_clock_hz_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	struct npukit_device *nd = npukit_from_dev(dev);
	struct clk *clk = clk_get(nd->dev, NULL);
	unsigned long rate = 0;

	if (!IS_ERR(clk)) {
		rate = clk_get_rate(clk);
		clk_put(clk);
	}
	if (!rate)
		return sysfs_emit(buf, "unknown\n");
	return sysfs_emit(buf, "%lu\n", rate);
}
static DEVICE_ATTR_RO(pl_clock_hz);

static struct attribute *npukit_attrs[] = {
	&dev_attr_id.attr,
	&dev_attr_version.attr,
	&dev_attr_features.attr,
	&dev_attr_array_n.attr,
	&dev_attr_backend.attr,
	&dev_attr_state.attr,
	&dev_attr_completion.attr,
	&dev_attr_pl_clock_hz.attr,
	&dev_attr_reset.attr,
	NULL,
};

static const struct attribute_group npukit_group = {
	.attrs = npukit_attrs,
};

/* Each file of stats/ and the counter of &struct npukit_stats it shows */
#define NPUKIT_STAT_FIELD(_f) { #_f, offsetof(struct npukit_stats, _f) }
static const struct {
	const char *name;
	size_t offset;
} npukit_stat_fields[] = {
	NPUKIT_STAT_FIELD(batches),
	NPUKIT_STAT_FIELD(kicks),
	NPUKIT_STAT_FIELD(readbacks),
	NPUKIT_STAT_FIELD(dma_bytes),
	NPUKIT_STAT_FIELD(errors),
	NPUKIT_STAT_FIELD(timeouts),
	NPUKIT_STAT_FIELD(dma_errors),
	NPUKIT_STAT_FIELD(hangs),
	NPUKIT_STAT_FIELD(interrupted),
	NPUKIT_STAT_FIELD(device_ns),
	NPUKIT_STAT_FIELD(recoveries),
	NPUKIT_STAT_FIELD(self_test_failures),
	NPUKIT_STAT_FIELD(pl_resets),
	NPUKIT_STAT_FIELD(failed_submits),
};

/* Without a lock: each counter is an atomic64_t (struct npukit_stats). */
static ssize_t npukit_stat_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct npukit_device *nd = npukit_from_dev(dev);
	size_t i;
	s64 val;

	for (i = 0; i < ARRAY_SIZE(npukit_stat_fields); i++)
		if (!strcmp(attr->attr.name, npukit_stat_fields[i].name))
			break;
	if (i == ARRAY_SIZE(npukit_stat_fields))
		return -ENOENT;
	val = atomic64_read((atomic64_t *)((u8 *)&nd->stats +
					   npukit_stat_fields[i].offset));
	return sysfs_emit(buf, "%llu\n", (u64)val);
}

#define NPUKIT_STAT_ATTR(_f)						\
	static struct device_attribute dev_attr_##_f =			\
		__ATTR(_f, 0444, npukit_stat_show, NULL)

NPUKIT_STAT_ATTR(batches);
NPUKIT_STAT_ATTR(kicks);
NPUKIT_STAT_ATTR(readbacks);
NPUKIT_STAT_ATTR(dma_bytes);
NPUKIT_STAT_ATTR(errors);
NPUKIT_STAT_ATTR(timeouts);
NPUKIT_STAT_ATTR(dma_errors);
NPUKIT_STAT_ATTR(hangs);
NPUKIT_STAT_ATTR(interrupted);
NPUKIT_STAT_ATTR(device_ns);
NPUKIT_STAT_ATTR(recoveries);
NPUKIT_STAT_ATTR(self_test_failures);
NPUKIT_STAT_ATTR(pl_resets);
NPUKIT_STAT_ATTR(failed_submits);

static struct attribute *npukit_stats_attrs[] = {
	&dev_attr_batches.attr,
	&dev_attr_kicks.attr,
	&dev_attr_readbacks.attr,
	&dev_attr_dma_bytes.attr,
	&dev_attr_errors.attr,
	&dev_attr_timeouts.attr,
	&dev_attr_dma_errors.attr,
	&dev_attr_hangs.attr,
	&dev_attr_interrupted.attr,
	&dev_attr_device_ns.attr,
	&dev_attr_recoveries.attr,
	&dev_attr_self_test_failures.attr,
	&dev_attr_pl_resets.attr,
	&dev_attr_failed_submits.attr,
	NULL,
};

static const struct attribute_group npukit_stats_group = {
	.name = "stats",
	.attrs = npukit_stats_attrs,
};

/*
 * For the misc device's .groups: created with the node, so udev and
 * readers never see it without them, and removed by misc_deregister()
 * before the instance can go away.
 */
const struct attribute_group *npukit_sysfs_groups[] = {
	&npukit_group,
	&npukit_stats_group,
	NULL,
};
