# SPDX-License-Identifier: MIT
# The ttpu format's JSON Schema and the test-program generator.
#
# check-schema: every program/request/inputs/response JSON the tests and
#   examples use, plus a set of generated programs, validated against
#   Documentation/ttpu.schema.json with Debian's python3-jsonschema; then
#   known-bad programs the schema must reject. One TAP line per check.
# check-gen: generated programs (expected results computed on whole
#   matrices) replayed in Python and run through ttpu-run, compared exactly.
# check-differential: the schema and `ttpu-run --check` must agree on the
#   test programs, generated ones and their mutations (types swapped,
#   nulls, missing and unknown keys, values at their bounds), as programs
#   and as requests (tests/gen/check_differential.py).
# examples: regenerate examples/mlp*.json (committed; the demo runs them).

PYTHON3     := /usr/bin/python3
TTPU_SCHEMA := Documentation/ttpu.schema.json
TTPU_GEN    := $(PYTHON3) tests/gen/ttpu_gen.py
GEN_DIR      = $(BUILD)/gen
EXAMPLE_ARGS := mlp --name mlp --batch 2 --dims 16,12,4 --bias 1,1 --relu 1,0 \
                --chain narrow --seed 2024

CHECK_TARGETS += check-schema check-gen check-differential
.PHONY: check-schema check-gen check-differential examples

# Generated programs for the schema check: each epilogue mode and chain,
# skip-zero-passes, and a RangeError program.
check-schema:
	@mkdir -p $(RESULTS) $(GEN_DIR)/schema
	@set -e; d=$(GEN_DIR)/schema; \
	for e in fused host; do for c in input narrow; do \
		$(TTPU_GEN) mlp --epilogue $$e --chain $$c --batch 3 --dims 9,7,6 \
			--program $$d/$$e-$$c.json --request $$d/$$e-$$c-request.json \
			--inputs $$d/$$e-$$c-inputs.json --expected $$d/$$e-$$c-expected.json; \
	done; done; \
	$(TTPU_GEN) mlp --skip-zero --zero-blocks 0.4 --batch 5 --dims 13,10,7 \
		--program $$d/skip.json; \
	$(TTPU_GEN) range --variant bias --batch 3 --dims 6,5 \
		--request $$d/range-request.json --expected $$d/range-expected.json
	@status=0; $(PYTHON3) tests/gen/check_schema.py $(TTPU_SCHEMA) \
		$$(find tests -path '*/data/*.json' | sort) examples/*.json \
		$(GEN_DIR)/schema/*.json > $(RESULTS)/schema.log 2>&1 || status=$$?; \
	grep -v '^ok ' $(RESULTS)/schema.log || true; \
	scripts/tally schema $(RESULTS)/schema.log $(RESULTS) && [ $$status -eq 0 ]

check-gen: $(TTPU_RUN)
	@mkdir -p $(RESULTS)
	@status=0; $(PYTHON3) tests/gen/check_gen.py $(TTPU_RUN) $(TTPU_SCHEMA) \
		$(GEN_DIR)/cross > $(RESULTS)/gen.log 2>&1 || status=$$?; \
	grep -v '^ok ' $(RESULTS)/gen.log || true; \
	scripts/tally gen $(RESULTS)/gen.log $(RESULTS) && [ $$status -eq 0 ]

check-differential: $(TTPU_RUN)
	@mkdir -p $(RESULTS) $(GEN_DIR)/differential
	@set -e; d=$(GEN_DIR)/differential; \
	$(TTPU_GEN) mlp --epilogue fused --chain narrow --bias 1,1 --relu 1,0 \
		--batch 3 --dims 9,7,6 --program $$d/mlp-fused.json; \
	$(TTPU_GEN) mlp --epilogue host --chain input --batch 2 --dims 5,6 \
		--program $$d/mlp-host.json; \
	$(TTPU_GEN) mlp --skip-zero --zero-blocks 0.4 --batch 5 --dims 13,10,7 \
		--program $$d/mlp-skip.json
	@status=0; $(PYTHON3) tests/gen/check_differential.py $(TTPU_RUN) $(TTPU_SCHEMA) \
		$(GEN_DIR)/differential/work $$(find tests -path '*/data/*.json' | sort) \
		examples/*.json $(GEN_DIR)/differential/*.json \
		> $(RESULTS)/differential.log 2>&1 || status=$$?; \
	grep -v '^ok ' $(RESULTS)/differential.log || true; \
	scripts/tally differential $(RESULTS)/differential.log $(RESULTS) && [ $$status -eq 0 ]

examples:
	$(TTPU_GEN) $(EXAMPLE_ARGS) --program examples/mlp.json \
		--inputs examples/mlp-inputs.json --expected examples/mlp-expected.json
