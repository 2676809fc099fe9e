/* SPDX-License-Identifier: MIT */
/*
 * program.h - the compact, validated, immutable form of a ttpu program
 *
 * The loader (program_load.c) produces it, program_validate.c checks it;
 * the planner (plan.c) and the executors only read it. Memory is proportional
 * to the number of commands and buffer elements, never to the JSON text:
 * a command is 32 bytes, a const element 1 (i8) or 4 (i32) bytes.
 */
#ifndef TTPU_PROGRAM_H
#define TTPU_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program_ops.h"
#include "ttpu-run.h"

#define TTPU_TILE 4			/* a pass is a 4x4x4 product */
#define TTPU_TILE_ELEMS (TTPU_TILE * TTPU_TILE)
#define TTPU_CYCLES_PER_PASS 15
#define TTPU_NO_BUFFER UINT32_MAX

enum ttpu_dtype { TTPU_DTYPE_I8 = 0, TTPU_DTYPE_I32 = 1 };
enum ttpu_buffer_kind { TTPU_KIND_INPUT = 0, TTPU_KIND_CONST = 1, TTPU_KIND_TEMP = 2 };

/**
 * struct ttpu_buffer - one buffer
 * Rank-1 buffers have rows == 1 and cols == length. Every dimension is
 * >= 1 and count fits comfortably in memory (the loader caps it).
 * @init holds the const data (int8_t or int32_t by dtype), NULL otherwise.
 */
struct ttpu_buffer {
	char *name;
	uint8_t dtype;			/* enum ttpu_dtype */
	uint8_t kind;			/* enum ttpu_buffer_kind */
	uint8_t rank;			/* 1 or 2 */
	uint32_t rows;
	uint32_t cols;
	size_t count;			/* rows * cols */
	void *init;			/* const data, dtype-sized elements */
	int32_t input_index;		/* position in program inputs, or -1 */
};

/*
 * A window's origin. Coordinates beyond UINT32_MAX are stored as
 * UINT32_MAX: such a window lies wholly outside any buffer either way.
 * Arithmetic on r/c must be done in 64 bits (r + 3 may not fit).
 */
struct ttpu_window {
	uint32_t buf;
	uint32_t r;
	uint32_t c;
};

/**
 * struct ttpu_command - one command, 32 bytes
 * pass:      a, b windows; slot = dense pass index (0 .. npasses-1, in
 *            command order); the JSON id is prog->pass_ids[slot].
 * acc:       slot of the consumed pass, dst window, bias (buffer index or
 *            TTPU_NO_BUFFER), relu.
 * epilogue:  dst window, bias, relu.
 * alloc:     buf.
 * host_add:  dst, a, b (buffer indices).
 * host_relu: dst, src.
 */
struct ttpu_command {
	uint8_t op;			/* enum ttpu_op */
	uint8_t relu;			/* acc, epilogue */
	uint16_t reserved;
	union {
		struct { uint32_t buf; } alloc;
		struct { uint32_t slot; struct ttpu_window a, b; } pass;
		struct { uint32_t slot; struct ttpu_window dst; uint32_t bias; } acc;
		struct { struct ttpu_window dst; uint32_t bias; } epilogue;
		struct { uint32_t dst, a, b; } add;
		struct { uint32_t dst, src; } relu;
	} u;
};

/** Counts per host op kind, indexed by enum ttpu_op (PASS unused). */
struct ttpu_host_ops {
	uint64_t count[TTPU_OP_COUNT];
};

/** What the estimate block says, or what the program measures. */
struct ttpu_estimate {
	uint64_t passes;
	uint64_t passes_skipped;
	uint64_t cycles_per_pass;
	uint64_t rtl_cycles;
	struct ttpu_host_ops host_ops;
	uint64_t useful_macs;
	uint64_t capacity_macs;
	double utilization;
};

struct ttpu_plan;

