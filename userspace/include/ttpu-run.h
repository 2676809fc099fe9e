/* SPDX-License-Identifier: MIT */
/*
 * ttpu-run.h - public API of libttpu-run
 *
 * Load a ttpu program once (from a file, a memory buffer, a json-c object,
 * or a request that carries its inputs too) into a validated, immutable
 * ttpu_program; run it many times, from any number of threads at once,
 * each run starting from the program's original buffer contents. Passes
 * run on an engine: the NpuKit through /dev/npukit, or the software engine.
 *
 * Every function that can fail returns 0 on success or a negative
 * enum ttpu_error_kind value and, when @err is not NULL, fills it.
 *
 * This header is the library's whole interface: libttpu-run.so exports
 * exactly the functions declared here (`make check-exports` checks it).
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

/* What the shared library exports: everything else in it is hidden. */
#if defined(__GNUC__)
#define TTPU_API __attribute__((visibility("default")))
#define TTPU_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TTPU_API
#define TTPU_PRINTF(fmt, args)
#endif

/*
 * The default input-size limit: texts (programs, requests, inputs) above
 * ttpu_text_limit() bytes are refused. The environment variable
 * TTPU_TEXT_MAX or ttpu_text_limit_set() changes it.
 */
#define TTPU_TEXT_MAX ((size_t)1 << 30)

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
TTPU_API const char *ttpu_error_kind_name(enum ttpu_error_kind kind);

/**
 * ttpu_error_set() - report a failure of the caller's own in @err
 * @err: the error to fill, or NULL
 * @kind: the error kind
 * @fmt: printf format of the message
 *
 * For programs that answer in the contract's form, as ttpu-run does for
 * its command line: every field of @err is reset to "unknown" (command
 * -1, ...), then @kind and the formatted message are set.
 *
 * Return: -@kind.
 */
TTPU_API int ttpu_error_set(struct ttpu_error *err, enum ttpu_error_kind kind,
			    const char *fmt, ...) TTPU_PRINTF(3, 4);

/**
 * ttpu_error_sys() - report a failed system call in @err
 * @err: the error to fill, or NULL
 * @errnum: the errno of the failure
 * @fmt: printf format of what failed ("cannot write %s")
 *
 * A SystemError whose message is the formatted text followed by
 * ": strerror(@errnum)", with sys_errno set to @errnum.
 *
 * Return: -TTPU_SYSTEM_ERROR.
 */
TTPU_API int ttpu_error_sys(struct ttpu_error *err, int errnum,
			    const char *fmt, ...) TTPU_PRINTF(3, 4);

/* ---- texts ------------------------------------------------------------- */

/**
 * ttpu_text_limit() - the input-size limit, in bytes
 *
 * TTPU_TEXT_MAX, or the value of the environment variable TTPU_TEXT_MAX
 * ("65536", "64K", "512M", "2G") when it holds a valid size, or the last
 * ttpu_text_limit_set(). Reading stops one byte past it: a longer text is
 * a UsageError, whatever its source.
 */
TTPU_API size_t ttpu_text_limit(void);
/**
 * ttpu_text_limit_set() - change the input-size limit for the process
 * @size: a positive size, as for the environment variable
 * @err: filled on failure, or NULL
 *
 * Return: 0, or -TTPU_USAGE_ERROR for a malformed @size.
 */
TTPU_API int ttpu_text_limit_set(const char *size, struct ttpu_error *err);

/**
 * ttpu_read_fd() - read all of a file descriptor into memory
 * @fd: a file, pipe or terminal, read until its end (not closed)
 * @what: names the source in messages ("stdin", a path)
 * @text: receives the malloc'ed text (not NUL-terminated), to free(3)
 * @len: receives its length in bytes
 * @err: filled on failure, or NULL
 *
 * For callers that read documents themselves, e.g. a request on stdin for
 * ttpu_request_load_buffer(). A text above ttpu_text_limit() is a
 * UsageError, found while reading: never more than one byte past the
 * limit is read.
 *
 * Return: 0, or -TTPU_SYSTEM_ERROR or -TTPU_USAGE_ERROR with *@text NULL.
 */
