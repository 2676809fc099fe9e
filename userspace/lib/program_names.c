// SPDX-License-Identifier: MIT
/*
 * program_names.c - string -> dense id hash index (open addressing, FNV-1a)
 */
#include <stdlib.h>
#include <string.h>

#include "program_names.h"
#include "util.h"

struct name_entry {
	char *name;
	size_t len;
	uint64_t hash;
};

struct ttpu_name_index {
	struct name_entry *entries;	/* by id */
	size_t count, cap;
	uint32_t *slots;		/* id + 1, 0 = empty */
	size_t nslots;			/* power of two */
};

static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

struct ttpu_name_index *ttpu_names_new(void)
{
	struct ttpu_name_index *idx = calloc(1, sizeof(*idx));

	if (!idx)
		return NULL;
	idx->nslots = 16;
	idx->slots = calloc(idx->nslots, sizeof(*idx->slots));
	if (!idx->slots) {
		free(idx);
		return NULL;
	}
	return idx;
}

void ttpu_names_free(struct ttpu_name_index *idx)
{
	size_t i;

	if (!idx)
		return;
	for (i = 0; i < idx->count; i++)
		free(idx->entries[i].name);
	free(idx->entries);
	free(idx->slots);
	free(idx);
}

static size_t find_slot(const struct ttpu_name_index *idx, const char *name,
			size_t len, uint64_t hash)
{
	size_t mask = idx->nslots - 1, i = hash & mask;
	const struct name_entry *e;

	for (;; i = (i + 1) & mask) {
		if (!idx->slots[i])
			return i;
		e = &idx->entries[idx->slots[i] - 1];
		if (e->hash == hash && e->len == len && !memcmp(e->name, name, len))
			return i;
	}
}

uint32_t ttpu_names_find(const struct ttpu_name_index *idx, const char *name,
			 size_t len)
{
	size_t slot;

	if (!idx || !name)
		return TTPU_NO_NAME;
	slot = find_slot(idx, name, len, name_hash(name, len));
	return idx->slots[slot] ? idx->slots[slot] - 1 : TTPU_NO_NAME;
}

/* Keep the load factor at or below 1/2 so probes stay short. */
static int grow_slots(struct ttpu_name_index *idx)
{
	size_t n = idx->nslots * 2, i, j;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -1;
	for (i = 0; i < idx->count; i++) {
		j = idx->entries[i].hash & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(idx->slots);
	idx->slots = slots;
	idx->nslots = n;
	return 0;
}

uint32_t ttpu_names_intern(struct ttpu_name_index *idx, const char *name,
			   size_t len, bool *created)
{
	uint64_t hash = name_hash(name, len);
	size_t slot = find_slot(idx, name, len, hash);
	struct name_entry *e;
	char *copy;

	*created = false;
	if (idx->slots[slot])
		return idx->slots[slot] - 1;
	if (idx->count >= UINT32_MAX - 1)
		return TTPU_NO_NAME;
	if ((idx->count + 1) * 2 > idx->nslots) {
		if (grow_slots(idx))
			return TTPU_NO_NAME;
		slot = find_slot(idx, name, len, hash);
	}
	if (ttpu_grow(&idx->entries, &idx->cap, idx->count + 1, sizeof(*idx->entries)))
		return TTPU_NO_NAME;
	copy = malloc(len + 1);
	if (!copy)
		return TTPU_NO_NAME;
	memcpy(copy, name, len);
	copy[len] = '\0';
	e = &idx->entries[idx->count];
	e->name = copy;
	e->len = len;
	e->hash = hash;
	idx->slots[slot] = (uint32_t)++idx->count;
	*created = true;
	return (uint32_t)(idx->count - 1);
}

const char *ttpu_names_get(const struct ttpu_name_index *idx, uint32_t id)
{
	if (!idx || id >= idx->count)
		return NULL;
	return idx->entries[id].name;
}

size_t ttpu_names_count(const struct ttpu_name_index *idx)
{
	return idx ? idx->count : 0;
}
