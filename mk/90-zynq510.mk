# SPDX-License-Identifier: MIT
# The PYNQ-Z2 images' kernel line on the emulated Zynq-7000: 32-bit ARM maps
# DMA through its own arm_dma_ops up to 5.15 (dma-direct in 6.1), so the
# board's DMA path runs only here.
#
#   make zynq510-check   suite "zynq510": mk/50-zynq.mk's zynq-check on
#                        Debian 11's linux-source-5.10 (tests/zynq/build-kernel
#                        5.10: kernel.config plus kernel-5.10.config, which
#                        drops KASAN, not on 32-bit ARM before 5.11), with the
#                        UAPI and engine suites and their interrupt and
#                        worst-timing passes
#
# Its kernel builds in the background after the 6.1 one (make zynq-kernel-bg),
# so `make check` runs it last, after zynq-check (mk/99-check.mk), which
# gives that build the most time to finish.
# The engine suite is mk/60-engine.mk's ZYNQ_SUITES entry, repeated here
# because a command-line variable replaces the whole list; the runtime and
# CLI suites reach the kernel only the way the engine suite does.
ZYNQ510_SUITES  := uapi:uapi-tests:ZYNQ_UAPI_BINS engine:engine-tests:ENGINE_BINS
ZYNQ510_TIMEOUT ?= 600
.PHONY: zynq510-check
zynq510-check:
	@$(MAKE) --no-print-directory zynq-check ZYNQ_KVER=5.10 ZYNQ_NAME=zynq510 \
		ZYNQ_DIR=$(BUILD)/zynq510 ZYNQ_XBUILD=$(BUILD)/armhf-zynq510 \
		ZYNQ_SUITES='$(ZYNQ510_SUITES)' ZYNQ_TIMEOUT=$(ZYNQ510_TIMEOUT)

CHECK_TARGETS += zynq510-check
