# SPDX-License-Identifier: MIT
# Compiled programs (.ttpb, Documentation/ttpu-binary.rst):
#   check-compiled  every program of the corpus (tests/runtime/data,
#                   tests/cli/data, examples, check_gen.py's generated cases)
#                   compiled with `ttpu-run --compile`; the compiled and the
#                   JSON program must answer byte-identically, errors too.
# Corrupt, truncated, foreign and hostile files: tests/runtime/test_binary.

CHECK_TARGETS += check-compiled
.PHONY: check-compiled

check-compiled: $(TTPU_RUN)
	@mkdir -p $(RESULTS)
	@status=0; $(PYTHON3) tests/gen/check_compiled.py $(TTPU_RUN) \
		$(GEN_DIR)/compiled > $(RESULTS)/compiled.log 2>&1 || status=$$?; \
	grep -v '^ok ' $(RESULTS)/compiled.log || true; \
	scripts/tally compiled $(RESULTS)/compiled.log $(RESULTS) && [ $$status -eq 0 ]
