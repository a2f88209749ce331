"""Record what Paddle 3.3.1 does in the places issue 31's legacy_test files showed
paddle_compat differing outside OpTest's harness (flags, paddle.base names, the incubate
LBFGS, static mode without concrete values, paddle.grad's checks, Tensor internals), as goldens
for tests/test_upstream_fixes_C.py.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_C.py

Writes tests/goldens/upstream_fixes_C.json.
"""
import json
import os
import subprocess
import sys

import numpy as np
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "goldens", "upstream_fixes_C.json")
G = {}


def err(fn):
    """``[exception type, message]`` of ``fn()``, or None when it returns."""
    try:
        fn()
    except Exception as e:          # noqa: BLE001 (recording whatever Paddle raises)
        return [type(e).__name__, str(e)]
    return None


def flags():
    from paddle import base
    names = ["FLAGS_sort_sum_gradient", "FLAGS_use_mkldnn", "FLAGS_enable_pir_api",
             "FLAGS_enable_pir_in_executor", "FLAGS_pir_apply_inplace_pass",
             "FLAGS_use_system_allocator", "FLAGS_set_to_1d", "FLAGS_call_stack_level"]
    G["flags_defaults"] = base.get_flags(names)
    base.set_flags({"FLAGS_sort_sum_gradient": 1})
    G["flags_set_int_bool"] = base.get_flags("FLAGS_sort_sum_gradient")
    base.set_flags({"FLAGS_sort_sum_gradient": False})
    G["flags_unknown_set"] = err(lambda: base.set_flags({"FLAGS_no_such_flag": 1}))
    G["flags_unknown_get"] = err(lambda: base.get_flags(["FLAGS_no_such_flag"]))
    G["flags_set_not_dict"] = err(lambda: base.set_flags(1))
    G["flags_get_bad"] = err(lambda: base.get_flags(1))


def lbfgs():
    from paddle.incubate.optimizer import lbfgs as inc, line_search_dygraph as ls
    from paddle.optimizer import lbfgs as opt_lbfgs
    rec = {}
    for name, cls in (("incubate", inc.LBFGS), ("optimizer", opt_lbfgs.LBFGS)):
        w = paddle.create_parameter([2], "float32",
                                    default_initializer=paddle.nn.initializer.Assign(
                                        np.array([1.5, -0.5], np.float32)))
        x = paddle.to_tensor(np.array([0.3, 0.7], np.float32))
        target = 0.9
        o = cls(learning_rate=1, max_iter=10, history_size=5, line_search_fn="strong_wolfe",
                parameters=[w])

        def closure():
            loss = ((w * x).sum() - target) ** 2 + 0.1 * (w ** 2).sum()
            o.clear_grad()
            loss.backward()
            return loss
        first = float(o.step(closure))
        st = o.state_dict()["state"]
        rec[name] = [first, w.numpy().tolist(), int(st["func_evals"]), int(st["n_iter"])]
    G["lbfgs_runs"] = rec

    def f2(x, alpha, d):
        return paddle.to_tensor(x + alpha * d), paddle.to_tensor([1.0])
    t = paddle.to_tensor
    out = ls._strong_wolfe(f2, t([1.0]), t([-0.001]), t([1.0]), t([1.0]), t([1.0]), t([1.0]),
                           max_ls=1)
    G["strong_wolfe"] = [np.asarray(v).tolist() if not isinstance(v, (int, float)) else v
                         for v in out]
    G["cubic"] = [float(ls._cubic_interpolate(t([2.0]), t([1.0]), t([0.0]), t([1.0]),
                                              t([2.0]), t([0.0]), [0.1, 0.5])),
                  float(ls._cubic_interpolate(t([2.0]), t([0.0]), t([-3.0]), t([1.0]),
                                              t([1.0]), t([-0.1]), [0.1, 0.5]))]


