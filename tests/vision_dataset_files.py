"""Tiny files in the formats of Paddle's image datasets, and the cases run on them.

Shared by tools/goldens/record_vision_datasets.py (run with real Paddle, it writes
tests/goldens/vision_datasets.json) and tests/test_vision_datasets.py (paddle_compat): both
build the same files with ``make_all(folder)`` (numpy, Pillow and the standard library only;
every byte comes from a seeded generator) and run the same case code on them, with ``paddle``,
``np``, ``F`` (the paths ``make_all`` returned), ``H`` (this module) and ``Image`` bound; the
case leaves its result in ``out``, described with golden_utils.describe.

JPEG images are compared by whether the dataset's image equals a direct Pillow decode of the
expected member (``H.same_jpeg``), so no JPEG decoder's rounding is baked into a golden.
"""
import gzip
import io
import os
import pickle
import struct
import tarfile
import zlib

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def _png(path, arr):
    from PIL import Image
    Image.fromarray(arr).save(path, format="PNG")


def _jpeg_bytes(arr):
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="JPEG", quality=95)
    return buf.getvalue()


def _smooth_rgb(rng, h, w):
    """A smooth RGB uint8 image (gradients plus a little noise)."""
    y, x = np.mgrid[0:h, 0:w]
    base = np.stack([x * 255 // max(w - 1, 1), y * 255 // max(h - 1, 1),
                     (x + y) * 255 // max(h + w - 2, 1)], -1)
    return np.clip(base + rng.integers(-10, 11, (h, w, 3)), 0, 255).astype(np.uint8)


# ------------------------------------------------------------------ folders of images
def make_folder(root):
    """root/{b_dog, a_cat, c_empty}/... PNGs (one nested, one upper-case .PNG), a text file
    and a PNG at the top (seen by ImageFolder only)."""
    rng = _rng(1)
    layout = {"b_dog": ["d1.png", "d0.png", "sub/d2.png"], "a_cat": ["c1.PNG", "c0.png"],
              "c_empty": []}
    for cls, files in layout.items():
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        for name in files:
            path = os.path.join(root, cls, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            _png(path, rng.integers(0, 256, (5, 7, 3), dtype=np.uint8))
    with open(os.path.join(root, "a_cat", "notes.txt"), "w") as f:
        f.write("not an image\n")
    _png(os.path.join(root, "top.png"), rng.integers(0, 256, (4, 4, 3), dtype=np.uint8))
    return root


def make_empty_folder(root):
    os.makedirs(os.path.join(root, "cls"), exist_ok=True)
    with open(os.path.join(root, "cls", "readme.txt"), "w") as f:
        f.write("x")
    return root


def make_pipeline_folder(root):
    """Two classes of 12x10 PNGs for the transforms + DataLoader pipeline case."""
    rng = _rng(2)
    for cls in ("n0", "n1"):
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        for k in range(3):
            _png(os.path.join(root, cls, f"{k}.png"),
                 rng.integers(0, 256, (12, 10, 3), dtype=np.uint8))
    return root


# ------------------------------------------------------------------ MNIST idx files
def _gz(path, payload):
    with open(path, "wb") as f:  # fixed mtime: identical bytes in both worlds
        with gzip.GzipFile(fileobj=f, mode="wb", mtime=0) as g:
            g.write(payload)


def make_mnist(folder, n, seed, prefix):
    rng = _rng(seed)
    images = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, n, dtype=np.uint8)
    img = os.path.join(folder, f"{prefix}-images-idx3-ubyte.gz")
    lab = os.path.join(folder, f"{prefix}-labels-idx1-ubyte.gz")
    _gz(img, struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
    _gz(lab, struct.pack(">II", 2049, n) + labels.tobytes())
    return img, lab


# ------------------------------------------------------------------ CIFAR tar.gz of pickles
def _add_bytes(tar, name, payload):
    info = tarfile.TarInfo(name)
    info.size = len(payload)
    info.mtime = 0
    tar.addfile(info, io.BytesIO(payload))


def _cifar_batch(rng, n, label_key, n_classes):
    d = {b"batch_label": b"fake batch", label_key: [int(v) for v in rng.integers(0, n_classes, n)],
         b"data": rng.integers(0, 256, (n, 3072), dtype=np.uint8),
         b"filenames": [f"img_{k}.png".encode() for k in range(n)]}
    if label_key == b"fine_labels":
        d[b"coarse_labels"] = [int(v) for v in rng.integers(0, 20, n)]
    return pickle.dumps(d, protocol=2)


def make_cifar10(path):
    rng = _rng(3)
    with tarfile.open(path, "w:gz") as tar:
        # members written out of order: the dataset sorts them
        _add_bytes(tar, "cifar-10-batches-py/data_batch_2", _cifar_batch(rng, 2, b"labels", 10))
        _add_bytes(tar, "cifar-10-batches-py/data_batch_1", _cifar_batch(rng, 3, b"labels", 10))
        _add_bytes(tar, "cifar-10-batches-py/test_batch", _cifar_batch(rng, 2, b"labels", 10))
        _add_bytes(tar, "cifar-10-batches-py/batches.meta", pickle.dumps({b"x": 1}, protocol=2))
    return path


def make_cifar100(path):
    rng = _rng(4)
    with tarfile.open(path, "w:gz") as tar:
        _add_bytes(tar, "cifar-100-python/train", _cifar_batch(rng, 3, b"fine_labels", 100))
        _add_bytes(tar, "cifar-100-python/test", _cifar_batch(rng, 2, b"fine_labels", 100))
    return path


class _Marker:
    """A pickle that, when unpickled by a trusting loader, writes a marker file."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (exec, (f"open({self.path!r}, 'w').write('ran')",))


def make_malicious_cifar10(path, marker):
    """A CIFAR-10 archive whose batch runs code when unpickled (used by our tests only)."""
    evil = {b"data": np.zeros((1, 3072), np.uint8), b"labels": [0], b"x": _Marker(marker)}
    with tarfile.open(path, "w:gz") as tar:
        _add_bytes(tar, "cifar-10-batches-py/data_batch_1", pickle.dumps(evil, protocol=2))
    return path


# ------------------------------------------------------------------ MATLAB 5 .mat writer
_MX_CLASS = {"float64": (6, 9), "uint8": (9, 2), "uint16": (11, 4), "int32": (12, 5)}


def _element(mtype, payload):
    pad = (-len(payload)) % 8
    return struct.pack("<II", mtype, len(payload)) + payload + b"\0" * pad


def _mat_matrix(name, arr):
    mclass, mtype = _MX_CLASS[str(arr.dtype)]
    body = (_element(6, struct.pack("<II", mclass, 0))
            + _element(5, struct.pack("<%di" % arr.ndim, *arr.shape))
            + _element(1, name.encode())
            + _element(mtype, np.asfortranarray(arr).tobytes(order="F")))
    return _element(14, body)


def write_mat(path, variables, compress=()):
    """A MATLAB 5 (little-endian) file of the given 2-D numeric arrays; names in
    ``compress`` are stored zlib-compressed (miCOMPRESSED), as MATLAB's default save does."""
    header = b"MATLAB 5.0 MAT-file, written by the paddle_compat tests".ljust(116, b" ")
    out = header + b"\0" * 8 + struct.pack("<H", 0x0100) + b"IM"
    for name, arr in variables.items():
        m = _mat_matrix(name, arr)
        if name in compress:
            z = zlib.compress(m)
            m = struct.pack("<II", 15, len(z)) + z
        out += m
    with open(path, "wb") as f:
        f.write(out)
    return path


# ------------------------------------------------------------------ Flowers
def make_flowers(folder):
    rng = _rng(5)
    tgz = os.path.join(folder, "102flowers.tgz")
    with tarfile.open(tgz, "w:gz") as tar:
        for k in range(1, 8):
            _add_bytes(tar, f"jpg/image_{k:05}.jpg", _jpeg_bytes(_smooth_rgb(rng, 6, 8)))
    labels = write_mat(os.path.join(folder, "imagelabels.mat"),
                       {"labels": np.array([[77, 3, 102, 1, 50, 9, 12]], dtype="float64")},
                       compress=("labels",))
    setid = write_mat(os.path.join(folder, "setid.mat"),
                      {"trnid": np.array([[2, 5]], dtype="uint16"),
                       "valid": np.array([[7]], dtype="uint16"),
                       "tstid": np.array([[1, 3, 4, 6]], dtype="uint16")},
                      compress=("tstid",))
    return tgz, labels, setid


# ------------------------------------------------------------------ VOC2012
def make_voc(path):
    from PIL import Image
    rng = _rng(6)
    names = ["2007_000001", "2007_000002", "2008_000003"]
    sets = {"train": names[:2], "val": names[2:], "trainval": names}
    root = "VOCdevkit/VOC2012/"
    with tarfile.open(path, "w") as tar:
        for flag, members in sets.items():
            _add_bytes(tar, root + f"ImageSets/Segmentation/{flag}.txt",
                       "".join(m + "\n" for m in members).encode())
        for n in names:
            _add_bytes(tar, root + f"JPEGImages/{n}.jpg", _jpeg_bytes(_smooth_rgb(rng, 5, 6)))
            seg = Image.fromarray(rng.integers(0, 4, (5, 6), dtype=np.uint8), mode="P")
            seg.putpalette([0, 0, 0, 128, 0, 0, 0, 128, 0, 128, 128, 0] + [0] * 744)
            buf = io.BytesIO()
            seg.save(buf, format="PNG")
            _add_bytes(tar, root + f"SegmentationClass/{n}.png", buf.getvalue())
    return path


# ------------------------------------------------------------------ all of them
def make_all(folder):
    """Build every file under ``folder``; the dict of their paths (``F`` in the cases)."""
    F = {"root": folder}
    F["folder"] = make_folder(os.path.join(folder, "imgs"))
    F["empty"] = make_empty_folder(os.path.join(folder, "empty"))
    F["pipe"] = make_pipeline_folder(os.path.join(folder, "pipe"))
    os.makedirs(os.path.join(folder, "mnist"), exist_ok=True)
    F["mnist_img"], F["mnist_lab"] = make_mnist(os.path.join(folder, "mnist"), 100, 7, "train")
    F["mnist3_img"], F["mnist3_lab"] = make_mnist(os.path.join(folder, "mnist"), 3, 8, "small")
    F["cifar10"] = make_cifar10(os.path.join(folder, "cifar-10-python.tar.gz"))
    F["cifar100"] = make_cifar100(os.path.join(folder, "cifar-100-python.tar.gz"))
    os.makedirs(os.path.join(folder, "flowers"), exist_ok=True)
    F["flowers_tgz"], F["flowers_labels"], F["flowers_setid"] = make_flowers(
        os.path.join(folder, "flowers"))
    F["voc"] = make_voc(os.path.join(folder, "voc.tar"))
    return F


# ------------------------------------------------------------------ helpers the cases use
def img(x):
    """A PIL image or array as plain data: its type, mode/size and pixels."""
    if isinstance(x, np.ndarray):
        return {"type": "ndarray", "array": x}
    return {"type": type(x).__name__, "mode": x.mode, "size": list(x.size), "pixels": np.asarray(x)}


def rel(paths, root):
    return [os.path.relpath(p, root) for p in paths]


def same_jpeg(x, path_or_bytes, as_float=False):
    """Whether the dataset's image ``x`` equals a direct Pillow decode of the JPEG (plus its
    shape and dtype, and the mode when it is a PIL image)."""
    from PIL import Image
    src = io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else path_or_bytes
    want = np.asarray(Image.open(src))
    got = np.asarray(x)
    info = {"shape": list(got.shape), "dtype": str(got.dtype),
            "equal": bool(got.shape == want.shape and np.array_equal(got, want.astype(got.dtype)))}
    if not isinstance(x, np.ndarray):
        info["mode"] = x.mode
    return info


def tar_member(path, name):
    with tarfile.open(path) as tar:
        return tar.extractfile(name).read()


CASES = [
    # ---------------------------------------------------------------- image backend
    ("backend_default", "out = paddle.vision.get_image_backend()"),
    ("backend_set_cycle", """
seen = []
for b in ['cv2', 'tensor', 'pil']:
    paddle.vision.set_image_backend(b)
    seen.append(paddle.vision.get_image_backend())
out = seen"""),
    ("backend_bad", "paddle.vision.set_image_backend('numpy')"),
    ("image_load_pil", """
im = paddle.vision.image_load(os.path.join(F['folder'], 'a_cat', 'c0.png'))
out = H.img(im)"""),
    ("image_load_cv2", """
out = H.img(paddle.vision.image_load(os.path.join(F['folder'], 'a_cat', 'c0.png'), backend='cv2'))"""),
    ("image_load_tensor", """
out = paddle.vision.image_load(os.path.join(F['folder'], 'a_cat', 'c0.png'), backend='tensor')"""),
    ("image_load_bad_backend", """
out = paddle.vision.image_load(os.path.join(F['folder'], 'a_cat', 'c0.png'), backend='x')"""),
    # ---------------------------------------------------------------- DatasetFolder
    ("folder_attrs", """
ds = paddle.vision.datasets.DatasetFolder(F['folder'])
out = {'classes': ds.classes, 'class_to_idx': ds.class_to_idx,
       'samples': [[p, t] for p, t in zip(H.rel([s[0] for s in ds.samples], F['folder']),
                                          [s[1] for s in ds.samples])],
       'targets': ds.targets, 'len': len(ds), 'extensions': list(ds.extensions), 'dtype': ds.dtype}"""),
    ("folder_item_pil", """
ds = paddle.vision.datasets.DatasetFolder(F['folder'])
s, t = ds[3]
out = [H.img(s), t, type(t).__name__]"""),
    ("folder_item_cv2", """
ds = paddle.vision.datasets.DatasetFolder(F['folder'])
paddle.vision.set_image_backend('cv2')
try:
    s, t = ds[0]
finally:
    paddle.vision.set_image_backend('pil')
out = [H.img(s), t]"""),
    ("folder_loader_extensions_transform", """
ds = paddle.vision.datasets.DatasetFolder(
    F['folder'], loader=lambda p: np.asarray(Image.open(p)), extensions=['.png'],
    transform=lambda a: a.astype('float64') / 255.0)
s, t = ds[1]
out = [H.rel([x[0] for x in ds.samples], F['folder']), s, t]"""),
    ("folder_extensions_txt", """
ds = paddle.vision.datasets.DatasetFolder(F['folder'], loader=lambda p: open(p).read(),
                                          extensions=('.txt',))
out = [H.rel([x[0] for x in ds.samples], F['folder']), ds[0]]"""),
    ("folder_extensions_str", """
out = paddle.vision.datasets.DatasetFolder(F['folder'], extensions='.png')"""),
    ("folder_empty", "out = paddle.vision.datasets.DatasetFolder(F['empty'])"),
    ("folder_is_valid_file", """
ds = paddle.vision.datasets.DatasetFolder(F['folder'], is_valid_file=lambda p: p.endswith('d0.png'))
out = H.rel([x[0] for x in ds.samples], F['folder'])"""),
    ("folder_missing_root", "out = paddle.vision.datasets.DatasetFolder(os.path.join(F['root'], 'nope'))"),
    # ---------------------------------------------------------------- ImageFolder
    ("imagefolder_attrs", """
ds = paddle.vision.datasets.ImageFolder(F['folder'])
out = {'samples': H.rel(ds.samples, F['folder']), 'len': len(ds),
       'extensions': list(ds.extensions)}"""),
    ("imagefolder_item", """
ds = paddle.vision.datasets.ImageFolder(F['folder'])
item = ds[0]
out = [type(item).__name__, len(item), H.img(item[0])]"""),
    ("imagefolder_transform_cv2", """
paddle.vision.set_image_backend('cv2')
try:
    ds = paddle.vision.datasets.ImageFolder(F['folder'], transform=lambda a: a[:2, :3])
    item = ds[len(ds) - 1]
finally:
    paddle.vision.set_image_backend('pil')
out = [H.rel(ds.samples, F['folder'])[-1], H.img(item[0])]"""),
    ("imagefolder_empty", "out = paddle.vision.datasets.ImageFolder(F['empty'])"),
    # ---------------------------------------------------------------- the pipeline
    ("pipeline_transforms_dataloader", """
import random
T = paddle.vision.transforms
random.seed(11); np.random.seed(11)
tf = T.Compose([T.Resize((16, 14)), T.RandomCrop(8), T.ToTensor(),
                T.Normalize(mean=[0.5, 0.5, 0.5], std=[0.25, 0.25, 0.25])])
ds = paddle.vision.datasets.DatasetFolder(F['pipe'], transform=tf)
first = ds[0]
loader = paddle.io.DataLoader(ds, batch_size=4, shuffle=False, num_workers=0)
batches = [b for b in loader]
out = {'first': [first[0], first[1]], 'n_batches': len(batches),
       'batch0': batches[0], 'batch1': batches[1]}"""),
    # ---------------------------------------------------------------- MNIST
    ("mnist_pil", """
ds = paddle.vision.datasets.MNIST(image_path=F['mnist_img'], label_path=F['mnist_lab'], backend='pil')
a, l = ds[0]
b, m = ds[57]
out = {'len': len(ds), 'mode': ds.mode, 'backend': ds.backend, 'dtype': ds.dtype,
       'item0': [H.img(a), l], 'item57': [H.img(b), m],
       'labels': np.concatenate([ds[i][1] for i in range(len(ds))])}"""),
    ("mnist_cv2_transform", """
ds = paddle.vision.datasets.MNIST(image_path=F['mnist_img'], label_path=F['mnist_lab'], mode='TEST',
                                  backend='cv2', transform=lambda a: a[::7, ::7] / 255.0)
out = {'mode': ds.mode, 'item99': list(ds[99])}"""),
    ("mnist_cv2_plain", """
ds = paddle.vision.datasets.MNIST(image_path=F['mnist_img'], label_path=F['mnist_lab'], backend='cv2')
img, lab = ds[5]
out = [img.dtype.name, list(img.shape), img[10:13, 10:16], lab]"""),
    ("mnist_default_backend_cv2", """
paddle.vision.set_image_backend('cv2')
try:
    ds = paddle.vision.datasets.MNIST(image_path=F['mnist_img'], label_path=F['mnist_lab'])
finally:
    paddle.vision.set_image_backend('pil')
out = [ds.backend, type(ds[0][0]).__name__]"""),
    ("mnist_float64_default", """
paddle.set_default_dtype('float64')
try:
    ds = paddle.vision.datasets.MNIST(image_path=F['mnist_img'], label_path=F['mnist_lab'], backend='cv2')
    out = [ds.dtype, ds[1][0].dtype.name]
finally:
    paddle.set_default_dtype('float32')"""),
    ("fashion_mnist", """
ds = paddle.vision.datasets.FashionMNIST(image_path=F['mnist_img'], label_path=F['mnist_lab'], backend='cv2')
out = [len(ds), ds.NAME, ds[3][1], float(ds[3][0].sum())]"""),
    ("mnist_bad_mode", """
out = paddle.vision.datasets.MNIST(image_path=F['mnist_img'], label_path=F['mnist_lab'], mode='valid')"""),
    ("mnist_bad_backend", """
out = paddle.vision.datasets.MNIST(image_path=F['mnist_img'], label_path=F['mnist_lab'], backend='tensor')"""),
    ("mnist_no_path_no_download", """
out = paddle.vision.datasets.MNIST(label_path=F['mnist_lab'], download=False)"""),
    ("mnist_3_items", """
ds = paddle.vision.datasets.MNIST(image_path=F['mnist3_img'], label_path=F['mnist3_lab'], backend='cv2')
out = [len(ds), ds[2][1]]"""),
    # ---------------------------------------------------------------- CIFAR
    ("cifar10_train_pil", """
ds = paddle.vision.datasets.Cifar10(data_file=F['cifar10'], mode='train', backend='pil')
im, lab = ds[4]
out = {'len': len(ds), 'labels': [ds[i][1] for i in range(len(ds))], 'flag': ds.flag,
       'img': H.img(im), 'lab_dtype': lab.dtype.name, 'lab_shape': list(lab.shape)}"""),
    ("cifar10_test_cv2", """
ds = paddle.vision.datasets.Cifar10(data_file=F['cifar10'], mode='Test', backend='cv2')
im, lab = ds[1]
out = {'len': len(ds), 'shape': list(im.shape), 'dtype': im.dtype.name, 'corner': im[:2, :2],
       'sum': float(im.sum()), 'lab': lab}"""),
    ("cifar10_transform", """
ds = paddle.vision.datasets.Cifar10(data_file=F['cifar10'], backend='cv2',
                                    transform=lambda a: a.transpose(2, 0, 1)[:, :2, :3])
out = list(ds[0])"""),
    ("cifar10_to_tensor", """
ds = paddle.vision.datasets.Cifar10(data_file=F['cifar10'], backend='pil',
                                    transform=paddle.vision.transforms.ToTensor())
t, lab = ds[2]
out = [t[:, 0, :4], lab]"""),
    ("cifar100", """
tr = paddle.vision.datasets.Cifar100(data_file=F['cifar100'], mode='train', backend='cv2')
te = paddle.vision.datasets.Cifar100(data_file=F['cifar100'], mode='test', backend='pil')
out = {'len': [len(tr), len(te)], 'flags': [tr.flag, te.flag],
       'labels': [tr[i][1] for i in range(len(tr))] + [te[i][1] for i in range(len(te))],
       'te0': H.img(te[0][0])}"""),
    ("cifar_bad_mode", "out = paddle.vision.datasets.Cifar10(data_file=F['cifar10'], mode='valid')"),
    ("cifar_bad_backend", "out = paddle.vision.datasets.Cifar10(data_file=F['cifar10'], backend='x')"),
    ("cifar_no_file_no_download", "out = paddle.vision.datasets.Cifar100(download=False)"),
    # ---------------------------------------------------------------- Flowers
    ("flowers_modes", """
res = {}
for mode in ['train', 'valid', 'test']:
    ds = paddle.vision.datasets.Flowers(F['flowers_tgz'], F['flowers_labels'], F['flowers_setid'],
                                        mode=mode, backend='pil')
    res[mode] = {'len': len(ds), 'labels': [ds[i][1] for i in range(len(ds))],
                 'indexes': ds.indexes, 'labels_attr': ds.labels}
out = res"""),
    ("flowers_pil_item", """
ds = paddle.vision.datasets.Flowers(F['flowers_tgz'], F['flowers_labels'], F['flowers_setid'],
                                    mode='train', backend='pil')
im, lab = ds[1]
out = [H.same_jpeg(im, os.path.join(ds.data_path, 'jpg', 'image_00003.jpg')), lab,
       H.rel([ds.data_path], F['root'])]"""),
    ("flowers_cv2_item", """
ds = paddle.vision.datasets.Flowers(F['flowers_tgz'], F['flowers_labels'], F['flowers_setid'],
                                    mode='test', backend='cv2')
im, lab = ds[0]
out = [H.same_jpeg(im, os.path.join(ds.data_path, 'jpg', 'image_00002.jpg')), im.dtype.name, lab]"""),
    ("flowers_transform", """
ds = paddle.vision.datasets.Flowers(F['flowers_tgz'], F['flowers_labels'], F['flowers_setid'],
                                    mode='valid', backend='cv2', transform=lambda a: a[:1, :2, 0])
out = [ds[0][0].shape, ds[0][0].dtype.name, ds[0][1]]"""),
    ("flowers_bad_mode", """
out = paddle.vision.datasets.Flowers(F['flowers_tgz'], F['flowers_labels'], F['flowers_setid'], mode='eval')"""),
    ("flowers_no_file_no_download", """
out = paddle.vision.datasets.Flowers(None, F['flowers_labels'], F['flowers_setid'], download=False)"""),
    # ---------------------------------------------------------------- VOC2012
    ("voc_modes", """
res = {}
for mode in ['train', 'valid', 'test']:
    ds = paddle.vision.datasets.VOC2012(F['voc'], mode=mode, backend='pil')
    res[mode] = {'len': len(ds), 'flag': ds.flag, 'data': ds.data, 'labels': ds.labels}
out = res"""),
    ("voc_pil_item", """
ds = paddle.vision.datasets.VOC2012(F['voc'], mode='train', backend='pil')
im, lab = ds[2]
out = [H.same_jpeg(im, H.tar_member(F['voc'], ds.data[2])), H.img(lab)]"""),
    ("voc_cv2_item", """
ds = paddle.vision.datasets.VOC2012(F['voc'], mode='valid', backend='cv2')
im, lab = ds[0]
out = [H.same_jpeg(im, H.tar_member(F['voc'], ds.data[0])), im.dtype.name, lab]"""),
    ("voc_transform", """
ds = paddle.vision.datasets.VOC2012(F['voc'], mode='test', backend='cv2', transform=lambda a: a[0, :2])
im, lab = ds[1]
out = [im.shape, im.dtype.name, lab.shape, lab.dtype.name]"""),
    ("voc_bad_mode", "out = paddle.vision.datasets.VOC2012(F['voc'], mode='trainval')"),
    ("voc_bad_backend", "out = paddle.vision.datasets.VOC2012(F['voc'], backend='tensor')"),
]


def run_cases(paddle, folder, describe, cases=CASES):
    """{case id: description of its ``out`` (or of its exception)} for ``cases`` run on the
    files under ``folder`` (``make_all`` must have built them)."""
    from PIL import Image
    F = make_files_index(folder)
    import sys
    results = {}
    for cid, code in cases:
        env = {"paddle": paddle, "np": np, "F": F, "H": sys.modules[__name__], "Image": Image,
               "os": os}
        try:
            exec(code, env)
            results[cid] = describe(env["out"], paddle)
        except Exception as e:  # noqa: BLE001 - the exception is the result
            results[cid] = describe(e, paddle)
    return results


_INDEX = {}


def make_files_index(folder):
    if folder not in _INDEX:
        _INDEX[folder] = make_all(folder)
    return _INDEX[folder]
