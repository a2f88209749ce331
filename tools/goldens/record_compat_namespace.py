"""Record Paddle 3.3.1's torch-style names as goldens for tests/test_compat_namespace.py:
the ``paddle.compat`` namespace (unique, sort, split, min/max, median/nanmedian, slogdet, equal,
seed, the named tuples, nn.Linear/Softmax/Unfold/AvgPool*/MultiheadAttention and
nn.functional), and the top-level names Paddle 3 added for torch-style code (typed tensor
constructors, from_numpy, as_tensor/asarray, cat/concatenate, range, ger, the window
functions, transpose_, softmax, Generator/manual_seed, the in-place random fills, the
constants, paddle.special).

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_compat_namespace.py

Each case is a snippet run with ``paddle`` and ``np`` bound that sets ``out``; the golden is
``out`` encoded (tensors: dtype, shape, values, stop_gradient; tuples with their named-tuple
type and fields; Python values; dtypes as their names) or the exception's type and message.
``names`` holds the public names of paddle.compat(.nn, .nn.functional), paddle.special and
paddle.cuda, which the test resolves on paddle_compat.
"""
import json
import os
import warnings

import numpy as np
import paddle

warnings.simplefilter("ignore")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "compat_namespace.json")

# inputs built from fixed numpy arrays, the same on both sides
PRE = """
rng = np.random.default_rng(7)
A = rng.standard_normal((3, 4))
X32 = paddle.to_tensor(A.astype('float32'))
X64 = paddle.to_tensor(A)
I = paddle.to_tensor(np.array([[3, 1, 2, 1], [0, 5, 5, 4], [7, 7, 2, 0]], dtype='int64'))
"""

