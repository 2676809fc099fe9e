# SPDX-License-Identifier: MIT
# check-notebook: examples/npukit_matmul.ipynb executed top to bottom with
# Debian's nbclient and ipykernel (tests/notebook/run_notebook.py), with
# the binding and library of this build, so the notebook cannot go stale.
# A TAP line per code cell and one for its figure; the executed copy is
# kept as $(RESULTS)/npukit_matmul.ipynb.

NOTEBOOK := examples/npukit_matmul.ipynb

CHECK_TARGETS += check-notebook
.PHONY: check-notebook
check-notebook: $(LIB_SO)
	$(call run-suite,notebook,$(NOTEBOOK),$(PY_ENV) $(PYTHON3) \
		tests/notebook/run_notebook.py $(abspath $(RESULTS))/npukit_matmul.ipynb)
