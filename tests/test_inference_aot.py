"""The compiled predictor (``Config.enable_memory_optim()``: jit/aot.py's AOTInductor
package) on the smallest model file: its values equal the eager predictor's, the input and
output handles keep Paddle's copy / share semantics on the compiled fast path, the package is
cached by the files' hash (a second predictor and a second process load it without
compiling), a failed compile falls back to eager with a message, with two threads the
1-thread package is run as well and the faster way kept, and ``jit.load`` +
``to_static(backend="CINN")`` runs the same package in inference.

One package is built, into a temporary cache, with ``freezing`` (weights as constants, as in
production) but without the GEMM autotune of ``aot.INDUCTOR_CONFIGS`` (which only picks
kernels and costs minutes); the other tests reuse it.
"""
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import paddle_compat as paddle
import paddle_compat.inference as pi
from paddle_compat.jit import aot as _aot

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "model_files")
#: the inductor settings of this module's package (see the module docstring)
CONFIGS = {"freezing": True}


def _predictor(memory_optim=True, threads=1):
    cfg = pi.Config(os.path.join(DATA, "mlp.json"), os.path.join(DATA, "mlp.pdiparams"))
    cfg.set_cpu_math_library_num_threads(threads)
    if memory_optim:
        cfg.enable_memory_optim()
    return pi.create_predictor(cfg)


def _mlp_case():
    with open(os.path.join(DATA, "expected", "mlp.json")) as f:
        gold = json.load(f)
    d = gold["inputs"][0]
    x = np.asarray(d["data"], d["dtype"]).reshape(d["shape"])
    return x, np.asarray(gold["eval_output"][0]["data"]).reshape(len(x), -1)


def _run(pred, x):
    pred.get_input_handle(pred.get_input_names()[0]).copy_from_cpu(x)
    pred.run()
    return pred.get_output_handle(pred.get_output_names()[0]).copy_to_cpu()


def _close(got, want):
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.fixture(scope="module")
def aot_cache(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("aot"))
    old = os.environ.get("PADDLE_COMPAT_AOT_CACHE")
    os.environ["PADDLE_COMPAT_AOT_CACHE"] = d
    configs = _aot.INDUCTOR_CONFIGS
    _aot.INDUCTOR_CONFIGS = CONFIGS
    yield d
    _aot.INDUCTOR_CONFIGS = configs
    if old is None:
        del os.environ["PADDLE_COMPAT_AOT_CACHE"]
    else:
        os.environ["PADDLE_COMPAT_AOT_CACHE"] = old


@pytest.fixture(scope="module")
def compiled(aot_cache):
    """The first compiled predictor (the module's one compile), after one run on the golden
    input."""
    pred = _predictor()
    x, _ = _mlp_case()
    got = _run(pred, x)
    return pred, got


def test_switch_chooses_path():
    assert _predictor(memory_optim=False)._aot is None
    cfg = pi.Config(os.path.join(DATA, "mlp.json"), os.path.join(DATA, "mlp.pdiparams"))
    cfg.enable_memory_optim()
    cfg.switch_ir_optim(False)
    assert pi.create_predictor(cfg)._aot is None


def test_compiled_values_equal_eager(compiled, aot_cache):
    pred, got = compiled
    x, want = _mlp_case()
    assert pred._aot.failed is None and pred._aot.cached is False
    assert [f for f in os.listdir(aot_cache) if f.endswith(".pt2")]
    _close(got, want)
    eager = _predictor(memory_optim=False)
    rng = np.random.default_rng(0)
    for _ in range(3):                      # new data through the fast path each time
        xi = rng.standard_normal(x.shape).astype("float32")
        got = _run(pred, xi)
        assert not pred._off                # the input sat in the package's buffer
        _close(got, _run(eager, xi))
    # run(list of Tensors) returns paddle Tensors, with the package's values
    out = pred.run([paddle.to_tensor(x)])
    assert isinstance(out[0], paddle.Tensor)
    _close(out[0].numpy(), want)


