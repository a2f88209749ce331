"""Record Paddle 3.3.1's behaviour that PaddleSlim 2.6.0 and VisualDL 2.5.3 rely on and
paddle_compat fixed for them (issue 30, tools/ecosystem: paddleslim_driver.py,
visualdl_driver.py): ``paddle.static.quantization`` (its operator tables, its quantization
arithmetic, the names PaddleSlim imports at module top), ``ImperativeQuantAware`` with
``onnx_format=True`` (PaddleSlim's ``QAT`` default), ``paddle.device._convert_to_place``,
``paddle.utils.unique_name.generate_with_ignorable_key``, ``core.VarDesc`` (and its
``VarType``) and
the ``paddle.assign`` / type-promotion behaviour PaddleSlim's ``UnstructuredPruner`` meets.

    /work/paddle_venv/bin/python tools/goldens/record_ecosystem_slim.py

Writes tests/goldens/ecosystem_slim.json: {case: {"code": ..., "depth": "op"|"deep",
"value": ...} or {..., "error": built-in type name}}; tests/test_ecosystem_slim.py runs the
same code with ``import paddle`` resolving to paddle_compat. Each case leaves plain JSON
values in ``out``.
"""
import json
import os

import numpy as np
import paddle

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "ecosystem_slim.json")

NET = """
import paddle
import numpy as np
class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(2, 4, 3, padding=1)
        self.bn = paddle.nn.BatchNorm2D(4)
        self.fc = paddle.nn.Linear(4 * 6 * 6, 3)
    def forward(self, x):
        x = paddle.nn.functional.relu(self.bn(self.conv(x)))
        return self.fc(paddle.flatten(x, 1))
def seeded():
    net = Net()
    rng = np.random.RandomState(0)
    for p in net.parameters():
        if p.stop_gradient:        # batch norm's running statistics keep their start values
            continue
        p.set_value((rng.standard_normal(p.shape) * 0.1).astype("float32"))
    return net
X = np.random.RandomState(1).standard_normal((2, 2, 6, 6)).astype("float32")
Y = np.array([[0], [2]], dtype="int64")
"""

