/* SPDX-License-Identifier: MIT */
/*
 * rt_reject.h - the fixture of the runtime tests that are a program
 * rejected at load time (test_schema_*.c): the valid base program below,
 * and a FIXTURE_VARIANT_ADD(reject, name) per reason, each the base program
 * with exactly one thing wrong, so only one check can fire.
 * TEST_F(reject, fails_where_it_should) asserts the kind and where the
 * error points (field, command, op, buffer). A suite includes it once,
 * after kselftest_harness.h and rt.h, and adds at least one variant.
 */
#ifndef RT_REJECT_H
#define RT_REJECT_H

#include <string.h>

#define HDR "'format':'ttpu','version':1,'tile':4,'name':'t'"
#define PROGH(hdr, bufs, ins, outs, cmds, extra) \
	"{" hdr ",'buffers':{" bufs "},'inputs':[" ins "],'outputs':[" outs \
	"],'commands':[" cmds "]" extra "}"

#define A_BUF RT_BUF("A", "i8", "[4,4]", "input")
#define B_BUF RT_CONST("B", "i8", "[4,4]", "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]")
#define C_BUF RT_BUF("C", "i32", "[4,4]", "temp")
#define BIAS_BUF RT_CONST("bias", "i32", "[4]", "[1,2,3,4]")
#define BUFS A_BUF "," B_BUF "," C_BUF "," BIAS_BUF
#define PASS0 RT_PASS(0, "A", 0, 0, "B", 0, 0)
#define ACC0 RT_ACC(0, "C", 0, 0)
#define CMDS PASS0 "," ACC0
/* The base: buffers, inputs, outputs, commands each replaceable. */
#define PROG(bufs, cmds) RT_PROG(bufs, "'A'", "'C'", cmds)

static inline int load_err(const char *sq, struct ttpu_error *err)
{
	ttpu_program *prog;
	int rc = rt_load(sq, &prog, err);

	if (!rc)
		ttpu_program_free(prog);
	return rc;
}

/*
 * A rejected program: a variant per mistake (FIXTURE_VARIANT_ADD(reject,
 * ...) below), each failing with its kind at its place (rt_where()), and
 * where the message must name something (a missing, unknown or duplicate
 * key, in quotes), saying it.
 */
FIXTURE(reject) {
	struct ttpu_error err;
};

FIXTURE_VARIANT(reject) {
	const char *sq;			/* the program, single-quoted JSON */
	enum ttpu_error_kind kind;
	const char *field;		/* where, as rt_where() takes it */
	long cmd;
	const char *op;
	const char *buf;
	const char *says;		/* in the message, or NULL */
};

FIXTURE_SETUP(reject)
{
	memset(&self->err, 0, sizeof(self->err));
}

FIXTURE_TEARDOWN(reject)
{
}

TEST_F(reject, fails_where_it_should)
{
	int rc = load_err(variant->sq, &self->err);

	ASSERT_ERROR_AT(variant->kind, rc, self->err, variant->field, variant->cmd,
			variant->op, variant->buf);
	if (variant->says) {
		ASSERT_NE(NULL, strstr(self->err.message, variant->says))
			TH_LOG("no %s in: %s", variant->says, self->err.message);
	}
}

#endif /* RT_REJECT_H */