struct ttpu_program {
	char *name;
	struct ttpu_buffer *buffers;
	size_t nbuffers;
	uint32_t *inputs;		/* buffer indices, in "inputs" order */
	size_t ninputs;
	uint32_t *outputs;		/* buffer indices, in "outputs" order */
	size_t noutputs;
	struct ttpu_command *cmds;
	size_t ncmds;
	int64_t *pass_ids;		/* by pass slot */
	uint32_t *pass_cmd;		/* by pass slot: index of the pass command */
	size_t npasses;
	struct ttpu_estimate measured;	/* from the commands, always */
	struct ttpu_plan *plan;		/* built at load time, immutable */
	struct ttpu_name_index *names;	/* buffer name -> index */
	/*
	 * A compiled program (program_binary.h): the arrays and names point
	 * into this image, which the program owns (mapped, or malloc'ed).
	 */
	void *image;
	size_t image_len;
	bool image_mapped;
	/*
	 * Derived from the program alone, made by ttpu_program_prepare()
	 * (run_prepare.c) or else at its first run, and kept: the response's
	 * "passes" list (response_passes.c) and the NpuKit engine's kick
	 * groups (engine_npukit_groups.c), the host chains' replay table
	 * (run_replay.c), the software engine's K-walks
	 * (engine_software_walks.c)
	 */
	struct ttpu_passes_text *passes_text;
	struct ttpu_npukit_groups *npukit_groups;
	struct ttpu_replay_table *replay_table;
	struct ttpu_sw_walks *sw_walks;
};

/* response_passes.c: drop a reference to a rendered "passes" list (NULL: none). */
void ttpu_passes_text_put(struct ttpu_passes_text *t);
/* engine_npukit_groups.c: free a program's kick groups (NULL: none). */
void ttpu_npukit_groups_free(struct ttpu_npukit_groups *g);
/* run_replay.c: free a program's replay table (NULL: none). */
void ttpu_replay_table_free(struct ttpu_replay_table *t);
/* engine_software_walks.c: free a program's K-walks (NULL: none). */
void ttpu_sw_walks_free(struct ttpu_sw_walks *w);

/* program.c: the index of buffer @name, or TTPU_NO_BUFFER. */
uint32_t ttpu_program_find_buffer(const struct ttpu_program *prog,
				  const char *name);

/* program.c: @b's shape as messages show it, "[N]" or "[R, C]", in @s. */
const char *ttpu_buffer_shape_str(const struct ttpu_buffer *b, char *s, size_t n);

/* program.c: @a and @b have the same rank, rows and columns. */
bool ttpu_buffer_same_shape(const struct ttpu_buffer *a, const struct ttpu_buffer *b);

/*
 * program.c: the shape HOST add of @a and @b gives (@a or @b), or NULL when
 * they do not match. Only a rank-1 operand broadcasts: [1, n] against
 * [m, n] does not. Both loaders judge a .add by it.
 */
const struct ttpu_buffer *ttpu_add_result_shape(const struct ttpu_buffer *a,
						const struct ttpu_buffer *b);

/*
 * program_measure.c: the MACs of pass @c whose A and B elements lie inside
 * their buffers; an estimate's derived figures (cycles, capacity,
 * utilization) from its passes and useful MACs; and what the commands of a
 * validated program measure, with @passes_skipped as the program states it.
 */
uint64_t ttpu_pass_useful_macs(const struct ttpu_program *p, const struct ttpu_command *c);
void ttpu_estimate_complete(struct ttpu_estimate *m);
void ttpu_program_measure(const struct ttpu_program *p, uint64_t passes_skipped,
			  struct ttpu_estimate *m);

static inline int ttpu_dtype_min(uint8_t dtype)
{
	return dtype == TTPU_DTYPE_I8 ? -128 : INT32_MIN;
}

static inline int ttpu_dtype_max(uint8_t dtype)
{
	return dtype == TTPU_DTYPE_I8 ? 127 : INT32_MAX;
}

static inline bool ttpu_fits_dtype(int64_t v, uint8_t dtype)
{
	return v >= ttpu_dtype_min(dtype) && v <= ttpu_dtype_max(dtype);
}

#endif /* TTPU_PROGRAM_H */
