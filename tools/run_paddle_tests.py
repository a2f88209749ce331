"""Run Paddle's own test files, unchanged, on paddle_compat.

    python tools/run_paddle_tests.py [options] PATH [PATH ...]

Each PATH is a test file or a directory (its ``test_*.py``, recursively). Every file runs in
its own Python process, in its own directory (as Paddle's CI runs them), under
``python -m paddle_compat``: ``import paddle`` there, and in every Python process the tests
start (``python setup.py install``, ``python -m paddle.distributed.launch``, multiprocessing
workers), resolves to paddle_compat. ``python -m paddle_compat`` installs the import hook and
puts ``paddle_compat/compat/_bootstrap`` at the front of ``PYTHONPATH``: its ``paddle``
package installs the hook in a child process on its first ``import paddle``.

Files run with pytest (which also collects ``unittest.TestCase`` classes); ``--unittest`` runs
them with unittest's loader instead (for files pytest cannot collect). The result is one row
per test id: ``passed``, ``failed``, ``error``, ``skipped``, ``xfail``/``xpass``, or, for a
file that produced no per-test results, one row for the file (``crashed`` with its exit
status, ``timeout``, ``no tests``). ``--junit OUT.xml`` also writes a JUnit XML report;
``--table OUT.txt`` writes the text table to a file as well as printing it.

Paddle's tests write build artefacts (``build/``, ``*.egg-info``) next to themselves: give
``--scratch DIR`` to copy each directory named (or holding a named file) to ``DIR`` first and
run the copies. Custom-op builds go to ``$PADDLE_EXTENSION_DIR`` (kept between runs when set).

``--python PY`` runs the same files with another interpreter's own ``paddle`` (real Paddle's
virtualenv) instead: the baseline, in the same table form.

Exit status: 0 when nothing failed, 1 otherwise (2 for bad arguments).
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

OUTCOMES = ("passed", "failed", "error", "skipped", "xfail", "xpass", "crashed", "timeout",
            "no tests")
BAD = {"failed", "error", "xpass", "crashed", "timeout"}

# The child of --unittest mode: runs one file's TestCases with a result class that records
# every test, then writes the records as JSON (argv: file, json path).
_UNITTEST_CHILD = r'''
import json, os, sys, time, traceback, unittest
path, out = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
records = []
class R(unittest.TextTestResult):
    def _add(self, test, outcome, message=""):
        records.append({"id": test.id(), "outcome": outcome, "message": message,
                        "time": time.time() - getattr(self, "_t0", time.time())})
    def startTest(self, test):
        self._t0 = time.time(); super().startTest(test)
    def addSuccess(self, test):
        super().addSuccess(test); self._add(test, "passed")
    def addFailure(self, test, err):
        super().addFailure(test, err); self._add(test, "failed", self._exc_info_to_string(err, test))
    def addError(self, test, err):
        super().addError(test, err); self._add(test, "error", self._exc_info_to_string(err, test))
    def addSkip(self, test, reason):
        super().addSkip(test, reason); self._add(test, "skipped", reason)
    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err); self._add(test, "xfail")
    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test); self._add(test, "xpass")
    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._add(subtest, "failed", self._exc_info_to_string(err, test))
def write():
    with open(out, "w") as f:
        json.dump(records, f)
name = os.path.splitext(os.path.basename(path))[0]
try:
    suite = unittest.defaultTestLoader.loadTestsFromName(name)
except BaseException:
    records.append({"id": name, "outcome": "error", "message": traceback.format_exc(),
                    "time": 0.0})
    write()
    sys.exit(1)
try:
    unittest.TextTestRunner(resultclass=R, verbosity=2).run(suite)
finally:
    write()
'''


class Row:
    """One test (or one file without per-test results) and what became of it."""

    def __init__(self, file, test_id, outcome, message="", seconds=0.0):
        self.file, self.test_id, self.outcome = file, test_id, outcome
        self.message, self.seconds = message or "", seconds

    @property
    def reason(self):
        """The message's most telling line: the last ``SomethingError: ...`` line, else the
        first non-empty line, cut to 160 characters."""
        lines = [ln.strip() for ln in self.message.splitlines() if ln.strip()]
        if not lines:
            return ""
        pick = lines[0]
        for ln in reversed(lines):
            if re.match(r"^(E\s+)?[\w.]*(Error|Exception|Exit|Interrupt)\b", ln):
                pick = ln
                break
        pick = re.sub(r"^E\s+", "", pick)
        return pick if len(pick) <= 160 else pick[:157] + "..."


def find_files(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__pycache__"))
                                 and d != "build")
                files += [os.path.join(root, n) for n in sorted(names)
                          if n.startswith("test_") and n.endswith(".py")]
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise FileNotFoundError(p)
    return [os.path.abspath(f) for f in files]


def copy_to_scratch(paths, scratch):
    """Copy the directories of ``paths`` under ``scratch`` (replacing older copies) and return
    the paths inside the copies."""
    os.makedirs(scratch, exist_ok=True)
    out, copied = [], {}
    for p in paths:
        p = os.path.abspath(p)
        src = p if os.path.isdir(p) else os.path.dirname(p)
        if src not in copied:
            dst = os.path.join(scratch, os.path.basename(src.rstrip(os.sep)) or "root")
            if os.path.exists(dst):
                shutil.rmtree(dst)
            shutil.copytree(src, dst, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
            copied[src] = dst
        out.append(copied[src] if os.path.isdir(p) else os.path.join(copied[src],
                                                                      os.path.basename(p)))
    return out


def child_env():
    env = dict(os.environ)
    env.pop("VIRTUAL_ENV", None)
    env.setdefault("PYTHONUNBUFFERED", "1")
    # this checkout's paddle_compat, whatever the current directory
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if os.path.isdir(os.path.join(root, "paddle_compat")) and root not in parts:
        parts.insert(0, root)
    env["PYTHONPATH"] = os.pathsep.join(parts)
    return env


def run_process(cmd, cwd, timeout, log):
    """Run ``cmd`` in its own process group; returns (exit status or None on timeout, output)."""
    t0 = time.time()
    with open(log, "w") as f:
        p = subprocess.Popen(cmd, cwd=cwd, env=child_env(), stdout=f, stderr=subprocess.STDOUT,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = None
    with open(log, errors="replace") as f:
        return rc, f.read(), time.time() - t0


def _pytest_id(case, file):
    """``file.py::Class::test`` from a JUnit testcase of pytest."""
    cls, name = case.get("classname", ""), case.get("name", "")
    mod = os.path.splitext(os.path.basename(file))[0]
    parts = cls.split(".")
    if mod in parts:
        parts = parts[parts.index(mod) + 1:]
    return "::".join([os.path.basename(file)] + [p for p in parts if p] + [name])


def parse_junit(path, file):
    rows = []
    for case in ET.parse(path).getroot().iter("testcase"):
        outcome, message = "passed", ""
        for child in case:
            tag = child.tag
            text = (child.get("message") or "") + "\n" + (child.text or "")
            if tag == "failure":
                outcome, message = "failed", text
            elif tag == "error":
                outcome, message = "error", text
            elif tag == "skipped":
                kind = child.get("type", "")
                outcome = "xfail" if "xfail" in kind else "skipped"
                message = text
        rows.append(Row(file, _pytest_id(case, file), outcome, message,
                        float(case.get("time") or 0)))
    return rows


_VERBOSE = re.compile(r"^(\S+\.py::\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b")


def parse_verbose(output, file):
    """Per-test outcomes from pytest's ``-v`` lines (when the process died before writing its
    JUnit report); the test that was running when it died is ``crashed``."""
    rows, started = [], None
    for line in output.splitlines():
        m = _VERBOSE.match(line)
        if m:
            rows.append(Row(file, m.group(1).split("/")[-1], m.group(2).lower()))
            started = None
        elif re.match(r"^\S+\.py::\S+ ?$", line.strip()):
            started = line.strip().split("/")[-1]
    return rows, started


def run_file(file, args, logdir):
    name = re.sub(r"\W", "_", os.path.relpath(file, os.path.dirname(os.path.dirname(file))))
    log = os.path.join(logdir, name + ".log")
    cwd = os.path.dirname(file)
    # --python: that interpreter's own paddle (the baseline, real Paddle), no import hook
    base = [args.python] if args.python else [sys.executable, "-m", "paddle_compat"]
    if args.unittest:
        out = os.path.join(logdir, name + ".json")
        cmd = base + ["-c", _UNITTEST_CHILD, file, out]
    else:
        out = os.path.join(logdir, name + ".xml")
        cmd = base + ["-m", "pytest", "-p", "no:cacheprovider", "-v", "-rA",
                      f"--junitxml={out}", "-o", "junit_family=xunit1",
                      os.path.basename(file)] + list(args.pytest_args)
    if os.path.exists(out):
        os.remove(out)
    rc, output, seconds = run_process(cmd, cwd, args.timeout, log)
    rows = []
    if os.path.exists(out) and os.path.getsize(out):
        try:
            if args.unittest:
                with open(out) as f:
                    rows = [Row(file, os.path.basename(file) + "::" + r["id"], r["outcome"],
                                r["message"], r["time"]) for r in json.load(f)]
            else:
                rows = parse_junit(out, file)
        except (ET.ParseError, ValueError):
            rows = []
    # pytest: 0 all passed, 1 some failed, 2 interrupted (collection errors, in the report),
    # 5 nothing collected; anything else (a signal, os._exit) means the process died
    if rc is None or (not rows and rc != 0) or (rc not in (0, 1, 2, 5) and not args.unittest):
        # timed out or died: keep what -v printed and blame the test that was running
        done, running = parse_verbose(output, file) if not args.unittest else (rows, None)
        if done and not rows:
            rows = done
        what = "timeout" if rc is None else "crashed"
        tail = "\n".join(output.splitlines()[-15:])
        msg = (f"killed after {args.timeout}s" if rc is None else f"exit status {rc}")
        rows.append(Row(file, running or os.path.basename(file), what,
                        f"{msg}\n{tail}", seconds))
    elif not rows:
        rows.append(Row(file, os.path.basename(file), "no tests",
                        "\n".join(output.splitlines()[-5:]), seconds))
    return rows, log


def table(rows, root):
    width = max([len(_label(r, root)) for r in rows] + [10])
    lines = [f"{'test':<{width}}  {'outcome':<8}  reason", "-" * (width + 30)]
    for r in rows:
        lines.append(f"{_label(r, root):<{width}}  {r.outcome:<8}  {r.reason}".rstrip())
    counts = {}
    for r in rows:
        counts[r.outcome] = counts.get(r.outcome, 0) + 1
    lines.append("")
    lines.append(", ".join(f"{counts[k]} {k}" for k in OUTCOMES if k in counts))
    return "\n".join(lines)


def _label(row, root):
    rel = os.path.relpath(os.path.dirname(row.file), root) if root else ""
    return row.test_id if rel in ("", ".") else os.path.join(rel, row.test_id)


def write_junit(rows, path):
    suite = ET.Element("testsuite", name="paddle_compat", tests=str(len(rows)),
                       failures=str(sum(r.outcome == "failed" for r in rows)),
                       errors=str(sum(r.outcome in ("error", "crashed", "timeout")
                                      for r in rows)),
                       skipped=str(sum(r.outcome in ("skipped", "xfail", "no tests")
                                       for r in rows)))
    for r in rows:
        cls, _, name = r.test_id.rpartition("::")
        case = ET.SubElement(suite, "testcase", classname=cls.replace("::", "."), name=name,
                             file=r.file, time=f"{r.seconds:.3f}")
        if r.outcome in ("failed", "xpass"):
            ET.SubElement(case, "failure", message=r.reason).text = r.message
        elif r.outcome in ("error", "crashed", "timeout"):
            ET.SubElement(case, "error", message=f"{r.outcome}: {r.reason}").text = r.message
        elif r.outcome in ("skipped", "xfail", "no tests"):
            ET.SubElement(case, "skipped", message=r.reason).text = r.message
    top = ET.Element("testsuites")
    top.append(suite)
    tree = ET.ElementTree(top)
    ET.indent(tree)
    tree.write(path, encoding="utf-8", xml_declaration=True)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="run_paddle_tests.py",
                                 description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="test files or directories of them")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per file (900)")
    ap.add_argument("--unittest", action="store_true",
                    help="run with unittest's loader instead of pytest")
    ap.add_argument("--scratch", metavar="DIR",
                    help="copy the tests' directories to DIR and run the copies there")
    ap.add_argument("--junit", metavar="OUT.xml", help="also write a JUnit XML report")
    ap.add_argument("--table", metavar="OUT.txt", help="also write the text table to a file")
    ap.add_argument("--logs", metavar="DIR", help="keep each file's output here")
    ap.add_argument("-k", dest="keyword", help="pytest -k expression")
    ap.add_argument("--python", metavar="PY",
                    help="run the files with this Python's own paddle instead of paddle_compat "
                         "(the baseline: real Paddle's virtualenv; --unittest where it has no "
                         "pytest)")
    ap.add_argument("--pytest-arg", dest="pytest_args", action="append", default=[],
                    help="one more argument for pytest (repeatable)")
    args = ap.parse_args(argv)
    if args.keyword:
        args.pytest_args += ["-k", args.keyword]
    paths = args.paths
    try:
        if args.scratch:
            paths = copy_to_scratch(paths, args.scratch)
        files = find_files(paths)
    except FileNotFoundError as e:
        print(f"run_paddle_tests.py: no such file or directory: {e}", file=sys.stderr)
        return 2
    if not files:
        print("run_paddle_tests.py: no test_*.py files found", file=sys.stderr)
        return 2
    logdir = args.logs or tempfile.mkdtemp(prefix="paddle_tests_")
    os.makedirs(logdir, exist_ok=True)
    root = os.path.commonpath([os.path.dirname(f) for f in files])
    rows = []
    for file in files:
        file_rows, log = run_file(file, args, logdir)
        rows += file_rows
        counts = {}
        for r in file_rows:
            counts[r.outcome] = counts.get(r.outcome, 0) + 1
        summary = ", ".join(f"{v} {k}" for k, v in counts.items())
        print(f"{os.path.relpath(file, root)}: {summary}   (log: {log})", flush=True)
    text = table(rows, root)
    print()
    print(text)
    if args.table:
        with open(args.table, "w") as f:
            f.write(text + "\n")
    if args.junit:
        write_junit(rows, args.junit)
    return 1 if any(r.outcome in BAD for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
