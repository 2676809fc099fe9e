# SPDX-License-Identifier: MIT
"""ttpu_run: run ttpu programs on the NpuKit NPU (or the CPU) from Python.

A ctypes binding of libttpu-run.so.1 (no compiler needed on the board):

    import numpy as np, ttpu_run
    prog = ttpu_run.Program.load("examples/mlp.json")
    res = prog.run({"x": x}, engine="auto")      # res["h2"], res.stats
    C = ttpu_run.matmul(A, B)                     # A @ B for int8 A, B
    ttpu_run.devices()                            # the NpuKits, as ttpu-run --info

Set TTPU_RUN_LIBRARY to a library outside the dynamic linker's path.
"""

from .device_info import Device, FpgaManager, devices, fpga_managers, module_version
from .engine import Engine, engine_names
from .errors import (DeviceError, EstimateMismatch, InputError, RangeError,
                     SchemaError, TtpuError, TtpuSystemError, UsageError)
from .matmul import matmul
from .program import Program, Result

__all__ = ["devices", "Device", "module_version", "fpga_managers", "FpgaManager",
           "Engine", "engine_names", "Program", "Result", "matmul",
           "TtpuError", "SchemaError", "InputError", "RangeError",
           "EstimateMismatch", "DeviceError", "UsageError", "TtpuSystemError"]
