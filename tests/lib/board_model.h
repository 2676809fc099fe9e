/* SPDX-License-Identifier: MIT */
/*
 * board_model.h - board time on the simulated NpuKit with one ruler
 * (Documentation/npukit/board-time.rst): the CPU's share the model keeps
 * beside its bus clock (debugfs "stats" sim_cpu_*), and NpuKit's C++
 * host sequence run on the same model (debugfs "legacy").
 *
 * The calibration: the model's figure for the C++ host's one 8x8
 * load+run+read-back (matmul_i8_legacy of 8x8x8) set against its board
 * measurement, 320 kicks in 6.42 ms.
 */
#ifndef BOARD_MODEL_H
#define BOARD_MODEL_H

#include <stdint.h>

#define BOARD_HOST_US	(6.42e3 / 320)	/* C++ host, A||B, measured */
#define BOARD_WMEM_US	(8.79e3 / 320)	/* C++ host, weight bank, measured */

enum board_path {
	BOARD_PATH_AB,		/* matmul_i8_legacy() */
	BOARD_PATH_WMEM,	/* matmul_i8_wmem() */
};

/* The CPU's share so far (debugfs stats sim_cpu_*). */
struct board_cpu {
	long long ns;
	long long syscalls;
	long long syncs;
	long long lines;
	long long copy_bytes;
};

/* One run of the C++ host's sequence on the model. */
struct board_host_run {
	uint64_t kicks;
	uint64_t outputs;
	uint64_t bus_ns;
	uint64_t cpu_ns;
	uint64_t reads;
	uint64_t writes;
	uint64_t syscalls;
	uint64_t syncs;
	uint64_t lines;
	uint64_t copy_bytes;
};

/*
 * What a run did, per unit (a kick, or the whole MLP): the counts each
 * uncertain constant multiplies.
 */
struct board_counts {
	double reads;		/* register reads */
	double transfers;	/* DMA transfers (MM2S loads, S2MM read-backs) */
	double syscalls;
	double syncs;		/* cache maintenance calls */
	double lines;		/* 32-byte lines cleaned or invalidated */
	double copy_bytes;
	double kicks;		/* of the driver's own code */
	double readbacks;	/* of the driver's own code for a read-back */
	double host_kicks;	/* of the C++ host's own code */
};

/*
 * Print, for each uncertain constant over its sourced range, how @base_us
 * (the modelled figure of @who at the defaults) moves: "# bench: " lines.
 * The CPU items enter the model linearly, so their rows are exact; the
 * read round trip and the DMA setup are bounded by every read and every
 * transfer being on the critical path (the C++ host's are; ours overlap).
 */
void board_sensitivity(const char *who, const struct board_counts *n, double base_us);

/* 0, or -1 when the instance keeps no CPU share (hardware, older module). */
int board_cpu_read(struct board_cpu *c);

/* @after - @before, into @d. */
void board_cpu_diff(const struct board_cpu *after, const struct board_cpu *before,
		    struct board_cpu *d);

/*
 * Run @kicks kicks in sums of @krun, each sum read back, in the C++ host's
 * sequence of @path: 0, or -errno (-ENOENT: no "legacy" file).
 */
int board_host_run(uint32_t kicks, uint32_t krun, enum board_path path,
		   struct board_host_run *r);

/* Board time per kick of a run, in us. */
double board_host_us(const struct board_host_run *r);

/* The counts of a run of the C++ host's A||B sequence, per kick. */
void board_host_counts(const struct board_host_run *r, struct board_counts *n);

#endif /* BOARD_MODEL_H */
