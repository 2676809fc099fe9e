// SPDX-License-Identifier: MIT
/*
 * text.c - a whole document in memory
 *
 * The loader parses from memory without building a DOM, so holding the
 * text costs its size once (15 MB for a compiler-sized program), and
 * reading it apart from parsing lets --stats tell I/O time from parse time.
 */
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

int cli_text_read(const char *path, struct cli_text *text,
		  struct ttpu_error *err)
{
	text->data = NULL;
	text->len = 0;
	if (path)
		return ttpu_read_file(path, &text->data, &text->len, err);
	return ttpu_read_fd(STDIN_FILENO, "stdin", &text->data, &text->len, err);
}

void cli_text_free(struct cli_text *text)
{
	free(text->data);
	text->data = NULL;
	text->len = 0;
}

bool cli_text_blank(const struct cli_text *text)
{
	size_t i;

	for (i = 0; i < text->len; i++) {
		switch (text->data[i]) {
		case ' ':
		case '\t':
		case '\n':
		case '\r':
			continue;
		default:
			return false;
		}
	}
	return true;
}
