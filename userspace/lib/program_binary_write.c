// SPDX-License-Identifier: MIT
/*
 * program_binary_write.c - a loaded program as a compiled .ttpb file
 * (program_binary.h): ttpu_program_write_binary() into memory,
 * ttpu_program_write_binary_file() onto a stream
 *
 * The image is never needed whole: write_image() walks it from the first
 * byte to the last and hands each piece to a sink. The header stores the
 * checksum of everything, so a stream is walked twice, once into the
 * checksum and once onto the stream with the header complete: no seek
 * (a pipe will do), and no memory beyond the program's own. A 10^6-pass
 * program's 120 MB image beside the 140 MB program would not fit in a
 * board's 256 MB; its two walks cost less than loading it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "plan.h"
#include "program_binary.h"

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t elem_size(const struct ttpu_buffer *b)
{
	return b->dtype == TTPU_DTYPE_I8 ? 1 : 4;
}

/* Where the image's bytes go, in order: any of a checksum, a stream, memory. */
struct sink {
	struct ttpu_binary_csum *csum;
	FILE *f;
	char *mem;
	uint64_t pos;			/* bytes put so far */
	bool failed;			/* a write to f failed: nothing more goes there */
};

static void put(struct sink *s, const void *p, size_t n)
{
	if (s->csum)
		ttpu_binary_csum_feed(s->csum, p, n);
	if (s->f && !s->failed && n && fwrite(p, 1, n, s->f) != n)
		s->failed = true;
	if (s->mem && n)
		memcpy(s->mem + s->pos, p, n);
	s->pos += n;
}

/* Zeros up to offset @to: padding, so that equal programs give equal files. */
static void pad_to(struct sink *s, uint64_t to)
{
	static const char zeros[64];

	while (s->pos < to) {
		size_t n = to - s->pos < sizeof(zeros) ? (size_t)(to - s->pos) : sizeof(zeros);

		put(s, zeros, n);
	}
}

/* Where each section goes: [offset, offset + count * size). */
static void lay_out(struct ttpb_header *h, const size_t count[TTPB_NSECTIONS])
{
	size_t off = align8(sizeof(*h));

	for (int s = 0; s < TTPB_NSECTIONS; s++) {
		size_t size = ttpu_binary_record_sizes[s];

		h->sections[s].offset = off;
		h->sections[s].count = count[s];
		h->sections[s].record_size = (uint32_t)size;
		off = align8(off + count[s] * size);
	}
	h->file_size = off;
}

/* The header of @prog's image, its checksum 0. */
static int make_header(const ttpu_program *prog, struct ttpb_header *h,
		       struct ttpu_error *err)
{
	const struct ttpu_plan *p = prog->plan;
	size_t strings = strlen(prog->name) + 1, data = 0;

	if (!p)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_program_write_binary: the program has no plan");
	for (size_t i = 0; i < prog->nbuffers; i++) {
		strings += strlen(prog->buffers[i].name) + 1;
		if (prog->buffers[i].init)
			data += align8(prog->buffers[i].count * elem_size(&prog->buffers[i]));
	}
	const size_t count[TTPB_NSECTIONS] = {
		[TTPB_STRINGS] = strings, [TTPB_BUFFERS] = prog->nbuffers,
		[TTPB_DATA] = data, [TTPB_INPUTS] = prog->ninputs,
		[TTPB_OUTPUTS] = prog->noutputs, [TTPB_COMMANDS] = prog->ncmds,
		[TTPB_PASS_IDS] = prog->npasses, [TTPB_PASS_CMD] = prog->npasses,
		[TTPB_MEASURED] = 1, [TTPB_STAGES] = p->nstages, [TTPB_JOBS] = p->njobs,
		[TTPB_LINKS] = p->nlinks, [TTPB_CHAINS] = p->nchains,
		[TTPB_STEPS] = p->nsteps, [TTPB_DEFERRED] = p->ndeferred,
		[TTPB_TMP_INDEX] = prog->npasses,
	};

	memset(h, 0, sizeof(*h));
	memcpy(h->magic, TTPB_MAGIC, TTPB_MAGIC_LEN);
	h->version = TTPB_VERSION;
	h->byte_order = TTPB_BYTE_ORDER;
	h->header_size = sizeof(*h);
	h->nsections = TTPB_NSECTIONS;
	h->name = 0;
	h->ntmp = p->ntmp;
	h->max_stage_jobs = p->max_stage_jobs;
	lay_out(h, count);
	return 0;
}

