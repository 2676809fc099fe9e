/* SPDX-License-Identifier: MIT */
/*
 * test_timeout.h - TEST_TIMEOUT(name, seconds): a fixture-less test with a
 * timeout of its own.
 *
 * kselftest_harness.h kills a test after 30 s unless it says otherwise, and
 * (Debian's 6.1 copy) only a fixture test can: TEST_F_TIMEOUT. A test whose
 * work scales with a corpus or a mutation count takes a second natively but
 * 50 to 150 times that under valgrind or on the emulated Zynq, and twice or
 * three times that again on a 2-core machine that other work loads: such a
 * test declares its timeout here, sized for valgrind at a load of 15, with
 * room to spare, so that only a hang reaches it. It reports as
 * "timed.NAME".
 */
#ifndef TEST_TIMEOUT_H
#define TEST_TIMEOUT_H

#include "kselftest_harness.h"

FIXTURE(timed) {
	char unused;
};

/* Static: no prototypes wanted (-Wmissing-prototypes), no warning if unused. */
static __attribute__((unused)) FIXTURE_SETUP(timed)
{
}

static __attribute__((unused)) FIXTURE_TEARDOWN(timed)
{
}

#define TEST_TIMEOUT(name, seconds) TEST_F_TIMEOUT(timed, name, seconds)

#endif
