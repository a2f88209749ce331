"""Record Paddle 3.3.1's behaviour for the remaining top-level, Tensor and utils names, as
goldens for tests/test_misc_names.py: the dtypes uint16 / float8_e4m3fn / float8_e5m2 /
pstring / raw (reprs, casts with Paddle's rounding and saturation, printing), check_shape,
MmapStorage, random.initial_seed, autograd.Function and saved_tensors_hooks, the Tensor
leftovers of the static graph (grad_, reconstruct_from_, set_tensor, ...), paddle.utils'
deprecated / require_version / try_import / run_check, and fp8_fp8_half_gemm_fused (a CUDA
kernel in Paddle: recorded as the composition of Paddle CPU ops it computes).

    /work/paddle_venv/bin/python tools/goldens/record_misc_names.py

Writes tests/goldens/misc_names.json: {section: {case: result}}, a result being
{"code": the case's code, "value": ...} or {"code": ..., "error": type name, "message": first
line}; the tests run the same code on paddle_compat.
"""
import contextlib
import io
import json
import os
import tempfile
import warnings

import numpy as np
import paddle

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens", "misc_names.json")
G = {"paddle": paddle, "np": np}


def first_line(e):
    return str(e).strip().split("\n")[0].split(" (at /paddle")[0]


KEEP = []   # Paddle 3.3.1 aborts when a tensor sliced from an MmapStorage is freed: keep all


def run(code, env=None):
    """exec ``code``; the value of ``out`` or the exception raised."""
    scope = dict(G, **(env or {}))
    KEEP.append(scope)
    try:
        exec(code, scope)
    except Exception as e:  # noqa: BLE001  (recording what Paddle raises)
        return {"code": code, "error": type(e).__name__, "message": first_line(e)}
    return {"code": code, "value": scope.get("out")}


def encode(v):
    """A float for JSON with NaN's sign kept ('nan' / '-nan'; the tests decode with float())."""
    return ("-nan" if np.signbit(v) else "nan") if v != v else v


def vals(t):
    """A tensor's values as JSON (NaN/inf kept: json writes them)."""
    return np.asarray(t.numpy()).tolist()


G["vals"] = vals

CAST_VALUES = [0.0, -0.0, 1.0, 2.5, -3.25, 0.1, 0.3, 0.0137, 1e-5, 2.0 ** -10, 1.5 * 2.0 ** -10,
               300.0, 449.0, 463.0, 464.0, 465.0, 470.0, 479.0, 480.0, 500.0, -470.0, -1e9,
               57344.0, 61439.0, 61440.0, 65504.0, 1e5, float("inf"), float("-inf"),
               float("nan"), -float("nan")]
INT_VALUES = [0, 3, -7, 17, 300, 1000, -100000, 70000]
U16_FLOATS = [0.0, 1.5, 3.9, -3.5, 65535.0, 65536.0, 70000.7, 1e6, -1.0, float("nan")]

DTYPES = {
    f"{n}_{k}": f"out = {e}"
    for n in ["uint16", "float8_e4m3fn", "float8_e5m2", "pstring", "raw", "bfloat16"]
    for k, e in [("repr", f"repr(paddle.{n})"), ("str", f"str(paddle.{n})"),
                 ("name", f"paddle.{n}.name")]
}
DTYPES.update({
    "uint16_is_not_bf16": "out = [paddle.uint16 == paddle.bfloat16, "
                          "paddle.uint16 == paddle.uint16, paddle.float8_e4m3fn == paddle.float8_e5m2]",
    "finfo_e4m3fn": "out = repr(paddle.finfo(paddle.float8_e4m3fn))",
    "finfo_e5m2": "out = repr(paddle.finfo(paddle.float8_e5m2))",
    "iinfo_uint16": "out = repr(paddle.iinfo(paddle.uint16))",
    "pstring_to_tensor": "paddle.to_tensor([1.0], dtype=paddle.pstring)",
    "raw_to_tensor": "paddle.to_tensor([1.0], dtype=paddle.raw)",
})

