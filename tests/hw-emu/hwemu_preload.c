// SPDX-License-Identifier: GPL-2.0
/*
 * hwemu_preload.c - libnpukit-hwemu.so: run an unmodified ttpu-run (or any
 * program that opens an NpuKit node and calls its ioctls) against the
 * co-simulated NpuKit, with LD_PRELOAD:
 *
 *   NPUKIT_HWEMU_NODE=/tmp/npukit0 LD_PRELOAD=.../libnpukit-hwemu.so \
 *       ttpu-run --device /tmp/npukit0 ...
 *
 * open(2) of the path NPUKIT_HWEMU_NODE names (a file that must exist,
 * so that looking for the node finds it) opens the userspace-built
 * driver's node instead (driver_user.h; the driver is loaded with
 * sim_devices=1 on the first open, or with NPUKIT_HWEMU_BOARD set binds
 * the emulated board's node through its hardware branch, hwemu_board.h),
 * ioctl(2) on that descriptor calls the
 * node's unlocked_ioctl, close(2) its release; every other file is the C
 * library's. At exit the driver is unloaded and, with NPUKIT_HWEMU_STATS
 * naming a file, what the co-simulation measured is appended to it as one
 * line: "cycles clocked runs run_cycles busy_cycles dma_bytes violations
 * dropped backend" (dropped: DMA LENGTH writes the DMA ignored).
 * Linked with driver/npukit_sim.c instead of the co-simulation, it runs
 * the same programs on the C simulator (mk/43-hw-emu.mk, csim/).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "driver_user.h"
#include "hwemu.h"

#define HW_FILES 16

/* Weak: the same library links against the C simulator too (no stats, no board) */
void hwemu_stats(struct hwemu_stats *out) __attribute__((weak));
const char *hwemu_backend(void) __attribute__((weak));
int hwemu_board_from_env(void) __attribute__((weak));
void hwemu_board_remove(void) __attribute__((weak));

static pthread_mutex_t hw_lock = PTHREAD_MUTEX_INITIALIZER;
static bool hw_loaded;
static struct { int fd; struct driver_user_file *f; } hw_files[HW_FILES];

static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_close)(int);
static int (*real_ioctl)(int, unsigned long, ...);

static void hw_resolve(void)
{
	if (real_open)
		return;
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	real_openat = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
}

static bool hw_is_node(const char *path)
{
	const char *node = getenv("NPUKIT_HWEMU_NODE");

	return node && path && !strcmp(path, node);
}

static struct driver_user_file *hw_find(int fd)
{
	for (int i = 0; i < HW_FILES; i++)
		if (hw_files[i].f && hw_files[i].fd == fd)
			return hw_files[i].f;
	return NULL;
}

/*
 * insmod, and the device: npukit_sim.ko's simulated instance, or with
 * NPUKIT_HWEMU_BOARD the board's node bound by npukit.ko itself
 * (hwemu_board.h), whose probe must succeed
 */
static int hw_load(void)
{
	bool board = getenv("NPUKIT_HWEMU_BOARD");
	int ret;

	if (board && !hwemu_board_from_env)
		return -ENODEV;	/* the library on the C simulator has no board */
	ret = driver_user_param("sim_devices", board ? 0 : 1);
	if (!ret)
		ret = driver_user_load();
	if (ret || !board)
		return ret;
	ret = hwemu_board_from_env();
	if (ret) {
		hwemu_board_remove();
		driver_user_unload();
	}
	return ret;
}

/* The node's open: a descriptor of /dev/null stands for the file */
static int hw_open_node(int flags)
{
	struct driver_user_file *f;
	int fd = -1, slot = -1, e = 0;

	pthread_mutex_lock(&hw_lock);
	for (int i = 0; i < HW_FILES && slot < 0; i++)
		if (!hw_files[i].f)
			slot = i;
	if (slot < 0) {
		e = EMFILE;
		goto out;
	}
	if (!hw_loaded) {
		int ret = hw_load();

		if (ret) {
			e = ret < 0 ? -ret : ENODEV;
			goto out;
		}
		hw_loaded = true;
	}
	f = driver_user_open("npukit0");
	if (!f) {
		e = errno;
		goto out;
	}
	fd = real_open("/dev/null", O_RDWR | (flags & O_CLOEXEC));
	if (fd < 0) {
		e = errno;
		driver_user_close(f);
		goto out;
	}
	hw_files[slot].fd = fd;
	hw_files[slot].f = f;
out:
	pthread_mutex_unlock(&hw_lock);
	if (fd < 0)
		errno = e;
	return fd;
}

/* open()'s third argument, there only when the flags ask for a mode */
#define HW_MODE(flags, mode) do {					\
	va_list ap;							\
	(mode) = 0;							\
	if ((flags) & (O_CREAT | O_TMPFILE)) {				\
		va_start(ap, flags);					\
		(mode) = va_arg(ap, mode_t);				\
		va_end(ap);						\
	}								\
} while (0)

static int hw_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	hw_resolve();
	if (hw_is_node(path))
		return hw_open_node(flags);
	return real_openat(dirfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode;

	HW_MODE(flags, mode);
	return hw_openat(AT_FDCWD, path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode;

	HW_MODE(flags, mode);
	return hw_openat(AT_FDCWD, path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	HW_MODE(flags, mode);
	return hw_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	HW_MODE(flags, mode);
	return hw_openat(dirfd, path, flags, mode);
}

int ioctl(int fd, unsigned long req, ...)
{
	struct driver_user_file *f;
	void *arg;
	va_list ap;
	long ret;

	hw_resolve();
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	pthread_mutex_lock(&hw_lock);
	f = hw_find(fd);
	if (!f) {
		pthread_mutex_unlock(&hw_lock);
		return real_ioctl(fd, req, arg);
	}
	ret = driver_user_ioctl(f, (unsigned int)req, arg);
	pthread_mutex_unlock(&hw_lock);
	if (ret < 0) {
		errno = (int)-ret;
		return -1;
	}
	return (int)ret;
}

int close(int fd)
{
	hw_resolve();
	pthread_mutex_lock(&hw_lock);
	for (int i = 0; i < HW_FILES; i++) {
		if (hw_files[i].f && hw_files[i].fd == fd) {
			driver_user_close(hw_files[i].f);
			hw_files[i].f = NULL;
		}
	}
	pthread_mutex_unlock(&hw_lock);
	return real_close(fd);
}

__attribute__((destructor)) static void hw_unload(void)
{
	const char *path = getenv("NPUKIT_HWEMU_STATS");
	struct hwemu_stats st;
	FILE *out;

	if (!hw_loaded)
		return;
	if (path && hwemu_stats) {
		hwemu_stats(&st);
		out = fopen(path, "a");
		if (out) {
			fprintf(out, "%llu %llu %llu %llu %llu %llu %llu %llu %s\n",
				(unsigned long long)st.cycles, (unsigned long long)st.clocked,
				(unsigned long long)st.runs, (unsigned long long)st.run_cycles,
				(unsigned long long)st.busy_cycles,
				(unsigned long long)st.dma_bytes,
				(unsigned long long)st.violations,
				(unsigned long long)st.dropped, hwemu_backend());
			fclose(out);
		}
	}
	for (int i = 0; i < HW_FILES; i++) {
		if (hw_files[i].f) {
			driver_user_close(hw_files[i].f);
			hw_files[i].f = NULL;
		}
	}
	if (hwemu_board_remove)
		hwemu_board_remove();
	driver_user_unload();
}
