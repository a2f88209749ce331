"""Record real Paddle's paddle.vision.transforms for tests/test_transforms.py.

Run with the oracle interpreter (real Paddle, opencv-python-headless and pillow installed there):

    /work/paddle_venv/bin/python tools/goldens/record_transforms.py

Writes tests/goldens/transforms.json: the PRELUDE (helpers and the small test images), and for
each case its code and what it left in ``out`` (or the exception's type). The code runs with
``paddle``, ``T`` (paddle.vision.transforms), ``np``, ``random``, ``Image`` (PIL) and the
images ``img`` (8x10x3 uint8 HWC), ``gray`` (8x10x1), ``pil`` (img as a PIL RGB image) and
``timg`` (img as a CHW float32 Tensor) bound; the test runs the same code under paddle_compat.
"""
import json
import os
import random
import warnings

warnings.filterwarnings("ignore")
import numpy as np  # noqa: E402
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)
from PIL import Image  # noqa: E402

import paddle.vision.transforms as T  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
OUT = os.path.join(ROOT, "tests", "goldens", "transforms.json")

PRELUDE = '''
img = ((np.arange(8 * 10 * 3).reshape(8, 10, 3) * 37 + 11) % 256).astype(np.uint8)
img[2:6, 3:7] = [200, 40, 90]
gray = img[:, :, :1].copy()
pil = Image.fromarray(img)
timg = paddle.to_tensor(img.transpose(2, 0, 1).astype("float32"))

def seed(s):
    random.seed(s)
    np.random.seed(s)

def describe(o):
    if isinstance(o, (list, tuple)):
        return {"seq": [describe(x) for x in o]}
    if isinstance(o, Image.Image):
        a = np.asarray(o)
        return {"kind": "pil", "mode": o.mode, "size": list(o.size), "shape": list(a.shape),
                "dtype": str(a.dtype), "values": a.reshape(-1).tolist()}
    if isinstance(o, np.ndarray):
        return {"kind": "numpy", "shape": list(o.shape), "dtype": str(o.dtype),
                "values": o.reshape(-1).tolist()}
    if isinstance(o, paddle.Tensor):
        a = o.numpy()
        return {"kind": "tensor", "shape": list(a.shape), "dtype": str(a.dtype),
                "values": a.reshape(-1).tolist()}
    if isinstance(o, (int, float)):
        return {"kind": "number", "values": [float(o)]}
    return {"kind": type(o).__name__}
'''

