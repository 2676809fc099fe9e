// SPDX-License-Identifier: MIT
/*
 * engine_npukit.c - the NpuKit engine (passes on /dev/npukit)
 *
 * Not written yet: until it is, asking for it is a clear DeviceError
 * rather than a silent fall-back to the CPU.
 */
#include "engine.h"
#include "error.h"
#include "run.h"

int ttpu_npukit_engine_open(const char *device, struct ttpu_engine **out,
			    struct ttpu_error *err)
{
	*out = NULL;
	ttpu_error_set(err, TTPU_DEVICE_ERROR,
		      "%s: the NpuKit engine is not built into this libttpu-run yet",
		      device ? device : "/dev/npukit0");
	return -TTPU_DEVICE_ERROR;
}
