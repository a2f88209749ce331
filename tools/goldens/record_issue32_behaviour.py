"""Record Paddle 3.3.1's behaviour for issue 32's part B (zero Hessians, hsigmoid_loss path
codes, resizing to an output of one, erfinv outside [-1, 1], the piecewise activations at
their float32 kinks, recurrent layers saved by jit.save) as goldens for
tests/test_issue32_behaviour.py.

    /work/paddle_venv/bin/python tools/goldens/record_issue32_behaviour.py

Writes tests/goldens/issue32_behaviour.json: {section: {case: {"code", "value"} or {"code",
"error", "message"}}}. Each case is code run with ``paddle`` bound to real Paddle; it leaves
its result in ``out`` (``V(t)``: golden_utils.describe, a tensor as {dtype, shape, values,
stop_gradient}). The test runs the same code on paddle_compat. The "jit" section also
writes Paddle's saved recurrent models under tests/goldens/issue32_jit/.
"""
import json
import linecache
import os
import sys
import warnings

import numpy as np
import paddle

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
from golden_utils import describe  # noqa: E402  (one encoding for the recorder and the test)

GOLDENS = os.path.join(HERE, "..", "..", "tests", "goldens")
OUT = os.path.join(GOLDENS, "issue32_behaviour.json")


AUTOGRAD = {
    "hessian_linear": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', stop_gradient=False)\n"
                      "H = paddle.incubate.autograd.Hessian(lambda x: (x * 3).sum(), x)\n"
                      "out = [V(H[:]), H[:].stop_gradient, list(H.shape)]",
    "hessian_constant": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', stop_gradient=False)\n"
                        "H = paddle.incubate.autograd.Hessian(lambda x: paddle.to_tensor(2.0, "
                        "dtype='float64'), x)\nout = [V(H[:]), V(H[0])]",
    "hessian_quadratic": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', stop_gradient=False)\n"
                         "H = paddle.incubate.autograd.Hessian(lambda x: (x * x * x).sum(), x)\n"
                         "out = V(H[:])",
    "hessian_batched_linear": "x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype='float64', "
                              "stop_gradient=False)\nH = paddle.incubate.autograd.Hessian("
                              "lambda x: (x * 3).sum(1), x, is_batched=True)\n"
                              "out = [V(H[:]), list(H.shape)]",
    "hessian_two_inputs_linear": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', "
                                 "stop_gradient=False)\ny = paddle.to_tensor([3.0], dtype="
                                 "'float64', stop_gradient=False)\nH = paddle.incubate.autograd."
                                 "Hessian(lambda a, b: a.sum() * 2 + b.sum(), [x, y])\n"
                                 "out = V(H[:])",
    "hessian_functional_linear": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', "
                                 "stop_gradient=False)\nout = V(paddle.autograd.hessian("
                                 "(x * 3).sum(), x)[:])",
    "jacobian_constant": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', stop_gradient=False)\n"
                         "J = paddle.incubate.autograd.Jacobian(lambda x: paddle.ones([3], "
                         "dtype='float64'), x)\nout = [V(J[:]), list(J.shape)]",
    "jacobian_partly_constant": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', "
                                "stop_gradient=False)\nJ = paddle.incubate.autograd.Jacobian("
                                "lambda x: paddle.stack([x[0] * 2, paddle.to_tensor(1.0, "
                                "dtype='float64')]), x)\nout = V(J[:])",
    "jacobian_functional_constant": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', "
                                    "stop_gradient=False)\nout = V(paddle.autograd.jacobian("
                                    "paddle.ones([2], dtype='float64') + 0 * x.detach(), x)[:])",
    "vjp_constant": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', stop_gradient=False)\n"
                    "out = V(paddle.incubate.autograd.vjp(lambda x: paddle.ones([2], "
                    "dtype='float64'), x)[1])",
    "jvp_constant": "x = paddle.to_tensor([1.0, 2.0], dtype='float64', stop_gradient=False)\n"
                    "out = V(paddle.incubate.autograd.jvp(lambda x: paddle.ones([2], "
                    "dtype='float64'), x)[1])",
}

