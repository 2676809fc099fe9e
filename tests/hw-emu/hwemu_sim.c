// SPDX-License-Identifier: GPL-2.0
/*
 * hwemu_sim.c - the co-simulation backend: the npukit_sim.h interface the
 * driver's register accessors call on a simulated instance, implemented
 * by the bus between the Zynq's CPU and the PL instead of by the C model:
 * posted writes that land at the slave later, reads that sample it
 * halfway through their round trip, a write to the DMA that may overtake
 * an earlier one to the NPU, all clocked at FCLK_CLK0 (100 MHz) through
 * the NPU's AXI4-Lite pins (hwemu_port.h: NpuKit's RTL or the port model)
 * and the DMA model (axi_dma.h) streaming on its AXI4-Stream pins.
 * Linked in place of driver/npukit_sim*.c (mk/43-hw-emu.mk); the driver's
 * own files are the same objects' sources, unmodified.
 *
 * The bus figures are the C simulator's (npukit_sim_priv.h, "Cost model"), so
 * that device time here and there differ only by what the NPU and the DMA
 * do: a read costs the CPU 250 ns and samples the slave after 120; a
 * write costs 30 ns and lands 200 ns after issue; eight writes in flight
 * stall the CPU. A slave takes writes in order; the NPU's AXI4-Lite slave
 * takes one every other cycle at best.
 *
 * Cycles in which nothing can change (no write or beat in flight, the NPU
 * idle and quiet for a few cycles) are skipped, not clocked: the RTL has
 * no free-running state outside a run, so a sleeping driver costs nothing.
 *
 * The DMA model reaches the DMA buffers' memory behind the CPU's cache
 * (shim_dma.h): it sees what the driver cleaned, the CPU sees what it
 * wrote only after the driver invalidated, and the monitor checks that
 * each transfer's memory was handed to the device the right way.
 *
 * Polled only: the DMA model computes its interrupt output, but the
 * userspace build has no interrupts to deliver it (tests/driver-user); the
 * board does not wire it either (hardware.rst 1).
 */
#include <stdlib.h>

#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/kernel.h>

#include "npukit_regs.h"
#include "npukit_sim.h"
#include "shim_dma.h"
#include "axi_dma.h"
#include "pg021.h"
#include "hwemu.h"
#include "hwemu_bus.h"
#include "hwemu_monitor.h"

#define HW_CYCLE_NS		10
#define HW_READ_RTT_NS		250
#define HW_READ_SAMPLE_NS	120
#define HW_WRITE_NS		30
#define HW_WRITE_LAND_NS	200
#define HW_WRITE_QUEUE		8
#define HW_OVERTAKE_MAX		(HW_WRITE_LAND_NS / HW_CYCLE_NS)
#define HW_RESET_CYCLES		4
/* The NPU's registered write path: a write is acted on 2-3 cycles later */
#define HW_SETTLE_CYCLES	8
/* An AXI4-Lite read the slave does not answer in this long is a bug here */
#define HW_READ_MAX_CYCLES	1000
/* A full write buffer that does not drain in this long (late is at most 1000) */
#define HW_WRITE_MAX_CYCLES	100000
#define HW_INSTANCES		8

struct hw_knobs {
	struct axi_dma_knobs dma;
	u32 overtake;
	u32 late;
	u32 no_reset_line;
};

struct hw_write {
	u64 land;		/* ns */
	u32 off;
	u32 val;
	enum npukit_space space;
};

struct npukit_sim {
	bool bad_id;
	struct hwemu_npu *npu;
	struct hwemu_pins pins;
	struct axi_dma dma;
	u64 now;		/* ns: when the CPU issues its next access */
	u64 cyc;		/* the next cycle to model */
	struct hw_write wq[HW_WRITE_QUEUE];	/* issued, not landed, in issue order */
	unsigned int wq_len;
	struct hw_write aw[HW_WRITE_QUEUE];	/* landed at the NPU, not yet taken */
	unsigned int aw_len;
	u64 dma_land, npu_land;
	u64 quiet_from;		/* cycle from which the NPU has nothing to do */
	unsigned int reset_left;
	bool reset_held;	/* a board's reset line asserted (hwemu_bus_reset()) */
	bool r_have;
	u32 rdata;
	bool was_busy, was_done;
	u64 busy_since;
	struct hw_knobs k;
	struct hwemu_monitor mon;
	struct hwemu_stats st;
	struct npukit_sim_cpu cpu;
	u64 real_mark;
};

