// SPDX-License-Identifier: GPL-2.0
/*
 * hwemu_storm.c - the fault storm against the co-simulated NpuKit: random
 * batches through the unmodified driver built in userspace (driver_user.h)
 * while DMA errors are injected mid-transfer on either channel at a random
 * beat, and one batch in eight has a deadline that may pass mid-batch.
 *
 * Every SUBMIT that returns 0 must have every result right; one that
 * fails must say why with a documented errno and status (EIO with
 * DMA_ERROR or DEVICE_FAILED, ETIMEDOUT with TIMEOUT), must have been
 * caused by this program (an EIO with DMA_ERROR only in a batch in which
 * an injected DMA error struck, as the DMA model counts them, one with
 * DEVICE_FAILED only after one struck or a short deadline passed since
 * the driver was bound; an ETIMEDOUT only in a batch given a short
 * deadline), and every slot it read back before the
 * failure (kicks below kicks_done) must be right. A
 * failed device is unbound and bound again, as root would (a new instance:
 * with no_reset_line, as after reloading the bitstream). Afterwards a
 * clean batch must run right. TAP on stdout.
 *
 *   hwemu_storm BATCHES SEED [failed] [board]
 *       failed: some injections are bursts of errors that outlast
 *       recovery, and the failed state (EIO, status 5) must be met too
 *       board: on the emulated board, through the driver's hardware branch
 *       (hwemu_board.h): recovery pulls the node's reset line, a failed
 *       device is unbound and bound again with a new PL, and deadlines are
 *       the board's time (20 to 320 us: a batch takes up to about 300)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npukit.h"
#include "npukit_ref.h"

#include "driver_user.h"
#include "hwemu.h"
#include "hwemu_board.h"

#define MAXK		200
#define NRES		8
#define POISON		0x5a

static struct driver_user_file *node;
static bool board;

static int load(void)
{
	struct hwemu_board_config stock = { 0 };

	if (driver_user_param("sim_devices", board ? 0 : 1) || driver_user_load())
		return -1;
	if (board && hwemu_board_add(&stock))
		return -1;
	node = driver_user_open("npukit0");
	return node ? 0 : -1;
}

static void unload(void)
{
	driver_user_close(node);
	if (board)
		hwemu_board_remove();
	driver_user_unload();
}

/* Slots read back by kicks [0, @done): right in @got */
static int prefix_right(const struct npukit_kick *k, uint32_t done,
			const npu_ctile *got)
{
	static npu_ctile want[NRES];
	uint32_t i;

	npu_ref_batch(k, done, want);
	for (i = 0; i < done; i++)
		if ((k[i].flags & NPUKIT_KICK_READ_C) &&
		    memcmp(got[k[i].c_slot], want[k[i].c_slot], sizeof(want[0])))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	static struct npukit_kick k[MAXK];
	static npu_ctile want[NRES], got[NRES];
	unsigned long batches, ok = 0, eio = 0, timeouts = 0, rebinds = 0, injected = 0;
	unsigned long failed_seen = 0, struck = 0, short_deadlines = 0;
	/*
	 * Since the driver was bound: injected errors that struck and
	 * deadlines that passed, either of which can leave the device failed
	 * (without a PL reset line, a C stream cut short stays stuck)
	 */
	unsigned long caused_bound = 0;
	uint64_t seed;
	struct npukit_submit s;
	bool want_failed = false;
	int bad = 0;

	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "failed"))
			want_failed = true;
		else if (!strcmp(argv[i], "board"))
			board = true;
		else
			argc = 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: hwemu_storm BATCHES SEED [failed] [board]\n");
		return 2;
	}
	batches = strtoul(argv[1], NULL, 0);
	seed = strtoull(argv[2], NULL, 0) | 1;
	if (load()) {
		printf("not ok 1 fault storm: the driver does not load\n");
		return 1;
	}
	printf("TAP version 13\n1..2\n");
	for (unsigned long b = 0; b < batches && !bad; b++) {
		uint32_t n = 1 + npu_rand(&seed) % MAXK;
		struct hwemu_stats before, after;
		bool short_deadline = false;
		long ret;

		npu_random_batch(k, n, NRES, &seed);
		memset(got, POISON, sizeof(got));
		npu_submit_init(&s, k, n, got, NRES);
		s.timeout_ns = npu_now_ns() + NPU_DEADLINE_NS;
		if (!(npu_rand(&seed) % 4)) {
			/* with "failed", one in four a burst that outlasts recovery */
			uint32_t burst = want_failed && !(npu_rand(&seed) % 4) ? 8 : 1;

			hwemu_knob_set("error_beat", npu_rand(&seed) % 64);
			hwemu_knob_set("error_chan", npu_rand(&seed) % 3);
			hwemu_knob_set("dma_error", burst);
			injected += burst;
		}
		/*
		 * device time runs ~1000x slower than real time here, but on
		 * the board the driver's clock is the board's
		 */
		if (!(npu_rand(&seed) % 8)) {
			s.timeout_ns = npu_now_ns() + (board ? 20000 + npu_rand(&seed) % 300000 :
						       1000000 + npu_rand(&seed) % 50000000);
			short_deadline = true;
			short_deadlines++;
		}
		hwemu_stats(&before);
		ret = driver_user_ioctl(node, NPUKIT_IOCTL_SUBMIT, &s);
		hwemu_stats(&after);
		struck += after.injected - before.injected;
		caused_bound += after.injected - before.injected;
		if (!ret) {
			ok++;
			memset(want, POISON, sizeof(want));
			npu_ref_batch(k, n, want);
			if (s.kicks_done != n || s.status || memcmp(want, got, sizeof(got))) {
				printf("# batch %lu of %u kicks returned 0 with %s\n", b, n,
				       s.kicks_done != n ? "a short count" : "a wrong tile");
				bad = 1;
			}
			continue;
		}
		if (ret == -EIO && (s.status == NPUKIT_STATUS_DMA_ERROR ||
				    s.status == NPUKIT_STATUS_DEVICE_FAILED)) {
			eio++;
			/* a device failed by earlier strikes stays failed */
			if (s.status == NPUKIT_STATUS_DEVICE_FAILED ? !caused_bound :
			    after.injected == before.injected) {
				printf("# batch %lu: EIO (status %u) with no injected error striking\n",
				       b, s.status);
				bad = 1;
			}
		} else if (ret == -ETIMEDOUT && s.status == NPUKIT_STATUS_TIMEOUT) {
			timeouts++;
			caused_bound++;
			if (!short_deadline) {
				printf("# batch %lu: ETIMEDOUT with the %llu s deadline (%u of %u kicks done)\n",
				       b, NPU_DEADLINE_NS / 1000000000ULL, s.kicks_done, n);
				bad = 1;
			}
		} else {
			printf("# batch %lu: SUBMIT returned %ld with status %u\n", b, ret, s.status);
			bad = 1;
			continue;
		}
		if (s.kicks_done > n || !prefix_right(k, s.kicks_done, got)) {
			printf("# batch %lu: a slot read back before the failure is wrong (kicks_done %u of %u)\n",
			       b, s.kicks_done, n);
			bad = 1;
		}
		if (s.status == NPUKIT_STATUS_DEVICE_FAILED) {
			failed_seen++;
			unload();
			rebinds++;
			caused_bound = 0;
			if (load()) {
				printf("# batch %lu: the driver does not bind again\n", b);
				bad = 1;
			}
		}
	}
	hwemu_knob_set("dma_error", 0);
	printf("%sok 1 fault storm: %lu batches, %lu errors injected, %lu struck, %lu short deadlines: %lu right, %lu EIO, %lu ETIMEDOUT, %lu rebinds; no failure not caused\n",
	       bad ? "not " : "", batches, injected, struck, short_deadlines, ok, eio,
	       timeouts, rebinds);
	if (!bad && (!eio || !ok || (want_failed && !failed_seen))) {
		printf("not ok 2 the storm did not exercise %s\n",
		       want_failed && !failed_seen ? "the failed state" : "both outcomes");
		return 1;
	}
	/* after the storm, a clean batch */
	npu_random_batch(k, MAXK, NRES, &seed);
	memset(got, POISON, sizeof(got));
	memset(want, POISON, sizeof(want));
	npu_ref_batch(k, MAXK, want);
	npu_submit_init(&s, k, MAXK, got, NRES);
	s.timeout_ns = npu_now_ns() + NPU_DEADLINE_NS;
	if (driver_user_ioctl(node, NPUKIT_IOCTL_SUBMIT, &s) || memcmp(want, got, sizeof(got))) {
		printf("not ok 2 a clean batch after the storm: status %u\n", s.status);
		bad = 1;
	} else {
		printf("ok 2 a clean batch after the storm\n");
	}
	{
		struct hwemu_stats st;

		hwemu_stats(&st);
		printf("# %llu cycles modelled, %llu GEMM runs, %llu DMA LENGTH writes ignored, %llu violations of what the driver relies on\n",
		       (unsigned long long)st.cycles, (unsigned long long)st.runs,
		       (unsigned long long)st.dropped, (unsigned long long)st.violations);
		bad |= st.violations != 0;
	}
	unload();
	return bad;
}
