// SPDX-License-Identifier: GPL-2.0
/*
 * No device lock across user memory (issue 8, finding 5): a SUBMIT whose
 * pages fault slowly holds up no other process's SUBMIT, nor debugfs.
 *
 * The slow fault is a userfaultfd: the result page of a batch is missing
 * and registered, and the handler thread resolves the fault only once
 * another fd's SUBMIT has completed (or after a few seconds, which fails
 * the test). The faulting batch is one long sum across chunks, so the
 * other batch takes the array's accumulators in the middle of it: the
 * driver must notice and replay the sum, and the answer stays exact.
 */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/userfaultfd.h>

#include "npukit_test.h"

/* One sum over three chunks, a read-back at the end of each */
#define NSUM		192
#define HOLD_MS		5000

struct slow_fault {
	int uffd;
	long page;
	/* set by the handler when the kernel faulted on the page */
	atomic_int faulted;
	/* set by the test when the other SUBMIT completed */
	atomic_int other_done;
	/* the handler gave up waiting for it */
	int gave_up;
	int handler_err;
};

static void *fault_handler(void *arg)
{
	struct slow_fault *f = arg;
	struct pollfd pfd = { .fd = f->uffd, .events = POLLIN };
	struct uffd_msg msg;
	struct uffdio_zeropage zp;
	int waited;

	if (poll(&pfd, 1, 20000) != 1 ||
	    read(f->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		f->handler_err = 1;
		return NULL;
	}
	f->faulted = 1;
	for (waited = 0; !f->other_done && waited < HOLD_MS; waited++)
		usleep(1000);
	f->gave_up = !f->other_done;
	zp.range.start = msg.arg.pagefault.address & ~(uint64_t)(f->page - 1);
	zp.range.len = f->page;
	zp.mode = 0;
	if (ioctl(f->uffd, UFFDIO_ZEROPAGE, &zp))
		f->handler_err = 2;
	return NULL;
}

NPU_TEST_TIMEOUT(other_submit_runs_while_pages_fault, 60)
{
	static struct npukit_kick k[NSUM];
	npu_ctile want[3], want2[1], got2[1];
	struct slow_fault f = { .page = sysconf(_SC_PAGESIZE) };
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct npu_submitter t = { .fd = self->fd };
	struct npukit_kick k2[1];
	struct npukit_submit s2;
	pthread_t handler, th;
	npu_ctile *res;
	uint64_t seed = 55;
	int fd2, waited;

	f.uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (f.uffd < 0)
		SKIP(return, "userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(f.uffd, UFFDIO_API, &api));
	res = mmap(NULL, f.page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, res);
	reg.range.start = (uintptr_t)res;
	reg.range.len = f.page;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	ASSERT_EQ(0, ioctl(f.uffd, UFFDIO_REGISTER, &reg));

	memset(k, 0, sizeof(k));
	for (int i = 0; i < NSUM; i++)
		npu_fill_random(&k[i], &seed);
	k[0].flags = NPUKIT_KICK_CLEAR;
	for (int c = 0; c < 3; c++) {
		k[64 * c + 63].flags |= NPUKIT_KICK_READ_C;
		k[64 * c + 63].c_slot = c;
	}
	npu_ref_batch(k, NSUM, want);

	ASSERT_EQ(0, pthread_create(&handler, NULL, fault_handler, &f));
	npu_submit_init(&t.s, k, NSUM, res, 3);
	ASSERT_EQ(0, pthread_create(&th, NULL, npu_submit_thread, &t));
	for (waited = 0; !f.faulted && !f.handler_err && waited < 20000; waited++)
		usleep(1000);
	ASSERT_TRUE(f.faulted) TH_LOG("the batch never faulted on its results");

	/* the faulting batch holds nothing: debugfs and another fd go on */
	ASSERT_LE(0, npu_stat("batches"));
	fd2 = open(npu_device_path(), O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd2);
	npu_readback_batch(k2, 1, want2, 56);
	npu_submit_init(&s2, k2, 1, got2, 1);
	test_submit(fd2, &s2);
	f.other_done = 1;
	close(fd2);
	ASSERT_TILES_EQ(want2, got2, 1);

	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(0, pthread_join(handler, NULL));
	ASSERT_EQ(0, f.handler_err);
	ASSERT_FALSE(f.gave_up)
		TH_LOG("the other SUBMIT waited for the fault to be resolved");
	ASSERT_EQ(0, t.ret) TH_LOG("faulting batch: %s", strerror(t.err));
	ASSERT_EQ(NSUM, t.s.kicks_done);
	ASSERT_TILES_EQ(want, res, 3);
	munmap(res, f.page);
	close(f.uffd);
}

TEST_HARNESS_MAIN
