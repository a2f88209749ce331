"""Compare a driver's outputs on paddle_compat with the golden recorded on real Paddle."""
import math

RTOL = 1e-4
ATOL = 1e-4
JITTER_FACTOR = 10.0   # how many times Paddle's own move under a 1e-6 input jitter is allowed


def leaves(tree, prefix=""):
    """``{path: leaf}`` of a nested dict/list JSON tree (paths like ``a.b[2]``)."""
    out = {}
    if isinstance(tree, dict):
        for k, v in tree.items():
            out.update(leaves(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out.update(leaves(v, f"{prefix}[{i}]"))
    else:
        out[prefix] = tree
    return out


def _is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def tolerance(gold, jitter=None, rtol=RTOL, atol=ATOL, factor=JITTER_FACTOR):
    """Allowed |ours - gold| for one number: ``atol + rtol*|gold|``, widened to ``factor`` times
    how far real Paddle moved under the jitter run (``jitter``), when that is larger."""
    tol = atol + rtol * abs(gold)
    if _is_num(jitter) and math.isfinite(jitter):
        tol = max(tol, factor * abs(jitter - gold))
    return tol


def compare(gold, ours, jitter=None, **kw):
    """The differences between output trees ``gold`` and ``ours``: a list of
    ``(path, gold_leaf, our_leaf, why)``. Numbers within ``tolerance``; ints that are exact
    (shapes, token ids) must be equal; other leaves equal; NaN matches NaN."""
    g, o = leaves(gold), leaves(ours)
    j = leaves(jitter) if jitter is not None else {}
    diffs = []
    for path, gv in g.items():
        if path not in o:
            diffs.append((path, gv, None, "missing"))
            continue
        ov = o[path]
        if _is_num(gv) and _is_num(ov):
            if isinstance(gv, float) or isinstance(ov, float):
                if math.isnan(gv) or math.isnan(ov):
                    if not (math.isnan(gv) and math.isnan(ov)):
                        diffs.append((path, gv, ov, "nan"))
                    continue
                tol = tolerance(gv, j.get(path), **kw)
                if not abs(ov - gv) <= tol:
                    diffs.append((path, gv, ov, f"|diff| {abs(ov - gv):.3g} > tol {tol:.3g}"))
            elif gv != ov:
                diffs.append((path, gv, ov, "int differs"))
        elif gv != ov:
            diffs.append((path, gv, ov, "differs"))
    for path in o:
        if path not in g:
            diffs.append((path, None, o[path], "extra"))
    return diffs


def last_error(log):
    """The last ``SomeError: message`` line of a traceback in ``log`` ('' when none)."""
    for line in reversed(log.splitlines()):
        head = line.split(":", 1)[0]
        if ":" in line and not line.startswith(" ") and head.rsplit(".", 1)[-1].endswith(
                ("Error", "Exception", "Interrupt", "Exit")):
            return line.strip()[:300]
    return ""


def state_of(golden, ours, log=""):
    """``(state, note)`` for one library: 'match', 'differs', 'fails' or 'driver broken'
    (the driver failed on real Paddle itself); ``log`` (the run's output) names the error of a
    run that wrote no JSON."""
    if golden.get("errors"):
        e = golden["errors"][0]
        return "driver broken", f"on Paddle, {e['stage']}: {e['type']}: {e['message']}"
    if ours is None:
        return "fails", "no output: " + (last_error(log) or "crashed before writing its JSON")
    if ours.get("errors"):
        e = ours["errors"][0]
        n = len(ours["errors"])
        more = f" (+{n - 1} more stages)" if n > 1 else ""
        return "fails", f"{e['stage']}: {e['type']}: {e['message']} [{e.get('where', '')}]{more}"
    diffs = compare(golden["outputs"], ours["outputs"], golden.get("jitter_outputs"))
    if diffs:
        path, gv, ov, why = diffs[0]
        return "differs", f"{len(diffs)} values, first {path}: {gv} vs {ov} ({why})"
    return "match", f"{len(leaves(golden['outputs']))} values within tolerance"
