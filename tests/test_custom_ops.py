"""C++ custom operators (paddle.utils.cpp_extension): build, call, autograd, in-place, attributes,
optional/vector inputs, static mode, torch.library, errors.

The ops are in tests/custom_ops/ops.cc; they are compiled once per run (cached under build/
for repeated local runs; see conftest-less fixture ``ext`` below).
"""
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
import torch

import paddle_compat as paddle
from paddle_compat.utils import cpp_extension
from paddle_compat.utils.cpp_extension import CustomOpError, ExtensionBuildError

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BUILD = os.environ.get("PADDLE_COMPAT_TEST_EXT_DIR", os.path.join(REPO, "build", "test_ext"))


@pytest.fixture(scope="module")
def ops():
    return cpp_extension.load(name="pc_test_ops", sources=[os.path.join(HERE, "custom_ops", "ops.cc")],
                              build_directory=BUILD)


def t(data, dtype="float32", grad=False):
    x = paddle.to_tensor(np.asarray(data, dtype=dtype))
    x.stop_gradient = not grad
    return x


# ---------------------------------------------------------------------- forward and backward
def test_module_exposes_one_function_per_op(ops):
    assert sorted(ops.__all__) == sorted([
        "test_relu", "test_relu_inplace", "test_attrs", "test_add_optional", "test_sum_vec",
        "test_row_stats", "test_square", "test_no_grad", "test_fails"])
    assert callable(ops.test_relu)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_relu_forward_backward_matches_builtin(ops, dtype):
    data = np.array([[-1.5, 0.0, 2.0], [3.0, -4.0, 0.5]], dtype=dtype)
    x = t(data, dtype, grad=True)
    y = ops.test_relu(x)
    assert isinstance(y, paddle.Tensor) and y.dtype == x.dtype
    assert y.stop_gradient is False
    (y * paddle.to_tensor(np.arange(6, dtype=dtype).reshape(2, 3))).sum().backward()
    x2 = t(data, dtype, grad=True)
    y2 = paddle.nn.functional.relu(x2)
    (y2 * paddle.to_tensor(np.arange(6, dtype=dtype).reshape(2, 3))).sum().backward()
    np.testing.assert_array_equal(y.numpy(), y2.numpy())
    np.testing.assert_array_equal(x.grad.numpy(), x2.grad.numpy())


def test_no_grad_inputs_give_stop_gradient_outputs(ops):
    y = ops.test_relu(t([1.0, -1.0]))
    assert y.stop_gradient is True
    with paddle.no_grad():
        y = ops.test_relu(t([1.0, -1.0], grad=True))
    assert y.stop_gradient is True


def test_unsupported_dtype_raises_paddles_error_naming_kernel_and_dtype(ops):
    with pytest.raises(OSError) as e:
        ops.test_relu(t([1, -2], "int32"))
    msg = str(e.value)
    assert "relu_cpu_forward" in msg and "int32" in msg and "ops.cc" in msg
    assert "test_relu" in msg


def test_inplace_returns_the_input_object_and_backprops(ops):
    data = np.array([-1.0, 2.0, -3.0, 4.0], dtype="float32")
    x = t(data, grad=True)
    y = x * 1.0
    out = ops.test_relu_inplace(y)
    assert out is y
    np.testing.assert_array_equal(y.numpy(), np.maximum(data, 0))
    (out * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.where(data > 0, 3.0, 0.0).astype("float32"))


def test_inplace_without_grad_modifies_input(ops):
    x = t([-1.0, 5.0])
    assert ops.test_relu_inplace(x) is x
    np.testing.assert_array_equal(x.numpy(), [0.0, 5.0])


# ---------------------------------------------------------------------- attributes
ATTRS = dict(flag=False, i=2, f=0.5, l=3, s="abc", vi=[1, 2], vf=[0.25, 0.25], vl=[4],
             vs=["a", "b"], d=2.0)


def _attrs_expected(x, flag, i, f, l, s, vi, vf, vl, vs, d):
    v = x * np.float32(f) * d + (i + l + len(s) + len(vs) + sum(vi) + sum(np.float32(vf)) + sum(vl))
    return (-v if flag else v).astype("float32")


def test_attributes_positional_and_keyword(ops):
    data = np.array([1.0, -2.0], dtype="float32")
    out = ops.test_attrs(t(data), *ATTRS.values())
    np.testing.assert_allclose(out.numpy(), _attrs_expected(data, **ATTRS), rtol=1e-6)
    kw = dict(ATTRS, flag=True, s="")
    out = ops.test_attrs(t(data), **kw)
    np.testing.assert_allclose(out.numpy(), _attrs_expected(data, **kw), rtol=1e-6)


@pytest.mark.parametrize("name,bad", [("i", 1.5), ("flag", 1), ("s", 3), ("vi", [1.0]),
                                      ("vs", "ab"), ("l", "3")])
