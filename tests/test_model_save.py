"""Model files WRITTEN by paddle_compat: ``paddle.jit.save``, ``paddle.static.save_inference_model``
and the static save/load API. tools/model_files/record_saved.py saved the networks of
tools/model_files/networks.py with our writers into tests/data/model_files/ours/ and had real
Paddle 3.3.1 load them (``jit.load``, ``paddle.inference``, ``static.load_inference_model``,
``static.load`` / ``load_vars``) and record its outputs; it also saved Paddle's own
``static.save`` / ``save_vars`` files there. These tests never import Paddle: they check

* that Paddle's outputs on our committed files are the ones our own loaders give;
* that a fresh save round-trips through our ``jit.load`` / ``load_inference_model``;
* that a fresh save is, op for op (names, attributes, types, ids), the JSON Paddle loaded at
  recording time, so a change that could break loading in Paddle fails here.
"""
import json
import os
import sys

import numpy as np
import pytest

import paddle_compat as paddle
from golden_utils import DEPTH_TOL

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "data", "model_files", "ours")
sys.path.insert(0, os.path.join(HERE, "..", "tools", "model_files"))
from networks import networks  # noqa: E402
from record_saved import JIT_MODELS, STATIC_MODELS, build_static  # noqa: E402

RTOL, ATOL = DEPTH_TOL["deep"]
JIT_NAMES = [m[0] for m in JIT_MODELS]
ALL = JIT_NAMES + STATIC_MODELS


def _gold(name):
    with open(os.path.join(DATA, "expected", name + ".json")) as f:
        return json.load(f)


def _array(d):
    return np.asarray(d["data"], dtype=d["dtype"]).reshape(d["shape"])


def _close(got, want):
    got = [np.asarray(g.numpy() if hasattr(g, "numpy") else g) for g in got]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = _array(w)
        assert g.shape == w.shape and g.dtype == w.dtype
        tol = (1e-12, 1e-12) if w.dtype == np.float64 else (RTOL, ATOL)
        np.testing.assert_allclose(g, w, rtol=tol[0], atol=tol[1])


def _list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _structure(path):
    """The program's ops with the parameter names replaced by their order of appearance
    (names depend on how many layers the process made before)."""
    with open(path) as f:
        doc = json.load(f)
    ops = doc["program"]["regions"][0]["blocks"][0]["ops"]
    k = 0
    for o in ops:
        if o["#"] == "p":
            o["A"][-1] = f"param_{k}"
            k += 1
    return doc


# ---------------------------------------------------------------------------- Paddle's view
@pytest.mark.parametrize("name", ALL)
def test_paddle_loaded_our_files(name):
    """Real Paddle's jit.load, predictor and load_inference_model ran our files and gave our
    Layer's numbers; our jit.load of the same files gives Paddle's."""
    gold = _gold(name)
    pd = gold["paddle"]
    for key in ("jit_output", "predictor_output", "static_output"):
        _close([_array(d) for d in gold["layer_output"]], pd[key])
    layer = paddle.jit.load(os.path.join(DATA, name))
    _close(_list(layer(*[paddle.to_tensor(_array(d)) for d in gold["inputs"]])), pd["jit_output"])
    # Paddle's names: one input per spec, the fetches named fetch_name_N
    want_in = [gold["input_spec"][2]] if name in JIT_NAMES else [gold["feed_name"]]
    assert pd["input_names"] == want_in
    assert pd["output_names"] == [f"fetch_name_{i}" for i in range(len(gold["layer_output"]))]


@pytest.mark.parametrize("name", ALL)
def test_paddle_parameters_of_our_files(name):
    """The parameters Paddle's jit.load found in our files: our names with its suffix."""
    pd = _gold(name)["paddle"]
    layer = paddle.jit.load(os.path.join(DATA, name))
    ours = [[p.name, p.shape, str(p.dtype), p.stop_gradient] for p in layer.parameters()]
    assert [[n.rsplit("_", 1)[0], s, d, g] for n, s, d, g in pd["parameters"]] == \
        [[n.rsplit("_", 1)[0], s, d, g] for n, s, d, g in ours]


