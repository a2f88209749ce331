"""Training steps through ``paddle.jit.to_static(model, backend="CINN")`` (torch's inductor,
jit/compiled.py) against our eager step and ``torch.compile`` of the same network written in
torch, at one thread count per process.

    python bench/bench_compiled_train.py [--threads 1] [--models resnet18,mobilenetv2,encoder]
                                         [--batch 8] [--size 64] [--repeat 7] [--cpu-time]
                                         [--eval-only] [--losses64]

Models: ResNet-18 and MobileNetV2 from ``paddle.vision.models`` (batch 8 of 3x64x64 images)
and a ``paddle.nn.TransformerEncoder`` classifier (batch 8 of 32 tokens). One step is
forward, cross entropy, backward, Momentum and clearing the gradients (under to_static the
Momentum update is compiled too: optimizer/compiled_step.py; torch's column runs
torch.optim.SGD eagerly). The steps (eager, to_static, to_static with the timed choice,
torch.compile; ``a/tc``: the timed choice's step over torch.compile's) are timed in turns,
one call of each per round, and the medians printed (ms), then the eval forward (no grad)
eager and the two to_static models the same way. ``static`` keeps every graph compiled
(inductor's code, ``jit.compiled.TIMED_CHOICE`` off); ``auto`` is the default, where each
graph timed itself uncompiled and compiled on its first calls and kept the faster (its
choices printed); the loss difference over 3 steps (``chaos``: the same for eager itself
from weights moved by float32 rounding, 1e-7 relative: the spread any reordering of float32
arithmetic can cause in this network's 3 steps; ``--losses64`` repeats both in float64,
where rounding no longer hides whether the compiled step computes what eager does), and the
compile times (first steps / first forward, seconds, wall) separately; ``--cpu-time`` times
by process CPU time instead of wall time (steadier on a loaded machine). The load average is
printed with each model. Run it a second time: the compile caches
(``~/.cache/paddle_compat``: inductor's, and the aot packages and timed choices;
``XDG_CACHE_HOME`` moves both, a fresh one gives a truly cold first run) make the compile
columns of the second process the cache-hit times. Inductor bakes the thread count into its
kernels, so each thread count is its own process (``--threads``).
"""
import argparse
import os
import statistics
import sys
import time
import warnings

import numpy as np

# the thread count this process is given stays (the adaptive governor would change it under
# load, and every compiled graph is specialised on it)
os.environ.setdefault("PADDLE_COMPAT_ADAPTIVE_THREADS", "0")
import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import paddle_compat as paddle  # noqa: E402
from bench_zoo import torch_resnet18  # noqa: E402
from timing import machine, paddle_encoder, torch_encoder, torch_sgd_step  # noqa: E402


def paddle_model(name):
    paddle.seed(0)
    if name == "resnet18":
        return paddle.vision.models.resnet18(num_classes=10)
    if name == "mobilenetv2":
        return paddle.vision.models.mobilenet_v2(num_classes=10)

    return paddle_encoder(paddle)


def _torch_mobilenet_v2(num_classes):
    """MobileNetV2 (width 1.0) as paddle.vision.models.mobilenet_v2 builds it."""
    nn = torch.nn

    def cbr(i, o, k=3, s=1, g=1):
        return [nn.Conv2d(i, o, k, s, (k - 1) // 2, groups=g, bias=False), nn.BatchNorm2d(o),
                nn.ReLU6()]

    class Inverted(nn.Module):
        def __init__(self, i, o, s, t):
            super().__init__()
            h = i * t
            layers = (cbr(i, h, 1) if t != 1 else []) + cbr(h, h, 3, s, h) + \
                [nn.Conv2d(h, o, 1, bias=False), nn.BatchNorm2d(o)]
            self.conv = nn.Sequential(*layers)
            self.res = s == 1 and i == o

        def forward(self, x):
            return x + self.conv(x) if self.res else self.conv(x)

    cfg = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
           (6, 160, 3, 2), (6, 320, 1, 1)]
    layers, c = cbr(3, 32, 3, 2), 32
    for t, o, n, s in cfg:
        for k in range(n):
            layers.append(Inverted(c, o, s if k == 0 else 1, t))
            c = o
    layers += cbr(c, 1280, 1)
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2),
                         nn.Linear(1280, num_classes))


