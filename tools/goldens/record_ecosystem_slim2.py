"""Record Paddle 3.3.1's behaviour of the internals PaddleSlim 2.6.0 reaches beyond its dygraph
quantization (issue 30, tools/ecosystem/drivers/paddleslim_static_driver.py):
``paddle.static.quantization.utils`` (scope data, op slot names, bias correction, ``tqdm``),
``quant_config``'s quantizers, ``base.framework._create_tensor`` with
``_legacy_C_ops.fake_channel_wise_quantize_dequantize_abs_max``, the positional
``_C_ops.batch_norm`` / ``layer_norm``, ``core.op_proto_and_checker_maker``,
``paddle.incubate.asp`` and ``paddle.static.amp``'s ``CustomOpLists`` / ``decorate``, and how
PaddleSlim's static entry (``core.Graph(program.desc)``) fails on Paddle 3.3.1's PIR programs.

    /work/paddle_venv/bin/python tools/goldens/record_ecosystem_slim2.py

Cases marked ``legacy`` run in a second process under ``FLAGS_enable_pir_api=0`` (Paddle's
legacy static graph, which paddle_compat's static programs follow): there ``asp.decorate``
and ``static.amp.decorate(...).minimize`` work in Paddle; under PIR they fail inside Paddle
(see tools/ecosystem/README.md). Writes tests/goldens/ecosystem_slim2.json: {case: {"code",
"depth": "op"|"deep", "mode": "pir"|"legacy", "value" or "error": built-in type name}};
tests/test_ecosystem_slim2.py runs the same code on paddle_compat.
"""
import json
import os
import subprocess
import sys
import tempfile

from record_ecosystem_slim import builtin_type, run  # the same case runner

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "ecosystem_slim2.json")

FAKE_OP = """
from paddle.base.framework import Operator
class Op(Operator):
    '''An operator with named input/output slots (what IrNode and Operator offer).'''
    def __init__(self, op_type, ins, outs):
        self._op_type, self._ins, self._outs = op_type, ins, outs
    type = property(lambda self: self._op_type)
    def input(self, slot):
        return self._ins.get(slot, [])
    def output(self, slot):
        return self._outs.get(slot, [])
"""

ASP_NET = """
import numpy as np
from paddle.incubate import asp
class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(4, 8, 3)
        self.fc1 = paddle.nn.Linear(8 * 4 * 4, 16)
        self.fc2 = paddle.nn.Linear(16, 3)
    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(paddle.flatten(self.conv(x), 1))))
with paddle.utils.unique_name.guard():
    net = Net()
rs = np.random.RandomState(1)
for p in net.parameters():
    p.set_value((rs.standard_normal(p.shape) * 0.2).astype('float32'))
X = paddle.to_tensor(rs.standard_normal((2, 4, 6, 6)).astype('float32'))
"""

AMP_PROGRAM = """
import numpy as np
paddle.enable_static()
try:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        lin = paddle.nn.Linear(4, 3)
        loss = paddle.mean(lin(x) ** 2)
        opt = paddle.static.amp.decorate(
            optimizer=paddle.optimizer.Momentum(0.1, momentum=0.9),
            amp_lists=paddle.static.amp.CustomOpLists(custom_black_list=["tanh"]),
            init_loss_scaling=128.0, use_dynamic_loss_scaling=True, **KW)
        opt.minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    scope = paddle.static.global_scope()
    rs = np.random.RandomState(0)
    scope.find_var(lin.weight.name).get_tensor().set(
        rs.standard_normal((4, 3)).astype("float32"), paddle.CPUPlace())
    scope.find_var(lin.bias.name).get_tensor().set(np.zeros(3, "float32"), paddle.CPUPlace())
    xv = rs.standard_normal((2, 4)).astype("float32")
    bad = xv.copy(); bad[0, 0] = np.inf
    out = []
    for feed in FEEDS:
        l, s = exe.run(main, feed={"x": {"ok": xv, "inf": bad}[feed]},
                       fetch_list=[loss, opt.get_loss_scaling()])
        out.append([float(l) if np.isfinite(l) else str(float(l)), float(np.array(s)[0])])
    out.append(np.array(scope.find_var(lin.weight.name).get_tensor()).tolist())
finally:
    paddle.disable_static()
"""

