"""Record Paddle 3.3.1's ``paddle.sparse.nn`` (sparse convolutions, pooling, activations,
softmax, batch norm, layers) as goldens for tests/test_sparse_nn.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_sparse_nn.py

Writes tests/goldens/sparse_nn.json: {"paddle_version", "cases": [...]}, each case

    name, op     what ran: a functional name (``conv3d``, ``subm_conv3d``, ``max_pool3d``,
                 ``relu`` ...) or a layer (``layer:BatchNorm`` ...)
    args         keyword arguments of the call (lists for tuples)
    x            the input: {format: coo|csr, shape, dtype, indices | crows+cols, values}
    weight, bias the convolution's kernel and bias (dense {shape, dtype, values}), if any
    out          the result (same form as ``x``)
    cot          the cotangent given to the output's values (``out.backward(cot)``)
    grads        {x: the input's gradient values, weight, bias}
    extra        anything else the case checks (running statistics, parameter names ...)
    error        for a bad input: {type, message}

The input ``x`` is a sparse leaf (``stop_gradient = False`` set after creation: Paddle keeps
no gradient on a tensor made by ``sparse_coo_tensor(..., stop_gradient=False)``, whose
gradient flows on to its (constant) indices and values).
"""
import json
import os
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)
import paddle.sparse as sp  # noqa: E402
import paddle.sparse.nn as snn  # noqa: E402
import paddle.sparse.nn.functional as SF  # noqa: E402

paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "sparse_nn.json")
rng = np.random.default_rng(20261126)


def floats(a):
    a = np.asarray(a)
    if a.dtype == np.float64:
        return [float(z) for z in a.reshape(-1)]
    return [float(str(z)) for z in a.astype(np.float32).reshape(-1)]


def dense_spec(a, dtype):
    return {"shape": list(a.shape), "dtype": dtype, "values": floats(a.astype(dtype))}


def sparse_spec(t):
    dt = str(t.dtype).replace("paddle.", "")
    if t.is_sparse_coo():
        return {"format": "coo", "shape": list(t.shape), "dtype": dt,
                "indices": t.indices().numpy().tolist(), "values": floats(t.values().numpy()),
                "values_shape": list(t.values().shape)}
    return {"format": "csr", "shape": list(t.shape), "dtype": dt,
            "crows": t.crows().numpy().tolist(), "cols": t.cols().numpy().tolist(),
            "values": floats(t.values().numpy()), "values_shape": list(t.values().shape)}


def cloud(batch, spatial, nnz_each, channels, dtype="float32"):
    """A random point cloud: ``nnz_each`` distinct active sites per batch item, as (indices,
    values), sorted by site as Paddle coalesces them."""
    idx = []
    cells = int(np.prod(spatial))
    for b in range(batch):
        flat = np.sort(rng.choice(cells, nnz_each, replace=False))
        coords = np.stack(np.unravel_index(flat, spatial), 0)
        idx.append(np.concatenate([np.full((1, nnz_each), b), coords], 0))
    idx = np.concatenate(idx, 1).astype(np.int64)
    vals = rng.standard_normal((idx.shape[1], channels)).astype(dtype)
    return idx, vals


def make_coo(idx, vals, shape):
    x = sp.sparse_coo_tensor(paddle.to_tensor(idx), paddle.to_tensor(vals), shape)
    x.stop_gradient = False
    return x


CASES = []


def conv_case(name, op, batch, spatial, nnz_each, cin, cout, ksize, args, bias=True,
              dtype="float32"):
    idx, vals = cloud(batch, spatial, nnz_each, cin, dtype)
    shape = [batch, *spatial, cin]
    x = make_coo(idx, vals, shape)
    w = (rng.standard_normal((*ksize, cin, cout)) * 0.5).astype(dtype)
    b = rng.standard_normal(cout).astype(dtype) if bias else None
    wt = paddle.to_tensor(w, stop_gradient=False)
    bt = paddle.to_tensor(b, stop_gradient=False) if bias else None
    y = getattr(SF, op)(x, wt, bt, **args)
    cot = rng.standard_normal(tuple(y.values().shape)).astype(dtype)
    y.backward(sp.sparse_coo_tensor(y.indices(), paddle.to_tensor(cot), y.shape))
    case = {"name": name, "op": op, "args": args, "x": sparse_spec(x),
            "weight": dense_spec(w, dtype), "out": sparse_spec(y), "cot": floats(cot),
            "grads": {"x": floats(x.grad.values().numpy()), "weight": floats(wt.grad.numpy())}}
    if bias:
        case["bias"] = dense_spec(b, dtype)
        case["grads"]["bias"] = floats(bt.grad.numpy())
    CASES.append(case)


