/* SPDX-License-Identifier: MIT */
/*
 * rt_program.h - the fixture of the runtime tests that are a program, its
 * inputs and the values one output must then hold. A suite includes it
 * once, after kselftest_harness.h and rt.h, and adds a
 * FIXTURE_VARIANT_ADD(program, name) per case; TEST_F(program, computes)
 * runs each one.
 */
#ifndef RT_PROGRAM_H
#define RT_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

FIXTURE(program) {
	ttpu_result *res;
};

FIXTURE_VARIANT(program) {
	const char *prog;	/* single-quoted JSON (RT_PROG) */
	const char *inputs;	/* single-quoted JSON, or NULL: none */
	const char *output;	/* the output checked */
	int32_t want[36];	/* its values, row-major (WANT) */
	size_t n;
};

/* .want and its count, from one list of values. */
#define WANT(...) .want = { __VA_ARGS__ }, .n = RT_N(((int32_t[]){ __VA_ARGS__ }))

FIXTURE_SETUP(program)
{
	self->res = NULL;
}

FIXTURE_TEARDOWN(program)
{
	ttpu_result_free(self->res);
}

TEST_F(program, computes)
{
	struct ttpu_error err;
	char why[256];
	int rc = rt_load_run(variant->prog, variant->inputs, &self->res, &err);

	ASSERT_EQ(0, rc) TH_LOG("%s", err.message);
	ASSERT_EQ(-1L, rt_cmp(self->res, variant->output, variant->want, variant->n,
			      why, sizeof(why))) TH_LOG("%s", why);
}

#endif /* RT_PROGRAM_H */