CASTS = {}
for src in ["float32", "float64", "float16"]:
    for d in ["float8_e4m3fn", "float8_e5m2"]:
        CASTS[f"{src}_to_{d}"] = (
            f"x = paddle.to_tensor(V, dtype='float32').astype('{src}')\n"
            f"y = x.astype('{d}')\nout = [y.dtype.name, vals(y.astype('float32'))]")
        CASTS[f"{src}_cast_{d}"] = (
            f"x = paddle.to_tensor(V, dtype='float32').astype('{src}')\n"
            f"y = paddle.cast(x, paddle.{d})\nout = vals(y.astype('float64'))")
for d in ["float8_e4m3fn", "float8_e5m2"]:
    CASTS[f"int32_to_{d}"] = (f"y = paddle.to_tensor({INT_VALUES!r}, dtype='int32').astype('{d}')\n"
                              "out = [vals(y.astype('float32')), vals(y.astype('int64')), "
                              "vals(y.astype('bool'))]")
    CASTS[f"{d}_print"] = (f"y = paddle.to_tensor([[0.1, 3.3, -500.0], [1e-3, 7.0, 0.0]])"
                           f".astype('{d}')\nout = [str(y), str(y.dtype), y.shape]")
    CASTS[f"{d}_zeros"] = f"out = str(paddle.zeros([2, 3], dtype='{d}'))"
    CASTS[f"{d}_full"] = f"out = str(paddle.full([2], 1.7, dtype=paddle.{d}))"
    CASTS[f"{d}_numpy"] = (f"a = paddle.to_tensor([0.5, 3.0, -448.0]).astype('{d}').numpy()\n"
                           "out = [a.tolist(), str(a.dtype)]")
    CASTS[f"{d}_to_{d}"] = (f"y = paddle.to_tensor([0.1, 3.3]).astype('{d}')\n"
                            f"out = vals(y.astype('{d}').astype('float32'))")
CASTS["e4m3fn_to_e5m2"] = ("y = paddle.to_tensor([0.1, 3.3, 448.0, -0.0137]).astype('float8_e4m3fn')\n"
                           "out = vals(y.astype('float8_e5m2').astype('float32'))")
CASTS["e5m2_to_e4m3fn"] = ("y = paddle.to_tensor([0.1, 3.5, 57344.0, 480.0, float('nan')])"
                           ".astype('float8_e5m2')\n"
                           "out = vals(y.astype('float8_e4m3fn').astype('float32'))")
CASTS.update({
    "uint16_from_float32": "y = paddle.to_tensor(U).astype(paddle.uint16)\n"
                           "out = [vals(y), str(y), str(y.dtype)]",
    "uint16_from_float64": "y = paddle.cast(paddle.to_tensor(U, dtype='float64'), "
                           "paddle.uint16)\nout = vals(y)",
    "uint16_from_int64": f"y = paddle.to_tensor({INT_VALUES!r}).astype(paddle.uint16)\n"
                         "out = vals(y)",
    "uint16_to_others": "y = paddle.to_tensor([65535, 3, 0], dtype='int32').astype(paddle.uint16)\n"
                        "out = [vals(y.astype('int64')), vals(y.astype('float32')), "
                        "vals(y.astype('bfloat16').astype('float32')), str(y.astype('bfloat16'))]",
    "uint16_print_2d": "out = str(paddle.to_tensor([[65535, 3]], dtype='int32').astype(paddle.uint16))",
    "uint16_to_tensor": "y = paddle.to_tensor([1.5, 2, 3], dtype=paddle.uint16)\n"
                        "out = [str(y), vals(y)]",
    "uint16_to_tensor_wrap": "out = vals(paddle.to_tensor([70000, -1], dtype=paddle.uint16))",
    "string_uint16_is_bf16": "y = paddle.to_tensor([1.0, 2.5, 70000.0]).astype('uint16')\n"
                             "out = [str(y), y.dtype.name]",
    "to_tensor_string_uint16": "out = str(paddle.to_tensor([1, 2, 3], dtype='uint16'))",
    "full_e4m3fn_465": "out = vals(paddle.full([2], 465.0, dtype='float8_e4m3fn')"
                       ".astype('float32'))",
    "full_e4m3fn_500": "out = vals(paddle.full([2], -500.0, dtype=paddle.float8_e4m3fn)"
                       ".astype('float32'))",
    "full_e5m2_1e5": "out = vals(paddle.full([2], 1e5, dtype='float8_e5m2').astype('float32'))",
    "to_tensor_tensor_e4m3fn": "x = paddle.to_tensor([0.1, 465.0, 1e9])\n"
                               "out = vals(paddle.to_tensor(x, dtype='float8_e4m3fn')"
                               ".astype('float32'))",
    "to_tensor_list_e4m3fn": "paddle.to_tensor([0.1, 465.0], dtype='float8_e4m3fn')",
    "to_tensor_numpy_e5m2": "paddle.to_tensor(np.array([0.1], 'float32'), dtype=paddle.float8_e5m2)",
    "to_tensor_numpy_uint16": "out = vals(paddle.to_tensor(np.array([3.7, -2.0, 70000.0]), "
                              "dtype=paddle.uint16))",
    "astype_pstring": "paddle.to_tensor([1.0]).astype(paddle.pstring)",
    "astype_raw": "paddle.to_tensor([1.0]).astype(paddle.raw)",
})

