// SPDX-License-Identifier: GPL-2.0
/*
 * Board time with one ruler (issue 11, Documentation/npukit/board-time.rst):
 * the simulated NpuKit's CPU account counts exactly the work the driver
 * does for a batch (one system call, one cache maintenance call per
 * buffer and chunk, a line per 32 bytes, the bytes it copies), and its
 * debugfs "legacy" file runs the C++ host's register sequence with exactly
 * that sequence's accesses and system calls, leaving the device usable.
 * On hardware these tests SKIP.
 */
#include "npukit_test.h"

#define NK		64
#define SEED		0xb0a2d7153ULL
#define LINE		32	/* Cortex-A9 and PL310 cache line */
#define AB_BYTES	(2 * NPUKIT_TILE_N * NPUKIT_TILE_N)	/* the A||B tile the DMA loads */

static const char *const items[] = {
	"sim_cpu_syscalls", "sim_cpu_syncs", "sim_cpu_lines", "sim_cpu_copy_bytes",
	"sim_cpu_kicks", "sim_cpu_readbacks", "sim_cpu_ns", "sim_cpu_pages",
};
#define NITEMS		(sizeof(items) / sizeof(items[0]))

/* Pages that [@p, @p + @len) touches */
static long long pages_spanned(const void *p, size_t len)
{
	uintptr_t page = sysconf(_SC_PAGESIZE), a = (uintptr_t)p;

	return (long long)((a + len - 1) / page - a / page + 1);
}

static void snap(struct __test_metadata *_metadata, long long *v)
{
	for (unsigned int i = 0; i < NITEMS; i++) {
		v[i] = npu_stat(items[i]);
		ASSERT_LE(0, v[i]) TH_LOG("no %s in stats", items[i]);
	}
}

/* Write @cmd to the legacy file and read its answer into @out. */
static int legacy(const char *cmd, char *out, size_t len)
{
	char path[256];
	ssize_t n;
	int fd, ret = 0;

	npu_debugfs_path(path, sizeof(path), "legacy");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		ret = -errno;
	n = ret ? 0 : pread(fd, out, len - 1, 0);
	if (!ret && n <= 0)
		ret = -EIO;
	close(fd);
	if (!ret)
		out[n] = '\0';
	return ret;
}

static long long field(const char *text, const char *name)
{
	size_t len = strlen(name);
	long long v;

	for (const char *p = text; p && *p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, name, len) && p[len] == ' ' && sscanf(p + len, "%lld", &v) == 1)
			return v;
	}
	return -1;
}

FIXTURE(board) {
	int fd;
	struct npukit_info info;
};

FIXTURE_SETUP(board)
{
	NPU_OPEN_DEVICE();
	if (self->info.backend != NPUKIT_BACKEND_SIMULATED)
		SKIP(return, "the CPU account exists only on the simulated NpuKit");
}

FIXTURE_TEARDOWN(board)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* One chunk of 64 kicks, each read back: what the driver's CPU does. */
NPU_TEST_F(board, cpu_share_of_a_chunk)
{
	struct npukit_kick k[NK];
	npu_ctile want[NK], got[NK];
	struct npukit_submit s;
	long long v0[NITEMS], v1[NITEMS];

	npu_readback_batch(k, NK, want, SEED);
	npu_submit_init(&s, k, NK, got, NK);
	snap(_metadata, v0);
	test_submit(self->fd, &s);
	snap(_metadata, v1);
	ASSERT_EQ(0, memcmp(want, got, sizeof(want)));
	ASSERT_EQ(1, v1[0] - v0[0]);
	/* the tiles cleaned, the C slots invalidated before and after */
	ASSERT_EQ(3, v1[1] - v0[1]);
	ASSERT_EQ(NK * (AB_BYTES + 2 * sizeof(npu_ctile)) / LINE, v1[2] - v0[2]);
	/* kicks copied in once (issue 27), staged, C from RX to its slot */
	ASSERT_EQ(3 * sizeof(s) + NK * (sizeof(k[0]) + AB_BYTES +
					 sizeof(npu_ctile)),
		  v1[3] - v0[3]);
	/* the driver's own code: every kick, and every kick's read-back */
	ASSERT_EQ(NK, v1[4] - v0[4]);
	ASSERT_EQ(NK, v1[5] - v0[5]);
	ASSERT_LT(0, v1[6] - v0[6]);
	/* every page of the results pinned once; the kicks are copied */
	ASSERT_EQ(pages_spanned(got, sizeof(got)), v1[7] - v0[7]);
}

/*
 * The C++ host's 8x8x8 matmul_i8_legacy(): VERSION read, DMASR read, the
 * MM2S Idle and GEMM_DONE polls, S2MM DMASR read, the S2MM Idle poll (at
 * least 6 reads); LOAD_CFG, DMASR, SA, LENGTH, CTRL, S2MM DMASR, DA,
 * LENGTH, TX_ARM (9 writes); a sync system call per transfer.
 */
NPU_TEST_F(board, legacy_sequence)
{
	struct npukit_kick k[NK];
	npu_ctile want[NK], got[NK];
	struct npukit_submit s;
	char out[512];

	ASSERT_EQ(0, legacy("1 1 0\n", out, sizeof(out))) TH_LOG("no legacy file");
	EXPECT_EQ(1, field(out, "kicks"));
	EXPECT_EQ(1, field(out, "outputs"));
	EXPECT_LE(6, field(out, "reads"));
	EXPECT_EQ(9, field(out, "writes"));
	EXPECT_EQ(2, field(out, "syscalls"));
	EXPECT_EQ((AB_BYTES + sizeof(npu_ctile)) / LINE, field(out, "lines"));
	EXPECT_EQ(1, field(out, "host_kicks"));
	EXPECT_EQ(0, field(out, "driver_readbacks"));
	EXPECT_LT(0, field(out, "bus_ns"));
	EXPECT_LT(0, field(out, "cpu_ns"));

	/* the weight bank: a bank load per sum, an A load per kick */
	ASSERT_EQ(0, legacy("4 2 1\n", out, sizeof(out)));
	EXPECT_EQ(4, field(out, "kicks"));
	EXPECT_EQ(2, field(out, "outputs"));
	EXPECT_EQ(2 + 4 + 2, field(out, "syscalls"));

	EXPECT_EQ(-EINVAL, legacy("0 1 0\n", out, sizeof(out)));
	EXPECT_EQ(-EINVAL, legacy("4 17 1\n", out, sizeof(out)));
	EXPECT_EQ(-EINVAL, legacy("4 1 2\n", out, sizeof(out)));

	/* and the device computes right after it */
	npu_readback_batch(k, NK, want, SEED + 1);
	npu_submit_init(&s, k, NK, got, NK);
	test_submit(self->fd, &s);
	ASSERT_EQ(0, memcmp(want, got, sizeof(want)));
}

TEST_HARNESS_MAIN
