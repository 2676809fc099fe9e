# SPDX-License-Identifier: MIT
"""The library's errors as exceptions: one class per contract kind, each
carrying where the error is (command, op, field, buffer, element, text
position) as struct ttpu_error has it, None where it is unknown."""

from . import _lib


class TtpuError(Exception):
    """A failure of libttpu-run. kind is the contract's name
    ("SchemaError", ...); the other attributes are None when unknown."""

    kind = "TtpuError"

    def __init__(self, message, *, command=None, op=None, field=None,
                 buffer=None, element=None, row=None, col=None, line=None,
                 column=None, errno=None):
        super().__init__(message)
        self.message = message
        self.command = command
        self.op = op
        self.field = field
        self.buffer = buffer
        self.element = element
        self.row = row
        self.col = col
        self.line = line
        self.column = column
        self.errno = errno

    def __str__(self):
        return f"{self.kind}: {self.message}"


class SchemaError(TtpuError):
    """The program is malformed."""
    kind = "SchemaError"


class InputError(TtpuError):
    """The caller's inputs are missing, extra, mis-shaped or out of range."""
    kind = "InputError"


class RangeError(TtpuError):
    """A value left its dtype during the run."""
    kind = "RangeError"


class EstimateMismatch(TtpuError):
    """The program's estimate disagrees with its commands."""
    kind = "EstimateMismatch"


class DeviceError(TtpuError):
    """The accelerator or its driver failed."""
    kind = "DeviceError"


class UsageError(TtpuError):
    """The API was misused (an unknown engine, a program too large...)."""
    kind = "UsageError"


class TtpuSystemError(TtpuError):
    """I/O or memory; named so as not to hide Python's SystemError."""
    kind = "SystemError"


_BY_KIND = {cls.kind: cls for cls in (
    SchemaError, InputError, RangeError, EstimateMismatch, DeviceError,
    UsageError, TtpuSystemError)}


def _known(value, unknown):
    return None if value == unknown else value


def from_struct(err):
    """The exception for a filled struct ttpu_error."""
    kind = _lib.text(_lib.lib.ttpu_error_kind_name(err.kind))
    cls = _BY_KIND.get(kind, TtpuError)
    return cls(_lib.text(err.message),
               command=_known(err.command, -1),
               op=_lib.text(err.op) or None,
               field=_lib.text(err.field) or None,
               buffer=_lib.text(err.buffer) or None,
               element=_known(err.element, -1),
               row=_known(err.row, -1),
               col=_known(err.col, -1),
               line=_known(err.line, 0),
               column=_known(err.column, 0),
               errno=_known(err.sys_errno, 0))


def check(rc, err):
    """Raise the exception for err when the library's call returned rc < 0."""
    if rc:
        raise from_struct(err)
