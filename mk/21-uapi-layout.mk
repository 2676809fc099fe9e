# SPDX-License-Identifier: MIT
# check-uapi-layout: uapi/npukit.h has the same struct sizes and field
# offsets for 64-bit x86 and 32-bit ARM userspace (tests/uapi-layout/).
# Each compiler found is one test; a missing cross compiler is a SKIP.

UAPI_LAYOUT_CCS := gcc arm-linux-gnueabihf-gcc

CHECK_TARGETS += check-uapi-layout
.PHONY: check-uapi-layout
check-uapi-layout:
	@mkdir -p $(RESULTS) $(BUILD)/uapi-layout; log=$(RESULTS)/uapi-layout.log; : > $$log; n=0; \
	for cc in $(UAPI_LAYOUT_CCS); do \
		n=$$((n + 1)); \
		if ! command -v $$cc >/dev/null; then echo "ok $$n $$cc # SKIP not installed" >>$$log; continue; fi; \
		if $$cc -std=c11 -Wall -Wextra -Werror -Wpadded -Iuapi -c tests/uapi-layout/layout.c \
			-o $(BUILD)/uapi-layout/$$cc.o >$(BUILD)/uapi-layout/$$cc.err 2>&1; then \
			echo "ok $$n struct layout with $$cc ($$($$cc -dumpmachine))" >>$$log; \
		else echo "not ok $$n struct layout with $$cc" >>$$log; \
			sed 's/^/# /' $(BUILD)/uapi-layout/$$cc.err >>$$log; fi; \
	done; cat $$log; scripts/tally uapi-layout $$log $(RESULTS)
