"""Runs every snippet of snippets.py on real Paddle 3.3.1 and writes what each produced to
tests/goldens/torch_style.json.

    /work/paddle_venv/bin/python tools/torch_style/record.py

A snippet runs in a fresh namespace holding only ``paddle`` and ``np``, after ``paddle.seed``
and the default dtype are reset, so none sees another's state. Its results are the names it
leaves behind that start with ``out``. A tensor is encoded as dtype, shape, values (nested
lists; complex as [real, imag] pairs; bfloat16 through float32) and stop_gradient; an
exception as the nearest built-in exception type and the class name. The helpers here
(``run_snippet``, ``encode``) are shared by replay.py, which runs the same code on
paddle_compat.
"""
import json
import math
import sys
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GOLDEN = ROOT / "tests" / "goldens" / "torch_style.json"
SEED = 2024


def _values(arr):
    if arr.dtype.kind == "c":
        arr = np.stack([arr.real, arr.imag], axis=-1)
    if arr.dtype.kind == "f":
        return _floats(arr.tolist())
    return arr.tolist()


def _floats(v):
    if isinstance(v, list):
        return [_floats(e) for e in v]
    return v if math.isfinite(v) else repr(v)


def _exception(e):
    builtin = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
    return {"error": builtin.__name__, "type": type(e).__name__, "msg": str(e)[:300]}


def encode(obj, paddle, depth=0):
    """JSON form of one result."""
    if depth > 6:
        return {"repr": "..."}
    if isinstance(obj, paddle.Tensor):
        dt = str(obj.dtype).replace("paddle.", "")
        t = obj.astype("float32") if dt == "bfloat16" else obj
        arr = np.asarray(t.detach().numpy() if hasattr(t, "detach") else t.numpy())
        return {"dtype": dt, "shape": [int(d) for d in obj.shape], "values": _values(arr),
                "stop_gradient": bool(obj.stop_gradient)}
    if isinstance(obj, np.ndarray):
        return {"ndarray": str(obj.dtype), "shape": list(obj.shape), "values": _values(obj)}
    if isinstance(obj, (list, tuple)):
        return [encode(v, paddle, depth + 1) for v in obj]
    if isinstance(obj, dict):
        return {"dict": {str(k): encode(v, paddle, depth + 1) for k, v in obj.items()}}
    if isinstance(obj, bool) or obj is None or isinstance(obj, (int, str)):
        return {"py": obj}
    if isinstance(obj, float):
        return {"py": obj if math.isfinite(obj) else repr(obj)}
    if isinstance(obj, complex):
        return {"complex": [obj.real, obj.imag]}
    if isinstance(obj, np.generic):
        return encode(obj.item(), paddle, depth + 1)
    if isinstance(obj, paddle.dtype):
        return {"paddle_dtype": str(obj).replace("paddle.", "")}
    return {"object": type(obj).__name__}


def run_snippet(source, paddle):
    """{"results": {name: encoded}} or {"error": ...} for one snippet run on ``paddle``."""
    paddle.seed(SEED)
    paddle.set_default_dtype("float32")
    ns = {"paddle": paddle, "np": np, "__name__": "__snippet__"}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(source, "<snippet>", "exec"), ns)  # noqa: S102 - our own snippets
            names = sorted(k for k in ns if k.startswith("out"))
            if not names:
                raise RuntimeError("snippet defines no out* result")
            return {"results": {k: encode(ns[k], paddle) for k in names}}
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return {"error": _exception(e)}
    finally:
        paddle.set_default_dtype("float32")
        if hasattr(paddle, "set_grad_enabled"):
            paddle.set_grad_enabled(True)


def dumps(doc):
    """The goldens as JSON with one line per snippet (readable diffs when one changes)."""
    head = {k: v for k, v in doc.items() if k != "cases"}
    lines = [json.dumps(head, sort_keys=True)[:-1] + ', "cases": {']
    items = sorted(doc["cases"].items())
    for i, (sid, case) in enumerate(items):
        sep = "," if i < len(items) - 1 else ""
        lines.append(f" {json.dumps(sid)}: {json.dumps(case, sort_keys=True)}{sep}")
    lines.append("}}")
    return "\n".join(lines) + "\n"


def main():
    sys.path.insert(0, str(HERE.parent))
    import paddle  # real Paddle 3.3.1: only ever run under its own venv

    from torch_style.snippets import SNIPPETS
    paddle.set_device("cpu")
    cases = {}
    for sid, source in SNIPPETS.items():
        cases[sid] = {"source": source, **run_snippet(source, paddle)}
    failed = sorted(k for k, v in cases.items() if "error" in v)
    doc = {"paddle": paddle.__version__, "seed": SEED, "cases": cases}
    GOLDEN.write_text(dumps(doc))
    print(f"{len(cases)} snippets, Paddle {paddle.__version__} passes {len(cases) - len(failed)},"
          f" fails {len(failed)}")
    for k in failed:
        e = cases[k]["error"]
        print(f"  {k}: {e['type']}: {e['msg'][:150]}")


if __name__ == "__main__":
    main()
