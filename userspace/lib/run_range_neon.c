// SPDX-License-Identifier: MIT
/*
 * run_range_neon.c - whether the NEON paths are used (the host chains'
 * replay kernels, run_replay_neon.c, and the NpuKit engine's packing):
 * on armhf only, for a NEON unit the kernel reports (HWCAP_ARM_NEON):
 * Debian's armhf code assumes none.
 */

#include "run_range_neon.h"

int ttpu_range_neon = -1;

#if defined(__arm__)

#include <sys/auxv.h>

bool ttpu_range_neon_on(void)
{
	/* Runs on several threads may ask at once: the same answer, atomically. */
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (ttpu_range_neon >= 0)
		return ttpu_range_neon;
	if (h < 0) {
		h = !!(getauxval(AT_HWCAP) & HWCAP_ARM_NEON);
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}

#else

/* No NEON where this is not armhf: the scalar paths are the only ones. */
bool ttpu_range_neon_on(void)
{
	return false;
}

#endif
