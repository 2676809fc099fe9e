/* SPDX-License-Identifier: MIT */
/*
 * load.h - the streaming loader: programs, requests, files
 *
 * The first part is for the CLI; the rest is shared by load.c (streaming,
 * one element at a time, into a pending form) and validate.c (the checks
 * that need the whole document, and the final struct ttpu_program).
 */
#ifndef TTPU_LOAD_H
#define TTPU_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json_stream.h"
#include "names.h"
#include "program.h"

/* Texts above this size are refused before they are read. */
#define TTPU_TEXT_MAX ((size_t)1 << 30)
/* All buffers of a program together: enough for any board-sized model. */
#define TTPU_MAX_TOTAL_ELEMENTS ((uint64_t)1 << 28)

/*
 * Read all of @fd (a file, pipe or terminal) into a malloc'ed buffer.
 * @what names the source in messages ("stdin", a path).
 */
int ttpu_read_fd(int fd, const char *what, char **text, size_t *len,
		 struct ttpu_error *err);
/* Open @path and read all of it, as ttpu_read_fd() does. */
int ttpu_read_file(const char *path, char **text, size_t *len,
		   struct ttpu_error *err);

/*
 * Parse a whole request text {"program": ..., "inputs": {...}} (keys in
 * any order, both streamed) into a loaded program and its inputs. Every
 * input must be supplied: a missing one is an InputError. On failure
 * both outputs are NULL.
 */
int ttpu_request_parse(const char *text, size_t len, ttpu_program **prog,
		       ttpu_inputs **inputs, struct ttpu_error *err);

/* ---- internal to load.c / validate.c --------------------------------- */

struct ttpu_pending_buffer {
	uint32_t name;			/* intern id */
	size_t offset;			/* of its definition in the text */
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
	size_t inputs_offset, outputs_offset;
	size_t cmds_cap, passes_cap;
	size_t cmd_offset_cap;		/* follows cmds_cap */
	size_t pass_aux_cap;		/* pass_cmd, consumer: follow passes_cap */
	uint32_t *cmd_offset;		/* by command: offset in the text */
	uint32_t *consumer;		/* by pass slot: the acc, or UINT32_MAX */
	struct ttpu_pass_map *pass_map;	/* pass id -> slot */
	unsigned int seen;		/* top-level keys met, bit per key */
	bool has_estimate;
	struct ttpu_estimate estimate;
	size_t estimate_offset;
};

/* validate.c: everything that needs the whole program; fills L->prog. */
int ttpu_loader_finish(struct ttpu_loader *L);

#endif /* TTPU_LOAD_H */
