"""Cases for the rest of paddle.static (layer functions of static.nn, control flow, metrics,
Print, EMA, CompiledProgram, the IPU/XPU names), run on real Paddle 3.3.1 by
tools/goldens/record_static_rest.py and on paddle_compat by tests/test_static_rest.py.

Each case is ``fn(paddle, rec, h)``: ``rec(label, value)`` records a value; an exception ends
the case and is recorded by type and first line. ``h.params(main)`` is called right after the
startup program ran: on Paddle it records the initialised parameters, on paddle_compat it
copies Paddle's values into the scope (so values compare). ``h.capture(fn)`` runs ``fn`` and
returns ``(result, printed text)``.

``LEGACY`` names the cases recorded with ``FLAGS_enable_pir_api=0``: Paddle 3.3.1's default
(PIR) static mode rejects those APIs (an AssertionError for conv2d, TypeErrors for the others
that reject PIR values); paddle_compat follows the legacy behaviour in its one static mode.
"""
import numpy as np

RNG = np.random.RandomState(7)
X4 = RNG.rand(2, 3, 6, 6).astype(np.float32) - 0.5
X5 = RNG.rand(2, 3, 4, 5, 5).astype(np.float32) - 0.5
X2 = RNG.rand(4, 5).astype(np.float32) - 0.5
XS = RNG.rand(2, 5, 3).astype(np.float32) - 0.5


def var_info(v):
    return {"shape": list(v.shape), "dtype": str(v.dtype).replace("paddle.", "")}


def _progs(paddle):
    return paddle.static.Program(), paddle.static.Program()


def _param_names(main):
    return sorted([p.name, list(p.shape)] for p in main.all_parameters())


def _run_layer(paddle, rec, h, build, feed, grad_of=None):
    """Build ``build(paddle) -> out`` (and d mean(out)/d inputs named in grad_of), run startup,
    copy/record parameters, run main, record out and grads."""
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        inputs = {}
        for k, v in feed.items():
            inputs[k] = paddle.static.data(k, list(v.shape), str(v.dtype))
            if grad_of and k in grad_of:
                inputs[k].stop_gradient = False
        out = build(paddle, inputs)
        fetch = [out]
        if grad_of:
            loss = paddle.mean(out * out)
            fetch += paddle.static.gradients([loss], [inputs[k] for k in grad_of])
    rec("params", _param_names(main))
    rec("out_info", var_info(out))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    h.params(main)
    res = exe.run(main, feed=feed, fetch_list=fetch)
    rec("out", res[0])
    for k, g in zip(grad_of or [], res[1:]):
        rec("grad_" + k, g)
    return main, exe


# ---------------------------------------------------------------------- convolutions
def conv2d_basic(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.conv2d(i["x"], 4, 3, padding=1,
                                                              act="relu"),
               {"x": X4}, grad_of=["x"])


def conv2d_same_stride_groups(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.conv2d(
        i["x"], 6, [3, 2], stride=2, padding="SAME", groups=3, dilation=1), {"x": X4})


def conv2d_nhwc_nobias(paddle, rec, h):
    x = np.ascontiguousarray(X4.transpose(0, 2, 3, 1))
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.conv2d(
        i["x"], 2, 3, padding=[1, 0, 2, 1], bias_attr=False, data_format="NHWC"), {"x": x})


def conv2d_weight_norm(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2, 3, 6, 6], "float32")
        y = paddle.static.nn.conv2d(x, 4, 3, param_attr=paddle.static.WeightNormParamAttr(
            dim=0, name="wn"))
        z = paddle.static.nn.conv2d(x, 2, 3, bias_attr=False,
                                    param_attr=paddle.static.WeightNormParamAttr(name="wm"))
    rec("params", _param_names(main))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    scope = paddle.static.global_scope()
    for n in ("wn", "wm"):          # g starts as ||v|| (over all dims but dim)
        g = np.array(scope.find_var(n + "_g").get_tensor())
        v = np.array(scope.find_var(n + "_v").get_tensor())
        norm = np.sqrt((v.astype(np.float64) ** 2).reshape(g.size, -1).sum(1)).reshape(g.shape)
        rec(n + "_g_is_norm", bool(np.allclose(g, norm, rtol=1e-5)))
    h.params(main)
    for n in ("wn_g", "wm_g"):
        scope.find_var(n).get_tensor().set(np.array(scope.find_var(n).get_tensor()) * 1.5,
                                           paddle.CPUPlace())
    rec("out", exe.run(main, feed={"x": X4}, fetch_list=[y, z]))