def base_names():
    from paddle import base
    from paddle.distributed.fleet.meta_optimizers import DGCMomentumOptimizer
    G["dgc_dygraph"] = err(lambda: DGCMomentumOptimizer(0.1, 0.9, 10))
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [None, 3], "float32")
        y = paddle.static.data("y", [None, 1], "float32")
        G["data_feeder_name"] = err(lambda: base.DataFeeder(feed_list=[x, "y"],
                                                            place=base.CPUPlace()))
        f = base.DataFeeder(place=base.CPUPlace(), feed_list=[x, y])
        for key, batch in (("arrays", [(np.arange(3), np.array([2])),
                                       (np.array([1.5, 2, 3]), np.array([4]))]),
                           ("lists", [([1, 2, 3], [5]), ([4.5, 5, 6], [6])])):
            d = f.feed(batch)
            G["data_feeder_" + key] = {k: [v.shape(), str(np.array(v).dtype),
                                           np.array(v).tolist()] for k, v in d.items()}
        G["data_feeder_count"] = err(lambda: f.feed([(np.arange(3),)]))
    paddle.disable_static()
    with base.dygraph.base.guard():
        G["dygraph_base_guard"] = paddle.in_dynamic_mode()


def random_values():
    paddle.seed(11)
    a = paddle.tensor.random.gaussian([2, 3], mean=1.0, std=2.0)
    b = paddle.tensor.random.gaussian([3], dtype="float64")
    c = paddle.tensor.random.gaussian([2], seed=5)
    paddle.seed(11)
    z = paddle.randn([3], dtype="complex64")
    s = paddle.standard_normal([2], dtype="complex128")
    G["random"] = {"gaussian": a.numpy().tolist(), "gaussian64": b.numpy().tolist(),
                   "gaussian_seed": c.numpy().tolist(),
                   "randn_c64": [z.numpy().real.tolist(), z.numpy().imag.tolist()],
                   "randn_c128": [s.numpy().real.tolist(), s.numpy().imag.tolist()]}
    G["gaussian_int"] = err(lambda: paddle.tensor.random.gaussian([2], dtype="int32"))


X3 = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
V3 = -np.arange(12, dtype=np.float32).reshape(3, 2, 2)
SS = dict(axes=[1, 2], starts=[0, 1], ends=[4, 5], strides=[2, 2])


def slice_scatter():
    x = paddle.to_tensor(X3, stop_gradient=False)
    v = paddle.to_tensor(V3, stop_gradient=False)
    out = paddle.slice_scatter(x, v, **SS)
    (out * paddle.arange(60, dtype="float32").reshape([3, 4, 5])).sum().backward()
    G["slice_scatter_dyn"] = [out.numpy().tolist(), x.grad.numpy().tolist(),
                              v.grad.numpy().tolist()]
    b = paddle.slice_scatter(paddle.zeros([4, 4]), paddle.ones([4, 1]), axes=[1], starts=[-3],
                             ends=[100], strides=[2])
    G["slice_scatter_bcast"] = b.numpy().tolist()
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        xs = paddle.static.data("x", [3, 4, 5], "float32")
        vs = paddle.static.data("v", [3, 2, 2], "float32")
        o = paddle.slice_scatter(xs, vs, **SS)
        r = paddle.static.Executor().run(feed={"x": X3, "v": V3}, fetch_list=[o])[0]
        G["slice_scatter_static"] = [list(o.shape), r.tolist()]
    paddle.disable_static()


LA = np.array([[[1.0, 2, 0], [0, 1, 1], [1, 0, 1], [2, 1, 3], [0, 2, 1]],
               [[2.0, 0, 1], [1, 1, 0], [0, 3, 1], [1, 1, 1], [4, 0, 2]]])
LB = np.array([[[1.0, 0], [2, 1], [0, 1], [1, 1], [3, 2]],
               [[0.0, 1], [1, 0], [2, 2], [1, 3], [0, 1]]])


