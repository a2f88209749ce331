"""Record Paddle 3.3.1's behaviour behind the upstream-suite fixes of tests/test_upstream_fixes_A.py
(issue 31, files of Paddle's test/legacy_test run on paddle_compat).

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_A.py

Writes tests/goldens/upstream_fixes_A.json: ``paddle.base.backward._strip_grad_suffix_`` on
gradient-variable names, the errors of ``Tensor._register_backward_hook``, and the input
gradient a ``StaticPyLayerBlock``'s backward block gives in an old-IR static program.
"""
import json
import os

os.environ.setdefault("FLAGS_enable_pir_api", "0")     # StaticPyLayerBlock is old-IR only

import numpy as np  # noqa: E402

import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "goldens", "upstream_fixes_A.json")
G = {}

NAMES = ["x", "x@GRAD", "x@GRAD@GRAD", "a/grad/x@GRAD_x", "x@GRADx", "grad/x",
         "x@GRAD@RENAME@1", "z@GRAD_slice_0@GRAD", "grad/grad/z@GRAD@RENAME@block0@1@GRAD",
         "xx@GRAD@", "grad/", "w@GRADD@1", "fc_0.w_0@GRAD"]


#: paddle.create_parameter's arguments while a program is built: (args, kwargs)
CREATE_PARAMETER_CASES = {
    "int_shape": ((1, "float32"), {}),
    "float_item": (([1.0, 2.0], "float32"), {}),
    "ndarray_attr": (([1, 2], "float32"), {"attr": np.arange(2)}),
    "str_attr": (([1, 2], "float32"), {"attr": "w"}),
    "ndarray_initializer": (([1, 2], "float32"), {"default_initializer": np.arange(2)}),
    "ok_np_int_item": (([np.int64(2), 3], "float32"), {}),
}


PIR_SNIPPET = """
import json, paddle
paddle.enable_static()
out = {}
for f in (paddle.isinf, paddle.abs, paddle.exp, paddle.sum):
    try:
        f([1.0, 2.0])
        out[f.__name__.lstrip("_")] = None
    except Exception as e:
        out[f.__name__.lstrip("_")] = [type(e).__name__, str(e).split(" (at ")[0]]
print(json.dumps(out))
"""


def _pir_static_not_tensor():
    """A list where an op wants a Variable, while a program is built under PIR (Paddle 3.3.1's
    default; this recorder runs old-IR for StaticPyLayerBlock, so it asks a fresh process)."""
    import subprocess
    import sys
    env = dict(os.environ, FLAGS_enable_pir_api="1")
    r = subprocess.run([sys.executable, "-c", PIR_SNIPPET], capture_output=True, text=True,
                       env=env, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is recorded
        return [type(e).__name__, str(e).split("\n")[0]]
    return None


def main():
    from paddle.base import backward, core
    G["strip_grad_suffix"] = {n: backward._strip_grad_suffix_(n) for n in NAMES}
    G["grad_var_suffix"] = core.grad_var_suffix()
    G["append_grad_suffix"] = {n: backward._append_grad_suffix_(n) for n in ["x", "fc_0.w_0"]}
    G["as_list"] = [backward._as_list(v) for v in (None, (1, 2), 3, "ab", [4])]

    x = paddle.to_tensor([5.0])
    G["backward_hook_stop_gradient"] = err(lambda: x._register_backward_hook(lambda: None))
    y = paddle.to_tensor([5.0], stop_gradient=False) ** 2
    G["backward_hook_interior"] = err(lambda: y._register_backward_hook(lambda: None))
    calls = []
    w = paddle.to_tensor([2.0], stop_gradient=False)
    w._register_backward_hook(lambda: calls.append(len(calls)))
    (w * 3).backward()
    (w * 3).backward()
    G["backward_hook_calls"] = calls
    G["backward_hook_grad"] = w.grad.numpy().tolist()

    v = np.array([[0.5, 1.5, -2.0, 3.0], [1.0, 0.25, 0.0, -1.0]], dtype="float64")
    G["corrcoef_dynamic"] = {"x": v.tolist(),
                             "rows": paddle.linalg.corrcoef(paddle.to_tensor(v)).numpy().tolist(),
                             "one_row": float(paddle.linalg.corrcoef(
                                 paddle.to_tensor(v[0])).numpy()),
                             "3d": err(lambda: paddle.linalg.corrcoef(paddle.ones([2, 3, 4])))}
    xi = paddle.to_tensor([1, 2, 3, 4, 5])
    G["bincount_errors"] = {
        "minlength": err(lambda: paddle.bincount(xi, minlength=-1)),
        "weights_len": err(lambda: paddle.bincount(xi, weights=paddle.to_tensor([1.0] * 6))),
        "weights_2d": err(lambda: paddle.bincount(xi, weights=paddle.ones([5, 1])))}
    G["eigh_errors"] = {
        f"{fn.__name__}_{k}": err(lambda fn=fn, a=a: fn(paddle.ones(a[0]), a[1]))
        for fn in (paddle.linalg.eigh, paddle.linalg.eigvalsh)
        for k, a in {"1d": ([3], "L"), "nonsquare": ([2, 3], "R"), "uplo": ([3, 3], "R")}.items()}
    G["eye_errors"] = {
        "rows": err(lambda: paddle.eye(-1, dtype="int64")),
        "cols_float": err(lambda: paddle.eye(10, num_columns=5.2, dtype="int64")),
        "int8": err(lambda: paddle.eye(10, num_columns=10, dtype="int8"))}
    G["eye_np_int"] = paddle.eye(np.int64(2), True).numpy().tolist()
    G["arange_int8_dynamic"] = err(lambda: paddle.arange(10, dtype="int8"))
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        G["arange_int8_static"] = err(lambda: paddle.arange(10, dtype="int8"))
    G["create_parameter_errors"] = {
        k: err(lambda a=a: paddle.create_parameter(*a[0], **a[1]))
        for k, a in CREATE_PARAMETER_CASES.items()}
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        xc = paddle.static.data(name="xc", shape=[2], dtype="complex64")
        G["corrcoef_complex_static"] = err(lambda: paddle.linalg.corrcoef(x=xc))
    from paddle.static.nn.static_pylayer import StaticPyLayerBlock
    main_p, start_p = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_p, start_p):
        data = paddle.static.data(name="X", shape=[4, 3], dtype="float32")
        data.stop_gradient = False
        block = StaticPyLayerBlock(inputs=[data])
        out = paddle.tensor.create_tensor(dtype="float32")
        with block.block(is_backward_block=False) as mgr:
            paddle.assign(data * 2.0, out)
            mgr.fwd_outputs = [out]
        with block.block(is_backward_block=True) as mgr:
            const = paddle.tensor.fill_constant(shape=[4, 3], dtype="float32", value=0.5)
            mgr.var_old_to_new[const.name] = data.name + core.grad_var_suffix()
        loss = paddle.mean(out)
        paddle.static.append_backward(loss=loss)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start_p)
        xv = np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3)
        o, g = exe.run(main_p, feed={"X": xv}, fetch_list=[out, data.grad_name])
    paddle.disable_static()
    G["pylayer_block"] = {"x": xv.tolist(), "out": o.tolist(), "x_grad": g.tolist()}

    G["static_not_tensor"] = _pir_static_not_tensor()
    with open(OUT, "w") as f:
        json.dump(G, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