def conv3d_basic(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.conv3d(i["x"], 2, 2, stride=[1, 2, 2],
                                                              padding=1), {"x": X5},
               grad_of=["x"])


def conv2d_transpose_basic(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.conv2d_transpose(
        i["x"], 4, filter_size=3, stride=2, padding=1), {"x": X4}, grad_of=["x"])


def conv2d_transpose_output_size(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.conv2d_transpose(
        i["x"], 2, output_size=[13, 13], stride=2), {"x": X4})


def conv2d_transpose_output_size_filter(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.conv2d_transpose(
        i["x"], 2, output_size=12, filter_size=3, stride=2, padding=1, act="tanh"), {"x": X4})


def conv3d_transpose_basic(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.conv3d_transpose(
        i["x"], 2, filter_size=2, stride=2, groups=1), {"x": X5})


# ---------------------------------------------------------------------- norms
def batch_norm_train(paddle, rec, h):
    main, exe = _run_layer(paddle, rec, h, lambda P, i: P.static.nn.batch_norm(i["x"]),
                           {"x": X4}, grad_of=["x"])
    exe.run(main, feed={"x": X4 * 2 + 1}, fetch_list=[])
    scope = paddle.static.global_scope()
    for n in ("batch_norm_0.w_1", "batch_norm_0.w_2"):
        rec(n, np.array(scope.find_var(n).get_tensor()))


def batch_norm_test_nhwc(paddle, rec, h):
    x = np.ascontiguousarray(X4.transpose(0, 2, 3, 1))
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.batch_norm(
        i["x"], is_test=True, data_layout="NHWC", act="relu"), {"x": x})


def batch_norm_global_stats_names(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.batch_norm(
        i["x"], use_global_stats=True, moving_mean_name="mm", moving_variance_name="mv"),
        {"x": X2})


def layer_norm_basic(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.layer_norm(i["x"], begin_norm_axis=2),
               {"x": X4}, grad_of=["x"])


def layer_norm_no_scale(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.layer_norm(i["x"], scale=False,
                                                                  act="sigmoid"), {"x": X2})


def group_norm_default(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.group_norm(i["x"], 3), {"x": X4})


def group_norm_params(paddle, rec, h):
    x = np.concatenate([X4, X4[:, :1]], axis=1)
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.group_norm(
        i["x"], 2, param_attr=P.ParamAttr(), bias_attr=P.ParamAttr()), {"x": x},
        grad_of=["x"])


def instance_norm_default(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.instance_norm(i["x"]), {"x": X4})


def instance_norm_params(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.instance_norm(
        i["x"], param_attr=P.ParamAttr(), bias_attr=P.ParamAttr()), {"x": X4},
        grad_of=["x"])


def prelu_modes(paddle, rec, h):
    def build(P, i):
        a = P.static.nn.prelu(i["x"], "all")
        b = P.static.nn.prelu(a, "channel")
        return P.static.nn.prelu(b, "element")
    _run_layer(paddle, rec, h, build, {"x": X4}, grad_of=["x"])


def prelu_bad_mode(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [2, 3], "float32")
        paddle.static.nn.prelu(x, "rows")


# ---------------------------------------------------------------------- lookups and others
IDS = np.array([[1, 0, 3], [9, 2, 0]], dtype=np.int64)


def embedding_padding(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.embedding(i["ids"], [10, 4],
                                                                 padding_idx=0),
               {"ids": IDS})


def embedding_negative_padding(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.embedding(i["ids"], [10, 3],
                                                                 padding_idx=-1,
                                                                 dtype="float64"),
               {"ids": IDS})


def bilinear_tensor_product_basic(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.bilinear_tensor_product(
        i["x"], i["y"], 3, act="tanh"), {"x": X2, "y": X2[:, :3] * 2}, grad_of=["x", "y"])


