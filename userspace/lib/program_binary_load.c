// SPDX-License-Identifier: MIT
/*
 * program_binary_load.c - a compiled program (.ttpb) back into a program
 *
 * The image is checked before anything points into it: the header (magic,
 * version, byte order, sizes, checksum), every section where the writer
 * puts it (one after the other, padding 0: no two overlap), the strings,
 * buffers, const data, inputs and outputs as the JSON loader requires
 * them. Then the commands and everything the file stores derived from
 * them (pass slots, measured figures, plan) go to program_binary_check.h:
 * the fast verifier first, and the precise check, which names the first
 * disagreement, if it cannot say yes. A file loads only if it holds
 * exactly what compiling the JSON of its commands would write, so it
 * computes nothing its commands do not say
 * (Documentation/ttpu-binary.rst gives the argument).
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
	return ttpu_binary_error(im->err, "%s", msg);
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

/*
 * Each section where the writer puts it: right after the one before,
 * 8-aligned, the padding between them 0, the last one ending the file. So
 * no two sections overlap and every byte of the file is in one section,
 * the header or a padding byte that is 0.
 */
static int check_layout(struct image *im)
{
	const struct ttpb_header *h = im->h;
	size_t end = sizeof(*h);

	for (int s = 0; s < TTPB_NSECTIONS; s++) {
		const struct ttpb_section *x = &h->sections[s];

		if (x->record_size != ttpu_binary_record_sizes[s])
			return bad(im, "section \"%s\": records of %u bytes, this library's are %u",
				   section_names[s], x->record_size, ttpu_binary_record_sizes[s]);
		if (x->offset != end || x->reserved)
			return bad(im, "section \"%s\" at offset %llu, where the section before it ends at %zu: sections follow each other, none overlaps another",
				   section_names[s], (unsigned long long)x->offset, end);
		if (x->count > (im->len - end) / x->record_size)
			return bad(im, "section \"%s\": %llu records at offset %llu do not fit the %zu-byte file",
				   section_names[s], (unsigned long long)x->count,
				   (unsigned long long)x->offset, im->len);
		end += (size_t)x->count * x->record_size;
		for (; end % 8; end++)
			if (end >= im->len || im->base[end])
				return bad(im, "section \"%s\": the padding after it is not 0 bytes up to an 8-byte boundary",
					   section_names[s]);
	}
	if (end != im->len)
		return bad(im, "the sections end at byte %zu, the file at %zu", end, im->len);
	return 0;
}

static int check_header(struct image *im)
{
	const struct ttpb_header *h = im->h;
	size_t bad_at;
	int ret;

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
	ret = check_layout(im);
	if (ret)
		return ret;
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
	if (h->name)
		return bad(im, "program name at string offset %u, where the strings start with it",
			   h->name);
	return 0;
}

static size_t elem_size(const struct ttpu_buffer *b)
{
	return b->dtype == TTPU_DTYPE_I8 ? 1 : 4;
}

/*
 * The buffers, their names (after the program's, one after the other in
 * buffer order, none empty, none twice) and their const data (one after
 * the other in buffer order, each 8-aligned, the padding 0), as the
 * writer lays them out.
 */
static int check_buffers(struct image *im)
{
	struct ttpu_program *p = im->prog;
	const struct ttpb_buffer *src = sec(im, TTPB_BUFFERS);
	const char *str = sec(im, TTPB_STRINGS), *data = sec(im, TTPB_DATA);
	size_t nstr = count(im, TTPB_STRINGS), ndata = count(im, TTPB_DATA);
	size_t name_at = strlen(str) + 1, data_at = 0;
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
		struct ttpb_buffer want;
		bool created;

		if (s->name != name_at || name_at >= nstr || !str[name_at])
			return bad(im, "buffer %zu: name at string offset %u, where the strings have %s",
				   i, s->name, name_at >= nstr ? "ended" : "its name next, not empty");
		b->name = (char *)str + s->name;
		name_at += strlen(b->name) + 1;
		if (s->dtype > TTPU_DTYPE_I32 || s->kind > TTPU_KIND_TEMP ||
		    s->rank < 1 || s->rank > 2 || !s->rows || !s->cols ||
		    (s->rank == 1 && s->rows != 1) || s->reserved)
			return bad(im, "buffer \"%s\": dtype %u, kind %u, rank %u, %ux%u (reserved %u) is not a buffer",
				   b->name, s->dtype, s->kind, s->rank, s->rows, s->cols, s->reserved);
		b->dtype = s->dtype;
		b->kind = s->kind;
		b->rank = s->rank;
		b->rows = s->rows;
		b->cols = s->cols;
		b->count = (size_t)s->rows * s->cols;
		total += (uint64_t)s->rows * s->cols;
		if (total > TTPU_MAX_TOTAL_ELEMENTS)
			return bad(im, "buffer \"%s\": more than %llu elements in all buffers",
				   b->name, (unsigned long long)TTPU_MAX_TOTAL_ELEMENTS);
		if (ttpu_names_intern(p->names, b->name, strlen(b->name), &created) != i || !created)
			return bad(im, "buffer %zu: name \"%s\" used twice", i, b->name);
		if (s->kind == TTPU_KIND_CONST) {
			size_t bytes = b->count * elem_size(b);

			if (s->data != data_at || bytes > ndata - data_at)
				return bad(im, "buffer \"%s\": data at offset %llu, where the data section has %s",
					   b->name, (unsigned long long)s->data,
					   bytes > ndata - data_at ? "too few bytes left" : "the next buffer's");
			b->init = (char *)data + data_at;
			for (data_at += bytes; data_at % 8; data_at++)
				if (data_at >= ndata || data[data_at])
					return bad(im, "buffer \"%s\": the padding after its data is not 0 bytes up to an 8-byte boundary",
						   b->name);
		} else if (s->data) {
			return bad(im, "buffer \"%s\": data at offset %llu, but only const buffers carry data",
				   b->name, (unsigned long long)s->data);
		}
		b->input_index = s->input_index;
		memset(&want, 0, sizeof(want));
		want.name = s->name;
		want.dtype = s->dtype;
		want.kind = s->kind;
		want.rank = s->rank;
		want.rows = s->rows;
		want.cols = s->cols;
		want.input_index = s->input_index;
		want.data = s->data;
		if (memcmp(&want, s, sizeof(want)))
			return bad(im, "buffer \"%s\": padding bytes that are not 0", b->name);
		if (s->kind == TTPU_KIND_INPUT ?
		    (s->input_index < 0 || (size_t)s->input_index >= p->ninputs ||
		     p->inputs[s->input_index] != i) : s->input_index != -1)
			return bad(im, "buffer \"%s\": input index %d does not match the inputs",
				   b->name, s->input_index);
	}
	if (name_at != nstr)
		return bad(im, "the strings section holds %zu bytes after the names", nstr - name_at);
	if (data_at != ndata)
		return bad(im, "the data section holds %zu bytes after the const data", ndata - data_at);
	return 0;
}

