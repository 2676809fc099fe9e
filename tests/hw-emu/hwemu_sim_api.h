/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hwemu_sim_api.h - driver/npukit_sim.h for a test program, without the
 * kernel types: the calls the driver's register accessors make, which the
 * C simulator and the co-simulation (hwemu_sim.c) both implement. Time
 * passes for the CPU with npukit_sim_delay(); the board catches up with
 * it at the next access. Space 0 is the NPU, 1 the DMA.
 */
#ifndef HWEMU_SIM_API_H
#define HWEMU_SIM_API_H

#include <stddef.h>
#include <stdint.h>

enum { NPU, DMA };

struct npukit_sim;
struct npukit_sim *npukit_sim_create(void *dev, _Bool bad_id);
void npukit_sim_destroy(struct npukit_sim *sim);
int npukit_sim_add_window(struct npukit_sim *sim, uint64_t addr, void *cpu, size_t size);
uint32_t npukit_sim_read(struct npukit_sim *sim, int space, uint32_t off);
void npukit_sim_write(struct npukit_sim *sim, int space, uint32_t off, uint32_t val);
void npukit_sim_delay(struct npukit_sim *sim, uint32_t ns);
void npukit_sim_pl_reset(struct npukit_sim *sim);

#endif /* HWEMU_SIM_API_H */
