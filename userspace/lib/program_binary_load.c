// SPDX-License-Identifier: MIT
/*
 * program_binary_load.c - a compiled program (.ttpb) back into a program
 *
 * The image is checked before anything points into it: the header (magic,
 * version, byte order, sizes, checksum), every section's place and record
 * size, and then every index the runner, the engines and the response
 * follow (buffers, windows, slots, commands, stages, jobs, links, chains,
 * steps, tmp slots), so that a corrupt or hostile file is a SchemaError
 * saying what is wrong and never a read outside the image or a buffer.
 * The plan is checked, not rebuilt: loading costs one pass over the image.
 * Commands and plan go through the fast verifier first
 * (program_binary_fast.c); only if it says no are they walked record by
 * record here, through program_binary_check.c, to name the first wrong one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "plan.h"
#include "program_binary.h"
#include "program_binary_check.h"
#include "program_load.h"
#include "program_names.h"
#include "text_utf8.h"

static const char *const section_names[TTPB_NSECTIONS] = {
	"strings", "buffers", "data", "inputs", "outputs", "commands", "pass ids",
	"pass commands", "measured", "stages", "jobs", "links", "chains", "steps",
	"deferred", "tmp index",
};


struct image {
	char *base;
	size_t len;
	const struct ttpb_header *h;
	struct ttpu_program *prog;
	struct ttpu_error *err;
};

__attribute__((format(printf, 2, 3)))
static int bad(struct image *im, const char *fmt, ...)
{
	char msg[TTPU_ERROR_MESSAGE_MAX - 32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ttpu_error_set(im->err, TTPU_SCHEMA_ERROR, "compiled program: %s", msg);
}

static void *sec(const struct image *im, int s)
{
	return im->base + im->h->sections[s].offset;
}

static size_t count(const struct image *im, int s)
{
	return (size_t)im->h->sections[s].count;
}

static uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
}

static int check_header(struct image *im)
{
	const struct ttpb_header *h = im->h;
	size_t bad_at;

	if (im->len < sizeof(*h))
		return bad(im, "truncated: %zu bytes, shorter than the %zu-byte header",
			   im->len, sizeof(*h));
	if (!ttpu_binary_has_magic(h->magic, sizeof(h->magic)))
		return bad(im, "no TTPB magic at the start");
	if (h->byte_order == bswap32(TTPB_BYTE_ORDER))
		return bad(im, "written on a machine of the other byte order; compile it again here");
	if (h->byte_order != TTPB_BYTE_ORDER)
		return bad(im, "byte-order mark %#x is neither order of %#x",
			   h->byte_order, TTPB_BYTE_ORDER);
	if (h->version != TTPB_VERSION)
		return bad(im, "format version %u, this library reads version %u",
			   h->version, TTPB_VERSION);
	if (h->header_size != sizeof(*h) || h->nsections != TTPB_NSECTIONS)
		return bad(im, "header of %u bytes with %u sections, this library's has %zu and %d",
			   h->header_size, h->nsections, sizeof(*h), TTPB_NSECTIONS);
	if (h->file_size != im->len)
		return bad(im, "%s: %zu bytes, the header says %llu",
			   im->len < h->file_size ? "truncated" : "trailing bytes",
			   im->len, (unsigned long long)h->file_size);
	if (ttpu_binary_checksum(im->base, im->len) != h->checksum)
		return bad(im, "checksum mismatch: the file is corrupt");
	for (int s = 0; s < TTPB_NSECTIONS; s++) {
		const struct ttpb_section *x = &h->sections[s];

		if (x->record_size != ttpu_binary_record_sizes[s])
			return bad(im, "section \"%s\": records of %u bytes, this library's are %u",
				   section_names[s], x->record_size, ttpu_binary_record_sizes[s]);
		if (x->offset % 8 || x->offset < sizeof(*h) || x->offset > im->len ||
		    x->count > (im->len - x->offset) / x->record_size || x->reserved)
			return bad(im, "section \"%s\": %llu records at offset %llu do not fit the %zu-byte file",
				   section_names[s], (unsigned long long)x->count,
				   (unsigned long long)x->offset, im->len);
	}
	if (count(im, TTPB_MEASURED) != 1 || count(im, TTPB_PASS_CMD) != count(im, TTPB_PASS_IDS) ||
	    count(im, TTPB_TMP_INDEX) != count(im, TTPB_PASS_IDS))
		return bad(im, "sections \"measured\", \"pass ids\", \"pass commands\" and \"tmp index\" disagree on their counts");
	if (!count(im, TTPB_STRINGS) || ((char *)sec(im, TTPB_STRINGS))[count(im, TTPB_STRINGS) - 1])
		return bad(im, "the strings section does not end with a NUL");
	/* names are echoed in responses: valid UTF-8, as the JSON loader requires */
	if (ttpu_utf8_check(sec(im, TTPB_STRINGS), count(im, TTPB_STRINGS), &bad_at))
		return bad(im, "the strings section is not valid UTF-8 (byte %zu)", bad_at);
	if (h->reserved)
		return bad(im, "reserved header field is %u, not 0", h->reserved);
	if (h->name >= count(im, TTPB_STRINGS))
		return bad(im, "program name at string offset %u, outside the strings", h->name);
	if (h->ntmp > count(im, TTPB_PASS_IDS))
		return bad(im, "%llu tmp tiles for %zu passes", (unsigned long long)h->ntmp,
			   count(im, TTPB_PASS_IDS));
	return 0;
}

