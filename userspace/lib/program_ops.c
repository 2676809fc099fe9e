// SPDX-License-Identifier: MIT
/*
 * program_ops.c - the contract's op names, indexed by enum ttpu_op
 *
 * The loader finds a command's op here; error messages and the response
 * name commands with the same strings.
 */
#include <string.h>

#include "program_ops.h"

const char *const ttpu_op_names[TTPU_OP_COUNT] = {
	[TTPU_OP_ALLOC] = "alloc",
	[TTPU_OP_PASS] = "pass",
	[TTPU_OP_ACC] = "acc",
	[TTPU_OP_EPILOGUE] = "epilogue",
	[TTPU_OP_HOST_ADD] = "host_add",
	[TTPU_OP_HOST_RELU] = "host_relu",
};

/* Their lengths: an op is compared with memcmp, once per command. */
static const size_t ttpu_op_lens[TTPU_OP_COUNT] = {
	[TTPU_OP_ALLOC] = 5, [TTPU_OP_PASS] = 4, [TTPU_OP_ACC] = 3,
	[TTPU_OP_EPILOGUE] = 8, [TTPU_OP_HOST_ADD] = 8, [TTPU_OP_HOST_RELU] = 9,
};

int ttpu_op_find(const char *s, size_t len)
{
	int op;

	for (op = 0; op < TTPU_OP_COUNT; op++)
		if (ttpu_op_lens[op] == len && !memcmp(s, ttpu_op_names[op], len))
			return op;
	return -1;
}
