"""Record what REAL Paddle 3.3.1 does with Paddle's own test files: the baseline of issue 20.

    python tools/upstream/record_baseline.py [-j 2] [--timeout 120] [FILE ...]

Runs each chosen file (``files.txt``, or the FILEs named, paths relative to Paddle's repository
root) under ``$UPSTREAM_PADDLE_TESTS`` (default ``/work/upstream``) with Paddle's own
interpreter (``$PADDLE_PYTHON``, default ``../paddle_venv/bin/python``) and pytest, on the CPU,
one process per file, ``-j`` at a time, each killed after ``--timeout`` seconds; the per-test
outcomes (from pytest's JUnit report) go to ``baseline.json`` as {file: {test_id: outcome}},
merged into what is there (a file run again replaces its entry). Files that are not present are
left as they were. Commit ``baseline.json``; never the test files.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="files (default: files.txt)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per file (120)")
    ap.add_argument("--out", default=suite.BASELINE)
    ap.add_argument("--logs", help="keep each file's output here")
    args = ap.parse_args(argv)
    root = suite.upstream_root()
    if root is None:
        print("record_baseline.py: Paddle's test files are not here: set UPSTREAM_PADDLE_TESTS "
              "to a directory holding Paddle's test/ tree", file=sys.stderr)
        return 2
    if not os.path.exists(suite.PADDLE_PYTHON):
        print(f"record_baseline.py: no Paddle interpreter at {suite.PADDLE_PYTHON} "
              "(set PADDLE_PYTHON)", file=sys.stderr)
        return 2
    files = args.files or suite.chosen_files()
    present = [f for f in files if os.path.isfile(os.path.join(root, f))]
    print(f"{len(present)} of {len(files)} files present under {root}")
    results, logdir = suite.run_many(present, root, [suite.PADDLE_PYTHON], args.timeout,
                                     args.jobs, paddle_compat=False, logdir=args.logs)
    base = suite.load_json(args.out)
    for rel, (outcomes, _) in results.items():
        base[rel] = dict(sorted(outcomes.items()))
    with open(args.out, "w") as f:
        json.dump(dict(sorted(base.items())), f, indent=1, sort_keys=False)
        f.write("\n")
    passed = sum(sum(o == suite.PASSED for o in results[r][0].values()) for r in results)
    print(f"baseline: {len(results)} files, {passed} tests passed on Paddle -> {args.out} "
          f"(logs: {logdir})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
