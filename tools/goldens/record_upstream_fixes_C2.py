"""Record Paddle 3.3.1's behaviour that its autograd / PyLayer / hook / optimizer test files
(issue 31, slice C: tools/upstream/table_C.txt) rely on and paddle_compat fixed for them.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_C2.py

Writes tests/goldens/upstream_fixes_C2.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_upstream_fixes_C2.py runs the same code on
paddle_compat (tests/code_cases.py). Each case leaves its result in ``out`` (plain JSON values)
and puts back any global state it changed.
"""
import json
import os
import runpy
import tempfile

import numpy as np
import paddle

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_C2.json")

CASES = {
    # dygraph initializers draw with the legacy program's seed (test_imperative_double_grad's
    # ResNet twins): a private engine per parameter, so equal shapes get equal values
    "legacy_program_seed_initializers": """
with paddle.pir_utils.OldIrGuard():
    paddle.framework.random._manual_program_seed(123)
out = []
for init in [paddle.nn.initializer.Normal(), paddle.nn.initializer.Uniform(),
             paddle.nn.initializer.KaimingNormal(), paddle.nn.initializer.XavierUniform(),
             paddle.nn.initializer.TruncatedNormal()]:
    a = paddle.create_parameter([3, 4], 'float32', default_initializer=init)
    b = paddle.create_parameter([5, 4], 'float32', default_initializer=init)
    out.append([a.numpy().ravel()[:4].tolist(), b.numpy().ravel()[:4].tolist()])
l1, l2 = paddle.nn.Linear(3, 4), paddle.nn.Linear(3, 4)
out.append(bool((l1.weight.numpy() == l2.weight.numpy()).all()))
with paddle.pir_utils.OldIrGuard():
    paddle.framework.random._manual_program_seed(0)
l1, l2 = paddle.nn.Linear(3, 4), paddle.nn.Linear(3, 4)
out.append(bool((l1.weight.numpy() == l2.weight.numpy()).all()))
""",
    # outside OldIrGuard the seed goes to the PIR programs: dygraph initializers ignore it
    "pir_program_seed_leaves_initializers": """
paddle.framework.random._manual_program_seed(123)
l1, l2 = paddle.nn.Linear(3, 4), paddle.nn.Linear(3, 4)
out = bool((l1.weight.numpy() == l2.weight.numpy()).all())
paddle.framework.random._manual_program_seed(0)
""",
    # the seed sticks to an initializer that drew with it (Paddle stores it)
    "legacy_program_seed_sticks": """
init = paddle.nn.initializer.Normal()
with paddle.pir_utils.OldIrGuard():
    paddle.framework.random._manual_program_seed(123)
a = paddle.create_parameter([3], 'float32', default_initializer=init)
with paddle.pir_utils.OldIrGuard():
    paddle.framework.random._manual_program_seed(0)
b = paddle.create_parameter([3], 'float32', default_initializer=init)
out = [a.numpy().tolist(), b.numpy().tolist()]
""",
    "truncated_normal_initializer_seed": """
init = paddle.nn.initializer.TruncatedNormalInitializer(seed=5)
out = paddle.create_parameter([4], 'float32', default_initializer=init).numpy().tolist()
""",
    # the clip op type: Min/Max input slots and min/max attributes (OpTest's clip cases)
    "clip_op_slots_and_attrs": """
from paddle.base.framework import OpProtoHolder
proto = OpProtoHolder.instance().get_op_proto('clip')
out = [[i.name for i in proto.inputs], sorted(a.name for a in proto.attrs
                                              if a.name in ('min', 'max'))]
""",
    "clip_op_min_max_inputs": """
paddle.enable_static()
try:
    with paddle.pir_utils.OldIrGuard():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data('X', [2, 3], 'float32')
            mx = paddle.static.data('Max', [1], 'float32')
            blk = main.global_block()
            o = blk.create_var(name='Out', dtype='float32', shape=[2, 3])
            blk.append_op(type='clip', inputs={'X': x, 'Max': mx}, outputs={'Out': o},
                          attrs={'min': 0.2, 'max': 0.9})
        exe = paddle.static.Executor(paddle.CPUPlace())
        xv = np.array([[0.1, 0.3, 0.5], [0.7, 0.9, 1.1]], 'float32')
        out = exe.run(main, feed={'X': xv, 'Max': np.array([0.6], 'float32')},
                      fetch_list=[o])[0].tolist()
finally:
    paddle.disable_static()
""",
    # paddle.clip's argument checks while a program is built, and in dygraph
    "clip_static_argument_errors": """
paddle.enable_static()
out = []
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        for make in [lambda: np.ones([2, 4], 'float32'),
                     lambda: paddle.static.data('x1', [1], 'int16'),
                     lambda: paddle.static.data('x2', [1], 'int8'),
                     lambda: paddle.static.data('x3', [1], 'float16')]:
            try:
                paddle.clip(make(), 0.2, 0.8)
                out.append('ok')
            except Exception as e:
                out.append([type(e).__name__, str(e).split(' (at ')[0].replace('numpy.', '')])
finally:
    paddle.disable_static()
try:
    paddle.clip(np.ones(3, 'float32'), 0.0, 1.0)
except Exception as e:
    out.append([type(e).__name__, str(e).split(' (at ')[0].replace('numpy.', '')])
""",
}


def run_case(code, paddle_module):
    """Run ``code`` from a file with ``paddle``, ``np`` in scope; return its ``out``."""
    tmp = tempfile.mkdtemp(prefix="upstream_C2_")
    path = os.path.join(tmp, "case.py")
    with open(path, "w") as f:
        f.write(code)
    return runpy.run_path(path, init_globals={"paddle": paddle_module, "np": np, "os": os,
                                              "tmp": tmp})["out"]


def run(code):
    try:
        return {"code": code, "value": run_case(code, paddle)}
    except Exception as e:  # noqa: BLE001 - the golden records the error type
        return {"code": code, "error": type(e).__name__}


def main():
    doc = {name: run(code) for name, code in CASES.items()}
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(doc)} cases to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
