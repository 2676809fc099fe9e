/* SPDX-License-Identifier: MIT */
/*
 * program_read_commands.h - stream a program's "commands" array into the
 * loader
 */
#ifndef TTPU_PROGRAM_READ_COMMANDS_H
#define TTPU_PROGRAM_READ_COMMANDS_H

#include <stdbool.h>

#include "program_pending.h"

/* The "commands" array at the cursor. */
int ttpu_loader_read_commands(struct ttpu_loader *L);

/*
 * Whether ttpu_loader_read_commands() tries ttpu_command_scan_direct()
 * before json-c: true, except in the tests that load every program both
 * ways and require the same outcome. Internal (hidden like every symbol
 * not in libttpu-run.map): only the static library's users can set it.
 */
extern bool ttpu_commands_direct;

#endif /* TTPU_PROGRAM_READ_COMMANDS_H */
