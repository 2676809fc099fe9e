/* SPDX-License-Identifier: MIT */
/*
 * program_read.h - what the streaming readers of a program object share
 *
 * program_read.c reads the top-level object and its small values,
 * program_read_buffers.c the "buffers" object, program_read_commands.c the
 * "commands" array. Each element is checked on its own as it is read;
 * the checks that need the whole program are program_validate.c's.
 */
#ifndef TTPU_PROGRAM_READ_H
#define TTPU_PROGRAM_READ_H

#include <stddef.h>
#include <stdint.h>

#include "program_load.h"

/* Room for a JSON path in a message: as much as struct ttpu_error keeps. */
#define TTPU_PATH_MAX TTPU_ERROR_NAME_MAX

/*
 * A JSON path formatted only when an error needs it: formatting one for
 * every field of 200k commands would cost more than parsing them.
 */
struct ttpu_jpath {
	const char *s;			/* a whole path, or NULL for: */
	const char *base;		/* base[idx].k1.k2 */
	size_t idx;
	const char *k1, *k2;
};

#define TTPU_JP(str) (&(struct ttpu_jpath){ .s = (str) })

/* The text of @p, formatted into @buf when it is not a whole path. */
const char *ttpu_jpath_str(const struct ttpu_jpath *p, char *buf, size_t n);

/* An integer >= @min at @obj (@p names it in a SchemaError). */
int ttpu_read_uint(struct ttpu_jstream *js, const struct ttpu_jpath *p,
		   struct json_object *obj, int64_t min, int64_t *v);

/* A non-empty buffer name at @obj, interned in L->intern as *@id. */
int ttpu_read_name(struct ttpu_loader *L, const struct ttpu_jpath *p,
		   struct json_object *obj, uint32_t *id);

/* program_read_buffers.c: the "buffers" object at the cursor. */
int ttpu_loader_read_buffers(struct ttpu_loader *L);

/* program_read_commands.c: the "commands" array at the cursor. */
int ttpu_loader_read_commands(struct ttpu_loader *L);

#endif /* TTPU_PROGRAM_READ_H */
