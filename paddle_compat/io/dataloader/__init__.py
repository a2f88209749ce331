"""``paddle.io.DataLoader`` on ``torch.utils.data.DataLoader``.

Paddle's batching rules, torch's machinery: our samplers produce the index lists, torch runs
the loop (and the worker processes when ``num_workers > 0``), and batches arrive as
paddle_compat Tensors. Collating happens where torch runs it (in the workers): the default
``collate`` stacks numpy arrays, numbers and Tensors into torch tensors (numbers through numpy,
so Python ints give int64 and floats float64, as in Paddle), which torch then hands to the main
process through shared memory; the main process only wraps them (no copy). A user's
``collate_fn`` may return numpy arrays, Tensors or torch tensors anywhere in lists/dicts: they
all arrive as Tensors, tuples as lists, other values as they are (Paddle's flattening rules).
"""
import numbers
from collections.abc import Mapping, Sequence

import numpy as np
import torch
import torch.utils.data as tud

from ...framework.place import current_device
from ...framework.tensor import Tensor, wrap
from ..dataset import IterableDataset
from ..sampler import BatchSampler
from .dataloader_iter import _DataLoaderIterMultiProcess, _DataLoaderIterSingleProcess

__all__ = ["DataLoader", "default_collate_fn", "default_convert_fn", "get_worker_info",
           "WorkerInfo"]


# ---------------------------------------------------------------------- collating
def default_collate_fn(batch):
    """Stack a list of samples field by field: arrays, numbers and Tensors become one torch
    tensor each (wrapped as Tensors by the loader); strings stay lists; dicts and sequences
    recurse."""
    sample = batch[0]
    if isinstance(sample, np.ndarray):
        return torch.from_numpy(np.stack(batch, axis=0))
    if isinstance(sample, Tensor):
        return torch.stack([b._t for b in batch], 0)
    if isinstance(sample, torch.Tensor):
        return torch.stack(batch, 0)
    if isinstance(sample, numbers.Number):
        return torch.from_numpy(np.array(batch))
    if isinstance(sample, (str, bytes)):
        return batch
    if isinstance(sample, Mapping):
        return {key: default_collate_fn([d[key] for d in batch]) for key in sample}
    if isinstance(sample, Sequence):
        n = len(sample)
        if not all(len(s) == n for s in batch):
            raise RuntimeError("fields number not same among samples in a batch")
        return [default_collate_fn(list(fields)) for fields in zip(*batch)]
    raise TypeError("batch data con only contains: tensor, numpy.ndarray, dict, list, number, "
                    f"but got {type(sample)}")


def default_convert_fn(sample):
    """One sample as it is (``batch_size=None``): its arrays and Tensors become Tensors."""
    return _to_torch(sample)


def _to_torch(obj):
    """Arrays and Tensors anywhere in lists/tuples/dicts as torch tensors (tuples as lists)."""
    if isinstance(obj, torch.Tensor):
        return obj
    if isinstance(obj, Tensor):
        return obj._t
    if isinstance(obj, np.ndarray):
        return torch.from_numpy(obj) if obj.dtype != np.uint16 else \
            torch.from_numpy(obj.view(np.int16)).view(torch.bfloat16)
    if isinstance(obj, (str, bytes)):
        return obj
    if isinstance(obj, Mapping):
        return {k: _to_torch(v) for k, v in obj.items()}
    if isinstance(obj, Sequence):
        return [_to_torch(v) for v in obj]
    return obj


def _to_tensors(obj, device):
    """The main process's half: wrap the torch tensors (moved to the current device)."""
    if isinstance(obj, torch.Tensor):
        if device.type != "cpu":
            obj = obj.to(device, non_blocking=True)
        return wrap(obj)
    if isinstance(obj, list):
        return [_to_tensors(v, device) for v in obj]
    if isinstance(obj, dict):
        return {k: _to_tensors(v, device) for k, v in obj.items()}
    return obj


class _Collate:
    """What the workers run: the user's (or the default) collate, then arrays to torch."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, batch):
        return _to_torch(self.fn(batch))


# ---------------------------------------------------------------------- workers
class WorkerInfo:
    """What ``get_worker_info()`` tells a worker: ``id``, ``num_workers``, ``seed`` and its
    copy of the ``dataset``."""

    def __init__(self, id, num_workers, seed, dataset):
        self.id, self.num_workers, self.seed, self.dataset = id, num_workers, seed, dataset

    def __repr__(self):
        return f"WorkerInfo(id={self.id}, num_workers={self.num_workers})"


def get_worker_info():
    """The current worker's ``WorkerInfo`` inside a DataLoader worker process, else None."""
    info = tud.get_worker_info()
    if info is None:
        return None
    ds = info.dataset
    return WorkerInfo(info.id, info.num_workers, info.seed, getattr(ds, "dataset", ds))


