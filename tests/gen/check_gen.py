#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""check_gen.py TTPU_RUN SCHEMA WORKDIR

Cross-check generated programs. For each case below, ttpu_gen.py writes a
request and the expected response (computed on whole matrices, never from
the tiles), then:

  - "replay": a plain Python interpreter of the commands, one command at a
    time with every range check, must give the generator's expectation
    (this tests the generator itself, without the C library);
  - "run": TTPU_RUN --engine software < request must answer exactly the
    expected outputs, passes, totalCycles and hostOps (or, for RangeError
    programs, the expected command, op, buffer and element), and its
    response must satisfy the schema's response definition.

One TAP line per check; exit 1 when any failed.
"""

import json
import os
import subprocess
import sys

from jsonschema import Draft202012Validator

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "ttpu_gen.py")

MLP = [
    # name, generator arguments
    ("one-tile", "--batch 4 --dims 4,4 --bias 0 --relu 0"),
    ("k1", "--batch 7 --dims 1,5,3,2 --epilogue host --seed 2"),
    ("n1", "--batch 1 --dims 5,1 --seed 3"),
    ("fused-input", "--batch 3 --dims 9,7,6 --seed 4"),
    ("host-narrow", "--batch 5 --dims 13,10,7 --epilogue host --chain narrow --seed 5"),
    ("fused-narrow", "--batch 2 --dims 16,12,4 --chain narrow --bias 1,1 --relu 1,0 --seed 6"),
    ("relu-only", "--batch 9 --dims 33,20,11 --bias 0 --relu 1 --seed 7"),
    ("skip-zero", "--batch 6 --dims 23,17 --skip-zero --zero-blocks 0.5 --seed 8"),
    ("skip-zero-host", "--batch 4 --dims 40,24,8 --epilogue host --skip-zero --zero-blocks 0.3 --seed 9"),
    ("deep", "--batch 10 --dims 30,21,14,9,5 --bias 1,0,1,0 --relu 0,1,1,0 --seed 10"),
    ("wide", "--batch 17 --dims 70,45,12 --seed 11"),
    # The hidden layer accumulated straight into i8 (run_range.c's case).
    ("direct", "--batch 6 --dims 40,16,5 --chain direct --seed 12"),
]

RANGE = [
    ("range-acc", "--variant acc --batch 6 --dims 11,9 --seed 1"),
    ("range-bias", "--variant bias --batch 5 --dims 10,14 --seed 2"),
    ("range-epilogue", "--variant epilogue --batch 1 --dims 7,10 --seed 3"),
    ("range-host-add", "--variant host_add --batch 3 --dims 9,6 --seed 4"),
    ("range-host-relu", "--variant host_relu --batch 7 --dims 13,5 --seed 5"),
]

I8 = (-128, 127)
I32 = (-(1 << 31), (1 << 31) - 1)


class Range(Exception):
    pass


def replay(prog, inputs):
    """Run the commands one by one, as the contract words them."""
    bufs, meta = {}, {}
    for name, b in prog["buffers"].items():
        shape = b["shape"]
        rows, cols = (1, shape[0]) if len(shape) == 1 else shape
        meta[name] = (rows, cols, I8 if b["dtype"] == "i8" else I32)
        src = b.get("data", inputs.get(name))
        if src is None:
            bufs[name] = [[0] * cols for _ in range(rows)]
        else:
            bufs[name] = [list(src)] if len(shape) == 1 else \
                [list(r) for r in src]

    def store(ci, op, name, r, c, v):
        rows, cols, rng = meta[name]
        if not rng[0] <= v <= rng[1]:
            raise Range({"kind": "RangeError", "command": ci, "op": op,
                         "buffer": name, "element": r * cols + c,
                         "row": r, "col": c})
        bufs[name][r][c] = v

    def get(name, r, c):
        rows, cols, _ = meta[name]
        return bufs[name][r][c] if r < rows and c < cols else 0

    tmp, passes, ops = {}, [], {}

    def epilogue(ci, op, cmd):
        d = cmd["dst"]
        rows, cols, _ = meta[d["buf"]]
        for r in range(d["r"], min(d["r"] + 4, rows)):
            for c in range(d["c"], min(d["c"] + 4, cols)):
                if "bias" in cmd:
                    store(ci, op, d["buf"], r, c,
                          bufs[d["buf"]][r][c] + bufs[cmd["bias"]][0][c])
                if cmd.get("relu"):
                    store(ci, op, d["buf"], r, c,
                          max(bufs[d["buf"]][r][c], 0))

    for ci, cmd in enumerate(prog["commands"]):
        op = cmd["op"]
        if op != "pass":
            ops[op] = ops.get(op, 0) + 1
        if op == "alloc":
            rows, cols, _ = meta[cmd["buf"]]
            bufs[cmd["buf"]] = [[0] * cols for _ in range(rows)]
        elif op == "pass":
            a, b = cmd["a"], cmd["b"]
            tmp[cmd["id"]] = [[sum(get(a["buf"], a["r"] + i, a["c"] + k) *
                                   get(b["buf"], b["r"] + k, b["c"] + j)
                                   for k in range(4)) for j in range(4)]
                              for i in range(4)]
            passes.append({"id": cmd["id"], "cycles": 15})
        elif op == "acc":
            t, d = tmp.pop(cmd["pass"]), cmd["dst"]
            rows, cols, _ = meta[d["buf"]]
            for r in range(d["r"], min(d["r"] + 4, rows)):
                for c in range(d["c"], min(d["c"] + 4, cols)):
                    store(ci, op, d["buf"], r, c, bufs[d["buf"]][r][c] +
                          t[r - d["r"]][c - d["c"]])
            epilogue(ci, op, cmd)
        elif op == "epilogue":
            epilogue(ci, op, cmd)
        elif op == "host_add":
            a, b = bufs[cmd["a"]], bufs[cmd["b"]]
            rows, cols, _ = meta[cmd["dst"]]
            for r in range(rows):
                for c in range(cols):
                    store(ci, op, cmd["dst"], r, c, a[r if len(a) > 1 else 0][c]
                          + b[r if len(b) > 1 else 0][c])
        elif op == "host_relu":
            rows, cols, _ = meta[cmd["dst"]]
            for r in range(rows):
                for c in range(cols):
                    store(ci, op, cmd["dst"], r, c,
                          max(bufs[cmd["src"]][r][c], 0))
    outs = {}
    for name in prog["outputs"]:
        shape = prog["buffers"][name]["shape"]
        data = bufs[name]
        outs[name] = {"shape": shape,
                      "data": data[0] if len(shape) == 1 else data}
    return {"outputs": outs, "passes": passes,
            "totalCycles": 15 * len(passes), "hostOps": ops}


def host_ops(d):
    return {k: v for k, v in (d or {}).items() if v}


def compare(got, want):
    """None when got matches want on the contract's keys, else why not."""
    if "error" in want:
        err = got.get("error")
        if not isinstance(err, dict):
            return "no error in the response (expected %s)" % want["error"]
        for key, value in want["error"].items():
            if err.get(key) != value:
                return "error.%s is %r, expected %r (%s)" % (
                    key, err.get(key), value, err.get("message"))
        return None
    if "error" in got:
        return "unexpected error %s" % json.dumps(got["error"])
    for key in ("outputs", "passes", "totalCycles"):
        if got.get(key) != want[key]:
            return "%s differ" % key
    if host_ops(got.get("hostOps")) != host_ops(want["hostOps"]):
        return "hostOps %s, expected %s" % (got.get("hostOps"),
                                            want["hostOps"])
    return None


