/* SPDX-License-Identifier: MIT */
/*
 * program_read.h - stream a program object into a loader
 *
 * program_read.c reads the top-level object and its small values and
 * hands "buffers" and "commands" to their readers. Each file has its own
 * header and includes only the headers of what it calls, below it, so
 * the readers form no circle:
 *
 *   program_read.c                 -> _buffers, _commands, _field
 *   program_read_buffers.c         -> _field
 *   program_read_commands.c        -> _command_direct, _command_keys, _field
 *   program_read_command_direct.c  -> _command_keys
 *   program_read_field.c, program_read_command_keys.c: none of them
 *
 * Each element is checked on its own as it is read; the checks that need
 * the whole program are program_validate.c's.
 */
#ifndef TTPU_PROGRAM_READ_H
#define TTPU_PROGRAM_READ_H

#include "program_pending.h"

/* Stream the program object at the cursor into @L (@path names it in messages). */
int ttpu_loader_read(struct ttpu_loader *L, const char *path);

#endif /* TTPU_PROGRAM_READ_H */
