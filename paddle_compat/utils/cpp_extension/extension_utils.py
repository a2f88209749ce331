"""``paddle.utils.cpp_extension.extension_utils``: the platform facts and small helpers of
Paddle's custom-op build that scripts and tests use directly.

``IS_WINDOWS``/``OS_NAME``, ``run_cmd`` (a shell command, ``RuntimeError`` on failure),
``check_abi_compatibility`` (is the C++ compiler the kind and version the build expects:
GCC on Linux, at least the version torch's extension builder asks for) and the include and
build directories. Builds themselves are ``paddle_compat.utils.cpp_extension``'s (on
``torch.utils.cpp_extension``).
"""
import os
import re
import shutil
import subprocess
import sys
import warnings

from .build import INCLUDE_DIR, get_build_directory

__all__ = ["IS_WINDOWS", "IS_MAC", "OS_NAME", "run_cmd", "check_abi_compatibility",
           "get_build_directory", "get_include", "log_v"]

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
