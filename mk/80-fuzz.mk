# SPDX-License-Identifier: MIT
# libFuzzer over libttpu-run's public API (tests/fuzz/fuzz_ttpu.c), built
# with Debian's clang, ASan and UBSan into $(FUZZ_DIR).
#   make fuzz [FUZZ_SECONDS=N]  fuzz for N seconds (default 600; 0: until
#                               interrupted); new inputs accumulate in
#                               $(FUZZ_DIR)/corpus, findings in artifacts/
#   check-fuzz                  the same for FUZZ_CHECK_SECONDS (60), part of
#                               `make check`: fails on any crash, leak,
#                               timeout or invalid output document; SKIPs
#                               without clang
# Seeds: every test program joined to its inputs ("PROGRAM\0INPUTS"), the
# same pair as a request, and the program compiled (ttpu-run --compile)
# joined to its inputs.

FUZZ_CC            ?= clang
FUZZ_DIR            = $(BUILD)/fuzz
FUZZ_BIN            = $(FUZZ_DIR)/fuzz_ttpu
FUZZ_SECONDS       ?= 600
FUZZ_CHECK_SECONDS ?= 60
FUZZ_SAN           := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS         = -std=c11 -D_GNU_SOURCE -pthread $(WARN) -Wno-unknown-attributes \
                      -Wno-format-nonliteral -O1 -g \
                      -fno-omit-frame-pointer $(FUZZ_SAN) \
                      -Iuserspace/include -Iuserspace/lib -Iuapi $(JSONC_CFLAGS)
FUZZ_LIB_OBJS       = $(LIB_SRCS:%.c=$(FUZZ_DIR)/obj/%.o)
# A run's limits: 10 s per input, and room for the largest program the
# loader allows (2^28 elements of 4 bytes) before libFuzzer calls it a leak.
FUZZ_ARGS           = -timeout=10 -rss_limit_mb=3072 -malloc_limit_mb=1536 \
                      -max_len=65536 -artifact_prefix=$(FUZZ_DIR)/artifacts/

CHECK_TARGETS += check-fuzz
.PHONY: fuzz check-fuzz fuzz-seeds

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_BIN): tests/fuzz/fuzz_ttpu.c $(FUZZ_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Wno-missing-prototypes -fsanitize=fuzzer \
		-o $@ $^ $(LDLIBS)

# Rebuilt every time: cheap, and the test data may have changed.
fuzz-seeds: $(TTPU_RUN)
	@rm -rf $(FUZZ_DIR)/seeds; mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus \
		$(FUZZ_DIR)/artifacts
	@for p in $$(find tests -path '*/data/*.json' ! -name '*-inputs.json' | sort) \
			examples/mlp.json; do \
		n=$$(echo $$p | tr / _); in=$${p%.json}-inputs.json; \
		[ -f "$$in" ] || in=/dev/null; \
		{ cat $$p; printf '\0'; cat $$in; } > $(FUZZ_DIR)/seeds/$$n; \
		{ printf '{"program": '; cat $$p; printf ', "inputs": '; \
		  if [ -s "$$in" ]; then cat $$in; else printf '{}'; fi; printf '}'; } \
			> $(FUZZ_DIR)/seeds/request-$$n; \
		if $(TTPU_RUN) --compile $$p -o $(FUZZ_DIR)/seeds/.ttpb 2>/dev/null; then \
			{ cat $(FUZZ_DIR)/seeds/.ttpb; printf '\0'; cat $$in; } \
				> $(FUZZ_DIR)/seeds/compiled-$$n; \
		fi; \
	done; rm -f $(FUZZ_DIR)/seeds/.ttpb

fuzz: $(FUZZ_BIN) fuzz-seeds
	$(FUZZ_BIN) $(FUZZ_ARGS) -max_total_time=$(FUZZ_SECONDS) \
		$(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds

check-fuzz:
	@mkdir -p $(RESULTS)
	@if ! command -v $(FUZZ_CC) >/dev/null; then \
		echo "ok 1 fuzz_ttpu # SKIP $(FUZZ_CC) is not installed" > $(RESULTS)/fuzz.log; \
	else \
		$(MAKE) --no-print-directory $(FUZZ_BIN) fuzz-seeds >/dev/null && \
		if $(FUZZ_BIN) $(FUZZ_ARGS) -max_total_time=$(FUZZ_CHECK_SECONDS) \
			$(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds > $(FUZZ_DIR)/check.log 2>&1; then \
			echo "ok 1 fuzz_ttpu for $(FUZZ_CHECK_SECONDS) s: $$(grep -o 'Done [0-9]* runs' $(FUZZ_DIR)/check.log)" \
				> $(RESULTS)/fuzz.log; \
		else \
			tail -40 $(FUZZ_DIR)/check.log; \
			echo "not ok 1 fuzz_ttpu: see $(FUZZ_DIR)/check.log and $(FUZZ_DIR)/artifacts" \
				> $(RESULTS)/fuzz.log; \
		fi; \
	fi
	@cat $(RESULTS)/fuzz.log
	@scripts/tally fuzz $(RESULTS)/fuzz.log $(RESULTS)

-include $(wildcard $(FUZZ_DIR)/obj/userspace/lib/*.d)
