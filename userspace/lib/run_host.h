/* SPDX-License-Identifier: MIT */
/*
 * run_host.h - the host side of a run: host commands, acc steps and epilogues,
 * each value range-checked after every step exactly as the contract says
 */
#ifndef TTPU_RUN_HOST_H
#define TTPU_RUN_HOST_H

#include "engine.h"

/** Run host command @cmd (alloc, epilogue, host_add or host_relu). */
int ttpu_host_command(struct ttpu_run_ctx *ctx, uint32_t cmd,
		      struct ttpu_error *err);

/**
 * ttpu_host_acc_add() - dst += @add on the in-bounds part of @dst
 * Each element is checked after the addition; @cmd and @op name the
 * command in a RangeError.
 */
int ttpu_host_acc_add(struct ttpu_run_ctx *ctx, uint32_t cmd,
		      const struct ttpu_window *dst, const int32_t add[16],
		      struct ttpu_error *err);

/**
 * ttpu_host_acc_add_unchecked() - dst += @add, for a caller that proved
 * no element can leave its dtype
 */
void ttpu_host_acc_add_unchecked(struct ttpu_run_ctx *ctx,
				 const struct ttpu_window *dst,
				 const int32_t add[16]);

/** The epilogue of command @cmd: += bias[c] (checked), then relu. */
int ttpu_host_epilogue(struct ttpu_run_ctx *ctx, uint32_t cmd,
		       const struct ttpu_window *dst, uint32_t bias, bool relu,
		       struct ttpu_error *err);

/* The step an acc's RangeError names. */
#define TTPU_HOST_ACC_STEP "+= tmp"

/**
 * ttpu_host_range_error() - fill @err with the RangeError of command @cmd:
 * element @elem of buffer @buf would be @v after @step
 */
int ttpu_host_range_error(struct ttpu_run_ctx *ctx, uint32_t cmd, uint32_t buf,
			  size_t elem, int64_t v, const char *step,
			  struct ttpu_error *err);

/** max |dst[e]| over the in-bounds elements of @dst (0 when none). */
int64_t ttpu_host_window_maxabs(const struct ttpu_run_ctx *ctx,
				const struct ttpu_window *dst);

#endif /* TTPU_RUN_HOST_H */