static size_t elem_size(const struct ttpu_buffer *b)
{
	return b->dtype == TTPU_DTYPE_I8 ? 1 : 4;
}

static int check_buffers(struct image *im)
{
	struct ttpu_program *p = im->prog;
	const struct ttpb_buffer *src = sec(im, TTPB_BUFFERS);
	const char *str = sec(im, TTPB_STRINGS);
	uint64_t total = 0;

	p->nbuffers = count(im, TTPB_BUFFERS);
	p->ninputs = count(im, TTPB_INPUTS);
	p->noutputs = count(im, TTPB_OUTPUTS);
	p->inputs = sec(im, TTPB_INPUTS);
	p->outputs = sec(im, TTPB_OUTPUTS);
	p->buffers = calloc(p->nbuffers + 1, sizeof(*p->buffers));
	p->names = ttpu_names_new();
	if (!p->buffers || !p->names)
		return ttpu_error_nomem(im->err, "loading a compiled program");
	for (size_t i = 0; i < p->nbuffers; i++) {
		const struct ttpb_buffer *s = &src[i];
		struct ttpu_buffer *b = &p->buffers[i];
		bool created;

		if (s->name >= count(im, TTPB_STRINGS))
			return bad(im, "buffer %zu: name at string offset %u, outside the strings",
				   i, s->name);
		b->name = (char *)str + s->name;
		if (s->dtype > TTPU_DTYPE_I32 || s->kind > TTPU_KIND_TEMP ||
		    s->rank < 1 || s->rank > 2 || !s->rows || !s->cols ||
		    (s->rank == 1 && s->rows != 1))
			return bad(im, "buffer \"%s\": dtype %u, kind %u, rank %u, %ux%u is not a buffer",
				   b->name, s->dtype, s->kind, s->rank, s->rows, s->cols);
		b->dtype = s->dtype;
		b->kind = s->kind;
		b->rank = s->rank;
		b->rows = s->rows;
		b->cols = s->cols;
		b->count = (size_t)s->rows * s->cols;
		total += b->count;
		if (total > TTPU_MAX_TOTAL_ELEMENTS)
			return bad(im, "buffer \"%s\": more than %llu elements in all buffers",
				   b->name, (unsigned long long)TTPU_MAX_TOTAL_ELEMENTS);
		if (ttpu_names_intern(p->names, b->name, strlen(b->name), &created) != i || !created)
			return bad(im, "buffer %zu: name \"%s\" used twice", i, b->name);
		if (s->kind == TTPU_KIND_CONST) {
			if (s->data % 8 || s->data > count(im, TTPB_DATA) ||
			    b->count * elem_size(b) > count(im, TTPB_DATA) - s->data)
				return bad(im, "buffer \"%s\": data at offset %llu does not fit the data section",
					   b->name, (unsigned long long)s->data);
			b->init = (char *)sec(im, TTPB_DATA) + s->data;
		}
		b->input_index = s->input_index;
		if (s->kind == TTPU_KIND_INPUT ?
		    (s->input_index < 0 || (size_t)s->input_index >= p->ninputs ||
		     p->inputs[s->input_index] != i) : s->input_index != -1)
			return bad(im, "buffer \"%s\": input index %d does not match the inputs",
				   b->name, s->input_index);
	}
	for (size_t i = 0; i < p->ninputs; i++)
		if (p->inputs[i] >= p->nbuffers || p->buffers[p->inputs[i]].kind != TTPU_KIND_INPUT)
			return bad(im, "inputs[%zu] is buffer %u, not an input buffer", i, p->inputs[i]);
	for (size_t i = 0; i < p->noutputs; i++)
		if (p->outputs[i] >= p->nbuffers)
			return bad(im, "outputs[%zu] is buffer %u, of %zu", i, p->outputs[i], p->nbuffers);
	return 0;
}