def test_attribute_of_wrong_type_is_a_type_error_naming_it(ops, name, bad):
    kw = dict(ATTRS, **{name: bad})
    with pytest.raises(TypeError, match=f"test_attrs.*'{name}'"):
        ops.test_attrs(t([1.0]), **kw)


def test_missing_and_unknown_arguments(ops):
    with pytest.raises(TypeError, match="missing required argument 'd'"):
        ops.test_attrs(t([1.0]), *list(ATTRS.values())[:-1])
    with pytest.raises(TypeError, match="unexpected keyword argument 'zz'"):
        ops.test_relu(t([1.0]), zz=1)


# ---------------------------------------------------------------------- optional and vectors
def test_optional_input_none_or_tensor(ops):
    x, y = t([1.0, 2.0], grad=True), t([10.0, 20.0], grad=True)
    np.testing.assert_array_equal(ops.test_add_optional(x).numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(ops.test_add_optional(x, None).numpy(), [1.0, 2.0])
    out = ops.test_add_optional(x, y)
    np.testing.assert_array_equal(out.numpy(), [11.0, 22.0])
    (out * 2).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(y.grad.numpy(), [2.0, 2.0])


def test_vector_input_takes_a_list_and_returns_a_grad_per_item(ops):
    xs = [t(np.full([2], float(k)), grad=True) for k in range(3)]
    out = ops.test_sum_vec(xs)
    np.testing.assert_array_equal(out.numpy(), [3.0, 3.0])
    (out * 5).sum().backward()
    for x in xs:
        np.testing.assert_array_equal(x.grad.numpy(), [5.0, 5.0])
    with pytest.raises(TypeError, match="list of Tensors"):
        ops.test_sum_vec(xs[0])


def test_several_outputs_with_infer_shape_and_dtype(ops):
    data = np.array([[1.0, 3.0, 2.0], [0.5, -1.0, 4.0]], dtype="float32")
    s, a, sc = ops.test_row_stats(t(data), 3)
    np.testing.assert_allclose(s.numpy(), data.sum(1), rtol=1e-6)
    assert a.dtype == paddle.int64 and a.numpy().tolist() == [1, 2]
    np.testing.assert_array_equal(sc.numpy(), data * 3)


# ---------------------------------------------------------------------- higher order
def test_double_grad_through_the_double_grad_op(ops):
    x = t([1.5, -2.0], "float64", grad=True)
    y = ops.test_square(x)
    (dx,) = paddle.grad([y], [x], grad_outputs=[paddle.ones_like(y)], create_graph=True)
    np.testing.assert_allclose(dx.numpy(), [3.0, -4.0])
    (ddx,) = paddle.grad([dx], [x], grad_outputs=[paddle.ones_like(dx)])
    np.testing.assert_allclose(ddx.numpy(), [2.0, 2.0])


def test_missing_grad_op_is_a_clear_error_at_backward(ops):
    x = t([1.0, 2.0], grad=True)
    y = ops.test_no_grad(x)
    np.testing.assert_array_equal(y.numpy(), [2.0, 3.0])
    with pytest.raises(RuntimeError, match="test_no_grad.*no grad op"):
        y.sum().backward()


@pytest.mark.parametrize("code,exc", [(1, ValueError), (2, NotImplementedError), (3, IndexError),
                                      (4, OSError)])
def test_kernel_errors_map_to_paddles_exception_types(ops, code, exc):
    with pytest.raises(exc, match="test_fails"):
        ops.test_fails(t([1.0]), code)
    assert paddle.is_grad_enabled()


# ---------------------------------------------------------------------- torch users
def test_torch_tensors_in_torch_tensors_out(ops):
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    y = ops.test_relu(x)
    assert type(y) is torch.Tensor
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0]
    ns = getattr(torch.ops, ops.namespace)
    assert ns.test_relu(torch.tensor([-3.0, 3.0])).tolist() == [0.0, 3.0]


def test_torch_library_op_passes_opcheck(ops):
    ns = getattr(torch.ops, ops.namespace)
    torch.library.opcheck(ns.test_relu.default, (torch.randn(3, 4, requires_grad=True),))
    torch.library.opcheck(ns.test_row_stats.default, (torch.randn(3, 4), 2))


def test_torch_compile_fullgraph_through_the_op(ops):
    torch._dynamo.reset()
    ns = getattr(torch.ops, ops.namespace)

    def f(a):
        return ns.test_relu(a * 2) + 1

    cf = torch.compile(f, fullgraph=True, backend="aot_eager")
    a = torch.randn(5, requires_grad=True)
    out = cf(a)
    torch.testing.assert_close(out, torch.relu(a * 2) + 1)
    out.sum().backward()
    torch.testing.assert_close(a.grad, (a > 0).float() * 2)