def test_handles_copy_and_share_semantics(compiled):
    pred, _ = compiled
    x, want = _mlp_case()
    h = pred.get_input_handle(pred.get_input_names()[0])
    out = pred.get_output_handle(pred.get_output_names()[0])
    src = x.copy()
    h.copy_from_cpu(src)
    src[:] = 0                              # copy_from_cpu copied: the run sees x
    pred.run()
    res = out.copy_to_cpu()
    _close(res, want)
    res[:] = -1                             # copy_to_cpu returned a copy
    _close(out.copy_to_cpu(), want)
    shared = x.copy()
    h.share_external_data(shared)           # no copy: the run sees later writes
    pred.run()
    _close(out.copy_to_cpu(), want)
    shared *= 2
    pred.run()
    _close(out.copy_to_cpu(), _run(_predictor(memory_optim=False), x * 2))
    # a non-contiguous input of the compiled shape runs eagerly, with eager's values
    h.share_external_data(np.ascontiguousarray(x.T).T)
    pred.run()
    _close(out.copy_to_cpu(), want)
    # an input of another batch size runs eagerly, then the fast path comes back
    _close(_run(pred, np.concatenate([x, x])), np.concatenate([want, want]))
    _close(_run(pred, x), want)
    assert not pred._off


def test_cache_hit_clone_and_pool(compiled):
    x, want = _mlp_case()
    second = _predictor()                   # same files, shapes, threads: loaded
    _close(_run(second, x), want)
    assert second._aot.cached is True
    clone = second.clone()                  # shares the package, has its own handles
    assert clone._aot is second._aot
    _close(_run(clone, x), want)
    assert not clone._off
    x2 = x[::-1].copy()
    _close(_run(clone, x2), _run(_predictor(memory_optim=False), x2))
    _close(second.get_output_handle(second.get_output_names()[0]).copy_to_cpu(), want)


def test_second_process_loads_without_compiling(compiled, aot_cache):
    code = ("import sys, json, numpy as np\n"
            "import paddle_compat.inference as pi\n"
            f"pi.aot.INDUCTOR_CONFIGS = {CONFIGS!r}\n"
            f"cfg = pi.Config({os.path.join(DATA, 'mlp.json')!r}, "
            f"{os.path.join(DATA, 'mlp.pdiparams')!r})\n"
            "cfg.set_cpu_math_library_num_threads(1)\n"
            "cfg.enable_memory_optim()\n"
            "p = pi.create_predictor(cfg)\n"
            f"x = np.asarray({_mlp_case()[0].tolist()!r}, 'float32')\n"
            "p.get_input_handle(p.get_input_names()[0]).copy_from_cpu(x)\n"
            "p.run()\n"
            "out = p.get_output_handle(p.get_output_names()[0]).copy_to_cpu()\n"
            "print(json.dumps([p._aot.cached, 'torch._inductor' in sys.modules, "
            "out.tolist()]))\n")
    env = dict(os.environ, PYTHONPATH=ROOT, PADDLE_COMPAT_AOT_CACHE=aot_cache)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    cached, inductor_imported, out = json.loads(r.stdout.strip().splitlines()[-1])
    assert cached is True and inductor_imported is False
    _close(np.asarray(out, "float32"), _mlp_case()[1])


def test_fallback_with_message(aot_cache, monkeypatch):
    import torch

    def refuse(*a, **k):
        raise RuntimeError("export refused for the test")
    monkeypatch.setattr(torch.export, "export", refuse)
    monkeypatch.setenv("PADDLE_COMPAT_AOT_CACHE", os.path.join(aot_cache, "empty"))
    x, want = _mlp_case()
    pred = _predictor()
    with pytest.warns(UserWarning, match="compiled predictor .* runs eagerly: RuntimeError: "
                                         "export refused"):
        got = _run(pred, x)
    _close(got, want)
    assert pred._aot.failed.startswith("RuntimeError: export refused")
    _close(_run(pred, x), want)             # eager from then on, without a new warning


def test_cache_key():
    files = (os.path.join(DATA, "mlp.json"), os.path.join(DATA, "mlp.pdiparams"))
    import torch
    sig = (((3, 6), torch.float32),)
    p1 = _aot.package_path(files, sig)
    assert p1 == _aot.package_path(files, sig)
    assert p1 != _aot.package_path(files, (((4, 6), torch.float32),))
    other = (os.path.join(DATA, "cnn.json"), os.path.join(DATA, "cnn.pdiparams"))
    assert p1 != _aot.package_path(other, sig)
    n = torch.get_num_threads()
    try:
        torch.set_num_threads(2 if n == 1 else 1)
        assert p1 != _aot.package_path(files, sig)
        assert p1 == _aot.package_path(files, sig, n)   # the count it is built for
    finally:
        torch.set_num_threads(n)


