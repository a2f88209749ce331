"""Record real Paddle 3.3.1's float64 results for tests/test_float64.py: creation ops fed Python
floats, Python-scalar operands, ``__setitem__``, the float64 default dtype, and every op taking
scalar float attributes, run on float64 inputs.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_float64.py

Writes tests/goldens/float64.json: ``prelude`` (the code making the inputs) and ``cases``, a list
of {id, code, expected}; ``code`` runs after the prelude with ``paddle``, ``F``
(paddle.nn.functional) and ``np`` bound and leaves its result in ``out``; ``expected`` is
golden_utils.describe of it (floats stored with all their digits).

What the cases pin down: where Paddle carries a Python float at double precision (to_tensor,
full, arange, linspace, scalar operands, scale, clip, leaky_relu, softplus, logit ...) and where
its kernel takes the attribute as a C++ ``float``, so that a float64 computation sees
float32(0.1) rather than 0.1 (elu, celu, pow's factor, hardsigmoid, stanh, ...). The attribute
values (0.1, 0.3, 0.7, 1.7 ...) are chosen not to be exact in float32, so each case can tell the
two apart (the difference is ~1e-9 relative, the tests compare at 1e-14).
"""
import json
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))

warnings.filterwarnings("ignore")
import numpy as np  # noqa: E402
import paddle  # noqa: E402  (real Paddle: this script runs only in its virtualenv)
import paddle.nn.functional as F  # noqa: E402
from golden_utils import describe  # noqa: E402

PRELUDE = """\
x = paddle.to_tensor(np.array([-2.7, -1.3, -0.45, -0.1, 0.15, 0.55, 1.1, 2.9]))
p = paddle.to_tensor(np.array([0.15, 0.35, 0.55, 0.8, 1.1, 1.9, 2.6, 3.3]))
u = paddle.to_tensor(np.array([0.05, 0.15, 0.3, 0.45, 0.6, 0.75, 0.85, 0.95]))
y = paddle.to_tensor(np.array([0.3, -1.7, 2.2, 0.9, -0.35, 1.45, -2.05, 0.65]))
m = paddle.to_tensor(np.array([[0.3, -1.2, 2.1], [1.7, 0.45, -0.9]]))
n = paddle.to_tensor(np.array([[1.1, -0.7], [0.35, 2.3], [-1.6, 0.8]]))
s = paddle.to_tensor(np.array([[0.4, 1.3], [-0.2, 0.9]]))
img = paddle.to_tensor(np.sin(np.arange(2 * 4 * 3 * 3) * 0.7).reshape(2, 4, 3, 3) * 1.5)
seq = paddle.to_tensor(np.cos(np.arange(1 * 2 * 5) * 0.9).reshape(1, 2, 5) * 1.3)
lab = paddle.to_tensor(np.array([1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0]))
sgn = paddle.to_tensor(np.array([1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, -1.0]))
cls = paddle.to_tensor(np.array([2, 0, 1]))
logits = paddle.to_tensor(np.array([[0.3, -1.2, 2.1, 0.5], [1.7, 0.45, -0.9, 0.2],
                                    [-0.6, 0.8, 1.3, -2.2]]))
mask = paddle.to_tensor(np.array([True, False, False, True, True, False, True, False]))
"""

DD = "paddle.set_default_dtype('float64')\ntry:\n    {}\nfinally:\n    paddle.set_default_dtype('float32')"

CASES = []


def case(cid, code):
    assert cid not in {c[0] for c in CASES}, cid
    CASES.append((cid, code))


def dd(cid, expr):
    """A case run under set_default_dtype('float64')."""
    case(cid, DD.format("out = " + expr))


