// SPDX-License-Identifier: MIT
/*
 * program_matmul.c - ttpu_program_matmul(): the one-layer program
 * C = A @ B (+ bias, relu), tiled in the compiler's order
 *
 * tinyc's tiny-tpu backend (and tests/gen/ttpu_gen.py, which mirrors it)
 * tiles a layer with the output tiles row-major, K innermost, one acc right
 * after each pass and the tile's epilogue on its last acc. The program is
 * written as text and loaded by the one loader, as ttpu_program_load_json()
 * does: a built program passes exactly the checks a compiled one does,
 * including its estimate block, which states the cost this tiling must have.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "ttpu-run.h"
#include "util.h"

#define TILE 4
#define CYCLES_PER_PASS 15

/* The shortest text a pass and its acc take: longer programs cannot load. */
#define PASS_PAIR_TEXT \
	"{\"op\":\"pass\",\"id\":0,\"a\":{\"buf\":\"A\",\"r\":0,\"c\":0}," \
	"\"b\":{\"buf\":\"B\",\"r\":0,\"c\":0}},{\"op\":\"acc\",\"pass\":0," \
	"\"dst\":{\"buf\":\"C\",\"r\":0,\"c\":0}},"

struct text {
	char *s;
	size_t len, cap;
	bool failed;			/* out of memory, or too_big */
	bool too_big;			/* past TTPU_TEXT_MAX */
};

static void put(struct text *t, const char *fmt, ...) TTPU_PRINTF(2, 3);

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0 || t->len + (size_t)n > TTPU_TEXT_MAX) {
			t->failed = t->too_big = true;
			return;
		}
		if (t->len + (size_t)n < t->cap)
			break;
		if (ttpu_grow(&t->s, &t->cap, t->len + (size_t)n + 1, 1)) {
			t->failed = true;
			return;
		}
	}
	t->len += (size_t)n;
}

static uint64_t tiles(size_t dim)
{
	return dim / TILE + (dim % TILE != 0);
}

static void put_program(struct text *t, size_t m, size_t k, size_t n,
			unsigned int flags, uint64_t passes)
{
	bool bias = flags & TTPU_MATMUL_BIAS, relu = flags & TTPU_MATMUL_RELU;
	uint64_t id = 0, macs = (uint64_t)m * k * n;

	put(t, "{\"format\":\"ttpu\",\"version\":1,\"tile\":%d,\"name\":\"matmul\","
	    "\"buffers\":{\"A\":{\"dtype\":\"i8\",\"shape\":[%zu,%zu],\"kind\":\"input\"},"
	    "\"B\":{\"dtype\":\"i8\",\"shape\":[%zu,%zu],\"kind\":\"input\"},",
	    TILE, m, k, k, n);
	if (bias)
		put(t, "\"bias\":{\"dtype\":\"i32\",\"shape\":[%zu],\"kind\":\"input\"},", n);
	put(t, "\"C\":{\"dtype\":\"i32\",\"shape\":[%zu,%zu],\"kind\":\"temp\"}},"
	    "\"inputs\":[\"A\",\"B\"%s],\"outputs\":[\"C\"],"
	    "\"commands\":[{\"op\":\"alloc\",\"buf\":\"C\"}",
	    m, n, bias ? ",\"bias\"" : "");
	for (size_t i0 = 0; i0 < m; i0 += TILE) {
		for (size_t j0 = 0; j0 < n; j0 += TILE) {
			for (size_t k0 = 0; k0 < k; k0 += TILE, id++) {
				bool last = k0 + TILE >= k;

				put(t, ",{\"op\":\"pass\",\"id\":%llu,"
				    "\"a\":{\"buf\":\"A\",\"r\":%zu,\"c\":%zu},"
				    "\"b\":{\"buf\":\"B\",\"r\":%zu,\"c\":%zu}}"
				    ",{\"op\":\"acc\",\"pass\":%llu,"
				    "\"dst\":{\"buf\":\"C\",\"r\":%zu,\"c\":%zu}%s%s}",
				    (unsigned long long)id, i0, k0, k0, j0,
				    (unsigned long long)id, i0, j0,
				    last && bias ? ",\"bias\":\"bias\"" : "",
				    last && relu ? ",\"relu\":true" : "");
				if (t->failed)
					return;
			}
		}
	}
	put(t, "],\"estimate\":{\"passes\":%llu,\"passes_skipped\":0,"
	    "\"cycles_per_pass\":%d,\"rtl_cycles\":%llu,"
	    "\"host_ops\":{\"alloc\":1,\"acc\":%llu},\"useful_macs\":%llu,"
	    "\"capacity_macs\":%llu,\"utilization\":%.17g}}",
	    (unsigned long long)passes, CYCLES_PER_PASS,
	    (unsigned long long)(passes * CYCLES_PER_PASS),
	    (unsigned long long)passes, (unsigned long long)macs,
	    (unsigned long long)(passes * TILE * TILE * TILE),
	    (double)macs / (double)(passes * TILE * TILE * TILE));
}

int ttpu_program_matmul(size_t m, size_t k, size_t n, unsigned int flags,
			ttpu_program **out, struct ttpu_error *err)
{
	struct text t = { 0 };
	uint64_t passes;
	int ret;

	if (!out)
		return ttpu_error_set(err, TTPU_USAGE_ERROR, "ttpu_program_matmul: out is NULL");
	*out = NULL;
	if (flags & ~(unsigned int)(TTPU_MATMUL_BIAS | TTPU_MATMUL_RELU))
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_program_matmul: unknown flags 0x%x", flags);
	if (!m || !k || !n)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "matmul of %zux%zu by %zux%zu: every dimension must be at least 1",
				      m, k, k, n);
	/* Each factor is below 2^62: check the product before forming it. */
	passes = tiles(m);
	if (tiles(k) > TTPU_TEXT_MAX / passes ||
	    tiles(n) > TTPU_TEXT_MAX / (passes * tiles(k)) ||
	    passes * tiles(k) * tiles(n) > TTPU_TEXT_MAX / (sizeof(PASS_PAIR_TEXT) - 1))
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "matmul of %zux%zu by %zux%zu needs more passes than one program can hold",
				      m, k, k, n);
	passes *= tiles(k) * tiles(n);
	put_program(&t, m, k, n, flags, passes);
	if (t.failed)
		ret = !t.too_big ? ttpu_error_nomem(err, "building a matmul program") :
			ttpu_error_set(err, TTPU_USAGE_ERROR,
				       "matmul of %zux%zu by %zux%zu: its program is larger than the %zu-byte limit",
				       m, k, k, n, TTPU_TEXT_MAX);
	else
		ret = ttpu_program_load_buffer(t.s, t.len, out, err);
	free(t.s);
	return ret;
}
