"""Scenarios of paddle.Model, paddle.callbacks, paddle.metric, paddle.summary and paddle.flops,
written against a ``paddle`` module passed in: tools/goldens/record_hapi.py runs them on real
Paddle and writes tests/goldens/hapi.json, tests/test_hapi.py runs them on paddle_compat and
compares. Each scenario returns plain JSON (numbers, strings, lists, dicts).

Printed text is captured with the clock frozen (``time.time`` returns one value while a scenario
runs), so the progress bar's speeds and ETAs read ``0s/step`` / ``0s`` in both worlds and the
text compares as text; ``mask_times`` replaces them by a placeholder for text printed with the
clock running. Every scenario sets COLUMNS=80 (the progress bar's width follows the terminal).
"""
import contextlib
import io
import os
import re
import tempfile
import time
from unittest import mock

import numpy as np

_TIME = re.compile(r"\d+(?:ms|us|s)/(step|\w+)")
_ETA = re.compile(r"ETA: [0-9:]+s?")


def mask_times(text):
    """``text`` with the progress bar's speeds and ETAs replaced by placeholders, and the
    backspaces and padding that depend on their widths removed."""
    text = _TIME.sub(r"<T>/\1", text)
    text = _ETA.sub("ETA: <T>", text)
    text = re.sub("\x08+", "", text)
    return re.sub(r" +(?=[\r\n])", "", text)


#: False runs the scenarios with the clock running (their text then compares after mask_times)
FREEZE = True


@contextlib.contextmanager
def frozen(capture):
    """Captures stdout into the list ``capture`` (one string) with ``time.time`` frozen."""
    buf = io.StringIO()
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    clock = (mock.patch.object(time, "time", return_value=1000.0) if FREEZE
             else contextlib.nullcontext())
    try:
        with clock, contextlib.redirect_stdout(buf):
            yield
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
        capture.append(buf.getvalue())


def _data(n=20, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 4)).astype("float32")
    y = (x[:, :1] + x[:, 1:2] > 0).astype("int64") + (x[:, 2:3] > 0.5).astype("int64")
    return x, y


def _datasets(paddle, n=20, seed=0):
    class TinySet(paddle.io.Dataset):
        def __init__(self, x, y):
            super().__init__()
            self.x, self.y = x, y

        def __getitem__(self, i):
            return self.x[i], self.y[i]

        def __len__(self):
            return len(self.x)

    class XOnly(TinySet):
        def __getitem__(self, i):
            return (self.x[i],)

    x, y = _data(n, seed)
    return TinySet(x, y), XOnly(x, y)


def _mlp(paddle):
    """Linear(4, 8) - ReLU - Linear(8, 3) with fixed weights."""
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.ReLU(), paddle.nn.Linear(8, 3))
    rng = np.random.default_rng(42)
    state = {k: (rng.standard_normal(v.shape) * 0.5).astype("float32")
             for k, v in net.state_dict().items()}
    net.set_state_dict({k: paddle.to_tensor(v) for k, v in state.items()})
    return net


def _lenet(paddle):
    nn = paddle.nn
    return nn.Sequential(nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
                         nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.BatchNorm2D(16), nn.ReLU(),
                         nn.MaxPool2D(2, 2), nn.Flatten(), nn.Linear(400, 120), nn.Dropout(0.1),
                         nn.Linear(120, 10))


def _model(paddle, lr=0.1, metrics=True, opt="SGD"):
    net = _mlp(paddle)
    model = paddle.Model(net)
    optim = getattr(paddle.optimizer, opt)(learning_rate=lr, parameters=model.parameters())
    model.prepare(optim, paddle.nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy(topk=(1, 2)) if metrics else None)
    return model