HSIGMOID = "\n".join([
    "x = paddle.to_tensor(np.linspace(-1, 1, 12).reshape(3, 4), dtype='float64', "
    "stop_gradient=False)",
    "w = paddle.to_tensor(np.linspace(-0.5, 0.7, 20).reshape(5, 4), dtype='float64', "
    "stop_gradient=False)",
    "b = paddle.to_tensor(np.linspace(-0.1, 0.1, 5).reshape(5, 1), dtype='float64')",
    "lab = paddle.to_tensor([[0], [2], [4]], dtype='int64')",
    "pt = paddle.to_tensor([[0, 1, -1], [2, 3, 4], [1, 4, 0]], dtype='int64')",
    "pc = paddle.to_tensor(CODES, dtype='int64')",
    "loss = paddle.nn.functional.hsigmoid_loss(x, lab, 6, w, b, path_table=pt, path_code=pc)",
    "loss.sum().backward()",
    "out = [V(loss), V(x.grad), V(w.grad)]"])
HSIG = {
    "codes_0_1": HSIGMOID.replace("CODES", "[[1, 0, 0], [0, 1, 1], [0, 0, 1]]"),
    "codes_any_int": HSIGMOID.replace("CODES", "[[1, 0, 0], [2, -1, 0], [0, 5, 1]]"),
    "codes_large": HSIGMOID.replace("CODES", "[[3, 7, 1], [-2, 0, 9], [1, 1, 1]]"),
}

RESIZE = "\n".join([
    "F = paddle.nn.functional",
    "shp = [1, 2] + SPATIAL",
    "x = paddle.to_tensor((np.arange(int(np.prod(shp))).reshape(shp) ** 2), dtype=DT)",
    "out = {}",
    "for am in (0, 1):",
    "    for ac in ((False, True) if MODE not in ('nearest', 'area') else (False,)):",
    "        for size in SIZES:",
    "            key = f'{am}-{int(ac)}-{size}'",
    "            try:",
    "                out[key] = V(F.interpolate(x, size=size, mode=MODE, align_corners=ac, "
    "align_mode=am))",
    "            except Exception as e:",
    "                out[key] = type(e).__name__",
    "            try:",
    "                out[key + '-upsample-nhwc'] = V(F.upsample(x.transpose(NHWC), size=size, "
    "mode=MODE, align_corners=ac, align_mode=am, data_format=LAYOUT))",
    "            except Exception as e:",
    "                out[key + '-upsample-nhwc'] = type(e).__name__",
    "for sf in (0.3, 0.2, 0.5):",
    "    try:",
    "        out[f'scale-{sf}'] = V(F.interpolate(x, scale_factor=sf, mode=MODE))",
    "    except Exception as e:",
    "        out[f'scale-{sf}'] = [type(e).__name__, str(e).split(chr(10))[0]]",
])
_MODES = {"linear": ([5], "[[1], [2], [4]]", "[0, 2, 1]", "NWC"),
          "bilinear": ([5, 4], "[[1, 1], [1, 2], [3, 1], [1, 3]]", "[0, 2, 3, 1]", "NHWC"),
          "bicubic": ([5, 4], "[[1, 1], [1, 2], [3, 1]]", "[0, 2, 3, 1]", "NHWC"),
          "trilinear": ([5, 4, 3], "[[1, 1, 1], [1, 2, 2], [2, 1, 3], [3, 3, 1]]",
                        "[0, 2, 3, 4, 1]", "NDHWC"),
          "area": ([5, 4], "[[1, 1], [1, 2]]", "[0, 2, 3, 1]", "NHWC"),
          "nearest": ([5, 4], "[[1, 1], [1, 2]]", "[0, 2, 3, 1]", "NHWC")}
INTERP = {f"{mode}_{dt}": RESIZE.replace("SPATIAL", repr(sp)).replace("SIZES", sizes)
          .replace("MODE", repr(mode)).replace("DT", repr(dt)).replace("NHWC", perm)
          .replace("LAYOUT", repr(layout))
          for mode, (sp, sizes, perm, layout) in _MODES.items()
          for dt in ("float32", "float64")}

ERFINV = "\n".join([
    "v = [-2.0, -1.0000001, -1.0, -0.9999999, -0.5, 0.0, 0.5, 0.9999999, 1.0, 1.0000001, 3.0, "
    "float('inf'), float('-inf'), float('nan')]",
    "x = paddle.to_tensor(v, dtype=DT, stop_gradient=False)",
    "y = paddle.erfinv(x)",
    "y.sum().backward()",
    "m = x.detach().erfinv()",
    "z = x.detach().clone()",
    "z.erfinv_()",
    "out = [V(y), V(m), V(z), V(x.grad)]",
])
ERF = {f"erfinv_{dt}": ERFINV.replace("DT", repr(dt)) for dt in ("float32", "float64")}