TTPU_API int ttpu_read_fd(int fd, const char *what, char **text, size_t *len,
			  struct ttpu_error *err);

/**
 * ttpu_read_file() - open @path and read all of it, as ttpu_read_fd() does
 * @path: the file
 * @text: receives the malloc'ed text, to free(3)
 * @len: receives its length in bytes
 * @err: filled on failure, or NULL
 *
 * Return: 0, or a negative error kind with *@text NULL.
 */
TTPU_API int ttpu_read_file(const char *path, char **text, size_t *len,
			    struct ttpu_error *err);

/* ---- programs ---------------------------------------------------------- */

typedef struct ttpu_program ttpu_program;

/**
 * ttpu_program_load_buffer() - load a program from its JSON text
 * @json: the program text (need not be NUL-terminated)
 * @len: its length in bytes, at most ttpu_text_limit()
 * @out: receives the program, to ttpu_program_free()
 * @err: filled on failure (with the line and column in @json), or NULL
 *
 * Loading reads the text, validates the whole program and plans it; the
 * program is then immutable and may be run by any number of threads.
 *
 * Return: 0, or a negative error kind (SchemaError for a malformed
 * program, EstimateMismatch, UsageError, SystemError) with *@out NULL.
 */
TTPU_API int ttpu_program_load_buffer(const char *json, size_t len,
				      ttpu_program **out, struct ttpu_error *err);
/**
 * ttpu_program_load_file() - load a program file, as
 * ttpu_program_load_buffer() does, reading it in chunks while it is
 * parsed: memory follows the program, not its text
 */
TTPU_API int ttpu_program_load_file(const char *path, ttpu_program **out,
				    struct ttpu_error *err);
/**
 * ttpu_program_load_json() - load a program a caller holds as a json-c tree
 * As ttpu_program_load_buffer(); errors carry no line and column.
 */
TTPU_API int ttpu_program_load_json(struct json_object *obj,
				    ttpu_program **out, struct ttpu_error *err);
TTPU_API void ttpu_program_free(ttpu_program *prog);
/**
 * ttpu_program_write_binary() - the program in the compiled form
 * @prog: a loaded program
 * @image: receives the malloc'ed bytes of a .ttpb file, to free(3)
 * @len: receives their length
 * @err: filled on failure, or NULL
 *
 * ttpu_program_load_file() and ttpu_program_load_buffer() take these bytes
 * as they take JSON text, recognised by their magic, and load them without
 * parsing or planning. Documentation/ttpu-binary.rst gives the format.
 *
 * Return: 0, or -TTPU_USAGE_ERROR or -TTPU_SYSTEM_ERROR with *@image NULL.
 */
TTPU_API int ttpu_program_write_binary(const ttpu_program *prog, char **image,
				       size_t *len, struct ttpu_error *err);
/**
 * ttpu_program_write_binary_file() - the program in the compiled form, onto
 * a stream
 * @prog: a loaded program
 * @f: where the file's bytes go, first to last, with no seek (a pipe will do)
 * @err: filled on failure, or NULL
 *
 * The same bytes as ttpu_program_write_binary(), without ever holding them:
 * the program is walked twice, once for the header's checksum and once
 * onto @f, so memory stays the program's own however large its image.
 * What @f still buffers is the caller's to flush and check; on failure
 * part of the file may be written (write to a temporary file and rename it
 * into place to keep a complete file or none).
 *
 * Return: 0, or -TTPU_USAGE_ERROR, or -TTPU_SYSTEM_ERROR when a write to
 * @f failed (its errno in @err).
 */
TTPU_API int ttpu_program_write_binary_file(const ttpu_program *prog, FILE *f,
					    struct ttpu_error *err);

/* Flags of ttpu_program_matmul(). */
#define TTPU_MATMUL_BIAS 0x1u	/* input "bias", i32 [n], added to every row */
#define TTPU_MATMUL_RELU 0x2u	/* then max(x, 0) */