def pool_case(name, batch, spatial, nnz_each, c, args, ties=False):
    idx, vals = cloud(batch, spatial, nnz_each, c)
    if ties:
        vals = np.round(vals)
    x = make_coo(idx, vals, [batch, *spatial, c])
    y = SF.max_pool3d(x, **args)
    cot = rng.standard_normal(tuple(y.values().shape)).astype("float32")
    y.backward(sp.sparse_coo_tensor(y.indices(), paddle.to_tensor(cot), y.shape))
    CASES.append({"name": name, "op": "max_pool3d", "args": args, "x": sparse_spec(x),
                  "out": sparse_spec(y), "cot": floats(cot),
                  "grads": {"x": floats(x.grad.values().numpy())}})


def unary_case(name, op, fmt, args, layer=None, dtype="float32"):
    d = rng.standard_normal((2, 3, 5)).astype(dtype) * 3
    d[rng.random(d.shape) < 0.45] = 0
    if fmt == "csr3":     # a 3-D CSR tensor with the same pattern (and nnz) in each batch
        d[1][d[0] == 0] = 0
        d[1][(d[0] != 0) & (d[1] == 0)] = 1.5
    t = paddle.to_tensor(d)
    x = t.to_sparse_coo(2) if fmt == "coo2" else t.to_sparse_coo(3) if fmt == "coo" \
        else t.to_sparse_csr() if fmt == "csr3" else t.reshape([6, 5]).to_sparse_csr()
    x.stop_gradient = False
    y = getattr(snn, layer)(**args)(x) if layer else getattr(SF, op)(x, **args)
    cot = rng.standard_normal(tuple(y.values().shape)).astype(dtype)
    if y.is_sparse_coo():
        g = sp.sparse_coo_tensor(y.indices(), paddle.to_tensor(cot), y.shape)
    else:
        g = sp.sparse_csr_tensor(y.crows(), y.cols(), paddle.to_tensor(cot), y.shape)
    y.backward(g)
    CASES.append({"name": name, "op": f"layer:{layer}" if layer else op, "args": args,
                  "x": sparse_spec(x), "out": sparse_spec(y), "cot": floats(cot),
                  "grads": {"x": floats(x.grad.values().numpy())}})


def bn_case(name, layer, args, train=True, steps=2, ref=None):
    """``ref``: the layer Paddle runs instead where it has no CPU kernel (SyncBatchNorm, which
    on one process is BatchNorm)."""
    idx, vals = cloud(2, (3, 4, 5), 12, 3)
    vals = vals * 2 + 1
    x = make_coo(idx, vals, [2, 3, 4, 5, 3])
    paddle.seed(1)
    bn = getattr(snn, ref or layer)(3, **args)
    bn.weight.set_value(paddle.to_tensor(rng.uniform(0.5, 1.5, 3).astype("float32")))
    bn.bias.set_value(paddle.to_tensor(rng.uniform(-0.5, 0.5, 3).astype("float32")))
    w0, b0 = bn.weight.numpy(), bn.bias.numpy()
    if not train:
        bn.eval()
    for _ in range(steps - 1):
        bn(x)
    y = bn(x)
    cot = rng.standard_normal(tuple(y.values().shape)).astype("float32")
    y.backward(sp.sparse_coo_tensor(y.indices(), paddle.to_tensor(cot), y.shape))
    CASES.append({"name": name, "op": f"layer:{layer}", "args": args, "train": train,
                  "steps": steps, "x": sparse_spec(x), "out": sparse_spec(y), "cot": floats(cot),
                  "params": {"weight": floats(w0), "bias": floats(b0)},
                  "grads": {"x": floats(x.grad.values().numpy()),
                            "weight": floats(bn.weight.grad.numpy()),
                            "bias": floats(bn.bias.grad.numpy())},
                  "extra": {"mean": floats(bn._mean.numpy()),
                            "variance": floats(bn._variance.numpy()),
                            "state_dict": [[k, list(v.shape)] for k, v in
                                           getattr(snn, layer)(3).state_dict().items()]}})


