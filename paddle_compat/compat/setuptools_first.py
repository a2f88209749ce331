"""setuptools is imported before pip, as ``import paddle`` leaves it in Paddle.

Paddle imports setuptools when it is imported (``paddle.utils.cpp_extension``). On Python
< 3.12, setuptools' ``distutils-precedence.pth`` makes ``import distutils`` give setuptools'
copy, but importing ``pip`` switches that off and drops the copy from ``sys.modules``; a
setuptools imported after that finds the standard library's distutils and fails its own
check (``AssertionError: .../distutils/core.py``). So a program that imports Paddle, then pip,
then ``from setuptools import Extension`` (PaddleNLP's ``utils.import_utils`` and
``ops.ext_utils``) works on Paddle and would fail here.

Importing setuptools eagerly would add its import time (hundreds of milliseconds) to every
``import paddle``; instead a meta-path finder waits for the first ``import pip`` and imports
setuptools just before it, then leaves ``sys.meta_path``. It answers no import itself.
"""
import sys

__all__ = ["install"]


class SetuptoolsBeforePip:
    """Imports setuptools when ``pip`` is first imported (and nothing else)."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "pip":
            return None
        if cls in sys.meta_path:
            sys.meta_path.remove(cls)
        if "setuptools" not in sys.modules:
            try:
                import setuptools  # noqa: F401
            except Exception:       # noqa: BLE001  (absent or broken: pip imports as always)
                pass
        return None


def install():
    """Put the finder in place where it matters: Python < 3.12 (a standard-library distutils),
    setuptools not imported yet, pip not imported yet."""
    if (sys.version_info < (3, 12) and "setuptools" not in sys.modules
            and "pip" not in sys.modules and SetuptoolsBeforePip not in sys.meta_path):
        sys.meta_path.insert(0, SetuptoolsBeforePip)


install()
