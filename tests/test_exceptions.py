"""Bad calls raise what real Paddle 3.3.1 raises (tests/goldens/exceptions.json, written by
tools/goldens/record_exceptions.py): the same built-in exception type (Paddle's C++ error
classes subclass built-in ones, and ``isinstance`` is what user code sees), a message naming the
offending argument where Paddle's does, and no state changed by the failed call (grad mode,
static mode, default dtype, device). A call Paddle accepts must be accepted too.

``KNOWN`` lists the deliberate differences, each with its reason; their test checks that the
difference is still what the entry says (so a fix shows up as a failing entry to delete).
"""
import builtins
import json
import os
import re

import numpy as np
import pytest

import paddle_compat as paddle

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "goldens", "exceptions.json")) as f:
    GOLDEN = json.load(f)
CASES = GOLDEN["cases"]
PRELUDE = GOLDEN["prelude"]

_ACCEPTS = "real Paddle 3.3.1 accepts this invalid call; we refuse it"
_ACCIDENT = ("Paddle's exception is an accident of its implementation (an internal error class "
             "or a missing attribute); we raise the ValueError/TypeError its docs imply")
_TODO = "not matched yet: torch's error passes through (issue 14, class 5, left open)"
_NONAME = ("the type matches; the message is torch's and does not name Paddle's argument "
           "(left open)")

#: id -> (what we do instead, why). "ok": we accept the call; a type name: we raise that;
#: "noname": same type as Paddle, but the message does not name the argument.
KNOWN = {
    # Paddle accepts nonsense
    "argmax_axis_float": ("TypeError", _ACCEPTS + " (a float axis)"),
    "as_strided_neg": ("RuntimeError", _ACCEPTS + " (negative strides; torch has none)"),
    "clip_str": ("TypeError", _ACCEPTS + " (min='a')"),
    "conv2d_kernel_big": ("ValueError", _ACCEPTS + " (a kernel larger than the input)"),
    "pad_bad_len": ("RuntimeError", _ACCEPTS + " (a pad list of odd length)"),
    "pad_len3": ("RuntimeError", _ACCEPTS + " (a pad list of odd length)"),
    "take_along_axis_float": ("ValueError", _ACCEPTS + " (float indices)"),
    "transpose_short": ("ValueError", _ACCEPTS + " (a perm shorter than x.ndim)"),
    # Paddle's exception is an implementation accident
    "cholesky_nonsquare": ("ValueError", _ACCIDENT + " (AssertionError)"),
    "tensor_float_many": ("TypeError", _ACCIDENT + " (AssertionError; Python's float() of a "
                                                   "many-element array is a TypeError)"),
    "outer_int": ("ValueError", _ACCIDENT + " (AttributeError: no .shape)"),
    "reshape_list": ("ValueError", _ACCIDENT + " (AttributeError: no .shape)"),
    "floor_divide_zero_int": ("RuntimeError", _ACCIDENT + " (a bare Exception)"),
    "randperm_negative": ("ValueError", _ACCIDENT + " (RuntimeError: invalid meta data)"),
    "masked_select_shape": ("ValueError", "Paddle raises RuntimeError (PreconditionNotMet) for "
                                          "shapes that do not broadcast; we raise ValueError as "
                                          "for every other broadcast mismatch"),
    "one_hot_float": ("ValueError", "Paddle: RuntimeError (no float kernel); we check the "
                                    "values' range and raise ValueError"),
    "randint_float_dtype": ("TypeError", "Paddle: RuntimeError (no float kernel); we refuse the "
                                         "dtype argument with TypeError"),
    # left open
    "batch_norm_mean_size": ("RuntimeError", _TODO),
    "bce_shape": ("ok", "not matched yet: we broadcast label against input (left open)"),
    "cuda_place_str": ("ValueError", "Paddle: TypeError from its C++ constructor; ours "
                                     "int('a') (left open)"),
    "eye_bad_dtype": ("TypeError", "Paddle: ValueError here, TypeError in zeros(): per-op "
                                   "(left open)"),
    "operator_add_shape": ("RuntimeError", "the C operator slot (framework/_fastops.c) passes "
                                           "torch's RuntimeError through; the Python method "
                                           "raises Paddle's ValueError (left open: a C change)"),
    "pad_reflect_big": ("RuntimeError", _TODO),
    "reshape_str": ("TypeError", "Paddle: ValueError in reshape, TypeError in zeros() for the "
                                 "same bad shape: per-op (left open)"),
    "sum_dtype_bad": ("TypeError", "Paddle: ValueError in sum, TypeError in zeros() for the "
                                   "same bad dtype: per-op (left open)"),
}
for _cid in ("bmm_2d", "bmm_batch", "broadcast_to_bad", "chunk_not_divisible",
             "cross_entropy_label_shape", "cross_shape", "diag_3d", "dot_shape", "expand_bad",
             "expand_fewer_dims", "flatten_start_big", "gather_axis_big", "hstack_empty",
             "index_select_out_of_range", "kthvalue_k_big", "matmul_shape", "matmul_vec_shape",
             "nll_loss_shape", "put_along_axis_rank", "reshape_two_minus_one",
             "solve_shape", "split_axis_big", "take_along_axis_rank",
             "tile_negative", "tril_1d", "triu_1d"):
    KNOWN[_cid] = ("noname", _NONAME)


