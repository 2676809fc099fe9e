# SPDX-License-Identifier: MIT
"""Engines: where a program's passes run ("npukit", "software", or
"auto": the NpuKit when its device node exists, else the CPU)."""

import ctypes
import threading
import weakref

from . import _lib
from .errors import check


def engine_names():
    """Every engine choice the library has: ["auto", "npukit", ...]."""
    names = []
    while True:
        name = _lib.lib.ttpu_engine_choice_name(len(names))
        if not name:
            return names
        names.append(_lib.text(name))


class Engine:
    """An open engine. The library lets concurrent runs share one, so one
    Engine may serve every thread; close() (or a with block) releases it."""

    def __init__(self, name="auto", device=None):
        err = _lib.Error()
        choice = ctypes.c_int()
        check(_lib.lib.ttpu_engine_choice_parse(name.encode(),
                                                ctypes.byref(choice), err),
              err)
        handle = ctypes.c_void_p()
        check(_lib.lib.ttpu_engine_open(choice.value,
                                        device.encode() if device else None,
                                        ctypes.byref(handle), err), err)
        self._handle = handle
        self._close = weakref.finalize(self, _lib.lib.ttpu_engine_close,
                                       handle)
        self.name = _lib.text(_lib.lib.ttpu_engine_name(handle))
        self.reason = _lib.text(_lib.lib.ttpu_engine_reason(handle))
        self.device = device

    @property
    def handle(self):
        if not self._close.alive:
            raise ValueError("the engine is closed")
        return self._handle

    def close(self):
        self._close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<ttpu_run.Engine {self.name}: {self.reason}>"


_shared = {}
_shared_lock = threading.Lock()


def shared_engine(name="auto", device=None):
    """The engine for (name, device), opened on first use and kept for the
    process: runs that name an engine by string share it."""
    key = (name, device)
    with _shared_lock:
        eng = _shared.get(key)
        if eng is None:
            eng = _shared[key] = Engine(name, device)
        return eng
