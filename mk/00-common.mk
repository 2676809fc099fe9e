# SPDX-License-Identifier: MIT
# Shared by the mk/*.mk fragments.
#
# Each test fragment appends its suite's target to CHECK_TARGETS. A suite
# target runs its tests, keeps the full log in $(RESULTS)/<suite>.log and
# tallies it with scripts/tally, which writes $(RESULTS)/<suite>.tally and
# fails when any test failed. `make check` runs every suite and prints the
# total as "N passed, N failed, N skipped".

RESULTS := $(BUILD)/results
CHECK_TARGETS :=

# kselftest_harness.h and friends, from Debian's linux-source-6.1 (cached,
# never copied into the repository).
KSELFTEST_DIR = $(shell scripts/kernel-source 'tools/testing/selftests/kselftest*.h')/tools/testing/selftests

# $(call run-suite,SUITE,BINARIES,PREFIX[,SHOW]): a suite target's recipe.
# Runs each binary from the top of the tree as "PREFIX binary" (environment
# and wrapper such as valgrind), all output in $(RESULTS)/SUITE.log, keeps
# going after a failure and records a binary's non-zero exit (a crash too) as
# a failed test; prints the log lines matching SHOW (default: failures),
# tallies, and fails when anything failed.
define run-suite
@mkdir -p $(RESULTS)
@log=$(RESULTS)/$(1).log; : > $$log; status=0; \
for t in $(2); do \
	echo "# $$t" >> $$log; \
	$(3) $$t >> $$log 2>&1; rc=$$?; \
	if [ $$rc -ne 0 ]; then \
		echo "not ok 0 $$t exited with status $$rc" >> $$log; status=1; \
	fi; \
done; \
grep -E '$(or $(4),^not ok)' $$log | sed 's/^/$(1): /' || true; \
scripts/tally $(1) $$log $(RESULTS) || status=1; \
exit $$status
endef
