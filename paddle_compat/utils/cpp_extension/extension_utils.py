"""``paddle.utils.cpp_extension.extension_utils``: the platform facts and small helpers of
Paddle's custom-op build that scripts and tests use directly.

``IS_WINDOWS``/``OS_NAME``, ``run_cmd`` (a shell command, ``RuntimeError`` on failure),
``check_abi_compatibility`` (is the C++ compiler the kind and version the build expects:
GCC on Linux, at least the version torch's extension builder asks for), the include and
build directories, and what a setuptools Extension of custom ops needs
(``find_paddle_includes``/``find_paddle_libraries``/``find_python_includes``,
``normalize_extension_kwargs``), answered for paddle_compat: our headers, torch's headers and
libraries. Builds themselves are ``paddle_compat.utils.cpp_extension``'s (on
``torch.utils.cpp_extension``).
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import warnings

from .build import (_LOADED, INCLUDE_DIR, OP_INFO, get_build_directory, include_paths,
                    load_op_module)

__all__ = ["IS_WINDOWS", "IS_MAC", "OS_NAME", "run_cmd", "check_abi_compatibility",
           "get_build_directory", "get_include", "log_v", "find_paddle_includes",
           "find_paddle_libraries", "find_python_includes", "find_paddle_custom_device_includes",
           "normalize_extension_kwargs", "load_op_meta_info_and_register_op", "parse_op_info"]

OS_NAME = sys.platform
IS_WINDOWS = OS_NAME.startswith("win")
IS_MAC = OS_NAME.startswith("darwin")

#: the oldest GCC whose C++ ABI matches torch's builds (torch's own check asks for the same)
GCC_MINI_VERSION = (5, 4, 0)
MSVC_MINI_VERSION = (19, 0, 24215)


def get_include():
    """The directory holding paddle_compat's ``paddle/extension.h``."""
    return INCLUDE_DIR


def log_v(info, verbose=True):
    """Print ``info`` to stderr when ``verbose``."""
    if verbose:
        print(info, file=sys.stderr, flush=True)


def run_cmd(command, verbose=False):
    """Run the shell ``command``; its output goes to the terminal when ``verbose`` (else only its
    stderr does). A failing command raises ``RuntimeError("Failed to run command: ...")``."""
    log_v(f"execute command: {command}", verbose)
    try:
        if verbose:
            return subprocess.check_call(command, shell=True, stderr=subprocess.STDOUT)
        return subprocess.check_call(command, shell=True, stdout=subprocess.DEVNULL)
    except (subprocess.CalledProcessError, OSError) as e:
        raise RuntimeError(f"Failed to run command: {command}, errors: {e}") from None


def _expected_compiler_current_platform():
    """The compiler names a build on this platform expects."""
    if IS_MAC:
        return ["clang", "clang++"]
    if IS_WINDOWS:
        return ["cl"]
    return ["gcc", "g++", "gnu-c++", "gnu-cc"]


def _compiler_version(compiler):
    if IS_WINDOWS:
        out = subprocess.check_output(compiler, stderr=subprocess.STDOUT)
        m = re.search(r"(\d+)\.(\d+)\.(\d+)", out.decode("utf-8", "replace"))
        return tuple(int(v) for v in m.groups()) if m else (0, 0, 0)
    out = subprocess.check_output([compiler, "-dumpfullversion", "-dumpversion"],
                                  stderr=subprocess.DEVNULL)
    parts = [int(p) for p in re.findall(r"\d+", out.decode().strip().split("\n")[0])[:3]]
    return tuple(parts + [0] * (3 - len(parts)))


def check_abi_compatibility(compiler, verbose=False):
    """True when ``compiler`` is the kind of C++ compiler this platform's builds expect and new
    enough for torch's C++ ABI; otherwise warns and returns False. ``PADDLE_SKIP_CHECK_ABI``
    set to 1/true skips the check (True)."""
    if os.environ.get("PADDLE_SKIP_CHECK_ABI") in ("1", "True", "true"):
        return True
    expected = _expected_compiler_current_platform()
    if not IS_WINDOWS:
        found = shutil.which(compiler)
        real = os.path.realpath(found) if found else compiler
        if not any(name in real for name in expected):
            warnings.warn(
                f"\n                 ************************************\n"
                f"                 * Compiler Compatibility WARNING *\n"
                f"                 ************************************\n"
                f"Found {compiler} as the C++ compiler; custom ops on {OS_NAME} are built "
                f"with {expected[0]} (torch's extension builder uses it). Please use "
                f"{expected[0]} to compile your custom op, or set CXX.")
            return False
    if IS_MAC:
        return True                 # clang has no ABI break to check for
    try:
        version = _compiler_version(compiler)
    except (subprocess.CalledProcessError, OSError, ValueError) as e:
        warnings.warn(f"Failed to check compiler version for {compiler}: {e}")
        return False
    minimum = MSVC_MINI_VERSION if IS_WINDOWS else GCC_MINI_VERSION
    if version >= minimum:
        log_v(f"{compiler} {'.'.join(map(str, version))} is compatible", verbose)
        return True
    warnings.warn(
        f"\n                 **********************************\n"
        f"                 * ABI Compatibility WARNING *\n"
        f"                 **********************************\n"
        f"{compiler} {'.'.join(map(str, version))} is older than "
        f"{'.'.join(map(str, minimum))}, the oldest version whose C++ ABI matches torch's: "
        f"custom ops built with it may crash.")
    return False


def find_paddle_includes(use_cuda=False):
    """The include directories a custom op compiles against: ours (``paddle/extension.h``) and
    torch's (with its CUDA ones when ``use_cuda``)."""
    return include_paths(cuda=use_cuda)


