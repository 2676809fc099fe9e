// SPDX-License-Identifier: MIT
/*
 * compile.c - ttpu-run --compile: the loaded program in its compiled form
 *
 * The library lays the file out (ttpu_program_write_binary()); here it goes
 * to the sink like a response, so -o FILE is replaced atomically and only
 * by a complete file.
 */
#include <errno.h>
#include <stdlib.h>

#include "cli.h"

int cli_compile_write(FILE *f, const ttpu_program *prog, struct ttpu_error *err)
{
	char *image;
	size_t len;
	int ret;

	ret = ttpu_program_write_binary(prog, &image, &len, err);
	if (ret)
		return ret;
	if (fwrite(image, 1, len, f) != len)
		ret = ttpu_error_sys(err, errno ? errno : EIO, "writing the compiled program");
	free(image);
	return ret;
}
