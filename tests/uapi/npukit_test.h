/* SPDX-License-Identifier: GPL-2.0 */
/*
 * npukit_test.h - shared pieces of the /dev/npukit UAPI suites
 *
 * In the style of tools/testing/selftests/iommu: one fixture that opens the
 * device, helper macros that assert success or exactly one errno, and a CPU
 * reference of the 8x8 kick every result is compared against.
 *
 * The device is $NPUKIT_DEVICE, /dev/npukit0 by default (its node, debugfs
 * knobs and stats: tests/lib/npukit_dev.h). Every test SKIPs when it is
 * absent (FAILs under NPUKIT_REQUIRE_DEVICE: tests/lib/npukit_need.h) and
 * FAILs when it is present and wrong.
 */
#ifndef NPUKIT_TEST_H
#define NPUKIT_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "npukit.h"
#include "npukit_ref.h"
#include "../lib/npukit_dev.h"
#include "kselftest_harness.h"
#include "../lib/npukit_need.h"

#define NPU_ID		0x4E50554BU

/*
 * In a test body: the fault knobs must exist on the simulator, and start
 * from a clean state (a device left failed by an earlier test is reset).
 */
#define NEED_SIM() do {							\
	if (self->info.backend != NPUKIT_BACKEND_SIMULATED)		\
		SKIP(return, "fault knobs exist only on the simulated NpuKit");	\
	if (npu_no_debugfs())						\
		SKIP(return, NPU_NO_DEBUGFS_WHY);			\
	char __p[256];							\
	npu_debugfs_path(__p, sizeof(__p), "dma_error");		\
	ASSERT_EQ(0, npu_knob_write("dma_error", 0)) TH_LOG("knob %s", __p);	\
	ASSERT_EQ(0, npu_knob_write("hang", 0));			\
	ASSERT_EQ(0, npu_knob_write("slow", 1));			\
	ASSERT_EQ(0, npu_knob_write("reset_line", 1));			\
	/* not asserted: a driver without the knob never retries */	\
	npu_knob_write("auto_recover", 1);				\
	ASSERT_EQ(0, npu_knob_write("reset", 1));			\
} while (0)

/*
 * A SUBMIT in a thread of its own, for tests that act while it runs
 * (arm a fault, unbind, submit on another fd): pthread_create() it with
 * npu_submit_thread(); it records the ioctl's result, errno and end time.
 */
struct npu_submitter {
	int fd;
	struct npukit_submit s;
	int ret;
	int err;
	int64_t end_ns;
};

static inline void *npu_submit_thread(void *arg)
{
	struct npu_submitter *t = arg;

	t->ret = ioctl(t->fd, NPUKIT_IOCTL_SUBMIT, &t->s);
	t->err = errno;
	t->end_ns = npu_now_ns();
	return NULL;
}

/* @n random kicks, each CLEAR|READ_C into its own slot, and the answers */
static inline void npu_readback_batch(struct npukit_kick *k, uint32_t n,
				      npu_ctile *want, uint64_t seed)
{
	memset(k, 0, sizeof(*k) * n);
	for (uint32_t i = 0; i < n; i++) {
		npu_fill_random(&k[i], &seed);
		k[i].flags = NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C;
		k[i].c_slot = i;
	}
	npu_ref_batch(k, n, want);
}

/* Assert that an ioctl succeeds, logging the errno when it does not. */
#define test_ioctl(_fd, _cmd, _arg) do {					\
	int __r = ioctl((_fd), (_cmd), (_arg));				\
	ASSERT_EQ(0, __r) TH_LOG("%s: %s", #_cmd, strerror(errno));	\
} while (0)

/* Assert that an ioctl fails with exactly @_errno. */
#define test_err_ioctl(_errno, _fd, _cmd, _arg) do {			\
	int __r = ioctl((_fd), (_cmd), (_arg));				\
	int __e = errno;						\
	ASSERT_EQ(-1, __r) TH_LOG("%s succeeded, expected %s",		\
				  #_cmd, strerror(_errno));		\
	ASSERT_EQ((_errno), __e) TH_LOG("%s: got %s, expected %s", #_cmd,	\
					strerror(__e), strerror(_errno));\
} while (0)

#define test_submit(_fd, _s)		test_ioctl(_fd, NPUKIT_IOCTL_SUBMIT, _s)
#define test_err_submit(_e, _fd, _s)	test_err_ioctl(_e, _fd, NPUKIT_IOCTL_SUBMIT, _s)

/*
 * The fixture every suite uses: the device open, its GET_INFO read. The
 * 6.1 harness runs the body after a SKIP in setup, so bodies are written
 * with NPU_TEST(), which returns early when setup skipped.
 */
FIXTURE(npukit) {
	int fd;
	struct npukit_info info;
};

/*
 * In a fixture setup: open the device into self->fd and read its GET_INFO
 * into self->info; SKIP when there is no device (FAIL under
 * NPUKIT_REQUIRE_DEVICE), fail when it misbehaves.
 */
#define NPU_OPEN_DEVICE() do {							\
	self->fd = open(npu_device_path(), O_RDWR | O_CLOEXEC);			\
	if (self->fd < 0 && (errno == ENOENT || errno == ENXIO || errno == ENODEV)) \
		NPU_NO_DEVICE(return, strerror(errno));				\
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", npu_device_path(), strerror(errno)); \
	self->info.size = sizeof(self->info);					\
	test_ioctl(self->fd, NPUKIT_IOCTL_GET_INFO, &self->info);		\
} while (0)

FIXTURE_SETUP(npukit)
{
	NPU_OPEN_DEVICE();
}

FIXTURE_TEARDOWN(npukit)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Debian 6.1's kselftest_harness.h still runs a test body after its
 * fixture setup called SKIP(): these wrappers run the body only when the
 * setup did not skip. NPU_TEST_F names the fixture; NPU_TEST uses npukit.
 */
#define NPU_TEST_F_TIMEOUT(_fixture, _name, _secs)				\
	static void npu_body_##_fixture##_##_name(struct __test_metadata *_metadata, \
						  FIXTURE_DATA(_fixture) *self); \
	TEST_F_TIMEOUT(_fixture, _name, _secs)					\
	{									\
		if (!_metadata->skip)						\
			npu_body_##_fixture##_##_name(_metadata, self);		\
	}									\
	static void npu_body_##_fixture##_##_name(struct __test_metadata *_metadata, \
						  FIXTURE_DATA(_fixture) *self)

#define NPU_TEST_F(_fixture, _name) \
	NPU_TEST_F_TIMEOUT(_fixture, _name, TEST_TIMEOUT_DEFAULT)
#define NPU_TEST(_name) NPU_TEST_F(npukit, _name)
#define NPU_TEST_TIMEOUT(_name, _secs) NPU_TEST_F_TIMEOUT(npukit, _name, _secs)

/* Compare @n result tiles, naming the first differing slot and element. */
#define ASSERT_TILES_EQ(_want, _got, _n) do {					\
	for (uint32_t __s = 0; __s < (_n); __s++) {				\
		for (int __i = 0; __i < NPU_ELEMS; __i++) {			\
			ASSERT_EQ((_want)[__s][__i], (_got)[__s][__i])		\
				TH_LOG("slot %u C[%d][%d]", __s,		\
				       __i / NPU_TILE, __i % NPU_TILE);		\
		}								\
	}									\
} while (0)

#endif /* NPUKIT_TEST_H */
