"""Record real Paddle 3.3.1's results of tests/scripts/dist_auto_parallel.py on 2 and 4 CPU
ranks (gloo) into tests/goldens/auto_parallel.json: ``{"2": {rank: {case: value}}, "4": ...}``.

    python tools/goldens/record_auto_parallel.py [--python /work/paddle_venv/bin/python] [--worlds 2,4]

Cases Paddle cannot run record the exception type it raised; a rank that crashed records
nothing (the test then checks ours without a golden, against the dense run in the script).
The cases that kill Paddle's process (``crashes_paddle`` in the script: the pipeline stages
and reshards between meshes of other ranks) are run one by one (``AP_ONLY``) with
``--crash-probes``, which records each job's exit status under ``"crash_probes"``.
"""
import argparse
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "tests", "scripts", "dist_auto_parallel.py")
OUT = os.path.join(ROOT, "tests", "goldens", "auto_parallel.json")


CRASH_PROBES = {"2": ["cross_mesh_reshard", "pp_mlp", "pp_mlp_prefix", "pp_tied_weights"],
                "4": ["cross_mesh_reshard_2d", "pp_dp_mlp_sharding0", "pp_dp_mlp_sharding1",
                      "pp_dp_mlp_sharding3", "pp_mp_mlp"]}


def launch(python, n, out, extra_env=None):
    """Real Paddle's launcher running the script on ``n`` ranks, results into ``out``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
    env.update(extra_env or {})
    return subprocess.run([python, "-m", "paddle.distributed.launch", "--nproc_per_node",
                           str(n), "--log_dir", os.path.join(out, "log"), SCRIPT, out],
                          env=env, cwd=out, timeout=900, check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run(python, n):
    with tempfile.TemporaryDirectory() as out:
        launch(python, n, out)
        ranks = {}
        for r in range(n):
            path = os.path.join(out, f"rank{r}.json")
            if os.path.exists(path):
                with open(path) as f:
                    ranks[str(r)] = json.load(f)
        return ranks


def probe(python, n, name):
    """The exit status of the job running only the case ``name``, how many ranks wrote their
    results (a crash leaves none) and what the case gave on each that did."""
    with tempfile.TemporaryDirectory() as out:
        p = launch(python, n, out, {"AP_ONLY": name})
        results = {}
        for r in range(n):
            path = os.path.join(out, f"rank{r}.json")
            if os.path.exists(path):
                with open(path) as f:
                    results[str(r)] = json.load(f).get(name)
        return {"exit": p.returncode, "ranks_written": len(results), "results": results}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=os.path.join(os.path.dirname(ROOT), "paddle_venv",
                                                     "bin", "python"))
    ap.add_argument("--worlds", default="2,4", help="job sizes to (re)record, e.g. 4")
    ap.add_argument("--crash-probes", action="store_true",
                    help="(re)run only the cases that kill Paddle, one job each")
    args = ap.parse_args()
    gold = {}
    if os.path.exists(OUT):
        with open(OUT) as f:
            gold = json.load(f)
    for n in args.worlds.split(","):
        if args.crash_probes:
            gold.setdefault("crash_probes", {})[n] = {
                name: probe(args.python, int(n), name) for name in CRASH_PROBES[n]}
        else:
            gold[n] = run(args.python, int(n))
    with open(OUT, "w") as f:
        json.dump(gold, f, indent=1, sort_keys=True)
        f.write("\n")
    print({n: sorted(r) for n, r in gold.items()})


if __name__ == "__main__":
    main()
