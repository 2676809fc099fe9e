// SPDX-License-Identifier: MIT
/*
 * run_host.c - host commands, acc steps and epilogues with exact range checks
 *
 * Values are computed in 64 bits and checked against the destination's
 * dtype after every step the contract names, so a value that leaves its
 * dtype is reported at the first step that makes it leave, never wrapped
 * or saturated.
 */
#include <string.h>

#include "run_host.h"
#include "error.h"
#include "run.h"

static inline int64_t get(const struct ttpu_buffer *b, const void *d, size_t i)
{
	return b->dtype == TTPU_DTYPE_I8 ? ((const int8_t *)d)[i] : ((const int32_t *)d)[i];
}

/* Only for values already checked against the buffer's dtype. */
static inline void put(const struct ttpu_buffer *b, void *d, size_t i, int64_t v)
{
	if (b->dtype == TTPU_DTYPE_I8)
		((int8_t *)d)[i] = (int8_t)v;
	else
		((int32_t *)d)[i] = (int32_t)v;
}

int ttpu_host_range_error(struct ttpu_run_ctx *ctx, uint32_t cmd, uint32_t buf,
			  size_t elem, int64_t v, const char *step,
			  struct ttpu_error *err)
{
	const struct ttpu_program *prog = ctx->prog;
	const struct ttpu_buffer *b = &prog->buffers[buf];
	const char *op = ttpu_op_names[prog->cmds[cmd].op];
	long row = (long)(elem / b->cols), col = (long)(elem % b->cols);
	char where[48];

	if (b->rank == 2)
		snprintf(where, sizeof(where), "[%ld][%ld]", row, col);
	else
		snprintf(where, sizeof(where), "[%ld]", col);
	ttpu_error_set(err, TTPU_RANGE_ERROR,
		      "commands[%u] (%s): buffer \"%s\" element %s would be %lld after %s, outside %s (%d..%d)",
		      cmd, op, b->name, where, (long long)v, step,
		      b->dtype == TTPU_DTYPE_I8 ? "i8" : "i32",
		      ttpu_dtype_min(b->dtype), ttpu_dtype_max(b->dtype));
	ttpu_error_at_command(err, cmd, op);
	ttpu_error_at_buffer(err, b->name);
	ttpu_error_at_element(err, (long)elem, row, col);
	return -TTPU_RANGE_ERROR;
}

/* The in-bounds extent of a window: rows [r, r + nr), cols [c, c + nc). */
static void clip(const struct ttpu_buffer *b, const struct ttpu_window *w,
		 uint32_t *nr, uint32_t *nc)
{
	*nr = w->r >= b->rows ? 0 : (uint32_t)(b->rows - w->r < TTPU_TILE ? b->rows - w->r : TTPU_TILE);
	*nc = w->c >= b->cols ? 0 : (uint32_t)(b->cols - w->c < TTPU_TILE ? b->cols - w->c : TTPU_TILE);
}

int ttpu_host_acc_add(struct ttpu_run_ctx *ctx, uint32_t cmd,
		      const struct ttpu_window *dst, const int32_t add[16],
		      struct ttpu_error *err)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[dst->buf];
	void *d = ctx->data[dst->buf];
	uint32_t nr, nc;

	clip(b, dst, &nr, &nc);
	if (!nr || !nc)
		return 0;
	ctx->version[dst->buf]++;
	for (uint32_t i = 0; i < nr; i++) {
		for (uint32_t j = 0; j < nc; j++) {
			size_t e = (size_t)(dst->r + i) * b->cols + dst->c + j;
			int64_t v = get(b, d, e) + add[i * TTPU_TILE + j];

			if (!ttpu_fits_dtype(v, b->dtype))
				return ttpu_host_range_error(ctx, cmd, dst->buf, e, v,
							     TTPU_HOST_ACC_STEP, err);
			put(b, d, e, v);
		}
	}
	return 0;
}

