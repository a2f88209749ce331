"""Record real Paddle 3.3.1's results of tests/scripts/dist_auto_parallel.py on 2 and 4 CPU
ranks (gloo) into tests/goldens/auto_parallel.json: ``{"2": {rank: {case: value}}, "4": ...}``.

    python tools/goldens/record_auto_parallel.py [--python /work/paddle_venv/bin/python] [--worlds 2,4]

Cases Paddle cannot run record the exception type it raised; a rank that crashed records
nothing (the test then checks ours without a golden, against the dense run in the script).
"""
import argparse
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tests", "scripts", "dist_auto_parallel.py")
OUT = os.path.join(ROOT, "tests", "goldens", "auto_parallel.json")


def run(python, n):
    with tempfile.TemporaryDirectory() as out:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
        subprocess.run([python, "-m", "paddle.distributed.launch", "--nproc_per_node", str(n),
                        "--log_dir", os.path.join(out, "log"), SCRIPT, out],
                       env=env, cwd=out, timeout=900, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ranks = {}
        for r in range(n):
            path = os.path.join(out, f"rank{r}.json")
            if os.path.exists(path):
                with open(path) as f:
                    ranks[str(r)] = json.load(f)
        return ranks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=os.path.join(os.path.dirname(ROOT), "paddle_venv",
                                                     "bin", "python"))
    ap.add_argument("--worlds", default="2,4", help="job sizes to (re)record, e.g. 4")
    args = ap.parse_args()
    gold = {}
    if os.path.exists(OUT):
        with open(OUT) as f:
            gold = json.load(f)
    for n in args.worlds.split(","):
        gold[n] = run(args.python, int(n))
    with open(OUT, "w") as f:
        json.dump(gold, f, indent=1, sort_keys=True)
        f.write("\n")
    print({n: sorted(r) for n, r in gold.items()})


if __name__ == "__main__":
    main()
