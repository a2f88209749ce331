"""``Imdb``: the IMDB movie-review sentiment set from ``aclImdb_v1.tar.gz``, as word ids."""
import collections
import re
import string
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_exists_and_download

__all__ = ["Imdb"]

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"
MD5 = "7c2ac02c03563afcf9b574c7e56c153a"

_PUNCTUATION = string.punctuation.encode("latin-1")


class Imdb(Dataset):
    """``dataset[i]`` is ``(word ids, label [1])``: label 0 for a review under ``pos/``, 1 for
    one under ``neg/`` (positive reviews first, in archive order).

    The vocabulary (``word_idx``, bytes words -> id) holds the words seen more than
    ``cutoff`` times over all of ``aclImdb/{train,test}/{pos,neg}/*.txt``, by falling count
    then word, and ``'<unk>'`` last. A review is lower-cased, stripped of ASCII punctuation
    and split on whitespace.

    Args:
        data_file (str, optional): the ``aclImdb`` tar; None (and ``download``) takes it from
            ``~/.cache/paddle/dataset/imdb`` (nothing is downloaded: a missing file raises
            RuntimeError saying where to put it).
        mode (str): 'train' or 'test'.
        cutoff (int): minimum count (exclusive) for a word to get its own id.
        download (bool): allow the cache look-up when ``data_file`` is None.
    """

    def __init__(self, data_file=None, mode="train", cutoff=150, download=True):
        assert mode.lower() in ["train", "test"], \
            f"mode should be 'train', 'test', but got {mode}"
        self.mode = mode.lower()
        self.data_file = data_file
        if self.data_file is None:
            assert download, "data_file is not set and downloading automatically is disabled"
            self.data_file = check_exists_and_download(data_file, URL, MD5, "imdb", download)
        self.word_idx = self._build_work_dict(cutoff)
        self._load_anno()

    def _build_work_dict(self, cutoff):
        freq = collections.defaultdict(int)
        for doc in self._tokenize(re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")):
            for word in doc:
                freq[word] += 1
        kept = sorted((kv for kv in freq.items() if kv[1] > cutoff), key=lambda kv: (-kv[1], kv[0]))
        word_idx = {w: i for i, (w, _) in enumerate(kept)}
        if not kept:  # Paddle fails here too (unpacking an empty vocabulary)
            raise ValueError(f"no word occurs more than cutoff={cutoff} times")
        word_idx["<unk>"] = len(kept)
        return word_idx

    def _tokenize(self, pattern):
        docs = []
        with tarfile.open(self.data_file) as tar:
            member = tar.next()
            while member is not None:
                if pattern.match(member.name):
                    text = tar.extractfile(member).read().rstrip(b"\n\r")
                    docs.append(text.translate(None, _PUNCTUATION).lower().split())
                member = tar.next()
        return docs

    def _load_anno(self):
        unk = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, kind in ((0, "pos"), (1, "neg")):
            for doc in self._tokenize(re.compile(rf"aclImdb/{self.mode}/{kind}/.*\.txt$")):
                self.docs.append([self.word_idx.get(w, unk) for w in doc])
                self.labels.append(label)

    def __getitem__(self, idx):
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self):
        return len(self.docs)
