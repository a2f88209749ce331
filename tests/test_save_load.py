"""paddle.save / paddle.load against real Paddle 3.3.1, both directions:

* tests/data/paddle/: files real Paddle wrote (tools/goldens/record_amp_io.py); we load them and
  must get what Paddle gets (goldens/amp_io.json "save_load"), and saving what we loaded must
  give back the very same bytes;
* tests/data/ours/: files our writer wrote (tools/goldens/check_paddle_loads.py write), which
  real Paddle loaded (goldens/amp_io_paddle_loads.json); our writer must still produce those
  bytes, and what Paddle read must be what we saved.
"""
import io
import json
import os
import pickle
import pickletools
import sys

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat.framework.io import load, save

HERE = os.path.dirname(__file__)
PADDLE_FILES = os.path.join(HERE, "data", "paddle")
OUR_FILES = os.path.join(HERE, "data", "ours")
G = json.load(open(os.path.join(HERE, "goldens", "amp_io.json")))["save_load"]
VERDICT = json.load(open(os.path.join(HERE, "goldens", "amp_io_paddle_loads.json")))
sys.path.insert(0, os.path.join(HERE, "..", "tools", "goldens"))
from check_paddle_loads import ours_objects  # noqa: E402


def describe(obj):
    """The recorder's JSON tree of a loaded object (tools/goldens/record_amp_io.py)."""
    if isinstance(obj, paddle.Tensor):
        a = obj.astype("float32").numpy() if obj.dtype in (paddle.bfloat16, paddle.float16) \
            else obj.numpy()
        d = {"T": obj.dtype.name, "shape": list(obj.shape), "v": a.tolist(),
             "sg": obj.stop_gradient}
        if not obj.name.startswith(("generated_tensor", "eager_in_tmp")):
            d["name"] = obj.name
        return d
    if isinstance(obj, np.ndarray):
        return {"A": str(obj.dtype), "shape": list(obj.shape), "v": obj.tolist()}
    if isinstance(obj, dict):
        return {"D": type(obj).__name__, "items": [[k, describe(v)] for k, v in obj.items()]}
    if isinstance(obj, (list, tuple)):
        return {"L" if isinstance(obj, list) else "U": [describe(v) for v in obj]}
    return {"P": type(obj).__name__, "v": obj}


def _json(tree):
    return json.loads(json.dumps(tree))


def _pickle_ops(data):
    """A pickle's opcodes and arguments, numpy's module spelled as numpy 2 spells it."""
    return [(op.name, arg.replace("numpy.core.", "numpy._core.") if isinstance(arg, str) else arg)
            for op, arg, _ in pickletools.genops(data) if op.name != "FRAME"]


def assert_same_file(ours, theirs, msg=None):
    """The files were written under numpy 2 (real Paddle's and ours): under numpy 1 numpy
    pickles its arrays from ``numpy.core`` (as Paddle does there), else every byte is equal."""
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        assert ours == theirs, msg
    else:
        assert _pickle_ops(ours) == _pickle_ops(theirs), msg


@pytest.mark.parametrize("fname", sorted(G["files"]))
def test_load_files_paddle_wrote(fname):
    path = os.path.join(PADDLE_FILES, fname)
    g = G["files"][fname]
    assert _json(describe(load(path))) == g["load"]
    assert _json(describe(load(path, return_numpy=True))) == g["load_numpy"]
    if "keep_name_table" in g:
        assert _json(describe(load(path, keep_name_table=True))) == g["keep_name_table"]


@pytest.mark.parametrize("fname", sorted(set(G["files"]) - {"arrays.pdparams"}))
def test_resaving_what_paddle_wrote_gives_the_same_bytes(fname):
    # (arrays.pdparams held bare numpy arrays, which load as Tensors: not the same object)
    path = os.path.join(PADDLE_FILES, fname)
    buf = io.BytesIO()
    save(load(path), buf)
    assert_same_file(buf.getvalue(), open(path, "rb").read())