static struct hw_knobs hw_knobs = {
	.dma = AXI_DMA_KNOBS_DEFAULT,
	.overtake = 5,
};
/* Knobs set by name: the driver's timing parameters do not override them */
static u32 hw_knobs_named;
static bool hw_env_read;
static struct npukit_sim *hw_instances[HW_INSTANCES];

#define HW_KNOB(n, f) { n, offsetof(struct hw_knobs, f) }
static const struct { const char *name; size_t off; } hw_knob_table[] = {
	HW_KNOB("idle_lag", dma.idle_lag),
	HW_KNOB("idle_early", dma.idle_early),
	HW_KNOB("first_beat", dma.first_beat),
	HW_KNOB("mm2s_gap", dma.mm2s_gap),
	HW_KNOB("s2mm_stall", dma.s2mm_stall),
	HW_KNOB("error_beat", dma.error_beat),
	HW_KNOB("error_chan", dma.error_chan),
	HW_KNOB("overtake", overtake),
	HW_KNOB("late", late),
	HW_KNOB("no_reset_line", no_reset_line),
};

static void hw_apply(struct npukit_sim *s)
{
	s->k = hw_knobs;
	s->k.overtake = min_t(u32, s->k.overtake, HW_OVERTAKE_MAX);
	s->dma.k = s->k.dma;
}

int hwemu_knob_set(const char *name, uint64_t val)
{
	unsigned int i;

	if (!strcmp(name, "dma_error")) {
		for (i = 0; i < HW_INSTANCES; i++)
			if (hw_instances[i])
				axi_dma_inject(&hw_instances[i]->dma, val);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(hw_knob_table); i++) {
		if (strcmp(name, hw_knob_table[i].name))
			continue;
		*(u32 *)((char *)&hw_knobs + hw_knob_table[i].off) = val;
		hw_knobs_named |= 1u << i;
		for (i = 0; i < HW_INSTANCES; i++)
			if (hw_instances[i])
				hw_apply(hw_instances[i]);
		return 0;
	}
	return -1;
}

/* NPUKIT_HWEMU="name=value,...": a bad entry is reported and ignored */
static void hw_read_env(void)
{
	const char *env = getenv("NPUKIT_HWEMU");
	char buf[256], *save = NULL, *tok;

	hw_env_read = true;
	if (!env)
		return;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		unsigned long v;

		if (eq) {
			*eq = 0;
			v = strtoul(eq + 1, &end, 0);
		}
		if (!eq || *end || !eq[1] || hwemu_knob_set(tok, v))
			fprintf(stderr, "hw-emu: NPUKIT_HWEMU: ignoring \"%s\"\n", tok);
	}
}

void hwemu_stats(struct hwemu_stats *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < HW_INSTANCES; i++) {
		struct npukit_sim *s = hw_instances[i];

		if (!s)
			continue;
		out->cycles += s->cyc;
		out->clocked += s->st.clocked;
		out->busy_cycles += s->st.busy_cycles;
		out->runs += s->st.runs;
		out->run_cycles += s->st.run_cycles;
		out->dma_bytes += s->dma.mm2s.bytes + s->dma.s2mm.bytes;
		out->dropped += s->dma.mm2s.dropped + s->dma.s2mm.dropped;
		out->injected += s->dma.injected;
		out->reads += s->st.reads;
		out->writes += s->st.writes;
		out->violations += s->mon.violations;
	}
}

const char *hwemu_backend(void)
{
	return hwemu_npu_name();
}