void ttpu_host_acc_add_unchecked(struct ttpu_run_ctx *ctx,
				 const struct ttpu_window *dst,
				 const int32_t add[16])
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[dst->buf];
	void *d = ctx->data[dst->buf];
	uint32_t nr, nc;

	clip(b, dst, &nr, &nc);
	if (!nr || !nc)
		return;
	ctx->version[dst->buf]++;
	/* A row at a time, by dtype (the caller proved every sum fits). */
	for (uint32_t i = 0; i < nr; i++) {
		size_t e0 = (size_t)(dst->r + i) * b->cols + dst->c;
		const int32_t *a = add + i * TTPU_TILE;

		if (b->dtype == TTPU_DTYPE_I32) {
			int32_t *row = (int32_t *)d + e0;

			for (uint32_t j = 0; j < nc; j++)
				row[j] = (int32_t)((int64_t)row[j] + a[j]);
		} else {
			int8_t *row = (int8_t *)d + e0;

			for (uint32_t j = 0; j < nc; j++)
				row[j] = (int8_t)((int64_t)row[j] + a[j]);
		}
	}
}

int64_t ttpu_host_window_maxabs(const struct ttpu_run_ctx *ctx,
				const struct ttpu_window *dst)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[dst->buf];
	const void *d = ctx->data[dst->buf];
	uint32_t nr, nc, m = 0;

	clip(b, dst, &nr, &nc);
	/* |v| of an int32 fits in uint32 (2^31 too): a row at a time, by dtype. */
	for (uint32_t i = 0; i < nr; i++) {
		size_t e0 = (size_t)(dst->r + i) * b->cols + dst->c;

		if (b->dtype == TTPU_DTYPE_I32) {
			const int32_t *row = (const int32_t *)d + e0;

			for (uint32_t j = 0; j < nc; j++) {
				uint32_t a = row[j] < 0 ? 0u - (uint32_t)row[j] : (uint32_t)row[j];

				m = a > m ? a : m;
			}
		} else {
			const int8_t *row = (const int8_t *)d + e0;

			for (uint32_t j = 0; j < nc; j++) {
				uint32_t a = (uint32_t)(row[j] < 0 ? -row[j] : row[j]);

				m = a > m ? a : m;
			}
		}
	}
	return m;
}

/*
 * The epilogue of an i32 window with an i32 bias (or none), a row at a
 * time: every element's bias add checked, then its relu. Fusing the two
 * per element is the same run: the first element whose add overflows is
 * still the first in window order, and a failed run keeps nothing.
 */
static int epilogue_i32(struct ttpu_run_ctx *ctx, uint32_t cmd, const struct ttpu_window *dst,
			uint32_t nr, uint32_t nc, uint32_t bias, bool relu,
			struct ttpu_error *err)
{
	const struct ttpu_buffer *b = &ctx->prog->buffers[dst->buf];
	const int32_t *bv = bias == TTPU_NO_BUFFER ? NULL :
			    (const int32_t *)ctx->data[bias] + dst->c;
	int32_t *d = ctx->data[dst->buf];

	for (uint32_t i = 0; i < nr; i++) {
		size_t e0 = (size_t)(dst->r + i) * b->cols + dst->c;
		int32_t *row = d + e0;

		for (uint32_t j = 0; j < nc; j++) {
			int64_t v = row[j];

			if (bv) {
				v += bv[j];
				if (v < INT32_MIN || v > INT32_MAX)
					return ttpu_host_range_error(ctx, cmd, dst->buf, e0 + j, v,
								     "+= bias", err);
			}
			row[j] = (int32_t)(relu && v < 0 ? 0 : v);
		}
	}
	return 0;
}

int ttpu_host_epilogue(struct ttpu_run_ctx *ctx, uint32_t cmd,
		       const struct ttpu_window *dst, uint32_t bias, bool relu,
		       struct ttpu_error *err)
{
	const struct ttpu_program *prog = ctx->prog;
	const struct ttpu_buffer *b = &prog->buffers[dst->buf];
	void *d = ctx->data[dst->buf];
	uint32_t nr, nc;

