# SPDX-License-Identifier: MIT
# `make check-doc-refs` (suite "doc-refs"): every Documentation/ or docs/
# path and every *.rst or *.md name that a source or document cites exists,
# here or, for the kernel's own documents, in the kernel's tree
# (scripts/check-doc-refs, one TAP line per citation).
.PHONY: check-doc-refs
check-doc-refs:
	@mkdir -p $(RESULTS); status=0; \
	scripts/check-doc-refs > $(RESULTS)/doc-refs.log 2>&1 || status=1; \
	grep '^not ok' $(RESULTS)/doc-refs.log || true; \
	scripts/tally doc-refs $(RESULTS)/doc-refs.log $(RESULTS) || status=1; exit $$status

CHECK_TARGETS += check-doc-refs
