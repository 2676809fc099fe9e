/* SPDX-License-Identifier: MIT */
/*
 * ttpu-run.h - public API of libttpu-run
 *
 * Load a ttpu program once (from a file, a memory buffer or a json-c
 * object) into a validated, immutable ttpu_program; run it many times, from
 * any number of threads at once, each run starting from the program's
 * original buffer contents. Passes run on an engine: the NpuKit through
 * /dev/npukit, or the software engine.
 *
 * Every function that can fail returns 0 on success or a negative
 * enum ttpu_error_kind value and, when @err is not NULL, fills it.
 */
#ifndef TTPU_RUN_H
#define TTPU_RUN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TTPU_RUN_VERSION "1.0.0"

struct json_object;

/** Error kinds; the names are the ttpu contract's "kind" strings. */
enum ttpu_error_kind {
	TTPU_OK = 0,
	TTPU_SCHEMA_ERROR = 1,		/* "SchemaError": malformed program */
	TTPU_INPUT_ERROR = 2,		/* "InputError": the caller's inputs */
	TTPU_RANGE_ERROR = 3,		/* "RangeError": a value left its dtype */
	TTPU_ESTIMATE_MISMATCH = 4,	/* "EstimateMismatch" */
	TTPU_DEVICE_ERROR = 5,		/* "DeviceError": accelerator/driver */
	TTPU_USAGE_ERROR = 6,		/* "UsageError": API/CLI misuse */
	TTPU_SYSTEM_ERROR = 7,		/* "SystemError": I/O, out of memory */
};

#define TTPU_ERROR_MESSAGE_MAX 512
#define TTPU_ERROR_NAME_MAX 128

/**
 * struct ttpu_error - what went wrong and where
 * @kind: the error kind
 * @message: one human-readable line that points at the problem
 * @command: index of the command involved, or -1
 * @op: the command's op ("pass", "acc", ...), or ""
 * @field: JSON path of the offending field ("commands[3].a.r"), or ""
 * @buffer: the buffer involved, or ""
 * @element: flat row-major element index in @buffer, or -1
 * @row: element row (0 for rank-1 buffers), or -1
 * @col: element column, or -1
 * @line: 1-based line in the JSON text, or 0 when unknown
 * @column: 1-based column in the JSON text, or 0
 * @sys_errno: errno of a failed system call or ioctl, or 0
 */
struct ttpu_error {
	enum ttpu_error_kind kind;
	char message[TTPU_ERROR_MESSAGE_MAX];
	long command;
	char op[16];
	char field[TTPU_ERROR_NAME_MAX];
	char buffer[TTPU_ERROR_NAME_MAX];
	long element;
	long row;
	long col;
	long line;
	long column;
	int sys_errno;
};

/** The contract name of @kind, e.g. "SchemaError". */
const char *ttpu_error_kind_name(enum ttpu_error_kind kind);

/* ---- programs ---------------------------------------------------------- */

typedef struct ttpu_program ttpu_program;

int ttpu_program_load_file(const char *path, ttpu_program **out,
			   struct ttpu_error *err);
int ttpu_program_load_buffer(const char *json, size_t len, ttpu_program **out,
			     struct ttpu_error *err);
int ttpu_program_load_json(struct json_object *obj, ttpu_program **out,
			   struct ttpu_error *err);
void ttpu_program_free(ttpu_program *prog);

const char *ttpu_program_name(const ttpu_program *prog);
size_t ttpu_program_command_count(const ttpu_program *prog);
size_t ttpu_program_pass_count(const ttpu_program *prog);
size_t ttpu_program_input_count(const ttpu_program *prog);
const char *ttpu_program_input_name(const ttpu_program *prog, size_t i);
size_t ttpu_program_output_count(const ttpu_program *prog);
const char *ttpu_program_output_name(const ttpu_program *prog, size_t i);

/**
 * ttpu_program_buffer_shape() - shape of a named buffer
 * Returns the rank (1 or 2), or 0 when there is no such buffer. @dims
 * receives rank entries; @is_i8 whether the dtype is i8.
 */
