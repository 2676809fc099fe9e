// SPDX-License-Identifier: MIT
/*
 * host_cost.c - the library's phases apart, for callgrind to count:
 *
 *	host_cost load PROGRAM
 *	host_cost run  PROGRAM INPUTS software|npukit RESPONSE
 *
 * "load" loads the program once inside measure_load(); "run" loads the
 * program and inputs, opens the engine and runs once inside measure_run(),
 * then writes the response to RESPONSE (to check the answers) and prints
 * "kicks N". Run under valgrind --tool=callgrind --toggle-collect=measure_X
 * only the phase is counted.
 *
 * "npukit" needs no device: standin_device.c, linked in, defines ioctl()
 * itself (the library's call resolves to it), and answers GET_INFO and
 * SUBMIT as the driver would, computing each kick's 8x8 product on the
 * CPU, for a "device" that is a file under /tmp. Callgrind then counts the engine's
 * host side (grouping, packing, staging, collecting) as measure_run's
 * instructions minus ioctl()'s: the per-kick figure of bench-host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttpu-run.h"

/* ---- the measured phases ------------------------------------------------ */

static void fail(const char *what, const struct ttpu_error *err)
{
	fprintf(stderr, "host_cost: %s: %s\n", what, err->message);
	exit(1);
}

__attribute__((noinline))
static ttpu_program *measure_load(const char *path)
{
	struct ttpu_error err;
	ttpu_program *prog;

	if (ttpu_program_load_file(path, &prog, &err))
		fail(path, &err);
	return prog;
}

__attribute__((noinline))
static ttpu_result *measure_run(const ttpu_program *prog, ttpu_engine *eng,
				const ttpu_inputs *in)
{
	struct ttpu_error err;
	ttpu_result *res;

	if (ttpu_run(prog, eng, in, &res, &err))
		fail("run", &err);
	return res;
}

int main(int argc, char **argv)
{
	struct ttpu_error err;
	enum ttpu_engine_choice choice;
	ttpu_program *prog;
	ttpu_inputs *in;
	ttpu_engine *eng;
	ttpu_result *res;
	char dev[] = "/tmp/host_cost.XXXXXX";
	int fd, ret;
	FILE *f;

	if (argc == 3 && !strcmp(argv[1], "load")) {
		ttpu_program_free(measure_load(argv[2]));
		return 0;
	}
	if (argc != 6 || strcmp(argv[1], "run")) {
		fprintf(stderr, "usage: host_cost load PROGRAM\n"
				"       host_cost run PROGRAM INPUTS software|npukit RESPONSE\n");
		return 2;
	}
	prog = measure_load(argv[2]);
	in = ttpu_inputs_new(prog);
	if (!in || ttpu_inputs_load_file(in, argv[3], &err))
		fail(argv[3], &err);
	if (ttpu_engine_choice_parse(argv[4], &choice, &err))
		fail(argv[4], &err);
	/* The stand-in device is an empty file: open() must find something. */
	fd = mkstemp(dev);
	if (fd < 0) {
		perror("host_cost: mkstemp");
		return 1;
	}
	close(fd);
	ret = ttpu_engine_open(choice, dev, &eng, &err);
	unlink(dev);
	if (ret)
		fail("engine", &err);
	res = measure_run(prog, eng, in);
	f = fopen(argv[5], "w");
	if (!f || ttpu_result_write_json(res, f, 0, &err) || fclose(f))
		fail(argv[5], &err);
	printf("kicks %llu\n", (unsigned long long)ttpu_result_stats(res)->kicks);
	ttpu_result_free(res);
	ttpu_engine_close(eng);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
	return 0;
}
