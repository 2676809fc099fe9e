// SPDX-License-Identifier: GPL-2.0
/*
 * The failed state as a board owner meets it (issue 27, item 8): root's
 * sysfs "reset" (mode 0200) brings a failed device back when it can prove
 * it clean and fails with EIO when it cannot; the driver retries recovery
 * on its own, with a growing delay, and gets the device back once the
 * fault is gone; a KOBJ_CHANGE uevent with NPUKIT_STATE=failed, then
 * NPUKIT_STATE=ok, says so, read here from a NETLINK_KOBJECT_UEVENT socket
 * as udev would. The device is failed through the simulator's knobs: a
 * run that never ends ("hang") and no PL reset line ("reset_line" 0), so
 * that no recovery can pass until the knob is cleared.
 */
#include <grp.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "npukit_test.h"

/* Automatic retries: 100 ms, doubling, 30 s at most (npukit_recover.c) */
#define RETRY_WAIT_MS	(60 * 1000)
#define UEVENT_WAIT_MS	(20 * 1000)

/* A socket on the kernel's uevent multicast group, or -errno. */
static int uevent_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd, size = 1 << 20;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* Does the NUL-separated uevent @msg of @len bytes hold the line @want? */
static bool uevent_has(const char *msg, size_t len, const char *want)
{
	for (size_t off = 0; off < len; off += strlen(msg + off) + 1)
		if (!strcmp(msg + off, want))
			return true;
	return false;
}

/*
 * Wait up to @ms for a "change" uevent of the node under test carrying
 * NPUKIT_STATE=@state; other events (other devices, other states) are
 * passed over. Return: true when it came.
 */
static bool uevent_wait(int fd, const char *state, int ms)
{
	char node[256], devname[300], want[64], msg[8192];
	int64_t end = npu_now_ns() + (int64_t)ms * 1000000;
	const char *base = strrchr(npu_device_path(), '/');

	snprintf(node, sizeof(node), "%s", base ? base + 1 : npu_device_path());
	snprintf(devname, sizeof(devname), "DEVNAME=%s", node);
	snprintf(want, sizeof(want), "NPUKIT_STATE=%s", state);
	for (;;) {
		int64_t left = end - npu_now_ns();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)(left / 1000000) + 1) <= 0)
			return false;
		n = recv(fd, msg, sizeof(msg) - 1, 0);
		if (n <= 0)
			continue;
		msg[n] = '\0';
		if (uevent_has(msg, (size_t)n, "ACTION=change") &&
		    uevent_has(msg, (size_t)n, devname) &&
		    uevent_has(msg, (size_t)n, want))
			return true;
	}
}

/* Wait up to @ms for sysfs "state" to read @state. */
static bool state_wait(const char *state, int ms)
{
	int64_t end = npu_now_ns() + (int64_t)ms * 1000000;

	while (strcmp(npu_sysfs_read("state"), state)) {
		if (npu_now_ns() > end)
			return false;
		usleep(10 * 1000);
	}
	return true;
}

/* A batch that the "hang" knob stops: the device is failed after it. */
static void make_failed(struct __test_metadata *_metadata, int fd)
{
	static struct npukit_kick k[4];
	npu_ctile want[4], got[4];
	struct npukit_submit s;

	ASSERT_EQ(0, npu_knob_write("reset_line", 0));
	ASSERT_EQ(0, npu_knob_write("hang", 1));
	npu_readback_batch(k, 4, want, 3);
	npu_submit_init(&s, k, 4, got, 4);
	test_err_submit(EIO, fd, &s);
	ASSERT_EQ(NPUKIT_STATUS_DEVICE_HANG, s.status);
	ASSERT_STREQ("failed", npu_sysfs_read("state"));
}

/* A batch runs right: the device is back. */
static void assert_works(struct __test_metadata *_metadata, int fd, uint64_t seed)
{
	static struct npukit_kick k[16];
	npu_ctile want[16], got[16];
	struct npukit_submit s;

	npu_readback_batch(k, 16, want, seed);
	npu_submit_init(&s, k, 16, got, 16);
	test_submit(fd, &s);
	ASSERT_EQ(16, s.kicks_done);
	ASSERT_TILES_EQ(want, got, 16);
}

/* Root only: mode 0200, and user nobody cannot open it for writing. */
NPU_TEST(reset_is_root_only)
{
	char path[512];
	struct stat st;
	pid_t pid;
	int status;

	npu_sysfs_path(path, sizeof(path), "reset");
	ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
	ASSERT_EQ(0200, st.st_mode & 07777) TH_LOG("mode %o", st.st_mode & 07777);
	if (geteuid() != 0)
		return;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		_exit(npu_sysfs_write("reset", "1") == -EACCES ? 0 : 3);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("nobody could write reset, or setuid failed");
}