# --- creation from Python floats --------------------------------------------------------------
case("to_tensor[scalar,float64]", "out = paddle.to_tensor(0.1, dtype='float64')")
case("to_tensor[list,float64]", "out = paddle.to_tensor([0.1, 0.2, 0.7, 1e-300], dtype='float64')")
case("to_tensor[nested,float64]", "out = paddle.to_tensor([[0.1, 0.2], [0.3, 1.7]], dtype='float64')")
case("to_tensor[tuple,float64]", "out = paddle.to_tensor((0.1, 2, 0.3), dtype='float64')")
case("to_tensor[list,paddle.float64]", "out = paddle.to_tensor([0.1, 0.7], dtype=paddle.float64)")
case("to_tensor[list,complex128]", "out = paddle.to_tensor([0.1, 0.7], dtype='complex128')")
case("to_tensor[complex,complex128]", "out = paddle.to_tensor([0.1 + 0.3j], dtype='complex128')")
case("to_tensor[np.float64]", "out = paddle.to_tensor(np.float64(0.1))")
case("to_tensor[scalar,float32]", "out = paddle.to_tensor(0.1)")
case("to_tensor[tensor,float64]", "out = paddle.to_tensor(paddle.to_tensor(0.1, dtype='float64'))")
case("Tensor.astype[float64]", "out = paddle.to_tensor([0.1, 0.3]).astype('float64')")
dd("to_tensor[scalar,default float64]", "paddle.to_tensor(0.1)")
dd("to_tensor[list,default float64]", "paddle.to_tensor([0.1, 0.2, 1.7])")
dd("to_tensor[nested,default float64]", "paddle.to_tensor([[0.1, 0.2], [0.3, 1.7]])")
dd("to_tensor[complex,default float64]", "paddle.to_tensor([0.1 + 0.3j, 0.7])")
dd("to_tensor[ints,default float64]", "paddle.to_tensor([1, 2])")
case("full[float64]", "out = paddle.full([2, 2], 0.1, dtype='float64')")
case("full[tensor value,float64]",
     "out = paddle.full([2], paddle.to_tensor(0.3, dtype='float64'), dtype='float64')")
dd("full[default float64]", "paddle.full([3], 0.1)")
case("full_like[float64 x]", "out = paddle.full_like(x, 0.1)")
case("full_like[dtype float64]", "out = paddle.full_like(paddle.zeros([2]), 0.7, dtype='float64')")
dd("full_like[default float64]", "paddle.full_like(paddle.zeros([2]), 0.7)")
dd("zeros[default float64]", "paddle.zeros([2])")
dd("ones_like[default float64]", "paddle.ones_like(paddle.to_tensor([0.5]))")
case("arange[float64]", "out = paddle.arange(0.1, 2.3, 0.3, dtype='float64')")
case("arange[float64,step 0.1]", "out = paddle.arange(0, 1, 0.1, dtype='float64')")
case("arange[float64,end only]", "out = paddle.arange(2.7, dtype='float64')")
dd("arange[default float64]", "paddle.arange(0.1, 2.3, 0.3)")
case("linspace[float64]", "out = paddle.linspace(0.1, 2.3, 7, dtype='float64')")
case("linspace[float64,8]", "out = paddle.linspace(-1.3, 0.7, 8, dtype='float64')")
dd("linspace[default float64]", "paddle.linspace(0.1, 2.3, 7)")
case("logspace[float64]", "out = paddle.logspace(0.1, 2.3, 5, dtype='float64')")
case("logspace[float64,base 2.5]", "out = paddle.logspace(0.1, 2.3, 6, base=2.5, dtype='float64')")
dd("logspace[default float64]", "paddle.logspace(0.1, 1.3, 4, base=1.7)")
case("eye[float64]", "out = paddle.eye(2, 3, dtype='float64')")
case("assign[float]", "out = paddle.assign(0.1)")
case("assign[list]", "out = paddle.assign([0.1, 0.7])")
case("assign[ndarray]", "out = paddle.assign(np.array([0.1, 0.7]))")
case("assign[float,float32 output]",
     "o = paddle.zeros([1], 'float32')\nr = paddle.assign(0.1, output=o)\nout = [r, o, r is o]")
case("assign[list,float32 output]",
     "o = paddle.zeros([2], 'float32')\nr = paddle.assign([0.1, 0.7], output=o)\nout = [r, o]")
case("assign[float64 tensor,float32 output]",
     "o = paddle.zeros([3], 'float32')\nr = paddle.assign(x[:2], output=o)\nout = [r, o, r is o]")