/* Writes that have reached their slave by cycle @c, in issue order */
static void hw_land(struct npukit_sim *s, u64 c)
{
	unsigned int i = 0;

	while (i < s->wq_len) {
		struct hw_write w = s->wq[i];

		if (w.land / HW_CYCLE_NS > c) {
			i++;
			continue;
		}
		s->wq_len--;
		memmove(&s->wq[i], &s->wq[i + 1], (s->wq_len - i) * sizeof(w));
		if (w.space == NPUKIT_SPACE_DMA) {
			u64 dropped = s->dma.mm2s.dropped + s->dma.s2mm.dropped;
			u32 sr_off = w.off < PG021_S2MM_BASE ? PG021_MM2S_DMASR :
				     PG021_S2MM_DMASR;

			s->dma.cycle = c;
			axi_dma_write(&s->dma, w.off, w.val);
			/* only an error the driver has yet to see excuses one */
			if (s->dma.mm2s.dropped + s->dma.s2mm.dropped != dropped &&
			    !(axi_dma_read(&s->dma, sr_off) & PG021_DMASR_DMA_ERRORS))
				hwemu_monitor_dma(&s->mon, c,
							 "a DMA LENGTH write was ignored (channel halted, stopped or busy)");
		} else {
			s->aw[s->aw_len++] = w;
		}
	}
}

/* One clock cycle of the PL */
static void hw_cycle(struct npukit_sim *s)
{
	struct hwemu_pins *p = &s->pins;
	u64 c = s->cyc;
	bool aw_fire, ar_fire, beat;

	hw_land(s, c);
	p->rst_n = !s->reset_left && !s->reset_held;
	axi_dma_drive(&s->dma, c, p);
	p->awvalid = p->wvalid = s->aw_len;
	if (s->aw_len) {
		p->awaddr = s->aw[0].off;
		p->wdata = s->aw[0].val;
		p->wstrb = 0xf;
	}
	p->bready = true;
	p->rready = true;
	hwemu_npu_settle(s->npu, p);
	aw_fire = p->awvalid && p->awready && p->wready;
	ar_fire = p->arvalid && p->arready;
	beat = (p->s_tvalid && p->s_tready) || (p->m_tvalid && p->m_tready);
	if (p->rvalid && !s->r_have) {
		s->r_have = true;
		s->rdata = p->rdata;
	}
	if (aw_fire)
		hwemu_monitor_write(&s->mon, c, s->aw[0].off, s->aw[0].val, p, &s->dma);
	if (ar_fire)
		hwemu_monitor_read(&s->mon, c, p->araddr);
	hwemu_monitor_cycle(&s->mon, c, p);
	axi_dma_clock(&s->dma, p);
	if (p->busy) {
		s->st.busy_cycles++;
		if (!s->was_busy)
			s->busy_since = c;
	}
	if (p->done && !s->was_done) {
		s->st.runs++;
		s->st.run_cycles += c - s->busy_since;
	}
	s->was_busy = p->busy;
	s->was_done = p->done;
	/* a reset held past its first cycles changes nothing more: quiet */
	if (aw_fire || ar_fire || beat || p->busy || s->reset_left)
		s->quiet_from = c + HW_SETTLE_CYCLES;
	hwemu_npu_clock(s->npu, p);
	if (aw_fire)
		memmove(&s->aw[0], &s->aw[1], --s->aw_len * sizeof(s->aw[0]));
	if (ar_fire)
		p->arvalid = false;
	if (s->reset_left)
		s->reset_left--;
	s->st.clocked++;
	s->cyc++;
}

/* Nothing can change before the next write lands: the cycle to skip to */
static u64 hw_quiet_until(struct npukit_sim *s)
{
	u64 next = U64_MAX;
	unsigned int i;

	if (s->aw_len || s->pins.arvalid || s->reset_left || s->pins.busy ||
	    s->cyc < s->quiet_from || (!axi_dma_quiet(&s->dma) && !s->reset_held))
		return s->cyc;
	for (i = 0; i < s->wq_len; i++)
		next = min(next, s->wq[i].land / HW_CYCLE_NS);
	return next;
}

