// SPDX-License-Identifier: GPL-2.0
/*
 * shim_dma.c - DMA buffers and the CPU's cache in front of them, for the
 * driver's userspace build (shim_dma.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "npukit_shim.h"
#include "shim_dma.h"

enum shim_line_owner {
	SHIM_CPU,		/* allocated, or taken back for the CPU */
	SHIM_DEV_READ,		/* handed over TO_DEVICE */
	SHIM_DEV_WRITE,		/* handed over FROM_DEVICE */
	SHIM_DEV_BOTH,		/* handed over BIDIRECTIONAL */
};

struct shim_dma_buf {
	struct shim_dma_buf *next;
	u8 *cpu;		/* the CPU's view (the driver's pointer) */
	u8 *mem;		/* memory, as the DMA sees it; NULL: coherent */
	u8 *seen;		/* the CPU's view at each line's last maintenance */
	u8 *owner;		/* enum shim_line_owner, per line */
	u32 bus;
	size_t size;
};

static struct shim_dma_buf *shim_dma_bufs;
/* Bus addresses: 32-bit, page-aligned, never reused */
static u32 shim_next_bus = 0x10000000;
static bool shim_dma_all_noncoherent;

static void shim_dma_make_noncoherent(struct shim_dma_buf *b);

void *dma_alloc_noncoherent(struct device *dev, size_t size, dma_addr_t *handle,
			    enum dma_data_direction dir, gfp_t gfp)
{
	size_t pages = DIV_ROUND_UP(size, 4096);
	struct shim_dma_buf *b = calloc(1, sizeof(*b));

	(void)dev, (void)dir, (void)gfp;
	if (!b)
		return NULL;
	b->cpu = aligned_alloc(4096, pages * 4096);
	if (!b->cpu) {
		free(b);
		return NULL;
	}
	b->size = pages * 4096;
	/* the kernel's contents are whatever the pages held; here defined */
	memset(b->cpu, 0, b->size);
	b->bus = shim_next_bus;
	shim_next_bus += pages * 4096;
	b->next = shim_dma_bufs;
	shim_dma_bufs = b;
	if (shim_dma_all_noncoherent)
		shim_dma_make_noncoherent(b);
	shim_held.dma_buffers++;
	*handle = b->bus;
	return b->cpu;
}

void dma_free_noncoherent(struct device *dev, size_t size, void *cpu,
			  dma_addr_t handle, enum dma_data_direction dir)
{
	struct shim_dma_buf **p, *b;

	(void)dev, (void)size, (void)handle, (void)dir;
	for (p = &shim_dma_bufs; (b = *p); p = &b->next) {
		if (b->cpu != cpu)
			continue;
		*p = b->next;
		shim_held.dma_buffers--;
		shim_release_note("dma free %#x", b->bus);
		free(b->mem);
		free(b->seen);
		free(b->owner);
		free(b->cpu);
		free(b);
		return;
	}
	free(cpu);
}

static struct shim_dma_buf *shim_dma_find(u64 addr, size_t len)
{
	struct shim_dma_buf *b;

	for (b = shim_dma_bufs; b; b = b->next)
		if (addr >= b->bus && len <= b->size && addr - b->bus <= b->size - len)
			return b;
	return NULL;
}

static void shim_dma_make_noncoherent(struct shim_dma_buf *b)
{
	if (b->mem)
		return;
	b->mem = malloc(b->size);
	b->seen = malloc(b->size);
	b->owner = calloc(b->size / SHIM_DMA_LINE, 1);
	if (!b->mem || !b->seen || !b->owner) {
		fprintf(stderr, "npukit shim: out of memory\n");
		abort();
	}
	/* as dma_alloc_noncoherent() leaves it: in memory, clean */
	memcpy(b->mem, b->cpu, b->size);
	memcpy(b->seen, b->cpu, b->size);
}

void *shim_dma_memory(uint64_t addr, void *cpu, size_t size)
{
	struct shim_dma_buf *b = shim_dma_find(addr, size);

	if (!b || b->cpu != cpu || b->bus != addr)
		return NULL;
	shim_dma_make_noncoherent(b);
	return b->mem;
}

void shim_dma_noncoherent_all(void)
{
	shim_dma_all_noncoherent = true;
}