CASES = {
    # -- quant_config's quantizers (PaddleSlim's quant_aware picks one by deploy_backend)
    "quantizers": ("op", "pir", """
from paddle.static.quantization import quant_config as qc
out = []
for cls in (qc.BaseQuantizer, qc.TensorRTQuantizer, qc.ARMCPUQuantizer):
    for kw in ({}, {"quantizable_op_type": ["conv2d", "mul", "relu", "pool2d", "nope"],
                    "quant_bits": 4}):
        q = cls(**kw)
        out.append([cls.__name__, q.weight_quant_operation_types,
                    q.activation_quant_operation_types, q.observer_operation_types,
                    q._quant_bits, q._quant_min, q._quant_max])
"""),
    # -- utils: op slot names, scope data, bias correction, tqdm
    "utils_op_var_names": ("op", "pir", FAKE_OP + """
from paddle.static.quantization import utils
conv = Op("conv2d", {"Input": ["x"], "Filter": ["w"], "Bias": ["b"]}, {"Output": ["y"]})
mm = Op("matmul_v2", {"X": ["a"], "Y": ["a"]}, {"Out": ["o"]})
topk = Op("top_k_v2", {"X": ["t"]}, {"Out": ["v"], "Indices": ["i"]})
other = Op("fancy_op", {"X": ["q"]}, {"Out": ["r"]})
out = [utils._get_op_input_var_names(op) for op in (conv, mm, topk, other)]
out += [utils._get_op_output_var_names(op) for op in (conv, mm, topk, other)]
out += [utils._get_output_name_index(topk, "i"), utils._get_output_name_index(conv, "y"),
        utils._get_output_name_index(conv, "zz"), utils._get_output_name_index(other, "r"),
        utils._get_input_name_index(mm, "a"), utils._get_input_name_index(conv, "w"),
        list(utils._channelwise_quant_axis1_ops)]
"""),
    "utils_op_var_names_not_an_op": ("op", "pir", """
from paddle.static.quantization import utils
utils._get_op_input_var_names("conv2d")
"""),
    "utils_scope_data": ("op", "pir", """
import numpy as np
from paddle.static.quantization import utils
scope = paddle.static.Scope()
place = paddle.CPUPlace()
scope.var("w_slim2").get_tensor().set(np.arange(6, dtype="float32").reshape(2, 3), place)
scope.var("s_slim2").get_tensor().set(np.array(2.5, dtype="float32"), place)
a = utils.load_variable_data(scope, "w_slim2")
b = utils.load_variable_data(scope, "s_slim2")
utils.set_variable_data(scope, place, "w_slim2", -a * 2)
utils.set_variable_data(scope, place, "absent_slim2", a)
c = utils.load_variable_data(scope, "w_slim2")
out = [a.tolist(), str(a.dtype), b.tolist(), list(b.shape), c.tolist(),
       scope.find_var("absent_slim2") is None]
"""),
    "utils_load_missing": ("op", "pir", """
from paddle.static.quantization import utils
utils.load_variable_data(paddle.static.Scope(), "nowhere_slim2")
"""),
    "utils_set_not_array": ("op", "pir", """
from paddle.static.quantization import utils
utils.set_variable_data(paddle.static.Scope(), paddle.CPUPlace(), "w", [1.0, 2.0])
"""),
    "utils_bias_correction_w": ("op", "pir", """
import numpy as np
from paddle.static.quantization import utils
rs = np.random.RandomState(3)
x = rs.standard_normal((4, 3, 2, 2)).astype("float32")
out = []
for scale, axis, shape in ((1.7, 0, (4, 3, 2, 2)), ([1.5, 2.0, 1.1, 2.4], 0, (4, 3, 2, 2)),
                           ([1.5, 2.0, 1.1], 1, (4, 3, 2, 2)), ([2.2, 1.4, 1.9], 1, (5, 3))):
    w = rs.standard_normal(shape).astype("float32")
    q = utils.quant_tensor(w.copy(), scale, quant_axis=axis)
    q = np.round(q)
    out.append(utils.bias_correction_w(w, q, scale, axis, weight_bits=8).tolist())
"""),
    "utils_tqdm": ("op", "pir", """
import contextlib, io
from paddle.static.quantization import utils
buf = io.StringIO()
with contextlib.redirect_stderr(buf):
    with utils.tqdm(total=3, bar_format="Sampling stage|{bar}", ncols=10) as t:
        for _ in range(3):
            t.update()
out = buf.getvalue()
"""),
    # -- the dygraph channel-wise quanter: _create_tensor + the legacy fake quant op
    "create_tensor_and_channel_wise_qdq": ("op", "pir", """
import numpy as np
from paddle.base.framework import _create_tensor
from paddle import _legacy_C_ops
rs = np.random.RandomState(5)
out = []
for shape, axis, bits in (((4, 3, 2, 2), 0, 8), ((5, 3), 1, 8), ((3, 4, 2), 0, 4)):
    x = paddle.to_tensor(rs.standard_normal(shape).astype("float32"))
    q = _create_tensor(type=x.type, name="inp.quantized.dequantized", shape=x.shape,
                       dtype=x.dtype, persistable=False)
    scale = paddle.full([shape[axis]], 0.001, "float32")
    o, s = _legacy_C_ops.fake_channel_wise_quantize_dequantize_abs_max(
        x, q, scale, "bit_length", bits, "quant_axis", axis)
    out.append([q.name, list(q.shape), str(q.dtype), q.persistable, o.numpy().tolist(),
                s.numpy().tolist(), scale.numpy().tolist()])
"""),
    "channel_wise_qdq_gradient": ("op", "pir", """
import numpy as np
from paddle.base.framework import _create_tensor
x = paddle.to_tensor(np.random.RandomState(6).standard_normal((3, 4)).astype("float32"),
                     stop_gradient=False)
q = _create_tensor(type=x.type, name="g.qdq", shape=x.shape, dtype=x.dtype)
o, _ = paddle._legacy_C_ops.fake_channel_wise_quantize_dequantize_abs_max(
    x, q, paddle.ones([3]), "bit_length", 8, "quant_axis", 0)
(o * paddle.arange(12, dtype="float32").reshape([3, 4])).sum().backward()
out = [o.stop_gradient, x.grad.numpy().tolist()]
"""),
    "create_tensor_default": ("op", "pir", """
from paddle.base.framework import _create_tensor
t = _create_tensor(name="plain_slim2")
v = _create_tensor(dtype=paddle.base.core.VarDesc.VarType.INT64, shape=(3,), persistable=True)
out = [t.name, list(t.shape), str(t.dtype), t.persistable, t.stop_gradient, list(v.shape),
       str(v.dtype), v.persistable]
"""),
    # -- the positional _C_ops entry points PaddleSlim's OFA layers and conv_bn call
    "c_ops_batch_norm_train": ("op", "pir", """
import numpy as np
rs = np.random.RandomState(7)
out = []
for fmt, shape in (("NCHW", (2, 3, 4, 4)), ("NHWC", (2, 4, 4, 3))):
    x = paddle.to_tensor(rs.standard_normal(shape).astype("float32"))
    m, v = paddle.full([3], 0.2), paddle.full([3], 1.5)
    w, b = paddle.to_tensor([1.5, 0.5, -1.0]), paddle.to_tensor([0.1, 0.0, -0.2])
    r = paddle._C_ops.batch_norm(x, m, v, w, b, False, 0.9, 1e-5, fmt, False, False)
    out.append([len(r), r[0].numpy().tolist(), r[1].numpy().tolist(), r[2].numpy().tolist(),
                r[3].numpy().tolist(), r[4].numpy().tolist(), list(r[5].shape),
                m.numpy().tolist(), v.numpy().tolist()])
"""),
    "c_ops_batch_norm_eval": ("op", "pir", """
import numpy as np
x = paddle.to_tensor(np.random.RandomState(8).standard_normal((2, 3, 4)).astype("float32"))
m, v = paddle.to_tensor([0.1, -0.2, 0.3]), paddle.to_tensor([1.0, 2.0, 0.5])
w, b = paddle.ones([3]), paddle.zeros([3])
r = paddle._C_ops.batch_norm(x, m, v, w, b, True, 0.9, 1e-5, "NCHW", False, False)
r2 = paddle._C_ops.batch_norm(x, m, v, w, b, False, 0.9, 1e-5, "NCHW", True, False)
out = [r[0].numpy().tolist(), r[1].numpy().tolist(), r[2].numpy().tolist(),
       r2[0].numpy().tolist(), m.numpy().tolist(), v.numpy().tolist()]
"""),
    "c_ops_layer_norm": ("op", "pir", """
import numpy as np
rs = np.random.RandomState(9)
y = paddle.to_tensor(rs.standard_normal((2, 3, 4)).astype("float32"))
w = paddle.to_tensor(rs.standard_normal(12).astype("float32"))
b = paddle.to_tensor(rs.standard_normal(12).astype("float32"))
a = paddle._C_ops.layer_norm(y, w[:4], b[:4], 1e-5, 2)
c = paddle._C_ops.layer_norm(y, w[:4], b[:4], 1e-5, 2, False)
d = paddle._C_ops.layer_norm(y, w, b, 1e-5, 1)
e = paddle._C_ops.layer_norm(y, None, None, 1e-5, 1)
out = [type(a).__name__, a.numpy().tolist(), c.numpy().tolist(), d.numpy().tolist(),
       e.numpy().tolist()]
"""),
    "c_ops_layer_norm_unpacked_as_paddleslim_does": ("op", "pir", """
import numpy as np
y = paddle.to_tensor(np.ones((2, 3, 4), "float32"))
out, _, _ = paddle._C_ops.layer_norm(y, None, None, 1e-5, 2, False)
"""),
    # -- op roles
    "op_proto_and_checker_maker": ("op", "pir", """
m = paddle.framework.core.op_proto_and_checker_maker
R = m.OpRole
out = [[(n, int(r), str(r), repr(r)) for n, r in R.__members__.items()],
       R.Forward == 0, R.Loss == R.Loss, R(256).name, int(R.Backward) | int(R.Loss),
       m.kOpRoleAttrName(), m.kOpRoleVarAttrName(), m.kOpNameScopeAttrName(),
       m.kOpCreationCallstackAttrName(), m.kOpDeviceAttrName(), m.kOpWithQuantAttrName(),
       paddle.base.core.op_proto_and_checker_maker is m]
"""),
    "op_role_no_or": ("op", "pir", """
m = paddle.framework.core.op_proto_and_checker_maker
m.OpRole.Backward | m.OpRole.Loss
"""),
    # -- paddle.incubate.asp
    "asp_masks": ("op", "pir", """
import numpy as np
from paddle.incubate import asp
rs = np.random.RandomState(2)
out = []
for shape in ((10,), (6, 10), (2, 6, 9), (3, 4, 5, 6)):
    w = rs.standard_normal(shape).astype("float32")
    for algo, check in (("MASK_1D", "CHECK_1D"), ("MASK_2D_GREEDY", "CHECK_2D"),
                        ("MASK_2D_BEST", "CHECK_2D")):
        if algo != "MASK_1D" and len(shape) == 1:
            continue
        mask = asp.create_mask(w, getattr(asp.MaskAlgo, algo), n=2, m=4)
        out.append([algo, list(shape), str(mask.dtype), mask.tolist(),
                    asp.check_sparsity(w * mask, getattr(asp.CheckMethod, check), n=2, m=4),
                    asp.check_sparsity(w, getattr(asp.CheckMethod, check), n=2, m=4),
                    asp.calculate_density(w * mask)])
out.append(asp.create_mask(w, asp.MaskAlgo.MASK_1D, n=1, m=2).tolist())
out.append([asp.calculate_density(np.array([[0.0, 1.0], [2.0, 0.0]])),
            asp.CheckMethod.get_checking_method(asp.MaskAlgo.MASK_2D_BEST).name])
"""),
    "asp_prune_without_masks": ("op", "pir", ASP_NET + """
asp.set_excluded_layers([net.fc2.weight.name])
masks = asp.prune_model(net, n=2, m=4, mask_algo="mask_1d", with_mask=False)
out = [sorted(masks), [asp.calculate_density(p.numpy()) for p in net.parameters()],
       net.conv.weight.numpy().tolist(), float(net(X).sum())]
asp.reset_excluded_layers()
"""),
    "asp_prune_with_mask_undecorated": ("op", "pir", ASP_NET + """
asp.prune_model(paddle.nn.Linear(8, 8), with_mask=True)
"""),
    "asp_prune_bad_algo": ("op", "pir", ASP_NET + """
asp.prune_model(net, mask_algo="mask_3d")
"""),
    "asp_prune_not_a_model": ("op", "pir", ASP_NET + """
asp.prune_model(object())
"""),
    "asp_decorate_train": ("deep", "legacy", ASP_NET + """
opt = paddle.optimizer.Momentum(0.05, momentum=0.9, parameters=net.parameters())
asp.set_excluded_layers([net.fc2.weight.name])
opt = asp.decorate(opt)
masks = asp.prune_model(net, mask_algo="mask_2d_greedy")
# one decorated step: after it Paddle's masked parameters get no gradient any more (see
# tests/test_ecosystem_slim2.py), so later steps are compared there, not here
loss = (net(X) ** 2).mean()
loss.backward()
opt.step()
opt.clear_grad()
losses = [float(loss), float((net(X) ** 2).mean())]
out = [sorted(masks), losses, [asp.calculate_density(p.numpy()) for p in net.parameters()],
       sorted(opt.state_dict())[:4], net.fc1.weight.numpy()[:8].tolist()]
asp.reset_excluded_layers()
"""),
    "asp_static_program": ("deep", "legacy", """
import numpy as np
from paddle.incubate import asp
paddle.enable_static()
try:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 8], "float32")
        h = paddle.nn.functional.relu(paddle.nn.Linear(8, 8)(x))
        out = paddle.nn.Linear(8, 3)(h)
        loss = paddle.mean(out ** 2)
        opt = asp.decorate(paddle.optimizer.SGD(0.1))
        opt.minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    scope = paddle.static.global_scope()
    rs = np.random.RandomState(4)
    names = sorted(p.name for p in main.all_parameters())
    for n in names:
        shape = np.array(scope.find_var(n).get_tensor()).shape
        scope.find_var(n).get_tensor().set(rs.standard_normal(shape).astype("float32"),
                                           paddle.CPUPlace())
    masks = asp.prune_model(main, mask_algo="mask_2d_best")
    xv = rs.standard_normal((4, 8)).astype("float32")
    losses = [float(exe.run(main, feed={"x": xv}, fetch_list=[loss])[0]) for _ in range(3)]
    ws = {n: np.array(scope.find_var(n).get_tensor()) for n in names}
    out = [names, sorted(masks), losses, [asp.calculate_density(ws[n]) for n in names],
           ws["linear_0.w_0"].tolist(), ws["linear_1.w_0.asp_mask"].tolist()]
finally:
    paddle.disable_static()
"""),
    # -- paddle.static.amp
    "static_amp_custom_op_lists": ("op", "pir", """
L = paddle.static.amp.CustomOpLists
out = []
for kw in ({}, {"custom_white_list": ["elementwise_add", "tanh"],
                "custom_black_list": ["matmul_v2", "relu"], "custom_black_varnames": ["fc_0.w_0"]},
           {"custom_white_list": ["layer_norm"], "dtype": "bfloat16"}):
    l = L(**kw)
    out.append([type(l).__name__, l.amp_dtype, sorted(l.white_list), sorted(l.black_list),
                sorted(l.gray_list), l.black_varnames, sorted(kw.get("custom_black_list", []))
                == sorted(set(kw.get("custom_black_list", [])) & l.unsupported_list)])
"""),
    "static_amp_lists_overlap": ("op", "pir", """
paddle.static.amp.CustomOpLists(custom_white_list=["relu"], custom_black_list=["relu"])
"""),
    "static_amp_lists_bad_dtype": ("op", "pir", """
paddle.static.amp.CustomOpLists(dtype="float32")
"""),
    "static_amp_decorate_loss_scaling": ("deep", "legacy",
                                         "KW = {'incr_every_n_steps': 2}\n"
                                         "FEEDS = ['ok', 'ok', 'ok', 'inf', 'inf', 'ok']\n"
                                         + AMP_PROGRAM),
    "static_amp_decorate_fp16_form": ("deep", "legacy",
                                      "KW = {'use_pure_fp16': False, 'decr_every_n_nan_or_inf': 1}\n"
                                      "FEEDS = ['ok', 'inf', 'ok']\n" + AMP_PROGRAM),
    # -- PaddleSlim's static entry (quant_aware/convert, PostTrainingQuantization) starts with
    #    core.Graph(program.desc): a PIR program (Paddle 3.3.1's default) has no desc
    "core_graph_of_pir_program": ("op", "pir", """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.nn.Linear(4, 2)(x)
    paddle.framework.core.Graph(main.desc)
finally:
    paddle.disable_static()
"""),
}


def record(mode):
    doc = {}
    for name, (depth, case_mode, code) in CASES.items():
        if case_mode != mode:
            continue
        case = {"code": code, "depth": depth, "mode": mode}
        try:
            case["value"] = run(code)
        except Exception as e:  # noqa: BLE001 - the exception is the result
            case["error"] = builtin_type(e)
        doc[name] = case
        print(name, "error: " + case["error"] if "error" in case else "ok", file=sys.stderr)
    return doc


def main():
    if sys.argv[1:2] == ["--legacy"]:
        with open(sys.argv[2], "w") as f:
            json.dump(record("legacy"), f)
        return
    env = dict(os.environ, FLAGS_enable_pir_api="0")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "legacy.json")
        subprocess.run([sys.executable, __file__, "--legacy", path], env=env, check=True)
        with open(path) as f:
            legacy = json.load(f)
    doc = record("pir")
    doc.update(legacy)
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