def torch_model(name):
    torch.manual_seed(0)
    if name == "resnet18":
        return torch_resnet18(10)[0]
    if name == "mobilenetv2":
        return _torch_mobilenet_v2(10)

    return torch_encoder()


def inputs(name, batch, size):
    rs = np.random.RandomState(0)
    if name == "encoder":
        x = rs.randint(0, 1000, (batch, 32)).astype("int64")
    else:
        x = rs.rand(batch, 3, size, size).astype("float32")
    return x, (np.arange(batch) % 10).astype("int64")


CLOCK = [time.perf_counter]


def load():
    """The 1/5/15-minute load averages (what else the machine ran during the numbers)."""
    return "/".join(f"{v:.1f}" for v in os.getloadavg())


def median_ms(fn, repeat):
    clock = CLOCK[0]
    fn()
    ts = []
    for _ in range(repeat):
        t = clock()
        fn()
        ts.append((clock() - t) * 1e3)
    return statistics.median(ts)


def first_s(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def paddle_step(model, x, y):
    opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9,
                                    parameters=model.parameters())

    def step():
        loss = paddle.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss
    return step


def rel_diff(a, b):
    return max(abs(p - q) / max(abs(p), 1e-12) for p, q in zip(a, b))


def perturbed_losses(name, x, y):
    """3 eager steps (seeded as the loss check's) from weights scaled by 1 + u, u uniform in
    +-1e-7 (the size of a float32 rounding)."""
    model = paddle_model(name)
    gen = torch.Generator().manual_seed(5)
    with torch.no_grad():
        for p in model.parameters():
            u = torch.rand(p._t.shape, generator=gen, dtype=p._t.dtype)
            p._t.mul_(1 + (u - 0.5) * 2e-7)
    step = paddle_step(model, x, y)
    paddle.seed(1)
    return [float(step()) for _ in range(3)]


def loss_run(name, x, y):
    """An eager model and a to_static one (built alike), their steps, the losses of their
    first 3 steps (seeded alike) and the seconds to_static's 3 took (its compile)."""
    eager_m = paddle_model(name)
    static_m = paddle.jit.to_static(paddle_model(name), backend="CINN")
    es, ss = paddle_step(eager_m, x, y), paddle_step(static_m, x, y)
    paddle.seed(1)
    le = [float(es()) for _ in range(3)]
    paddle.seed(1)
    t = time.perf_counter()
    ls = [float(ss()) for _ in range(3)]
    return eager_m, static_m, es, ss, le, ls, time.perf_counter() - t


def losses64(name, xa, ya):
    """The relative loss differences of ``loss_run`` (to_static's 3 steps) and of
    ``perturbed_losses`` (chaos), the models built and run in float64: where float32's losses
    spread by the network's own sensitivity (the chaos column), float64's show whether the
    compiled step computes what eager does."""
    compiled = paddle.jit.compiled
    before, timed = paddle.get_default_dtype(), compiled.TIMED_CHOICE
    paddle.set_default_dtype("float64")
    compiled.TIMED_CHOICE = False
    try:
        x = paddle.to_tensor(xa if name == "encoder" else xa.astype("float64"))
        y = paddle.to_tensor(ya)
        le, ls = loss_run(name, x, y)[4:6]
        return rel_diff(le, ls), rel_diff(le, perturbed_losses(name, x, y))
    finally:
        paddle.set_default_dtype(before)
        compiled.TIMED_CHOICE = timed


def interleaved_ms(fns, repeat):
    """Medians (ms) of each of ``fns``, timed in turns (one call of each per round), so load
    that comes and goes on a shared machine hits every column alike."""
    clock = CLOCK[0]
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, ts in zip(fns, times):
            t = clock()
            fn()
            ts.append((clock() - t) * 1e3)
    return [statistics.median(ts) for ts in times]