void *shim_dma_bus_memory(uint64_t addr, size_t len)
{
	struct shim_dma_buf *b = shim_dma_find(addr, len);

	return b && b->mem ? b->mem + (addr - b->bus) : NULL;
}

/* Line @l of @b: written by the CPU since its last maintenance */
static bool shim_line_dirty(const struct shim_dma_buf *b, size_t l)
{
	return memcmp(b->cpu + l, b->seen + l, SHIM_DMA_LINE) != 0;
}

static void shim_line_clean(struct shim_dma_buf *b, size_t l)
{
	if (shim_line_dirty(b, l))
		memcpy(b->mem + l, b->cpu + l, SHIM_DMA_LINE);
	memcpy(b->seen + l, b->cpu + l, SHIM_DMA_LINE);
}

static void shim_line_invalidate(struct shim_dma_buf *b, size_t l)
{
	memcpy(b->cpu + l, b->mem + l, SHIM_DMA_LINE);
	memcpy(b->seen + l, b->mem + l, SHIM_DMA_LINE);
}

/*
 * One cache operation over [@addr, @addr + @size): clean, or invalidate
 * (lines only partly inside cleaned first), and the lines' new owner.
 */
static void shim_dma_maintain(dma_addr_t addr, size_t size, bool inval,
			      enum shim_line_owner owner)
{
	struct shim_dma_buf *b = shim_dma_find(addr, size);
	size_t off, first, end;

	if (!b || !b->mem || !size)
		return;
	off = addr - b->bus;
	first = off & ~(size_t)(SHIM_DMA_LINE - 1);
	end = off + size;
	for (size_t l = first; l < end; l += SHIM_DMA_LINE) {
		bool whole = l >= off && l + SHIM_DMA_LINE <= end;

		if (!inval || !whole)
			shim_line_clean(b, l);
		if (inval)
			shim_line_invalidate(b, l);
		b->owner[l / SHIM_DMA_LINE] = owner;
	}
}

/* ARMv7's dma_map_area: FROM_DEVICE invalidates, otherwise clean */
void dma_sync_single_for_device(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir)
{
	(void)dev;
	shim_dma_maintain(addr, size, dir == DMA_FROM_DEVICE,
			  dir == DMA_TO_DEVICE ? SHIM_DEV_READ :
			  dir == DMA_FROM_DEVICE ? SHIM_DEV_WRITE : SHIM_DEV_BOTH);
}

/* ARMv7's dma_unmap_area: anything but TO_DEVICE invalidates */
void dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir)
{
	struct shim_dma_buf *b = shim_dma_find(addr, size);

	(void)dev;
	if (dir != DMA_TO_DEVICE) {
		shim_dma_maintain(addr, size, true, SHIM_CPU);
	} else if (b && b->mem) {
		for (size_t l = (addr - b->bus) / SHIM_DMA_LINE;
		     l * SHIM_DMA_LINE < addr - b->bus + size; l++)
			b->owner[l] = SHIM_CPU;
	}
}

const char *shim_dma_device_access(uint64_t addr, uint32_t len, bool write)
{
	struct shim_dma_buf *b = shim_dma_find(addr, len);
	size_t off;

	if (!b || !b->mem || !len)
		return NULL;
	off = addr - b->bus;
	for (size_t l = off / SHIM_DMA_LINE; l * SHIM_DMA_LINE < off + len; l++) {
		u8 o = b->owner[l];

		if (write && o != SHIM_DEV_WRITE && o != SHIM_DEV_BOTH)
			return "S2MM writes memory not handed to the device FROM_DEVICE or BIDIRECTIONAL since the CPU took it (dma_sync_single_for_device)";
		if (!write && o != SHIM_DEV_READ && o != SHIM_DEV_BOTH)
			return "MM2S reads memory not cleaned for the device TO_DEVICE or BIDIRECTIONAL (dma_sync_single_for_device)";
	}
	return NULL;
}

void shim_dma_device_wrote(uint64_t addr, uint32_t len)
{
	struct shim_dma_buf *b = shim_dma_find(addr, len);
	size_t off;

	if (!b || !b->mem || !len)
		return;
	off = addr - b->bus;
	for (size_t l = off & ~(size_t)(SHIM_DMA_LINE - 1); l < off + len; l += SHIM_DMA_LINE)
		shim_line_clean(b, l);
}
