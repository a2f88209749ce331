"""The small Paddle APIs Paddle's own test suites lean on (custom-op suite: test/custom_op/) and
``tools/run_paddle_tests.py``, which runs such suites unchanged on paddle_compat.

``paddle.utils.cpp_extension.extension_utils`` (platform facts, ``run_cmd``, the compiler check),
``paddle.sysconfig``, ``paddle.pir_utils``, ``paddle.framework.in_pir_mode``/``use_pir_api``/
``random._manual_program_seed`` and ``paddle.set_flags``/``get_flags``. Hook lookups and the
runner run in subprocesses (the hook changes ``sys.modules``).
"""
import os
import shutil
import subprocess
import sys
import textwrap
import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import paddle_compat as paddle
from paddle_compat import pir_utils, static, sysconfig
from paddle_compat.utils.cpp_extension import build, extension_utils

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "tools", "run_paddle_tests.py")


def clean_env(**extra):
    e = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    e.update(extra)
    return e


# ------------------------------------------------------------------ extension_utils
def test_platform_facts():
    assert extension_utils.IS_WINDOWS == sys.platform.startswith("win")
    assert extension_utils.OS_NAME == sys.platform
    assert os.path.realpath(extension_utils.get_include()) == os.path.realpath(build.INCLUDE_DIR)
    assert extension_utils.get_build_directory is build.get_build_directory


def test_run_cmd(tmp_path):
    target = tmp_path / "made"
    assert extension_utils.run_cmd(f"touch {target}") == 0
    assert target.exists()
    for verbose in (True, False):
        with pytest.raises(RuntimeError, match="Failed to run command: exit 3"):
            extension_utils.run_cmd("exit 3", verbose)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="GCC checks are Linux's")
def test_check_abi_compatibility(monkeypatch):
    monkeypatch.setenv("PADDLE_SKIP_CHECK_ABI", "true")
    assert extension_utils.check_abi_compatibility("no-such-compiler") is True
    monkeypatch.delenv("PADDLE_SKIP_CHECK_ABI")
    # a program that is no GCC: one warning, False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert extension_utils.check_abi_compatibility(sys.executable) is False
    assert len(caught) == 1 and "Compiler Compatibility WARNING" in str(caught[0].message)
    # the right name but no version to read
    monkeypatch.setattr(extension_utils, "_expected_compiler_current_platform",
                        lambda: [os.path.basename(os.path.realpath(sys.executable))])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert extension_utils.check_abi_compatibility(sys.executable) is False
    assert len(caught) == 1
    assert "Failed to check compiler version for" in str(caught[0].message)


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_check_abi_compatibility_accepts_this_gcc():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert extension_utils.check_abi_compatibility("g++") is True


# ------------------------------------------------------------------ sysconfig, pir_utils
def test_sysconfig_points_at_our_headers_and_torchs_libraries():
    # in the layout of Paddle's wheel (.../paddle/include, .../paddle/libs), as build scripts
    # and Paddle's test_sysconfig.py check
    inc, lib = sysconfig.get_include(), sysconfig.get_lib()
    assert inc.split(os.sep)[-2:] == ["paddle", "include"]
    assert lib.split(os.sep)[-2:] == ["paddle", "libs"]
    assert os.path.realpath(inc) == os.path.realpath(build.INCLUDE_DIR)
    assert os.path.isfile(os.path.join(inc, "paddle", "extension.h"))
    libs = os.listdir(lib)
    assert any(n.startswith("libc10") for n in libs)
    assert any(n.startswith("libtorch") for n in libs)


def test_pir_guards_and_decorator_keep_the_one_static_ir():
    calls = []

    @pir_utils.test_with_pir_api
    def body(a, b=2):
        calls.append((a, b))
        return paddle.framework.mode.in_pir_mode()

    assert body(1) is False
    assert calls == [(1, 2)]             # run once, not once per IR
    for guard in (pir_utils.IrGuard, pir_utils.OldIrGuard):
        with guard():
            assert paddle.framework.mode.in_pir_mode() is False


