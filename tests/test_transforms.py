"""paddle.vision.transforms against real Paddle 3.3.1 (tests/goldens/transforms.json, recorded by
tools/goldens/record_transforms.py): numpy images through OpenCV, PIL images through Pillow, and
CHW Tensors, including the seeded random transforms (Python ``random`` / ``numpy.random`` draws
in Paddle's order). uint8 results are compared exactly; float results within float32 rounding."""
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


def _same(got, want, where):
    assert got.keys() == want.keys(), (where, got.keys(), want.keys())
    if "seq" in want:
        assert len(got["seq"]) == len(want["seq"]), where
        for k, (g, w) in enumerate(zip(got["seq"], want["seq"])):
            _same(g, w, f"{where}[{k}]")
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
    _same(env["describe"](env["out"]), want, cid)


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
