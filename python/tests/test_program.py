# SPDX-License-Identifier: MIT
"""ttpu_run.Program: loading from a path, a dict or bytes; running with
numpy inputs; results, stats, engines and errors."""

import json
import os
import pathlib
import threading

import numpy as np
import pytest

import ttpu_run


def mlp(examples):
    inputs = json.loads((examples / "mlp-inputs.json").read_text())
    expected = json.loads((examples / "mlp-expected.json").read_text())
    return inputs, expected


def expected_h2(expected):
    out = expected["outputs"]["h2"]
    return np.array(out["data"], dtype=np.int32).reshape(out["shape"])


@pytest.mark.parametrize("form", ["str", "path", "dict", "bytes"])
def test_load_every_form(examples, form):
    path = examples / "mlp.json"
    source = {"str": str(path), "path": path,
              "dict": json.loads(path.read_text()),
              "bytes": path.read_bytes()}[form]
    prog = ttpu_run.Program.load(source)
    assert prog.name == "mlp"
    assert prog.inputs == ["x"] and prog.outputs == ["h2"]
    assert prog.pass_count == 15


def test_run_matches_the_expected_response(examples):
    inputs, expected = mlp(examples)
    prog = ttpu_run.Program.load(examples / "mlp.json")
    res = prog.run({"x": np.array(inputs["x"], dtype=np.int8)})
    assert isinstance(res, dict) and list(res) == ["h2"]
    assert res["h2"].dtype == np.int32
    np.testing.assert_array_equal(res["h2"], expected_h2(expected))
    assert res.stats["passes"] == 15
    assert res.stats["total_cycles"] == expected["totalCycles"]
    assert res.stats["engine"] in ttpu_run.engine_names()


def test_i8_outputs_are_int8():
    prog = ttpu_run.Program.load({
        "format": "ttpu", "version": 1, "tile": 4, "name": "relu",
        "buffers": {"x": {"dtype": "i32", "shape": [3], "kind": "input"},
                    "y": {"dtype": "i8", "shape": [3], "kind": "temp"}},
        "inputs": ["x"], "outputs": ["y"],
        "commands": [{"op": "host_relu", "dst": "y", "src": "x"}]})
    res = prog.run({"x": np.array([-5, 0, 7], dtype=np.int32)})
    assert res["y"].dtype == np.int8
    assert res["y"].tolist() == [0, 0, 7]


def test_schema_error_carries_line_and_column():
    with pytest.raises(ttpu_run.SchemaError) as exc:
        ttpu_run.Program.load(b'{"format": "ttpu",\n "version": 2}')
    err = exc.value
    assert err.kind == "SchemaError"
    assert err.field == "version"
    assert (err.line, err.column) == (2, 13)
    assert "version" in str(err)


def test_missing_file_is_a_system_error(tmp_path):
    with pytest.raises(ttpu_run.TtpuSystemError) as exc:
        ttpu_run.Program.load(tmp_path / "none.json")
    assert exc.value.kind == "SystemError"
    assert exc.value.errno == 2


def test_load_refuses_other_types():
    with pytest.raises(TypeError):
        ttpu_run.Program.load(42)


def test_input_errors(examples):
    prog = ttpu_run.Program.load(examples / "mlp.json")
    with pytest.raises(ttpu_run.InputError, match="missing input"):
        prog.run({})
    with pytest.raises(ttpu_run.InputError, match=r"shape \(16, 2\)") as exc:
        prog.run({"x": np.zeros((16, 2), np.int8)})
    assert exc.value.field == "inputs.x"
    with pytest.raises(ttpu_run.InputError) as exc:
        prog.run({"x": np.zeros((2, 16), np.int8), "w1": np.zeros(1)})
    with pytest.raises(ttpu_run.InputError) as exc:
        prog.run({"x": np.full((2, 16), 128, np.int32)})
    assert exc.value.buffer == "x"
    assert exc.value.element == 0
    with pytest.raises(ttpu_run.InputError, match="outside int32"):
        prog.run({"x": np.full((2, 16), 2**40, np.int64)})


def test_engines():
    names = ttpu_run.engine_names()
    assert names[0] == "auto" and "software" in names and "npukit" in names
    with ttpu_run.Engine("software") as eng:
        assert eng.name == "software" and eng.reason
    with pytest.raises(ValueError, match="closed"):
        eng.handle
    with pytest.raises(ttpu_run.UsageError) as exc:
        ttpu_run.Engine("gpu")
    for name in names:
        assert name in exc.value.message


def test_npukit_on_a_missing_node_is_a_device_error(tmp_path):
    # Never a silent fall back to the CPU.
    with pytest.raises(ttpu_run.TtpuError) as exc:
        ttpu_run.Engine("npukit", device=str(tmp_path / "npukit9"))
    assert exc.value.kind in ("DeviceError", "SystemError")


@pytest.mark.skipif(not (os.path.exists("/dev/npukit0")
                         or os.path.exists("/dev/npukit")),
                    reason="no NpuKit device on this machine")
def test_npukit_engine_matches_software(examples):
    inputs, expected = mlp(examples)
    prog = ttpu_run.Program.load(examples / "mlp.json")
    res = prog.run({"x": np.array(inputs["x"])}, engine="npukit")
    np.testing.assert_array_equal(res["h2"], expected_h2(expected))
    assert res.stats["engine"] == "npukit" and res.stats["kicks"] > 0


def test_threads_share_a_program_and_an_engine():
    # The library allows concurrent runs of one program on one engine;
    # ctypes releases the GIL around them.
    prog = ttpu_run.Program.matmul(12, 20, 8)
    rng = np.random.default_rng(7)
    cases = [(rng.integers(-128, 128, (12, 20), dtype=np.int8),
              rng.integers(-128, 128, (20, 8), dtype=np.int8))
             for _ in range(8)]
    failures = []

    def worker(a, b):
        for _ in range(25):
            got = prog.run({"A": a, "B": b})["C"]
            if not np.array_equal(got, a.astype(np.int32) @ b):
                failures.append((a, b, got))

    threads = [threading.Thread(target=worker, args=c) for c in cases]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_results_outlive_their_program(examples):
    inputs, expected = mlp(examples)
    res = ttpu_run.Program.load(pathlib.Path(examples, "mlp.json")).run(
        {"x": np.array(inputs["x"])})
    np.testing.assert_array_equal(res["h2"], expected_h2(expected))


@pytest.mark.parametrize("engine", [None, "software", "auto"])
def test_prepare_then_run_answers_the_same(examples, engine):
    inputs, expected = mlp(examples)
    prog = ttpu_run.Program.load(examples / "mlp.json")
    prog.prepare(engine)
    prog.prepare(engine)  # idempotent
    res = prog.run({"x": np.array(inputs["x"], dtype=np.int8)},
                   engine=engine or "auto")
    np.testing.assert_array_equal(res["h2"], expected_h2(expected))
    assert res.stats["total_cycles"] == expected["totalCycles"]


def test_prepare_on_a_missing_device_is_a_clear_error(examples):
    prog = ttpu_run.Program.load(examples / "mlp.json")
    with pytest.raises(ttpu_run.TtpuError) as info:
        prog.prepare("npukit", device="/nonexistent/npukit9")
    assert "npukit9" in str(info.value)
