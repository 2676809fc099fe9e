# SPDX-License-Identifier: MIT
# `make check-abi`: Documentation/ABI/testing/sysfs-driver-npukit parses
# with the kernel's scripts/get_abi.pl (from Debian's 6.1 source) and lists
# exactly the attributes driver/npukit_sysfs.c creates (tests/abi/check-abi).
.PHONY: check-abi
check-abi:
	@mkdir -p $(RESULTS); status=0; \
	abi=$$(scripts/kernel-source 'scripts/get_abi.pl')/scripts/get_abi.pl; \
	tests/abi/check-abi $$abi > $(RESULTS)/abi.log 2>&1 || status=1; \
	cat $(RESULTS)/abi.log; scripts/tally abi $(RESULTS)/abi.log $(RESULTS) || status=1; exit $$status

CHECK_TARGETS += check-abi
