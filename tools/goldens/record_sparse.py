"""Record paddle.sparse goldens (tensors, Tensor methods, printing, ops, gradients, errors) from
real Paddle into tests/goldens/sparse.json. Run with the Paddle venv:

    ../paddle_venv/bin/python tools/goldens/record_sparse.py

A case is (id, code[, says]): the code runs after PRELUDE with ``paddle`` and ``np`` bound and
leaves its result in ``out`` (``sp(t)`` describes a sparse or dense result part by part, ``txt``
is the printed text); ``golden_utils.describe`` turns it into JSON. A case that raises records
the exception's built-in type and message; ``says`` lists words its message must hold (checked
here against Paddle's, and by the test against ours). The ops with no CPU kernel in Paddle
3.3.1 (matmul, masked_matmul, mv, addmm, pca_lowrank) are tested against numpy in
tests/test_sparse.py instead.
"""
import json
import os
import sys

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from golden_utils import describe  # noqa: E402

PRELUDE = '''
S = paddle.sparse
def sp(t):
    d = {"shape": list(t.shape), "dtype": str(t.dtype).replace("paddle.", ""),
         "stop_gradient": t.stop_gradient}
    if t.is_sparse_coo():
        d.update(layout="coo", indices=t.indices(), vals=t.values(), coalesced=t.is_coalesced())
    elif t.is_sparse_csr():
        d.update(layout="csr", crows=t.crows(), cols=t.cols(), vals=t.values())
    else:
        d.update(layout="dense", vals=t)
    return d
def txt(t):
    return repr(t)
def W(t):
    n = int(np.prod(t.shape))
    return paddle.to_tensor((((np.arange(n) % 7) - 3) / 4.0).reshape(t.shape)).astype(t.dtype)
def arr(a, dtype="float32", sg=True):
    return paddle.to_tensor(np.array(a, dtype=dtype), stop_gradient=sg)
def rnd(shape, seed, lo=-1.0, hi=1.0):
    return np.random.RandomState(seed).uniform(lo, hi, shape).astype("float32")
I2 = [[0, 0, 1, 2, 3], [1, 3, 0, 2, 1]]
def coo2(vals=None, sg=True, dtype="float32"):
    v = arr(vals if vals is not None else [0.5, -0.25, 0.75, -0.5, 0.125], dtype, sg)
    return S.sparse_coo_tensor(arr(I2, "int64"), v, [4, 4], stop_gradient=sg), v
def csr2(vals=None, sg=True):
    v = arr(vals if vals is not None else [0.5, -0.25, 0.75, -0.5, 0.125], "float32", sg)
    return S.sparse_csr_tensor(arr([0, 2, 3, 4, 5], "int64"), arr([1, 3, 0, 2, 1], "int64"), v,
                               [4, 4], stop_gradient=sg), v
'''

CASES = []


def case(cid, code, says=()):
    CASES.append({"id": cid, "code": code.strip("\n"), "says": list(says)})


# ------------------------------------------------------------------ tensors and printing
case("coo_print", """
x = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1., 2., 3.], [3, 3])
out = [txt(x), str(x), sp(x)]""")
case("coo_print_sg_false", """
x = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1.5, -2., 3.25], [3, 3], stop_gradient=False)
out = [txt(x), sp(x)]""")
case("coo_print_int_f64", """
a = S.sparse_coo_tensor([[0, 3], [2, 1]], [7, -12], [4, 4])
b = S.sparse_coo_tensor([[0, 3], [2, 1]], [0.1, 2.5], [4, 4], dtype="float64")
out = [txt(a), txt(b), sp(a), sp(b)]""")
case("coo_infer_shape", """
x = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1., 2., 3.])
out = [sp(x), txt(x)]""")
case("coo_dense_dims", """
x = S.sparse_coo_tensor([[0, 1], [1, 2]], [[1., 2.], [3., 4.]], [2, 3, 2])
out = [txt(x), sp(x), x.dense_dim(), x.sparse_dim(), x.nnz(), sp(x.to_dense())]""")
case("coo_methods", """
x = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1., 2., 3.], [3, 3])
out = [x.is_sparse(), x.is_sparse_coo(), x.is_sparse_csr(), x.is_dense(), x.nnz(),
       x.dense_dim(), x.sparse_dim(), x.is_coalesced(), x.indices(), x.values(), list(x.shape),
       str(x.dtype), str(x.place), x.stop_gradient, x.grad is None]""")
