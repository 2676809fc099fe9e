#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""check_compiled.py TTPU_RUN WORKDIR

Compiled programs answer exactly as their JSON: for every program of the
test corpus (tests/runtime/data, tests/cli/data, examples, and the
programs of check_gen.py's cases), `ttpu-run
--compile PROGRAM.json -o PROGRAM.ttpb`, then the JSON and the compiled
program run with the same inputs (X-inputs.json beside X.json, or the
generator's) must write byte-identical stdout with the same exit status,
errors included; --check too. A program that does not load cannot be
compiled: --compile must then fail with the JSON run's error and status.

One TAP line per program; exit 1 when any failed.
"""

import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from check_gen import GEN, MLP, RANGE, tap  # noqa: E402

def corpus(work):
    """(name, program, inputs or None)"""
    for d in ("tests/runtime/data", "tests/cli/data", "examples"):
        for prog in sorted(glob.glob(os.path.join(TOP, d, "*.json"))):
            if prog.endswith(("-inputs.json", "-expected.json")):
                continue
            inp = prog[:-len(".json")] + "-inputs.json"
            yield (os.path.relpath(prog, TOP), prog,
                   inp if os.path.exists(inp) else None)
    cases = [("mlp", n, a) for n, a in MLP] + [("range", n, a) for n, a in RANGE]
    for kind, name, args in cases:
        prog = os.path.join(work, name + ".json")
        inp = os.path.join(work, name + "-inputs.json")
        subprocess.run([sys.executable, GEN, kind, *args.split(), "--name", name,
                        "--program", prog, "--inputs", inp], check=True)
        yield ("gen " + name, prog, inp)


def run(ttpu_run, *args):
    p = subprocess.run([ttpu_run, *args], capture_output=True, timeout=120)
    return p.returncode, p.stdout


def check(ttpu_run, work, name, prog, inp):
    ttpb = os.path.join(work, os.path.basename(prog)[:-len(".json")] + ".ttpb")
    if os.path.exists(ttpb):
        os.unlink(ttpb)
    ins = ["--inputs", inp] if inp else []
    want = run(ttpu_run, "--engine", "software", prog, *ins)
    comp = run(ttpu_run, "--compile", prog, "-o", ttpb)
    check_json = run(ttpu_run, "--check", prog)
    if comp[0] != 0:
        if comp != check_json:
            return "--compile failed (exit %d) unlike --check (exit %d)" % (
                comp[0], check_json[0])
        return None if not os.path.exists(ttpb) else "failed --compile left a file"
    got = run(ttpu_run, "--engine", "software", ttpb, *ins)
    if got != want:
        return "compiled: exit %d, %d bytes; JSON: exit %d, %d bytes" % (
            got[0], len(got[1]), want[0], len(want[1]))
    if run(ttpu_run, "--check", ttpb) != check_json:
        return "--check differs"
    return None


def main():
    ttpu_run, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    results = []
    for name, prog, inp in corpus(work):
        why = check(ttpu_run, work, name, prog, inp)
        results.append((why is None, "compiled %s%s" % (
            name, "" if why is None else ": " + why)))
    return tap(results)


if __name__ == "__main__":
    sys.exit(main())
