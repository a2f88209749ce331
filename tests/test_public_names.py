"""Every public name of Paddle 3.3.1 (tools/names/paddle_names.txt, recorded from Paddle by
tools/names/record_names.py) exists here, in the namespaces that are done; the few left out are
listed with why, and each of them must still be missing (so the list only shrinks)."""
import os

import pytest

import paddle_compat

NAMES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools",
                     "names", "paddle_names.txt")

#: the namespaces whose every name must exist (the rest: tools/coverage.py reports them)
DONE = ("paddle", "paddle.Tensor", "paddle.amp", "paddle.audio", "paddle.autograd",
        "paddle.callbacks", "paddle.compat", "paddle.cuda", "paddle.device", "paddle.distributed",
        "paddle.distribution", "paddle.fft", "paddle.geometric", "paddle.hub", "paddle.inference",
        "paddle.io", "paddle.jit", "paddle.linalg", "paddle.metric", "paddle.nn", "paddle.onnx",
        "paddle.optimizer", "paddle.profiler", "paddle.quantization", "paddle.random",
        "paddle.regularizer", "paddle.signal", "paddle.sparse", "paddle.special", "paddle.static",
        "paddle.text", "paddle.utils", "paddle.version", "paddle.vision")

#: names of the done namespaces left out, with why (each must still be missing: the list
#: only shrinks)
LEFT = {}


def _names():
    with open(NAMES) as f:
        rows = [line.split() for line in f if not line.startswith("#")]
    for name, _kind in rows:
        parts = name.split(".")
        ns = "paddle" if len(parts) == 2 else ".".join(parts[:2])
        if ns in DONE:
            yield name


def _exists(name):
    obj = paddle_compat
    for part in name.split(".")[1:]:
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return False
    return True


def test_the_list_is_paddles_own():
    names = list(_names())
    assert len(names) > 1800
    assert "paddle.cuda.is_available" in names and "paddle.Tensor.mT" in names


def test_every_name_of_the_done_namespaces_exists():
    missing = [n for n in _names() if n not in LEFT and not _exists(n)]
    assert missing == []


def test_names_left_out_are_still_missing():
    present = [name for name in LEFT if _exists(name)]
    assert present == [], f"these exist now: remove them from LEFT: {present}"