case("coo_uncoalesced", """
x = S.sparse_coo_tensor([[1, 0, 1], [0, 0, 0]], [1., 2., 3.], [3, 3])
c = x.coalesce()
out = [txt(x), sp(x), sp(c), txt(c), c.is_coalesced(), sp(S.coalesce(x))]""")
case("uncoalesced_to_dense", """
x = S.sparse_coo_tensor([[1, 0, 1], [0, 0, 0]], [1., 2., 3.], [3, 3])
out = sp(x.to_dense())""")
case("csr_print", """
x = S.sparse_csr_tensor([0, 1, 3], [1, 0, 2], [1., 2., 3.], [2, 3])
out = [txt(x), sp(x), x.nnz(), x.is_sparse(), x.is_sparse_csr(), x.is_sparse_coo(),
       x.dense_dim(), x.sparse_dim(), sp(x.to_dense())]""")
case("csr_3d", """
x = S.sparse_csr_tensor([0, 1, 2, 0, 1, 2], [1, 0, 0, 2], [1., 2., 3., 4.], [2, 2, 3])
out = [txt(x), sp(x), x.nnz(), sp(x.to_dense()), sp(x.to_sparse_coo(3))]""")
case("csr_3d_ops", """
x = S.sparse_csr_tensor([0, 1, 2, 0, 1, 2], [1, 0, 0, 2], [1., 2., 3., 4.], [2, 2, 3])
out = [sp(S.sin(x)), sp(S.transpose(x, [0, 2, 1])), sp(S.add(x, x)),
       sp(S.multiply(x, 2.)), sp(S.reshape(x, [2, 3, 2])), sp(S.slice(x, [1], [1], [2]))]""")
case("csr_3d_sum", """
x = S.sparse_csr_tensor([0, 1, 2, 0, 1, 2], [1, 0, 0, 2], [1., 2., 3., 4.], [2, 2, 3])
out = [sp(S.sum(x, -1)), sp(S.sum(x))]""")
case("dense_to_coo", """
d = arr([[0., 1., 0.], [2., 0., 3.]])
out = [txt(d.to_sparse_coo(2)), sp(d.to_sparse_coo(2)), txt(d.to_sparse_coo(1)),
       sp(d.to_sparse_coo(1))]""")
case("dense_to_csr", """
d = arr([[0., 1., 0.], [2., 0., 3.]])
d3 = arr([[[0., 1.], [2., 0.]], [[0., 0.], [5., 6.]]])
out = [txt(d.to_sparse_csr()), sp(d.to_sparse_csr()), sp(d3.to_sparse_csr())]""")
case("coalesced_flags", """
x = S.sparse_coo_tensor([[1, 0, 1], [0, 0, 2]], [1., 2., -3.], [3, 3]).coalesce()
d = arr([[1., 2, 3], [4, 5, 6], [7, 8, 9]])
out = [S.sin(x).is_coalesced(), S.add(x, x).is_coalesced(), S.multiply(x, 2.).is_coalesced(),
       S.reshape(x, [9]).is_coalesced(),
       S.slice(x, [0], [0], [2]).is_coalesced(), S.sum(x, 0).is_coalesced(),
       S.cast(x, value_dtype="float64").is_coalesced(), S.pow(x, 2).is_coalesced(),
       S.mask_as(d, x).is_coalesced(), d.to_sparse_coo(2).is_coalesced(),
       x.to_sparse_csr().to_sparse_coo(2).is_coalesced(), S.divide(x, 2.).is_coalesced(),
       S.subtract(x, x).is_coalesced(), S.neg(x).is_coalesced()]""")
