/* SPDX-License-Identifier: MIT */
/*
 * program_read_buffers.h - stream a program's "buffers" object into the
 * loader
 */
#ifndef TTPU_PROGRAM_READ_BUFFERS_H
#define TTPU_PROGRAM_READ_BUFFERS_H

#include "program_pending.h"

/* The "buffers" object at the cursor. */
int ttpu_loader_read_buffers(struct ttpu_loader *L);

#endif /* TTPU_PROGRAM_READ_BUFFERS_H */
