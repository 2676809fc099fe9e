/* SPDX-License-Identifier: MIT */
/*
 * program_read_field.h - one field of a program object, as each of its
 * readers reads it
 *
 * Paths name fields in messages; they are formatted only when an error
 * needs one. Depends on the loader (the interned names) and on nothing of
 * the readers that use it.
 */
#ifndef TTPU_PROGRAM_READ_FIELD_H
#define TTPU_PROGRAM_READ_FIELD_H

#include <stdint.h>

#include "program_pending.h"

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
/*
 * The same for a name already known to be a string, of @len bytes at @s:
 * what ttpu_read_name() does once the type is checked, and what the
 * direct reader calls.
 */
int ttpu_intern_name(struct ttpu_loader *L, const struct ttpu_jpath *p,
		     const char *s, size_t len, uint32_t *id);

#endif /* TTPU_PROGRAM_READ_FIELD_H */
