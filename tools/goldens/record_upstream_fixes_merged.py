"""Record Paddle 3.3.1's behaviour behind the fixes made while merging issue 31's third pass
(tools/upstream/table_merged.txt): ``unique`` in a static program (its sizes known when the
program runs; Paddle's static shapes) and the legacy ``unique`` op type (``is_sorted`` False:
values in the order they first appear), which Paddle's test_unique.py checks.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_merged.py

Writes tests/goldens/upstream_fixes_merged.json (see tools/goldens/case_recorder.py);
tests/test_upstream_fixes_merged.py runs the same code on paddle_compat.
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_merged.json")

CASES = {
    "unique_static_and_legacy_op": """paddle.enable_static()
try:
    with paddle.pir_utils.OldIrGuard():
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [6], "int64")
            blk = main.global_block()
            o = blk.create_var(name="o", dtype="int64")
            i = blk.create_var(name="i", dtype="int32")
            blk.append_op(type="unique", inputs={"X": x}, outputs={"Out": o, "Index": i},
                          attrs={"dtype": 2})
        exe = paddle.static.Executor(paddle.CPUPlace())
        legacy = exe.run(main, feed={"x": np.array([2, 3, 3, 1, 5, 3])}, fetch_list=[o, i])
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2, 3], "float32")
        outs = paddle.unique(x, return_index=True, return_inverse=True, return_counts=True,
                             axis=1)
        shapes = [list(v.shape) for v in outs]
    got = paddle.static.Executor().run(
        main, feed={"x": np.array([[1., 2., 1.], [3., 4., 3.]], "float32")}, fetch_list=list(outs))
finally:
    paddle.disable_static()
out = [[v.tolist() for v in legacy], shapes, [v.tolist() for v in got]]
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_merged_")


if __name__ == "__main__":
    main()