# ---- the piecewise activations: (call, kinks). Each case evaluates one activation on the
# points around every kink (the kink as the dtype holds it and as float32 holds it, and two
# ulps either side of each) and a few ordinary points, values and gradients.
KINKED = {
    "hardswish": ("F.hardswish(x)", [-3.0, 3.0]),
    "hardsigmoid": ("F.hardsigmoid(x)", [-3.0, 3.0, -0.5 / np.float32(0.1666667),
                                         0.5 / np.float32(0.1666667)]),
    "hardsigmoid_args": ("F.hardsigmoid(x, slope=0.3, offset=0.4)", [-0.4 / 0.3, 0.6 / 0.3]),
    "relu6": ("F.relu6(x)", [0.0, 6.0]),
    "relu": ("F.relu(x)", [0.0]),
    "hardtanh": ("F.hardtanh(x)", [-1.0, 1.0]),
    "hardtanh_args": ("F.hardtanh(x, min=-0.3, max=0.7)", [-0.3, 0.7]),
    "softshrink": ("F.softshrink(x)", [-0.5, 0.5]),
    "softshrink_args": ("F.softshrink(x, threshold=0.3)", [-0.3, 0.3]),
    "hardshrink": ("F.hardshrink(x)", [-0.5, 0.5]),
    "hardshrink_args": ("F.hardshrink(x, threshold=0.3)", [-0.3, 0.3]),
    "thresholded_relu": ("F.thresholded_relu(x)", [1.0]),
    "thresholded_relu_args": ("F.thresholded_relu(x, threshold=0.3, value=0.2)", [0.3]),
    "celu": ("F.celu(x)", [0.0]),
    "celu_args": ("F.celu(x, alpha=0.3)", [0.0]),
    "celu_negative_alpha": ("F.celu(x, alpha=-0.3)", [0.0]),
    "elu": ("F.elu(x)", [0.0]),
    "elu_args": ("F.elu(x, alpha=0.3)", [0.0]),
    "selu": ("F.selu(x)", [0.0]),
    "leaky_relu": ("F.leaky_relu(x)", [0.0]),
    "leaky_relu_args": ("F.leaky_relu(x, negative_slope=0.3)", [0.0]),
    "rrelu_eval": ("F.rrelu(x, training=False)", [0.0]),
    "softplus": ("F.softplus(x)", [20.0]),
    "softplus_args": ("F.softplus(x, beta=0.3, threshold=7.1)", [7.1 / 0.3, 7.1 / np.float32(0.3)]),
    "mish": ("F.mish(x)", [20.0, -20.0]),
    "prelu": ("F.prelu(x, paddle.to_tensor([0.3], dtype=x.dtype))", [0.0]),
    "tanhshrink": ("F.tanhshrink(x)", [0.0]),
    "maxout_like_maximum": ("paddle.maximum(x, paddle.zeros_like(x))", [0.0]),
    # the in-place forms (on a copy: x is a leaf that needs its gradient)
    "relu_inplace": ("F.relu_(x * 1.0)", [0.0]),
    "leaky_relu_inplace": ("F.leaky_relu_(x * 1.0, 0.3)", [0.0]),
    "hardtanh_inplace": ("F.hardtanh_(x * 1.0, -0.3, 0.7)", [-0.3, 0.7]),
    "elu_inplace": ("F.elu_(x * 1.0, 0.3)", [0.0]),
    "thresholded_relu_inplace": ("F.thresholded_relu_(x * 1.0, 0.3, 0.2)", [0.3]),
}
PLAIN = [-25.0, -5.0, -1.5, -0.2, 0.2, 1.5, 5.0, 25.0]


def kink_points(kinks, dtype):
    """The kinks (held in dtype, and in float32) and two ulps either side, plus PLAIN; -0.0
    first where a kink is at zero."""
    pts = set(PLAIN)
    for k in kinks:
        for base in {dtype(k), dtype(np.float32(k))}:
            for direction in (-np.inf, np.inf):
                v = base
                for _ in range(2):
                    v = np.nextafter(v, dtype(direction))
                    pts.add(float(v))
            pts.add(float(base))
    # a set keeps one of 0.0 and -0.0: a kink at zero gets both
    return ([-0.0] if 0.0 in kinks else []) + sorted(pts)