case("transpose_flag", """
x = S.sparse_coo_tensor([[1, 0, 1], [0, 0, 2]], [1., 2., -3.], [3, 3]).coalesce()
out = S.transpose(x, [1, 0]).is_coalesced()""")
case("coo_csr_roundtrip", """
x, _ = coo2()
c = x.to_sparse_csr()
out = [sp(c), sp(c.to_sparse_coo(2)), sp(x.to_sparse_coo(2)), sp(c.to_sparse_csr())]""")
case("dense_methods", """
d = arr([1., 2.])
out = [d.is_sparse(), d.is_sparse_coo(), d.is_sparse_csr(), d.is_dense(), d.dense_dim(),
       d.sparse_dim()]""")
case("values_stop_gradient_flag", """
v = arr([1., 2., 3.], sg=False)
x = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], v, [3, 3])
w = arr([1., 2., 3.])
y = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], w, [3, 3], stop_gradient=False)
out = [v.stop_gradient, x.stop_gradient, w.stop_gradient, y.stop_gradient,
       y.values().stop_gradient]""")
case("print_long", """
x = S.sparse_coo_tensor([list(range(30)), [i % 5 for i in range(30)]],
                        [i / 8 - 1 for i in range(30)], [30, 5])
out = [txt(x)]""")

# ------------------------------------------------------------------ errors
case("err_shape_small", """
out = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1., 2., 3.], [2, 2])""", ["shape"])
case("err_nnz", """
out = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1., 2.], [3, 3])""", ["indices", "values"])
case("err_indices_1d", """
out = S.sparse_coo_tensor([0, 1], [1., 2.], [3, 3])""", ["indices"])
case("err_csr_cols", """
out = S.sparse_csr_tensor([0, 1, 2], [1, 0, 2], [1., 2.], [2, 3])""", ["cols", "values"])
case("err_csr_rank", """
out = S.sparse_csr_tensor([0, 1, 3], [1, 0, 2], [1., 2., 3.], [2, 3, 4, 5])""", ["2-D", "3-D"])
case("err_dense_indices", "out = arr([1., 2.]).indices()", ["SparseCooTensor"])
case("err_dense_values", "out = arr([1., 2.]).values()", ["values"])
case("err_dense_nnz", "out = arr([1., 2.]).nnz()", ["SparseCooTensor"])
case("err_dense_to_dense", "out = arr([1., 2.]).to_dense()", ["to_dense"])
case("err_dense_coalesce", "out = arr([1., 2.]).coalesce()", ["coalesce"])
case("err_dense_is_coalesced", "out = arr([1., 2.]).is_coalesced()", ["coo"])
case("err_csr_indices", "x, _ = csr2(); out = x.indices()", ["SparseCooTensor"])
case("err_coo_crows", "x, _ = coo2(); out = x.crows()", ["SparseCsrTensor"])
case("err_csr_is_coalesced", "x, _ = csr2(); out = x.is_coalesced()", ["coo"])
case("err_sparse_dim", "out = arr([[1., 0.]]).to_sparse_coo(3)", ["sparse_dim"])
case("err_csr_4d", "out = paddle.ones([2, 3, 4, 5]).to_sparse_csr()", ["2-D", "3-D"])
case("err_add_dense", "x, _ = coo2(); out = S.add(x, paddle.ones([4, 4]))", ["Dense"])
case("err_add_dense_sparse", "x, _ = coo2(); out = S.add(paddle.ones([4, 4]), x)", ["add"])
case("err_add_coo_csr", "x, _ = coo2(); c, _ = csr2(); out = S.add(x, c)", ["add"])
case("err_mul_dense", "x, _ = coo2(); out = S.multiply(x, paddle.ones([4, 4]))",
     ["multiply"])
