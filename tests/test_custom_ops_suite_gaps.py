"""What Paddle's own custom-op suite (test/custom_op, at the stored versions listed in
tools/upstream/custom_op_files_*.txt) needs beyond tests/test_custom_ops.py: the private
include helpers of ``extension_utils`` its utils.py imports, a grad op's gradient of another
dtype than its input (custom_cast), vector-input gradients in eager and static mode
(custom_concat), the CPU context's ``eigen_device()`` (context_pool), and a CPU build of C++
sources that declare functions of .cu files torch cannot compile (custom_relu_op_jit).

The ops are ours, in tests/custom_ops/suite_gaps_ops.cc (+ .cu); they are compiled once per run
into the same build directory as tests/test_custom_ops.py (``PADDLE_COMPAT_TEST_EXT_DIR``).
"""
import os

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from paddle_compat import static
from paddle_compat.utils import cpp_extension
from paddle_compat.utils.cpp_extension import build, extension_utils

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BUILD = os.environ.get("PADDLE_COMPAT_TEST_EXT_DIR", os.path.join(REPO, "build", "test_ext"))
SOURCES = [os.path.join(HERE, "custom_ops", "suite_gaps_ops.cc"),
           os.path.join(HERE, "custom_ops", "suite_gaps_ops.cu")]


@pytest.fixture(scope="module")
def ops():
    return cpp_extension.load(name="pc_suite_gaps_ops", sources=SOURCES, build_directory=BUILD)


@pytest.fixture
def static_mode():
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()


# ---------------------------------------------------------------------- extension_utils
def test_include_root_of_our_headers_gives_ours_and_torchs():
    eu = extension_utils
    for root in (build.INCLUDE_DIR, eu.get_include()):     # the real one, the wheel layout
        dirs = eu._get_all_paddle_includes_from_include_root(root)
        assert dirs[0] == build.INCLUDE_DIR
        assert os.path.isfile(os.path.join(dirs[0], "paddle", "extension.h"))
        assert dirs == build.include_paths()            # torch's headers, which ours need
    assert eu.find_paddle_includes() == dirs


def test_include_root_elsewhere_gives_paddles_wheel_layout(tmp_path):
    root = tmp_path / "paddle" / "include"
    dirs = extension_utils._get_all_paddle_includes_from_include_root(root)
    assert dirs == [str(root), os.path.join(str(root), "third_party")]


def test_include_dirs_of_a_prepared_build(tmp_path):
    inc = tmp_path / "inc"
    (inc / "paddle" / "base" / "platform").mkdir(parents=True)
    other = tmp_path / "other"
    other.mkdir()
    build_dir = tmp_path / "build"
    build_dir.mkdir()
    (build_dir / "includes.txt").write_text(f"{inc}\n\n{other}\n")
    got = extension_utils._get_include_dirs_when_compiling(str(build_dir))
    assert got == sorted([str(inc), str(other), str(build_dir),
                          os.path.join(str(inc), "paddle", "base", "platform")])
    with pytest.raises(AssertionError, match="includes.txt does not exist"):
        extension_utils._get_include_dirs_when_compiling(str(other))


# ---------------------------------------------------------------------- CUDA sources on CPU
@pytest.mark.skipif(build._torch_has_cuda(), reason="the .cu file is compiled with CUDA")
def test_cpu_build_drops_cuda_sources_and_loads_with_their_functions_unresolved(ops):
    assert build._host_sources(SOURCES, "load") == SOURCES[:1]
    x = paddle.to_tensor(np.array([1.0, -2.0], dtype="float32"))
    np.testing.assert_array_equal(ops.gaps_scale_two(x).numpy(), [2.0, -4.0])
    with pytest.raises(ValueError, match="every source is a CUDA file"):
        build._host_sources(SOURCES[1:], "load")


def test_lazy_symbols_restores_the_dlopen_flags():
    import sys
    before = sys.getdlopenflags()
    with build._lazy_symbols():
        assert sys.getdlopenflags() & os.RTLD_LAZY
    assert sys.getdlopenflags() == before


# ---------------------------------------------------------------------- gradient dtypes
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_grad_op_gradient_keeps_its_dtype_on_a_data_leaf(ops, dtype):
    x = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3), stop_gradient=False)
    out = ops.gaps_cast(x, dtype)
    assert str(out.dtype).split(".")[-1] == dtype
    out.backward()
    assert str(x.grad.dtype).split(".")[-1] == dtype          # as Paddle: not cast back
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((2, 3)))


