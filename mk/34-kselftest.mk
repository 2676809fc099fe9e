# SPDX-License-Identifier: MIT
# The UAPI and engine suites packaged as kernel selftests are: the on-board
# acceptance test (Documentation/npukit/pynq-z2.rst).
#   make kselftest-install KSRC=<kernel source tree> INSTALL_PATH=DIR
#       builds tests/kselftest/<suite> on the kernel's
#       tools/testing/selftests/lib.mk and lays out DIR as the kernel's own
#       `make -C tools/testing/selftests install` does: run_kselftest.sh,
#       kselftest/, kselftest-list.txt and one directory per collection
#       (npukit_uapi, npukit_engine) with its binaries, config and settings;
#       the kernel's run_kselftest.sh is run_kselftest.kernel.sh, under
#       tests/kselftest/run_kselftest.sh, which exits 1 when a test failed.
#       Then: DIR/run_kselftest.sh (KTAP on stdout); on the board
#       NPUKIT_REQUIRE_DEVICE=1 DIR/run_kselftest.sh, where a missing node
#       fails every device test instead of skipping it. KSRC defaults to KDIR
#       when that is a full source tree; nothing here needs Debian's
#       linux-source package.
#   make check-kselftest
#       installs the collection with Debian's 6.1 source as KSRC and runs
#       its run_kselftest.sh here: the device tests SKIP without
#       /dev/npukit0, the rest must pass, and the output must be KTAP; then
#       again with NPUKIT_REQUIRE_DEVICE=1: it must exit non-zero, every
#       subtest that skipped for want of the node must fail, and every other
#       one must end as before (tests/kselftest/require-device-check).

KSELFTEST_SUITES := npukit_uapi npukit_engine
KSRC ?= $(if $(wildcard $(KDIR)/tools/testing/selftests/lib.mk),$(KDIR))
KSELFTEST_ARGS = SELFTESTS=$(abspath $(KSRC))/tools/testing/selftests NPUKIT_TOP=$(CURDIR) \
	NPUKIT_TTPU_RUN=$(abspath $(TTPU_RUN)) NPUKIT_LIB_A=$(abspath $(LIB_A)) \
	NPUKIT_ENGINE_DATA=$(abspath $(ENGINE_DATA)) NPUKIT_ENGINE_TESTS='$(ENGINE_TESTS)' \
	NPUKIT_CFLAGS='$(ALL_CFLAGS)' NPUKIT_LDLIBS='$(LDLIBS)'

.PHONY: kselftest-install check-kselftest
kselftest-install: all engine-data
	@sel=$(abspath $(KSRC))/tools/testing/selftests; \
	if [ -z "$(KSRC)" ] || [ ! -f $$sel/lib.mk ] || [ ! -f $$sel/run_kselftest.sh ]; then \
		echo "kselftest-install: no tools/testing/selftests/lib.mk under KSRC='$(KSRC)':" \
			"pass KSRC=<kernel source tree> (the one the board's kernel was built from)" >&2; \
		exit 2; fi; \
	if [ -z "$(INSTALL_PATH)" ]; then echo "kselftest-install: set INSTALL_PATH=DIR" >&2; exit 2; fi; \
	dest=$(abspath $(INSTALL_PATH)); mkdir -p $$dest/kselftest; \
	install -m 744 $$sel/kselftest/module.sh $$sel/kselftest/runner.sh \
		$$sel/kselftest/prefix.pl $$dest/kselftest/ && \
	install -m 744 $$sel/run_kselftest.sh $$dest/run_kselftest.kernel.sh && \
	install -m 755 tests/kselftest/run_kselftest.sh $$dest/ || exit 1; \
	rm -f $$dest/kselftest-list.txt; \
	for s in $(KSELFTEST_SUITES); do \
		$(MAKE) --no-print-directory -C tests/kselftest/$$s $(KSELFTEST_ARGS) \
			OUTPUT=$(abspath $(BUILD))/kselftest/$$s INSTALL_PATH=$$dest/$$s install || exit 1; \
		$(MAKE) -s --no-print-directory -C tests/kselftest/$$s $(KSELFTEST_ARGS) \
			OUTPUT=$(abspath $(BUILD))/kselftest/$$s COLLECTION=$$s emit_tests \
			>> $$dest/kselftest-list.txt || exit 1; \
	done; \
	echo "kselftest-install: $$dest/run_kselftest.sh runs $$(wc -l < $$dest/kselftest-list.txt) tests"