case("err_add_shape", """
x, _ = coo2(); out = S.add(x, S.sparse_coo_tensor([[0]], [1.], [2]))""", ["shape"])
for api, call, kernel in (
        ("sin", "S.sin(d)", "sin"), ("abs", "S.abs(d)", "abs"), ("pow", "S.pow(d, 2)", "pow"),
        ("cast", "S.cast(d, value_dtype='float64')", "cast"), ("add", "S.add(d, d)", "add"),
        ("multiply", "S.multiply(d, d)", "multiply"), ("matmul", "S.matmul(d, d)", "matmul"),
        ("mv", "S.mv(d, paddle.ones([3]))", "mv"), ("sum", "S.sum(d)", "sum"),
        ("reshape", "S.reshape(d, [9])", "reshape"),
        ("transpose", "S.transpose(d, [1, 0])", "transpose"),
        ("slice", "S.slice(d, [0], [0], [1])", "slice"), ("mask_as", "S.mask_as(d, d)", "mask_as"),
        ("coalesce", "S.coalesce(d)", "coalesce"), ("isnan", "S.isnan(d)", "isnan"),
        ("neg", "S.neg(d)", "scale"), ("deg2rad", "S.deg2rad(d)", "scale"),
        ("masked_matmul", "S.masked_matmul(d, d, d)", "masked_matmul"),
        ("addmm", "S.addmm(d, d, d)", "addmm"), ("divide", "S.divide(d, d)", "divide"),
        ("multiply_scalar", "S.multiply(d, 2.0)", "scale")):
    case(f"err_dense_to_{api}", f"d = paddle.ones([3, 3]); out = {call}", [f"({kernel})"])
case("err_deg2rad_int", "out = S.deg2rad(S.sparse_coo_tensor([[0]], [180], [2]))",
     ["int64"])

# ------------------------------------------------------------------ elementwise + gradients
UNARY = {"abs": (-1, 1), "asin": (-0.9, 0.9), "asinh": (-2, 2), "atan": (-2, 2),
         "atanh": (-0.9, 0.9), "sin": (-3, 3), "sinh": (-2, 2), "tan": (-1.2, 1.2),
         "tanh": (-2, 2), "sqrt": (0.1, 4), "square": (-2, 2), "log1p": (-0.5, 3),
         "expm1": (-2, 2), "neg": (-2, 2), "deg2rad": (-180, 180), "rad2deg": (-3, 3)}
for k, (name, (lo, hi)) in enumerate(UNARY.items()):
    case(f"unary_{name}", f"""
x, v = coo2(list(rnd([5], {k}, {lo}, {hi})), sg=False)
y = S.{name}(x)
(y.values() * W(y.values())).sum().backward()
out = [sp(y), v.grad]""")
    # Paddle 3.3.1 has no CSR values_grad kernel: the CSR gradients are checked in the test
    case(f"unary_{name}_csr", f"""
x, v = csr2(list(rnd([5], {k + 50}, {lo}, {hi})), sg=False)
out = sp(S.{name}(x))""")
case("unary_sqrt_int", """
out = sp(S.sqrt(S.sparse_coo_tensor([[0, 1]], [4, 9], [3])))""")
case("unary_abs_int", """
out = sp(S.abs(S.sparse_coo_tensor([[0, 1]], [-4, 9], [3])))""")
case("unary_uncoalesced", """
x = S.sparse_coo_tensor([[1, 0, 1], [0, 0, 2]], [1., 2., -3.], [3, 3])
out = [sp(S.sin(x)), sp(S.square(x))]""")
case("pow", """
x, v = coo2(sg=False)
y = S.pow(x, 3)
(y.values() * W(y.values())).sum().backward()
out = [sp(y), v.grad, sp(S.pow(csr2()[0], 2))]""")
case("cast", """
x, _ = coo2()
c, _ = csr2()
out = [sp(S.cast(x, value_dtype="int32")), sp(S.cast(x, value_dtype="float64")),
       sp(S.cast(c, "int32", "float64")), sp(S.cast(c, value_dtype="float64"))]""")
case("cast_coo_index", """
x, _ = coo2()
out = sp(S.cast(x, "int32", "float64"))""")
case("isnan", """
x = S.sparse_coo_tensor([[0, 1, 2], [1, 2, 0]], [1., float("nan"), 3.], [3, 3])
out = [sp(S.isnan(x)), sp(S.isnan(x.to_sparse_csr()))]""")

# ------------------------------------------------------------------ binary
OTHER = ("S.sparse_coo_tensor(arr([[0, 1, 2, 3], [1, 1, 2, 3]], 'int64'), w, [4, 4], "
         "stop_gradient=False)")