/* Model every cycle that starts before @t ns */
static void hw_advance(struct npukit_sim *s, u64 t)
{
	u64 end = DIV_ROUND_UP(t, HW_CYCLE_NS);

	while (s->cyc < end) {
		u64 skip = min(hw_quiet_until(s), end);

		if (skip > s->cyc) {
			s->cyc = skip;
			s->dma.cycle = skip;
			continue;
		}
		hw_cycle(s);
	}
}

u32 npukit_sim_read(struct npukit_sim *sim, enum npukit_space space, u32 off)
{
	u32 val;

	hw_advance(sim, sim->now + HW_READ_SAMPLE_NS);
	if (space == NPUKIT_SPACE_DMA) {
		sim->dma.cycle = sim->cyc;
		val = axi_dma_read(&sim->dma, off);
	} else {
		u64 give_up = sim->cyc + HW_READ_MAX_CYCLES;

		sim->pins.arvalid = true;
		sim->pins.araddr = off;
		sim->r_have = false;
		while (!sim->r_have) {
			if (sim->cyc == give_up) {
				fprintf(stderr, "hw-emu: the NPU did not answer a read of %#x%s\n", off,
					sim->reset_held ? " (the PL is held in reset: the bus hangs)" : "");
				abort();
			}
			hw_cycle(sim);
		}
		sim->r_have = false;
		val = sim->bad_id ? 0 : sim->rdata;
	}
	sim->now = max(sim->now + HW_READ_RTT_NS, sim->cyc * HW_CYCLE_NS);
	sim->st.reads++;
	return val;
}

/*
 * readl() on 32-bit ARM (npukit_npu_read_wait()): a read of the NPU
 * arrives behind the writes to it issued before (UG585 3.2.4: one
 * peripheral, program order), and the DSB after it issues nothing until
 * its response is back; so every NPU write before it has reached the RTL.
 */
/* Every NPU write issued so far taken by the NPU, a read sampling from @t on: when it arrives */
static u64 hw_push_npu(struct npukit_sim *sim, u64 t)
{
	hw_advance(sim, max(t, sim->npu_land));
	while (sim->aw_len)
		hw_cycle(sim);
	return sim->cyc * HW_CYCLE_NS;
}

u32 npukit_sim_read_wait(struct npukit_sim *sim, enum npukit_space space, u32 off)
{
	u64 arrive;
	u32 val;

	if (space != NPUKIT_SPACE_NPU)
		return npukit_sim_read(sim, space, off);
	arrive = hw_push_npu(sim, sim->now + HW_READ_SAMPLE_NS);
	val = npukit_sim_read(sim, space, off);
	/* and its response has the way back to travel before the CPU goes on */
	sim->now = max(sim->now, arrive + HW_READ_RTT_NS - HW_READ_SAMPLE_NS);
	return val;
}

/*
 * On a board the ordering read is readl_relaxed() then mb(): the read
 * has sampled already, and the DSB waits for what npukit_sim_read_wait()
 * waits for, the NPU writes issued before it landed and its response back
 */
void hwemu_bus_barrier(struct npukit_sim *bus)
{
	u64 arrive = hw_push_npu(bus, 0);

	bus->now = max(bus->now, arrive + HW_READ_RTT_NS - HW_READ_SAMPLE_NS);
}

/*
 * To the last whole cycle before the CPU's present: a write issued from
 * now on lands no sooner than now (HW_OVERTAKE_MAX), so nothing modelled
 * here could have been changed by it
 */
void hwemu_bus_sync(struct npukit_sim *bus)
{
	hw_advance(bus, bus->now - bus->now % HW_CYCLE_NS);
}

bool hwemu_bus_introut(struct npukit_sim *bus, int chan)
{
	return axi_dma_introut(&bus->dma, chan == 1);
}

