"""Record Paddle 3.3.1's ``paddle.amp``, ``paddle.save``/``paddle.load`` and ``paddle.io`` as
goldens for tests/test_amp.py, tests/test_save_load.py and tests/test_io.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_amp_io.py

Writes tests/goldens/amp_io.json and the small files Paddle saves under tests/data/paddle/
(``.pdparams``, ``.pdopt``, ``.pdtensor``), with what Paddle itself reads back from them.

CPU Paddle switches both ``auto_cast`` and ``GradScaler`` off (with a warning). The loss-scale
sequences are recorded with the scaler's place check answered "GPU" (only the check; all the
arithmetic runs on Paddle's CPU kernels) and with the AMP dtype set to float16 as an
``auto_cast(dtype='float16')`` on a GPU would leave it.
"""
import contextlib
import io
import json
import math
import os
import warnings

import numpy as np

import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "goldens", "amp_io.json")
DATA = os.path.join(ROOT, "tests", "data", "paddle")
G = {}


def describe(obj):
    """A JSON tree of a loaded object: container kinds, tensor dtypes/shapes/names/values."""
    if isinstance(obj, paddle.Tensor):
        a = obj.astype("float32").numpy() if obj.dtype in (paddle.bfloat16, paddle.float16) \
            else obj.numpy()
        d = {"T": str(obj.dtype).replace("paddle.", ""), "shape": list(obj.shape),
             "v": a.tolist(), "sg": obj.stop_gradient}
        if not obj.name.startswith(("generated_tensor", "eager_in_tmp")):
            d["name"] = obj.name
        return d
    if isinstance(obj, np.ndarray):
        return {"A": str(obj.dtype), "shape": list(obj.shape), "v": obj.tolist()}
    if isinstance(obj, dict):
        return {"D": type(obj).__name__, "items": [[k, describe(v)] for k, v in obj.items()]}
    if isinstance(obj, (list, tuple)):
        return {"L" if isinstance(obj, list) else "U": [describe(v) for v in obj]}
    return {"P": type(obj).__name__, "v": obj}


def caught(fn):
    """Run ``fn``; the exception type and message it raises (or None)."""
    try:
        fn()
    except Exception as e:          # noqa: BLE001  recording whatever Paddle raises
        return [type(e).__name__, str(e)]
    return None


# ---------------------------------------------------------------------- paddle.amp
def record_amp():
    from paddle.amp.auto_cast import _update_list
    g = G["amp"] = {}
    g["supported"] = {"float16": paddle.amp.is_float16_supported(),
                      "bfloat16": paddle.amp.is_bfloat16_supported(),
                      "float16_cpu": paddle.amp.is_float16_supported("cpu"),
                      "bfloat16_cpu": paddle.amp.is_bfloat16_supported("cpu")}
    # What CPU Paddle does under auto_cast: warns and leaves every op in float32.
    cpu = {}
    for dt in ("float16", "bfloat16"):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            x = paddle.ones([2, 2])
            with paddle.amp.auto_cast(dtype=dt):
                out = {"matmul": str((x @ x).dtype), "exp": str(paddle.exp(x).dtype),
                       "add": str((x + x).dtype),
                       "linear": str(paddle.nn.functional.linear(x, x).dtype),
                       "enabled": paddle.amp.is_autocast_enabled(),
                       "dtype": str(paddle.amp.get_autocast_dtype())}
        out["warnings"] = [str(m.message) for m in w]
        cpu[dt] = out
    cpu["enabled_outside"] = paddle.amp.is_autocast_enabled()
    cpu["dtype_outside"] = str(paddle.amp.get_autocast_dtype())
    lin = paddle.nn.Linear(2, 2)
    ln = paddle.nn.LayerNorm(2)
    model = paddle.nn.Sequential(lin, ln)
    m2 = paddle.amp.decorate(model, level="O2", dtype="bfloat16")
    cpu["decorate_O2_bf16"] = [str(p.dtype) for p in m2.parameters()]
    g["cpu"] = cpu

    # Paddle's list arithmetic for custom white/black lists (_update_list), as sorted lists.
    cases = [(None, None, "O1", "float16"), (["exp"], None, "O1", "float16"),
             (None, ["matmul_v2", "relu"], "O1", "bfloat16"),
             (["layer_norm"], ["conv2d"], "O2", "float16"), (None, None, "OD", "float16"),
             (None, ["softmax"], "O0", "float16")]
    g["update_list"] = []
    for wl, bl, level, dt in cases:
        w, b = _update_list(wl, bl, level, dt)
        g["update_list"].append({"white": wl, "black": bl, "level": level, "dtype": dt,
                                 "out_white": sorted(w), "out_black": sorted(b)})
    g["errors"] = {
        "level": caught(lambda: paddle.amp.auto_cast(level="O3").__enter__()),
        "dtype": caught(lambda: paddle.amp.auto_cast(dtype="float32").__enter__()),
        "overlap": caught(lambda: paddle.amp.auto_cast(custom_white_list=["exp"],
                                                       custom_black_list=["exp"]).__enter__()),
        "decorate_level": caught(lambda: paddle.amp.decorate(model, level="O3")),
        "decorate_dtype": caught(lambda: paddle.amp.decorate(model, level="O2",
                                                             dtype="float32")),
    }
    record_scaler(g)


