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
	/* With @rows: the operands' buffers and the group's first kick_src. */
	uint32_t abuf, bbuf;
	uint32_t src;
};

/*
 * Where a rows kick's A and B start in their buffers, in elements: the
 * kick's 8x8 of A is rows a / cols .. a + 7 strides on, B likewise.
 */
struct npk_kick_src {
	size_t a, b;
};

struct npk_stage_groups {
	struct npk_group *groups;
	size_t ngroups;
	size_t nkicks;			/* of all the groups */
	struct npk_kick_src *src;	/* the rows groups' kicks, in order */
	/*
	 * The jobs left out (the runner's, run_split.h): njobs bytes, or
	 * NULL when every job with links is in a group.
	 */
	uint8_t *host_job;
};

/*
 * The groups of @st, a stage of @prog: of every job (@device_only false),
 * or of the jobs ttpu_stage_host_jobs() does not give the runner. They
 * depend on the program alone, so each set is made for every stage at the
 * first run that asks for it on the NpuKit engine and kept with the
 * program (prog->npukit_groups). NULL when out of memory.
 */
const struct npk_stage_groups *ttpu_npukit_stage_groups(const struct ttpu_program *prog,
							const struct ttpu_stage *st,
							bool device_only);

/*
 * The groups of @st's jobs but those @host_job (st->njobs bytes) marks, for
 * a mask the cached sets were not made for, in @out (freed with
 * ttpu_npukit_stage_groups_release()). Returns 0 or -1 when out of memory.
 */
int ttpu_npukit_stage_groups_make(const struct ttpu_program *prog, const struct ttpu_stage *st,
				  const uint8_t *host_job, struct npk_stage_groups *out);
void ttpu_npukit_stage_groups_release(struct npk_stage_groups *sg);

#endif /* TTPU_ENGINE_NPUKIT_GROUPS_H */
