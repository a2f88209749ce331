"""The remaining top-level, Tensor, autograd and utils names against Paddle 3.3.1
(tools/goldens/record_misc_names.py writes tests/goldens/misc_names.json): the dtypes uint16 /
float8_e4m3fn / float8_e5m2 / pstring / raw (reprs, casts value for value with Paddle's rounding
and saturation, printing compared as text), check_shape, MmapStorage, random.initial_seed,
autograd.Function and saved_tensors_hooks, the static-graph leftovers among the Tensor methods,
paddle.utils' deprecated / require_version / try_import / run_check, and
linalg.fp8_fp8_half_gemm_fused (CUDA-only in Paddle: its golden is the composition of Paddle
CPU ops the kernel computes).

Each golden case carries the code the recorder ran on Paddle; it runs here on paddle_compat.
"""
import contextlib
import io
import json
import math
import os
import re
import sys
import warnings

import numpy as np
import pytest
import torch

import paddle_compat as paddle

HERE = os.path.dirname(__file__)
with open(os.path.join(HERE, "goldens", "misc_names.json")) as _f:
    GOLDEN = json.load(_f)


def _code(section):
    return {k: v["code"] for k, v in GOLDEN[section].items()}


def vals(t):
    return np.asarray(t.numpy()).tolist()


def run(code, env=None):
    scope = {"paddle": paddle, "np": np, "vals": vals, "io": io, "contextlib": contextlib}
    scope.update(env or {})
    try:
        exec(code, scope)
    except Exception as e:  # noqa: BLE001  (comparing with what Paddle raised)
        return {"error": type(e).__name__, "message": str(e).strip().split("\n")[0]}
    return {"value": scope.get("out")}


def same(got, want):
    """Equal as JSON values, NaN equal to NaN, -0.0 distinct from 0.0."""
    if isinstance(want, float) and isinstance(got, (float, int)):
        if math.isnan(want):
            return math.isnan(got)
        return got == want and math.copysign(1, got) == math.copysign(1, want)
    if isinstance(want, list) and isinstance(got, (list, tuple)):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    return got == want


def check(section, case, got, *, message=True):
    want = GOLDEN[section][case]
    if "error" in want:
        assert "error" in got, (case, got, want)
        assert got["error"] == want["error"], (case, got, want)
        if message:
            assert got["message"] == want["message"], (case, got, want)
    else:
        assert "value" in got, (case, got, want)
        assert same(json.loads(json.dumps(got["value"], default=str)), want["value"]), \
            (case, got["value"], want["value"])


# ------------------------------------------------------------------------------ dtypes
# DType.name: Paddle's is the enum member's name ('FLOAT32'); ours is the lower-case Paddle
# name for every dtype (a project-wide difference, not part of these names)
DTYPE_CASES = [k for k in GOLDEN["dtypes"] if not k.endswith("_name")]


@pytest.mark.parametrize("case", DTYPE_CASES)
def test_dtypes(case):
    check("dtypes", case, run(_code("dtypes")[case]))


CAST_ENV = {k: [float(v) for v in vs] for k, vs in GOLDEN["cast_inputs"].items()}


@pytest.mark.parametrize("case", list(GOLDEN["casts"]))
def test_casts(case):
    got = run(_code("casts")[case], CAST_ENV)
    if case.split("_to_")[-1] in ("float8_e4m3fn", "float8_e5m2") and "value" in got \
            and isinstance(got["value"][0], str):
        got["value"][0] = got["value"][0].upper()       # DType.name, see above
    if case == "string_uint16_is_bf16":
        got["value"][1] = got["value"][1].upper()
    check("casts", case, got)


def test_cast_inputs_keep_nan_sign():
    v = CAST_ENV["V"]
    assert math.isnan(v[-1]) and math.copysign(1, v[-1]) == -1
    assert math.isnan(v[-2]) and math.copysign(1, v[-2]) == 1


