"""Building custom-op extensions: ``load`` (JIT) and ``setup`` (setuptools), on
``torch.utils.cpp_extension``.

Every extension gets two files of ours besides the user's sources: ``binding.cc`` (the bridge
to Python, compiled once per header version and torch build and then linked in as an object)
and ``module_init.cc`` (the module's init function, a few lines). The include path carries our
``paddle/extension.h``. A JIT build is cached under ``get_build_directory()`` by a hash of the
sources, flags, headers and torch version: loading an unchanged op again imports the built
module without invoking the compiler.
"""
import glob
import hashlib
import importlib.util
import os
import re
import sys
import sysconfig

import torch
# this package is imported on first use (``paddle.utils.cpp_extension``), so torch's builder
# (and setuptools with it) loads only then
from torch.utils import cpp_extension as _tce

from .custom_op import build_ops

__all__ = ["load", "setup", "CppExtension", "CUDAExtension", "BuildExtension",
           "get_build_directory", "include_paths", "load_op_module", "ExtensionBuildError"]

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE_DIR = os.path.join(HERE, "include")
BINDING = os.path.join(HERE, "binding.cc")
MODULE_INIT = os.path.join(HERE, "module_init.cc")
_CUDA_EXT = (".cu", ".cuh")
#: the CUDA toolkit extensions are built with (None without one), as Paddle's
#: ``cpp_extension.CUDA_HOME``: torch's builder finds it the same way (CUDA_HOME, nvcc on PATH,
#: /usr/local/cuda)
CUDA_HOME = _tce.CUDA_HOME


class ExtensionBuildError(RuntimeError):
    """Building a custom-op extension failed; the message carries the compiler's output."""


def include_paths(cuda=False):
    """The include directories an extension needs: ours (``paddle/extension.h``) and torch's."""
    return [INCLUDE_DIR] + _tce.include_paths(device_type="cuda" if cuda else "cpu")


def get_build_directory(verbose=False):
    """Where JIT-built extensions go: ``$PADDLE_EXTENSION_DIR`` or ``~/.cache/paddle_extensions``
    (created when missing)."""
    root = os.environ.get("PADDLE_EXTENSION_DIR")
    if not root:
        root = os.path.join(os.path.expanduser("~"), ".cache", "paddle_extensions")
    root = os.path.abspath(os.path.expanduser(root))
    os.makedirs(root, exist_ok=True)
    if verbose:
        print(f"Compiling user custom op, it will cost a few seconds.....\n"
              f"build directory: {root}", file=sys.stderr)
    return root


def _file_digest(h, path):
    with open(path, "rb") as f:
        h.update(f.read())


def _tree_digest():
    """A digest of our headers and bridge sources (a change rebuilds every extension)."""
    h = hashlib.sha256()
    files = sorted(glob.glob(os.path.join(INCLUDE_DIR, "**", "*.h"), recursive=True))
    for f in files + [BINDING, MODULE_INIT]:
        h.update(os.path.relpath(f, HERE).encode())
        _file_digest(h, f)
    return h.hexdigest()


def _toolchain_key():
    return "|".join([torch.__version__, sys.version, sysconfig.get_platform(),
                     str(torch.version.cuda)])


def _cuda_flags(has_cuda):
    return ["-DPADDLE_WITH_CUDA", "-DPADDLE_COMPAT_WITH_CUDA"] if has_cuda else []


def _binding_object(build_root, verbose):
    """binding.cc compiled once (per headers/torch version) into an object file."""
    key = hashlib.sha256((_tree_digest() + _toolchain_key()).encode()).hexdigest()[:16]
    bdir = os.path.join(build_root, "_paddle_compat_binding", key)
    obj = os.path.join(bdir, "binding.o")
    if os.path.exists(obj):
        return obj
    os.makedirs(bdir, exist_ok=True)
    try:
        _tce.load(name=f"paddle_compat_binding_{key}", sources=[BINDING],
                 extra_cflags=["-O2"], extra_include_paths=[INCLUDE_DIR],
                 build_directory=bdir, verbose=verbose, is_python_module=False)
    except Exception as e:
        raise ExtensionBuildError(f"building paddle_compat's custom-op bridge failed:\n{e}") \
            from None
    if not os.path.exists(obj):
        raise ExtensionBuildError(f"building paddle_compat's custom-op bridge left no {obj}")
    return obj


_LOADED = {}   # module name -> Python module of ops


