/* SPDX-License-Identifier: MIT */
/*
 * program_ops.h - the ops a command may have, and their contract names
 */
#ifndef TTPU_PROGRAM_OPS_H
#define TTPU_PROGRAM_OPS_H

#include <stddef.h>

enum ttpu_op {
	TTPU_OP_ALLOC = 0,
	TTPU_OP_PASS,
	TTPU_OP_ACC,
	TTPU_OP_EPILOGUE,
	TTPU_OP_HOST_ADD,
	TTPU_OP_HOST_RELU,
	TTPU_OP_COUNT
};

/* program_ops.c: contract names of the ops, indexed by enum ttpu_op. */
extern const char *const ttpu_op_names[TTPU_OP_COUNT];
/* The op named by the @len bytes at @s (may hold a NUL), or -1. */
int ttpu_op_find(const char *s, size_t len);

#endif /* TTPU_PROGRAM_OPS_H */
