"""Record real Paddle's collectives on CPU (gloo) for tests/test_collectives.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_distributed.py [N ...]

(N: the job sizes to record, default 2; the others already in the file are kept). A 4-rank
job of real Paddle 3.3.1 on gloo hangs in its point-to-point cases (its pair to rank 3 times
out), so tests/test_collectives.py checks the 4-rank job against formulas instead.

Runs tests/scripts/dist_collectives.py unchanged under real Paddle's launcher
(``python -m paddle.distributed.launch --nproc_per_node N``) for N = 2, and writes every
rank's results to tests/goldens/distributed.json: {"paddle": version, "jobs": {"2": {"0":
{case: {"value", "dtype", "shape"} or {"error", "message"}}, ...}, "4": ...}}. A case that
real Paddle's gloo process group cannot run (AVG, reduce_scatter, alltoall ...) is recorded
with its error; a case missing from a rank means real Paddle hung there (batch_isend_irecv on
gloo waits until the store times out): the test says what we do instead.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(ROOT, "tests", "scripts", "dist_collectives.py")
OUT = os.path.join(ROOT, "tests", "goldens", "distributed.json")


def run_job(n, tmp):
    out = os.path.join(tmp, f"out{n}")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
    proc = subprocess.run([sys.executable, "-m", "paddle.distributed.launch",
                           "--nproc_per_node", str(n), "--log_dir", os.path.join(tmp, f"log{n}"),
                           SCRIPT, out], cwd=tmp, env=env, capture_output=True, text=True,
                          timeout=600)
    ranks = {}
    for r in range(n):
        path = os.path.join(out, f"rank{r}.json")
        if not os.path.exists(path):
            sys.exit(f"rank {r} of the {n}-rank job wrote nothing:\n{proc.stdout[-3000:]}")
        with open(path) as f:
            ranks[str(r)] = json.load(f)
    return ranks


def main():
    import paddle  # noqa: F401  (only ever run under the Paddle virtualenv)

    jobs = {}
    if os.path.exists(OUT):
        with open(OUT) as f:
            jobs = json.load(f)["jobs"]
    sizes = [int(a) for a in sys.argv[1:]] or [2]
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            jobs[str(n)] = run_job(n, tmp)
    with open(OUT, "w") as f:
        json.dump({"paddle": paddle.__version__, "jobs": jobs}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