class _Stream(tud.IterableDataset):
    """A paddle IterableDataset as torch sees it."""

    def __init__(self, dataset):
        self.dataset = dataset

    def __iter__(self):
        return iter(self.dataset)


# ---------------------------------------------------------------------- the loader
class DataLoader:
    """Iterate ``dataset`` in batches of Tensors (see the module docstring).

    ``batch_size``/``shuffle``/``drop_last`` build a ``BatchSampler`` unless ``batch_sampler``
    is given; ``batch_size=None`` yields single samples. ``num_workers > 0`` loads in worker
    processes. ``feed_list``, ``places``, ``use_buffer_reader``, ``use_shared_memory``,
    ``reader_buffer_size`` are accepted for compatibility (torch's loader does their job)."""

    def __init__(self, dataset, feed_list=None, places=None, return_list=True,
                 batch_sampler=None, batch_size=1, shuffle=False, drop_last=False,
                 collate_fn=None, num_workers=0, use_buffer_reader=True, reader_buffer_size=2,
                 prefetch_factor=2, use_shared_memory=True, timeout=0, worker_init_fn=None,
                 persistent_workers=False):
        self.dataset = dataset
        self.return_list = return_list
        self.collate_fn = collate_fn
        self.feed_list = feed_list
        self.places = places
        assert num_workers >= 0, "num_workers should be a non-negative value"
        assert prefetch_factor > 0, "prefetch_factor should be a positive value"
        assert timeout >= 0, "timeout should be a non-negative value"
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.use_shared_memory = use_shared_memory and num_workers > 0
        self._persistent_workers = persistent_workers
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle:
                raise ValueError(
                    f"IterableDataset not support shuffle, but got shuffle={shuffle}")
            if batch_sampler is not None:
                raise ValueError("IterableDataset expect unspecified batch_sampler")
        if batch_sampler is not None:
            assert batch_size == 1 and not shuffle and not drop_last, \
                "batch_size/shuffle/drop_last should not be set when batch_sampler is given"
            self.batch_sampler = batch_sampler
            self.batch_size = None
        elif batch_size is None:
            self.batch_sampler = None
            self.batch_size = None
        else:
            assert batch_size > 0, \
                "batch_size should be None or a positive value when batch_sampler is not given"
            self.batch_size = batch_size
            self.batch_sampler = None if self._iterable else BatchSampler(
                dataset=dataset, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
        self.drop_last = drop_last
        self.auto_collate_batch = self.batch_sampler is not None or (
            self._iterable and self.batch_size is not None)
        self._torch_loader = None

    def _build(self):
        batched = self.auto_collate_batch
        fn = self.collate_fn or (default_collate_fn if batched else default_convert_fn)
        kw = dict(num_workers=self.num_workers, collate_fn=_Collate(fn),
                  worker_init_fn=self.worker_init_fn, timeout=self.timeout,
                  pin_memory=current_device().type == "cuda")
        if self.num_workers > 0:
            kw.update(prefetch_factor=self.prefetch_factor,
                      persistent_workers=self._persistent_workers)
        if self._iterable:
            return tud.DataLoader(_Stream(self.dataset), batch_size=self.batch_size,
                                  drop_last=self.drop_last, **kw)
        if self.batch_sampler is not None:
            return tud.DataLoader(self.dataset, batch_sampler=self.batch_sampler, **kw)
        return tud.DataLoader(self.dataset, batch_size=None,
                              sampler=range(len(self.dataset)), **kw)

    def __iter__(self):
        if self.num_workers > 0:
            return _DataLoaderIterMultiProcess(self)
        return _DataLoaderIterSingleProcess(self)

    def _batches(self):
        """The batches as Tensors (what the iterators of ``dataloader_iter`` hand out)."""
        if self._torch_loader is None or not self._persistent_workers:
            self._torch_loader = self._build()
        device = current_device()
        for batch in self._torch_loader:
            yield _to_tensors(batch, device)

    def __call__(self):
        return self.__iter__()

    def __len__(self):
        if self._iterable:
            raise ValueError("length of IterableDataset not supported")
        if self.auto_collate_batch:
            return len(self.batch_sampler)
        return len(self.dataset)