def error_case(name, code):
    idx, vals = cloud(2, (3, 3, 3), 5, 2)
    x = sp.sparse_coo_tensor(paddle.to_tensor(idx), paddle.to_tensor(vals), [2, 3, 3, 3, 2])
    w = paddle.to_tensor(rng.standard_normal((3, 3, 3, 2, 4)).astype("float32"))
    try:
        eval(code, {"SF": SF, "snn": snn, "sp": sp, "paddle": paddle, "x": x, "w": w,
                    "idx": idx, "vals": vals})
    except Exception as e:  # noqa: BLE001  (recording whatever Paddle raises)
        CASES.append({"name": name, "op": "error", "code": code,
                      "error": {"type": type(e).__name__, "message": str(e)[:300]}})
    else:
        raise AssertionError(f"{name}: Paddle raised nothing")


# -- convolutions -------------------------------------------------------------------------
conv_case("conv3d_k3_p1", "conv3d", 2, (4, 5, 6), 14, 3, 4, (3, 3, 3), {"padding": 1})
conv_case("conv3d_k3_s2", "conv3d", 2, (5, 5, 6), 20, 2, 3, (3, 3, 3),
          {"stride": 2, "padding": 0})
conv_case("conv3d_mixed", "conv3d", 1, (6, 5, 7), 25, 3, 2, (2, 3, 1),
          {"stride": [1, 2, 1], "padding": [1, 0, 2], "dilation": [2, 1, 1]})
conv_case("conv3d_nobias_dil2", "conv3d", 2, (5, 5, 5), 15, 2, 3, (3, 3, 3),
          {"padding": 2, "dilation": 2}, bias=False)
conv_case("conv3d_pad6_asym", "conv3d", 1, (4, 4, 4), 12, 2, 2, (3, 3, 3),
          {"padding": [0, 1, 1, 1, 2, 2]})
conv_case("conv3d_pad6_sym", "conv3d", 1, (4, 4, 4), 12, 2, 2, (3, 3, 3),
          {"padding": [1, 1, 0, 0, 2, 2]})
conv_case("conv3d_same", "conv3d", 1, (4, 4, 4), 12, 2, 2, (3, 3, 3), {"padding": "SAME"})
conv_case("conv3d_f64", "conv3d", 2, (4, 4, 4), 10, 2, 3, (3, 3, 3), {"padding": 1},
          dtype="float64")
conv_case("subm3d_k3_p1", "subm_conv3d", 2, (4, 5, 6), 30, 3, 4, (3, 3, 3),
          {"padding": 1, "key": "subm_a"})
conv_case("subm3d_k3_p0", "subm_conv3d", 2, (4, 5, 6), 30, 3, 4, (3, 3, 3), {"padding": 0})
conv_case("subm3d_stride2", "subm_conv3d", 1, (5, 5, 5), 30, 2, 3, (3, 3, 3),
          {"padding": 1, "stride": 2})
conv_case("subm3d_dil2", "subm_conv3d", 1, (6, 6, 6), 40, 2, 3, (3, 3, 3),
          {"padding": 2, "dilation": 2})
conv_case("subm3d_k5_nobias", "subm_conv3d", 1, (5, 6, 7), 40, 2, 3, (5, 3, 1),
          {"padding": [2, 1, 0]}, bias=False)
conv_case("subm3d_f64", "subm_conv3d", 2, (4, 4, 4), 15, 2, 3, (3, 3, 3), {"padding": 1},
          dtype="float64")
conv_case("conv2d_k3_p1_s2", "conv2d", 2, (6, 7), 15, 3, 4, (3, 3),
          {"padding": 1, "stride": 2})
conv_case("conv2d_k2", "conv2d", 1, (5, 5), 10, 2, 2, (2, 2), {})
conv_case("subm2d_k3_p1", "subm_conv2d", 2, (6, 7), 15, 3, 4, (3, 3), {"padding": 1})
conv_case("subm2d_dil2", "subm_conv2d", 1, (7, 7), 20, 2, 2, (3, 3),
          {"padding": 2, "dilation": 2}, bias=False)

# -- pooling ------------------------------------------------------------------------------
pool_case("maxpool_k3_s2_p1", 2, (5, 6, 7), 40, 3, {"kernel_size": 3, "stride": 2, "padding": 1})
pool_case("maxpool_k2", 1, (4, 4, 4), 20, 2, {"kernel_size": 2})
pool_case("maxpool_mixed", 1, (6, 5, 4), 30, 2,
          {"kernel_size": [2, 3, 1], "stride": [2, 1, 1], "padding": [0, 1, 0]})
pool_case("maxpool_ties", 1, (4, 4, 4), 30, 2, {"kernel_size": 2, "stride": 1}, ties=True)

