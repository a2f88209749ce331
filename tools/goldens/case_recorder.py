"""The recording side of golden cases written as code (tests/code_cases.py is the testing side):
each case's code runs as a file on the ``paddle`` given (real Paddle 3.3.1 when recording), with
``paddle``, ``np``, ``os`` and a fresh folder ``tmp`` in scope; its ``out``, or the type of the
exception it raised, goes into the golden ``{name: {"code", "value" or "error"}}``."""
import json
import os
import runpy
import tempfile

import numpy as np


def run_case(code, paddle_module, prefix="case_"):
    """Run ``code`` from a file in a fresh folder (``to_static`` reads the source of what it
    defines); its ``out``."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    path = os.path.join(tmp, "case.py")
    with open(path, "w") as f:
        f.write(code)
    return runpy.run_path(path, init_globals={"paddle": paddle_module, "np": np, "os": os,
                                              "tmp": tmp})["out"]


def record(cases, paddle_module, out, prefix="case_"):
    """Run every case of ``{name: code}`` and write the golden to ``out``."""
    doc = {}
    for name, code in cases.items():
        try:
            doc[name] = {"code": code, "value": run_case(code, paddle_module, prefix)}
        except Exception as e:  # noqa: BLE001 - the golden records the error type
            doc[name] = {"code": code, "error": type(e).__name__}
    with open(out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(doc)} cases to {os.path.normpath(out)}")
