/* SPDX-License-Identifier: MIT */
/*
 * npukit_need.h - the one place a kselftest_harness test decides what a
 * missing NpuKit node means (include it after kselftest_harness.h).
 *
 * kselftest's convention, and the design's: without a device the device
 * tests SKIP and the software-fallback tests run, so a machine without an
 * NpuKit passes. The board's acceptance run sets NPUKIT_REQUIRE_DEVICE=1
 * (Documentation/npukit/pynq-z2.rst): there a missing node FAILs the test,
 * so a run without a device can never be taken for acceptance.
 */
#ifndef NPUKIT_NEED_H
#define NPUKIT_NEED_H

#include "npukit_dev.h"

/*
 * In a test body or fixture setup, when the node under test is missing
 * (@why says how that showed): FAIL under NPUKIT_REQUIRE_DEVICE, else
 * SKIP and run @statement (usually "return").
 */
#define NPU_NO_DEVICE(statement, why) do {					\
	ASSERT_FALSE(npu_device_required())					\
		TH_LOG("%s: %s, and NPUKIT_REQUIRE_DEVICE is set",		\
		       npu_device_path(), (why));				\
	SKIP(statement, "%s: %s", npu_device_path(), (why));			\
} while (0)

/* In a test body: go on only when the node under test exists. */
#define NPU_NEED_DEVICE() do {							\
	if (!npu_have_device())							\
		NPU_NO_DEVICE(return, "absent");				\
} while (0)

#endif /* NPUKIT_NEED_H */