# -- activations, softmax -----------------------------------------------------------------
for fmt in ("coo", "coo2", "csr", "csr3"):
    unary_case(f"relu_{fmt}", "relu", fmt, {})
    unary_case(f"relu6_{fmt}", "relu6", fmt, {})
    unary_case(f"leaky_relu_{fmt}", "leaky_relu", fmt, {"negative_slope": 0.2})
unary_case("relu6_f64", "relu6", "coo", {}, dtype="float64")
unary_case("layer_relu", None, "coo", {}, layer="ReLU")
unary_case("layer_relu6", None, "csr", {}, layer="ReLU6")
unary_case("layer_leaky_relu", None, "coo", {"negative_slope": 0.3}, layer="LeakyReLU")
unary_case("softmax_csr", "softmax", "csr", {})
unary_case("softmax_csr3", "softmax", "csr3", {})
unary_case("softmax_coo", "softmax", "coo", {})
unary_case("softmax_f64", "softmax", "csr", {}, dtype="float64")
unary_case("layer_softmax", None, "csr", {}, layer="Softmax")

# -- batch norm ---------------------------------------------------------------------------
bn_case("batchnorm_train", "BatchNorm", {})
bn_case("batchnorm_momentum", "BatchNorm", {"momentum": 0.5, "epsilon": 1e-3}, steps=3)
bn_case("batchnorm_eval", "BatchNorm", {}, train=False, steps=1)
bn_case("syncbatchnorm_train", "SyncBatchNorm", {}, ref="BatchNorm")  # no CPU kernel

# -- bad input ----------------------------------------------------------------------------
error_case("conv3d_dense_input", "SF.conv3d(x.to_dense(), w)")
error_case("conv3d_4d_input", "SF.conv3d(sp.sparse_coo_tensor(paddle.to_tensor(idx[:3]), "
                              "paddle.to_tensor(vals), [2, 3, 3, 2]), w)")
error_case("conv3d_format", "SF.conv3d(x, w, data_format='NCDHW')")
error_case("conv3d_groups", "SF.conv3d(x, w, groups=2)")
error_case("conv3d_dtype", "SF.conv3d(x, w.astype('float64'))")
error_case("conv2d_5d_input", "SF.conv2d(x, w)")
error_case("subm3d_format", "SF.subm_conv3d(x, w, data_format='NCDHW')")
error_case("maxpool_format", "SF.max_pool3d(x, 2, data_format='NCDHW')")
error_case("softmax_csr_axis", "SF.softmax(x.to_dense().reshape([6, 18]).to_sparse_csr(), "
                               "axis=0)")

# -- layers: parameters, names, repr, default initialisation ------------------------------
layers = []
for code in ["snn.Conv3D(3, 4, 3)", "snn.SubmConv3D(2, 5, (3, 1, 3), key='k', bias_attr=False)",
             "snn.Conv2D(3, 4, (2, 3), stride=2)", "snn.SubmConv2D(2, 3, 3, padding=1)",
             "snn.MaxPool3D(3, stride=2)", "snn.BatchNorm(3)", "snn.SyncBatchNorm(4)",
             "snn.ReLU()", "snn.ReLU6()", "snn.LeakyReLU(0.1)", "snn.Softmax()"]:
    paddle.seed(2026)
    m = eval(code)
    params = [[n, list(p.shape), bool(p.stop_gradient), float(p.numpy().astype("float64").sum()),
               float(p.numpy().astype("float64").std())] for n, p in m.named_parameters()]
    layers.append({"code": code, "repr": repr(m), "params": params,
                   "state_dict": [[k, list(v.shape)] for k, v in m.state_dict().items()]})

# -- examples/sparse_point_cloud.py on real Paddle: its training losses --------------------
EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                       "sparse_point_cloud.py")
with open(EXAMPLE) as f:
    src = f.read()
if "import paddle_compat as paddle\n" not in src:
    raise SystemExit("the example no longer imports paddle_compat as paddle")
env = {"__name__": "paddle_example"}
exec(compile(src.replace("import paddle_compat as paddle\n", "import paddle\n"), EXAMPLE,
             "exec"), env)
example_losses = env["main"]("cpu", verbose=False)

with open(OUT, "w") as f:
    json.dump({"paddle_version": paddle.__version__, "cases": CASES, "layers": layers,
               "example_losses": example_losses}, f)
print(f"wrote {len(CASES)} cases, {len(layers)} layers to {os.path.normpath(OUT)}")