def test_load_inference_model_compiled_program(compiled):
    """``CompiledProgram(program, build_strategy)`` with ``build_cinn_pass`` on runs a loaded
    inference program as the package (here: the module's cached one); without it, eagerly."""
    x, want = _mlp_case()
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(DATA, "mlp"), exe)
    bs = paddle.static.BuildStrategy()
    bs.build_cinn_pass = True
    fast = paddle.static.CompiledProgram(prog, bs)
    got = exe.run(fast, feed={feeds[0]: x}, fetch_list=fetches)
    _close(got[0], want)
    assert fast._program._aot.failed is None and fast._program._aot.cached is True
    assert prog._aot is None                # the loaded program itself stays eager
    plain = paddle.static.CompiledProgram(prog)
    assert plain._program is prog
    _close(exe.run(plain, feed={feeds[0]: x}, fetch_list=fetches)[0], want)
    x2 = np.concatenate([x, x])             # another shape: eager, eager's values
    _close(exe.run(fast, feed={feeds[0]: x2}, fetch_list=fetches)[0],
           np.concatenate([want, want]))


def test_disable_mkldnn_runs_package_without_onednn(compiled):
    """``Config.disable_mkldnn()``: the package's calls run with ATen's oneDNN kernels off,
    and the process-wide switch is restored after each call."""
    import torch
    cfg = pi.Config(os.path.join(DATA, "mlp.json"), os.path.join(DATA, "mlp.pdiparams"))
    cfg.set_cpu_math_library_num_threads(1)
    cfg.enable_memory_optim()
    cfg.disable_mkldnn()
    pred = pi.create_predictor(cfg)
    x, want = _mlp_case()
    was = torch._C._get_mkldnn_enabled()
    _close(_run(pred, x), want)
    _close(_run(pred, x), want)             # the fast path
    assert pred._aot.mkldnn_off is True and not pred._off
    assert torch._C._get_mkldnn_enabled() == was


def test_fastest_way_timed_at_load():
    """The ways to run a package are timed at load: the fastest wins, but a dearer one (later
    in the list) only when it is at least 10% faster than the best before it."""
    import time

    def takes(s):
        return lambda tensors: time.sleep(s)
    assert _aot._fastest([takes(0.02), takes(0.001)], [], rounds=1)[0] == 1
    assert _aot._fastest([takes(0.001), takes(0.02)], [], rounds=1)[0] == 0
    assert _aot._fastest([takes(0.02)], [])[0] == 0       # one way: not timed


def test_two_threads_run_the_faster_package(compiled, aot_cache):
    """With two threads the predictor loads the 2-thread package and the 1-thread one
    (here: the module's package copied under the 2-thread key, so no second compile), times
    the ways to call them (the 1-thread package with torch at 1 thread or at 2, the 2-thread
    package; oneDNN on and off) and keeps the fastest; torch's thread count and oneDNN switch
    are as they were after each call."""
    import shutil
    import torch
    files = (os.path.join(DATA, "mlp.json"), os.path.join(DATA, "mlp.pdiparams"))
    x, want = _mlp_case()
    sig = (((3, 6), torch.float32),)
    shutil.copy(_aot.package_path(files, sig, 1), _aot.package_path(files, sig, 2))
    was = torch.get_num_threads()
    try:
        pred = _predictor(threads=2)
        _close(_run(pred, x), want)
        assert pred._aot.cached is True and pred._aot.failed is None
        assert set(pred._aot.timings) == {(1, 1, True), (1, 1, False), (1, 2, True),
                                          (1, 2, False), (2, 2, True), (2, 2, False)}
        way = pred._aot.way
        assert (way["package_threads"], way["threads"], way["onednn"]) in pred._aot.timings
        mkl = torch._C._get_mkldnn_enabled()
        x2 = x[::-1].copy()
        _close(_run(pred, x2), _run(_predictor(memory_optim=False, threads=2), x2))
        assert not pred._off and torch.get_num_threads() == 2
        assert torch._C._get_mkldnn_enabled() == mkl
        for serial in (False, True):        # each wrapper restores what it changes
            run = _aot._calling(lambda t: [torch.get_num_threads()], True, serial)
            assert run([]) == [1 if serial else 2] and torch.get_num_threads() == 2
            assert torch._C._get_mkldnn_enabled() == mkl
    finally:
        torch.set_num_threads(was)


