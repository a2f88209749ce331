"""Record real Paddle's 20 losses of examples/train_custom_op.py for
tests/test_train_example.py.

Run with the oracle interpreter (real Paddle installed there, never in the project):

    /work/paddle_venv/bin/python tools/goldens/record_train.py

The example is Paddle code written against ``paddle_compat``: this script runs its source with
``import paddle_compat as paddle`` replaced by ``import paddle`` and writes
tests/goldens/train.json: ``losses`` (20 floats), ``initial_state`` (the weights both runs
start from, {name: nested list}) and ``lrs`` (the scheduled lr after each step).
"""
import json
import os
import warnings

warnings.filterwarnings("ignore")
import paddle  # noqa: E402,F401  (only ever run under the Paddle virtualenv)

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
EXAMPLE = os.path.join(ROOT, "examples", "train_custom_op.py")
OUT = os.path.join(ROOT, "tests", "goldens", "train.json")


def main():
    with open(EXAMPLE) as f:
        src = f.read()
    if "import paddle_compat as paddle\n" not in src:
        raise SystemExit("the example no longer imports paddle_compat as paddle")
    env = {"__name__": "paddle_example"}
    exec(compile(src.replace("import paddle_compat as paddle\n", "import paddle\n"),
                 EXAMPLE, "exec"), env)
    losses = env["main"]("cpu", verbose=False)
    init = {k: v.tolist() for k, v in env["initial_state"]().items()}
    with open(OUT, "w") as f:
        json.dump({"paddle": paddle.__version__, "losses": losses, "initial_state": init}, f,
                  indent=1)


if __name__ == "__main__":
    main()
