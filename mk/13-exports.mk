# SPDX-License-Identifier: MIT
# check-exports: libttpu-run has one API, userspace/include/ttpu-run.h.
# The shared library exports exactly the functions the header declares
# (built with -fvisibility=hidden and $(LIB_MAP)), the version script lists
# exactly them, and the CLI calls nothing else (scripts/check-exports).

CHECK_TARGETS += check-exports
.PHONY: check-exports
check-exports: $(LIB_SO) $(CLI_OBJS)
	@mkdir -p $(RESULTS)
	@status=0; CC=$(CC) scripts/check-exports $(LIB_SO) userspace/include/ttpu-run.h \
		$(LIB_MAP) $(CLI_OBJS) > $(RESULTS)/exports.log 2>&1 || status=$$?; \
	cat $(RESULTS)/exports.log; \
	scripts/tally exports $(RESULTS)/exports.log $(RESULTS) && [ $$status -eq 0 ]