CASES = {
    "quant_config_tables": ("op", """
from paddle.static.quantization import quant_config as qc
out = [qc.SUPPORT_WEIGHT_QUANTIZATION_OP_DICT, qc.SUPPORT_ACT_QUANTIZATION_OP_DICT,
       list(qc.SUPPORT_QUANTIZATION_OP_DICT)]
"""),
    "quant_utils_per_tensor": ("op", """
import numpy as np
from paddle.static.quantization import utils
x = np.array([[-2.0, -0.3, 0.0], [0.26, 1.1, 3.0]])
out = [utils.quant_tensor(x.copy(), 1.5).tolist(),
       utils.quant_tensor(x.copy(), 1.5, onnx_format=True).tolist(),
       utils.quant_tensor(x.copy(), [0.8], weight_bits=4).tolist(),
       utils.quant_tensor(x.copy(), 0.0, onnx_format=True).tolist(),
       utils.dequant_tensor(np.array([[-127.0, 5.0], [64.0, 127.0]]), 2.0).tolist(),
       x.tolist()]
"""),
    "quant_utils_per_channel": ("op", """
import numpy as np
from paddle.static.quantization import utils
x = np.array([[-2.0, -0.3, 0.0], [0.26, 1.1, 3.0]])
a0 = x.copy(); r0 = utils.quant_tensor(a0, [1.0, 2.0], quant_axis=0)
a1 = x.copy(); r1 = utils.quant_tensor(a1, [1.0, 0.5, 2.5], quant_axis=1, onnx_format=True)
d = utils.dequant_tensor(r1.copy(), [1.0, 0.5, 2.5], quant_axis=1)
dz = utils.dequant_tensor(np.ones((2, 2)), [0.0, 3.0], quant_axis=0)
out = [r0.tolist(), a0.tolist(), r1.tolist(), d.tolist(), dz.tolist(),
       float(utils.calculate_quant_cos_error(x, d)),
       utils.stable_sigmoid(np.array([-800.0, -1.0, 0.0, 2.0, 800.0])).tolist(),
       float(utils.l2_loss(x, d))]
"""),
    "quant_utils_bad_axis": ("op", """
import numpy as np
from paddle.static.quantization import utils
utils.quant_tensor(np.ones((2, 2)), [1.0, 1.0], quant_axis=2)
"""),
    "static_quantization_names": ("op", """
import paddle.static.quantization as q
from paddle.framework import IrGraph
from paddle.static.quantization import (WeightQuantization, QuantizationTransformPass,
    QuantizationFreezePass, ConvertToInt8Pass, PostTrainingQuantization, AddQuantDequantPass,
    OutScaleForTrainingPass, OutScaleForInferencePass, QuantizationTransformPassV2,
    QuantWeightPass, AddQuantDequantPassV2, PostTrainingQuantizationProgram,
    AddQuantDequantForInferencePass, quant_config, utils)
out = [isinstance(c, type) for c in (IrGraph, WeightQuantization, QuantizationTransformPass,
       QuantizationFreezePass, ConvertToInt8Pass, PostTrainingQuantization, AddQuantDequantPass,
       OutScaleForTrainingPass, OutScaleForInferencePass, QuantizationTransformPassV2,
       QuantWeightPass, AddQuantDequantPassV2, PostTrainingQuantizationProgram,
       AddQuantDequantForInferencePass)] + [paddle.static.quantization is q]
"""),
    # PaddleSlim's QAT passes onnx_format=True: only the quantised layers get an output scale
    "imperative_qat_onnx_format": ("deep", NET + """
layers = {}
for onnx in (True, False):
    q = paddle.quantization.ImperativeQuantAware(
        weight_quantize_type="channel_wise_abs_max", onnx_format=onnx)
    paddle.seed(0)
    net = q.quantize(seeded())
    layers[onnx] = [type(m).__name__ for _, m in net.named_sublayers()]
q = paddle.quantization.ImperativeQuantAware(
    weight_quantize_type="channel_wise_abs_max", onnx_format=True)
net = q.quantize(seeded())
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
losses = []
for _ in range(2):
    loss = paddle.nn.functional.cross_entropy(net(paddle.to_tensor(X)), paddle.to_tensor(Y))
    loss.backward(); opt.step(); opt.clear_grad(); losses.append(float(loss))
net.eval()
scales = {k: v.numpy().tolist() for k, v in net.state_dict().items() if k.endswith("_scale")}
out = [layers[True], layers[False], losses, net(paddle.to_tensor(X)).numpy().tolist(), scales]
"""),
    "convert_to_place": ("op", """
import paddle
from paddle.device import _convert_to_place
place = paddle.CPUPlace()
out = [str(_convert_to_place("cpu")), str(_convert_to_place("CPU")),
       _convert_to_place(place) is place, _convert_to_place(3)]
"""),
    "convert_to_place_bad": ("op", """
from paddle.device import _convert_to_place
_convert_to_place("tpu:0")
"""),
    # PaddleSlim's recover_program names its temporaries so
    "unique_name_ignorable_key": ("op", """
from paddle.utils import unique_name as u
a = [u.generate_with_ignorable_key("fc") for _ in range(2)]
with u.guard():
    b = u.generate_with_ignorable_key("fc")
out = [a[0].startswith("dygraph_tmp_"), int(a[1].rsplit("_", 1)[1]) - int(a[0].rsplit("_", 1)[1]),
       b.startswith("dygraph_tmp_")]
paddle.enable_static()
try:
    with u.guard():
        out += [u.generate_with_ignorable_key("fc"), u.generate_with_ignorable_key("fc"),
                u.generate("fc")]
finally:
    paddle.disable_static()
"""),
    # PaddleSlim (quant_embedding, recover_program, ofa) names types and kinds so
    "var_desc_var_type": ("op", """
from paddle.framework import core
V = core.VarDesc.VarType
names = ["BOOL", "INT16", "INT32", "INT64", "FP16", "FP32", "FP64", "LOD_TENSOR",
         "DENSE_TENSOR", "SELECTED_ROWS", "FEED_MINIBATCH", "FETCH_LIST", "LOD_TENSOR_ARRAY",
         "RAW", "UINT8", "INT8", "BF16", "COMPLEX64", "COMPLEX128", "STRING", "STRINGS",
         "FP8_E4M3FN", "UINT16"]
out = [[n, int(getattr(V, n)), str(getattr(V, n)), getattr(V, n).name] for n in names]
out += [V.FP32 == 5, V.FP32 == V.FP64, V.LOD_TENSOR is V.DENSE_TENSOR, str(V(6)),
        V.FP32 == paddle.float32, isinstance(V.INT8, int)]
"""),
    "var_desc": ("op", """
from paddle.framework import core
V = core.VarDesc.VarType
d = core.VarDesc("w")
out = [d.name(), str(d.type()), d.shape(), str(d.dtype()), d.persistable(), d.stop_gradient(),
       d.need_check_feed(), d.is_parameter()]
d.set_shape([2, 3]); d.set_dtype(V.FP64); d.set_persistable(True); d.set_type(V.LOD_TENSOR)
d.set_name("w2"); d.set_stop_gradient(True)
out += [d.name(), str(d.type()), d.shape(), str(d.dtype()), d.persistable(), d.stop_gradient()]
"""),
    "var_desc_dtype_must_be_var_type": ("op", """
from paddle.framework import core
core.VarDesc("w").set_dtype(paddle.float32)
"""),
    # UnstructuredPruner writes its masks so: the float mask becomes bool ...
    "assign_bool_array_into_float": ("op", """
import numpy as np
mask = paddle.ones([2, 2], dtype="float32")
paddle.assign(np.array([[True, False], [False, True]]), output=mask)
w = paddle.to_tensor([[1.5, -2.0], [0.25, 3.0]])
out = [str(mask.dtype), mask.numpy().tolist(), np.array(w.value().get_tensor()).tolist(),
       int(mask.astype("int64").sum())]
"""),
    # ... and the masking forward multiplies a float parameter by it: refused
    "float_times_bool_mask": ("op", """
w = paddle.to_tensor([[1.5, -2.0], [0.25, 3.0]])
m = paddle.to_tensor([[True, False], [False, True]])
w * m
"""),
}


def run(code):
    scope = {"paddle": paddle, "np": np}
    exec(code, scope)
    return scope["out"]


def builtin_type(e):
    """The built-in class of an exception (paddle_compat's own errors subclass one)."""
    return next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")


def main():
    doc = {}
    for name, (depth, code) in CASES.items():
        case = {"code": code, "depth": depth}
        try:
            case["value"] = run(code)
        except Exception as e:  # noqa: BLE001 - the exception is the result
            case["error"] = builtin_type(e)
        doc[name] = case
        print(name, "error: " + case["error"] if "error" in case else "ok")
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
