/* SPDX-License-Identifier: MIT */
/*
 * engine_progs.h - writing test programs as request JSON text: a seeded
 * random source, matrices, and a layer in the compiler's tiling order.
 */
#ifndef ENGINE_PROGS_H
#define ENGINE_PROGS_H

#include <stdio.h>
#include <stdlib.h>

struct text {
	char *s;
	size_t len;
	FILE *f;
};

static inline void text_open(struct text *t)
{
	t->s = NULL;
	t->len = 0;
	t->f = open_memstream(&t->s, &t->len);
}

static inline void text_close(struct text *t)
{
	fclose(t->f);
}

static unsigned int rnd_state = 12345;

static inline int rnd(int lo, int hi)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return lo + (int)((rnd_state >> 8) % (unsigned int)(hi - lo + 1));
}

/* lo == hi - 255 or so: extremes; lo == hi: a constant matrix. */
static inline void emit_matrix(FILE *f, int rows, int cols, int lo, int hi)
{
	fputc('[', f);
	for (int i = 0; i < rows; i++) {
		fprintf(f, "%s[", i ? "," : "");
		for (int j = 0; j < cols; j++)
			fprintf(f, "%s%d", j ? "," : "", rnd(lo, hi));
		fputc(']', f);
	}
	fputc(']', f);
}

static inline void emit_vector(FILE *f, int n, int lo, int hi)
{
	fputc('[', f);
	for (int j = 0; j < n; j++)
		fprintf(f, "%s%d", j ? "," : "", rnd(lo, hi));
	fputc(']', f);
}

/*
 * Passes of a layer in the compiler's tiling order (row tiles, column
 * tiles, K), each followed by its acc; the bias and relu ride on the
 * chain's last acc. "deferred": all passes, an alloc of "Z" (a host
 * stage), then the accs, so the passes' results wait in tmp storage.
 */
static inline int emit_layer(FILE *f, int id, const char *a, const char *b, const char *dst,
			      int m, int k, int n, int bias, int relu, int deferred)
{
	int first_id = id;

	for (int i = 0; i < m; i += 4)
		for (int j = 0; j < n; j += 4)
			for (int kk = 0; kk < k; kk += 4, id++) {
				fprintf(f, "%s{\"op\":\"pass\",\"id\":%d,\"a\":{\"buf\":\"%s\",\"r\":%d,\"c\":%d},"
					"\"b\":{\"buf\":\"%s\",\"r\":%d,\"c\":%d}}",
					id ? "," : "", id, a, i, kk, b, kk, j);
				if (deferred)
					continue;
				fprintf(f, ",{\"op\":\"acc\",\"pass\":%d,\"dst\":{\"buf\":\"%s\",\"r\":%d,\"c\":%d}%s%s}",
					id, dst, i, j, kk + 4 >= k && bias ? ",\"bias\":\"b\"" : "",
					kk + 4 >= k && relu ? ",\"relu\":true" : "");
			}
	if (!deferred)
		return id;
	/* The passes ran in a stage of their own; their accs come later. */
	fprintf(f, ",{\"op\":\"alloc\",\"buf\":\"Z\"}");
	id = first_id;
	for (int i = 0; i < m; i += 4)
		for (int j = 0; j < n; j += 4)
			for (int kk = 0; kk < k; kk += 4, id++)
				fprintf(f, ",{\"op\":\"acc\",\"pass\":%d,\"dst\":{\"buf\":\"%s\",\"r\":%d,\"c\":%d}}",
					id, dst, i, j);
	return id;
}

#endif /* ENGINE_PROGS_H */
