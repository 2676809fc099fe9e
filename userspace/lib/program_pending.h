/* SPDX-License-Identifier: MIT */
/*
 * program_pending.h - a program while it is loaded: the loader's state
 *
 * What the readers (program_read*.c) fill one element at a time and
 * program_validate.c turns into a struct ttpu_program. Its own header, so
 * that the readers and the validator depend on this state and not on
 * program_load.c, which calls them.
 */
#ifndef TTPU_PROGRAM_PENDING_H
#define TTPU_PROGRAM_PENDING_H

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

#endif /* TTPU_PROGRAM_PENDING_H */
