/* SPDX-License-Identifier: MIT */
/*
 * program_load.h - loading a program: text -> validated program -> plan
 *
 * A loader walks one program object (program_read*.c, streaming, one
 * element at a time into the pending form below), then validates it as a
 * whole (program_validate.c), then builds its plan (plan.c). The public
 * ttpu_program_load_*() and ttpu_request_load_buffer() (request.c) are
 * thin wrappers around ttpu_loader_load().
 */
#ifndef TTPU_PROGRAM_LOAD_H
#define TTPU_PROGRAM_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program.h"
#include "program_names.h"
#include "text_json_stream.h"

/* All buffers of a program together: enough for any board-sized model. */
#define TTPU_MAX_TOTAL_ELEMENTS ((uint64_t)1 << 28)

struct ttpu_pending_buffer {
	uint32_t name;			/* intern id */
	ttpu_js_pos offset;		/* of its definition in the text */
	bool has_dtype, has_shape, has_kind, has_data;
	uint8_t dtype, kind, rank;
	uint64_t dims[2];
	struct ttpu_int_list data;
};

struct ttpu_pass_map;

struct ttpu_loader {
	struct ttpu_jstream *js;
	struct ttpu_error *err;
	struct ttpu_program *prog;	/* name, cmds, pass_ids, pass_cmd */
	struct ttpu_name_index *intern;	/* every name met */
	struct ttpu_pending_buffer *bufs;
	size_t nbufs, bufs_cap;
	uint32_t *buf_of_name;		/* intern id -> bufs index */
	size_t buf_of_name_cap;
	uint64_t total_elements;
	uint32_t *inputs, *outputs;	/* intern ids */
	size_t ninputs, noutputs;
	ttpu_js_pos inputs_offset, outputs_offset;
	size_t cmds_cap, passes_cap;
	size_t cmd_offset_cap;		/* follows cmds_cap */
	size_t pass_aux_cap;		/* pass_cmd, consumer: follow passes_cap */
	ttpu_js_pos *cmd_offset;	/* by command: its place in the text */
	uint32_t *consumer;		/* by pass slot: the acc, or UINT32_MAX */
	struct ttpu_pass_map *pass_map;	/* pass id -> slot */
	unsigned int seen;		/* top-level keys met, bit per key */
	bool has_estimate;
	struct ttpu_estimate estimate;
	ttpu_js_pos estimate_offset;
};

/* Start loading a program from @js. Call ttpu_loader_fini() even on failure. */
int ttpu_loader_init(struct ttpu_loader *L, struct ttpu_jstream *js,
		     struct ttpu_error *err);
/* Free the pending state, and the program too unless @keep_prog. */
void ttpu_loader_fini(struct ttpu_loader *L, bool keep_prog);

/*
 * The program object at the cursor (@path names it in messages: "" for a
 * whole document, "program" in a request): read, validated and planned.
 * L->prog is the loaded program on success.
 */
int ttpu_loader_load(struct ttpu_loader *L, const char *path);

/* program_read.c: stream the program object at the cursor into @L. */
int ttpu_loader_read(struct ttpu_loader *L, const char *path);

/* program_validate.c: everything that needs the whole program; fills L->prog. */
int ttpu_loader_finish(struct ttpu_loader *L);

#endif /* TTPU_PROGRAM_LOAD_H */
