"""Record Paddle's shape/index/search ops as goldens for tests/test_ops_manip.py and
tests/test_indexing.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_ops_manip.py

Writes tests/goldens/ops_manip.json: {"cases": [...]}. A case holds

* ``api`` (Paddle's full name), ``id``;
* ``inputs``: name -> {dtype, shape, values} (flat, float16/bfloat16 stored as the exact float32
  values Paddle holds), ``grad``: the names made ``stop_gradient=False``;
* ``code``: Python run with ``paddle`` (and ``np``) and the inputs bound by name; an expression,
  or (``exec``) statements that set ``out``;
* ``expected``: the result (``{"tensor": {...}}``, ``{"list": [...]}``, ``{"py": value}``), or
  ``error``: the exception type's name;
* ``weights`` and ``grads``: for differentiable cases, the grad of sum(out_k * weight_k) over
  the float outputs, w.r.t. each input in ``grad`` (null where Paddle gives none).
"""
import json
import os
import warnings

import numpy as np
import paddle

warnings.filterwarnings("ignore")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "ops_manip.json")
FLOATS = ("float16", "bfloat16", "float32", "float64")
rng = np.random.default_rng(2024)


# ---------------------------------------------------------------------- input specs
def R(dtype, shape):
    """Random normal floats (or random ints in [-5, 10), or random bools)."""
    return ("rand", dtype, list(shape))


def I(shape, lo, hi, dtype="int64"):
    return ("ints", dtype, list(shape), lo, hi)


def V(values, dtype):
    return ("values", dtype, values)


def P(shape, dtype="float32"):
    """A random permutation of distinct values (no ties for sort/topk/argmax)."""
    return ("perm", dtype, list(shape))


