"""Running one parsed config against a ``paddle`` module (real Paddle or paddle_compat) and
encoding what it produced as JSON: tensors as {dtype, shape, npy (base64 of numpy's .npy)},
containers as lists, Python values as themselves, an exception as {error: nearest built-in
type, type: its class name, msg}. In-place APIs also report their first input after the call."""
import base64
import io
import math
import zlib

import numpy as np

from .inputs import config_seed, make_array
from .parse import DType, NpType, TensorSpec

_NPTYPES = {"bool": bool, "int": int, "float": float, "complex": complex}


def arrays_for(call):
    """{path: numpy array} for every tensor of the call (deterministic)."""
    seed = config_seed(call.line)
    out = {}
    for i, (path, spec) in enumerate(call.tensors()):
        rng = np.random.default_rng([seed, i])
        out[path] = make_array(call, path, spec, rng)
    return out


def _to_paddle(paddle, spec, arr):
    if spec.dtype == "bfloat16":
        return paddle.to_tensor(np.asarray(arr, dtype=np.float32)).astype("bfloat16")
    return paddle.to_tensor(np.asarray(arr), dtype=spec.dtype)


def materialize(call, paddle, arrays):
    """The call's args and kwargs as objects of ``paddle``."""
    def conv(v, path):
        if isinstance(v, TensorSpec):
            return _to_paddle(paddle, v, arrays[path])
        if isinstance(v, DType):
            return getattr(paddle, v.name)
        if isinstance(v, NpType):
            n = v.name
            return getattr(np, n.split(".", 1)[1]) if n.startswith("numpy.") else _NPTYPES[n]
        if isinstance(v, list):
            return [conv(e, path + (i,)) for i, e in enumerate(v)]
        if isinstance(v, tuple):
            return tuple(conv(e, path + (i,)) for i, e in enumerate(v))
        if isinstance(v, slice):
            return slice(*(conv(e, path + (i,)) for i, e in enumerate((v.start, v.stop, v.step))))
        return v
    args = [conv(a, ("a", i)) for i, a in enumerate(call.args)]
    kwargs = {k: conv(a, ("k", k)) for k, a in call.kwargs.items()}
    return args, kwargs


def resolve(api, paddle):
    obj = paddle
    for part in api.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _npy(arr):
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(arr), allow_pickle=False)
    return base64.b64encode(zlib.compress(buf.getvalue())).decode()


def load_npy(text):
    return np.load(io.BytesIO(zlib.decompress(base64.b64decode(text))), allow_pickle=False)


def encode(obj, paddle, depth=0):
    if isinstance(obj, BaseException):
        builtin = next(c for c in type(obj).__mro__ if c.__module__ == "builtins")
        return {"error": builtin.__name__, "type": type(obj).__name__, "msg": str(obj)[:300]}
    if depth > 6:
        return {"repr": "..."}
    if type(obj).__name__ in ("Jacobian", "Hessian"):  # lazy matrices: compare their values
        try:
            obj = obj[:]
        except Exception as e:  # noqa: BLE001
            return encode(e, paddle, depth)
    if isinstance(obj, paddle.Tensor):
        t = obj
        out = {}
        try:
            if t.is_sparse():
                out["sparse"] = True
                t = t.to_dense()
        except Exception:  # noqa: BLE001
            pass
        dt = str(t.dtype).replace("paddle.", "")
        arr = (t.astype("float32") if dt == "bfloat16" else t).numpy()
        out.update({"dtype": dt, "shape": [int(d) for d in t.shape], "npy": _npy(arr)})
        return out
    if isinstance(obj, np.ndarray):
        return {"ndarray": str(obj.dtype), "shape": list(obj.shape), "npy": _npy(obj)}
    if isinstance(obj, (list, tuple)):
        return [encode(v, paddle, depth + 1) for v in obj]
    if isinstance(obj, dict):
        return {"dict": {str(k): encode(v, paddle, depth + 1) for k, v in obj.items()}}
    if isinstance(obj, bool) or obj is None or isinstance(obj, (int, str)):
        return {"py": obj}
    if isinstance(obj, float):
        return {"py": obj if math.isfinite(obj) else repr(obj)}
    if isinstance(obj, complex):
        return {"complex": [obj.real, obj.imag]}
    if isinstance(obj, np.generic):
        return {"np": str(obj.dtype), "value": encode(obj.item(), paddle, depth + 1)}
    return {"repr": str(obj).replace("paddle_compat", "paddle")[:200]}


def is_inplace(api):
    name = api.rsplit(".", 1)[-1]
    return name == "__setitem__" or (name.endswith("_") and not name.endswith("__"))


def run(call, paddle):
    """Run ``call`` on ``paddle``; the encoded outcome."""
    try:
        arrays = arrays_for(call)
        args, kwargs = materialize(call, paddle, arrays)
    except Exception as e:  # noqa: BLE001
        return {"setup_error": f"{type(e).__name__}: {e}"[:300]}
    paddle.seed(config_seed(call.line) % (2 ** 31))
    try:
        fn = resolve(call.api, paddle)
    except AttributeError as e:
        return {"result": {"error": "AttributeError", "type": "missing", "msg": str(e)[:200]}}
    try:
        res = fn(*args, **kwargs)
        out = {"result": encode(res, paddle)}
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return {"result": encode(e, paddle)}
    if is_inplace(call.api) and args:
        out["inplace"] = encode(args[0], paddle)
    return out
