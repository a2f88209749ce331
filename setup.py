"""Builds the optional C module paddle_compat.framework._fastops (the Tensor's operator slots);
everything else is in pyproject.toml. Where no C compiler is at hand the build goes on without
it and paddle_compat uses its pure-Python operators."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("paddle_compat.framework._fastops",
                             ["paddle_compat/framework/_fastops.c"], optional=True)])
