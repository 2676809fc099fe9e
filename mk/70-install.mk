# SPDX-License-Identifier: MIT
# `make install [PREFIX=/usr/local] [DESTDIR=]`: ttpu-run, libttpu-run
# (shared with its soname links, and static), the public header and a
# pkg-config file, so applications build with
#   cc app.c $(pkg-config --cflags --libs ttpu-run)
# plus the man pages (mk/16-man.mk; npukit(4) documents the driver) and the driver's UAPI header as
# <npukit/npukit.h>: include/linux/ belongs to the kernel's own headers
# (linux-libc-dev), where a driver outside the kernel must not add files.
# The kernel module installs separately (Documentation/npukit/building.rst).
# In the live root (no DESTDIR) it also creates group npukit, reloads udev
# and runs ldconfig.

PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PCDIR      ?= $(LIBDIR)/pkgconfig
MANDIR     ?= $(PREFIX)/share/man
# The udev rule (udev/60-npukit.rules: group npukit, mode 0660). udev reads
# /etc/udev/rules.d, not $(PREFIX); empty: no rule (debian/ installs it
# with dh_installudev).
UDEVRULESDIR ?= /etc/udev/rules.d

# $(call npukit-access): install the udev rule; on the live system (no
# DESTDIR) also create group npukit and apply the rule to nodes that exist.
# `make install` and `make dkms-install` both use it.
define npukit-access
	$(if $(UDEVRULESDIR),install -D -m 0644 udev/60-npukit.rules $(DESTDIR)$(UDEVRULESDIR)/60-npukit.rules)
	$(if $(DESTDIR),,getent group npukit >/dev/null || groupadd --system npukit)
	$(if $(DESTDIR),,-udevadm control --reload >/dev/null 2>&1 && udevadm trigger --subsystem-match=misc --sysname-match='npukit*' >/dev/null 2>&1)
endef

