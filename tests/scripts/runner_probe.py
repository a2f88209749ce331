"""Probe of ``python -m paddle_compat`` for tests/test_runner.py: prints one JSON line about
how it was run and what ``import paddle`` gave.

``runner_probe.py raise`` raises before importing anything (its traceback must be exactly what
plain ``python`` prints); ``runner_probe.py exit N`` exits with status N.
"""
import sys

if sys.argv[1:2] == ["raise"]:
    def inner():
        raise ValueError("raised on purpose")
    inner()
if sys.argv[1:2] == ["exit"]:
    sys.exit(int(sys.argv[2]))

import json  # noqa: E402
import os  # noqa: E402

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402
import paddle_compat  # noqa: E402
from paddle.autograd import PyLayer  # noqa: E402
from paddle.autograd.py_layer import PyLayerContext  # noqa: E402
from paddle.base import core  # noqa: E402


def error_of(stmt):
    try:
        exec(stmt, {"paddle": paddle})
    except BaseException as e:  # noqa: BLE001
        return [type(e).__name__, str(e), isinstance(e, NotImplementedError),
                isinstance(e, AttributeError), isinstance(e, ImportError)]
    return None


report = {
    "argv": sys.argv,
    "name": __name__,
    "file": __file__,
    "path0": sys.path[0],
    "main_is_me": sys.modules["__main__"].__dict__ is globals(),
    "paddle": paddle.__name__,
    "same_objects": [paddle is paddle_compat, F is paddle_compat.nn.functional,
                     PyLayer is paddle_compat.autograd.PyLayer,
                     PyLayerContext is paddle_compat.autograd.PyLayerContext,
                     paddle.tanh is paddle_compat.tanh,
                     sys.modules["paddle.nn.functional"] is F],
    "spec_kept": paddle_compat.nn.functional.__spec__.name,
    "core_cuda": core.is_compiled_with_cuda(),
    "framework": [paddle.framework.in_dynamic_mode(), paddle.base.framework.in_dygraph_mode()],
    "hasattr_missing": hasattr(paddle, "no_such_api"),
    "getattr_default": getattr(paddle.nn, "no_such_layer", "default"),
    "errors": {s: error_of(s) for s in [
        "paddle.no_such_api",
        "paddle.nn.functional.no_such_fn",
        "import paddle.no_such_module",
        "from paddle import no_such_name",
        "from paddle.linalg import no_such_fn",
        "import paddle.fluid",
        "import paddle.compat",
    ]},
    "pythonpath_has_bootstrap": any(p.endswith(os.path.join("compat", "_bootstrap"))
                                    for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)),
}

# the proposed Tensor.__getattr__ (paddle_compat.compat.tensor_getattr), tried in this process
from paddle_compat.compat import tensor_getattr  # noqa: E402
paddle.Tensor.__getattr__ = tensor_getattr
x = paddle.to_tensor([1.0])
report["tensor_missing"] = error_of("paddle.to_tensor([1.0]).no_such_method()")
report["tensor_private"] = error_of("paddle.to_tensor([1.0])._no_such_private")
report["tensor_name"] = x.name.startswith("generated_tensor")
report["tensor_ok"] = [float(x.exp().numpy()[0]) > 2.7, hasattr(x, "no_such_method")]
del paddle.Tensor.__getattr__
print(json.dumps(report))
