"""Record Paddle 3.3.1's quantised inference models (issue 30: PaddleSlim's
``save_quantized_model``) both ways, for tests/test_quant_model_files.py:

    /work/paddle_venv/bin/python tools/goldens/record_quant_model_files.py

For each net of tests/quant_model_files_cases.py:

* Paddle's own files: real Paddle quantises, calibrates and saves the net; the ``.pdmodel`` and
  ``.pdiparams`` are kept under tests/goldens/quant_model_files/<case>/ (the test runs them with
  paddle_compat's predictor and compares its program with the one paddle_compat writes) and
  ``paddle_pred`` is Paddle's predictor output on them;
* paddle_compat's files: the same net is saved by paddle_compat in a subprocess
  (``COMPAT_PYTHON``, default ``python3``, with this checkout first on the path) and
  ``paddle_runs_ours`` is real Paddle's predictor output on those files.

Writes tests/goldens/quant_model_files.json: {case: {"paddle_pred": ..., "paddle_runs_ours":
..., "dygraph": the quantised net's eval output in Paddle}}.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import paddle

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from quant_model_files_cases import CASES, build, predict  # noqa: E402

FILES = os.path.join(ROOT, "tests", "goldens", "quant_model_files")
OUT = os.path.join(ROOT, "tests", "goldens", "quant_model_files.json")

OURS = """
import sys
import paddle_compat as paddle
sys.path.insert(0, {tests!r})
from quant_model_files_cases import CASES, build
for case in CASES:
    qnet, quanter, spec, x = build(paddle, case)
    quanter.save_quantized_model(qnet, {out!r} + "/" + case + "/model", input_spec=spec)
"""


def main():
    golden = {}
    for case in CASES:
        qnet, quanter, spec, x = build(paddle, case)
        # (after saving, the net's forward is to_static's: Paddle converts it in place)
        dygraph = qnet(paddle.to_tensor(x)).numpy().tolist()
        prefix = os.path.join(FILES, case, "model")
        quanter.save_quantized_model(qnet, prefix, input_spec=spec)
        os.remove(prefix + ".pdiparams.info")        # a pickle: not needed by the tests
        golden[case] = {"paddle_pred": predict(paddle, prefix, x).tolist(), "dygraph": dygraph}
    tmp = tempfile.mkdtemp()
    try:
        env = dict(os.environ, PYTHONPATH=ROOT)
        subprocess.run([os.environ.get("COMPAT_PYTHON", "python3"), "-c",
                        OURS.format(tests=os.path.join(ROOT, "tests"), out=tmp)],
                       env=env, check=True)
        for case in CASES:
            x = build(paddle, case)[3]
            golden[case]["paddle_runs_ours"] = predict(
                paddle, os.path.join(tmp, case, "model"), x).tolist()
    finally:
        shutil.rmtree(tmp)
    with open(OUT, "w") as f:
        json.dump(golden, f, indent=1)
        f.write("\n")
    print("wrote", OUT, "and", FILES)


if __name__ == "__main__":
    main()
