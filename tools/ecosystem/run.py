"""Run the ecosystem drivers: record real Paddle's goldens, or compare paddle_compat's.

    python tools/ecosystem/run.py --record [--only LIB ...]   # real Paddle -> goldens/<lib>.json
    python tools/ecosystem/run.py [--only LIB ...]            # paddle_compat vs the goldens

Each driver runs with its group's venv python (tools/ecosystem/build.py makes them). The record
run also runs the driver with ``ECO_JITTER=1e-6`` and keeps those outputs as ``jitter_outputs``
(the tolerance of training steps). Ours runs as ``python -m paddle_compat driver.py`` with
PYTHONPATH at this repository; a run whose ``paddle`` is not paddle_compat is refused.
Prints the table library | version | state | note.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from compare import state_of  # noqa: E402
from recipes import RECIPES, group_of, python_of  # noqa: E402

GOLDENS = os.path.join(HERE, "goldens")
DRIVERS = os.path.join(HERE, "drivers")


def all_drivers():
    return [d for r in RECIPES.values() for d in r.drivers
            if os.path.exists(os.path.join(DRIVERS, f"{d}_driver.py"))]


def run_driver(lib, ours, jitter=0.0, timeout=1800):
    """Run ``drivers/<lib>.py`` in its venv; return its JSON (None when it wrote none) and
    the tail of its log."""
    py = python_of(group_of(lib))
    if not os.path.exists(py):
        raise FileNotFoundError(f"no venv for {lib}: run tools/ecosystem/build.py --only {lib}")
    fd, out = tempfile.mkstemp(suffix=f"_{lib}.json")
    os.close(fd)
    os.remove(out)
    env = dict(os.environ, ECO_JITTER=repr(jitter) if jitter else "",
               OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"),
               FLAGS_use_mkldnn="0", PYTHONHASHSEED="0")
    env.pop("PYTHONPATH", None)
    cmd = [py, os.path.join(DRIVERS, f"{lib}_driver.py"), out]
    if ours:
        env["PYTHONPATH"] = REPO
        cmd = [py, "-m", "paddle_compat", *cmd[1:]]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout,
                          cwd=tempfile.gettempdir())
    log = (proc.stdout + proc.stderr)[-4000:]
    if not os.path.exists(out):
        return None, log
    with open(out) as f:
        doc = json.load(f)
    os.remove(out)
    is_ours = "paddle_compat" in doc["meta"].get("paddle_file", "")
    if is_ours != ours:
        raise RuntimeError(f"{lib}: expected {'paddle_compat' if ours else 'real Paddle'}, "
                           f"ran {doc['meta'].get('paddle_file')}")
    return doc, log


def record(lib):
    doc, log = run_driver(lib, ours=False)
    if doc is None:
        raise RuntimeError(f"{lib} wrote no output on Paddle:\n{log}")
    jit, _ = run_driver(lib, ours=False, jitter=1e-6)
    doc["jitter_outputs"] = jit["outputs"] if jit else None
    os.makedirs(GOLDENS, exist_ok=True)
    with open(os.path.join(GOLDENS, f"{lib}.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    if doc["errors"]:
        print(f"{lib}: driver failed on Paddle: {doc['errors']}\n{log}", file=sys.stderr)
    return doc


def check(lib, verbose=False):
    """``(version, state, note)`` of ``lib`` on paddle_compat."""
    path = os.path.join(GOLDENS, f"{lib}.json")
    if not os.path.exists(path):
        return "?", "no golden", "run with --record first"
    with open(path) as f:
        golden = json.load(f)
    try:
        ours, log = run_driver(lib, ours=True)
    except (FileNotFoundError, RuntimeError, subprocess.TimeoutExpired) as e:
        return golden["meta"].get("version"), "not run", str(e)
    state, note = state_of(golden, ours, log)
    if verbose and state != "match":
        print(log, file=sys.stderr)
    return golden["meta"].get("version"), state, note


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--record", action="store_true", help="record goldens on real Paddle")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("-v", "--verbose", action="store_true", help="print a failing run's log")
    args = ap.parse_args(argv)
    libs = args.only or all_drivers()
    rows = []
    for lib in libs:
        if args.record:
            doc = record(lib)
            rows.append((lib, doc["meta"].get("version"), "recorded",
                         "errors: " + doc["errors"][0]["stage"] if doc["errors"] else ""))
        else:
            rows.append((lib, *check(lib, args.verbose)))
    print("| library | version | state | note |\n|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(x) for x in row) + " |")
    return 0 if all(r[2] in ("match", "recorded") for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
