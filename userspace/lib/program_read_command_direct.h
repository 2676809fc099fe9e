/* SPDX-License-Identifier: MIT */
/*
 * program_read_command_direct.h - a plain command read straight from the
 * text, without json-c
 *
 * What the direct reader hands program_read_commands.c: a command valid in
 * syntax and types, its strings still in the jstream's window.
 */
#ifndef TTPU_PROGRAM_READ_COMMAND_DIRECT_H
#define TTPU_PROGRAM_READ_COMMAND_DIRECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program_read_command_keys.h"
#include "text_json_stream.h"

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
 * Read the command at the cursor straight from the jstream's window,
 * without json-c, when it is in the plain subset compilers write (see
 * program_read_command_direct.c). Returns true with @d filled, the
 * cursor after the command and js->elem_start/elem_mark on it, as
 * ttpu_js_value_raw() leaves them; false ("not mine") with the jstream
 * untouched, for json-c to read the command and report any error in it.
 * The strings of @d point into the window: use them before it moves.
 */
bool ttpu_command_scan_direct(struct ttpu_jstream *js,
			      struct ttpu_direct_command *d);

#endif /* TTPU_PROGRAM_READ_COMMAND_DIRECT_H */
