# SPDX-License-Identifier: MIT
"""The C library through ctypes: libttpu-run.so.1 and the prototypes of
userspace/include/ttpu-run.h that the binding calls.

ctypes releases the GIL around every foreign call, so runs of other
threads go on while one thread waits in ttpu_run().
"""

import ctypes
import os

SONAME = "libttpu-run.so.1"

# enum ttpu_error_kind and the error struct's buffer sizes (ttpu-run.h).
ERROR_MESSAGE_MAX = 512
ERROR_NAME_MAX = 128
MATMUL_BIAS = 0x1
MATMUL_RELU = 0x2


class Error(ctypes.Structure):
    """struct ttpu_error"""
    _fields_ = [
        ("kind", ctypes.c_int),
        ("message", ctypes.c_char * ERROR_MESSAGE_MAX),
        ("command", ctypes.c_long),
        ("op", ctypes.c_char * 16),
        ("field", ctypes.c_char * ERROR_NAME_MAX),
        ("buffer", ctypes.c_char * ERROR_NAME_MAX),
        ("element", ctypes.c_long),
        ("row", ctypes.c_long),
        ("col", ctypes.c_long),
        ("line", ctypes.c_long),
        ("column", ctypes.c_long),
        ("sys_errno", ctypes.c_int),
    ]


class RunStats(ctypes.Structure):
    """struct ttpu_run_stats"""
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "passes", "total_cycles", "stages", "kicks", "ioctls", "mmio_reads",
        "mmio_writes", "dma_bytes", "device_ns", "run_ns")]


_p = ctypes.c_void_p
_perr = ctypes.POINTER(Error)
_int = ctypes.c_int
_size = ctypes.c_size_t
_str = ctypes.c_char_p

# name: (restype, argtypes)
_PROTOTYPES = {
    "ttpu_error_kind_name": (_str, [_int]),
    "ttpu_program_load_buffer": (_int, [_str, _size, ctypes.POINTER(_p), _perr]),
    "ttpu_program_load_file": (_int, [_str, ctypes.POINTER(_p), _perr]),
    "ttpu_program_matmul": (_int, [_size, _size, _size, ctypes.c_uint,
                                   ctypes.POINTER(_p), _perr]),
    "ttpu_program_free": (None, [_p]),
    "ttpu_program_name": (_str, [_p]),
    "ttpu_program_command_count": (_size, [_p]),
    "ttpu_program_pass_count": (_size, [_p]),
    "ttpu_program_input_count": (_size, [_p]),
    "ttpu_program_input_name": (_str, [_p, _size]),
    "ttpu_program_output_count": (_size, [_p]),
    "ttpu_program_output_name": (_str, [_p, _size]),
    "ttpu_program_buffer_shape": (_int, [_p, _str, _size * 2,
                                         ctypes.POINTER(_int)]),
    "ttpu_inputs_new": (_p, [_p]),
    "ttpu_inputs_free": (None, [_p]),
    "ttpu_inputs_set": (_int, [_p, _str, ctypes.POINTER(ctypes.c_int32),
                               _size, _perr]),
    "ttpu_engine_choice_name": (_str, [_int]),
    "ttpu_engine_choice_parse": (_int, [_str, ctypes.POINTER(_int), _perr]),
    "ttpu_engine_open": (_int, [_int, _str, ctypes.POINTER(_p), _perr]),
    "ttpu_engine_close": (None, [_p]),
    "ttpu_engine_name": (_str, [_p]),
    "ttpu_engine_reason": (_str, [_p]),
    "ttpu_run": (_int, [_p, _p, _p, ctypes.POINTER(_p), _perr]),
    "ttpu_program_prepare": (_int, [_p, _p, _perr]),
    "ttpu_result_free": (None, [_p]),
    "ttpu_result_stats": (ctypes.POINTER(RunStats), [_p]),
    "ttpu_result_output": (ctypes.POINTER(ctypes.c_int32),
                           [_p, _str, ctypes.POINTER(_size)]),
}


def _load():
    # TTPU_RUN_LIBRARY names a library outside the linker's path: the
    # in-tree build (make check-python) or a scratch install.
    lib = ctypes.CDLL(os.environ.get("TTPU_RUN_LIBRARY") or SONAME)
    for name, (restype, argtypes) in _PROTOTYPES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


lib = _load()


def text(b):
    """A C string from the library as str ("" for NULL)."""
    return b.decode("utf-8", "replace") if b else ""
