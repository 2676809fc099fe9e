/* SPDX-License-Identifier: MIT */
/*
 * program_read_command_keys.h - the keys a command may have, and what
 * each op takes
 *
 * Both readers of a command, json-c's (program_read_commands.c) and the
 * direct one (program_read_command_direct.c), judge its keys by this one
 * table, which is why it is neither reader's.
 */
#ifndef TTPU_PROGRAM_READ_COMMAND_KEYS_H
#define TTPU_PROGRAM_READ_COMMAND_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "program_ops.h"

/* Every key a command or a window may have. */
enum ttpu_cmd_key {
	TTPU_CK_OP, TTPU_CK_ID, TTPU_CK_A, TTPU_CK_B, TTPU_CK_PASS, TTPU_CK_DST,
	TTPU_CK_BIAS, TTPU_CK_RELU, TTPU_CK_BUF, TTPU_CK_SRC, TTPU_CK_R,
	TTPU_CK_C, TTPU_CK_UNKNOWN
};

#define TTPU_CKB(k) (1u << (k))

/* The key of the @len bytes at @k (no NUL needed), or TTPU_CK_UNKNOWN. */
int ttpu_cmd_key_find(const char *k, size_t len);

/* What an op takes. */
struct ttpu_op_spec {
	const char *keys[5];		/* after "op" */
	uint8_t ck[5];			/* their enum ttpu_cmd_key */
	unsigned int nkeys;
	unsigned int required;		/* bit per keys[] entry */
	unsigned int allowed;		/* TTPU_CKB() of "op" and keys[] */
	unsigned int windows;		/* TTPU_CKB() of the keys that are windows */
};

/* Indexed by enum ttpu_op. */
extern const struct ttpu_op_spec ttpu_op_specs[TTPU_OP_COUNT];

#endif /* TTPU_PROGRAM_READ_COMMAND_KEYS_H */
