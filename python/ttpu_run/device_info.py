# SPDX-License-Identifier: MIT
"""The NpuKit devices, as `ttpu-run --info` shows them (the way
`xbutil examine` shows a card): for each /dev/npukitN its ID, VERSION,
FEATURES, backend, state and counters, polled or interrupt completion, the
PL clock and the device-tree node it was bound from (sysfs, readable by
anyone: Documentation/ABI/testing/sysfs-driver-npukit), GET_INFO's limits
when the node can be opened; and, for the machine, the module's version
and the FPGA managers' state.

    for d in ttpu_run.devices():
        print(d)                          # the lines ttpu-run --info prints
        d.state, d.completion, d.counters["kicks"]
"""

import errno
import fcntl
import glob
import os
import re
import struct
from dataclasses import dataclass, field

# GET_INFO: _IO(NPUKIT_IOCTL_MAGIC 0xb9, 0x00) on struct npukit_info, twelve
# __u32 starting with its size (uapi/npukit.h).
_GET_INFO = 0xB900
_INFO = struct.Struct("=12I")
_INFO_FIELDS = ("size", "uapi_version", "ip_id", "ip_version", "ip_features",
                "array_n", "backend", "max_kicks", "max_results",
                "dma_max_bytes", "kick_size", "pad")
# The counters of sysfs stats/, in ttpu-run --info's order.
COUNTERS = ("batches", "kicks", "readbacks", "dma_bytes", "errors", "timeouts",
            "dma_errors", "hangs", "interrupted", "device_ns", "recoveries",
            "self_test_failures", "pl_resets", "failed_submits")


def _line(path):
    """The first line of @path (up to a newline or NUL), or None."""
    try:
        with open(path, "rb") as f:
            data = f.read(4096)
    except OSError:
        return None
    return re.split(rb"[\n\0]", data, maxsplit=1)[0].decode("utf-8", "replace")


@dataclass
class FpgaManager:
    """One /sys/class/fpga_manager/* entry: whether the PL is programmed."""
    device: str
    name: str | None
    state: str | None


@dataclass
class Device:
    """One NpuKit node. Attributes a module or kernel does not provide are
    None; get_info is None when the node could not be opened
    (get_info_error says why: join group npukit)."""
    path: str
    id: str | None = None
    version: str | None = None
    features: str | None = None
    backend: str | None = None
    state: str | None = None
    completion: str | None = None
    pl_clock_hz: int | None = None
    compatible: str | None = None
    counters: dict = field(default_factory=dict)
    get_info: dict | None = None
    get_info_error: str | None = None

    def __str__(self):
        lines = [f"{self.path}: NpuKit ID={self.id} VERSION={self.version} "
                 f"FEATURES={self.features}, {self.backend}, "
                 f"state {self.state or 'unknown'}"]
        if self.get_info:
            g = self.get_info
            lines.append(f"  GET_INFO: UAPI {g['uapi_version']}, array "
                         f"{g['array_n']}x{g['array_n']}, max_kicks {g['max_kicks']}, "
                         f"max_results {g['max_results']}, dma_max_bytes "
                         f"{g['dma_max_bytes']}, kick_size {g['kick_size']}")
        else:
            lines.append(f"  GET_INFO: {self.get_info_error}")
        clock = f"{self.pl_clock_hz} Hz" if self.pl_clock_hz else "unknown"
        lines.append(f"  driver: completion {self.completion or 'unknown'}, "
                     f"PL clock {clock}, node "
                     f"{self.compatible or 'without a device-tree node'}")
        if self.counters:
            lines.append("  counters: " + ", ".join(
                f"{k} {v}" for k, v in self.counters.items()))
        return "\n".join(lines)


def _read_get_info(path):
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    except OSError as e:
        return None, e.strerror
    try:
        buf = bytearray(_INFO.pack(_INFO.size, *([0] * 11)))
        fcntl.ioctl(fd, _GET_INFO, buf)
    except OSError as e:
        return None, e.strerror
    finally:
        os.close(fd)
    return dict(zip(_INFO_FIELDS, _INFO.unpack(buf))), None


def _device(path, root):
    sysfs = f"{root}/sys/class/misc/{os.path.basename(path)}"
    d = Device(path=path)
    for attr in ("id", "version", "features", "backend", "state", "completion"):
        setattr(d, attr, _line(f"{sysfs}/{attr}"))
    clock = _line(f"{sysfs}/pl_clock_hz")
    d.pl_clock_hz = int(clock) if clock and clock.isdigit() else None
    d.compatible = _line(f"{sysfs}/device/of_node/compatible")
    for name in COUNTERS:
        value = _line(f"{sysfs}/stats/{name}")
        if value is None or not value.isdigit():
            d.counters = {}
            break
        d.counters[name] = int(value)
    if root == "":
        d.get_info, d.get_info_error = _read_get_info(path)
    else:
        d.get_info_error = os.strerror(errno.ENODEV)
    if d.id is None and d.get_info:
        g = d.get_info
        d.id, d.version, d.features = (f"0x{g[k]:08x}" for k in
                                       ("ip_id", "ip_version", "ip_features"))
        d.backend = "simulated" if g["backend"] else "hardware"
    return d


def devices(root=""):
    """Every /dev/npukitN, in number order (an empty list when there is
    none). @root: a directory standing for / (tests); GET_INFO is asked
    only of the real nodes."""
    paths = glob.glob(f"{root}/dev/npukit[0-9]*")
    paths.sort(key=lambda p: (len(p), p))
    return [_device(p[len(root):] if root else p, root) for p in paths]


def module_version(root=""):
    """The loaded npukit module's MODULE_VERSION, or None."""
    return _line(f"{root}/sys/module/npukit/version")


def fpga_managers(root=""):
    """What the kernel knows of the PL: each FPGA manager and its state
    ("operating" once a bitstream is loaded)."""
    return [FpgaManager(os.path.basename(p), _line(f"{p}/name"), _line(f"{p}/state"))
            for p in sorted(glob.glob(f"{root}/sys/class/fpga_manager/*"))]