static int check_commands(struct image *im)
{
	struct ttpu_program *p = im->prog;

	p->cmds = sec(im, TTPB_COMMANDS);
	p->ncmds = count(im, TTPB_COMMANDS);
	p->pass_ids = sec(im, TTPB_PASS_IDS);
	p->pass_cmd = sec(im, TTPB_PASS_CMD);
	p->npasses = count(im, TTPB_PASS_IDS);
	memcpy(&p->measured, sec(im, TTPB_MEASURED), sizeof(p->measured));
	if (ttpu_binary_verify_mode != TTPU_VERIFY_PRECISE && ttpu_binary_commands_fast(p))
		return 0;
	if (ttpu_binary_verify_mode == TTPU_VERIFY_FAST_ONLY)
		return bad(im, "the fast check refused the commands");
	for (size_t s = 0; s < p->npasses; s++)
		if (!ttpu_binary_pass_slot_ok(p, s))
			return bad(im, "pass slot %zu: command %u is not a pass", s, p->pass_cmd[s]);
	for (size_t i = 0; i < p->ncmds; i++)
		if (!ttpu_binary_command_ok(p, &p->cmds[i], i))
			return bad(im, "commands[%zu]: an op, buffer, slot or bias out of range", i);
	return 0;
}

/* The plan's records one by one, naming the first that is wrong. */
static int check_plan_precisely(struct image *im)
{
	const struct ttpu_program *p = im->prog;
	const struct ttpu_plan *pl = p->plan;
	size_t most_jobs = 0;

	for (size_t s = 0; s < p->npasses; s++)
		if (pl->tmp_index[s] != UINT32_MAX && pl->tmp_index[s] >= pl->ntmp)
			return bad(im, "pass slot %zu: tmp tile %u of %zu", s, pl->tmp_index[s], pl->ntmp);
	for (size_t j = 0; j < pl->njobs; j++)
		if (!ttpu_binary_range_ok(pl->jobs[j].first_link, pl->jobs[j].nlinks, pl->nlinks))
			return bad(im, "job %zu: links outside the links section", j);
	for (size_t l = 0; l < pl->nlinks; l++)
		if (!ttpu_binary_i8_buffer(p, pl->links[l].a.buf) ||
		    !ttpu_binary_i8_buffer(p, pl->links[l].b.buf) || pl->links[l].pass_cmd >= p->ncmds)
			return bad(im, "link %zu: an operand or pass out of range", l);
	for (size_t i = 0; i < pl->nstages; i++) {
		const struct ttpu_stage *st = &pl->stages[i];

		if (st->njobs > most_jobs)
			most_jobs = st->njobs;
		if (!ttpu_binary_stage_ok(p, st))
			return bad(im, "stage %zu: a kind, command, job, chain or deferred range out of range", i);
		for (uint32_t k = 0; k < st->nchains; k++) {
			const struct ttpu_chain *ch = &pl->chains[st->first_chain + k];
			bool ok = ttpu_binary_chain_ok(p, st, ch);

			for (uint32_t s = 0; ok && s < ch->nsteps; s++)
				ok = ttpu_binary_step_ok(p, &pl->jobs[ch->job], &pl->steps[ch->first_step + s]);
			if (!ok)
				return bad(im, "stage %zu, chain %u: a job, step, link or bias out of range",
					   i, k);
		}
		for (uint32_t d = 0; d < st->ndeferred; d++)
			if (!ttpu_binary_deferred_ok(p, st, &pl->deferred[st->first_deferred + d]))
				return bad(im, "stage %zu, deferred %u: a job or slot out of range", i, d);
	}
	/* a run allocates by it: it must be what the stages say, not merely above it */
	if (im->h->max_stage_jobs != most_jobs)
		return bad(im, "plan: largest stage of %zu jobs, not the %llu stated",
			   most_jobs, (unsigned long long)im->h->max_stage_jobs);
	return 0;
}