def test_float8_storage_and_fast_paths():
    x = paddle.to_tensor([500.0, 465.0, -1e9])
    for y in (x.astype("float8_e4m3fn"), paddle.cast(x, "float8_e4m3fn"),
              x.astype(paddle.float8_e4m3fn), x.cast(torch.float8_e4m3fn)):
        assert y._t.dtype is torch.float8_e4m3fn
        assert same(vals(y.astype("float32")), [448.0, float("nan"), -448.0])
    assert paddle.to_tensor([70000.0]).astype(paddle.uint16)._t.dtype is torch.uint16
    assert paddle.to_tensor([1.0]).astype("uint16")._t.dtype is torch.bfloat16


# ------------------------------------------------------------------------------ check_shape
def test_check_shape_dynamic():
    check("check_shape", "dyn_anything", run(_code("check_shape")["dyn_anything"]))


@pytest.mark.parametrize("case", [k for k in GOLDEN["check_shape"] if k != "dyn_anything"])
def test_check_shape_static(case):
    paddle.enable_static()
    try:
        env = {"v": paddle.static.data("v", [2], "int64"),
               "vf": paddle.static.data("vf", [2], "float32"),
               "s": paddle.static.data("s", [], "int32"),
               "sf": paddle.static.data("sf", [], "float32")}
        got = run(_code("check_shape")[case], env)
    finally:
        paddle.disable_static()
    want = GOLDEN["check_shape"][case]
    check("check_shape", case, got, message=False)
    if "error" in want:
        # the expected classes print as Paddle's Variable / pir.Value there, as our Tensor here
        tail = want["message"].split("but received")[1].strip()
        assert got["message"].split("but received")[1].strip() == tail
        assert got["message"].split(" must be ")[0] == want["message"].split(" must be ")[0]


# ------------------------------------------------------------------------------ MmapStorage
@pytest.mark.parametrize("case", list(GOLDEN["mmap"]))
def test_mmap_storage(case, tmp_path):
    path = str(tmp_path / "mm.bin")
    np.arange(20, dtype="float32").tofile(path)
    env = {"path": path}
    if case not in ("too_short", "missing"):
        env["m"] = paddle.MmapStorage(path, 80)
    got = run(_code("mmap")[case], env)
    want = GOLDEN["mmap"][case]
    if "error" in want:             # the messages name the recorder's temporary file
        check("mmap", case, got, message=False)
        def strip(m):
            return re.sub(r"<[^<>]*/(mm\.bin[^<>]*)>", r"<\1>", m)

        assert strip(got["message"]) == strip(want["message"])
    else:
        check("mmap", case, got)


def test_mmap_storage_beyond_mapping(tmp_path):
    # Paddle reads past the mapping there (garbage or a crash): a ValueError here
    path = str(tmp_path / "mm.bin")
    np.arange(4, dtype="float32").tofile(path)
    m = paddle.MmapStorage(path, 16)
    with pytest.raises(ValueError):
        m.get_slice(paddle.float32, 0, 5)
    with pytest.raises(ValueError):
        m.get_slice(paddle.float32, -4, 0)
    assert vals(m.get_slice(paddle.float32, 0, 4)) == [0.0, 1.0, 2.0, 3.0]


# ------------------------------------------------------------------------------ seed
@pytest.mark.parametrize("case", list(GOLDEN["seed"]))
def test_initial_seed(case):
    state = paddle.get_rng_state()
    try:
        check("seed", case, run(_code("seed")[case]))
    finally:
        paddle.set_rng_state(state)


# ------------------------------------------------------------------------------ autograd
@pytest.mark.parametrize("case", list(GOLDEN["autograd"]))
def test_autograd(case):
    got = run(_code("autograd")[case])
    want = GOLDEN["autograd"][case]["value"]
    if case == "hooks":             # values: float32 arithmetic, compare the numbers closely
        assert got["value"][:2] == want[:2]
        np.testing.assert_allclose(got["value"][2:], want[2:], rtol=1e-6)
    elif case == "function_apply":
        np.testing.assert_allclose(got["value"], want, rtol=1e-6)
    else:
        check("autograd", case, got)


