// SPDX-License-Identifier: MIT
/*
 * engine_choice.c - which engine runs, and why, says so: auto takes the
 * NpuKit when its node exists and the software engine only when it does
 * not; a node that exists but cannot be used (not an npukit, permission
 * denied) is a DeviceError, never a silent fallback; the response and
 * ttpu-run --stats name the engine, its reason and the run's device
 * counters, which must agree with the driver's own debugfs counters.
 *
 * The device-less checks run everywhere; the rest SKIP without the node.
 */
#include "kselftest_harness.h"
#include "engine_run.h"

#define MISSING "/nonexistent-dir/npukit9"

/*
 * A two-layer program whose second layer reads the first one's result:
 * H accumulated in i32 (so on the device: the runner computes chains into
 * i8 itself, run_split.h), narrowed to i8 by a host_relu into Q.
 */
static const char program[] =
	"{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"two\",\"buffers\":{"
	"\"X\":{\"dtype\":\"i8\",\"shape\":[5,6],\"kind\":\"input\"},"
	"\"W\":{\"dtype\":\"i8\",\"shape\":[6,9],\"kind\":\"const\",\"data\":"
	"[[1,-1,0,1,2,-2,1,0,1],[0,1,1,-1,0,1,2,-1,0],[1,1,1,1,1,1,1,1,1],"
	"[-1,0,2,0,-2,0,1,1,-1],[2,2,-1,-1,0,0,1,-2,1],[0,0,0,1,1,1,-1,-1,2]]},"
	"\"H\":{\"dtype\":\"i32\",\"shape\":[5,9],\"kind\":\"temp\"},"
	"\"Q\":{\"dtype\":\"i8\",\"shape\":[5,9],\"kind\":\"temp\"},"
	"\"V\":{\"dtype\":\"i8\",\"shape\":[9,3],\"kind\":\"const\",\"data\":"
	"[[127,-128,3],[1,2,3],[-5,6,-7],[8,9,10],[100,-100,50],[0,0,1],[1,0,0],[2,2,2],[-1,-1,-1]]},"
	"\"Y\":{\"dtype\":\"i32\",\"shape\":[5,3],\"kind\":\"temp\"}},"
	"\"inputs\":[\"X\"],\"outputs\":[\"Y\"],\"commands\":["
	"{\"op\":\"pass\",\"id\":0,\"a\":{\"buf\":\"X\",\"r\":0,\"c\":0},\"b\":{\"buf\":\"W\",\"r\":0,\"c\":0}},"
	"{\"op\":\"acc\",\"pass\":0,\"dst\":{\"buf\":\"H\",\"r\":0,\"c\":0}},"
	"{\"op\":\"pass\",\"id\":1,\"a\":{\"buf\":\"X\",\"r\":0,\"c\":4},\"b\":{\"buf\":\"W\",\"r\":4,\"c\":0}},"
	"{\"op\":\"acc\",\"pass\":1,\"dst\":{\"buf\":\"H\",\"r\":0,\"c\":0}},"
	"{\"op\":\"pass\",\"id\":2,\"a\":{\"buf\":\"X\",\"r\":4,\"c\":0},\"b\":{\"buf\":\"W\",\"r\":0,\"c\":4}},"
	"{\"op\":\"acc\",\"pass\":2,\"dst\":{\"buf\":\"H\",\"r\":4,\"c\":4}},"
	"{\"op\":\"pass\",\"id\":3,\"a\":{\"buf\":\"X\",\"r\":0,\"c\":0},\"b\":{\"buf\":\"W\",\"r\":0,\"c\":8}},"
	"{\"op\":\"acc\",\"pass\":3,\"dst\":{\"buf\":\"H\",\"r\":0,\"c\":8}},"
	"{\"op\":\"host_relu\",\"dst\":\"Q\",\"src\":\"H\"},"
	"{\"op\":\"pass\",\"id\":4,\"a\":{\"buf\":\"Q\",\"r\":0,\"c\":0},\"b\":{\"buf\":\"V\",\"r\":0,\"c\":0}},"
	"{\"op\":\"acc\",\"pass\":4,\"dst\":{\"buf\":\"Y\",\"r\":0,\"c\":0}},"
	"{\"op\":\"pass\",\"id\":5,\"a\":{\"buf\":\"Q\",\"r\":0,\"c\":4},\"b\":{\"buf\":\"V\",\"r\":4,\"c\":0}},"
	"{\"op\":\"acc\",\"pass\":5,\"dst\":{\"buf\":\"Y\",\"r\":0,\"c\":0}},"
	"{\"op\":\"pass\",\"id\":6,\"a\":{\"buf\":\"Q\",\"r\":4,\"c\":8},\"b\":{\"buf\":\"V\",\"r\":8,\"c\":0}},"
	"{\"op\":\"acc\",\"pass\":6,\"dst\":{\"buf\":\"Y\",\"r\":4,\"c\":0}}]}";