CHECK_SHAPE = {
    "dyn_anything": "out = [paddle.check_shape(s, 'reshape') for s in ([2, 3], (2, 'a'), 5, [2.5])]",
    "static_ok": "out = [paddle.check_shape([2, 3], 'reshape'), paddle.check_shape(v, 'reshape'), "
                 "paddle.check_shape([s, 3], 'reshape'), paddle.check_shape([True, 3], 'reshape')]",
    "static_str": "paddle.check_shape((2, 'a'), 'reshape')",
    "static_float": "paddle.check_shape([2.5, 3], 'reshape')",
    "static_int": "paddle.check_shape(5, 'reshape')",
    "static_npint": "paddle.check_shape([2, np.int64(3)], 'reshape')",
    "static_ndarray": "paddle.check_shape(np.array([2, 3]), 'reshape')",
    "static_fvar": "paddle.check_shape(vf, 'reshape')",
    "static_felem": "paddle.check_shape([sf, 3], 'reshape')",
    "static_tuple_only": "paddle.check_shape([2, 3], 'reshape', expected_shape_type=tuple)",
    "static_float_ok": "out = paddle.check_shape([2, 3.0], 'reshape', "
                       "expected_element_type=(int, float))",
    "static_no_dtype": "out = paddle.check_shape(vf, 'reshape', expected_tensor_dtype=None)",
}

MMAP = {
    "slice0": "out = vals(m.get_slice(paddle.float32, 0, 5))",
    "slice_reshape": "out = str(m.get_slice(dtype=paddle.float32, start=0, stop=20).reshape([4, 5]))",
    "byte_offset": "out = vals(m.get_slice(paddle.float32, 4, 8, 1))",
    "byte_offset2": "out = vals(m.get_slice(paddle.float32, 8, 10))",
    "step_is_count": "out = vals(m.get_slice(paddle.float32, 0, 8, 2))",
    "int32": "out = vals(m.get_slice(dtype=paddle.int32, start=0, stop=2))",
    "int64_at_8": "out = vals(m.get_slice(paddle.int64, 8, 10))",
    "uint8": "out = vals(m.get_slice(paddle.uint8, 4, 8))",
    "bfloat16": "out = vals(m.get_slice(paddle.bfloat16, 0, 4))",
    "float64": "out = vals(m.get_slice('float64', 0, 10))",
    "empty": "out = [m.get_slice(paddle.float32, 5, 5).shape, m.get_slice(paddle.float32, 5, 2).shape]",
    "copy_on_write": "x = m.get_slice(paddle.float32, 0, 4)\nx[0] = 100.0\n"
                     "out = [vals(m.get_slice(paddle.float32, 0, 4)), "
                     "np.fromfile(path, dtype='float32')[:4].tolist(), x.stop_gradient, str(x.place)]",
    "too_short": "paddle.MmapStorage(path, 100)",
    "missing": "paddle.MmapStorage(path + '.missing', 8)",
}