@pytest.mark.parametrize("name", ALL)
def test_our_load_inference_model_on_our_files(name):
    gold = _gold(name)
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(DATA, name), exe)
    assert feeds == gold["paddle"]["static_feed_names"]
    out = exe.run(prog, feed={feeds[0]: _array(gold["inputs"][0])}, fetch_list=fetches)
    _close(out, gold["paddle"]["static_output"])


# ---------------------------------------------------------------------------- fresh saves
def _fresh(i, net, dtype):
    paddle.seed(200 + i)
    paddle.set_default_dtype("float64" if dtype == "float64" else "float32")
    try:
        # fresh parameter names (conv2d_0.w_0 ...), as in the recording process: the saved
        # file lists parameters by name, so names crossing a digit (conv2d_9, conv2d_10) after
        # other tests made layers would reorder them
        with paddle.utils.unique_name.guard():
            layer = networks(paddle)[net]()
    finally:
        paddle.set_default_dtype("float32")
    layer.eval()
    return layer


@pytest.mark.parametrize("i", range(len(JIT_MODELS)), ids=JIT_NAMES)
def test_jit_save_round_trip_and_structure(i, tmp_path):
    name, net, (shape, dtype, iname), _ = JIT_MODELS[i]
    gold = _gold(name)
    layer = _fresh(i, net, dtype)
    xs = [paddle.to_tensor(_array(d)) for d in gold["inputs"]]
    ref = _list(layer(*xs))
    path = str(tmp_path / "sub" / name)
    spec = [paddle.static.InputSpec(shape, dtype, iname)]
    paddle.jit.save(layer, path, input_spec=spec)
    assert sorted(os.listdir(tmp_path / "sub")) == [name + ".json", name + ".pdiparams"]
    # (a) round trip through our loaders
    loaded = paddle.jit.load(path)
    out = _list(loaded(*xs))
    for a, b in zip(out, ref):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(path, exe)
    assert feeds == [iname]
    for a, b in zip(exe.run(prog, feed={iname: xs[0].numpy()}, fetch_list=fetches), ref):
        np.testing.assert_array_equal(a, b.numpy())
    # (b) op for op what Paddle loaded when the goldens were recorded
    assert _structure(path + ".json") == _structure(os.path.join(DATA, name + ".json"))
    want = paddle.jit.load(os.path.join(DATA, name))
    assert [(p.shape, str(p.dtype)) for p in loaded.parameters()] == \
        [(p.shape, str(p.dtype)) for p in want.parameters()]


def test_jit_save_writes_paddle_parameter_stream(tmp_path):
    """The .pdiparams is the sorted parameters as LoDTensor streams: byte for byte what we
    committed for the same values."""
    layer = paddle.jit.load(os.path.join(DATA, "cnn"))
    from paddle_compat.jit.translated import read_pdiparams
    arrays = read_pdiparams(os.path.join(DATA, "cnn.pdiparams"))
    names = sorted(p.name.rsplit("_", 1)[0] for p in layer.parameters())
    from paddle_compat.static.io import pdiparams_bytes
    with open(os.path.join(DATA, "cnn.pdiparams"), "rb") as f:
        assert pdiparams_bytes(dict(zip(names, arrays))) == f.read()


def test_jit_save_to_static_function_and_spec_from_decorator(tmp_path):
    """A Layer whose forward is a to_static function with an input_spec saves without one;
    a Tensor works as a spec; the dynamic batch stays -1."""
    paddle.seed(1)
    layer = networks(paddle)["mlp"]()
    layer.eval()
    layer = paddle.jit.to_static(layer, input_spec=[paddle.static.InputSpec([None, 6],
                                                                            "float32", "x")])
    x = paddle.randn([5, 6])
    ref = layer(x).numpy()
    paddle.jit.save(layer, str(tmp_path / "m"))
    out = paddle.jit.load(str(tmp_path / "m"))(x)
    np.testing.assert_allclose(out.numpy(), ref, rtol=1e-6, atol=1e-7)
    with open(tmp_path / "m.json") as f:
        data_op = [o for o in json.load(f)["program"]["regions"][0]["blocks"][0]["ops"]
                   if o["#"] == "1.data"][0]
    assert {a["N"]: a["AT"]["D"] for a in data_op["A"]}["shape"] == [-1, 6]
    plain = networks(paddle)["mlp"]()
    plain.eval()
    paddle.jit.save(plain, str(tmp_path / "t"), input_spec=[x])
    np.testing.assert_array_equal(paddle.jit.load(str(tmp_path / "t"))(x).numpy(),
                                  plain(x).numpy())


