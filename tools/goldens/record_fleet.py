"""Record real Paddle's fleet for tests/test_fleet.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_fleet.py

Writes tests/goldens/fleet.json: {"paddle": version, "single": {...}, "job": {...}}.
"single" holds one-process facts: CommunicateTopology rank layouts, DistributedStrategy
defaults, the MultiSlot data generators' text lines. "job" runs tests/scripts/dist_fleet.py
unchanged under real Paddle's launcher (2 CPU ranks, gloo) and keeps every rank's results, or
the tail of the log when real Paddle could not run it; "job4" does the same for
tests/scripts/dist_fleet4.py on 4 ranks.
"""
import io
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPTS = os.path.join(ROOT, "tests", "scripts")
OUT = os.path.join(ROOT, "tests", "goldens", "fleet.json")


def single():
    import paddle
    from paddle.distributed import fleet
    from paddle.distributed.fleet.base.topology import CommunicateTopology
    out = {}
    names = ["data", "pipe", "sharding", "sep", "model"]
    for dims in ([2, 2, 1, 1, 2], [2, 1, 2, 1, 2], [1, 2, 1, 2, 2]):
        t = CommunicateTopology(names, dims)
        key = "x".join(map(str, dims))
        out["topo_" + key] = {
            "comm": {n: t.get_comm_list(n) for n in names},
            "coords": [list(t.get_coord(r)) for r in range(t.world_size())],
            "axis_pipe_1": t.get_axis_list("pipe", 1) if dims[1] > 1 else None,
        }
    s = fleet.DistributedStrategy()
    hc = s.hybrid_configs
    out["strategy"] = {
        "hybrid": {k: hc[k] for k in ("dp_degree", "mp_degree", "pp_degree",
                                      "sharding_degree", "sep_degree")},
        "pipeline": dict(s.pipeline_configs),
        "flags": {k: getattr(s, k) for k in ("recompute", "amp", "sharding", "pipeline",
                                             "tensor_parallel", "gradient_merge", "lamb",
                                             "lars", "localsgd", "dgc",
                                             "find_unused_parameters", "a_sync")},
        "amp_configs": {k: v for k, v in s.amp_configs.items()},
        "recompute_configs": dict(s.recompute_configs),
    }
    errors = {}
    for name, value in (("hybrid_unknown", {"no_such_degree": 2}),):
        try:
            s.hybrid_configs = value
            errors[name] = None
        except Exception as e:  # noqa: BLE001
            errors[name] = type(e).__name__
    out["strategy_errors"] = errors

    class Words(fleet.MultiSlotDataGenerator):
        def generate_sample(self, line):
            def it():
                w = [int(x) for x in line.split()]
                yield [("words", w), ("label", [len(w) % 2]), ("score", [0.5, 1.25])]
            return it

    class Strs(fleet.MultiSlotStringDataGenerator):
        def generate_sample(self, line):
            def it():
                yield [("words", line.split()), ("label", ["1"])]
            return it

    lines = ["1 2 3", "7 8", "42"]
    for name, gen in (("multislot", Words()), ("multislot_string", Strs())):
        gen.set_batch(2)
        old_in, old_out = sys.stdin, sys.stdout
        sys.stdin, sys.stdout = io.StringIO("\n".join(lines) + "\n"), io.StringIO()
        try:
            gen.run_from_stdin()
            text = sys.stdout.getvalue()
        finally:
            sys.stdin, sys.stdout = old_in, old_out
        out[name] = text
        out[name + "_proto"] = getattr(gen, "_proto_info", None)
    return paddle.__version__, out


def job(script="dist_fleet.py", nproc=2, sections=("mp", "pp", "dp", "sh")):
    """Each section of the script in its own job; a section real Paddle cannot run on CPU
    (its tensor-parallel ops have no CPU kernel: ``c_identity``) is kept with its log tail."""
    out = {"returncode": {}, "ranks": {str(r): {} for r in range(nproc)}, "log_tail": {}}
    for section in sections:
        got = job_section(script, nproc, section)
        out["returncode"][section] = got["returncode"]
        if len(got["ranks"]) == nproc:
            for r in out["ranks"]:
                out["ranks"][r].update(got["ranks"][r])
        else:
            out["log_tail"][section] = {k: v[-1500:] for k, v in got["log_tail"].items()
                                        if k.startswith("workerlog")}
    return out


def job_section(script, nproc, section):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        os.makedirs(out)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
        try:
            proc = subprocess.run([sys.executable, "-m", "paddle.distributed.launch",
                                   "--nproc_per_node", str(nproc), "--log_dir",
                                   os.path.join(tmp, "log"), os.path.join(SCRIPTS, script),
                                   out, section], cwd=tmp, env=env, capture_output=True,
                                  text=True, timeout=300)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        ranks = {}
        for r in range(nproc):
            path = os.path.join(out, f"rank{r}.json")
            if os.path.exists(path):
                with open(path) as f:
                    ranks[str(r)] = json.load(f)
        logs = {}
        logdir = os.path.join(tmp, "log")
        if os.path.isdir(logdir):
            for f in sorted(os.listdir(logdir)):
                with open(os.path.join(logdir, f), errors="replace") as fh:
                    logs[f] = fh.read()[-3000:]
        return {"returncode": rc, "ranks": ranks, "log_tail": logs if not ranks else {}}


def main():
    version, s = single()
    result = {"paddle": version, "single": s, "job": job(),
              "job4": job("dist_fleet4.py", 4, ("mp", "pp"))}
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
    print("wrote", OUT, "job rc", result["job"]["returncode"], "job4 rc",
          result["job4"]["returncode"])


if __name__ == "__main__":
    main()