def check_example(ttpu_run, work):
    """examples/ is what the generator makes (mk/11-schema.mk's
    EXAMPLE_ARGS), and ttpu-run gives its expected response."""
    top = os.path.dirname(os.path.dirname(HERE))
    ex = os.path.join(top, "examples")
    with open(os.path.join(top, "mk", "11-schema.mk")) as f:
        text = f.read().replace("\\\n", " ")
    args = text.split("EXAMPLE_ARGS := ", 1)[1].split("\n", 1)[0].split()
    subprocess.run([sys.executable, GEN, *args, "--program",
                    os.path.join(work, "mlp.json"), "--inputs",
                    os.path.join(work, "mlp-inputs.json"), "--expected",
                    os.path.join(work, "mlp-expected.json")], check=True)
    same = all(open(os.path.join(work, n)).read() ==
               open(os.path.join(ex, n)).read()
               for n in ("mlp.json", "mlp-inputs.json", "mlp-expected.json"))
    results = [(same, "examples/mlp*.json are what `make examples` writes")]
    proc = subprocess.run([ttpu_run, "--engine", "software",
                           os.path.join(ex, "mlp.json"), "--inputs",
                           os.path.join(ex, "mlp-inputs.json")],
                          capture_output=True, timeout=60)
    with open(os.path.join(ex, "mlp-expected.json")) as f:
        want = json.load(f)
    try:
        why = compare(json.loads(proc.stdout), want)
    except ValueError:
        why = "no JSON response (exit %d)" % proc.returncode
    results.append((why is None, "ttpu-run examples/mlp.json%s" % (
        "" if why is None else ": " + why)))
    return results


