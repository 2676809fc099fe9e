# SPDX-License-Identifier: MIT
# The Python binding (python/ttpu_run: ctypes over libttpu-run.so.1).
#   check-python  python/tests with Debian's pytest and numpy, against this
#                 build's shared library (TTPU_RUN_LIBRARY). conftest.py
#                 prints a TAP line per test for scripts/tally; pytest's own
#                 non-zero exit (a failure, an error, 5: no tests collected)
#                 fails the suite through run-suite.
# Bytecode and pytest's cache are not written: the source tree stays clean.

PY_ENV = env TTPU_RUN_LIBRARY=$(abspath $(LIB_SO)) PYTHONPATH=$(abspath python) \
	PYTHONDONTWRITEBYTECODE=1
PYTEST = $(PY_ENV) $(PYTHON3) -m pytest -p no:cacheprovider -q

CHECK_TARGETS += check-python
.PHONY: check-python
check-python: $(LIB_SO)
	$(call run-suite,python,python/tests,$(PYTEST))

# check-pip: python/pyproject.toml installs the binding offline into a fresh
# venv (pip --no-index --no-build-isolation), where python/tests pass
# (tests/pip/check-pip, on a scratch copy).
CHECK_TARGETS += check-pip
.PHONY: check-pip
check-pip: $(LIB_SO)
	$(call run-suite,pip,tests/pip/check-pip,env TTPU_RUN_LIBRARY=$(abspath $(LIB_SO)))
