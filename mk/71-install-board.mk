# SPDX-License-Identifier: MIT
# `make install-board [PREFIX=/usr/local] [DESTDIR=]`: what the board pages
# (Documentation/npukit/pynq-z2.rst) use beyond `make install`, so that a
# board with the packages needs no checkout:
#   $(SBINDIR)/npukit-load, npukit-unload        tools/pynq/
#   $(BINDIR)/npukit-smoke                       finds its example in $(NPUKIT_DATADIR)
#   $(SYSTEMDUNITDIR)/npukit.service             its ExecStart paths made $(SBINDIR)'s
#   $(NPUKIT_DATADIR)/examples/                  examples/: the MLP, its inputs and
#                                                expected response, the notebook
#   $(NPUKIT_DATADIR)/json-same                  the smoke test's comparison
#   $(NPUKIT_DATADIR)/dkms-headers               what to install when a kernel has
#                                                no build tree (npukit-dkms' postinst)
#   $(NPUKIT_DATADIR)/tests/python/              python/tests, run against examples/
#   $(NPUKIT_DOCDIR)/Documentation/              the documents the man pages cite
# debian/rules runs it after `make install` and splits the result into the
# packages (debian/*.install).

SBINDIR        ?= $(PREFIX)/sbin
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
NPUKIT_DATADIR ?= $(PREFIX)/share/npukit
NPUKIT_DOCDIR  ?= $(PREFIX)/share/doc/npukit
BOARD_DOCS := $(wildcard Documentation/*.rst Documentation/npukit/*.rst) Documentation/ttpu.schema.json \
	Documentation/ABI/testing/sysfs-driver-npukit $(wildcard Documentation/devicetree/bindings/*/*.yaml)

.PHONY: install-board
install-board:
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMDUNITDIR) \
		$(DESTDIR)$(NPUKIT_DATADIR)/examples $(DESTDIR)$(NPUKIT_DATADIR)/tests/python
	install -m 0755 tools/pynq/npukit-load tools/pynq/npukit-unload $(DESTDIR)$(SBINDIR)/
	sed 's|^data=$${NPUKIT_DATADIR:-/usr/share/npukit}$$|data=$${NPUKIT_DATADIR:-$(NPUKIT_DATADIR)}|' tools/pynq/npukit-smoke \
		> $(DESTDIR)$(BINDIR)/npukit-smoke && chmod 0755 $(DESTDIR)$(BINDIR)/npukit-smoke
	sed 's|/usr/local/sbin/|$(SBINDIR)/|g' tools/pynq/npukit.service \
		> $(DESTDIR)$(SYSTEMDUNITDIR)/npukit.service && chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/npukit.service
	install -m 0644 examples/README examples/*.json examples/*.ipynb $(DESTDIR)$(NPUKIT_DATADIR)/examples/
	sed '1s|^#!/usr/bin/env python3$$|#!/usr/bin/python3|' tests/zynq/json-same \
		> $(DESTDIR)$(NPUKIT_DATADIR)/json-same && chmod 0755 $(DESTDIR)$(NPUKIT_DATADIR)/json-same
	install -m 0755 scripts/dkms-headers $(DESTDIR)$(NPUKIT_DATADIR)/
	install -m 0644 python/tests/*.py $(DESTDIR)$(NPUKIT_DATADIR)/tests/python/
	for f in $(BOARD_DOCS); do install -D -m 0644 $$f $(DESTDIR)$(NPUKIT_DOCDIR)/$$f || exit 1; done