class _GpuPlace:
    """Stands in for the tracer's expected place in the scaler's constructor only."""

    def is_gpu_place(self):
        return True

    is_xpu_place = is_custom_place = lambda self: False


class _Tracer:
    _expected_place = _GpuPlace()


def gpu_scaler(**kw):
    import paddle.amp.grad_scaler as gs
    real = gs._dygraph_tracer
    gs._dygraph_tracer = lambda: _Tracer()
    try:
        return paddle.amp.GradScaler(**kw)
    finally:
        gs._dygraph_tracer = real


STEP_X = {"ok": [1.0, 2.0, 3.0], "inf": [1.0, float("inf"), 3.0],
          "nan": [float("nan"), 2.0, 3.0]}


def run_sequence(kw, pattern, mode):
    """One SGD parameter trained under a GradScaler; ``pattern`` injects inf/nan steps."""
    from paddle.amp.auto_cast import amp_global_state
    amp_global_state().amp_dtype = "float16"
    scaler = gpu_scaler(**kw)
    w = paddle.create_parameter([3], "float32",
                                default_initializer=paddle.nn.initializer.Constant(0.5))
    opt = paddle.optimizer.SGD(learning_rate=0.01, parameters=[w])
    steps = []
    for kind in pattern:
        x = paddle.to_tensor(STEP_X[kind])
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            loss = (w * x).sum()
            scaled = scaler.scale(loss)
            scaled.backward()
            if mode == "minimize":
                scaler.minimize(opt, scaled)
            elif mode == "unscale_step":
                scaler.unscale_(opt)
                grad = w.grad.numpy().tolist()
                scaler.step(opt)
                scaler.update()
            else:
                scaler.step(opt)
                scaler.update()
        sd = scaler.state_dict()
        step = {"kind": kind, "scaled_loss": scaled.numpy().tolist(), "w": w.numpy().tolist(),
                "scale": scaler._scale.numpy().tolist(), "incr_count": sd.get("incr_count"),
                "decr_count": sd.get("decr_count"), "found_inf": bool(scaler._found_inf),
                "printed": buf.getvalue()}
        if mode == "unscale_step":
            step["grad"] = grad
        steps.append(step)
        opt.clear_grad()
    sd = scaler.state_dict()
    sd["scale"] = sd["scale"].tolist() if "scale" in sd else None
    return {"kw": kw, "pattern": pattern, "mode": mode, "steps": steps, "state_dict": sd,
            "enabled": scaler.is_enable(), "dynamic": scaler.is_use_dynamic_loss_scaling()}