def lstsq_static():
    paddle.enable_static()
    rec = {}
    for drv in (None, "gels", "gelsd", "gelss", "gelsy"):
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [2, 5, 3], "float64")
            y = paddle.static.data("y", [2, 5, 2], "float64")
            r = paddle.linalg.lstsq(x, y, driver=drv)
            out = paddle.static.Executor().run(feed={"x": LA, "y": LB}, fetch_list=list(r))
            rec[str(drv)] = [[list(t.shape) for t in r],
                             [[list(o.shape), str(o.dtype), o.tolist()] for o in out]]
    G["lstsq_static"] = rec
    paddle.disable_static()


PYLAYER = r"""
import paddle
paddle.enable_static()
def forward_fn(a, b): return 3 * a, -b, paddle.mean(b)
def backward_fn(da, db): return 3 * da, -db
main, start = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, start):
    d1 = paddle.static.data("d1", [2, 4], "float32")
    d2 = paddle.static.data("d2", [6], "float32")
    d2.stop_gradient = False
    try:
        out = paddle.static.nn.static_pylayer(forward_fn, [d1, d2], backward_fn=backward_fn)
        print("built")
        paddle.static.gradients([out[0]], [d2])
        print("gradients")
    except Exception as e:
        print(type(e).__name__)
"""


def static_pylayer():
    rec = {}
    for flag in ("0", "1"):
        env = dict(os.environ, FLAGS_enable_pir_api=flag)
        p = subprocess.run([sys.executable, "-c", PYLAYER], env=env, capture_output=True,
                           text=True, timeout=300)
        rec[flag] = p.stdout.split()
    G["static_pylayer_wrong_arity"] = rec


def grad_checks():
    x = paddle.to_tensor(np.array([[0.5, 1.0, 2.0]], np.float32), stop_gradient=False)
    cases = {"none": (None, None), "int_out": (1, x), "int_in": (x, 1), "elem_out": ([1], [x]),
             "elem_in": ([x], [1]), "empty": ([], [x]), "grad_len": ([x, x], [x], [x])}
    G["grad_errors"] = {k: err(lambda a=a: paddle.grad(*a)) for k, a in cases.items()}
    G["grad_errors_kw"] = {
        "ngv_elem": err(lambda: paddle.grad([x * 2], [x], no_grad_vars=[1])),
        "ngv_int": err(lambda: paddle.grad([x * 2], [x], no_grad_vars=1)),
        "go_elem": err(lambda: paddle.grad([x * 2], [x], grad_outputs=[1])),
        "create_graph": err(lambda: paddle.grad([x * 2], [x], create_graph=1))}
    y = x + 1
    rec = []
    for cg in (False, True):
        (dx,) = paddle.grad([y], [x], create_graph=cg, retain_graph=True)
        (dxx,) = paddle.grad([x], [x], create_graph=cg, retain_graph=True)
        rec.append([dx.stop_gradient, dxx.stop_gradient, dx.numpy().tolist()])
    G["grad_create_graph_stop_gradient"] = rec
    a = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    b = paddle.to_tensor([4.0, 5.0, 6.0], stop_gradient=False)
    out = paddle.matmul(a, b)
    dout = paddle.to_tensor([1.0], stop_gradient=False)
    (db,) = paddle.grad([out], [b], [dout], retain_graph=True, create_graph=True)
    dda, ddout = paddle.grad([db], [a, dout], [paddle.ones([3])], retain_graph=True,
                             create_graph=True)
    G["grad_one_element_dout"] = [db.numpy().tolist(), dda.numpy().tolist(),
                                  ddout.numpy().tolist(), list(ddout.shape)]


