"""Replays the recorded torch-style snippets (tests/goldens/torch_style.json) on paddle_compat
and compares each with what real Paddle 3.3.1 produced.

    python tools/torch_style/replay.py [-v] [pattern]

A snippet agrees when it gives the same result names and, for each, the same dtype, shape and
stop_gradient, values within the dtype's tolerance (exact for integers and bools), the same
Python values, or, where Paddle raised, an exception of the same built-in type. Prints the
agreement among the snippets Paddle passes, overall and per area, the disagreements grouped
by cause, and the agreement on the snippets Paddle rejects (counted apart).
"""
import json
import math
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from torch_style.record import GOLDEN, run_snippet  # noqa: E402

# (rtol, atol) per dtype; complex dtypes use their component's
TOL = {"float16": (2e-3, 1e-3), "bfloat16": (2e-2, 1e-2), "float32": (1e-4, 1e-5),
       "float64": (1e-7, 1e-9), "complex64": (1e-4, 1e-5), "complex128": (1e-7, 1e-9)}


def load_goldens(path=GOLDEN):
    return json.loads(Path(path).read_text())


def _array(values, kind):
    arr = np.array(values, dtype=object)
    if kind == "float":
        return arr.astype(np.float64)  # "nan"/"inf"/"-inf" strings included
    return arr


def _compare_values(want, got, dtype):
    if dtype in TOL:
        a = _array(want, "float")
        b = _array(got, "float")
        if a.shape != b.shape:
            return "values"
        rtol, atol = TOL[dtype]
        if not np.allclose(b, a, rtol=rtol, atol=atol, equal_nan=True):
            return "values"
        # infinities must match in sign and place
        if not np.array_equal(np.isinf(a), np.isinf(b)) or not np.array_equal(a[np.isinf(a)], b[np.isinf(b)]):
            return "values"
        return None
    return None if want == got else "values"


def compare(want, got, path="out"):
    """None when ``got`` agrees with ``want`` (both encoded), else (kind, detail)."""
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return ("structure", f"{path}: want a sequence of {len(want)}, got {_brief(got)}")
        for i, (w, g) in enumerate(zip(want, got)):
            d = compare(w, g, f"{path}[{i}]")
            if d:
                return d
        return None
    if not isinstance(got, dict):
        return ("structure", f"{path}: want {_brief(want)}, got {_brief(got)}")
    if "dtype" in want:
        if "dtype" not in got:
            return ("structure", f"{path}: want a Tensor, got {_brief(got)}")
        for key in ("dtype", "shape", "stop_gradient"):
            if want[key] != got[key]:
                return (key, f"{path}: {key} {want[key]} != {got[key]}")
        if _compare_values(want["values"], got["values"], want["dtype"]):
            return ("values", f"{path}: values differ")
        return None
    if "ndarray" in want:
        if want != got and (want.get("ndarray") != got.get("ndarray") or want.get("shape") != got.get("shape")
                            or _compare_values(want["values"], got["values"], want["ndarray"])):
            return ("values", f"{path}: ndarray differs")
        return None
    if "dict" in want:
        if "dict" not in got or set(want["dict"]) != set(got["dict"]):
            return ("structure", f"{path}: dict keys differ")
        for k in want["dict"]:
            d = compare(want["dict"][k], got["dict"][k], f"{path}[{k!r}]")
            if d:
                return d
        return None
    if "py" in want:
        w, g = want["py"], got.get("py", got)
        if isinstance(w, float) and isinstance(g, (int, float)) and not isinstance(g, bool):
            if math.isclose(w, g, rel_tol=1e-6, abs_tol=1e-12):
                return None
        if type(w) is not type(g) or w != g:
            return ("python value", f"{path}: {w!r} != {_brief(got)}")
        return None
    if want != got:
        return ("python value", f"{path}: {want} != {_brief(got)}")
    return None


def _brief(obj):
    text = json.dumps(obj)
    return text if len(text) < 80 else text[:77] + "..."