def _choices(model):
    """Each compiled graph's timed choice: (choice, then each candidate's ms: uncompiled,
    compiled, and where tried compiled NCHW and frozen, or ahead of time)."""
    out = []
    for tr in model.forward._cache.values():
        g = tr.gm
        if isinstance(g, paddle.jit.compiled.CompiledGraph):
            out.append((g.choice,) + tuple(round(v, 1) for v in (g.trial_ms or ())))
    return out


def trial_calls():
    """Calls that take a graph through its compile and its timed choice (one per candidate
    per round, and the compiling call): run before timing it in turns with other models,
    whose calls would otherwise be counted in its trial periods."""
    compiled = paddle.jit.compiled
    return len(compiled.CompiledGraph.CHOICES) * compiled.TRIAL_PAIRS + 2


def bench(name, args):
    compiled = paddle.jit.compiled
    xa, ya = inputs(name, args.batch, args.size)
    x, y = paddle.to_tensor(xa), paddle.to_tensor(ya)
    row = {}
    # losses over 3 steps: eager vs to_static (same seed, same data); this model's graphs stay
    # compiled (no timed choice): its column is inductor's code
    compiled.TIMED_CHOICE = False
    eager_m, static_m, es, ss, le, ls, row["compile_train_s"] = loss_run(name, x, y)
    row["loss_diff"] = rel_diff(le, ls)
    # the same eager steps from weights moved by float32 rounding (1e-7 relative): how far
    # any reordering of float32 arithmetic can move this network's losses in 3 steps
    row["loss_chaos"] = rel_diff(le, perturbed_losses(name, x, y))
    if args.losses64:
        row["loss64"] = losses64(name, xa, ya)
    # the default: graphs timed against their uncompiled selves, the faster kept (its compile
    # hits the cache the model above filled; the trial calls are counted in its compile time)
    compiled.TIMED_CHOICE = True
    auto_m = paddle.jit.to_static(paddle_model(name), backend="CINN")
    aus = paddle_step(auto_m, x, y)
    t = time.perf_counter()
    for _ in range(trial_calls()):
        aus()
    row["compile_auto_s"] = time.perf_counter() - t
    tm = torch.compile(torch_model(name))
    tx, ty = torch.from_numpy(xa), torch.from_numpy(ya)
    tstep = torch_sgd_step(tm, tx, ty)
    row["compile_torch_s"] = first_s(tstep)
    tstep()
    row["eager_step"], row["static_step"], row["auto_step"], row["torch_compile_step"] = \
        interleaved_ms([es, ss, aus, tstep], args.repeat)
    for m in (eager_m, static_m, auto_m):
        m.eval()
    with paddle.no_grad():
        compiled.TIMED_CHOICE = False
        row["compile_fwd_s"] = first_s(lambda: static_m(x))
        compiled.TIMED_CHOICE = True
        t = time.perf_counter()
        for _ in range(trial_calls()):
            auto_m(x)
        row["compile_auto_fwd_s"] = time.perf_counter() - t
        eager_m(x)
        row["eager_fwd"], row["static_fwd"], row["auto_fwd"] = interleaved_ms(
            [lambda: eager_m(x), lambda: static_m(x), lambda: auto_m(x)], args.repeat)
    row["choices"] = _choices(auto_m)
    return row


