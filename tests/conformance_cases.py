"""Conformance cases of issue 31: places as classes, functions to ``inspect``, the default dtype
of layer parameters, PIR/prim switches, loss keywords, hooks and the module names Paddle's test
suites import. Each case is code run with ``paddle`` imported (real Paddle 3.3.1 when
tools/goldens/record_conformance.py records tests/goldens/conformance.json, paddle_compat under
its import hook when tests/test_conformance.py runs this file as a script); it leaves plain
data in ``out``, or raises.

    python tests/conformance_cases.py OUT.json      # run every case, write the results
"""
import json
import sys

CASES = {
    # ------------------------------------------------------------------ places
    "place.classes": """
P = paddle.base.core.Place
out = [isinstance(paddle.CPUPlace(), paddle.CPUPlace), isinstance(paddle.CPUPlace(), P),
       [issubclass(c, P) for c in (paddle.CPUPlace, paddle.CUDAPlace, paddle.CUDAPinnedPlace,
                                   paddle.XPUPlace, paddle.CustomPlace, paddle.IPUPlace)],
       [inspect.isclass(c) for c in (paddle.CPUPlace, paddle.CUDAPlace, paddle.XPUPlace)],
       paddle.framework.core.Place is P]
""",
    "place.repr": """
out = [repr(paddle.CPUPlace()), str(paddle.CPUPlace()), repr(paddle.base.core.Place()),
       type(paddle.CPUPlace()).__name__]
""",
    "place.of_tensor": """
p = paddle.ones([2]).place
q = paddle.CPUPlace()
out = [type(p).__name__, isinstance(p, paddle.CPUPlace), isinstance(p, paddle.base.core.Place),
       p == q, q == p, p._equals(q), q._equals(p), hash(p) == hash(q), p.is_cpu_place(),
       p.is_gpu_place(), p.is_cuda_pinned_place(), p.is_xpu_place(), p.is_custom_place(),
       p.is_ipu_place(), p.gpu_device_id(), p._type(), q._type()]
""",
    "place.undefined_and_set_place": """
p = paddle.base.core.Place()
out = [repr(p), p.is_cpu_place(), p._type(), p == paddle.CPUPlace()]
p.set_place(paddle.CPUPlace())
out += [repr(p), p.is_cpu_place(), p == paddle.CPUPlace(), p._equals(paddle.CPUPlace())]
""",
    "place.compare_and_hash": """
out = [paddle.CPUPlace() == "cpu", paddle.CPUPlace() != paddle.CPUPlace(),
       len({paddle.CPUPlace(), paddle.ones([1]).place, paddle.CPUPlace()}),
       paddle.base.core.Place() == paddle.base.core.Place()]
""",
    "place.set_device_returns": """
r = paddle.set_device("cpu")
out = [type(r).__name__, isinstance(r, paddle.CPUPlace), repr(r)]
""",
    "place.to_tensor_place": """
out = repr(paddle.to_tensor([1.0], place=paddle.CPUPlace()).place)
""",
    "place.cpu_place_takes_no_id": "paddle.CPUPlace(0)",
    "place.xpu_place_without_xpu": "paddle.XPUPlace(0)",
    "place.custom_place_not_registered": "paddle.CustomPlace('npu', 0)",
    # ------------------------------------------------------------------ functions
    "function.isfunction": """
fs = [paddle.abs, paddle.reshape, paddle.tanh, paddle.concat, paddle.sum, paddle.mean,
      paddle.matmul, paddle.add, paddle.zeros, paddle.to_tensor, paddle.Tensor.abs,
      paddle.Tensor.reshape, paddle.nn.functional.relu, paddle.nn.functional.softmax,
      paddle.linalg.norm, paddle.exp]
out = [[inspect.isfunction(f) for f in fs], [inspect.isroutine(f) for f in fs],
       [isinstance(f, types.FunctionType) for f in fs],
       inspect.isclass(paddle.nn.Linear), inspect.isfunction(paddle.nn.Linear)]
""",
    "function.signature": """
fs = [paddle.abs, paddle.reshape, paddle.tanh, paddle.concat, paddle.sum, paddle.matmul,
      paddle.zeros, paddle.nn.functional.relu, paddle.Tensor.abs]
out = [list(inspect.signature(f).parameters)[:2] for f in fs]
""",
    "function.wraps": """
@functools.wraps(paddle.tanh)
def g(*args, **kwargs):
    return paddle.tanh(*args, **kwargs) * 2
out = [g.__name__ == paddle.tanh.__name__, g.__doc__ == paddle.tanh.__doc__,
       list(inspect.signature(g).parameters)[:1], g(paddle.to_tensor([0.5])).numpy().tolist(),
       g.__wrapped__ is paddle.tanh, paddle.tanh.__code__ is not None]
""",
    # ------------------------------------------------------------------ default dtype
    "dtype.layers_float64": """
nn = paddle.nn
class Custom(nn.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([2])
class CustomDtype(nn.Layer):
    def __init__(self):
        super().__init__(dtype="float16")
        self.w = self.create_parameter([2])
paddle.set_default_dtype("float64")
try:
    layers = [nn.Linear(2, 3), nn.Conv1D(1, 2, 3), nn.Conv2D(1, 2, 3), nn.Conv3D(1, 2, 3),
              nn.Conv1DTranspose(1, 2, 3), nn.Conv2DTranspose(1, 2, 3), nn.Conv3DTranspose(1, 2, 3),
              nn.InstanceNorm1D(2), nn.InstanceNorm2D(2), nn.InstanceNorm3D(2),
              nn.BatchNorm1D(2), nn.BatchNorm2D(2), nn.BatchNorm(2), nn.SyncBatchNorm(2),
              nn.Embedding(3, 2), nn.LayerNorm(2), nn.GroupNorm(1, 2), nn.PReLU(), nn.LSTM(2, 3),
              nn.Bilinear(2, 2, 3), nn.MultiHeadAttention(4, 2), Custom(), CustomDtype()]
    out = [[type(l).__name__, sorted({str(p.dtype) for p in l.parameters()})] for l in layers]
finally:
    paddle.set_default_dtype("float32")
""",
    "dtype.forward_float64": """
nn = paddle.nn
paddle.set_default_dtype("float64")
try:
    paddle.seed(1)
    x = paddle.rand([1, 2, 5, 5])
    x.stop_gradient = False
    out = [str(x.dtype)]
    for l in (nn.Conv2D(2, 2, 3), nn.Conv2DTranspose(2, 2, 3), nn.InstanceNorm2D(2),
              nn.BatchNorm2D(2), nn.GroupNorm(1, 2)):
        y = l(x)
        y.sum().backward()
        out.append([type(l).__name__, str(y.dtype), str(l.weight.grad.dtype if hasattr(l, "weight") and l.weight is not None else l.scale.grad.dtype)])
finally:
    paddle.set_default_dtype("float32")
""",
    # ------------------------------------------------------------------ switches, losses, errors
    "switch.use_pir_api": """
out = [paddle.framework.use_pir_api(), paddle.base.framework.in_pir_mode(),
       paddle.framework.in_pir_mode()]
with paddle.pir_utils.OldIrGuard():
    out.append(paddle.framework.use_pir_api())
paddle.disable_static()
out.append(paddle.framework.use_pir_api())
""",
    "switch.saved_model_suffix": """
import os, tempfile
d = tempfile.mkdtemp()
net = paddle.nn.Linear(2, 2)
paddle.jit.save(net, os.path.join(d, "m"),
                input_spec=[paddle.static.InputSpec([None, 2], "float32")])
suffix = ".json" if paddle.framework.use_pir_api() else ".pdmodel"
out = [sorted(os.listdir(d)), os.path.isfile(os.path.join(d, "m" + suffix))]
""",
    "switch.prim": """
c = paddle.base.core
out = [c._is_bwd_prim_enabled(), c._is_fwd_prim_enabled(), c._is_all_prim_enabled()]
c._set_prim_backward_enabled(True)
out += [c._is_bwd_prim_enabled(), c._is_fwd_prim_enabled()]
c._set_prim_all_enabled(True)
out += [c._is_bwd_prim_enabled(), c._is_fwd_prim_enabled(), c._is_all_prim_enabled()]
c._set_prim_all_enabled(False)
c._set_prim_forward_enabled(True)
out += [c._is_bwd_prim_enabled(), c._is_fwd_prim_enabled()]
c._set_prim_forward_enabled(False)
""",
    "switch.prim_needs_bool": "paddle.base.core._set_prim_backward_enabled(1)",
    "loss.keywords": """
x = paddle.to_tensor([[0.1, 0.9], [0.7, 0.3]])
y = paddle.to_tensor([[0.3, 0.6], [0.2, 0.5]])
lab = paddle.to_tensor([[1], [0]], dtype="int64")
nn = paddle.nn
out = [float(nn.CrossEntropyLoss()(input=x, label=lab)), float(nn.MSELoss()(input=x, label=y)),
       float(nn.L1Loss()(label=y, input=x)), float(nn.BCELoss()(input=x, label=y)),
       float(nn.NLLLoss()(input=x, label=lab.flatten())), float(nn.SmoothL1Loss()(input=x, label=y)),
       float(nn.KLDivLoss()(input=x, label=y)), float(nn.BCEWithLogitsLoss()(logit=x, label=y)),
       float(nn.MarginRankingLoss()(input=x, other=y, label=paddle.ones([2, 2]))),
       float(nn.CosineEmbeddingLoss()(input1=x, input2=y, label=paddle.to_tensor([1, -1]))),
       float(nn.SoftMarginLoss()(x, label=y))]
""",
    "loss.unknown_keyword": "paddle.nn.MSELoss()(inp=paddle.ones([2]), label=paddle.ones([2]))",
    "conj.numpy": """
c = paddle.fft.fft(paddle.to_tensor([1.0, 2.0, 3.0]))
out = [[[v.real, v.imag] for v in paddle.conj(c).numpy().tolist()],
       [[v.real, v.imag] for v in c.conj().numpy().tolist()]]
""",
    "error.rot90_1d": "paddle.rot90(paddle.to_tensor([1, 2, 3]))",
    "error.full_shape_str": "paddle.full(shape='a', fill_value=1)",
    "error.full_shape_float": "paddle.full(shape=[1.5], fill_value=1)",
    "error.full_shape_negative": "paddle.full(shape=[-2], fill_value=1)",
    "error.full_bad_dtype": "paddle.full(shape=[1], fill_value=1, dtype='abc')",
    # ------------------------------------------------------------------ hooks
    "hook.interior_grad_before_hook": """
def run(order):
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = a * 2
    if order == "retain_first":
        b.retain_grads(); b.register_hook(lambda g: g * 10)
    elif order == "hook_first":
        b.register_hook(lambda g: g * 10); b.retain_grads()
    elif order == "two_hooks":
        b.retain_grads(); b.register_hook(lambda g: g * 10); b.register_hook(lambda g: g + 1)
    else:
        b.retain_grads(); b.register_hook(lambda g: None)
    (b * 3).sum().backward()
    return [a.grad.numpy().tolist(), b.grad.numpy().tolist(), b.grad.stop_gradient]
out = {o: run(o) for o in ("retain_first", "hook_first", "two_hooks", "none")}
""",
    "hook.retained_grad_is_latest": """
a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
b = a * 2
b.retain_grads()
b.register_hook(lambda g: g * 10)
c = (b * 3).sum()
c.backward(retain_graph=True)
out = [b.grad.numpy().tolist()]
c.backward()
out += [b.grad.numpy().tolist(), a.grad.numpy().tolist()]
b.clear_grad()
out.append(b.grad.numpy().tolist())
""",
    "hook.set_grad_of_intermediate": """
a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
e = a * 3
e.retain_grads()
e.grad = paddle.to_tensor([5.0, 5.0])
""",
    "hook.leaf": """
a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
a.register_hook(lambda g: g * 10)
(a * 3).sum().backward()
out = a.grad.numpy().tolist()
""",
    "hook.remove_returns": """
a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
b = a * 2
b.retain_grads()
h = b.register_hook(lambda g: g * 10)
out = [h.remove(), h.remove()]
(b * 3).sum().backward()
out += [a.grad.numpy().tolist(), b.grad.numpy().tolist()]
h2 = a.register_hook(lambda g: g)
out += [type(h2).__name__, h2.remove(), h2.remove()]
""",
    "hook.register_backward_hook": """
calls = []
b = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
out = [b._register_backward_hook(lambda: calls.append(b.grad.numpy().tolist()))]
(b * 3).sum().backward()
(b * 3).sum().backward()
out.append(calls)
""",
    "hook.register_backward_hook_not_leaf": """
b = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
(b * 2)._register_backward_hook(lambda: None)
""",
    "hook.backward_final_hook": """
calls = []
a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
out = [paddle.base.core.eager._add_backward_final_hook(lambda: calls.append(1))]
(a * 2).sum().backward()
out.append(list(calls))
(a * 2).sum().backward()
out.append(list(calls))
paddle.base.core.eager._add_backward_final_hook(lambda: calls.append(2))
paddle.grad((a * 2).sum(), a)
out.append(list(calls))
""",
    "hook.grad_after_fill_and_zero": """
out = []
for op in ("fill_", "zero_"):
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = a * 1
    getattr(y, op)(3.0) if op == "fill_" else y.zero_()
    y.sum().backward()
    out.append(a.grad.numpy().tolist())
""",
    "hook.inside_to_static": """
@paddle.jit.to_static
def f(x):
    y = x * 2
    y.register_hook(lambda g: g * 10)
    return (y * 3).sum()
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
r = f(x)
r.backward()
out = [float(r), x.grad.numpy().tolist()]
class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.l = paddle.nn.Linear(2, 2)
    def forward(self, x):
        y = self.l(x)
        y.register_hook(lambda g: g * 0)
        return y.sum() + self.l.weight.sum()
net = paddle.jit.to_static(Net())
net(paddle.ones([1, 2])).backward()
out.append(net.l.weight.grad.numpy().tolist())
""",
    # ------------------------------------------------------------------ names
    "name.clip_grad_norm_module": """
import importlib
m = importlib.import_module("paddle.nn.utils.clip_grad_norm_")
from paddle.nn.utils.clip_grad_norm_ import clip_grad_norm_
out = [inspect.ismodule(m), callable(clip_grad_norm_), inspect.ismodule(paddle.nn.utils.clip_grad_norm_),
       callable(paddle.nn.utils.clip_grad_norm_)]
import paddle.nn.utils.clip_grad_value_ as v
out.append(callable(v))
""",
    "name.functional_input": """
from paddle.nn.functional.input import embedding, one_hot
out = [one_hot(paddle.to_tensor([0, 2]), 3).numpy().tolist(),
       embedding(paddle.to_tensor([1]), paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])).numpy().tolist()]
""",
    "name.wrapped_decorator": """
from paddle.base import wrapped_decorator
@wrapped_decorator.signature_safe_contextmanager
def ctx(a, b=2):
    yield a + b
with ctx(1) as v:
    pass
def twice(f):
    return lambda *a, **k: 2 * f(*a, **k)
@wrapped_decorator.wrap_decorator(twice)
def add(x, y=1):
    return x + y
out = [v, ctx.__name__, str(inspect.signature(ctx)), add(3), add.__name__, str(inspect.signature(add))]
""",
    "name.fill_constant": """
f = paddle.tensor.fill_constant
o = paddle.zeros([3], "float32")
r = f([2, 2], "float32", 1.5, out=o)
out = [r is o, o.shape, o.numpy().tolist(), f([2], "float64", 0.25).numpy().tolist(),
       str(f([3], "int32", 7).dtype)]
""",
    "name.fill_constant_out_dtype": "paddle.tensor.fill_constant([2], 'float32', 1.5, out=paddle.zeros([3], 'int32'))",
    "name.base_is_compiled_with_cuda": """
out = [paddle.base.is_compiled_with_cuda() == paddle.is_compiled_with_cuda(),
       callable(paddle.base.is_compiled_with_cuda)]
""",
}


def first_line(e):
    """An exception's message without Paddle's C++ source location and hint lines."""
    return str(e).strip().split("\n")[0].split(" (at /paddle")[0]


def run(code, paddle):
    """exec ``code``: {"value": out} or {"error": type name, "message": first line}."""
    import functools
    import inspect
    import types

    import numpy as np
    scope = {"paddle": paddle, "np": np, "inspect": inspect, "functools": functools,
             "types": types}
    try:
        exec(code, scope)
    except Exception as e:  # noqa: BLE001  (recording what is raised)
        return {"error": type(e).__name__, "message": first_line(e)}
    finally:
        if not paddle.in_dynamic_mode():
            paddle.disable_static()
    return {"value": json.loads(json.dumps(scope.get("out"), default=repr))}


def run_all(paddle):
    return {name: dict(run(code, paddle), code=code.strip()) for name, code in CASES.items()}


if __name__ == "__main__":
    import paddle
    results = run_all(paddle)
    with open(sys.argv[1], "w") as f:
        json.dump({"paddle": paddle.__version__, "cases": results}, f, indent=1)
