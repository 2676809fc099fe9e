# SPDX-License-Identifier: MIT
# The kernel module.
#   make module KDIR=<kernel build tree> [ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-]
#       builds $(BUILD)/module/npukit.ko and npukit_sim.ko, the simulated
#       NpuKit for tests (default KDIR: the running kernel's).
#   make check-kernel   (part of `make check`) the static checks: the module
#       builds with W=1 and sparse (C=1) without a single "warning:" against
#       Debian's 6.1 headers (installed), its 6.12 headers and Debian 11's
#       5.10 headers for amd64 and, cross-compiled, for armhf (armmp; 5.10 is
#       the oldest line supported, the PYNQ-Z2 images run 5.15; the last
#       three unpacked by scripts/kernel-headers, not installed), both
#       modules each time; the 6.1 npukit.ko holds no simulator (no sim_*
#       parameter or symbol), npukit_sim.ko every sim_* parameter; the
#       docs state that range, checkpatch --strict is clean on every file of
#       driver/ and uapi/, and kernel-doc (with KBUILD_EXTRA_WARN=2) finds
#       nothing wrong in their doc comments.
# Kbuild writes objects next to its sources, so every build runs on a fresh
# copy of Kbuild, driver/ and uapi/ under $(BUILD): the work tree stays
# clean and builds for different kernels never share objects.

