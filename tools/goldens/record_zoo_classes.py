"""Record Paddle 3.3.1's behaviour for the classes of failure the model-zoo drivers found
(tools/model_zoo, issue 21), as goldens for tests/test_zoo_classes.py:

* ``paddle.static.amp.fp16_guard`` (PaddleClas's ResNet family wraps its whole forward in it):
  in dynamic mode the ops inside run as they would outside it: same values, same dtypes,
  gradients unchanged; it nests, and an exception inside propagates.

Run with the oracle interpreter:

    /work/paddle_venv/bin/python tools/goldens/record_zoo_classes.py

Writes tests/goldens/zoo_classes.json (``{"prelude", "cases": [{id, code, expected}]}``).
"""
import os
import sys
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))

from layercase import record  # noqa: E402

OUT = os.path.join(ROOT, "tests", "goldens", "zoo_classes.json")

PRELUDE = '''
def inp(*shape, seed=0):
    t = paddle.to_tensor(np.random.default_rng(seed).uniform(-1, 1, shape).astype("float32"))
    t.stop_gradient = False
    return t

def conv_bn(x):
    paddle.seed(7)
    conv = paddle.nn.Conv2D(3, 4, 3, padding=1)
    bn = paddle.nn.BatchNorm2D(4)
    return bn(conv(x)), conv
'''

CASES = [
    ("fp16_guard_conv_bn_forward_backward", '''
x = inp(2, 3, 5, 5)
with paddle.static.amp.fp16_guard():
    y, conv = conv_bn(x)
w = inp(2, 4, 5, 5, seed=3)
g = paddle.grad((y * w).sum(), [x, conv.weight])
out = [y, g[0], g[1], str(y.dtype)]
'''),
    ("fp16_guard_nested_matmul", '''
a, b = inp(3, 4, seed=1), inp(4, 2, seed=2)
with paddle.static.amp.fp16_guard():
    with paddle.static.amp.fp16_guard():
        y = paddle.matmul(a, b)
    z = paddle.nn.functional.softmax(y)
out = [y, z, str(z.dtype)]
'''),
    ("fp16_guard_float64_kept", '''
x = paddle.to_tensor(np.linspace(-2, 2, 7))
with paddle.static.amp.fp16_guard():
    y = paddle.tanh(x) * 3
out = [y, str(y.dtype)]
'''),
    ("fp16_guard_exception_propagates", '''
try:
    with paddle.static.amp.fp16_guard():
        raise KeyError("inside")
    out = "no exception"
except KeyError as e:
    out = "KeyError " + str(e)
'''),
]

_FILLS = [("-inf", "float32"), ("inf", "float64"), ("nan", "float32"), ("1.5", "float32"),
          ("3", "int64"), ("1e3", "float32"), (" 2.5 ", "float32"), ("2.7", "int32"),
          ("abc", "float32"), ("-inf", "int64"), ("True", "bool"), ("False", "bool"),
          ("0", "bool"), ("abc", "bool"), ("", "float32"), ("inf", "int32"), ("nan", "int64"),
          ("1e40", "float32"), ("-2.5", "int64"), ("0x10", "float32"), ("2.5abc", "float32"),
          ("1.5", "float16"), ("-inf", "uint8"), ("1", "bool"), ("true", "bool"),
          ("2", "bool"), ("1e30", "int64"), ("300", "uint8"), ("-1", "uint8"),
          ("200", "int8"), ("inf", "uint8"), ("nan", "bool"), ("-1", "bool"),
          ("0.5", "bool"), ("1.5", "complex64")]
CASES += [
    ("full_string_fill_values", "out = [[paddle.full([2], v, dtype=d), str(paddle.full([2], v, "
     "dtype=d).dtype)] for v, d in " + repr(_FILLS) + "]"),
    ("full_string_fill_default_dtype",
     'out = [paddle.full([2, 1], "2.5"), paddle.full([1], "-inf")]'),
    ("full_like_string_fill", '''
x = paddle.zeros([2, 2])
i = paddle.zeros([3], dtype="int32")
out = [paddle.full_like(x, "-inf"), paddle.full_like(x, "2"), paddle.full_like(i, "7.9"),
       paddle.full_like(i, "-inf"), paddle.full_like(x, "nan", dtype="float64")]
'''),
    ("nrtr_causal_mask", '''
sz = 4
mask = paddle.zeros([sz, sz], dtype="float32")
mask_inf = paddle.triu(paddle.full(shape=[sz, sz], dtype="float32", fill_value="-inf"),
                       diagonal=1)
m = (mask + mask_inf).unsqueeze([0, 1])
s = paddle.nn.functional.softmax(inp(1, 2, 4, 4) + m, axis=-1)
out = [m, s]
'''),
]

_BN_ACTS = ["relu", "hard_swish", "hard_sigmoid", "relu6", "swish", "sigmoid", "tanh", "gelu",
            "elu", "softsign", "mish", "silu", "brelu", "logsigmoid", "abs", "exp", "square"]
CASES += [
    ("batchnorm_legacy_act_names", '''
x = inp(2, 4, 3, 3, seed=5)
w = inp(2, 4, 3, 3, seed=6)
res = []
for act in ''' + repr(_BN_ACTS) + ''':
    bn = paddle.nn.BatchNorm(4, act=act)
    y = bn(x * 3)
    g = paddle.grad((y * w).sum(), x)[0]
    res += [y, g]
out = res
'''),
    ("common_ops_import_checks_dynamic", '''
from paddle.common_ops_import import (Variable, check_variable_and_dtype, check_type,
                                      check_dtype, convert_dtype)
check_variable_and_dtype(paddle.ones([2]), "x", ["int64"], "op")
check_type([1], "x", (int,), "op")
check_dtype(paddle.float32, "x", ["int64"], "op")
out = [convert_dtype(paddle.float32), convert_dtype("int64"),
       isinstance(paddle.ones([1]), Variable)]
'''),
]

if __name__ == "__main__":
    record(CASES, PRELUDE, OUT)
