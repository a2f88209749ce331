"""Tensor printing against goldens recorded from Paddle 3.3.1 (tools/goldens/record_printing.py)."""
import hashlib
import json
import os

import numpy as np
import pytest
import torch

from paddle_compat.framework import printing
from paddle_compat.framework.printing import format_tensor, set_printoptions

GOLDENS = os.path.join(os.path.dirname(__file__), "goldens", "printing.json")
with open(GOLDENS) as _f:
    CASES = json.load(_f)

TORCH_DTYPES = {
    "bool": torch.bool, "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16,
    "int32": torch.int32, "int64": torch.int64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
    "complex64": torch.complex64, "complex128": torch.complex128,
}
DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)


@pytest.fixture(autouse=True)
def default_printoptions():
    """Every test starts and ends with Paddle's default print options."""
    set_printoptions(**DEFAULTS)
    yield
    set_printoptions(**DEFAULTS)


def recipe_values(recipe, dtype, n):
    """Same formula as tools/goldens/record_printing.py."""
    i = np.arange(n, dtype=np.int64)

    def part(r):
        return ((i * r["mult"] + r["add"]) % r["mod"] + r["offset"]).astype(np.float64) * r["scale"]

    if dtype in ("complex64", "complex128"):
        v = part(recipe["re"]) + 1j * part(recipe["im"])
    else:
        v = part(recipe)
        if dtype == "bool":
            v = v != 0
        elif dtype not in ("float16", "bfloat16", "float32", "float64"):
            v = v.astype(np.int64)
    for idx, val in recipe.get("overrides", []):
        v[idx] = complex(*val) if isinstance(val, list) else val
    return v


def build(case):
    """The torch tensor holding exactly the values Paddle printed."""
    dtype = case["dtype"]
    if "recipe" in case:
        flat = recipe_values(case["recipe"], dtype, int(np.prod(case["shape"])))
    elif dtype.startswith("complex"):
        flat = np.array([complex(re, im) for re, im in case["values"]], dtype=np.complex128)
    else:
        flat = np.array(case["values"], dtype={"bool": bool}.get(dtype, np.float64)
                        if dtype.startswith(("float", "bfloat", "bool")) else np.int64)
    t = torch.from_numpy(np.ascontiguousarray(flat)).to(TORCH_DTYPES[dtype])
    return t.reshape(case["shape"])


def canonical_bytes(t):
    """Same as record_printing.canonical_bytes: values as float64/complex128 (one NaN) or int64/bool."""
    if t.dtype.is_floating_point or t.dtype.is_complex:
        f = t.to(torch.complex128 if t.dtype.is_complex else torch.float64).contiguous()
        f = torch.view_as_real(f) if t.dtype.is_complex else f
        f = f.numpy().copy()
        f[np.isnan(f)] = np.nan
        return f.tobytes()
    return t.contiguous().numpy().astype(bool if t.dtype == torch.bool else np.int64).tobytes()


def test_enough_cases():
    assert len(CASES) >= 100


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_paddle(case):
    t = build(case)
    assert hashlib.sha256(canonical_bytes(t)).hexdigest() == case["sha256"], "rebuild differs"
    set_printoptions(**case["options"])
    got = format_tensor(t, case["dtype"], "Place(cpu)", case["stop_gradient"])
    assert got == case["text"]


def _case(name):
    return next(c for c in CASES if c["name"] == name)


def test_requires_grad_and_views():
    """A tensor that requires grad, or a non-contiguous view, prints its values the same."""
    c = _case("float32-2d-random")
    t = build(c).requires_grad_()
    assert format_tensor(t * 1, "float32", "Place(cpu)", True) == c["text"]
    tt = build(c).t().contiguous().t()
    assert not tt.is_contiguous()
    assert format_tensor(tt, "float32", "Place(cpu)", True) == c["text"]


def test_place_only_changes_header():
    c = _case("float32-2d-50x40")
    got = format_tensor(build(c), "float32", "Place(gpu:0)", True)
    assert got == c["text"].replace("place=Place(cpu)", "place=Place(gpu:0)", 1)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
@pytest.mark.parametrize("name", ["float32-4d-5x6x7x8", "bfloat16-2d-32x33", "complex64-1d-1500",
                                  "float32-specials", "int64-extremes", "bool-2d-40x30"])
def test_cuda(name):
    c = _case(name)
    got = format_tensor(build(c).cuda(), c["dtype"], "Place(gpu:0)", c["stop_gradient"])
    assert got == c["text"].replace("place=Place(cpu)", "place=Place(gpu:0)", 1)


def test_huge_tensor_only_edges_converted(monkeypatch):
    """Summarising a big tensor converts only the edges to Python."""
    seen = []
    real = printing._to_python
    monkeypatch.setattr(printing, "_to_python", lambda x: seen.append(x.numel()) or real(x))
    t = torch.arange(4_000_000, dtype=torch.float32).reshape(2000, 2000)
    text = format_tensor(t, "float32", "Place(cpu)", True)
    assert seen == [36]
    assert text.endswith("[3998000., 3998001., 3998002., ..., 3999997., 3999998., 3999999.]])")


def test_set_printoptions_partial_and_restore():
    assert printing.options.as_dict() == DEFAULTS
    set_printoptions(precision=2)
    assert printing.options.as_dict() == dict(DEFAULTS, precision=2)
    set_printoptions(sci_mode=True, linewidth=40)
    assert printing.options.as_dict() == dict(DEFAULTS, precision=2, sci_mode=True, linewidth=40)
    set_printoptions()  # all None: nothing changes
    assert printing.options.as_dict() == dict(DEFAULTS, precision=2, sci_mode=True, linewidth=40)
    set_printoptions(**DEFAULTS)
    assert printing.options.as_dict() == DEFAULTS
    c = _case("float32-1d-30")
    assert format_tensor(build(c), "float32", "Place(cpu)", True) == c["text"]


def test_options_take_effect_then_restore():
    c = _case("float64-precision-2")
    t = build(c)
    set_printoptions(precision=2)
    assert format_tensor(t, "float64", "Place(cpu)", True) == c["text"]
    set_printoptions(precision=8)
    assert format_tensor(t, "float64", "Place(cpu)", True) != c["text"]


@pytest.mark.parametrize("kwargs", [dict(precision=2.5), dict(threshold="10"),
                                    dict(linewidth=3.0), dict(sci_mode="yes"), dict(sci_mode=[1])])
def test_set_printoptions_rejects_bad_types(kwargs):
    with pytest.raises(RuntimeError, match="Unable to cast"):
        set_printoptions(**kwargs)
    assert printing.options.as_dict() == DEFAULTS


def test_set_printoptions_accepts_numpy_ints_and_truthy_sci_mode():
    set_printoptions(precision=np.int64(3), sci_mode=1)
    assert printing.options.precision == 3 and printing.options.sci_mode == 1
    t = torch.tensor([1.5], dtype=torch.float64)
    assert format_tensor(t, "float64", "Place(cpu)", True).endswith("[1.500e+00])")


def test_negative_precision_fails_at_print_time():
    set_printoptions(precision=-1)
    with pytest.raises(ValueError):
        format_tensor(torch.tensor([1.5]), "float32", "Place(cpu)", True)