SEED = {
    "after_seed": "paddle.seed(123)\npaddle.rand([3])\nout = paddle.random.initial_seed()",
    "big_seed": "paddle.seed(2 ** 63 + 5)\nout = paddle.random.initial_seed()",
    "type": "out = type(paddle.random.initial_seed()).__name__",
}

AUTOGRAD = {
    "function_is_pylayer": "out = paddle.autograd.Function is paddle.autograd.PyLayer",
    "function_apply": """
class F(paddle.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensor()
        return 2 * g * x
a = paddle.to_tensor([1.0, -2.0, 3.0], stop_gradient=False)
y = F.apply(a)
y.sum().backward()
out = [vals(y), vals(a.grad)]
""",
    "hooks": """
log = []
def pack(x):
    log.append(['pack', list(x.shape), str(x.dtype), type(x).__name__])
    return x.numpy()
def unpack(v):
    log.append(['unpack', list(v.shape)])
    return paddle.to_tensor(v)
class T(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        y = paddle.tanh(a)
        ctx.save_for_backward(y, b)
        return y * b
    @staticmethod
    def backward(ctx, dy):
        y, b = ctx.saved_tensor()
        log.append(['backward', type(y).__name__])
        return dy * (1 - paddle.square(y)) * b, dy * y
a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
b = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
with paddle.autograd.saved_tensors_hooks(pack, unpack):
    z = T.apply(a, b)
    w = (a * b).sum()
    t = paddle.tanh(a)
n_packed = len(log)
z.sum().backward()
w.backward()
t.sum().backward()
out = [log, n_packed, vals(a.grad), vals(b.grad)]
""",
    "hooks_change_values": """
a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
b = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
with paddle.autograd.saved_tensors_hooks(lambda x: x, lambda x: x * 0 + 1):
    z = (a * b).sum()
z.backward()
out = [vals(a.grad), vals(b.grad)]
""",
}

TENSOR = {
    "grad_before": "x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)\nout = x.grad_",
    "grad_after": "x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)\n"
                  "(x * x).sum().backward()\nout = [vals(x.grad_), x.grad_.stop_gradient]",
    "grad_set": "x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)\n"
                "x.grad_ = paddle.to_tensor([9.0, 9.0, 9.0])\nout = vals(x.grad)",
    "grad_fn_names": "x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)\n"
                     "z = x * 2\nout = [x.grad_fn is not None, z.grad_fn is not None]",
    "reconstruct": "a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)\n"
                   "b = paddle.to_tensor([[7, 8]], dtype='int32')\nname = a.name\n"
                   "r = a.reconstruct_from_(b)\nout = [r, str(a), a.name == name]",
    "reconstruct_shares": "a = paddle.to_tensor([1.0, 2.0, 3.0])\nb = paddle.to_tensor([4.0, 5.0])\n"
                          "a.reconstruct_from_(b)\nb[0] = 100.0\nb.stop_gradient = False\n"
                          "out = [vals(a), a.stop_gradient]",
    "reconstruct_list": "paddle.to_tensor([1.0]).reconstruct_from_([1.0])",
    "is_dist": "out = paddle.to_tensor([1.0]).is_dist()",
    "is_selected_rows": "out = paddle.to_tensor([1.0]).is_selected_rows()",
    "get_selected_rows": "out = paddle.to_tensor([1.0]).get_selected_rows()",
    "get_map_tensor": "paddle.to_tensor([1.0]).get_map_tensor()",
    "set_tensor": "s = paddle.to_tensor([1.0, 2.0])\nv = paddle.to_tensor([7.0, 8.0, 9.0])\n"
                  "r = s.set_tensor(v)\nv[0] = 100.0\nout = [r, str(s)]",
    "set_tensor_dtype": "a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)\n"
                        "a.set_tensor(paddle.to_tensor([5, 6], dtype='int32'))\nout = str(a)",
    "set_tensor_int": "out = paddle.to_tensor([1.0, 2.0]).set_tensor(3)",
    "set_vocab_list": "paddle.to_tensor([1.0]).set_vocab([1])",
    "set_string_list_str": "paddle.to_tensor([1.0]).set_string_list('ab')",
}

