"""``paddle.inference`` (Config, create_predictor, handles) and
``paddle.static.load_inference_model`` on model files saved by real Paddle 3.3.1, against the
outputs, names, shapes and errors of Paddle's own predictor and executor (recorded by
tools/model_files/record_inference.py into tests/data/model_files/expected/)."""
import json
import os
import shutil
import warnings

import numpy as np
import pytest
import torch

import paddle_compat as paddle
import paddle_compat.inference as pi
from golden_utils import DEPTH_TOL

DATA = os.path.join(os.path.dirname(__file__), "data", "model_files")
JIT_MODELS = ["mlp", "cnn", "block", "embed", "mobile", "misc", "mlp64"]
STATIC_MODELS = ["inf_fc", "inf_conv"]          # saved by paddle.static.save_inference_model
# the bar: Paddle's outputs to 1e-5 (measured here: at most 6e-7 absolute, on block)
RTOL, ATOL = 1e-5, 1e-5
DEEP_RTOL, DEEP_ATOL = DEPTH_TOL["deep"]       # Paddle's program against Paddle's predictor


def _gold(name):
    fname = name if name in STATIC_MODELS else "predictor_" + name
    with open(os.path.join(DATA, "expected", fname + ".json")) as f:
        return json.load(f)


def _array(d):
    return np.asarray(d["data"], dtype=d["dtype"]).reshape(d["shape"])


def _close(got, expected):
    ref = _array(expected)
    assert isinstance(got, np.ndarray)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    rtol, atol = (1e-10, 1e-12) if ref.dtype == np.float64 else (RTOL, ATOL)
    np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol)


def _config(name):
    c = pi.Config(os.path.join(DATA, name + ".json"), os.path.join(DATA, name + ".pdiparams"))
    c.disable_glog_info()
    return c


@pytest.mark.parametrize("name", JIT_MODELS + STATIC_MODELS)
def test_predictor_matches_paddle(name):
    gold = _gold(name)
    predictor = pi.create_predictor(_config(name))
    assert predictor.get_input_names() == gold["input_names"]
    assert predictor.get_output_names() == gold["output_names"]
    for n, d in zip(gold["input_names"], gold["inputs"]):
        h = predictor.get_input_handle(n)
        h.reshape(d["shape"])
        h.copy_from_cpu(_array(d))
        assert h.shape() == d["shape"]
    assert predictor.run() is None
    for n, shape, dtype, ref in zip(gold["output_names"], gold["output_shapes"],
                                    gold["output_types"], gold["predictor_output"]):
        h = predictor.get_output_handle(n)
        assert h.shape() == shape
        assert str(h.type()).split(".")[1] == dtype.split(".")[1]      # PaddleDType.FLOAT32
        _close(h.copy_to_cpu(), ref)


@pytest.mark.parametrize("name", ["mlp", "misc", "inf_fc", "mlp64"])
def test_predictor_run_with_tensors(name):
    """``run([Tensor])`` returns the outputs as Tensors (Paddle 3.x) and fills the handles."""
    gold = _gold(name)
    predictor = pi.create_predictor(_config(name))
    outs = predictor.run([paddle.to_tensor(_array(d)) for d in gold["inputs"]])
    assert isinstance(outs, list) and len(outs) == len(gold["run_inputs_output"])
    for o, ref in zip(outs, gold["run_inputs_output"]):
        assert isinstance(o, paddle.Tensor)
        _close(o.numpy(), ref)
    _close(predictor.get_output_handle(gold["output_names"][0]).copy_to_cpu(),
           gold["run_inputs_output"][0])


def test_predictor_new_batch_size_and_clone():
    gold = _gold("cnn")
    x = _array(gold["inputs"][0])
    predictor = pi.create_predictor(_config("cnn"))
    twin = predictor.clone()
    h = predictor.get_input_handle("x")
    h.copy_from_cpu(x[1:2])                        # no reshape: the array's shape is used
    predictor.run()
    _close(predictor.get_output_handle("fetch_name_0").copy_to_cpu(),
           {**gold["predictor_output"][0],
            "data": _array(gold["predictor_output"][0])[1:2].ravel().tolist(),
            "shape": [1] + gold["predictor_output"][0]["shape"][1:]})
    # the clone shares the parameters and has its own handles
    assert twin._layer is predictor._layer
    with pytest.raises(RuntimeError):
        twin.get_output_handle("fetch_name_0").copy_to_cpu()      # twin has not run
    twin.get_input_handle("x").copy_from_cpu(x)
    twin.run()
    _close(twin.get_output_handle("fetch_name_0").copy_to_cpu(), gold["predictor_output"][0])


