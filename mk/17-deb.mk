# SPDX-License-Identifier: MIT
# check-deb: debian/ builds libttpu-run1, libttpu-run-dev, ttpu-run,
# python3-ttpu-run and npukit-dkms with dpkg-buildpackage -b -us -uc,
# lintian-clean, and the unpacked packages run the example, an application
# and the Python tests (tests/deb/check-deb, in a scratch copy under /tmp).

CHECK_TARGETS += check-deb
.PHONY: check-deb
check-deb:
	$(call run-suite,deb,tests/deb/check-deb,)

# check-deb-armhf: the packages for the board, cross-built with
# dpkg-buildpackage -a armhf against Debian 12's multiarch armhf libraries,
# checked against Ubuntu 22.04 (PYNQ 3.x: glibc 2.35, Python 3.10), and run
# under qemu-arm: ttpu-run and the Python tests from the installed files
# (tests/deb/check-deb-armhf; Documentation/npukit/packages.rst).
CHECK_TARGETS += check-deb-armhf
.PHONY: check-deb-armhf
check-deb-armhf:
	$(call run-suite,deb-armhf,tests/deb/check-deb-armhf,)
