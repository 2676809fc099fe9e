// SPDX-License-Identifier: MIT
/*
 * app.c - the smallest application of libttpu-run, built by check-install
 * against the installed header and library through pkg-config: load a
 * program, run it with inputs on the default engine, print each output.
 */
#include <stdio.h>

#include <ttpu-run.h>

int main(int argc, char **argv)
{
	struct ttpu_error err;
	ttpu_program *prog = NULL;
	ttpu_inputs *in = NULL;
	ttpu_engine *eng = NULL;
	ttpu_result *res = NULL;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: %s PROGRAM.json INPUTS.json\n", argv[0]);
		return 2;
	}
	ret = ttpu_program_load_file(argv[1], &prog, &err);
	if (!ret) {
		in = ttpu_inputs_new(prog);
		ret = in ? ttpu_inputs_load_file(in, argv[2], &err) : -TTPU_SYSTEM_ERROR;
	}
	if (!ret)
		ret = ttpu_engine_open(TTPU_ENGINE_AUTO, NULL, &eng, &err);
	if (!ret)
		ret = ttpu_run(prog, eng, in, &res, &err);
	if (ret) {
		fprintf(stderr, "%s: %s\n", ttpu_error_kind_name(err.kind), err.message);
	} else {
		for (size_t o = 0; o < ttpu_program_output_count(prog); o++) {
			const char *name = ttpu_program_output_name(prog, o);
			size_t n;
			const int32_t *v = ttpu_result_output(res, name, &n);

			printf("%s: %s =", ttpu_program_name(prog), name);
			for (size_t i = 0; i < n; i++)
				printf(" %d", (int)v[i]);
			printf("\n");
		}
	}
	ttpu_result_free(res);
	ttpu_engine_close(eng);
	ttpu_inputs_free(in);
	ttpu_program_free(prog);
	return ret ? 1 : 0;
}