def test_jit_save_unmapped_op_names_op_and_layer(tmp_path):
    class Cum(paddle.nn.Layer):
        def forward(self, x):
            return paddle.cumsum(x, axis=1)

    with pytest.raises(NotImplementedError, match=r"Cum.*cumsum"):
        paddle.jit.save(Cum(), str(tmp_path / "c"),
                        input_spec=[paddle.static.InputSpec([None, 3], "float32")])
    assert not os.path.exists(tmp_path / "c.json")


def test_jit_save_arguments(tmp_path):
    layer = networks(paddle)["mlp"]()
    with pytest.raises(ValueError, match="not supported"):
        paddle.jit.save(layer, str(tmp_path / "m"), input_spec=[paddle.randn([2, 6])],
                        no_such_config=1)
    with pytest.raises(ValueError, match="input_spec"):
        paddle.jit.save(layer, str(tmp_path / "m"))
    with pytest.raises(NotImplementedError, match="pdmodel"):
        paddle.jit.json_to_pdmodel(layer, None, str(tmp_path / "a"), str(tmp_path / "b"))
    paddle.jit.set_code_level(50, also_to_stdout=True)
    paddle.jit.set_verbosity(3)
    paddle.jit.set_verbosity()
    paddle.jit.set_code_level()
    with pytest.raises(TypeError):
        paddle.jit.set_verbosity("3")


# ---------------------------------------------------------------------------- static programs
def _static(name, seed=300):
    paddle.seed(seed)
    with paddle.utils.unique_name.guard():
        main, startup, x, fetch, _ = build_static(paddle, name, np.random.default_rng(0))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    return main, startup, x, fetch, exe


@pytest.fixture
def static_mode():
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()


@pytest.mark.parametrize("name", STATIC_MODELS)
def test_save_inference_model_round_trip_and_structure(name, tmp_path, static_mode):
    gold = _gold(name)
    main, _, x, fetch, exe = _static(name)
    inp = _array(gold["inputs"][0])
    ref = exe.run(main, feed={x.name: inp}, fetch_list=fetch)
    path = str(tmp_path / name)
    paddle.static.save_inference_model(path, [x], fetch, exe, program=main)
    assert sorted(os.listdir(tmp_path)) == [name + ".json", name + ".pdiparams"]
    prog, feeds, fetches = paddle.static.load_inference_model(path, exe)
    assert feeds == [x.name]
    for a, b in zip(exe.run(prog, feed={x.name: inp}, fetch_list=fetches), ref):
        np.testing.assert_array_equal(a, b)
    assert _structure(path + ".json") == _structure(os.path.join(DATA, name + ".json"))
    # serialize_* give the same bytes; deserialize_* give the runnable program back
    prog_bytes = paddle.static.serialize_program([x], fetch, program=main)
    param_bytes = paddle.static.serialize_persistables([x], fetch, exe, program=main)
    assert prog_bytes == paddle.static.load_from_file(path + ".json")
    assert param_bytes == paddle.static.load_from_file(path + ".pdiparams")
    paddle.static.save_to_file(str(tmp_path / "copy.bin"), param_bytes)
    assert paddle.static.load_from_file(str(tmp_path / "copy.bin")) == param_bytes
    des = paddle.static.deserialize_program(prog_bytes)
    assert des.feed_target_names == [x.name]
    runnable = paddle.static.deserialize_persistables(des, param_bytes, exe)
    for a, b in zip(exe.run(runnable, feed={x.name: inp},
                            fetch_list=runnable.fetch_targets), ref):
        np.testing.assert_array_equal(a, b)


