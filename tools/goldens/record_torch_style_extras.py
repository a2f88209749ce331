"""Record, on real Paddle 3.3.1, the torch-style names added for issue 22's snippet workload:
``paddle.nn.init`` (every initialiser, on Parameters and plain Tensors, the random ones seeded
so their bits can be compared), ``paddle.nn.functional`` names (``logsigmoid``, ``pdist``,
``diag_embed``, ``multi_label_margin_loss``, ``embedding_renorm_``), ``paddle.meshgrid(...,
indexing=)``, ``Tensor.ldexp_`` and ``Tensor.random_``.

    /work/paddle_venv/bin/python tools/goldens/record_torch_style_extras.py

Writes tests/goldens/torch_style_extras.json: ``cases`` [{id, code, exact}] and ``results``
{id: what ``golden_utils.run_case`` describes}. ``exact`` marks cases whose float values must
match bit for bit (random draws from Paddle's CPU stream, constants); the others compare with
golden_utils' dtype tolerances (the "deep" tier for the QR-based orthogonal_).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import paddle  # noqa: E402  (real Paddle: this script runs only in its virtualenv)
from golden_utils import run_case  # noqa: E402

P = "w = paddle.create_parameter({shape}, '{dtype}')\n"
# the public names and the one private helper code reaches; Paddle's module imports excluded
INIT_NAMES = ("out = sorted(n for n in dir(paddle.nn.init) if (not n.startswith('_') or "
              "n == '_calculate_fan_in_and_fan_out') and n not in ('annotations', 'np', "
              "'paddle', 'in_dygraph_mode', 'in_pir_mode'))")

# (id, code, exact)
CASES = [
    ("init/names", INIT_NAMES, True),
    ("init/classes", "out = [paddle.nn.init.Constant is paddle.nn.initializer.Constant, "
                     "paddle.nn.init.Dirac is paddle.nn.initializer.Dirac, "
                     "paddle.nn.init.KaimingUniform is paddle.nn.initializer.KaimingUniform]",
     True),
    ("init/constant_linear", "lin = paddle.nn.Linear(2, 3)\n"
                             "r = paddle.nn.init.constant_(lin.weight, 0.5)\nout = [r, lin.weight]",
     True),
    ("init/constant_tensor", "x = paddle.zeros([2, 2])\nr = paddle.nn.init.constant_(x, -1.25)\n"
                             "out = [r, x]", True),
    ("init/constant_f64", P.format(shape=[3], dtype="float64") +
     "paddle.nn.init.constant_(w, 0.1)\nout = w", True),
    ("init/constant_int", "x = paddle.zeros([3], 'int64')\npaddle.nn.init.constant_(x, 2)\n"
                          "out = x", True),
    ("init/ones_zeros", "lin = paddle.nn.Linear(2, 2)\npaddle.nn.init.ones_(lin.weight)\n"
                        "paddle.nn.init.zeros_(lin.bias)\nout = [lin.weight, lin.bias]", True),
    ("init/eye_wide", P.format(shape=[2, 3], dtype="float32") +
     "r = paddle.nn.init.eye_(w)\nout = [r, w]", True),
    ("init/eye_tall_f64", P.format(shape=[4, 2], dtype="float64") +
     "paddle.nn.init.eye_(w)\nout = w", True),
    ("init/eye_int", "x = paddle.full([3, 3], 7, 'int64')\npaddle.nn.init.eye_(x)\nout = x", True),
    ("init/eye_3d", P.format(shape=[2, 2, 2], dtype="float32") +
     "out = paddle.nn.init.eye_(w)", True),
    ("init/eye_1d", P.format(shape=[3], dtype="float32") + "out = paddle.nn.init.eye_(w)", True),
    ("init/dirac_conv1d", P.format(shape=[2, 3, 3], dtype="float32") +
     "r = paddle.nn.init.dirac_(w)\nout = [r, w]", True),
    ("init/dirac_even_kernel", P.format(shape=[3, 2, 4], dtype="float32") +
     "paddle.nn.init.dirac_(w)\nout = w", True),
    ("init/dirac_groups", P.format(shape=[4, 3, 3, 3], dtype="float32") +
     "paddle.nn.init.dirac_(w, groups=2)\nout = w", True),
    ("init/dirac_5d_f64", P.format(shape=[2, 2, 3, 1, 2], dtype="float64") +
     "paddle.nn.init.dirac_(w)\nout = w", True),
    ("init/dirac_2d", P.format(shape=[2, 2], dtype="float32") + "out = paddle.nn.init.dirac_(w)",
     True),
    ("init/dirac_groups_bad", P.format(shape=[3, 2, 3], dtype="float32") +
     "out = paddle.nn.init.dirac_(w, groups=2)", True),
    ("init/uniform_default", "paddle.seed(7)\n" + P.format(shape=[3, 4], dtype="float32") +
     "r = paddle.nn.init.uniform_(w)\nout = [r, w]", True),
    ("init/uniform_ab_f64", "paddle.seed(8)\n" + P.format(shape=[5], dtype="float64") +
     "paddle.nn.init.uniform_(w, a=-0.5, b=2.0)\nout = w", True),
    ("init/uniform_tensor", "paddle.seed(9)\nx = paddle.zeros([2, 3])\n"
                            "paddle.nn.init.uniform_(x, -1.0, 1.0)\nout = x", True),
    ("init/normal_default", "paddle.seed(10)\n" + P.format(shape=[3, 4], dtype="float32") +
     "paddle.nn.init.normal_(w)\nout = w", True),
    ("init/normal_mean_std_f64", "paddle.seed(11)\n" + P.format(shape=[7], dtype="float64") +
     "paddle.nn.init.normal_(w, mean=1.5, std=0.2)\nout = w", True),
    ("init/trunc_normal_default", "paddle.seed(12)\n" + P.format(shape=[4, 5], dtype="float32") +
     "paddle.nn.init.trunc_normal_(w)\nout = w", True),
    ("init/trunc_normal_ab", "paddle.seed(13)\n" + P.format(shape=[20], dtype="float32") +
     "paddle.nn.init.trunc_normal_(w, mean=0.5, std=2.0, a=-1.0, b=1.0)\nout = w", True),
    ("init/xavier_uniform", "paddle.seed(14)\n" + P.format(shape=[3, 4], dtype="float32") +
     "paddle.nn.init.xavier_uniform_(w)\nout = w", True),
    ("init/xavier_uniform_gain_fans", "paddle.seed(15)\n" + P.format(shape=[3, 4],
                                                                    dtype="float32") +
     "paddle.nn.init.xavier_uniform_(w, gain=2.0, fan_in=10.0, fan_out=6.0)\nout = w", True),
    ("init/xavier_normal_conv", "paddle.seed(16)\n" + P.format(shape=[4, 3, 3, 3],
                                                              dtype="float32") +
     "paddle.nn.init.xavier_normal_(w, gain=0.5)\nout = w", True),
    ("init/kaiming_uniform_default", "paddle.seed(17)\n" + P.format(shape=[3, 4],
                                                                   dtype="float32") +
     "r = paddle.nn.init.kaiming_uniform_(w)\nout = [r, w]", True),
    ("init/kaiming_uniform_fan_out_a", "paddle.seed(18)\n" + P.format(shape=[4, 2, 3],
                                                                     dtype="float32") +
     "paddle.nn.init.kaiming_uniform_(w, a=0.2, mode='fan_out')\nout = w", True),
    ("init/kaiming_normal_relu", "paddle.seed(19)\n" + P.format(shape=[5, 3], dtype="float64") +
     "paddle.nn.init.kaiming_normal_(w, nonlinearity='relu')\nout = w", True),
    ("init/kaiming_normal_tanh_fan_out", "paddle.seed(20)\n" + P.format(shape=[4, 3, 2, 2],
                                                                       dtype="float32") +
     "paddle.nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='tanh')\nout = w", True),
    ("init/kaiming_bad_mode", P.format(shape=[2, 2], dtype="float32") +
     "out = paddle.nn.init.kaiming_normal_(w, mode='fan')", True),
    ("init/orthogonal_wide", "paddle.seed(21)\n" + P.format(shape=[3, 5], dtype="float32") +
     "r = paddle.nn.init.orthogonal_(w)\nout = [r, w]", False),
    ("init/orthogonal_tall_gain", "paddle.seed(22)\n" + P.format(shape=[6, 2], dtype="float32") +
     "paddle.nn.init.orthogonal_(w, gain=2.0)\nout = w", False),
    ("init/orthogonal_1d", P.format(shape=[4], dtype="float32") +
     "out = paddle.nn.init.orthogonal_(w)", True),
    ("init/calculate_gain", "out = [paddle.nn.init.calculate_gain(n) for n in ('sigmoid', "
                            "'tanh', 'relu', 'selu', 'conv2d')] + "
                            "[paddle.nn.init.calculate_gain('leaky_relu', 0.2), "
                            "paddle.nn.init.calculate_gain('leaky_relu')]", False),
    ("init/fans", "f = paddle.nn.init._calculate_fan_in_and_fan_out\n"
                  "out = [f(paddle.zeros(s)) for s in ([], [5], [3, 4], [4, 3, 2, 5])]", True),
    ("init/keeps_stop_gradient", P.format(shape=[2, 2], dtype="float32") + "n = w.name\n" +
     "paddle.nn.init.constant_(w, 3.0)\nout = [w.stop_gradient, w.persistable, w.name == n]",
     True),
    ("init/grad_after", "lin = paddle.nn.Linear(2, 1)\npaddle.nn.init.ones_(lin.weight)\n"
                        "paddle.nn.init.zeros_(lin.bias)\n"
                        "lin(paddle.to_tensor([[1.0, 2.0]])).sum().backward()\n"
                        "out = lin.weight.grad", True),
    # ---------------------------------------------------------------- functional
    ("F/logsigmoid", "x = paddle.to_tensor([-30.0, -1.0, 0.0, 2.5, 40.0])\n"
                     "F = paddle.nn.functional\n"
                     "out = [F.logsigmoid(x), F.logsigmoid(input=x), "
                     "F.logsigmoid is F.log_sigmoid]", False),
    ("F/logsigmoid_f64_grad", "x = paddle.to_tensor([-3.0, 0.5, 4.0], 'float64', "
                              "stop_gradient=False)\n"
                              "y = paddle.nn.functional.logsigmoid(x)\ny.sum().backward()\n"
                              "out = [y, x.grad]", False),
    ("F/logsigmoid_both", "x = paddle.ones([2])\n"
                          "out = paddle.nn.functional.logsigmoid(x, input=x)", True),
    ("F/pdist", "x = paddle.to_tensor([[0., 1., 2.], [3., 4., 6.], [1., 1., 1.], "
                "[-2., 0., 5.]])\nF = paddle.nn.functional\n"
                "out = [F.pdist(x), F.pdist(x, p=1.0), F.pdist(x, p=0.0), "
                "F.pdist(x, p=float('inf')), F.pdist(x, p=3.5)]", False),
    ("F/pdist_f64_grad", "x = paddle.to_tensor([[0., 1.], [3., 5.], [2., -1.]], 'float64', "
                         "stop_gradient=False)\ny = paddle.nn.functional.pdist(x)\n"
                         "y.sum().backward()\nout = [y, x.grad]", False),
    ("F/pdist_one_row", "out = paddle.nn.functional.pdist(paddle.ones([1, 3]))", False),
    ("F/pdist_3d", "out = paddle.nn.functional.pdist(paddle.ones([2, 2, 2]))", True),
    ("F/diag_embed", "x = paddle.to_tensor([[1., 2.], [3., 4.]])\nF = paddle.nn.functional\n"
                     "out = [F.diag_embed(x), F.diag_embed(x, offset=1), "
                     "F.diag_embed(x, offset=-1, dim1=0, dim2=2)]", False),
    ("F/multi_label_margin_loss", "x = paddle.to_tensor([[0.1, 0.2, 0.4, 0.8], "
                                  "[0.5, -0.3, 0.9, 0.0]])\n"
                                  "y = paddle.to_tensor([[3, 0, -1, 1], [1, 2, 3, -1]])\n"
                                  "F = paddle.nn.functional\n"
                                  "out = [F.multi_label_margin_loss(x, y), "
                                  "F.multi_label_margin_loss(x, y, reduction='sum'), "
                                  "F.multi_label_margin_loss(x, y, reduction='none')]", False),
    ("F/multi_label_margin_loss_1d_grad",
     "x = paddle.to_tensor([0.1, 0.2, 0.4, 0.8], stop_gradient=False)\n"
     "y = paddle.to_tensor([3, 0, -1, 1])\n"
     "l = paddle.nn.functional.multi_label_margin_loss(x, y)\nl.backward()\n"
     "out = [l, x.grad]", False),
    ("F/embedding_renorm_", "w = paddle.to_tensor([[3., 4.], [0.3, 0.4], [6., 8.], [1., 0.]])\n"
                            "ids = paddle.to_tensor([0, 2, 2, 3])\n"
                            "r = paddle.nn.functional.embedding_renorm_(ids, w, max_norm=2.0)\n"
                            "out = [r, w]", False),
    ("F/embedding_renorm_p1", "w = paddle.to_tensor([[3., -4.], [0.3, 0.4]])\n"
                              "ids = paddle.to_tensor([[0, 1]])\n"
                              "paddle.nn.functional.embedding_renorm_(ids, w, 1.0, 1.0)\n"
                              "out = w", False),
    # ---------------------------------------------------------------- meshgrid
    ("meshgrid/xy_two", "out = paddle.meshgrid(paddle.arange(3), paddle.arange(2), "
                        "indexing='xy')", True),
    ("meshgrid/xy_three", "out = paddle.meshgrid(paddle.arange(3), paddle.arange(2), "
                          "paddle.arange(4), indexing='xy')", True),
    ("meshgrid/xy_mixed_dtypes", "out = paddle.meshgrid(paddle.arange(3), paddle.arange(2), "
                                 "paddle.to_tensor([5., 6., 7., 8.]), indexing='xy')", True),
    ("meshgrid/xy_mixed_first_two", "out = paddle.meshgrid(paddle.arange(3), "
                                    "paddle.to_tensor([5., 6.]), indexing='xy')", True),
    ("meshgrid/xy_list", "out = paddle.meshgrid([paddle.arange(3), paddle.arange(2)], "
                         "indexing='xy')", True),
    ("meshgrid/xy_one", "out = paddle.meshgrid(paddle.arange(3), indexing='xy')", True),
    ("meshgrid/ij", "out = paddle.meshgrid(paddle.arange(3), paddle.arange(2), indexing='ij')",
     True),
    ("meshgrid/none", "out = paddle.meshgrid(paddle.arange(3), paddle.arange(2), "
                      "indexing=None)", True),
    ("meshgrid/bad", "out = paddle.meshgrid(paddle.arange(3), paddle.arange(2), "
                     "indexing='yx')", True),
]

_LDEXP = [("int64", "int64"), ("int32", "int64"), ("float32", "int32"), ("float16", "int32"),
          ("float32", "float64"), ("float64", "int32"), ("int64", "float64")]
for _xd, _yd in _LDEXP:
    CASES.append((f"ldexp_/{_xd}_{_yd}",
                  f"x = paddle.to_tensor([1, 2, -3, 5]).astype('{_xd}')\n"
                  f"y = paddle.to_tensor([2, -1, 3, 0]).astype('{_yd}')\n"
                  "r = x.ldexp_(y)\nout = [r is x, x]", True))
    CASES.append((f"ldexp/{_xd}_{_yd}",
                  f"x = paddle.to_tensor([1, 2, -3, 5]).astype('{_xd}')\n"
                  f"y = paddle.to_tensor([2, -1, 3, 0]).astype('{_yd}')\n"
                  "out = [paddle.ldexp(x, y), x]", True))
CASES += [
    ("ldexp_/scalar_y", "x = paddle.to_tensor([1.0, 2.0])\nout = x.ldexp_(2)", True),
    ("ldexp_/function", "x = paddle.to_tensor([3, 4])\n"
                        "r = paddle.ldexp_(x, paddle.to_tensor([1, 2]))\nout = [r is x, x]", True),
    ("ldexp_/grad", "a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)\nx = a * 1\n"
                    "x.ldexp_(paddle.to_tensor([1, 3]))\nx.sum().backward()\nout = [x, a.grad]",
     True),
]

for _dt in ("float32", "float64", "float16", "bfloat16", "int32", "int64"):
    CASES.append((f"random_/{_dt}_0_10", f"paddle.seed(5)\nx = paddle.zeros([9], '{_dt}')\n"
                                         "r = x.random_(0, 10)\nout = [r is x, x]", True))
    CASES.append((f"random_/{_dt}_default", f"paddle.seed(6)\nx = paddle.zeros([6], '{_dt}')\n"
                                            "x.random_()\nout = x", True))
for _args in ("(7,)", "(-10, -2)", "(3, 1000)", "(0, 2 ** 28 - 1)", "(0, 2 ** 28 + 1)",
              "(-5, 2 ** 31)", "(0, 2 ** 32 + 1)", "(0, 2 ** 40)", "(-(2 ** 40), 2 ** 41)"):
    CASES.append((f"random_/int64_{_args}", f"paddle.seed(4)\nx = paddle.zeros([2, 5], 'int64')\n"
                                            f"x.random_(*{_args})\nout = x", True))
for _dt in ("uint8", "int16", "bool", "complex64"):
    CASES.append((f"random_/{_dt}_unsupported", f"x = paddle.zeros([3], '{_dt}')\n"
                                                "out = x.random_(0, 2)", True))
CASES += [
    ("random_/int32_past_its_range", "paddle.seed(5)\nx = paddle.zeros([4], 'int32')\n"
                                     "x.random_(0, 2 ** 40)\nout = x", True),
    ("random_/empty_range", "out = paddle.zeros([3]).random_(5, 5)", True),
    ("random_/negative_to", "out = paddle.zeros([3], 'int64').random_(-3)", True),
    ("random_/stream_continues", "paddle.seed(3)\nx = paddle.zeros([4], 'int64')\n"
                                 "x.random_(0, 100)\nout = [x, paddle.rand([3])]", True),
    ("random_/non_leaf", "paddle.seed(2)\na = paddle.zeros([4], 'float32')\n"
                         "a.stop_gradient = False\nx = a * 1\nx.random_(0, 5)\nout = x", True),
]


def main():
    paddle.disable_static()
    paddle.set_device("cpu")
    results = {cid: run_case(code, paddle) for cid, code, _ in CASES}
    out = {"paddle_version": paddle.__version__,
           "cases": [{"id": cid, "code": code, "exact": exact} for cid, code, exact in CASES],
           "results": results}
    path = os.path.join(ROOT, "tests", "goldens", "torch_style_extras.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {len(CASES)} cases to {path}")


if __name__ == "__main__":
    main()