def record_scaler(g):
    # Paddle 3.3.1's GradScaler._update prints float(self._scale), a shape-[1] tensor, which
    # numpy >= 2.4 refuses (TypeError) on every inf/nan step: record what it prints with the
    # one-element conversion older numpy did, and note the crash for the tests.
    g["update_crash_numpy24"] = caught(lambda: float(paddle.to_tensor([2.0])))
    paddle.Tensor.__float__ = lambda self: float(self.numpy().reshape(-1)[0])
    pattern = ["ok", "inf", "ok", "ok", "ok", "nan", "inf", "ok", "ok", "ok", "ok"]
    g["scaler"] = [
        run_sequence({"init_loss_scaling": 1024.0, "incr_every_n_steps": 3,
                      "decr_every_n_nan_or_inf": 1}, pattern, "step"),
        run_sequence({"init_loss_scaling": 1024.0, "incr_every_n_steps": 2,
                      "decr_every_n_nan_or_inf": 2, "incr_ratio": 3.0, "decr_ratio": 0.25},
                     pattern, "minimize"),
        run_sequence({"init_loss_scaling": 8.0, "incr_every_n_steps": 2}, pattern,
                     "unscale_step"),
        run_sequence({"init_loss_scaling": 16.0, "use_dynamic_loss_scaling": False},
                     pattern[:4], "step"),
    ]
    # Defaults, getters and setters.
    s = gpu_scaler()
    info = {"init": s.get_init_loss_scaling(), "incr_ratio": s.get_incr_ratio(),
            "decr_ratio": s.get_decr_ratio(), "incr_every": s.get_incr_every_n_steps(),
            "decr_every": s.get_decr_every_n_nan_or_inf(), "enable": s.is_enable(),
            "dynamic": s.is_use_dynamic_loss_scaling()}
    s.set_init_loss_scaling(100.0)
    info["after_set_init"] = [s.get_init_loss_scaling(), s._scale.numpy().tolist()]
    info["bad_incr"] = caught(lambda: s.set_incr_ratio(0.5))
    info["bad_decr"] = caught(lambda: s.set_decr_ratio(2.0))
    # The order errors.
    from paddle.amp.auto_cast import amp_global_state
    amp_global_state().amp_dtype = "float16"
    w = paddle.create_parameter([2], "float32")
    opt = paddle.optimizer.SGD(parameters=[w])
    s = gpu_scaler(init_loss_scaling=4.0)
    s.scale((w * 2).sum()).backward()
    s.unscale_(opt)
    info["unscale_twice"] = caught(lambda: s.unscale_(opt))
    s.step(opt)
    info["step_twice"] = caught(lambda: s.step(opt))
    info["unscale_after_step"] = caught(lambda: s.unscale_(opt))
    s.update()
    s2 = gpu_scaler()
    info["load_empty"] = caught(lambda: s2.load_state_dict({}))
    # bfloat16 AMP dtype: the first scale() switches the scaler off, with a warning.
    amp_global_state().amp_dtype = "bfloat16"
    s3 = gpu_scaler()
    with warnings.catch_warnings(record=True) as wr:
        warnings.simplefilter("always")
        out = s3.scale(paddle.to_tensor(2.0))
    info["bf16_scale"] = {"out": out.numpy().tolist(), "enable": s3.is_enable(),
                          "dynamic": s3.is_use_dynamic_loss_scaling(),
                          "init": s3.get_init_loss_scaling(),
                          "warnings": [str(m.message) for m in wr]}
    amp_global_state().amp_dtype = "float16"
    # What CPU Paddle really does: the scaler is disabled with a warning.
    with warnings.catch_warnings(record=True) as wr:
        warnings.simplefilter("always")
        s4 = paddle.amp.GradScaler()
    info["cpu"] = {"enable": s4.is_enable(), "state_dict": s4.state_dict(),
                   "warnings": [str(m.message) for m in wr],
                   "scale": s4.scale(paddle.to_tensor(3.0)).numpy().tolist()}
    g["scaler_api"] = info


