"""Write tools/names/paddle_names.txt: every public name of real Paddle 3.3.1, read from Paddle.

    /work/paddle_venv/bin/python tools/names/record_names.py

A name is public when it is in its module's ``__all__``, or when it is bound in a public module
without a leading underscore, is not itself a module, and was defined by Paddle inside that
module's package (``paddle.vision.resnet18``) or is one of Paddle's dtype objects; in the
torch-style modules (``TORCH_STYLE``: ``paddle``, ``paddle.cuda``, ``paddle.nn`` ...) anything
Paddle defined counts. That second rule takes in what torch-style code reaches outside
``__all__`` (``paddle.cuda.*``, ``paddle.long``, ``paddle.nn.ZeroPad2d``,
``paddle.device.set_default_device`` ...) and leaves out what a module imports for its own use
(``paddle.vision.ops.BatchNorm2D``). Helpers that are not part of any API yet pass the rule are
listed in ``INTERNAL`` and dropped; each entry there was looked at. Tensor members are
``dir(paddle.Tensor)`` without underscores.

The modules walked are every ``paddle.*`` module that has an ``__all__`` (found by importing the
packages under ``paddle`` that users import) plus the 3.x torch-style modules that have none.
Each line of the output is ``module.name<TAB>where`` (``all``: in ``__all__``; ``extra``:
outside it; ``method``: a Tensor member). Paddle's own top-level ``__all__`` (what
``from paddle import *`` binds) also goes to paddle_compat/star_names.py, which the package's
``__all__`` is made from.
"""
import importlib
import os
import re
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "paddle_names.txt")
STAR = os.path.join(HERE, "..", "..", "paddle_compat", "star_names.py")

# The packages users import; their public submodules are reached through attributes.
ROOTS = [
    "paddle", "paddle.amp", "paddle.audio", "paddle.audio.backends", "paddle.audio.datasets",
    "paddle.audio.features", "paddle.audio.functional", "paddle.autograd", "paddle.callbacks",
    "paddle.compat", "paddle.compat.nn", "paddle.compat.nn.functional", "paddle.cuda",
    "paddle.device", "paddle.device.cuda", "paddle.distributed", "paddle.distributed.fleet",
    "paddle.distributed.fleet.utils", "paddle.distributed.io", "paddle.distribution",
    "paddle.fft", "paddle.geometric", "paddle.hub", "paddle.incubate",
    "paddle.incubate.autograd", "paddle.incubate.nn", "paddle.incubate.nn.functional",
    "paddle.inference", "paddle.io", "paddle.jit", "paddle.linalg", "paddle.metric",
    "paddle.nn", "paddle.nn.functional", "paddle.nn.init", "paddle.nn.initializer",
    "paddle.nn.quant", "paddle.nn.utils", "paddle.onnx", "paddle.optimizer",
    "paddle.optimizer.lr", "paddle.profiler", "paddle.quantization", "paddle.random",
    "paddle.regularizer", "paddle.signal", "paddle.sparse", "paddle.sparse.nn",
    "paddle.sparse.nn.functional", "paddle.special", "paddle.static", "paddle.static.nn",
    "paddle.sysconfig", "paddle.text", "paddle.utils", "paddle.utils.cpp_extension",
    "paddle.utils.dlpack", "paddle.utils.unique_name", "paddle.version", "paddle.vision",
    "paddle.vision.datasets", "paddle.vision.models", "paddle.vision.ops",
    "paddle.vision.transforms",
]

# Names bound in public modules that are Paddle's own helpers, not API (checked one by one).
INTERNAL = re.compile(
    r"^(monkey_patch_\w+|new_init|original_init|\w+Decorator|LayerHelper|"
    r"check_\w*(dtype|type|variable)\w*|in_\w*mode|param_\w+_alias|size_args_decorator|"
    r"signature_safe_contextmanager|deprecated|overload|fft_[cr]2[cr]|fftn_[cr]2[cr]|"
    r"is_floating_point|is_integer|extract_\w+|dev_types|current_device_is_cpu|device_to_place|"
    r"PROMOTE_DICT|[biufc]\d|bf|paddle_triton_fun|FLAGS_\w+|allocate_record_\w+|"
    r"MemoryAnalysisTool|convert_dtype|core|framework|unique_name|wrap_decorator|"
    r"dygraph_only|static_only|Variable|Value|Program|default_main_program|LayerHelperBase)$")


# Modules torch-style code reaches names of, wherever Paddle defined them.
TORCH_STYLE = {"paddle", "paddle.cuda", "paddle.device", "paddle.device.cuda", "paddle.autograd",
               "paddle.nn", "paddle.nn.functional", "paddle.nn.init", "paddle.special",
               "paddle.compat", "paddle.compat.nn", "paddle.compat.nn.functional",
               "paddle.linalg", "paddle.fft", "paddle.optimizer", "paddle.amp"}


def _is_dtype(v):
    import paddle
    return isinstance(v, type(paddle.float32))


def public_names(modname):
    """(name, kind) pairs of one module."""
    mod = importlib.import_module(modname)
    listed = list(getattr(mod, "__all__", None) or [])
    seen = set(listed)
    out = [(n, "all") for n in listed]
    for n, v in vars(mod).items():
        if n in seen or n.startswith("_") or isinstance(v, types.ModuleType):
            continue
        if INTERNAL.match(n):
            continue
        owner = getattr(v, "__module__", None) or ""
        inside = owner == modname or owner.startswith(modname + ".")
        if not (_is_dtype(v) or (modname in TORCH_STYLE and owner.startswith("paddle"))
                or inside):
            continue
        if isinstance(v, (bool, int, float, str)) or v is None:
            continue
        out.append((n, "extra"))
    return out


def main():
    import paddle
    rows = {}
    for m in ROOTS:
        try:
            names = public_names(m)
        except ImportError as e:        # a module of a different build (XPU, IPU ...)
            print(f"skip {m}: {e}", file=sys.stderr)
            continue
        for n, kind in names:
            rows.setdefault(f"{m}.{n}", kind)
    for n in dir(paddle.Tensor):
        if not n.startswith("_"):
            rows.setdefault(f"paddle.Tensor.{n}", "method")
    with open(OUT, "w") as f:
        f.write(f"# Public names of PaddlePaddle {paddle.__version__}, recorded by "
                "tools/names/record_names.py from Paddle itself.\n"
                "# name<TAB>all (in __all__) | extra (public outside __all__) | method "
                "(Tensor member)\n")
        for name in sorted(rows):
            f.write(f"{name}\t{rows[name]}\n")
    with open(STAR, "w") as f:
        f.write(f'"""What ``from paddle import *`` binds in Paddle {paddle.__version__} (its top-level '
                '``__all__``), recorded\nby tools/names/record_names.py; the package\'s ``__all__`` '
                'is the part of it that exists here."""\n\nPADDLE_ALL = (\n')
        for n in paddle.__all__:
            f.write(f"    {n!r},\n")
        f.write(")\n")
    kinds = {}
    for k in rows.values():
        kinds[k] = kinds.get(k, 0) + 1
    print(f"{len(rows)} names: {kinds}")


if __name__ == "__main__":
    main()