def test_grad_op_gradient_of_another_dtype_accumulates(ops):
    x = paddle.to_tensor(np.ones(3, dtype="float32"), stop_gradient=False)
    ops.gaps_cast(x, "float64").backward()
    ops.gaps_cast(x, "float64").backward()
    assert str(x.grad.dtype).split(".")[-1] == "float64"
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0, 2.0])


# ---------------------------------------------------------------------- vector inputs
def test_vector_input_gradients_reach_every_input(ops):
    a = paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3), stop_gradient=False)
    b = paddle.to_tensor(np.arange(3, dtype="float32").reshape(1, 3), stop_gradient=False)
    out = ops.gaps_stack_rows([a, b])
    np.testing.assert_array_equal(out.numpy(), np.concatenate([a.numpy(), b.numpy()]))
    w = paddle.to_tensor(np.arange(9, dtype="float32").reshape(3, 3))
    (out * w).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), w.numpy()[:2])
    np.testing.assert_array_equal(b.grad.numpy(), w.numpy()[2:])


def test_vector_input_gradients_fetched_by_name_in_static_mode(ops, static_mode):
    with static.scope_guard(static.Scope()), static.program_guard(static.Program()):
        x1 = static.data(name="x1", shape=[2, 3], dtype="float32")
        x2 = static.data(name="x2", shape=[1, 3], dtype="float32")
        x1.stop_gradient = False
        x2.stop_gradient = False
        out = ops.gaps_stack_rows([x1, x2])
        static.append_backward(paddle.sum(out * 2.0))
        exe = static.Executor()
        out_v, g1, g2 = exe.run(static.default_main_program(),
                                feed={"x1": np.ones((2, 3), "float32"),
                                      "x2": np.zeros((1, 3), "float32")},
                                fetch_list=[out.name, x1.name + "@GRAD", x2.name + "@GRAD"])
    np.testing.assert_array_equal(out_v, np.concatenate([np.ones((2, 3)), np.zeros((1, 3))]))
    np.testing.assert_array_equal(g1, np.full((2, 3), 2.0))
    np.testing.assert_array_equal(g2, np.full((1, 3), 2.0))


def test_grad_of_another_dtype_fetched_in_static_mode(ops, static_mode):
    with static.scope_guard(static.Scope()), static.program_guard(static.Program()):
        x = static.data(name="X", shape=[None, 4], dtype="float32")
        x.stop_gradient = False
        out = ops.gaps_cast(x, "float64")
        static.append_backward(out)
        exe = static.Executor()
        out_v, g = exe.run(static.default_main_program(), feed={"X": np.ones((2, 4), "float32")},
                           fetch_list=[out, x.name + "@GRAD"])
    assert out_v.dtype == np.float64 and g.dtype == np.float64
    np.testing.assert_array_equal(g, np.ones((2, 4)))


# ---------------------------------------------------------------------- device contexts
def test_cpu_context_has_an_eigen_device(ops):
    x = paddle.to_tensor(np.array([[1.0, 2.0]], dtype="float32"))
    np.testing.assert_array_equal(ops.gaps_context_copy(x).numpy(), x.numpy())
    assert torch.equal(ops.gaps_context_copy(x)._t, x._t)


# ---------------------------------------------------------------------- linear's rounding
def test_linear_rounds_the_product_and_the_sum_apart_as_paddle():
    """Paddle's CPU linear is a matmul, then an add (custom_linear's C++ does the same and the
    suite compares them exactly): the same two kernels here, not torch's fused addmm."""
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.random((3, 2), dtype="float32"), stop_gradient=False)
    w = paddle.full([2, 4], 0.5, "float32")
    b = paddle.ones([4], "float32")
    y = paddle.nn.functional.linear(x, w, b)
    ref = paddle.add(paddle.matmul(x, w), b)
    np.testing.assert_array_equal(y.numpy(), ref.numpy())       # same kernels: same bits
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full((3, 2), 2.0, "float32"))
    x3 = paddle.to_tensor(rng.random((2, 3, 2), dtype="float32"))
    np.testing.assert_array_equal(paddle.nn.functional.linear(x3, w, b).numpy(),
                                  paddle.add(paddle.matmul(x3, w), b).numpy())
