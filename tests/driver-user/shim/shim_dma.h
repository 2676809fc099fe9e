/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim_dma.h - the DMA buffers of the driver's userspace build and, for a
 * backend whose DMA reads and writes memory apart from the CPU (hw-emu's
 * AXI DMA model), the Cortex-A9's data cache in front of that memory:
 * HP0 is not coherent (hardware.rst 1), so what the DMA sees and what the
 * CPU sees differ until the driver's cache maintenance makes them agree.
 *
 * A buffer from dma_alloc_noncoherent() is coherent (the pointer is the
 * memory, as the C simulator's DMA uses it) until shim_dma_memory() is
 * called on it. From then on, per 32-byte line:
 *  - the pointer is the CPU's view; a separate copy is the memory the DMA
 *    reads and writes;
 *  - a line the CPU wrote since its last maintenance is dirty (its bytes
 *    differ from what they were then); dma_sync_single_for_device()
 *    TO_DEVICE or BIDIRECTIONAL cleans it (writes it to memory), as
 *    ARMv7's dma_map_area does;
 *  - dma_sync_single_for_device() FROM_DEVICE and dma_sync_single_for_cpu()
 *    FROM_DEVICE or BIDIRECTIONAL invalidate: the CPU's view becomes the
 *    memory's, dirty bytes lost (a line only partly in the range is
 *    cleaned first, as v7_dma_inv_range does); dma_sync_single_for_cpu()
 *    TO_DEVICE does nothing;
 *  - nothing else moves bytes from memory to the CPU's view: a stale line
 *    stays and is what the CPU reads (the worst a speculative refill can
 *    do), and a dirty line is evicted over what the DMA has just written
 *    to it (the worst a write-back can do).
 * And who owns a line (Documentation/core-api/dma-api-howto.rst, "DMA
 * Direction" and the sync rules): the DMA may read a line handed over
 * TO_DEVICE or BIDIRECTIONAL, and write one handed over FROM_DEVICE or
 * BIDIRECTIONAL and not taken back by dma_sync_single_for_cpu() since;
 * shim_dma_device_access() says what is wrong otherwise.
 */
#ifndef SHIM_DMA_H
#define SHIM_DMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHIM_DMA_LINE	32	/* the Cortex-A9's L1 data cache line */

/*
 * The memory behind the DMA buffer at bus address @addr, @size bytes, CPU
 * pointer @cpu: from now on non-coherent as above. NULL when @cpu is not
 * one whole buffer from dma_alloc_noncoherent().
 */
void *shim_dma_memory(uint64_t addr, void *cpu, size_t size);
/*
 * A board's DMA reaches memory by bus address, as HP0 does (hw-emu's
 * hwemu_board.c): every buffer allocated from now on is non-coherent as
 * above from its allocation, and shim_dma_bus_memory() is the memory
 * behind [@addr, @addr + @len), or NULL where no buffer is.
 */
void shim_dma_noncoherent_all(void);
void *shim_dma_bus_memory(uint64_t addr, size_t len);
/*
 * The DMA is about to read (@write false) or write [@addr, @addr + @len):
 * NULL, or what the driver did not do (a static string).
 */
const char *shim_dma_device_access(uint64_t addr, uint32_t len, bool write);
/* The DMA has written [@addr, @addr + @len): dirty CPU lines there are evicted over it */
void shim_dma_device_wrote(uint64_t addr, uint32_t len);

#endif /* SHIM_DMA_H */
