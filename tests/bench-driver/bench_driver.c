// SPDX-License-Identifier: GPL-2.0
/*
 * bench_driver - what one kick costs through /dev/npukit
 *
 * 1. Per kick, from SUBMIT's Out counters of large batches: MMIO reads and
 *    writes, DMA bytes, and device time (modelled board time on the
 *    simulated NpuKit), next to the board-measured ~20 us per 8x8
 *    load+run+readback of NpuKit's C++ /dev/mem host code.
 * 2. Kicks per second through the ioctl (wall clock, host or VM CPU),
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

/* A batch of @n kicks: runs of @klen accumulating kicks, each read back. */
static uint32_t make_batch(struct npukit_kick *k, uint32_t n, uint32_t klen,
			   uint32_t nres, uint64_t *st)
{
	uint32_t reads = 0;

	memset(k, 0, sizeof(*k) * n);
	for (uint32_t i = 0; i < n; i++) {
		npu_fill_random(&k[i], st);
		if (i % klen == 0)
			k[i].flags = NPUKIT_KICK_CLEAR;
		if (i % klen == klen - 1 || i == n - 1) {
			k[i].flags |= NPUKIT_KICK_READ_C;
			k[i].c_slot = reads++ % nres;
		}
	}
	return reads;
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

static int per_kick_costs(struct npukit_kick *k, npu_ctile *res, uint32_t nmax)
{
	static const uint32_t klens[] = { 1, 8, 64, 512 };
	uint64_t st = 1;

	printf("# bench: per kick, from SUBMIT's counters (%s backend, IP 0x%x)\n",
	       info.backend == NPUKIT_BACKEND_SIMULATED ? "simulated" : "hardware",
	       info.ip_version);
	printf("# bench: %6s %6s %6s %9s %9s %9s %10s %8s\n", "kicks", "K-run",
	       "reads", "rd/kick", "wr/kick", "B/kick", "dev us/k", "vs 20us");
	for (size_t i = 0; i < sizeof(klens) / sizeof(klens[0]); i++) {
		uint32_t n = nmax, nres = info.max_results < 64 ? info.max_results : 64;
		struct npukit_submit s;
		uint32_t reads = make_batch(k, n, klens[i], nres, &st);
		double us;

		if (submit(k, n, res, nres, &s) || check_results(k, n, res, nres))
			return -1;
		us = s.device_ns / 1000.0 / n;
		printf("# bench: %6u %6u %6u %9.2f %9.2f %9.1f %10.3f %7.1fx\n",
		       n, klens[i], reads, (double)s.mmio_reads / n,
		       (double)s.mmio_writes / n, (double)s.dma_bytes / n, us,
		       us > 0 ? BOARD_US_PER_KICK / us : 0.0);
	}
	printf("# bench: K-run 1 = load+run+readback per kick, the board's ~%.0f us case\n",
	       BOARD_US_PER_KICK);
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
		make_batch(k, n, 64, nres, &st);
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
	if (k && res && !per_kick_costs(k, res, nmax) && !kicks_per_second(k, res))
		rc = 0;
	printf("%sok 1 bench_driver\n", rc ? "not " : "");
	free(k);
	free(res);
	close(fd);
	return rc;
}
