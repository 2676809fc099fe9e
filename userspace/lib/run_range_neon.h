/* SPDX-License-Identifier: MIT */
/*
 * run_range_neon.h - run_range.c's 32-bit replay step with NEON, chosen at
 * run time on armhf (Debian's armhf baseline has no NEON; the PYNQ-Z2's
 * Cortex-A9 has it)
 */
#ifndef TTPU_RUN_RANGE_NEON_H
#define TTPU_RUN_RANGE_NEON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Whether run_range.c uses the NEON step: -1 (the default) asks the
 * kernel (getauxval(AT_HWCAP)) once, 0 never, 1 always where it is built.
 * The tests set it to run both paths on one machine.
 */
extern int ttpu_range_neon;

/* Whether the NEON step is built here and chosen. */
bool ttpu_range_neon_on(void);

/*
 * v[16] += the 4x4 block of A at @a (row stride @as) times the 4x4 block
 * of B at @b (row stride @bs), all in int32; whether any of the 16 sums is
 * now outside [lo, lo + span]. Exactly the scalar step's sums.
 */
bool ttpu_range_step_neon(const int8_t *a, size_t as, const int8_t *b, size_t bs,
			  int32_t v[16], int32_t lo, uint32_t span);

#endif /* TTPU_RUN_RANGE_NEON_H */
