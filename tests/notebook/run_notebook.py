#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""run_notebook.py OUTPUT NOTEBOOK: execute NOTEBOOK top to bottom with
Debian's nbclient (ipykernel's python3 kernel, in the notebook's own
directory), write the executed copy to OUTPUT and print TAP: one line per
code cell (a cell that raises fails, the cells after it are not run), then
one that the notebook drew at least one figure. Exit 1 on any failure.

The kernel's IPython, Jupyter and matplotlib state lives in a scratch
directory under /tmp, so running the notebook writes nothing in $HOME.
"""

import os
import sys
import tempfile

import nbclient
import nbformat


def first_line(cell):
    lines = [line for line in cell.source.splitlines() if line.strip()]
    return lines[0] if lines else "(empty)"


def main():
    output, path = sys.argv[1], sys.argv[2]
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    print(f"1..{len(code) + 1}")
    with tempfile.TemporaryDirectory(prefix="npukit-notebook.") as scratch:
        for var in ("IPYTHONDIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_DATA_DIR",
                    "MPLCONFIGDIR"):
            os.environ[var] = os.path.join(scratch, var.lower())
        # ipykernel's debugger warns about frozen modules on every start.
        os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
        client = nbclient.NotebookClient(
            nb, timeout=300, kernel_name="python3",
            resources={"metadata": {"path": os.path.dirname(path) or "."}})
        failed = None
        try:
            client.execute()
        except nbclient.exceptions.CellExecutionError as e:
            failed = e
        nbformat.write(nb, output)
    status = 0
    for n, cell in enumerate(code, 1):
        outputs = cell.get("outputs", [])
        error = next((o for o in outputs if o.output_type == "error"), None)
        ran = cell.get("execution_count") is not None
        if error or not ran:
            status = 1
            why = f"{error.ename}: {error.evalue}" if error else "not run"
            print(f"not ok {n} cell {n}: {first_line(cell)}  # {why}")
        else:
            print(f"ok {n} cell {n}: {first_line(cell)}")
    figures = sum("image/png" in o.get("data", {})
                  for c in code for o in c.get("outputs", []))
    if figures:
        print(f"ok {len(code) + 1} the notebook drew {figures} figure(s)")
    else:
        status = 1
        print(f"not ok {len(code) + 1} the notebook drew no figure")
    if failed:
        print("# " + str(failed).replace("\n", "\n# "))
    return status


if __name__ == "__main__":
    sys.exit(main())