# ---------------------------------------------------------------------- save / load
def record_save_load():
    os.makedirs(DATA, exist_ok=True)
    g = G["save_load"] = {"files": {}}
    paddle.seed(7)
    lin = paddle.nn.Linear(3, 2)
    objs = {}
    objs["linear.pdparams"] = lin.state_dict()
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=lin.parameters())
    lin(paddle.ones([1, 3])).sum().backward()
    opt.step()
    objs["adam.pdopt"] = opt.state_dict()
    objs["bf16.pdtensor"] = paddle.to_tensor([1.5, -2.25, 3.0e38], dtype="bfloat16")
    objs["fp16.pdtensor"] = paddle.to_tensor([[0.1, 65504.0]], dtype="float16")
    sd = {"f64": paddle.to_tensor([1.0, 2.0], dtype="float64"),
          "i32": paddle.to_tensor([[1, 2]], dtype="int32"),
          "b": paddle.to_tensor([True, False]),
          "scalar": paddle.to_tensor(2.5),
          "bf": paddle.to_tensor([[0.5]], dtype="bfloat16"),
          "LR_Scheduler": {"last_epoch": 3, "last_lr": 0.05}}
    sd["f64"].name = "my_f64"
    objs["mixed_sd.pdparams"] = sd
    t = paddle.to_tensor([1, 2, 3], dtype="int64")
    t.name = "counter"
    objs["nested.pdparams"] = {"epoch": 3, "names": ["a", "b"],
                               "cfg": {"lr": 0.1, "betas": (0.9, 0.99), "flag": True,
                                       "none": None},
                               "w": t, "arr": np.arange(3, dtype=np.int32),
                               "pair": (lin.weight, "x")}
    objs["arrays.pdparams"] = [np.ones([2], np.float32), {"k": np.zeros([1], np.int64)}, 5]
    for fname, obj in objs.items():
        path = os.path.join(DATA, fname)
        paddle.save(obj, path)
        loaded = paddle.load(path)
        g["files"][fname] = {"load": describe(loaded),
                             "load_numpy": describe(paddle.load(path, return_numpy=True))}
    g["files"]["mixed_sd.pdparams"]["keep_name_table"] = describe(
        paddle.load(os.path.join(DATA, "mixed_sd.pdparams"), keep_name_table=True))
    g["errors"] = {
        "protocol": caught(lambda: paddle.save({"a": 1}, io.BytesIO(), protocol=5)),
        "protocol_sd": caught(lambda: paddle.save(lin.state_dict(), io.BytesIO(), protocol=1)),
        "layer": caught(lambda: paddle.save([lin], io.BytesIO())),
        "missing": caught(lambda: paddle.load("/nonexistent/x.pdparams")),
        "path_type": caught(lambda: paddle.save({"a": 1}, 3)),
        "empty_name": caught(lambda: paddle.save({"a": 1}, "somedir/")),
        "config": caught(lambda: paddle.load(os.path.join(DATA, "linear.pdparams"), foo=1)),
    }
    # protocol 2 writes a plain state dict the same way: one small golden of its bytes' load
    b = io.BytesIO()
    paddle.save(lin.state_dict(), b, protocol=2)
    b.seek(0)
    g["protocol2"] = describe(paddle.load(b))


