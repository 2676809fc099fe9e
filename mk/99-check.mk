# SPDX-License-Identifier: MIT
# `make check`: every suite, then one total. Runs all suites even when one
# fails (-k), so a failure never hides the others.
#
# The emulated Zynq's suites go last, zynq-check then zynq510-check: their
# kernels build in the background from the start of scripts/check (make
# zynq-kernel-bg, 6.1 then 5.10), so every x86 suite that runs first is
# time those builds get before a Zynq suite has to wait for its kernel.
.PHONY: check check-suites
CHECK_ZYNQ := zynq-check zynq510-check
check:
	@rm -rf $(RESULTS); mkdir -p $(RESULTS)
	@$(MAKE) --no-print-directory -k check-suites; status=$$?; \
	scripts/tally --total $(RESULTS); total=$$?; \
	[ $$status -eq 0 ] && [ $$total -eq 0 ]

check-suites: $(filter-out $(CHECK_ZYNQ),$(CHECK_TARGETS)) $(filter $(CHECK_ZYNQ),$(CHECK_TARGETS))
