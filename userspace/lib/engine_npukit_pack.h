/* SPDX-License-Identifier: MIT */
/*
 * engine_npukit_pack.h - the NpuKit engine's operands into kicks and its
 * results out of them (engine_npukit.c says what a kick carries), in
 * scalar code and, chosen at run time on armhf, in NEON
 */
#ifndef TTPU_ENGINE_NPUKIT_PACK_H
#define TTPU_ENGINE_NPUKIT_PACK_H

#include <stdbool.h>
#include <stdint.h>

#include "npukit.h"

#include "engine_npukit_groups.h"

/*
 * Whether packing uses NEON: -1 (the default) as the library's NEON
 * choice goes (ttpu_range_neon_on(), run_range_neon.h: the kernel's
 * HWCAP_ARM_NEON, asked once), 0 never, 1 always where it is built
 * (armhf). The tests set it to run both paths on one machine.
 */
extern int ttpu_npukit_pack_neon;

/* Whether the NEON packing is built here and chosen. */
bool ttpu_npukit_pack_neon_on(void);

/*
 * Kicks @first .. @first + @n - 1 of group @g of @sg (kick t carries links
 * 2t and 2t + 1) into @k[0 .. @n - 1]: A and B from @data, zero outside
 * their buffers; flags and c_slot 0. With @neon (only where
 * ttpu_npukit_pack_neon_on() said so), the same bytes with NEON.
 */
void ttpu_npukit_pack(const struct ttpu_program *prog, void *const *data,
		      const struct ttpu_stage *st, const struct npk_stage_groups *sg,
		      const struct npk_group *g, uint32_t first, uint32_t n,
		      struct npukit_kick *k, bool neon);

/* Add C8 tile @c, read back for group @g, into the sums of its jobs. */
void ttpu_npukit_collect(const struct npk_group *g, const int32_t *c, int32_t (*sums)[16],
			 bool neon);

#endif /* TTPU_ENGINE_NPUKIT_PACK_H */
