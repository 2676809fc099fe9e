/* SPDX-License-Identifier: MIT */
/*
 * npukit_dev.h - the NpuKit device under test, as every suite that talks
 * to the driver finds it: its node, its debugfs directory, the simulated
 * NpuKit's fault knobs there, and the counters of its "stats" file.
 *
 * Environment:
 *   NPUKIT_DEVICE   the node under test (default /dev/npukit0)
 *   NPUKIT_DEBUGFS  the instance's debugfs directory (default
 *                   /sys/kernel/debug/npukit/<node name>)
 *   NPUKIT_REQUIRE_DEVICE  set (and not "0"): a test that would SKIP for
 *                   want of the node FAILs instead (the board's acceptance
 *                   run; tests/lib/npukit_need.h)
 *   NPUKIT_NO_DEBUGFS  set (and not "0") by a harness whose driver has no
 *                   debugfs at all (hw-emu's userspace build): a test that
 *                   needs the knobs or the stats file SKIPs, saying so;
 *                   anywhere else their absence is a failure
 *   NPUKIT_DEVICE_PER_PROCESS  set (and not "0") by a harness in which
 *                   each process has its own copy of the driver and device
 *                   (hw-emu's preload library): a test of several processes
 *                   sharing one device SKIPs, saying so, as it would prove
 *                   nothing there
 *
 * Plain C, no test harness and no JSON: the UAPI suites (built alone with
 * -Iuapi) link it as well as the engine suites.
 */
#ifndef NPUKIT_DEV_H
#define NPUKIT_DEV_H

#include <stddef.h>

/* $NPUKIT_DEVICE, or /dev/npukit0. */
const char *npu_device_path(void);

/* 1 when the node under test exists (a missing one SKIPs a test). */
int npu_have_device(void);

/*
 * 1 when $NPUKIT_REQUIRE_DEVICE is set to anything but "" or "0": a
 * missing node is then a failure, not a reason to SKIP.
 */
int npu_device_required(void);

/* What a test SKIPs with under those two (harnesses match these words) */
#define NPU_NO_DEBUGFS_WHY "no debugfs in this driver build (NPUKIT_NO_DEBUGFS)"
#define NPU_PER_PROCESS_WHY "each process has its own copy of the driver and " \
	"device (NPUKIT_DEVICE_PER_PROCESS): not counted"

/* 1 when $NPUKIT_NO_DEBUGFS says the driver under test has no debugfs. */
int npu_no_debugfs(void);

/* 1 when $NPUKIT_DEVICE_PER_PROCESS says processes do not share the device. */
int npu_device_per_process(void);

/* The path of @file in the instance's debugfs directory, into @buf. */
void npu_debugfs_path(char *buf, size_t len, const char *file);

/* Write @val to debugfs knob @knob: 0 or -errno. */
int npu_knob_write(const char *knob, unsigned long val);

/* The value of debugfs knob @knob (a bool reads 1 or 0), or -errno. */
long npu_knob_read(const char *knob);

/* /sys/class/misc/<node name>/@file into @buf. */
void npu_sysfs_path(char *buf, size_t len, const char *file);

/*
 * The node's sysfs attribute @file, its one line without the newline, in
 * a static buffer (the next call overwrites it); "" when unreadable.
 */
const char *npu_sysfs_read(const char *file);

/* Write @val to the node's sysfs attribute @file: 0 or -errno. */
int npu_sysfs_write(const char *file, const char *val);

/*
 * The counter @name of the debugfs "stats" file ("name value" lines), or
 * -1 when the file or the counter is absent.
 */
long long npu_stat(const char *name);

#endif /* NPUKIT_DEV_H */
