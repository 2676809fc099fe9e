// SPDX-License-Identifier: MIT
/*
 * layout.c - the UAPI structs have one layout on every ABI
 *
 * Compiled (never run) by mk/21-uapi-layout.mk with the x86-64 compiler and
 * with arm-linux-gnueabihf-gcc (the PYNQ-Z2's 32-bit ARM), against the
 * installed-style header. Every size and field offset is pinned, so a
 * field that would move between 32- and 64-bit userspace, or implicit
 * padding, fails the build on the ABI where it happens. A change here is a
 * UAPI change: it needs a new struct size, never an edit of these numbers.
 */
#include <stddef.h>

#include "npukit.h"

#define PIN(type, field, off) \
	_Static_assert(offsetof(struct type, field) == (off), #type "." #field " moved")
#define SIZE(type, size) \
	_Static_assert(sizeof(struct type) == (size), "sizeof(struct " #type ") changed")

SIZE(npukit_info, 48);
PIN(npukit_info, size, 0);
PIN(npukit_info, uapi_version, 4);
PIN(npukit_info, ip_id, 8);
PIN(npukit_info, ip_version, 12);
PIN(npukit_info, ip_features, 16);
PIN(npukit_info, array_n, 20);
PIN(npukit_info, backend, 24);
PIN(npukit_info, max_kicks, 28);
PIN(npukit_info, max_results, 32);
PIN(npukit_info, dma_max_bytes, 36);
PIN(npukit_info, kick_size, 40);
PIN(npukit_info, pad, 44);

SIZE(npukit_kick, 136);
PIN(npukit_kick, a, 0);
PIN(npukit_kick, b, 64);
PIN(npukit_kick, flags, 128);
PIN(npukit_kick, c_slot, 132);

SIZE(npukit_submit, 88);
PIN(npukit_submit, size, 0);
PIN(npukit_submit, flags, 4);
PIN(npukit_submit, kicks_ptr, 8);
PIN(npukit_submit, results_ptr, 16);
PIN(npukit_submit, kick_count, 24);
PIN(npukit_submit, kick_size, 28);
PIN(npukit_submit, result_count, 32);
PIN(npukit_submit, pad, 36);
PIN(npukit_submit, timeout_ns, 40);
PIN(npukit_submit, kicks_done, 48);
PIN(npukit_submit, status, 52);
PIN(npukit_submit, mmio_reads, 56);
PIN(npukit_submit, mmio_writes, 64);
PIN(npukit_submit, dma_bytes, 72);
PIN(npukit_submit, device_ns, 80);

/* 64-bit fields are 8-aligned on both ABIs, so no struct needs packing. */
_Static_assert(_Alignof(struct npukit_submit) == 8, "npukit_submit alignment");
_Static_assert(NPUKIT_IOCTL_GET_INFO == 0xB900, "GET_INFO number");
_Static_assert(NPUKIT_IOCTL_SUBMIT == 0xB901, "SUBMIT number");

/* A translation unit must declare something. */
int npukit_layout_checked;