SPECTRAL_W = RNG.rand(3, 4, 2).astype(np.float32)


def spectral_norm_basic(paddle, rec, h):
    w = SPECTRAL_W
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.spectral_norm(i["w"], dim=1,
                                                                     power_iters=3),
               {"w": w}, grad_of=["w"])


def row_conv_basic(paddle, rec, h):
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.row_conv(i["x"], 2), {"x": XS},
               grad_of=["x"])


def cvm_basic(paddle, rec, h):
    x = np.abs(X2) * 10
    c = np.ones((4, 2), np.float32)
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.continuous_value_model(
        i["x"], i["c"], True), {"x": x, "c": c})


def cvm_no_cvm(paddle, rec, h):
    x = np.abs(X2) * 10
    c = np.ones((4, 2), np.float32)
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.continuous_value_model(
        i["x"], i["c"], False), {"x": x, "c": c})


def nce_custom_dist(paddle, rec, h):
    """custom_dist with all mass on one class: the draws are deterministic, values compare."""
    dist = [0.0] * 6
    dist[4] = 1.0
    lab = np.array([[1], [4], [0], [5]], np.int64)
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.nce(
        i["x"], i["lab"], 6, num_neg_samples=3, sampler="custom_dist", custom_dist=dist),
        {"x": X2, "lab": lab}, grad_of=["x"])


def nce_uniform_shapes(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 5], "float32")
        lab = paddle.static.data("lab", [4, 2], "int64")
        cost = paddle.static.nn.nce(x, lab, 20, bias_attr=False, sampler="log_uniform")
    rec("params", _param_names(main))
    rec("info", var_info(cost))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    (c,) = exe.run(main, feed={"x": X2, "lab": np.array([[1, 2], [3, 4], [5, 6], [7, 8]])},
                   fetch_list=[cost])
    rec("shape", [list(c.shape), str(c.dtype), bool(np.all(c > 0))])