UTILS = {
    "require_ok": "out = [paddle.utils.require_version('2.0'), "
                  "paddle.utils.require_version('3.3.1', '3.3.1'), "
                  "paddle.utils.require_version('0.0.0'), paddle.utils.require_version('1', '4')]",
    "require_higher": "paddle.utils.require_version('4.0')",
    "require_range": "paddle.utils.require_version('2.0', '3.0')",
    "require_range2": "paddle.utils.require_version('3.3', '3.3.0')",
    "require_4parts": "paddle.utils.require_version('3.3.1.5')",
    "require_type": "paddle.utils.require_version(2.0)",
    "require_max_type": "paddle.utils.require_version('1.0', 2)",
    "require_format": "paddle.utils.require_version('2.a')",
    "require_format5": "paddle.utils.require_version('1.2.3.4.5')",
    "require_max_format": "paddle.utils.require_version('1.0', '3.x')",
    "try_import_ok": "out = [paddle.utils.try_import('json').__name__, "
                     "paddle.utils.try_import('os.path').__name__]",
    "try_import_missing": "paddle.utils.try_import('nonexistent_mod_xyz.sub')",
    "try_import_msg": "paddle.utils.try_import('nonexistent_mod_xyz', 'custom msg')",
    "try_import_cv2_name": "paddle.utils.try_import('cv2_nonexistent_xyz')",
    "deprecated": """
import warnings
@paddle.utils.deprecated(update_to="paddle.foo", since="2.0", reason="use foo")
def old(x):
    '''Doc of old.'''
    return x + 1
@paddle.utils.deprecated()
def old3():
    '''d3'''
    return 3
@paddle.utils.deprecated(since="2.0", reason="r", level=1)
def old1():
    return 1
@paddle.utils.deprecated(since="99.0", level=1)
def future():
    return 4
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    r = [old(1), old3(), old1(), future()]
out = [r, old.__doc__, old.__name__, old3.__doc__, old1.__doc__,
       [[str(m.message), m.category.__name__, issubclass(m.category, UserWarning)] for m in w]]
""",
    "deprecated_level2": """
@paddle.utils.deprecated(since="2.0", level=2)
def gone():
    return 1
gone()
""",
    "deprecated_bad_update": """
@paddle.utils.deprecated(update_to="torch.foo")
def f():
    '''d'''
""",
    "deprecated_bad_level": """
@paddle.utils.deprecated(level=3)
def f():
    '''d'''
""",
    "run_check": "buf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n"
                 "    paddle.utils.run_check()\nout = buf.getvalue()",
}

FP8_GEMM = {}
for name, (xs, ys, tx, ty, bias, scale, odt, act) in {
    "plain": ([3, 4], [4, 5], False, False, False, 1.0, "float16", "identity"),
    "trans_y": ([3, 4], [5, 4], False, True, False, 0.5, "float16", "identity"),
    "trans_x_bias": ([4, 3], [4, 5], True, False, True, 2.0, "float16", "relu"),
    "bf16_gelu": ([2, 3, 8], [2, 8, 6], False, False, True, 0.25, "bfloat16", "gelu"),
    "e5m2": ([3, 8], [6, 8], False, True, False, 1.5, "bfloat16", "identity"),
}.items():
    d = "float8_e5m2" if name == "e5m2" else "float8_e4m3fn"
    n_out = ys[-2] if ty else ys[-1]
    FP8_GEMM[name] = {
        "x_shape": xs, "y_shape": ys, "transpose_x": tx, "transpose_y": ty, "bias": bias,
        "scale": scale, "output_dtype": odt, "act": act, "dtype": d, "n_out": n_out}


