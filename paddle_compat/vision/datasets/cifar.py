"""``Cifar10`` and ``Cifar100`` from Paddle's ``cifar-10-python.tar.gz`` /
``cifar-100-python.tar.gz`` (the python-pickle batches).

The batches are pickles, and unpickling runs code: they are read with a restricted unpickler
(``_files.SafeUnpickler``) that accepts only the plain data a batch holds (dicts, lists, bytes,
numbers, numeric numpy arrays) and refuses anything else with ``pickle.UnpicklingError``.
"""
import tarfile

import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from .. import image as _image
from ._files import check_exists_and_download, safe_load_pickle
from .mnist import _check_backend

__all__ = ["Cifar10", "Cifar100"]

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"
CIFAR10_URL = URL_PREFIX + "cifar-10-python.tar.gz"
CIFAR10_MD5 = "c58f30108f718f92721af3b95e74349a"
CIFAR100_URL = URL_PREFIX + "cifar-100-python.tar.gz"
CIFAR100_MD5 = "eb9058c3a382ffc7106e4002c42a8d85"

#: which archive members a mode reads (members whose name contains the flag, sorted)
MODE_FLAG_MAP = {"train10": "data_batch", "test10": "test_batch",
                 "train100": "train", "test100": "test"}


class Cifar10(Dataset):
    """CIFAR-10: ``dataset[i]`` is ``(image, label)``, ``label`` a 0-d int64 array. With
    backend 'pil' the image is an RGB ``PIL.Image`` of 32x32; with 'cv2' a ``32x32x3`` array
    of the default float dtype (values 0..255), after ``transform``.

    Args:
        data_file (str, optional): the ``.tar.gz`` of pickled batches; when None (and
            ``download``), Paddle's cache ``~/.cache/paddle/dataset/cifar`` (nothing is
            downloaded: a missing file raises RuntimeError saying where to put it).
        mode (str): 'train' (the ``data_batch*`` members) or 'test' (``test_batch``).
        transform (callable, optional): applied to each image.
        download (bool): allow the cache look-up when ``data_file`` is None.
        backend (str, optional): 'pil' or 'cv2'; ``paddle.vision.get_image_backend()`` if None.
    """

    def __init__(self, data_file=None, mode="train", transform=None, download=True,
                 backend=None):
        assert mode.lower() in ["train", "test"], \
            f"mode.lower() should be 'train' or 'test', but got {mode}"
        self.mode = mode.lower()
        self.backend = _check_backend(backend)
        self._init_url_md5_flag()
        self.data_file = data_file
        if self.data_file is None:
            assert download, "data_file is not set and downloading automatically is disabled"
            self.data_file = check_exists_and_download(data_file, self.data_url, self.data_md5,
                                                       "cifar", download)
        self.transform = transform
        self._load_data()
        self.dtype = get_default_dtype()

    def _init_url_md5_flag(self):
        self.data_url, self.data_md5 = CIFAR10_URL, CIFAR10_MD5
        self.flag = MODE_FLAG_MAP[self.mode + "10"]

    def _load_data(self):
        self.data = []
        with tarfile.open(self.data_file, mode="r") as tf:
            members = sorted((m for m in tf if self.flag in m.name), key=lambda m: m.name)
            for member in members:
                batch = safe_load_pickle(tf.extractfile(member), encoding="bytes")
                data = batch[b"data"]
                labels = batch.get(b"labels", batch.get(b"fine_labels", None))
                assert labels is not None
                self.data.extend(zip(data, labels))

    def __getitem__(self, idx):
        image, label = self.data[idx]
        image = np.reshape(image, [3, 32, 32]).transpose([1, 2, 0])
        if self.backend == "pil":
            image = _image._module("PIL.Image", "pillow").fromarray(image.astype("uint8"))
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, np.array(label).astype("int64")
        return image.astype(self.dtype), np.array(label).astype("int64")

    def __len__(self):
        return len(self.data)


class Cifar100(Cifar10):
    """CIFAR-100 (the fine labels): see ``Cifar10``; 'train' and 'test' read the ``train``
    and ``test`` members of ``cifar-100-python.tar.gz``."""

    def __init__(self, data_file=None, mode="train", transform=None, download=True,
                 backend=None):
        super().__init__(data_file, mode, transform, download, backend)

    def _init_url_md5_flag(self):
        self.data_url, self.data_md5 = CIFAR100_URL, CIFAR100_MD5
        self.flag = MODE_FLAG_MAP[self.mode + "100"]
