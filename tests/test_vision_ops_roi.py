"""paddle.vision.ops region pooling (roi_align, roi_pool, psroi_pool), deformable convolution,
their Layers, ConvNormActivation and the image-file ops, against goldens recorded from Paddle
3.3.1 CPU (tools/goldens/record_vision_ops_roi.py) and against direct per-sample references
written here (loops over boxes and bins: slow, obviously right).

Where Paddle 3.3.1's CPU build crashes or has no kernel, the tests pin what we do instead:
boxes_num that does not add up to the boxes (Paddle reads past the end or segfaults: we raise
ValueError), a reversed box with aligned=True (Paddle: std::bad_alloc; we: NaN, the mean of no
samples, as Paddle gives for a zero-size box), psroi_pool
without boxes_num (segfault; we: Paddle's AssertionError of the other two ops), decode_jpeg
(GPU-only kernel; we decode with Pillow/OpenCV as its docs describe).
"""
import json
import math
import os
import re
import sys

import numpy as np
import pytest
import torch

import paddle_compat as paddle
import op_goldens as og
from paddle_compat.vision import ops as O

DATA = og.load_cases("vision_ops_roi.json")
with open(os.path.join(og.GOLDEN_DIR, "vision_ops_roi.json")) as _f:
    LAYERS = json.load(_f)["layers"]

# one op each: float32 at the "op" tier; float64 near exact (the sums run in another order).
# deform_conv2d sums C * kh * kw products of sampled values (36 here, values up to 15): ours
# and Paddle's float32 results each sit up to 4.6e-6 from the float64 result, so it takes the
# tolerances test_ops_nn2 gives convolutions and their gradients (measured: at most 0.42 of
# the op tier for values, 0.60 for gradients). tools/float32_spread.py (AMD EPYC, AVX2,
# SPREAD_MODE=f64), in units of the tolerance used: worst deviation + 3 x spread 0.92
# (deform_conv2d stride=2 padding=1: 0.17 + 3 x 0.25), roi_align at most 0.34, the pools 0.02.
TOL = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-13)}
GRAD_TOL = {"float32": (1e-5, 1e-6), "float64": (1e-12, 1e-13)}
CONV_TOL = {"float32": (2e-5, 2e-6), "float64": (1e-12, 1e-13)}
CONV_GRAD_TOL = {"float32": (1e-4, 1e-5), "float64": (1e-12, 1e-13)}

# deliberate differences: {id: (what, reason)}
KNOWN = {
    "paddle.vision.ops.roi_pool[int64 boxes_num]": (
        "skip", "Paddle's roi_pool kernel reads boxes_num as int32 only (roi_align takes "
        "int64 too); we take both: test_roi_pool_takes_int64_boxes_num"),
}
CASES = [c for c in DATA if c["id"] not in KNOWN]


def _sub_pixel_aligned(case):
    """roi_align with aligned=True over a box under one pixel (after spatial_scale): Paddle's
    CPU backward clamps such a box to 1 x 1 (unconditionally, where its forward and its GPU
    kernels clamp only with aligned=False), so its gradient is not that of its own forward
    there. Ours is (test_roi_align_gradient_of_sub_pixel_boxes); these cases compare the
    forward only, the "aligned, boxes over a pixel" cases the gradients too."""
    if not case["api"].endswith("roi_align") or "aligned=False" in case["call"] \
            or "error" in case["expected"]:
        return False
    m = re.search(r"spatial_scale=([0-9.]+)", case["call"])
    scale = float(m.group(1)) if m else 1.0
    b = np.array(case["inputs"]["b"]["values"]).reshape(-1, 4) * scale
    return bool(((b[:, 2] - b[:, 0] < 1) | (b[:, 3] - b[:, 1] < 1)).any())


@og.each_case(CASES)
def test_golden(case):
    conv = case["api"].endswith("deform_conv2d")
    og.run_case(case, og.make_env(case), CONV_TOL if conv else TOL,
                CONV_GRAD_TOL if conv else GRAD_TOL, grads=not _sub_pixel_aligned(case))