/**
 * ttpu_program_matmul() - build the one-layer program C = A @ B
 * @m: rows of A and C
 * @k: columns of A, rows of B
 * @n: columns of B and C
 * @flags: TTPU_MATMUL_BIAS and/or TTPU_MATMUL_RELU, or 0
 * @out: receives the program, to ttpu_program_free()
 * @err: filled on failure, or NULL
 *
 * The program has inputs "A" (i8 [@m, @k]), "B" (i8 [@k, @n]) and, with
 * TTPU_MATMUL_BIAS, "bias" (i32 [@n]); its output "C" (i32 [@m, @n]) is
 * A @ B, then + bias, then relu, each step range-checked as any program's.
 * Any dimensions: edge tiles are padded by the windows' zero reads. It is
 * tiled as the compiler tiles a layer (output tiles row-major, K
 * innermost, the epilogue on each tile's last acc), carries the estimate
 * of that tiling, and is loaded as ttpu_program_load_buffer() loads text:
 * build it once per shape and run it with many inputs.
 *
 * Return: 0, or a negative error kind (UsageError for a zero dimension,
 * unknown flags or a program too large to hold) with *@out NULL.
 */
TTPU_API int ttpu_program_matmul(size_t m, size_t k, size_t n,
				 unsigned int flags, ttpu_program **out,
				 struct ttpu_error *err);

TTPU_API const char *ttpu_program_name(const ttpu_program *prog);
TTPU_API size_t ttpu_program_command_count(const ttpu_program *prog);
TTPU_API size_t ttpu_program_pass_count(const ttpu_program *prog);
TTPU_API size_t ttpu_program_input_count(const ttpu_program *prog);
TTPU_API const char *ttpu_program_input_name(const ttpu_program *prog,
					     size_t i);
TTPU_API size_t ttpu_program_output_count(const ttpu_program *prog);
TTPU_API const char *ttpu_program_output_name(const ttpu_program *prog,
					      size_t i);

/**
 * ttpu_program_buffer_shape() - shape of a named buffer
 * Returns the rank (1 or 2), or 0 when there is no such buffer. @dims
 * receives rank entries; @is_i8 whether the dtype is i8.
 */
TTPU_API int ttpu_program_buffer_shape(const ttpu_program *prog,
				       const char *name, size_t dims[2],
				       int *is_i8);

/* ---- inputs ------------------------------------------------------------ */

typedef struct ttpu_inputs ttpu_inputs;

TTPU_API ttpu_inputs *ttpu_inputs_new(const ttpu_program *prog);
TTPU_API void ttpu_inputs_free(ttpu_inputs *in);
/** Set input @name from @count row-major values (range-checked). */
TTPU_API int ttpu_inputs_set(ttpu_inputs *in, const char *name,
			     const int32_t *values, size_t count,
			     struct ttpu_error *err);
/** Set inputs from a JSON object text { NAME: nested lists, ... }. */
TTPU_API int ttpu_inputs_parse(ttpu_inputs *in, const char *json, size_t len,
			       struct ttpu_error *err);
TTPU_API int ttpu_inputs_load_file(ttpu_inputs *in, const char *path,
				   struct ttpu_error *err);

/* ---- requests ---------------------------------------------------------- */

/**
 * ttpu_request_load_buffer() - load a request: a program and its inputs
 * @json: the request text {"program": {...}, "inputs": {NAME: values}}
 *	(keys in either order), as the executor protocol sends it
 * @len: its length in bytes
 * @prog: receives the loaded program, to ttpu_program_free()
 * @inputs: receives its inputs, to ttpu_inputs_free() (before @prog)
 * @err: filled on failure, or NULL
 *
 * The program is loaded as ttpu_program_load_buffer() loads it, the inputs
 * are checked as ttpu_inputs_parse() checks them, and every input of the
 * program must be given: a missing one is an InputError. Errors carry the
 * line and column in @json.
 *
 * Return: 0, or a negative error kind with *@prog and *@inputs NULL.
 */
TTPU_API int ttpu_request_load_buffer(const char *json, size_t len,
				      ttpu_program **prog,
				      ttpu_inputs **inputs,
				      struct ttpu_error *err);
