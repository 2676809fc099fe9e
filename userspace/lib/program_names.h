/* SPDX-License-Identifier: MIT */
/*
 * program_names.h - string -> dense id hash index
 *
 * The loader interns every buffer name it meets (a command may name a
 * buffer before the "buffers" object is read); a loaded program keeps one
 * whose ids are the buffer indices, for O(1) ttpu_program_find_buffer().
 */
#ifndef TTPU_PROGRAM_NAMES_H
#define TTPU_PROGRAM_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TTPU_NO_NAME UINT32_MAX

struct ttpu_name_index;

struct ttpu_name_index *ttpu_names_new(void);
void ttpu_names_free(struct ttpu_name_index *idx);

/*
 * The id of @name (@len bytes, may hold any byte), adding it with the next
 * id (0, 1, ...) when new; *@created tells which. TTPU_NO_NAME when out
 * of memory.
 */
uint32_t ttpu_names_intern(struct ttpu_name_index *idx, const char *name,
			   size_t len, bool *created);
/* The id of @name, or TTPU_NO_NAME. */
uint32_t ttpu_names_find(const struct ttpu_name_index *idx, const char *name,
			 size_t len);
/* The NUL-terminated name of @id (valid while @idx lives). */
const char *ttpu_names_get(const struct ttpu_name_index *idx, uint32_t id);
size_t ttpu_names_count(const struct ttpu_name_index *idx);

#endif /* TTPU_PROGRAM_NAMES_H */
