"""dsplit/unbind/chunk, the Tensor methods diff, expand_as, moveaxis, repeat_interleave, tril,
nonzero, slice, slice_scatter, diag_embed, bmm, mm, dot, inner, outer, inverse, lu,
cholesky_solve, gcd, the reflected and bitwise operators, ``abs``, gammaln,
parameters_to_vector/vector_to_parameters, poisson, standard_normal and ``dir(x)`` against
goldens recorded from Paddle 3.3.1 (tools/goldens/record_ops_rest.py; the case format is that
of test_ops_nn2.py).

The random cases (poisson, standard_normal) seed the engine in ``pre`` and compare bit for bit
(``tol`` (0, 0)), including a draw made afterwards, which pins where the engine was left.
Where Paddle's CPU build has no kernel for a dtype (an error "... is not registered") we may
compute the result or raise RuntimeError, as in test_ops_math.
"""
import ast

import pytest
import torch

import op_goldens as og
import paddle_compat as paddle
from test_ops_nn2 import GRAD_TOLERANCE, TOLERANCE

CASES = og.load_cases("ops_rest.json")

# Case ids where we knowingly differ from Paddle 3.3.1: id -> (what we still check, reason).
# "forward": results are compared, gradients are not; "skip": nothing is compared here.
_TA = "paddle.Tensor."
KNOWN = {
    _TA + "slice[x.slice([3], [0], [1])]": (
        "skip", "Paddle 3.3.1 does not check slice's axes: an axis past the last one silently "
                "slices the last axis; we raise"),
    _TA + "slice_scatter[x.slice_scatter(v, [-1], [-3], [6], [1]) [4, 3]]": (
        "skip", "Paddle 3.3.1's slice_scatter does not wrap negative axes (it fails on a shape "
                "mismatch) where slice and every other axis argument do; we wrap them"),
    _TA + "slice_scatter[empty slice]": (
        "skip", "Paddle 3.3.1 fails to expand an empty value onto an empty slice; we write "
                "nothing and return x"),
    _TA + "cholesky_solve[full matrix]": (
        "forward", "y is documented as the triangular Cholesky factor; given a full matrix "
                   "Paddle's forward reads only its triangle but its backward uses the whole "
                   "matrix; ours is the gradient of the forward (the triangular cases match)"),
    _TA + "cholesky_solve[full matrix upper]": ("forward", "same as the lower case"),
    _TA + "__abs__[special]": (
        "forward", "grad of abs at NaN: Paddle x/|x| (NaN), torch sign(x) (as paddle.abs in "
                   "test_ops_math)"),
    _TA + "__abs__[inf]": ("forward", "grad of abs at +-inf: Paddle x/|x| (NaN), torch +-1"),
    _TA + "gcd[float]": (
        "skip", "gcd's docs allow int32/int64 only; Paddle 3.3.1 runs its Euclid loop on floats "
                "and returns rounding noise; we raise (torch has no float gcd)"),
    "paddle.nn.utils.vector_to_parameters[dtype of vec]": (
        "skip", "Paddle shares vec's storage into the parameters, so a float64 vec turns float32 "
                "parameters float64; we copy into the parameters in place, keeping their dtype "
                "(test_vector_to_parameters_keeps_the_parameters)"),
    "paddle.standard_normal[paddle.standard_normal(4)]": (
        "skip", "Paddle 3.3.1 fails with AttributeError on an int shape (its docs take a "
                "list, tuple or Tensor); we read it as [4], as paddle.full does"),
}


def run_case(case, grads=True):
    og.run_case(case, og.make_env(case), TOLERANCE if _exact(case) else case.get("tol", TOLERANCE),
                GRAD_TOLERANCE, grads, allow_missing_kernel=True)
    if _exact(case) and "error" not in case["expected"]:
        env = og.make_env(case)
        exec(case["pre"], env)
        _check_bits(eval(case["call"], env), case["expected"], "result")


def _exact(case):
    return case.get("tol") == [0.0, 0.0]


