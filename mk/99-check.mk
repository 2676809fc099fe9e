# SPDX-License-Identifier: MIT
# `make check`: every suite, then one total. Runs all suites even when one
# fails (-k), so a failure never hides the others.
.PHONY: check check-suites
check:
	@rm -rf $(RESULTS); mkdir -p $(RESULTS)
	@$(MAKE) --no-print-directory -k check-suites; status=$$?; \
	scripts/tally --total $(RESULTS); total=$$?; \
	[ $$status -eq 0 ] && [ $$total -eq 0 ]

check-suites: $(CHECK_TARGETS)
