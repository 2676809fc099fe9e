// SPDX-License-Identifier: MIT
/*
 * program.c - a loaded program: what a caller may ask of it, and freeing it
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "program.h"
#include "program_binary.h"
#include "program_names.h"

void ttpu_program_free(ttpu_program *prog)
{
	size_t i;

	if (!prog)
		return;
	ttpu_passes_text_put(prog->passes_text);
	ttpu_npukit_groups_free(prog->npukit_groups);
	ttpu_replay_table_free(prog->replay_table);
	ttpu_sw_walks_free(prog->sw_walks);
	if (prog->image) {
		ttpu_binary_free(prog);
		return;
	}
	ttpu_plan_free(prog->plan);
	for (i = 0; i < prog->nbuffers; i++) {
		free(prog->buffers[i].name);
		free(prog->buffers[i].init);
	}
	free(prog->buffers);
	free(prog->name);
	free(prog->inputs);
	free(prog->outputs);
	free(prog->cmds);
	free(prog->pass_ids);
	free(prog->pass_cmd);
	ttpu_names_free(prog->names);
	free(prog);
}

const char *ttpu_program_name(const ttpu_program *prog)
{
	return prog ? prog->name : NULL;
}

size_t ttpu_program_command_count(const ttpu_program *prog)
{
	return prog ? prog->ncmds : 0;
}

size_t ttpu_program_pass_count(const ttpu_program *prog)
{
	return prog ? prog->npasses : 0;
}

size_t ttpu_program_input_count(const ttpu_program *prog)
{
	return prog ? prog->ninputs : 0;
}

const char *ttpu_program_input_name(const ttpu_program *prog, size_t i)
{
	if (!prog || i >= prog->ninputs)
		return NULL;
	return prog->buffers[prog->inputs[i]].name;
}

size_t ttpu_program_output_count(const ttpu_program *prog)
{
	return prog ? prog->noutputs : 0;
}

const char *ttpu_program_output_name(const ttpu_program *prog, size_t i)
{
	if (!prog || i >= prog->noutputs)
		return NULL;
	return prog->buffers[prog->outputs[i]].name;
}

int ttpu_program_buffer_shape(const ttpu_program *prog, const char *name,
			      size_t dims[2], int *is_i8)
{
	const struct ttpu_buffer *b;
	uint32_t i = ttpu_program_find_buffer(prog, name);

	if (i == TTPU_NO_BUFFER)
		return 0;
	b = &prog->buffers[i];
	if (dims) {
		dims[0] = b->rank == 1 ? b->cols : b->rows;
		dims[1] = b->rank == 1 ? 0 : b->cols;
	}
	if (is_i8)
		*is_i8 = b->dtype == TTPU_DTYPE_I8;
	return b->rank;
}

uint32_t ttpu_program_find_buffer(const struct ttpu_program *prog,
				  const char *name)
{
	uint32_t id;

	if (!prog || !name)
		return TTPU_NO_BUFFER;
	id = ttpu_names_find(prog->names, name, strlen(name));
	return id < prog->nbuffers ? id : TTPU_NO_BUFFER;
}

const char *ttpu_buffer_shape_str(const struct ttpu_buffer *b, char *s, size_t n)
{
	if (b->rank == 1)
		snprintf(s, n, "[%u]", b->cols);
	else
		snprintf(s, n, "[%u, %u]", b->rows, b->cols);
	return s;
}

bool ttpu_buffer_same_shape(const struct ttpu_buffer *a, const struct ttpu_buffer *b)
{
	return a->rank == b->rank && a->rows == b->rows && a->cols == b->cols;
}

const struct ttpu_buffer *ttpu_add_result_shape(const struct ttpu_buffer *a,
						const struct ttpu_buffer *b)
{
	if (ttpu_buffer_same_shape(a, b))
		return a;
	if (a->rank == 1 && b->rank == 2 && a->cols == b->cols)
		return b;
	if (b->rank == 1 && a->rank == 2 && b->cols == a->cols)
		return a;
	return NULL;
}