def _recorder(paddle):
    class Recorder(paddle.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.events = []

        def on_train_batch_end(self, step, logs=None):
            self.events.append(["train_batch", step, float(logs["loss"][0]),
                                logs["batch_size"]])

        def on_epoch_end(self, epoch, logs=None):
            self.events.append(["epoch", epoch, float(self.model._optimizer.get_lr())])

        def on_eval_end(self, logs=None):
            self.events.append(["eval", {k: (float(v[0]) if isinstance(v, list) else float(v))
                                         for k, v in logs.items()
                                         if k in ("loss", "acc_top1", "acc_top2")}])
    return Recorder()


# --------------------------------------------------------------------------- metrics
def metrics(paddle):
    rng = np.random.default_rng(3)
    out = {}
    pred = rng.random((12, 5)).astype("float32")
    label = rng.integers(0, 5, (12, 1)).astype("int64")
    for topk in [(1,), (1, 3)]:
        m = paddle.metric.Accuracy(topk=topk)
        steps = []
        for s in (slice(0, 5), slice(5, 12)):
            correct = m.compute(paddle.to_tensor(pred[s]), paddle.to_tensor(label[s]))
            steps.append(m.update(correct))
        acc = m.accumulate()
        m.reset()
        out[f"accuracy{topk}"] = {"steps": steps, "acc": acc, "name": m.name(),
                                  "after_reset": m.accumulate(),
                                  "compute": correct.numpy().tolist()}
    onehot = np.eye(5, dtype="float32")[label[:, 0]]
    m = paddle.metric.Accuracy(name="my")
    m.update(m.compute(paddle.to_tensor(pred), paddle.to_tensor(onehot)))
    out["accuracy_onehot"] = {"acc": m.accumulate(), "name": m.name()}
    probs = rng.random(30).astype("float32")
    labels = rng.integers(0, 2, 30).astype("int64")
    for cls in ("Precision", "Recall"):
        m = getattr(paddle.metric, cls)()
        m.update(probs[:10], labels[:10])
        first = m.accumulate()
        m.update(paddle.to_tensor(probs[10:]), paddle.to_tensor(labels[10:]))
        out[cls] = {"first": first, "acc": m.accumulate(), "name": m.name()}
        m.reset()
        out[cls]["after_reset"] = m.accumulate()
    two = np.stack([1 - probs, probs], axis=1)
    for curve, nt in (("ROC", 4095), ("ROC", 7), ("PR", 200)):
        m = paddle.metric.Auc(curve=curve, num_thresholds=nt)
        m.update(two[:15], labels[:15])
        m.update(paddle.to_tensor(two[15:]), paddle.to_tensor(labels[15:]))
        out[f"Auc_{curve}_{nt}"] = {"acc": m.accumulate(), "name": m.name()}
    x = paddle.to_tensor(pred)
    lab = paddle.to_tensor(label)
    for k in (1, 2, 5):
        a = paddle.metric.accuracy(x, lab, k=k)
        out[f"accuracy_fn_k{k}"] = {"value": float(a), "shape": list(a.shape),
                                    "dtype": str(a.dtype).replace("paddle.", "")}
    a = paddle.metric.accuracy(x, paddle.to_tensor(label.astype("int32")), k=2)
    out["accuracy_fn_int32"] = float(a)
    correct, total = paddle.zeros([1], "int32"), paddle.zeros([1], "int32")
    paddle.metric.accuracy(x, lab, k=3, correct=correct, total=total)
    out["accuracy_fn_counts"] = [int(correct), list(correct.shape), int(total), list(total.shape),
                                 str(total.dtype).replace("paddle.", "")]
    try:
        paddle.metric.accuracy(x, paddle.to_tensor(label[:, 0]))
    except Exception as e:      # noqa: BLE001  the exception type is what is compared
        out["accuracy_fn_1d_label"] = type(e).__name__
    errs = {}
    for cls in ("Precision", "Recall", "Auc"):
        try:
            getattr(paddle.metric, cls)().update([0.1], [1])
        except Exception as e:      # noqa: BLE001  the exception type is what is compared
            errs[cls] = [type(e).__name__, str(e)]
    out["errors"] = errs

    class Custom(paddle.metric.Metric):
        pass
    try:
        Custom()
        out["abstract"] = "constructed"
    except TypeError:
        out["abstract"] = "TypeError"
    return out


# --------------------------------------------------------------------------- Model.fit
def fit(paddle, verbose, log_freq=2, epochs=2, batch_size=4, eval_freq=1, drop_last=False,
        num_iters=None, metrics_on=True):
    paddle.seed(0)
    train, _ = _datasets(paddle, 18, 0)
    evals, _ = _datasets(paddle, 10, 1)
    text = []
    rec = _recorder(paddle)
    with frozen(text):
        model = _model(paddle, metrics=metrics_on)
        model.fit(train, evals, batch_size=batch_size, epochs=epochs, eval_freq=eval_freq,
                  log_freq=log_freq, verbose=verbose, shuffle=False, drop_last=drop_last,
                  callbacks=[rec], num_iters=num_iters)
    params = {k: v.numpy().tolist() for k, v in model.network.state_dict().items()}
    return {"text": text[0], "events": rec.events, "params": params}


def evaluate_predict(paddle):
    out = {}
    evals, xonly = _datasets(paddle, 10, 1)
    text = []
    with frozen(text):
        model = _model(paddle)
        res = model.evaluate(evals, batch_size=4, verbose=2, log_freq=1)
    out["evaluate"] = {k: (np.asarray(v).tolist()) for k, v in res.items()}
    out["evaluate_text"] = text[-1]
    with frozen(text):
        res = model.evaluate(evals, batch_size=3, verbose=1)
    out["evaluate_text_v1"] = text[-1]
    out["evaluate_v1"] = {k: (np.asarray(v).tolist()) for k, v in res.items()}
    with frozen(text):
        model2 = _model(paddle, metrics=False)
        res = model2.evaluate(evals, batch_size=5, verbose=2)
    out["evaluate_loss_only"] = {k: np.asarray(v).tolist() for k, v in res.items()}
    out["evaluate_loss_only_text"] = text[-1]
    with frozen(text):
        preds = model.predict(xonly, batch_size=4)
    out["predict_text"] = text[-1]
    out["predict"] = [[np.asarray(a).tolist() for a in p] for p in preds]
    out["predict_types"] = [type(preds).__name__, type(preds[0]).__name__, len(preds),
                            len(preds[0]), type(preds[0][0]).__name__]
    with frozen(text):
        preds = model.predict(xonly, batch_size=3, stack_outputs=True, verbose=2)
    out["predict_stacked_text"] = text[-1]
    out["predict_stacked"] = [np.asarray(p).tolist() for p in preds]
    out["predict_stacked_shape"] = [list(np.asarray(p).shape) for p in preds]
    with frozen(text):
        preds = model.predict(xonly, batch_size=4, verbose=0)
    out["predict_quiet_text"] = text[-1]
    return out


def batches(paddle):
    out = {}
    x, y = _data(6, 5)
    model = _model(paddle, opt="Adam", lr=0.01)
    r = model.train_batch([x], [y])
    out["train_batch"] = [[np.asarray(a).tolist() for a in r[0]], r[1]]
    out["train_batch_types"] = [type(r).__name__, type(r[0][0]).__name__,
                                list(np.asarray(r[0][0]).shape)]
    r = model.train_batch([paddle.to_tensor(x)], [paddle.to_tensor(y)], update=False)
    out["train_batch_noupdate"] = [[np.asarray(a).tolist() for a in r[0]], r[1]]
    r = model.eval_batch([x], [y])
    out["eval_batch"] = [[np.asarray(a).tolist() for a in r[0]], r[1]]
    r = model.predict_batch([x])
    out["predict_batch"] = [np.asarray(a).tolist() for a in r]
    out["predict_batch_types"] = [type(r).__name__, type(r[0]).__name__]
    m2 = _model(paddle, metrics=False)
    r = m2.train_batch([x], [y])
    out["train_batch_loss_only"] = [np.asarray(a).tolist() for a in r]
    r = m2.eval_batch([x], [y])
    out["eval_batch_loss_only"] = [np.asarray(a).tolist() for a in r]
    out["parameters"] = [list(p.shape) for p in model.parameters()]
    out["n_parameters"] = len(model.parameters())
    return out


def save_load(paddle):
    out = {}
    train, _ = _datasets(paddle, 12, 0)
    with tempfile.TemporaryDirectory() as d:
        text = []
        with frozen(text), paddle.utils.unique_name.guard():
            model = _model(paddle, opt="Adam", lr=0.01)
            model.fit(train, batch_size=4, epochs=3, verbose=0, shuffle=False,
                      save_dir=os.path.join(d, "ckpt"), save_freq=2)
        out["files"] = sorted(os.listdir(os.path.join(d, "ckpt")))
        out["text"] = text[0].replace(d, "<DIR>")
        model.save(os.path.join(d, "m"))
        out["saved"] = sorted(f for f in os.listdir(d) if f != "ckpt")
        params = paddle.load(os.path.join(d, "m.pdparams"))
        out["pdparams"] = {k: np.asarray(v).tolist() for k, v in sorted(params.items())}
        opt = paddle.load(os.path.join(d, "m.pdopt"))
        out["pdopt_n"] = len(opt)
        with paddle.utils.unique_name.guard():    # the optimizer's state names its parameters
            fresh = _model(paddle, opt="Adam", lr=0.01)
        fresh.load(os.path.join(d, "m"))
        out["loaded_equal"] = all(
            np.array_equal(a.numpy(), b.numpy())
            for a, b in zip(fresh.parameters(), model.parameters()))
        x, y = _data(4, 9)
        out["after_load_step"] = [np.asarray(a).tolist() for a in
                                  fresh.train_batch([x], [y])[0]]
        out["original_step"] = [np.asarray(a).tolist() for a in model.train_batch([x], [y])[0]]
        fresh2 = _model(paddle, opt="Adam", lr=0.01)
        fresh2.load(os.path.join(d, "m.pdparams"), reset_optimizer=True)
        out["loaded_pdparams_suffix"] = all(
            np.array_equal(v.numpy(), np.asarray(params[k]))
            for k, v in fresh2.network.state_dict().items())
        model.save(os.path.join(d, "sub", "w"))
        out["saved_sub"] = sorted(os.listdir(os.path.join(d, "sub")))
    return out


def early_stopping(paddle):
    out = {}
    train, _ = _datasets(paddle, 12, 0)
    evals, _ = _datasets(paddle, 8, 1)
    cases = {"loss_max_p1": dict(monitor="loss", mode="max", patience=1),
             "acc_p2": dict(monitor="acc_top1", patience=2, save_best_model=False),
             "baseline": dict(monitor="loss", patience=0, baseline=0.0),
             "min_delta": dict(monitor="loss", mode="min", patience=1, min_delta=0.05)}
    for name, kw in cases.items():
        with tempfile.TemporaryDirectory() as d:
            text = []
            rec = _recorder(paddle)
            with frozen(text):
                model = _model(paddle, lr=0.5)
                es = paddle.callbacks.EarlyStopping(**kw)
                model.fit(train, evals, batch_size=4, epochs=8, verbose=0, shuffle=False,
                          callbacks=[es, rec], save_dir=os.path.join(d, "s"))
            out[name] = {"text": text[0].replace(d, "<DIR>"),
                         "epochs": sum(1 for e in rec.events if e[0] == "epoch"),
                         "files": sorted(os.listdir(os.path.join(d, "s"))),
                         "best_value": float(es.best_value), "wait": es.wait_epoch,
                         "stopped_epoch": es.stopped_epoch}
    return out


def reduce_lr(paddle):
    out = {}
    train, _ = _datasets(paddle, 12, 0)
    evals, _ = _datasets(paddle, 8, 1)
    cases = {"max_p1": dict(monitor="loss", mode="max", patience=1, factor=0.5),
             "cooldown": dict(monitor="loss", mode="max", patience=1, factor=0.5, cooldown=2,
                              min_lr=0.02),
             "acc": dict(monitor="acc_top1", patience=1, factor=0.3, verbose=0)}
    for name, kw in cases.items():
        text = []
        rec = _recorder(paddle)
        with frozen(text):
            model = _model(paddle, lr=0.1)
            cb = paddle.callbacks.ReduceLROnPlateau(**kw)
            model.fit(train, evals, batch_size=4, epochs=6, verbose=0, shuffle=False,
                      callbacks=[cb, rec])
        out[name] = {"text": text[0], "events": rec.events}
    return out


def lr_scheduler(paddle):
    out = {}
    train, _ = _datasets(paddle, 12, 0)
    for name, kw in {"by_step": {}, "by_epoch": dict(by_step=False, by_epoch=True)}.items():
        rec = _recorder(paddle)
        text = []
        with frozen(text):
            net = _mlp(paddle)
            model = paddle.Model(net)
            sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
            model.prepare(paddle.optimizer.SGD(learning_rate=sched,
                                               parameters=model.parameters()),
                          paddle.nn.CrossEntropyLoss())
            model.fit(train, batch_size=4, epochs=3, verbose=0, shuffle=False,
                      callbacks=[paddle.callbacks.LRScheduler(**kw), rec])
        out[name] = {"events": rec.events, "last_epoch": sched.last_epoch}
    try:
        paddle.callbacks.LRScheduler(by_step=True, by_epoch=True)
    except ValueError as e:
        out["both"] = [type(e).__name__, str(e)]
    return out


def progbar_logger(paddle):
    """ProgBarLogger given explicitly, and verbose=3's timing fields (masked)."""
    out = {}
    train, _ = _datasets(paddle, 10, 0)
    text = []
    with frozen(text):
        model = _model(paddle)
        model.fit(train, batch_size=4, epochs=1, shuffle=False,
                  callbacks=[paddle.callbacks.ProgBarLogger(log_freq=1, verbose=1)])
    out["explicit"] = text[0]
    return out


# --------------------------------------------------------------------------- summary, flops
def summaries(paddle):
    out = {}
    text = []
    with paddle.utils.unique_name.guard():
        with frozen(text):
            info = paddle.summary(_lenet(paddle), (1, 1, 28, 28))
        out["lenet"] = text[-1]
        out["lenet_info"] = {k: int(v) for k, v in info.items()}
        with frozen(text):
            info = paddle.summary(_mlp(paddle), (None, 4))
        out["mlp"] = text[-1]
        out["mlp_info"] = {k: int(v) for k, v in info.items()}

        class Two(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                self.a = paddle.nn.Linear(4, 3)
                self.b = paddle.nn.Linear(5, 3)
                self.b.weight.stop_gradient = True

            def forward(self, x, y):
                return self.a(x) + self.b(y), self.a(x)

        with frozen(text):
            info = paddle.summary(Two(), [(2, 4), (2, 5)])
        out["two_inputs"] = text[-1]
        out["two_info"] = {k: int(v) for k, v in info.items()}
        with frozen(text):
            model = paddle.Model(_mlp(paddle), paddle.static.InputSpec([None, 4], "float32", "x"))
            info = model.summary()
        out["model_summary"] = text[-1]
        with frozen(text):
            info = paddle.summary(_mlp(paddle), input=paddle.ones([3, 4]))
        out["given_input"] = text[-1]
    return out


def flops(paddle):
    out = {}
    text = []
    with paddle.utils.unique_name.guard():
        with frozen(text):
            n = paddle.flops(_lenet(paddle), [1, 1, 28, 28], print_detail=True)
        out["lenet"] = [n, text[-1]]
        with frozen(text):
            n = paddle.flops(_mlp(paddle), [2, 4], print_detail=True)
        out["mlp"] = [n, text[-1]]

        def count_relu(m, x, y):
            m.total_ops += int(np.prod(y.shape))

        with frozen(text):
            n = paddle.flops(_mlp(paddle), [3, 4], custom_ops={paddle.nn.ReLU: count_relu})
        out["custom"] = [n, text[-1]]
        nn = paddle.nn
        with frozen(text):
            net = nn.Sequential(nn.Conv2D(3, 4, 3, groups=1, bias_attr=False), nn.LeakyReLU(),
                                nn.AdaptiveAvgPool2D(2), nn.AvgPool2D(1), nn.Flatten(),
                                nn.Linear(16, 2))
            n = paddle.flops(net, [2, 3, 8, 8], print_detail=True)
        out["mixed"] = [n, text[-1]]
    return out


def example(paddle):
    """examples/model_fit.py, its ``import paddle_compat as paddle`` run as ``import paddle``
    under real Paddle: its console output (temporary paths masked)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples",
                        "model_fit.py")
    with open(path) as f:
        src = f.read()
    if paddle.__name__ == "paddle":
        src = src.replace("import paddle_compat as paddle\n", "import paddle\n")
    env = {"__name__": "model_fit_example"}
    exec(compile(src, path, "exec"), env)
    text = []
    with frozen(text), paddle.utils.unique_name.guard():     # layer numbers from 0
        result = env["main"]("cpu")
    out = re.sub(r"/tmp[^ \n']*?/ckpt", "<DIR>/ckpt", text[0])
    return {"text": out, "result": {k: np.asarray(v).tolist() for k, v in result.items()}}


SCENARIOS = {
    "metrics": metrics,
    "fit_v2": lambda p: fit(p, verbose=2),
    "fit_v1": lambda p: fit(p, verbose=1, log_freq=1),
    "fit_v0": lambda p: fit(p, verbose=0),
    "fit_v2_lf3_drop": lambda p: fit(p, verbose=2, log_freq=3, epochs=3, eval_freq=2,
                                     drop_last=True),
    "fit_num_iters": lambda p: fit(p, verbose=2, log_freq=1, num_iters=7),
    "fit_no_metrics": lambda p: fit(p, verbose=1, log_freq=2, metrics_on=False),
    "evaluate_predict": evaluate_predict,
    "batches": batches,
    "save_load": save_load,
    "early_stopping": early_stopping,
    "reduce_lr": reduce_lr,
    "lr_scheduler": lr_scheduler,
    "progbar_logger": progbar_logger,
    "summary": summaries,
    "flops": flops,
    "example": example,
}
