"""The classes of failure the model-zoo drivers (tools/model_zoo, issue 21) found, one test per
class, against goldens of Paddle 3.3.1 (tools/goldens/record_zoo_classes.py).

1. A missing namespace that model files use in dynamic mode: ``paddle.static.amp.fp16_guard``
   (PaddleClas's ResNet/ResNet_vd wrap their forward in it). In dynamic mode it changes nothing:
   values, dtypes and gradients are those of the same code outside the guard.
2. A semantics difference in argument parsing: ``paddle.full`` / ``full_like`` with a string
   ``fill_value`` (PaddleOCR's NRTR: ``fill_value='-inf'`` for its causal mask) raised a torch
   TypeError; now parsed as Paddle does and cast to the dtype as its C++ cast does.
3. Legacy activation names in ``paddle.nn.BatchNorm(act=...)`` (``hard_swish``,
   ``hard_sigmoid`` with the legacy slope 0.2, ``swish``, ``brelu`` ...; PaddleOCR's PP-OCRv3
   backbone) raised ValueError.
4. A missing module: ``paddle.common_ops_import`` (PaddleDetection's ``ppdet/modeling/ops.py``
   imports ``Variable, LayerHelper, check_variable_and_dtype, ...`` from it).
"""
import json
import os

import pytest

import paddle_compat as paddle
from paddle_compat.compat import hook
from golden_utils import assert_same, depth_tol, run_case

GOLDENS = json.load(open(os.path.join(os.path.dirname(__file__), "goldens", "zoo_classes.json")))
CASES = {c["id"]: c for c in GOLDENS["cases"]}


@pytest.mark.parametrize("cid", sorted(CASES))
def test_golden(cid):
    c = CASES[cid]
    # the case imports a paddle module by name: the import hook, for this case only
    hooked = "from paddle." in c["code"] and not hook.is_installed()
    if hooked:
        hook.install()
    try:
        with paddle.utils.unique_name.guard():
            got = run_case(GOLDENS["prelude"] + "\n" + c["code"], paddle)
    finally:
        if hooked:
            hook.uninstall()
    assert_same(got, c["expected"], cid, tol=depth_tol("op"))


def test_fp16_guard_is_a_plain_context_manager():
    """Same results inside and outside the guard, in our own run."""
    x = paddle.to_tensor([[0.5, -1.0], [2.0, 3.0]])
    with paddle.static.amp.fp16_guard():
        inside = paddle.nn.functional.relu(x) * 2
    outside = paddle.nn.functional.relu(x) * 2
    assert inside.dtype == paddle.float32
    assert (inside.numpy() == outside.numpy()).all()


def test_full_string_fill_matches_number_fill():
    """A numeric string gives what the number gives, for every dtype family."""
    for text, num in (("1.5", 1.5), ("-3", -3), ("0", 0)):
        for dt in ("float32", "float64", "int32", "int64", "bool"):
            a = paddle.full([3], text, dtype=dt).numpy()
            b = paddle.full([3], num, dtype=dt).numpy()
            assert a.dtype == b.dtype and (a == b).all(), (text, dt)


def test_common_ops_import_layer_helper_append_op_is_explicitly_unsupported():
    # LayerHelper constructs (ppdet's detectors build one; tests/test_internals.py checks what
    # it makes); appending a raw ProgramDesc operator is what has no counterpart
    import paddle_compat.compat.shims.common_ops_import as m
    helper = m.LayerHelper("conv2d")
    with pytest.raises(NotImplementedError, match="LayerHelper.append_op"):
        helper.append_op(type="conv2d", inputs={}, outputs={})