@pytest.mark.parametrize("fname", sorted(VERDICT["files"]))
def test_paddle_loads_what_we_write(fname):
    obj, protocol = ours_objects(paddle)[fname]
    buf = io.BytesIO()
    save(obj, buf, protocol=protocol)
    path = os.path.join(OUR_FILES, fname)
    assert_same_file(buf.getvalue(), open(path, "rb").read(), "our writer's bytes changed")
    got = VERDICT["files"][fname]
    # real Paddle read back what we saved ...
    buf.seek(0)
    assert _json(describe(load(buf))) == got["load"]
    buf.seek(0)
    assert _json(describe(load(buf, return_numpy=True))) == got["load_numpy"]
    # ... and a Tensor we saved is described the same as the one Paddle loaded
    if isinstance(obj, paddle.Tensor):
        assert _json(describe(obj)) == {**got["load"], "sg": obj.stop_gradient}


def test_errors_match_paddle():
    g = G["errors"]

    def caught(fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            return [type(e).__name__, str(e)]

    sd = {"w": paddle.ones([2])}
    assert caught(lambda: save({"a": 1}, io.BytesIO(), protocol=5)) == g["protocol"]
    assert caught(lambda: save(sd, io.BytesIO(), protocol=1)) == g["protocol_sd"]
    assert caught(lambda: save([paddle.nn.Linear(2, 2)], io.BytesIO())) == g["layer"]
    assert caught(lambda: load("/nonexistent/x.pdparams")) == g["missing"]
    assert caught(lambda: save({"a": 1}, 3)) == g["path_type"]
    assert caught(lambda: save({"a": 1}, "somedir/")) == g["empty_name"]
    assert caught(lambda: load(os.path.join(PADDLE_FILES, "linear.pdparams"), foo=1)) == \
        g["config"]


def test_protocol2_state_dict():
    buf = io.BytesIO()
    save(load(os.path.join(PADDLE_FILES, "linear.pdparams")), buf, protocol=2)
    buf.seek(0)
    assert _json(describe(load(buf))) == G["protocol2"]


def test_round_trip_file_and_structures(tmp_path):
    t = paddle.to_tensor([[1.0, 2.0]], dtype="bfloat16")
    obj = {"a": [t, (1, "x")], "b": {"c": np.ones(2)}, "n": None}
    path = str(tmp_path / "sub" / "obj.pdparams")
    save(obj, path)
    back = load(path)
    assert back["a"][0].dtype == paddle.bfloat16 and back["a"][0].name == t.name
    assert back["a"][1] == (1, "x") and isinstance(back["b"]["c"], np.ndarray)
    assert back["n"] is None
    # a state dict of Parameters keeps the parameters' names
    lin = paddle.nn.Linear(2, 3)
    save(lin.state_dict(), path)
    sd = load(path)
    assert [v.name for v in sd.values()] == [p.name for p in lin.parameters()]
    np.testing.assert_array_equal(sd["weight"].numpy(), lin.weight.numpy())
    lin2 = paddle.nn.Linear(2, 3)
    lin2.set_state_dict(sd)
    np.testing.assert_array_equal(lin2.weight.numpy(), lin.weight.numpy())


def test_load_refuses_code():
    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))
    buf = io.BytesIO(pickle.dumps([Evil()], protocol=4))
    with pytest.raises(pickle.UnpicklingError, match="refuses"):
        load(buf)
    # Paddle's raw DenseTensor form eval('data', {'data': array}) loads without eval
    buf = io.BytesIO(pickle.dumps(_DenseTensorLike(), protocol=4))
    out = load(buf)
    assert out.dtype == paddle.int32 and out.tolist() == [1, 2]


class _DenseTensorLike:
    def __reduce__(self):
        return (eval, ("data", {"data": np.array([1, 2], np.int32)}))