def test_sub_pixel_cases_are_few():
    flagged = [c["id"] for c in CASES if _sub_pixel_aligned(c)]
    assert 0 < len(flagged) <= 9, flagged
    assert not any("over a pixel" in f for f in flagged)


test_known_difference = og.known_difference_test(KNOWN, DATA, None)


def _close(got, want, rtol=1e-7, atol=1e-7):
    # numpy's comparison: torch.testing's imports torch.distributed.tensor on first use
    np.testing.assert_allclose(got.detach().double().numpy(), want.detach().double().numpy(),
                               rtol=rtol, atol=atol)


def _t(a, grad=False):
    x = paddle.to_tensor(torch.as_tensor(a))
    x.stop_gradient = not grad
    return x


# ------------------------------------------------------------------------- layers
def _build_inputs(inputs):
    return {k: paddle.to_tensor(og.build(v)) for k, v in inputs.items()}


@pytest.mark.parametrize("entry", LAYERS, ids=[e["code"] for e in LAYERS])
def test_layer(entry):
    """Repr, state_dict names / shapes / dtypes, initial values (Paddle's initialisers under
    ``paddle.seed``: the same draws) and one forward, as in Paddle."""
    paddle.seed(entry.get("seed", 7))
    if "error" in entry:
        og.expect_error(entry["error"], lambda: eval(entry["code"], {"paddle": paddle}))
        return
    layer = eval(entry["code"], {"paddle": paddle})
    assert repr(layer) == entry["repr"]
    sd = layer.state_dict()
    assert [[k, list(v.shape), v.dtype.name] for k, v in sd.items()] == entry["state"]
    for k, want in entry.get("values", {}).items():       # bit for bit: the same draws
        assert sd[k].dtype.name == want["dtype"] == "float32"
        np.testing.assert_array_equal(sd[k].numpy().reshape(-1),
                                      np.array(want["values"], dtype=np.float32), f"initial {k}")
    if "forward" in entry:
        f = entry["forward"]
        env = {"layer": layer, "paddle": paddle, **_build_inputs(f["inputs"])}
        og.check_tensor(eval(f["code"], env), f["expected"], TOL, "forward")


def test_deform_layer_loads_paddle_state_dict():
    """A state_dict with Paddle's names and shapes loads and drives the forward."""
    layer = O.DeformConv2D(4, 6, 3, padding=1)
    w, b = torch.randn(6, 4, 3, 3), torch.randn(6)
    layer.set_state_dict({"weight": _t(w), "bias": _t(b)})
    x, off = torch.randn(1, 4, 5, 5), torch.zeros(1, 18, 5, 5)
    got = layer(_t(x), _t(off))._t
    _close(got, torch.nn.functional.conv2d(x, w, b, padding=1),
                               rtol=1e-5, atol=1e-5)


def test_conv_norm_activation_is_the_model_zoo_block():
    from paddle_compat.vision.models import _utils
    assert O.ConvNormActivation is _utils.ConvNormActivation


