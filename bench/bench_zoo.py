"""Model-zoo training steps: ResNet-18 (paddle.vision.models, small images) and a Transformer
encoder classifier, on paddle_compat against the same network in plain torch (torchvision's
resnet18 when an importable torchvision pairs with the installed torch, else the same
architecture written here), and against real Paddle when its virtualenv exists. Also the
ResNet-18 forward pass, eager and under ``torch.compile`` (of the ``jit.to_static`` graph).

    python bench/bench_zoo.py [--threads 2] [--batch 8] [--size 64] [--repeat 9]
                              [--contention] [--no-compile]

One step is forward, cross entropy, backward, Momentum (SGD with momentum 0.9: the same
update in both frameworks) and clearing the gradients. ``--contention`` runs every timing
again with one CPU-bound process competing for the cores (issue 21's "with a competing
process"). Prints medians of wall time per step (ms) and the ratios; the same thread count
is set in every framework (real Paddle through OMP_NUM_THREADS, read at its start).
"""
import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from timing import machine, torch_encoder, torch_sgd_step  # noqa: E402

PADDLE_PY = os.environ.get("PADDLE_PYTHON", os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                                         "paddle_venv", "bin", "python"))

# The steps, written once for paddle_compat and real Paddle (``paddle`` is whichever runs it).
STEPS = r'''
import time, statistics
import numpy as np

def make(paddle, model_name, batch, size):
    paddle.seed(0)
    F = paddle.nn.functional
    if model_name == "resnet18":
        model = paddle.vision.models.resnet18(num_classes=10)
        x = paddle.to_tensor(np.random.RandomState(0).rand(batch, 3, size, size).astype("float32"))
        y = paddle.to_tensor(np.arange(batch) % 10, dtype="int64")
    else:
        class Encoder(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                self.emb = paddle.nn.Embedding(1000, 128)
                layer = paddle.nn.TransformerEncoderLayer(128, 4, 512, dropout=0.1)
                self.enc = paddle.nn.TransformerEncoder(layer, 2)
                self.head = paddle.nn.Linear(128, 10)
            def forward(self, ids):
                return self.head(self.enc(self.emb(ids)).mean(axis=1))
        model = Encoder()
        x = paddle.to_tensor(np.random.RandomState(0).randint(0, 1000, (batch, 64)), dtype="int64")
        y = paddle.to_tensor(np.arange(batch) % 10, dtype="int64")
    opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9,
                                    parameters=model.parameters())
    def step():
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return step

def median_ms(step, repeat, warmup=2):
    for _ in range(warmup):
        step()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3
'''


def torch_resnet18(num_classes):
    """torchvision's resnet18 when it imports with this torch, else the same network."""
    try:
        import torchvision
        return torchvision.models.resnet18(num_classes=num_classes), "torchvision"
    except Exception:
        pass
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                          nn.BatchNorm2d(cout))

        def forward(self, x):
            out = torch.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return torch.relu(out + (x if self.down is None else self.down(x)))

    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
              nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, num_classes)]
    return nn.Sequential(*layers), "written here (torchvision does not import with this torch)"


def torch_step(model_name, batch, size):
    torch.manual_seed(0)
    if model_name == "resnet18":
        model, _ = torch_resnet18(10)
        x = torch.rand(batch, 3, size, size)
    else:
        model = torch_encoder()
        x = torch.randint(0, 1000, (batch, 64))
    y = torch.arange(batch) % 10
    return torch_sgd_step(model, x, y)


def real_paddle_ms(model_name, args):
    """Median step time of real Paddle in its virtualenv, or None when it is absent."""
    if not os.path.exists(PADDLE_PY):
        return None
    code = STEPS + (f"\nimport paddle\nstep = make(paddle, {model_name!r}, {args.batch}, {args.size})"
                    f"\nprint(median_ms(step, {args.repeat}))")
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), CUDA_VISIBLE_DEVICES="")
    out = subprocess.run([PADDLE_PY, "-c", code], capture_output=True, text=True, env=env)
    try:
        return float(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        print("real Paddle could not run:", (out.stderr or out.stdout)[-300:])
        return None


def _burn(stop):
    x = 0
    while not stop.is_set():
        x = (x * 31 + 7) % 1000003


def run_all(args, ns, label):
    import paddle_compat as paddle
    print(f"-- {label}")
    for name in ("resnet18", "transformer"):
        ours = ns["make"](paddle, name, args.batch, args.size)
        theirs = torch_step(name, args.batch, args.size)
        a, b = [], []
        for _ in range(3):                  # interleaved rounds: drift hits both alike
            a.append(ns["median_ms"](ours, args.repeat))
            b.append(ns["median_ms"](theirs, args.repeat))
        ma, mb = statistics.median(a), statistics.median(b)
        line = (f"{name:12s} train step: ours {ma:8.2f} ms  torch {mb:8.2f} ms  "
                f"ours/torch {ma / mb:5.2f}x")
        p = real_paddle_ms(name, args)
        if p is not None:
            line += f"  real Paddle {p:8.2f} ms  ours/Paddle {ma / p:5.2f}x"
        print(line, flush=True)


def compiled_forward(args, ns):
    """ResNet-18 inference forward: eager, the to_static graph, and torch.compile of it."""
    import paddle_compat as paddle
    import numpy as np
    paddle.seed(0)
    model = paddle.vision.models.resnet18(num_classes=10)
    model.eval()
    x = paddle.to_tensor(np.random.RandomState(0).rand(args.batch, 3, args.size, args.size)
                         .astype("float32"))
    static = paddle.jit.to_static(model)
    with paddle.no_grad():
        ref = model(x).numpy()
        static(x)
        gm = static.forward.graph_module if hasattr(static, "forward") else static.graph_module
    compiled = torch.compile(gm)
    with torch.no_grad():
        got = compiled(x._t)
    got = got[0] if isinstance(got, (tuple, list)) else got
    got = got._t if hasattr(got, "_t") else got
    err = float(np.abs(got.numpy() - ref).max())

    def eager():
        with paddle.no_grad():
            model(x)

    def comp():
        with torch.no_grad():
            compiled(x._t)
    e = ns["median_ms"](eager, args.repeat)
    c = ns["median_ms"](comp, args.repeat)
    print(f"resnet18 forward (eval, batch {args.batch}): eager {e:.2f} ms, "
          f"torch.compile(to_static graph) {c:.2f} ms ({e / c:.2f}x faster), max |diff| {err:.1e}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--contention", action="store_true")
    ap.add_argument("--no-compile", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    ns = {}
    exec(STEPS, ns)
    _, source = torch_resnet18(10)
    print(f"machine: {machine()}; torch resnet18: {source}; batch {args.batch}, "
          f"{args.size}x{args.size} images")
    run_all(args, ns, "alone")
    if args.contention:
        stop = multiprocessing.Event()
        burner = multiprocessing.Process(target=_burn, args=(stop,))
        burner.start()
        try:
            time.sleep(0.5)
            run_all(args, ns, "with one competing CPU-bound process")
        finally:
            stop.set()
            burner.join()
    if not args.no_compile:
        compiled_forward(args, ns)


if __name__ == "__main__":
    main()
