# SPDX-License-Identifier: MIT
"""ttpu_run.devices(): the NpuKit nodes as ttpu-run --info shows them,
read from sysfs (a fake tree here; the real one on a board or in the VM)."""

import os

import ttpu_run
from ttpu_run.device_info import COUNTERS


def _tree(root, name, attrs, counters=True):
    os.makedirs(root / "dev", exist_ok=True)
    (root / "dev" / name).write_text("")
    sysfs = root / "sys" / "class" / "misc" / name
    (sysfs / "stats").mkdir(parents=True)
    for k, v in attrs.items():
        p = sysfs / k
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(v if isinstance(v, bytes) else (v + "\n").encode())
    if counters:
        for i, c in enumerate(COUNTERS):
            (sysfs / "stats" / c).write_text(f"{i * 10}\n")


HW = {"id": "0x4e50554b", "version": "0x00000302", "features": "0x00000001",
      "backend": "hardware", "state": "ok", "completion": "interrupt mm2s s2mm",
      "pl_clock_hz": "100000000",
      "device/of_node/compatible": b"netkit-labs,npukit-3.2\0netkit-labs,npukit\0"}


def test_fields_order_and_text(tmp_path):
    sim = dict(HW, backend="simulated", completion="polled", pl_clock_hz="unknown")
    del sim["device/of_node/compatible"]
    _tree(tmp_path, "npukit10", HW)
    _tree(tmp_path, "npukit2", sim, counters=False)
    _tree(tmp_path, "npukit0", dict(HW, state="failed"))
    ds = ttpu_run.devices(root=str(tmp_path))
    assert [d.path for d in ds] == ["/dev/npukit0", "/dev/npukit2", "/dev/npukit10"]
    hw, sm, last = ds
    assert (hw.id, hw.version, hw.state) == ("0x4e50554b", "0x00000302", "failed")
    assert hw.completion == "interrupt mm2s s2mm" and hw.pl_clock_hz == 100000000
    assert hw.compatible == "netkit-labs,npukit-3.2"
    assert hw.counters["batches"] == 0 and hw.counters["failed_submits"] == 130
    assert list(hw.counters) == list(COUNTERS)
    assert sm.backend == "simulated" and sm.pl_clock_hz is None and sm.compatible is None
    assert sm.counters == {}
    assert last.state == "ok"
    text = str(hw).splitlines()
    assert text[0] == ("/dev/npukit0: NpuKit ID=0x4e50554b VERSION=0x00000302 "
                       "FEATURES=0x00000001, hardware, state failed")
    assert text[2] == ("  driver: completion interrupt mm2s s2mm, PL clock 100000000 Hz, "
                       "node netkit-labs,npukit-3.2")
    assert "PL clock unknown, node without a device-tree node" in str(sm)


def test_module_and_fpga_managers(tmp_path):
    assert ttpu_run.devices(root=str(tmp_path)) == []
    assert ttpu_run.module_version(root=str(tmp_path)) is None
    (tmp_path / "sys" / "module" / "npukit").mkdir(parents=True)
    (tmp_path / "sys" / "module" / "npukit" / "version").write_text("1.0.0\n")
    fm = tmp_path / "sys" / "class" / "fpga_manager" / "fpga0"
    fm.mkdir(parents=True)
    (fm / "name").write_text("Xilinx Zynq FPGA Manager\n")
    (fm / "state").write_text("operating\n")
    assert ttpu_run.module_version(root=str(tmp_path)) == "1.0.0"
    assert ttpu_run.fpga_managers(root=str(tmp_path)) == [
        ttpu_run.FpgaManager("fpga0", "Xilinx Zynq FPGA Manager", "operating")]


def test_this_machine():
    # Whatever this machine has: every node listed says what it is.
    for d in ttpu_run.devices():
        assert d.path.startswith("/dev/npukit")
        assert d.id == "0x4e50554b", str(d)
        assert d.get_info is None or d.get_info["ip_id"] == 0x4E50554B
