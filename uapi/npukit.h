/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * npukit.h - userspace API of the NpuKit int8 8x8 systolic-array NPU driver
 *
 * The device node is /dev/npukitN. Work is submitted as batches of "kicks":
 * one kick loads an 8x8 int8 A tile and an 8x8 int8 B tile and runs the
 * array once, C = A * B (CLEAR) or C += A * B (accumulate over K on chip).
 * A kick may ask for the accumulated 8x8 int32 C tile to be read back into
 * a result slot. One SUBMIT ioctl carries a whole batch; there is no
 * per-kick ioctl.
 *
 * Conventions (Documentation/process/botching-up-ioctls.rst):
 *  - every struct begins with its size in bytes, written by userspace, so
 *    that structs can grow: the kernel accepts any size from the first
 *    version's (smaller is -EINVAL) up, zero-extends an older, smaller
 *    struct, and rejects a larger one whose unknown tail is not zero with
 *    -E2BIG;
 *  - user pointers are __u64, all fields are fixed width, padding is
 *    explicit and must be zero, unknown flags are rejected with -EINVAL;
 *  - the layout is identical for 32-bit ARM and 64-bit userspace;
 *  - unknown ioctl numbers fail with -ENOTTY.
 *
 * Copyright (C) 2026 The npukit authors
 */
#ifndef _UAPI_LINUX_NPUKIT_H
#define _UAPI_LINUX_NPUKIT_H

#include <linux/ioctl.h>
#include <linux/types.h>

/** NPUKIT_UAPI_VERSION - bumped only for incompatible changes */
#define NPUKIT_UAPI_VERSION		1

/* Array geometry of every NpuKit the driver supports. */
#define NPUKIT_TILE_N			8
#define NPUKIT_TILE_ELEMS		(NPUKIT_TILE_N * NPUKIT_TILE_N)

/**
 * enum npukit_backend - what executes the kicks
 * @NPUKIT_BACKEND_HARDWARE: the NpuKit IP in the FPGA fabric
 * @NPUKIT_BACKEND_SIMULATED: a register-level model of the NpuKit and its
 *	AXI DMA, created by the test module npukit_sim.ko (its parameters
 *	taint the kernel). npukit.ko alone, as the board packages ship it,
 *	never reports it.
 */
enum npukit_backend {
	NPUKIT_BACKEND_HARDWARE = 0,
	NPUKIT_BACKEND_SIMULATED = 1,
};

/**
 * struct npukit_info - argument of %NPUKIT_IOCTL_GET_INFO
 * @size: In. sizeof(struct npukit_info) as known to userspace.
 * @uapi_version: Out. %NPUKIT_UAPI_VERSION of the driver.
 * @ip_id: Out. The ID register, 0x4E50554B ("NPUK").
 * @ip_version: Out. The VERSION register, e.g. 0x302.
 * @ip_features: Out. The FEATURES register (0 before IP version 0x300).
 * @array_n: Out. The N register: array dimension, 8.
 * @backend: Out. One of &enum npukit_backend.
 * @max_kicks: Out. Largest @kick_count one SUBMIT accepts.
 * @max_results: Out. Largest @result_count one SUBMIT accepts.
 * @dma_max_bytes: Out. Largest single AXI DMA transfer of the device.
 * @kick_size: Out. sizeof(struct npukit_kick) of the driver.
 * @pad: Must be zero.
 */
struct npukit_info {
	__u32 size;
	__u32 uapi_version;
	__u32 ip_id;
	__u32 ip_version;
	__u32 ip_features;
	__u32 array_n;
	__u32 backend;
	__u32 max_kicks;
	__u32 max_results;
	__u32 dma_max_bytes;
	__u32 kick_size;
	__u32 pad;
};

/* Flags of struct npukit_kick */
/** NPUKIT_KICK_CLEAR - zero the accumulators before this run (C = A * B) */
#define NPUKIT_KICK_CLEAR		0x1U
/** NPUKIT_KICK_READ_C - after this run, copy C into results[@c_slot] */
#define NPUKIT_KICK_READ_C		0x2U
#define NPUKIT_KICK_FLAGS_ALL		(NPUKIT_KICK_CLEAR | NPUKIT_KICK_READ_C)

/**
 * struct npukit_kick - one run of the 8x8 array
 * @a: In. A tile, 64 int8, row-major A[i][k] at 8 * i + k.
 * @b: In. B tile, 64 int8, row-major B[k][j] at 8 * k + j (not transposed).
 * @flags: In. %NPUKIT_KICK_CLEAR and/or %NPUKIT_KICK_READ_C. Without
 *	%NPUKIT_KICK_CLEAR the run adds to the accumulators of the previous
 *	kick of the same batch; the first kick of a batch must clear, because
 *	accumulators do not survive from one SUBMIT to the next.
 * @c_slot: In. With %NPUKIT_KICK_READ_C: the index of the result slot that
 *	receives the 8x8 int32 C tile; -EOVERFLOW when it is not below
 *	&npukit_submit.result_count. Must be zero otherwise (-EINVAL).
 *
 * @a followed by @b is exactly the 128-byte A||B stream the IP consumes.
 */