# ---------------------------------------------------------------------- static mode
def test_static_mode_records_and_runs_the_op(ops):
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3], "float32")
            x.stop_gradient = False
            y = ops.test_relu(x)
            s, a, sc = ops.test_row_stats(x, 2)
            assert list(s.shape) == [-1] and a.dtype == paddle.int64
            loss = paddle.mean(y)
            grads = paddle.static.gradients([loss], [x])
        exe = paddle.static.Executor()
        exe.run(startup)
        data = np.array([[-1.0, 2.0, 3.0], [4.0, -5.0, 6.0]], dtype="float32")
        yv, sv, gv = exe.run(main, feed={"x": data}, fetch_list=[y, s, grads[0]])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(yv, np.maximum(data, 0))
    np.testing.assert_allclose(sv, data.sum(1), rtol=1e-6)
    np.testing.assert_allclose(gv, (data > 0) / 6.0, rtol=1e-6)


# ---------------------------------------------------------------------- building
def test_rebuild_of_unchanged_sources_is_a_cache_hit(ops, tmp_path):
    # a fresh process loading the same sources: no compiler runs
    code = textwrap.dedent(f"""
        import time
        from paddle_compat.utils.cpp_extension import load
        t0 = time.perf_counter()
        m = load(name="pc_test_ops", sources=[{os.path.join(HERE, 'custom_ops', 'ops.cc')!r}],
                 build_directory={BUILD!r})
        print(time.perf_counter() - t0)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert float(out.stdout.strip().splitlines()[-1]) < 5.0
    assert "ninja" not in out.stderr and "c++" not in out.stderr
    # and in this process, the same module object
    again = cpp_extension.load(name="pc_test_ops",
                               sources=[os.path.join(HERE, "custom_ops", "ops.cc")],
                               build_directory=BUILD)
    assert again is ops


def test_compile_error_shows_the_compilers_message(tmp_path):
    src = tmp_path / "broken.cc"
    src.write_text('#include "paddle/extension.h"\n'
                   'std::vector<paddle::Tensor> F(const paddle::Tensor& x) { return {x.no_such()}; }\n'
                   'PD_BUILD_OP(broken).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(F));\n')
    with pytest.raises(ExtensionBuildError) as e:
        cpp_extension.load(name="pc_broken", sources=[str(src)], build_directory=BUILD)
    assert "broken" in str(e.value) and "no_such" in str(e.value)


def test_missing_source_and_bad_name():
    with pytest.raises(FileNotFoundError, match="nope.cc"):
        cpp_extension.load(name="x", sources=["nope.cc"])
    with pytest.raises(ValueError, match="identifier"):
        cpp_extension.load(name="bad-name", sources=[__file__])


def test_get_build_directory_honours_env(tmp_path, monkeypatch):
    monkeypatch.setenv("PADDLE_EXTENSION_DIR", str(tmp_path / "ext"))
    assert cpp_extension.get_build_directory() == str(tmp_path / "ext")
    assert os.path.isdir(tmp_path / "ext")


def test_setup_built_package_imports_with_one_function_per_op(tmp_path):
    (tmp_path / "setup.py").write_text(textwrap.dedent(f"""
        from paddle_compat.utils.cpp_extension import CppExtension, setup
        setup(name="pc_setup_ops",
              ext_modules=CppExtension(sources=[{os.path.join(HERE, 'custom_ops', 'setup_op.cc')!r}],
                                       extra_compile_args={{"cc": ["-O1"]}}))
    """))
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                         cwd=tmp_path, capture_output=True, text=True, env=env, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    code = ("import pc_setup_ops, paddle_compat as paddle; "
            "print(pc_setup_ops.__all__, pc_setup_ops.setup_add_scalar("
            "paddle.to_tensor([1.0, 2.0]), 0.5).numpy().tolist())")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip() == "['setup_add_scalar'] [1.5, 2.5]"


def test_static_mode_inplace_op_rebinds_its_input(ops):
    # Paddle's in-place Variable shares its name: the op writes into h, and h, its name and
    # the op's result all fetch the written value; gradients flow through the grad op.
    data = np.array([[-1.0, 2.0], [3.0, -4.0]], dtype="float32")
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 2], "float32")
            x.stop_gradient = False
            h = x * 2.0
            before = h * 1.0                # reads h before the write
            out = ops.test_relu_inplace(h)
            assert out is h
            loss = paddle.mean(out * 3.0)
            paddle.static.append_backward(loss)
        exe = paddle.static.Executor()
        got = exe.run(main, feed={"x": data},
                      fetch_list=[h, h.name, before, "x@GRAD", out.name + "@GRAD"])
        assert paddle.in_dynamic_mode() is False
    finally:
        paddle.disable_static()
    h_v, h_by_name, before_v, x_grad, out_grad = got
    np.testing.assert_array_equal(h_v, np.maximum(2 * data, 0))
    np.testing.assert_array_equal(h_by_name, h_v)
    np.testing.assert_array_equal(before_v, 2 * data)
    # h and out share one name, so out@GRAD is h@GRAD: what the grad op wrote last, the
    # gradient of h before the write (Paddle's program keeps one gradient variable per name)
    np.testing.assert_allclose(out_grad, np.where(data > 0, 0.75, 0.0))
    np.testing.assert_allclose(x_grad, np.where(data > 0, 1.5, 0.0))


def test_static_mode_inplace_op_on_fed_variable(ops):
    data = np.array([-1.0, 2.0, -3.0], dtype="float32")
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [3], "float32")
            out = ops.test_relu_inplace(x)
            y = out + 1.0
        got = paddle.static.Executor().run(main, feed={"x": data}, fetch_list=["x", y])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(got[0], np.maximum(data, 0))
    np.testing.assert_array_equal(got[1], np.maximum(data, 0) + 1)


def test_inplace_op_on_a_leaf_that_stops_gradient_keeps_its_grad(ops):
    # as Paddle's x.add_(y): the written leaf joins the graph and gets a .grad
    x = t([-1.0, 2.0])
    y = t([0.5, 0.5], grad=True)
    h = ops.test_relu_inplace(x + y)
    assert ops.test_relu_inplace(x) is x          # no gradient needed: x stays a leaf
    assert x.is_leaf and x.grad is None
    h.sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [0.0, 1.0])
    leaf = t([1.0, 2.0])
    w = t([3.0, 4.0], grad=True)
    assert leaf.add_(w) is leaf and not leaf.is_leaf
    (leaf * 3.0).sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), [3.0, 3.0])
    np.testing.assert_array_equal(w.grad.numpy(), [3.0, 3.0])


def test_extra_library_paths_is_accepted(ops):
    again = cpp_extension.load(name="pc_test_ops", sources=[os.path.join(HERE, "custom_ops",
                                                                          "ops.cc")],
                               build_directory=BUILD, extra_library_paths=[])
    assert again is ops


def test_two_extensions_in_one_process_keep_their_own_ops(ops):
    other = cpp_extension.load(name="pc_test_other",
                               sources=[os.path.join(HERE, "custom_ops", "setup_op.cc")],
                               build_directory=BUILD)
    assert other.__all__ == ["setup_add_scalar"]
    assert "setup_add_scalar" not in ops.__all__ and "test_relu" in ops.__all__
    np.testing.assert_array_equal(other.setup_add_scalar(t([1.0]), 2.0).numpy(), [3.0])


def test_double_grad_new_suffix_maps_to_the_grad_ops_input():
    # paddle::New(paddle::Grad("Out")) ("Out@GRAD@NEW") is the gradient of the grad op's input
    # "Out"; paddle::Grad(paddle::Grad("Out")) that of "Out@GRAD" (Paddle's custom_tanh).
    from types import SimpleNamespace
    from paddle_compat.utils.cpp_extension.custom_op import Port, _input_grads
    grad_level = SimpleNamespace(inputs=[Port("Out"), Port("Out@GRAD")])
    double = SimpleNamespace(outputs=[Port("Out@GRAD@NEW"), Port("Out@GRAD@GRAD")])
    assert _input_grads(grad_level, double, ["d_out", "d_dout"]) == ["d_out", "d_dout"]


def test_extension_utils_answer_for_our_headers_and_torchs_libraries(tmp_path):
    from paddle_compat.utils.cpp_extension import extension_utils as eu
    inc = eu.find_paddle_includes()
    assert os.path.realpath(inc[0]) == os.path.realpath(eu.get_include())
    assert os.path.isfile(os.path.join(inc[0], "paddle", "extension.h"))
    assert all(os.path.isdir(d) for d in eu.find_paddle_libraries())
    assert eu.find_python_includes() and eu.find_paddle_custom_device_includes() == []
    kw = eu.normalize_extension_kwargs({"extra_compile_args": {"cc": ["-O3"], "nvcc": []}})
    assert kw["extra_compile_args"]["cxx"] == ["-O3", "-w", "-DPADDLE_WITH_CUSTOM_KERNEL"]
    assert kw["include_dirs"][0] == inc[0] and kw["language"] == "c++"
    prepared = tmp_path / "prepared"            # a build directory listing its includes
    prepared.mkdir()
    (prepared / "includes.txt").write_text(f"{tmp_path}\n")
    kw = eu.normalize_extension_kwargs({"extra_compile_args": ["-O2"],
                                        "_compile_dir": str(prepared)})
    assert kw["extra_compile_args"] == ["-O2", "-w"] and "_compile_dir" not in kw
    assert kw["include_dirs"][:2] == sorted([str(tmp_path), str(prepared)])