# --------------------------------------------------------------- references, per sample
def _ref_roi_align(x, boxes, counts, ph, pw, scale, ratio, aligned):
    """Paddle's CPU roi_align, written out per box, bin and sample point (float64)."""
    x, boxes = x.double().numpy(), boxes.double().numpy()
    bid = np.repeat(np.arange(len(counts)), counts)
    _, c, h, w = x.shape
    out = np.zeros((len(boxes), c, ph, pw))
    for r, bx in enumerate(boxes):
        off = 0.5 if aligned else 0.0
        x1, y1, x2, y2 = bx * scale - off
        rw, rh = x2 - x1, y2 - y1
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        gh = ratio if ratio > 0 else int(math.ceil(rh / ph))
        gw = ratio if ratio > 0 else int(math.ceil(rw / pw))
        for i in range(ph):
            for j in range(pw):
                acc = np.zeros(c)
                for iy in range(gh):
                    yy = y1 + rh / ph * (i + (iy + 0.5) / gh)
                    for ix in range(gw):
                        xx = x1 + rw / pw * (j + (ix + 0.5) / gw)
                        if yy < -1 or yy > h or xx < -1 or xx > w:
                            continue
                        yy_, xx_ = max(yy, 0.0), max(xx, 0.0)
                        y0, x0 = int(yy_), int(xx_)
                        if y0 >= h - 1:
                            y0 = y1_ = h - 1
                            yy_ = float(y0)
                        else:
                            y1_ = y0 + 1
                        if x0 >= w - 1:
                            x0 = x1_ = w - 1
                            xx_ = float(x0)
                        else:
                            x1_ = x0 + 1
                        ly, lx = yy_ - y0, xx_ - x0
                        img = x[bid[r]]
                        acc += ((1 - ly) * (1 - lx) * img[:, y0, x0]
                                + (1 - ly) * lx * img[:, y0, x1_]
                                + ly * (1 - lx) * img[:, y1_, x0] + ly * lx * img[:, y1_, x1_])
                out[r, :, i, j] = acc / (gh * gw) if gh * gw else np.nan
    return out


def _ref_roi_pool(x, boxes, counts, ph, pw, scale):
    x, boxes = x.double().numpy(), boxes.double().numpy()
    bid = np.repeat(np.arange(len(counts)), counts)
    _, c, h, w = x.shape
    out = np.zeros((len(boxes), c, ph, pw))

    def rnd(v):
        return int(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)

    for r, bx in enumerate(boxes):
        sw, sh, ew, eh = (rnd(v * scale) for v in bx)
        bh, bw = max(eh - sh + 1, 1), max(ew - sw + 1, 1)
        for i in range(ph):
            for j in range(pw):
                hs = min(max(int(math.floor(i * bh / ph)) + sh, 0), h)
                he = min(max(int(math.ceil((i + 1) * bh / ph)) + sh, 0), h)
                ws = min(max(int(math.floor(j * bw / pw)) + sw, 0), w)
                we = min(max(int(math.ceil((j + 1) * bw / pw)) + sw, 0), w)
                if he > hs and we > ws:
                    out[r, :, i, j] = x[bid[r], :, hs:he, ws:we].max(axis=(1, 2))
    return out


def _random_boxes(gen, n, h, w):
    xy = torch.rand(n, 2, generator=gen, dtype=torch.float64) * torch.tensor([w, h]) * 1.2 - 2
    wh = torch.rand(n, 2, generator=gen, dtype=torch.float64) * torch.tensor([w, h]) * 1.1
    return torch.cat([xy, xy + wh], 1)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ratio,aligned", [(-1, True), (-1, False), (2, True), (1, False)])
def test_roi_align_matches_the_per_sample_reference(seed, ratio, aligned):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(3, 2, 9, 11, generator=gen, dtype=torch.float64)
    boxes = _random_boxes(gen, 9, 9 / 0.5, 11 / 0.5)
    counts = [4, 0, 5]
    got = O.roi_align(_t(x), _t(boxes), _t(torch.tensor(counts, dtype=torch.int32)), (3, 2),
                      0.5, ratio, aligned)
    want = _ref_roi_align(x, boxes, counts, 3, 2, 0.5, ratio, aligned)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_roi_pool_matches_the_per_bin_reference(seed):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(3, 2, 9, 11, generator=gen, dtype=torch.float64)
    boxes = _random_boxes(gen, 9, 9 / 0.5, 11 / 0.5)
    counts = [4, 3, 2]
    got = O.roi_pool(_t(x), _t(boxes), _t(torch.tensor(counts, dtype=torch.int32)), (4, 3), 0.5)
    want = _ref_roi_pool(x, boxes, counts, 4, 3, 0.5)
    np.testing.assert_array_equal(got.numpy(), want)


