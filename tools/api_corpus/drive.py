"""Run a list of configs on one side and write one JSON line per config.

    /work/paddle_venv/bin/python -m api_corpus.drive --side real   sample.txt real.jsonl
    python                       -m api_corpus.drive --side compat sample.txt compat.jsonl

(run from tools/). The parent process restarts a worker that dies or hangs (over
--timeout seconds on one config) and records that config as {"crash": ...}; a rerun resumes
where the output file stops.
"""
import argparse
import json
import os
import subprocess
import sys
import time
import warnings


def _import(side):
    if side == "real":
        import paddle
        paddle.set_device("cpu")
    else:
        import paddle_compat as paddle
    return paddle


def _done(out):
    keys = set()
    if os.path.exists(out):
        with open(out) as fh:
            for line in fh:
                try:
                    keys.add(json.loads(line)["key"])
                except (ValueError, KeyError):
                    pass
    return keys


def worker(side, sample, out, current):
    warnings.filterwarnings("ignore")
    from .parse import parse
    from .runner import run
    paddle = _import(side)
    done = _done(out)
    with open(sample) as fh:
        lines = [ln.strip() for ln in fh if ln.strip()]
    with open(out, "a") as fo:
        for line in lines:
            if line in done:
                continue
            with open(current, "w") as fc:
                fc.write(line)
            call = parse(line)
            t0 = time.perf_counter()
            res = run(call, paddle)
            res.update(key=line, api=call.api, seconds=round(time.perf_counter() - t0, 4))
            fo.write(json.dumps(res) + "\n")
            fo.flush()
    os.remove(current)


def parent(side, sample, out, timeout):
    current = out + ".current"
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    while True:
        if os.path.exists(current):
            os.remove(current)
        p = subprocess.Popen([sys.executable, "-m", "api_corpus.drive", "--side", side,
                              "--worker", sample, out], env=env,
                             cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        last, last_t = None, time.time()
        while p.poll() is None:
            time.sleep(0.5)
            cur = open(current).read() if os.path.exists(current) else None
            if cur != last:
                last, last_t = cur, time.time()
            elif cur is not None and time.time() - last_t > timeout:
                p.kill()
                p.wait()
                break
        if p.returncode == 0:
            return
        if not os.path.exists(current):
            raise SystemExit(f"worker failed to start (rc {p.returncode})")
        key = open(current).read()
        why = "timeout" if p.returncode in (-9,) else f"rc {p.returncode}"
        with open(out, "a") as fo:
            fo.write(json.dumps({"key": key, "api": key[:key.index("(")], "crash": why}) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", choices=("real", "compat"), required=True)
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("sample")
    ap.add_argument("out")
    a = ap.parse_args(argv)
    if a.worker:
        worker(a.side, a.sample, a.out, a.out + ".current")
    else:
        parent(a.side, a.sample, a.out, a.timeout)


if __name__ == "__main__":
    main()
