/* SPDX-License-Identifier: MIT */
/*
 * engine_npukit_groups.h - which jobs of a stage share an 8x8 kick
 * (engine_npukit.c says what a group is), worked out once per program
 */
#ifndef TTPU_ENGINE_NPUKIT_GROUPS_H
#define TTPU_ENGINE_NPUKIT_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "program.h"

#define NO_JOB UINT32_MAX

/* One read-back: where result blocks of C8 go (jobs are stage-relative). */
struct npk_group {
	uint32_t row[2];		/* job feeding A block row p */
	uint32_t col[2];		/* job feeding B block column q */
	uint32_t out[2][2];		/* job receiving C8 block (p, q) */
	uint32_t nsteps;		/* links of the longest member */
	bool rows;			/* every kick's A and B: 8 rows of 8 bytes */
};

struct npk_stage_groups {
	struct npk_group *groups;
	size_t ngroups;
};

/*
 * The groups of @st, a stage of @prog. They depend on the program alone, so
 * they are made for every stage at the program's first run on the NpuKit
 * engine and kept with the program (prog->npukit_groups). NULL when out
 * of memory.
 */
const struct npk_stage_groups *ttpu_npukit_stage_groups(const struct ttpu_program *prog,
							const struct ttpu_stage *st);

#endif /* TTPU_ENGINE_NPUKIT_GROUPS_H */