def test_roi_pool_gradient_goes_to_the_first_max():
    """On ties the gradient reaches only the first maximum in row-major order (Paddle's
    argmax), once per output that picked it."""
    x = torch.zeros(1, 1, 4, 4, dtype=torch.float64)
    x[0, 0, 1, 2] = x[0, 0, 2, 0] = x[0, 0, 3, 3] = 1.0
    xt = _t(x, grad=True)
    box = _t(torch.tensor([[0.0, 0, 3, 3]], dtype=torch.float64))
    out = O.roi_pool(xt, box, _t(torch.tensor([1], dtype=torch.int32)), 1)
    out.sum().backward()
    want = torch.zeros_like(x)
    want[0, 0, 1, 2] = 1.0
    _close(xt.grad._t, want)


def test_roi_pool_takes_int64_boxes_num():
    x = _t(torch.randn(2, 3, 8, 8))
    b = _t(torch.tensor([[0.0, 0, 5, 5], [1, 2, 7, 6], [2, 2, 4, 4]]))
    a = O.roi_pool(x, b, _t(torch.tensor([2, 1])), 2)
    c = O.roi_pool(x, b, _t(torch.tensor([2, 1], dtype=torch.int32)), 2)
    _close(a._t, c._t)


def test_roi_align_gradient_of_sub_pixel_boxes():
    """The gradient of our forward, for boxes under a pixel with aligned=True too (where
    Paddle's CPU backward differs from its forward: see _sub_pixel_aligned)."""
    gen = torch.Generator().manual_seed(3)
    x = torch.randn(2, 2, 6, 7, generator=gen, dtype=torch.float64, requires_grad=True)
    boxes = _t(torch.tensor([[3.3, 4.1, 3.9, 4.6], [1.0, 1.5, 5.2, 4.4], [0.2, 2.0, 0.9, 6.0]],
                            dtype=torch.float64))
    bn = _t(torch.tensor([2, 1], dtype=torch.int32))

    def f(x):
        return O.roi_align(paddle.from_torch(x), boxes, bn, 2, sampling_ratio=2)._t

    assert torch.autograd.gradcheck(f, (x,))


# ------------------------------------------------------------ where Paddle's CPU build fails
@pytest.mark.parametrize("op", [O.roi_align, O.roi_pool, O.psroi_pool])
def test_boxes_num_must_add_up(op):
    x = _t(torch.randn(2, 8, 8, 8))
    b = _t(torch.tensor([[0.0, 0, 5, 5], [1, 2, 7, 6], [2, 2, 4, 4]]))
    with pytest.raises(ValueError):
        op(x, b, _t(torch.tensor([1, 1], dtype=torch.int32)), 2)
    with pytest.raises(ValueError):
        op(x, b, _t(torch.tensor([4, -1], dtype=torch.int32)), 2)


def test_psroi_pool_needs_boxes_num():
    with pytest.raises(AssertionError):
        O.psroi_pool(_t(torch.randn(1, 8, 8, 8)), _t(torch.tensor([[0.0, 0, 5, 5]])), None, 2)


def test_reversed_box_with_aligned_samples_nothing():
    """Paddle 3.3.1 dies with std::bad_alloc (a negative sample count). We take no sample
    point, which gives NaN, as Paddle gives for a zero-size box (recorded: "large, thin and
    point boxes"): the mean of no samples."""
    x = _t(torch.randn(1, 2, 8, 8))
    out = O.roi_align(x, _t(torch.tensor([[5.0, 5, 1, 1]])), _t(torch.tensor([1])), 2)
    assert out.shape == [1, 2, 2, 2]
    assert out._t.isnan().all()
    legacy = O.roi_align(x, _t(torch.tensor([[5.0, 5, 1, 1]])), _t(torch.tensor([1])), 2,
                         aligned=False)                  # the legacy mode makes it 1 x 1
    assert legacy._t.isfinite().all()


