"""What the op-library recorders share: turning stored input specs into real Paddle tensors
and Paddle's results into the JSON the tests compare against. Runs under real Paddle only."""
import numpy as np
import paddle

FLOATS = ("float16", "bfloat16", "float32", "float64")


def build(spec):
    """The Paddle tensor for a stored input spec {dtype, shape, values}."""
    if spec["dtype"] == "bool":
        a = np.array(spec["values"], dtype=bool)
    elif spec["dtype"] in FLOATS:
        a = np.array(spec["values"], dtype=np.float64)
    else:
        a = np.array(spec["values"], dtype=np.int64)
    return paddle.to_tensor(a.reshape(spec["shape"])).astype(spec["dtype"])


def plain_floats(a):
    return [float(z) for z in a.reshape(-1)]


def short_floats(a):
    """Floats of a float32 (or narrower) array as the shortest decimals that round-trip."""
    if a.dtype == np.float64:
        return plain_floats(a)
    return [float(str(z)) for z in a.astype(np.float32).reshape(-1)]


def encode(t, floats=plain_floats):
    """{dtype, shape, values} of a Paddle tensor (bfloat16 read through float32, complex as
    [real, imag] pairs)."""
    dt = str(t.dtype).replace("paddle.", "")
    a = t.astype("float32").numpy() if dt == "bfloat16" else t.numpy()
    if a.dtype.kind == "c":
        vals = [[float(z.real), float(z.imag)] for z in a.reshape(-1)]
    elif a.dtype.kind == "f":
        vals = floats(a)
    elif a.dtype.kind == "b":
        vals = [bool(z) for z in a.reshape(-1)]
    else:
        vals = [int(z) for z in a.reshape(-1)]
    return {"dtype": dt, "shape": list(t.shape), "values": vals}


def encode_result(r, floats=plain_floats):
    """A result: a tensor, a (nested) tuple of results, or a Python value."""
    if isinstance(r, paddle.Tensor):
        return encode(r, floats)
    if isinstance(r, (tuple, list)):
        return {"tuple": [encode_result(v, floats) for v in r]}
    return {"py": r if isinstance(r, (bool, int, float, type(None))) else repr(r)}


def tensor_outputs(r):
    """The tensors in a result, in order."""
    if isinstance(r, paddle.Tensor):
        return [r]
    if isinstance(r, (tuple, list)):
        return [t for v in r for t in tensor_outputs(v)]
    return []
