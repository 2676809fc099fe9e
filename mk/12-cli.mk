# SPDX-License-Identifier: MIT
# ttpu-run's command-line tests (tests/cli/): kselftest_harness programs
# that fork/exec $(TTPU_RUN) and check its exit status, stdout JSON and
# stderr line.
#   check-cli  one TEST per behaviour, a binary per concern: the command
#              line and exit statuses (cli_usage_test), the protocol
#              (cli_protocol_test), file mode (cli_file_mode_test), the
#              engine chosen (cli_engine_choice_test), -o and stdout
#              (cli_output_test), --check and the reports on stderr
#              (cli_check_and_stats_test); cli_hostile_test (issue 13:
#              hostile text, -o nodes, memory bounds), --serve, --compile,
#              --passes; then cli_valgrind_test (the error paths under
#              valgrind; SKIPs without valgrind).
#   check-cli-tsan  the --serve suites with ttpu-run built with TSan.
# The suite fails when any test fails or a test binary exits non-zero.

CLI_TEST_DIR  := tests/cli
CLI_TEST_OUT  := $(BUILD)/tests/cli
# Every binary but cli_valgrind_test, which check-cli-san leaves out.
CLI_TESTS     := cli_usage_test cli_protocol_test cli_file_mode_test cli_engine_choice_test \
		 cli_output_test cli_check_and_stats_test cli_hostile_test cli_serve_test \
		 cli_serve_pipeline_test cli_compile_test cli_passes_test
CLI_TEST_BINS := $(CLI_TESTS:%=$(CLI_TEST_OUT)/%) $(CLI_TEST_OUT)/cli_valgrind_test

# FIXTURE_SETUP() and friends expand to functions without prototypes.
$(BUILD)/obj/$(CLI_TEST_DIR)/%.o: $(CLI_TEST_DIR)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -isystem $(KSELFTEST_DIR) \
		-MMD -MP -c -o $@ $<

$(CLI_TEST_OUT)/%: $(BUILD)/obj/$(CLI_TEST_DIR)/%.o $(TESTLIB_RUN)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(TESTLIB_RUN) $(LDLIBS)

.SECONDARY: $(CLI_TEST_BINS:$(CLI_TEST_OUT)/%=$(BUILD)/obj/$(CLI_TEST_DIR)/%.o)
.PHONY: cli-tests cli-run
cli-tests: $(CLI_TEST_BINS)

# CLI_BINS: the test binaries to run; CLI_SUITE: the suite's name.
CLI_SUITE ?= cli
CLI_BINS  ?= $(CLI_TEST_BINS)
cli-run: $(CLI_BINS) $(TTPU_RUN)
	@rm -rf $(BUILD)/tmp/$(CLI_SUITE); mkdir -p $(BUILD)/tmp/$(CLI_SUITE)
	$(call run-suite,$(CLI_SUITE),$(CLI_BINS),TTPU_RUN=$(abspath $(TTPU_RUN)) \
		TTPU_CLI_DATA=$(CLI_TEST_DIR)/data \
		TMPDIR=$(abspath $(BUILD)/tmp/$(CLI_SUITE)) $(CLI_WRAP),^not ok|# SKIP)

# check-cli-san: ttpu-run built with ASan+UBSan; valgrind cannot run an
# ASan binary, so cli_valgrind_test stays out.
$(eval $(call check-pair,cli,cli-run,CLI,CLI_BINS="$(CLI_TESTS:%=$(BUILD)/san/tests/cli/%)"))

# check-cli-tsan: ttpu-run built with ThreadSanitizer into $(BUILD)/tsan,
# over the --serve suites (its next request is read and parsed on a second
# thread while the current one runs, cli/serve.c); a race ends the
# ttpu-run it is found in with status 66, which fails the test.
CLI_TSAN_TESTS := cli_serve_test cli_serve_pipeline_test cli_passes_test
.PHONY: check-cli-tsan
check-cli-tsan:
	@$(MAKE) --no-print-directory TSAN=1 BUILD=$(BUILD)/tsan RESULTS=$(abspath $(RESULTS)) \
		cli-run CLI_SUITE=cli-tsan CLI_BINS="$(CLI_TSAN_TESTS:%=$(BUILD)/tsan/tests/cli/%)" \
		CLI_WRAP='env TSAN_OPTIONS=halt_on_error=1:exitcode=66'

CHECK_TARGETS += check-cli-tsan

-include $(wildcard $(BUILD)/obj/$(CLI_TEST_DIR)/*.d)
