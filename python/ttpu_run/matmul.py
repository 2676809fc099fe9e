# SPDX-License-Identifier: MIT
"""ttpu_run.matmul(): numpy's A @ B for int8 operands, through the
library's one-layer program (ttpu_program_matmul), on the NPU or the CPU."""

import functools

import numpy as np

from .errors import InputError
from .program import Program


@functools.lru_cache(maxsize=32)
def _program(m, k, n, bias, relu):
    # Programs are immutable and shared by threads: build each shape once.
    return Program.matmul(m, k, n, bias=bias, relu=relu)


def matmul(A, B, bias=None, relu=False, engine="auto", device=None):
    """A @ B as int32, with numpy's rules for shapes: 1-D operands are a
    row (A) or a column (B), leading dimensions broadcast as a batch of
    products. A and B hold int8 values; bias (int32, length n) is added to
    every row, then relu takes max(x, 0), each step range-checked. Runs on
    engine ("auto", "software", "npukit", or an Engine; device: the NpuKit
    node). Raises ttpu_run's errors (InputError for a value outside int8,
    for mismatched shapes)."""
    a, b = np.asarray(A), np.asarray(B)
    if a.ndim == 0 or b.ndim == 0:
        raise InputError("matmul: operands must have at least one dimension")
    a2 = a[np.newaxis, :] if a.ndim == 1 else a
    b2 = b[:, np.newaxis] if b.ndim == 1 else b
    m, k = a2.shape[-2:]
    k2, n = b2.shape[-2:]
    if k != k2:
        raise InputError(f"matmul: A is {a.shape} and B is {b.shape}: "
                         f"{k} columns against {k2} rows")
    inputs = {}
    if bias is not None:
        inputs["bias"] = np.asarray(bias)
    prog = _program(m, k, n, bias is not None, bool(relu))
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    a2 = np.broadcast_to(a2, batch + (m, k))
    b2 = np.broadcast_to(b2, batch + (k, n))
    out = np.empty(batch + (m, n), dtype=np.int32)
    for idx in np.ndindex(batch):
        inputs["A"], inputs["B"] = a2[idx], b2[idx]
        out[idx] = prog.run(inputs, engine=engine, device=device)["C"]
    if a.ndim == 1:
        out = out[..., 0, :]
    if b.ndim == 1:
        out = out[..., 0]
    return out
