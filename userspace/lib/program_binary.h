/* SPDX-License-Identifier: MIT */
/*
 * program_binary.h - the compiled program file (.ttpb): a validated,
 * planned program laid out so that loading maps it and checks it
 *
 * Documentation/ttpu-binary.rst describes the format for people. In short:
 * a fixed header (magic, format version, byte-order mark, sizes, a
 * checksum of the whole file), then a table of sections,
 * each an array of fixed-size records at an 8-byte-aligned offset. The
 * command and plan sections are the in-memory structs themselves (their
 * record sizes are stated and must match the reader's), so a loaded
 * program points into the mapping; only the buffer table and the name
 * index are built at load time.
 */
#ifndef TTPU_PROGRAM_BINARY_H
#define TTPU_PROGRAM_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program.h"

#define TTPB_MAGIC "TTPB\0\r\n\x1a"	/* 8 bytes; catches text-mode mangling */
#define TTPB_MAGIC_LEN 8
/* 2: the checksum became csum (program_binary.c); version 1 files are refused. */
#define TTPB_VERSION 2
#define TTPB_BYTE_ORDER 0x01020304u	/* as written by the producer */

enum ttpb_section_id {
	TTPB_STRINGS,		/* char: NUL-terminated names */
	TTPB_BUFFERS,		/* struct ttpb_buffer */
	TTPB_DATA,		/* uint8_t: const data, each 8-byte aligned */
	TTPB_INPUTS,		/* uint32_t buffer index */
	TTPB_OUTPUTS,		/* uint32_t buffer index */
	TTPB_COMMANDS,		/* struct ttpu_command */
	TTPB_PASS_IDS,		/* int64_t, by pass slot */
	TTPB_PASS_CMD,		/* uint32_t, by pass slot */
	TTPB_MEASURED,		/* struct ttpu_estimate, exactly one */
	TTPB_STAGES,		/* struct ttpu_stage */
	TTPB_JOBS,		/* struct ttpu_job */
	TTPB_LINKS,		/* struct ttpu_link */
	TTPB_CHAINS,		/* struct ttpu_chain */
	TTPB_STEPS,		/* struct ttpu_step */
	TTPB_DEFERRED,		/* struct ttpu_deferred */
	TTPB_TMP_INDEX,		/* uint32_t, by pass slot */
	TTPB_NSECTIONS
};

struct ttpb_section {
	uint64_t offset;	/* from the start of the file, 8-byte aligned */
	uint64_t count;		/* records */
	uint32_t record_size;	/* bytes per record */
	uint32_t reserved;	/* 0 */
};

struct ttpb_header {
	char magic[TTPB_MAGIC_LEN];
	uint32_t version;	/* TTPB_VERSION */
	uint32_t byte_order;	/* TTPB_BYTE_ORDER in the producer's order */
	uint32_t header_size;	/* sizeof(struct ttpb_header) */
	uint32_t nsections;	/* TTPB_NSECTIONS */
	uint64_t file_size;
	uint64_t checksum;	/* ttpu_binary_checksum() of the whole file */
	uint32_t name;		/* program name: offset in STRINGS */
	uint32_t reserved;	/* 0 */
	uint64_t ntmp;		/* plan: deferred tmp tiles per run */
	uint64_t max_stage_jobs;	/* plan: largest njobs of a stage */
	struct ttpb_section sections[TTPB_NSECTIONS];
};

struct ttpb_buffer {
	uint32_t name;		/* offset in STRINGS */
	uint8_t dtype, kind, rank, reserved;
	uint32_t rows, cols;
	int32_t input_index;	/* position in INPUTS, or -1 */
	uint64_t data;		/* const: offset in DATA; else 0 */
};

/* Bytes per record of each section, as this library lays them out. */
extern const uint32_t ttpu_binary_record_sizes[TTPB_NSECTIONS];

/* Whether @len bytes at @p start with the magic. */
bool ttpu_binary_has_magic(const void *p, size_t len);

/*
 * The checksum of a @len-byte image, the header's checksum field taken as
 * 0: Fletcher-style 64-bit sums in 8 lanes over the image's 8-byte words
 * in the producer's byte order (each 64-byte block adds its k-th pair of
 * words to sum1[k], then sum1[k] to sum2[k]; the last block zero-padded),
 * mixed with the length into one word (MurmurHash3's finaliser). The
 * lanes are independent: program_binary_csum.c sums them with the
 * kernel that suits the CPU (two or four to a vector register, or one at
 * a time in core registers), so that checking a 12 MB file costs a few
 * instructions per 64 bytes; Documentation/ttpu-binary.rst gives it exactly.
 */
uint64_t ttpu_binary_checksum(const void *image, size_t len);

/*
 * Two 64-bit lanes, the size of an SSE2 (x86-64) or NEON register: the
 * layout of the sums (lane 2k + l is sum1[k][l]), whichever kernel adds.
 */
typedef uint64_t ttpu_u64x2 __attribute__((vector_size(16)));

#define TTPB_CSUM_VECTORS 4
#define TTPB_CSUM_BLOCK (TTPB_CSUM_VECTORS * sizeof(ttpu_u64x2))	/* 64 bytes */

/*
 * Fletcher-style sums in 8 lanes (4 vectors of 2): each 64-byte block's
 * k-th vector is added to sum1[k], and sum1[k] then to sum2[k]. sum1 sees
 * any changed word, sum2 where in the file it sits.
 */
struct ttpu_binary_csum {
	ttpu_u64x2 sum1[TTPB_CSUM_VECTORS], sum2[TTPB_CSUM_VECTORS];
	unsigned char carry[TTPB_CSUM_BLOCK];	/* a block not yet whole */
	size_t ncarry;
	uint64_t len;
};

/*
 * ttpu_binary_checksum() fed a piece at a time, for a writer that never
 * holds the image: zero-initialise, feed the header with its checksum
 * field 0 and then every following byte in order, end.
 */
void ttpu_binary_csum_feed(struct ttpu_binary_csum *c, const void *data, size_t n);
uint64_t ttpu_binary_csum_end(struct ttpu_binary_csum *c);

/*
 * Load a compiled program from @len bytes at @image (8-byte aligned),
 * which the program then owns: @unmap says whether to munmap() it (else
 * free()) when the program is freed, also on failure.
 */
int ttpu_binary_load(void *image, size_t len, bool unmap, ttpu_program **out,
		     struct ttpu_error *err);

/* ttpu_binary_load() of a copy of @len bytes at @data (the caller keeps them). */
int ttpu_binary_load_copy(const void *data, size_t len, ttpu_program **out,
			  struct ttpu_error *err);

/*
 * Map and load the file at @path if it starts with the magic: 0 (loaded),
 * 1 (not a compiled program, or unreadable: the caller reads it as text
 * and reports), or a negative ttpu_error_kind.
 */
int ttpu_binary_try_file(const char *path, ttpu_program **out, struct ttpu_error *err);

/* ttpu_program_free() of a program ttpu_binary_load() made. */
void ttpu_binary_free(ttpu_program *prog);

#endif /* TTPU_PROGRAM_BINARY_H */
