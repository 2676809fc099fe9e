/* SPDX-License-Identifier: MIT */
/*
 * program_validate.h - the checks of a loaded program that need all of it
 */
#ifndef TTPU_PROGRAM_VALIDATE_H
#define TTPU_PROGRAM_VALIDATE_H

#include "program_pending.h"

/* Everything that needs the whole program; fills L->prog. */
int ttpu_loader_finish(struct ttpu_loader *L);

#endif /* TTPU_PROGRAM_VALIDATE_H */
