"""Record Paddle 3.3.1's region pooling (roi_align, roi_pool, psroi_pool), deformable
convolution (deform_conv2d, DeformConv2D) and the Layers of paddle.vision.ops as goldens for
tests/test_vision_ops_roi.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_vision_ops_roi.py

Writes tests/goldens/vision_ops_roi.json: ``cases`` in the op-golden format of
record_ops_nn2.py (values, gradients of sum(out * w) w.r.t. the float inputs, or the
exception), and ``layers``: for each Layer built after ``paddle.seed``, its repr, its
state_dict's names, shapes and (for DeformConv2D) the initial values.

Not recorded, because Paddle 3.3.1's CPU build fails there (the test checks what we do instead):
boxes_num adding up to fewer boxes than given (roi_align/roi_pool read past the end, a
segmentation fault here), a reversed box with aligned=True (std::bad_alloc), psroi_pool without
boxes_num (segmentation fault) and decode_jpeg (GPU-only kernel: "DecodeJpeg op only supports
GPU now").
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record_ops_nn2 as base  # noqa: E402  (its helpers: T, case, the Paddle env)

paddle = base.paddle
base.rng = np.random.default_rng(20261126)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "vision_ops_roi.json")
T, case = base.T, base.case
V = "paddle.vision.ops."


def B(values, dtype="float32"):
    """Boxes [x1, y1, x2, y2] given as a list of rows."""
    return T(dtype, [len(values), 4], values=[float(v) for row in values for v in row])


def N(values, dtype="int32"):
    return T(dtype, [len(values)], values=list(values))


BOXES = [[1.2, 0.7, 6.3, 5.9], [0.0, 2.1, 8.4, 7.5], [-2.3, -1.6, 3.2, 2.8],
         [3.3, 4.1, 3.9, 4.6], [5.5, 1.5, 12.0, 9.7]]


def roi_align_cases():
    a = V + "roi_align"
    x = T("float32", [2, 3, 8, 9])
    b, bn = B(BOXES), N([3, 2])
    case(a, f"{a}(x, b, bn, 2)", x=x, b=b, bn=bn)
    case(a, f"{a}(x, b, bn, (3, 2), aligned=False)", x=x, b=b, bn=bn)
    case(a, f"{a}(x, b, bn, [2, 3], sampling_ratio=2)", x=x, b=b, bn=bn)
    case(a, f"{a}(x, b, bn, 3, spatial_scale=0.5, sampling_ratio=1)", x=x, b=b, bn=bn)
    case(a, f"{a}(x, b, bn, 4, spatial_scale=0.625, aligned=False)", x=x, b=b, bn=bn)
    big = B([[-3.0, -4.0, 30.0, 25.0], [2.0, 3.0, 2.5, 3.0], [4.0, 4.0, 4.0, 4.0]])
    case(a, f"{a}(x, b, bn, 3, aligned=False)", tag="large, thin and point boxes, legacy",
         x=x, b=big, bn=N([1, 2]))
    case(a, f"{a}(x, b, bn, 3, sampling_ratio=3)", tag="large, thin and point boxes",
         x=x, b=B([[-3.0, -4.0, 30.0, 25.0], [2.0, 3.0, 2.5, 3.0]]), bn=N([1, 1]))
    case(a, f"{a}(x, b, bn, 2)", tag="int64 boxes_num", x=x, b=b, bn=N([3, 2], "int64"))
    case(a, f"{a}(x, b, bn, 2)", tag="an image without boxes", x=x, b=b, bn=N([0, 5]))
    x64 = T("float64", [2, 3, 8, 9])
    b64 = B(BOXES, "float64")
    case(a, f"{a}(x, b, bn, 2)", x=x64, b=b64, bn=bn)
    case(a, f"{a}(x, b, bn, (2, 3), spatial_scale=0.3, aligned=False)", x=x64, b=b64, bn=bn)
    case(a, f"{a}(x, b, bn, 3, spatial_scale=0.7, sampling_ratio=2)", x=x64, b=b64, bn=bn)
    # Paddle's CPU backward clamps the box to at least 1 x 1 even with aligned=True (its
    # forward does not): gradients compared where every box is a pixel or more
    wide, wn = B([bx for bx in BOXES if bx[2] - bx[0] > 2]), N([2, 2])
    case(a, f"{a}(x, b, bn, 2)", tag="aligned, boxes over a pixel", x=x, b=wide, bn=wn)
    case(a, f"{a}(x, b, bn, (3, 2), spatial_scale=0.5, sampling_ratio=1)",
         tag="aligned, boxes over a pixel", x=x, b=wide, bn=wn)
    case(a, f"{a}(x, b, bn, 3, spatial_scale=0.7, sampling_ratio=2)",
         tag="aligned, boxes over a pixel", x=x64,
         b=B([bx for bx in BOXES if bx[2] - bx[0] > 2], "float64"), bn=wn)
    # errors
    case(a, f"{a}(x, b, bn, 2)", tag="3-D x", x=T("float32", [3, 8, 9]), b=b, bn=bn)
    case(a, f"{a}(x, b, bn, 2)", tag="3 box columns", x=x, b=T("float32", [5, 3]), bn=bn)
    case(a, f"{a}(x, b, bn, 2)", tag="float64 x, float32 boxes", x=x64, b=b, bn=bn)
    case(a, f"{a}(x, b, bn, 2)", tag="boxes_num of 3 images", x=x, b=b, bn=N([3, 2, 0]))
    case(a, f"{a}(x, b, bn, 0)", x=x, b=b, bn=bn)
    case(a, f"{a}(x.numpy().tolist(), b, bn, 2)", tag="list x", x=x, b=b, bn=bn)
    case(a, f"{a}(x, b, None, 2)", x=x, b=b)


def roi_pool_cases():
    a = V + "roi_pool"
    x = T("float32", [2, 3, 8, 9])
    b, bn = B(BOXES), N([3, 2])
    case(a, f"{a}(x, b, bn, 2)", x=x, b=b, bn=bn)
    case(a, f"{a}(x, b, bn, (3, 2))", x=x, b=b, bn=bn)
    case(a, f"{a}(x, b, bn, [4, 3])", x=x, b=b, bn=bn)
    # x1 * 0.5 = 2.5 and -0.5: C's round goes away from zero
    halves = B([[5.0, 3.0, 11.0, 9.0], [-1.0, -3.0, 7.0, 5.0], [1.0, 1.0, 30.0, 22.0]])
    case(a, f"{a}(x, b, bn, 3, spatial_scale=0.5)", tag="halves", x=x, b=halves, bn=N([2, 1]))
    case(a, f"{a}(x, b, bn, 2)", tag="box off the map",
         x=x, b=B([[10.0, 10.0, 14.0, 12.0], [6.0, 6.0, 20.0, 20.0]]), bn=N([1, 1]))
    ties = T("float32", [1, 2, 6, 7], ints=(0, 3))
    case(a, f"{a}(x, b, bn, 2)", tag="ties", x=ties,
         b=B([[0.0, 0.0, 6.0, 5.0], [1.0, 2.0, 4.0, 5.0]]), bn=N([2]))
    # equal maxima at (1, 0) and (0, 2) of a 3 x 3 bin: the first in row-major order wins,
    # though it lies in a later one of the overlapping 2 x 2 windows
    tie2 = [0.0] * 16
    tie2[1 * 4 + 0] = tie2[0 * 4 + 2] = 2.0
    case(a, f"{a}(x, b, bn, 1)", tag="ties across windows", x=T("float32", [1, 1, 4, 4],
                                                                 values=tie2),
         b=B([[0.0, 0.0, 2.0, 2.0]]), bn=N([1]))
    case(a, f"{a}(x, b, bn, 3)", x=T("float64", [2, 3, 8, 9]), b=B(BOXES, "float64"), bn=bn)
    case(a, f"{a}(x, b, bn, 2)", tag="int64 boxes_num", x=x, b=b, bn=N([3, 2], "int64"))
    case(a, f"{a}(x, b, None, 2)", x=x, b=b)


def psroi_pool_cases():
    a = V + "psroi_pool"
    x = T("float32", [2, 12, 8, 9])
    b, bn = B(BOXES), N([3, 2])
    case(a, f"{a}(x, b, bn, 2)", x=x, b=b, bn=bn)
    case(a, f"{a}(x, b, bn, (2, 3))", x=T("float32", [2, 12, 8, 9]), b=b, bn=bn)
    case(a, f"{a}(x, b, bn, [3, 2])", tag="one output channel", x=T("float32", [2, 6, 8, 9]),
         b=b, bn=bn)
    case(a, f"{a}(x, b, bn, [3, 2], spatial_scale=0.5)", x=T("float32", [2, 12, 8, 9]),
         b=B([[2.5, 3.5, 11.5, 9.0], [-1.5, -3.0, 7.0, 5.0], [1.0, 1.0, 30.0, 22.0],
              [4.0, 4.0, 4.0, 4.0], [20.0, 20.0, 24.0, 24.0]]), bn=bn)
    case(a, f"{a}(x, b, bn, 2, spatial_scale=0.7)", x=T("float64", [2, 8, 8, 9]),
         b=B(BOXES, "float64"), bn=bn)
    case(a, f"{a}(x, b, bn, 2, spatial_scale=0.05)", tag="boxes under 0.1 after scaling",
         x=T("float32", [1, 8, 8, 9]),
         b=B([[4.0, 4.0, 4.0, 4.0], [60.0, 60.0, 20.0, 30.0], [10.0, 20.0, 150.0, 120.0]]),
         bn=N([3]))
    case(a, f"{a}(x, b, bn, 2)", tag="channels not a multiple", x=T("float32", [2, 6, 8, 9]),
         b=b, bn=bn)
    case(a, f"{a}(x, b, bn, 0)", x=x, b=b, bn=bn)
    case(a, f"{a}(x, b, bn, 2)", tag="3-D x", x=T("float32", [12, 8, 9]), b=b, bn=bn)
    case(a, f"{a}(x, b, bn, 2)", tag="boxes_num of 4 boxes", x=x, b=b, bn=N([3, 1]))


def deform_conv_cases():
    a = V + "deform_conv2d"

    def off(n, ch, h, w, scale=2.5, dtype="float32"):
        return T(dtype, [n, ch, h, w], -scale, scale)

    x, w = T("float32", [2, 4, 6, 7]), T("float32", [6, 4, 3, 3])
    o = off(2, 18, 4, 5)
    m = T("float32", [2, 9, 4, 5], 0.0, 1.0)
    bias = T("float32", [6])
    case(a, f"{a}(x, o, w)", x=x, o=o, w=w)
    case(a, f"{a}(x, o, w, mask=m)", x=x, o=o, w=w, m=m)
    case(a, f"{a}(x, o, w, bias, mask=m)", x=x, o=o, w=w, bias=bias, m=m)
    case(a, f"{a}(x, o, w, stride=2, padding=1)", x=x, o=off(2, 18, 3, 4), w=w)
    case(a, f"{a}(x, o, w, stride=(1, 2), padding=(2, 1), dilation=(2, 1), mask=m)",
         x=x, o=off(2, 18, 6, 4), w=w, m=T("float32", [2, 9, 6, 4], 0.0, 1.0))
    case(a, f"{a}(x, o, w, groups=2, mask=m)", x=x, o=o, w=T("float32", [6, 2, 3, 3]), m=m)
    case(a, f"{a}(x, o, w, deformable_groups=2, mask=m)", x=x, o=off(2, 36, 4, 5), w=w,
         m=T("float32", [2, 18, 4, 5], 0.0, 1.0))
    case(a, f"{a}(x, o, w, bias, padding=1, deformable_groups=2, groups=2)", x=x,
         o=off(2, 16, 7, 6), w=T("float32", [4, 2, 2, 4]), bias=T("float32", [4]))
    case(a, f"{a}(x, o, w, padding=1, mask=m)", tag="far offsets", x=x,
         o=off(2, 18, 6, 7, scale=6.0), w=w, m=T("float32", [2, 9, 6, 7], 0.0, 1.0))
    x64, w64 = T("float64", [2, 4, 6, 7]), T("float64", [6, 4, 3, 3])
    case(a, f"{a}(x, o, w, bias, padding=1, mask=m)", x=x64, o=off(2, 18, 6, 7, dtype="float64"),
         w=w64, bias=T("float64", [6]), m=T("float64", [2, 9, 6, 7], 0.0, 1.0))
    case(a, f"{a}(x, o, w, stride=2, deformable_groups=2)", x=x64,
         o=off(2, 36, 2, 3, dtype="float64"), w=w64)
    # errors
    case(a, f"{a}(x, o, w)", tag="offset channels", x=x, o=off(2, 16, 4, 5), w=w)
    case(a, f"{a}(x, o, w)", tag="offset size", x=x, o=off(2, 18, 5, 5), w=w)
    case(a, f"{a}(x, o, w, mask=m)", tag="mask channels", x=x, o=o, w=w,
         m=T("float32", [2, 8, 4, 5]))
    case(a, f"{a}(x, o, w)", tag="weight channels", x=x, o=o, w=T("float32", [6, 3, 3, 3]))
    case(a, f"{a}(x, o, w, groups=3)", tag="groups", x=x, o=o, w=T("float32", [6, 2, 3, 3]))
    case(a, f"{a}(x, o, w)", tag="float64 x", x=x64, o=o, w=w)
    case(a, f"{a}(x, o, w)", tag="3-D x", x=T("float32", [4, 6, 7]), o=o, w=w)
    case(a, f"{a}(x, o, w, bias)", tag="bias size", x=x, o=o, w=w, bias=T("float32", [5]))
    case(a, f"{a}(x, o, w, dilation=4)", tag="no output", x=x, o=off(2, 18, 1, 1), w=w)
    case(a, f"{a}(x.numpy().tolist(), o, w)", tag="list x", x=x, o=o, w=w)


def layer_cases():
    """Layers: repr, state_dict (names, shapes, dtype; the values where they are random) and
    one forward through the Layer."""
    V_ = paddle.vision.ops
    out = []

    def record(code, seed=7, values=False, forward=None):
        paddle.seed(seed)
        env = {"paddle": paddle}
        try:
            layer = eval(code, env)
        except Exception as e:  # noqa: BLE001  the exception is the golden
            out.append({"code": code, "error": type(e).__name__,
                        "message": str(e).split("\n")[0][:200]})
            return
        sd = layer.state_dict()
        entry = {"code": code, "seed": seed, "repr": repr(layer),
                 "state": [[k, list(v.shape), str(v.dtype).replace("paddle.", "")]
                           for k, v in sd.items()]}
        if values:
            entry["values"] = {k: base.encode(v) for k, v in sd.items()}
        if forward:
            fcode, inputs = forward
            fenv = {"layer": layer, "paddle": paddle}
            for name, spec in inputs.items():
                fenv[name] = base.build(spec)
            entry["forward"] = {"code": fcode, "inputs": inputs,
                                "expected": base.encode(eval(fcode, fenv))}
        out.append(entry)

    del V_
    bx, bn = B(BOXES[:3]), N([2, 1])
    record("paddle.vision.ops.RoIAlign(2)",
           forward=("layer(x, b, bn)", {"x": T("float32", [2, 3, 8, 9]), "b": bx, "bn": bn}))
    record("paddle.vision.ops.RoIAlign((2, 3), spatial_scale=0.5)",
           forward=("layer(x, b, bn, aligned=False)",
                    {"x": T("float32", [2, 3, 8, 9]), "b": bx, "bn": bn}))
    record("paddle.vision.ops.RoIPool(3, 0.5)",
           forward=("layer(x, b, bn)", {"x": T("float32", [2, 3, 8, 9]), "b": bx, "bn": bn}))
    record("paddle.vision.ops.PSRoIPool(2, 0.5)",
           forward=("layer(x, b, bn)", {"x": T("float32", [2, 8, 8, 9]), "b": bx, "bn": bn}))
    record("paddle.vision.ops.DeformConv2D(4, 6, 3)", values=True,
           forward=("layer(x, o)", {"x": T("float32", [1, 4, 5, 5]),
                                    "o": T("float32", [1, 18, 3, 3], -1.5, 1.5)}))
    record("paddle.vision.ops.DeformConv2D(4, 6, 3, padding=1)", seed=3, values=True,
           forward=("layer(x, o, m)", {"x": T("float32", [1, 4, 5, 5]),
                                       "o": T("float32", [1, 18, 5, 5], -1.5, 1.5),
                                       "m": T("float32", [1, 9, 5, 5], 0.0, 1.0)}))
    record("paddle.vision.ops.DeformConv2D(4, 6, [3, 2], stride=2, padding=[1, 0], "
           "deformable_groups=2, groups=2, bias_attr=False)", seed=5, values=True)
    record("paddle.vision.ops.DeformConv2D(4, 8, 1, weight_attr=paddle.ParamAttr("
           "initializer=paddle.nn.initializer.Constant(0.5)), bias_attr=paddle.ParamAttr("
           "initializer=paddle.nn.initializer.Constant(0.25)))", values=True)
    record("paddle.vision.ops.DeformConv2D(4, 6, 3, groups=3)")
    record("paddle.vision.ops.DeformConv2D(4, 6, 3, weight_attr=False)")
    record("paddle.vision.ops.ConvNormActivation(3, 8)")
    record("paddle.vision.ops.ConvNormActivation(4, 8, kernel_size=5, stride=2, groups=2, "
           "norm_layer=None, activation_layer=paddle.nn.Hardswish, dilation=2)")
    record("paddle.vision.ops.ConvNormActivation(3, 6, 1, bias=True, "
           "activation_layer=None)")
    return out


def main():
    roi_align_cases()
    roi_pool_cases()
    psroi_pool_cases()
    deform_conv_cases()
    layers = layer_cases()
    with open(OUT, "w") as fh:
        json.dump({"paddle_version": paddle.__version__, "cases": base.CASES,
                   "layers": layers}, fh)
    print(f"wrote {len(base.CASES)} cases and {len(layers)} layers to "
          f"{os.path.normpath(OUT)} ({os.path.getsize(OUT) / 1e6:.2f} MB)")
    for d in base.DROPPED:
        print("dropped", d)


if __name__ == "__main__":
    main()
