# SPDX-License-Identifier: MIT
# check-deb: debian/ builds libttpu-run1, libttpu-run-dev, ttpu-run,
# python3-ttpu-run and npukit-dkms with dpkg-buildpackage -b -us -uc,
# lintian-clean, and the unpacked packages run the example, an application
# and the Python tests (tests/deb/check-deb, in a scratch copy under /tmp).

CHECK_TARGETS += check-deb
.PHONY: check-deb
check-deb:
	$(call run-suite,deb,tests/deb/check-deb,)
