// SPDX-License-Identifier: MIT
/*
 * standin_device.c - an NpuKit device inside the process, for counting the
 * NpuKit engine's host side without a kernel: this file defines ioctl()
 * itself, so the library's calls (and the C library's own, isatty()'s
 * TCGETS, which get ENOTTY) resolve to it, and the engine can be opened
 * on any existing file (an empty one under /tmp will do).
 *
 * Built two ways:
 *
 *   default           GET_INFO and SUBMIT answered as the driver would,
 *                     each kick's 8x8 product computed on the CPU: what
 *                     bench-host (host_cost.c) and bench-board's armhf
 *                     count subtract as the device's share
 *                     (a test may look at, or fail, each SUBMIT first:
 *                     standin_submit_hook)
 *   STANDIN_DRIVER    the driver built in userspace (tests/driver-user),
 *                     unmodified, on one simulated NpuKit: every SUBMIT
 *                     goes through its SUBMIT path, and the model's bus
 *                     time (device_ns) and CPU account (the driver's share,
 *                     debugfs "stats" sim_cpu_ns in a kernel) are summed.
 *                     At exit they are written to $NPUKIT_STANDIN_REPORT
 *                     ("submits N", "kicks N", "bus_ns N", "cpu_ns N"):
 *                     bench-board's driver and bus milliseconds, as
 *                     bench-engine reads them in the VM
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "npukit.h"

#ifdef STANDIN_DRIVER

#include "driver_user.h"

/* standin_sim_cpu.c: the simulated instance's CPU account so far, in ns */
uint64_t standin_sim_cpu_ns(void);

static struct driver_user_file *node;
static uint64_t submits, kicks, bus_ns;

static void report(void)
{
	const char *path = getenv("NPUKIT_STANDIN_REPORT");
	FILE *f;

	if (!path || !node)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "submits %llu\nkicks %llu\nbus_ns %llu\ncpu_ns %llu\n",
		(unsigned long long)submits, (unsigned long long)kicks,
		(unsigned long long)bus_ns, (unsigned long long)standin_sim_cpu_ns());
	fclose(f);
}

static int device_ioctl(unsigned long req, void *arg)
{
	long ret;

	if (!node) {
		if (driver_user_param("sim_devices", 1) || driver_user_load())
			return errno = ENODEV, -1;
		node = driver_user_open("npukit0");
		if (!node)
			return -1;
		atexit(report);
	}
	ret = driver_user_ioctl(node, (unsigned int)req, arg);
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	if (req == NPUKIT_IOCTL_SUBMIT) {
		const struct npukit_submit *s = arg;

		submits++;
		kicks += s->kicks_done;
		bus_ns += s->device_ns;
	}
	return (int)ret;
}

#else

/*
 * Set by a test: called with each SUBMIT before its kicks run; a non-zero
 * return is the errno the SUBMIT fails with, no kick done.
 */
int (*standin_submit_hook)(struct npukit_submit *s);

/*
 * No calls out (the loops are not made memset() or memcpy() calls), so
 * that a count can leave out the whole device by ioctl()'s address range.
 */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
static void submit_on_cpu(struct npukit_submit *s)
{
	const struct npukit_kick *k = (const struct npukit_kick *)(uintptr_t)s->kicks_ptr;
	int32_t (*res)[NPUKIT_TILE_ELEMS] = (int32_t (*)[NPUKIT_TILE_ELEMS])(uintptr_t)s->results_ptr;
	int32_t c[NPUKIT_TILE_ELEMS];

	for (int e = 0; e < NPUKIT_TILE_ELEMS; e++)
		c[e] = 0;
	for (uint32_t t = 0; t < s->kick_count; t++, k++) {
		if (k->flags & NPUKIT_KICK_CLEAR)
			for (int e = 0; e < NPUKIT_TILE_ELEMS; e++)
				c[e] = 0;
		for (int i = 0; i < NPUKIT_TILE_N; i++)
			for (int j = 0; j < NPUKIT_TILE_N; j++)
				for (int x = 0; x < NPUKIT_TILE_N; x++)
					c[i * NPUKIT_TILE_N + j] += k->a[i * NPUKIT_TILE_N + x] *
								    k->b[x * NPUKIT_TILE_N + j];
		if (k->flags & NPUKIT_KICK_READ_C)
			for (int e = 0; e < NPUKIT_TILE_ELEMS; e++)
				res[k->c_slot][e] = c[e];
	}
	s->kicks_done = s->kick_count;
	s->status = NPUKIT_STATUS_OK;
}

static int device_ioctl(unsigned long req, void *arg)
{
	if (req == NPUKIT_IOCTL_GET_INFO) {
		struct npukit_info *info = arg;

		memset(info, 0, sizeof(*info));
		info->size = sizeof(*info);
		info->uapi_version = NPUKIT_UAPI_VERSION;
		info->array_n = NPUKIT_TILE_N;
		info->backend = NPUKIT_BACKEND_SIMULATED;
		info->max_kicks = 65536;
		info->max_results = 65536;
		info->kick_size = sizeof(struct npukit_kick);
		return 0;
	}
	if (standin_submit_hook) {
		int e = standin_submit_hook(arg);

		if (e)
			return errno = e, -1;
	}
	submit_on_cpu(arg);
	return 0;
}

#endif

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == NPUKIT_IOCTL_GET_INFO || req == NPUKIT_IOCTL_SUBMIT)
		return device_ioctl(req, arg);
	errno = ENOTTY;
	return -1;
}
