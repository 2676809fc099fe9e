#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""gen_random.py SEED AMPLITUDE PROGRAM REQUEST EXPECTED [CHAIN [DIMS]]: bench-board's data.

The MLP of tests/gen's bench (784 -> 128 -> 10, batch 64, bias and relu,
the hidden layer accumulated straight into i8: --chain direct), with
random weights and inputs that are not tests/gen's own. tests/gen picks the
hidden layer's ternary weights block by block and zeroes a non-zero weight
at a time until the block's partial sums fit i8, which leaves most blocks
sparse and many all zero: easy for the runner's range bound. Here each
block of four weights is redrawn at random (each weight -1, 0 or 1) until
its partial sums fit, up to 16 draws, and only then thinned as tests/gen
does: denser weights, partial sums that wander over the whole i8 range,
and still a program whose every step is legal for its inputs (inputs over
the whole i8 range, as tests/gen's). The output layer and the biases are
tests/gen's (uniform i8 weights, i32 biases).

The inputs are uniform in [-AMPLITUDE, AMPLITUDE] (127: tests/gen's whole
i8 range). Large inputs leave room for few non-zero hidden weights (64 rows
must all stay in i8 at every step), so the hidden layer comes out sparse;
small inputs let it be dense, with most partial sums of every element
live: the range checks' hard case.

DIMS (e.g. 784,512,512,10) replaces the layer widths (batch 64, bias
and relu on every layer, as tests/gen's bench). CHAIN is tests/gen's
--chain, "direct" by default; "input" makes every
layer accumulate into i32 (the second layer reads the caller's "x2"), so
no chain needs the host's step-by-step check and the NpuKit engine does
every product: the case for its per-kick host cost.

Writes the program, the request line --serve reads ({"x": ...} on one
line) and the expected response (tests/gen's check_gen compares).
"""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gen'))
import ttpu_gen  # noqa: E402

DRAWS = 16


def after(part, vals, cols):
    """The partial sums @part of each row after adding weights @vals."""
    for r, v in vals.items():
        if v:
            part = [p + v * xv for p, xv in zip(part, cols[r])]
    return part


def in_i8(sums):
    return all(ttpu_gen.fits(p, ttpu_gen.I8) for p in sums)


def dense_direct_weights(rng, x, k, n):
    w = [[0] * n for _ in range(k)]
    cols = list(zip(*x))
    tile = ttpu_gen.TILE
    for j in range(n):
        part = [0] * len(x)
        for k0 in range(0, k, tile):
            ks = range(k0, min(k0 + tile, k))
            for _ in range(DRAWS):
                vals = {r: rng.choice((-1, 0, 1)) for r in ks}
                if in_i8(after(part, vals, cols)):
                    break
            while not in_i8(after(part, vals, cols)):
                vals[rng.choice([r for r, v in vals.items() if v])] = 0
            part = after(part, vals, cols)
            for r, v in vals.items():
                w[r][j] = v
    return w


def main():
    if len(sys.argv) not in (6, 7, 8):
        sys.exit('usage: gen_random.py SEED AMPLITUDE PROGRAM REQUEST EXPECTED [CHAIN [DIMS]]')
    seed, amp, prog_path, req_path, exp_path = sys.argv[1:6]
    chain = sys.argv[6] if len(sys.argv) >= 7 else 'direct'
    dims = sys.argv[7] if len(sys.argv) == 8 else None
    if chain not in ('direct', 'input'):
        sys.exit('gen_random.py: CHAIN is direct or input')
    amp = int(amp)
    if not 1 <= amp <= 127:
        sys.exit('gen_random.py: AMPLITUDE is 1 to 127')
    ttpu_gen.direct_weights = dense_direct_weights
    whole = ttpu_gen.rand_matrix

    def inputs_of_amplitude(rng, rows, cols, lo, hi):
        # tests/gen draws the first layer's inputs (batch x 784) here
        if (rows, cols) == (64, 784):
            lo, hi = max(lo, -amp), min(hi, amp)
        return whole(rng, rows, cols, lo, hi)

    ttpu_gen.rand_matrix = inputs_of_amplitude
    inputs = prog_path + '.inputs.json'
    shape = ['bench'] if dims is None else ['mlp', '--batch', '64', '--dims', dims,
                                            '--bias', '1', '--relu', '1']
    sys.argv = ['ttpu_gen.py'] + shape + ['--chain', chain, '--name', 'mlp784',
                                          '--seed', str(int(seed) + 1000), '--program',
                                          prog_path, '--inputs', inputs, '--expected', exp_path]
    ttpu_gen.main()
    with open(inputs, encoding='utf-8') as f:
        doc = json.load(f)
    os.unlink(inputs)
    with open(req_path, 'w', encoding='utf-8') as f:
        f.write(json.dumps(doc, separators=(',', ':')) + '\n')


if __name__ == '__main__':
    main()
