// SPDX-License-Identifier: GPL-2.0
/*
 * bench_driver - what one kick costs through /dev/npukit
 *
 * 1. Per kick, from SUBMIT's Out counters of large batches: MMIO reads and
 *    writes, DMA bytes, and device time (modelled board time on the
 *    simulated NpuKit), next to the board-measured ~20 us per 8x8
 *    load+run+readback of NpuKit's C++ /dev/mem host code.
 * 2. Board time with one ruler (Documentation/npukit/board-time.rst): the
 *    CPU's share the simulator keeps beside its bus clock (cache lines,
 *    copies, system calls, the driver's code per kick), and NpuKit's C++
 *    host sequence run on the same model: its K-run 1 figure against its
 *    board measurement is the calibration, its weight-bank path a second
 *    point; then ours vs C++ model against model per K-run, with the
 *    calibrated absolute figures beside the raw ones.
 * 3. Kicks per second through the ioctl (wall clock, host or VM CPU),
 *    for batch sizes 1, 16, 256 and 4096.
 *
 * Figures are printed as "# bench: ..." lines (TAP comments), then one
 * "ok"/"not ok" line: the benchmark fails when a batch fails or a result
 * differs from the CPU reference, so a broken driver cannot post a figure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "npukit.h"

#include "npukit_ref.h"

#include "../lib/board_model.h"

#define BOARD_US_PER_KICK	20.0	/* C++ /dev/mem host code, VERSION 0x302 */
#define DEADLINE_NS		(60LL * 1000 * 1000 * 1000)

static int fd;
static struct npukit_info info;

static int submit(struct npukit_kick *k, uint32_t n, npu_ctile *res,
		  uint32_t nres, struct npukit_submit *s)
{
	npu_submit_init(s, k, n, res, nres);
	s->timeout_ns = npu_now_ns() + DEADLINE_NS;
	if (ioctl(fd, NPUKIT_IOCTL_SUBMIT, s)) {
		fprintf(stderr, "# bench: SUBMIT of %u kicks: %s (status %u, %u done)\n",
			n, strerror(errno), s->status, s->kicks_done);
		return -1;
	}
	return 0;
}

static int check_results(struct npukit_kick *k, uint32_t n, npu_ctile *got,
			 uint32_t nres)
{
	npu_ctile *want = calloc(nres, sizeof(*want));
	int bad;

	if (!want)
		return -1;
	memcpy(want, got, sizeof(*want) * nres);
	npu_ref_batch(k, n, want);
	bad = memcmp(want, got, sizeof(*want) * nres) != 0;
	if (bad)
		fprintf(stderr, "# bench: result differs from the CPU reference\n");
	free(want);
	return bad ? -1 : 0;
}

static const uint32_t klens[] = { 1, 8, 64, 512 };

/* Ours per K-run, from the first table: bus and CPU us per kick. */
static double ours_bus[4], ours_cpu[4];
static struct board_counts ours_n[4];
static int have_cpu;

static int per_kick_costs(struct npukit_kick *k, npu_ctile *res, uint32_t nmax)
{
	uint64_t st = 1;

	printf("# bench: per kick, from SUBMIT's counters (%s backend, IP 0x%x)\n",
	       info.backend == NPUKIT_BACKEND_SIMULATED ? "simulated" : "hardware",
	       info.ip_version);
	printf("# bench: %6s %6s %6s %9s %9s %9s %10s\n", "kicks", "K-run",
	       "reads", "rd/kick", "wr/kick", "B/kick", "bus us/k");
	for (size_t i = 0; i < sizeof(klens) / sizeof(klens[0]); i++) {
		uint32_t n = nmax, nres = info.max_results < 64 ? info.max_results : 64;
		struct npukit_submit s;
		uint32_t reads = npu_krun_batch(k, n, klens[i], nres, &st);
		struct board_cpu c0, c1, dc;
		double us;

		have_cpu = !board_cpu_read(&c0);
		if (submit(k, n, res, nres, &s) || check_results(k, n, res, nres))
			return -1;
		have_cpu = have_cpu && !board_cpu_read(&c1);
		us = s.device_ns / 1000.0 / n;
		ours_bus[i] = us;
		if (have_cpu) {
			board_cpu_diff(&c1, &c0, &dc);
			ours_cpu[i] = dc.ns / 1000.0 / n;
			ours_n[i] = (struct board_counts){
				.reads = (double)s.mmio_reads / n,
				.transfers = (double)(n + reads) / n,
				.syscalls = (double)dc.syscalls / n,
				.syncs = (double)dc.syncs / n,
				.lines = (double)dc.lines / n,
				.copy_bytes = (double)dc.copy_bytes / n,
				.kicks = 1.0,
				.readbacks = (double)reads / n,
			};
		}
		printf("# bench: %6u %6u %6u %9.2f %9.2f %9.1f %10.3f\n",
		       n, klens[i], reads, (double)s.mmio_reads / n,
		       (double)s.mmio_writes / n, (double)s.dma_bytes / n, us);
	}
	printf("# bench: counts from SUBMIT's counters; bus us/k: the model's bus time (device_ns), no CPU share\n");
	printf("# bench: K-run 1 = load+run+readback per kick, the case the C++ host's board measurement (~%.0f us, measured) is of:\n",
	       BOARD_US_PER_KICK);
	printf("# bench: it is set against ours only model against model (below), never against this bus figure\n");
	return 0;
}