/**
 * ttpu_request_load_fd() - load a request read from @fd, as
 * ttpu_request_load_buffer() does
 * @fd: a file, pipe or terminal, read to its end in chunks while it is
 *      parsed (not closed): memory follows the program, not the text
 * @what: names the source in messages ("stdin")
 * @prog_out: receives the program
 * @inputs_out: receives its inputs
 * @err: filled on failure, or NULL
 *
 * A text longer than ttpu_text_limit() is a UsageError, found while
 * reading; an empty or blank one a SchemaError "empty request on @what".
 *
 * Return: 0, or a negative error kind with both outputs NULL.
 */
TTPU_API int ttpu_request_load_fd(int fd, const char *what,
				  ttpu_program **prog_out,
				  ttpu_inputs **inputs_out,
				  struct ttpu_error *err);

/* ---- engines ----------------------------------------------------------- */

/*
 * The engines the library has. Values above AUTO are positions in the
 * library's engine table: ttpu_engine_choice_name() enumerates them and
 * ttpu_engine_choice_parse() finds one by name, so a caller needs no
 * list of its own.
 */
enum ttpu_engine_choice {
	TTPU_ENGINE_AUTO = 0,		/* the first engine present, in table order */
	TTPU_ENGINE_NPUKIT = 1,		/* NpuKit, through /dev/npukit0 */
	TTPU_ENGINE_SOFTWARE = 2,	/* the CPU: always present */
};

typedef struct ttpu_engine ttpu_engine;

/**
 * ttpu_engine_choice_name() - the name of an engine choice
 * @choice: TTPU_ENGINE_AUTO, or any value up to the last engine
 *
 * "auto", "npukit", "software", ...: enumerate the choices by calling it
 * with 0, 1, 2, ... until it returns NULL.
 *
 * Return: the name, or NULL past the last engine.
 */
TTPU_API const char *ttpu_engine_choice_name(enum ttpu_engine_choice choice);

/**
 * ttpu_engine_choice_parse() - the engine choice called @name
 * @name: a name ttpu_engine_choice_name() gives ("auto", "software", ...)
 * @choice: receives the choice
 * @err: filled on failure, or NULL
 *
 * Return: 0, or -TTPU_USAGE_ERROR naming every choice when @name is none
 * of them.
 */
TTPU_API int ttpu_engine_choice_parse(const char *name,
				      enum ttpu_engine_choice *choice,
				      struct ttpu_error *err);

/**
 * ttpu_engine_open() - open an engine
 * @choice: an engine, or TTPU_ENGINE_AUTO
 * @device: device node for the NpuKit engine, NULL for /dev/npukit0 (or
 *	/dev/npukit); ignored by the software engine
 * @out: receives the engine, to ttpu_engine_close()
 * @err: filled on failure, or NULL
 *
 * With TTPU_ENGINE_AUTO the first engine present on this machine is
 * opened: the NpuKit when its node exists, else the software engine. A
 * node that exists but cannot be used is a DeviceError, never a silent
 * fall back to the CPU. An engine may be shared by concurrent runs.
 *
 * Return: 0, or a negative error kind with *@out NULL.
 */
TTPU_API int ttpu_engine_open(enum ttpu_engine_choice choice,
			      const char *device, ttpu_engine **out,
			      struct ttpu_error *err);
TTPU_API void ttpu_engine_close(ttpu_engine *eng);
/** "software" or "npukit": ttpu_engine_choice_name() of the engine. */
TTPU_API const char *ttpu_engine_name(const ttpu_engine *eng);
/** Why this engine was chosen, one line. */
TTPU_API const char *ttpu_engine_reason(const ttpu_engine *eng);

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
TTPU_API int ttpu_run(const ttpu_program *prog, ttpu_engine *eng,
		      const ttpu_inputs *in, ttpu_result **out,
		      struct ttpu_error *err);
TTPU_API void ttpu_result_free(ttpu_result *res);

