"""paddle.io against Paddle 3.3.1 goldens (tests/goldens/amp_io.json, "io"): samplers (numpy's
global RNG drives shuffling, as in Paddle), DistributedBatchSampler's padding and dealing,
DataLoader batches (structure, dtypes, values), worker processes, datasets and errors."""
import json
import os

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat import io as pio
from test_save_load import describe

G = json.load(open(os.path.join(os.path.dirname(__file__), "goldens", "amp_io.json")))["io"]


def caught(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return [type(e).__name__, str(e)]


class RangeDS(pio.Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


class DictDS(pio.Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": np.full([2], i, "float32"), "y": i, "z": float(i), "s": f"a{i}",
                "t": paddle.to_tensor([i])}


class PairDS(pio.Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return np.full([2], i, "float32"), np.array([i % 2], "int64")


class StreamDS(pio.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = pio.get_worker_info()
        lo, hi = 0, self.n
        if info is not None:
            per = -(-self.n // info.num_workers)
            lo, hi = info.id * per, min(info.id * per + per, self.n)
        for i in range(lo, hi):
            yield np.array([i], "int64")


def _json(tree):
    return json.loads(json.dumps(tree))


def test_shuffle_uses_numpys_global_rng():
    for case in G["shuffle"]:
        np.random.seed(case["np_seed"])
        paddle.seed(case["paddle_seed"])
        assert list(pio.BatchSampler(RangeDS(10), shuffle=True, batch_size=4)) == case["batches"]
        assert list(pio.RandomSampler(RangeDS(6))) == case["then"]
    np.random.seed(5)
    assert list(pio.RandomSampler(RangeDS(5), replacement=True, num_samples=8)) == \
        G["random_sampler_replacement"]


@pytest.mark.parametrize("case", G["batch_sampler"], ids=str)
def test_batch_sampler(case):
    s = pio.BatchSampler(RangeDS(case["n"]), batch_size=case["bs"], drop_last=case["drop"])
    assert list(s) == case["out"] and len(s) == case["len"]


@pytest.mark.parametrize("case", G["distributed"],
                         ids=lambda c: "n{n}-bs{bs}-r{rank}of{nranks}-s{shuffle}-d{drop}".format(**c))
def test_distributed_batch_sampler(case):
    s = pio.DistributedBatchSampler(RangeDS(case["n"]), batch_size=case["bs"],
                                    num_replicas=case["nranks"], rank=case["rank"],
                                    shuffle=case["shuffle"], drop_last=case["drop"])
    epochs = [list(s), list(s)]
    s.set_epoch(7)
    epochs.append(list(s))
    assert epochs == case["epochs"]
    assert (len(s), s.num_samples, s.total_size) == \
        (case["len"], case["num_samples"], case["total_size"])


def _loaders():
    return {
        "dict": pio.DataLoader(DictDS(), batch_size=2),
        "pair_drop": pio.DataLoader(PairDS(), batch_size=2, drop_last=True),
        "pair_no_list": pio.DataLoader(PairDS(), batch_size=2, return_list=False),
        "none_batch": pio.DataLoader(PairDS(), batch_size=None),
        "batch_sampler": pio.DataLoader(PairDS(), batch_sampler=pio.BatchSampler(
            RangeDS(5), batch_size=4)),
        "tensor_ds": pio.DataLoader(pio.TensorDataset(
            [paddle.arange(6, dtype="float32").reshape([3, 2]),
             paddle.to_tensor([1, 0, 1])]), batch_size=2),
        "iterable": pio.DataLoader(StreamDS(5), batch_size=2),
        "workers": pio.DataLoader(PairDS(), batch_size=2, num_workers=2),
    }


@pytest.mark.parametrize("name", list(_loaders()))
def test_dataloader_batches(name):
    dl = _loaders()[name]
    g = G["loaders"][name]
    assert [_json(describe(b)) for b in dl] == g["batches"]
    assert (caught(lambda: len(dl)) or len(dl)) == g["len"]


def test_dataloader_shuffle_follows_numpy_seed():
    np.random.seed(2)
    got = [_json(describe(b)) for b in pio.DataLoader(PairDS(), batch_size=2, shuffle=True)]
    assert got == G["loaders"]["shuffled"]["batches"]


def test_iterable_dataset_split_across_workers():
    dl = pio.DataLoader(StreamDS(7), batch_size=1, num_workers=2)
    assert sorted(int(b.numpy()[0, 0]) for b in dl) == G["iterable_workers_sorted"]
    assert (pio.get_worker_info() is None) is G["worker_info_main"]


def test_custom_collate_and_persistent_workers():
    dl = pio.DataLoader(PairDS(), batch_size=2, num_workers=2, persistent_workers=True,
                        collate_fn=lambda b: {"n": len(b), "x": np.stack([s[0] for s in b])})
    for _ in range(2):
        out = list(dl)
        assert [o["n"] for o in out] == [2, 2, 1]
        assert out[0]["x"].dtype == paddle.float32 and out[0]["x"].shape == [2, 2]


def test_datasets():
    paddle.seed(1)
    assert [list(s.indices) for s in pio.random_split(RangeDS(10), [3, 7])] == G["random_split"]
    paddle.seed(2)
    assert [list(s.indices) for s in pio.random_split(RangeDS(7), [0.5, 0.5])] == \
        G["random_split_frac"]
    assert list(pio.Subset(RangeDS(5), [4, 1, 1])) == G["subset"]
    comp = pio.ComposeDataset([PairDS(), PairDS()])
    assert {"len": len(comp), "item": _json(describe(comp[3]))} == G["compose"]
    assert [int(a[0]) for a in pio.ChainDataset([StreamDS(2), StreamDS(3)])] == G["chain"]
    cat = pio.ConcatDataset([RangeDS(2), RangeDS(3)])
    assert [cat[i] for i in range(len(cat))] == [0, 1, 0, 1, 2] and cat[-1] == 2


def test_errors():
    g = G["errors"]
    B = pio.BatchSampler
    got = {
        "iter_shuffle": caught(lambda: pio.DataLoader(StreamDS(3), shuffle=True)),
        "iter_len": caught(lambda: len(pio.DataLoader(StreamDS(3)))),
        "iter_getitem": caught(lambda: StreamDS(3)[0]),
        "iter_ds_len": caught(lambda: len(StreamDS(3))),
        "sampler_shuffle": caught(lambda: B(sampler=[1, 2], shuffle=True)),
        "sampler_none": caught(lambda: B()),
        "bs_zero": caught(lambda: B(RangeDS(3), batch_size=0)),
        "dist_rank": caught(lambda: pio.DistributedBatchSampler(RangeDS(3), 1, num_replicas=2,
                                                                rank=-1)),
        "split_sum": caught(lambda: pio.random_split(RangeDS(3), [1, 1])),
        "tensor_ds": caught(lambda: pio.TensorDataset([paddle.ones([2]), paddle.ones([3])])),
        "base_getitem": caught(lambda: pio.Dataset()[0]),
        "base_len": caught(lambda: len(pio.Dataset())),
        "collate_fields": caught(lambda: pio.default_collate_fn([(1, 2), (1,)])),
    }
    assert got == g
