// SPDX-License-Identifier: MIT
/*
 * test_schema_estimate.c - a program's estimate: accepted when it
 * agrees with the commands, else one test per way it is rejected (its
 * figures, keys and types).
 *
 * Every program here is the valid base program of rt_reject.h with exactly
 * one thing wrong, so only one check can fire; each test asserts the kind
 * and where the error points (field, command, op, buffer).
 */
#include <string.h>

#include "kselftest_harness.h"
#include "rt.h"
#include "rt_reject.h"

/* ---- estimate ---- */

/* No inputs, so an estimate check at run time is reached too. */
#define E_BUFS RT_CONST("A", "i8", "[3,5]", "[[1,2,3,4,5],[1,1,1,1,1],[0,0,0,0,2]]") "," \
	RT_CONST("B", "i8", "[5,2]", "[[1,0],[0,1],[1,1],[2,2],[3,-3]]") "," \
	RT_BUF("C", "i32", "[3,2]", "temp")
/*
 * Two passes: (0,0)x(0,0) has 3*4*2 = 24 useful MACs, (0,4)x(4,0) has
 * 3*1*2 = 6: useful 30, capacity 128, utilization 0.234375.
 */
#define E_CMDS "{'op':'alloc','buf':'C'}," RT_PASS(0, "A", 0, 0, "B", 0, 0) "," \
	RT_PASS(1, "A", 0, 4, "B", 4, 0) "," RT_ACC(0, "C", 0, 0) "," RT_ACC(1, "C", 0, 0)
#define E_PROG(est) "{" HDR ",'buffers':{" E_BUFS "},'inputs':[],'outputs':['C']," \
	"'commands':[" E_CMDS "],'estimate':{" est "}}"
/* A complete estimate with one value replaced (all keys are required). */
#define E_EST(passes, skipped, cpp, rtl, hops, useful, cap, util) \
	"'passes':" passes ",'passes_skipped':" skipped ",'cycles_per_pass':" cpp \
	",'rtl_cycles':" rtl ",'host_ops':" hops ",'useful_macs':" useful \
	",'capacity_macs':" cap ",'utilization':" util
#define E_HOPS "{'alloc':1,'acc':2}"

static int load_run_err(const char *sq, struct ttpu_error *err)
{
	ttpu_result *res;
	int rc = rt_load_run(sq, NULL, &res, err);

	if (!rc)
		ttpu_result_free(res);
	return rc;
}

/*
 * A program with an estimate: a variant per estimate (FIXTURE_VARIANT_ADD(
 * estimate, ...) below), accepted when it agrees with the commands, else
 * failing with its kind at its field.
 */
FIXTURE(estimate) {
	struct ttpu_error err;
};

FIXTURE_VARIANT(estimate) {
	const char *sq;			/* the program (E_PROG) */
	enum ttpu_error_kind kind;	/* TTPU_OK: the estimate is accepted */
	const char *field;
};

FIXTURE_SETUP(estimate)
{
	memset(&self->err, 0, sizeof(self->err));
}

FIXTURE_TEARDOWN(estimate)
{
}

TEST_F(estimate, checked)
{
	int rc = load_run_err(variant->sq, &self->err);

	if (variant->kind == TTPU_OK) {
		ASSERT_EQ(0, rc) TH_LOG("%s", self->err.message);
	} else {
		ASSERT_ERROR_AT(variant->kind, rc, self->err, variant->field, -1, "", "");
	}
}

FIXTURE_VARIANT_ADD(estimate, exact) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
};

FIXTURE_VARIANT_ADD(estimate, passes_skipped_informational) {
	.sq = E_PROG(E_EST("2", "7", "15", "30", E_HOPS, "30", "128", "0.234375")),
};

FIXTURE_VARIANT_ADD(estimate, utilization_within_tolerance) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.2343750000001")),
};

FIXTURE_VARIANT_ADD(estimate, host_ops_zero_keys) {
	.sq = E_PROG(E_EST("2", "0", "15", "30",
		"{'alloc':1,'acc':2,'epilogue':0,'host_add':0,'host_relu':0}",
		"30", "128", "0.234375")),
};

FIXTURE_VARIANT_ADD(estimate, passes_mismatch) {
	.sq = E_PROG(E_EST("3", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.passes",
};

FIXTURE_VARIANT_ADD(estimate, cycles_per_pass_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "16", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.cycles_per_pass",
};

FIXTURE_VARIANT_ADD(estimate, rtl_cycles_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "29", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.rtl_cycles",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'alloc':1,'acc':3}", "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.host_ops.acc",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_missing_key_means_zero) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'acc':2}", "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.host_ops.alloc",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_extra_count) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'alloc':1,'acc':2,'host_relu':1}", "30", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.host_ops.host_relu",
};

FIXTURE_VARIANT_ADD(estimate, useful_macs_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "128", "128", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.useful_macs",
};

FIXTURE_VARIANT_ADD(estimate, capacity_macs_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "64", "0.234375")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.capacity_macs",
};

FIXTURE_VARIANT_ADD(estimate, utilization_mismatch) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.2344")),
	.kind = TTPU_ESTIMATE_MISMATCH, .field = "estimate.utilization",
};

FIXTURE_VARIANT_ADD(estimate, key_missing) {
	.sq = E_PROG("'passes':2"),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate",
};

FIXTURE_VARIANT_ADD(estimate, unknown_key) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "0.234375") ",'bogus':1"),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_unknown_key) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'alloc':1,'acc':2,'pass':2}", "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.host_ops",
};

FIXTURE_VARIANT_ADD(estimate, passes_string) {
	.sq = E_PROG(E_EST("'2'", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.passes",
};

FIXTURE_VARIANT_ADD(estimate, passes_negative) {
	.sq = E_PROG(E_EST("-2", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.passes",
};

FIXTURE_VARIANT_ADD(estimate, passes_float) {
	.sq = E_PROG(E_EST("2.0", "0", "15", "30", E_HOPS, "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.passes",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_not_object) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "[1]", "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.host_ops",
};

FIXTURE_VARIANT_ADD(estimate, host_ops_count_string) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", "{'alloc':1,'acc':'2'}", "30", "128", "0.234375")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.host_ops.acc",
};

FIXTURE_VARIANT_ADD(estimate, utilization_string) {
	.sq = E_PROG(E_EST("2", "0", "15", "30", E_HOPS, "30", "128", "'0.2'")),
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate.utilization",
};

FIXTURE_VARIANT_ADD(reject, estimate_is_array) {
	.sq = "{" HDR ",'buffers':{" E_BUFS "},'inputs':[],'outputs':['C'],"
		"'commands':[" E_CMDS "],'estimate':[]}",
	.kind = TTPU_SCHEMA_ERROR, .field = "estimate", .cmd = -1, .op = "", .buf = "",
};

/* utilization is 0 when there are no passes (not NaN) */
TEST(estimate_no_passes)
{
	struct ttpu_error err;

	ASSERT_EQ(0, load_run_err("{" HDR ",'buffers':{" RT_BUF("C", "i32", "[1]", "temp")
				  "},'inputs':[],'outputs':['C'],'commands':[],'estimate':"
				  "{'passes':0,'rtl_cycles':0,'useful_macs':0,'capacity_macs':0,"
				  "'utilization':0,'host_ops':{},'passes_skipped':0,'cycles_per_pass':15}}", &err))
		TH_LOG("%s", err.message);
}

TEST_HARNESS_MAIN
