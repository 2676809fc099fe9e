# SPDX-License-Identifier: MIT
"""ttpu_run.matmul() against numpy's own A.astype(int32) @ B."""

import numpy as np
import pytest

import ttpu_run

RNG = np.random.default_rng(20261201)


def int8(*shape):
    return RNG.integers(-128, 128, size=shape, dtype=np.int8)


def reference(a, b, bias=None, relu=False):
    out = a.astype(np.int32) @ b
    if bias is not None:
        out = out + bias
    return np.maximum(out, 0) if relu else out


# The 16x16 and 32x32x32 cases of NpuKit's tiling page, aligned tiles, and
# ragged edges in every dimension.
@pytest.mark.parametrize("m,k,n", [
    (16, 16, 16), (32, 32, 32), (4, 4, 4), (1, 1, 1), (5, 7, 3),
    (3, 17, 9), (13, 1, 6), (2, 16, 12), (33, 5, 31)])
def test_matches_numpy(m, k, n):
    a, b = int8(m, k), int8(k, n)
    got = ttpu_run.matmul(a, b, engine="software")
    assert got.dtype == np.int32 and got.shape == (m, n)
    np.testing.assert_array_equal(got, reference(a, b))


def test_extremes_do_not_wrap():
    a = np.full((8, 64), -128, dtype=np.int8)
    b = np.full((64, 8), -128, dtype=np.int8)
    np.testing.assert_array_equal(ttpu_run.matmul(a, b),
                                  np.full((8, 8), 64 * 128 * 128))


@pytest.mark.parametrize("use_bias,relu", [(True, False), (False, True),
                                           (True, True)])
def test_bias_and_relu(use_bias, relu):
    a, b = int8(6, 10), int8(10, 5)
    bias = RNG.integers(-20000, 20000, size=5, dtype=np.int32) \
        if use_bias else None
    got = ttpu_run.matmul(a, b, bias=bias, relu=relu)
    np.testing.assert_array_equal(got, reference(a, b, bias, relu))
    if relu:
        assert (got >= 0).all()


# numpy's shape rules: a 1-D operand is a row or a column, leading
# dimensions broadcast as a batch.
@pytest.mark.parametrize("ashape,bshape", [
    ((7,), (7, 3)), ((5, 7), (7,)), ((7,), (7,)),
    ((2, 5, 4), (4, 6)), ((3, 1, 2, 4), (2, 4, 5))])
def test_numpy_shape_rules(ashape, bshape):
    a, b = int8(*ashape), int8(*bshape)
    got = ttpu_run.matmul(a, b)
    want = reference(a, b)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_int_lists_are_accepted():
    assert ttpu_run.matmul([[1, 2]], [[3], [4]]).tolist() == [[11]]


def test_inner_dimensions_must_agree():
    with pytest.raises(ttpu_run.InputError, match="3 columns against 4 rows"):
        ttpu_run.matmul(int8(2, 3), int8(4, 2))


def test_values_outside_int8_are_input_errors():
    a = np.array([[200]], dtype=np.int16)
    with pytest.raises(ttpu_run.InputError) as exc:
        ttpu_run.matmul(a, np.ones((1, 1), dtype=np.int8))
    assert exc.value.buffer == "A"
    assert exc.value.element == 0


def test_float_operands_are_refused():
    with pytest.raises(ttpu_run.InputError, match="not an integer type"):
        ttpu_run.matmul(np.ones((2, 2)), int8(2, 2))


def test_overflow_is_a_range_error():
    bias = np.array([2**31 - 1], dtype=np.int32)
    with pytest.raises(ttpu_run.RangeError) as exc:
        ttpu_run.matmul(np.ones((1, 1), np.int8), np.ones((1, 1), np.int8),
                        bias=bias)
    assert exc.value.buffer == "C"
    assert exc.value.op == "acc"


def test_program_has_the_compilers_tiling():
    prog = ttpu_run.Program.matmul(9, 10, 5, bias=True)
    tiles = 3 * 3 * 2
    assert prog.pass_count == tiles
    assert prog.command_count == 1 + 2 * tiles
    assert prog.inputs == ["A", "B", "bias"]
    assert prog.outputs == ["C"]
    res = prog.run({"A": int8(9, 10), "B": int8(10, 5),
                    "bias": np.zeros(5, np.int32)})
    assert res.stats["passes"] == tiles
    assert res.stats["total_cycles"] == 15 * tiles


def test_zero_dimension_is_a_usage_error():
    with pytest.raises(ttpu_run.UsageError, match="at least 1"):
        ttpu_run.Program.matmul(0, 4, 4)
