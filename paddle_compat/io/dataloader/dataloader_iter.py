"""``paddle.io.dataloader.dataloader_iter``: what ``iter(DataLoader)`` returns. Libraries read
the loader's settings back from it (``_dataset``, ``_batch_sampler`` ...) and test
``isinstance(x, _DataLoaderIterBase)``; the batches come from the loader's torch machinery."""

__all__ = []


class _DataLoaderIterBase:
    """One pass over a DataLoader: its settings under Paddle's private names, then its
    batches (``next``); ``len`` is the loader's."""

    def __init__(self, loader):
        self._loader = loader
        self._dataset = loader.dataset
        self._feed_list = loader.feed_list or []
        self._places = loader.places
        self._return_list = loader.return_list
        self._batch_sampler = loader.batch_sampler
        self._drop_last = loader.drop_last
        self._auto_collate_batch = loader.auto_collate_batch
        self._num_workers = loader.num_workers
        self._prefetch_factor = loader.prefetch_factor
        self._use_shared_memory = loader.use_shared_memory
        self._timeout = loader.timeout
        self._worker_init_fn = loader.worker_init_fn
        self._collate_fn = loader.collate_fn
        self._batches = loader._batches()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._batches)

    def __len__(self):
        return len(self._loader)


class _DataLoaderIterSingleProcess(_DataLoaderIterBase):
    """The iterator of a loader without worker processes."""


class _DataLoaderIterMultiProcess(_DataLoaderIterBase):
    """The iterator of a loader with ``num_workers > 0`` worker processes."""