# Paddle 3.3.1 corrupts its heap in the backward of sparse subtract / multiply (the process
# aborts), so only add records gradients; ours are checked against numpy in the test.
case("binary_add_grad", f"""
x, v = coo2(sg=False)
w = arr([2., 3., -1., 4.], sg=False)
y = {OTHER}
z = S.add(x, y)
(z.values() * W(z.values())).sum().backward()
out = [sp(z), v.grad, w.grad]""")
for name in ("add", "subtract", "multiply"):
    case(f"binary_{name}", f"""
x, v = coo2(sg=False)
w = arr([2., 3., -1., 4.], sg=False)
y = {OTHER}
z = S.{name}(x, y)
out = [sp(z)]""")
    case(f"binary_{name}_csr", f"""
x, v = csr2(sg=False)
w = arr([2., 3., -1., 4.], sg=False)
y = {OTHER}.to_sparse_csr()
z = S.{name}(x, y)
out = [sp(z)]""")
case("binary_divide", """
x, v = coo2()
y = S.sparse_coo_tensor(arr([[0, 1, 2, 3], [1, 1, 2, 3]], 'int64'), arr([2., 3., -1., 4.]), [4, 4])
out = [sp(S.divide(x, y)), sp(S.divide(x.to_sparse_csr(), y.to_sparse_csr()))]""")
case("binary_scalar", """
x, v = coo2(sg=False)
y = S.multiply(x, 2.5)
z = S.divide(x, 4.0)
((y.values() + z.values()) * W(y.values())).sum().backward()
out = [sp(y), sp(z), v.grad, sp(S.multiply(csr2()[0], 3.0))]""")
case("binary_add_bias", """
x = S.sparse_coo_tensor([[0, 1, 1], [0, 0, 2]], [2., 1., -3.], [3, 3])
out = sp(S.add(x, arr([1., 2., 3.])))""")
case("binary_add_bias_dense_dim", """
x = S.sparse_coo_tensor([[0, 2]], [[1., 2., 3.], [4., 5., 6.]], [3, 3])
out = sp(S.add(x, arr([10., 20., 30.])))""")
case("binary_promote", """
x, _ = coo2()
y = S.sparse_coo_tensor([[0], [0]], [1.], [4, 4], dtype="float64")
out = sp(S.add(x, y))""")

# ------------------------------------------------------------------ reductions and shape
case("sum", """
x, v = coo2(sg=False)
s0 = S.sum(x, 0)
s1 = S.sum(x, axis=1, keepdim=True)
(s0.values() * W(s0.values())).sum().backward()
out = [sp(S.sum(x)), sp(s0), sp(s1), sp(S.sum(x, -1)), sp(S.sum(x, dtype="float64")), v.grad,
       sp(S.sum(x, keepdim=True))]""")
case("sum_csr", """
c, _ = csr2()
out = [sp(S.sum(c, -1)), sp(S.sum(c))]""")
case("sum_dense_dim", """
x = S.sparse_coo_tensor([[0, 2]], [[1., 2., 3.], [4., 5., 6.]], [3, 3])
out = [sp(S.sum(x, 0)), sp(S.sum(x, 1))]""")
case("reshape", """
x, v = coo2(sg=False)
y = S.reshape(x, [2, 8])
(y.values() * W(y.values())).sum().backward()
out = [sp(y), sp(S.reshape(x, [-1])), sp(S.reshape(x, [16, 1])), v.grad,
       sp(S.reshape(csr2()[0], [2, 8])), txt(y)]""")
