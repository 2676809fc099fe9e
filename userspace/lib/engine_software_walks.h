/* SPDX-License-Identifier: MIT */
/*
 * engine_software_walks.h - the software engine's K-walks: how each job's
 * links merge into long dot products, derived once per program
 */
#ifndef TTPU_ENGINE_SOFTWARE_WALKS_H
#define TTPU_ENGINE_SOFTWARE_WALKS_H

#include <stdint.h>

#include "program.h"

/* Links [link, link + n) of one job: one K-walk, every link starting inside. */
struct ttpu_sw_walk {
	uint32_t link;			/* index into the plan's links */
	uint32_t n;
};

struct ttpu_sw_walks {
	uint32_t *first;		/* by job: its walks are [first[j], first[j + 1]) */
	struct ttpu_sw_walk *walk;
};

/**
 * ttpu_sw_walks_of() - the program's K-walks, made at its first software
 * run and kept with it
 * @prog: the program
 *
 * Return: the walks, or NULL when memory ran out.
 */
const struct ttpu_sw_walks *ttpu_sw_walks_of(const struct ttpu_program *prog);

#endif /* TTPU_ENGINE_SOFTWARE_WALKS_H */