/* The buffer table's record of @b: its name at @name in STRINGS, its data at @data. */
static void put_buffer(struct sink *s, const struct ttpu_buffer *b, size_t name,
		       size_t data)
{
	struct ttpb_buffer r;

	/* Zeroed whole: reserved bytes and the hole before .data are 0. */
	memset(&r, 0, sizeof(r));
	r.name = (uint32_t)name;
	r.dtype = b->dtype;
	r.kind = b->kind;
	r.rank = b->rank;
	r.rows = b->rows;
	r.cols = b->cols;
	r.input_index = b->input_index;
	r.data = b->init ? data : 0;
	put(s, &r, sizeof(r));
}

/* Every byte of @prog's image with header @h, in file order, into @s. */
static void write_image(const ttpu_program *prog, const struct ttpb_header *h,
			struct sink *s)
{
	const struct ttpu_plan *p = prog->plan;
	const void *raw[TTPB_NSECTIONS] = {
		[TTPB_INPUTS] = prog->inputs, [TTPB_OUTPUTS] = prog->outputs,
		[TTPB_COMMANDS] = prog->cmds, [TTPB_PASS_IDS] = prog->pass_ids,
		[TTPB_PASS_CMD] = prog->pass_cmd, [TTPB_MEASURED] = &prog->measured,
		[TTPB_STAGES] = p->stages, [TTPB_JOBS] = p->jobs, [TTPB_LINKS] = p->links,
		[TTPB_CHAINS] = p->chains, [TTPB_STEPS] = p->steps,
		[TTPB_DEFERRED] = p->deferred, [TTPB_TMP_INDEX] = p->tmp_index,
	};
	size_t name = strlen(prog->name) + 1, data = 0;

	put(s, h, sizeof(*h));
	for (int sec = 0; sec < TTPB_NSECTIONS; sec++) {
		const struct ttpb_section *x = &h->sections[sec];

		pad_to(s, x->offset);
		switch (sec) {
		case TTPB_STRINGS:
			put(s, prog->name, strlen(prog->name) + 1);
			for (size_t i = 0; i < prog->nbuffers; i++)
				put(s, prog->buffers[i].name, strlen(prog->buffers[i].name) + 1);
			break;
		case TTPB_BUFFERS:
			for (size_t i = 0; i < prog->nbuffers; i++) {
				const struct ttpu_buffer *b = &prog->buffers[i];

				put_buffer(s, b, name, data);
				name += strlen(b->name) + 1;
				if (b->init)
					data += align8(b->count * elem_size(b));
			}
			break;
		case TTPB_DATA:
			for (size_t i = 0; i < prog->nbuffers; i++) {
				const struct ttpu_buffer *b = &prog->buffers[i];

				if (!b->init)
					continue;
				put(s, b->init, b->count * elem_size(b));
				pad_to(s, align8(s->pos));
			}
			break;
		default:
			put(s, raw[sec], x->count * x->record_size);
			break;
		}
	}
	pad_to(s, h->file_size);
}

int ttpu_program_write_binary(const ttpu_program *prog, char **image, size_t *len,
			      struct ttpu_error *err)
{
	struct ttpu_binary_csum csum = { 0 };
	struct sink s = { .csum = &csum };
	struct ttpb_header h;
	int ret;

	ttpu_error_clear(err);
	if (!prog || !image || !len)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_program_write_binary: %s is NULL",
				      !prog ? "prog" : !image ? "image" : "len");
	*image = NULL;
	*len = 0;
	ret = make_header(prog, &h, err);
	if (ret)
		return ret;
	s.mem = malloc(h.file_size);
	if (!s.mem)
		return ttpu_error_nomem(err, "compiling the program");
	write_image(prog, &h, &s);
	h.checksum = ttpu_binary_csum_end(&csum);
	memcpy(s.mem, &h, sizeof(h));
	*image = s.mem;
	*len = h.file_size;
	return 0;
}

int ttpu_program_write_binary_file(const ttpu_program *prog, FILE *f,
				   struct ttpu_error *err)
{
	struct ttpu_binary_csum csum = { 0 };
	struct sink sum = { .csum = &csum }, out = { .f = f };
	struct ttpb_header h;
	int ret;

	ttpu_error_clear(err);
	if (!prog || !f)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_program_write_binary_file: %s is NULL",
				      !prog ? "prog" : "f");
	ret = make_header(prog, &h, err);
	if (ret)
		return ret;
	write_image(prog, &h, &sum);
	h.checksum = ttpu_binary_csum_end(&csum);
	errno = 0;
	write_image(prog, &h, &out);
	if (out.failed)
		return ttpu_error_sys(err, errno ? errno : EIO, "writing the compiled program");
	return 0;
}