def bench_inference(name, args):
    """An inference process: the model as built (seeded), never trained, its eval forward
    through to_static(backend="CINN") under no_grad. The first calls' seconds (the compile
    and the timed choice: in a second process, a frozen or ahead-of-time package comes from
    the cache), the choice, and the forward timed in turns with eager."""
    compiled = paddle.jit.compiled
    xa, _ = inputs(name, args.batch, args.size)
    x = paddle.to_tensor(xa)
    eager_m, auto_m = paddle_model(name), paddle_model(name)
    eager_m.eval()
    auto_m.eval()
    auto_m = paddle.jit.to_static(auto_m, backend="CINN")
    with paddle.no_grad():
        t = time.perf_counter()
        for _ in range(trial_calls()):
            auto_m(x)
        first = time.perf_counter() - t
        eager_m(x)
        fwd_e, fwd_a = interleaved_ms([lambda: eager_m(x), lambda: auto_m(x)], args.repeat)
    print(f"{name:12s} eval-only: first calls {first:.1f} s; fwd eager {fwd_e:.1f} ms, auto "
          f"{fwd_a:.1f} ms ({fwd_e / fwd_a:.2f}x); choice {_choices(auto_m)}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--models", default="resnet18,mobilenetv2,encoder")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--eval-only", action="store_true",
                    help="an inference process: the untrained models' eval forward only (run "
                         "it twice: the second process loads the compiled packages)")
    ap.add_argument("--losses64", action="store_true",
                    help="the loss check again in float64 (to_static against eager, and the "
                         "chaos run): the compiled step's arithmetic against eager's, without "
                         "float32's rounding that chaotic networks amplify (a float64 compile "
                         "of each training graph more)")
    ap.add_argument("--cpu-time", action="store_true",
                    help="time steps by process CPU time (every thread counts): steadier than "
                         "wall time on a shared, loaded machine")
    args = ap.parse_args()
    if args.cpu_time:
        CLOCK[0] = time.process_time
    torch.set_num_threads(args.threads)
    warnings.simplefilter("ignore")
    print(f"# {machine()}; batch {args.batch}, images {args.size}x{args.size}; "
          f"{'CPU' if args.cpu_time else 'wall'} time; load average {load()}; "
          f"compile cache {paddle.jit.compiled.cache_dir()}")
    print(f"{'model':12s} {'eager':>8s} {'static':>8s} {'x':>5s} {'auto':>8s} {'x':>5s} "
          f"{'t.comp':>8s} {'a/tc':>5s} {'fwd e':>7s} {'fwd s':>7s} {'x':>5s} {'fwd a':>7s} "
          f"{'x':>5s} {'loss rel':>9s} {'chaos':>8s} {'comp train s':>12s} {'comp fwd s':>10s} "
          f"{'comp torch s':>12s}")
    for name in args.models.split(","):
        if args.eval_only:
            bench_inference(name, args)
            continue
        r = bench(name, args)
        print(f"# load average {load()}; auto's choices (choice, uncompiled / compiled / "
              f"then where tried NCHW / frozen / ahead-of-time ms per call): {r['choices']}; "
              f"auto's compile + trial {r['compile_auto_s']:.1f} s (training), "
              f"{r['compile_auto_fwd_s']:.1f} s (eval: with the frozen variant's compile, "
              "which torch does not cache, or the ahead-of-time package's, cached)")
        print(f"{name:12s} {r['eager_step']:8.1f} {r['static_step']:8.1f} "
              f"{r['eager_step'] / r['static_step']:5.2f} {r['auto_step']:8.1f} "
              f"{r['eager_step'] / r['auto_step']:5.2f} {r['torch_compile_step']:8.1f} "
              f"{r['auto_step'] / r['torch_compile_step']:5.2f} {r['eager_fwd']:7.1f} "
              f"{r['static_fwd']:7.1f} {r['eager_fwd'] / r['static_fwd']:5.2f} "
              f"{r['auto_fwd']:7.1f} {r['eager_fwd'] / r['auto_fwd']:5.2f} "
              f"{r['loss_diff']:9.1e} {r['loss_chaos']:8.1e} {r['compile_train_s']:12.1f} "
              f"{r['compile_fwd_s']:10.1f} "
              f"{r['compile_torch_s']:12.1f}", flush=True)
        if "loss64" in r:
            print(f"# {name}: float64 losses over 3 steps, to_static against eager "
                  f"{r['loss64'][0]:.1e} (chaos {r['loss64'][1]:.1e})", flush=True)


if __name__ == "__main__":
    main()
