// SPDX-License-Identifier: MIT
/*
 * engine_fault.c - device faults in the middle of a run: with the
 * simulator's debugfs knobs (dma_error, hang, slow), the middle SUBMIT of
 * a three-stage program fails with a DeviceError that says how far the run
 * got (errno, status, kicks), the run returns no outputs, and the next run
 * on the same engine gives the right answer. Through ttpu-run: exit 3, the
 * error object, and no -o file.
 *
 * The knobs act on the next transfer or run, so to fault a chosen SUBMIT
 * this program defines ioctl() itself (the library's call resolves to it,
 * statically and dynamically): it arms the knob right before that SUBMIT
 * and passes every call on to the system call.
 *
 * Needs the simulated NpuKit; SKIPs without the node or its knobs on
 * hardware, FAILs when the node is simulated and anything is wrong.
 */
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "npukit.h"

#include "kselftest_harness.h"
#include "engine_run.h"
#include "engine_progs.h"

static struct {
	int submits;			/* SUBMITs seen since the last reset */
	int at;				/* arm before this SUBMIT (0-based), or -1 */
	const char *knob;
	unsigned long val;
	int armed;			/* npu_knob_write's result */
} fault = { .at = -1 };

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == NPUKIT_IOCTL_SUBMIT && fault.submits++ == fault.at)
		fault.armed = npu_knob_write(fault.knob, fault.val);
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

static void fault_arm(int at, const char *knob, unsigned long val)
{
	fault.submits = 0;
	fault.at = at;
	fault.knob = knob;
	fault.val = val;
	fault.armed = 1;
}

/*
 * Three dependent layers, X[8,16] -> H1 -> H2 -> Y, each accumulated in
 * i32 (so on the device: the runner computes chains into i8 itself,
 * run_split.h) and narrowed to the next layer's i8 operand by a host_relu
 * (Q1, Q2): three matmul stages, three SUBMITs. Values small enough for
 * i8 activations.
 */
static char *three_layers(void)
{
	struct text t;
	FILE *f;
	int id;

	rnd_state = 99;
	text_open(&t);
	f = t.f;
	fprintf(f, "{\"program\":{\"format\":\"ttpu\",\"version\":1,\"tile\":4,\"name\":\"deep\",\"buffers\":{"
		"\"X\":{\"dtype\":\"i8\",\"shape\":[8,16],\"kind\":\"input\"},"
		"\"W1\":{\"dtype\":\"i8\",\"shape\":[16,8],\"kind\":\"const\",\"data\":");
	emit_matrix(f, 16, 8, -1, 1);
	fprintf(f, "},\"W2\":{\"dtype\":\"i8\",\"shape\":[8,8],\"kind\":\"const\",\"data\":");
	emit_matrix(f, 8, 8, -1, 1);
	fprintf(f, "},\"W3\":{\"dtype\":\"i8\",\"shape\":[8,12],\"kind\":\"const\",\"data\":");
	emit_matrix(f, 8, 12, -128, 127);
	fprintf(f, "},\"H1\":{\"dtype\":\"i32\",\"shape\":[8,8],\"kind\":\"temp\"},"
		"\"Q1\":{\"dtype\":\"i8\",\"shape\":[8,8],\"kind\":\"temp\"},"
		"\"H2\":{\"dtype\":\"i32\",\"shape\":[8,8],\"kind\":\"temp\"},"
		"\"Q2\":{\"dtype\":\"i8\",\"shape\":[8,8],\"kind\":\"temp\"},"
		"\"Y\":{\"dtype\":\"i32\",\"shape\":[8,12],\"kind\":\"temp\"}},"
		"\"inputs\":[\"X\"],\"outputs\":[\"Y\"],\"commands\":[");
	id = emit_layer(f, 0, "X", "W1", "H1", 8, 16, 8, 0, 0, 0);
	fprintf(f, ",{\"op\":\"host_relu\",\"dst\":\"Q1\",\"src\":\"H1\"}");
	id = emit_layer(f, id, "Q1", "W2", "H2", 8, 8, 8, 0, 0, 0);
	fprintf(f, ",{\"op\":\"host_relu\",\"dst\":\"Q2\",\"src\":\"H2\"}");
	emit_layer(f, id, "Q2", "W3", "Y", 8, 8, 12, 0, 0, 0);
	fprintf(f, "]},\"inputs\":{\"X\":");
	emit_matrix(f, 8, 16, -1, 1);
	fprintf(f, "}}");
	text_close(&t);
	return t.s;
}