def load(name, sources, extra_cxx_cflags=None, extra_cuda_cflags=None, extra_ldflags=None,
         extra_include_paths=None, build_directory=None, verbose=False, *, extra_cflags=None,
         extra_library_paths=None, interpreter=None):
    """Compile the custom-op ``sources`` (.cc/.cpp/.cu) just in time and return a module with
    one Python function per op they build with ``PD_BUILD_OP``.

    ``extra_cflags`` is accepted as another name for ``extra_cxx_cflags``; directories in
    ``extra_library_paths`` are searched for ``extra_ldflags``' libraries. An unchanged build is
    a cache hit: no compiler runs. Compile errors raise ``ExtensionBuildError`` with the
    compiler's message.
    """
    if isinstance(sources, str):
        sources = [sources]
    if not sources:
        raise ValueError("load(): `sources` is empty; give the .cc/.cu files of the custom op")
    sources = [os.path.abspath(s) for s in sources]
    for s in sources:
        if not os.path.isfile(s):
            raise FileNotFoundError(f"load(): custom op source {s!r} does not exist")
    if not re.match(r"^[A-Za-z_]\w*$", name):
        raise ValueError(f"load(): name {name!r} must be a valid Python identifier")
    cflags = list(extra_cxx_cflags or []) + list(extra_cflags or [])
    cuda_cflags = list(extra_cuda_cflags or [])
    ldflags = [f"-L{os.path.abspath(p)}" for p in (extra_library_paths or [])] + \
        list(extra_ldflags or [])
    includes = [os.path.abspath(p) for p in (extra_include_paths or [])]
    has_cuda = any(s.endswith(_CUDA_EXT) for s in sources)
    root = os.path.abspath(build_directory) if build_directory else get_build_directory(verbose)
    os.makedirs(root, exist_ok=True)

    h = hashlib.sha256()
    for s in sources:
        h.update(s.encode())
        _file_digest(h, s)
    for part in (cflags, cuda_cflags, ldflags, includes):
        h.update(repr(part).encode())
    h.update(_tree_digest().encode())
    h.update(_toolchain_key().encode())
    modname = f"{name}_{h.hexdigest()[:12]}"
    if modname in _LOADED:
        return _LOADED[modname]
    ext_dir = os.path.join(root, name)
    built = os.path.join(ext_dir, modname + ".so")
    if not os.path.exists(built):
        os.makedirs(ext_dir, exist_ok=True)
        binding = _binding_object(get_build_directory(), verbose)
        flags = ["-O2", "-DPADDLE_COMPAT"] + _cuda_flags(has_cuda) + cflags
        try:
            ext = _tce.load(name=modname, sources=sources + [MODULE_INIT], extra_cflags=flags,
                           extra_cuda_cflags=_cuda_flags(has_cuda) + cuda_cflags,
                           extra_ldflags=[binding] + ldflags,
                           extra_include_paths=[INCLUDE_DIR] + includes,
                           build_directory=ext_dir, verbose=verbose,
                           with_cuda=has_cuda or None)
        except Exception as e:
            raise ExtensionBuildError(
                f"building custom op extension '{name}' from {', '.join(sources)} failed:\n{e}"
            ) from None
        module = ops_module(ext, name, built)
    else:
        module = load_op_module(modname, built, name)
    _LOADED[modname] = module
    return module


def load_op_module(modname, path, public_name=None):
    """Import a built extension and return a module with its ops as Paddle functions."""
    spec = importlib.util.spec_from_file_location(modname, path)
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    return ops_module(ext, public_name or modname, path)


_NAMESPACES = set()
#: op name -> (input names, attribute names, output names, module) of every loaded custom op
OP_INFO = {}


def _namespace(public_name, ext):
    """The torch.ops namespace of an extension: its public name, unless a different build of
    the same name was loaded before in this process."""
    ns = re.sub(r"\W", "_", public_name)
    if ns in _NAMESPACES:
        ns = re.sub(r"\W", "_", ext.__name__)
    _NAMESPACES.add(ns)
    return ns


def ops_module(ext, public_name, path):
    """A module holding one Paddle function per forward op of the extension module ``ext``."""
    import types
    functions, lib = build_ops(ext, _namespace(public_name, ext))
    module = types.ModuleType(public_name, f"Custom ops built from C++ ({', '.join(functions)}).")
    module.__file__ = path
    module.namespace = lib.ns
    module._C = ext
    module._library = lib
    module.__dict__.update(functions)
    module.__all__ = list(functions)
    for info in ext.ops():
        if info[1] == 0:       # a forward op: (inputs, attribute names, outputs) as declared
            OP_INFO[info[0]] = ([str(n) for n in info[2]],
                                [str(a).split(":")[0].strip() for a in info[4]],
                                [str(n) for n in info[3]], module)
    return module


