// SPDX-License-Identifier: GPL-2.0
/*
 * shim_uaccess.c - the kernel's user copies for the driver's userspace
 * build (npukit_shim.h): "user" memory is the process's own, and a copy
 * to or from memory the process could not read or write fails as it would
 * in the kernel (bytes not copied, so the driver returns EFAULT) instead
 * of crashing the program. The kernel does that with its exception table;
 * here process_vm_readv()/process_vm_writev() on the process itself check
 * the mapping and its protection the same way (a read-only page refuses a
 * write). Where the system has not those calls (qemu-user), plain copies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "npukit_shim.h"

/* Bytes of @from copied to @to: like the kernel's, short at a fault */
static size_t shim_user_read(void *to, const void *from, size_t n)
{
	struct iovec l = { to, n }, r = { (void *)from, n };
	ssize_t got;

	if (!n)
		return 0;
	got = process_vm_readv(getpid(), &l, 1, &r, 1, 0);
	if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
		memcpy(to, from, n);
		return n;
	}
	return got < 0 ? 0 : (size_t)got;
}

static size_t shim_user_write(void *to, const void *from, size_t n)
{
	struct iovec l = { (void *)from, n }, r = { to, n };
	ssize_t put;

	if (!n)
		return 0;
	put = process_vm_writev(getpid(), &l, 1, &r, 1, 0);
	if (put < 0 && (errno == ENOSYS || errno == EPERM))
		put = n;
	if (put < 0)
		return 0;
	/* the same bytes again by a store, which memory checkers see */
	memcpy(to, from, put);
	return put;
}

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	size_t got = shim_user_read(to, from, n);

	/* as the kernel's: what was not copied is zeroed */
	memset((u8 *)to + got, 0, n - got);
	return n - got;
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	return n - shim_user_write(to, from, n);
}

long copy_from_user_nofault(void *to, const void __user *from, size_t n)
{
	return shim_user_read(to, from, n) == n ? 0 : -EFAULT;
}

long copy_to_user_nofault(void __user *to, const void *from, size_t n)
{
	return shim_user_write(to, from, n) == n ? 0 : -EFAULT;
}

int check_zeroed_user(const void __user *from, size_t size)
{
	const u8 *p = from;
	u8 b;
	size_t i;

	for (i = 0; i < size; i++) {
		if (shim_user_read(&b, p + i, 1) != 1)
			return -EFAULT;
		if (b)
			return 0;
	}
	return 1;
}

/* As include/linux/uaccess.h's */
int copy_struct_from_user(void *dst, size_t ksize, const void __user *src,
			  size_t usize)
{
	size_t size = min(ksize, usize);
	int zeroed;

	if (usize > ksize) {
		zeroed = check_zeroed_user((const u8 *)src + ksize, usize - ksize);
		if (zeroed <= 0)
			return zeroed ? zeroed : -E2BIG;
	}
	if (copy_from_user(dst, src, size))
		return -EFAULT;
	if (usize < ksize)
		memset((u8 *)dst + size, 0, ksize - size);
	return 0;
}

int kstrtobool_from_user(const char __user *s, size_t count, bool *res)
{
	char c;

	if (!count)
		return -EINVAL;
	if (copy_from_user(&c, s, 1))
		return -EFAULT;
	switch (c) {
	case '1': case 'y': case 'Y':
		*res = true;
		return 0;
	case '0': case 'n': case 'N':
		*res = false;
		return 0;
	}
	return -EINVAL;
}

/*
 * Whether [@start, @start + @len) is mapped, and writable when @write:
 * the process's mappings as the kernel lists them. Pinning checks this
 * (the kernel's get_user_pages() faults the pages in and refuses a
 * read-only mapping for FOLL_WRITE).
 */
static bool shim_user_mapped(unsigned long start, unsigned long len, bool write)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, end = start + len;
	char perm[5], line[4096];

	if (!maps)	/* no procfs: the pages are taken on trust */
		return true;
	while (start < end && fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perm) != 3)
			continue;
		if (lo > start)
			break;		/* a hole, the list being in order */
		if (hi <= start)
			continue;
		if (perm[0] != 'r' || (write && perm[1] != 'w'))
			break;
		start = hi;
	}
	fclose(maps);
	return start >= end;
}

/* Every page of the process is resident: pinning checks and hands out addresses. */
int pin_user_pages_fast(unsigned long start, int nr_pages,
			unsigned int gup_flags, struct page **pages)
{
	if (!shim_user_mapped(start, (unsigned long)nr_pages * PAGE_SIZE,
			      gup_flags & FOLL_WRITE))
		return -EFAULT;
	for (int i = 0; i < nr_pages; i++)
		pages[i] = (struct page *)(start + (unsigned long)i * PAGE_SIZE);
	return nr_pages;
}
