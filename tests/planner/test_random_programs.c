// SPDX-License-Identifier: MIT
/*
 * test_random_programs.c - random programs, planned and run one command
 * at a time, must agree
 *
 * Programs are built in their compact form (compact_build.h): random
 * programs with edge and overlapping windows, passes reading buffers that
 * accs write, deferred passes, chains broken by epilogues, and values near
 * the dtype limits so that range errors fire in the middle of chains, in
 * epilogues and in host ops. Each plan keeps its invariants and each run
 * ends as the reference executor's (planned_vs_direct.h).
 */
#include <stdbool.h>
#include <stdint.h>

#include "kselftest_harness.h"

#include "compact_build.h"
#include "planned_vs_direct.h"
#include "../lib/test_rng.h"
#include "../lib/test_timeout.h"

/*
 * A random program. Operand buffers are i8 consts and the i8 dsts (so
 * passes read what accs wrote); dsts are i32 and i8, some starting near
 * the i32 limits; windows reach past the edges; passes are consumed in
 * order, out of order or much later (deferred); tiled matmul blocks give
 * the engine long K-walks.
 */
static void random_program(struct pbuild *b, uint64_t seed)
{
	struct rng g = { seed * 0x9e3779b97f4a7c15ull + 1 };
	uint32_t ops[8], nops = 0, dsts[8], ndsts = 0, biases[5], nbias = 0;
	uint32_t pending[MAXC], npend = 0, last_dst = 0, last_r = 0, last_c = 0;
	bool big = rnd(&g, 3) == 0, small = rnd(&g, 2) == 0;
	uint32_t ncmd = 10 + rnd(&g, 300);
	/* i8 dsts overflow easily: only now and then, so most runs finish. */
#define PICK_DST() (rnd(&g, 8) ? dsts[2 + rnd(&g, 3)] : dsts[rnd(&g, 2)])

	pb_init(b);
	for (int i = 0; i < 3; i++)
		ops[nops++] = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 2, 1 + rnd(&g, 12),
				      1 + rnd(&g, 12), &g, small ? -3 : -128, small ? 3 : 127);
	for (int i = 0; i < 2; i++) {
		uint32_t d = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_TEMP, 2, 1 + rnd(&g, 12),
				     1 + rnd(&g, 12), &g, 0, 0);

		ops[nops++] = d;
		dsts[ndsts++] = d;
	}
	for (int i = 0; i < 3; i++) {
		int32_t lo = big ? INT32_MAX - 300000 : -1000, hi = big ? INT32_MAX : 1000;

		if (big && i == 1) {
			lo = INT32_MIN;
			hi = INT32_MIN + 300000;
		}
		dsts[ndsts++] = add_buf(b, TTPU_DTYPE_I32, i ? TTPU_KIND_CONST : TTPU_KIND_TEMP,
					2, 1 + rnd(&g, 12), 1 + rnd(&g, 12), &g, lo, hi);
	}
	biases[nbias++] = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 12, &g,
				  big ? INT32_MAX - 100000 : -50, big ? INT32_MAX : 50);
	biases[nbias++] = add_buf(b, TTPU_DTYPE_I8, TTPU_KIND_CONST, 1, 1, 12, &g, -128, 127);
	biases[nbias++] = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 12, &g, -100, 100);
	/* Lifts a small dst to where the next chain on its window overflows. */
	biases[nbias++] = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 1, 1, 12, &g,
				  INT32_MAX - 90000, INT32_MAX - 60000);

	while (b->p.ncmds < ncmd) {
		uint32_t what = rnd(&g, 100);

		if (what < 8) {
			/* A tiled block: passes walking K, then their accs. */
			uint32_t a = ops[rnd(&g, nops)], bb = ops[rnd(&g, nops)];
			uint32_t d = PICK_DST();
			uint32_t ar = 4 * rnd(&g, 3), bc = 4 * rnd(&g, 3);
			uint32_t nk = 1 + rnd(&g, 4), first = (uint32_t)b->p.npasses;
			bool interleave = rnd(&g, 2);

			for (uint32_t k = 0; k < nk; k++) {
				add_pass(b, a, ar, 4 * k, bb, 4 * k, bc);
				if (interleave)
					add_acc(b, first + k, d, ar, bc, TTPU_NO_BUFFER, false);
			}
			for (uint32_t k = 0; !interleave && k < nk; k++)
				add_acc(b, first + k, d, ar, bc,
					k + 1 == nk && rnd(&g, 2) ? biases[rnd(&g, nbias)] :
					TTPU_NO_BUFFER, k + 1 == nk && rnd(&g, 2));
		} else if (what < 45) {
			uint32_t a = ops[rnd(&g, nops)], bb = ops[rnd(&g, nops)];

			pending[npend++] = add_pass(b, a, rnd(&g, b->bufs[a].rows + 3),
						    rnd(&g, b->bufs[a].cols + 3), bb,
						    rnd(&g, b->bufs[bb].rows + 3),
						    rnd(&g, b->bufs[bb].cols + 3));
		} else if (what < 80 && npend) {
			uint32_t i = rnd(&g, 3) ? 0 : rnd(&g, npend);
			uint32_t slot = pending[i];

			memmove(&pending[i], &pending[i + 1], (npend - i - 1) * sizeof(pending[0]));
			npend--;
			if (rnd(&g, 3)) {
				last_dst = PICK_DST();
				last_r = rnd(&g, b->bufs[last_dst].rows + 2);
				last_c = rnd(&g, b->bufs[last_dst].cols + 2);
				if (rnd(&g, 2)) {
					last_r &= ~3u;
					last_c &= ~3u;
				}
			} else if (!last_dst) {
				last_dst = dsts[2];
			}
			add_acc(b, slot, last_dst, last_r, last_c,
				rnd(&g, 6) ? TTPU_NO_BUFFER : biases[rnd(&g, nbias)],
				rnd(&g, 6) == 0);
		} else if (what < 86) {
			uint32_t d = PICK_DST();
			struct ttpu_command *c = add_cmd(b, TTPU_OP_EPILOGUE);

			c->u.epilogue.dst = (struct ttpu_window){ d, rnd(&g, b->bufs[d].rows + 2),
								  rnd(&g, b->bufs[d].cols + 2) };
			c->u.epilogue.bias = rnd(&g, 3) ? biases[rnd(&g, nbias)] : TTPU_NO_BUFFER;
			c->relu = rnd(&g, 2);
		} else if (what < 90) {
			add_cmd(b, TTPU_OP_ALLOC)->u.alloc.buf = dsts[rnd(&g, ndsts)];
		} else if (what < 95) {
			/* dst = dst + dst, or + a broadcast rank-1 row of its width. */
			uint32_t d = PICK_DST();
			struct ttpu_command *c = add_cmd(b, TTPU_OP_HOST_ADD);
			uint32_t other = d;

			if (rnd(&g, 2) && b->p.nbuffers < MAXB)
				other = add_buf(b, rnd(&g, 2) ? TTPU_DTYPE_I8 : TTPU_DTYPE_I32,
						TTPU_KIND_CONST, 1, 1, b->bufs[d].cols, &g, -100, 100);
			c->u.add.dst = d;
			c->u.add.a = d;
			c->u.add.b = other;
			if (rnd(&g, 2)) {
				c->u.add.a = other;
				c->u.add.b = d;
			}
		} else {
			/* relu of an i32 dst into itself, or of an i32 copy into an i8 dst. */
			uint32_t d = PICK_DST();
			struct ttpu_command *c = add_cmd(b, TTPU_OP_HOST_RELU);

			c->u.relu.dst = d;
			c->u.relu.src = d;
			if (b->bufs[d].dtype == TTPU_DTYPE_I8 && b->p.nbuffers < MAXB)
				c->u.relu.src = add_buf(b, TTPU_DTYPE_I32, TTPU_KIND_CONST, 2,
							b->bufs[d].rows, b->bufs[d].cols, &g,
							-200, 200);
		}
		if (b->p.ncmds + 2 * npend + 16 >= MAXC)
			break;
	}
	while (npend) {
		uint32_t d = dsts[2 + rnd(&g, 3)];

		add_acc(b, pending[--npend], d, rnd(&g, b->bufs[d].rows + 1),
			rnd(&g, b->bufs[d].cols + 1), TTPU_NO_BUFFER, false);
	}
}

