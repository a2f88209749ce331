"""Record what real Paddle prints for tests/scripts/seeds/*.py into tests/goldens/seed_scripts/.

    python tests/scripts/record_seed_goldens.py [PADDLE_PYTHON]

PADDLE_PYTHON defaults to ../paddle_venv/bin/python (or /work/paddle_venv/bin/python): the
virtualenv with real Paddle 3.3.1. Each script runs there as ``python SCRIPT`` (so
``import paddle`` is real Paddle); its stdout goes to NAME.txt and its exit status and last
stderr line to _meta.json. Where Paddle 3.3.1 fails although its docs show the output
(``DOCUMENTED``), NAME.txt holds the documented output and _meta.json says so.
This script never imports Paddle itself.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SEEDS = os.path.join(HERE, "seeds")
OUT = os.path.join(ROOT, "tests", "goldens", "seed_scripts")

#: Paddle 3.3.1 cannot fetch by ``Variable.name`` (the doc's fetch_list); the doc shows this.
DOCUMENTED = {
    "en_static_pylayer": ("[[1. 2. 3. 4. 5.]]\n"
                          "[[5.4365635 5.4365635 5.4365635 5.4365635 5.4365635]]\n"
                          "[[  2.7182817   7.389056   20.085537   54.59815   148.41316  ]]\n"),
}

#: Unseeded ``paddle.randn``: the numbers differ run to run, in Paddle too.
RANDOM = {"zh_pylayer_pylayer", "wu_cus_tanh", "wu_correct_tensor_output",
          "wu_stop_gradient_input"}


def paddle_python():
    if len(sys.argv) > 1:
        return sys.argv[1]
    for p in (os.path.join(os.path.dirname(ROOT), "paddle_venv", "bin", "python"),
              "/work/paddle_venv/bin/python"):
        if os.path.exists(p):
            return p
    sys.exit("no Paddle virtualenv found; pass its python")


def main():
    py = paddle_python()
    os.makedirs(OUT, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    meta = {}
    for f in sorted(os.listdir(SEEDS)):
        if not f.endswith(".py"):
            continue
        name = f[:-3]
        p = subprocess.run([py, os.path.join(SEEDS, f)], capture_output=True, text=True,
                           cwd=SEEDS, env=env, timeout=300)
        err = [ln for ln in p.stderr.splitlines() if ln.strip()]
        last = err[-1] if err and p.returncode else ""
        entry = {"returncode": p.returncode, "error": last, "random": name in RANDOM,
                 "source": "paddle 3.3.1"}
        out = p.stdout
        if name in DOCUMENTED:
            entry.update(source="docs (Paddle 3.3.1 fails: see paddle_error)",
                         paddle_error=last, returncode=0, error="")
            out = DOCUMENTED[name]
        with open(os.path.join(OUT, name + ".txt"), "w") as fh:
            fh.write(out)
        meta[name] = entry
        print(f"{name}: exit {p.returncode} {last}")
    with open(os.path.join(OUT, "_meta.json"), "w") as fh:
        json.dump(meta, fh, indent=1, sort_keys=True, ensure_ascii=False)
        fh.write("\n")


if __name__ == "__main__":
    main()
