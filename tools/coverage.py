"""Coverage of the Paddle APIs that real workloads call (../shared/api_targets.tsv), and of
every public name of Paddle 3.3.1 (tools/names/paddle_names.txt, recorded from Paddle by
tools/names/record_names.py).

    python tools/coverage.py [--tsv PATH] [--no-tests | --junit XML] [--markdown FILE] [--readme]

For each row: whether paddle_compat has the API, how many golden tests name it and whether
they pass (one pytest run over tests/, read back from its JUnit XML). For the names: how many
of each namespace exist here, and which are missing. Prints a summary; with --markdown writes
the full table; with --readme puts the summary and the lists of missing APIs into README.md
between ``<!-- coverage:start -->`` and ``<!-- coverage:end -->``.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def load_rows(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("rank"):
                continue
            rank, api, calls, llm = line.rstrip("\n").split("\t")
            rows.append((int(rank), api, int(calls), llm == "yes"))
    return rows


def resolve(api):
    """Whether ``paddle.X.Y`` exists in paddle_compat (``paddle.Tensor.m`` as a Tensor member)."""
    import paddle_compat
    obj = paddle_compat
    for part in api.split(".")[1:]:
        try:
            obj = getattr(obj, part)
        except AttributeError:
            return False
    return True


NAMES = os.path.join(ROOT, "tools", "names", "paddle_names.txt")


def load_names(path=NAMES):
    """[(name, kind)] of Paddle's public names; kind is all / extra / method."""
    with open(path) as f:
        return [tuple(line.split()) for line in f if not line.startswith("#")]


def names_report(names):
    """Lines: the total, each namespace's count, and the names missing per namespace."""
    total, have, missing = {}, {}, {}
    for name, kind in names:
        parts = name.split(".")
        ns = "paddle" if len(parts) == 2 else ".".join(parts[:2])
        total[ns] = total.get(ns, 0) + 1
        if resolve(name):
            have[ns] = have.get(ns, 0) + 1
        else:
            missing.setdefault(ns, []).append(name[len(ns) + 1:])
    n, h = sum(total.values()), sum(have.values())
    lines = [f"names of Paddle 3.3.1 (tools/names/paddle_names.txt, in and outside __all__, "
             f"Tensor members): {h}/{n} exist ({100 * h / n:.1f}%)",
             "by namespace: " + ", ".join(f"{ns} {have.get(ns, 0)}/{t}"
                                          for ns, t in sorted(total.items()))]
    for ns in sorted(missing):
        lines.append(f"missing in {ns} ({len(missing[ns])}): {' '.join(missing[ns])}")
    return lines


def test_results(junit=None):
    """{test node id: passed?} from one pytest run (or from the JUnit XML of one already
    made: ``--junit``)."""
    if junit:
        return _read_junit(junit)
    with tempfile.TemporaryDirectory() as d:
        xml = os.path.join(d, "r.xml")
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        f"--junitxml={xml}", os.path.join(ROOT, "tests")],
                       cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return _read_junit(xml)


def _read_junit(xml):
    results = {}
    for case in ET.parse(xml).iter("testcase"):
        bad = any(c.tag in ("failure", "error") for c in case)
        skipped = any(c.tag == "skipped" for c in case)
        if not skipped:
            results[case.get("name")] = not bad
    return results


def per_api(results, apis):
    """{api: [passed flags]} for tests whose parametrized id starts with the api's name."""
    names = sorted(apis, key=len, reverse=True)
    out = {a: [] for a in apis}
    pat = re.compile(r"\[(paddle\.[A-Za-z0-9_.]+)")
    for test, ok in results.items():
        m = pat.search(test)
        if not m:
            continue
        tid = m.group(1)
        for a in names:
            if tid == a or tid.startswith(a + ".") and not any(
                    tid.startswith(b) and len(b) > len(a) for b in names):
                out[a].append(ok)
                break
            if tid.startswith(a) and not tid[len(a):len(a) + 1].isalnum() \
                    and tid[len(a):len(a) + 1] != "_":
                out[a].append(ok)
                break
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tsv", default=os.path.join(ROOT, "..", "shared", "api_targets.tsv"))
    p.add_argument("--no-tests", action="store_true", help="only check that the APIs exist")
    p.add_argument("--junit", help="read the test results from this JUnit XML of a pytest run")
    p.add_argument("--markdown", help="write the full table to this file")
    p.add_argument("--readme", action="store_true", help="update README.md's coverage summary")
    args = p.parse_args()
    rows = load_rows(args.tsv)
    results = {} if args.no_tests else test_results(args.junit)
    tests = per_api(results, [r[1] for r in rows])
    lines = ["| rank | api | llm | have | golden tests |", "|---|---|---|---|---|"]
    groups = {"1-300": rows[:300], "all": rows}
    summary = {}
    for rank, api, calls, llm in rows:
        have = resolve(api)
        t = tests.get(api, [])
        state = "-" if not t else f"{sum(t)}/{len(t)} pass"
        lines.append(f"| {rank} | `{api}` | {'yes' if llm else ''} | {'yes' if have else 'no'} "
                     f"| {state} |")
        summary[api] = (have, bool(t) and all(t))
    report = []
    for g, rs in groups.items():
        have = sum(summary[a][0] for _, a, _, _ in rs)
        ok = sum(summary[a][1] for _, a, _, _ in rs)
        report.append(f"rows {g}: {have}/{len(rs)} implemented"
                      + ("" if args.no_tests else f", {ok}/{len(rs)} with passing goldens"))
    missing = [a for _, a, _, _ in rows[:300] if not summary[a][0]]
    report.append(f"missing in rows 1-300 ({len(missing)}): {' '.join(missing)}")
    missing_all = [a for _, a, _, _ in rows[300:] if not summary[a][0]]
    report.append(f"missing in rows 301-{len(rows)} ({len(missing_all)}): "
                  f"{' '.join(missing_all)}")
    report += names_report(load_names())
    print("\n".join(report))
    if args.readme:
        _write_readme(report)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


def _write_readme(report):
    path = os.path.join(ROOT, "README.md")
    text = open(path).read()
    start, end = "<!-- coverage:start -->", "<!-- coverage:end -->"
    if start not in text or end not in text:
        sys.exit(f"README.md has no {start} ... {end} markers")
    body = "\n".join(f"- {line}" for line in report)
    head, rest = text.split(start, 1)
    text = head + start + "\n" + body + "\n" + end + rest.split(end, 1)[1]
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
