# SPDX-License-Identifier: MIT
"""pytest for ttpu_run: each test's outcome is also printed as a TAP line
("ok N", "not ok N", "ok N ... # SKIP"), which scripts/tally counts as it
counts every other suite's."""

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def examples():
    """The repository's examples/ directory."""
    return ROOT / "examples"


class _Tap:
    def __init__(self, config):
        self.config = config
        self.n = 0

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report):
        # One line per test: its call, or the setup/teardown that failed or
        # skipped it.
        if report.failed:
            self.n += 1
            self._write(f"not ok {self.n} {report.nodeid} ({report.when})")
        elif report.skipped and report.when in ("setup", "call"):
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) \
                else str(report.longrepr)
            self.n += 1
            self._write(f"ok {self.n} {report.nodeid} # SKIP {reason}")
        elif report.passed and report.when == "call":
            self.n += 1
            self._write(f"ok {self.n} {report.nodeid}")

    def _write(self, line):
        reporter = self.config.pluginmanager.getplugin("terminalreporter")
        # After the progress dot the terminal reporter has just written.
        reporter.write("\n" + line + "\n")


def pytest_configure(config):
    config.pluginmanager.register(_Tap(config), "ttpu-tap")