def test_zero_boxes():
    x = _t(torch.randn(2, 8, 4, 4), grad=True)
    none = _t(torch.zeros(0, 4))
    bn = _t(torch.tensor([0, 0], dtype=torch.int32))
    for op, ch in ((O.roi_align, 8), (O.roi_pool, 8), (O.psroi_pool, 2)):
        out = op(x, none, bn, 2)
        assert out.shape == [0, ch, 2, 2]


def test_float16_computes():
    """Paddle's CPU build has no float16 kernel for these ops; ours computes (in float32
    inside roi_align) and returns float16."""
    x = torch.randn(1, 8, 8, 8)
    b = torch.tensor([[0.5, 1.0, 6.0, 7.0]])
    bn = _t(torch.tensor([1]))
    for op in (O.roi_align, O.roi_pool, O.psroi_pool):
        half = op(_t(x.half()), _t(b.half()), bn, 2)
        full = op(_t(x.half().float()), _t(b.half().float()), bn, 2)
        assert half.dtype == paddle.float16
        _close(half._t.float(), full._t, rtol=2e-3, atol=2e-3)


# ----------------------------------------------------------------------- deform_conv2d
def test_deform_conv2d_with_zero_offsets_is_conv2d():
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(2, 6, 7, 8, generator=gen, dtype=torch.float64)
    w = torch.randn(4, 3, 3, 2, generator=gen, dtype=torch.float64)
    b = torch.randn(4, generator=gen, dtype=torch.float64)
    off = torch.zeros(2, 2 * 2 * 6, 4, 8, dtype=torch.float64)
    got = O.deform_conv2d(_t(x), _t(off), _t(w), _t(b), stride=(2, 1), padding=(1, 1),
                          dilation=(1, 2), deformable_groups=2, groups=2)
    want = torch.nn.functional.conv2d(x, w, b, stride=(2, 1), padding=(1, 1), dilation=(1, 2),
                                      groups=2)
    _close(got._t, want, rtol=1e-12, atol=1e-12)


def test_deform_conv2d_takes_float16_parameters_with_float32_x():
    """Paddle's CPU path casts a float16 offset, weight, bias or mask to x's dtype."""
    x, off = torch.randn(1, 2, 5, 5), torch.rand(1, 18, 3, 3)
    w, m = torch.randn(3, 2, 3, 3), torch.rand(1, 9, 3, 3)
    got = O.deform_conv2d(_t(x), _t(off.half()), _t(w.half()), mask=_t(m.half()))
    want = O.deform_conv2d(_t(x), _t(off.half().float()), _t(w.half().float()),
                           mask=_t(m.half().float()))
    assert got.dtype == paddle.float32
    _close(got._t, want._t, rtol=0, atol=0)


def test_deform_conv2d_integer_offsets_shift_the_input():
    """An offset of (1, -1) everywhere reads x one row down and one column left (zeros
    outside), a mask of 0.5 halves the result."""
    x = torch.randn(1, 2, 6, 6, dtype=torch.float64)
    w = torch.randn(3, 2, 1, 1, dtype=torch.float64)
    off = torch.tensor([1.0, -1.0], dtype=torch.float64).view(1, 2, 1, 1).expand(1, 2, 6, 6)
    mask = torch.full((1, 1, 6, 6), 0.5, dtype=torch.float64)
    got = O.deform_conv2d(_t(x), _t(off.contiguous()), _t(w), mask=_t(mask))
    shifted = torch.zeros_like(x)
    shifted[:, :, :5, 1:] = x[:, :, 1:, :5]
    _close(got._t, 0.5 * torch.nn.functional.conv2d(shifted, w))


def test_deform_conv2d_gradients_match_finite_differences():
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(1, 2, 5, 5, generator=gen, dtype=torch.float64, requires_grad=True)
    off = (torch.rand(1, 18, 3, 3, generator=gen, dtype=torch.float64) * 3 - 1.5).requires_grad_()
    w = torch.randn(2, 2, 3, 3, generator=gen, dtype=torch.float64, requires_grad=True)
    m = torch.rand(1, 9, 3, 3, generator=gen, dtype=torch.float64, requires_grad=True)

    def f(x, off, w, m):
        return O.deform_conv2d(paddle.from_torch(x), paddle.from_torch(off),
                               paddle.from_torch(w), mask=paddle.from_torch(m))._t

    assert torch.autograd.gradcheck(f, (x, off, w, m))