case("assign[tensor]", "out = paddle.assign(x)")
case("Tensor.fill_", "z = x.clone()\nz.fill_(0.1)\nout = z")
case("Tensor.fill_diagonal_", "z = paddle.zeros([3, 3], 'float64')\nz.fill_diagonal_(0.1)\nout = z")
case("Tensor.fill_diagonal_[offset]",
     "z = paddle.zeros([3, 4], 'float64')\nz.fill_diagonal_(0.7, offset=1)\nout = z")
case("diag[padding_value]", "out = paddle.diag(paddle.to_tensor(np.array([0.3, 1.7])), padding_value=0.1)")
case("where[scalar y]", "out = paddle.where(x > 0, x, 0.1)")
case("where[scalar x]", "out = paddle.where(x > 0, 0.7, x)")
case("masked_fill", "out = paddle.masked_fill(x, mask, 0.1)")
case("masked_fill_", "z = x.clone()\nz.masked_fill_(mask, 0.3)\nout = z")
case("index_fill", "out = paddle.index_fill(m, paddle.to_tensor([1]), 0, 0.1)")
case("index_put[scalar tensor]",
     "out = paddle.index_put(x, (paddle.to_tensor([1, 3]),), paddle.to_tensor(0.1, dtype='float64'))")
case("setitem[int,float]", "z = x.clone()\nz[1] = 0.1\nout = z")
case("setitem[slice,float]", "z = x.clone()\nz[2:5] = 0.7\nout = z")
case("setitem[mask,float]", "z = x.clone()\nz[mask] = 0.3\nout = z")
case("setitem[2d,float]", "z = m.clone()\nz[:, 1] = 0.1\nout = z")
case("setitem[np.float64]", "z = x.clone()\nz[0] = np.float64(0.1)\nout = z")
case("setitem[ndarray]", "z = x.clone()\nz[0:2] = np.array([0.1, 0.7])\nout = z")

# inputs made from Python lists with dtype='float64' (the path the issue found lossy)
L64 = "paddle.to_tensor([0.1, -0.7, 1.3, 0.35], dtype='float64')"
case("where[list input]", f"z = {L64}\nout = paddle.where(z > 0.2, z, 0.1)")
case("clip[list input]", f"out = paddle.clip({L64}, 0.1, 0.7)")
case("setitem[list input]", f"z = {L64}\nz[1] = 0.3\nout = z * 0.1 + 0.7")
case("fill_[list input]", f"z = {L64}\nz.fill_(0.3)\nout = z / 0.7")