/* A list entry's error as the JSON loader gives it, in "compiled program: ...". */
static int list_bad(struct image *im, const char *what, size_t i, const char *name,
		    const char *msg)
{
	int ret = bad(im, "%s[%zu]: \"%s\" %s", what, i, name, msg);
	char field[32];

	snprintf(field, sizeof(field), "%s[%zu]", what, i);
	ttpu_error_at_field(im->err, field);
	ttpu_error_at_buffer(im->err, name);
	return ret;
}

/*
 * Inputs: input buffers, each listed once (every input buffer is, its
 * input index says where); outputs: buffers, none listed twice. As the
 * JSON loader requires, with its messages.
 */
static int check_lists(struct image *im)
{
	struct ttpu_program *p = im->prog;
	bool *is_output;

	for (size_t i = 0; i < p->ninputs; i++) {
		const struct ttpu_buffer *b;

		if (p->inputs[i] >= p->nbuffers)
			return bad(im, "inputs[%zu] is buffer %u, of %zu", i, p->inputs[i],
				   p->nbuffers);
		b = &p->buffers[p->inputs[i]];
		if (b->kind != TTPU_KIND_INPUT)
			return list_bad(im, "inputs", i, b->name, b->kind == TTPU_KIND_CONST ?
					"is a const buffer, not an input" :
					"is a temp buffer, not an input");
		if ((size_t)b->input_index != i)
			return list_bad(im, "inputs", i, b->name, "is listed twice");
	}
	is_output = calloc(p->nbuffers + 1, sizeof(*is_output));
	if (!is_output)
		return ttpu_error_nomem(im->err, "loading a compiled program");
	for (size_t i = 0; i < p->noutputs; i++) {
		uint32_t b = p->outputs[i];

		if (b >= p->nbuffers || is_output[b]) {
			free(is_output);
			if (b >= p->nbuffers)
				return bad(im, "outputs[%zu] is buffer %u, of %zu", i, b, p->nbuffers);
			return list_bad(im, "outputs", i, p->buffers[b].name, "is listed twice");
		}
		is_output[b] = true;
	}
	free(is_output);
	return 0;
}

/*
 * The commands, pass sections, measured figures and plan, pointing into
 * the image, and checked against each other (program_binary_check.h).
 */
static int check_program(struct image *im)
{
	struct ttpu_program *p = im->prog;
	struct ttpu_plan *pl = calloc(1, sizeof(*pl));

	if (!pl)
		return ttpu_error_nomem(im->err, "loading a compiled program");
	p->cmds = sec(im, TTPB_COMMANDS);
	p->ncmds = count(im, TTPB_COMMANDS);
	p->pass_ids = sec(im, TTPB_PASS_IDS);
	p->pass_cmd = sec(im, TTPB_PASS_CMD);
	p->npasses = count(im, TTPB_PASS_IDS);
	memcpy(&p->measured, sec(im, TTPB_MEASURED), sizeof(p->measured));
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
	/* before they narrow to a 32-bit size_t: a plan has no more of either */
	if (im->h->ntmp > p->npasses || im->h->max_stage_jobs > pl->njobs)
		return bad(im, "plan: %llu tmp tiles and a largest stage of %llu jobs stated, for %zu passes and %zu jobs",
			   (unsigned long long)im->h->ntmp,
			   (unsigned long long)im->h->max_stage_jobs, p->npasses, pl->njobs);
	/* the one measured figure the commands do not make: the JSON's is an int64 */
	if (p->measured.passes_skipped > INT64_MAX)
		return bad(im, "measured.passes_skipped is %llu, beyond the int64 range",
			   (unsigned long long)p->measured.passes_skipped);
	pl->ntmp = im->h->ntmp;
	pl->max_stage_jobs = im->h->max_stage_jobs;
	if (ttpu_binary_verify_mode != TTPU_VERIFY_PRECISE && ttpu_binary_verify_fast(p))
		return 0;
	if (ttpu_binary_verify_mode == TTPU_VERIFY_FAST_ONLY)
		return bad(im, "the fast check cannot tell");
	return ttpu_binary_check_precise(p, im->err);
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
		ret = check_lists(&im);
	if (!ret)
		ret = check_program(&im);
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
