// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_off.c - the entry points of driver/npukit_debugfs.c and
 * driver/npukit_sim_legacy.c in a build without debugfs: those files (the
 * latter the C++ host's sequence, reached only through debugfs) are not
 * built in userspace, and a kernel without CONFIG_DEBUG_FS creates none of
 * their files either. Nothing on the SUBMIT path calls them; the
 * simulator's counters are read by the program directly instead
 * (driver_user.h).
 */
#include "npukit_shim.h"
#include "npukit_dev.h"
#include "npukit_sim.h"

void npukit_debugfs_init(void)
{
}

void npukit_debugfs_exit(void)
{
}

void npukit_debugfs_add(struct npukit_device *nd)
{
	nd->debugfs = NULL;
}

void npukit_debugfs_remove(struct npukit_device *nd)
{
}

void npukit_legacy_debugfs(struct npukit_device *nd, struct dentry *dir)
{
}