def test_in_pir_mode_is_false_and_grad_names_are_fetchable():
    from paddle_compat.framework.mode import in_pir_mode, use_pir_api
    # use_pir_api() is Paddle 3.3.1's (True: models are saved as PIR .json), False only inside
    # OldIrGuard; in_pir_mode() stays False so that Paddle code takes the legacy static branch
    assert use_pir_api() is True and in_pir_mode() is False
    with pir_utils.OldIrGuard():
        assert use_pir_api() is False
    assert use_pir_api() is True
    paddle.enable_static()
    try:
        assert in_pir_mode() is False
        with static.program_guard(static.Program(), static.Program()):
            x = static.data("X", [None, 3], "float32")
            x.stop_gradient = False
            y = paddle.tanh(x)
            static.append_backward(paddle.sum(y))
            exe = static.Executor()
            a = np.array([[0.5, -1.0, 2.0]], "float32")
            out, gx = exe.run(feed={"X": a}, fetch_list=[y, x.name + "@GRAD"])
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(gx, 1 - np.tanh(a) ** 2, rtol=1e-6)


def test_manual_program_seed():
    from paddle_compat.compat.shims.framework_random import _manual_program_seed
    _manual_program_seed(7)
    assert static.default_main_program().random_seed == 7
    assert static.default_startup_program().random_seed == 7
    a = paddle.randn([3]).numpy()
    _manual_program_seed(7)
    np.testing.assert_array_equal(a, paddle.randn([3]).numpy())


# ------------------------------------------------------------------ vision.transforms
def test_normalize_and_compose():
    from paddle_compat.vision.transforms import Compose, Normalize
    hwc = np.arange(24).reshape(2, 4, 3).astype("uint8")
    n = Normalize([1.0, 2.0, 3.0], [2.0, 4.0, 8.0], data_format="HWC", to_rgb=True)
    got = n(hwc)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got[0, 0], [0.5, -0.25, -0.375])   # Paddle 3.3.1's values
    r = Compose([Normalize(0.5, 0.5), lambda a: a * 2])(np.full((3, 2, 2), 2.0))
    assert r.dtype == np.float64 and r[0, 0, 0] == 6.0
    chw = paddle.to_tensor(np.arange(12.0).reshape(3, 2, 2).astype("float32"))
    t = Normalize([1.0, 2.0, 3.0], [2.0, 4.0, 8.0])(chw)
    assert isinstance(t, paddle.Tensor)
    np.testing.assert_array_equal(t.numpy()[:, 0, 0], [-0.5, 0.5, 0.625])
    with pytest.raises(ValueError, match="data_format"):
        Normalize(data_format="NHWC")(hwc)


# ------------------------------------------------------------------ flags
def test_set_and_get_flags():
    assert paddle.get_flags("FLAGS_use_stride_kernel") == {"FLAGS_use_stride_kernel": True}
    paddle.set_flags({"FLAGS_use_stride_kernel": 0, "FLAGS_check_nan_inf": 1})
    try:
        assert paddle.get_flags(["FLAGS_use_stride_kernel", "FLAGS_check_nan_inf"]) == {
            "FLAGS_use_stride_kernel": False, "FLAGS_check_nan_inf": True}
    finally:
        paddle.set_flags({"FLAGS_use_stride_kernel": True, "FLAGS_check_nan_inf": False})
    with pytest.raises(ValueError, match="FLAGS_nope cannot set"):
        paddle.set_flags({"FLAGS_nope": 1})
    with pytest.raises(ValueError, match="FLAGS_nope cannot get"):
        paddle.get_flags("FLAGS_nope")
    with pytest.raises(TypeError):
        paddle.set_flags(["FLAGS_check_nan_inf"])


def test_cudnn_deterministic_flag_reaches_torch():
    import torch
    before = torch.backends.cudnn.deterministic
    paddle.set_flags({"FLAGS_cudnn_deterministic": True})
    try:
        assert torch.backends.cudnn.deterministic is True
    finally:
        paddle.set_flags({"FLAGS_cudnn_deterministic": before})
    assert torch.backends.cudnn.deterministic is before