/* The CPU's share of our kicks, and the C++ host's sequence on the model. */
static int one_ruler(void)
{
	struct board_host_run h1, hw, hk;
	struct board_counts hn;
	double cal, host1, wmem, sys_us;
	int ret;

	if (!have_cpu) {
		printf("# bench: board time with one ruler: skipped, the instance keeps no CPU share (hardware)\n");
		return 0;
	}
	printf("# bench: the CPU's share per kick (cache maintenance, copies, ioctl, driver code)\n");
	printf("# bench: %6s %8s %8s %8s %9s %9s %10s\n", "K-run", "syncs/k", "lines/k",
	       "copyB/k", "bus us/k", "cpu us/k", "board us/k");
	for (size_t i = 0; i < sizeof(klens) / sizeof(klens[0]); i++)
		printf("# bench: %6u %8.3f %8.2f %8.1f %9.3f %9.3f %10.3f\n", klens[i],
		       ours_n[i].syncs, ours_n[i].lines, ours_n[i].copy_bytes, ours_bus[i], ours_cpu[i],
		       ours_bus[i] + ours_cpu[i]);

	/* the board's measurement: 320 matmul_i8(8x8x8) calls */
	ret = board_host_run(320, 1, BOARD_PATH_AB, &h1);
	if (!ret)
		ret = board_host_run(320, 1, BOARD_PATH_WMEM, &hw);
	if (ret) {
		fprintf(stderr, "# bench: the C++ host sequence on the model: %s\n", strerror(-ret));
		return -1;
	}
	host1 = board_host_us(&h1);
	wmem = board_host_us(&hw);
	cal = BOARD_HOST_US / host1;
	printf("# bench: C++ host sequence on the model (debugfs legacy), 320 kicks of 8x8x8:\n");
	printf("# bench: %-12s %8s %8s %9s %9s %10s %10s\n", "path", "rd/kick", "wr/kick",
	       "bus us/k", "cpu us/k", "model us/k", "board us/k");
	printf("# bench: %-12s %8.2f %8.2f %9.3f %9.3f %10.3f %10.2f\n", "A||B", (double)h1.reads / 320,
	       (double)h1.writes / 320, h1.bus_ns / 320e3, h1.cpu_ns / 320e3, host1, BOARD_HOST_US);
	printf("# bench: %-12s %8.2f %8.2f %9.3f %9.3f %10.3f %10.2f\n", "weight bank",
	       (double)hw.reads / 320, (double)hw.writes / 320, hw.bus_ns / 320e3,
	       hw.cpu_ns / 320e3, wmem, BOARD_WMEM_US);
	printf("# bench: calibration: board %.2f us / model %.3f us = x%.2f (A||B, K-run 1)\n",
	       BOARD_HOST_US, host1, cal);
	printf("# bench: second point: weight bank model %.3f us x%.2f = %.2f us calibrated, board %.2f us (%+.0f%%)\n",
	       wmem, cal, wmem * cal, BOARD_WMEM_US, (wmem * cal / BOARD_WMEM_US - 1) * 100);
	/* the other reading: all of the gap is the host's sync system calls */
	sys_us = (BOARD_HOST_US - host1) / ((double)h1.syscalls / h1.kicks);
	printf("# bench: or: +%.2f us per system call (%.1f per kick); weight bank then %.2f us, board %.2f us (%+.0f%%)\n",
	       sys_us, (double)h1.syscalls / h1.kicks,
	       wmem + sys_us * hw.syscalls / hw.kicks, BOARD_WMEM_US,
	       ((wmem + sys_us * hw.syscalls / hw.kicks) / BOARD_WMEM_US - 1) * 100);

	printf("# bench: ours vs C++ host, model against model (us per kick; cal = x%.2f)\n", cal);
	printf("# bench: cal x: every figure times the calibration; cal +: the gap charged to system calls\n");
	printf("# bench: %6s %9s %9s %9s %11s %8s %10s %10s %10s\n", "K-run", "ours bus", "ours cpu",
	       "ours brd", "C++ model", "C++/ours", "ours cal x", "ours cal +", "C++ cal");
	for (size_t i = 0; i < sizeof(klens) / sizeof(klens[0]); i++) {
		double ours = ours_bus[i] + ours_cpu[i], host;

		ret = board_host_run(4096, klens[i], BOARD_PATH_AB, &hk);
		if (ret) {
			fprintf(stderr, "# bench: the C++ host sequence, K-run %u: %s\n", klens[i],
				strerror(-ret));
			return -1;
		}
		host = board_host_us(&hk);
		printf("# bench: %6u %9.3f %9.3f %9.3f %11.3f %7.1fx %10.2f %10.2f %10.2f\n", klens[i],
		       ours_bus[i], ours_cpu[i], ours, host, host / ours, ours * cal,
		       ours + sys_us * ours_n[i].syscalls, host * cal);
	}

	printf("# bench: sensitivity, model us per kick at each constant's low .. high:\n");
	board_sensitivity("ours K1", &ours_n[0], ours_bus[0] + ours_cpu[0]);
	board_sensitivity("ours K64", &ours_n[2], ours_bus[2] + ours_cpu[2]);
	board_host_counts(&h1, &hn);
	board_sensitivity("C++ K1", &hn, host1);
	return 0;
}