static int check_plan(struct image *im)
{
	struct ttpu_program *p = im->prog;
	struct ttpu_plan *pl = calloc(1, sizeof(*pl));

	if (!pl)
		return ttpu_error_nomem(im->err, "loading a compiled program");
	p->plan = pl;
	pl->stages = sec(im, TTPB_STAGES);
	pl->nstages = count(im, TTPB_STAGES);
	pl->jobs = sec(im, TTPB_JOBS);
	pl->njobs = count(im, TTPB_JOBS);
	pl->links = sec(im, TTPB_LINKS);
	pl->nlinks = count(im, TTPB_LINKS);
	pl->chains = sec(im, TTPB_CHAINS);
	pl->nchains = count(im, TTPB_CHAINS);
	pl->steps = sec(im, TTPB_STEPS);
	pl->nsteps = count(im, TTPB_STEPS);
	pl->deferred = sec(im, TTPB_DEFERRED);
	pl->ndeferred = count(im, TTPB_DEFERRED);
	pl->tmp_index = sec(im, TTPB_TMP_INDEX);
	pl->ntmp = im->h->ntmp;
	/* before it narrows to a 32-bit size_t */
	if (im->h->max_stage_jobs > pl->njobs)
		return bad(im, "plan: largest stage stated as %llu jobs, above the %zu of the plan",
			   (unsigned long long)im->h->max_stage_jobs, pl->njobs);
	pl->max_stage_jobs = im->h->max_stage_jobs;
	if (ttpu_binary_verify_mode != TTPU_VERIFY_PRECISE && ttpu_binary_plan_fast(p))
		return 0;
	if (ttpu_binary_verify_mode == TTPU_VERIFY_FAST_ONLY)
		return bad(im, "the fast check refused the plan");
	return check_plan_precisely(im);
}

int ttpu_binary_load(void *image, size_t len, bool unmap, ttpu_program **out,
		     struct ttpu_error *err)
{
	struct image im = { .base = image, .len = len, .h = image, .err = err };
	int ret;

	*out = NULL;
	im.prog = calloc(1, sizeof(*im.prog));
	if (!im.prog) {
		if (unmap)
			munmap(image, len);
		else
			free(image);
		return ttpu_error_nomem(err, "loading a compiled program");
	}
	im.prog->image = image;
	im.prog->image_len = len;
	im.prog->image_mapped = unmap;
	ret = check_header(&im);
	if (!ret) {
		im.prog->name = im.base + im.h->sections[TTPB_STRINGS].offset + im.h->name;
		ret = check_buffers(&im);
	}
	if (!ret)
		ret = check_commands(&im);
	if (!ret)
		ret = check_plan(&im);
	if (ret) {
		ttpu_binary_free(im.prog);
		return ret;
	}
	*out = im.prog;
	return 0;
}

void ttpu_binary_free(ttpu_program *prog)
{
	free(prog->plan);
	free(prog->buffers);
	ttpu_names_free(prog->names);
	if (prog->image_mapped)
		munmap(prog->image, prog->image_len);
	else
		free(prog->image);
	free(prog);
}

int ttpu_binary_load_copy(const void *data, size_t len, ttpu_program **out,
			  struct ttpu_error *err)
{
	/* malloc's alignment is at least 8: the sections' records are aligned. */
	void *copy = malloc(len ? len : 1);

	*out = NULL;
	if (!copy)
		return ttpu_error_nomem(err, "loading a compiled program");
	memcpy(copy, data, len);
	return ttpu_binary_load(copy, len, false, out, err);
}

int ttpu_binary_try_file(const char *path, ttpu_program **out, struct ttpu_error *err)
{
	char magic[TTPB_MAGIC_LEN];
	struct stat st;
	void *map;
	int fd, e;
	ssize_t n;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;	/* the text reader says why */
	n = pread(fd, magic, sizeof(magic), 0);
	if (n != (ssize_t)sizeof(magic) || !ttpu_binary_has_magic(magic, sizeof(magic)) ||
	    fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return 1;
	}
	if ((uint64_t)st.st_size > TTPU_TEXT_MAX) {
		close(fd);
		return ttpu_error_set(err, TTPU_USAGE_ERROR,
				      "%s: compiled program of %lld bytes is larger than the %zu-byte limit",
				      path, (long long)st.st_size, TTPU_TEXT_MAX);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	e = errno;
	close(fd);
	if (map == MAP_FAILED) {
		ttpu_error_set(err, TTPU_SYSTEM_ERROR, "%s: cannot map: %s", path, strerror(e));
		if (err)
			err->sys_errno = e;
		return -TTPU_SYSTEM_ERROR;
	}
	return ttpu_binary_load(map, (size_t)st.st_size, true, out, err);
}
