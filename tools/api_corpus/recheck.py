"""Replay the recorded configs whose line contains PATTERN on paddle_compat, in-process, and
print the differences (for the fix-and-check loop).

    python -m api_corpus.recheck real.jsonl PATTERN [PATTERN...]
"""
import sys
import warnings

from .compare import compare_one, load, no_cpu_kernel
from .parse import parse
from .runner import run


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    warnings.filterwarnings("ignore")
    import paddle_compat as paddle
    real = load(argv[0])
    n = bad = 0
    for key, want in real.items():
        if not any(p in key for p in argv[1:]) or "crash" in want or no_cpu_kernel(want):
            continue
        got = run(parse(key), paddle)
        d = compare_one(want, got)
        n += 1
        if d is not None:
            bad += 1
            print(f"- {key[:170]}\n    {str(d)[:300]}")
    print(f"{n - bad}/{n} agree")


if __name__ == "__main__":
    main()