static const char inputs[] =
	"{\"X\":[[1,0,-1,1,0,1],[0,1,1,0,-1,0],[1,1,1,1,1,1],[-1,0,0,1,0,-1],[0,0,1,0,1,0]]}";

/* The program and its inputs as files in $TMPDIR; freed by files_free. */
struct files {
	char dir[256], prog[300], in[300], out[300];
};

static int files_make(struct files *f)
{
	const char *t = getenv("TMPDIR");
	FILE *p, *i;

	snprintf(f->dir, sizeof(f->dir), "%s/engine-choice.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->prog, sizeof(f->prog), "%s/p.json", f->dir);
	snprintf(f->in, sizeof(f->in), "%s/i.json", f->dir);
	snprintf(f->out, sizeof(f->out), "%s/o.json", f->dir);
	p = fopen(f->prog, "we");
	i = fopen(f->in, "we");
	if (!p || !i)
		return -1;
	fputs(program, p);
	fputs(inputs, i);
	return fclose(p) | fclose(i);
}

static void files_free(struct files *f)
{
	unlink(f->prog);
	unlink(f->in);
	unlink(f->out);
	rmdir(f->dir);
}

static ttpu_program *load(void)
{
	ttpu_program *p = NULL;

	return ttpu_program_load_buffer(program, strlen(program), &p, NULL) ? NULL : p;
}

TEST(auto_missing_node_is_software_with_reason)
{
	struct ttpu_error err;
	ttpu_engine *eng = NULL;

	ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_AUTO, MISSING, &eng, &err)) TH_LOG("%s", err.message);
	EXPECT_STREQ("software", ttpu_engine_name(eng));
	EXPECT_NE(NULL, strstr(ttpu_engine_reason(eng), MISSING)) TH_LOG("%s", ttpu_engine_reason(eng));
	ttpu_engine_close(eng);
}

TEST(npukit_missing_node_is_device_error)
{
	struct ttpu_error err;
	ttpu_engine *eng = NULL;

	ASSERT_EQ(-TTPU_DEVICE_ERROR, ttpu_engine_open(TTPU_ENGINE_NPUKIT, MISSING, &eng, &err));
	EXPECT_EQ(NULL, eng);
	EXPECT_EQ(TTPU_DEVICE_ERROR, err.kind);
	EXPECT_EQ(ENOENT, err.sys_errno);
	EXPECT_NE(NULL, strstr(err.message, MISSING)) TH_LOG("%s", err.message);
}

/* /dev/null, a regular file, a directory: there, but not an npukit. */
TEST(not_an_npukit_is_device_error_never_fallback)
{
	static const enum ttpu_engine_choice choices[] = { TTPU_ENGINE_AUTO, TTPU_ENGINE_NPUKIT };
	const char *t = getenv("TMPDIR");
	char file[300], dir[310];
	const char *nodes[3];
	int fd;

	snprintf(file, sizeof(file), "%s/engine-notnpu.XXXXXX", t && *t ? t : "/tmp");
	fd = mkstemp(file);
	ASSERT_LE(0, fd);
	close(fd);
	snprintf(dir, sizeof(dir), "%s.d", file);
	ASSERT_EQ(0, mkdir(dir, 0700));
	nodes[0] = "/dev/null";
	nodes[1] = file;
	nodes[2] = dir;
	for (int n = 0; n < 3; n++)
		for (int c = 0; c < 2; c++) {
			struct ttpu_error err;
			ttpu_engine *eng = NULL;
			int ret = ttpu_engine_open(choices[c], nodes[n], &eng, &err);

			EXPECT_EQ(-TTPU_DEVICE_ERROR, ret) TH_LOG("%s, choice %d: engine %s", nodes[n],
								  choices[c], ttpu_engine_name(eng));
			if (!ret) {
				ttpu_engine_close(eng);
				continue;
			}
			EXPECT_NE(0, err.sys_errno);
			EXPECT_NE(NULL, strstr(err.message, nodes[n])) TH_LOG("%s", err.message);
		}
	unlink(file);
	rmdir(dir);
}

