// SPDX-License-Identifier: GPL-2.0
/*
 * Several submitters at once: processes sharing one device, several opens
 * in one process, and every /dev/npukitN instance at once. The driver
 * serialises one hardware queue; each batch must still get its own
 * answers.
 */
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>

#include "npukit_test.h"

#define NPROC	4
#define NITER	12

/*
 * A child cannot use ASSERT_* (it would longjmp into the harness's copy),
 * so it reports by exit code: 0 ok, 1 ioctl failed, 2 wrong result.
 */
static int submit_loop(const char *path, uint64_t seed, uint32_t maxk)
{
	struct npukit_kick k[64];
	npu_ctile got[4], want[4];
	struct npukit_submit s;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return 1;
	if (maxk > 64)
		maxk = 64;
	for (int it = 0; it < NITER; it++) {
		uint32_t n = 1 + npu_rand(&seed) % maxk;

		npu_random_batch(k, n, 4, &seed);
		memset(got, 0, sizeof(got));
		memset(want, 0, sizeof(want));
		npu_ref_batch(k, n, want);
		npu_submit_init(&s, k, n, got, 4);
		if (ioctl(fd, NPUKIT_IOCTL_SUBMIT, &s)) {
			fprintf(stderr, "# pid %d iteration %d: SUBMIT: %s\n",
				getpid(), it, strerror(errno));
			close(fd);
			return 1;
		}
		if (memcmp(got, want, sizeof(got)) || s.kicks_done != n) {
			fprintf(stderr, "# pid %d iteration %d: wrong result\n",
				getpid(), it);
			close(fd);
			return 2;
		}
	}
	close(fd);
	return 0;
}

static int wait_all(pid_t *pids, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		int st;

		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0)
			bad++;
	}
	return bad;
}

NPU_TEST_TIMEOUT(forked_submitters, 120)
{
	pid_t pids[NPROC];

	if (npu_device_per_process())
		SKIP(return, NPU_PER_PROCESS_WHY);

	for (int i = 0; i < NPROC; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (pids[i] == 0)
			_exit(submit_loop(npu_device_path(), 1000 + i,
					  self->info.max_kicks));
	}
	ASSERT_EQ(0, wait_all(pids, NPROC));
}

/* Two opens of one device in one process interleave batches. */
NPU_TEST(two_opens_interleaved)
{
	int fd2 = open(npu_device_path(), O_RDWR | O_CLOEXEC);
	struct npukit_kick k[2] = { 0 };
	npu_ctile got[1], want[1];
	struct npukit_submit s;
	uint64_t st = 7;

	ASSERT_LE(0, fd2);
	for (int rep = 0; rep < 6; rep++) {
		npu_fill_random(&k[0], &st);
		npu_fill_random(&k[1], &st);
		k[0].flags = NPUKIT_KICK_CLEAR;
		k[1].flags = NPUKIT_KICK_READ_C;
		npu_ref_batch(k, 2, want);
		npu_submit_init(&s, k, 2, got, 1);
		test_submit(rep & 1 ? fd2 : self->fd, &s);
		ASSERT_TILES_EQ(want, got, 1);
	}
	close(fd2);
}

/* Every npukitN instance, each with its own submitter, at once. */
NPU_TEST_TIMEOUT(all_instances, 120)
{
	char paths[8][64];
	pid_t pids[8];
	int n = 0;
	DIR *d = opendir("/dev");
	struct dirent *e;

	ASSERT_NE(NULL, d);
	while ((e = readdir(d)) && n < 8) {
		unsigned int idx;
		char end;

		if (sscanf(e->d_name, "npukit%u%c", &idx, &end) == 1)
			snprintf(paths[n++], sizeof(paths[0]), "/dev/npukit%u", idx);
	}
	closedir(d);
	if (n < 2)
		SKIP(return, "only %d npukit instance(s)", n);
	TH_LOG("%d instances", n);
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (pids[i] == 0)
			_exit(submit_loop(paths[i], 2000 + i, self->info.max_kicks));
	}
	ASSERT_EQ(0, wait_all(pids, n));
}

/* An fd closed by exit in the middle of other users' work harms nobody. */
NPU_TEST_TIMEOUT(submitter_killed, 60)
{
	pid_t victim, other;

	if (npu_device_per_process())
		SKIP(return, NPU_PER_PROCESS_WHY);
	victim = fork();
	ASSERT_LE(0, victim);
	if (victim == 0) {
		for (;;)
			submit_loop(npu_device_path(), 99, self->info.max_kicks);
	}
	other = fork();
	ASSERT_LE(0, other);
	if (other == 0)
		_exit(submit_loop(npu_device_path(), 3000, self->info.max_kicks));
	usleep(50 * 1000);
	ASSERT_EQ(0, kill(victim, SIGKILL));
	ASSERT_EQ(victim, waitpid(victim, NULL, 0));
	ASSERT_EQ(0, wait_all(&other, 1));
	ASSERT_EQ(0, submit_loop(npu_device_path(), 4000, self->info.max_kicks));
}

TEST_HARNESS_MAIN
