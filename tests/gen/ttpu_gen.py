#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""ttpu_gen.py - emit ttpu programs the way tinyc's tiny-tpu backend would.

Programs are quantised MLPs: layer l computes h_l = a_l @ W_l (i8 x i8 ->
i32) tiled exactly like tinyc (output tiles row-major, K innermost, one acc
right after each pass, the tile's epilogue on its last acc), with optional
bias and relu, fused into the epilogue or as host ops.

ttpu has no requantise op, so a layer's i8 operand cannot be computed from
the previous layer's i32 result by arithmetic. Two compiler-like chains:

  --chain input   (default) layer l > 1 reads the caller-supplied input
                  "x<l>" (the requantised activations: tinyc splits the
                  graph at each requantisation and the host does it). Every
                  layer's result is an output.
  --chain narrow  layer l > 1 reads "q<l-1>", an i8 temp written by
                  host_relu(q, h): relu and the i32 -> i8 narrowing in one
                  host op. The dtype check of host_relu proves the range at
                  run time; the generator picks value ranges so the
                  generated inputs fit (and says so if it cannot).
  --chain direct  a hidden layer accumulates straight into the i8 buffer
                  "h<l>" the next layer reads, so every step of its chains
                  is range-checked in i8 (the runner's costly case). Its
                  weights are sparse ternary, picked block by block so that
                  every partial sum of the tiled execution stays in i8 for
                  the generated inputs (which span the whole i8 range).

Expected results never come from the tiles: they are computed directly on
whole matrices (plain matmul, bias, relu, adds). Standard library only.
"""

import argparse
import json
import operator
import random
import sys

TILE = 4
CYCLES_PER_PASS = 15
I8 = (-128, 127)
I32 = (-(1 << 31), (1 << 31) - 1)
HOST_KINDS = ("alloc", "acc", "epilogue", "host_add", "host_relu")


def ceil_div(a, b):
    return -(-a // b)


def matmul(a, b):
    """Plain whole-matrix product, the independent reference."""
    cols = list(zip(*b))
    return [[sum(map(operator.mul, row, col)) for col in cols] for row in a]


def fits(v, rng):
    return rng[0] <= v <= rng[1]


class Program:
    """A ttpu program under construction, with its measured estimate."""

    def __init__(self, name):
        self.name = name
        self.buffers = {}
        self.order = []
        self.inputs = []
        self.outputs = []
        self.commands = []
        self.next_id = 0
        self.skipped = 0
        self.useful = 0

    def buffer(self, name, dtype, shape, kind, data=None):
        buf = {"dtype": dtype, "shape": list(shape), "kind": kind}
        if kind == "const":
            buf["data"] = data
        self.buffers[name] = buf
        self.order.append(name)
        if kind == "input":
            self.inputs.append(name)
        return name

    def shape(self, name):
        return self.buffers[name]["shape"]

    def emit(self, cmd):
        self.commands.append(cmd)
        return len(self.commands) - 1

    def matmul(self, a, b, dst, bias=None, relu=False, skip_zero=False):
        """Tile dst = a @ b (+bias, relu) as tinyc does."""
        m, k = self.shape(a)
        k2, n = self.shape(b)
        assert k == k2 and self.shape(dst) == [m, n]
        wdata = self.buffers[b].get("data") if skip_zero else None
        for i0 in range(0, m, TILE):
            for j0 in range(0, n, TILE):
                kept = []
                for k0 in range(0, k, TILE):
                    if wdata is not None and all(
                            v == 0 for row in wdata[k0:k0 + TILE]
                            for v in row[j0:j0 + TILE]):
                        # skip-zero-passes: a zero weight block adds 0.
                        self.skipped += 1
                        self.next_id += 1
                        continue
                    kept.append(k0)
                for idx, k0 in enumerate(kept):
                    pid = self.next_id
                    self.next_id += 1
                    self.emit({"op": "pass", "id": pid,
                               "a": {"buf": a, "r": i0, "c": k0},
                               "b": {"buf": b, "r": k0, "c": j0}})
                    rows = min(TILE, m - i0)
                    inner = min(TILE, k - k0)
                    cols = min(TILE, n - j0)
                    self.useful += rows * inner * cols
                    acc = {"op": "acc", "pass": pid,
                           "dst": {"buf": dst, "r": i0, "c": j0}}
                    if idx == len(kept) - 1:
                        if bias:
                            acc["bias"] = bias
                        if relu:
                            acc["relu"] = True
                    self.emit(acc)
                if not kept and (bias or relu):
                    ep = {"op": "epilogue",
                          "dst": {"buf": dst, "r": i0, "c": j0}}
                    if bias:
                        ep["bias"] = bias
                    if relu:
                        ep["relu"] = True
                    self.emit(ep)

    def measured(self):
        counts = {kind: 0 for kind in HOST_KINDS}
        passes = []
        for cmd in self.commands:
            if cmd["op"] == "pass":
                passes.append(cmd["id"])
            else:
                counts[cmd["op"]] += 1
        return passes, counts

    def estimate(self):
        passes, counts = self.measured()
        cap = 64 * len(passes)
        return {"passes": len(passes), "passes_skipped": self.skipped,
                "cycles_per_pass": CYCLES_PER_PASS,
                "rtl_cycles": CYCLES_PER_PASS * len(passes),
                "host_ops": counts, "useful_macs": self.useful,
                "capacity_macs": cap,
                "utilization": self.useful / cap if cap else 0}

    def to_json(self):
        """One buffer or command per line: readable and diff-friendly,
        yet written fast for a 100k-pass program."""
        enc = json.JSONEncoder(separators=(",", ":")).encode
        out = ['{"format":"ttpu","version":1,"tile":4,"name":%s,'
               % enc(self.name), '"buffers":{']
        out.append(",\n".join("%s:%s" % (enc(n), enc(self.buffers[n]))
                              for n in self.order))
        out.append('},\n"inputs":%s,\n"outputs":%s,\n"commands":[\n'
                   % (enc(self.inputs), enc(self.outputs)))
        out.append(",\n".join(map(enc, self.commands)))
        out.append('],\n"estimate":%s}\n' % enc(self.estimate()))
        return "".join(out)


def rand_matrix(rng, rows, cols, lo, hi):
    return [[rng.randint(lo, hi) for _ in range(cols)] for _ in range(rows)]


def zero_blocks(rng, w, frac):
    """Zero whole 4x4 weight blocks (and sometimes a whole column block, so
    skip-zero-passes leaves epilogue-only tiles)."""
    k, n = len(w), len(w[0])
    for j0 in range(0, n, TILE):
        whole = rng.random() < frac
        for k0 in range(0, k, TILE):
            if whole or rng.random() < frac:
                for r in range(k0, min(k0 + TILE, k)):
                    for c in range(j0, min(j0 + TILE, n)):
                        w[r][c] = 0


def direct_weights(rng, x, k, n):
    """Ternary weights for an i8 accumulation of x @ w: for each output
    column, 4-row block by block in the tiles' K order, random values in
    {-1, 0, 1}, dropping non-zeros until every row's partial sum after the
    block stays in i8 (an all-zero block always does)."""
    w = [[0] * n for _ in range(k)]
    cols = list(zip(*x))
    for j in range(n):
        part = [0] * len(x)
        for k0 in range(0, k, TILE):
            ks = range(k0, min(k0 + TILE, k))
            vals = {r: rng.choice((-1, 0, 1)) for r in ks}
            while True:
                new = list(part)
                for r, v in vals.items():
                    if v:
                        new = [p + v * xv for p, xv in zip(new, cols[r])]
                if all(fits(p, I8) for p in new):
                    break
                live = [r for r, v in vals.items() if v]
                vals[rng.choice(live)] = 0
            part = new
            for r, v in vals.items():
                w[r][j] = v
    return w


def add_bias(h, b):
    return [[v + b[c] for c, v in enumerate(row)] for row in h]


def relu(h):
    return [[max(v, 0) for v in row] for row in h]


def build_mlp(opts):
    """Returns (program, inputs, expected outputs)."""
    rng = random.Random(opts.seed)
    dims = opts.dims
    nl = len(dims) - 1
    per = (lambda v: v if len(v) == nl else v * nl)
    biases, relus = per(opts.bias), per(opts.relu)
    if len(biases) != nl or len(relus) != nl:
        sys.exit("ttpu_gen: --bias/--relu need 1 or %d values" % nl)
    prog = Program(opts.name)
    batch = opts.batch
    narrow = opts.chain == "narrow"
    direct = opts.chain == "direct"
    # Value ranges. Narrow chains keep each i8 activation provably in range
    # for the generated values: |h| <= K * amax * wmax + bmax <= 127.
    amax = 3 if narrow else 127
    x = rand_matrix(rng, batch, dims[0], 0 if narrow else -128, amax)
    inputs = {}
    expected = {}
    act_name = prog.buffer("x", "i8", [batch, dims[0]], "input")
    inputs["x"] = x
    act = x
    for l in range(nl):
        k, n = dims[l], dims[l + 1]
        last = l == nl - 1
        if narrow:
            bmax = 0 if not biases[l] else 8
            wmax = (120 - bmax) // (k * amax) if not last else 127
            if wmax < 1:
                sys.exit("ttpu_gen: --chain narrow: K=%d too wide for an "
                         "i8 activation; use --chain input" % k)
            wmax = min(wmax, 127)
        else:
            wmax, bmax = 127, 1 << 20
        # A direct chain's hidden layer: no bias (its i8 sums are tiny).
        hidden_i8 = direct and not last
        if hidden_i8:
            w = direct_weights(rng, act, k, n)
        else:
            w = rand_matrix(rng, k, n, -wmax if wmax < 127 else -128, wmax)
        if opts.zero_blocks:
            zero_blocks(rng, w, opts.zero_blocks)
        wname = prog.buffer("w%d" % (l + 1), "i8", [k, n], "const", w)
        bname = None
        if biases[l] and not hidden_i8:
            b = [rng.randint(-bmax, bmax) for _ in range(n)]
            bname = prog.buffer("b%d" % (l + 1), "i32", [n], "const", b)
        hname = prog.buffer("h%d" % (l + 1), "i8" if hidden_i8 else "i32",
                            [batch, n], "temp")
        # Narrow chains do a hidden layer's relu in the narrowing host_relu.
        fused_relu = relus[l] and not (narrow and not last)
        prog.emit({"op": "alloc", "buf": hname})
        if opts.epilogue == "fused":
            prog.matmul(act_name, wname, hname, bname, fused_relu,
                        opts.skip_zero)
            res = hname
        else:
            prog.matmul(act_name, wname, hname, None, False, opts.skip_zero)
            res = hname
            if bname:
                yname = prog.buffer("y%d" % (l + 1), "i32", [batch, n],
                                    "temp")
                # Both operand orders are legal; the compiler emits either.
                ab = (res, bname) if rng.random() < 0.5 else (bname, res)
                prog.emit({"op": "host_add", "dst": yname,
                           "a": ab[0], "b": ab[1]})
                res = yname
            if fused_relu:
                zname = prog.buffer("z%d" % (l + 1), "i32", [batch, n],
                                    "temp")
                prog.emit({"op": "host_relu", "dst": zname, "src": res})
                res = zname
        # The independent reference: whole matrices.
        h = matmul(act, w)
        if bname:
            h = add_bias(h, b)
        if relus[l]:
            h = relu(h)
        assert all(fits(v, I32) for row in h for v in row)
        if hidden_i8:
            assert all(fits(v, I8) for row in h for v in row)
            act_name, act = res, h
            continue
        if last or not narrow:
            prog.outputs.append(res)
            expected[res] = h
        if last:
            break
        if narrow:
            # host_relu is the relu and the narrowing at once.
            h = relu(h)
            if not all(fits(v, I8) for row in h for v in row):
                sys.exit("ttpu_gen: narrow chain left i8 (generator bug)")
            qname = prog.buffer("q%d" % (l + 1), "i8", [batch, n], "temp")
            prog.emit({"op": "host_relu", "dst": qname, "src": res})
            act_name, act, amax = qname, h, max(
                1, max(v for row in h for v in row))
        else:
            act_name = prog.buffer("x%d" % (l + 2), "i8", [batch, n],
                                   "input")
            act = rand_matrix(rng, batch, n, -128, 127)
            inputs[act_name] = act
    return prog, inputs, expected


def response(prog, expected):
    passes, counts = prog.measured()
    outs = {name: {"shape": prog.shape(name), "data": expected[name]}
            for name in prog.outputs}
    return {"outputs": outs,
            "passes": [{"id": p, "cycles": CYCLES_PER_PASS} for p in passes],
            "totalCycles": CYCLES_PER_PASS * len(passes),
            "hostOps": counts}


# ---- RangeError programs ---------------------------------------------------
#
# Each plants one large product A[r][k] * B[k][c] = 127 * 127 in otherwise
# tiny data (|value| <= 1, so every other sum stays within +-K), making
# exactly one element leave its dtype. The failing command is predicted from
# the tiling formula and the whole-matrix values, not by running commands.

def range_program(opts):
    rng = random.Random(opts.seed)
    variant = opts.variant
    m, k, n = opts.batch, opts.dims[0], opts.dims[1]
    if k > 100:
        sys.exit("ttpu_gen: range programs need K <= 100")
    r, kk, c = rng.randrange(m), rng.randrange(k), rng.randrange(n)
    a = rand_matrix(rng, m, k, -1, 1)
    if variant == "epilogue":
        # No zeros, so skip-zero-passes drops only the planted block.
        w = [[rng.choice((-1, 1)) for _ in range(n)] for _ in range(k)]
    else:
        w = rand_matrix(rng, k, n, -1, 1)
        for i in range(m):
            a[i][kk] = 0
        for j in range(n):
            w[kk][j] = 0
        a[r][kk] = w[kk][c] = 127
    prog = Program(opts.name)
    prog.buffer("x", "i8", [m, k], "input")
    prog.buffer("w1", "i8", [k, n], "const", w)
    h = matmul(a, w)
    dst_dtype = "i8" if variant in ("acc", "epilogue") else "i32"
    bias = None
    if variant == "bias" or variant == "host_add":
        b = [rng.randint(-100, 100) for _ in range(n)]
        b[c] = I32[1] - h[r][c] + 1
        # The planted element is the only one past INT32_MAX: every other
        # h in column c is at most K.
        assert all(h[i][c] + b[c] <= I32[1] for i in range(m) if i != r)
        bias = prog.buffer("b1", "i32", [n], "const", b)
    elif variant == "epilogue":
        # A zero weight column block: its tiles are epilogue-only, and the
        # bias alone overflows the i8 dst in one element (batch 1).
        if m != 1:
            sys.exit("ttpu_gen: the epilogue variant needs --batch 1")
        j0 = (c // TILE) * TILE
        for row in w:
            for j in range(j0, min(j0 + TILE, n)):
                row[j] = 0
        h = matmul(a, w)
        b = [0] * n
        b[c] = 200
        bias = prog.buffer("b1", "i32", [n], "const", b)
    hname = prog.buffer("h1", dst_dtype, [m, n], "temp")
    base = prog.emit({"op": "alloc", "buf": hname}) + 1
    kt, nt = ceil_div(k, TILE), ceil_div(n, TILE)
    fused_bias = bias if variant in ("bias", "epilogue") else None
    prog.matmul("x", "w1", hname, fused_bias, False,
                skip_zero=variant == "epilogue")
    if variant == "acc":
        # Prefix sums over K: the planted element first leaves i8 at the
        # acc of the K block holding kk (every other prefix is within +-K).
        tile = (r // TILE) * nt + c // TILE
        cmd = base + 2 * (tile * kt + kk // TILE) + 1
        op, buf = "acc", hname
    elif variant == "bias":
        tile = (r // TILE) * nt + c // TILE
        cmd = base + 2 * (tile * kt + kt - 1) + 1
        op, buf = "acc", hname
    elif variant == "epilogue":
        # Tiles before it in row-major order keep all kt passes, except
        # tiles of the zero column block (none before it in batch 1).
        cmd = base + 2 * kt * (c // TILE)
        op, buf = "epilogue", hname
    elif variant == "host_add":
        cmd = prog.emit({"op": "host_add", "dst": "y1", "a": hname,
                         "b": bias})
        prog.buffer("y1", "i32", [m, n], "temp")
        op, buf = "host_add", "y1"
    else:  # host_relu: narrowing into i8 fails at the planted element
        cmd = prog.emit({"op": "host_relu", "dst": "q1", "src": hname})
        prog.buffer("q1", "i8", [m, n], "temp")
        op, buf = "host_relu", "q1"
    assert prog.commands[cmd]["op"] == op
    prog.outputs.append(buf)
    err = {"kind": "RangeError", "command": cmd, "op": op, "buffer": buf,
           "element": r * n + c, "row": r, "col": c}
    return prog, {"x": a}, {"error": err}


# ---- output ----------------------------------------------------------------

def write(path, text):
    if path is None:
        return
    if path == "-":
        sys.stdout.write(text)
        return
    with open(path, "w") as f:
        f.write(text)


def dump(obj):
    return json.dumps(obj, separators=(",", ":")) + "\n"


def int_list(s):
    return [int(v) for v in s.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=("mlp", "range", "bench"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--name", default="main")
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--dims", type=int_list, default=[16, 12, 4],
                    help="layer widths, e.g. 784,128,10")
    ap.add_argument("--bias", type=int_list, default=[1],
                    help="per layer 0/1, or one value for all")
    ap.add_argument("--relu", type=int_list, default=[1])
    ap.add_argument("--epilogue", choices=("fused", "host"), default="fused")
    ap.add_argument("--chain", choices=("input", "narrow", "direct"), default="input")
    ap.add_argument("--skip-zero", action="store_true",
                    help="drop passes whose weight block is all zero")
    ap.add_argument("--zero-blocks", type=float, default=0.0,
                    help="fraction of 4x4 weight blocks made zero")
    ap.add_argument("--variant", default="acc",
                    choices=("acc", "bias", "epilogue", "host_add",
                             "host_relu"))
    ap.add_argument("--program", help="write the program here ('-': stdout)")
    ap.add_argument("--inputs", help="write the inputs object here")
    ap.add_argument("--request", help="write {program, inputs} here")
    ap.add_argument("--expected", help="write the expected response here")
    opts = ap.parse_args()
    if opts.batch < 1 or min(opts.dims) < 1 or len(opts.dims) < 2:
        ap.error("--batch and --dims must be >= 1, with two dims or more")
    if opts.kind == "bench":
        opts.batch, opts.dims = 64, [784, 128, 10]
        opts.bias = opts.relu = [1]
    if opts.chain == "direct" and opts.epilogue != "fused":
        ap.error("--chain direct keeps the hidden layer in i8: --epilogue fused only")
    if opts.kind == "range":
        prog, inputs, expected = range_program(opts)
    else:
        prog, inputs, expected = build_mlp(opts)
        expected = response(prog, expected)
    text = prog.to_json()
    write(opts.program, text)
    write(opts.inputs, dump(inputs))
    if opts.request:
        write(opts.request, '{"program":' + text + ',"inputs":'
              + dump(inputs) + "}\n")
    write(opts.expected, dump(expected))


if __name__ == "__main__":
    main()
