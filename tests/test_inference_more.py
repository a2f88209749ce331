"""The rest of ``paddle.inference``: ``PredictorPool``, ``XpuConfig`` and the XPU switches of
``Config``, ``convert_to_mixed_precision``, the TensorRT versions and
``_get_phi_kernel_name``, as Paddle 3.3.1's CPU build behaves (probed by hand: values, error
types and messages quoted in paddle_compat/inference/__init__.py)."""
import os

import numpy as np
import pytest

import paddle_compat.inference as pi
from test_inference import DATA, _array, _close, _config, _gold


def test_predictor_pool():
    gold = _gold("mlp")
    x = _array(gold["inputs"][0])
    pool = pi.PredictorPool(_config("mlp"), 2)
    a, b = pool.retrieve(0), pool.retrieve(1)
    assert a is not b and pool.retrieve(0) is a
    assert a._layer is b._layer                      # the clones share the weights
    for p in (a, b):
        h = p.get_input_handle(p.get_input_names()[0])
        h.reshape(list(x.shape))
        h.copy_from_cpu(x)
        p.run()
        _close(p.get_output_handle(p.get_output_names()[0]).copy_to_cpu(),
               gold["predictor_output"][0])
    with pytest.raises(ValueError, match=r"There are \(2\) predictors in the pool, but the idx "
                                         r"is \(2\)"):
        pool.retrieve(2)
    with pytest.raises(TypeError):
        pool.retrieve(-1)
    with pytest.raises(ValueError, match="pool size should be greater than 1"):
        pi.PredictorPool(_config("mlp"), 0)
    with pytest.raises(TypeError):
        pi.PredictorPool(_config("mlp"))
    with pytest.raises(TypeError):
        pi.PredictorPool(_config("mlp"), size=1)          # positional only, as Paddle's
    with pytest.raises(TypeError):
        pi.PredictorPool("model", 1)


def test_xpu_config_and_switches():
    x = pi.XpuConfig()
    assert (x.device_id, x.l3_size, x.l3_ptr, x.context_gm_size, x.gemm_compute_precision,
            x.quant_post_dynamic_op_types, x.quant_post_static_gelu_out_threshold,
            x.transformer_encoder_adaptive_seqlen) == (0, 0, None, -1, 1, [], 10.0, True)
    x.device_id = 3
    assert x.device_id == 3
    with pytest.raises(AttributeError):
        x.foo = 1
    with pytest.raises(TypeError):
        pi.XpuConfig(1)
    c = pi.Config()
    assert c.use_xpu() is False and c.xpu_device_id() == 0
    assert isinstance(c.xpu_config(), pi.XpuConfig)
    with pytest.raises(RuntimeError, match="WITH_XPU"):
        c.enable_xpu()
    with pytest.raises(RuntimeError, match="Should call EnableXpu before SetXpuConfig"):
        c.set_xpu_config(x)
    with pytest.raises(RuntimeError, match="Should call EnableXpu before SetXpuDeviceId"):
        c.set_xpu_device_id(1)


def test_convert_to_mixed_precision_refuses(tmp_path):
    args = (os.path.join(DATA, "mlp.json"), os.path.join(DATA, "mlp.pdiparams"),
            str(tmp_path / "m.json"), str(tmp_path / "m.pdiparams"), pi.PrecisionType.Half)
    with pytest.raises(ValueError, match="not support CPU"):
        pi.convert_to_mixed_precision(*args, pi.PlaceType.CPU)
    with pytest.raises(NotImplementedError, match="convert_to_mixed_precision"):
        pi.convert_to_mixed_precision(*args, pi.PlaceType.GPU)
    assert os.listdir(tmp_path) == []


def test_trt_versions_and_phi_kernel_names():
    assert pi.get_trt_compile_version() == (0, 0, 0)
    assert pi.get_trt_runtime_version() == (0, 0, 0)
    cases = {"elementwise_add": "add", "reduce_sum": "sum", "matmul": "legacy_matmul",
             "matmul_v2": "matmul", "mul": "matmul_with_flatten", "reshape2": "reshape_with_xshape",
             "sum": "add_n", "mean": "mean_all", "expand": "legacy_expand",
             "conv2d": "conv2d", "relu": "relu", "elementwise_pow": "elementwise_pow",
             "fake_quantize_dequantize_abs_max": "fake_quantize_dequantize_abs_max",
             "nonexist": "nonexist"}
    for op, kernel in cases.items():
        assert pi._get_phi_kernel_name(op) == kernel, op
    with pytest.raises(TypeError):
        pi._get_phi_kernel_name(1)
    assert np.all([n in pi.__all__ for n in ("PredictorPool", "XpuConfig",
                                             "convert_to_mixed_precision")])