int ttpu_program_buffer_shape(const ttpu_program *prog, const char *name,
			      size_t dims[2], int *is_i8);

/* ---- inputs ------------------------------------------------------------ */

typedef struct ttpu_inputs ttpu_inputs;

ttpu_inputs *ttpu_inputs_new(const ttpu_program *prog);
void ttpu_inputs_free(ttpu_inputs *in);
/** Set input @name from @count row-major values (range-checked). */
int ttpu_inputs_set(ttpu_inputs *in, const char *name, const int32_t *values,
		    size_t count, struct ttpu_error *err);
/** Set inputs from a JSON object text { NAME: nested lists, ... }. */
int ttpu_inputs_parse(ttpu_inputs *in, const char *json, size_t len,
		      struct ttpu_error *err);
int ttpu_inputs_load_file(ttpu_inputs *in, const char *path,
			  struct ttpu_error *err);

/* ---- engines ----------------------------------------------------------- */

enum ttpu_engine_choice {
	TTPU_ENGINE_AUTO = 0,		/* NpuKit if its node exists, else software */
	TTPU_ENGINE_NPUKIT = 1,
	TTPU_ENGINE_SOFTWARE = 2,
};

typedef struct ttpu_engine ttpu_engine;

/**
 * ttpu_engine_open() - open an engine
 * @device: device node for the NpuKit engine, NULL for /dev/npukit0 (or
 *	/dev/npukit).
 * With TTPU_ENGINE_AUTO the software engine is chosen only when the node
 * does not exist; any other failure to open the NpuKit is a DeviceError.
 * An engine may be shared by concurrent runs.
 */
int ttpu_engine_open(enum ttpu_engine_choice choice, const char *device,
		     ttpu_engine **out, struct ttpu_error *err);
void ttpu_engine_close(ttpu_engine *eng);
/** "software" or "npukit" */
const char *ttpu_engine_name(const ttpu_engine *eng);
/** Why this engine was chosen, one line. */
const char *ttpu_engine_reason(const ttpu_engine *eng);

/* ---- runs -------------------------------------------------------------- */

typedef struct ttpu_result ttpu_result;

/** Statistics of one run. Times are in nanoseconds of wall clock. */
struct ttpu_run_stats {
	uint64_t passes;
	uint64_t total_cycles;
	uint64_t stages;		/* plan stages executed */
	uint64_t kicks;			/* NpuKit engine: 8x8 kicks */
	uint64_t ioctls;		/* NpuKit engine: SUBMIT ioctls */
	uint64_t mmio_reads;		/* NpuKit engine: device counters */
	uint64_t mmio_writes;
	uint64_t dma_bytes;
	uint64_t device_ns;		/* device time (modelled on the simulator) */
	uint64_t run_ns;		/* wall time of ttpu_run() */
};

/**
 * ttpu_run() - execute @prog once with @in on @eng
 * On failure *@out is NULL: a failed run returns no partial outputs.
 */
int ttpu_run(const ttpu_program *prog, ttpu_engine *eng,
	     const ttpu_inputs *in, ttpu_result **out, struct ttpu_error *err);
void ttpu_result_free(ttpu_result *res);

const struct ttpu_run_stats *ttpu_result_stats(const ttpu_result *res);
/**
 * ttpu_result_output() - the values of output @name after the run
 * Returns a pointer to count row-major int32 values (valid until
 * ttpu_result_free()), or NULL if @name is not an output.
 */
const int32_t *ttpu_result_output(const ttpu_result *res, const char *name,
				  size_t *count);

/**
 * ttpu_result_write_json() - write the contract's response object
 * { "outputs", "passes", "totalCycles", "hostOps", "engine", ... } to @f,
 * streamed. @with_stats adds the "stats" object.
 */
int ttpu_result_write_json(const ttpu_result *res, FILE *f, int with_stats,
			   struct ttpu_error *err);

/** Write {"error": {...}} for @err to @f. */
int ttpu_error_write_json(const struct ttpu_error *err, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* TTPU_RUN_H */