def tap(results):
    """Print (ok, text) pairs as TAP; the exit status: 1 when any failed."""
    print("TAP version 13")
    print("1..%d" % len(results))
    for n, (ok, text) in enumerate(results, 1):
        print("%sok %d %s" % ("" if ok else "not ", n, text))
    return 0 if all(ok for ok, _ in results) else 1


def main():
    ttpu_run, schema_path, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    with open(schema_path) as f:
        schema = json.load(f)
    resp_schema = Draft202012Validator(
        {"$schema": schema["$schema"], "$defs": schema["$defs"],
         "$ref": "#/$defs/response"})
    results = []
    cases = [("mlp", n, a) for n, a in MLP] + [("range", n, a)
                                              for n, a in RANGE]
    for kind, name, args in cases:
        req = os.path.join(work, name + "-request.json")
        exp = os.path.join(work, name + "-expected.json")
        subprocess.run([sys.executable, GEN, kind, *args.split(),
                        "--name", name, "--request", req, "--expected", exp],
                       check=True)
        with open(req) as f:
            request = json.load(f)
        with open(exp) as f:
            want = json.load(f)
        try:
            got = replay(request["program"], request["inputs"])
        except Range as e:
            got = {"error": e.args[0]}
        why = compare(got, want)
        results.append((why is None, "replay %s%s" % (
            name, "" if why is None else ": " + why)))

        with open(req) as f:
            proc = subprocess.run([ttpu_run, "--engine", "software"],
                                  stdin=f, capture_output=True, timeout=60)
        try:
            got = json.loads(proc.stdout)
        except ValueError:
            got = None
        if got is None:
            why = "no JSON response (exit %d): %s" % (
                proc.returncode, proc.stderr.decode(errors="replace")[:300])
        else:
            why = compare(got, want)
            status = 1 if "error" in want else 0
            if why is None and proc.returncode != status:
                why = "exit status %d, expected %d" % (proc.returncode, status)
            if why is None:
                bad = next(iter(resp_schema.iter_errors(got)), None)
                if bad is not None:
                    why = "response breaks the schema: " + bad.message[:200]
        results.append((why is None, "ttpu-run %s%s" % (
            name, "" if why is None else ": " + why)))

    results += check_example(ttpu_run, work)

    return tap(results)


if __name__ == "__main__":
    sys.exit(main())