def test_copy_from_cpu_copies():
    gold = _gold("mlp")
    x = _array(gold["inputs"][0]).copy()
    predictor = pi.create_predictor(_config("mlp"))
    predictor.get_input_handle("x").copy_from_cpu(x)
    x[:] = 100.0                                   # changed after the copy: no effect
    predictor.run()
    _close(predictor.get_output_handle("fetch_name_0").copy_to_cpu(),
           gold["predictor_output"][0])


def test_predictor_errors_like_paddle():
    gold = _gold("mlp")
    x = _array(gold["inputs"][0])
    predictor = pi.create_predictor(_config("mlp"))
    with pytest.raises(RuntimeError, match="nope"):
        predictor.get_input_handle("nope")
    with pytest.raises(RuntimeError, match="nope"):
        predictor.get_output_handle("nope")
    h = predictor.get_input_handle("x")
    with pytest.raises(TypeError, match="numpy ndarray"):
        h.copy_from_cpu([[1.0] * 6])
    with pytest.raises(RuntimeError, match="copy_from_cpu"):
        predictor.run()                            # nothing copied in yet
    with pytest.raises(ValueError, match="need 1 but get 2"):
        predictor.run([paddle.to_tensor(x), paddle.to_tensor(x)])
    h.copy_from_cpu(x.astype("float64"))           # Paddle accepts it here, fails in run
    assert h.type() == pi.DataType.FLOAT64
    with pytest.raises(ValueError, match="float32"):
        predictor.run()
    h.copy_from_cpu(np.ones((3, 5), "float32"))
    with pytest.raises(ValueError, match="shape"):
        predictor.run()


def test_missing_model_files(tmp_path):
    c = pi.Config(str(tmp_path / "none.json"), str(tmp_path / "none.pdiparams"))
    assert c.prog_file().endswith("none.json") and c.model_dir() == ""
    for err in (RuntimeError, FileNotFoundError):  # Paddle's type, and Python's
        with pytest.raises(err, match="none.json"):
            pi.create_predictor(c)
    shutil.copy(os.path.join(DATA, "mlp.json"), tmp_path / "m.json")
    with pytest.raises(RuntimeError, match="m.pdiparams"):
        pi.create_predictor(pi.Config(str(tmp_path / "m.json"), str(tmp_path / "m.pdiparams")))
    with pytest.raises(RuntimeError):
        pi.create_predictor(pi.Config(str(tmp_path / "nothing_here")))
    exe = paddle.static.Executor()
    with pytest.raises(RuntimeError, match="nothing.json"):
        paddle.static.load_inference_model(str(tmp_path / "nothing"), exe)


def test_paddle2_files_are_refused_clearly(tmp_path):
    """A 2.x model in separate files (``__model__``) names the file and the format; a broken
    ``.pdmodel`` (the combined 2.x format, read by jit/program_desc.py) names the file."""
    (tmp_path / "__model__").write_bytes(b"\x0a\x00")
    with pytest.raises(NotImplementedError, match="__model__.*Paddle 2"):
        pi.create_predictor(pi.Config(str(tmp_path)))
    (tmp_path / "old.pdmodel").write_bytes(b"\x0a\x00")
    (tmp_path / "old.pdiparams").write_bytes(b"")
    with pytest.raises(ValueError, match="old.pdmodel.*ProgramDesc"):
        pi.create_predictor(pi.Config(str(tmp_path / "old.pdmodel"),
                                      str(tmp_path / "old.pdiparams")))
    with pytest.raises(ValueError, match="old.pdmodel.*ProgramDesc"):
        paddle.static.load_inference_model(str(tmp_path / "old"), paddle.static.Executor())


def test_corrupt_params_file_names_it(tmp_path):
    shutil.copy(os.path.join(DATA, "mlp.json"), tmp_path / "m.json")
    with open(os.path.join(DATA, "mlp.pdiparams"), "rb") as f:
        (tmp_path / "m.pdiparams").write_bytes(f.read()[:-5])
    with pytest.raises(ValueError, match="m.pdiparams.*truncated"):
        pi.create_predictor(pi.Config(str(tmp_path / "m.json"), str(tmp_path / "m.pdiparams")))


