// SPDX-License-Identifier: MIT
/*
 * program_read_command_keys.c - the keys a command may have and what each
 * op takes (see program_read_command_keys.h): the one table both readers
 * of a command judge it by
 */
#include <string.h>

#include "program_read_command_keys.h"

/* A switch on the first byte, then one compare: no hash lookup per field. */
int ttpu_cmd_key_find(const char *k, size_t len)
{
#define IS(word) (len == sizeof(word) - 1 && !memcmp(k, word, len))
	if (!len)
		return TTPU_CK_UNKNOWN;
	switch (k[0]) {
	case 'a':
		return len == 1 ? TTPU_CK_A : TTPU_CK_UNKNOWN;
	case 'b':
		if (len == 1)
			return TTPU_CK_B;
		if (IS("buf"))
			return TTPU_CK_BUF;
		return IS("bias") ? TTPU_CK_BIAS : TTPU_CK_UNKNOWN;
	case 'c':
		return len == 1 ? TTPU_CK_C : TTPU_CK_UNKNOWN;
	case 'd':
		return IS("dst") ? TTPU_CK_DST : TTPU_CK_UNKNOWN;
	case 'i':
		return IS("id") ? TTPU_CK_ID : TTPU_CK_UNKNOWN;
	case 'o':
		return IS("op") ? TTPU_CK_OP : TTPU_CK_UNKNOWN;
	case 'p':
		return IS("pass") ? TTPU_CK_PASS : TTPU_CK_UNKNOWN;
	case 'r':
		if (len == 1)
			return TTPU_CK_R;
		return IS("relu") ? TTPU_CK_RELU : TTPU_CK_UNKNOWN;
	case 's':
		return IS("src") ? TTPU_CK_SRC : TTPU_CK_UNKNOWN;
	}
	return TTPU_CK_UNKNOWN;
#undef IS
}

/* The key bit of TTPU_CK_@k, to keep the table readable. */
#define K(k) TTPU_CKB(TTPU_CK_##k)

const struct ttpu_op_spec ttpu_op_specs[TTPU_OP_COUNT] = {
	[TTPU_OP_ALLOC] = { { "buf" }, { TTPU_CK_BUF }, 1, 0x1, K(OP) | K(BUF), 0 },
	[TTPU_OP_PASS] = { { "id", "a", "b" }, { TTPU_CK_ID, TTPU_CK_A, TTPU_CK_B },
			   3, 0x7, K(OP) | K(ID) | K(A) | K(B), K(A) | K(B) },
	[TTPU_OP_ACC] = { { "pass", "dst", "bias", "relu" },
			  { TTPU_CK_PASS, TTPU_CK_DST, TTPU_CK_BIAS, TTPU_CK_RELU },
			  4, 0x3, K(OP) | K(PASS) | K(DST) | K(BIAS) | K(RELU), K(DST) },
	[TTPU_OP_EPILOGUE] = { { "dst", "bias", "relu" },
			       { TTPU_CK_DST, TTPU_CK_BIAS, TTPU_CK_RELU },
			       3, 0x1, K(OP) | K(DST) | K(BIAS) | K(RELU), K(DST) },
	[TTPU_OP_HOST_ADD] = { { "dst", "a", "b" }, { TTPU_CK_DST, TTPU_CK_A, TTPU_CK_B },
			       3, 0x7, K(OP) | K(DST) | K(A) | K(B), 0 },
	[TTPU_OP_HOST_RELU] = { { "dst", "src" }, { TTPU_CK_DST, TTPU_CK_SRC },
				2, 0x3, K(OP) | K(DST) | K(SRC), 0 },
};

#undef K