/**
 * ttpu_program_prepare() - derive now what runs of @prog derive from the
 * program alone
 * @prog: a loaded program
 * @eng: the engine its runs will use, or NULL for only what every
 *	engine's runs share
 * @err: filled on failure, or NULL
 *
 * A run keeps with its program what depends on the program alone (the
 * response's passes list, the order of the checked accumulations, the
 * engine's grouping of passes into kicks or its merged dot products), so
 * a program's first run on an engine makes all of it and costs more than
 * the runs after it. After ttpu_program_prepare() the first run costs
 * what the others do: a server calls it once, after loading the program
 * and opening the engine and before its first request (ttpu-run --serve
 * does). No answer, error or byte of a response changes.
 *
 * Idempotent, and safe while other threads run @prog or prepare it: each
 * piece is made once and published atomically, as a first run publishes
 * it (a thread that loses the race frees its own copy). Without it, runs
 * make these themselves, as before.
 *
 * Return: 0, or -TTPU_USAGE_ERROR for a NULL @prog or one not made by the
 * library's loaders, -TTPU_SYSTEM_ERROR when memory runs out (nothing
 * half-made is kept: runs then try again).
 */
TTPU_API int ttpu_program_prepare(const ttpu_program *prog, ttpu_engine *eng,
				  struct ttpu_error *err);

TTPU_API const struct ttpu_run_stats *
ttpu_result_stats(const ttpu_result *res);
/**
 * ttpu_result_output() - the values of output @name after the run
 * Returns a pointer to count row-major int32 values (valid until
 * ttpu_result_free()), or NULL if @name is not an output.
 */
TTPU_API const int32_t *ttpu_result_output(const ttpu_result *res,
					   const char *name, size_t *count);

/**
 * ttpu_result_write_json() - write the contract's response object
 * { "outputs", "passes", "totalCycles", "hostOps", "engine", ... } to @f,
 * streamed. @with_stats adds the "stats" object.
 */
TTPU_API int ttpu_result_write_json(const ttpu_result *res, FILE *f,
				    int with_stats, struct ttpu_error *err);

/*
 * What a response says about the passes. The contract's response lists
 * every pass (TTPU_PASSES_FULL, the default and the only form the
 * protocol defines): on a compiled MLP that is 100,000 records, 2.9 MB a
 * response, which a client on a board pays to receive and parse. A
 * client that needs only the outputs can ask for less.
 */
enum ttpu_passes_form {
	TTPU_PASSES_FULL = 0,	/* "passes": [{"id": ID, "cycles": 15}, ...] */
	TTPU_PASSES_SUMMARY = 1, /* "passes": {"count": N[, "firstId", "lastId"]} */
	TTPU_PASSES_NONE = 2,	/* no "passes" key */
};

/**
 * ttpu_passes_form_name() - "full", "summary" or "none"
 * Return: the name, or NULL for a value that is no form.
 */
TTPU_API const char *ttpu_passes_form_name(enum ttpu_passes_form form);

/**
 * ttpu_passes_form_parse() - the form called @name
 * @name: "full", "summary" or "none"
 * @form: receives the form
 * @err: filled on failure, or NULL
 *
 * Return: 0, or -TTPU_USAGE_ERROR naming every form when @name is none
 * of them.
 */
TTPU_API int ttpu_passes_form_parse(const char *name,
				    enum ttpu_passes_form *form,
				    struct ttpu_error *err);

/**
 * ttpu_result_write_json_passes() - ttpu_result_write_json() with the
 * passes in @form
 *
 * TTPU_PASSES_FULL writes byte for byte what ttpu_result_write_json()
 * writes. TTPU_PASSES_SUMMARY writes "passes" as an object: "count", and
 * when there are passes the first and last ids in execution order.
 * TTPU_PASSES_NONE leaves "passes" out. Every other key is unchanged
 * ("totalCycles" still counts every pass).
 *
 * Return: 0, or a negative error kind (-TTPU_USAGE_ERROR for a @form that
 * is none of the three).
 */
TTPU_API int ttpu_result_write_json_passes(const ttpu_result *res, FILE *f,
					   int with_stats,
					   enum ttpu_passes_form form,
					   struct ttpu_error *err);

/** Write {"error": {...}} for @err to @f. */
TTPU_API int ttpu_error_write_json(const struct ttpu_error *err, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* TTPU_RUN_H */