def test_config_model_dir_and_prefix(tmp_path):
    gold = _gold("embed")
    ids = paddle.to_tensor(_array(gold["inputs"][0]))
    # a folder with inference.json / inference.pdiparams (PaddleOCR's and PaddleX's names)
    folder = tmp_path / "exported"
    folder.mkdir()
    shutil.copy(os.path.join(DATA, "embed.json"), folder / "inference.json")
    shutil.copy(os.path.join(DATA, "embed.pdiparams"), folder / "inference.pdiparams")
    c = pi.Config(str(folder))
    assert c.model_dir() == str(folder) and c.prog_file() == "" and c.params_file() == ""
    _close(pi.create_predictor(c).run([ids])[0].numpy(), gold["predictor_output"][0])
    # a path prefix
    out = pi.create_predictor(pi.Config(os.path.join(DATA, "embed"))).run([ids])
    _close(out[0].numpy(), gold["predictor_output"][0])
    # set_model / set_prog_file / set_params_file
    c = pi.Config()
    c.set_prog_file(os.path.join(DATA, "embed.json"))
    c.set_params_file(os.path.join(DATA, "embed.pdiparams"))
    _close(pi.create_predictor(c).run([ids])[0].numpy(), gold["predictor_output"][0])


def test_config_switches():
    c = _config("mlp")
    # Paddle 3.3.1's defaults
    assert c.ir_optim() is True and c.cpu_math_library_num_threads() == 1
    assert c.mkldnn_enabled() is True and c.use_feed_fetch_ops_enabled() is False
    assert c.specify_input_name() is False and c.use_gpu() is False
    assert c.gpu_device_id() == 0 and c.memory_pool_init_size_mb() == 100
    assert c.glog_info_disabled() is True                    # _config disabled it
    c.switch_ir_optim(False)
    c.enable_memory_optim()
    c.enable_mkldnn()
    c.switch_use_feed_fetch_ops(False)
    c.switch_specify_input_names(True)
    assert c.ir_optim() is False and c.specify_input_name() is True
    c.disable_mkldnn()
    assert c.mkldnn_enabled() is False
    before = torch.get_num_threads()
    try:
        c.set_cpu_math_library_num_threads(1)
        assert c.cpu_math_library_num_threads() == 1
        predictor = pi.create_predictor(c)
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
    with pytest.raises(ValueError):
        c.set_cpu_math_library_num_threads(0)
    gold = _gold("mlp")
    _close(predictor.run([paddle.to_tensor(_array(gold["inputs"][0]))])[0].numpy(),
           gold["predictor_output"][0])
    assert "mlp.json" in c.summary()


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the fallback without CUDA")
def test_enable_use_gpu_without_cuda_runs_on_cpu():
    c = _config("mlp")
    with pytest.warns(UserWarning, match="CUDA"):
        c.enable_use_gpu(256, 0)
    assert c.use_gpu() is False and c.memory_pool_init_size_mb() == 256
    gold = _gold("mlp")
    out = pi.create_predictor(c).run([paddle.to_tensor(_array(gold["inputs"][0]))])
    _close(out[0].numpy(), gold["predictor_output"][0])
    with pytest.raises(NotImplementedError):
        c.enable_use_gpu(100, 0, pi.PrecisionType.Half)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_enable_use_gpu_runs_on_cuda():
    c = _config("cnn")
    c.enable_use_gpu(100, 0)
    assert c.use_gpu() is True
    gold = _gold("cnn")
    predictor = pi.create_predictor(c)
    outs = predictor.run([paddle.to_tensor(_array(gold["inputs"][0]))])
    assert outs[0]._t.device.type == "cuda"
    np.testing.assert_allclose(predictor.get_output_handle("fetch_name_0").copy_to_cpu(),
                               _array(gold["predictor_output"][0]), rtol=1e-4, atol=1e-5)


def test_enums_and_version():
    assert int(pi.DataType.FLOAT32) == 0 and int(pi.DataType.INT64) == 1
    assert int(pi.DataType.FLOAT64) == 7 and int(pi.DataType.BFLOAT16) == 8
    assert [m.name for m in pi.PlaceType] == ["UNK", "CPU", "GPU", "XPU", "CUSTOM"]
    assert int(pi.PlaceType.GPU) == 1 and int(pi.PrecisionType.Half) == 2
    assert str(pi.DataType.INT32) == "DataType.INT32"
    assert pi.get_num_bytes_of_data_type(pi.DataType.FLOAT32) == 4
    assert pi.get_num_bytes_of_data_type(pi.DataType.FLOAT64) == -1   # as Paddle 3.3.1
    assert pi.get_version().splitlines()[0] == "version: 3.3.1"
    assert paddle.inference is pi or paddle.inference.Config is pi.Config