/*
 * Permission denied: a root-only copy of the node (the npukit's when it is
 * there, /dev/null's otherwise, so this runs everywhere as root), opened
 * by a child that dropped to nobody. Auto must not fall back either.
 */
TEST(permission_denied_is_device_error)
{
	char dir[300], node[320];
	struct stat st;
	int status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "needs root to make a node and drop privileges");
	ASSERT_EQ(0, stat(npu_have_device() ? npu_device_path() : "/dev/null", &st));
	/*
	 * Not $TMPDIR: the checkout may sit under a directory the dropped
	 * user cannot enter (/root), and then stat(), not open(), is what
	 * fails. /tmp is always searchable, so open() meets the node's 0600.
	 */
	snprintf(dir, sizeof(dir), "/tmp/engine-perm.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(0, chmod(dir, 0755));
	snprintf(node, sizeof(node), "%s/npukit", dir);
	if (mknod(node, S_IFCHR | 0600, st.st_rdev)) {
		rmdir(dir);
		SKIP(return, "mknod in %s: %s", dir, strerror(errno));
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		static const enum ttpu_engine_choice choices[] = { TTPU_ENGINE_AUTO,
								   TTPU_ENGINE_NPUKIT };
		int bad = 0;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		for (int c = 0; c < 2; c++) {
			struct ttpu_error err;
			ttpu_engine *eng = NULL;

			if (ttpu_engine_open(choices[c], node, &eng, &err) != -TTPU_DEVICE_ERROR ||
			    err.sys_errno != EACCES || !strcasestr(err.message, "permission denied") ||
			    !strstr(err.message, node)) {
				fprintf(stderr, "# choice %d: engine %s, error \"%s\"\n", choices[c],
					ttpu_engine_name(eng), err.message);
				bad = 1;
			}
			ttpu_engine_close(eng);
		}
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	unlink(node);
	rmdir(dir);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

TEST(auto_with_node_is_npukit_naming_the_device)
{
	struct ttpu_error err;
	ttpu_engine *eng = NULL;

	NEED_DEVICE();
	ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_AUTO, npu_device_path(), &eng, &err))
		TH_LOG("%s", err.message);
	EXPECT_STREQ("npukit", ttpu_engine_name(eng));
	EXPECT_NE(NULL, strstr(ttpu_engine_reason(eng), npu_device_path()))
		TH_LOG("%s", ttpu_engine_reason(eng));
	ttpu_engine_close(eng);
	if (strcmp(npu_device_path(), "/dev/npukit0"))
		return;
	/* No device given: auto finds the default node. */
	ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_AUTO, NULL, &eng, &err)) TH_LOG("%s", err.message);
	EXPECT_STREQ("npukit", ttpu_engine_name(eng));
	EXPECT_NE(NULL, strstr(ttpu_engine_reason(eng), "/dev/npukit0"));
	ttpu_engine_close(eng);
}

/*
 * The response says which engine ran and why, and its stats are the run's
 * own: kicks and SUBMITs as the driver counted them (debugfs), MMIO and
 * modelled device time non-zero.
 */
