"""Builds the optional C modules paddle_compat.framework._fastops (the Tensor's operator slots)
and paddle_compat.random._rngkernels (the seeded CPU random engine); everything else is in
pyproject.toml. Where no C compiler is at hand the build goes on without them and paddle_compat
uses its pure-Python operators and its numpy random engine (the same numbers, slower)."""
import sys

from setuptools import Extension, setup

# The RNG kernels (paddle_compat/random/_rngkernels.c) must round every float operation on its
# own, as the numpy code they stand in for does: no fused multiply-add. (Without errno, sqrt
# is one instruction that the compiler may vectorise; the kernels never take a negative's.)
_RNG_FLAGS = [] if sys.platform == "win32" else ["-ffp-contract=off", "-fno-math-errno"]
_LIBM = [] if sys.platform == "win32" else ["m"]

setup(ext_modules=[Extension("paddle_compat.framework._fastops",
                             ["paddle_compat/framework/_fastops.c"], optional=True),
                   Extension("paddle_compat.random._rngkernels",
                             ["paddle_compat/random/_rngkernels.c"], optional=True,
                             extra_compile_args=_RNG_FLAGS, libraries=_LIBM)])
