// SPDX-License-Identifier: MIT
/*
 * run_range_neon.c - whether the NEON paths are used (the host chains'
 * replay kernels, run_replay_neon.c, the NpuKit engine's packing, the
 * software engine's products, the compiled file's checksum): on armhf
 * only, for a NEON unit the kernel reports (HWCAP_ARM_NEON, asked once
 * for all of them): Debian's armhf code assumes none.
 */

#include "run_range_neon.h"

int ttpu_range_neon = -1;

#if defined(__arm__)

#include <sys/auxv.h>

bool ttpu_neon_present(void)
{
	/* Runs on several threads may ask at once: the same answer, atomically. */
	static int have = -1;
	int h = __atomic_load_n(&have, __ATOMIC_RELAXED);

	if (h < 0) {
		h = !!(getauxval(AT_HWCAP) & HWCAP_ARM_NEON);
		__atomic_store_n(&have, h, __ATOMIC_RELAXED);
	}
	return h;
}

bool ttpu_range_neon_on(void)
{
	return ttpu_range_neon >= 0 ? ttpu_range_neon : ttpu_neon_present();
}

#else

/* No NEON where this is not armhf: the scalar paths are the only ones. */
bool ttpu_neon_present(void)
{
	return false;
}

bool ttpu_range_neon_on(void)
{
	return false;
}

#endif