/* Only "1" means anything; on a clean device it proves it clean again. */
NPU_TEST(reset_takes_1)
{
	long long rec;

	if (geteuid() != 0)
		SKIP(return, "writing reset needs root");
	rec = npu_stat("recoveries");
	ASSERT_EQ(-EINVAL, npu_sysfs_write("reset", "0"));
	ASSERT_EQ(-EINVAL, npu_sysfs_write("reset", "2"));
	ASSERT_EQ(0, npu_sysfs_write("reset", "1"));
	ASSERT_STREQ("ok", npu_sysfs_read("state"));
	if (rec >= 0) {
		ASSERT_EQ(rec + 1, npu_stat("recoveries"));
	}
	assert_works(_metadata, self->fd, 1);
}

/*
 * A failed device: sysfs reset fails with EIO while the fault holds, and
 * brings it back once it is gone (no automatic retry meanwhile).
 */
NPU_TEST_TIMEOUT(sysfs_reset_brings_back_a_failed_device, 60)
{
	NEED_SIM();
	ASSERT_EQ(0, npu_knob_write("auto_recover", 0));
	make_failed(_metadata, self->fd);
	ASSERT_EQ(-EIO, npu_sysfs_write("reset", "1"));
	ASSERT_STREQ("failed", npu_sysfs_read("state"));
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	ASSERT_EQ(0, npu_sysfs_write("reset", "1"));
	ASSERT_STREQ("ok", npu_sysfs_read("state"));
	ASSERT_EQ(0, npu_knob_write("reset_line", 1));
	ASSERT_EQ(0, npu_knob_write("auto_recover", 1));
	assert_works(_metadata, self->fd, 2);
}

/*
 * The driver retries on its own: while the fault holds every retry fails
 * and the delay grows (100, 200, 400, 800 ms ...: at most 5 in 2 s, where
 * a fixed 100 ms would make 20); once it is gone the next retry brings the
 * device back, with nobody writing reset.
 */
NPU_TEST_TIMEOUT(driver_retries_until_the_fault_is_gone, 120)
{
	long long r0, r1;

	NEED_SIM();
	r0 = npu_stat("recovery_retries");
	ASSERT_LE(0, r0) TH_LOG("no recovery_retries in debugfs stats");
	make_failed(_metadata, self->fd);
	usleep(2 * 1000 * 1000);
	r1 = npu_stat("recovery_retries");
	ASSERT_STREQ("failed", npu_sysfs_read("state"));
	ASSERT_LE(r0 + 2, r1) TH_LOG("%lld retries in 2 s", r1 - r0);
	ASSERT_GE(r0 + 5, r1) TH_LOG("%lld retries in 2 s: no backoff", r1 - r0);
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	ASSERT_TRUE(state_wait("ok", RETRY_WAIT_MS))
		TH_LOG("still %s after %d s", npu_sysfs_read("state"), RETRY_WAIT_MS / 1000);
	ASSERT_LT(r1, npu_stat("recovery_retries"));
	ASSERT_EQ(0, npu_knob_write("reset_line", 1));
	assert_works(_metadata, self->fd, 3);
}

/* uevents: NPUKIT_STATE=failed when it fails, =ok when a reset ends it. */
NPU_TEST_TIMEOUT(uevent_announces_failed_and_ok, 60)
{
	int ue;

	NEED_SIM();
	ue = uevent_open();
	/* a kernel without networking (the emulated Zynq's) has no uevent socket */
	if (ue == -ENOSYS || ue == -EAFNOSUPPORT || ue == -EPROTONOSUPPORT)
		SKIP(return, "no NETLINK_KOBJECT_UEVENT socket here: %s", strerror(-ue));
	ASSERT_LE(0, ue) TH_LOG("NETLINK_KOBJECT_UEVENT: %s", strerror(-ue));
	ASSERT_EQ(0, npu_knob_write("auto_recover", 0));
	make_failed(_metadata, self->fd);
	EXPECT_TRUE(uevent_wait(ue, "failed", UEVENT_WAIT_MS)) TH_LOG("no NPUKIT_STATE=failed");
	ASSERT_EQ(0, npu_knob_write("hang", 0));
	ASSERT_EQ(0, npu_sysfs_write("reset", "1"));
	EXPECT_TRUE(uevent_wait(ue, "ok", UEVENT_WAIT_MS)) TH_LOG("no NPUKIT_STATE=ok");
	close(ue);
	ASSERT_EQ(0, npu_knob_write("reset_line", 1));
	ASSERT_EQ(0, npu_knob_write("auto_recover", 1));
	assert_works(_metadata, self->fd, 4);
}

TEST_HARNESS_MAIN