TEST(response_and_stats_match_driver_counters)
{
	struct eng_req r = { 0 };
	struct eng_outcome o;
	struct ttpu_error err;
	struct json_object *j, *s;
	long long k0, b0, k1, b1;
	ttpu_engine *eng = NULL;

	NEED_DEVICE();
	r.prog = load();
	ASSERT_NE(NULL, r.prog);
	r.in = ttpu_inputs_new(r.prog);
	ASSERT_EQ(0, ttpu_inputs_parse(r.in, inputs, strlen(inputs), &err)) TH_LOG("%s", err.message);
	ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_NPUKIT, npu_device_path(), &eng, &err));
	k0 = npu_stat("kicks");
	b0 = npu_stat("batches");
	eng_run_on(&r, eng, &o);
	k1 = npu_stat("kicks");
	b1 = npu_stat("batches");
	ASSERT_EQ(0, o.ret) TH_LOG("%s", o.err.message);
	/* Two dependent stages: two SUBMITs, a pair and a single, then a pair. */
	EXPECT_EQ(2, o.stats.ioctls);
	EXPECT_LT(0, o.stats.kicks);
	EXPECT_LT(0, o.stats.mmio_reads);
	EXPECT_LT(0, o.stats.mmio_writes);
	EXPECT_LT(0, o.stats.dma_bytes);
	EXPECT_LT(0, o.stats.device_ns);
	if (k0 >= 0 && k1 >= 0) {
		EXPECT_EQ((long long)o.stats.kicks, k1 - k0);
		EXPECT_EQ((long long)o.stats.ioctls, b1 - b0);
	} else {
		TH_LOG("no debugfs stats for %s: counters not cross-checked", npu_device_path());
	}
	j = json_tokener_parse(o.response);
	ASSERT_NE(NULL, j);
	EXPECT_STREQ("npukit", eng_json_str(j, "engine"));
	EXPECT_NE(NULL, strstr(eng_json_str(j, "engineReason") ?: "", npu_device_path()));
	ASSERT_TRUE(json_object_object_get_ex(j, "stats", &s));
	EXPECT_EQ((int64_t)o.stats.kicks, json_object_get_int64(json_object_object_get(s, "kicks")));
	EXPECT_EQ((int64_t)o.stats.ioctls, json_object_get_int64(json_object_object_get(s, "ioctls")));
	EXPECT_LT(0, json_object_get_int64(json_object_object_get(s, "mmioReads")));
	EXPECT_LT(0, json_object_get_int64(json_object_object_get(s, "mmioWrites")));
	EXPECT_LT(0, json_object_get_int64(json_object_object_get(s, "deviceNs")));
	json_object_put(j);
	eng_outcome_free(&o);
	ttpu_engine_close(eng);
	eng_req_free(&r);
}

/* ttpu-run --stats: engine, reason and device counters on stderr. */
TEST(cli_stats_name_engine_and_counters)
{
	struct files f;
	struct proc_result c;

	NEED_DEVICE();
	ASSERT_EQ(0, files_make(&f));
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--stats", "--device", npu_device_path(),
				 f.prog, "--inputs", f.in, NULL }, NULL, &c)) TH_LOG("%s", proc_ttpu_path());
	EXPECT_EQ(0, c.status) TH_LOG("%s", c.err);
	EXPECT_STREQ("npukit", eng_json_str(c.json, "engine"));
	EXPECT_NE(NULL, strstr(c.err, "stats: engine npukit (")) TH_LOG("%s", c.err);
	EXPECT_NE(NULL, strstr(c.err, npu_device_path())) TH_LOG("%s", c.err);
	EXPECT_NE(NULL, strstr(c.err, " kicks, 2 ioctls, ")) TH_LOG("%s", c.err);
	EXPECT_NE(NULL, strstr(c.err, "mmio reads")) TH_LOG("%s", c.err);
	proc_result_free(&c);
	files_free(&f);
}

/* The CLI's own choice paths; they need ttpu-run, not the device. */
TEST(cli_auto_missing_is_software_npukit_missing_is_device_error)
{
	struct files f;
	struct proc_result c;

	if (access(proc_ttpu_path(), X_OK))
		SKIP(return, "no ttpu-run at %s", proc_ttpu_path());
	ASSERT_EQ(0, files_make(&f));
	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--stats", "--engine", "auto",
				 "--device", MISSING, f.prog, "--inputs", f.in, NULL }, NULL, &c));
	EXPECT_EQ(0, c.status) TH_LOG("%s", c.err);
	EXPECT_STREQ("software", eng_json_str(c.json, "engine"));
	EXPECT_NE(NULL, strstr(eng_json_str(c.json, "engineReason") ?: "", MISSING));
	EXPECT_NE(NULL, strstr(c.err, "stats: engine software (")) TH_LOG("%s", c.err);
	proc_result_free(&c);

	ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--engine", "npukit", "--device",
				 MISSING, f.prog, "--inputs", f.in, "-o", f.out, NULL }, NULL, &c));
	EXPECT_EQ(3, c.status) TH_LOG("%s", c.err);
	EXPECT_NE(NULL, strstr(c.out, "DeviceError")) TH_LOG("stdout: %s", c.out);
	EXPECT_NE(0, access(f.out, F_OK));
	proc_result_free(&c);
	files_free(&f);
}

TEST_HARNESS_MAIN