# --- Python scalars as operands ----------------------------------------------------------------
for sym, tag in (("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "div"), ("**", "pow"),
                 ("//", "floordiv"), ("%", "mod")):
    case(f"Tensor.__{tag}__[float]", f"out = p {sym} 0.3")
    case(f"Tensor.__r{tag}__[float]", f"out = 0.3 {sym} p")
case("Tensor.__mul__[int]", "out = x * 3")
case("Tensor.__truediv__[int]", "out = x / 3")
case("Tensor.__iadd__[float]", "z = x.clone()\nz += 0.1\nout = z")
case("Tensor.__imul__[float]", "z = x.clone()\nz *= 0.1\nout = z")
case("Tensor.__neg__", "out = -x")
for sym, tag in (("==", "eq"), ("!=", "ne"), ("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge")):
    case(f"Tensor.__{tag}__[float]",
         f"z = paddle.to_tensor(np.array([0.1, 0.3, 0.7, 1.7]))\nout = z {sym} 0.1")
case("Tensor.__eq__[0.7]", "out = paddle.to_tensor(np.array([0.7, 0.3])) == 0.7")
case("add[scalar tensor]", "out = paddle.add(x, paddle.to_tensor(0.1, dtype='float64'))")
case("maximum[0-d float64]", "out = paddle.maximum(x, paddle.to_tensor(0.1, dtype='float64'))")
case("sub[alpha]", "out = paddle.sub(x, y, alpha=0.3)")
case("index_add[alpha]",
     "out = paddle.index_add(m, paddle.to_tensor([1]), 0, paddle.ones([1, 3], 'float64'), alpha=0.3)")
case("pow[0.3]", "out = paddle.pow(p, 0.3)")
case("pow[2.5]", "out = paddle.pow(p, 2.5)")
case("pow[int 3]", "out = paddle.pow(x, 3)")
case("pow[tensor]", "out = paddle.pow(p, paddle.to_tensor(0.3, dtype='float64'))")
case("Tensor.pow[0.3]", "out = p.pow(0.3)")
case("Tensor.__pow__[0.5]", "out = p ** 0.5")
case("Tensor.__pow__[1.7]", "out = p ** 1.7")
case("Tensor.__rpow__[1.7]", "out = 1.7 ** x")
case("scale[0.1,0.3]", "out = paddle.scale(x, 0.1, 0.3)")
case("scale[bias before]", "out = paddle.scale(x, 0.1, 0.3, bias_after_scale=False)")
case("scale[tensor scale]", "out = paddle.scale(x, paddle.to_tensor(0.1, dtype='float64'))")
case("scale_", "z = x.clone()\nz.scale_(0.7, 0.1)\nout = z")
case("increment[0.1]", "out = paddle.increment(paddle.to_tensor(np.array([0.3])), 0.1)")
case("clip[0.1,0.7]", "out = paddle.clip(u, 0.1, 0.7)")
case("clip[min only]", "out = paddle.clip(x, min=0.3)")
case("clip[tensor bounds]",
     "out = paddle.clip(u, paddle.to_tensor(0.1, dtype='float64'), paddle.to_tensor(0.7, dtype='float64'))")
case("clip_", "z = u.clone()\nz.clip_(0.3, 0.7)\nout = z")
case("lerp[0.1]", "out = paddle.lerp(x, y, 0.1)")
case("lerp[0.7]", "out = paddle.lerp(x, y, 0.7)")
case("lerp_", "z = x.clone()\nz.lerp_(y, 0.3)\nout = z")
case("addmm[alpha,beta]",
     "out = paddle.addmm(paddle.ones([2, 2], 'float64'), m, n, beta=0.3, alpha=0.7)")
case("addmm_", "z = s.clone()\nz.addmm_(m, n, beta=0.1, alpha=1.7)\nout = z")
case("baddbmm[alpha,beta]",
     "out = paddle.baddbmm(s.unsqueeze(0), m.unsqueeze(0), n.unsqueeze(0), beta=0.3, alpha=0.7)")
case("stanh[default]", "out = paddle.stanh(x)")
case("stanh[0.3,1.7]", "out = paddle.stanh(x, 0.3, 1.7)")
case("logit[eps 0.1]", "out = paddle.logit(u, eps=0.1)")
case("logit[eps 0.3]", "out = paddle.logit(u, eps=0.3)")
case("nan_to_num",
     "z = paddle.to_tensor(np.array([np.nan, np.inf, -np.inf, 0.5]))\n"
     "out = paddle.nan_to_num(z, nan=0.1, posinf=1.7, neginf=-0.3)")
case("isclose[atol 0.1]",
     "out = paddle.isclose(paddle.to_tensor(np.array([1.0, 2.0])), "
     "paddle.to_tensor(np.array([1.1, 2.3])), rtol=0.0, atol=0.1)")
case("isclose[rtol 0.1]",
     "out = paddle.isclose(paddle.to_tensor(np.array([1.1, 3.0])), "
     "paddle.to_tensor(np.array([1.0, 3.3])), rtol=0.1, atol=0.0)")
case("allclose[atol 0.1]",
     "out = paddle.allclose(paddle.to_tensor(np.array([1.0])), "
     "paddle.to_tensor(np.array([1.1])), rtol=0.0, atol=0.1)")
case("trapezoid[dx]", "out = paddle.trapezoid(x, dx=0.1)")
case("cumulative_trapezoid[dx]", "out = paddle.cumulative_trapezoid(x, dx=0.3)")
case("quantile[0.3]", "out = paddle.quantile(x, 0.3)")
case("quantile[list]", "out = paddle.quantile(x, [0.1, 0.7])")
case("nanquantile[0.3]", "out = paddle.nanquantile(x, 0.3)")
case("renorm[p,max_norm]", "out = paddle.renorm(m, 1.5, 0, 0.7)")
case("dist[p 1.5]", "out = paddle.dist(x, y, p=1.5)")
case("norm[p 1.5]", "out = paddle.norm(x, p=1.5)")
case("linalg.vector_norm[p 1.5]", "out = paddle.linalg.vector_norm(x, p=1.5)")
case("linalg.norm[p 0.3]", "out = paddle.linalg.norm(x, p=0.3)")
case("cdist[p 1.5]", "out = paddle.cdist(m, n.T, p=1.5)")
case("pdist[p 1.5]", "out = paddle.pdist(n, p=1.5)")
case("histogram[min,max]", "out = paddle.histogram(x, bins=4, min=-2.3, max=2.1)")
case("histogram_bin_edges[data range]", "out = paddle.histogram_bin_edges(x, bins=5)")
case("linspace[float32]", "out = paddle.linspace(-2.3, 2.1, 5)")
case("linspace[float32,int dtype]", "out = paddle.linspace(-2.3, 2.1, 5, dtype='int64')")
case("histogram_bin_edges[min,max]",
     "out = paddle.histogram_bin_edges(x, bins=4, min=-2.3, max=2.1)")

# --- activations with scalar attributes --------------------------------------------------------
for fn, args in (
        ("elu", "0.1"), ("elu", "1.7"), ("celu", "0.3"), ("celu", "1.7"),
        ("leaky_relu", "0.1"), ("leaky_relu", ""),
        ("selu", ""), ("selu", "1.7, 0.3"),
        ("hardsigmoid", ""), ("hardsigmoid", "0.3, 0.1"),
        ("hardtanh", "-0.3, 0.7"), ("hardshrink", "0.3"), ("softshrink", "0.3"),
        ("softshrink", ""),
        ("thresholded_relu", "0.3, 0.1"), ("thresholded_relu", "0.1"),
        ("softplus", "1.7, 2.3"), ("softplus", "0.3"),
        ("mish", ""), ("swish", ""), ("silu", ""), ("gelu", ""), ("gelu", "approximate=True"),
        ("relu6", ""), ("hardswish", ""), ("log_sigmoid", ""), ("tanhshrink", ""),
        ("softsign", ""), ("rrelu", "0.1, 0.3, training=False"), ("sigmoid", ""),
        ("relu", ""), ("tanh", "")):
    tag = args or "default"
    case(f"F.{fn}[{tag}]", f"out = F.{fn}(x{', ' + args if args else ''})")
case("F.mish[threshold]", "out = F.mish(x * 10)")
case("F.softplus[threshold]", "out = F.softplus(x * 10, 0.3, 2.3)")
case("F.elu_", "z = x.clone()\nF.elu_(z, 0.3)\nout = z")
case("F.leaky_relu_", "z = x.clone()\nF.leaky_relu_(z, 0.3)\nout = z")
case("F.hardtanh_", "z = x.clone()\nF.hardtanh_(z, -0.3, 0.7)\nout = z")
case("F.thresholded_relu_", "z = x.clone()\nF.thresholded_relu_(z, 0.3, 0.1)\nout = z")
case("F.prelu", "out = F.prelu(m, paddle.to_tensor(np.array([0.3])))")
case("F.glu", "out = F.glu(m.T)")

# boundaries: a float attribute compares float32(0.3) with the input, a double one 0.3
BND = "paddle.to_tensor(np.array([0.29999999, 0.3, 0.300000005, 0.30000001192092896, 0.3000001, -0.3, -0.300000005]))"
case("F.hardshrink[boundary]", f"out = F.hardshrink({BND}, 0.3)")
case("F.softshrink[boundary]", f"out = F.softshrink({BND}, 0.3)")
case("F.thresholded_relu[boundary]", f"out = F.thresholded_relu({BND}, 0.3)")
case("F.hardtanh[boundary]", f"out = F.hardtanh({BND}, -0.3, 0.3)")
case("F.softplus[threshold boundary]",
     "out = F.softplus(paddle.to_tensor(np.array([2.2999999, 2.3, 2.300000005, 2.3000001])), 1.0, 2.3)")
case("clip[boundary]", f"out = paddle.clip({BND}, -0.3, 0.3)")
case("Tensor.pow_", "z = p.clone()\nz.pow_(0.3)\nout = z")
case("arange[float64,0.1 step count]", "out = paddle.arange(0.1, 1.3, 0.1, dtype='float64')")
case("linspace[float64,num 1]", "out = paddle.linspace(0.1, 2.3, 1, dtype='float64')")

# --- random ops: the same stream as Paddle's CPU engine, so the float attributes show
case("uniform[min,max]", "paddle.seed(7)\nout = paddle.uniform([6], 'float64', 0.1, 0.7)")
case("Tensor.uniform_", "paddle.seed(7)\nz = paddle.zeros([6], 'float64')\nz.uniform_(0.1, 0.7)\nout = z")
dd("normal[mean,std]", "(paddle.seed(7), paddle.normal(0.1, 0.3, [6]))[1]")
case("Tensor.normal_", "paddle.seed(7)\nz = paddle.zeros([6], 'float64')\nz.normal_(0.1, 0.3)\nout = z")
case("Tensor.exponential_", "paddle.seed(7)\nz = paddle.zeros([6], 'float64')\nz.exponential_(0.3)\nout = z")
case("F.dropout[p]", "paddle.seed(7)\nout = F.dropout(x, 0.3)")
case("F.dropout[downscale]", "paddle.seed(7)\nout = F.dropout(m, 0.3, mode='downscale_in_infer', training=False)")
case("F.alpha_dropout[p]", "paddle.seed(7)\nout = F.alpha_dropout(x, 0.3)")
case("F.rrelu[training]", "paddle.seed(7)\nout = F.rrelu(x, 0.1, 0.3)")

case("F.gumbel_softmax[temperature]", "paddle.seed(7)\nout = F.gumbel_softmax(m, 0.3)")
case("log_normal[mean,std]", "paddle.seed(7)\nout = paddle.log_normal(0.1, 0.3, [6], 'float64')")
case("Tensor.cauchy_", "paddle.seed(7)\nz = paddle.zeros([6], 'float64')\nz.cauchy_(0.1, 0.3)\nout = z")
case("Tensor.geometric_", "paddle.seed(7)\nz = paddle.zeros([6], 'float64')\nz.geometric_(0.3)\nout = z")
case("initializer.Constant",
     "out = paddle.create_parameter([3], 'float64', default_initializer=paddle.nn.initializer.Constant(0.1))")
case("initializer.Uniform",
     "paddle.seed(7)\nout = paddle.create_parameter([4], 'float64', "
     "default_initializer=paddle.nn.initializer.Uniform(0.1, 0.7))")
case("initializer.Normal",
     "paddle.seed(7)\nout = paddle.create_parameter([4], 'float64', "
     "default_initializer=paddle.nn.initializer.Normal(0.1, 0.3))")

# --- normalisations, distances, padding, resizing ----------------------------------------------
case("F.layer_norm[epsilon]", "out = F.layer_norm(m, [3], epsilon=0.0007)")
case("F.layer_norm[weight]", "out = F.layer_norm(m, [3], weight=y[:3], bias=x[:3], epsilon=0.0003)")
case("F.batch_norm[epsilon]",
     "out = F.batch_norm(img, paddle.to_tensor(np.array([0.1, 0.2, 0.3, 0.4])), "
     "paddle.to_tensor(np.array([0.5, 0.7, 1.1, 1.3])), epsilon=0.1)")
case("F.batch_norm[training]",
     "out = F.batch_norm(img, paddle.zeros([4], 'float64'), paddle.ones([4], 'float64'), "
     "training=True, epsilon=0.1)")
case("F.instance_norm[eps]", "out = F.instance_norm(img, eps=0.1)")
case("F.group_norm[epsilon]", "out = F.group_norm(img, 2, epsilon=0.1)")
case("F.local_response_norm", "out = F.local_response_norm(img, 3, alpha=0.1, beta=0.3, k=1.7)")
case("F.normalize[p,epsilon]", "out = F.normalize(m, p=1.5, axis=1, epsilon=0.1)")
case("F.normalize[epsilon]", "out = F.normalize(m * 1e-3, axis=1, epsilon=0.1)")
case("F.cosine_similarity[eps]", "out = F.cosine_similarity(m, m * 0.01, axis=1, eps=0.1)")
case("F.pairwise_distance[p,epsilon]", "out = F.pairwise_distance(m, n.T, p=1.5, epsilon=0.1)")
case("F.lp_pool1d[norm_type]", "out = F.lp_pool1d(seq.abs(), 1.5, 2)")
case("F.lp_pool2d[norm_type]", "out = F.lp_pool2d(img.abs(), 2.5, 2)")
case("F.embedding[max_norm]",
     "w = paddle.to_tensor(np.array([[0.3, -1.2, 2.1], [1.7, 0.45, -0.9], [0.2, 0.1, -0.4]]))\n"
     "out = [F.embedding(paddle.to_tensor([0, 1]), w, max_norm=0.7, norm_type=1.5), w]")
case("F.pad[value]", "out = F.pad(m, [1, 1], value=0.1)")
case("F.pad[value,4d]", "out = F.pad(img, [1, 0, 0, 1], value=0.7)")
case("F.label_smooth[epsilon]", "out = F.label_smooth(F.one_hot(cls, 4).astype('float64'), epsilon=0.3)")
# 1 - epsilon and epsilon / classes are formed in float32 (0.3 / 4 and 0.7 / 3 round there)
case("F.label_smooth[epsilon,3 classes]", "out = F.label_smooth(F.one_hot(cls, 3).astype('float64'), epsilon=0.7)")
case("F.label_smooth[epsilon,prior_dist]",
     "out = F.label_smooth(F.one_hot(cls, 3).astype('float64'), "
     "prior_dist=paddle.to_tensor(np.array([[0.2, 0.3, 0.5]])), epsilon=0.1)")
case("F.temporal_shift[ratio]",
     "out = F.temporal_shift(paddle.to_tensor(np.arange(4 * 10 * 1 * 1.0).reshape(4, 10, 1, 1)), 2, "
     "shift_ratio=0.3)")
for mode, sf in (("linear", 1.7), ("linear", 0.7)):
    case(f"F.interpolate[{mode},1d,scale {sf}]",
         f"out = F.interpolate(seq, scale_factor={sf}, mode='{mode}', data_format='NCW')")
for mode in ("bilinear", "bicubic", "nearest"):
    case(f"F.interpolate[{mode},scale 1.7]",
         f"out = F.interpolate(img, scale_factor=1.7, mode='{mode}')")
case("F.interpolate[bilinear,align_corners]",
     "out = F.interpolate(img, scale_factor=1.7, mode='bilinear', align_corners=True)")
case("F.interpolate[bilinear,size]", "out = F.interpolate(img, size=[5, 4], mode='bilinear')")
case("F.interpolate[bicubic,size]", "out = F.interpolate(img, size=[5, 2], mode='bicubic')")
case("F.interpolate[linear,size]", "out = F.interpolate(seq, size=[7], mode='linear', data_format='NCW')")
case("F.interpolate[trilinear,size]",
     "out = F.interpolate(img.unsqueeze(2), size=[2, 5, 4], mode='trilinear')")
for mode, nd in (("linear", 3), ("bilinear", 4), ("bicubic", 4), ("nearest", 4), ("trilinear", 5)):
    fmt = {3: "NCW", 4: "NCHW", 5: "NCDHW"}[nd]
    case(f"F.interpolate[{mode},scale 0.7,size 10]",
         f"z = paddle.to_tensor(np.cos(np.arange({10 ** (nd - 2)}) * 0.3).reshape([1, 1] + [10] * {nd - 2}))\n"
         f"out = F.interpolate(z, scale_factor=0.7, mode='{mode}', data_format='{fmt}')")
    if mode != "nearest":
        case(f"F.interpolate[{mode},align_corners,size 10]",
             f"z = paddle.to_tensor(np.cos(np.arange({10 ** (nd - 2)}) * 0.3).reshape([1, 1] + [10] * {nd - 2}))\n"
             f"out = F.interpolate(z, scale_factor=1.3, mode='{mode}', align_corners=True, data_format='{fmt}')")
    if mode not in ("nearest", "bicubic"):
        case(f"F.interpolate[{mode},align_mode 1]",
             f"z = paddle.to_tensor(np.cos(np.arange({10 ** (nd - 2)}) * 0.3).reshape([1, 1] + [10] * {nd - 2}))\n"
             f"out = F.interpolate(z, scale_factor=1.3, mode='{mode}', align_mode=1, data_format='{fmt}')")
case("F.interpolate[trilinear,scale 1.3]",
     "out = F.interpolate(img.unsqueeze(2), scale_factor=[1.0, 1.3, 1.7], mode='trilinear')")

# --- losses with scalar attributes ---------------------------------------------------------------
case("F.smooth_l1_loss[delta]", "out = F.smooth_l1_loss(x, y, reduction='none', delta=0.3)")
case("F.margin_ranking_loss[margin]",
     "out = F.margin_ranking_loss(x, y, sgn, margin=0.1, reduction='none')")
case("F.hinge_embedding_loss[margin]",
     "out = F.hinge_embedding_loss(x, sgn, margin=0.3, reduction='none')")
case("F.cosine_embedding_loss[margin]",
     "out = F.cosine_embedding_loss(m, n.T, paddle.to_tensor(np.array([1.0, -1.0])), margin=0.1, "
     "reduction='none')")
case("F.sigmoid_focal_loss[alpha,gamma]",
     "out = F.sigmoid_focal_loss(x.reshape([2, 4]), lab.reshape([2, 4]), alpha=0.3, gamma=1.7, reduction='none')")
case("F.dice_loss[epsilon]",
     "out = F.dice_loss(F.softmax(logits), cls.unsqueeze(1), epsilon=0.1)")
case("F.gaussian_nll_loss[epsilon]",
     "out = F.gaussian_nll_loss(x, y, u * 0.01, epsilon=0.1, reduction='none')")
case("F.poisson_nll_loss[epsilon]",
     "out = F.poisson_nll_loss(u, p, log_input=False, epsilon=0.1, reduction='none')")
case("F.triplet_margin_loss[margin,epsilon]",
     "out = F.triplet_margin_loss(m, n.T, m * 0.5, margin=0.3, p=1.5, epsilon=0.1, reduction='none')")
case("F.triplet_margin_with_distance_loss[margin]",
     "out = F.triplet_margin_with_distance_loss(m, n.T, m * 0.5, margin=0.3, reduction='none')")
case("F.multi_margin_loss[margin]",
     "out = F.multi_margin_loss(logits, cls, margin=0.3, reduction='none')")
case("F.cross_entropy[label_smoothing]",
     "out = F.cross_entropy(logits, cls, label_smoothing=0.1, reduction='none')")
case("F.square_error_cost", "out = F.square_error_cost(x, y)")


def main():
    paddle.set_device("cpu")
    paddle.disable_static()
    out = {"paddle_version": paddle.__version__, "prelude": PRELUDE, "cases": []}
    for cid, code in CASES:
        env = {"paddle": paddle, "F": F, "np": np}
        exec(PRELUDE, env)
        try:
            exec(code, env)
            expected = describe(env["out"], paddle)
        except Exception as e:  # noqa: BLE001 - the exception is the result
            expected = describe(e, paddle)
            print(f"{cid}: {type(e).__name__}: {str(e)[:200]}")
        assert paddle.get_default_dtype() == "float32", cid
        out["cases"].append({"id": cid, "code": code, "expected": expected})
    path = os.path.join(ROOT, "tests", "goldens", "float64.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {len(CASES)} cases to {path}")


if __name__ == "__main__":
    main()