# ---------------------------------------------------------------------- paddle.io
class RangeDS(paddle.io.Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


class DictDS(paddle.io.Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": np.full([2], i, "float32"), "y": i, "z": float(i), "s": f"a{i}",
                "t": paddle.to_tensor([i])}


class PairDS(paddle.io.Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return np.full([2], i, "float32"), np.array([i % 2], "int64")


class StreamDS(paddle.io.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = paddle.io.get_worker_info()
        lo, hi = 0, self.n
        if info is not None:
            per = int(math.ceil(self.n / info.num_workers))
            lo = info.id * per
            hi = min(lo + per, self.n)
        for i in range(lo, hi):
            yield np.array([i], "int64")


def record_io():
    from paddle.io import BatchSampler, DataLoader, DistributedBatchSampler, RandomSampler
    g = G["io"] = {}
    # Which RNG shuffles: numpy's global one (paddle.seed has no say).
    shuf = []
    for np_seed, pd_seed in ((0, 0), (0, 5), (3, 0), (11, 11)):
        np.random.seed(np_seed)
        paddle.seed(pd_seed)
        shuf.append({"np_seed": np_seed, "paddle_seed": pd_seed,
                     "batches": list(BatchSampler(RangeDS(10), shuffle=True, batch_size=4)),
                     "then": list(RandomSampler(RangeDS(6)))})
    g["shuffle"] = shuf
    np.random.seed(5)
    g["random_sampler_replacement"] = list(RandomSampler(RangeDS(5), replacement=True,
                                                         num_samples=8))
    g["batch_sampler"] = []
    for n, bs, drop in ((10, 3, False), (10, 3, True), (9, 3, True), (2, 5, False)):
        s = BatchSampler(RangeDS(n), batch_size=bs, drop_last=drop)
        g["batch_sampler"].append({"n": n, "bs": bs, "drop": drop, "out": list(s),
                                   "len": len(s)})
    dist = []
    for n, bs, nr, shuffle, drop in ((10, 2, 3, False, False), (10, 2, 3, True, False),
                                     (11, 3, 2, True, True), (2, 1, 4, False, False),
                                     (7, 2, 1, True, False)):
        for rank in range(nr):
            s = DistributedBatchSampler(RangeDS(n), batch_size=bs, num_replicas=nr, rank=rank,
                                        shuffle=shuffle, drop_last=drop)
            ep = [list(s), list(s)]
            s.set_epoch(7)
            ep.append(list(s))
            dist.append({"n": n, "bs": bs, "nranks": nr, "rank": rank, "shuffle": shuffle,
                         "drop": drop, "epochs": ep, "len": len(s),
                         "num_samples": s.num_samples, "total_size": s.total_size})
    g["distributed"] = dist
    loaders = {
        "dict": DataLoader(DictDS(), batch_size=2),
        "pair_drop": DataLoader(PairDS(), batch_size=2, drop_last=True),
        "pair_no_list": DataLoader(PairDS(), batch_size=2, return_list=False),
        "none_batch": DataLoader(PairDS(), batch_size=None),
        "collate": DataLoader(PairDS(), batch_size=3, collate_fn=lambda b: len(b)),
        "batch_sampler": DataLoader(PairDS(), batch_sampler=BatchSampler(
            RangeDS(5), batch_size=4)),
        "tensor_ds": DataLoader(paddle.io.TensorDataset(
            [paddle.arange(6, dtype="float32").reshape([3, 2]),
             paddle.to_tensor([1, 0, 1])]), batch_size=2),
        "iterable": DataLoader(StreamDS(5), batch_size=2),
        "workers": DataLoader(PairDS(), batch_size=2, num_workers=2),
    }
    g["loaders"] = {}
    for k, dl in loaders.items():
        g["loaders"][k] = {"batches": [describe(b) for b in dl],
                           "len": caught(lambda dl=dl: len(dl)) or len(dl)}
    np.random.seed(2)
    g["loaders"]["shuffled"] = {"batches": [describe(b) for b in DataLoader(
        PairDS(), batch_size=2, shuffle=True)]}
    got = [int(b.numpy()[0, 0]) for b in DataLoader(StreamDS(7), batch_size=1, num_workers=2)]
    g["iterable_workers_sorted"] = sorted(got)
    g["worker_info_main"] = paddle.io.get_worker_info() is None
    paddle.seed(1)
    g["random_split"] = [list(s.indices) for s in paddle.io.random_split(RangeDS(10), [3, 7])]
    paddle.seed(2)
    g["random_split_frac"] = [list(s.indices) for s in
                              paddle.io.random_split(RangeDS(7), [0.5, 0.5])]
    g["subset"] = list(paddle.io.Subset(RangeDS(5), [4, 1, 1]))
    comp = paddle.io.ComposeDataset([PairDS(), PairDS()])
    g["compose"] = {"len": len(comp), "item": describe(comp[3])}
    g["chain"] = [int(a[0]) for a in paddle.io.ChainDataset([StreamDS(2), StreamDS(3)])]
    g["errors"] = {
        "iter_shuffle": caught(lambda: DataLoader(StreamDS(3), shuffle=True)),
        "iter_len": caught(lambda: len(DataLoader(StreamDS(3)))),
        "iter_getitem": caught(lambda: StreamDS(3)[0]),
        "iter_ds_len": caught(lambda: len(StreamDS(3))),
        "sampler_shuffle": caught(lambda: BatchSampler(sampler=[1, 2], shuffle=True)),
        "sampler_none": caught(lambda: BatchSampler()),
        "bs_zero": caught(lambda: BatchSampler(RangeDS(3), batch_size=0)),
        "dist_rank": caught(lambda: DistributedBatchSampler(RangeDS(3), 1, num_replicas=2,
                                                            rank=-1)),
        "split_sum": caught(lambda: paddle.io.random_split(RangeDS(3), [1, 1])),
        "tensor_ds": caught(lambda: paddle.io.TensorDataset(
            [paddle.ones([2]), paddle.ones([3])])),
        "base_getitem": caught(lambda: paddle.io.Dataset()[0]),
        "base_len": caught(lambda: len(paddle.io.Dataset())),
        "collate_fields": caught(lambda: paddle.io.dataloader.collate.default_collate_fn(
            [(1, 2), (1,)])),
    }


if __name__ == "__main__":
    warnings.filterwarnings("ignore")
    record_amp()
    record_save_load()
    record_io()
    with open(OUT, "w") as f:
        json.dump(G, f, indent=1, sort_keys=False)
        f.write("\n")
    print("wrote", OUT, os.path.getsize(OUT), "bytes")
