// SPDX-License-Identifier: GPL-2.0
/*
 * npukit_pin.c - a SUBMIT's result memory, pinned for the batch
 *
 * A batch's result slots are pinned once, before it first takes the device
 * lock, with short-term pins (pin_user_pages_fast(), no FOLL_LONGTERM:
 * Documentation/core-api/pin_user_pages.rst, case 1, "Direct IO"-like: the
 * pages are held for the duration of one system call). From then on the
 * driver writes the C tiles through the kernel's own mapping of those
 * pages, which cannot fault, sleep or be cut short by a concurrent
 * mprotect(), munmap() or page-out. So under the lock nothing waits for
 * memory, a sum runs from its CLEAR to its end without letting the array
 * go, and a result slot is written whole or not at all
 * (Documentation/npukit/design.rst, "Bounded batches").
 *
 * Pinned pages cannot be reclaimed, so they are charged to the caller as
 * RDMA's ib_umem_get() and io_uring charge theirs: to mm->pinned_vm,
 * against RLIMIT_MEMLOCK unless the caller has CAP_IPC_LOCK, and the page
 * array to its memory cgroup. At most 257 pages a batch (4096 slots).
 *
 * Copyright (C) 2026 The npukit authors
 */

#include <linux/highmem.h>
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "npukit_dev.h"

/*
 * kmap_local_page() came with 5.11. Before it, the atomic kmap is the same
 * short, CPU-local mapping (a no-op for lowmem, all of the PYNQ-Z2's RAM).
 */
#if NPUKIT_KVER < 5011
#define kmap_local_page(page)	kmap_atomic_prot(page, kmap_prot)
#define kunmap_local(addr)	kunmap_atomic((void *)(addr))
#endif

/*
 * Charge @pin->npages to the caller's pinned_vm: over RLIMIT_MEMLOCK,
 * without CAP_IPC_LOCK, the batch fails before anything is pinned.
 */
static int npukit_pin_charge(struct npukit_pinned *pin)
{
	struct mm_struct *mm = current->mm;
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	s64 pinned;

	if (!mm)
		return -EFAULT;
	pinned = atomic64_add_return(pin->npages, &mm->pinned_vm);
	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(pin->npages, &mm->pinned_vm);
		pr_debug("npukit: %u result pages over RLIMIT_MEMLOCK (%lu pages)\n",
			 pin->npages, limit);
		return -ENOMEM;
	}
	pin->mm = mm;
	return 0;
}

static void npukit_pin_uncharge(struct npukit_pinned *pin)
{
	if (pin->mm)
		atomic64_sub(pin->npages, &pin->mm->pinned_vm);
	pin->mm = NULL;
	pin->npages = 0;
}

/**
 * npukit_pin - pin the user memory [@uaddr, @uaddr + @size)
 * @pin: filled in; npukit_unpin() lets go of it
 * @uaddr: user address, checked by access_ok() before
 * @size: bytes; 0 pins nothing
 * @write: the device's results go there (FOLL_WRITE: a read-only or
 *	copy-on-write mapping is resolved, or refused, here and not later)
 *
 * Return: 0, -EFAULT when a page is not mapped (with @write, not writable),
 * -ENOMEM when the pages would take the caller over its RLIMIT_MEMLOCK or
 * memory ran out, or -EINTR when a fatal signal stopped a fault. Nothing
 * stays pinned or charged on failure.
 */
int npukit_pin(struct npukit_pinned *pin, u64 uaddr, size_t size, bool write)
{
	unsigned long start = (unsigned long)uaddr & PAGE_MASK;
	unsigned int done = 0;
	int ret;

	pin->offset = offset_in_page((unsigned long)uaddr);
	pin->size = size;
	pin->write = write;
	pin->npages = 0;
	pin->pages = NULL;
	pin->mm = NULL;
	if (!size)
		return 0;
	pin->npages = DIV_ROUND_UP(pin->offset + size, PAGE_SIZE);
	ret = npukit_pin_charge(pin);
	if (ret)
		return ret;
	pin->pages = kvmalloc_array(pin->npages, sizeof(*pin->pages),
				    GFP_KERNEL_ACCOUNT);
	if (!pin->pages) {
		npukit_pin_uncharge(pin);
		return -ENOMEM;
	}
	while (done < pin->npages) {
		ret = pin_user_pages_fast(start + (unsigned long)done * PAGE_SIZE,
					  pin->npages - done,
					  write ? FOLL_WRITE : 0,
					  pin->pages + done);
		if (ret <= 0) {
			unpin_user_pages(pin->pages, done);
			kvfree(pin->pages);
			pin->pages = NULL;
			npukit_pin_uncharge(pin);
			/* the UAPI's one errno for memory that is not there */
			return ret == -ENOMEM || ret == -EINTR ? ret : -EFAULT;
		}
		done += ret;
		cond_resched();
	}
	return 0;
}

/**
 * npukit_unpin - let go of what npukit_pin() pinned
 * @pin: the pinned memory; pages the device's results went to are dirtied
 */
void npukit_unpin(struct npukit_pinned *pin)
{
	if (!pin->pages)
		return;
	if (pin->write)
		unpin_user_pages_dirty_lock(pin->pages, pin->npages, true);
	else
		unpin_user_pages(pin->pages, pin->npages);
	kvfree(pin->pages);
	pin->pages = NULL;
	npukit_pin_uncharge(pin);
}

/**
 * npukit_pinned_write - copy to pinned user memory
 * @pin: the pinned memory, pinned for writing
 * @off: byte offset in it
 * @src: kernel buffer
 * @len: bytes; @off + @len within the pinned size (the caller's checks)
 */
void npukit_pinned_write(struct npukit_pinned *pin, size_t off,
			 const void *src, size_t len)
{
	size_t pos = pin->offset + off;

	while (len) {
		size_t in = offset_in_page(pos);
		size_t n = min_t(size_t, len, PAGE_SIZE - in);
		u8 *va = kmap_local_page(pin->pages[pos >> PAGE_SHIFT]);

		memcpy(va + in, src, n);
		/* as memcpy_to_page(): no stale alias in a VIVT/aliasing cache */
		flush_dcache_page(pin->pages[pos >> PAGE_SHIFT]);
		kunmap_local(va);
		src = (const u8 *)src + n;
		pos += n;
		len -= n;
	}
}
