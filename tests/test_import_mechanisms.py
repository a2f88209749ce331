"""How ``import paddle.x.y`` behaves around paddle_compat's own modules.

* A package's function or class keeps its name when the submodule of the same name is
  imported (``import paddle.amp.auto_cast`` leaves ``paddle.amp.auto_cast`` the function), as
  in Paddle 3.3.1 (goldens/submodule_names.json, tools/goldens/record_submodule_names.py), in
  every import form, through the import hook and without it.
* An ImportError (or AttributeError) raised while one of our own modules runs reaches the user
  with its cause, never as "not supported by paddle_compat yet".

Each case runs in a fresh interpreter: what is imported already decides what an import does.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GOLDEN = json.load(open(os.path.join(HERE, "goldens", "submodule_names.json")))["pairs"]
#: the pairs paddle_compat has both halves of (the others lack the submodule or the name)
COVERED = {"paddle.amp.auto_cast", "paddle.distributed.launch", "paddle.distributed.spawn",
           "paddle.tensor.einsum", "paddle.text.viterbi_decode", "paddle.utils.deprecated",
           "paddle.vision.models.alexnet", "paddle.vision.models.googlenet"}


def run(code, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip().splitlines()[-1]


PAIRS = """
import importlib, importlib.util, inspect, json, sys
import paddle_compat
how, hooked, pairs = sys.argv[1], sys.argv[2] == "hook", json.loads(sys.argv[3])
if hooked:
    paddle_compat.install()
out = {}
for parent, name in pairs:
    if not hooked:
        parent = "paddle_compat" + parent[len("paddle"):]
    full = parent + "." + name
    ours = "paddle_compat" + full[len("paddle"):] if hooked else full
    try:
        package = importlib.import_module(parent)
        before = package.__dict__.get(name)
        if before is None or (ours not in sys.modules
                              and importlib.util.find_spec(ours) is None):
            continue
    except ImportError:
        continue                    # a submodule or package paddle_compat lacks
    if how == "import":
        exec("import " + full)
    elif how == "from":
        exec("from " + parent + " import " + name + " as got")
        assert got is before, full
    else:
        assert inspect.ismodule(importlib.import_module(full)), full
    if how != "from":               # (from-import of a bound name imports nothing)
        assert inspect.ismodule(sys.modules[full]), full
    value = getattr(package, name)
    out[full if hooked else "paddle" + full[len("paddle_compat"):]] = (
        "module" if inspect.ismodule(value) else "class" if inspect.isclass(value)
        else "function")
print(json.dumps(out))
"""


@pytest.mark.parametrize("how,hooked", [("import", "hook"), ("from", "hook"),
                                        ("import_module", "hook"), ("import", "plain"),
                                        ("from", "plain")])
def test_submodule_import_keeps_the_function(how, hooked):
    pairs = json.dumps([[p["package"], p["name"]] for p in GOLDEN])
    got = json.loads(run(PAIRS, how, hooked, pairs))
    assert set(got) >= COVERED
    want = {f"{p['package']}.{p['name']}": p["after"][how] for p in GOLDEN}
    assert {k: want[k] for k in got} == got


def test_keeping_the_function_costs_no_attribute_read_and_undoes():
    out = run("""
        import types, paddle_compat
        paddle_compat.install()
        import paddle, paddle.amp.auto_cast
        amp = paddle.amp
        cls = type(amp)
        assert cls.__getattribute__ is types.ModuleType.__getattribute__
        assert "__getattr__" not in cls.__dict__
        with paddle.amp.auto_cast(False):
            pass
        amp.auto_cast = 3                   # an assignment of the user's still assigns
        assert amp.auto_cast == 3
        import paddle.tensor.einsum as e    # Paddle: the function, the module in sys.modules
        print(callable(e) and not isinstance(e, types.ModuleType), list(paddle.tensor([1.0]).shape))
    """)
    assert out == "True [1]"


# A meta-path finder, installed before paddle_compat is imported, that makes one of our modules
# fail as a bug or a missing dependency would
BROKEN = """
import importlib.machinery, importlib.util, os, sys
target, error = sys.argv[1], sys.argv[2]

class Failing(importlib.machinery.SourceFileLoader):
    def exec_module(self, module):
        if error == "attr":
            import numpy
            numpy.no_such_attribute_in_numpy
        raise ModuleNotFoundError("No module named 'some_missing_dependency'",
                                  name="some_missing_dependency")

class Finder:
    @staticmethod
    def find_spec(name, path=None, target_=None):
        if name != target:
            return None
        for finder in [f for f in sys.meta_path if f is not Finder]:
            spec = finder.find_spec(name, path)
            if spec is not None:
                spec.loader = Failing(name, spec.origin)
                return spec

sys.meta_path.insert(0, Finder)
import paddle_compat
from paddle_compat.compat.missing import UnsupportedAPIError, UnsupportedModuleError
paddle_compat.install()
results = []
for stmt in sys.argv[3:]:
    try:
        exec(stmt)
        results.append("no error")
    except Exception as e:
        if isinstance(e, NotImplementedError) or "not supported" in str(e):
            results.append("UNSUPPORTED " + str(e))
        else:
            cause = e.__cause__ or e
            results.append(type(e).__name__ + ": " + str(cause))
print(" | ".join(results))
"""


@pytest.mark.parametrize("target,error,statements,cause", [
    # a lazily bound namespace whose code raises AttributeError (numpy 1.24 and np.dtypes)
    ("paddle_compat.text", "attr",
     ["import paddle.text", "from paddle.text import viterbi_decode",
      "import paddle; paddle.text.viterbi_decode"], "no_such_attribute_in_numpy"),
    # a subpackage whose import fails for a missing dependency
    ("paddle_compat.distributed.auto_parallel", "dep",
     ["import paddle.distributed.auto_parallel", "import paddle.distributed.auto_parallel.api",
      "from paddle.distributed.auto_parallel import api",
      "import paddle; paddle.distributed.shard_tensor"],
     "some_missing_dependency"),
])
def test_an_import_error_inside_our_module_shows_its_cause(target, error, statements, cause):
    results = run(BROKEN, target, error, *statements).split(" | ")
    assert len(results) == len(statements)
    for stmt, r in zip(statements, results):
        assert not r.startswith(("UNSUPPORTED", "no error")), (stmt, r)
        assert cause in r, (stmt, r)


def test_setuptools_is_imported_before_pip_and_not_eagerly():
    # PaddleNLP: paddle, then pip (utils/import_utils.py), then `from setuptools import
    # Extension` (ops/ext_utils.py); setuptools after pip fails on Python < 3.12
    out = run("""
        import sys
        import paddle_compat
        paddle_compat.install()
        import paddle
        eager = "setuptools" in sys.modules
        import pip
        from setuptools import Extension
        import distutils.core
        print(eager, "_distutils" in distutils.core.__file__ or sys.version_info >= (3, 12))
    """)
    assert out == "False True"