def test_saved_tensors_hooks_raw_torch():
    # a PyLayer given raw torch tensors stays in torch; the hooks still see paddle Tensors
    seen = []

    def pack(x):
        seen.append(type(x).__name__)
        return x

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with paddle.autograd.saved_tensors_hooks(pack, lambda x: x):
        y = (a * a).sum()
    y.backward()
    assert seen == ["Tensor", "Tensor"] and a.grad.tolist() == [2.0, 4.0]


# ------------------------------------------------------------------------------ Tensor methods
@pytest.mark.parametrize("case", list(GOLDEN["tensor"]))
def test_tensor_methods(case):
    check("tensor", case, run(_code("tensor")[case]))


def test_grad_fn_nodes():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    z = x * 2
    acc = x.grad_fn
    assert acc is not None and z.grad_fn.next_functions[0] is acc   # Paddle: a list of nodes
    assert acc.name() == "GradNodeAccumulation"
    assert paddle.to_tensor([1.0]).grad_fn is None


def test_string_tensors_not_supported():
    with pytest.raises(NotImplementedError):
        paddle.to_tensor([1.0]).set_string_list(["a"])
    with pytest.raises(NotImplementedError):
        paddle.to_tensor([1.0]).set_vocab({"a": 1})


# ------------------------------------------------------------------------------ utils
UTILS = [k for k in GOLDEN["utils"] if k != "run_check"]


@pytest.mark.parametrize("case", UTILS)
def test_utils(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check("utils", case, run(_code("utils")[case]))


def test_run_check_output():
    if torch.cuda.is_available():
        pytest.skip("the golden is the CPU message")
    check("utils", "run_check", run(_code("utils")["run_check"]))


def test_deprecated_warns_at_caller():
    @paddle.utils.deprecated(since="1.0", level=1)
    def f():
        return 1

    with pytest.warns(UserWarning) as rec:
        f()
    assert rec[0].filename == __file__


# ------------------------------------------------------------------------------ fp8 gemm
@pytest.mark.parametrize("case", list(GOLDEN["fp8_gemm"]))
def test_fp8_gemm(case):
    c = GOLDEN["fp8_gemm"][case]
    x = paddle.to_tensor(c["x"], dtype="float32").astype(c["dtype"])
    y = paddle.to_tensor(c["y"], dtype="float32").astype(c["dtype"])
    bias = None if c["bias"] is None else \
        paddle.to_tensor(c["bias"], dtype="float32").astype(c["output_dtype"])
    out = paddle.linalg.fp8_fp8_half_gemm_fused(
        x, y, transpose_x=c["transpose_x"], transpose_y=c["transpose_y"], bias=bias,
        scale=c["scale"], output_dtype=c["output_dtype"], act=c["act"])
    assert out.dtype == getattr(paddle, c["output_dtype"])
    # float32 sums of float8 products, rounded once to 16 bits: within one output ulp
    ulp = 2.0 ** -10 if c["output_dtype"] == "float16" else 2.0 ** -7
    np.testing.assert_allclose(out.astype("float32").numpy(), np.asarray(c["out"]),
                               rtol=ulp, atol=1e-3)


def test_fp8_gemm_errors():
    x = paddle.ones([2, 2]).astype("float8_e4m3fn")
    with pytest.raises(ValueError):
        paddle.linalg.fp8_fp8_half_gemm_fused(x, x, output_dtype="float32")
    with pytest.raises(TypeError):
        paddle.linalg.fp8_fp8_half_gemm_fused(paddle.ones([2, 2]), x)
    with pytest.raises(ValueError):
        paddle.linalg.fp8_fp8_half_gemm_fused(x, x, act="swish")
    # Paddle's CPU build has no kernel for it at all (recorded); ours runs anywhere
    assert GOLDEN["fp8_gemm_errors"]["cpu"]["error"] == "RuntimeError"
    assert sys.modules["paddle_compat.linalg"].fp8_fp8_half_gemm_fused is \
        paddle.linalg.fp8_fp8_half_gemm_fused