CHECK_TARGETS += check-kselftest
check-kselftest:
	@mkdir -p $(RESULTS); log=$(RESULTS)/kselftest.log; dest=$(abspath $(BUILD))/kselftest-install; \
	rm -rf $$dest; ksrc=$$(scripts/kernel-source 'tools/testing/selftests/lib.mk' \
		'tools/testing/selftests/run_kselftest.sh' 'tools/testing/selftests/kselftest/*' \
		'tools/testing/selftests/kselftest*.h'); \
	if ! $(MAKE) --no-print-directory kselftest-install KSRC=$$ksrc INSTALL_PATH=$$dest \
		> $(RESULTS)/kselftest-install.log 2>&1; then \
		echo "not ok 1 make kselftest-install" > $$log; sed 's/^/# /' $(RESULTS)/kselftest-install.log >> $$log; \
	else \
		echo "ok 1 make kselftest-install: $$(wc -l < $$dest/kselftest-list.txt) tests in $(KSELFTEST_SUITES)" > $$log; \
		(cd $$dest && TMPDIR=/tmp timeout 900 ./run_kselftest.sh) > $(RESULTS)/kselftest-run.log 2>&1; \
		rc=$$?; \
		head -n 1 $(RESULTS)/kselftest-run.log | grep -qx 'TAP version 13' && \
		grep -q '^1\.\.[0-9]' $(RESULTS)/kselftest-run.log && \
		[ "$$(grep -c '^\(not \)\?ok [0-9]* selftests: ' $(RESULTS)/kselftest-run.log)" = "$$(wc -l < $$dest/kselftest-list.txt)" ] && \
		! grep -q '^not ok [0-9]* selftests: ' $(RESULTS)/kselftest-run.log && [ $$rc = 0 ]; \
		if [ $$? = 0 ]; then echo "ok 2 run_kselftest.sh: KTAP, one result per test, none failed" >> $$log; \
		else echo "not ok 2 run_kselftest.sh (exit $$rc)" >> $$log; sed 's/^/# /' $(RESULTS)/kselftest-run.log >> $$log; fi; \
		if [ -c /dev/npukit0 ]; then \
			echo "ok 3 NPUKIT_REQUIRE_DEVICE=1 # SKIP /dev/npukit0 is here: nothing to fail for" >> $$log; \
		else \
			(cd $$dest && NPUKIT_REQUIRE_DEVICE=1 TMPDIR=/tmp timeout 900 ./run_kselftest.sh) \
				> $(RESULTS)/kselftest-require.log 2>&1; \
			rc=$$?; \
			tests/kselftest/require-device-check $(RESULTS)/kselftest-run.log \
				$(RESULTS)/kselftest-require.log /dev/npukit0 > $(RESULTS)/kselftest-require.diff 2>&1 && \
			[ $$rc != 0 ]; \
			if [ $$? = 0 ]; then echo "ok 3 NPUKIT_REQUIRE_DEVICE=1 run_kselftest.sh exits $$rc: $$(tail -n 1 $(RESULTS)/kselftest-require.diff)" >> $$log; \
			else echo "not ok 3 NPUKIT_REQUIRE_DEVICE=1 run_kselftest.sh (exit $$rc) must fail every test that skips for want of /dev/npukit0" >> $$log; \
				sed 's/^/# /' $(RESULTS)/kselftest-require.diff >> $$log; fi; \
		fi; \
	fi; \
	cat $$log; scripts/tally kselftest $$log $(RESULTS)

# check-kselftest-armhf: the collection cross-built for the board (armhf,
# dynamically linked against the multiarch json-c: scripts/armhf-build-deps)
# on this machine, with Debian's 6.1 source as KSRC: no kernel tree on the
# board. Every binary runs under qemu-arm (tests/kselftest/run-under-qemu):
# the device tests SKIP, the rest pass. Documentation/npukit/packages.rst.
CHECK_TARGETS += check-kselftest-armhf
.PHONY: check-kselftest-armhf
check-kselftest-armhf:
	@mkdir -p $(RESULTS); log=$(RESULTS)/kselftest-armhf.log; dest=$(abspath $(BUILD))/kselftest-armhf-install; \
	rm -rf $$dest; ksrc=$$(scripts/kernel-source 'tools/testing/selftests/lib.mk' \
		'tools/testing/selftests/run_kselftest.sh' 'tools/testing/selftests/kselftest/*' \
		'tools/testing/selftests/kselftest*.h'); \
	if ! scripts/armhf-build-deps > $(RESULTS)/kselftest-armhf-install.log 2>&1 || \
	   ! $(MAKE) --no-print-directory kselftest-install BUILD=$(BUILD)/armhf-kselftest \
		CC=arm-linux-gnueabihf-gcc AR=arm-linux-gnueabihf-ar PKG_CONFIG=arm-linux-gnueabihf-pkg-config \
		KSRC=$$ksrc INSTALL_PATH=$$dest >> $(RESULTS)/kselftest-armhf-install.log 2>&1; then \
		echo "not ok 1 make kselftest-install CC=arm-linux-gnueabihf-gcc" > $$log; \
		sed 's/^/# /' $(RESULTS)/kselftest-armhf-install.log >> $$log; \
	else \
		echo "ok 1 make kselftest-install CC=arm-linux-gnueabihf-gcc: $$(wc -l < $$dest/kselftest-list.txt) tests" > $$log; \
		tests/kselftest/run-under-qemu $$dest 2 >> $$log; \
	fi; \
	cat $$log | grep -v '^#'; scripts/tally kselftest-armhf $$log $(RESULTS)
