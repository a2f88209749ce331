"""``Flowers`` (Oxford 102 Flowers) from Paddle's files: ``102flowers.tgz``
(``jpg/image_NNNNN.jpg``), ``imagelabels.mat`` (``labels``) and ``setid.mat`` (``trnid``, ``valid``, ``tstid``).

The ``.mat`` files are MATLAB 5 files of numeric matrices, read here without scipy
(``_files.loadmat``); scipy is used only if installed and a file holds something else.
"""
import os
import tarfile

import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from .. import image as _image
from ._files import check_exists_and_download, loadmat
from .mnist import _check_backend

__all__ = ["Flowers"]

DATA_URL = "http://paddlemodels.bj.bcebos.com/flowers/102flowers.tgz"
LABEL_URL = "http://paddlemodels.bj.bcebos.com/flowers/imagelabels.mat"
SETID_URL = "http://paddlemodels.bj.bcebos.com/flowers/setid.mat"
DATA_MD5 = "52808999861908f626f3c1f4e79d11fa"
LABEL_MD5 = "e0620be6f572b9609742df49c70aed4d"
SETID_MD5 = "a5357ecc9cb78c4bef273ce3793fc85c"

#: which index list of setid.mat a mode reads (Paddle trains on the large 'tstid' list)
MODE_FLAG_MAP = {"train": "tstid", "test": "trnid", "valid": "valid"}


def _extract(tar, dest):
    try:
        tar.extractall(dest, filter="data")
    except TypeError:  # Python without extraction filters
        for m in tar.getmembers():
            target = os.path.realpath(os.path.join(dest, m.name))
            if not target.startswith(os.path.realpath(dest) + os.sep) or m.issym() or m.islnk():
                raise RuntimeError(f"unsafe member {m.name!r} in the flowers archive") from None
        tar.extractall(dest)


class Flowers(Dataset):
    """Oxford 102 Flowers: ``dataset[i]`` is ``(image, label)``, ``label`` an int64 array of
    shape [1] (1..102). With backend 'pil' the image is the opened JPEG (``PIL.Image``); with
    'cv2' an RGB ``HxWx3`` array of the default float dtype, after ``transform``.

    The archive is unpacked once next to itself (``102flowers.tgz`` -> ``102flowers/jpg``).

    Args:
        data_file, label_file, setid_file (str, optional): the three files; None (and
            ``download``) takes them from Paddle's cache ``~/.cache/paddle/dataset/flowers``
            (nothing is downloaded: a missing file raises RuntimeError saying where to put it).
        mode (str): 'train', 'valid' or 'test'.
        transform (callable, optional): applied to each image.
        download (bool): allow the cache look-up for missing paths.
        backend (str, optional): 'pil' or 'cv2'; ``paddle.vision.get_image_backend()`` if None.
    """

    def __init__(self, data_file=None, label_file=None, setid_file=None, mode="train",
                 transform=None, download=True, backend=None):
        assert mode.lower() in ["train", "valid", "test"], \
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        self.backend = _check_backend(backend)
        flag = MODE_FLAG_MAP[mode.lower()]
        if not data_file:
            assert download, "data_file is not set and downloading automatically is disabled"
            data_file = check_exists_and_download(data_file, DATA_URL, DATA_MD5, "flowers",
                                                  download)
        if not label_file:
            assert download, "label_file is not set and downloading automatically is disabled"
            label_file = check_exists_and_download(label_file, LABEL_URL, LABEL_MD5, "flowers",
                                                   download)
        if not setid_file:
            assert download, "setid_file is not set and downloading automatically is disabled"
            setid_file = check_exists_and_download(setid_file, SETID_URL, SETID_MD5, "flowers",
                                                   download)
        self.transform = transform
        self.data_path = data_file.replace(".tgz", "/")
        if not os.path.exists(self.data_path):
            os.mkdir(self.data_path)
        if not os.path.exists(os.path.join(self.data_path, "jpg")):
            with tarfile.open(data_file) as tar:
                _extract(tar, self.data_path)
        self.labels = loadmat(label_file)["labels"][0]
        self.indexes = loadmat(setid_file)[flag][0]

    def __getitem__(self, idx):
        index = self.indexes[idx]
        label = np.array([self.labels[index - 1]])
        path = os.path.join(self.data_path, f"jpg/image_{index:05}.jpg")
        Image = _image._module("PIL.Image", "pillow")
        image = Image.open(path)
        if self.backend == "cv2":
            image = np.array(image)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(get_default_dtype()), label.astype("int64")

    def __len__(self):
        return len(self.indexes)
