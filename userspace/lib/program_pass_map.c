// SPDX-License-Identifier: MIT
/*
 * program_pass_map.c - pass id -> slot, dense array plus hash
 */
#include <stdlib.h>
#include <string.h>

#include "program_pass_map.h"

/*
 * Compilers number passes 0, 1, 2, ...: ids below dense_cap are looked up
 * directly; the array only grows while it stays within a small multiple of
 * the passes seen, so scattered ids (any int64) go to the hash instead.
 */
struct ttpu_pass_map {
	uint32_t *dense;		/* by id: slot + 1, 0 = empty */
	size_t dense_cap;
	int64_t *ids;
	uint32_t *slots;		/* slot + 1, 0 = empty */
	size_t n, cap;			/* cap: power of two */
};

static uint64_t id_hash(int64_t id)
{
	uint64_t x = (uint64_t)id;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

struct ttpu_pass_map *ttpu_pass_map_new(void)
{
	return calloc(1, sizeof(struct ttpu_pass_map));
}

void ttpu_pass_map_free(struct ttpu_pass_map *m)
{
	if (!m)
		return;
	free(m->dense);
	free(m->ids);
	free(m->slots);
	free(m);
}

static size_t pass_map_probe(const struct ttpu_pass_map *m, int64_t id)
{
	size_t i = id_hash(id) & (m->cap - 1);

	while (m->slots[i] && m->ids[i] != id)
		i = (i + 1) & (m->cap - 1);
	return i;
}

uint32_t ttpu_pass_map_find(const struct ttpu_pass_map *m, int64_t id)
{
	size_t i;

	if ((uint64_t)id < m->dense_cap && m->dense[id])
		return m->dense[id] - 1;
	/* An id added before the dense array reached it lives in the hash. */
	if (!m->n)
		return TTPU_NO_SLOT;
	i = pass_map_probe(m, id);
	return m->slots[i] ? m->slots[i] - 1 : TTPU_NO_SLOT;
}

/* Make ids below @id + 1 direct, if that stays near the passes seen. */
static int pass_map_grow_dense(struct ttpu_pass_map *m, int64_t id,
			       size_t passes)
{
	size_t cap = m->dense_cap ? m->dense_cap : 1024;
	uint32_t *d;

	if ((uint64_t)id >= 4 * (uint64_t)passes + 4096)
		return 0;
	while (cap <= (uint64_t)id)
		cap *= 2;
	d = realloc(m->dense, cap * sizeof(*d));
	if (!d)
		return -1;
	memset(d + m->dense_cap, 0, (cap - m->dense_cap) * sizeof(*d));
	m->dense = d;
	m->dense_cap = cap;
	return 0;
}

/* Add pass @id (not present yet) as @slot; @slot + 1 passes so far. */
int ttpu_pass_map_add(struct ttpu_pass_map *m, int64_t id, uint32_t slot)
{
	size_t i;

	if (id >= 0 && (uint64_t)id >= m->dense_cap &&
	    pass_map_grow_dense(m, id, (size_t)slot + 1))
		return -1;
	if (id >= 0 && (uint64_t)id < m->dense_cap) {
		m->dense[id] = slot + 1;
		return 0;
	}
	if ((m->n + 1) * 2 > m->cap) {
		struct ttpu_pass_map g = { .cap = m->cap ? m->cap * 2 : 1024 };

		g.ids = malloc(g.cap * sizeof(*g.ids));
		g.slots = calloc(g.cap, sizeof(*g.slots));
		if (!g.ids || !g.slots) {
			free(g.ids);
			free(g.slots);
			return -1;
		}
		for (i = 0; i < m->cap; i++) {
			if (m->slots[i]) {
				size_t j = pass_map_probe(&g, m->ids[i]);

				g.ids[j] = m->ids[i];
				g.slots[j] = m->slots[i];
			}
		}
		free(m->ids);
		free(m->slots);
		m->ids = g.ids;
		m->slots = g.slots;
		m->cap = g.cap;
	}
	i = pass_map_probe(m, id);
	m->ids[i] = id;
	m->slots[i] = slot + 1;
	m->n++;
	return 0;
}
