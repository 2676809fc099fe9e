// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_backend.c - the register accessors' calls into a backend
 *
 * npukit_dev.h's accessors test nd->backend and, on an instance over a
 * backend (npukit_sim.ko), call these, out of line: the inline code on the
 * hardware path is then exactly as it was with the simulator linked in (a
 * pointer test and a call not taken), and the indirect call through the
 * backend's operations is here, on the path hardware never runs, which
 * the driver's instruction count (tests/driver-user) leaves out as it
 * leaves out the simulator. Exported for npukit_sim.ko's own register
 * sequence (npukit_sim_legacy.c), which uses the same accessors.
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/module.h>

#include "npukit_dev.h"

/**
 * npukit_backend_read - a register read on a backend
 * @nd: the device, over a backend
 * @space: which register block
 * @off: register offset
 *
 * Return: the register's value.
 */
u32 npukit_backend_read(struct npukit_device *nd, enum npukit_space space,
			u32 off)
{
	return nd->backend->read(nd->backend_priv, space, off);
}
EXPORT_SYMBOL_GPL(npukit_backend_read);

/**
 * npukit_backend_read_wait - a read of the NPU that completes before
 *	anything after it is issued, on a backend
 * @nd: the device, over a backend
 * @off: register offset
 */
void npukit_backend_read_wait(struct npukit_device *nd, u32 off)
{
	nd->backend->read_wait(nd->backend_priv, NPUKIT_SPACE_NPU, off);
}
EXPORT_SYMBOL_GPL(npukit_backend_read_wait);

/**
 * npukit_backend_write - a register write on a backend
 * @nd: the device, over a backend
 * @space: which register block
 * @off: register offset
 * @val: the value
 */
void npukit_backend_write(struct npukit_device *nd, enum npukit_space space,
			  u32 off, u32 val)
{
	nd->backend->write(nd->backend_priv, space, off, val);
}
EXPORT_SYMBOL_GPL(npukit_backend_write);

/**
 * npukit_backend_now - a backend's device time
 * @nd: the device, over a backend
 *
 * Return: ns.
 */
u64 npukit_backend_now(struct npukit_device *nd)
{
	return nd->backend->now_ns(nd->backend_priv);
}
EXPORT_SYMBOL_GPL(npukit_backend_now);

/**
 * npukit_backend_delay - let a backend's device time pass
 * @nd: the device, over a backend
 * @ns: how long
 */
void npukit_backend_delay(struct npukit_device *nd, u32 ns)
{
	nd->backend->delay_ns(nd->backend_priv, ns);
}
EXPORT_SYMBOL_GPL(npukit_backend_delay);

/**
 * npukit_backend_cpu_work - charge CPU work to a backend's model
 * @nd: the device, over a backend
 * @item: what
 * @n: how many
 */
void npukit_backend_cpu_work(struct npukit_device *nd,
			     enum npukit_cpu_item item, u32 n)
{
	nd->backend->cpu_work(nd->backend_priv, item, n);
}
EXPORT_SYMBOL_GPL(npukit_backend_cpu_work);

/**
 * npukit_backend_cpu_sync - charge a cache sync to a backend's model
 * @nd: the device, over a backend
 * @bytes: the range's size
 */
void npukit_backend_cpu_sync(struct npukit_device *nd, size_t bytes)
{
	nd->backend->cpu_sync(nd->backend_priv, bytes);
}
EXPORT_SYMBOL_GPL(npukit_backend_cpu_sync);
