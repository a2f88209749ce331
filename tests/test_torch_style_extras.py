"""The torch-style names added for issue 22's snippet workload, against goldens recorded from
Paddle 3.3.1 (tools/goldens/record_torch_style_extras.py): ``paddle.nn.init`` (every name it
has; the random initialisers bit for bit with the same ``paddle.seed``), ``nn.functional``'s
``logsigmoid``/``pdist``/``diag_embed``/``multi_label_margin_loss``/``embedding_renorm_``,
``meshgrid(indexing=)``, ``Tensor.ldexp_`` (which casts x in place) and ``Tensor.random_``
(Paddle's CPU stream, bit for bit).

Cases marked ``exact`` compare every value exactly; the others with golden_utils' dtype
tolerances ("deep" for the QR-based ``orthogonal_``).
"""
import json
import os

import pytest

import paddle_compat as paddle
from golden_utils import assert_same, depth_tol, run_case

with open(os.path.join(os.path.dirname(__file__), "goldens", "torch_style_extras.json")) as _f:
    GOLDEN = json.load(_f)

CASES = {c["id"]: c for c in GOLDEN["cases"]}


def _assert_exact(got, want, where):
    """Same structure and every value equal (floats bit for bit through their JSON form)."""
    if isinstance(want, dict) and "values" in want:
        assert isinstance(got, dict) and "values" in got, f"{where}: got {got!r}"
        for k in ("dtype", "shape", "stop_gradient"):
            assert got.get(k) == want.get(k), f"{where}.{k}: got {got.get(k)!r}, " \
                                              f"want {want.get(k)!r}"
        bad = [i for i, (g, w) in enumerate(zip(got["values"], want["values"])) if g != w]
        assert not bad and len(got["values"]) == len(want["values"]), \
            f"{where}: values differ at {bad[:5]}: got {[got['values'][i] for i in bad[:5]]}, " \
            f"want {[want['values'][i] for i in bad[:5]]}"
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: got {got!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_exact(g, w, f"{where}[{i}]")
    else:
        assert got == want, f"{where}: got {got!r}, want {want!r}"


@pytest.mark.parametrize("cid", list(CASES))
def test_case(cid):
    case = CASES[cid]
    got = run_case(case["code"], paddle)
    want = GOLDEN["results"][cid]
    if case["exact"]:
        _assert_exact(got, want, cid)
    else:
        assert_same(got, want, cid, tol=depth_tol("deep" if "orthogonal" in cid else "op"))


def test_init_is_a_module_of_nn():
    import paddle_compat.nn.init as init
    assert paddle.nn.init is init
    assert set(init.__all__) <= set(dir(init))
