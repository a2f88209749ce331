"""The package's structure: floors without cycles, one op registration, lazy namespaces.

pyproject.toml's import contract (``bash run.sh lint``, run by CI) forbids upward imports between
floors; these tests hold what a contract between packages cannot: no import cycle between
modules, no import hidden in a function body of the lower floors to dodge one, every Tensor
method traceable to one definition, and ``import paddle_compat`` loading only the core.
"""
import ast
import os
import subprocess
import sys
import types

import grimp
import pytest

import paddle_compat as paddle
from paddle_compat.ops import registry

PKG = os.path.dirname(paddle.__file__)
LOWER_FLOORS = ("framework", "random", "ops", "autograd", "static")


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("paddle_compat", include_external_packages=False)


def _cycles(graph):
    """Strongly connected groups of more than one module (Tarjan)."""
    adj = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    for m in sorted(adj):
        if m not in index:
            visit(m)
    return out


def test_no_import_cycle_between_modules(graph):
    assert _cycles(graph) == []


def test_no_module_imports_the_package_root(graph):
    importers = graph.find_modules_that_directly_import("paddle_compat")
    assert sorted(m for m in importers if m != "paddle_compat") == []


def _function_level_imports(path):
    tree = ast.parse(open(path).read())
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom) and node.level > 0:
                    names = [a.name for a in node.names]
                    if names != ["_fastops"]:          # the optional C module, loaded on demand
                        found.append(f"{path}:{node.lineno}")
    return found


def test_lower_floors_import_at_module_level_only():
    """A function-level import in a lower floor is how a cycle or an upward import hides."""
    found = []
    for floor in LOWER_FLOORS:
        for root, _, files in os.walk(os.path.join(PKG, floor)):
            for f in files:
                if f.endswith(".py"):
                    found += _function_level_imports(os.path.join(root, f))
    assert found == []


def test_every_tensor_method_has_one_definition():
    """``Tensor.foo`` is written in framework/tensor.py's class, or registered by one op
    (``registry.method_origin`` names it)."""
    tensor_file = sys.modules["paddle_compat.framework.tensor"].__file__
    untraced = []
    for name, v in vars(paddle.Tensor).items():
        fn = getattr(v, "_impl", v)
        fn = getattr(fn, "fget", fn)
        fn = getattr(fn, "__wrapped__", fn)         # under its torch-style spelling wrapper
        if not isinstance(fn, types.FunctionType) or name.startswith("__"):
            continue
        if fn.__code__.co_filename == tensor_file:
            continue
        if registry.method_origin(name) is None:
            untraced.append(name)
    assert untraced == []


def test_a_method_registered_twice_is_refused():
    op = registry.OpSet(__name__)

    def tanh(x):
        return x
    with pytest.raises(ValueError, match=r"Tensor.tanh is registered by .*ops.* and by"):
        op(tanh, method=True, export=False)


def test_registration_makes_function_method_and_fast_op():
    op = registry.OpSet(__name__)
    ns = types.ModuleType("fake_namespace")

    def _compat_test_double(x, name=None):
        return paddle.Tensor(x._t * 2)
    try:
        op(_compat_test_double, method=True, fast=("x", lambda t: t * 2))
        assert op.names == ["_compat_test_double"]
        assert globals()["_compat_test_double"] is _compat_test_double
        x = paddle.to_tensor([1.0, 2.0])
        assert x._compat_test_double().tolist() == [2.0, 4.0]
        ns._compat_test_double = _compat_test_double
        registry.publish(ns)
        if registry._state["c"] is not None:
            assert type(ns._compat_test_double).__name__ == "FastOp"
        assert ns._compat_test_double(x).tolist() == [2.0, 4.0]
    finally:
        delattr(paddle.Tensor, "_compat_test_double")
        registry._methods.pop("_compat_test_double", None)
        registry._origin.pop("_compat_test_double", None)
        registry._published.remove(ns)


def _fresh(code):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=os.path.dirname(PKG), timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_import_loads_only_the_core():
    # a lazily bound namespace sits in sys.modules unexecuted (its class is importlib's lazy
    # module until its first attribute read)
    out = _fresh("import sys, types, paddle_compat\n"
                 "print(sorted(m.split('.')[1] for m, mod in sys.modules.items() "
                 "if m.startswith('paddle_compat.') and type(mod) is types.ModuleType))")
    loaded = set(eval(out))
    # device and tensor are callable modules (paddle.device("cpu"), paddle.tensor([1.])): a
    # lazily bound module cannot be called, so they are small and imported at once
    # star_names: the package's __all__ (Paddle's top-level one), a tuple of strings
    assert loaded <= {"framework", "ops", "random", "autograd", "compat", "device",
                      "tensor", "star_names"}, loaded


def test_package_attribute_reads_stay_plain_module_reads():
    # a module subclass or a __getattr__ in the package would slow every paddle.xxx read
    assert type(paddle) is types.ModuleType
    assert "__getattr__" not in vars(paddle)


def test_lazy_namespaces_and_names_work_on_first_use():
    out = _fresh(
        "import paddle_compat as paddle\n"
        "from paddle_compat.static import data\n"
        "import paddle_compat.optimizer\n"
        "print(paddle.nn.Linear(2, 3).weight.shape, paddle.in_dynamic_mode(),\n"
        "      isinstance(paddle.DataParallel(paddle.nn.Linear(2, 2)), paddle.DataParallel),\n"
        "      callable(paddle.save), 'nn' in dir(paddle))\n"
        "x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0])\n"
        "print(x.softmax().shape, x.stft(4, center=False).shape)\n")
    lines = out.splitlines()
    assert lines[0] == "paddle.Size([2, 3]) True True True True"
    assert lines[1] == "paddle.Size([4]) paddle.Size([3, 1])"


def test_lazy_method_stand_ins_are_replaced_by_their_registration():
    out = _fresh(
        "import paddle_compat as paddle\n"
        "from paddle_compat.ops import registry\n"
        "before = {n: paddle.Tensor.__dict__[n] for n in ('stft', 'istft', 'softmax')}\n"
        "import paddle_compat.signal, paddle_compat.nn.functional\n"
        "print([paddle.Tensor.__dict__[n] is not f for n, f in before.items()])")
    assert out.strip() == "[True, True, True]"


def test_missing_api_errors_reach_lazily_imported_namespaces():
    out = _fresh(
        "import paddle_compat\n"
        "paddle = paddle_compat.install()\n"
        "try:\n"
        "    paddle.nn.NoSuchLayer\n"
        "except NotImplementedError as e:\n"
        "    print(type(e).__name__, e)\n")
    assert out.startswith("UnsupportedAPIError paddle.nn.NoSuchLayer")