def test_names_through_the_import_hook():
    code = textwrap.dedent("""
        import paddle
        from paddle.utils.cpp_extension.extension_utils import IS_WINDOWS, run_cmd
        from paddle.pir_utils import test_with_pir_api, OldIrGuard
        import paddle.utils.cpp_extension.extension_utils as eu
        paddle.framework.random._manual_program_seed(3)
        print(paddle.framework.in_pir_mode(), paddle.framework.use_pir_api(), IS_WINDOWS,
              paddle.sysconfig.get_include() == eu.get_include(),
              paddle.static.default_main_program().random_seed)
    """)
    p = subprocess.run([sys.executable, "-m", "paddle_compat", "-c", code], capture_output=True,
                       text=True, env=clean_env(), timeout=300, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["False", "True", "False", "True", "3"]


# ------------------------------------------------------------------ the runner
SAMPLE = '''
import os, subprocess, sys, unittest
import paddle

class TestSample(unittest.TestCase):
    def test_passes(self):
        self.assertEqual(paddle.to_tensor([1, 2]).sum().item(), 3)

    def test_fails(self):
        self.assertEqual(paddle.ones([2]).sum().item(), 3, "two is not three")

    @unittest.skip("not here")
    def test_skipped(self):
        pass

    def test_child_python_sees_paddle_compat(self):
        out = subprocess.check_output(
            [sys.executable, "-c", "import paddle; print(paddle.__name__)"], text=True)
        self.assertEqual(out.strip(), "paddle_compat")

if __name__ == "__main__":
    unittest.main()
'''

CRASH = '''
import os
def test_first():
    pass
def test_dies():
    os._exit(9)
def test_never_reached():
    pass
'''


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    d = tmp_path_factory.mktemp("paddle_suite")
    (d / "test_sample.py").write_text(SAMPLE)
    (d / "test_crash.py").write_text(CRASH)
    return d


def run_runner(*args):
    return subprocess.run([sys.executable, RUNNER, *map(str, args)], capture_output=True,
                          text=True, env=clean_env(), timeout=600, cwd=ROOT)


def test_runner_pytest_mode_table_and_junit(suite, tmp_path):
    junit, table = tmp_path / "out.xml", tmp_path / "table.txt"
    p = run_runner("--junit", junit, "--table", table, "--scratch", tmp_path / "scratch", suite)
    assert p.returncode == 1, p.stdout + p.stderr
    rows = {ln.split()[0]: ln.split()[1] for ln in table.read_text().splitlines()
            if "::" in ln}
    assert rows == {
        "test_crash.py::test_first": "passed",
        "test_crash.py::test_dies": "crashed",
        "test_sample.py::TestSample::test_passes": "passed",
        "test_sample.py::TestSample::test_fails": "failed",
        "test_sample.py::TestSample::test_skipped": "skipped",
        "test_sample.py::TestSample::test_child_python_sees_paddle_compat": "passed",
    }
    assert "two is not three" in table.read_text()
    assert "exit status 9" in table.read_text()
    # the copies ran, the originals stayed clean
    assert (tmp_path / "scratch" / suite.name / "test_sample.py").exists()
    cases = ET.parse(junit).getroot().iter("testcase")
    kinds = {c.get("name"): [e.tag for e in c] for c in cases}
    assert kinds["test_fails"] == ["failure"] and kinds["test_passes"] == []
    assert kinds["test_skipped"] == ["skipped"] and kinds["test_dies"] == ["error"]


def test_runner_unittest_mode(suite):
    p = run_runner("--unittest", suite / "test_sample.py")
    assert p.returncode == 1, p.stdout + p.stderr
    rows = {ln.split()[0]: ln.split()[1] for ln in p.stdout.splitlines() if "::" in ln
            and "(log:" not in ln}
    pre = "test_sample.py::test_sample.TestSample."
    assert rows == {pre + "test_passes": "passed", pre + "test_fails": "failed",
                    pre + "test_skipped": "skipped",
                    pre + "test_child_python_sees_paddle_compat": "passed"}, p.stdout
    assert p.stdout.strip().splitlines()[-1] == "2 passed, 1 failed, 1 skipped"


def test_runner_timeout(tmp_path):
    (tmp_path / "test_slow.py").write_text("import time\ndef test_sleep():\n"
                                           "    time.sleep(600)\n")
    # 30 s: the child reaches the test (interpreter, torch, paddle_compat, pytest) in about 6 s of
    # CPU; the margin is for a busy machine. It then sleeps until it is killed.
    p = run_runner("--timeout", "30", tmp_path / "test_slow.py")
    assert p.returncode == 1
    assert "test_slow.py::test_sleep" in p.stdout and "timeout" in p.stdout