CASES = [
    # --- paddle.compat: min / max
    ("compat.min.all", "out = paddle.compat.min(X32)"),
    ("compat.max.all.int", "out = paddle.compat.max(I)"),
    ("compat.min.dim", "out = paddle.compat.min(X64, 1)"),
    ("compat.max.dim.keepdim", "out = paddle.compat.max(X64, dim=0, keepdim=True)"),
    ("compat.max.dim.pos.keepdim", "out = paddle.compat.max(I, 1, True)"),
    ("compat.min.dim.neg", "out = paddle.compat.min(I, -1)"),
    ("compat.max.other", "out = paddle.compat.max(X32, paddle.zeros([3, 4]))"),
    ("compat.min.other.kw", "out = paddle.compat.min(X64, other=paddle.zeros([4], 'float64'))"),
    ("compat.max.0d", "out = paddle.compat.max(paddle.to_tensor(2.5), 0)"),
    ("compat.max.grad", "x = X64.clone(); x.stop_gradient = False\n"
                        "r = paddle.compat.max(x, 1); r.values.sum().backward()\n"
                        "out = (r, x.grad)"),
    ("compat.min.out", "v = paddle.zeros([3], 'float64'); i = paddle.zeros([3], 'int64')\n"
                       "r = paddle.compat.min(X64, 1, out=(v, i)); out = (r, v, i)"),
    ("compat.min.err.axis", "out = paddle.compat.min(X32, axis=1)"),
    ("compat.max.err.x", "out = paddle.compat.max(x=X32)"),
    ("compat.max.err.float_dim", "out = paddle.compat.max(X32, 1.0)"),
    ("compat.max.err.none_dim", "out = paddle.compat.max(X32, dim=None, keepdim=True)"),
    ("compat.max.err.three", "out = paddle.compat.max(X32, 1, True, 2)"),
    ("compat.min.err.list", "out = paddle.compat.min([1, 2])"),
    ("compat.min.err.int_grad", "x = I.clone(); x.stop_gradient = False\n"
                                "out = paddle.compat.min(x, 0)"),
    ("compat.max.err.out_single", "out = paddle.compat.max(X32, 1, out=paddle.zeros([3]))"),
    # --- sort
    ("compat.sort.default", "out = paddle.compat.sort(X64)"),
    ("compat.sort.dim0.desc", "out = paddle.compat.sort(X32, dim=0, descending=True)"),
    ("compat.sort.stable", "out = paddle.compat.sort(I, dim=1, stable=True)"),
    ("compat.sort.out", "v = paddle.zeros([3, 4], 'float64'); i = paddle.zeros([3, 4], 'int64')\n"
                        "r = paddle.compat.sort(X64, 1, False, False, (v, i)); out = (r, v, i)"),
    ("compat.sort.err.axis", "out = paddle.compat.sort(X64, axis=0)"),
    ("compat.sort.grad", "x = X64.clone(); x.stop_gradient = False\n"
                         "r = paddle.compat.sort(x, 1); (r.values * paddle.arange(4).astype("
                         "'float64')).sum().backward(); out = (r.values, x.grad)"),
    # --- split
    ("compat.split.int", "out = paddle.compat.split(paddle.arange(10), 3)"),
    ("compat.split.int.even", "out = paddle.compat.split(X64, 2, dim=1)"),
    ("compat.split.list", "out = paddle.compat.split(X64, [1, 2], 0)"),
    ("compat.split.list.neg_dim", "out = paddle.compat.split(X32, [1, 0, 3], dim=-1)"),
    ("compat.split.big", "out = paddle.compat.split(X64, 5, 0)"),
    ("compat.split.err.neg", "out = paddle.compat.split(X64, [-1, 4], 0)"),
    ("compat.split.err.dim", "out = paddle.compat.split(X64, 1, 2)"),
    ("compat.split.err.type", "out = paddle.compat.split(X64, 1.5)"),
    ("compat.split.err.kw", "out = paddle.compat.split(X64, num_or_sections=2)"),
    # --- unique
    ("compat.unique.plain", "out = paddle.compat.unique(paddle.to_tensor([3, 1, 3, 2, 1]))"),
    ("compat.unique.all", "out = paddle.compat.unique(I, return_inverse=True, "
                          "return_counts=True)"),
    ("compat.unique.dim", "out = paddle.compat.unique(paddle.to_tensor([[1, 2], [0, 1], "
                          "[1, 2]]), dim=0, return_inverse=True)"),
    ("compat.unique.pos", "out = paddle.compat.unique(I, True, False, True)"),
    ("compat.unique.err.axis", "out = paddle.compat.unique(I, axis=0)"),
    # --- median / nanmedian
    ("compat.median.all", "out = paddle.compat.median(X64)"),
    ("compat.median.all.int", "out = paddle.compat.median(I)"),
    ("compat.median.dim", "out = paddle.compat.median(X64, 1)"),
    ("compat.median.dim.keepdim", "out = paddle.compat.median(X32, dim=0, keepdim=True)"),
    ("compat.median.out", "v = paddle.zeros([3], 'float64'); i = paddle.zeros([3], 'int64')\n"
                          "r = paddle.compat.median(X64, 1, out=(v, i)); out = (r, v, i)"),
    ("compat.median.err.out", "out = paddle.compat.median(X64, 1, out=paddle.zeros([3]))"),
    ("compat.median.err.axis", "out = paddle.compat.median(X64, axis=1)"),
    ("compat.nanmedian.all", "x = X64.clone(); x[0, 1] = float('nan'); "
                             "out = paddle.compat.nanmedian(x)"),
    ("compat.nanmedian.dim", "x = X64.clone(); x[0, 1] = float('nan'); x[2, :] = float('nan')\n"
                             "out = paddle.compat.nanmedian(x, 1)"),
    ("compat.median.grad", "x = X64.clone(); x.stop_gradient = False\n"
                           "r = paddle.compat.median(x, 1); r.values.sum().backward()\n"
                           "out = (r, x.grad)"),
    # --- slogdet, equal, seed
    ("compat.slogdet", "out = paddle.compat.slogdet(paddle.to_tensor(A[:3, :3]))"),
    ("compat.slogdet.batch", "out = paddle.compat.slogdet(paddle.to_tensor("
                             "np.stack([A[:3, :3], -A[:3, 1:]])).astype('float32'))"),
    ("compat.equal.same", "out = paddle.compat.equal(X64, X64.clone())"),
    ("compat.equal.promote", "out = paddle.compat.equal(paddle.to_tensor([1, 2]), "
                             "paddle.to_tensor([1., 2.]))"),
    ("compat.equal.diff", "out = paddle.compat.equal(I, I + 1)"),
    ("compat.equal.nan", "x = paddle.to_tensor([1., float('nan')]); "
                         "out = paddle.compat.equal(x, x)"),
    ("compat.equal.shape", "out = paddle.compat.equal(paddle.ones([2]), paddle.ones([3]))"),
    ("compat.equal.err.x", "out = paddle.compat.equal(x=X64, y=X64)"),
    ("compat.seed.type", "s = paddle.compat.seed(); out = (type(s).__name__, "
                         "paddle.Generator().initial_seed() == s)"),
    ("compat.named_tuples", "out = [(T.__name__, T._fields) for T in (paddle.compat."
                            "MinMaxRetType, paddle.compat.SortRetType, paddle.compat."
                            "MedianRetType, paddle.compat.SlogdetResult)]"),
    ("compat.all", "out = sorted(paddle.compat.__all__)"),
    ("compat.nn.all", "out = sorted(paddle.compat.nn.__all__)"),
    ("compat.nn.functional.all", "out = sorted(paddle.compat.nn.functional.__all__)"),
    ("compat.disable_proxy_off", "out = paddle.compat.disable_torch_proxy()"),
    ("compat.median.even", "out = (paddle.compat.median(paddle.to_tensor([4., 1., 3., 2.])), "
                           "paddle.compat.median(paddle.to_tensor([[4., 1., 3., 2.]]), 1))"),
    ("compat.median.nan", "x = paddle.to_tensor([[1., float('nan'), 3.], [2., 5., 4.]])\n"
                          "out = (paddle.compat.median(x), paddle.compat.median(x, 1))"),
    ("compat.max.ties", "out = paddle.compat.max(paddle.to_tensor([[1, 3, 3], [2, 2, 0]]), 1)"),
    ("compat.min.nan", "out = paddle.compat.min(paddle.to_tensor([[1., float('nan'), 0.]]), 1)"),
    ("compat.sort.nan", "out = paddle.compat.sort(paddle.to_tensor([3., float('nan'), 1., 2.]))"),
    ("compat.sort.desc.stable", "out = paddle.compat.sort(paddle.to_tensor([2, 1, 2, 1, 2]), "
                                "descending=True, stable=True)"),
    ("compat.unique.unsorted", "out = paddle.compat.unique(paddle.to_tensor([3, 1, 3, 2]), "
                               "sorted=False, return_inverse=True)"),
    ("compat.split.zero_len", "out = paddle.compat.split(paddle.zeros([0, 2]), 1)"),
    ("compat.split.list_tensor", "out = paddle.compat.split(X64, [paddle.to_tensor(1), 3], 1)"),
    ("compat.equal.bool_int", "out = paddle.compat.equal(paddle.to_tensor([True, False]), "
                              "paddle.to_tensor([1, 0]))"),
    ("compat.equal.int32_f16", "out = paddle.compat.equal(paddle.to_tensor([1, 2], 'int32'), "
                               "paddle.to_tensor([1., 2.], 'float16'))"),
    ("compat.slogdet.singular", "out = paddle.compat.slogdet(paddle.to_tensor([[1., 2.], "
                                "[2., 4.]], 'float64'))"),
    ("compat.slogdet.neg", "out = paddle.compat.slogdet(paddle.to_tensor([[0., 1.], [1., 0.]], "
                           "'float64'))"),
    # --- paddle.compat.nn.functional
    ("compat.F.linear", "w = paddle.to_tensor(A[:2, :4]); b = paddle.to_tensor([.5, -1.])\n"
                        "out = paddle.compat.nn.functional.linear(X64, w, b)"),
    ("compat.F.linear.nobias", "out = paddle.compat.nn.functional.linear(X32, "
                               "paddle.to_tensor(A[:2, :4].astype('float32')))"),
    ("compat.F.linear.err.x", "out = paddle.compat.nn.functional.linear(x=X64, weight=X64)"),
    ("compat.F.pad.last", "out = paddle.compat.nn.functional.pad(X64, [1, 2])"),
    ("compat.F.pad.two", "out = paddle.compat.nn.functional.pad(X64, (1, 0, 0, 2), value=3.)"),
    ("compat.F.pad.reflect", "out = paddle.compat.nn.functional.pad(X64.reshape([1, 3, 4]), "
                             "[2, 1], mode='reflect')"),
    ("compat.F.pad.replicate", "out = paddle.compat.nn.functional.pad(X64.reshape([1, 1, 3, "
                               "4]), [1, 1, 1, 0], mode='replicate')"),
    ("compat.F.pad.circular", "out = paddle.compat.nn.functional.pad(X64.reshape([1, 1, 3, "
                              "4]), [1, 1, 1, 1], mode='circular')"),
    ("compat.F.pad.err.x", "out = paddle.compat.nn.functional.pad(x=X64, pad=[1, 1])"),
    ("compat.F.softmax.implicit2d", "out = paddle.compat.nn.functional.softmax(X64)"),
    ("compat.F.softmax.implicit3d", "out = paddle.compat.nn.functional.softmax("
                                    "X64.reshape([3, 2, 2]))"),
    ("compat.F.softmax.dim.dtype", "out = paddle.compat.nn.functional.softmax(X32, -1, "
                                   "dtype='float64')"),
    ("compat.F.unfold", "out = paddle.compat.nn.functional.unfold(paddle.to_tensor(np.arange("
                        "2 * 16.).reshape([1, 2, 4, 4])), 2, stride=2)"),
    ("compat.F.unfold.pad", "out = paddle.compat.nn.functional.unfold(paddle.to_tensor("
                            "np.arange(9.).reshape([1, 1, 3, 3])), (2, 2), dilation=1, "
                            "padding=1, stride=1)"),
    ("compat.F.unfold.err", "out = paddle.compat.nn.functional.unfold(X64.reshape([1, 1, 3, "
                            "4]), kernel_sizes=2)"),
    ("compat.F.sdpa", "q = paddle.to_tensor(rng.standard_normal((2, 2, 3, 4)))\n"
                      "k = paddle.to_tensor(rng.standard_normal((2, 2, 5, 4)))\n"
                      "v = paddle.to_tensor(rng.standard_normal((2, 2, 5, 4)))\n"
                      "out = paddle.compat.nn.functional.scaled_dot_product_attention(q, k, v)"),
    ("compat.F.sdpa.causal", "q = paddle.to_tensor(rng.standard_normal((1, 2, 4, 8)))\n"
                             "out = paddle.compat.nn.functional.scaled_dot_product_attention("
                             "q, q, q, is_causal=True, scale=0.5)"),
    ("compat.F.sdpa.mask", "q = paddle.to_tensor(rng.standard_normal((1, 1, 3, 4)))\n"
                           "m = paddle.to_tensor(np.array([[True, False, True]] * 3))\n"
                           "out = paddle.compat.nn.functional.scaled_dot_product_attention("
                           "q, q, q, attn_mask=m)"),
    # --- paddle.compat.nn layers (weights set explicitly; init only by shape and range)
    ("compat.nn.Linear", "l = paddle.compat.nn.Linear(4, 2)\n"
                         "l.weight.set_value(paddle.to_tensor(A[:2].astype('float32')))\n"
                         "l.bias.set_value(paddle.to_tensor([1., 2.]))\n"
                         "y = l(X32); out = (y, l.weight.shape, l.bias.shape, "
                         "sorted(l.state_dict()), bool(y.stop_gradient))"),
    ("compat.nn.Linear.init", "l = paddle.compat.nn.Linear(16, 3, bias=False, dtype='float64')\n"
                              "out = (l.bias, str(l.weight.dtype), l.weight.shape, "
                              "bool(l.weight.abs().max() <= 0.25), bool(l.weight.std() > 0.05))"),
    ("compat.nn.Linear.seeded", "paddle.seed(5); l = paddle.compat.nn.Linear(4, 3)\n"
                                "out = (l.weight, l.bias, l(X32))"),
    ("compat.nn.Linear.seeded.f64", "paddle.seed(9); l = paddle.compat.nn.Linear(3, 5, "
                                    "dtype='float64'); out = (l.weight, l.bias)"),
    ("compat.nn.MHA.seeded", "paddle.seed(5); m = paddle.compat.nn.MultiheadAttention(4, 2)\n"
                             "x = paddle.to_tensor(rng.standard_normal((3, 2, 4)).astype("
                             "'float32'))\n"
                             "out = (m.in_proj_weight, m.in_proj_bias, m.out_proj.weight, "
                             "m.out_proj.bias, m(x, x, x))"),
    ("compat.nn.MHA.seeded.bias_kv", "paddle.seed(4); m = paddle.compat.nn.MultiheadAttention("
                                     "4, 1, add_bias_kv=True, kdim=2, vdim=3)\n"
                                     "out = (m.q_proj_weight, m.k_proj_weight, m.v_proj_weight, "
                                     "m.bias_k, m.bias_v, m.out_proj.bias)"),
    ("compat.nn.Linear.err", "out = paddle.compat.nn.Linear(4, 2, bias_attr=False)"),
    ("compat.nn.Softmax", "out = paddle.compat.nn.Softmax()(X64)"),
    ("compat.nn.Softmax.dim", "out = paddle.compat.nn.Softmax(dim=0)(X64)"),
    ("compat.nn.Softmax.err", "out = paddle.compat.nn.Softmax(axis=0)"),
    ("compat.nn.AvgPool1d", "out = paddle.compat.nn.AvgPool1d(3, stride=2, padding=1)("
                            "X64.reshape([1, 3, 4]))"),
    ("compat.nn.AvgPool1D.noinc", "out = paddle.compat.nn.AvgPool1D(3, 1, 1, "
                                  "count_include_pad=False)(X64.reshape([1, 3, 4]))"),
    ("compat.nn.AvgPool2d", "out = paddle.compat.nn.AvgPool2d(2, padding=1, ceil_mode=True)("
                            "X64.reshape([1, 1, 3, 4]))"),
    ("compat.nn.AvgPool2d.div", "out = paddle.compat.nn.AvgPool2d((2, 2), 1, divisor_override=3)"
                                "(X64.reshape([1, 1, 3, 4]))"),
    ("compat.nn.AvgPool3d", "out = paddle.compat.nn.AvgPool3d(2, 1)(X64.reshape([1, 1, 2, 2, "
                            "3]))"),
    ("compat.nn.AvgPool2d.err", "out = paddle.compat.nn.AvgPool2d(2, exclusive=False)"),
    ("compat.nn.Unfold", "out = paddle.compat.nn.Unfold(kernel_size=2, stride=1)(X64.reshape("
                         "[1, 1, 3, 4]))"),
    ("compat.nn.Unfold.err", "out = paddle.compat.nn.Unfold(kernel_sizes=2)"),
    ("compat.nn.MHA.shapes", "m = paddle.compat.nn.MultiheadAttention(4, 2, batch_first=True)\n"
                             "x = paddle.rand([2, 3, 4]); o, w = m(x, x, x)\n"
                             "out = (o.shape, w.shape, sorted(m.state_dict()), "
                             "m(x, x, x, need_weights=False)[1], "
                             "m(x, x, x, average_attn_weights=False)[1].shape)"),
    ("compat.nn.MHA.kvdim", "m = paddle.compat.nn.MultiheadAttention(4, 1, kdim=3, vdim=5)\n"
                            "q = paddle.rand([2, 1, 4]); k = paddle.rand([6, 1, 3]); "
                            "v = paddle.rand([6, 1, 5])\n"
                            "o, w = m(q, k, v); out = (o.shape, w.shape, sorted(m.state_dict()))"),
    ("compat.nn.MHA.values", "m = paddle.compat.nn.MultiheadAttention(4, 2, batch_first=True)\n"
                             "m.in_proj_weight.set_value(paddle.to_tensor(np.linspace(-1, 1, 48)."
                             "reshape([12, 4]).astype('float32')))\n"
                             "m.out_proj.bias.set_value(paddle.to_tensor([.1, -.2, .3, 0.]))\n"
                             "m.in_proj_bias.set_value(paddle.to_tensor(np.linspace(0, .5, 12)."
                             "astype('float32')))\n"
                             "m.out_proj.weight.set_value(paddle.to_tensor(np.linspace(1, -1, 16)"
                             ".reshape([4, 4]).astype('float32')))\n"
                             "x = paddle.to_tensor(rng.standard_normal((2, 3, 4)).astype("
                             "'float32'))\n"
                             "mask = paddle.to_tensor(np.array([[False, False, True], [False, "
                             "False, False]]))\n"
                             "out = m(x, x, x, key_padding_mask=mask)"),
    # --- typed tensor constructors
    ("FloatTensor.list", "out = paddle.FloatTensor([1, 2])"),
    ("LongTensor.floats", "out = paddle.LongTensor([1.5, -2.7])"),
    ("DoubleTensor.nested", "out = paddle.DoubleTensor([[1, 2], [3, 4]])"),
    ("IntTensor.tuple", "out = paddle.IntTensor((3, 4))"),
    ("ShortTensor", "out = paddle.ShortTensor([1, -2])"),
    ("CharTensor", "out = paddle.CharTensor([1, -2])"),
    ("ByteTensor.list", "out = paddle.ByteTensor([1, 200])"),
    ("BoolTensor", "out = paddle.BoolTensor([1, 0, 2])"),
    ("HalfTensor", "out = paddle.HalfTensor([1.5, 2])"),
    ("BFloat16Tensor", "out = paddle.BFloat16Tensor([1.5, 2])"),
    ("FloatTensor.empty", "out = paddle.FloatTensor()"),
    ("FloatTensor.sizes", "t = paddle.FloatTensor(2, 3); out = (t.shape, t.dtype)"),
    ("ByteTensor.size", "t = paddle.ByteTensor(4); out = (t.shape, t.dtype)"),
    ("FloatTensor.ndarray", "out = paddle.FloatTensor(np.array([1, 2]))"),
    ("FloatTensor.Size", "out = paddle.FloatTensor(paddle.Size([2, 3]))"),
    ("FloatTensor.isinstance", "out = isinstance(paddle.ones([2]), paddle.FloatTensor)"),
    # --- creation
    ("from_numpy", "a = np.arange(4.); t = paddle.from_numpy(a); a[0] = 9.; out = t"),
    ("from_numpy.int32", "out = paddle.from_numpy(np.arange(3, dtype='int32'))"),
    ("as_tensor", "out = paddle.as_tensor([1, 2])"),
    ("as_tensor.kw", "out = paddle.as_tensor([1., 2.], dtype='float64', requires_grad=True)"),
    ("as_tensor.tensor", "out = paddle.as_tensor(X64, 'float32')"),
    ("asarray", "out = paddle.asarray([[0.1, 0.2]], requires_grad=True)"),
    ("asarray.scalar", "out = paddle.asarray(3)"),
    ("asarray.copy", "x = paddle.to_tensor([1., 2.]); y = paddle.asarray(x, copy=False); "
                     "y[0] = 5.; out = (x, y)"),
    ("cat", "out = paddle.cat([X64, X64], 1)"),
    ("concatenate", "out = paddle.concatenate([I, I], axis=0)"),
    ("range.one", "out = paddle.range(5)"),
    ("range.two", "out = paddle.range(1, 4)"),
    ("range.step", "out = paddle.range(0, 1, 0.25)"),
    ("range.neg", "out = paddle.range(5, 1, -2)"),
    ("range.dtype", "out = paddle.range(1, 10, 3, dtype='int64')"),
    ("range.f64", "out = paddle.range(0.5, 2.6, 0.7, 'float64')"),
    ("range.rg", "out = paddle.range(0, 3, requires_grad=True)"),
    ("ger", "out = paddle.ger(paddle.to_tensor([1., 2.]), paddle.to_tensor([1., 2., 3.]))"),
    ("ger.f64", "out = paddle.ger(X64[0], X64[1])"),
    # --- windows
    ("hann_window", "out = paddle.hann_window(6)"),
    ("hann_window.sym", "out = paddle.hann_window(5, periodic=False, dtype='float64')"),
    ("hamming_window", "out = paddle.hamming_window(5)"),
    ("hamming_window.ab", "out = paddle.hamming_window(7, False, alpha=0.5, beta=0.4, "
                          "dtype='float64')"),
    ("bartlett_window", "out = paddle.bartlett_window(7, dtype='float64')"),
    ("bartlett_window.sym", "out = paddle.bartlett_window(6, periodic=False)"),
    ("blackman_window", "out = paddle.blackman_window(8, dtype='float64')"),
    ("blackman_window.sym", "out = paddle.blackman_window(5, False)"),
    ("kaiser_window", "out = paddle.kaiser_window(6, dtype='float64')"),
    ("kaiser_window.beta", "out = paddle.kaiser_window(5, False, beta=5.0)"),
    ("window.one", "out = paddle.hann_window(1)"),
    ("window.zero", "out = paddle.hamming_window(0)"),
    ("window.rg", "out = paddle.blackman_window(4, requires_grad=True)"),
    # --- transpose_, softmax, special
    ("transpose_", "x = X64.clone(); y = paddle.transpose_(x, [1, 0]); out = (x, y is x)"),
    ("Tensor.transpose_", "x = I.clone().reshape([1, 3, 4]); x.transpose_([2, 0, 1]); out = x"),
    ("softmax.implicit", "out = paddle.softmax(X64)"),
    ("softmax.1d", "out = paddle.softmax(X64[0])"),
    ("softmax.dim", "out = paddle.softmax(X32, dim=0)"),
    ("softmax.dtype", "out = paddle.softmax(X32, 1, dtype='float64')"),
    ("special.expm1", "out = paddle.special.expm1(X64)"),
    ("special.logsumexp", "out = paddle.special.logsumexp(X64, 1)"),
    ("special.softmax", "out = paddle.special.softmax(X64, 0)"),
    # --- randomness
    ("manual_seed.rand", "g = paddle.manual_seed(11); out = (paddle.rand([4]), "
                         "g.initial_seed())"),
    ("Generator.default", "paddle.seed(3); g = paddle.Generator()\n"
                          "out = (g.initial_seed(), paddle.Generator('cpu').initial_seed())"),
    ("Generator.isinstance", "out = (isinstance(paddle.Generator(), paddle.Generator), "
                             "paddle.Generator(paddle.CPUPlace()) is paddle.Generator())"),
    ("Generator.err.gpu", "out = paddle.Generator('gpu:0')"),
    ("Generator.manual_seed", "g = paddle.Generator(); g.manual_seed(21); out = paddle.randn([3])"),
    ("normal_", "paddle.seed(5); x = paddle.zeros([4]); y = paddle.normal_(x, 1., 2.); "
                "out = (x, y is x)"),
    ("bernoulli_", "paddle.seed(5); x = paddle.zeros([6]); paddle.bernoulli_(x, 0.3); out = x"),
    ("cauchy_", "paddle.seed(5); x = paddle.zeros([4], 'float64'); paddle.cauchy_(x); out = x"),
    ("geometric_", "paddle.seed(5); x = paddle.zeros([4]); paddle.geometric_(x, 0.4); out = x"),
    # --- constants and small functions
    ("constants", "out = (paddle.e, paddle.pi, paddle.inf, repr(paddle.nan), paddle.newaxis)"),
    ("Size", "s = paddle.Size([2, 3]); out = (list(s), s.numel(), isinstance(s, list) or "
             "isinstance(s, tuple))"),
    ("batch", "out = list(paddle.batch(lambda: iter(range(5)), 2)())"),
    ("batch.drop", "out = list(paddle.batch(lambda: iter(range(5)), 2, drop_last=True)())"),
    ("batch.err", "out = paddle.batch(lambda: iter(range(5)), 0)"),
    ("conv1d", "out = paddle.conv1d(X64.reshape([1, 3, 4]), paddle.ones([2, 3, 2], "
               "'float64'))"),
    ("layer_norm", "out = paddle.layer_norm(X64, 4)"),
    ("group_norm", "out = paddle.group_norm(X64.reshape([1, 4, 3]), 2)"),
    ("adaptive_avg_pool1d", "out = paddle.adaptive_avg_pool1d(X64.reshape([1, 3, 4]), 2)"),
    ("autocast.state", "out = (paddle.is_autocast_enabled(), paddle.get_autocast_dtype(), "
                       "paddle.get_autocast_cpu_dtype(), paddle.get_autocast_gpu_dtype())"),
    ("disable_signal_handler", "out = paddle.disable_signal_handler()"),
    ("dtype.uint32", "y = paddle.to_tensor([1, 2, 7]).astype(paddle.uint32)\n"
                     "out = (y, y.astype('int64'), str(y.numpy().dtype), repr(paddle.uint32), "
                     "str(paddle.uint32))"),
    ("dtype.uint64", "y = paddle.to_tensor([3., 4.]).astype(paddle.uint64)\n"
                     "out = (y, y.astype(paddle.float32), repr(paddle.uint64))"),
    ("range.err.step0", "out = paddle.range(0, 3, 0)"),
    ("window.err.neg", "out = paddle.hann_window(-1)"),
    ("from_numpy.err", "out = paddle.from_numpy([1, 2])"),
    # --- Tensor attributes added in 3.x
    ("Tensor.scatter_nd", "i = paddle.to_tensor([[1], [3], [1]])\n"
                          "out = i.scatter_nd(paddle.to_tensor([9., 10., 1.]), [5])"),
    ("Tensor.layout", "out = X32.layout"),
    # --- paddle.cuda on a machine without CUDA (skipped where CUDA is available)
    ("cuda.cpu_build", "out = (paddle.cuda.is_available(), paddle.cuda.device_count(), "
                       "paddle.cuda.current_device(), paddle.cuda.is_initialized(), "
                       "paddle.cuda.is_current_stream_capturing())"),
    ("cuda.typed", "out = (paddle.cuda.FloatTensor is paddle.FloatTensor, "
                   "paddle.cuda.LongTensor([1, 2]))"),
    ("cuda.manual_seed", "paddle.cuda.manual_seed(7); out = paddle.rand([3])"),
    ("cuda.rng_state", "paddle.seed(2); s = paddle.cuda.get_rng_state(); a = paddle.rand([2])\n"
                       "paddle.cuda.set_rng_state(s); out = (a, paddle.rand([2]))"),
]