# ---------------------------------------------------------------------- setuptools
def _extension_kwargs(kwargs):
    """Our include directory, and the bridge as a prebuilt object (built once, in
    ``get_build_directory()``)."""
    kwargs.setdefault("name", "paddle_custom_op")
    kwargs["include_dirs"] = [INCLUDE_DIR] + list(kwargs.get("include_dirs", []) or [])
    kwargs["extra_objects"] = (list(kwargs.get("extra_objects", []) or []) +
                               [_binding_object(get_build_directory(), False)])
    eca = kwargs.get("extra_compile_args")
    if isinstance(eca, dict) and "cc" in eca:      # Paddle spells the C++ flags 'cc' or 'cxx'
        eca = dict(eca)
        eca["cxx"] = list(eca.pop("cc")) + list(eca.get("cxx", []))
        kwargs["extra_compile_args"] = eca
    return kwargs


def CppExtension(sources, *args, **kwargs):
    """A setuptools Extension for C++ custom-op sources (``name`` comes from ``setup``)."""
    kwargs = _extension_kwargs(kwargs)
    return _tce.CppExtension(sources=list(sources) + [MODULE_INIT], *args, **kwargs)


def CUDAExtension(sources, *args, **kwargs):
    """A setuptools Extension for custom-op sources with .cu files (built with nvcc)."""
    kwargs = _extension_kwargs(kwargs)
    eca = kwargs.get("extra_compile_args") or {}
    if isinstance(eca, (list, tuple)):
        eca = {"cxx": list(eca), "nvcc": []}
    eca = {"cxx": list(eca.get("cxx", [])) + _cuda_flags(True),
           "nvcc": list(eca.get("nvcc", [])) + _cuda_flags(True)}
    kwargs["extra_compile_args"] = eca
    return _tce.CUDAExtension(sources=list(sources) + [MODULE_INIT], *args, **kwargs)


_STUB = '''"""Custom ops built by paddle_compat.utils.cpp_extension.setup."""
import os as _os

from paddle_compat.utils.cpp_extension import load_op_module as _load

_m = _load({modname!r}, _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), {so!r}),
           __name__)
globals().update({{_k: getattr(_m, _k) for _k in _m.__all__}})
__all__ = list(_m.__all__)
'''


class BuildExtension(_tce.BuildExtension):
    """torch's BuildExtension, plus the Python module that exposes each op as a function
    (``import <name>`` then ``<name>.<op>(...)``, as with Paddle's setup). A class, as
    Paddle's: libraries subclass it (PaddleNLP's ``paddlenlp/ops`` build)."""

    def run(self):
        super().run()
        for ext in self.extensions:
            public = getattr(ext, "_paddle_public_name", None)
            if not public:
                continue
            full = self.get_ext_fullpath(ext.name)     # the in-place path with --inplace
            so = os.path.basename(full)
            stub = os.path.join(os.path.dirname(full), public + ".py")
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(stub, "w") as f:
                f.write(_STUB.format(modname=ext.name, so=so))


def setup(**attr):
    """setuptools.setup for custom ops, as Paddle's: ``ext_modules`` may be one Extension; the
    extension is named after ``name`` and installed with a Python module of that name whose
    functions are the ops."""
    import setuptools
    name = attr.get("name")
    if not name:
        raise ValueError("setup(): `name` is required; it is the module users import")
    exts = attr.get("ext_modules")
    if exts is None:
        raise ValueError("setup(): `ext_modules` is required (CppExtension or CUDAExtension)")
    if not isinstance(exts, (list, tuple)):
        exts = [exts]
    if len(exts) != 1:
        raise ValueError("setup(): one custom-op extension per setup() call, as in Paddle")
    ext = exts[0]
    ext.name = f"{name}_pd_"
    ext._paddle_public_name = name
    macros = [m for m in (ext.define_macros or []) if m[0] != "TORCH_EXTENSION_NAME"]
    ext.define_macros = macros
    attr["ext_modules"] = [ext]
    cmdclass = dict(attr.get("cmdclass") or {})
    cmdclass.setdefault("build_ext", BuildExtension.with_options(no_python_abi_suffix=True))
    attr["cmdclass"] = cmdclass
    attr.setdefault("zip_safe", False)
    return setuptools.setup(**attr)
