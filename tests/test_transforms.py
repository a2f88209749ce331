"""paddle.vision.transforms against real Paddle 3.3.1 (tests/goldens/transforms.json, recorded by
tools/goldens/record_transforms.py): numpy images through OpenCV, PIL images through Pillow, and
CHW Tensors, including the seeded random transforms (Python ``random`` / ``numpy.random`` draws
in Paddle's order). uint8 results are compared exactly, except the geometric warps of numpy and
PIL images (see ``_same_warp``); float results within float32 rounding."""
import json
import os
import random

import numpy as np
import pytest

import paddle_compat as paddle

cv2 = pytest.importorskip("cv2")
PIL_Image = pytest.importorskip("PIL.Image")

T = paddle.vision.transforms

with open(os.path.join(os.path.dirname(__file__), "goldens", "transforms.json")) as _f:
    GOLD = json.load(_f)
CASES = {c["id"]: c for c in GOLD["cases"]}


def _env():
    env = {"paddle": paddle, "T": T, "np": np, "random": random, "Image": PIL_Image}
    exec(GOLD["prelude"], env)
    return env


# Rotations, affine and perspective warps of numpy / PIL images are OpenCV's warpAffine /
# warpPerspective and Pillow's Image.transform, called as Paddle calls them: the pixels are those
# libraries' own. Their fixed-point rounding of a source coordinate that lands on (or a hair off)
# a half pixel, and their edge handling, changed between releases (OpenCV 4 -> 5, Pillow builds for
# AVX2 / AVX-512), so with the newest versions a few pixels take the neighbouring sample. We do not
# pin the versions (users bring their own); a warp result must instead be the golden image up to
# such decisions: at most 5% of its pixels differ, and each that does is a pixel of the source
# image or of the golden's 5x5 neighbourhood at that place (nearest: another sample, or the fill)
# or lies within 2 of the golden (bilinear: the rounding of a weight), or, where the golden has
# the fill, within the source image's per-channel range (bilinear: Pillow 13 samples a pixel
# whose source coordinate earlier builds put a hair outside the image, a blend of source pixels).
_WARPS = ("rotate", "affine", "perspective")


def _same_warp(got, want, where, source):
    g = np.asarray(got["values"], np.int64).reshape(want["shape"])
    w = np.asarray(want["values"], np.int64).reshape(want["shape"])
    if g.ndim == 2:
        g, w = g[..., None], w[..., None]
    diff = (g != w).any(axis=-1)
    assert diff.sum() <= max(1, 0.05 * diff.size), (where, int(diff.sum()), diff.astype(int))
    src = source.reshape(-1, source.shape[-1])[:, :w.shape[-1]]
    for y, x in zip(*np.nonzero(diff)):
        near = w[max(y - 2, 0):y + 3, max(x - 2, 0):x + 3].reshape(-1, w.shape[-1])
        filled = (w[y, x] == 0).all()
        ok = ((np.concatenate([near, src]) == g[y, x]).all(axis=-1).any()
              or np.abs(g[y, x] - w[y, x]).max() <= 2
              or filled and ((src.min(0) <= g[y, x]) & (g[y, x] <= src.max(0))).all())
        assert ok, (where, (int(y), int(x)), g[y, x].tolist(), w[y, x].tolist())


def _same(got, want, where, source=None):
    assert got.keys() == want.keys(), (where, got.keys(), want.keys())
    if "seq" in want:
        assert len(got["seq"]) == len(want["seq"]), where
        for k, (g, w) in enumerate(zip(got["seq"], want["seq"])):
            _same(g, w, f"{where}[{k}]", source)
        return
    if (want.get("kind") in ("pil", "numpy") and want.get("dtype") == "uint8"
            and any(s in where for s in _WARPS)):
        for key in want:
            if key != "values":
                assert got[key] == want[key], (where, key, got[key], want[key])
        _same_warp(got, want, where, source)
        return
    for key in want:
        if key != "values":
            assert got[key] == want[key], (where, key, got[key], want[key])
    if "values" in want:
        g, w = np.asarray(got["values"]), np.asarray(want["values"])
        if want.get("dtype", "").startswith(("uint", "int")) or want.get("kind") == "pil":
            np.testing.assert_array_equal(g, w, err_msg=where)
        else:
            # float32 resampling (bicubic) rounds differently from Paddle's kernel: ~7e-6 rel
            np.testing.assert_allclose(g, w, rtol=2e-5, atol=1e-5, err_msg=where)


@pytest.mark.parametrize("cid", sorted(CASES))
def test_matches_paddle(cid):
    case = CASES[cid]
    env = _env()
    want = case["result"]
    if "error" in want:
        with pytest.raises(Exception) as ei:
            exec(case["code"], env)
        assert type(ei.value).__name__ == want["error"]
        return
    exec(case["code"], env)
    _same(env["describe"](env["out"]), want, cid, env["img"].astype(np.int64))


def test_erase_inplace_and_copy():
    img = np.zeros((4, 4, 3), np.uint8)
    out = T.erase(img, 0, 0, 2, 2, 5)
    assert img.sum() == 0 and out[:2, :2].min() == 5
    T.erase(img, 0, 0, 1, 1, 7, inplace=True)
    assert img[0, 0, 0] == 7


def test_tensor_warp_errors():
    t = paddle.to_tensor(np.zeros((3, 4, 4), np.uint8))
    with pytest.raises(TypeError, match="floating-point"):
        T.rotate(t, 10)
    with pytest.raises(ValueError, match="symmetric"):
        T.pad(t.astype("float32"), 1, padding_mode="symmetric")
    with pytest.raises(TypeError):
        T.hflip([1, 2, 3])


def test_base_transform_subclass_and_params():
    class AddOne(T.BaseTransform):
        def _get_params(self, inputs):
            return len(inputs)

        def _apply_image(self, img):
            return img + 1

    t = AddOne(keys=["image", "image"])
    a, b, c = t((np.zeros(2), np.ones(2), "x"))
    assert t.params == 3 and a.tolist() == [1, 1] and b.tolist() == [2, 2] and c == "x"
    with pytest.raises(ValueError):
        AddOne(keys=5)


def test_missing_backend_names_the_package(monkeypatch):
    import sys
    img = np.zeros((4, 4, 3), np.uint8)
    monkeypatch.setitem(sys.modules, "cv2", None)
    with pytest.raises(ImportError, match="opencv-python-headless"):
        T.hflip(img)
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match="pillow"):
        T.transforms._pil()     # what every PIL-image path calls first
    with pytest.raises(TypeError):
        T.hflip("not an image")     # telling the kinds apart needs neither package
    # the pure-numpy and Tensor paths need neither
    assert T.crop(img, 0, 0, 2, 2).shape == (2, 2, 3)
    assert T.to_tensor(img).shape == [3, 4, 4]


def test_normalize_is_a_base_transform():
    assert isinstance(T.Normalize(), T.BaseTransform)
    assert isinstance(T.RandomCrop(3), T.BaseTransform)