def cause_of(source, want, got):
    """Why a snippet disagrees: a short cause label and a detail."""
    if "error" in got:
        e = got["error"]
        msg = e["msg"]
        if "error" in want:
            if want["error"]["error"] == e["error"]:
                return None
            return f"exception type ({want['error']['error']} expected)", f"{e['type']}: {msg[:120]}"
        if "paddle.tensor(" in source and (("not callable" in msg and "module" in msg)
                                           or re.search(r"\bpaddle\.tensor is not supported|"
                                                        r"has no attribute 'tensor'", msg)):
            return "paddle.tensor not callable", msg[:120]
        if "Tensor.size is the number of elements" in msg:
            return "Tensor.size() not callable", msg[:120]
        if re.search(r"'(int|float|list|tuple|str)' object has no attribute|argument 'index' "
                     r"\(position 1\) must be Tensor, but got int", msg):
            return "torch positional order (dim before index)", msg[:120]
        if e["error"] == "AttributeError" or "is not supported by paddle_compat" in msg:
            return "missing name", _missing_name(msg)
        m = re.search(r"(\w+)\(\) got an unexpected keyword argument '(\w+)'", msg)
        if m:
            return "keyword alias", f"{m.group(1)}({m.group(2)}=)"
        if re.search(r"dtype must be any of|multiple values for argument|number of sizes provided|"
                     r"takes \d+ positional argument|expanded size|'perm' \(position 1\) must be "
                     r"list of int, but got int", msg):
            return "size varargs / positional dims", msg[:120]
        return f"other exception ({e['type']})", msg[:120]
    if "error" in want:
        return "no exception raised", f"Paddle raises {want['error']['type']}"
    w, g = want["results"], got["results"]
    if set(w) != set(g):
        return "structure", f"result names {sorted(w)} != {sorted(g)}"
    for k in sorted(w):
        d = compare(w[k], g[k], k)
        if d:
            return f"wrong {d[0]}", d[1]
    return None


def _missing_name(msg):
    m = re.search(r"module '([\w.]+)' has no attribute '(\w+)'", msg)
    if m:
        return m.group(1).replace("paddle_compat", "paddle") + "." + m.group(2)
    m = re.search(r"'(\w+)' object has no attribute '(\w+)'", msg)
    if m:
        return f"{m.group(1)}.{m.group(2)}"
    m = re.search(r"(paddle[\w.]*) is not supported", msg)
    return m.group(1) if m else msg[:120]


def replay(paddle, cases, pattern=None):
    """{id: None (agrees) or (cause, detail)} for every recorded case matching ``pattern``."""
    out = {}
    for sid, case in cases.items():
        if pattern and pattern not in sid:
            continue
        got = run_snippet(case["source"], paddle)
        out[sid] = cause_of(case["source"], case, got)
    return out


def summary(cases, outcome):
    """Lines of the report: agreement overall and per area, failures by cause."""
    lines = []
    passed = [s for s in outcome if "error" not in cases[s]]
    rejected = [s for s in outcome if "error" in cases[s]]
    agree = [s for s in passed if outcome[s] is None]
    lines.append(f"{len(outcome)} snippets; real Paddle passes {len(passed)}, rejects {len(rejected)}")
    if passed:
        lines.append(f"agreement on the snippets Paddle passes: {len(agree)}/{len(passed)} "
                     f"= {100 * len(agree) / len(passed):.1f}%")
    rej_agree = sum(outcome[s] is None for s in rejected)
    if rejected:
        lines.append(f"same exception type where Paddle rejects: {rej_agree}/{len(rejected)}")
    per = defaultdict(lambda: [0, 0])
    for s in passed:
        area = s.split("/")[0]
        per[area][1] += 1
        per[area][0] += outcome[s] is None
    lines.append("per area (Paddle-passed snippets):")
    for area in sorted(per):
        a, n = per[area]
        lines.append(f"  {area:16s} {a:4d}/{n:<4d} {100 * a / n:5.1f}%")
    causes = Counter(outcome[s][0] for s in passed if outcome[s] is not None)
    lines.append("disagreements by cause (Paddle-passed snippets):")
    for cause, n in causes.most_common():
        lines.append(f"  {n:4d}  {cause}")
        if cause in ("keyword alias", "missing name"):
            details = Counter(outcome[s][1] for s in passed
                              if outcome[s] is not None and outcome[s][0] == cause)
            if cause == "keyword alias":  # by keyword
                details = Counter(re.sub(r".*\((\w+)=\)", r"\1", d) for d in details.elements())
            lines.append("        " + ", ".join(f"{k} {v}" for k, v in details.most_common()))
    return lines


def main(argv):
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    pattern = args[0] if args else None
    import paddle_compat as paddle
    doc = load_goldens()
    cases = doc["cases"]
    outcome = replay(paddle, cases, pattern)
    for line in summary(cases, outcome):
        print(line)
    if verbose:
        by_cause = defaultdict(list)
        for s, o in sorted(outcome.items()):
            if o is not None:
                side = "rejected" if "error" in cases[s] else "passed"
                by_cause[(side, o[0])].append(f"{s}  [{o[1]}]")
        for (side, cause), items in sorted(by_cause.items()):
            print(f"\n== Paddle {side}: {cause} ({len(items)})")
            for it in items:
                print("   ", it)


if __name__ == "__main__":
    main(sys.argv[1:])
