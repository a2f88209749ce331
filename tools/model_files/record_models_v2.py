"""Save the networks of tools/model_files/networks.py in Paddle 2.x's model format (a protobuf
``ProgramDesc`` in NAME.pdmodel, the parameters in NAME.pdiparams) with real Paddle 3.3.1, which
still writes it with the old IR (``FLAGS_enable_pir_api=0``), into tests/data/model_files/v2/,
with input/output goldens, for tests/test_model_files_v2.py.

Run with the oracle venv: /work/paddle_venv/bin/python tools/model_files/record_models_v2.py

Per model NAME: NAME.pdmodel, NAME.pdiparams, and expected/NAME.json with the inputs, the outputs
of the Layer that was saved, of ``paddle.jit.load(NAME)`` (eval mode; where Paddle's own load
fails, the first line of its error), of ``paddle.static.load_inference_model`` +
``Executor.run``, and the op types of the program.

Paddle 3.3.1 traces only some networks with the old IR: the ``block``, ``embed``, ``mobile`` and
``misc`` networks fail in its ``jit.save`` (``paddle.matmul`` / ``tanh`` / ``sigmoid`` /
``maximum`` now call the PIR-only C ops). The 2.x op set is covered instead by two programs
written op by op with ``LayerHelper.append_op`` (``attention``, ``fluid_ops``): the ops 2.x
models hold, run by Paddle's own executor for the goldens.
"""
import os

os.environ["FLAGS_enable_pir_api"] = "0"     # before paddle is imported: the 2.x ProgramDesc

import json  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
from paddle.static import InputSpec  # noqa: E402

from networks import networks  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "model_files", "v2")
NETS = networks(paddle)


