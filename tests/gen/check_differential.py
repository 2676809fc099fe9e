#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""check_differential.py TTPU_RUN SCHEMA WORKDIR PROGRAM...

The schema and the executor must agree on every document. Each PROGRAM
(the test programs and generated ones), a request made of it, and
mutations of both are checked twice: by Debian's python3-jsonschema
against Documentation/ttpu.schema.json, and by `ttpu-run --check`. A
document one accepts and the other rejects is a failure.

The mutations are the ones a schema can judge on its own, so the two
verdicts must be equal: every value swapped for null and for each other
JSON type, every object given an unknown key, every fixed key removed,
strings made empty, and integers set to each side of their bounds
(dtype ranges, ids and window origins at -1, version and tile). Mutations
that only the executor can judge (a name no buffer has, a window out of
its buffer, an estimate that no longer matches) are not made: the
executor's own tests cover them. Neither does it give an i8 input a
value beyond i8: the schema sees a request's inputs without their dtypes.

One TAP line per document; exit 1 when any disagree.
"""

import copy
import json
import os
import random
import subprocess
import sys

from check_schema import report, validator

NULL = object()     # a mutation that sets JSON null (None means "no value")

# Keys whose members are names chosen by the document, not fixed keys:
# removing or adding one changes what the program means, not its form.
MAPS = {"buffers", "host_ops"}
# Values whose change only the executor can judge: they must match the
# rest of the program (names, estimate figures, window origins).
SEMANTIC_KEYS = {"buf", "a", "b", "dst", "src", "bias", "inputs", "outputs",
                 "passes", "passes_skipped", "rtl_cycles", "useful_macs",
                 "capacity_macs", "utilization", "name", "pass", "id",
                 "r", "c", "shape", "kind", "dtype"}


def paths(doc, prefix=()):
    """(path, value, parent key) of every value in @doc."""
    yield prefix, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, prefix + (i,))


def get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def put(doc, path, value):
    get(doc, path[:-1])[path[-1]] = None if value is NULL else value


def last_key(path):
    """The nearest object key on @path (array indexes skipped)."""
    for k in reversed(path):
        if isinstance(k, str):
            return k
    return None


def in_data(path):
    return "data" in path or (len(path) > 1 and path[0] == "inputs")


def mutations(doc, is_request):
    """(description, mutated document) pairs."""
    out = []
    for path, value in paths(doc):
        if not path:
            continue
        key = last_key(path)
        parent = path[-2] if len(path) > 1 else None
        semantic = key in SEMANTIC_KEYS and not in_data(path)
        where = "/" + "/".join(str(p) for p in path)
        # Type swaps: each other JSON type, and null.
        for new in (NULL, True, 0, 1.5, "x", [], {}):
            same = (type(new) is type(value) or
                    (new is NULL and value is None) or
                    (isinstance(new, int) and not isinstance(new, bool) and
                     isinstance(value, int) and not isinstance(value, bool)))
            if same:
                continue
            if semantic and isinstance(new, (int, float)) and \
                    isinstance(value, (int, float)) and not isinstance(value, bool):
                continue    # another number: a different estimate or origin
            out.append(("%s = %s" % (where, "null" if new is NULL else json.dumps(new)),
                        path, new))
        # Removal of fixed keys (not of a map's named members).
        if isinstance(path[-1], str) and parent not in MAPS and \
                not (len(path) >= 2 and path[-2] == "inputs" and is_request):
            out.append(("remove " + where, path, None))
        # Integers at the edges of their bounds.
        if isinstance(value, int) and not isinstance(value, bool):
            if in_data(path) and is_request:
                # The schema cannot know an input's dtype: only the edges
                # both judge alike (i8 inputs are checked by the executor).
                edges = (-128, 127, -(1 << 31) - 1, 1 << 31)
            elif in_data(path):
                edges = (-129, -128, 127, 128, -(1 << 31) - 1, -(1 << 31),
                         (1 << 31) - 1, 1 << 31)
            elif key in ("r", "c", "id", "pass"):
                edges = (-1,)
            elif key in ("version", "tile"):
                edges = (value - 1, value + 1)
            elif key == "cycles_per_pass" or (parent == "host_ops"):
                edges = (-1,)
            else:
                edges = ()
            for e in edges:
                if e != value:
                    out.append(("%s = %d" % (where, e), path, e))
        if isinstance(value, str) and value and not semantic:
            out.append(("%s = \"\"" % where, path, ""))
    # An unknown key in every object that has fixed keys.
    for path, value in paths(doc):
        if isinstance(value, dict) and (not path or path[-1] not in MAPS) and \
                not (path and path[-1] == "inputs" and is_request):
            out.append(("unknown key in /" + "/".join(str(p) for p in path),
                        path + ("zz_unknown",), 0))
    docs = []
    for what, path, new in out:
        d = copy.deepcopy(doc)
        if new is None:
            del get(d, path[:-1])[path[-1]]
        else:
            put(d, path, new)
        docs.append((what, d))
    return docs


def executor_accepts(ttpu_run, text, workdir, is_request):
    """Whether `ttpu-run --check` accepts the document (exit 0)."""
    if is_request:
        r = subprocess.run([ttpu_run, "--check", "--engine", "software"],
                           input=text.encode(), capture_output=True)
    else:
        path = os.path.join(workdir, "doc.json")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run([ttpu_run, "--check", path], capture_output=True)
    if r.returncode not in (0, 1):
        raise RuntimeError("ttpu-run exited %d: %s" % (r.returncode, r.stderr))
    return r.returncode == 0, r.stdout.decode("utf-8", "replace").strip()


def main():
    ttpu_run, schema_path, workdir = sys.argv[1:4]
    programs = sys.argv[4:]
    os.makedirs(workdir, exist_ok=True)
    with open(schema_path) as f:
        schema = json.load(f)
    v_program = validator(schema, "program")
    v_request = validator(schema, "request")
    rng = random.Random(13)
    results = []

    def compare(name, doc, is_request):
        text = json.dumps(doc)
        v = v_request if is_request else v_program
        schema_ok = next(iter(v.iter_errors(doc)), None) is None
        run_ok, said = executor_accepts(ttpu_run, text, workdir, is_request)
        ok = schema_ok == run_ok
        note = "" if ok else " (schema %s, ttpu-run %s: %s)" % (
            "accepts" if schema_ok else "rejects",
            "accepts" if run_ok else "rejects", said[:200])
        results.append((ok, name + note))

    for prog_path in programs:
        with open(prog_path) as f:
            prog = json.load(f)
        if not isinstance(prog, dict) or "format" not in prog:
            continue    # inputs, requests, responses
        base = os.path.basename(prog_path)
        # A request: the program, and zeros for each input.
        inputs = {}
        for n in prog.get("inputs", []):
            shape = prog["buffers"][n]["shape"]
            inputs[n] = ([0] * shape[0] if len(shape) == 1 else
                         [[0] * shape[1] for _ in range(shape[0])])
        request = {"program": prog, "inputs": inputs}
        if not executor_accepts(ttpu_run, json.dumps(prog), workdir, False)[0]:
            # Broken on purpose (an estimate that does not match): a base
            # for mutations must be valid to both.
            results.append((True, "%s # SKIP the executor rejects it by design" % base))
            continue
        compare("%s as a program" % base, prog, False)
        compare("%s as a request" % base, request, True)
        muts = mutations(prog, False)
        # Large generated programs: a fixed sample, the same every run.
        if len(muts) > 400:
            muts = rng.sample(muts, 400)
        for what, doc in muts:
            compare("%s: %s" % (base, what), doc, False)
        req_muts = [(w, d) for w, d in mutations(request, True)
                    if w.startswith(("/inputs", "remove /inputs",
                                     "unknown key in /", "remove /program"))
                    and not w.startswith("unknown key in /program/")]
        if len(req_muts) > 100:
            req_muts = rng.sample(req_muts, 100)
        for what, doc in req_muts:
            compare("%s request: %s" % (base, what), doc, True)

    return report(results)


if __name__ == "__main__":
    sys.exit(main())
