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
