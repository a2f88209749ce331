"""Samplers of ``paddle.io``: index orders and their batching.

As in Paddle, shuffling draws from **numpy's global RNG** (``np.random.seed`` fixes the order;
``paddle.seed`` does not), and ``DistributedBatchSampler`` shuffles with
``np.random.RandomState(epoch)``, so every rank sees the same permutation.
"""
import math

import numpy as np

from .dataset import IterableDataset
from ..ops.random import randperm

__all__ = ["Sampler", "SequenceSampler", "RandomSampler", "WeightedRandomSampler",
           "SubsetRandomSampler", "BatchSampler", "DistributedBatchSampler"]


class Sampler:
    """Base of the index samplers: subclasses implement ``__iter__`` (and ``__len__``)."""

    def __init__(self, data_source=None):
        self.data_source = data_source

    def __iter__(self):
        raise NotImplementedError


class SequenceSampler(Sampler):
    """0, 1, ... len(data_source) - 1."""

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order of the indices (or ``num_samples`` draws with ``replacement``), from
    numpy's global RNG; a ``generator`` given is iterated instead."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError("expect boolean value for replacement, but got "
                            f"replacement={replacement}")
        if not replacement and self.num_samples > len(data_source):
            raise ValueError(
                "num_samples should be smaller than or equal to length of data_source when "
                f"replacement is False, but got num_samples: {self.num_samples} > data_source: "
                f"{len(data_source)}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        if self.generator:
            for _ in range(self.num_samples):
                try:
                    yield next(self.generator)
                except StopIteration:
                    return
        else:
            n = len(self.data_source)
            yield from np.random.choice(np.arange(n), self.num_samples,
                                        replace=self.replacement).tolist()

    def __len__(self):
        return self.num_samples


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights`` (numpy's
    global RNG)."""

    def __init__(self, weights, num_samples, replacement=True):
        if not isinstance(num_samples, int) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement

    def __iter__(self):
        w = self.weights
        w = np.asarray(w.numpy() if hasattr(w, "numpy") else w, dtype=np.float64)
        w = w.reshape((-1, w.shape[-1]))
        assert np.all(w >= 0.0), "weights should be positive value"
        assert not np.any(w == np.inf), "weights should not be INF"
        positive = np.sum(w > 0.0, axis=1)
        assert np.all(positive > 0), "weights should have positive values"
        if not self.replacement:
            assert np.all(positive >= self.num_samples), \
                "weights positive value number should not less than num_samples when replacement=False"
        w = w / w.sum(axis=1)
        rows = [np.random.choice(w.shape[1], self.num_samples, self.replacement, w[i])
                for i in range(w.shape[0])]
        yield from np.array(rows).reshape([-1]).tolist()

    def __len__(self):
        return self.num_samples * int(np.prod(np.shape(self.weights)[:-1] or [1]))


class SubsetRandomSampler(Sampler):
    """The given indices in an order from ``paddle.randperm``."""

    def __init__(self, indices):
        if len(indices) == 0:
            raise ValueError("The length of `indices` in SubsetRandomSampler should be greater "
                             "than 0.")
        self.indices = indices

    def __iter__(self):
        for i in randperm(len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


def _batches(indices, batch_size, drop_last):
    batch = []
    for i in indices:
        batch.append(i)
        if len(batch) == batch_size:
            yield batch
            batch = []
    if batch and not drop_last:
        yield batch


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler`` (or from a sequence / random sampler over
    ``dataset``); ``drop_last`` drops a short last batch."""

    def __init__(self, dataset=None, sampler=None, shuffle=False, batch_size=1, drop_last=False):
        if dataset is None:
            assert sampler is not None, "either dataset or sampler should be set"
            assert isinstance(sampler, Sampler) or hasattr(sampler, "__iter__"), \
                f"sampler should be either paddle.io.Sampler or Iterable, but got {type(sampler)}"
            assert not shuffle, "shuffle should be False when sampler is set"
            self.sampler = sampler
        else:
            assert not isinstance(dataset, IterableDataset), \
                "dataset should not be a paddle.io.IterableDataset"
            assert sampler is None, "should not set both dataset and sampler"
            assert isinstance(shuffle, bool), \
                f"shuffle should be a boolean value, but got {type(shuffle)}"
            self.sampler = RandomSampler(dataset) if shuffle else SequenceSampler(dataset)
        assert isinstance(batch_size, int) and batch_size > 0, \
            f"batch_size should be a positive integer, but got {batch_size}"
        self.batch_size = batch_size
        self.shuffle = shuffle
        assert isinstance(drop_last, bool), \
            f"drop_last should be a boolean value, but got {type(drop_last)}"
        self.drop_last = drop_last

    def __iter__(self):
        return _batches(self.sampler, self.batch_size, self.drop_last)

    def __len__(self):
        n = len(self.sampler) + (0 if self.drop_last else self.batch_size - 1)
        return n // self.batch_size


class DistributedBatchSampler(BatchSampler):
    """This rank's share of the batches: the index list is padded (by repeating it) to a multiple
    of ``num_replicas``, shuffled per epoch with ``RandomState(epoch)``, then dealt out
    ``batch_size`` indices per rank in turn."""

    def __init__(self, dataset, batch_size, num_replicas=None, rank=None, shuffle=False,
                 drop_last=False):
        self.dataset = dataset
        assert isinstance(batch_size, int) and batch_size > 0, \
            "batch_size should be a positive integer"
        self.batch_size = batch_size
        assert isinstance(shuffle, bool), "shuffle should be a boolean value"
        self.shuffle = shuffle
        assert isinstance(drop_last, bool), "drop_last should be a boolean number"
        if num_replicas is not None:
            assert isinstance(num_replicas, int) and num_replicas > 0, \
                "num_replicas should be a positive integer"
            self.nranks = num_replicas
        else:
            self.nranks = _env_int("PADDLE_TRAINERS_NUM", 1)
        if rank is not None:
            assert isinstance(rank, int) and rank >= 0, "rank should be a non-negative integer"
            self.local_rank = rank
        else:
            self.local_rank = _env_int("PADDLE_TRAINER_ID", 0)
        self.drop_last = drop_last
        self.epoch = 0
        self.num_samples = int(math.ceil(len(self.dataset) * 1.0 / self.nranks))
        self.total_size = self.num_samples * self.nranks

    def __iter__(self):
        indices = list(range(len(self.dataset)))
        pad = self.total_size - len(indices)
        if pad <= len(indices):
            indices += indices[:pad]
        else:
            indices += (indices * math.ceil(pad / len(indices)))[:pad]
        assert len(indices) == self.total_size
        if self.shuffle:
            np.random.RandomState(self.epoch).shuffle(indices)
            self.epoch += 1
        if self.nranks > 1:
            indices = self._this_rank(indices)
        assert len(indices) == self.num_samples
        return _batches(indices, self.batch_size, self.drop_last)

    def _this_rank(self, indices):
        bs, nr, r = self.batch_size, self.nranks, self.local_rank
        tail = self.total_size % (bs * nr)
        assert tail % nr == 0
        tail_each = tail // nr
        mine = []
        for i in range(r * bs, len(indices) - tail, bs * nr):
            mine.extend(indices[i:i + bs])
        rest = indices[len(indices) - tail:]
        mine.extend(rest[r * tail_each:(r + 1) * tail_each])
        return mine

    def __len__(self):
        n = self.num_samples + (0 if self.drop_last else self.batch_size - 1)
        return n // self.batch_size

    def set_epoch(self, epoch):
        """Seed the next epoch's shuffle (call it with the epoch number each epoch)."""
        self.epoch = epoch


def _env_int(name, default):
    import os
    return int(os.environ.get(name, default))