def test_jit_load_to_static_cinn_runs_the_package(compiled, aot_cache, monkeypatch):
    """``paddle.jit.to_static(paddle.jit.load(path), backend="CINN")`` called in eval mode
    under ``no_grad`` runs the predictor's package (here the module's, from the cache: same
    files, shapes and threads); with gradients on, in train mode or on other shapes it runs
    the traced graph through ``torch.compile`` as before (``aot_eager`` here)."""
    import torch
    from paddle_compat.jit import compiled as _compiled
    monkeypatch.setattr(_compiled, "TORCH_BACKEND", "aot_eager")
    x, want = _mlp_case()
    layer = paddle.jit.to_static(paddle.jit.load(os.path.join(DATA, "mlp")), backend="CINN")
    runner = layer.forward._aot
    with paddle.no_grad():
        out = layer(paddle.to_tensor(x))
    assert runner.failed is None and runner.cached is True
    assert isinstance(out, paddle.Tensor)
    _close(out.numpy(), want)
    calls = []
    monkeypatch.setattr(runner, "run_flat", lambda ts: calls.append(1) or [torch.zeros(3, 4)])
    with paddle.no_grad():                  # the package's runner is what answers
        assert float(layer(paddle.to_tensor(x)).abs().sum()) == 0 and calls
        _close(layer(paddle.to_tensor(np.concatenate([x, x]))).numpy(),   # another shape
               np.concatenate([want, want]))
    out = layer(paddle.to_tensor(x))        # gradients on: the traced graph
    _close(out.numpy(), want)
    assert len(calls) == 1
    w = layer.parameters()[0]               # weights changed after the load: not the package
    with paddle.no_grad():
        w.zero_()
        got = layer(paddle.to_tensor(x)).numpy()
    assert len(calls) == 1 and layer.forward._aot is None
    ref = paddle.jit.load(os.path.join(DATA, "mlp"))
    ref.parameters()[0].set_value(w.numpy())
    with paddle.no_grad():
        _close(got, ref(paddle.to_tensor(x)).numpy())


def test_package_compile_writes_no_autotune_tables(tmp_path, monkeypatch):
    """The package compile runs with inductor's autotune reports off (``aot.QUIET_CONFIGS``:
    ``max_autotune`` would write its timing tables to stderr on a predictor's first run),
    and the settings are restored after it; torch's deprecation warning about its own pytree
    code is hidden, no other."""
    import torch._inductor
    from torch._inductor import config
    seen = {}

    def fake_compile(ep, package_path, inductor_configs):
        seen.update({k: getattr(config, k) for k in _aot.QUIET_CONFIGS if hasattr(config, k)})
        seen["configs"] = inductor_configs
        with open(package_path, "wb") as f:
            f.write(b"package")
    monkeypatch.setattr(torch._inductor, "aoti_compile_and_package", fake_compile)
    monkeypatch.setattr(_aot, "prune_cache", lambda: None)
    before = {k: getattr(config, k) for k in _aot.QUIET_CONFIGS if hasattr(config, k)}
    assert before                                       # this torch has the settings
    path = str(tmp_path / "p.pt2")
    _aot.quiet_torch_internals.cache_clear()          # pytest restored the filters of before
    _aot.write_package(None, path, {"freezing": True})
    with warnings.catch_warnings(record=True) as caught:
        warnings.warn("`isinstance(treespec, LeafSpec)` is deprecated, use ...", FutureWarning)
        warnings.warn("a user's own FutureWarning", FutureWarning)
    assert [str(w.message) for w in caught] == ["a user's own FutureWarning"]
    assert open(path, "rb").read() == b"package"
    assert seen.pop("configs") == {"freezing": True}
    assert seen == {k: v for k, v in _aot.QUIET_CONFIGS.items() if k in before}
    assert {k: getattr(config, k) for k in before} == before