	clip(b, dst, &nr, &nc);
	if (!nr || !nc || (bias == TTPU_NO_BUFFER && !relu))
		return 0;
	ctx->version[dst->buf]++;
	if (b->dtype == TTPU_DTYPE_I32 &&
	    (bias == TTPU_NO_BUFFER || prog->buffers[bias].dtype == TTPU_DTYPE_I32))
		return epilogue_i32(ctx, cmd, dst, nr, nc, bias, relu, err);
	if (bias != TTPU_NO_BUFFER) {
		const struct ttpu_buffer *bb = &prog->buffers[bias];
		const void *bd = ctx->data[bias];

		for (uint32_t i = 0; i < nr; i++) {
			for (uint32_t j = 0; j < nc; j++) {
				size_t e = (size_t)(dst->r + i) * b->cols + dst->c + j;
				int64_t v = get(b, d, e) + get(bb, bd, dst->c + j);

				if (!ttpu_fits_dtype(v, b->dtype))
					return ttpu_host_range_error(ctx, cmd, dst->buf, e, v,
							   "+= bias", err);
				put(b, d, e, v);
			}
		}
	}
	/* max(x, 0) of an in-range value is in range: nothing to check. */
	if (relu) {
		for (uint32_t i = 0; i < nr; i++) {
			for (uint32_t j = 0; j < nc; j++) {
				size_t e = (size_t)(dst->r + i) * b->cols + dst->c + j;

				if (get(b, d, e) < 0)
					put(b, d, e, 0);
			}
		}
	}
	return 0;
}

static int host_add(struct ttpu_run_ctx *ctx, uint32_t cmd,
		    const struct ttpu_command *c, struct ttpu_error *err)
{
	const struct ttpu_program *prog = ctx->prog;
	const struct ttpu_buffer *db = &prog->buffers[c->u.add.dst];
	const struct ttpu_buffer *ab = &prog->buffers[c->u.add.a];
	const struct ttpu_buffer *bb = &prog->buffers[c->u.add.b];
	const void *ad = ctx->data[c->u.add.a], *bd = ctx->data[c->u.add.b];
	void *dd = ctx->data[c->u.add.dst];

	ctx->version[c->u.add.dst]++;
	/*
	 * The validator guarantees dst has the result's shape and that an
	 * operand with fewer elements is a rank-1 row broadcast over the rows,
	 * so "element index modulo the operand's count" addresses both cases.
	 */
	for (size_t e = 0; e < db->count; e++) {
		int64_t v = get(ab, ad, ab->count == db->count ? e : e % ab->count) +
			    get(bb, bd, bb->count == db->count ? e : e % bb->count);

		if (!ttpu_fits_dtype(v, db->dtype))
			return ttpu_host_range_error(ctx, cmd, c->u.add.dst, e, v, "a + b", err);
		put(db, dd, e, v);
	}
	return 0;
}

static int host_relu(struct ttpu_run_ctx *ctx, uint32_t cmd,
		     const struct ttpu_command *c, struct ttpu_error *err)
{
	const struct ttpu_program *prog = ctx->prog;
	const struct ttpu_buffer *db = &prog->buffers[c->u.relu.dst];
	const struct ttpu_buffer *sb = &prog->buffers[c->u.relu.src];
	const void *sd = ctx->data[c->u.relu.src];
	void *dd = ctx->data[c->u.relu.dst];

	ctx->version[c->u.relu.dst]++;
	for (size_t e = 0; e < db->count; e++) {
		int64_t v = get(sb, sd, e);

		if (v < 0)
			v = 0;
		if (!ttpu_fits_dtype(v, db->dtype))
			return ttpu_host_range_error(ctx, cmd, c->u.relu.dst, e, v, "relu", err);
		put(db, dd, e, v);
	}
	return 0;
}

int ttpu_host_command(struct ttpu_run_ctx *ctx, uint32_t cmd,
		      struct ttpu_error *err)
{
	const struct ttpu_program *prog = ctx->prog;
	const struct ttpu_command *c = &prog->cmds[cmd];

	switch (c->op) {
	case TTPU_OP_ALLOC: {
		const struct ttpu_buffer *b = &prog->buffers[c->u.alloc.buf];

		ctx->version[c->u.alloc.buf]++;
		memset(ctx->data[c->u.alloc.buf], 0,
		       b->count * (b->dtype == TTPU_DTYPE_I8 ? 1 : 4));
		return 0;
	}
	case TTPU_OP_EPILOGUE:
		return ttpu_host_epilogue(ctx, cmd, &c->u.epilogue.dst,
					  c->u.epilogue.bias, c->relu, err);
	case TTPU_OP_HOST_ADD:
		return host_add(ctx, cmd, c, err);
	case TTPU_OP_HOST_RELU:
		return host_relu(ctx, cmd, c, err);
	default:
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				     "commands[%u]: op %u is not a host command", cmd, c->op);
	}
}
