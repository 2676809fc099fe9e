// SPDX-License-Identifier: MIT
/*
 * report.c - what ttpu-run tells people: errors, exit statuses, --stats
 */
#include <time.h>

#include "cli.h"

int cli_exit_status(enum ttpu_error_kind kind)
{
	switch (kind) {
	case TTPU_OK:
		return CLI_EXIT_OK;
	case TTPU_SCHEMA_ERROR:
	case TTPU_INPUT_ERROR:
	case TTPU_RANGE_ERROR:
	case TTPU_ESTIMATE_MISMATCH:
		return CLI_EXIT_PROGRAM;
	case TTPU_USAGE_ERROR:
		return CLI_EXIT_USAGE;
	case TTPU_DEVICE_ERROR:
	case TTPU_SYSTEM_ERROR:
	default:
		return CLI_EXIT_SYSTEM;
	}
}

int cli_report_error(const struct ttpu_error *err, bool stdout_usable)
{
	const char *p;

	if (stdout_usable) {
		/* Best effort: stdout may be what just broke. */
		if (ttpu_error_write_json(err, stdout) == 0)
			fflush(stdout);
	}
	/* Exactly one line, whatever the message holds. */
	fprintf(stderr, "%s: %s: ", CLI_NAME, ttpu_error_kind_name(err->kind));
	for (p = err->message; *p; p++)
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, stderr);
	fputc('\n', stderr);
	return cli_exit_status(err->kind);
}

uint64_t cli_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void cli_times_add(struct cli_times *t, enum cli_phase phase, uint64_t *mark)
{
	uint64_t now = cli_now_ns();

	t->ns[phase] += now - *mark;
	*mark = now;
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

void cli_report_stats(const ttpu_program *prog, const ttpu_engine *eng,
		      const ttpu_result *res, const struct cli_times *t)
{
	const struct ttpu_run_stats *s = res ? ttpu_result_stats(res) : NULL;
	uint64_t total = 0;
	int i;

	for (i = 0; i < CLI_PHASE_COUNT; i++)
		total += t->ns[i];
	fprintf(stderr, "stats: program \"%s\": %zu commands, %zu passes, %zu inputs, %zu outputs\n",
		ttpu_program_name(prog), ttpu_program_command_count(prog),
		ttpu_program_pass_count(prog), ttpu_program_input_count(prog),
		ttpu_program_output_count(prog));
	if (eng)
		fprintf(stderr, "stats: engine %s (%s)\n", ttpu_engine_name(eng),
			ttpu_engine_reason(eng));
	else
		fprintf(stderr, "stats: engine none (--check: nothing ran)\n");
	if (s) {
		fprintf(stderr, "stats: run: %llu passes, %llu cycles, %llu stages\n",
			(unsigned long long)s->passes,
			(unsigned long long)s->total_cycles,
			(unsigned long long)s->stages);
		if (s->kicks || s->ioctls || s->mmio_reads || s->mmio_writes ||
		    s->dma_bytes || s->device_ns)
			fprintf(stderr, "stats: device: %llu kicks, %llu ioctls, %llu mmio reads, %llu mmio writes, %llu DMA bytes, %.3f ms device time\n",
				(unsigned long long)s->kicks,
				(unsigned long long)s->ioctls,
				(unsigned long long)s->mmio_reads,
				(unsigned long long)s->mmio_writes,
				(unsigned long long)s->dma_bytes,
				ms(s->device_ns));
	}
	fprintf(stderr, "stats: time (ms): read+parse+validate+plan %.3f, engine open %.3f, run %.3f, output %.3f, total %.3f\n",
		ms(t->ns[CLI_PHASE_LOAD]),
		ms(t->ns[CLI_PHASE_OPEN]), ms(t->ns[CLI_PHASE_RUN]),
		ms(t->ns[CLI_PHASE_OUTPUT]), ms(total));
}

/* Rows and columns shown from each end of a large output. */
#define SHOW_EDGE 6

static bool show_index(size_t i, size_t n)
{
	return n <= 2 * SHOW_EDGE || i < SHOW_EDGE || i >= n - SHOW_EDGE;
}

void cli_report_outputs(const ttpu_program *prog, const ttpu_result *res)
{
	for (size_t o = 0; o < ttpu_program_output_count(prog); o++) {
		const char *name = ttpu_program_output_name(prog, o);
		size_t dims[2] = { 0, 0 }, count, rows, cols;
		const int32_t *v = ttpu_result_output(res, name, &count);
		int rank, is_i8, width = 1;

		rank = ttpu_program_buffer_shape(prog, name, dims, &is_i8);
		if (!v || rank < 1)
			continue;
		rows = rank == 2 ? dims[0] : 1;
		cols = rank == 2 ? dims[1] : dims[0];
		for (size_t i = 0; i < count; i++) {
			int w = snprintf(NULL, 0, "%d", v[i]);

			if (show_index(i / cols, rows) && show_index(i % cols, cols) && w > width)
				width = w;
		}
		if (rank == 2)
			fprintf(stderr, "%s [%zu x %zu] %s:\n", name, rows, cols, is_i8 ? "i8" : "i32");
		else
			fprintf(stderr, "%s [%zu] %s:\n", name, cols, is_i8 ? "i8" : "i32");
		for (size_t r = 0; r < rows; r++) {
			if (!show_index(r, rows)) {
				if (r == SHOW_EDGE)
					fprintf(stderr, "  ...\n");
				continue;
			}
			fputs(" ", stderr);
			for (size_t c = 0; c < cols; c++) {
				if (show_index(c, cols))
					fprintf(stderr, " %*d", width, v[r * cols + c]);
				else if (c == SHOW_EDGE)
					fprintf(stderr, " %*s", width, "...");
			}
			fputc('\n', stderr);
		}
	}
}