def _check_bits(got, exp, what):
    """The golden's values (shortest decimals of the recorded floats) rounded back to its dtype
    equal ours bit for bit."""
    if "tuple" in exp:
        for i, (g, e) in enumerate(zip(got, exp["tuple"])):
            _check_bits(g, e, f"{what}[{i}]")
        return
    if "py" in exp:
        return
    want = og.build(exp)
    have = got._t.detach().cpu()
    assert torch.equal(have, want), f"{what}: not bit-exact:\n{have}\n{want}"


def _is_dir(case):
    return case["api"] == "paddle.Tensor.__dir__"


_REPLAY = [c for c in CASES if c["id"] not in KNOWN and not _is_dir(c)]


@og.each_case(_REPLAY)
def test_golden(case):
    run_case(case)


test_known_difference = og.known_difference_test(KNOWN, CASES, run_case)


# ---------------------------------------------------------------------- dir(x)
def _implemented(obj, name):
    try:
        getattr(obj, name)
    except AttributeError:
        return False
    except Exception:  # noqa: BLE001  a property that raises for this tensor still exists
        return True
    return True


_DIRS = [c for c in CASES if _is_dir(c)]


@pytest.mark.parametrize("case", _DIRS, ids=[c["id"] for c in _DIRS])
def test_dir_lists_what_we_implement(case):
    """Every name Paddle's dir(x) lists that paddle_compat implements is in our dir(x) (and
    dir returns a list of str). The names we lack are reported, not failed: dir must not
    promise what getattr cannot give."""
    env = og.make_env(case)
    if "pre" in case:
        exec(case["pre"], env)
    got = eval(case["call"], env)
    assert isinstance(got, list) and all(isinstance(n, str) for n in got)
    x = env["x"]
    listed = set(got)
    names = [ast.literal_eval(e["py"]) for e in case["expected"]["tuple"]]   # str as repr
    assert len(names) > 500 and all(isinstance(n, str) for n in names)
    missing = [n for n in names if _implemented(x, n) and n not in listed]
    assert not missing, f"implemented but not listed by dir(): {missing}"


# ---------------------------------------------------------------------- documented behaviour
def test_bmm_empty_inner_dimension_is_zeros():
    """Paddle 3.3.1's CPU bmm leaves the output uninitialised when the inner dimension is 0
    (its golden holds only the shape); ours is the empty sum, zeros."""
    x, y = paddle.ones([2, 3, 0]), paddle.ones([2, 0, 4])
    out = x.bmm(y)
    assert list(out.shape) == [2, 3, 4] and not out._t.any()


def test_vector_to_parameters_keeps_the_parameters():
    lin = paddle.nn.Linear(2, 3)
    w, b = lin.weight, lin.bias
    vec = paddle.arange(9, dtype="float64")
    paddle.nn.utils.vector_to_parameters(vec, lin.parameters())
    assert lin.weight is w and lin.bias is b
    assert w.dtype == paddle.float32 and not w.stop_gradient
    torch.testing.assert_close(w._t, torch.arange(6.0).reshape(2, 3))
    torch.testing.assert_close(b._t, torch.arange(6.0, 9.0))


def test_poisson_rates_and_stream():
    """Means and variances near the rates on both sides of the method switch at 12; the
    stream moves on (a second draw differs) and seeding repeats it."""
    rates = paddle.to_tensor([0.5, 4.0, 11.5, 12.0, 40.0, 900.0], dtype="float64")
    paddle.seed(11)
    draws = paddle.poisson(rates.expand([4000, 6]))._t
    r = rates._t
    torch.testing.assert_close(draws.mean(0), r, rtol=0.08, atol=0.05)
    torch.testing.assert_close(draws.var(0), r, rtol=0.15, atol=0.1)
    paddle.seed(11)
    again = paddle.poisson(rates.expand([4000, 6]))._t
    assert torch.equal(again, draws)
    assert not torch.equal(paddle.poisson(rates.expand([4000, 6]))._t, draws)


def test_random_zero_d_shapes():
    for out in (paddle.standard_normal([]), paddle.rand([]), paddle.randn([]),
                paddle.uniform([]), paddle.randint(0, 5, [])):
        assert out.shape == [] and out._t.dim() == 0