def names_arg(msg, arg):
    """Whether ``msg`` names ``arg`` as a word, any case (the recorder's rule)."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(arg)}(?![A-Za-z0-9_])", msg,
                     re.IGNORECASE) is not None


def _state():
    return (paddle.is_grad_enabled(), paddle.in_dynamic_mode(), paddle.get_default_dtype(),
            paddle.get_device())


def _same_kind(ours, paddles):
    """Our built-in type is Paddle's or a subclass of it (``except PaddlesType`` catches ours:
    NotImplementedError is a RuntimeError)."""
    return issubclass(getattr(builtins, ours), getattr(builtins, paddles))


def _builtin(e):
    return next(c for c in type(e).__mro__ if c.__module__ == "builtins")


def run(code):
    """(result description, exception or None) of running a case's code on paddle_compat."""
    env = {"paddle": paddle, "np": np}
    exec(PRELUDE, env)
    try:
        exec(code, env)
    except Exception as e:      # noqa: BLE001 - the exception is the result
        return {"type": _builtin(e).__name__}, e
    return {"ok": True}, None


@pytest.fixture
def clean_state():
    before = _state()
    yield before
    # leave no trace for the next case, whatever happened
    paddle.disable_static()
    paddle.set_grad_enabled(before[0])
    paddle.set_default_dtype(before[2])
    paddle.set_device(before[3])


@pytest.mark.parametrize("cid", sorted(set(CASES) - set(KNOWN)))
def test_exception_matches_paddle(cid, clean_state):
    case = CASES[cid]
    got, exc = run(case["code"])
    if "ok" in case:
        assert exc is None, f"{case['code']}: Paddle accepts it; we raise {exc!r}"
        return
    assert exc is not None, f"{case['code']}: Paddle raises {case['type']}; we do not"
    assert _same_kind(got["type"], case["type"]), (
        f"{case['code']}: we raise {type(exc).__name__}: {exc}; Paddle raises {case['class']} "
        f"(a {case['type']}): {case['msg']}")
    if case["arg"] and case["names_arg"]:
        assert names_arg(str(exc), case["arg"]), (
            f"{case['code']}: our message does not name {case['arg']!r}: {exc}")
    assert _state() == clean_state, "the failed call changed global state"


@pytest.mark.parametrize("cid", sorted(KNOWN))
def test_known_difference(cid, clean_state):
    what, reason = KNOWN[cid]
    case = CASES[cid]
    got, exc = run(case["code"])
    if what == "noname":
        assert exc is not None and _same_kind(got["type"], case["type"])
        assert not names_arg(str(exc), case["arg"]), \
            f"KNOWN[{cid!r}]: the message names {case['arg']!r} now; remove the entry"
        return
    assert got == ({"ok": True} if what == "ok" else {"type": what}), (
        f"KNOWN[{cid!r}] no longer holds (we now give {got}); remove the entry. ({reason})")
    if exc is not None:
        assert _state() == clean_state, "the failed call changed global state"


def test_the_table_is_wide():
    kinds = {c["type"] for c in CASES.values() if "type" in c}
    assert len(CASES) >= 150 and {"ValueError", "TypeError", "IndexError"} <= kinds
    assert sum(1 for c in CASES.values() if "ok" not in c) >= 150