KDIR ?= /lib/modules/$(shell uname -r)/build
KMOD_SRCS := Kbuild $(sort $(wildcard driver/*.c driver/*.h)) uapi/npukit.h
KMOD_CHECKPATCH_FILES := $(sort $(wildcard driver/* uapi/*))
KMOD_HDRS := $(lastword $(sort $(wildcard /usr/src/linux-headers-6.1.*-amd64)))
# The supported kernel range: the oldest and newest lines built above; the
# docs must state it as "Linux $(KMOD_KVER_MIN) to $(KMOD_KVER_MAX)".
KMOD_KVER_MIN := 5.10
KMOD_KVER_MAX := 6.12
KMOD_RANGE_DOCS := README.md Documentation/npukit/building.rst
# The unpacked headers (scripts/kernel-headers), as LINE:FLAVOUR:GOAL:MAKE_ARGS
# (MAKE_ARGS joined with +). Debian 11's Makefile asks for gcc-10: Debian
# 12's gcc builds 5.10 too. The armhf build stops before modpost (goal
# npukit.o), whose host binary in linux-kbuild-5.10 knows only amd64's
# struct layouts; the Zynq 5.10 suite (mk/50-zynq.mk) links the module for
# ARM against its own kernel tree.
KMOD_UNPACKED := 6.12:amd64:modules: 5.10:amd64:modules:CC=gcc \
	5.10:armmp:npukit.o:ARCH=arm+CROSS_COMPILE=arm-linux-gnueabihf-+CC=arm-linux-gnueabihf-gcc
KMOD_CHECKPATCH = $(shell scripts/kernel-source 'scripts/checkpatch.pl' \
	'scripts/spelling.txt' 'scripts/const_structs.checkpatch')/scripts/checkpatch.pl
KMOD_KERNELDOC = $(shell scripts/kernel-source 'scripts/kernel-doc')/scripts/kernel-doc
KMOD_ARGS = $(if $(ARCH),ARCH=$(ARCH)) $(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE))

# $(call kmod-copy,DIR)
kmod-copy = rm -rf $(1) && mkdir -p $(1) && cp --parents $(KMOD_SRCS) $(1)/
# $(call kmod-build,KDIR,TAG,MAKE_ARGS): in check-kernel's shell, with $$dir
# the copy's directory and $$n the test number, build the module with W=1
# and sparse and write one TAP line (with every warning and error) to $$log.
kmod-build = $(call kmod-copy,$$dir); \
	if $(MAKE) --no-print-directory -C $(1) M=$$dir W=1 C=1 $(3) >$$dir.log 2>&1 && \
	   ! grep -q 'warning:' $$dir.log; then \
		echo "ok $$n build W=1 + sparse C=1 against $(2)" >>$$log; \
	else \
		echo "not ok $$n build W=1 + sparse C=1 against $(2)" >>$$log; \
		grep -E 'warning:|error:' $$dir.log | sed 's/^/\# /' >>$$log; \
	fi

# $(call kmod-nosim,DIR,TAG): in check-kernel's shell, one TAP line: the
# production module has no sim_* parameter and no simulator symbol (the
# model's sim_* functions, npukit_sim_*), npukit_sim.ko has the parameters
# and depends on npukit.ko.
kmod-nosim = ko=$(1)/npukit.ko; sko=$(1)/npukit_sim.ko; \
	parm=$$(modinfo -F parm $$ko 2>&1); syms=$$(nm $$ko 2>&1 | grep -E ' (npukit_)?sim_' | head -n 3); \
	if [ -f $$ko ] && [ -z "$$parm" ] && [ -z "$$syms" ] && \
	   modinfo -F parm $$sko | grep -q '^sim_devices:' && \
	   [ "$$(modinfo -F depends $$sko)" = npukit ]; then \
		echo "ok $$n npukit.ko ($(2)) has no simulator parameter or symbol; npukit_sim.ko has them, over npukit.ko" >>$$log; \
	else \
		echo "not ok $$n npukit.ko ($(2)) carries the simulator, or npukit_sim.ko is not built over it" >>$$log; \
		echo "$$parm $$syms" | sed 's/^/\# /' >>$$log; \
	fi

module:
	@if [ ! -f $(KDIR)/Makefile ]; then \
		echo "module: no kernel build tree at $(KDIR): install this kernel's headers," \
			"or pass KDIR=<kernel build tree> (Documentation/npukit/building.rst)" >&2; \
		exit 2; fi
	@$(call kmod-copy,$(BUILD)/module)
	$(MAKE) -C $(KDIR) M=$(abspath $(BUILD)/module) $(KMOD_ARGS) modules
	@echo "module: $(BUILD)/module/npukit.ko $(BUILD)/module/npukit_sim.ko"

CHECK_TARGETS += check-kernel
.PHONY: check-kernel
check-kernel:
	@mkdir -p $(RESULTS) $(BUILD)/kmod
	@log=$(RESULTS)/kernel.log; : > $$log; n=0; \
	for kdir in $(KMOD_HDRS); do \
		n=$$((n + 1)); tag=$$(basename $$kdir); dir=$(abspath $(BUILD))/kmod/$$tag; \
		$(call kmod-build,$$kdir,$$tag,modules); \
		n=$$((n + 1)); $(call kmod-nosim,$$dir,$$tag); \
	done; \
	if [ -z "$(KMOD_HDRS)" ]; then n=$$((n + 1)); \
		echo "ok $$n build # SKIP no /usr/src/linux-headers-6.1.*-amd64 (scripts/deps)" >>$$log; \
	fi; \
	for spec in $(KMOD_UNPACKED); do \
		n=$$((n + 1)); line=$${spec%%:*}; flav=$${spec#*:}; goal=$${flav#*:}; flav=$${flav%%:*}; \
		args=$${goal#*:}; goal=$${goal%%:*}; \
		tag=linux-headers-$$line-$$flav; dir=$(abspath $(BUILD))/kmod/$$tag; \
		if ! kdir=$$(scripts/kernel-headers $$line $$flav 2>$$dir.err); then \
			echo "ok $$n build against $$tag # SKIP $$(cat $$dir.err)" >>$$log; continue; \
		fi; \
		$(call kmod-build,$$kdir,$$tag ($$goal),$$(echo $$args | tr + ' ') $$goal); \
	done; \
	for f in $(KMOD_RANGE_DOCS); do \
		n=$$((n + 1)); \
		if tr -s ' \n' '  ' <$$f | grep -q "Linux $(KMOD_KVER_MIN) to $(KMOD_KVER_MAX)"; then \
			echo "ok $$n $$f states the supported range Linux $(KMOD_KVER_MIN) to $(KMOD_KVER_MAX)" >>$$log; \
		else echo "not ok $$n $$f does not state \"Linux $(KMOD_KVER_MIN) to $(KMOD_KVER_MAX)\"" >>$$log; fi; \
	done; \
	cp=$(KMOD_CHECKPATCH); \
	for f in $(KMOD_CHECKPATCH_FILES); do \
		n=$$((n + 1)); \
		out=$$(perl $$cp --strict --no-tree --no-summary --terse -f $$f 2>&1); \
		if [ -z "$$out" ]; then echo "ok $$n checkpatch --strict $$f" >>$$log; \
		else echo "not ok $$n checkpatch --strict $$f" >>$$log; \
			echo "$$out" | sed 's/^/# /' >>$$log; fi; \
	done; \
	kd=$(KMOD_KERNELDOC); \
	for f in $(KMOD_CHECKPATCH_FILES); do \
		n=$$((n + 1)); \
		out=$$(KBUILD_EXTRA_WARN=2 perl $$kd -none $$f 2>&1); \
		if [ -z "$$out" ]; then echo "ok $$n kernel-doc $$f" >>$$log; \
		else echo "not ok $$n kernel-doc $$f" >>$$log; \
			echo "$$out" | sed 's/^/# /' >>$$log; fi; \
	done; \
	cat $$log; scripts/tally kernel $$log $(RESULTS)

# DKMS (dkms.conf): `sudo make dkms-install` puts the module sources in
# /usr/src/npukit-$(NPUKIT_DKMS_VERSION) and lets dkms build and install
# npukit.ko for the running kernel and every kernel installed later, and
# gives group npukit the device nodes (udev/60-npukit.rules, mk/70-install.mk).
# scripts/dkms-install checks dkms and the kernel's build tree before it
# touches anything, and rolls a failed dkms install back.
NPUKIT_DKMS_VERSION := 1.0.0
# npukit.ko's sources: the board never builds the simulator (npukit_sim.ko)
DKMS_FILES = $(filter-out driver/npukit_sim%,$(KMOD_SRCS)) dkms.conf
.PHONY: dkms-install check-dkms
dkms-install:
	scripts/dkms-install $(NPUKIT_DKMS_VERSION) $(DKMS_FILES)
	$(call npukit-access)

# check-dkms: dkms builds the module from dkms.conf against Debian's 6.1
# headers, in scratch source and dkms trees (nothing is installed), and it
# is npukit.ko alone, without a parameter (no simulator); `make
# dkms-install` without headers, or with a failing build, leaves nothing
# behind (tests/dkms/install-rollback).
CHECK_TARGETS += check-dkms
check-dkms:
	@mkdir -p $(RESULTS); log=$(RESULTS)/dkms.log; : > $$log; \
	grep -qx 'PACKAGE_VERSION="$(NPUKIT_DKMS_VERSION)"' dkms.conf && \
	grep -qx 'MODULE_VERSION("$(NPUKIT_DKMS_VERSION)");' driver/npukit_drv.c && \
		echo "ok 1 dkms.conf and MODULE_VERSION are $(NPUKIT_DKMS_VERSION)" >>$$log || \
		echo "not ok 1 dkms.conf PACKAGE_VERSION or MODULE_VERSION differs from $(NPUKIT_DKMS_VERSION)" >>$$log; \
	hdr=$(firstword $(KMOD_HDRS)); kver=$${hdr#/usr/src/linux-headers-}; \
	top=$(abspath $(BUILD))/dkms; src=$$top/src/npukit-$(NPUKIT_DKMS_VERSION); \
	if ! command -v dkms >/dev/null || [ -z "$$hdr" ] || [ ! -d /lib/modules/$$kver/build ]; then \
		echo "ok 2 dkms build # SKIP dkms or the $$kver headers are not installed (scripts/deps)" >>$$log; \
	else \
		rm -rf $$top; mkdir -p $$src $$top/tree; cp --parents $(DKMS_FILES) $$src/; \
		if dkms build -m npukit -v $(NPUKIT_DKMS_VERSION) -k $$kver --sourcetree $$top/src \
			--dkmstree $$top/tree >$$top/build.log 2>&1 && \
		   ko=$$(find $$top/tree -name 'npukit.ko*' | head -n 1) && [ -n "$$ko" ] && \
		   modinfo -F vermagic $$ko | grep -q "^$$kver " && [ -z "$$(modinfo -F parm $$ko)" ] && \
		   [ -z "$$(find $$top -name 'npukit_sim*.ko*')" ]; then \
			echo "ok 2 dkms builds npukit.ko for $$kver, without the simulator" >>$$log; \
		else echo "not ok 2 dkms build for $$kver" >>$$log; sed 's/^/# /' $$top/build.log >>$$log; fi; \
	fi; \
	if command -v dkms >/dev/null; then \
		tests/dkms/install-rollback 3 $(NPUKIT_DKMS_VERSION) $(DKMS_FILES) >>$$log 2>&1; \
	else echo "ok 3 dkms-install rollback # SKIP no dkms (scripts/deps)" >>$$log; fi; \
	cat $$log; scripts/tally dkms $$log $(RESULTS)