.PHONY: install
install: all man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PCDIR)
	install -d $(DESTDIR)$(INCLUDEDIR)/npukit $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(MANDIR)/man4
	install -m 0644 uapi/npukit.h $(DESTDIR)$(INCLUDEDIR)/npukit/
	install -m 0644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(filter %.3,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man3/
	install -m 0644 $(filter %.4,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man4/
	install -m 0755 $(TTPU_RUN) $(DESTDIR)$(BINDIR)/
	install -m 0644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 0755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libttpu-run.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/libttpu-run.so.$(LIB_SOVERSION)
	ln -sf libttpu-run.so.$(LIB_SOVERSION) $(DESTDIR)$(LIBDIR)/libttpu-run.so
	install -m 0644 userspace/include/ttpu-run.h $(DESTDIR)$(INCLUDEDIR)/
	@# json-c is a private dependency: the public header names only its type.
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
		'Name: ttpu-run' 'Description: run ttpu programs on the NpuKit NPU or the CPU' \
		'Version: $(LIB_VERSION)' 'Requires.private: json-c' \
		'Libs: -L$${libdir} -lttpu-run' 'Libs.private: -pthread -lm' \
		'Cflags: -I$${includedir}' > $(DESTDIR)$(PCDIR)/ttpu-run.pc
	$(call npukit-access)
	@# The dynamic linker's cache must learn of libttpu-run.so.1 in the live root.
	$(if $(DESTDIR),,ldconfig)

# check-install: install into a scratch DESTDIR, then build and run a small
# application against it through pkg-config, shared and static.
CHECK_TARGETS += check-install
.PHONY: check-install
check-install: all
	@dest=$(abspath $(BUILD))/install-test; rm -rf $$dest; log=$(RESULTS)/install.log; \
	mkdir -p $(RESULTS); : > $$log; \
	pc="env PKG_CONFIG_SYSROOT_DIR=$$dest PKG_CONFIG_PATH=$$dest/usr/lib/pkgconfig $(PKG_CONFIG)"; \
	t() { n=$$1; shift; d=$$1; shift; if "$$@" >>$$log.out 2>&1; then echo "ok $$n $$d" >>$$log; \
		else echo "not ok $$n $$d" >>$$log; sed 's/^/# /' $$log.out >>$$log; fi; : > $$log.out; }; \
	t 1 "make install DESTDIR PREFIX=/usr" $(MAKE) -s --no-print-directory install DESTDIR=$$dest PREFIX=/usr; \
	t 2 "an application builds against the shared library via pkg-config" \
		sh -c "$(CC) -Werror -o $$dest/app tests/install/app.c \$$($$pc --cflags --libs ttpu-run)"; \
	t 3 "it runs examples/mlp.json with libttpu-run.so.$(LIB_SOVERSION)" \
		sh -c "LD_LIBRARY_PATH=$$dest/usr/lib $$dest/app examples/mlp.json examples/mlp-inputs.json | grep -qx 'mlp: h2 = 529 1775 2169 2536 1022 2062 2624 3002'"; \
	t 4 "an application links statically via pkg-config --static" \
		sh -c "$(CC) -Werror -o $$dest/app-static tests/install/app.c \$$($$pc --cflags --libs --static ttpu-run | sed 's|-lttpu-run|$$dest/usr/lib/libttpu-run.a|') && $$dest/app-static examples/mlp.json examples/mlp-inputs.json | grep -q 'h2 = 529'"; \
	t 5 "the UAPI header is <npukit/npukit.h> and compiles on its own" \
		sh -c "printf '#include <npukit/npukit.h>\nunsigned long get_info = NPUKIT_IOCTL_GET_INFO;\n' | $(CC) -Werror -fsyntax-only -I$$dest/usr/include -x c -"; \
	t 6 "man finds ttpu-run(1), libttpu-run(3) and npukit(4) where they were installed" \
		sh -c "for p in '1 ttpu-run' '3 libttpu-run' '4 npukit'; do MANPATH=$$dest/usr/share/man man -w \$$p || exit 1; done"; \
	t 7 "the udev rule is installed, the same file debian/ ships" \
		cmp udev/60-npukit.rules $$dest/etc/udev/rules.d/60-npukit.rules; \
	t 8 "debian/npukit-dkms.udev is that rule" cmp udev/60-npukit.rules debian/npukit-dkms.udev; \
	tests/udev/check-rule $$dest/etc/udev/rules.d/60-npukit.rules >$$log.out 2>&1; rc=$$?; \
	if [ $$rc = 4 ]; then echo "ok 9 udevadm test applies the rule # SKIP $$(sed -n 's/.*# SKIP //p' $$log.out)" >>$$log; \
	elif [ $$rc = 0 ]; then echo "ok 9 udevadm test applies the rule" >>$$log; sed 's/^/# /' $$log.out >>$$log; \
	else echo "not ok 9 udevadm test applies the rule" >>$$log; sed 's/^/# /' $$log.out >>$$log; fi; : > $$log.out; \
	t 10 "make module without a kernel tree says to pass KDIR=" \
		sh -c "$(MAKE) -s --no-print-directory module KDIR=/nonexistent/kdir 2>&1 | grep -q 'pass KDIR='"; \
	t 11 "README's two commands carry no sudo" \
		sh -c "sed -n '/^## Two commands/,/^\`\`\`\$$/{/^\`\`\`sh/,/^\`\`\`\$$/p}' README.md | grep -q '^scripts/demo' && \
			! sed -n '/^## Two commands/,/^\*\*/p' README.md | grep -q '^sudo '"; \
	if [ "$$(id -u)" = 0 ]; then \
		mkdir -p $$dest/nosudo; printf '#!/bin/sh\necho "sudo called: $$*" >&2; exit 99\n' >$$dest/nosudo/sudo; \
		chmod +x $$dest/nosudo/sudo; \
		t 12 "scripts/demo runs in a root shell and calls no sudo" \
			sh -c "PATH=$$dest/nosudo:\$$PATH scripts/demo >$$dest/demo.out 2>&1 && grep -q 'h2 \[2 x 4\]' $$dest/demo.out"; \
	else echo "ok 12 scripts/demo runs in a root shell # SKIP not root" >>$$log; fi; \
	t 13 "into the live root make install runs ldconfig and creates group npukit; into DESTDIR neither" \
		sh -c "$(MAKE) -n --no-print-directory install | grep -qx ldconfig && \
			$(MAKE) -n --no-print-directory install | grep -q 'groupadd --system npukit' && \
			! $(MAKE) -n --no-print-directory install DESTDIR=$$dest | grep -q 'ldconfig\|groupadd'"; \
	rm -f $$log.out; cat $$log; scripts/tally install $$log $(RESULTS)
