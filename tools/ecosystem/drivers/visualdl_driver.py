"""visualdl 2.5.3: ``LogWriter`` scalars (the loss) and histograms (a paddle model's weights)
during three SGD steps of a small seeded net; the ``paddle.callbacks.VisualDL`` callback of
``paddle.Model.fit`` (hapi); both logs read back with VisualDL's ``LogReader``.

``LogWriter.add_graph`` reads the ``.pdmodel`` that ``paddle.jit.save`` wrote in Paddle 2.x;
Paddle 3.3.1 writes ``.json``, so it fails there (recorded: the built-in type it raises)."""
import os

import numpy as np
import paddle
import visualdl
from visualdl import LogReader, LogWriter

from _common import Driver, jittered, seed_params

d = Driver("visualdl")
X = jittered(np.random.RandomState(0).standard_normal((8, 6)).astype("float32"))
Y = np.array([[0], [1], [2], [1], [0], [2], [1], [0]], dtype="int64")


def net():
    model = paddle.nn.Sequential(paddle.nn.Linear(6, 5), paddle.nn.ReLU(), paddle.nn.Linear(5, 3))
    seed_params(model)
    return model


def read_back(logdir):
    """Every scalar and histogram of the log files under ``logdir`` (``LogReader`` of each
    file): ``{component: {tag: records}}``, scalar records as [step, value], histogram records
    as the step, the bucket counts and edges."""
    out = {}
    for fname in sorted(os.listdir(logdir)):
        reader = LogReader(file_path=os.path.join(logdir, fname))
        for component, tags in sorted(reader.get_tags().items()):
            if component not in ("scalar", "histogram"):
                continue
            for tag in sorted(tags):
                records = reader.get_data(component, tag)
                if component == "scalar":
                    rows = [[r.id, r.value] for r in records]
                else:
                    rows = [{"step": r.id, "hist": list(r.histogram.hist),
                             "edges": list(r.histogram.bin_edges)} for r in records]
                out.setdefault(component, {})[tag] = rows
    return out


@d.stage("log_writer")
def _():
    model = net()
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    logdir = os.path.join(d.tmp, "writer")
    x, y = paddle.to_tensor(X), paddle.to_tensor(Y)
    with LogWriter(logdir=logdir) as writer:
        for step in range(3):
            loss = paddle.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            writer.add_scalar(tag="train/loss", step=step, value=float(loss))
            for name, param in model.named_parameters():
                writer.add_histogram(tag=f"weights/{name}", values=param.numpy(), step=step,
                                     buckets=6)
    d.put("writer.files", len(os.listdir(logdir)))
    d.put("writer.logs", read_back(logdir))


class Pairs(paddle.io.Dataset):
    """The fixed (x, y) rows."""

    def __getitem__(self, i):
        return X[i], Y[i]

    def __len__(self):
        return len(X)


@d.stage("hapi_callback")
def _():
    model = paddle.Model(net())
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss(), paddle.metric.Accuracy())
    logdir = os.path.join(d.tmp, "hapi")
    model.fit(Pairs(), eval_data=Pairs(), batch_size=3, epochs=1, shuffle=False, verbose=0,
              callbacks=[paddle.callbacks.VisualDL(log_dir=logdir)])
    d.put("hapi.logs", read_back(logdir))
    d.put("hapi.eval", model.evaluate(Pairs(), batch_size=4, verbose=0))


@d.stage("add_graph")
def _():
    logdir = os.path.join(d.tmp, "graph")
    try:
        with LogWriter(logdir=logdir) as writer:
            writer.add_graph(net(), [paddle.static.InputSpec([None, 6], "float32")])
        d.put("add_graph", "ok")
    except Exception as e:  # noqa: BLE001 - the failure is the output
        d.put("add_graph", {"raises": next(c.__name__ for c in type(e).__mro__
                                           if c.__module__ == "builtins")})


d.meta["version"] = visualdl.__version__
d.finish()