case("reshape_3d", """
x = S.sparse_coo_tensor([[0, 1, 1, 0], [2, 0, 1, 1], [1, 0, 2, 3]], [1., 2., 3., 4.], [2, 3, 4])
out = [sp(S.reshape(x, [4, 6])), sp(S.reshape(x, [6, -1])), sp(S.reshape(x, [2, 2, 6]))]""")
case("transpose", """
x = S.sparse_coo_tensor([[2, 0, 1], [0, 3, 1]], [1., 2., 3.], [3, 4], stop_gradient=False)
y = S.transpose(x, [1, 0])
(y.values() * W(y.values())).sum().backward()
out = [sp(y), txt(y), sp(S.transpose(csr2()[0], [1, 0]))]""")
case("transpose_3d", """
x = S.sparse_coo_tensor([[0, 1, 1, 0], [2, 0, 1, 1], [1, 0, 2, 3]], [1., 2., 3., 4.], [2, 3, 4])
out = [sp(S.transpose(x, [2, 0, 1])), sp(S.transpose(x, [0, 2, 1])),
       sp(S.transpose(x.to_sparse_csr() if False else x, [1, 0, 2]))]""")
case("slice", """
x, v = coo2(sg=False)
y = S.slice(x, [0, 1], [1, 0], [4, 2])
out = [sp(y), sp(S.slice(x, [1], [-3], [-1])), sp(S.slice(csr2()[0], [0], [1], [3])),
       sp(S.slice(x, [0], [0], [10]))]""")
case("slice_grad", """
x, v = coo2(sg=False)
y = S.slice(x, [0, 1], [1, 0], [4, 2])
(y.values() * W(y.values())).sum().backward()
out = v.grad""")
case("is_same_shape", """
x, _ = coo2()
out = [S.is_same_shape(x, paddle.ones([4, 4])), S.is_same_shape(x, paddle.ones([4, 3])),
       S.is_same_shape(x, csr2()[0])]""")
case("mask_as", """
d = arr(rnd([4, 4], 7), sg=False)
x, _ = coo2()
y = S.mask_as(d, x)
(y.values() * W(y.values())).sum().backward()
out = [sp(y), d.grad, sp(S.mask_as(arr(rnd([4, 4], 8)), csr2()[0]))]""")
case("coalesce_grad", """
v = arr([1., 2., 3., 4.], sg=False)
x = S.sparse_coo_tensor([[1, 0, 1, 0], [0, 0, 0, 2]], v, [3, 3], stop_gradient=False)
c = S.coalesce(x)
(c.values() * W(c.values())).sum().backward()
out = [sp(c), v.grad]""")
case("to_dense_grad", """
x, v = coo2(sg=False)
d = x.to_dense()
(d * W(d)).sum().backward()
out = [v.grad, sp(d)]""")
case("to_dense_grad_csr", """
c, w = csr2(sg=False)
e = c.to_dense()
(e * W(e)).sum().backward()
out = [w.grad]""")
case("to_sparse_grad", """
d = arr(rnd([3, 4], 3), sg=False)
x = d.to_sparse_coo(2)
(x.values() * W(x.values())).sum().backward()
out = [sp(x), d.grad]""")
case("to_sparse_grad_csr", """
e = arr(rnd([3, 4], 4), sg=False)
c = e.to_sparse_csr()
(c.values() * W(c.values())).sum().backward()
out = [sp(c), e.grad]""")
case("neg_square_int", """
x = S.sparse_coo_tensor([[0, 1]], [-4, 9], [3])
out = [sp(S.neg(x)), sp(S.square(x))]""")


def run(code):
    env = {"paddle": paddle, "np": np}
    try:
        exec(PRELUDE + code, env)
        return describe(env["out"], paddle)
    except Exception as e:  # noqa: BLE001 - the exception is the result
        builtin = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        return {"error": builtin.__name__, "message": str(e).split("\n")[0][:300]}


def main():
    paddle.set_device("cpu")
    out = []
    for c in CASES:
        if os.environ.get("SPARSE_DEBUG"):
            print(c["id"], flush=True)
        exp = run(c["code"])
        for word in c["says"]:
            assert "error" in exp and word in exp["message"], (c["id"], word, exp)
        out.append(dict(c, expected=exp))
    path = os.path.join(ROOT, "tests", "goldens", "sparse.json")
    with open(path, "w") as f:
        json.dump({"meta": {"paddle": paddle.__version__, "numpy": np.__version__},
                   "prelude": PRELUDE, "cases": out}, f, indent=1)
    print(f"{len(out)} cases -> {path}")


if __name__ == "__main__":
    main()
