# SPDX-License-Identifier: MIT
# Man pages, generated from the rst documents with Debian's rst2man
# (python3-docutils; --strict: any docutils warning fails the build):
#   ttpu-run(1)     Documentation/ttpu-run.rst
#   libttpu-run(3)  Documentation/libttpu-run.rst
#   npukit(4)       Documentation/npukit/index.rst, a Sphinx document:
#                   scripts/man-from-sphinx names it and drops its toctree
# `make man` builds them into $(BUILD)/man, `make install` installs them.
# check-man: each page renders through man(1) without a single groff
# warning (--warnings=w: all of them), and lexgrog (what mandb indexes
# with) reads its NAME line.

RST2MAN   ?= rst2man
MAN_DIR   := $(BUILD)/man
MAN_PAGES := $(MAN_DIR)/ttpu-run.1 $(MAN_DIR)/libttpu-run.3 $(MAN_DIR)/npukit.4

define rst2man-page
@mkdir -p $(dir $@)
$(RST2MAN) --strict $< $@.tmp && mv $@.tmp $@
endef
$(MAN_DIR)/%.1: Documentation/%.rst
	$(rst2man-page)
$(MAN_DIR)/%.3: Documentation/%.rst
	$(rst2man-page)
$(MAN_DIR)/npukit.4: Documentation/npukit/index.rst scripts/man-from-sphinx
	@mkdir -p $(dir $@)
	$(PYTHON3) scripts/man-from-sphinx npukit 4 "driver for the NetKit Labs NpuKit NPU" \
		$< $@.tmp && mv $@.tmp $@

.PHONY: man check-man
man: $(MAN_PAGES)

CHECK_TARGETS += check-man
check-man: $(MAN_PAGES)
	@mkdir -p $(RESULTS)
	@log=$(RESULTS)/man.log; : > $$log; n=0; \
	t() { n=$$((n + 1)); d=$$1; shift; if out=$$("$$@" 2>&1) && [ -z "$$out" ]; then \
		echo "ok $$n $$d" >>$$log; else echo "not ok $$n $$d" >>$$log; \
		echo "$$out" | sed 's/^/# /' >>$$log; fi; }; \
	for p in $(MAN_PAGES); do \
		t "$$p renders with no groff warning" sh -c \
			"LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -E UTF-8 -l $$p 2>&1 >/dev/null"; \
		t "lexgrog reads the NAME line of $$p" sh -c "lexgrog $$p >/dev/null"; \
	done; \
	cat $$log; scripts/tally man $$log $(RESULTS)
