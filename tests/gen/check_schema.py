#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""check_schema.py SCHEMA FILE...

Validate every FILE against Documentation/ttpu.schema.json with Debian's
python3-jsonschema (Draft202012Validator), then check that the schema
rejects a set of known-bad programs. One TAP line per check, so
scripts/tally counts them; exit 1 when any check failed.

A FILE is validated against the definition its content calls for: a
program (has "format"), a request ("program"), a response ("outputs" or
"error"), or an inputs object. Files named bad-*.json are deliberately
broken test data; many are schema-valid yet semantically wrong, so they
are reported as skipped here and checked by the loader's tests.
"""

import copy
import json
import os
import sys

from jsonschema import Draft202012Validator


def kind_of(doc):
    if isinstance(doc, dict):
        if "format" in doc:
            return "program"
        if "program" in doc:
            return "request"
        if "outputs" in doc or "error" in doc:
            return "response"
    return "inputs"


def validator(schema, kind):
    # The same definitions, rooted at one of them.
    root = {"$schema": schema["$schema"], "$defs": schema["$defs"],
            "$ref": "#/$defs/" + kind}
    return Draft202012Validator(root)


def first_error(v, doc):
    err = next(iter(sorted(v.iter_errors(doc), key=lambda e: e.path)), None)
    if err is None:
        return None
    path = "/".join(str(p) for p in err.absolute_path)
    return "at /%s: %s" % (path, err.message[:200])


# A small valid program that uses every command, every field and the
# estimate; each negative case breaks exactly one thing in a copy of it.
GOOD = {
    "format": "ttpu", "version": 1, "tile": 4, "name": "neg",
    "buffers": {
        "A": {"dtype": "i8", "shape": [2, 5], "kind": "input"},
        "W": {"dtype": "i8", "shape": [5, 3], "kind": "const",
              "data": [[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 0, 1], [2, 2, 2]]},
        "b": {"dtype": "i32", "shape": [3], "kind": "const", "data": [1, -2, 3]},
        "h": {"dtype": "i32", "shape": [2, 3], "kind": "temp"},
        "y": {"dtype": "i32", "shape": [2, 3], "kind": "temp"},
    },
    "inputs": ["A"], "outputs": ["y"],
    "commands": [
        {"op": "alloc", "buf": "h"},
        {"op": "pass", "id": 0, "a": {"buf": "A", "r": 0, "c": 0},
         "b": {"buf": "W", "r": 0, "c": 0}},
        {"op": "acc", "pass": 0, "dst": {"buf": "h", "r": 0, "c": 0}},
        {"op": "pass", "id": 1, "a": {"buf": "A", "r": 0, "c": 4},
         "b": {"buf": "W", "r": 4, "c": 0}},
        {"op": "acc", "pass": 1, "dst": {"buf": "h", "r": 0, "c": 0},
         "bias": "b", "relu": True},
        {"op": "epilogue", "dst": {"buf": "h", "r": 0, "c": 0}, "relu": False},
        {"op": "host_add", "dst": "y", "a": "h", "b": "b"},
        {"op": "host_relu", "dst": "y", "src": "y"},
    ],
    "estimate": {"passes": 2, "passes_skipped": 0, "cycles_per_pass": 15,
                 "rtl_cycles": 30,
                 "host_ops": {"alloc": 1, "acc": 2, "epilogue": 1,
                              "host_add": 1, "host_relu": 1},
                 "useful_macs": 30, "capacity_macs": 128,
                 "utilization": 30 / 128},
}


def setter(path, value):
    def apply(doc):
        *head, last = path
        for key in head:
            doc = doc[key]
        doc[last] = value
    return apply


def deleter(path):
    def apply(doc):
        *head, last = path
        for key in head:
            doc = doc[key]
        del doc[last]
    return apply


C = "commands"
B = "buffers"
NEGATIVE = [
    ("unknown top-level key", setter(["estimat"], {})),
    ("unknown buffer key", setter([B, "A", "layout"], "row")),
    ("unknown command key", setter([C, 0, "size"], 4)),
    ("unknown window key", setter([C, 1, "a", "rows"], 4)),
    ("unknown estimate key", setter(["estimate", "cycles"], 30)),
    ("unknown host_ops kind", setter(["estimate", "host_ops", "pass"], 2)),
    ("format not ttpu", setter(["format"], "ttpv")),
    ("version 2", setter(["version"], 2)),
    ("tile 8", setter(["tile"], 8)),
    ("name missing", deleter(["name"])),
    ("commands missing", deleter([C])),
    ("dtype i16", setter([B, "A", "dtype"], "i16")),
    ("kind scratch", setter([B, "h", "kind"], "scratch")),
    ("rank 3 shape", setter([B, "h", "shape"], [2, 3, 1])),
    ("rank 0 shape", setter([B, "h", "shape"], [])),
    ("zero dimension", setter([B, "h", "shape"], [0, 3])),
    ("fractional dimension", setter([B, "h", "shape"], [2.5, 3])),
    ("string dimension", setter([B, "h", "shape"], ["2", 3])),
    ("data on a temp", setter([B, "h", "data"], [[0, 0, 0], [0, 0, 0]])),
    ("data on an input", setter([B, "A", "data"], [[0] * 5, [0] * 5])),
    ("const without data", deleter([B, "W", "data"])),
    ("i8 const value 128", setter([B, "W", "data", 0, 0], 128)),
    ("i8 const value -129", setter([B, "W", "data", 0, 0], -129)),
    ("i32 const value 2^31", setter([B, "b", "data", 0], 1 << 31)),
    ("fractional const value", setter([B, "b", "data", 0], 1.5)),
    ("boolean const value", setter([B, "b", "data", 0], True)),
    ("rank-1 const with rows", setter([B, "b", "data"], [[1, -2, 3]])),
    ("rank-2 const flat", setter([B, "W", "data"], [1] * 15)),
    ("empty buffer name", setter([B, ""], {"dtype": "i8", "shape": [1],
                                           "kind": "temp"})),
    ("inputs not a list", setter(["inputs"], "A")),
    ("duplicate output", setter(["outputs"], ["y", "y"])),
    ("unknown op", setter([C, 0, "op"], "matmul")),
    ("op missing", deleter([C, 0, "op"])),
    ("pass id negative", setter([C, 1, "id"], -1)),
    ("pass id string", setter([C, 1, "id"], "0")),
    ("pass without b", deleter([C, 1, "b"])),
    ("window r negative", setter([C, 1, "a", "r"], -4)),
    ("window c fractional", setter([C, 1, "a", "c"], 0.5)),
    ("window buf empty", setter([C, 1, "a", "buf"], "")),
    ("window as a name", setter([C, 2, "dst"], "h")),
    ("acc without pass", deleter([C, 2, "pass"])),
    ("relu not boolean", setter([C, 4, "relu"], 1)),
    ("bias not a name", setter([C, 4, "bias"], 3)),
    ("epilogue with pass", setter([C, 5, "pass"], 0)),
    ("host_add without b", deleter([C, 6, "b"])),
    ("host_add dst window", setter([C, 6, "dst"], {"buf": "y", "r": 0, "c": 0})),
    ("host_relu with a", setter([C, 7, "a"], "h")),
    ("alloc with a window", setter([C, 0, "buf"], {"buf": "h", "r": 0, "c": 0})),
    ("cycles_per_pass 16", setter(["estimate", "cycles_per_pass"], 16)),
    ("estimate without passes", deleter(["estimate", "passes"])),
    ("utilization above 1", setter(["estimate", "utilization"], 1.5)),
    ("host_ops count negative", setter(["estimate", "host_ops", "acc"], -1)),
]

NEGATIVE_REQUESTS = [
    ("request with an extra key", lambda p: {"program": p, "inputs": {}, "x": 1}),
    ("request without inputs", lambda p: {"program": p}),
    ("request input value 1.5", lambda p: {"program": p, "inputs": {"A": [[1.5]]}}),
    ("request input value a string", lambda p: {"program": p, "inputs": {"A": [["1"]]}}),
    ("request inputs a list", lambda p: {"program": p, "inputs": [[1]]}),
    ("request with a bad program", lambda p: {"program": dict(p, tile=2), "inputs": {}}),
]


def main():
    schema_path, files = sys.argv[1], sys.argv[2:]
    with open(schema_path) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validators = {k: validator(schema, k)
                  for k in ("program", "request", "response", "inputs")}
    root = Draft202012Validator(schema)
    results = []

    for path in files:
        name = os.path.basename(path)
        if name.startswith("bad-"):
            results.append((True, "%s # SKIP deliberately broken" % path))
            continue
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            results.append((False, "%s (%s)" % (path, e)))
            continue
        kind = kind_of(doc)
        err = first_error(validators[kind], doc)
        if err is None and kind in ("program", "request"):
            # The root schema must pick the same kind on its own.
            err = first_error(root, doc)
        results.append((err is None, "%s is a valid %s%s" % (
            path, kind, "" if err is None else " (" + err + ")")))

    err = first_error(validators["program"], GOOD)
    results.append((err is None, "schema accepts the reference program%s"
                    % ("" if err is None else " (" + err + ")")))
    for what, mutate in NEGATIVE:
        doc = copy.deepcopy(GOOD)
        mutate(doc)
        ok = first_error(root, doc) is not None
        results.append((ok, "schema rejects a program with: " + what))
    for what, make in NEGATIVE_REQUESTS:
        ok = first_error(root, make(copy.deepcopy(GOOD))) is not None
        results.append((ok, "schema rejects a " + what))

    return report(results)


def report(results):
    """(ok, text) pairs as TAP lines; 1 when any failed, for sys.exit()."""
    print("TAP version 13")
    print("1..%d" % len(results))
    failed = 0
    for n, (ok, text) in enumerate(results, 1):
        print("%sok %d %s" % ("" if ok else "not ", n, text))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
