"""Datasets of ``paddle.io``: map-style ``Dataset``, streaming ``IterableDataset`` and the
combinators (``TensorDataset``, ``ComposeDataset``, ``ChainDataset``, ``ConcatDataset``,
``Subset``, ``random_split``). Plain Python, as in Paddle; nothing here touches torch."""
import bisect
import math
import warnings
from ..ops.random import randperm
from ..static.mode import in_dynamic_mode

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "ConcatDataset", "Subset", "random_split"]


class Dataset:
    """A map-style dataset: subclasses implement ``__getitem__`` and ``__len__``."""

    def __init__(self):
        pass

    def __getitem__(self, idx):
        raise NotImplementedError(f"'__getitem__' not implement in class {type(self).__name__}")

    def __len__(self):
        raise NotImplementedError(f"'__len__' not implement in class {type(self).__name__}")


class IterableDataset(Dataset):
    """A stream of samples: subclasses implement ``__iter__`` (split the stream per worker with
    ``get_worker_info()``)."""

    def __init__(self):
        pass

    def __iter__(self):
        raise NotImplementedError(f"'__iter__' not implement in class {type(self).__name__}")

    def __getitem__(self, idx):
        raise RuntimeError(f"'__getitem__' should not be called for IterableDataset"
                           f"{type(self).__name__}")

    def __len__(self):
        raise RuntimeError(f"'__len__' should not be called for IterableDataset"
                           f"{type(self).__name__}")


class TensorDataset(Dataset):
    """Samples are the rows of the given Tensors (equal first dimensions)."""

    def __init__(self, tensors):
        if not in_dynamic_mode():
            raise RuntimeError("TensorDataset con only be used in imperative mode")
        assert all(t.shape[0] == tensors[0].shape[0] for t in tensors), \
            "tensors not have same shape of the 1st dimension"
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


def _as_list(value):
    if isinstance(value, list):
        return value
    if isinstance(value, tuple):
        return list(value)
    return [value]


class ComposeDataset(Dataset):
    """Zips map-style datasets of one length: sample ``i`` is the tuple of their fields."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "input datasets should not be empty"
        for i, d in enumerate(self.datasets):
            assert isinstance(d, Dataset), "each input dataset should be paddle.io.Dataset"
            assert not isinstance(d, IterableDataset), "paddle.io.IterableDataset not supported"
            if i > 0:
                assert len(d) == len(self.datasets[i - 1]), \
                    "lengths of datasets should be same"

    def __len__(self):
        return len(self.datasets[0])

    def __getitem__(self, idx):
        sample = []
        for d in self.datasets:
            sample.extend(_as_list(d[idx]))
        return tuple(sample)


class ChainDataset(IterableDataset):
    """Streams the given iterable datasets one after another."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "input datasets should not be empty"
        for d in self.datasets:
            assert isinstance(d, IterableDataset), "ChainDataset only support paddle.io.IterableDataset"

    def __iter__(self):
        for d in self.datasets:
            yield from d


class ConcatDataset(Dataset):
    """Map-style datasets end to end."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "datasets should not be an empty iterable"
        for d in self.datasets:
            assert not isinstance(d, IterableDataset), \
                "ConcatDataset does not support IterableDataset"
        self.cumulative_sizes = []
        total = 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        i = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[i - 1] if i else 0
        return self.datasets[i][idx - start]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


def random_split(dataset, lengths, generator=None):
    """Split ``dataset`` into ``Subset``s of the given lengths (or fractions summing to 1), in an
    order drawn from ``paddle.randperm`` (so ``paddle.seed`` fixes it)."""
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            sizes.append(int(math.floor(len(dataset) * frac)))
        for i in range(len(dataset) - sum(sizes)):
            sizes[i % len(sizes)] += 1
        lengths = sizes
        for i, n in enumerate(lengths):
            if n == 0:
                warnings.warn(f"Length of split at index {i} is 0. "
                              "This might result in an empty dataset.")
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = randperm(sum(lengths)).tolist()
    out, offset = [], 0
    for n in lengths:
        out.append(Subset(dataset, order[offset:offset + n]))
        offset += n
    return out
