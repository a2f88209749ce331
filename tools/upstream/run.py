"""Run Paddle's own test files, unchanged, on paddle_compat and compare with real Paddle.

    python tools/upstream/run.py [-j 2] [--timeout 120] [--table OUT.txt] [FILE ...]

Each chosen file (``files.txt``, or the FILEs named: paths relative to Paddle's repository root,
under ``$UPSTREAM_PADDLE_TESTS``, default ``/work/upstream``) runs in its own process under
``python -m paddle_compat`` (``import paddle`` is paddle_compat), ``-j`` at a time, each killed
after ``--timeout`` seconds. The table gives, per file, the tests real Paddle 3.3.1 passes
(``baseline.json``, from ``record_baseline.py``), how many of those pass here, and how many of
those are listed in ``known.json`` ({file: {test_id or "*": reason}}: tests that cannot mean
anything on torch, with the reason). Then every test Paddle passes that does not pass here,
with its telling line, and the total: the share of Paddle's passes we pass (the issue asks for
>= 95%).

Exit status: 1 when a test Paddle passes does not pass here and is not in ``known.json``
(or when a file has no baseline), 0 otherwise, 2 for bad arguments.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402


def compare(results, baseline, known):
    """Rows (file, paddle passes, our passes of them, known, new failures) and the failures
    [(file, test_id, our outcome, reason, known reason or None)]."""
    rows, failures = [], []
    for rel in sorted(results):
        ours, reasons = results[rel]
        base = baseline.get(rel)
        kfile = known.get(rel, {})
        if base is None:
            rows.append((rel, None, sum(o == suite.PASSED for o in ours.values()), 0, 0))
            continue
        want = [t for t, o in base.items() if o == suite.PASSED]
        ok = kn = new = 0
        for t in want:
            got = ours.get(t, "not run")
            if got == suite.PASSED:
                ok += 1
                continue
            why = kfile.get(t) or kfile.get("*")
            if why:
                kn += 1
            else:
                new += 1
            # a test that did not run: the file's own row says why (crashed, timeout...)
            reason = reasons.get(t) or next(iter(reasons.values()), "")
            failures.append((rel, t, got, reason, why))
        rows.append((rel, len(want), ok, kn, new))
    return rows, failures


def render(rows, failures):
    w = max([len(r[0]) for r in rows] + [4])
    out = [f"{'file':<{w}}  {'paddle':>6}  {'ours':>6}  {'known':>5}  {'new':>4}",
           "-" * (w + 32)]
    tp = to = tk = tn = 0
    for rel, want, ok, kn, new in rows:
        if want is None:
            out.append(f"{rel:<{w}}  {'-':>6}  {ok:>6}  {'':>5}  {'':>4}  (no baseline)")
            continue
        out.append(f"{rel:<{w}}  {want:>6}  {ok:>6}  {kn:>5}  {new:>4}")
        tp, to, tk, tn = tp + want, to + ok, tk + kn, tn + new
    out.append("-" * (w + 32))
    out.append(f"{'total':<{w}}  {tp:>6}  {to:>6}  {tk:>5}  {tn:>4}")
    share = 100.0 * to / tp if tp else 100.0
    out.append(f"\n{len(rows)} files; paddle_compat passes {to} of the {tp} tests Paddle 3.3.1 "
               f"passes ({share:.1f}%); {tk} known, {tn} new failures")
    if failures:
        out.append("\nTests Paddle passes that fail here:")
        for rel, t, got, reason, why in failures:
            tag = f"[known: {why}]" if why else "[NEW]"
            out.append(f"  {tag} {os.path.dirname(rel)}/{t}  {got}  {reason}")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="files (default: files.txt)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per file (120)")
    ap.add_argument("--table", metavar="OUT.txt", help="also write the report to a file")
    ap.add_argument("--logs", help="keep each file's output here")
    ap.add_argument("--baseline", default=suite.BASELINE,
                    help="the baseline JSON (default: baseline.json)")
    ap.add_argument("--known", default=suite.KNOWN, help="the known-failures JSON (known.json)")
    ap.add_argument("--only-baselined", action="store_true",
                    help="run only the files that have a baseline")
    args = ap.parse_args(argv)
    root = suite.upstream_root()
    if root is None:
        print("run.py: Paddle's test files are not here: set UPSTREAM_PADDLE_TESTS to a "
              "directory holding Paddle's test/ tree", file=sys.stderr)
        return 2
    files = args.files or suite.chosen_files()
    present = [f for f in files if os.path.isfile(os.path.join(root, f))]
    baseline = suite.load_json(args.baseline)
    if args.only_baselined:
        present = [f for f in present if f in baseline]
    if not present:
        print(f"run.py: none of the {len(files)} files is under {root}", file=sys.stderr)
        return 2
    print(f"{len(present)} of {len(files)} files present under {root}")
    results, logdir = suite.run_many(present, root, [sys.executable, "-m", "paddle_compat"],
                                     args.timeout, args.jobs, paddle_compat=True,
                                     logdir=args.logs)
    baseline = suite.load_json(args.baseline)      # read again: a baseline may be recorded alongside
    known = suite.load_json(args.known)
    rows, failures = compare(results, baseline, known)
    text = render(rows, failures) + f"\n(logs: {logdir})"
    print()
    print(text)
    if args.table:
        with open(args.table, "w") as f:
            f.write(text + "\n")
    bad = any(why is None for *_, why in failures) or any(r[1] is None for r in rows)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