def encode(v):
    if isinstance(v, paddle.Tensor):
        dt = str(v.dtype).replace("paddle.", "")
        a = v.astype("float32").numpy() if dt in ("bfloat16",) else v.numpy()
        if a.dtype.kind == "f":
            vals = [repr(float(z)) if not np.isfinite(z) else float(z) for z in a.reshape(-1)]
        elif a.dtype.kind == "b":
            vals = [bool(z) for z in a.reshape(-1)]
        else:
            vals = [int(z) for z in a.reshape(-1)]
        return {"tensor": {"dtype": dt, "shape": list(v.shape), "values": vals,
                           "stop_gradient": bool(v.stop_gradient)}}
    if isinstance(v, tuple) and hasattr(v, "_fields"):
        return {"named": type(v).__name__, "fields": list(v._fields),
                "items": [encode(x) for x in v]}
    if isinstance(v, (tuple, list)) and type(v).__name__ not in ("Size",):
        return {"seq": type(v).__name__, "items": [encode(x) for x in v]}
    if type(v).__name__ == "Size":
        return {"py": list(v)}
    if isinstance(v, paddle.dtype) or type(v).__name__ in ("DataType", "VarType"):
        return {"dtype": str(v).replace("paddle.", "")}
    if isinstance(v, float) and not np.isfinite(v):
        return {"py": repr(v)}
    if v is None or isinstance(v, (bool, int, float, str)):
        return {"py": v}
    return {"type": type(v).__name__}