def test_static_file_api_errors(tmp_path, static_mode):
    with pytest.raises(ValueError, match="bytes"):
        paddle.static.save_to_file(str(tmp_path / "a"), "text")
    with pytest.raises(ValueError, match="not a file"):
        paddle.static.load_from_file(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="PIR"):
        paddle.static.deserialize_program(b"\x00\x01")
    main, _, x, fetch, exe = _static("sinf_fc")
    des = paddle.static.deserialize_program(
        paddle.static.serialize_program([x], fetch, program=main))
    with pytest.raises(ValueError, match="truncated"):
        paddle.static.deserialize_persistables(des, b"\x00" * 10, exe)


def test_static_load_of_paddles_save(static_mode):
    """Paddle's static.save (.pdparams/.pdopt pickles) and save_vars (one LoDTensor file per
    variable) load into our program and give Paddle's outputs."""
    gold, sfc = _gold("sinf_fc"), _gold("static_fc")
    inp = _array(gold["inputs"][0])
    main, startup, x, fetch, exe = _static("sinf_fc", seed=5)
    st = os.path.join(DATA, "static")
    assert sorted(paddle.static.load_program_state(os.path.join(st, "paddle_fc"))) == \
        sfc["state_keys"]
    paddle.static.load(main, os.path.join(st, "paddle_fc"), exe)
    _close(exe.run(main, feed={x.name: inp}, fetch_list=fetch), sfc["paddle_output"])
    exe.run(startup)                       # new random parameters
    assert np.abs(exe.run(main, feed={x.name: inp}, fetch_list=fetch)[1] -
                  _array(sfc["paddle_output"][1])).max() > 1e-3
    paddle.static.load_vars(exe, os.path.join(st, "paddle_vars"), main)
    _close(exe.run(main, feed={x.name: inp}, fetch_list=fetch), sfc["paddle_output"])
    state = paddle.static.load_program_state(os.path.join(st, "paddle_vars"))
    assert sorted(state) == sfc["paddle_vars"]


def test_static_save_writes_paddles_files(tmp_path, static_mode):
    """static.save writes the files Paddle writes (Paddle loaded the committed ones:
    expected/static_fc.json); save_vars one file per variable, byte-identical to Paddle's for
    the same values; our own save -> load round trip."""
    sfc = _gold("static_fc")
    inp = _array(_gold("sinf_fc")["inputs"][0])
    main, startup, x, fetch, exe = _static("sinf_fc")
    paddle.static.load(main, os.path.join(DATA, "static", "paddle_fc"), exe)
    paddle.static.save(main, str(tmp_path / "paddle_fc"))
    assert sorted(os.listdir(tmp_path)) == sfc["paddle_files"]
    for ext in (".pdparams", ".pdopt"):
        with open(os.path.join(DATA, "static", "paddle_fc" + ext), "rb") as f:
            assert (tmp_path / ("paddle_fc" + ext)).read_bytes() == f.read()
    paddle.static.save_vars(exe, str(tmp_path / "vars"), main)
    assert sorted(os.listdir(tmp_path / "vars")) == sfc["paddle_vars"]
    for n in sfc["paddle_vars"]:
        with open(os.path.join(DATA, "static", "paddle_vars", n), "rb") as f:
            assert (tmp_path / "vars" / n).read_bytes() == f.read()
    ref = exe.run(main, feed={x.name: inp}, fetch_list=fetch)
    exe.run(startup)
    paddle.static.load(main, str(tmp_path / "paddle_fc"))
    np.testing.assert_array_equal(exe.run(main, feed={x.name: inp}, fetch_list=fetch)[0], ref[0])
    exe.run(startup)
    paddle.static.save_vars(exe, str(tmp_path / "one"), main, filename="all")
    paddle.static.load_vars(exe, str(tmp_path / "vars"), main)
    np.testing.assert_array_equal(exe.run(main, feed={x.name: inp}, fetch_list=fetch)[0], ref[0])
    state = paddle.static.load_program_state(str(tmp_path / "paddle_fc"))
    state["fc_0.w_0"] = state["fc_0.w_0"] * 0
    state["not_there"] = np.zeros(1, "float32")
    with pytest.warns(UserWarning, match="not_there"):
        paddle.static.set_program_state(main, state)
    out = exe.run(main, feed={x.name: inp}, fetch_list=fetch)[1]
    np.testing.assert_allclose(out, np.maximum(np.broadcast_to(state["fc_0.b_0"], out.shape), 0))