FIXTURE(sim) {
	struct eng_req req;
	ttpu_engine *eng;
	struct eng_outcome good;	/* the software engine's answer */
	char *text;
};

FIXTURE_SETUP(sim)
{
	struct ttpu_error err;

	memset(self, 0, sizeof(*self));
	if (!npu_have_device())
		return;
	self->text = three_layers();
	ASSERT_EQ(0, eng_req_load(self->text, &self->req, &err)) TH_LOG("%s", err.message);
	eng_run(&self->req, TTPU_ENGINE_SOFTWARE, &self->good);
	ASSERT_EQ(0, self->good.ret);
	/* A short deadline, for the hang: the engine reads it at open. */
	setenv("TTPU_NPUKIT_TIMEOUT_MS", "300", 1);
	ASSERT_EQ(0, ttpu_engine_open(TTPU_ENGINE_NPUKIT, npu_device_path(), &self->eng, &err))
		TH_LOG("%s", err.message);
}

FIXTURE_TEARDOWN(sim)
{
	npu_knob_write("hang", 0);
	npu_knob_write("dma_error", 0);
	npu_knob_write("slow", 1);
	npu_knob_write("reset", 1);
	fault.at = -1;
	ttpu_engine_close(self->eng);
	eng_outcome_free(&self->good);
	eng_req_free(&self->req);
	free(self->text);
}

/* The knobs exist exactly on the simulated NpuKit. */
#define NEED_SIM()								\
	do {									\
		NPU_NEED_DEVICE();						\
		if (!strstr(ttpu_engine_reason(self->eng), "simulated"))	\
			SKIP(return, "fault knobs exist only on the simulator");	\
		ASSERT_EQ(0, npu_knob_write("dma_error", 0))			\
			TH_LOG("no fault knobs for %s", npu_device_path());		\
	} while (0)

/* Run with a fault armed before SUBMIT @at; check the DeviceError. */
static void fail_mid_run(struct __test_metadata *_metadata, FIXTURE_DATA(sim) *self,
			 const char *knob, const char *status, int e1, int e2)
{
	struct eng_outcome o;

	fault_arm(1, knob, 1);
	eng_run_on(&self->req, self->eng, &o);
	ASSERT_EQ(0, fault.armed) TH_LOG("knob %s: %s", knob, strerror(-fault.armed));
	npu_knob_write(knob, 0);
	/*
	 * A hang outlives the driver's recovery while the knob holds, which
	 * leaves the device failed until root resets it, as an operator would.
	 */
	ASSERT_EQ(0, npu_knob_write("reset", 1));
	EXPECT_EQ(-TTPU_DEVICE_ERROR, o.ret) TH_LOG("%s", o.err.message);
	EXPECT_EQ(NULL, o.response);
	/* The run stopped at the failed SUBMIT: the third never went out. */
	EXPECT_EQ(2, fault.submits);
	EXPECT_TRUE(o.err.sys_errno == e1 || o.err.sys_errno == e2)
		TH_LOG("errno %d: %s", o.err.sys_errno, o.err.message);
	EXPECT_NE(NULL, strstr(o.err.message, "SUBMIT 2 of the run")) TH_LOG("%s", o.err.message);
	EXPECT_NE(NULL, strstr(o.err.message, "failed after")) TH_LOG("%s", o.err.message);
	EXPECT_NE(NULL, strstr(o.err.message, status)) TH_LOG("%s", o.err.message);
	EXPECT_LE(0, o.err.command);
	eng_outcome_free(&o);

	/* Recovered: the same engine, the right answer, three SUBMITs. */
	fault.at = -1;
	eng_run_on(&self->req, self->eng, &o);
	ASSERT_EQ(0, o.ret) TH_LOG("%s", o.err.message);
	EXPECT_EQ(3, o.stats.ioctls);
	EXPECT_TRUE(eng_same_response(self->good.response, o.response, (char[256]){ 0 }, 256));
	eng_outcome_free(&o);
}

TEST_F(sim, clean_run_has_three_stages)
{
	struct eng_outcome o;

	NEED_SIM();
	fault.submits = 0;
	eng_run_on(&self->req, self->eng, &o);
	ASSERT_EQ(0, o.ret) TH_LOG("%s", o.err.message);
	EXPECT_EQ(3, o.stats.ioctls);
	EXPECT_EQ(3, fault.submits);
	EXPECT_TRUE(eng_same_response(self->good.response, o.response, (char[256]){ 0 }, 256));
	eng_outcome_free(&o);
}

