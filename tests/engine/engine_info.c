// SPDX-License-Identifier: MIT
/*
 * engine_info.c - ttpu-run --info and --repeat on the device: --info says
 * what GET_INFO and sysfs say (the host line "ID=... VERSION=...
 * FEATURES=...", the limits, state and counters), lists every node, and
 * --repeat times N runs that each give the same response as one run.
 *
 * The device-less checks run everywhere; the rest SKIP without the node.
 */
#include <fcntl.h>
#include <glob.h>
#include <sys/ioctl.h>

#include "kselftest_harness.h"
#include "engine_run.h"
#include "npukit.h"

/* One 4x4 pass: a program that uses the array, with no inputs. */
static const char program[] =
	"{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"one\",\"buffers\":{"
	"\"A\":{\"dtype\":\"i8\",\"shape\":[4,4],\"kind\":\"const\",\"data\":"
	"[[1,2,3,4],[-1,-2,-3,-4],[127,-128,0,1],[5,6,7,8]]},"
	"\"B\":{\"dtype\":\"i8\",\"shape\":[4,4],\"kind\":\"const\",\"data\":"
	"[[1,0,0,1],[0,1,0,-1],[2,2,2,2],[-3,1,4,1]]},"
	"\"C\":{\"dtype\":\"i32\",\"shape\":[4,4],\"kind\":\"temp\"}},"
	"\"inputs\":[],\"outputs\":[\"C\"],\"commands\":["
	"{\"op\":\"pass\",\"id\":0,\"a\":{\"buf\":\"A\",\"r\":0,\"c\":0},\"b\":{\"buf\":\"B\",\"r\":0,\"c\":0}},"
	"{\"op\":\"acc\",\"pass\":0,\"dst\":{\"buf\":\"C\",\"r\":0,\"c\":0}}]}";

static void get_info(struct __test_metadata *_metadata, struct npukit_info *info)
{
	int fd = open(npu_device_path(), O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	ASSERT_EQ(0, ioctl(fd, NPUKIT_IOCTL_GET_INFO, info));
	close(fd);
}

static long long json_int(struct json_object *o, const char *path)
{
	o = test_json_get(o, path);
	return o ? json_object_get_int64(o) : -1;
}

TEST(info_json_is_get_info)
{
	struct npukit_info info;
	struct proc_result r;
	struct json_object *d;
	char want[32];

	NEED_DEVICE();
	get_info(_metadata, &info);
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--info", "--json", "--device",
				 npu_device_path(), NULL }, NULL, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	ASSERT_NE(NULL, r.json) TH_LOG("%s", r.out);
	ASSERT_EQ(1, (int)json_object_array_length(test_json_get(r.json, "devices")));
	d = json_object_array_get_idx(test_json_get(r.json, "devices"), 0);
	EXPECT_STREQ(npu_device_path(), eng_json_str(d, "path"));
	snprintf(want, sizeof(want), "0x%08x", info.ip_id);
	EXPECT_STREQ(want, eng_json_str(d, "id"));
	snprintf(want, sizeof(want), "0x%08x", info.ip_version);
	EXPECT_STREQ(want, eng_json_str(d, "version"));
	snprintf(want, sizeof(want), "0x%08x", info.ip_features);
	EXPECT_STREQ(want, eng_json_str(d, "features"));
	EXPECT_STREQ(info.backend == NPUKIT_BACKEND_SIMULATED ? "simulated" : "hardware",
		     eng_json_str(d, "backend"));
	EXPECT_STREQ("ok", eng_json_str(d, "state"));
	EXPECT_EQ(info.uapi_version, json_int(d, "uapiVersion"));
	EXPECT_EQ(info.array_n, json_int(d, "arrayN"));
	EXPECT_EQ(info.max_kicks, json_int(d, "maxKicks"));
	EXPECT_EQ(info.max_results, json_int(d, "maxResults"));
	EXPECT_EQ(info.dma_max_bytes, json_int(d, "dmaMaxBytes"));
	EXPECT_EQ(info.kick_size, json_int(d, "kickSize"));
	/* the driver's own counters, as debugfs shows them when it is there */
	EXPECT_LE(0, json_int(d, "counters.kicks"));
	if (npu_stat("kicks") >= 0) {
		EXPECT_EQ(npu_stat("kicks"), json_int(d, "counters.kicks"));
		EXPECT_EQ(npu_stat("batches"), json_int(d, "counters.batches"));
	}
	/* as xbutil examine: the module's version, the completion, the clock */
	EXPECT_NE(NULL, eng_json_str(r.json, "moduleVersion")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, test_json_get(r.json, "fpgaManagers")) TH_LOG("%s", r.out);
	const char *mode = eng_json_str(d, "completion");

	ASSERT_NE(NULL, mode) TH_LOG("%s", r.out);
	EXPECT_TRUE(!strcmp(mode, "polled") || !strncmp(mode, "interrupt ", 10)) TH_LOG("%s", mode);
	if (info.backend == NPUKIT_BACKEND_SIMULATED) {
		struct json_object *clock = (struct json_object *)1;

		/* the simulator has no clock: null, present */
		EXPECT_TRUE(json_object_object_get_ex(d, "plClockHz", &clock));
		EXPECT_EQ(NULL, clock);
	}
	proc_result_free(&r);
}

