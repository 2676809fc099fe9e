/* SPDX-License-Identifier: MIT */
/*
 * run_range_neon.h - whether the NEON paths (replay kernels, packing) are
 * used, chosen at run time on armhf (Debian's armhf baseline has no NEON;
 * the PYNQ-Z2's Cortex-A9 has it)
 */
#ifndef TTPU_RUN_RANGE_NEON_H
#define TTPU_RUN_RANGE_NEON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Whether the NEON paths are used: -1 (the default) asks the
 * kernel (getauxval(AT_HWCAP)) once, 0 never, 1 always where it is built.
 * The tests set it to run both paths on one machine.
 */
extern int ttpu_range_neon;

/* Whether the NEON paths are built here and chosen. */
bool ttpu_range_neon_on(void);

/* Whether this CPU has NEON (the kernel's HWCAP_ARM_NEON, asked once), whatever the tests chose. */
bool ttpu_neon_present(void);

#endif /* TTPU_RUN_RANGE_NEON_H */
