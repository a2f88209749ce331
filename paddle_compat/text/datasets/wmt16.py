"""``WMT16``: Paddle's English-German Multi30k set of WMT'16 (``wmt16.tar.gz``: ``wmt16/train``,
``wmt16/test``, ``wmt16/val``, tab-separated English and German sentences).

The word dictionaries are built from ``wmt16/train`` on first use and written, as Paddle does,
to ``<DATA_HOME>/wmt16/<lang>_<size>.dict`` (``~/.cache/paddle/dataset/wmt16``), where later
runs -- ours or Paddle's -- read them. Like Paddle, both dictionaries are counted over the
*source* language's column (the ``lang`` column), and every id falls back on the source
dictionary's ``<unk>``; this keeps ids equal to Paddle's and its cached dictionaries usable.
"""
import os
import tarfile
from collections import defaultdict

import numpy as np

from ...io import Dataset
from . import _common

__all__ = ["WMT16"]

DATA_URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"
DATA_MD5 = "0c38be43600334966403524a40dcd81e"
TOTAL_EN_WORDS = 11250
TOTAL_DE_WORDS = 19220
START_MARK = "<s>"
END_MARK = "<e>"
UNK_MARK = "<unk>"


class WMT16(Dataset):
    """``dataset[i]`` is ``(source ids, target ids, next target ids)``: the source wrapped in
    ``<s> ... <e>``, the target after ``<s>``, and the target followed by ``<e>``; lines
    without exactly one tab are skipped.

    Args:
        data_file (str, optional): ``wmt16.tar.gz``; None (and ``download``) takes it from
            ``~/.cache/paddle/dataset/wmt16`` (nothing is downloaded: a missing file raises
            RuntimeError saying where to put it).
        mode (str): 'train', 'test' or 'val'.
        src_dict_size, trg_dict_size (int): dictionary sizes (positive; the three marks
            included).
        lang (str): the source language, 'en' or 'de'.
        download (bool): allow the cache look-up when ``data_file`` is None.
    """

    def __init__(self, data_file=None, mode="train", src_dict_size=-1, trg_dict_size=-1,
                 lang="en", download=True):
        assert mode.lower() in ["train", "test", "val"], \
            f"mode should be 'train', 'test' or 'val', but got {mode}"
        self.mode = mode.lower()
        self.data_file = data_file
        if self.data_file is None:
            assert download, "data_file is not set and downloading automatically is disabled"
            self.data_file = _common.check_exists_and_download(data_file, DATA_URL, DATA_MD5,
                                                               "wmt16", download)
        self.lang = lang
        assert src_dict_size > 0, "dict_size should be set as positive number"
        assert trg_dict_size > 0, "dict_size should be set as positive number"
        en = lang == "en"
        self.src_dict_size = min(src_dict_size, TOTAL_EN_WORDS if en else TOTAL_DE_WORDS)
        self.trg_dict_size = min(trg_dict_size, TOTAL_DE_WORDS if en else TOTAL_EN_WORDS)
        self.src_dict = self._load_dict(lang, src_dict_size)
        self.trg_dict = self._load_dict("de" if en else "en", trg_dict_size)
        self.data = self._load_data()

    @staticmethod
    def _dict_path(lang, dict_size):
        return os.path.join(_common.DATA_HOME, "wmt16", f"{lang}_{dict_size}.dict")

    def _load_dict(self, lang, dict_size, reverse=False):
        path = self._dict_path(lang, dict_size)
        found = False
        if os.path.exists(path):
            with open(path, "rb") as f:
                found = len(f.readlines()) == dict_size
        if not found:
            self._build_dict(path, dict_size, lang)
        with open(path, "rb") as f:
            words = [line.strip().decode() for line in f]
        if reverse:
            return dict(enumerate(words))
        return {w: i for i, w in enumerate(words)}

    def _build_dict(self, dict_path, dict_size, lang):
        counts = defaultdict(int)
        col = 0 if self.lang == "en" else 1  # Paddle counts the source column for both
        with tarfile.open(self.data_file, mode="r") as tar:
            for line in tar.extractfile("wmt16/train"):
                parts = line.decode().strip().split("\t")
                if len(parts) != 2:
                    continue
                for w in parts[col].split():
                    counts[w] += 1
        os.makedirs(os.path.dirname(dict_path), exist_ok=True)
        ranked = sorted(counts.items(), key=lambda kv: kv[1], reverse=True)
        with open(dict_path, "wb") as out:
            out.write(f"{START_MARK}\n{END_MARK}\n{UNK_MARK}\n".encode())
            for i, (word, _) in enumerate(ranked):
                if i + 3 == dict_size:
                    break
                out.write(word.encode() + b"\n")

    def _load_data(self):
        start, end, unk = (self.src_dict[m] for m in (START_MARK, END_MARK, UNK_MARK))
        src_col = 0 if self.lang == "en" else 1
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as tar:
            for line in tar.extractfile(f"wmt16/{self.mode}"):
                parts = line.decode().strip().split("\t")
                if len(parts) != 2:
                    continue
                src = [self.src_dict.get(w, unk) for w in parts[src_col].split()]
                trg = [self.trg_dict.get(w, unk) for w in parts[1 - src_col].split()]
                self.src_ids.append([start, *src, end])
                self.trg_ids.append([start, *trg])
                self.trg_ids_next.append([*trg, end])

    def __getitem__(self, idx):
        return (np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]),
                np.array(self.trg_ids_next[idx]))

    def __len__(self):
        return len(self.src_ids)

    def get_dict(self, lang, reverse=False):
        """The dictionary of ``lang`` ('en' or 'de'): word -> id, or id -> word when
        ``reverse`` (Paddle 3.3.1 ignores ``reverse``; it is honoured here)."""
        size = self.src_dict_size if lang == self.lang else self.trg_dict_size
        path = self._dict_path(lang, size)
        assert os.path.exists(path), ("Word dictionary does not exist. Build the dataset first "
                                      "to write the dictionary.")
        return self._load_dict(lang, size, reverse)
