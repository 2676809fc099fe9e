# SPDX-License-Identifier: MIT
# `make check-dt`: the PYNQ-Z2 overlay and .dtsi compile with dtc, the DT
# binding and its example validate with dt-schema (dts/check).
.PHONY: check-dt
check-dt:
	@mkdir -p $(RESULTS); status=0; \
	dts/check $(BUILD)/dt > $(RESULTS)/dt.log 2>&1 || status=1; \
	scripts/tally dt $(RESULTS)/dt.log $(RESULTS) || status=1; exit $$status

CHECK_TARGETS += check-dt
