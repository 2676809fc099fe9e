/* SPDX-License-Identifier: MIT */
/*
 * binary_oracle.h - what a compiled program that loads must be: exactly
 * the JSON program of the commands it holds (issue 19)
 *
 * program_json() writes a loaded program back as ttpu JSON (its buffers,
 * lists, commands, and its measured figures as the "estimate"), the JSON
 * of the commands a compiled file holds. binary_means_its_commands()
 * takes a file that loaded and requires of that JSON that it loads, that
 * compiling it gives the very bytes of the file (so the file's plan,
 * slots and figures are what the planner makes of its commands), and
 * that both programs answer the same on inputs made from a seed, on the
 * software engine: the same response, or the same error. test_binary and
 * the fuzzer hold every compiled file that loads to it.
 */
#ifndef BINARY_ORACLE_H
#define BINARY_ORACLE_H

#include <inttypes.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "program.h"
#include "program_binary.h"
#include "ttpu-run.h"

/* A JSON string of @s, escaped as json-c escapes it. */
static inline void oracle_put_string(FILE *f, const char *s)
{
	struct json_object *o = json_object_new_string(s);

	fputs(o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE) : "\"\"", f);
	json_object_put(o);
}

static inline void oracle_put_window(FILE *f, const struct ttpu_program *p, const char *key,
				     const struct ttpu_window *w)
{
	fprintf(f, ",\"%s\":{\"buf\":", key);
	oracle_put_string(f, p->buffers[w->buf].name);
	fprintf(f, ",\"r\":%" PRIu32 ",\"c\":%" PRIu32 "}", w->r, w->c);
}

static inline void oracle_put_name(FILE *f, const struct ttpu_program *p, const char *key,
				   uint32_t b)
{
	fprintf(f, ",\"%s\":", key);
	oracle_put_string(f, p->buffers[b].name);
}

static inline void oracle_put_epilogue(FILE *f, const struct ttpu_program *p, uint32_t bias,
				       uint8_t relu)
{
	if (bias != TTPU_NO_BUFFER)
		oracle_put_name(f, p, "bias", bias);
	if (relu)
		fputs(",\"relu\":true", f);
}

static inline void oracle_put_command(FILE *f, const struct ttpu_program *p,
				      const struct ttpu_command *c)
{
	fprintf(f, "{\"op\":\"%s\"", ttpu_op_names[c->op]);
	switch (c->op) {
	case TTPU_OP_ALLOC:
		oracle_put_name(f, p, "buf", c->u.alloc.buf);
		break;
	case TTPU_OP_PASS:
		fprintf(f, ",\"id\":%" PRId64, p->pass_ids[c->u.pass.slot]);
		oracle_put_window(f, p, "a", &c->u.pass.a);
		oracle_put_window(f, p, "b", &c->u.pass.b);
		break;
	case TTPU_OP_ACC:
		fprintf(f, ",\"pass\":%" PRId64, p->pass_ids[c->u.acc.slot]);
		oracle_put_window(f, p, "dst", &c->u.acc.dst);
		oracle_put_epilogue(f, p, c->u.acc.bias, c->relu);
		break;
	case TTPU_OP_EPILOGUE:
		oracle_put_window(f, p, "dst", &c->u.epilogue.dst);
		oracle_put_epilogue(f, p, c->u.epilogue.bias, c->relu);
		break;
	case TTPU_OP_HOST_ADD:
		oracle_put_name(f, p, "dst", c->u.add.dst);
		oracle_put_name(f, p, "a", c->u.add.a);
		oracle_put_name(f, p, "b", c->u.add.b);
		break;
	default:
		oracle_put_name(f, p, "dst", c->u.relu.dst);
		oracle_put_name(f, p, "src", c->u.relu.src);
		break;
	}
	fputc('}', f);
}

static inline void oracle_put_buffer(FILE *f, const struct ttpu_buffer *b)
{
	static const char *const kinds[] = { "input", "const", "temp" };

	oracle_put_string(f, b->name);
	fprintf(f, ":{\"dtype\":\"%s\",\"kind\":\"%s\",\"shape\":",
		b->dtype == TTPU_DTYPE_I8 ? "i8" : "i32", kinds[b->kind]);
	if (b->rank == 1)
		fprintf(f, "[%" PRIu32 "]", b->cols);
	else
		fprintf(f, "[%" PRIu32 ",%" PRIu32 "]", b->rows, b->cols);
	if (b->init) {
		fputs(",\"data\":[", f);
		for (size_t r = 0; r < b->rows; r++) {
			if (b->rank == 2)
				fputs(r ? ",[" : "[", f);
			for (size_t c = 0; c < b->cols; c++) {
				size_t e = r * b->cols + c;
				long v = b->dtype == TTPU_DTYPE_I8 ? ((const int8_t *)b->init)[e] :
					 ((const int32_t *)b->init)[e];

				fprintf(f, "%s%ld", c ? "," : "", v);
			}
			if (b->rank == 2)
				fputc(']', f);
		}
		fputc(']', f);
	}
	fputc('}', f);
}