def find_paddle_libraries(use_cuda=False):
    """The library directories a custom op links against: torch's (and CUDA's with
    ``use_cuda``, where torch knows a CUDA home)."""
    from torch.utils import cpp_extension as tce
    dirs = tce.library_paths(device_type="cuda" if use_cuda and tce.CUDA_HOME else "cpu")
    return [d for i, d in enumerate(dirs) if d not in dirs[:i]]


def find_python_includes():
    """Python's include directories (its headers, then the platform-specific ones)."""
    out = []
    for key in ("include", "platinclude"):
        d = sysconfig.get_path(key)
        if d and d not in out:
            out.append(d)
    return out


def find_paddle_custom_device_includes():
    """Include directories of Paddle's custom-device plugins: none (torch has no such plugins
    for paddle_compat to find)."""
    return []


def normalize_extension_kwargs(kwargs, use_cuda=False):
    """The keyword arguments of a setuptools Extension of custom ops, completed as Paddle's
    build does: include and library directories (``find_*``), the language, and
    ``extra_compile_args`` (a list, or ``{'cxx': ..., 'nvcc': ...}``) with ``-w`` and
    ``-DPADDLE_WITH_CUSTOM_KERNEL`` unless ``_compile_dir`` names a prepared build."""
    kwargs = dict(kwargs)
    compile_dir = kwargs.pop("_compile_dir", None)
    includes = list(kwargs.get("include_dirs", []) or [])
    for d in find_paddle_includes(use_cuda) + find_python_includes():
        if d not in includes:
            includes.append(d)
    kwargs["include_dirs"] = includes
    libs = list(kwargs.get("library_dirs", []) or [])
    kwargs["library_dirs"] = libs + [d for d in find_paddle_libraries(use_cuda) if d not in libs]
    added = ["-w"] + ([] if compile_dir else ["-DPADDLE_WITH_CUSTOM_KERNEL"])
    eca = kwargs.get("extra_compile_args")
    if isinstance(eca, dict):
        eca = {k: list(v) for k, v in eca.items()}
        if "cc" in eca:                     # Paddle also spells the C++ flags 'cc'
            eca["cxx"] = eca.pop("cc") + eca.get("cxx", [])
        for key in ("cxx", "nvcc"):
            eca[key] = eca.get(key, []) + [f for f in added if f not in eca.get(key, [])]
    else:
        eca = list(eca or [])
        eca += [f for f in added if f not in eca]
    kwargs["extra_compile_args"] = eca
    kwargs["language"] = "c++"
    return kwargs


def load_op_meta_info_and_register_op(lib_filename):
    """Load a custom-op library built by ``setup``/``load`` (its ``.so``) and register its
    ops; returns their names. ``parse_op_info`` then knows them. Loading the same file again
    registers nothing new."""
    path = os.path.abspath(lib_filename)
    if not os.path.isfile(path):
        raise RuntimeError(f"(PreconditionNotMet) The custom operator library "
                           f"({lib_filename}) cannot be loaded: no such file.")
    for module in list(_LOADED.values()):
        if os.path.abspath(getattr(module, "__file__", "")) == path:
            return list(module.__all__)
    modname = os.path.basename(path).split(".")[0]
    module = load_op_module(modname, path)
    _LOADED[modname] = module
    return list(module.__all__)


def parse_op_info(op_name):
    """``(input names, attribute names, output names)`` of a loaded custom op, as its
    ``PD_BUILD_OP`` declared them; ``ValueError`` for an op not loaded (the ops built into
    paddle_compat are Python functions, not registered operators)."""
    if op_name not in OP_INFO:
        raise ValueError(f"Please load {op_name} shared library file firstly by "
                         f"`paddle.utils.cpp_extension.load_op_meta_info_and_register_op(...)`")
    ins, attrs, outs, _ = OP_INFO[op_name]
    return list(ins), list(attrs), list(outs)


def _jit_compile(file_path, verbose=False):
    """Build the extension a ``setup.py`` file describes (``python <file> build`` in its
    directory, with this interpreter): what Paddle's ``load`` does, and PaddleNLP's own
    extension loader calls."""
    if not os.path.exists(file_path):
        raise AssertionError(f"setup file {file_path} does not exist")
    ext_dir, setup_file = os.path.split(os.path.abspath(file_path))
    log_v(f"Using Python interpreter: {sys.executable}", verbose)
    print("Compiling user custom op, it will cost a few seconds.....")
    run_cmd(f"cd {ext_dir} && {sys.executable} {setup_file} build", verbose)


def _import_module_from_library(module_name, build_directory, verbose=False):
    """The ops of the extension ``module_name`` built under ``build_directory`` as a Python
    module of Paddle functions (FileNotFoundError, naming the path, when it was not built)."""
    suffix = ".dylib" if IS_MAC else ".pyd" if IS_WINDOWS else ".so"
    ext_path = os.path.join(build_directory, module_name + suffix)
    if not os.path.exists(ext_path):
        # our setup() names the library ``<name>_pd_`` (next to the ``<name>.py`` it writes)
        names = sorted(os.listdir(build_directory)) if os.path.isdir(build_directory) else []
        ours = [f for f in names if f.startswith(module_name + "_pd_") and f.endswith(suffix)]
        if not ours:
            raise FileNotFoundError(f"Extension path: {ext_path} does not exist.")
        ext_path = os.path.join(build_directory, ours[0])
    log_v(f"loading shared library from: {ext_path}", verbose)
    modname = os.path.basename(ext_path).split(".")[0]
    return load_op_module(modname, ext_path, module_name)
