"""Shared by ``record_baseline.py`` and ``run.py``: where Paddle's test files are, which of them
are chosen (``files.txt``), and running them in parallel, one process per file, each with a
time limit, with per-test results from pytest's JUnit report (``tools/run_paddle_tests.py``).

The test files are Paddle's (``PaddlePaddle/Paddle``: ``test/legacy_test``,
``test/deprecated/legacy_test``, ``test/dygraph_to_static``), kept OUTSIDE this repository in a
directory laid out as Paddle's tree: ``$UPSTREAM_PADDLE_TESTS`` (default ``/work/upstream``), so
that ``files.txt``'s entries (``test/legacy_test/test_pylayer_op.py``) are paths under it.
"""
import concurrent.futures
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import run_paddle_tests as rpt  # noqa: E402  (tools/run_paddle_tests.py)

FILES = os.path.join(HERE, "files.txt")
BASELINE = os.path.join(HERE, "baseline.json")
KNOWN = os.path.join(HERE, "known.json")
DEFAULT_ROOT = "/work/upstream"
PADDLE_PYTHON = os.environ.get("PADDLE_PYTHON",
                               os.path.join(os.path.dirname(REPO), "paddle_venv", "bin", "python"))
PASSED = "passed"


def upstream_root():
    """The directory holding Paddle's ``test/`` tree, or None when it is not here."""
    root = os.environ.get("UPSTREAM_PADDLE_TESTS") or DEFAULT_ROOT
    return root if os.path.isdir(os.path.join(root, "test")) else None


def _parse_files(path):
    out = {}
    with open(path) as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            env = dict(w.split("=", 1) for w in words[:-1] if "=" in w)
            out[words[-1]] = env
    return out


def chosen_files(path=FILES):
    """``files.txt``: one path (relative to Paddle's repository root) a line, optionally after
    ``NAME=VALUE`` words: environment variables Paddle's CMake sets for that test (such as
    ``FLAGS_enable_pir_api=0`` for tests of the old static IR); ``#`` starts a comment."""
    return list(_parse_files(path))


def file_env(rel, path=FILES):
    """The environment variables ``files.txt`` gives ``rel`` ({} when none)."""
    return _parse_files(path).get(rel, {}) if os.path.exists(path) else {}


def load_json(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


def child_env(root, paddle_compat):
    """The environment of one test process: Paddle's CI puts ``test/`` and the test's own
    directory on ``PYTHONPATH`` (``from legacy_test.x import``, ``from op_test import``).
    Real Paddle's runs get no trace of this checkout."""
    env = rpt.child_env() if paddle_compat else dict(os.environ)
    env.pop("VIRTUAL_ENV", None)
    parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if not paddle_compat:
        parts = [p for p in parts if os.path.abspath(p) != REPO]
    extra = [os.path.join(root, "test"), os.path.join(root, "test", "legacy_test")]
    env["PYTHONPATH"] = os.pathsep.join(extra + parts)
    env.setdefault("PYTHONUNBUFFERED", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("CUDA_VISIBLE_DEVICES", "")      # Paddle's baseline is its CPU run
    return env


def run_one(rel, root, python_cmd, timeout, logdir, paddle_compat, pytest_args=()):
    """Run one file (``rel`` under ``root``) with pytest; returns ({test_id: outcome},
    {test_id: reason}, seconds)."""
    file = os.path.join(root, rel)
    name = re.sub(r"\W", "_", rel)
    log = os.path.join(logdir, name + ".log")
    xml = os.path.join(logdir, name + ".xml")
    if not os.path.isfile(file):
        return {rel: "absent"}, {rel: f"{file} is not here (fetch it first)"}, 0.0
    if os.path.exists(xml):
        os.remove(xml)
    cmd = list(python_cmd) + ["-m", "pytest", "-p", "no:cacheprovider", "-v", "-rA",
                              f"--junitxml={xml}", "-o", "junit_family=xunit1",
                              os.path.basename(file)] + list(pytest_args)
    env = child_env(root, paddle_compat)
    env.update(file_env(rel))
    old = rpt.child_env
    rpt.child_env = lambda: env                 # run_process takes the environment from here
    try:
        rc, output, seconds = rpt.run_process(cmd, os.path.dirname(file), timeout, log)
    finally:
        rpt.child_env = old
    rows = []
    if os.path.exists(xml) and os.path.getsize(xml):
        try:
            rows = rpt.parse_junit(xml, file)
        except rpt.ET.ParseError:
            rows = []
    if rc is None or (not rows and rc != 0) or rc not in (0, 1, 2, 5):
        done, running = rpt.parse_verbose(output, file)
        if done and not rows:
            rows = done
        what = "timeout" if rc is None else "crashed"
        tail = "\n".join(output.splitlines()[-15:])
        rows.append(rpt.Row(file, running or os.path.basename(file), what,
                            (f"killed after {timeout}s" if rc is None else f"exit status {rc}")
                            + "\n" + tail, seconds))
    elif not rows:
        rows.append(rpt.Row(file, os.path.basename(file), "no tests",
                            "\n".join(output.splitlines()[-5:]), seconds))
    outcomes, reasons = {}, {}
    for r in rows:
        outcomes[r.test_id] = r.outcome
        if r.outcome != PASSED:
            reasons[r.test_id] = r.reason
    return outcomes, reasons, seconds


def run_many(files, root, python_cmd, timeout, jobs, paddle_compat, logdir=None,
             pytest_args=(), progress=True):
    """Run ``files`` with ``jobs`` processes at a time; returns {file: (outcomes, reasons)}."""
    logdir = logdir or tempfile.mkdtemp(prefix="upstream_")
    os.makedirs(logdir, exist_ok=True)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futs = {pool.submit(run_one, rel, root, python_cmd, timeout, logdir, paddle_compat,
                            pytest_args): rel for rel in files}
        for fut in concurrent.futures.as_completed(futs):
            rel = futs[fut]
            outcomes, reasons, seconds = fut.result()
            results[rel] = (outcomes, reasons)
            if progress:
                n = sum(o == PASSED for o in outcomes.values())
                print(f"  {rel}: {n}/{len(outcomes)} passed ({seconds:.0f} s)", flush=True)
    return results, logdir