def test_normalize_program(static_mode):
    main, _, x, fetch, exe = _static("sinf_fc")
    inp = np.ones((2, 6), "float32")
    ref = exe.run(main, feed={x.name: inp}, fetch_list=[fetch[0]])
    p = paddle.static.normalize_program(main, [x], [fetch[0]])
    assert isinstance(p, paddle.static.Program) and p is not main
    np.testing.assert_array_equal(exe.run(p, feed={x.name: inp}, fetch_list=[fetch[0].name])[0],
                                  ref[0])
    with pytest.raises(TypeError, match="Program"):
        paddle.static.normalize_program("main", [x], [fetch[0]])


def test_jit_save_to_static_plain_function(tmp_path):
    """A to_static function that reaches its Layer through a closure saves the Layer's
    parameters under their names."""
    paddle.seed(3)
    lin = paddle.nn.Linear(4, 2)

    @paddle.jit.to_static(input_spec=[paddle.static.InputSpec([None, 4], "float32", "x")])
    def f(x):
        return paddle.tanh(lin(x))

    x = paddle.randn([3, 4])
    ref = f(x).numpy()
    paddle.jit.save(f, str(tmp_path / "f"))
    loaded = paddle.jit.load(str(tmp_path / "f"))
    np.testing.assert_allclose(loaded(x).numpy(), ref, rtol=1e-6, atol=1e-7)
    assert sorted(p.name.rsplit("_", 1)[0] for p in loaded.parameters()) == \
        sorted([lin.weight.name, lin.bias.name])


def test_jit_save_refuses_what_it_cannot_write_exactly(tmp_path):
    """torch's divide with a rounding mode is not Paddle's divide: refused, not written."""
    import torch
    from paddle_compat.framework.tensor import wrap

    class FloorDiv(paddle.nn.Layer):
        def forward(self, x, y):
            return wrap(torch.div(x._t, y._t, rounding_mode="floor"))

    spec = [paddle.static.InputSpec([None, 2], "float32")] * 2
    with pytest.raises(NotImplementedError, match="FloorDiv.*divide with rounding_mode"):
        paddle.jit.save(FloorDiv(), str(tmp_path / "f"), input_spec=spec)


def _data_ops(path):
    with open(path) as f:
        ops = json.load(f)["program"]["regions"][0]["blocks"][0]["ops"]
    return [{a["N"]: a["AT"]["D"] for a in o["A"]} for o in ops if o["#"] == "1.data"]


def test_jit_save_input_names_and_last_call(tmp_path):
    """As Paddle 3.3.1: an unnamed InputSpec takes the argument's name; without input_spec
    a to_static Layer that was called saves that call's program (concrete shapes, inputs
    named _jst.K.ARG.0); never called, it raises."""
    layer = networks(paddle)["mlp"]()
    layer.eval()
    paddle.jit.save(layer, str(tmp_path / "a"), input_spec=[paddle.static.InputSpec([None, 6])])
    assert [(d["name"], d["shape"]) for d in _data_ops(tmp_path / "a.json")] == [("x", [-1, 6])]
    static = paddle.jit.to_static(layer)
    with pytest.raises(ValueError, match="input_spec"):
        paddle.jit.save(static, str(tmp_path / "b"))
    x = paddle.randn([3, 6])
    ref = static(x).numpy()
    paddle.jit.save(static, str(tmp_path / "b"))
    assert [(d["name"], d["shape"]) for d in _data_ops(tmp_path / "b.json")] == \
        [("_jst.0.x.0", [3, 6])]
    np.testing.assert_allclose(paddle.jit.load(str(tmp_path / "b"))(x).numpy(), ref,
                               rtol=1e-6, atol=1e-7)
