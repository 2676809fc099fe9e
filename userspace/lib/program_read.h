/* SPDX-License-Identifier: MIT */
/*
 * program_read.h - what the streaming readers of a program object share
 *
 * program_read.c reads the top-level object and its small values,
 * program_read_buffers.c the "buffers" object, program_read_commands.c the
 * "commands" array (program_read_command_direct.c reads most commands
 * without json-c). Each element is checked on its own as it is read;
 * the checks that need the whole program are program_validate.c's.
 */
#ifndef TTPU_PROGRAM_READ_H
#define TTPU_PROGRAM_READ_H

#include <stdbool.h>
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
/*
 * The same for a name already known to be a string, of @len bytes at @s:
 * what ttpu_read_name() does once the type is checked, and what the
 * direct reader calls.
 */
int ttpu_intern_name(struct ttpu_loader *L, const struct ttpu_jpath *p,
		     const char *s, size_t len, uint32_t *id);

/* program_read_buffers.c: the "buffers" object at the cursor. */
int ttpu_loader_read_buffers(struct ttpu_loader *L);

/* program_read_commands.c: the "commands" array at the cursor. */
int ttpu_loader_read_commands(struct ttpu_loader *L);

/*
 * Every key a command or a window may have, and what each op takes. Both
 * readers of a command (json-c's and the direct one) judge keys by these.
 */
enum ttpu_cmd_key {
	TTPU_CK_OP, TTPU_CK_ID, TTPU_CK_A, TTPU_CK_B, TTPU_CK_PASS, TTPU_CK_DST,
	TTPU_CK_BIAS, TTPU_CK_RELU, TTPU_CK_BUF, TTPU_CK_SRC, TTPU_CK_R,
	TTPU_CK_C, TTPU_CK_UNKNOWN
};

#define TTPU_CKB(k) (1u << (k))

/* The key of the @len bytes at @k (no NUL needed), or TTPU_CK_UNKNOWN. */
int ttpu_cmd_key_find(const char *k, size_t len);

struct ttpu_op_spec {
	const char *keys[5];		/* after "op" */
	uint8_t ck[5];			/* their enum ttpu_cmd_key */
	unsigned int nkeys;
	unsigned int required;		/* bit per keys[] entry */
	unsigned int allowed;		/* TTPU_CKB() of "op" and keys[] */
	unsigned int windows;		/* TTPU_CKB() of the keys that are windows */
};

/* program_read_commands.c: indexed by enum ttpu_op. */
extern const struct ttpu_op_spec ttpu_op_specs[TTPU_OP_COUNT];

/* A window as the direct reader found it: a name and two integers. */
struct ttpu_direct_window {
	const char *buf;		/* in the jstream's window, no NUL */
	size_t buf_len;
	int64_t r, c;
};

/* A member's value as the direct reader found it, of the type its op wants. */
struct ttpu_direct_value {
	const char *s;			/* a string: in the jstream's window */
	size_t len;
	int64_t n;			/* an integer, 0 .. 10^18 - 1 */
	bool b;				/* a boolean */
	struct ttpu_direct_window w;	/* a window */
};

/* A command the direct reader accepted: valid in syntax and types. */
struct ttpu_direct_command {
	int op;				/* enum ttpu_op */
	unsigned int present;		/* TTPU_CKB() per key */
	struct ttpu_direct_value v[TTPU_CK_UNKNOWN];
};

/*
 * program_read_command_direct.c: read the command at the cursor straight
 * from the jstream's window, without json-c, when it is in the plain
 * subset compilers write (see the file). Returns true with @d filled, the
 * cursor after the command and js->elem_start/elem_mark on it, as
 * ttpu_js_value_raw() leaves them; false ("not mine") with the jstream
 * untouched, for json-c to read the command and report any error in it.
 * The strings of @d point into the window: use them before it moves.
 */
bool ttpu_command_scan_direct(struct ttpu_jstream *js,
			      struct ttpu_direct_command *d);

/*
 * Whether ttpu_loader_read_commands() tries ttpu_command_scan_direct()
 * before json-c: true, except in the tests that load every program both
 * ways and require the same outcome. Internal (hidden like every symbol
 * not in libttpu-run.map): only the static library's users can set it.
 */
extern bool ttpu_commands_direct;

#endif /* TTPU_PROGRAM_READ_H */
