# SPDX-License-Identifier: MIT
# `make check-pynq`: the PYNQ-Z2 bring-up's scripts (tools/pynq/check):
# shellcheck over every shell script of the tree, the smoke test on the
# software engine (and that it can fail), the systemd unit verified.
.PHONY: check-pynq
check-pynq: $(TTPU_RUN)
	@mkdir -p $(RESULTS); status=0; \
	TTPU_RUN=$(abspath $(TTPU_RUN)) tools/pynq/check $(BUILD)/pynq > $(RESULTS)/pynq.log 2>&1 || status=1; \
	scripts/tally pynq $(RESULTS)/pynq.log $(RESULTS) || status=1; exit $$status

CHECK_TARGETS += check-pynq