# the public names of the namespaces (dir(), without typing helpers and foreign modules)
NAMESPACES = ("paddle.compat", "paddle.compat.nn", "paddle.compat.nn.functional",
              "paddle.special", "paddle.cuda")
NOT_API = {"Any", "Literal", "NamedTuple", "TYPE_CHECKING", "overload", "Union", "annotations",
           "ForbidKeywordsDecorator", "Variable", "in_dynamic_mode", "collections", "repeat",
           "sqrt"}


def public_names():
    import types
    out = {}
    for ns in NAMESPACES:
        module = eval(ns, {"paddle": paddle})
        names = []
        for n in dir(module):
            v = getattr(module, n)
            if n.startswith("_") or n in NOT_API or not callable(v) and not isinstance(
                    v, types.ModuleType):
                continue
            if isinstance(v, types.ModuleType) and not v.__name__.startswith(ns + "."):
                continue
            names.append(n)
        out[ns] = names
    return out


def main():
    cases = {}
    for cid, code in CASES:
        env = {"paddle": paddle, "np": np}
        exec(PRE, env)
        try:
            exec(code, env)
            expected = encode(env["out"])
        except Exception as e:  # noqa: BLE001  the exception is the golden
            expected = {"error": type(e).__name__, "message": str(e).split("\n")[0][:200]}
        cases[cid] = {"code": code, "expected": expected}
    with open(OUT, "w") as f:
        json.dump({"pre": PRE, "cases": cases, "names": public_names()}, f, indent=1,
                  sort_keys=True)
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