def make(spec):
    kind, dtype = spec[0], spec[1]
    if kind == "rand":
        shape = spec[2]
        if dtype in FLOATS:
            a = rng.standard_normal(shape).astype(np.float32)
        elif dtype == "bool":
            a = rng.random(shape) < 0.5
        else:
            a = rng.integers(-5, 10, shape)
    elif kind == "ints":
        a = rng.integers(spec[3], spec[4], spec[2])
    elif kind == "perm":
        n = int(np.prod(spec[2]))
        a = (rng.permutation(n).reshape(spec[2]) - n // 2).astype(np.float32)
        if dtype in FLOATS:
            a = a * 0.5
    else:
        a = np.array(spec[2])
    if dtype == "bfloat16":
        t = paddle.to_tensor(a.astype(np.float32)).astype("bfloat16")
    else:
        t = paddle.to_tensor(a.astype(dtype))
    return t


def encode(t):
    d = str(t.dtype).replace("paddle.", "")
    a = t.astype("float32").numpy() if d in ("bfloat16", "float16") else t.numpy()
    vals = a.reshape(-1).tolist()
    return {"dtype": d, "shape": list(t.shape), "values": vals}


def encode_out(o):
    if isinstance(o, paddle.Tensor):
        return {"tensor": encode(o)}
    if isinstance(o, (list, tuple)):
        return {"list": [encode_out(v) for v in o]}
    return {"py": o}


def float_outputs(o):
    if isinstance(o, paddle.Tensor):
        return [o] if str(o.dtype).replace("paddle.", "") in FLOATS else []
    if isinstance(o, (list, tuple)):
        return [t for v in o for t in float_outputs(v)]
    return []


CASES = []


def C(api, code, inputs=None, grad=(), id=None, exec_=False):
    """Run one case on Paddle and store it."""
    inputs = inputs or {}
    if os.environ.get("RECORD_TRACE"):
        print(api, repr(code), flush=True)
    env = {"paddle": paddle, "np": np}
    enc = {}
    for name, spec in inputs.items():
        t = make(spec)
        enc[name] = encode(t)
        if name in grad:
            t.stop_gradient = False
        env[name] = t
    case = {"api": api, "id": id or code, "inputs": enc, "grad": list(grad), "code": code}
    if exec_:
        case["exec"] = True
    try:
        if exec_:
            exec(code, env)
            out = env["out"]
        else:
            out = eval(code, env)
    except Exception as e:  # noqa: BLE001  the exception type is the golden
        if isinstance(e, RuntimeError) and "kernel" in str(e):
            return                  # Paddle has no CPU kernel for this dtype: nothing to learn
        case["error"] = type(e).__name__
        CASES.append(case)
        return
    case["expected"] = encode_out(out)
    if grad:
        outs = float_outputs(out)
        outs = [o for o in outs if not o.stop_gradient]
        if outs:
            ws = [rng.standard_normal(o.shape).astype(np.float32).round(3) for o in outs]
            loss = None
            for o, w in zip(outs, ws):
                term = (o.astype("float32") * paddle.to_tensor(w)).sum()
                loss = term if loss is None else loss + term
            try:
                gs = paddle.grad([loss], [env[n] for n in grad], allow_unused=True)
            except RuntimeError:        # no CPU grad kernel for this dtype in Paddle
                CASES.append(case)
                return
            case["weights"] = [w.reshape(-1).tolist() for w in ws]
            case["grads"] = {n: (None if g is None else encode(g)) for n, g in zip(grad, gs)}
    CASES.append(case)


# ---------------------------------------------------------------------- cases
def manipulation_cases():
    x3 = R("float32", [2, 3, 4])
    for dt in ("float16", "bfloat16", "float32", "float64", "int32", "int64", "bool"):
        g = ("x",) if dt in FLOATS else ()
        C("paddle.reshape", "paddle.reshape(x, [4, -1])", {"x": R(dt, [2, 3, 4])}, g,
          id=f"reshape_{dt}")
        C("paddle.concat", "paddle.concat([x, y], axis=-1)",
          {"x": R(dt, [2, 3]), "y": R(dt, [2, 2])}, ("x", "y") if g else (), id=f"concat_{dt}")
        C("paddle.transpose", "paddle.transpose(x, [2, 0, 1])", {"x": R(dt, [2, 3, 4])}, g,
          id=f"transpose_{dt}")
    C("paddle.reshape", "paddle.reshape(x, [0, -1])", {"x": x3}, ("x",))
    C("paddle.reshape", "paddle.reshape(x, [0, 0, 0])", {"x": x3})
    C("paddle.reshape", "paddle.reshape(x, (3, 0, 2))", {"x": x3})
    C("paddle.reshape", "paddle.reshape(x, paddle.to_tensor([4, 6]))", {"x": x3})
    C("paddle.reshape", "paddle.reshape(x, [paddle.to_tensor(4), 6])", {"x": x3})
    C("paddle.reshape", "paddle.reshape(x, [])", {"x": R("float32", [1])}, ("x",))
    C("paddle.reshape", "paddle.reshape(x, [1, 1])", {"x": R("float32", [])}, ("x",))
    C("paddle.reshape", "paddle.reshape(x, [0, 5])", {"x": R("float32", [0, 3])})
    C("paddle.reshape", "paddle.reshape(x, [5, -1])", {"x": x3})
    C("paddle.reshape", "paddle.reshape(x, [-1, -1])", {"x": x3})
    C("paddle.Tensor.reshape", "x.reshape([6, 4])", {"x": x3}, ("x",))
    C("paddle.Tensor.reshape", "x.reshape(6, 4)", {"x": x3})
    C("paddle.Tensor.reshape", "x.reshape((-1,))", {"x": x3})
    C("paddle.Tensor.reshape_", "y = x * 1\nout = y.reshape_([4, 6])\nassert out is y", {"x": x3},
      ("x",), exec_=True)
    C("paddle.Tensor.reshape_", "x.reshape_([4, 6])", {"x": x3}, ("x",), id="reshape_ on leaf")
    C("paddle.transpose", "paddle.transpose(x, [-1, 0, 1])", {"x": x3}, ("x",))
    C("paddle.transpose", "paddle.transpose(x, (1, 0))", {"x": R("float32", [3, 0])})
    C("paddle.transpose", "paddle.transpose(x, [])", {"x": R("float32", [])})
    C("paddle.transpose", "paddle.transpose(x, [0, 0, 1])", {"x": x3})
    C("paddle.Tensor.transpose", "x.transpose([1, 0])", {"x": R("float64", [2, 3])}, ("x",))
    C("paddle.concat", "paddle.concat([x, y], axis=0)",
      {"x": R("float32", [2, 3]), "y": R("float32", [0, 3])}, ("x", "y"))
    C("paddle.concat", "paddle.concat((x, y, x), axis=paddle.to_tensor(1))",
      {"x": R("float32", [2, 1]), "y": R("float32", [2, 3])}, ("x", "y"))
    C("paddle.concat", "paddle.concat([x, y])", {"x": R("float32", [2]), "y": R("float64", [2])})
    C("paddle.concat", "paddle.concat([x, y])", {"x": R("int64", [2]), "y": R("float32", [2])})
    C("paddle.concat", "paddle.concat([x, y])", {"x": R("float32", []), "y": R("float32", [])})
    C("paddle.concat", "paddle.concat([x, y], axis=3)",
      {"x": R("float32", [2]), "y": R("float32", [2])})
    C("paddle.concat", "paddle.concat([x, y])", {"x": R("float32", [2]), "y": R("float32", [2, 1])})
    for ax in (0, 1, -1, 2):
        C("paddle.stack", f"paddle.stack([x, y], axis={ax})",
          {"x": R("float32", [2, 3]), "y": R("float32", [2, 3])}, ("x", "y"))
    C("paddle.stack", "paddle.stack([x, y])", {"x": R("float32", []), "y": R("float32", [])},
      ("x", "y"))
    C("paddle.stack", "paddle.stack([x, y])", {"x": R("int32", [2]), "y": R("int32", [2])})
    C("paddle.stack", "paddle.stack([x, y])", {"x": R("float32", [2]), "y": R("float32", [3])})
    C("paddle.split", "paddle.split(x, 2, axis=-1)", {"x": x3}, ("x",))
    C("paddle.split", "paddle.split(x, [1, -1, 1], axis=2)", {"x": x3}, ("x",))
    C("paddle.split", "paddle.split(x, (2, 1), axis=1)", {"x": x3}, ("x",))
    C("paddle.split", "paddle.split(x, [1, paddle.to_tensor(2)], axis=paddle.to_tensor(1))",
      {"x": x3})
    C("paddle.split", "paddle.split(x, 3, axis=-1)", {"x": x3})
    C("paddle.split", "paddle.split(x, [1, 1], axis=2)", {"x": x3})
    C("paddle.split", "paddle.split(x, 1)", {"x": R("int64", [3])})
    C("paddle.Tensor.split", "x.split(2, 0)", {"x": x3}, ("x",))
    C("paddle.chunk", "paddle.chunk(x, 2, axis=2)", {"x": x3}, ("x",))
    C("paddle.chunk", "paddle.chunk(x, 3, axis=1)", {"x": x3}, ("x",))
    C("paddle.chunk", "paddle.chunk(x, 3, axis=2)", {"x": x3})
    for code in ("paddle.squeeze(x)", "paddle.squeeze(x, axis=1)", "paddle.squeeze(x, axis=0)",
                 "paddle.squeeze(x, axis=[0, 2])", "paddle.squeeze(x, axis=(-1,))",
                 "paddle.squeeze(x, axis=5)"):
        C("paddle.squeeze", code, {"x": R("float32", [1, 3, 1])}, ("x",))
    C("paddle.squeeze", "paddle.squeeze(x)", {"x": R("float32", [])}, ("x",))
    C("paddle.squeeze", "paddle.squeeze(x)", {"x": R("int32", [1, 1])})
    C("paddle.Tensor.squeeze", "x.squeeze(-1)", {"x": R("float32", [2, 1])}, ("x",))
    C("paddle.Tensor.squeeze_", "y = x * 1\nout = y.squeeze_(-1)\nassert out is y",
      {"x": R("float32", [2, 1])}, ("x",), exec_=True)
    for code in ("paddle.unsqueeze(x, 0)", "paddle.unsqueeze(x, -1)", "paddle.unsqueeze(x, [0, 2])",
                 "paddle.unsqueeze(x, [2, 0])", "paddle.unsqueeze(x, (-1, -1))",
                 "paddle.unsqueeze(x, paddle.to_tensor([0, 1]))",
                 "paddle.unsqueeze(x, [paddle.to_tensor(1), 0])", "paddle.unsqueeze(x, 5)"):
        C("paddle.unsqueeze", code, {"x": R("float32", [3, 4])}, ("x",))
    C("paddle.unsqueeze", "paddle.unsqueeze(x, 0)", {"x": R("bool", [])})
    C("paddle.Tensor.unsqueeze", "x.unsqueeze(1)", {"x": R("float16", [3])}, ("x",))
    C("paddle.Tensor.unsqueeze_", "y = x * 1\nout = y.unsqueeze_([0, 1])\nassert out is y",
      {"x": R("float32", [3])}, ("x",), exec_=True)
    C("paddle.Tensor.unsqueeze_", "x.unsqueeze_(0)", {"x": R("float32", [3])}, ("x",),
      id="unsqueeze_ on leaf")
    for code in ("paddle.expand(x, [2, 3, 4])", "paddle.expand(x, [2, -1, 4])",
                 "paddle.expand(x, (3, 4))", "paddle.expand(x, paddle.to_tensor([2, 3, 4]))",
                 "paddle.expand(x, [3, 2])", "paddle.broadcast_to(x, [2, 3, 4])",
                 "paddle.broadcast_to(x, [3, 1])", "x.expand([2, 3, 2])",
                 "x.broadcast_to([4, 3, 1])"):
        api = "paddle." + ("Tensor." if code.startswith("x.") else "") + \
            code.split("(")[0].split(".")[-1]
        C(api, code, {"x": R("float32", [3, 1])}, ("x",))
    C("paddle.expand", "paddle.expand(x, [2, 3])", {"x": R("float32", [])}, ("x",))
    C("paddle.expand", "paddle.expand(x, [2, 3])", {"x": R("int64", [3])})
    C("paddle.expand_as", "paddle.expand_as(x, y)",
      {"x": R("float32", [1, 3]), "y": R("int32", [2, 3])}, ("x",))
    C("paddle.expand_as", "paddle.expand_as(x, y)",
      {"x": R("float32", [2, 3]), "y": R("float32", [4])})
    C("paddle.broadcast_shape", "paddle.broadcast_shape([2, 1, 3], [4, 1])")
    C("paddle.broadcast_shape", "paddle.broadcast_shape([], [4, 1])")
    C("paddle.broadcast_shape", "paddle.broadcast_shape([2, 1, 3], [4, 2])")
    C("paddle.broadcast_tensors", "paddle.broadcast_tensors([x, y])",
      {"x": R("float32", [2, 1]), "y": R("float32", [3])}, ("x", "y"))
    C("paddle.broadcast_tensors", "paddle.broadcast_tensors([x, y, z])",
      {"x": R("float32", [1, 4]), "y": R("float32", [3, 1]), "z": R("float32", [])},
      ("x", "y", "z"))
    for code in ("paddle.flatten(x)", "paddle.flatten(x, 1)", "paddle.flatten(x, 0, 1)",
                 "paddle.flatten(x, -2, -1)", "paddle.flatten(x, start_axis=1, stop_axis=1)",
                 "paddle.flatten(x, 2, 1)", "x.flatten(1)"):
        C("paddle.Tensor.flatten" if code.startswith("x.") else "paddle.flatten", code,
          {"x": x3}, ("x",))
    C("paddle.flatten", "paddle.flatten(x)", {"x": R("float32", [])}, ("x",))
    C("paddle.Tensor.flatten_", "y = x * 1\nout = y.flatten_()\nassert out is y", {"x": x3},
      ("x",), exec_=True)
    C("paddle.unflatten", "paddle.unflatten(x, 2, [2, -1])", {"x": x3}, ("x",))
    C("paddle.unflatten", "paddle.unflatten(x, -3, (1, 2))", {"x": x3}, ("x",))
    C("paddle.unflatten", "paddle.unflatten(x, 0, paddle.to_tensor([2, 1]))", {"x": x3})
    C("paddle.unflatten", "paddle.unflatten(x, 1, [2, 2])", {"x": x3})
    for code in ("paddle.tile(x, [2])", "paddle.tile(x, [2, 1, 3])", "paddle.tile(x, (1, 2))",
                 "paddle.tile(x, paddle.to_tensor([2, 2]))", "x.tile([3, 1])"):
        C("paddle.Tensor.tile" if code.startswith("x.") else "paddle.tile", code,
          {"x": R("float32", [2, 3])}, ("x",))
    C("paddle.tile", "paddle.tile(x, [2, 3])", {"x": R("float32", [])}, ("x",))
    C("paddle.tile", "paddle.tile(x, [2, 1])", {"x": R("bool", [2])})
    for code in ("paddle.slice(x, [0, 2], [1, -3], [100, -1])", "paddle.slice(x, [2], [3], [1])",
                 "paddle.slice(x, [1], [-100], [2])",
                 "paddle.slice(x, [2], paddle.to_tensor([1]), paddle.to_tensor([3]))",
                 "paddle.slice(x, [-1, 0], [paddle.to_tensor(1), 0], [3, 1])"):
        C("paddle.slice", code, {"x": x3}, ("x",))
    for code in ("paddle.slice_scatter(x, v, [1], [0], [3], [2])",
                 "paddle.slice_scatter(x, v, axes=[0, 1], starts=[1, 0], ends=[3, 3], "
                 "strides=[1, 2])"):
        C("paddle.slice_scatter", code,
          {"x": R("float32", [3, 4]), "v": R("float32", [3, 2] if "[1]," in code else [2, 2])},
          ("x", "v"))
    C("paddle.slice_scatter", "paddle.slice_scatter(x, v, [1], [0], [3], [2])",
      {"x": R("float32", [3, 4]), "v": R("float32", [3, 3])})
    for code in ("paddle.tensor_split(x, 3, axis=2)", "paddle.tensor_split(x, [1, 3], axis=2)",
                 "paddle.tensor_split(x, 5, axis=1)", "paddle.tensor_split(x, (0, 9), axis=-1)",
                 "x.tensor_split(2)"):
        C("paddle.Tensor.tensor_split" if code.startswith("x.") else "paddle.tensor_split", code,
          {"x": x3}, ("x",))
    C("paddle.hsplit", "paddle.hsplit(x, 2)", {"x": R("int64", [6])})
    C("paddle.hsplit", "paddle.hsplit(x, [1])", {"x": x3}, ("x",))
    C("paddle.hsplit", "paddle.hsplit(x, 2)", {"x": R("float32", [])})
    C("paddle.vsplit", "paddle.vsplit(x, 2)", {"x": x3}, ("x",))
    C("paddle.vsplit", "paddle.vsplit(x, [1, 1])", {"x": R("float32", [3, 2])}, ("x",))
    C("paddle.vsplit", "paddle.vsplit(x, 2)", {"x": R("float32", [4])})
    for ax in (0, 1, -1):
        C("paddle.unstack", f"paddle.unstack(x, {ax})", {"x": x3}, ("x",))
    C("paddle.unstack", "paddle.unstack(x, 3)", {"x": x3})
    C("paddle.Tensor.unbind", "x.unbind(1)", {"x": x3}, ("x",))
    for api in ("vstack", "hstack", "dstack", "row_stack", "column_stack"):
        for sx, sy in (([3], [3]), ([2, 3], [1, 3]), ([], [])):
            if api in ("hstack", "column_stack") and sx == [2, 3]:
                sy = [2, 1]
            C(f"paddle.{api}", f"paddle.{api}([x, y])",
              {"x": R("float32", sx), "y": R("float32", sy)}, ("x", "y"),
              id=f"{api}({sx}, {sy})")
        C(f"paddle.{api}", f"paddle.{api}([x, y])", {"x": R("int32", [2]), "y": R("int32", [2])},
          id=f"{api} int32")
    for n in (1, 2, 3):
        for shape in ([], [2], [2, 3], [1, 2, 3, 1]):
            C(f"paddle.atleast_{n}d", f"paddle.atleast_{n}d(x)", {"x": R("float32", shape)},
              ("x",), id=f"atleast_{n}d{shape}")
        C(f"paddle.atleast_{n}d", f"paddle.atleast_{n}d(x, y)",
          {"x": R("float32", []), "y": R("int64", [3])}, id=f"atleast_{n}d two")
    # gather / scatter family
    C("paddle.gather", "paddle.gather(x, i)", {"x": x3, "i": V([1, 0, 1], "int64")}, ("x",))
    C("paddle.gather", "paddle.gather(x, i, axis=1)", {"x": x3, "i": V([2, 0], "int32")}, ("x",))
    C("paddle.gather", "paddle.gather(x, i, axis=-1)", {"x": x3, "i": V([3], "int64")}, ("x",))
    C("paddle.gather", "paddle.gather(x, i, axis=paddle.to_tensor(2))",
      {"x": x3, "i": V([3, 3], "int64")}, ("x",))
    C("paddle.gather", "paddle.gather(x, i)", {"x": x3, "i": V(1, "int64")}, ("x",))
    C("paddle.gather", "paddle.gather(x, i)", {"x": x3, "i": V([[1], [0]], "int64")}, ("x",))
    C("paddle.gather", "paddle.gather(x, i)", {"x": x3, "i": V([[1, 0]], "int64")})
    C("paddle.gather", "paddle.gather(x, i)", {"x": R("int64", [4]), "i": V([], "int64")})
    C("paddle.gather", "paddle.gather(x, i)", {"x": x3, "i": V([5], "int64")})
    C("paddle.Tensor.gather", "x.gather(i, 1)", {"x": x3, "i": V([1, 1], "int64")}, ("x",))
    C("paddle.gather_nd", "paddle.gather_nd(x, i)", {"x": x3, "i": V([[0, 1], [1, 2]], "int64")},
      ("x",))
    C("paddle.gather_nd", "paddle.gather_nd(x, i)",
      {"x": x3, "i": V([[[0, 1, 3]], [[1, 2, 0]]], "int32")}, ("x",))
    C("paddle.gather_nd", "paddle.gather_nd(x, i)", {"x": x3, "i": V([1], "int64")}, ("x",))
    C("paddle.gather_nd", "paddle.gather_nd(x, paddle.zeros([2, 0], 'int64'))", {"x": x3},
      ("x",))
    C("paddle.Tensor.gather_nd", "x.gather_nd(i)", {"x": R("int64", [3, 2]),
                                                     "i": V([[2], [0]], "int64")})
    C("paddle.scatter", "paddle.scatter(x, i, u)",
      {"x": R("float32", [4, 2]), "i": V([2, 0], "int64"), "u": R("float32", [2, 2])},
      ("x", "u"))
    C("paddle.scatter", "paddle.scatter(x, i, u, overwrite=False)",
      {"x": R("float32", [4, 2]), "i": V([2, 0, 2], "int64"), "u": R("float32", [3, 2])},
      ("x", "u"))
    C("paddle.scatter", "paddle.scatter(x, i, u, overwrite=False)",
      {"x": R("int64", [3]), "i": V([1, 1], "int32"), "u": R("int64", [2])})
    C("paddle.scatter", "paddle.scatter(x, i, u)",
      {"x": R("float32", [3, 2]), "i": V([1, 1], "int64"), "u": V([[1., 2], [3, 4]], "float32")})
    C("paddle.Tensor.scatter_", "y = x * 1\nout = y.scatter_(i, u)\nassert out is y",
      {"x": R("float32", [4, 2]), "i": V([3, 1], "int64"), "u": R("float32", [2, 2])},
      ("x", "u"), exec_=True)
    for code, ishape in (("paddle.take_along_axis(x, i, 1)", [1, 1, 1]),
                         ("paddle.take_along_axis(x, i, 1)", [2, 2, 4]),
                         ("paddle.take_along_axis(x, i, -1, broadcast=False)", [1, 1, 1]),
                         ("paddle.take_along_axis(x, i, 0)", [3, 3, 1]),
                         ("paddle.take_along_axis(x, i, 2)", [2, 3, 5])):
        C("paddle.take_along_axis", code, {"x": x3, "i": I(ishape, 0, 2)}, ("x",),
          id=f"{code} {ishape}")
    C("paddle.Tensor.take_along_axis", "x.take_along_axis(i, 0)",
      {"x": R("int32", [3, 2]), "i": I([2, 2], 0, 3)})
    C("paddle.put_along_axis", "paddle.put_along_axis(x, i, 99.0, 1)",
      {"x": x3, "i": V([[[0]]], "int64")}, ("x",))
    C("paddle.put_along_axis", "paddle.put_along_axis(x, i, v, 1)",
      {"x": x3, "i": V([[[2, 1, 0, 1]]], "int64"), "v": R("float32", [2, 1, 4])}, ("x", "v"))
    for red in ("add", "mul", "multiply", "mean", "amin", "amax"):
        for inc in (True, False):
            C("paddle.put_along_axis",
              f"paddle.put_along_axis(x, i, v, 0, reduce='{red}', include_self={inc}, "
              "broadcast=False)",
              {"x": R("float32", [3, 2]), "i": V([[0, 1], [0, 2]], "int64"),
               "v": V([[1., 2.], [3., 4.]], "float32")}, ("x",))
    C("paddle.put_along_axis", "paddle.put_along_axis(x, i, 5, 0, reduce='add')",
      {"x": R("int64", [3, 2]), "i": V([[1, 1]], "int64")})
    C("paddle.put_along_axis", "paddle.put_along_axis(x, i, 5.0, 0, reduce='bad')",
      {"x": R("float32", [3, 2]), "i": V([[1, 1]], "int64")})
    C("paddle.Tensor.put_along_axis_", "y = x * 1\nout = y.put_along_axis_(i, 7.0, 0)\n"
      "assert out is y", {"x": R("float32", [3, 2]), "i": V([[2, 0]], "int64")}, ("x",),
      exec_=True)
    C("paddle.index_put", "paddle.index_put(x, (i, j), v)",
      {"x": R("float32", [3, 4]), "i": V([0, 2], "int64"), "j": V([1, 3], "int64"),
       "v": R("float32", [2])}, ("x", "v"))
    C("paddle.index_put", "paddle.index_put(x, (i,), v, accumulate=True)",
      {"x": R("float32", [3, 4]), "i": V([0, 0, 2], "int64"), "v": R("float32", [4])},
      ("x", "v"))
    C("paddle.index_put", "paddle.index_put(x, (m,), v)",
      {"x": R("float32", [3, 4]), "m": R("bool", [3, 4]), "v": V(9.0, "float32")}, ("x",))
    C("paddle.index_put", "paddle.index_put(x, [i], v)",
      {"x": R("int32", [5]), "i": V([4, 1], "int32"), "v": V([7, 8], "int32")})
    C("paddle.Tensor.index_put_", "y = x * 1\nout = y.index_put_((i,), v)\nassert out is y",
      {"x": R("float32", [3, 2]), "i": V([1], "int64"), "v": R("float32", [2])}, ("x", "v"),
      exec_=True)
    # masked_fill, roll, flip, triangles, diagonals
    C("paddle.masked_fill", "paddle.masked_fill(x, m, 0.5)",
      {"x": x3, "m": R("bool", [2, 3, 4])}, ("x",))
    C("paddle.masked_fill", "paddle.masked_fill(x, m, v)",
      {"x": x3, "m": R("bool", [3, 1]), "v": V(2.5, "float32")}, ("x", "v"))
    C("paddle.masked_fill", "paddle.masked_fill(x, m, 1.0)",
      {"x": R("float32", [1, 3]), "m": R("bool", [2, 1])}, ("x",))
    C("paddle.masked_fill", "paddle.masked_fill(x, m, 2.7)",
      {"x": R("int64", [3]), "m": V([True, False, True], "bool")})
    C("paddle.masked_fill", "paddle.masked_fill(x, m, True)",
      {"x": R("bool", [4]), "m": R("bool", [4])})
    C("paddle.Tensor.masked_fill", "x.masked_fill(m, -1.0)",
      {"x": R("float64", [2, 3]), "m": R("bool", [2, 3])}, ("x",))
    C("paddle.Tensor.masked_fill_", "y = x * 1\nout = y.masked_fill_(m, -1.0)\nassert out is y",
      {"x": R("float32", [2, 3]), "m": R("bool", [2, 3])}, ("x",), exec_=True)
    for code in ("paddle.roll(x, 1)", "paddle.roll(x, -2, 1)", "paddle.roll(x, [1, -1], [0, 2])",
                 "paddle.roll(x, (5,), axis=(2,))", "x.roll(3)"):
        C("paddle.Tensor.roll" if code.startswith("x.") else "paddle.roll", code, {"x": x3},
          ("x",))
    for code in ("paddle.flip(x, [0, -1])", "paddle.flip(x, 1)", "paddle.flip(x, (2,))",
                 "paddle.flip(x, [])", "x.flip(0)"):
        C("paddle.Tensor.flip" if code.startswith("x.") else "paddle.flip", code, {"x": x3},
          ("x",))
    for fn in ("triu", "tril"):
        for d in (0, 1, -1, 5):
            C(f"paddle.{fn}", f"paddle.{fn}(x, {d})", {"x": R("float32", [3, 4])}, ("x",))
        C(f"paddle.{fn}", f"paddle.{fn}(x, diagonal=-1)", {"x": x3}, ("x",))
        C(f"paddle.{fn}", f"paddle.{fn}(x)", {"x": R("int32", [3, 3])})
        C(f"paddle.{fn}", f"paddle.{fn}(x)", {"x": R("float32", [3])})
        C(f"paddle.Tensor.{fn}_", f"y = x * 1\nout = y.{fn}_(1)\nassert out is y",
          {"x": R("float32", [3, 3])}, ("x",), exec_=True)
    C("paddle.diag", "paddle.diag(x)", {"x": R("float32", [3])}, ("x",))
    C("paddle.diag", "paddle.diag(x, 1, padding_value=7)", {"x": R("float32", [2])}, ("x",))
    C("paddle.diag", "paddle.diag(x, offset=-2)", {"x": R("int64", [2])})
    C("paddle.diag", "paddle.diag(x)", {"x": R("float32", [3, 4])}, ("x",))
    C("paddle.diag", "paddle.diag(x, -1)", {"x": R("float32", [3, 4])}, ("x",))
    C("paddle.diag", "paddle.diag(x, 2)", {"x": R("float64", [3, 4])}, ("x",))
    C("paddle.diag", "paddle.diag(x)", {"x": x3})
    C("paddle.diag_embed", "paddle.diag_embed(x)", {"x": R("float32", [2, 3])}, ("x",))
    C("paddle.diag_embed", "paddle.diag_embed(x, 1)", {"x": R("float32", [2, 3])}, ("x",))
    C("paddle.diag_embed", "paddle.diag_embed(x, -1, 0, 2)", {"x": R("float32", [2, 3])}, ("x",))
    C("paddle.Tensor.fill_diagonal_", "out = x.fill_diagonal_(2.5)", {"x": R("float32", [3, 4])},
      exec_=True)
    C("paddle.Tensor.fill_diagonal_", "out = x.fill_diagonal_(2.5, 1)",
      {"x": R("float32", [3, 4])}, exec_=True)
    C("paddle.Tensor.fill_diagonal_", "out = x.fill_diagonal_(2.5, -1)",
      {"x": R("float32", [4, 3])}, exec_=True)
    C("paddle.Tensor.fill_diagonal_", "out = x.fill_diagonal_(2.5, 0, True)",
      {"x": R("float32", [7, 3])}, exec_=True)
    C("paddle.Tensor.fill_diagonal_", "out = x.fill_diagonal_(2.5, 0, False)",
      {"x": R("float32", [7, 3])}, exec_=True)
    C("paddle.Tensor.fill_diagonal_", "out = x.fill_diagonal_(-1)", {"x": R("int64", [3, 3, 3])},
      exec_=True)
    C("paddle.Tensor.fill_diagonal_", "y = x * 1\nout = y.fill_diagonal_(0.0)",
      {"x": R("float32", [3, 3])}, ("x",), exec_=True)
    C("paddle.Tensor.fill_diagonal_", "x.fill_diagonal_(0.0)", {"x": R("float32", [3, 3])},
      ("x",), id="fill_diagonal_ on leaf")
    C("paddle.Tensor.fill_diagonal_tensor", "x.fill_diagonal_tensor(y)",
      {"x": R("float32", [3, 4]), "y": R("float32", [3])}, ("x", "y"))
    C("paddle.Tensor.fill_diagonal_tensor", "x.fill_diagonal_tensor(y, offset=1)",
      {"x": R("float32", [3, 4]), "y": R("float32", [3])}, ("x", "y"))
    C("paddle.Tensor.fill_diagonal_tensor", "x.fill_diagonal_tensor(y, 0, 1, 2)",
      {"x": x3, "y": R("float32", [2, 3])}, ("x", "y"))
    C("paddle.Tensor.fill_diagonal_tensor", "x.fill_diagonal_tensor(y, -1, dim1=2, dim2=0)",
      {"x": x3, "y": R("float32", [3, 2])}, ("x", "y"))
    C("paddle.Tensor.fill_diagonal_tensor_",
      "y2 = x * 1\nout = y2.fill_diagonal_tensor_(y)\nassert out is y2",
      {"x": R("float32", [3, 3]), "y": R("float32", [3])}, ("x", "y"), exec_=True)
    # misc
    C("paddle.meshgrid", "paddle.meshgrid(x, y)", {"x": R("float32", [2]), "y": R("float32", [3])},
      ("x", "y"))
    C("paddle.meshgrid", "paddle.meshgrid([x, y, z])",
      {"x": R("int64", [2]), "y": R("int64", [3]), "z": R("int64", [1])})
    C("paddle.vander", "paddle.vander(x)", {"x": R("float32", [3])}, ("x",))
    C("paddle.vander", "paddle.vander(x, 4, increasing=True)", {"x": R("float64", [3])}, ("x",))
    C("paddle.vander", "paddle.vander(x, n=2)", {"x": V([1, 2, 3], "int64")})
    C("paddle.vander", "paddle.vander(x, 0)", {"x": R("float32", [3])})
    C("paddle.vander", "paddle.vander(x)", {"x": R("float32", [2, 2])})
    C("paddle.diff", "paddle.diff(x)", {"x": x3}, ("x",))
    C("paddle.diff", "paddle.diff(x, n=2, axis=1)", {"x": x3}, ("x",))
    C("paddle.diff", "paddle.diff(x, axis=0, prepend=p, append=a)",
      {"x": R("float32", [2, 3]), "p": R("float32", [1, 3]), "a": R("float32", [2, 3])},
      ("x", "p", "a"))
    C("paddle.diff", "paddle.diff(x)", {"x": V([True, False, False, True], "bool")})
    C("paddle.diff", "paddle.diff(x)", {"x": R("int32", [5])})
    C("paddle.repeat_interleave", "paddle.repeat_interleave(x, 2)", {"x": R("float32", [2, 3])},
      ("x",))
    C("paddle.repeat_interleave", "paddle.repeat_interleave(x, 2, axis=1)",
      {"x": R("float32", [2, 3])}, ("x",))
    C("paddle.repeat_interleave", "paddle.repeat_interleave(x, r, axis=0)",
      {"x": R("float32", [2, 3]), "r": V([1, 3], "int64")}, ("x",))
    C("paddle.repeat_interleave", "paddle.repeat_interleave(x, r)",
      {"x": R("int32", [3]), "r": V([0, 2, 1], "int64")})
    C("paddle.cartesian_prod", "paddle.cartesian_prod([x, y])",
      {"x": R("float32", [2]), "y": R("float32", [3])}, ("x", "y"))
    C("paddle.cartesian_prod", "paddle.cartesian_prod([x])", {"x": R("int64", [3])})
    C("paddle.cartesian_prod", "paddle.cartesian_prod([x, y, x])",
      {"x": R("int64", [2]), "y": R("int64", [2])})
    for shape in ([], [3], [2, 0, 4]):
        C("paddle.shape", "paddle.shape(x)", {"x": R("float32", shape)}, id=f"shape{shape}")
        C("paddle.numel", "paddle.numel(x)", {"x": R("float32", shape)}, id=f"numel{shape}")
    C("paddle.Tensor.numel", "x.numel()", {"x": x3})
    C("paddle.clone", "paddle.clone(x)", {"x": x3}, ("x",))
    C("paddle.clone", "paddle.clone(x)", {"x": R("bfloat16", [3])}, ("x",))
    C("paddle.Tensor.clone", "x.clone()", {"x": R("int32", [3])})
    C("paddle.unique", "paddle.unique(x)", {"x": V([3, 1, 3, 2], "int64")})
    C("paddle.unique", "paddle.unique(x, return_index=True, return_inverse=True, "
      "return_counts=True)", {"x": V([3., 1, 3, 2, 1, 1], "float32")})
    C("paddle.unique", "paddle.unique(x, return_index=True, return_inverse=True, "
      "return_counts=True, dtype='int32')", {"x": V([[2, 1], [0, 1]], "int64")})
    C("paddle.unique", "paddle.unique(x, return_index=True, return_inverse=True, "
      "return_counts=True, axis=0)", {"x": V([[3, 1], [3, 1], [0, 2]], "int64")})
    C("paddle.moveaxis", "paddle.moveaxis(x, [0, 1], [-1, 0])", {"x": x3}, ("x",))


def search_cases():
    x3 = R("float32", [2, 3, 4])
    c3 = R("bool", [2, 3, 4])
    C("paddle.where", "paddle.where(c, x, y)",
      {"c": c3, "x": x3, "y": R("float32", [2, 3, 4])}, ("x", "y"))
    C("paddle.where", "paddle.where(c, x, y)",
      {"c": R("bool", [3, 1]), "x": R("float32", [1, 4]), "y": R("float32", [])}, ("x", "y"))
    for dt in ("float16", "bfloat16", "float64", "int32", "int64", "bool"):
        C("paddle.where", "paddle.where(c, x, y)",
          {"c": R("bool", [5]), "x": R(dt, [5]), "y": R(dt, [5])},
          ("x", "y") if dt in FLOATS else (), id=f"where_{dt}")
    C("paddle.where", "paddle.where(c, 1.0, 0.0)", {"c": c3})
    C("paddle.where", "paddle.where(c, 1, 0)", {"c": c3})
    C("paddle.where", "paddle.where(c, x, 2.0)", {"c": c3, "x": x3}, ("x",))
    C("paddle.where", "paddle.where(c, x, 2)", {"c": c3, "x": x3})
    C("paddle.where", "paddle.where(c, x, y)",
      {"c": R("bool", [3]), "x": R("float32", [3]), "y": R("float64", [3])}, ("x", "y"))
    C("paddle.where", "paddle.where(c, x, y)",
      {"c": R("bool", [3]), "x": R("int64", [3]), "y": R("float32", [3])})
    C("paddle.where", "paddle.where(c)", {"c": c3})
    C("paddle.where", "paddle.where(x > 0)", {"x": R("float32", [5])})
    C("paddle.where", "paddle.where(c)", {"c": R("bool", [])})
    C("paddle.Tensor.where", "c.where(x, y)",
      {"c": R("bool", [3]), "x": R("float32", [3]), "y": R("float32", [3])}, ("x", "y"))
    C("paddle.nonzero", "paddle.nonzero(x)", {"x": R("int32", [3, 4])})
    C("paddle.nonzero", "paddle.nonzero(x, as_tuple=True)", {"x": R("float32", [3, 4])})
    C("paddle.nonzero", "paddle.nonzero(x)", {"x": R("bool", [5])})
    C("paddle.nonzero", "paddle.nonzero(x)", {"x": R("float32", [0, 2])})
    C("paddle.nonzero", "paddle.nonzero(x)", {"x": R("float32", [])})
    for fn in ("argmax", "argmin"):
        for code in (f"paddle.{fn}(x)", f"paddle.{fn}(x, axis=1)", f"paddle.{fn}(x, -1, True)",
                     f"paddle.{fn}(x, keepdim=True)", f"paddle.{fn}(x, 0, dtype='int32')",
                     f"paddle.{fn}(x, 0, dtype=paddle.int32)", f"paddle.{fn}(x, dtype='float32')",
                     f"paddle.{fn}(x, 3)", f"x.{fn}(1)"):
            C(f"paddle.Tensor.{fn}" if code.startswith("x.") else f"paddle.{fn}", code,
              {"x": P([2, 3, 4])})
        C(f"paddle.{fn}", f"paddle.{fn}(x)", {"x": V([[1., 3, 3], [3, 1, 1]], "float32")},
          id=f"{fn} ties")
        C(f"paddle.{fn}", f"paddle.{fn}(x, axis=1)",
          {"x": V([[1., 3, 3], [3, 1, 1]], "float32")}, id=f"{fn} ties axis")
        for dt in ("float16", "bfloat16", "float64", "int32", "int64"):
            C(f"paddle.{fn}", f"paddle.{fn}(x, axis=0)", {"x": P([4, 3], dt)}, id=f"{fn}_{dt}")
        C(f"paddle.{fn}", f"paddle.{fn}(x)", {"x": R("float32", [])})
    for fn in ("sort", "argsort"):
        for code in (f"paddle.{fn}(x)", f"paddle.{fn}(x, axis=0)",
                     f"paddle.{fn}(x, axis=1, descending=True)",
                     f"paddle.{fn}(x, -1, True, True)", f"x.{fn}(axis=0, descending=True)",
                     f"paddle.{fn}(x, axis=3)"):
            C(f"paddle.Tensor.{fn}" if code.startswith("x.") else f"paddle.{fn}", code,
              {"x": P([2, 3, 4])}, ("x",) if fn == "sort" else ())
        for dt in ("float16", "bfloat16", "float64", "int32", "int64"):
            C(f"paddle.{fn}", f"paddle.{fn}(x, descending=True)", {"x": P([7], dt)},
              ("x",) if fn == "sort" and dt in FLOATS else (), id=f"{fn}_{dt}")
        C(f"paddle.{fn}", f"paddle.{fn}(x, stable=True)",
          {"x": V([1., 3, 3, 1, 1, 3], "float32")}, id=f"{fn} stable ties")
        C(f"paddle.{fn}", f"paddle.{fn}(x, descending=True, stable=True)",
          {"x": V([1, 3, 3, 1, 1, 3], "int64")}, id=f"{fn} stable ties desc")
        C(f"paddle.{fn}", f"paddle.{fn}(x)", {"x": R("float32", [])})
        C(f"paddle.{fn}", f"paddle.{fn}(x)", {"x": R("bool", [5])})
    for code in ("paddle.topk(x, 2)", "paddle.topk(x, 1, axis=0, largest=False)",
                 "paddle.topk(x, 3, axis=-2)", "paddle.topk(x, paddle.to_tensor(2), axis=1)",
                 "paddle.topk(x, 2, sorted=True, largest=False)", "x.topk(1)",
                 "paddle.topk(x, 9)"):
        C("paddle.Tensor.topk" if code.startswith("x.") else "paddle.topk", code,
          {"x": P([2, 3, 4])}, ("x",))
    for dt in ("float16", "bfloat16", "float64", "int32", "int64"):
        C("paddle.topk", "paddle.topk(x, 3)", {"x": P([6], dt)},
          ("x",) if dt in FLOATS else (), id=f"topk_{dt}")
    C("paddle.topk", "paddle.topk(x, 2)", {"x": V([1., 3, 3, 1], "float32")}, id="topk ties")
    C("paddle.searchsorted", "paddle.searchsorted(s, v)",
      {"s": V([1., 3, 5, 7], "float32"), "v": V([[2., 3], [8, 0]], "float32")})
    C("paddle.searchsorted", "paddle.searchsorted(s, v, out_int32=True, right=True)",
      {"s": V([1., 3, 5, 7], "float32"), "v": V([2., 3, 7], "float32")})
    C("paddle.searchsorted", "paddle.searchsorted(s, v, right=True)",
      {"s": V([[1, 3, 5], [0, 2, 2]], "int64"), "v": V([[2, 3], [2, 9]], "int64")})
    C("paddle.searchsorted", "paddle.searchsorted(s, v)",
      {"s": V([1., 3, 5], "float64"), "v": V(4.0, "float64")})
    C("paddle.index_select", "paddle.index_select(x, i, axis=-1)",
      {"x": x3, "i": V([2, 0, 2], "int64")}, ("x",))
    C("paddle.index_select", "paddle.index_select(x, i)", {"x": x3, "i": V([1], "int32")}, ("x",))
    C("paddle.index_select", "paddle.index_select(x, i)", {"x": R("int64", [3]),
                                                          "i": V([], "int64")})
    C("paddle.Tensor.index_select", "x.index_select(i, 1)", {"x": x3, "i": V([0, 0], "int64")},
      ("x",))
    C("paddle.index_sample", "paddle.index_sample(x, i)",
      {"x": R("float32", [3, 4]), "i": V([[0, 1], [2, 3], [0, 0]], "int64")}, ("x",))
    C("paddle.index_sample", "paddle.index_sample(x, i)",
      {"x": R("int32", [2, 3]), "i": V([[2], [1]], "int32")})
    C("paddle.masked_select", "paddle.masked_select(x, m)", {"x": x3, "m": c3}, ("x",))
    C("paddle.masked_select", "paddle.masked_select(x, m)",
      {"x": x3, "m": R("bool", [3, 1])}, ("x",))
    C("paddle.masked_select", "paddle.masked_select(x, m)",
      {"x": R("int64", [4]), "m": R("bool", [4])})
    C("paddle.Tensor.masked_select", "x.masked_select(x > 0)", {"x": x3}, ("x",))
    C("paddle.isin", "paddle.isin(x, y)", {"x": I([2, 3], 0, 6), "y": V([1, 5, 2], "int64")})
    C("paddle.isin", "paddle.isin(x, y, invert=True)",
      {"x": V([1., 2, 3, 4], "float32"), "y": V([[2., 4]], "float32")})
    C("paddle.isin", "paddle.isin(x, y, assume_unique=True)",
      {"x": V([1, 2, 3], "int32"), "y": V([3, 1], "int32")})


def indexing_cases():
    """__getitem__ / __setitem__ (tests/test_indexing.py)."""
    x3 = R("float32", [2, 3, 4])
    get = [
        "x[1]", "x[-1]", "x[1:]", "x[:, 1]", "x[..., 1]", "x[None]", "x[:, None, 1]",
        "x[::2]", "x[::-1]", "x[::-1, ::-2]", "x[:, 2:0:-1]", "x[:, ::-1, 1::2]",
        "x[..., -1::-3]", "x[1, 2, 3]", "x[-1, -1, -1]", "x[0:0]", "x[5:]", "x[:, -100:100]",
        "x[True]", "x[False]", "x[..., None]", "x[1, ..., None, 2]",
        "x[[1, 0]]", "x[[True, False]]", "x[[[0, 1], [1, 0]]]", "x[[0, 1], [1, 2]]",
        "x[[0, 1], :, [1, 2]]", "x[:, [0, 1], [1, 2]]", "x[1, [0, 2]]", "x[1, :, [0, 2]]",
        "x[:, [2, 0, 2]]", "x[:, :, [-1]]", "x[[True, 1]]", "x[[]]", "x[(0, 1),]",
        "x[range(2)]", "x[np.array([1, 0])]", "x[np.array([True, False])]",
        "x[np.int64(1)]", "x[np.array(1)]", "x[:, np.array([[0, 1], [2, 2]])]",
        "x[paddle.to_tensor(1)]", "x[paddle.to_tensor(1), 1]", "x[:, paddle.to_tensor(1)]",
        "x[paddle.to_tensor([0, 1], dtype='int32')]", "x[paddle.to_tensor([1, 0])]",
        "x[paddle.to_tensor([[1], [0]]), paddle.to_tensor([0, 2])]",
        "x[x > 0]", "x[m2]", "x[:, m1]", "x[m1d]", "x[m2, 1]",
        "x[[paddle.to_tensor(0), paddle.to_tensor(1)]]",
        "x[paddle.to_tensor(0):paddle.to_tensor(1)]", "x[0, 1:3, ::-1]",
        "x[::-1][[1, 0]]",
        "x[5]", "x[-3]", "x[0, 0, 0, 0]", "x[1.0]", "x['a']", "x[::0]",
        "x[..., 1, ...]", "x[paddle.to_tensor([0., 1.])]",
        "x[paddle.to_tensor([1, 0], dtype='uint8')]", "x[m1]",
    ]
    inputs = {"x": x3, "m2": R("bool", [2, 3]), "m1": R("bool", [3]),
              "m1d": V([True, False], "bool")}
    for code in get:
        C("paddle.Tensor.__getitem__", code, inputs, ("x",))
    for dt in ("float16", "bfloat16", "float64", "int32", "int64", "bool"):
        C("paddle.Tensor.__getitem__", "x[1, 1:, [0, 2]]", {"x": R(dt, [2, 3, 4])},
          ("x",) if dt in FLOATS else (), id=f"getitem_{dt}")
    for code in ("x[0]", "x[None]", "x[...]", "x[()]", "x[x > 0]"):
        C("paddle.Tensor.__getitem__", code, {"x": R("float32", [])}, ("x",), id=f"0-d {code}")
    C("paddle.Tensor.__getitem__", "x[:, 1]", {"x": R("float32", [0, 3])}, ("x",),
      id="empty x[:, 1]")
    # __setitem__ on an intermediate: grads reach a (but the overwritten part) and v.
    sets = [
        ("x[0] = 5.0", {}), ("x[:, 1] = v", {"v": R("float32", [4])}),
        ("x[0, 1] = v", {"v": R("float32", [1, 1, 4])}),
        ("x[..., 0] = v", {"v": R("float32", [3])}),
        ("x[:, ::-1] = v", {"v": R("float32", [3, 1])}),
        ("x[::-1, 1, ::-2] = v", {"v": R("float32", [2, 2])}),
        ("x[[0, 1], [1, 2]] = v", {"v": R("float32", [2, 4])}),
        ("x[[0, 1], :, [1, 2]] = v", {"v": R("float32", [3])}),
        ("x[:, [2, 0]] = v", {"v": R("float32", [2, 2, 4])}),
        ("x[m] = 0.0", {"m": R("bool", [2, 3, 4])}),
        ("x[m] = v", {"m": R("bool", [2, 3]), "v": R("float32", [4])}),
        ("x[x > 0.5] = v", {"v": V(-1.0, "float32")}),
        ("x[1] = np.arange(12).reshape(3, 4)", {}),
        ("x[1, 1] = np.float64(2.5)", {}),
        ("x[1, 1] = True", {}),
        ("x[paddle.to_tensor(1)] = v", {"v": R("float64", [4])}),
        ("x[np.array([1])] = v", {"v": R("float16", [3, 4])}),
        ("x[None, 0] = v", {"v": R("float32", [1, 3, 4])}),
        ("x[0, 1] = v", {"v": R("float32", [3])}),
        ("x[0] = [1.0, 2.0, 3.0, 4.0]", {}), ("x[0] = (1.0, 2.0, 3.0, 4.0)", {}),
        ("x[0] = None", {}), ("x[0] = 'a'", {}), ("x[::0] = 1.0", {}),
        ("x[5] = 1.0", {}),
    ]
    for stmt, extra in sets:
        grad = ("a",) + tuple(k for k, s in extra.items() if s[1] in FLOATS)
        C("paddle.Tensor.__setitem__", f"x = a * 1\n{stmt}\nout = x", dict({"a": x3}, **extra),
          grad, id=f"setitem {stmt}", exec_=True)
    for dt, stmt in (("int32", "x[0] = 5.7"), ("int64", "x[0] = -5.7"),
                     ("int32", "x[0] = v"), ("bool", "x[0] = 2"), ("bool", "x[0] = 0.5"),
                     ("int64", "x[:, ::-1] = v"), ("float16", "x[1] = v"),
                     ("bfloat16", "x[:, 1:] = 0.5")):
        extra = {"v": V(5.7, "float32")} if stmt == "x[0] = v" else \
            ({"v": R("int64", [3, 1])} if "::-1" in stmt else
             ({"v": R("float32", [3, 4])} if dt == "float16" else {}))
        C("paddle.Tensor.__setitem__", f"x = a.clone()\n{stmt}\nout = x",
          dict({"a": R(dt, [2, 3, 4])}, **extra), id=f"setitem {dt} {stmt}", exec_=True)
    C("paddle.Tensor.__setitem__", "x[0] = 1.0\nout = x", {"x": x3}, ("x",),
      id="setitem on leaf raises", exec_=True)
    C("paddle.Tensor.__setitem__", "with paddle.no_grad():\n    x[0] = 1.0\nout = x", {"x": x3},
      id="setitem on leaf under no_grad", exec_=True)
    C("paddle.Tensor.__setitem__", "x = a.clone()\nx.stop_gradient = True\nx[0, 1] = v * 2\n"
      "out = x", {"a": x3, "v": R("float32", [4])}, ("v",),
      id="setitem grad reaches v from a stop_gradient x", exec_=True)
    C("paddle.Tensor.__setitem__", "x = a.clone()\nx[1] = 0.0\ny = x[0]\nout = x",
      {"a": R("float32", [2, 3])}, ("a",), id="setitem then getitem", exec_=True)


def main():
    manipulation_cases()
    search_cases()
    indexing_cases()
    with open(OUT, "w") as f:
        json.dump({"cases": CASES}, f, separators=(",", ":"))
    print(f"{len(CASES)} cases -> {OUT} ({os.path.getsize(OUT) // 1024} KiB)")


if __name__ == "__main__":
    main()