void npukit_sim_write(struct npukit_sim *sim, enum npukit_space space, u32 off, u32 val)
{
	struct hw_write *w;

	u64 give_up = sim->cyc + HW_WRITE_MAX_CYCLES;

	/* the CPU stalls while its write buffer is full */
	while (sim->wq_len + sim->aw_len >= HW_WRITE_QUEUE) {
		if (sim->cyc >= give_up) {
			fprintf(stderr, "hw-emu: the NPU takes no write%s\n",
				sim->reset_held ? " (the PL is held in reset: the bus hangs)" : "");
			abort();
		}
		hw_advance(sim, (sim->cyc + 1) * HW_CYCLE_NS);
		sim->now = max(sim->now, sim->cyc * HW_CYCLE_NS);
	}
	w = &sim->wq[sim->wq_len++];
	w->land = sim->now + HW_WRITE_LAND_NS;
	if (space == NPUKIT_SPACE_DMA) {
		w->land -= (u64)sim->k.overtake * HW_CYCLE_NS;
		w->land = max(w->land, sim->dma_land);
		sim->dma_land = w->land;
	} else {
		w->land += (u64)sim->k.late * HW_CYCLE_NS;
		w->land = max(w->land, sim->npu_land);
		sim->npu_land = w->land;
	}
	w->space = space;
	w->off = off;
	w->val = val;
	sim->now += HW_WRITE_NS;
	sim->st.writes++;
}

u64 npukit_sim_now(struct npukit_sim *sim)
{
	return sim->now;
}

void npukit_sim_delay(struct npukit_sim *sim, u32 ns)
{
	sim->now += ns;
}

/* Polled only (the header comment): there is nothing to deliver with */
void npukit_sim_set_irq(struct npukit_sim *sim, irq_handler_t fn, void *data)
{
	if (fn) {
		fprintf(stderr, "hw-emu: no interrupts in userspace (run with sim_irq=0)\n");
		abort();
	}
}

void npukit_sim_irq_sync(struct npukit_sim *sim)
{
}

/* While the driver sleeps, board time follows real time. */
void npukit_sim_sleep_begin(struct npukit_sim *sim)
{
	sim->real_mark = ktime_get_ns();
}

void npukit_sim_sleep_end(struct npukit_sim *sim)
{
	sim->now += ktime_get_ns() - sim->real_mark;
}

/*
 * The DMA model reaches a DMA buffer's memory, not the CPU's view of it:
 * HP0 is not coherent, and the shim models the cache between (shim_dma.h).
 * Memory that is not a whole DMA buffer (a test program's own arrays,
 * monitor_test.c) is reached as it is.
 */
int npukit_sim_add_window(struct npukit_sim *sim, dma_addr_t addr, void *cpu, size_t size)
{
	void *mem;

	if (addr > U32_MAX || size > U32_MAX - addr)
		return -EINVAL;
	mem = shim_dma_memory(addr, cpu, size);
	return axi_dma_add_window(&sim->dma, addr, mem ? mem : cpu, size) ? -ENOSPC : 0;
}

/* The DMA model's accesses to memory, against the cache model's rules */
static void hw_dma_memory(void *ctx, uint32_t addr, uint32_t len, bool write, bool done)
{
	struct npukit_sim *s = ctx;
	const char *why;

	if (done) {
		shim_dma_device_wrote(addr, len);
		return;
	}
	why = shim_dma_device_access(addr, len, write);
	if (why)
		hwemu_monitor_dma(&s->mon, s->cyc, why);
}

void npukit_sim_counters(struct npukit_sim *sim, struct npukit_sim_counters *out)
{
	out->reads = sim->st.reads;
	out->writes = sim->st.writes;
	out->dma_bytes = sim->dma.mm2s.bytes + sim->dma.s2mm.bytes;
	out->gemm_runs = sim->st.runs;
	out->gemm_ns = sim->st.run_cycles * HW_CYCLE_NS;
	out->dropped = sim->dma.mm2s.dropped + sim->dma.s2mm.dropped;
}

/* The CPU's share is counted, not timed: hw-emu measures the PL's side */
void npukit_sim_cpu(struct npukit_sim *sim, enum npukit_cpu_item item, u32 n)
{
	if (item < NPUKIT_CPU_ITEMS)
		sim->cpu.count[item] += n;
}

void npukit_sim_cpu_sync(struct npukit_sim *sim, size_t bytes)
{
	npukit_sim_cpu(sim, NPUKIT_CPU_SYNC, 1);
	npukit_sim_cpu(sim, NPUKIT_CPU_LINE, DIV_ROUND_UP(bytes, 32));
}

