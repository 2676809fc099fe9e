// SPDX-License-Identifier: GPL-2.0
/*
 * standin_sim_cpu.c - the simulated NpuKit's CPU account, for
 * tests/bench-host/standin_device.c's STANDIN_DRIVER build: the program
 * is linked with --wrap=npukit_sim_create, so the driver's probe hands
 * the instance it creates through here, and its account is read the way
 * debugfs "stats" reads it (npukit_sim_cpu_counters()). Built with the
 * userspace driver's flags and shim (mk/42-driver-user.mk).
 */
#include "npukit_sim.h"

struct npukit_sim *__real_npukit_sim_create(struct device *dev, bool bad_id);
struct npukit_sim *__wrap_npukit_sim_create(struct device *dev, bool bad_id);
u64 standin_sim_cpu_ns(void);

static struct npukit_sim *first;

struct npukit_sim *__wrap_npukit_sim_create(struct device *dev, bool bad_id)
{
	struct npukit_sim *sim = __real_npukit_sim_create(dev, bad_id);

	if (!first && sim && !IS_ERR(sim))
		first = sim;
	return sim;
}

u64 standin_sim_cpu_ns(void)
{
	struct npukit_sim_cpu c = { .ns = 0 };

	if (first)
		npukit_sim_cpu_counters(first, &c);
	return c.ns;
}