/* @p as the text of a ttpu JSON program; malloc'd, its length in *@len. */
static inline char *program_json(const struct ttpu_program *p, size_t *len)
{
	static const char *const host[TTPU_OP_COUNT] = {
		[TTPU_OP_ALLOC] = "alloc", [TTPU_OP_ACC] = "acc", [TTPU_OP_EPILOGUE] = "epilogue",
		[TTPU_OP_HOST_ADD] = "host_add", [TTPU_OP_HOST_RELU] = "host_relu",
	};
	const struct ttpu_estimate *m = &p->measured;
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		abort();
	fputs("{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":", f);
	oracle_put_string(f, p->name);
	fputs(",\"buffers\":{", f);
	for (size_t i = 0; i < p->nbuffers; i++) {
		if (i)
			fputc(',', f);
		oracle_put_buffer(f, &p->buffers[i]);
	}
	fputs("},\"inputs\":[", f);
	for (size_t i = 0; i < p->ninputs; i++) {
		fputs(i ? "," : "", f);
		oracle_put_string(f, p->buffers[p->inputs[i]].name);
	}
	fputs("],\"outputs\":[", f);
	for (size_t i = 0; i < p->noutputs; i++) {
		fputs(i ? "," : "", f);
		oracle_put_string(f, p->buffers[p->outputs[i]].name);
	}
	fputs("],\"commands\":[", f);
	for (size_t i = 0; i < p->ncmds; i++) {
		fputs(i ? "," : "", f);
		oracle_put_command(f, p, &p->cmds[i]);
	}
	fprintf(f, "],\"estimate\":{\"passes\":%" PRIu64 ",\"passes_skipped\":%" PRIu64
		",\"cycles_per_pass\":%" PRIu64 ",\"rtl_cycles\":%" PRIu64 ",\"host_ops\":{",
		m->passes, m->passes_skipped, m->cycles_per_pass, m->rtl_cycles);
	for (int op = 0, first = 1; op < TTPU_OP_COUNT; op++) {
		if (!host[op])
			continue;
		fprintf(f, "%s\"%s\":%" PRIu64, first ? "" : ",", host[op], m->host_ops.count[op]);
		first = 0;
	}
	fprintf(f, "},\"useful_macs\":%" PRIu64 ",\"capacity_macs\":%" PRIu64
		",\"utilization\":%.17g}}", m->useful_macs, m->capacity_macs, m->utilization);
	if (fclose(f))
		abort();
	return text;
}

/* Inputs of @p, every element of every input from @seed (a fixed pattern over the i8 range). */
static inline ttpu_inputs *oracle_inputs(const struct ttpu_program *p, unsigned int seed)
{
	ttpu_inputs *in = ttpu_inputs_new(p);
	uint32_t x = seed * 2654435761u + 1;

	if (!in)
		abort();
	for (size_t i = 0; i < p->ninputs; i++) {
		const struct ttpu_buffer *b = &p->buffers[p->inputs[i]];
		int32_t *v = malloc((b->count ? b->count : 1) * sizeof(*v));
		struct ttpu_error err;

		if (!v)
			abort();
		for (size_t e = 0; e < b->count; e++) {
			x = x * 1103515245u + 12345u;
			v[e] = (int32_t)((x >> 16) & 0xff) - 128;
		}
		if (ttpu_inputs_set(in, b->name, v, b->count, &err))
			abort();
		free(v);
	}
	return in;
}

/* @p run on @in on the software engine: the response or the error document; malloc'd. */
static inline char *oracle_outcome(const ttpu_program *p, const ttpu_inputs *in)
{
	struct ttpu_error err;
	ttpu_engine *eng = NULL;
	ttpu_result *res = NULL;
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	if (!f || ttpu_engine_open(TTPU_ENGINE_SOFTWARE, NULL, &eng, &err))
		abort();
	if (ttpu_run(p, eng, in, &res, &err))
		ttpu_error_write_json(&err, f);
	else
		ttpu_result_write_json(res, f, 0, &err);
	fclose(f);
	ttpu_result_free(res);
	ttpu_engine_close(eng);
	return text;
}

/*
 * @prog, loaded from the compiled @image of @len bytes, against the JSON
 * of its commands (above), run on inputs from @seed unless !@run: NULL
 * when they are one program, else what differs (@why, @n bytes).
 */
static inline const char *binary_means_its_commands(const char *image, size_t len,
						    const ttpu_program *prog, unsigned int seed,
						    bool run, char *why, size_t n)
{
	struct ttpu_error err;
	ttpu_program *jprog = NULL;
	ttpu_inputs *in, *jin;
	size_t jlen, blen;
	char *json = program_json(prog, &jlen), *bytes = NULL, *got, *want;
	const char *ret = NULL;

	if (ttpu_program_load_buffer(json, jlen, &jprog, &err)) {
		snprintf(why, n, "the JSON of its commands does not load: %s", err.message);
		free(json);
		return why;
	}
	free(json);
	if (ttpu_program_write_binary(jprog, &bytes, &blen, &err))
		abort();
	if (blen != len || memcmp(bytes, image, len)) {
		size_t at = offsetof(struct ttpb_header, checksum) + 8;

		while (at < len && at < blen && bytes[at] == image[at])
			at++;
		snprintf(why, n, "the JSON of its commands compiles to other bytes (%zu, not %zu; first at %zu)",
			 blen, len, at);
		ret = why;
	}
	free(bytes);
	for (size_t i = 0, total = 0; i < prog->nbuffers && run; i++) {
		/* a run of buffers as large as the loader allows takes too long to check */
		total += prog->buffers[i].count;
		run = total <= ((size_t)1 << 16);
	}
	if (!ret && run) {
		in = oracle_inputs(prog, seed);
		jin = oracle_inputs(jprog, seed);
		got = oracle_outcome(prog, in);
		want = oracle_outcome(jprog, jin);
		if (strcmp(got, want)) {
			snprintf(why, n, "answers %.200s where its JSON answers %.200s", got, want);
			ret = why;
		}
		free(got);
		free(want);
		ttpu_inputs_free(in);
		ttpu_inputs_free(jin);
	}
	ttpu_program_free(jprog);
	return ret;
}

#endif /* BINARY_ORACLE_H */