/*
 * 10,000 random programs: 6.4 s under ASan on a 2-core machine at a load of
 * 15 (planner-san), against the harness's 30 s default (test_timeout.h).
 */
TEST_TIMEOUT(random_programs_match_direct, 300)
{
	struct fx fx, *f = &fx;
	struct outcome oc = { 0 };

	ASSERT_EQ(0, fx_open(f));
	for (uint64_t seed = 1; seed <= 10000; seed++) {
		random_program(f->b, seed);
		ASSERT_EQ(0, pb_finish(f->b));
		check_plan(_metadata, &f->b->p, &oc);
		if (compare(_metadata, &f->b->p, f->eng, &oc)) {
			TH_LOG("seed %llu differs", (unsigned long long)seed);
			pb_release(f->b);
			fx_close(f);
			return;
		}
		pb_release(f->b);
	}
	TH_LOG("%d ran, %d range errors, %d deferred passes, %d following chains",
	       oc.ok, oc.range_errors, oc.deferred, oc.follows);
	/* The generator must reach every path it is there for. */
	EXPECT_GT(oc.ok, 1000);
	EXPECT_GT(oc.range_errors, 1000);
	EXPECT_GT(oc.deferred, 100);
	EXPECT_GT(oc.follows, 50);
	fx_close(f);
}

TEST_HARNESS_MAIN
