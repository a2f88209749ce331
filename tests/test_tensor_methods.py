"""The Tensor methods and attributes Paddle 3 added under torch's names (``device``,
``requires_grad``, ``stride``, ``new_full``, ``permute``, ``clamp``, ``eq``, ``div``,
``scatter_reduce``, ``copy_`` ...), and the dtype conversions (``x.float()`` ...
``x.complex128()``), against goldens recorded from Paddle 3.3.1
(tools/goldens/record_tensor_methods.py; the case format is that of test_ops_nn2.py).

Attributes are recorded as small expressions returning Python values; in-place methods as
``(x.m_(...) is x, x)``. Where Paddle's CPU build has no kernel for a dtype we may compute the
result or raise RuntimeError, as in test_ops_math.
"""

import op_goldens as og
from test_ops_nn2 import GRAD_TOLERANCE, TOLERANCE

CASES = og.load_cases("tensor_methods.json")
TOL = {**TOLERANCE, "complex64": TOLERANCE["float32"], "complex128": TOLERANCE["float64"]}

# Case ids where we knowingly differ from Paddle 3.3.1: id -> (what we still check, reason).
# "forward": results are compared, gradients are not; "skip": nothing is compared here.
_TA = "paddle.Tensor."
KNOWN = {
    _TA + "permute[x.permute(0, 1)]": (
        "skip", "the docs require one dim per axis; Paddle 3.3.1 takes the two ints for torch's "
                "transpose(dim0, dim1) and returns a tensor of x's shape in another order; we "
                "raise ValueError"),
    _TA + "scatter_add[x.scatter_add(1, j, s)]": (
        "forward", "src larger than index: Paddle 3.3.1's gradient for src has index's shape, "
                   "not src's; ours has src's shape (zeros where src is not read)"),
    _TA + "scatter_add[x.scatter_add(0, k, s)]": ("forward", "as scatter_add(1, j, s)"),
    _TA + "random_[seeded]": (
        "skip", "Paddle 3.3.1's random_ kernel draws from its own stream; ours draws through "
                "randint's engine: the same distribution, other values (the unseeded cases "
                "check dtype, range and identity)"),
    _TA + "inplace_version[after scale_]": (
        "skip", "ours counts torch's in-place kernels: our scale_ runs two (mul_, add_) where "
                "Paddle's runs one; single-kernel in-place ops count as in Paddle (after add_)"),
}


def run_case(case, grads=True):
    og.run_case(case, og.make_env(case), case.get("tol", TOL), GRAD_TOLERANCE, grads,
                allow_missing_kernel=True)


_REPLAY = [c for c in CASES if c["id"] not in KNOWN]


def test_case_ids_name_the_tensor_method():
    assert len(CASES) > 500
    assert all(c["id"].startswith(_TA + c["api"][len(_TA):] + "[") for c in CASES)


@og.each_case(_REPLAY)
def test_golden(case):
    run_case(case)


test_known_difference = og.known_difference_test(KNOWN, CASES, run_case)