def sparse_embedding_bad_ids(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        ids = paddle.static.data("ids", [2, 3], "int64")
        paddle.static.nn.sparse_embedding(ids, [10, 4])


def deform_conv2d_basic(paddle, rec, h):
    rng = np.random.RandomState(11)
    off = (rng.rand(2, 18, 4, 4).astype(np.float32) - 0.5)
    mask = rng.rand(2, 9, 4, 4).astype(np.float32)
    _run_layer(paddle, rec, h, lambda P, i: P.static.nn.deform_conv2d(
        i["x"], i["off"], i["mask"], 2, 3), {"x": X4, "off": off, "mask": mask})


# ---------------------------------------------------------------------- control flow
def while_loop_static(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        i = paddle.full([1], 0, "int64")
        n = paddle.static.data("n", [1], "int64")
        x = paddle.static.data("x", [3], "float32")
        out = paddle.static.nn.while_loop(lambda i, x: i < n, lambda i, x: [i + 1, x * 2 + 1],
                                          [i, x])
    rec("types", [type(out).__name__, len(out)])
    rec("infos", [var_info(o) for o in out])
    exe = paddle.static.Executor(paddle.CPUPlace())
    for k in (0, 3):
        res = exe.run(main, feed={"n": np.array([k]), "x": np.ones(3, np.float32)},
                      fetch_list=list(out))
        rec(f"res{k}", res)


def while_loop_capture(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        limit = paddle.static.data("limit", [1], "float32")
        step = paddle.static.data("step", [1], "float32")
        s = paddle.full([1], 0.0, "float32")
        k = paddle.full([1], 0, "int32")
        s2, k2 = paddle.static.nn.while_loop(lambda s, k: s < limit,
                                             lambda s, k: (s + step, k + 1), [s, k])
    exe = paddle.static.Executor(paddle.CPUPlace())
    res = exe.run(main, feed={"limit": np.array([2.0], np.float32),
                              "step": np.array([0.3], np.float32)}, fetch_list=[s2, k2])
    rec("res", res)


def while_loop_dynamic(paddle, rec, h):
    paddle.disable_static()
    try:
        i = paddle.full([1], 0, "int64")
        x = paddle.to_tensor([1.0, 2.0])
        out = paddle.static.nn.while_loop(lambda i, x: i < 4, lambda i, x: [i + 1, x * 3],
                                          [i, x])
        rec("types", [type(out).__name__, len(out)])
        rec("vals", [o.numpy() for o in out])
    finally:
        paddle.enable_static()


def while_loop_body_arity(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        i = paddle.full([1], 0, "int64")
        j = paddle.full([1], 0, "int64")
        paddle.static.nn.while_loop(lambda i, j: i < 3, lambda i, j: [i + 1], [i, j])


def while_loop_empty(paddle, rec, h):
    paddle.static.nn.while_loop(lambda: True, lambda: [], [])


def while_loop_not_callable(paddle, rec, h):
    i = paddle.full([1], 0, "int64")
    paddle.static.nn.while_loop(1, lambda i: [i], [i])


def switch_case_static(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        b = paddle.static.data("b", [1], "int32")
        x = paddle.static.data("x", [2], "float32")
        s = paddle.static.nn.switch_case(b, {1: lambda: x + 1, 3: lambda: x * 3},
                                         default=lambda: x - 5)
        t = paddle.static.nn.switch_case(b, [lambda: x * 10, lambda: x * 20])
        u = paddle.static.nn.switch_case(b, [(2, lambda: x + 0.5), (5, lambda: x - 0.5)])
    rec("info", var_info(s))
    exe = paddle.static.Executor(paddle.CPUPlace())
    for k in (0, 1, 2, 3, 5, 7):
        rec(f"res{k}", exe.run(main, feed={"b": np.array([k], np.int32),
                                           "x": np.array([1.0, 2.0], np.float32)},
                               fetch_list=[s, t, u]))


def switch_case_dynamic(paddle, rec, h):
    paddle.disable_static()
    try:
        x = paddle.to_tensor([1.0, 2.0])
        for k in (1, 2, 4):
            r = paddle.static.nn.switch_case(paddle.to_tensor([k]),
                                             {1: lambda: x + 1, 2: lambda: x * 3})
            rec(f"res{k}", r.numpy())
    finally:
        paddle.enable_static()


def switch_case_duplicate_key(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        b = paddle.static.data("b", [1], "int32")
        paddle.static.nn.switch_case(b, [(1, lambda: b), (1, lambda: b)])


def switch_case_bad_default(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        b = paddle.static.data("b", [1], "int32")
        paddle.static.nn.switch_case(b, {1: lambda: b}, default=3)


def _seq_case(api, *args):
    def case(paddle, rec, h):
        main, start = _progs(paddle)
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [4, 3], "float32")
            getattr(paddle.static.nn, api)(x, *args)
    return case


def state_after_error(paddle, rec, h):
    main, start = _progs(paddle)
    before = paddle.static.default_main_program()
    try:
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [4, 3], "float32")
            paddle.static.nn.sequence_pool(x, "sum")
    except AssertionError as e:
        rec("error", type(e).__name__)
    rec("static_mode", not paddle.in_dynamic_mode())
    rec("main_restored", paddle.static.default_main_program() is before)


# ---------------------------------------------------------------------- metrics / misc
P6 = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7], [0.5, 0.5], [0.05, 0.95]],
              np.float32)
L6 = np.array([[0], [1], [1], [0], [1], [1]], np.int64)


def accuracy_topk(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        a = paddle.static.data("a", [6, 2], "float32")
        lab = paddle.static.data("l", [6, 1], "int64")
        acc1 = paddle.static.accuracy(a, lab, k=1)
        acc2 = paddle.static.accuracy(a, lab, k=2)
    rec("info", var_info(acc1))
    exe = paddle.static.Executor(paddle.CPUPlace())
    rec("vals", exe.run(main, feed={"a": P6, "l": L6}, fetch_list=[acc1, acc2]))


def auc_basic(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        a = paddle.static.data("a", [6, 2], "float32")
        lab = paddle.static.data("l", [6, 1], "int64")
        r = paddle.static.auc(a, lab, num_thresholds=10)
        r2 = paddle.static.auc(a, lab)
    rec("n", [type(r).__name__, len(r)])
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    for k in range(2):
        rec(f"run{k}", exe.run(main, feed={"a": P6, "l": L6}, fetch_list=list(r) + [r2[0]]))


def ctr_metric_bundle_basic(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        a = paddle.static.data("a", [6, 1], "float32")
        lab = paddle.static.data("l", [6, 1], "float32")
        r = paddle.static.ctr_metric_bundle(a, lab)
    rec("n", [type(r).__name__, len(r)])
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    for k in range(2):
        rec(f"run{k}", exe.run(main, feed={"a": P6[:, 1:], "l": L6.astype(np.float32)},
                               fetch_list=list(r)))


def print_basic(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        a = paddle.static.data("a", [2, 3], "float32")
        b = paddle.static.Print(a, message="hello")
        a2 = paddle.static.data("a2", [2, 3], "float32")     # (intermediate names differ)
        c = paddle.static.Print(a2, summarize=2, print_tensor_type=False)
        d = paddle.static.data("d", [3], "int64")
        e = paddle.static.Print(d, first_n=1, print_tensor_name=False,
                                print_tensor_lod=False, print_tensor_layout=False)
    exe = paddle.static.Executor(paddle.CPUPlace())
    feed = {"a": np.arange(6, dtype=np.float32).reshape(2, 3) / 4, "d": np.array([1, 2, 3])}
    feed["a2"] = feed["a"] * 2
    texts = []
    for _ in range(2):
        res, text = h.capture(lambda: exe.run(main, feed=feed, fetch_list=[b, c]))
        texts.append(text)
    rec("res", res)
    rec("names", [b.name.split(".")[0].split("_")[0], var_info(b)])
    rec("printed", texts)


def print_dtypes(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        a = paddle.static.data("a", [5], "float64")
        b = paddle.static.data("b", [2, 2], "bool")
        pa = paddle.static.Print(a, summarize=-1)
        pb = paddle.static.Print(b)
    exe = paddle.static.Executor(paddle.CPUPlace())
    feed = {"a": np.array([1.5, -2.25, 1e-7, 123456.789, 0.0]),
            "b": np.array([[True, False], [False, True]])}
    res, text = h.capture(lambda: exe.run(main, feed=feed, fetch_list=[pa, pb]))
    rec("printed", text)


def setitem_static(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        a = paddle.static.data("a", [6, 2], "float32")
        s = paddle.static.setitem(a, (slice(0, 2), 1), 5.0)
        t = paddle.static.setitem(a, 3, paddle.full([2], -1.0, "float32"))
    rec("info", var_info(s))
    exe = paddle.static.Executor(paddle.CPUPlace())
    # (s aliases a's buffer in Paddle: fetching it gives the first or the final value,
    # depending on the run's thread schedule; a and t are the final value)
    rec("vals", exe.run(main, feed={"a": P6}, fetch_list=[a, t]))


def py_func_basic(paddle, rec, h):
    def tanh(x):
        return np.tanh(np.array(x))

    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 5], "float32")
        out = main.current_block().create_var(name="py_out", dtype="float32", shape=[4, 5])
        r = paddle.static.py_func(tanh, x, out)
        y = r * 2
    rec("same", r is out)
    exe = paddle.static.Executor(paddle.CPUPlace())
    rec("vals", exe.run(main, feed={"x": X2}, fetch_list=[r, y]))


def ema_basic(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 5], "float32")
        y = paddle.static.nn.fc(x, 2, bias_attr=False)
        loss = paddle.mean(y * y)
        paddle.optimizer.SGD(0.5).minimize(loss)
        ema = paddle.static.ExponentialMovingAverage(0.9)
        ema.update()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    h.params(main)
    scope = paddle.static.global_scope()
    for k in range(3):
        exe.run(main, feed={"x": X2 * (k + 1)}, fetch_list=[loss])
    rec("w", np.array(scope.find_var("fc_0.w_0").get_tensor()))
    with ema.apply(exe):
        rec("w_applied", np.array(scope.find_var("fc_0.w_0").get_tensor()))
    rec("w_restored", np.array(scope.find_var("fc_0.w_0").get_tensor()))
    with ema.apply(exe, need_restore=False):
        pass
    rec("w_kept", np.array(scope.find_var("fc_0.w_0").get_tensor()))


def ema_thres_steps(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 5], "float32")
        step = paddle.static.data("step", [1], "float32")
        loss = paddle.mean(paddle.static.nn.fc(x, 2))
        paddle.optimizer.SGD(0.5).minimize(loss)
        ema = paddle.static.ExponentialMovingAverage(0.999, thres_steps=step)
        ema.update()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    h.params(main)
    scope = paddle.static.global_scope()
    for k in range(3):
        exe.run(main, feed={"x": X2 * (k + 1), "step": np.array([k], np.float32)},
                fetch_list=[loss])
    with ema.apply(exe):
        rec("w_applied", np.array(scope.find_var("fc_0.w_0").get_tensor()))
    rec("decay", np.array(scope.find_var("scheduled_ema_decay_rate").get_tensor()))


def compiled_program(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 5], "float32")
        y = paddle.nn.functional.relu(x) * 3
    bs = paddle.static.BuildStrategy()
    bs.fuse_elewise_add_act_ops = True
    rec("bs", [bs.fuse_elewise_add_act_ops, bs.enable_inplace, bs.memory_optimize,
               bs.reduce_strategy == paddle.static.BuildStrategy.ReduceStrategy.AllReduce])
    cp = paddle.static.CompiledProgram(main, build_strategy=bs)
    exe = paddle.static.Executor(paddle.CPUPlace())
    rec("vals", exe.run(cp, feed={"x": X2}, fetch_list=[y]))


def compiled_program_bad(paddle, rec, h):
    paddle.static.CompiledProgram("main")


def device_guard_cpu(paddle, rec, h):
    main, start = _progs(paddle)
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [4, 5], "float32")
        with paddle.static.device_guard("cpu"):
            y = x * 2
        with paddle.static.device_guard():
            z = y + 1
    exe = paddle.static.Executor(paddle.CPUPlace())
    rec("vals", exe.run(main, feed={"x": X2}, fetch_list=[z]))


def device_guard_bad(paddle, rec, h):
    with paddle.static.device_guard("tpu"):
        pass


def weight_norm_param_attr(paddle, rec, h):
    a = paddle.static.WeightNormParamAttr(dim=1, name="wn", learning_rate=0.5)
    rec("attrs", [a.dim, a.name, a.learning_rate, a.trainable, a.do_model_average,
                  a.need_clip, isinstance(a, paddle.ParamAttr)])


def xpu_places(paddle, rec, h):
    paddle.static.xpu_places()


def ipu_strategy(paddle, rec, h):
    paddle.static.IpuStrategy()


def ipu_compiled_program(paddle, rec, h):
    paddle.static.IpuCompiledProgram()


def ipu_shard_guard(paddle, rec, h):
    with paddle.static.ipu_shard_guard(index=0):
        pass


def set_ipu_shard_bad(paddle, rec, h):
    paddle.static.set_ipu_shard(3)


CASES = {name: fn for name, fn in list(globals().items())
         if callable(fn) and getattr(fn, "__module__", None) == __name__ and
         not name.startswith("_") and name not in ("var_info",)}
for _api, _args in (("sequence_conv", (2,)), ("sequence_expand", ()),
                    ("sequence_first_step", ()), ("sequence_last_step", ()),
                    ("sequence_pool", ("sum",)), ("sequence_softmax", ())):
    CASES[_api] = _seq_case(_api, *_args) if _api != "sequence_expand" else \
        _seq_case(_api, None)
del _api, _args
CASES.pop("_seq_case", None)

#: recorded with FLAGS_enable_pir_api=0 (see the module docstring)
LEGACY = {n for n in CASES if n.startswith(("conv", "batch_norm", "layer_norm", "group_norm",
                                             "instance_norm", "prelu", "embedding",
                                             "bilinear", "spectral", "row_conv", "cvm",
                                             "nce",
                                             "sparse", "deform", "ctr", "print", "py_func",
                                             "ema", "compiled", "device_guard"))}


def normalize_error(e):
    builtin = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
    return builtin.__name__, str(e).split("\n")[0][:300]
