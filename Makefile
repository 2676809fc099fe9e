# SPDX-License-Identifier: MIT
#
# npukit: top-level build.
#   make                 libttpu-run (.so with soname, .a) and ttpu-run into build/
#   make demo            run the example program (software engine unless /dev/npukit)
#   make check           every test suite (scripts/check installs what it needs first)
#   make bench           benchmarks, printing figures
#   make module KDIR=... the kernel module against a kernel build tree
#
# Test and tool fragments live in mk/*.mk, one per concern.

BUILD     ?= build
CC        ?= gcc
AR        ?= ar
PKG_CONFIG ?= pkg-config
SAN       ?=
TSAN      ?=
NPUKIT_CACHE ?= $(shell scripts/cache-dir)

LIB_SOVERSION := 1
LIB_VERSION   := 1.0.0

JSONC_CFLAGS := $(shell $(PKG_CONFIG) --cflags json-c)
JSONC_LIBS   := $(shell $(PKG_CONFIG) --libs json-c)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wvla -Wno-unused-parameter
CFLAGS  ?= -O2 -g
ifneq ($(SAN),)
CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
# ThreadSanitizer, for the suites whose runs use threads (mk/10-runtime.mk)
ifneq ($(TSAN),)
CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=thread
LDFLAGS += -fsanitize=thread
endif
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -pthread -fPIC $(WARN) $(CFLAGS) \
              -Iuserspace/include -Iuserspace/lib -Iuapi $(JSONC_CFLAGS)
LDLIBS  += $(JSONC_LIBS) -pthread -lm

# userspace/lib/README.md: the files of the library, stage by stage.
LIB_SRCS := $(sort $(wildcard userspace/lib/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_SRCS := $(sort $(wildcard userspace/cli/*.c))
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)

LIB_A  := $(BUILD)/lib/libttpu-run.a
LIB_SO := $(BUILD)/lib/libttpu-run.so.$(LIB_VERSION)
TTPU_RUN := $(BUILD)/bin/ttpu-run

.PHONY: all demo check bench module clean
all: $(LIB_A) $(LIB_SO) $(TTPU_RUN)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# One API: the library's own symbols are hidden, ttpu-run.h marks what is
# exported (TTPU_API) and libttpu-run.map lists it again for the linker.
# The static library keeps every symbol for the in-tree tests.
LIB_MAP := userspace/lib/libttpu-run.map
$(LIB_OBJS): ALL_CFLAGS += -fvisibility=hidden

# The CLI is an ordinary client of the library: the public header only.
$(CLI_OBJS): ALL_CFLAGS := $(filter-out -Iuserspace/lib,$(ALL_CFLAGS))

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && $(AR) rcs $@ $^

$(LIB_SO): $(LIB_OBJS) $(LIB_MAP)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libttpu-run.so.$(LIB_SOVERSION) -Wl,--no-undefined \
		-Wl,--version-script=$(LIB_MAP) $(LDFLAGS) -o $@ $(LIB_OBJS) $(LDLIBS)
	ln -sf libttpu-run.so.$(LIB_VERSION) $(BUILD)/lib/libttpu-run.so.$(LIB_SOVERSION)
	ln -sf libttpu-run.so.$(LIB_SOVERSION) $(BUILD)/lib/libttpu-run.so

# The CLI links the static library: one self-contained binary to copy to a
# board. CLI_LINK=shared links it to libttpu-run.so.1 instead, as a
# distribution's package does (debian/rules).
CLI_LIB = $(if $(filter shared,$(CLI_LINK)),$(LIB_SO),$(LIB_A))
$(TTPU_RUN): $(CLI_OBJS) $(CLI_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(CLI_LIB) $(LDLIBS)

demo: $(TTPU_RUN)
	$(TTPU_RUN) examples/mlp.json --inputs examples/mlp-inputs.json -o $(BUILD)/mlp-response.json --show --stats
	@echo "response: $(BUILD)/mlp-response.json"

clean:
	rm -rf $(BUILD)

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)
include $(sort $(wildcard mk/*.mk))
