// SPDX-License-Identifier: MIT
/*
 * run_direct.c - the one-command-at-a-time reference executor
 *
 * No plan, no fusion, no engine: each pass computes its product with the
 * reference kernel into its own tmp, each acc adds it and runs its
 * epilogue, each host command runs through run_host.c. Kept deliberately
 * literal so the planned path can be compared with it.
 */
#include <stdlib.h>

#include "run_direct.h"
#include "run_host.h"
#include "error.h"
#include "run.h"
#include "util.h"

int ttpu_run_direct(const ttpu_program *prog, const ttpu_inputs *in,
		    ttpu_result **out, struct ttpu_error *err)
{
	struct ttpu_run_ctx ctx;
	uint64_t t0 = ttpu_now_ns();
	int ret = 0;

	if (!out)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_run_direct: no result pointer");
	*out = NULL;
	if (!prog)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_run_direct: no program");
	ret = ttpu_run_ctx_init(&ctx, prog, in, err);
	if (ret)
		return ret;
	/* tmp by pass slot: every pass is consumed exactly once, later. */
	ctx.tmp = malloc((prog->npasses + 1) * TTPU_TILE_ELEMS * sizeof(int32_t));
	if (!ctx.tmp) {
		ret = ttpu_error_nomem(err, "allocating pass results");
		goto out;
	}
	for (uint32_t i = 0; i < prog->ncmds && !ret; i++) {
		const struct ttpu_command *c = &prog->cmds[i];

		switch (c->op) {
		case TTPU_OP_PASS:
			ttpu_link_product(prog, ctx.data, &c->u.pass.a, &c->u.pass.b,
					  ctx.tmp + (size_t)c->u.pass.slot * TTPU_TILE_ELEMS);
			break;
		case TTPU_OP_ACC:
			ret = ttpu_host_acc_add(&ctx, i, &c->u.acc.dst,
						ctx.tmp + (size_t)c->u.acc.slot * TTPU_TILE_ELEMS,
						err);
			if (!ret)
				ret = ttpu_host_epilogue(&ctx, i, &c->u.acc.dst,
							 c->u.acc.bias, c->relu, err);
			break;
		default:
			ret = ttpu_host_command(&ctx, i, err);
			break;
		}
	}
	if (ret)
		goto out;
	ctx.stats.passes = prog->npasses;
	ctx.stats.total_cycles = prog->npasses * TTPU_CYCLES_PER_PASS;
	ctx.stats.run_ns = ttpu_now_ns() - t0;
	ret = ttpu_result_new(prog, &ctx, "direct",
			      "one command at a time (reference executor)", out, err);
out:
	ttpu_run_ctx_release(&ctx);
	return ret;
}