def _arr(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": a.reshape(-1).tolist()}


def _outs(out):
    return [o.numpy() for o in out] if isinstance(out, (list, tuple)) else [out.numpy()]


def _op(type, ins, attrs=None, outs=("Out",), dtype="float32", n_out=None):
    """Append one fluid op to the current program (the 2.x op set, as Paddle 2.x models hold
    it); its output variables, shapes inferred by Paddle."""
    from paddle.base.layer_helper import LayerHelper
    h = LayerHelper(type)
    o = {k: [h.create_variable_for_type_inference(dtype) for _ in range(n_out or 1)]
         for k in outs}
    h.append_op(type=type, inputs=ins, outputs=o, attrs=attrs or {})
    if n_out:
        return o[outs[0]]
    return o[outs[0]][0] if len(outs) == 1 else [o[k][0] for k in outs]


def _param(shape, name, dtype="float32"):
    return paddle.static.create_parameter(
        shape, dtype, name=name, default_initializer=paddle.nn.initializer.Normal(0.0, 0.5))


def _attention_program():
    """Embedding + layer norm + attention written in fluid ops (mul, matmul with alpha,
    reshape2 with 0 dims, transpose2, slice, dropout in its inference form ...)."""
    x = paddle.static.data("x", [None, 5, 8], "float32")
    ids = paddle.static.data("ids", [None, 5], "int64")
    e = _op("lookup_table_v2", {"Ids": ids, "W": _param([20, 8], "emb_w")}, {"padding_idx": 3})
    h = _op("elementwise_add", {"X": x, "Y": e}, {"axis": -1})
    h = _op("layer_norm", {"X": h, "Scale": _param([8], "ln_w"), "Bias": _param([8], "ln_b")},
            {"begin_norm_axis": 2, "epsilon": 1e-5}, outs=("Y", "Mean", "Variance"))[0]
    q = _op("mul", {"X": h, "Y": _param([8, 24], "qkv_w")},
            {"x_num_col_dims": 2, "y_num_col_dims": 1})
    q = _op("elementwise_add", {"X": q, "Y": _param([24], "qkv_b")}, {"axis": 2})
    q = _op("reshape2", {"X": q}, {"shape": [0, 5, 3, 2, 4]}, outs=("Out", "XShape"))[0]
    q = _op("transpose2", {"X": q}, {"axis": [2, 0, 3, 1, 4]}, outs=("Out", "XShape"))[0]
    qkv = [_op("slice", {"Input": q}, {"axes": [0], "starts": [i], "ends": [i + 1],
                                      "decrease_axis": [0], "infer_flags": [1]})
           for i in range(3)]
    att = _op("matmul", {"X": qkv[0], "Y": qkv[1]},
              {"transpose_X": False, "transpose_Y": True, "alpha": 0.5})
    att = _op("softmax", {"X": att}, {"axis": -1})
    att = _op("dropout", {"X": att}, {"dropout_prob": 0.1, "is_test": True,
                                      "dropout_implementation": "downgrade_in_infer"},
              outs=("Out", "Mask"))[0]
    o = _op("matmul_v2", {"X": att, "Y": qkv[2]}, {"trans_x": False, "trans_y": False})
    o = _op("transpose2", {"X": o}, {"axis": [0, 2, 1, 3]}, outs=("Out", "XShape"))[0]
    o = _op("reshape2", {"X": o}, {"shape": [0, 0, 8]}, outs=("Out", "XShape"))[0]
    o = _op("gelu", {"X": o}, {"approximate": False})
    o = _op("elementwise_mul", {"X": o, "Y": h}, {"axis": -1})
    o = _op("scale", {"X": o}, {"scale": 2.0, "bias": 1.0, "bias_after_scale": False})
    o = _op("tanh", {"X": o})
    m = _op("reduce_mean", {"X": o}, {"dim": [1], "keep_dim": False, "reduce_all": False})
    return [x, ids], [o, m]


def _ops_program():
    """Convolutions and the elementwise / shape ops of fluid, Paddle's axis rule included."""
    x = paddle.static.data("x", [None, 4, 6, 6], "float32")
    h = _op("depthwise_conv2d", {"Input": x, "Filter": _param([4, 1, 3, 3], "dw_w")},
            {"strides": [1, 1], "paddings": [0, 0], "padding_algorithm": "SAME", "groups": 4,
             "dilations": [1, 1], "data_format": "NCHW"}, outs=("Output",))
    h = _op("elementwise_add", {"X": h, "Y": _param([4], "dw_b")}, {"axis": 1})
    h = _op("hard_swish", {"X": h})
    g = _op("pool2d", {"X": h}, {"pooling_type": "avg", "ksize": [1, 1], "adaptive": True,
                                 "strides": [1, 1], "paddings": [0, 0]})
    g = _op("relu6", {"X": g}, {"threshold": 6.0})
    g = _op("hard_sigmoid", {"X": g}, {"slope": 0.2, "offset": 0.5})
    h = _op("elementwise_mul", {"X": h, "Y": g}, {"axis": -1})
    h = _op("leaky_relu", {"X": h}, {"alpha": 0.1})
    h = _op("conv2d", {"Input": h, "Filter": _param([6, 4, 1, 1], "pw_w")},
            {"strides": [1, 1], "paddings": [0, 0], "groups": 1, "dilations": [1, 1]},
            outs=("Output",))
    h = _op("swish", {"X": h}, {"beta": 1.0})
    h = _op("pool2d", {"X": h}, {"pooling_type": "max", "ksize": [2, 2], "strides": [2, 2],
                                 "paddings": [0, 0]})
    h = _op("flatten_contiguous_range", {"X": h}, {"start_axis": 1, "stop_axis": 3},
            outs=("Out", "XShape"))[0]                                      # [b, 54]
    c = _op("fill_constant", {}, {"shape": [1], "value": 0.25, "dtype": 5})
    two = _op("fill_constant", {}, {"shape": [1], "value": 2.0, "dtype": 5})
    a = _op("elementwise_max", {"X": h, "Y": c}, {"axis": -1})
    b = _op("elementwise_sub", {"X": h, "Y": a}, {"axis": -1})
    b = _op("elementwise_div", {"X": b, "Y": _op("exp", {"X": a})}, {"axis": -1})
    b = _op("elementwise_pow", {"X": _op("abs", {"X": b}), "Y": two}, {"axis": -1})
    b = _op("sqrt", {"X": _op("square", {"X": b})})
    b = _op("clip", {"X": _op("log", {"X": _op("scale", {"X": b}, {"scale": 1.0, "bias": 1.0})})},
            {"min": -1.0, "max": 1.0})
    b = _op("pow", {"X": b}, {"factor": 3.0})
    p, q = _op("split", {"X": b}, {"num": 2, "axis": 1}, n_out=2)              # [b, 27] each
    s = _op("sum", {"X": [p, q, _op("rsqrt", {"X": _op("scale", {"X": q}, {"bias": 2.0})})]})
    st = _op("stack", {"X": [p, s]}, {"axis": 0}, outs=("Y",))                   # [2, b, 27]
    r = _op("reduce_sum", {"X": st}, {"dim": [0], "keep_dim": False, "reduce_all": False})
    r = _op("unsqueeze2", {"X": r}, {"axes": [1]}, outs=("Out", "XShape"))[0]
    r = _op("squeeze2", {"X": r}, {"axes": [1]}, outs=("Out", "XShape"))[0]
    r = _op("concat", {"X": [r, a]}, {"axis": 1})                               # [b, 81]
    out = _op("log_softmax", {"X": r}, {"axis": -1})
    idx = _op("arg_max", {"X": r}, {"axis": 1, "keepdims": False, "flatten": False,
                                    "dtype": 3}, dtype="int64")
    gt = _op("greater_than", {"X": r, "Y": c}, {"axis": -1}, dtype="bool")
    n = _op("cast", {"X": gt}, {"in_dtype": 0, "out_dtype": 5})
    n = _op("reduce_max", {"X": n}, {"dim": [1], "keep_dim": True, "reduce_all": False})
    return [x], [out, idx, n]


def _rnn_program(mode, gates):
    """A bidirectional one-layer ``rnn`` op (what ``nn.LSTM`` / ``nn.GRU`` become in a 2.x
    program): time-major input, initial states fed, the weight list as parameters."""
    def build():
        x = paddle.static.data("x", [None, 5, 3], "float32")
        states = [paddle.static.data(f"h{k}", [2, None, 4], "float32")
                  for k in range(2 if mode == "LSTM" else 1)]
        t = _op("transpose2", {"X": x}, {"axis": [1, 0, 2]}, outs=("Out", "XShape"))[0]
        ws, bs = [], []
        for d in ("fw", "bw"):
            ws += [_param([gates * 4, 3], f"{d}_w_ih"), _param([gates * 4, 4], f"{d}_w_hh")]
            bs += [_param([gates * 4], f"{d}_b_ih"), _param([gates * 4], f"{d}_b_hh")]
        from paddle.base.layer_helper import LayerHelper
        h = LayerHelper("rnn")
        out = h.create_variable_for_type_inference("float32")
        st = [h.create_variable_for_type_inference("float32") for _ in states]
        reserve = h.create_variable_for_type_inference("uint8", stop_gradient=True)
        dstate = h.create_variable_for_type_inference("uint8", stop_gradient=True)
        h.append_op(type="rnn", inputs={"Input": t, "PreState": states, "WeightList": ws + bs},
                    outputs={"Out": out, "State": st, "Reserve": reserve,
                             "DropoutState": dstate},
                    attrs={"mode": mode, "hidden_size": 4, "num_layers": 1, "input_size": 3,
                           "is_bidirec": True, "dropout_prob": 0.0, "is_test": True})
        o = _op("transpose2", {"X": out}, {"axis": [1, 0, 2]}, outs=("Out", "XShape"))[0]
        return [x] + states, [o] + st
    return build


def _save_program(name, build, inputs):
    """Build a program of fluid ops, initialise it, save it as NAME.pdmodel/.pdiparams and
    record what Paddle's executor gives for ``inputs``."""
    paddle.enable_static()
    main, start = paddle.static.Program(), paddle.static.Program()
    main.random_seed = start.random_seed = 5
    with paddle.static.program_guard(main, start):
        feeds, fetches = build()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(start)
    path = os.path.join(OUT, name)
    paddle.static.save_inference_model(path, feeds, fetches, exe, program=main)
    prog, feed_names, fetch_vars = paddle.static.load_inference_model(path, exe)
    out = exe.run(prog, feed=dict(zip(feed_names, inputs)), fetch_list=fetch_vars)
    op_types = sorted({op.type for b in prog.blocks for op in b.ops})
    paddle.disable_static()
    gold = {"inputs": [_arr(a) for a in inputs], "static_output": [_arr(a) for a in out],
            "feed_names": list(feed_names), "op_types": op_types}
    with open(os.path.join(OUT, "expected", name + ".json"), "w") as f:
        json.dump(gold, f, indent=1)
    print(name, "recorded:", op_types)


def main():
    assert not paddle.framework.use_pir_api(), "the old IR is needed to write a .pdmodel"
    os.makedirs(os.path.join(OUT, "expected"), exist_ok=True)
    rng = np.random.default_rng(11)
    models = [
        ("mlp", NETS["mlp"], [InputSpec([None, 6], "float32", "x")],
         [rng.standard_normal((3, 6)).astype("float32")]),
        ("cnn", NETS["cnn"], [InputSpec([None, 3, 8, 8], "float32", "x")],
         [rng.standard_normal((2, 3, 8, 8)).astype("float32")]),
        ("mlp64", NETS["mlp"], [InputSpec([None, 6], "float64", "x")],
         [rng.standard_normal((3, 6))]),
    ]
    for i, (name, cls, spec, inputs) in enumerate(models):
        paddle.seed(200 + i)
        paddle.set_default_dtype("float64" if name.endswith("64") else "float32")
        layer = cls()
        if name == "cnn":     # non-trivial running statistics
            layer.train()
            for _ in range(2):
                layer(paddle.to_tensor(rng.standard_normal((4, 3, 8, 8)).astype("float32")))
        layer.eval()
        xs = [paddle.to_tensor(a) for a in inputs]
        ref = _outs(layer(*xs))
        path = os.path.join(OUT, name)
        for ext in (".pdmodel", ".pdiparams", ".pdiparams.info"):
            if os.path.exists(path + ext):
                os.remove(path + ext)
        try:
            paddle.jit.save(layer, path, input_spec=spec)
        except TypeError as e:   # Paddle 3.3.1's old-IR tracing fails on some calls
            print(name, "NOT SAVED:", str(e).strip().splitlines()[-1])
            continue
        os.remove(path + ".pdiparams.info")
        try:     # Paddle 3.3.1's own jit.load of a 2.x file fails on some (flatten's XShape)
            loaded = paddle.jit.load(path)
            loaded.eval()
            out_load = [_arr(a) for a in _outs(loaded(*xs))]
        except RuntimeError as e:
            out_load = str(e).strip().splitlines()[0]
        paddle.enable_static()
        exe = paddle.static.Executor(paddle.CPUPlace())
        prog, feeds, fetches = paddle.static.load_inference_model(path, exe)
        out_static = exe.run(prog, feed=dict(zip(feeds, inputs)), fetch_list=fetches)
        op_types = sorted({op.type for b in prog.blocks for op in b.ops})
        paddle.disable_static()
        gold = {
            "inputs": [_arr(a) for a in inputs],
            "layer_output": [_arr(a) for a in ref],
            "load_output": out_load,
            "static_output": [_arr(a) for a in out_static],
            "feed_names": list(feeds),
            "op_types": op_types,
        }
        with open(os.path.join(OUT, "expected", name + ".json"), "w") as f:
            json.dump(gold, f, indent=1)
        print(name, "recorded:", op_types)
    paddle.set_default_dtype("float32")
    _save_program("attention", _attention_program,
                  [rng.standard_normal((2, 5, 8)).astype("float32"),
                   rng.integers(0, 20, (2, 5)).astype("int64")])
    _save_program("fluid_ops", _ops_program,
                  [rng.standard_normal((3, 4, 6, 6)).astype("float32")])
    _save_program("lstm", _rnn_program("LSTM", 4),
                  [rng.standard_normal(s).astype("float32") for s in ((2, 5, 3), (2, 2, 4),
                                                                       (2, 2, 4))])
    _save_program("gru", _rnn_program("GRU", 3),
                  [rng.standard_normal(s).astype("float32") for s in ((2, 5, 3), (2, 2, 4))])


if __name__ == "__main__":
    main()