void npukit_sim_cpu_counters(struct npukit_sim *sim, struct npukit_sim_cpu *out)
{
	*out = sim->cpu;
}

void npukit_sim_debugfs(struct npukit_sim *sim, struct dentry *dir)
{
}

/* The driver's timing parameters, unless a knob of the same name was set */
static bool hw_knob_named(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hw_knob_table); i++)
		if (!strcmp(name, hw_knob_table[i].name))
			return hw_knobs_named & 1u << i;
	return false;
}

void npukit_sim_set_timing(struct npukit_sim *sim, const struct npukit_sim_timing *t)
{
	if (!hw_knob_named("idle_lag"))
		hw_knobs.dma.idle_lag = t->idle_lag;
	if (!hw_knob_named("first_beat"))
		hw_knobs.dma.first_beat = t->first_beat;
	if (!hw_knob_named("overtake"))
		hw_knobs.overtake = t->overtake;
	if (!hw_knob_named("late"))
		hw_knobs.late = t->npu_lag;
	hw_apply(sim);
}

/* The board wires FCLK_RESET0_N to the driver, unless the knob says not */
bool npukit_sim_has_reset_line(struct npukit_sim *sim)
{
	return !sim->k.no_reset_line;
}

/* FCLK_RESET0_N: the NPU and the DMA to their power-on state; writes in flight are lost */
void npukit_sim_pl_reset(struct npukit_sim *sim)
{
	hw_advance(sim, sim->now);
	sim->wq_len = 0;
	sim->aw_len = 0;
	sim->pins.arvalid = false;
	sim->dma_land = sim->npu_land = sim->now;
	axi_dma_pl_reset(&sim->dma);
	hwemu_monitor_reset(&sim->mon);
	sim->reset_left = HW_RESET_CYCLES;
}

/*
 * A board's reset line held: the NPU's rst_n low (clocked low for
 * HW_RESET_CYCLES, then held), the DMA in reset, writes in flight lost;
 * released, both go on from their power-on state
 */
void hwemu_bus_reset(struct npukit_sim *bus, bool asserted)
{
	if (asserted == bus->reset_held)
		return;
	if (asserted) {
		npukit_sim_pl_reset(bus);
		bus->dma.reset_until = U64_MAX;
	} else {
		hwemu_bus_sync(bus);
		bus->dma.reset_until = bus->cyc;
	}
	bus->reset_held = asserted;
}

/* A board's DMA reaches DMA buffers by bus address, not by window */
static uint8_t *hw_board_memory(uint32_t addr, uint32_t len)
{
	return shim_dma_bus_memory(addr, len);
}

struct npukit_sim *hwemu_bus_create(void)
{
	struct npukit_sim *bus = npukit_sim_create(NULL, false);

	if (!bus)
		return NULL;
	shim_dma_noncoherent_all();
	bus->dma.mem_find = hw_board_memory;
	return bus;
}

struct npukit_sim *npukit_sim_create(struct device *dev, bool bad_id)
{
	struct npukit_sim *sim = calloc(1, sizeof(*sim));
	unsigned int i;

	if (!sim)
		return NULL;
	sim->npu = hwemu_npu_create();
	if (!sim->npu) {
		free(sim);
		return NULL;
	}
	if (!hw_env_read)
		hw_read_env();
	sim->bad_id = bad_id;
	axi_dma_init(&sim->dma, &hw_knobs.dma);
	sim->dma.mem_access = hw_dma_memory;
	sim->dma.mem_ctx = sim;
	hw_apply(sim);
	sim->reset_left = HW_RESET_CYCLES;
	for (i = 0; i < HW_INSTANCES; i++) {
		if (!hw_instances[i]) {
			hw_instances[i] = sim;
			break;
		}
	}
	return sim;
}

void npukit_sim_destroy(struct npukit_sim *sim)
{
	unsigned int i;

	if (!sim)
		return;
	for (i = 0; i < HW_INSTANCES; i++)
		if (hw_instances[i] == sim)
			hw_instances[i] = NULL;
	hwemu_npu_destroy(sim->npu);
	free(sim);
}