def fp8_reference(case, rng):
    """Inputs and Paddle's result composed from its CPU ops: float8 values (exact in float32),
    float32 matmul, scale, bias, activation, rounded once to the output dtype."""
    x = rng.uniform(-3, 3, case["x_shape"]).astype("float32")
    y = rng.uniform(-3, 3, case["y_shape"]).astype("float32")
    xq = paddle.to_tensor(x).astype(case["dtype"]).astype("float32")
    yq = paddle.to_tensor(y).astype(case["dtype"]).astype("float32")
    b = rng.uniform(-1, 1, [case["n_out"]]).astype("float32") if case["bias"] else None
    out = paddle.matmul(xq, yq, transpose_x=case["transpose_x"],
                        transpose_y=case["transpose_y"]) * case["scale"]
    if b is not None:
        # Paddle requires a float16 (bfloat16 for bf16 output) bias: round it first
        b = paddle.to_tensor(b).astype(case["output_dtype"]).astype("float32").numpy()
        out = out + paddle.to_tensor(b)
    out = {"identity": lambda t: t, "relu": paddle.nn.functional.relu,
           "gelu": paddle.nn.functional.gelu}[case["act"]](out)
    out = out.astype(case["output_dtype"]).astype("float32")
    return {"x": x.tolist(), "y": y.tolist(), "bias": None if b is None else b.tolist(),
            "out": vals(out)}


def main():
    paddle.set_device("cpu")
    G["io"], G["contextlib"] = io, contextlib
    result = {}
    result["dtypes"] = {k: run(c) for k, c in DTYPES.items()}
    result["casts"] = {k: run(c, {"V": CAST_VALUES, "U": U16_FLOATS}) for k, c in CASTS.items()}
    result["cast_inputs"] = {"V": [encode(v) for v in CAST_VALUES],
                             "U": [encode(v) for v in U16_FLOATS]}
    result["tensor"] = {k: run(c) for k, c in TENSOR.items()}
    result["autograd"] = {k: run(c) for k, c in AUTOGRAD.items()}
    result["seed"] = {k: run(c) for k, c in SEED.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result["utils"] = {k: run(c) for k, c in UTILS.items()}
    tmp = tempfile.mkdtemp()
    if True:
        path = os.path.join(tmp, "mm.bin")
        result["mmap"] = {}
        for k, c in MMAP.items():
            np.arange(20, dtype="float32").tofile(path)
            env = {"path": path}
            if k not in ("too_short", "missing"):
                env["m"] = paddle.MmapStorage(path, 80)
            result["mmap"][k] = run(c, env)
    result["check_shape"] = {"dyn_anything": run(CHECK_SHAPE["dyn_anything"])}
    paddle.enable_static()
    env = {"v": paddle.static.data("v", [2], "int64"),
           "vf": paddle.static.data("vf", [2], "float32"),
           "s": paddle.static.data("s", [], "int32"),
           "sf": paddle.static.data("sf", [], "float32")}
    for k, c in CHECK_SHAPE.items():
        if k != "dyn_anything":
            result["check_shape"][k] = run(c, env)
    paddle.disable_static()
    rng = np.random.default_rng(7)
    result["fp8_gemm"] = {k: dict(case, **fp8_reference(case, rng))
                          for k, case in FP8_GEMM.items()}
    result["fp8_gemm_errors"] = {
        "cpu": run("x = paddle.ones([2, 2]).astype('float8_e4m3fn')\n"
                   "paddle.linalg.fp8_fp8_half_gemm_fused(x, x)"),
    }
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1, default=str)
    print("wrote", OUT)
    os._exit(0)     # skip freeing the MmapStorage slices (see KEEP)


if __name__ == "__main__":
    main()