static int kicks_per_second(struct npukit_kick *k, npu_ctile *res)
{
	static const uint32_t sizes[] = { 1, 16, 256, 4096 };
	uint64_t st = 2;

	printf("# bench: ioctl throughput (wall clock of this CPU; in the VM: TCG emulation)\n");
	printf("# bench: %6s %8s %12s %10s %12s\n", "batch", "batches",
	       "kicks/s", "us/kick", "dev us/kick");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t n = sizes[i];
		uint32_t nres = info.max_results < 64 ? info.max_results : 64;
		uint64_t batches = 0, kicks = 0, dev_ns = 0;
		struct npukit_submit s;
		int64_t t0, t;

		if (n > info.max_kicks) {
			printf("# bench: %6u skipped: max_kicks is %u\n", n, info.max_kicks);
			continue;
		}
		npu_krun_batch(k, n, 64, nres, &st);
		if (submit(k, n, res, nres, &s) || check_results(k, n, res, nres))
			return -1;
		t0 = npu_now_ns();
		do {
			if (submit(k, n, res, nres, &s))
				return -1;
			batches++;
			kicks += n;
			dev_ns += s.device_ns;
			t = npu_now_ns();
		} while (t - t0 < 500 * 1000 * 1000LL || batches < 3);
		printf("# bench: %6u %8llu %12.0f %10.2f %12.3f\n", n,
		       (unsigned long long)batches, kicks * 1e9 / (t - t0),
		       (t - t0) / 1e3 / kicks, dev_ns / 1e3 / kicks);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = getenv("NPUKIT_DEVICE");
	struct npukit_kick *k;
	npu_ctile *res;
	uint32_t nmax;
	int rc = 1;

	if (!path || !*path)
		path = "/dev/npukit0";
	printf("TAP version 13\n1..1\n");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("ok 1 bench_driver # SKIP %s: %s\n", path, strerror(errno));
		return 0;
	}
	info.size = sizeof(info);
	if (ioctl(fd, NPUKIT_IOCTL_GET_INFO, &info)) {
		printf("not ok 1 bench_driver # GET_INFO: %s\n", strerror(errno));
		return 1;
	}
	nmax = info.max_kicks < 4096 ? info.max_kicks : 4096;
	k = calloc(nmax, sizeof(*k));
	res = calloc(info.max_results < 64 ? info.max_results : 64, sizeof(*res));
	if (k && res && !per_kick_costs(k, res, nmax) && !one_ruler() &&
	    !kicks_per_second(k, res))
		rc = 0;
	printf("%sok 1 bench_driver\n", rc ? "not " : "");
	free(k);
	free(res);
	close(fd);
	return rc;
}
