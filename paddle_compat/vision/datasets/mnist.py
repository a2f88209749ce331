"""``MNIST`` and ``FashionMNIST`` from their idx-ubyte ``.gz`` files, as Paddle reads them."""
import gzip
import struct

import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from .. import image as _image
from ._files import check_exists_and_download

__all__ = ["MNIST", "FashionMNIST"]


def _check_backend(backend):
    if backend is None:
        backend = _image.get_image_backend()
    if backend not in ("pil", "cv2"):
        raise ValueError(f"Expected backend are one of ['pil', 'cv2'], but got {backend}")
    return backend


def _read_idx(path, header):
    """(header fields, the uint8 payload) of a gzip'd idx file."""
    with gzip.GzipFile(path, "rb") as f:
        buf = f.read()
    size = struct.calcsize(header)
    if len(buf) < size:
        raise ValueError(f"{path} is not an idx-ubyte file (too short)")
    return struct.unpack_from(header, buf, 0), np.frombuffer(buf, dtype=np.uint8, offset=size)


class MNIST(Dataset):
    """The MNIST digits: ``dataset[i]`` is ``(image, label)`` with ``label`` an int64 array of
    shape [1]. With backend 'pil' the image is a grayscale ``PIL.Image`` (mode 'L'); with
    'cv2' a ``28x28`` array of the default float dtype (values 0..255), after ``transform``.

    Args:
        image_path (str, optional): the images' ``...-images-idx3-ubyte.gz``.
        label_path (str, optional): the labels' ``...-labels-idx1-ubyte.gz``.
        mode (str): 'train' or 'test' (which files ``download`` looks for).
        transform (callable, optional): applied to each image.
        download (bool): when a path is None, take the file from Paddle's cache
            (``~/.cache/paddle/dataset/mnist``). Nothing is downloaded: a missing file raises
            RuntimeError naming the URL and where to put it.
        backend (str, optional): 'pil' or 'cv2'; ``paddle.vision.get_image_backend()`` if None.

    Unlike Paddle (which reads in blocks of 100 and fails on any other count), files of any
    number of images load.
    """

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_IMAGE_MD5 = "9fb629c4189551a2d022fa330f9573f3"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TEST_LABEL_MD5 = "ec29112dd5afa0611ce80d1b7f02629c"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_IMAGE_MD5 = "f68b3c2dcbeaaa9fbdd348bbdeb94873"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    TRAIN_LABEL_MD5 = "d53e105ee54ea40749a09fcbcd1e9432"

    def __init__(self, image_path=None, label_path=None, mode="train", transform=None,
                 download=True, backend=None):
        assert mode.lower() in ["train", "test"], \
            f"mode should be 'train' or 'test', but got {mode}"
        self.backend = _check_backend(backend)
        self.mode = mode.lower()
        train = self.mode == "train"
        self.image_path = image_path
        if self.image_path is None:
            assert download, "image_path is not set and downloading automatically is disabled"
            self.image_path = check_exists_and_download(
                image_path, self.TRAIN_IMAGE_URL if train else self.TEST_IMAGE_URL,
                self.TRAIN_IMAGE_MD5 if train else self.TEST_IMAGE_MD5, self.NAME, download)
        self.label_path = label_path
        if self.label_path is None:
            assert download, "label_path is not set and downloading automatically is disabled"
            self.label_path = check_exists_and_download(
                label_path, self.TRAIN_LABEL_URL if train else self.TEST_LABEL_URL,
                self.TRAIN_LABEL_MD5 if train else self.TEST_LABEL_MD5, self.NAME, download)
        self.transform = transform
        self._parse_dataset()
        self.dtype = get_default_dtype()

    def _parse_dataset(self):
        (_, n_img, rows, cols), pixels = _read_idx(self.image_path, ">IIII")
        (_, n_lab), labels = _read_idx(self.label_path, ">II")
        if labels.size < n_lab or pixels.size < n_lab * rows * cols:
            raise ValueError(f"{self.image_path} / {self.label_path}: the files hold fewer "
                             f"images or labels than the {n_lab} their header announces")
        self._shape = (rows, cols)
        flat = pixels[: n_lab * rows * cols].reshape(n_lab, rows * cols).astype("float32")
        self.images = list(flat)
        self.labels = list(labels[:n_lab].astype("int64").reshape(n_lab, 1))

    def __getitem__(self, idx):
        image, label = self.images[idx], self.labels[idx]
        image = np.reshape(image, self._shape)
        if self.backend == "pil":
            image = _image._module("PIL.Image", "pillow").fromarray(image.astype("uint8"))
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(self.dtype), label.astype("int64")

    def __len__(self):
        return len(self.labels)


class FashionMNIST(MNIST):
    """Fashion-MNIST (Zalando's clothing images), in MNIST's format: see ``MNIST``."""

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_IMAGE_MD5 = "bef4ecab320f06d8554ea6380940ec79"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TEST_LABEL_MD5 = "bb300cfdad3c16e7a12a480ee83cd310"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_IMAGE_MD5 = "8d4fb7e6c68d591d4c3dfef9ec88bf0d"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    TRAIN_LABEL_MD5 = "25c81989df183df01b3e8a0aad5dffbe"