CASES = [
    # to_tensor / ToTensor / Transpose / Normalize
    ("to_tensor_np", "out = T.to_tensor(img)"),
    ("to_tensor_np_hwc", "out = T.to_tensor(img, 'HWC')"),
    ("to_tensor_gray2d", "out = T.to_tensor(img[:, :, 0])"),
    ("to_tensor_pil", "out = T.ToTensor()(pil)"),
    ("to_tensor_pil_L", "out = T.to_tensor(pil.convert('L'))"),
    ("to_tensor_float", "out = T.to_tensor(img.astype('float32'))"),
    ("transpose_np", "out = T.Transpose()(img)"),
    ("transpose_pil", "out = T.Transpose((2, 1, 0))(pil)"),
    ("normalize_pil", "out = T.normalize(pil, [10, 20, 30], [2, 3, 4], 'HWC')"),
    ("compose", "out = T.Compose([T.CenterCrop(6), T.ToTensor(), T.Normalize(0.5, 0.5)])(img)"),
    # resize
    ("resize_np_int", "out = T.resize(img, 4)"),
    ("resize_np_int_up", "out = T.resize(img, 12)"),
    ("resize_np_hw", "out = T.resize(img, (5, 7))"),
    ("resize_np_nearest", "out = T.resize(img, (5, 7), 'nearest')"),
    ("resize_np_bicubic", "out = T.resize(img, (11, 13), 'bicubic')"),
    ("resize_np_area", "out = T.resize(img, (4, 5), 'area')"),
    ("resize_np_gray", "out = T.Resize((5, 6))(gray)"),
    ("resize_np_same", "out = T.resize(img, 8)"),
    ("resize_tensor", "out = T.resize(timg, (5, 7))"),
    ("resize_tensor_int", "out = T.resize(timg, 4, 'nearest')"),
    ("resize_tensor_bicubic", "out = T.resize(timg, (11, 13), 'bicubic')"),
    ("resize_tensor_uint8", "out = T.resize(timg.astype('uint8'), (5, 7))"),
    ("resize_pil_int", "out = T.resize(pil, 4)"),
    ("resize_pil_hw", "out = T.Resize((5, 7))(pil)"),
    ("resize_pil_bicubic", "out = T.resize(pil, (11, 13), 'bicubic')"),
    ("resize_pil_nearest", "out = T.resize(pil, (5, 7), 'nearest')"),
    # pad
    ("pad_np_int", "out = T.pad(img, 2)"),
    ("pad_np_2", "out = T.pad(img, (1, 2), fill=7)"),
    ("pad_np_4_edge", "out = T.pad(img, [1, 2, 3, 0], padding_mode='edge')"),
    ("pad_np_reflect", "out = T.Pad(2, padding_mode='reflect')(img)"),
    ("pad_np_symmetric", "out = T.pad(img, (2, 1, 0, 3), padding_mode='symmetric')"),
    ("pad_np_gray", "out = T.pad(gray, 1, fill=9)"),
    ("pad_pil_const", "out = T.pad(pil, (1, 2, 3, 0), fill=(1, 2, 3))"),
    ("pad_pil_reflect", "out = T.pad(pil, 2, padding_mode='reflect')"),
    ("pad_pil_symmetric", "out = T.pad(pil, (1, 2), padding_mode='symmetric')"),
    ("pad_tensor", "out = T.pad(timg, (1, 2, 3, 0), fill=5)"),
    ("pad_tensor_edge", "out = T.pad(timg, 1, padding_mode='edge')"),
    ("pad_tensor_reflect", "out = T.pad(timg, (2, 1), padding_mode='reflect')"),
    # crops and flips
    ("crop_np", "out = T.crop(img, 1, 2, 4, 5)"),
    ("crop_pil", "out = T.crop(pil, 1, 2, 4, 5)"),
    ("crop_tensor", "out = T.crop(timg, 1, 2, 4, 5)"),
    ("center_crop_np", "out = T.center_crop(img, (5, 5))"),
    ("center_crop_np_odd", "out = T.CenterCrop(3)(img)"),
    ("center_crop_pil", "out = T.center_crop(pil, (3, 7))"),
    ("center_crop_tensor", "out = T.center_crop(timg, (5, 5))"),
    ("hflip_np", "out = T.hflip(img)"),
    ("hflip_np_gray", "out = T.hflip(gray)"),
    ("hflip_pil", "out = T.hflip(pil)"),
    ("hflip_tensor", "out = T.hflip(timg)"),
    ("vflip_np", "out = T.vflip(img)"),
    ("vflip_np_gray", "out = T.vflip(gray)"),
    ("vflip_pil", "out = T.vflip(pil)"),
    ("vflip_tensor", "out = T.vflip(timg)"),
    ("to_tensor_tensor_hwc", "out = T.to_tensor(timg, 'HWC')"),
    ("transpose_tensor", "out = T.Transpose((1, 2, 0))(timg)"),
    # colour
    ("brightness_np", "out = T.adjust_brightness(img, 1.37)"),
    ("brightness_np_dark", "out = T.adjust_brightness(img, 0.41)"),
    ("brightness_pil", "out = T.adjust_brightness(pil, 1.37)"),
    ("contrast_np", "out = T.adjust_contrast(img, 1.6)"),
    ("contrast_np_low", "out = T.adjust_contrast(img, 0.3)"),
    ("contrast_pil", "out = T.adjust_contrast(pil, 1.6)"),
    ("hue_np", "out = T.adjust_hue(img, 0.2)"),
    ("hue_np_neg", "out = T.adjust_hue(img, -0.37)"),
    ("hue_pil", "out = T.adjust_hue(pil, 0.2)"),
    ("hue_pil_L", "out = T.adjust_hue(pil.convert('L'), 0.2)"),
    ("hue_bad", "out = T.adjust_hue(img, 0.7)"),
    ("saturation_np_seeded", "seed(5); out = T.SaturationTransform(0.6)(img)"),
    ("saturation_pil", "seed(5); out = T.SaturationTransform(0.6)(pil)"),
    ("brightness_tensor", "out = T.adjust_brightness(timg / 255, 1.37)"),
    ("contrast_tensor", "out = T.adjust_contrast(timg / 255, 0.6)"),
    ("contrast_tensor_gray", "out = T.adjust_contrast(timg[:1] / 255, 1.6)"),
    ("saturation_tensor", "out = T.functional.adjust_saturation(timg / 255, 1.5)"),
    ("saturation_tensor_seeded", "seed(8); out = T.SaturationTransform(0.7)(timg / 255)"),
    ("hue_tensor", "out = T.adjust_hue(timg / 255, 0.2)"),
    ("hue_tensor_neg", "out = T.adjust_hue(timg / 255, -0.45)"),
    ("hue_tensor_uint8", "out = T.adjust_hue(timg.astype('uint8'), 0.3)"),
    ("grayscale_tensor", "out = T.to_grayscale(timg)"),
    ("grayscale_tensor3", "out = T.Grayscale(3)(timg / 255)"),
    ("color_jitter_tensor", "seed(4); t = T.ColorJitter(0.3, 0.3, 0.3, 0.1); "
     "out = [t(timg / 255), t(timg / 255)]"),
    ("grayscale_np", "out = T.to_grayscale(img)"),
    ("grayscale_np3", "out = T.Grayscale(3)(img)"),
    ("grayscale_pil", "out = T.to_grayscale(pil)"),
    ("grayscale_pil3", "out = T.to_grayscale(pil, 3)"),
    ("brightness_transform", "seed(1); t = T.BrightnessTransform(0.4); out = [t(img), t(img), "
     "t(pil)]"),
    ("contrast_transform", "seed(2); t = T.ContrastTransform(0.4); out = [t(img), t(pil)]"),
    ("hue_transform", "seed(3); t = T.HueTransform(0.3); out = [t(img), t(pil)]"),
    ("color_jitter_np", "seed(4); t = T.ColorJitter(0.3, 0.3, 0.3, 0.1); out = [t(img), "
     "t(img), t(img)]"),
    ("color_jitter_pil", "seed(4); t = T.ColorJitter(0.3, 0.3, 0.3, 0.1); out = [t(pil), t(pil)]"),
    # geometric warps
    ("rotate_np", "out = T.rotate(img, 30)"),
    ("rotate_np_bilinear", "out = T.rotate(img, -45, 'bilinear', fill=3)"),
    ("rotate_np_expand", "out = T.rotate(img, 30, expand=True)"),
    ("rotate_np_center", "out = T.rotate(img, 90, center=(2, 3))"),
    ("rotate_np_gray", "out = T.rotate(gray, 15)"),
    ("rotate_pil", "out = T.rotate(pil, 30)"),
    ("rotate_pil_expand", "out = T.rotate(pil, 30, 'bilinear', expand=True, fill=5)"),
    ("affine_np", "out = T.affine(img, 20, (1, -2), 1.1, (5, 3))"),
    ("affine_np_bilinear", "out = T.affine(img, -10, [0, 1], 0.9, 8, 'bilinear', fill=4)"),
    ("affine_np_center", "out = T.affine(img, 45, (0, 0), 1.0, 0, center=(4, 3))"),
    ("affine_pil", "out = T.affine(pil, 20, (1, -2), 1.1, (5, 3))"),
    ("affine_pil_bilinear", "out = T.affine(pil, -10, [0, 1], 0.9, 8, 'bilinear', fill=4)"),
    ("perspective_np", "out = T.perspective(img, [[0, 0], [9, 0], [9, 7], [0, 7]], [[1, 1], "
     "[8, 0], [9, 6], [0, 7]])"),
    ("perspective_np_bilinear", "out = T.perspective(img, [[0, 0], [9, 0], [9, 7], [0, 7]], "
     "[[2, 1], [8, 1], [7, 6], [1, 7]], 'bilinear', 6)"),
    ("perspective_pil", "out = T.perspective(pil, [[0, 0], [9, 0], [9, 7], [0, 7]], [[1, 1], "
     "[8, 0], [9, 6], [0, 7]])"),
    ("rotate_tensor", "out = T.rotate(timg, 30)"),
    ("rotate_tensor_bilinear", "out = T.rotate(timg, -45, 'bilinear', fill=3)"),
    ("rotate_tensor_expand", "out = T.rotate(timg, 30, expand=True)"),
    ("rotate_tensor_center", "out = T.rotate(timg, 90, center=(2, 3))"),
    ("affine_tensor", "out = T.affine(timg, 20, (1, -2), 1.1, (5, 3))"),
    ("affine_tensor_bilinear", "out = T.affine(timg, -10, [0, 1], 0.9, 8, 'bilinear', fill=4)"),
    ("affine_tensor_center", "out = T.affine(timg, 45, (0, 0), 1.0, 0, center=(4, 3))"),
    ("perspective_tensor", "out = T.perspective(timg, [[0, 0], [9, 0], [9, 7], [0, 7]], "
     "[[1, 1], [8, 0], [9, 6], [0, 7]])"),
    ("perspective_tensor_bilinear", "out = T.perspective(timg, [[0, 0], [9, 0], [9, 7], [0, 7]], "
     "[[2, 1], [8, 1], [7, 6], [1, 7]], 'bilinear', 6)"),
    ("random_rotation_tensor", "seed(0); t = T.RandomRotation(40); out = [t(timg), t(timg)]"),
    ("random_affine_tensor", "seed(0); t = T.RandomAffine(30, translate=(0.2, 0.3), "
     "scale=(0.8, 1.2), shear=(-5, 5, -3, 3)); out = [t(timg), t(timg)]"),
    ("random_perspective_tensor", "seed(1); t = T.RandomPerspective(1.0, 0.3, 'bilinear'); "
     "out = [t(timg), t(timg)]"),
    # erase
    ("erase_np", "out = T.erase(img, 1, 2, 3, 4, 0)"),
    ("erase_np_vec", "out = T.erase(img, 1, 2, 3, 4, np.array([1, 2, 3]))"),
    ("erase_pil", "out = T.erase(pil, 1, 2, 3, 4, 9)"),
    ("erase_tensor", "out = T.erase(timg, 1, 2, 3, 4, paddle.to_tensor([[[7]]], dtype='float32'))"),
    ("erase_np_inplace", "a = img.copy(); T.erase(a, 0, 0, 2, 2, 1, inplace=True); out = a"),
    # seeded random transforms
    ("random_crop", "seed(0); t = T.RandomCrop(5); out = [t(img) for _ in range(4)]"),
    ("random_crop_pil", "seed(0); t = T.RandomCrop((4, 6)); out = [t(pil) for _ in range(3)]"),
    ("random_crop_tensor", "seed(0); t = T.RandomCrop((4, 6)); out = [t(timg) for _ in range(3)]"),
    ("random_crop_pad", "seed(7); out = [T.RandomCrop(9, padding=1, fill=3)(img), "
     "T.RandomCrop((10, 12), pad_if_needed=True, padding_mode='edge')(img)]"),
    ("random_resized_crop", "seed(0); t = T.RandomResizedCrop(6); "
     "out = [t(img) for _ in range(4)]"),
    ("random_resized_crop_pil", "seed(1); t = T.RandomResizedCrop((5, 4), "
     "interpolation='nearest'); out = [t(pil) for _ in range(3)]"),
    ("random_resized_crop_fallback", "seed(0); t = T.RandomResizedCrop(4, scale=(1.5, 2.0)); "
     "out = t(img)"),
    ("random_hflip", "seed(0); t = T.RandomHorizontalFlip(); out = [t(img) for _ in range(5)]"),
    ("random_vflip", "seed(3); t = T.RandomVerticalFlip(0.3); out = [t(pil) for _ in range(4)]"),
    ("random_rotation", "seed(0); t = T.RandomRotation(40); out = [t(img), t(img), t(pil)]"),
    ("random_rotation_expand", "seed(2); out = T.RandomRotation((10, 80), expand=True)(img)"),
    ("random_affine", "seed(0); t = T.RandomAffine(30, translate=(0.2, 0.3), scale=(0.8, 1.2), "
     "shear=(-5, 5, -3, 3)); out = [t(img), t(img), t(pil)]"),
    ("random_affine_shear1", "seed(6); out = T.RandomAffine(0, shear=10, "
     "interpolation='bilinear')(img)"),
    ("random_perspective", "seed(0); t = T.RandomPerspective(0.7); "
     "out = [t(img) for _ in range(4)]"),
    ("random_perspective_pil", "seed(1); t = T.RandomPerspective(1.0, 0.8, 'bilinear'); "
     "out = [t(pil), t(pil)]"),
    ("random_erasing", "seed(0); t = T.RandomErasing(1.0); out = [t(img) for _ in range(3)]"),
    ("random_erasing_value", "seed(1); t = T.RandomErasing(0.8, value=[1, 2, 3]); "
     "out = [t(img) for _ in range(4)]"),
    ("random_erasing_noise", "seed(3); out = T.RandomErasing(1.0, value='random')"
     "(img.astype('float32'))"),
    ("random_erasing_pil", "seed(2); out = T.RandomErasing(1.0, value=5)(pil)"),
    ("random_erasing_tensor", "seed(0); t = T.RandomErasing(1.0, value=(9, 8, 7)); "
     "out = [t(timg) for _ in range(2)]"),
    # BaseTransform keys
    ("keys_tuple", "seed(0); t = T.RandomHorizontalFlip(1.0, keys=['image']); "
     "out = list(t((img, 5)))[:1]"),
    ("keys_two_images", "seed(0); t = T.Resize((4, 4), keys=['image', 'image']); "
     "out = list(t((img, img[:4])))"),
    ("normalize_keys", "t = T.Normalize([1, 2, 3], [2, 2, 2], 'HWC', keys=['image']); "
     "out = list(t((img.astype('float32'), img[:1])))"),
    ("normalize_to_rgb", "out = T.Normalize([1, 2, 3], [2, 4, 8], 'HWC', to_rgb=True)(img)"),
    ("bad_key", "out = T.Resize(4, keys=['label'])"),
]


def main():
    env = {"paddle": paddle, "T": T, "np": np, "random": random, "Image": Image}
    exec(PRELUDE, env)
    out = {"prelude": PRELUDE, "cases": []}
    for cid, code in CASES:
        e = dict(env)
        try:
            exec(code, e)
            res = e["describe"](e["out"])
        except Exception as ex:  # noqa: BLE001  (the error type is the result)
            res = {"error": type(ex).__name__}
        out["cases"].append({"id": cid, "code": code, "result": res})
    with open(OUT, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"wrote {len(CASES)} cases to {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