struct npukit_kick {
	__s8 a[NPUKIT_TILE_ELEMS];
	__s8 b[NPUKIT_TILE_ELEMS];
	__u32 flags;
	__u32 c_slot;
};

/**
 * enum npukit_submit_status - how far a batch got and why it stopped
 * @NPUKIT_STATUS_OK: every kick completed.
 * @NPUKIT_STATUS_TIMEOUT: the deadline passed; the ioctl fails -ETIMEDOUT.
 * @NPUKIT_STATUS_DMA_ERROR: the AXI DMA reported an error; -EIO.
 * @NPUKIT_STATUS_DEVICE_HANG: the NPU stopped making progress; -EIO.
 * @NPUKIT_STATUS_INTERRUPTED: a signal stopped the batch, while it waited
 *	for the device or at a chunk boundary; -EINTR, not restarted.
 * @NPUKIT_STATUS_DEVICE_FAILED: the device is failed: after a fault,
 *	recovery could not prove it clean (a known-answer kick), so nothing
 *	runs on it until a recovery does: the driver retries on its own for
 *	about 80 s, and root can at any time (sysfs
 *	/sys/class/misc/npukitN/reset, or unbind and bind); -EIO. A batch
 *	that meets the failed state between two of its chunks stops there.
 */
enum npukit_submit_status {
	NPUKIT_STATUS_OK = 0,
	NPUKIT_STATUS_TIMEOUT = 1,
	NPUKIT_STATUS_DMA_ERROR = 2,
	NPUKIT_STATUS_DEVICE_HANG = 3,
	NPUKIT_STATUS_INTERRUPTED = 4,
	NPUKIT_STATUS_DEVICE_FAILED = 5,
};

/**
 * struct npukit_submit - argument of %NPUKIT_IOCTL_SUBMIT
 * @size: In. sizeof(struct npukit_submit) as known to userspace.
 * @flags: In. Must be zero.
 * @kicks_ptr: In. User pointer to @kick_count kicks of @kick_size bytes.
 * @results_ptr: In. User pointer to @result_count C tiles, each 64 __s32
 *	row-major C[i][j] at 8 * i + j. Written by the kernel.
 * @kick_count: In. 1 .. &npukit_info.max_kicks.
 * @kick_size: In. sizeof(struct npukit_kick) as known to userspace.
 * @result_count: In. 0 .. &npukit_info.max_results.
 * @pad: Must be zero.
 * @timeout_ns: In. Absolute CLOCK_MONOTONIC deadline for the whole call,
 *	the waits for the device and for memory included (-ETIMEDOUT).
 *	A deadline already in the past is rejected with -ETIME.
 * @kicks_done: Out. Kicks completed, also when the ioctl fails: kicks
 *	0 .. @kicks_done - 1 ran and every read-back among them is written to
 *	its result slot; no read-back of a later kick was written.
 * @status: Out. One of &enum npukit_submit_status.
 * @mmio_reads: Out. Register reads this batch made.
 * @mmio_writes: Out. Register writes this batch made.
 * @dma_bytes: Out. Bytes the AXI DMA moved for this batch.
 * @device_ns: Out. Device time of the batch: measured on hardware,
 *	modelled board time on the simulated NpuKit.
 *
 * The Out fields are written back whenever the arguments were valid, also
 * when the batch failed, so userspace learns how far it got. Invalid
 * arguments (-EINVAL, -E2BIG, -EOVERFLOW, -ETIME, and -EFAULT for memory
 * found inaccessible up front or a submit struct that cannot be written)
 * fail before anything runs, as does -ENOMEM when the result slots, which
 * stay pinned while the batch runs, would take the caller over its
 * RLIMIT_MEMLOCK (without CAP_IPC_LOCK). Documentation/npukit/index.rst says for each
 * errno what ran.
 */
struct npukit_submit {
	__u32 size;
	__u32 flags;
	__u64 kicks_ptr;
	__u64 results_ptr;
	__u32 kick_count;
	__u32 kick_size;
	__u32 result_count;
	__u32 pad;
	__s64 timeout_ns;
	__u32 kicks_done;
	__u32 status;
	__u64 mmio_reads;
	__u64 mmio_writes;
	__u64 dma_bytes;
	__u64 device_ns;
};

/* 0xB9 is registered in Documentation/npukit/ioctl-number.rst */
#define NPUKIT_IOCTL_MAGIC		0xB9

/*
 * The struct size travels in the struct (@size), not in the ioctl number,
 * so a grown struct keeps its ioctl number (as iommufd does).
 */
#define NPUKIT_IOCTL_GET_INFO		_IO(NPUKIT_IOCTL_MAGIC, 0x00)
#define NPUKIT_IOCTL_SUBMIT		_IO(NPUKIT_IOCTL_MAGIC, 0x01)

#endif /* _UAPI_LINUX_NPUKIT_H */
