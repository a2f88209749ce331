"""Choosing the configs to replay: every distinct API, up to N configs each, chosen
deterministically (configs with at most SMALL elements first, in CRC32 order; none with a
tensor over MAX_NUMEL elements).

    python -m api_corpus.sample CONFIGS.txt... --per-api 4 > sample.txt
"""
import argparse
import sys
import zlib

from .parse import ParseError, parse

MAX_NUMEL = 2_000_000
SMALL = 100_000


def choose(lines, per_api=4):
    by_api = {}
    seen = set()
    for line in lines:
        line = line.strip()
        if not line or line in seen:
            continue
        seen.add(line)
        try:
            call = parse(line)
        except (ParseError, ValueError):
            continue
        sizes = [s.numel() for _, s in call.tensors()]
        if any(n > MAX_NUMEL for n in sizes):
            continue
        total = sum(sizes)
        key = (total > SMALL, zlib.crc32(line.encode()))
        by_api.setdefault(call.api, []).append((key, line))
    out = []
    for api in sorted(by_api):
        out += [line for _, line in sorted(by_api[api])[:per_api]]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--per-api", type=int, default=4)
    a = ap.parse_args(argv)
    lines = []
    for f in a.files:
        with open(f) as fh:
            lines += fh.readlines()
    for line in choose(lines, a.per_api):
        sys.stdout.write(line + "\n")


if __name__ == "__main__":
    main()
