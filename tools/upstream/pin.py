"""Pin Paddle's test files to stored versions: a list of (path, commit, length) lines.

    python tools/upstream/pin.py RECORDS --root DIR [--out LIST] [--title TEXT]
    python tools/upstream/pin.py --verify LIST --root DIR

The file index stores many versions of each Paddle file; ``find_files`` lists them with their
commits and ``read_file`` (with ``commit``) returns one with its ``total_chars``. The files are
brought into a local copy by hand (the tools are not callable from a script), and what was read
is saved as RECORDS: one ``path commit length`` line per file (whitespace-separated; ``#``
comments and blank lines ignored; ``commit`` may be ``id:N`` for a file the index holds under
another path). This script checks the local copy under ``--root`` against the records (every
file present, its length in characters equal to ``total_chars``) and writes the pinned list,
sorted by path, with a header. ``--verify`` checks a local copy against a pinned list, so that
runs use exactly the pinned versions (exit status 1 and one line per mismatch otherwise).
"""
import argparse
import os
import re
import sys

_COMMIT = re.compile(r"^([0-9a-f]{40}|id:\d+)$")


def read_records(path):
    """``{path: (commit, length)}`` from a records or pinned-list file; ``ValueError`` naming
    the line for a malformed or repeated entry."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 3 or not _COMMIT.match(parts[1]) or not parts[2].isdigit():
                raise ValueError(f"{path}:{n}: expected 'path commit length' (commit: 40 hex "
                                 f"digits or id:N), got {line!r}")
            if parts[0] in out:
                raise ValueError(f"{path}:{n}: {parts[0]} is listed twice")
            out[parts[0]] = (parts[1], int(parts[2]))
    return out


def check(records, root):
    """Mismatches between ``records`` and the local copy under ``root``: a list of lines."""
    bad = []
    for rel, (_commit, length) in sorted(records.items()):
        p = os.path.join(root, rel)
        if not os.path.isfile(p):
            bad.append(f"{rel}: missing under {root}")
            continue
        with open(p, encoding="utf-8", newline="") as f:
            got = len(f.read())
        if got != length:
            bad.append(f"{rel}: {got} characters here, {length} in the pinned version")
    return bad


def render(records, title):
    lines = [f"# {title}" if title else "# Paddle files pinned to stored versions",
             "# path  commit  length (characters, as read_file's total_chars)"]
    w = max(len(p) for p in records)
    lines += [f"{p:<{w}}  {c}  {n}" for p, (c, n) in sorted(records.items())]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="pin.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("records", nargs="?", help="path commit length lines (what was read)")
    ap.add_argument("--root", required=True, help="the local copy (Paddle's repository layout)")
    ap.add_argument("--out", help="write the pinned list here (default: stdout)")
    ap.add_argument("--title", help="the list's first comment line")
    ap.add_argument("--verify", metavar="LIST", help="check --root against a pinned list")
    args = ap.parse_args(argv)
    source = args.verify or args.records
    if not source:
        ap.error("give RECORDS, or --verify LIST")
    try:
        records = read_records(source)
    except (OSError, ValueError) as e:
        print(f"pin.py: {e}", file=sys.stderr)
        return 2
    bad = check(records, args.root)
    for line in bad:
        print(line, file=sys.stderr)
    if bad or args.verify:
        if not bad:
            print(f"{len(records)} files match {source}")
        return 1 if bad else 0
    text = render(records, args.title)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
