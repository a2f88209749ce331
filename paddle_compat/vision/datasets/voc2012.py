"""``VOC2012`` (the segmentation split) read straight from Paddle's
``VOCtrainval_11-May-2012.tar``: ``dataset[i]`` is the JPEG image and its PNG class map."""
import io
import tarfile

import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from .. import image as _image
from ._files import check_exists_and_download
from .mnist import _check_backend

__all__ = ["VOC2012"]

VOC_URL = "https://dataset.bj.bcebos.com/voc/VOCtrainval_11-May-2012.tar"
VOC_MD5 = "6cd6e144f989b92b3379bac3b3de84fd"
SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
CACHE_DIR = "voc2012"

#: which list of ImageSets/Segmentation a mode reads
MODE_FLAG_MAP = {"train": "trainval", "test": "train", "valid": "val"}


class VOC2012(Dataset):
    """PASCAL VOC 2012 segmentation: ``dataset[i]`` is ``(image, label)``. With backend 'pil'
    both are ``PIL.Image`` (the RGB photo, the palette class map); with 'cv2' both are arrays
    of the default float dtype (``HxWx3`` and ``HxW``), the image after ``transform``.

    Args:
        data_file (str, optional): the VOC tar; None (and ``download``) takes it from Paddle's
            cache ``~/.cache/paddle/dataset/voc2012`` (nothing is downloaded: a missing file
            raises RuntimeError saying where to put it).
        mode (str): 'train' (list ``trainval``), 'valid' (``val``) or 'test' (``train``).
        transform (callable, optional): applied to each image (not to the label).
        download (bool): allow the cache look-up when ``data_file`` is None.
        backend (str, optional): 'pil' or 'cv2'; ``paddle.vision.get_image_backend()`` if None.
    """

    data_tar = None

    def __init__(self, data_file=None, mode="train", transform=None, download=True,
                 backend=None):
        assert mode.lower() in ["train", "valid", "test"], \
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        self.backend = _check_backend(backend)
        self.flag = MODE_FLAG_MAP[mode.lower()]
        self.data_file = data_file
        if self.data_file is None:
            assert download, "data_file is not set and downloading automatically is disabled"
            self.data_file = check_exists_and_download(data_file, VOC_URL, VOC_MD5, CACHE_DIR,
                                                       download)
        self.transform = transform
        self._load_anno()
        self.dtype = get_default_dtype()

    def _load_anno(self):
        self.data_tar = tarfile.open(self.data_file)
        self.name2mem = {m.name: m for m in self.data_tar.getmembers()}
        listing = self.data_tar.extractfile(self.name2mem[SET_FILE.format(self.flag)])
        self.data, self.labels = [], []
        for line in listing:
            name = line.strip().decode("utf-8")
            self.data.append(DATA_FILE.format(name))
            self.labels.append(LABEL_FILE.format(name))

    def __getitem__(self, idx):
        Image = _image._module("PIL.Image", "pillow")
        raw_data = self.data_tar.extractfile(self.name2mem[self.data[idx]]).read()
        raw_label = self.data_tar.extractfile(self.name2mem[self.labels[idx]]).read()
        data = Image.open(io.BytesIO(raw_data))
        label = Image.open(io.BytesIO(raw_label))
        if self.backend == "cv2":
            data, label = np.array(data), np.array(label)
        if self.transform is not None:
            data = self.transform(data)
        if self.backend == "cv2":
            return data.astype(self.dtype), label.astype(self.dtype)
        return data, label

    def __len__(self):
        return len(self.data)

    def __del__(self):
        if self.data_tar is not None:
            self.data_tar.close()
