// SPDX-License-Identifier: MIT
/*
 * program_binary_write.c - ttpu_program_write_binary(): a loaded program
 * as a compiled .ttpb file (program_binary.h)
 *
 * The whole image is built in memory first, so that the checksum can be
 * stored in the header and a failed write leaves nothing half-described.
 */
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

/* Where each section goes: [offset, offset + count * size). */
static void lay_out(struct ttpb_header *h, const size_t count[TTPB_NSECTIONS],
		    const size_t size[TTPB_NSECTIONS])
{
	size_t off = align8(sizeof(*h));

	for (int s = 0; s < TTPB_NSECTIONS; s++) {
		h->sections[s].offset = off;
		h->sections[s].count = count[s];
		h->sections[s].record_size = (uint32_t)size[s];
		off = align8(off + count[s] * size[s]);
	}
	h->file_size = off;
}

int ttpu_program_write_binary(const ttpu_program *prog, char **image, size_t *len,
			      struct ttpu_error *err)
{
	const struct ttpu_plan *p;
	size_t count[TTPB_NSECTIONS], size[TTPB_NSECTIONS];
	size_t strings = strlen(prog ? prog->name : "") + 1, data = 0;
	struct ttpb_header h;
	char *out;

	ttpu_error_clear(err);
	if (!prog || !image || !len)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_program_write_binary: %s is NULL",
				      !prog ? "prog" : !image ? "image" : "len");
	*image = NULL;
	*len = 0;
	p = prog->plan;
	if (!p)
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "ttpu_program_write_binary: the program has no plan");
	for (size_t i = 0; i < prog->nbuffers; i++) {
		strings += strlen(prog->buffers[i].name) + 1;
		if (prog->buffers[i].init)
			data += align8(prog->buffers[i].count * elem_size(&prog->buffers[i]));
	}
	const size_t counts[TTPB_NSECTIONS] = {
		[TTPB_STRINGS] = strings, [TTPB_BUFFERS] = prog->nbuffers,
		[TTPB_DATA] = data, [TTPB_INPUTS] = prog->ninputs,
		[TTPB_OUTPUTS] = prog->noutputs, [TTPB_COMMANDS] = prog->ncmds,
		[TTPB_PASS_IDS] = prog->npasses, [TTPB_PASS_CMD] = prog->npasses,
		[TTPB_MEASURED] = 1, [TTPB_STAGES] = p->nstages, [TTPB_JOBS] = p->njobs,
		[TTPB_LINKS] = p->nlinks, [TTPB_CHAINS] = p->nchains,
		[TTPB_STEPS] = p->nsteps, [TTPB_DEFERRED] = p->ndeferred,
		[TTPB_TMP_INDEX] = prog->npasses,
	};

	memcpy(count, counts, sizeof(count));
	for (int i = 0; i < TTPB_NSECTIONS; i++)
		size[i] = ttpu_binary_record_sizes[i];
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, TTPB_MAGIC, TTPB_MAGIC_LEN);
	h.version = TTPB_VERSION;
	h.byte_order = TTPB_BYTE_ORDER;
	h.header_size = sizeof(h);
	h.nsections = TTPB_NSECTIONS;
	h.ntmp = p->ntmp;
	h.max_stage_jobs = p->max_stage_jobs;
	lay_out(&h, count, size);
	/* Zeroed: padding and reserved fields are 0, so equal programs give equal files. */
	out = calloc(1, h.file_size);
	if (!out)
		return ttpu_error_nomem(err, "compiling the program");

#define SEC(s) (out + h.sections[s].offset)
	{
		char *str = SEC(TTPB_STRINGS);
		struct ttpb_buffer *bufs = (struct ttpb_buffer *)SEC(TTPB_BUFFERS);
		size_t so = 0, dof = 0;

		h.name = 0;
		so = strlen(prog->name) + 1;
		memcpy(str, prog->name, so);
		for (size_t i = 0; i < prog->nbuffers; i++) {
			const struct ttpu_buffer *b = &prog->buffers[i];
			size_t n = strlen(b->name) + 1;

			bufs[i].name = (uint32_t)so;
			memcpy(str + so, b->name, n);
			so += n;
			bufs[i].dtype = b->dtype;
			bufs[i].kind = b->kind;
			bufs[i].rank = b->rank;
			bufs[i].rows = b->rows;
			bufs[i].cols = b->cols;
			bufs[i].input_index = b->input_index;
			if (b->init) {
				bufs[i].data = dof;
				memcpy(SEC(TTPB_DATA) + dof, b->init, b->count * elem_size(b));
				dof += align8(b->count * elem_size(b));
			}
		}
	}
#define PUT(s, src) memcpy(SEC(s), (src), count[s] * size[s])
	PUT(TTPB_INPUTS, prog->inputs);
	PUT(TTPB_OUTPUTS, prog->outputs);
	PUT(TTPB_COMMANDS, prog->cmds);
	PUT(TTPB_PASS_IDS, prog->pass_ids);
	PUT(TTPB_PASS_CMD, prog->pass_cmd);
	PUT(TTPB_MEASURED, &prog->measured);
	PUT(TTPB_STAGES, p->stages);
	PUT(TTPB_JOBS, p->jobs);
	PUT(TTPB_LINKS, p->links);
	PUT(TTPB_CHAINS, p->chains);
	PUT(TTPB_STEPS, p->steps);
	PUT(TTPB_DEFERRED, p->deferred);
	PUT(TTPB_TMP_INDEX, p->tmp_index);
#undef PUT
#undef SEC
	memcpy(out, &h, sizeof(h));
	h.checksum = ttpu_binary_checksum(out, h.file_size);
	memcpy(out, &h, sizeof(h));
	*image = out;
	*len = h.file_size;
	return 0;
}
