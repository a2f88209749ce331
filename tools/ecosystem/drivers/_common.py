"""What every ecosystem driver shares: seeded weights, output summaries, stages, the JSON.

A driver runs unchanged on real Paddle (``python drivers/x.py OUT.json``) and on paddle_compat
(``python -m paddle_compat drivers/x.py OUT.json``). ``ECO_JITTER=1e-6`` moves every seeded
weight and float input by that much (the jitter run that measures how far Paddle itself moves).
"""
import importlib.metadata
import json
import os
import sys
import tempfile
import traceback

import numpy as np
import paddle

JITTER = float(os.environ.get("ECO_JITTER") or 0.0)


def summary(value):
    """A small JSON-able picture of ``value``: tensors/arrays as shape, sum, abs-sum and the
    first values; numbers as numbers; lists/dicts element-wise."""
    if isinstance(value, paddle.Tensor):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "biu":
            return {"shape": list(value.shape), "ints": value.reshape(-1)[:16].tolist()}
        flat = value.astype(np.float64).reshape(-1)
        return {"shape": list(value.shape), "sum": float(flat.sum()),
                "abs": float(np.abs(flat).sum()), "head": flat[:6].tolist()}
    if isinstance(value, (list, tuple)):
        return [summary(v) for v in value]
    if isinstance(value, dict):
        return {str(k): summary(v) for k, v in value.items()}
    if isinstance(value, (np.floating, np.integer, np.bool_)):
        return value.item()
    return value


def seed_params(layer, seed=0):
    """Overwrite every float entry of ``layer.state_dict()`` (in its order) with seeded values:
    small normals, 1 + small normals for norm scales, 1 + |small| for running variances; moved
    by ``JITTER`` on the jitter run."""
    rng = np.random.RandomState(seed)
    jrng = np.random.RandomState(seed + 7919)
    for name, p in layer.state_dict().items():
        if not isinstance(p, paddle.Tensor) or p.dtype not in (paddle.float32, paddle.float64):
            continue
        shape = tuple(p.shape)
        val = rng.standard_normal(shape) * (0.05 if len(shape) >= 2 else 0.02)
        if name.endswith(("_variance", "running_var")):
            val = 1.0 + np.abs(val)        # batch-norm running variances stay positive
        elif len(shape) == 1 and ("norm" in name.lower() or ".bn" in name or "bn." in name) \
                and name.endswith(("weight", "scale")):
            val += 1.0
        if JITTER:
            val += JITTER * jrng.standard_normal(shape)
        p.set_value(val.astype("float32" if p.dtype == paddle.float32 else "float64"))


def jittered(array, seed=1):
    """``array`` (float) moved by ``JITTER`` on the jitter run, unchanged otherwise."""
    array = np.asarray(array)
    if JITTER and array.dtype.kind == "f":
        array = array + (JITTER * np.random.RandomState(seed).standard_normal(array.shape)).astype(array.dtype)
    return array


class Driver:
    """Runs named stages, keeps each one's outputs and its first error, writes the JSON."""

    def __init__(self, lib, version_of=None):
        self.lib = lib
        self.outputs = {}
        self.errors = []
        mod = sys.modules.get(version_of or lib)
        self.meta = {"lib": lib, "paddle_file": getattr(paddle, "__file__", ""),
                     "version": getattr(mod, "__version__", None) if mod else None,
                     "jitter": JITTER}
        if self.meta["version"] is None:        # a library without __version__: its wheel's
            try:
                self.meta["version"] = importlib.metadata.version(version_of or lib)
            except importlib.metadata.PackageNotFoundError:
                pass
        self.tmp = tempfile.mkdtemp(prefix=f"eco_{lib}_")

    def put(self, key, value):
        self.outputs[key] = summary(value)

    def stage(self, name):
        """Decorator: run the function now as stage ``name``; an exception is recorded (stage,
        type, message, last frame) and the driver goes on with the next stage."""
        def run(fn):
            paddle.seed(0)
            np.random.seed(0)
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - a driver reports every failure
                tb = traceback.extract_tb(e.__traceback__)
                where = f"{os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else ""
                self.errors.append({"stage": name, "type": type(e).__name__,
                                    "message": str(e).strip().splitlines()[0][:300] if str(e).strip() else "",
                                    "where": where})
                traceback.print_exc()
            return fn
        return run

    def finish(self):
        doc = {"meta": self.meta, "outputs": self.outputs, "errors": self.errors}
        text = json.dumps(doc, indent=1, sort_keys=True)
        if len(sys.argv) > 1:
            with open(sys.argv[1], "w") as f:
                f.write(text)
        else:
            print(text)


def write_vocab(path, words):
    """A WordPiece vocab file: the special tokens, then ``words`` (one per line)."""
    with open(path, "w", encoding="utf-8") as f:
        for w in ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *words]:
            f.write(w + "\n")
    return path


def train_steps(model, loss_fn, params=None, steps=3, lr=1e-3, opt="adamw"):
    """``steps`` optimizer steps of ``loss_fn()``; the losses as floats."""
    params = params if params is not None else model.parameters()
    cls = {"adamw": paddle.optimizer.AdamW, "sgd": paddle.optimizer.SGD,
           "adam": paddle.optimizer.Adam, "momentum": paddle.optimizer.Momentum}[opt]
    optimizer = cls(learning_rate=lr, parameters=params)
    losses = []
    for _ in range(steps):
        loss = loss_fn()
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(float(loss))
    return losses