def tensor_internals():
    from paddle.base import core
    x = paddle.to_tensor(np.arange(24.0).reshape(4, 6))
    s = x._slice(1, 3)
    rec = [list(s.shape), s._offset(), s.numpy().tolist(), s.stop_gradient]
    s[0, 0] = 100.0
    rec += [float(x[1, 0]), x._numel(), x._inplace_version(), s._inplace_version()]
    x._bump_inplace_version()
    x._bump_inplace_version()
    rec += [x._inplace_version(), x.inplace_version]
    rec.append(type(err(lambda: x._slice(3, 9))).__name__ if False else
               err(lambda: x._slice(3, 9))[0])
    d = core.eager.Tensor()
    x._share_buffer_to(d)
    rec += [x._is_shared_buffer_with(d), core.eager.Tensor is paddle.Tensor,
            core.eager.Tensor()._numel()]
    G["tensor_internals"] = rec


def values_and_errors():
    t = paddle.to_tensor(np.arange(15.0).reshape(3, 5) ** 1.5)
    aw = paddle.to_tensor(np.array([1, 2, 3, 4, 5], "int32"))
    G["cov_int_aweights"] = paddle.linalg.cov(t, rowvar=True, ddof=True,
                                              aweights=aw).numpy().tolist()
    x = paddle.ones([3, 4, 4])
    y = paddle.ones([4, 4, 5])
    G["tensordot_repeated_axis"] = err(lambda: paddle.tensordot(x, y, axes=[[1, 2], [0, 0]]))
    paddle.enable_static()
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        r = paddle.static.data("r", [10, 10], "float64")
        p = paddle.poisson(r)
        exe = paddle.static.Executor()
        a = exe.run(feed={"r": np.full((10, 10), 3.0)}, fetch_list=[p])[0]
        G["poisson_static"] = [list(p.shape), str(p.dtype), str(a.dtype), bool(a.min() >= 0)]
    paddle.disable_static()


def unique_static():
    paddle.enable_static()
    xv = np.array([2, 3, 3, 1, 5, 3, 3, 2, 2], "float64")
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        x = paddle.static.data("x", [9], "float64")
        r = paddle.unique_consecutive(x, return_inverse=True, return_counts=True)
        u = paddle.unique(x, return_inverse=True, return_counts=True)
        x2 = paddle.static.data("x2", [3, 4], "float64")
        r2 = paddle.unique_consecutive(x2, axis=0, return_inverse=True, return_counts=True)
        out = paddle.static.Executor().run(
            feed={"x": xv, "x2": np.array([[1.0, 2, 3, 4], [1, 2, 3, 4], [0, 0, 0, 0]])},
            fetch_list=list(r) + list(u) + list(r2))
        G["unique_static"] = [[list(t.shape) for t in list(r) + list(u) + list(r2)],
                              [o.tolist() for o in out]]
        xf = paddle.static.data("xf", [10, 10], "float64")
        G["unique_arg_errors_static"] = [
            err(lambda kw=kw: paddle.unique(xf, **kw)) for kw in (
                dict(return_index=0), dict(return_inverse="s"), dict(return_counts=3),
                dict(axis="12"))]
        G["stack_tensor_static"] = err(lambda: paddle.stack(paddle.rand([2, 3])))[0]
    paddle.disable_static()
    t = paddle.to_tensor([3, 1, 3])
    G["unique_arg_errors_dynamic"] = [err(lambda: paddle.unique(t, return_index=0)),
                                      err(lambda: paddle.unique(t, axis="1"))]
    core = paddle.base.core
    core.set_prim_eager_enabled(True)
    on = core._is_eager_prim_enabled()
    core.set_prim_eager_enabled(False)
    G["prim_eager"] = [on, core._is_eager_prim_enabled(),
                       err(lambda: core.set_prim_eager_enabled(1))]


flags()
unique_static()
values_and_errors()
lbfgs()
base_names()
random_values()
slice_scatter()
lstsq_static()
static_pylayer()
grad_checks()
tensor_internals()
with open(OUT, "w") as fh:
    json.dump(G, fh, indent=1, sort_keys=True)
    fh.write("\n")
print(f"wrote {OUT}: {len(G)} entries")
