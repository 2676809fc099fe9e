/* SPDX-License-Identifier: MIT */
/*
 * program_pass_map.h - a program's pass ids (any int64) -> dense pass slots
 *
 * The loader numbers passes 0, 1, 2, ... in command order ("slots") and
 * looks each acc's pass id up here. Lookups are O(1) whether the ids are
 * dense, as compilers emit them, or scattered.
 */
#ifndef TTPU_PROGRAM_PASS_MAP_H
#define TTPU_PROGRAM_PASS_MAP_H

#include <stddef.h>
#include <stdint.h>

#define TTPU_NO_SLOT UINT32_MAX

struct ttpu_pass_map;

/* An empty map, or NULL when out of memory. */
struct ttpu_pass_map *ttpu_pass_map_new(void);
void ttpu_pass_map_free(struct ttpu_pass_map *m);
/* The slot of pass @id, or TTPU_NO_SLOT. */
uint32_t ttpu_pass_map_find(const struct ttpu_pass_map *m, int64_t id);
/*
 * Add pass @id (not present yet) as @slot, which is also the number of
 * passes added before it. Returns 0, or -1 when out of memory.
 */
int ttpu_pass_map_add(struct ttpu_pass_map *m, int64_t id, uint32_t slot);

#endif /* TTPU_PROGRAM_PASS_MAP_H */