# --------------------------------------------------------------------------- image files
def _jpeg(tmp_path, gray=False):
    from PIL import Image
    yy, xx = np.mgrid[0:24, 0:32]
    rgb = np.stack([(yy * 10) % 256, (xx * 8) % 256, ((yy + xx) * 5) % 256], -1).astype(np.uint8)
    img = Image.fromarray(rgb[:, :, 0]) if gray else Image.fromarray(rgb)
    path = tmp_path / ("g.jpg" if gray else "c.jpg")
    img.save(path, quality=92)
    return path


def test_read_file(tmp_path):
    path = tmp_path / "bytes.bin"
    payload = bytes(range(256)) * 3
    path.write_bytes(payload)
    t = O.read_file(str(path))
    assert t.dtype == paddle.uint8 and t.shape == [768]
    assert t.numpy().tobytes() == payload
    with pytest.raises(RuntimeError):
        O.read_file(str(tmp_path / "missing.jpg"))


@pytest.mark.parametrize("gray", [False, True])
@pytest.mark.parametrize("mode", ["unchanged", "gray", "rgb"])
def test_decode_jpeg(tmp_path, gray, mode):
    """CHW uint8 with the channels ``mode`` asks for, the pixels of Pillow's decoder; OpenCV's
    (another libjpeg build) within a couple of steps."""
    pytest.importorskip("PIL")
    cv2 = pytest.importorskip("cv2")
    from PIL import Image
    path = _jpeg(tmp_path, gray)
    out = O.decode_jpeg(O.read_file(str(path)), mode=mode)
    channels = {"unchanged": 1 if gray else 3, "gray": 1, "rgb": 3}[mode]
    assert out.dtype == paddle.uint8 and out.shape == [channels, 24, 32]
    pil = Image.open(path).convert("L" if channels == 1 else "RGB")
    want = np.asarray(pil).reshape(24, 32, channels).transpose(2, 0, 1)
    np.testing.assert_array_equal(out.numpy(), want)
    flag = cv2.IMREAD_GRAYSCALE if channels == 1 else cv2.IMREAD_COLOR
    ocv = cv2.imread(str(path), flag)
    ocv = ocv[:, :, None] if ocv.ndim == 2 else ocv[:, :, ::-1]
    diff = np.abs(out.numpy().astype(int) - ocv.transpose(2, 0, 1).astype(int))
    assert diff.max() <= 3


def test_decode_jpeg_with_opencv_only(tmp_path, monkeypatch):
    pytest.importorskip("cv2")
    path = _jpeg(tmp_path)
    data = O.read_file(str(path))
    want = O.decode_jpeg(data, "rgb").numpy().astype(int)
    monkeypatch.setitem(sys.modules, "PIL", None)
    got = O.decode_jpeg(data, "rgb")
    assert got.shape == [3, 24, 32]
    assert np.abs(got.numpy().astype(int) - want).max() <= 3


def test_decode_jpeg_without_decoders_names_the_extra(tmp_path, monkeypatch):
    data = _t(torch.tensor(list(b"\xff\xd8\xff"), dtype=torch.uint8))
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.setitem(sys.modules, "cv2", None)
    with pytest.raises(ImportError, match=r"paddle_compat\[vision\]"):
        O.decode_jpeg(data)


def test_decode_jpeg_bad_arguments():
    data = _t(torch.tensor([1, 2, 3], dtype=torch.uint8))
    with pytest.raises(ValueError):
        O.decode_jpeg(data, mode="bgr")
    with pytest.raises(ValueError):
        O.decode_jpeg(_t(torch.zeros(2, 3, dtype=torch.uint8)))
    with pytest.raises(ValueError):
        O.decode_jpeg([1, 2, 3])
