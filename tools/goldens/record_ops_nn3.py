"""Record Paddle 3.3.1's sliding-block ops (unfold/fold), the margin, embedding, sequence and
hierarchical losses, rrelu/maxout/gumbel_softmax, local_response_norm, temporal_shift,
gather_tree, sparse_attention, the incubate feed-forward fusions and sampling ops as goldens
for tests/test_ops_nn3.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_ops_nn3.py

The case format and helpers are those of record_ops_nn2.py (``ref``: Paddle code recorded in
place of ``call`` where Paddle 3.3.1 has no CPU kernel, the composition its docs define the op
by). Random ops (rrelu in training, gumbel_softmax) set ``paddle.seed`` in ``pre``: our CPU
engine reproduces Paddle's draws.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_ops_nn2 as base  # noqa: E402  (its helpers: T, case, the Paddle env)

base.rng = np.random.default_rng(20240721)
base.OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                        "goldens", "ops_nn3.json")
T, case, LOWP = base.T, base.case, base.LOWP
FN, IFN = base.FN, base.IFN


def I(dtype, shape, values):  # noqa: E743
    return T(dtype, shape, values=values)


def PM1(shape, dtype="float32"):
    """A tensor of random +-1 labels."""
    n = int(np.prod(shape))
    return T(dtype, shape, values=[float(v) for v in base.rng.choice([-1.0, 1.0], n)])


# ---------------------------------------------------------------------------- blocks
def block_cases():
    api = FN + "unfold"
    x = lambda dt="float32": T(dt, [2, 3, 6, 5])  # noqa: E731
    for call in ("F.unfold(x, 2)", "F.unfold(x, [2, 3], strides=2, paddings=1)",
                 "F.unfold(x, [3, 2], paddings=[1, 0, 2, 1])", "F.unfold(x, 2, dilations=2)",
                 "F.unfold(x, [2, 2], strides=[1, 2], paddings=[1, 2], dilations=[2, 1])",
                 "F.unfold(x, [2, 2, 2])"):
        case(api, call, x=x())
    case(api, "F.unfold(x, 2)", tag="f64", x=x("float64"))
    case(api, "F.unfold(x, 2)", tag="rank 3", x=T("float32", [3, 6, 5]))
    for dt in LOWP:
        case(api, "F.unfold(x, 2, strides=2)", tag=dt, x=x(dt))

    api = FN + "fold"
    case(api, "F.fold(x, [4, 5], 2)", x=T("float32", [2, 12, 12]))
    case(api, "F.fold(x, [5, 6], [2, 3], strides=2, paddings=1)", x=T("float32", [1, 12, 12]))
    case(api, "F.fold(x, 4, 2, paddings=[1, 0, 2, 1])", x=T("float32", [2, 8, 15]))
    case(api, "F.fold(x, [4, 5], [2, 2], strides=[2, 1], paddings=[0, 1])",
         x=T("float32", [1, 4, 12]))
    case(api, "F.fold(x, [5, 6], [2, 3], strides=2, paddings=[1, 1, 1, 1])",
         x=T("float64", [2, 12, 9]))
    case(api, "F.fold(x, [6, 5], 2, dilations=2)", x=T("float64", [1, 8, 12]))
    case(api, "F.fold(x, [4, 5], 2)", tag="bad L", x=T("float32", [2, 12, 11]))
    case(api, "F.fold(x, [4, 5], 2)", tag="rank 4", x=T("float32", [2, 12, 3, 4]))


# ---------------------------------------------------------------------------- losses
def loss_cases():
    reds = ("'mean'", "'sum'", "'none'")
    api = FN + "soft_margin_loss"
    for r in reds:
        case(api, f"F.soft_margin_loss(x, y, reduction={r})", x=T("float32", [3, 4]),
             y=PM1([3, 4]))
    case(api, "F.soft_margin_loss(x, y)", tag="int label", x=T("float64", [5]),
         y=I("int64", [5], [1, -1, 1, 1, -1]))
    case(api, "F.soft_margin_loss(x, y, reduction='max')", x=T("float32", [3]), y=PM1([3]))
    case(api, "F.soft_margin_loss(x, y)", tag="shape", x=T("float32", [3]), y=PM1([4]))

    api = FN + "gaussian_nll_loss"
    for r in reds:
        case(api, f"F.gaussian_nll_loss(x, y, v, reduction={r})", x=T("float32", [4, 3]),
             y=T("float32", [4, 3]), v=T("float32", [4, 3], 0.1, 2.0))
    case(api, "F.gaussian_nll_loss(x, y, v, full=True)", x=T("float64", [4, 3]),
         y=T("float64", [4, 3]), v=T("float64", [4], 0.1, 2.0))
    case(api, "F.gaussian_nll_loss(x, y, v, epsilon=0.5)", x=T("float32", [4, 3]),
         y=T("float32", [4, 3]), v=T("float32", [4, 1], 0.1, 2.0))
    case(api, "F.gaussian_nll_loss(x, y, v)", tag="negative var", x=T("float32", [3]),
         y=T("float32", [3]), v=I("float32", [3], [1.0, -0.5, 2.0]))
    case(api, "F.gaussian_nll_loss(x, y, v)", tag="bad var shape", x=T("float32", [4, 3]),
         y=T("float32", [4, 3]), v=T("float32", [3], 0.1, 1.0))
    case(api, "F.gaussian_nll_loss(x, y, v)", tag="int input", x=I("int64", [2], [1, 2]),
         y=T("float32", [2]), v=T("float32", [2], 0.1, 1.0))

    api = FN + "hinge_embedding_loss"
    for r in reds:
        case(api, f"F.hinge_embedding_loss(x, y, reduction={r})", x=T("float32", [3, 4]),
             y=PM1([3, 4]))
    case(api, "F.hinge_embedding_loss(x, y, margin=0.5)", x=T("float64", [6]),
         y=PM1([6], "float64"))

    api = FN + "multi_label_soft_margin_loss"
    for r in reds:
        case(api, f"F.multi_label_soft_margin_loss(x, y, reduction={r})",
             x=T("float32", [3, 4]), y=T("float32", [3, 4], ints=(0, 2)))
    case(api, "F.multi_label_soft_margin_loss(x, y, w)", x=T("float64", [3, 4]),
         y=T("float64", [3, 4], ints=(0, 2)), w=T("float64", [4], 0.1, 1.0))
    case(api, "F.multi_label_soft_margin_loss(x, y)", tag="shape", x=T("float32", [3, 4]),
         y=T("float32", [3, 3], ints=(0, 2)))

    api = FN + "cosine_embedding_loss"
    for r in reds:
        case(api, f"F.cosine_embedding_loss(a, b, y, margin=0.3, reduction={r})",
             a=T("float32", [4, 5]), b=T("float32", [4, 5]),
             y=I("int64", [4], [1, -1, -1, 1]))
    case(api, "F.cosine_embedding_loss(a, b, y)", tag="1-d", a=T("float64", [5]),
         b=T("float64", [5]), y=I("float64", [1], [-1.0]))
    case(api, "F.cosine_embedding_loss(a, b, y)", tag="2-d label", a=T("float32", [4, 5]),
         b=T("float32", [4, 5]), y=I("int64", [4, 1], [1, -1, -1, 1]))

    api = FN + "triplet_margin_with_distance_loss"
    trip = lambda dt="float32": dict(a=T(dt, [4, 5]), p=T(dt, [4, 5]), n=T(dt, [4, 5]))  # noqa
    for r in reds:
        case(api, f"F.triplet_margin_with_distance_loss(a, p, n, reduction={r})", **trip())
    case(api, "F.triplet_margin_with_distance_loss(a, p, n, distance_function=lambda u, v: "
              "paddle.abs(u - v).sum(-1), margin=2.0, swap=True)", **trip("float64"))
    case(api, "F.triplet_margin_with_distance_loss(a, p, n, margin=-1.0)", **trip())
    case(api, "F.triplet_margin_with_distance_loss(a, p, n, distance_function=lambda u, v: "
              "(u - v).sum(-1))", tag="negative distance", **trip())

    api = FN + "triplet_margin_loss"
    for r in reds:
        case(api, f"F.triplet_margin_loss(a, p, n, reduction={r})", **trip())
    case(api, "F.triplet_margin_loss(a, p, n, margin=0.5, p=1, swap=True)", **trip("float64"))
    case(api, "F.triplet_margin_loss(a, p, n, p=3, epsilon=0.1)", **trip())

    api = FN + "multi_margin_loss"
    lab = lambda: I("int64", [4], [1, 0, 4, 2])  # noqa: E731
    for r in reds:
        case(api, f"F.multi_margin_loss(x, y, reduction={r})", x=T("float32", [4, 5]), y=lab())
    case(api, "F.multi_margin_loss(x, y, p=2, margin=0.5, weight=w)", x=T("float64", [4, 5]),
         y=lab(), w=T("float64", [5], 0.1, 1.0))
    case(api, "F.multi_margin_loss(x, y, weight=w, reduction='none')", x=T("float32", [4, 5]),
         y=I("int32", [4], [1, 0, 4, 2]), w=T("float32", [5], 0.1, 1.0))
    case(api, "F.multi_margin_loss(x, y)", tag="batch", x=T("float32", [4, 5]),
         y=I("int64", [3], [1, 0, 4]))

    api = FN + "dice_loss"
    case(api, "F.dice_loss(F.softmax(x), y)", x=T("float32", [3, 4, 2]),
         y=T("int64", [3, 4, 1], ints=(0, 2)))
    case(api, "F.dice_loss(x, y, epsilon=0.1)", x=T("float64", [2, 5], 0, 1),
         y=T("int32", [2, 1], ints=(0, 5)))
    case(api, "F.dice_loss(x, y)", tag="label shape", x=T("float32", [3, 4]),
         y=T("int64", [3, 2], ints=(0, 4)))

    api = FN + "npair_loss"
    case(api, "F.npair_loss(a, p, y)", a=T("float32", [5, 4]), p=T("float32", [5, 4]),
         y=I("float32", [5], [1, 2, 1, 3, 2]))
    case(api, "F.npair_loss(a, p, y, l2_reg=0.1)", a=T("float32", [4, 3]),
         p=T("float32", [4, 3]), y=I("int64", [4], [0, 1, 2, 2]))

    api = FN + "hsigmoid_loss"
    case(api, "F.hsigmoid_loss(x, y, 6, w, b)", x=T("float32", [4, 3]),
         y=I("int64", [4], [0, 1, 4, 5]), w=T("float32", [5, 3]), b=T("float32", [5, 1]))
    case(api, "F.hsigmoid_loss(x, y, 8, w)", x=T("float64", [5, 3]),
         y=I("int64", [5], [0, 7, 3, 4, 6]), w=T("float64", [7, 3]))
    case(api, "F.hsigmoid_loss(x, y, 3, w, b)", x=T("float32", [3, 2], -30, 30),
         y=I("int64", [3], [0, 1, 2]), w=T("float32", [2, 2], -3, 3),
         b=T("float32", [2, 1]))
    case(api, "F.hsigmoid_loss(x, y, 6, w, b, path_table=pt, path_code=pc)",
         x=T("float32", [3, 4]), y=I("int64", [3], [0, 2, 5]), w=T("float32", [6, 4]),
         b=T("float32", [6, 1]),
         pt=I("int64", [3, 3], [0, 1, 3, 0, 2, -1, 0, 1, -1]),
         pc=I("int64", [3, 3], [1, 0, 1, 0, 1, -1, 1, 1, 0]))
    case(api, "F.hsigmoid_loss(x, y, 1, w)", tag="one class", x=T("float32", [2, 3]),
         y=I("int64", [2], [0, 0]), w=T("float32", [1, 3]))

    api = FN + "margin_cross_entropy"
    mce_ref = ("_mce(x, y, {m1}, {m2}, {m3}, {s}, {red}, {sm})")
    pre = '''
def _mce(x, y, m1, m2, m3, s, red, sm):
    lab = y.reshape([-1, 1]).astype('int64')
    theta = paddle.acos(paddle.take_along_axis(x, lab, 1)) * m1 + m2
    tgt = paddle.cos(theta) - m3
    oh = F.one_hot(lab.reshape([-1]), x.shape[-1]).astype(x.dtype)
    z = (x * (1 - oh) + tgt * oh) * s
    logp = z - paddle.logsumexp(z, -1, keepdim=True)
    loss = -paddle.take_along_axis(logp, lab, 1)
    if red == 'mean':
        loss = loss.mean()
    elif red == 'sum':
        loss = loss.sum()
    return (loss, paddle.exp(logp)) if sm else loss
'''
    for m, red, sm in (((1.0, 0.5, 0.0, 64.0), "mean", False), ((1.0, 0.5, 0.0, 64.0), "sum", True),
                       ((0.9, 0.4, 0.1, 8.0), "none", True), ((1.0, 0.0, 0.35, 30.0), None, False),
                       ((1.2, 0.2, 0.05, 16.0), "mean", True)):
        kw = f"margin1={m[0]}, margin2={m[1]}, margin3={m[2]}, scale={m[3]}"
        r = repr(red)
        case(api, f"F.margin_cross_entropy(x, y, {kw}, return_softmax={sm}, reduction={r})",
             pre=pre, ref=mce_ref.format(m1=m[0], m2=m[1], m3=m[2], s=m[3], red=r, sm=sm),
             x=T("float32" if red != "none" else "float64", [4, 6], -0.95, 0.95),
             y=I("int64", [4], [0, 5, 2, 2]))
    case(api, "F.margin_cross_entropy(x, y)", tag="label rank", x=T("float32", [4, 6], -.9, .9),
         y=I("int64", [1, 2, 4], [0, 5, 2, 2, 1, 1, 1, 1]))

    api = FN + "adaptive_log_softmax_with_loss"
    tails = dict(a1=T("float32", [8, 4]), a2=T("float32", [4, 3]), b1=T("float32", [8, 2]),
                 b2=T("float32", [2, 4]))
    call = "F.adaptive_log_softmax_with_loss(x, y, hw, [[a1, a2], [b1, b2]], [3, 6, 10]{})"
    case(api, call.format(""), x=T("float32", [5, 8]), y=I("int64", [5], [0, 3, 5, 9, 2]),
         hw=T("float32", [8, 5]), **tails)
    case(api, call.format(", hb"), x=T("float32", [4, 8]), y=I("int64", [4], [1, 7, 8, 6]),
         hw=T("float32", [8, 5]), hb=T("float32", [5]), **tails)
    case(api, call.format(""), tag="0-d label", x=T("float32", [8]), y=I("int64", [], [4]),
         hw=T("float32", [8, 5]), **tails)
    case(api, call.format(""), tag="out of range", x=T("float32", [2, 8]),
         y=I("int64", [2], [0, 10]), hw=T("float32", [8, 5]), **tails)
    case(api, call.format(""), tag="2-d label", x=T("float32", [2, 8]),
         y=I("int64", [2, 1], [0, 1]), hw=T("float32", [8, 5]), **tails)


# ---------------------------------------------------------------------------- sequences
def sequence_cases():
    api = FN + "ctc_loss"
    seq = lambda dt="float32": dict(  # noqa: E731
        x=T(dt, [6, 2, 5]), y=I("int32", [2, 3], [1, 2, 2, 3, 1, 0]),
        il=I("int64", [2], [6, 5]), ll=I("int64", [2], [3, 2]))
    for r in ("'mean'", "'sum'", "'none'"):
        case(api, f"F.ctc_loss(x, y, il, ll, reduction={r})", **seq())
    case(api, "F.ctc_loss(x, y, il, ll, norm_by_times=True)", **seq())
    case(api, "F.ctc_loss(x, y, il, ll, reduction='sum', norm_by_times=True)", **seq("float64"))
    case(api, "F.ctc_loss(x, y, il, ll, blank=4, reduction='none')",
         x=T("float32", [5, 3, 5]), y=I("int32", [3, 2], [0, 1, 3, 3, 2, 0]),
         il=I("int64", [3], [5, 4, 2]), ll=I("int64", [3], [2, 2, 1]))
    case(api, "F.ctc_loss(x, y, il, ll, reduction='none', zero_infinity=True)",
         x=T("float32", [3, 2, 4]), y=I("int32", [2, 3], [1, 1, 1, 2, 3, 0]),
         il=I("int64", [2], [3, 3]), ll=I("int64", [2], [3, 2]))

    api = FN + "rnnt_loss"
    rn = lambda dt="float32": dict(  # noqa: E731
        x=T(dt, [2, 4, 3, 5]), y=I("int32", [2, 2], [1, 2, 3, 0]),
        il=I("int32", [2], [4, 3]), ll=I("int32", [2], [2, 1]))
    for r in ("'mean'", "'sum'", "'none'"):
        case(api, f"F.rnnt_loss(x, y, il, ll, reduction={r})", **rn())
    case(api, "F.rnnt_loss(F.log_softmax(x, -1), y, il, ll, fastemit_lambda=0.0)", **rn())
    case(api, "F.rnnt_loss(F.log_softmax(x, -1), y, il, ll, blank=4, fastemit_lambda=0.5, "
              "reduction='none')", x=T("float64", [3, 5, 4, 5]),
         y=I("int32", [3, 3], [1, 2, 3, 0, 0, 0, 2, 2, 0]), il=I("int32", [3], [5, 2, 4]),
         ll=I("int32", [3], [3, 0, 2]))

    api = FN + "temporal_shift"
    case(api, "F.temporal_shift(x, 2)", x=T("float32", [4, 8, 2, 2]))
    case(api, "F.temporal_shift(x, 3, shift_ratio=0.2)", x=T("float64", [6, 10, 1, 2]))
    case(api, "F.temporal_shift(x, 2, data_format='NHWC')", x=T("float32", [4, 2, 3, 4]))
    case(api, "F.temporal_shift(x, 4, 0.4)", x=T("float32", [4, 5, 1, 1]))
    case(api, "F.temporal_shift(x, 2, data_format='NCDHW')", x=T("float32", [4, 8, 2, 2]))
    for dt in LOWP:
        case(api, "F.temporal_shift(x, 2)", tag=dt, x=T(dt, [4, 4, 1, 2]))

    api = FN + "gather_tree"
    ids = [2, 2, 6, 1, 3, 9, 6, 1, 0, 1, 9, 0]
    par = [0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1]
    case(api, "F.gather_tree(i, p)", i=I("int64", [3, 2, 2], ids), p=I("int64", [3, 2, 2], par))
    case(api, "F.gather_tree(i, p)", i=I("int32", [4, 1, 3], list(range(12))),
         p=I("int32", [4, 1, 3], [0, 0, 0, 2, 1, 0, 0, 2, 2, 1, 1, 0]))
    case(api, "F.gather_tree(i, p)", tag="rank", i=I("int64", [3, 4], ids), p=I("int64", [3, 4], par))


# ---------------------------------------------------------------------------- activations, norms
def activation_cases():
    api = FN + "rrelu"
    case(api, "F.rrelu(x)", pre="paddle.seed(3)", x=T("float32", [3, 5]))
    case(api, "F.rrelu(x, 0.1, 0.6)", pre="paddle.seed(11)", x=T("float64", [2, 3, 4]))
    case(api, "F.rrelu(x, training=False)", x=T("float32", [7]))
    case(api, "F.rrelu(x, 0.2, 0.3, training=False)", x=T("float64", [2, 3]))
    case(api, "F.rrelu(x)", pre="paddle.seed(3)", tag="bfloat16", x=T("bfloat16", [9]))
    case(api, "F.rrelu(x, 0, 0.5)", x=T("float32", [3]))
    case(api, "F.rrelu(x, 0.5, 0.2)", x=T("float32", [3]))
    case(api, "F.rrelu(x, 0.5, 1.5)", x=T("float32", [3]))
    case(api, "[F.rrelu(x), paddle.rand([3])]", tag="stream after", pre="paddle.seed(5)",
         x=T("float32", [4, 4]))

    api = FN + "maxout"
    case(api, "F.maxout(x, 2)", x=T("float32", [2, 4, 3, 3]))
    case(api, "F.maxout(x, 3, axis=-1)", x=T("float64", [2, 3, 2, 6]))
    case(api, "F.maxout(x, 4, axis=3)", x=T("float32", [1, 2, 2, 8]))
    case(api, "F.maxout(x, 3)", tag="not divisible", x=T("float32", [1, 4, 2, 2]))
    case(api, "F.maxout(x, 2, axis=2)", x=T("float32", [1, 4, 2, 2]))

    api = FN + "gumbel_softmax"
    case(api, "F.gumbel_softmax(x)", pre="paddle.seed(2)", x=T("float32", [3, 5]))
    case(api, "F.gumbel_softmax(x, temperature=0.5, axis=0)", pre="paddle.seed(9)",
         x=T("float64", [4, 3]))
    case(api, "F.gumbel_softmax(x, hard=True)", pre="paddle.seed(4)", x=T("float32", [2, 3, 4]))
    case(api, "[F.gumbel_softmax(x, 2.0), paddle.rand([2])]", tag="stream after",
         pre="paddle.seed(6)", x=T("float32", [6]))

    api = FN + "local_response_norm"
    case(api, "F.local_response_norm(x, 3)", x=T("float32", [2, 6, 3, 3]))
    case(api, "F.local_response_norm(x, 4, alpha=0.1, beta=0.5, k=2.0)", x=T("float64", [2, 5, 2, 3]))
    case(api, "F.local_response_norm(x, 3, data_format='NHWC')", x=T("float32", [2, 3, 2, 5]))
    case(api, "F.local_response_norm(x, 2, data_format='NCL')", x=T("float32", [2, 4, 5]))
    case(api, "F.local_response_norm(x, 5, alpha=1.0, data_format='NDHWC')",
         x=T("float32", [1, 2, 2, 3, 6]))
    case(api, "F.local_response_norm(x, 3)", tag="rank 2", x=T("float32", [2, 6]))
    case(api, "F.local_response_norm(x, 3, data_format='NCWH')", x=T("float32", [2, 6, 2, 2]))


# ---------------------------------------------------------------------------- attention, incubate
SA_PRE = '''
def _sa(q, k, v, off, cols, kp=None, am=None):
    off, cols = off.numpy(), cols.numpy()
    b, h, n = off.shape[0], off.shape[1], off.shape[2] - 1
    lay = np.zeros((b, h, n, n), bool)
    for i in range(b):
        for j in range(h):
            for r in range(n):
                lay[i, j, r, cols[i, j, off[i, j, r]:off[i, j, r + 1]]] = True
    keep = lay.copy()
    if kp is not None:
        keep &= (kp.numpy() != 0)[:, None, None, :]
    if am is not None:
        keep &= am.numpy() != 0
    s = paddle.matmul(q, k, transpose_y=True) / float(np.sqrt(q.shape[-1]))
    s = paddle.where(paddle.to_tensor(keep), s, paddle.full_like(s, -np.inf))
    w = F.softmax(s, -1)
    w = paddle.where(paddle.to_tensor(lay.any(-1, keepdims=True)), w, paddle.zeros_like(w))
    return paddle.matmul(w, v)
'''


def attention_cases():
    api = FN + "sparse_attention"
    qkv = lambda dt="float32", b=1, h=2, n=4, d=8: dict(  # noqa: E731
        q=T(dt, [b, h, n, d]), k=T(dt, [b, h, n, d]), v=T(dt, [b, h, n, d]))
    off = I("int32", [1, 2, 5], [0, 2, 4, 6, 8, 0, 1, 3, 6, 10])
    cols = I("int32", [1, 2, 10], [0, 1, 0, 1, 2, 3, 2, 3, 0, 0,
                                   0, 0, 1, 0, 1, 2, 0, 1, 2, 3])
    case(api, "F.sparse_attention(q, k, v, off, cols)", pre=SA_PRE,
         ref="_sa(q, k, v, off, cols)", off=off, cols=cols, **qkv())
    off2 = I("int32", [2, 1, 4], [0, 3, 6, 9, 0, 1, 1, 3])
    cols2 = I("int32", [2, 1, 9], [0, 1, 2, 0, 1, 2, 0, 1, 2, 2, 0, 1, 0, 0, 0, 0, 0, 0])
    case(api, "F.sparse_attention(q, k, v, off, cols, key_padding_mask=kp, attn_mask=am)",
         pre=SA_PRE, ref="_sa(q, k, v, off, cols, kp, am)", off=off2, cols=cols2,
         kp=I("float64", [2, 3], [1, 1, 0, 1, 1, 1]),
         am=I("float64", [3, 3], [1, 0, 0, 1, 1, 0, 1, 1, 1]), **qkv("float64", 2, 1, 3, 4))

    api = IFN + "fused_feedforward"
    ffp = lambda dt="float32": dict(  # noqa: E731
        x=T(dt, [2, 3, 4]), w1=T(dt, [4, 8]), w2=T(dt, [8, 4]), b1=T(dt, [8]), b2=T(dt, [4]),
        s1=T(dt, [4], 0.5, 1.5), c1=T(dt, [4]), s2=T(dt, [4], 0.5, 1.5), c2=T(dt, [4]))
    ref_post = ("F.layer_norm(x + F.linear({act}(F.linear(x, w1, b1)), w2, b2), 4, s2, c2, "
                "1e-5)")
    case(api, "IF.fused_feedforward(x, w1, w2, b1, b2, s1, c1, s2, c2, 0.0, 0.0)",
         ref=ref_post.format(act="F.relu"), **ffp())
    case(api, "IF.fused_feedforward(x, w1, w2, b1, b2, s1, c1, s2, c2, 0.3, 0.2, "
              "activation='gelu', training=False)", ref=ref_post.format(act="F.gelu"),
         **ffp("float64"))
    case(api, "IF.fused_feedforward(x, w1, w2, b1, b2, s1, c1, s2, c2, 0.0, 0.0, "
              "pre_layer_norm=True)",
         ref="x + F.linear(F.relu(F.linear(F.layer_norm(x, 4, s1, c1, 1e-5), w1, b1)), w2, b2)",
         **ffp())
    case(api, "IF.fused_feedforward(x, w1, w2, dropout1_rate=0.0, dropout2_rate=0.0, "
              "add_residual=False, ln2_epsilon=1e-3)",
         ref="F.layer_norm(F.linear(F.relu(F.linear(x, w1)), w2), 4, epsilon=1e-3)",
         x=T("float32", [3, 4]), w1=T("float32", [4, 6]), w2=T("float32", [6, 4]))
    case(api, "IF.fused_feedforward(x, w1, w2, dropout1_rate=0.5, dropout2_rate=0.5, "
              "training=False, mode='downscale_in_infer')",
         ref="F.layer_norm(x + 0.5 * F.linear(0.5 * F.relu(F.linear(x, w1)), w2), 4)",
         x=T("float32", [3, 4]), w1=T("float32", [4, 6]), w2=T("float32", [6, 4]))

    api = IFN + "fused_bias_dropout_residual_layer_norm"
    case(api, "IF.fused_bias_dropout_residual_layer_norm(x, r, b, s, c, dropout_rate=0.0)",
         ref="F.layer_norm(r + x + b, 6, s, c)", x=T("float32", [2, 3, 6]),
         r=T("float32", [2, 3, 6]), b=T("float32", [6]), s=T("float32", [6], 0.5, 1.5),
         c=T("float32", [6]))
    case(api, "IF.fused_bias_dropout_residual_layer_norm(x, r, dropout_rate=0.25, "
              "training=False, mode='downscale_in_infer', ln_epsilon=1e-3)",
         ref="F.layer_norm(r + 0.75 * x, 5, epsilon=1e-3)", x=T("float64", [3, 5]),
         r=T("float64", [3, 5]))
    case(api, "IF.fused_bias_dropout_residual_layer_norm(x, r, dropout_rate=0.4, "
              "training=False)", ref="F.layer_norm(r + x, 5)", x=T("float32", [3, 5]),
         r=T("float32", [3, 5]))

    api = IFN + "fused_linear_activation"
    case(api, "IF.fused_linear_activation(x, y, b)", ref="paddle.matmul(x, y) + b",
         x=T("float32", [3, 4]), y=T("float32", [4, 5]), b=T("float32", [5]))
    case(api, "IF.fused_linear_activation(x, y, b, activation='relu')",
         ref="F.relu(paddle.matmul(x, y) + b)", x=T("float32", [3, 4]), y=T("float32", [4, 5]),
         b=T("float32", [5]))
    case(api, "IF.fused_linear_activation(x, y, b, trans_x=True, trans_y=True, "
              "activation='gelu')",
         ref="F.gelu(paddle.matmul(x, y, transpose_x=True, transpose_y=True) + b, True)",
         x=T("float64", [4, 3]), y=T("float64", [5, 4]), b=T("float64", [5]))

    api = IFN + "blha_get_max_len"
    ref = ("(paddle.to_tensor([max(0, int(e.numpy()[:n.shape[0]].max()))], 'int32'), "
           "paddle.to_tensor([max(0, int(d.numpy()[:n.shape[0]].max()))], 'int32'))")
    case(api, "IF.blha_get_max_len(e, d, n)", ref=ref, e=I("int32", [4], [3, 7, 2, 9]),
         d=I("int32", [4], [0, 5, 1, 0]), n=I("float32", [3], [1, 1, 1]))
    case(api, "IF.blha_get_max_len(e, d, n)", ref=ref, e=I("int32", [2], [-1, -3]),
         d=I("int32", [2], [4, 0]), n=I("int32", [2], [1, 1]))


def sampling_cases():
    api = FN + "class_center_sample"
    lab = I("int64", [10], [11, 5, 1, 3, 12, 2, 15, 19, 18, 19])
    case(api, "F.class_center_sample(y, 20, 15)[0]", tag="remapped", y=lab)
    case(api, "F.class_center_sample(y, 20, 15)[1][:9]", tag="positives first", y=lab)
    case(api, "F.class_center_sample(y, 20, 5)", tag="no negatives", y=lab)
    case(api, "F.class_center_sample(y, 10, 6)[0]", y=I("int32", [5], [3, 3, 0, 7, 0]))
    case(api, "F.class_center_sample(y, 10, 6)[1][:3]", y=I("int32", [5], [3, 3, 0, 7, 0]))
    case(api, "F.class_center_sample(y, 10, 12)", y=I("int64", [2], [1, 2]))
    case(api, "F.class_center_sample(y, 10, 4)", tag="2-d", y=I("int64", [2, 1], [1, 2]))

    api = "paddle.geometric.sample_neighbors"
    row = I("int64", [13], [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7])
    ptr = I("int64", [11], [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13])
    case(api, "paddle.geometric.sample_neighbors(r, c, n, sample_size=5)", r=row, c=ptr,
         n=I("int64", [5], [0, 8, 1, 2, 7]))
    case(api, "paddle.geometric.sample_neighbors(r, c, n, sample_size=2, eids=e, "
              "return_eids=True)", r=row, c=ptr, n=I("int64", [4], [6, 5, 3, 9]),
         e=I("int64", [13], list(range(100, 113))))
    case(api, "paddle.geometric.sample_neighbors(r, c, n, sample_size=2)",
         r=I("int32", [13], [3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7]),
         c=I("int32", [11], [0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13]), n=I("int32", [2], [0, 1]))
    case(api, "paddle.geometric.sample_neighbors(r, c, n, return_eids=True)", r=row, c=ptr,
         n=I("int64", [2], [0, 1]))


def main():
    block_cases()
    loss_cases()
    sequence_cases()
    activation_cases()
    attention_cases()
    sampling_cases()
    base.save()


if __name__ == "__main__":
    main()