TEST_F(sim, dma_error_mid_run)
{
	NEED_SIM();
	fail_mid_run(_metadata, self, "dma_error", "DMA error", EIO, EIO);
}

/* A hung array: the driver's hang detection or the short deadline. */
TEST_F(sim, hang_mid_run)
{
	NEED_SIM();
	fail_mid_run(_metadata, self, "hang", "status: ", EIO, ETIMEDOUT);
}

/* A slow array: same answer, more modelled device time. */
TEST_F(sim, slow_mid_run)
{
	struct eng_outcome fast, slow;

	NEED_SIM();
	eng_run_on(&self->req, self->eng, &fast);
	ASSERT_EQ(0, fast.ret) TH_LOG("%s", fast.err.message);
	fault_arm(1, "slow", 1000);
	eng_run_on(&self->req, self->eng, &slow);
	ASSERT_EQ(0, fault.armed);
	npu_knob_write("slow", 1);
	ASSERT_EQ(0, slow.ret) TH_LOG("%s", slow.err.message);
	EXPECT_TRUE(eng_same_response(self->good.response, slow.response, (char[256]){ 0 }, 256));
	EXPECT_LT(fast.stats.device_ns * 2, slow.stats.device_ns)
		TH_LOG("fast %llu ns, slow %llu ns", (unsigned long long)fast.stats.device_ns,
		       (unsigned long long)slow.stats.device_ns);
	eng_outcome_free(&fast);
	eng_outcome_free(&slow);
}

/* Through ttpu-run: exit 3, a DeviceError object, no -o file; then fine. */
TEST_F(sim, cli_fault_writes_no_output)
{
	static const char *const env[] = { "TTPU_NPUKIT_TIMEOUT_MS=300", NULL };
	const char *t = getenv("TMPDIR");
	char dir[256], req[300], in[300], out[300];
	struct json_object *doc, *part;
	struct proc_result c;

	NEED_SIM();
	snprintf(dir, sizeof(dir), "%s/engine-fault.XXXXXX", t && *t ? t : "/tmp");
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(req, sizeof(req), "%s/req.json", dir);
	snprintf(in, sizeof(in), "%s/in.json", dir);
	snprintf(out, sizeof(out), "%s/out.json", dir);
	doc = json_tokener_parse(self->text);
	ASSERT_TRUE(json_object_object_get_ex(doc, "program", &part));
	ASSERT_EQ(0, json_object_to_file(req, part));
	ASSERT_TRUE(json_object_object_get_ex(doc, "inputs", &part));
	ASSERT_EQ(0, json_object_to_file(in, part));
	json_object_put(doc);
	for (int k = 0; k < 2; k++) {
		const char *knob = k ? "hang" : "dma_error";

		ASSERT_EQ(0, npu_knob_write(knob, 1));
		ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--engine", "npukit", "--device",
					 npu_device_path(), "-o", out, req, "--inputs", in, NULL },
				      &(struct proc_opts){ .env = env }, &c));
		npu_knob_write(knob, 0);
		/* a hang leaves the device failed: root resets it (see fail_mid_run) */
		ASSERT_EQ(0, npu_knob_write("reset", 1));
		EXPECT_EQ(3, c.status) TH_LOG("%s: %s", knob, c.err);
		EXPECT_NE(NULL, strstr(c.out, "DeviceError")) TH_LOG("stdout: %s", c.out);
		EXPECT_NE(NULL, strstr(c.out, "\"errno\"")) TH_LOG("stdout: %s", c.out);
		EXPECT_NE(0, access(out, F_OK)) TH_LOG("%s: a failed run wrote %s", knob, out);
		proc_result_free(&c);

		ASSERT_EQ(0, proc_run_ttpu((const char *const[]){ "--engine", "npukit", "--device",
					 npu_device_path(), "-o", out, req, "--inputs", in, NULL },
				      &(struct proc_opts){ .env = env }, &c));
		EXPECT_EQ(0, c.status) TH_LOG("after %s: %s", knob, c.err);
		{
			char *got = test_slurp(out, NULL), why[256] = "";

			ASSERT_NE(NULL, got);
			EXPECT_TRUE(eng_same_response(self->good.response, got, why, sizeof(why)))
				TH_LOG("after %s: %s", knob, why);
			free(got);
		}
		proc_result_free(&c);
		unlink(out);
	}
	unlink(req);
	unlink(in);
	rmdir(dir);
}

TEST_HARNESS_MAIN