KINK_CODE = "\n".join([
    "F = paddle.nn.functional",
    "x = paddle.to_tensor(POINTS, dtype=DT, stop_gradient=False)",
    "y = CALL",
    "y.backward(paddle.ones_like(y))",
    "out = [V(y), V(x.grad)]"])
KINKS = {f"{name}_{dt.__name__}": KINK_CODE.replace("POINTS", repr(kink_points(kinks, dt)))
         .replace("DT", repr(dt.__name__)).replace("CALL", call)
         for name, (call, kinks) in KINKED.items() for dt in (np.float32, np.float64)}

# ---- recurrent layers saved by jit.save (tests/goldens/issue32_jit/NAME.json/.pdiparams);
# the test loads each with paddle.jit.load and the paddle.inference predictor and compares
# the outputs (y and the final states) on the same input.
JIT_SAVE = "\n".join([
    "import os",
    "paddle.seed(7)",
    "class Net(paddle.nn.Layer):",
    "    def __init__(self):",
    "        super().__init__()",
    "        self.rnn = paddle.nn.KIND(3, 4, **KW)",
    "    def forward(self, x):",
    "        y, st = self.rnn(x)",
    "        return [y] + (list(st) if isinstance(st, (list, tuple)) else [st])",
    "net = Net()",
    "net.eval()",
    "x = paddle.to_tensor(np.linspace(-1, 1, 45).reshape(SHAPE).astype('float32'))",
    "paddle.jit.save(net, os.path.join(JIT_DIR, NAME), input_spec=[paddle.static.InputSpec("
    "SPEC, 'float32')])",
    "out = {'x': V(x), 'outputs': V(net(x)), 'n_params': len(net.state_dict())}"])
_RNNS = {"lstm": ("LSTM", {}), "gru": ("GRU", {}), "simple_rnn": ("SimpleRNN", {}),
         "simple_rnn_relu": ("SimpleRNN", {"activation": "relu"}),
         "lstm_bidirect_2": ("LSTM", {"num_layers": 2, "direction": "bidirect"}),
         "gru_bidirect_2": ("GRU", {"num_layers": 2, "direction": "bidirect"}),
         "simple_rnn_3": ("SimpleRNN", {"num_layers": 3}),
         "lstm_time_major": ("LSTM", {"time_major": True})}
JIT = {name: JIT_SAVE.replace("KIND", kind).replace("KW", repr(kw)).replace("NAME", repr(name))
       .replace("SHAPE", "[5, 3, 3]" if kw.get("time_major") else "[3, 5, 3]")
       .replace("SPEC", "[5, None, 3]" if kw.get("time_major") else "[None, 5, 3]")
       for name, (kind, kw) in _RNNS.items()}

SECTIONS = {"autograd": AUTOGRAD, "hsigmoid": HSIG, "interpolate": INTERP, "erfinv": ERF,
            "kinks": KINKS, "jit": JIT}


def first_line(e):
    return str(e).strip().split("\n")[0].split(" (at /paddle")[0]


def run(code):
    scope = {"paddle": paddle, "np": np, "V": lambda t: describe(t, paddle),
             "JIT_DIR": os.path.join(GOLDENS, "issue32_jit")}
    # dy2static (jit.save) reads the source of forward: the code gets a file name linecache
    # knows
    fname = f"<issue32-{abs(hash(code))}>"
    linecache.cache[fname] = (len(code), None, code.splitlines(True), fname)
    try:
        exec(compile(code, fname, "exec"), scope)
    except Exception as e:  # noqa: BLE001  (recording what Paddle raises)
        return {"code": code, "error": type(e).__name__, "message": first_line(e)}
    return {"code": code, "value": scope.get("out")}


def main():
    os.makedirs(os.path.join(GOLDENS, "issue32_jit"), exist_ok=True)
    paddle.set_device("cpu")
    golden = {name: {case: run(code) for case, code in cases.items()}
              for name, cases in SECTIONS.items()}
    with open(OUT, "w") as f:
        json.dump(golden, f, indent=0, sort_keys=True)
    print("wrote", OUT, sum(len(c) for c in golden.values()), "cases")


if __name__ == "__main__":
    main()
