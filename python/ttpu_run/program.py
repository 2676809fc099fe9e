# SPDX-License-Identifier: MIT
"""Programs: loaded once (JSON path, dict or bytes, or built as a matmul),
immutable, run many times from any number of threads."""

import ctypes
import json
import os
import weakref

import numpy as np

from . import _lib
from .engine import Engine, shared_engine
from .errors import InputError, check

_I32 = np.iinfo(np.int32)


class Result(dict):
    """A run's outputs by name (numpy arrays: int8 or int32 as their
    buffers), with the run's figures in stats (passes, total_cycles, kicks,
    ioctls, run_ns, ..., and engine: the engine's name)."""

    def __init__(self, outputs, stats):
        super().__init__(outputs)
        self.stats = stats


class Program:
    """A validated, immutable ttpu program. Build one with Program.load()
    or Program.matmul()."""

    def __init__(self, handle):
        self._handle = handle
        self._free = weakref.finalize(self, _lib.lib.ttpu_program_free, handle)
        lib = _lib.lib
        self.name = _lib.text(lib.ttpu_program_name(handle))
        self.inputs = [_lib.text(lib.ttpu_program_input_name(handle, i))
                       for i in range(lib.ttpu_program_input_count(handle))]
        self.outputs = [_lib.text(lib.ttpu_program_output_name(handle, i))
                        for i in range(lib.ttpu_program_output_count(handle))]
        self.pass_count = lib.ttpu_program_pass_count(handle)
        self.command_count = lib.ttpu_program_command_count(handle)

    @classmethod
    def load(cls, source):
        """A program from a path (str or os.PathLike), a dict (the JSON
        object) or bytes (its text)."""
        err = _lib.Error()
        handle = ctypes.c_void_p()
        if isinstance(source, dict):
            source = json.dumps(source).encode()
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            rc = _lib.lib.ttpu_program_load_buffer(data, len(data),
                                                   ctypes.byref(handle), err)
        elif isinstance(source, (str, os.PathLike)):
            rc = _lib.lib.ttpu_program_load_file(os.fsencode(source),
                                                 ctypes.byref(handle), err)
        else:
            raise TypeError("Program.load() takes a path, a dict or bytes, "
                            f"not {type(source).__name__}")
        check(rc, err)
        return cls(handle)

    @classmethod
    def matmul(cls, m, k, n, bias=False, relu=False):
        """The library's one-layer program C = A @ B (+ bias, relu): inputs
        "A" int8 (m, k), "B" int8 (k, n), with bias "bias" int32 (n,);
        output "C" int32 (m, n). See ttpu_program_matmul(3)."""
        err = _lib.Error()
        handle = ctypes.c_void_p()
        flags = (_lib.MATMUL_BIAS if bias else 0) | \
            (_lib.MATMUL_RELU if relu else 0)
        check(_lib.lib.ttpu_program_matmul(m, k, n, flags,
                                           ctypes.byref(handle), err), err)
        return cls(handle)

    def buffer_shape(self, name):
        """(shape tuple, numpy dtype) of buffer name, or None."""
        dims = (ctypes.c_size_t * 2)()
        is_i8 = ctypes.c_int()
        rank = _lib.lib.ttpu_program_buffer_shape(self._handle, name.encode(),
                                                  dims, ctypes.byref(is_i8))
        if not rank:
            return None
        return tuple(dims[:rank]), np.dtype(np.int8 if is_i8.value else np.int32)

    def _set_inputs(self, handle, inputs):
        err = _lib.Error()
        for name, value in inputs.items():
            arr = np.asarray(value)
            where = {"field": f"inputs.{name}", "buffer": name}
            if not (np.issubdtype(arr.dtype, np.integer) or arr.dtype == bool):
                raise InputError(f'input "{name}" has dtype {arr.dtype}, '
                                 "not an integer type", **where)
            expected = self.buffer_shape(name)
            if expected and arr.shape != expected[0]:
                raise InputError(f'input "{name}" has shape {arr.shape}, '
                                 f"the program's buffer {expected[0]}", **where)
            if arr.size and (arr.min() < _I32.min or arr.max() > _I32.max):
                raise InputError(f'input "{name}" has values outside int32',
                                 **where)
            # The library range-checks against the buffer's dtype.
            values = np.ascontiguousarray(arr, dtype=np.int32)
            ptr = values.ctypes.data_as(ctypes.POINTER(ctypes.c_int32))
            check(_lib.lib.ttpu_inputs_set(handle, name.encode(), ptr,
                                           values.size, err), err)

    def prepare(self, engine="auto", device=None):
        """Make now what runs of this program on engine (as for run(), or
        None for what every engine's runs share) would make on their first
        run, so that the first run costs what the others do: for a server,
        once after loading. Idempotent; answers do not change."""
        eng = None
        if engine is not None:
            eng = engine if isinstance(engine, Engine) else \
                shared_engine(engine, device)
        err = _lib.Error()
        check(_lib.lib.ttpu_program_prepare(
            self._handle, eng.handle if eng else None, err), err)

    def run(self, inputs, engine="auto", device=None):
        """Run once with inputs ({name: array-like of integers}) on engine
        (an Engine, or a name: "auto", "software", "npukit", with device the
        NpuKit node, default /dev/npukit0). Returns a Result."""
        eng = engine if isinstance(engine, Engine) else \
            shared_engine(engine, device)
        handle = _lib.lib.ttpu_inputs_new(self._handle)
        if not handle:
            raise MemoryError("ttpu_inputs_new")
        result = ctypes.c_void_p()
        err = _lib.Error()
        try:
            self._set_inputs(handle, inputs)
            check(_lib.lib.ttpu_run(self._handle, eng.handle, handle,
                                    ctypes.byref(result), err), err)
            try:
                return self._collect(result, eng)
            finally:
                _lib.lib.ttpu_result_free(result)
        finally:
            _lib.lib.ttpu_inputs_free(handle)

    def _collect(self, result, eng):
        outputs = {}
        count = ctypes.c_size_t()
        for name in self.outputs:
            ptr = _lib.lib.ttpu_result_output(result, name.encode(),
                                              ctypes.byref(count))
            shape, dtype = self.buffer_shape(name)
            values = np.ctypeslib.as_array(ptr, shape=(count.value,))
            # A copy: the result's memory goes with ttpu_result_free().
            outputs[name] = values.astype(dtype).reshape(shape)
        raw = _lib.lib.ttpu_result_stats(result).contents
        stats = {name: getattr(raw, name) for name, _ in raw._fields_}
        stats["engine"] = eng.name
        return Result(outputs, stats)

    def __repr__(self):
        return (f"<ttpu_run.Program {self.name!r}: {self.pass_count} passes, "
                f"inputs {self.inputs}, outputs {self.outputs}>")