/* The host line NpuKit's own tools print, for people. */
TEST(info_text_host_line)
{
	struct npukit_info info;
	struct proc_result r;
	char want[128];

	NEED_DEVICE();
	get_info(_metadata, &info);
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--info", "--device",
				 npu_device_path(), NULL }, NULL, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	snprintf(want, sizeof(want), "%s: NpuKit ID=0x%08x VERSION=%#x FEATURES=%#x, ",
		 npu_device_path(), info.ip_id, info.ip_version, info.ip_features);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("want %s in %s", want, r.out);
	snprintf(want, sizeof(want), "max_kicks %u, max_results %u", info.max_kicks,
		 info.max_results);
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("want %s in %s", want, r.out);
	EXPECT_NE(NULL, strstr(r.out, "  counters: batches ")) TH_LOG("%s", r.out);
	proc_result_free(&r);
}

/* Without --device: every /dev/npukitN, in number order. */
TEST(info_lists_every_node)
{
	struct proc_result r;
	struct json_object *list;
	glob_t g;

	NEED_DEVICE();
	ASSERT_EQ(0, glob("/dev/npukit[0-9]*", 0, NULL, &g));
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--info", "--json", NULL }, NULL, &r));
	ASSERT_EQ(0, r.status) TH_LOG("%s", r.err);
	list = test_json_get(r.json, "devices");
	ASSERT_EQ(g.gl_pathc, json_object_array_length(list)) TH_LOG("%s", r.out);
	EXPECT_STREQ("/dev/npukit0",
		     eng_json_str(json_object_array_get_idx(list, 0), "path"));
	globfree(&g);
	proc_result_free(&r);
}

/* "repeat: N runs on ENGINE, ms per run: min A, median B, max C", A <= B <= C */
static void check_repeat(struct __test_metadata *_metadata, const char *engine)
{
	struct proc_result once, many;
	char why[256], eng[32], want[64];
	double mn, med, mx;
	unsigned long n;
	const char *line;

	char path[300];
	const char *t = getenv("TMPDIR");
	FILE *f;

	snprintf(path, sizeof(path), "%s/engine-info-%d.json", t && *t ? t : "/tmp", (int)getpid());
	f = fopen(path, "we");
	ASSERT_NE(NULL, f);
	fputs(program, f);
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--engine", engine, path, NULL },
				   NULL, &once));
	ASSERT_EQ(0, once.status) TH_LOG("%s", once.err);
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--engine", engine, "--repeat", "7",
				   path, NULL }, NULL, &many));
	unlink(path);
	ASSERT_EQ(0, many.status) TH_LOG("%s", many.err);
	EXPECT_TRUE(eng_same_response(once.out, many.out, why, sizeof(why))) TH_LOG("%s", why);
	line = strstr(many.err, "repeat: ");
	ASSERT_NE(NULL, line) TH_LOG("%s", many.err);
	ASSERT_EQ(5, sscanf(line, "repeat: %lu runs on %31[a-z], ms per run: min %lf, median %lf, max %lf",
			    &n, eng, &mn, &med, &mx)) TH_LOG("%s", line);
	EXPECT_EQ(7, n);
	EXPECT_STREQ(engine, eng);
	EXPECT_LE(0, mn);
	EXPECT_LE(mn, med);
	EXPECT_LE(med, mx);
	snprintf(want, sizeof(want), "runs on %s", engine);
	EXPECT_NE(NULL, strstr(many.err, want));
	proc_result_free(&once);
	proc_result_free(&many);
}

TEST(repeat_software)
{
	check_repeat(_metadata, "software");
}

TEST(repeat_npukit)
{
	NEED_DEVICE();
	check_repeat(_metadata, "npukit");
}

TEST(repeat_bad_count)
{
	struct proc_result r;

	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--repeat", "0", "x.json", NULL },
				   NULL, &r));
	EXPECT_EQ(2, r.status);
	EXPECT_NE(NULL, strstr(r.err, "UsageError: --repeat needs a count")) TH_LOG("%s", r.err);
	proc_result_free(&r);
}

TEST_HARNESS_MAIN