# ---------------------------------------------------------------- load_inference_model
@pytest.mark.parametrize("name", STATIC_MODELS)
def test_load_inference_model_matches_paddle(name):
    gold = _gold(name)
    assert gold["files"] == [name + ".json", name + ".pdiparams"]    # what 3.3.1 writes
    exe = paddle.static.Executor(paddle.CPUPlace())
    program, feed_names, fetch_targets = paddle.static.load_inference_model(
        os.path.join(DATA, name), exe)
    assert feed_names == gold["feed_names"]
    assert len(fetch_targets) == len(gold["executor_output"])
    feed = {n: _array(d) for n, d in zip(feed_names, gold["inputs"])}
    outs = exe.run(program, feed=feed, fetch_list=fetch_targets)
    assert len(outs) == len(gold["executor_output"])
    for o, ref in zip(outs, gold["executor_output"]):
        _close(o, ref)
    # the program Paddle saved gave the same numbers before saving
    for a, b in zip(gold["program_output"], gold["executor_output"]):
        np.testing.assert_allclose(_array(a), _array(b), rtol=DEEP_RTOL, atol=DEEP_ATOL)


def test_load_inference_model_fetch_lists_and_static_mode():
    gold = _gold("inf_fc")
    exe = paddle.static.Executor()
    program, feed_names, fetches = paddle.static.load_inference_model(
        os.path.join(DATA, "inf_fc"), exe)
    feed = {"feat": _array(gold["inputs"][0])}
    paddle.enable_static()
    try:
        rev = exe.run(program, feed=feed, fetch_list=fetches[::-1])
        one = exe.run(program, feed=feed, fetch_list=[fetches[1]])
        by_name = exe.run(program, feed=feed, fetch_list=["fetch_name_0"])
        tensors = exe.run(program, feed=feed, fetch_list=fetches, return_numpy=False)
        assert exe.run(program, feed=feed, fetch_list=[]) == []
    finally:
        paddle.disable_static()
    _close(rev[0], gold["executor_output"][1])
    _close(rev[1], gold["executor_output"][0])
    _close(one[0], gold["executor_output"][1])
    _close(by_name[0], gold["executor_output"][0])
    assert isinstance(tensors[0], paddle.Tensor)
    _close(tensors[0].numpy(), gold["executor_output"][0])


def test_load_inference_model_of_jit_save_and_filenames():
    """A ``jit.save`` model loads the same way (same files); ``model_filename`` /
    ``params_filename`` name the files inside a folder."""
    gold = _gold("misc")
    exe = paddle.static.Executor()
    program, feed_names, fetches = paddle.static.load_inference_model(
        DATA, exe, model_filename="misc.json", params_filename="misc.pdiparams")
    assert feed_names == ["x"] and [f.name for f in fetches] == gold["output_names"]
    outs = exe.run(program, feed={"x": _array(gold["inputs"][0])}, fetch_list=fetches)
    for o, ref in zip(outs, gold["predictor_output"]):
        _close(o, ref)


def test_load_inference_model_errors():
    exe = paddle.static.Executor()
    program, feed_names, fetches = paddle.static.load_inference_model(
        os.path.join(DATA, "inf_fc"), exe)
    x = _array(_gold("inf_fc")["inputs"][0])
    with pytest.raises(KeyError):                              # as Paddle's executor
        exe.run(program, feed={}, fetch_list=fetches)
    with pytest.raises(ValueError):                            # float64 fed to float32
        exe.run(program, feed={"feat": x.astype("float64")}, fetch_list=fetches)
    with pytest.raises(ValueError, match="fetch target"):
        exe.run(program, feed={"feat": x}, fetch_list=["not_a_fetch"])
    with pytest.warns(UserWarning, match="zz"):                # an extra feed: Paddle warns
        exe.run(program, feed={"feat": x, "zz": x}, fetch_list=fetches)
    with pytest.raises(ValueError):
        paddle.static.load_inference_model(os.path.join(DATA, "inf_fc"), exe, bogus=1)
    # the normal Executor.run path still refuses what is not a program
    with pytest.raises(TypeError):
        exe.run(object(), feed={}, fetch_list=[])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exe.run(program, feed={"feat": x}, fetch_list=fetches)
