"""Record Paddle 3.3.1's behaviour of the last internals the ecosystem libraries reach
(issue 30, tools/ecosystem/internals_report.txt): ``core.eager`` (``Tensor``, ``ops``),
``core.AttrType`` / ``core.ProgramDesc`` (VisualDL's graph reader), ``set_prim_eager_enabled``,
``paddle.pir.Value``, ``_C_ops.argsort``, ``paddle.reader``, ``paddle.jit.layer``,
``paddle.incubate.tensor``, ``paddle.incubate.multiprocessing``, ``fleet.auto``,
``parallel_helper``, ``private_helper_function``, ``nn.initializer.constant``.

Paddle has no CPU kernel for some of them (``cal_aux_loss``, ``flash_attn``,
``flash_attn_unpadded``, ``memory_efficient_attention``, ``c_softmax_with_cross_entropy``,
``coalesce_tensor``): for those the case's code runs against ``REFERENCES``, the operation as
Paddle documents it written in Paddle's CPU ops (``cal_aux_loss``: Paddle's own
``math_cal_aux_loss``), installed under the name the case calls.

    cd <repo> && /work/paddle_venv/bin/python tools/goldens/record_ecosystem_internals2.py

Writes tests/goldens/ecosystem_internals2.json: {case: {"code", "depth", "result"}} with
``result`` from tests/golden_utils.py's ``run_case`` (run from the repository root: cases read
tests/data/). tests/test_ecosystem_internals2.py runs the same code on paddle_compat.
"""
import json
import os
import sys

import numpy as np
import paddle

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from golden_utils import run_case  # noqa: E402

OUT = os.path.join(ROOT, "tests", "goldens", "ecosystem_internals2.json")

# float inputs shared by the attention cases: [batch 2, seq 4, heads 2, head_dim 8]
QKV = """
rng = np.random.RandomState(0)
q, k, v = (paddle.to_tensor(rng.standard_normal((2, 4, 2, 8)).astype("float32"))
           for _ in range(3))
"""

CASES = {
    # ---------------------------------------------------------------- core / eager / pir
    "eager_tensor_is_paddle_tensor": ("op", """
from paddle.framework import core
x = paddle.ones([2])
out = [core.eager.Tensor is paddle.Tensor, isinstance(x, core.eager.Tensor),
       isinstance(x, paddle.pir.Value),
       hasattr(core.eager.ops.legacy, "fused_gemm_epilogue"),
       hasattr(core.eager.ops, "argsort"), hasattr(core.eager.ops.legacy, "argsort")]
"""),
    "set_prim_eager_enabled": ("op", """
from paddle.framework import core
before = core._is_eager_prim_enabled()
core.set_prim_eager_enabled(True)
mid = core._is_eager_prim_enabled()
core.set_prim_eager_enabled(False)
out = [before, mid, core._is_eager_prim_enabled()]
"""),
    "run_custom_op_unknown": ("op", """
from paddle.base import core
core.eager._run_custom_op("no_such_custom_op_i30", paddle.ones([2]))
"""),
    "attr_type": ("op", """
from paddle.framework import core
A = core.AttrType
names = ["INT", "INTS", "LONG", "LONGS", "FLOAT", "FLOATS", "FLOAT64", "FLOAT64S", "STRING",
         "STRINGS", "BOOL", "BOOLS", "BLOCK", "BLOCKS", "VAR", "VARS", "SCALAR", "SCALARS"]
out = [[n, int(getattr(A, n)), str(getattr(A, n)), getattr(A, n) == int(getattr(A, n))]
       for n in names]
out.append(len({A.INT: 1, A.FLOAT: 2}))
"""),
    # VisualDL's add_graph walks a program so (graph_component.py)
    "program_desc_visualdl_walk": ("op", """
from paddle.framework import core
out = []
for f in ("mlp", "cnn", "fluid_ops"):
    with open(f"tests/data/model_files/v2/{f}.pdmodel", "rb") as fh:
        desc = core.ProgramDesc(fh.read())
    block = desc.block(0)
    vars_ = []
    for var in block.all_vars():
        try:
            vars_.append([var.name(), var.shape(), str(var.type()), str(var.dtype()),
                          var.persistable()])
        except Exception as e:
            vars_.append([var.name(), type(e).__name__, str(var.type()), var.persistable()])
    ops = []
    for j in range(block.op_size()):
        op = block.op(j)
        ops.append([op.type(), op.inputs(), op.outputs(), op.attr("op_namescope"),
                    sorted(op.attr_names())])
    out.append([desc.num_blocks(), sorted(vars_), ops])
"""),
    "program_desc_op_attrs": ("op", """
from paddle.framework import core
with open("tests/data/model_files/v2/cnn.pdmodel", "rb") as fh:
    desc = core.ProgramDesc(fh.read())     # (Paddle's blocks die with their program)
block = desc.block(0)
out = []
for j in range(block.op_size()):
    op = block.op(j)
    if op.type() in ("conv2d", "pool2d", "batch_norm", "elementwise_add", "softmax", "scale"):
        out.append([op.type()] + [[n, op.attr(n)] for n in sorted(op.attr_names())
                                  if n not in ("op_callstack", "op_namescope", "op_device",
                                               "op_role", "op_role_var", "with_quant_attr")])
"""),
    "program_desc_bad_bytes": ("op", """
from paddle.framework import core
core.ProgramDesc(b"\\x0a\\x05hello-not-a-program")
"""),
    "pir_value_static": ("op", """
paddle.enable_static()
try:
    main = paddle.static.Program()
    with paddle.static.program_guard(main):
        x = paddle.static.data("x", [2, 3], "float32")
        y = x * 2
        out = [isinstance(x, paddle.pir.Value), isinstance(y, paddle.pir.Value)]
finally:
    paddle.disable_static()
"""),
    # ---------------------------------------------------------------- _C_ops / _legacy_C_ops
    "c_ops_argsort_positional": ("op", """
x = paddle.to_tensor([[3.0, 1.0, 2.0, 1.0], [0.5, -1.0, 4.0, 0.5]])
out = [list(paddle._C_ops.argsort(x, 1, True, False)),
       list(paddle._C_ops.argsort(x, 0, False, True)),
       list(paddle._legacy_C_ops.argsort(x, "axis", 1, "descending", True))]
"""),
    # PaddleSeg's Lovasz loss form: only the legacy entry point takes attribute pairs
    "c_ops_argsort_attr_pairs": ("op", """
paddle._C_ops.argsort(paddle.to_tensor([3.0, 1.0]), "axis", 0, "descending", True)
"""),
    "flash_attn_c_op": ("deep", QKV + """
res = paddle._C_ops.flash_attn(q, k, v, None, None, 0.0, False, False, True, "")
res_c = paddle._C_ops.flash_attn(q, k, v, None, None, 0.0, True, True, True, "")
out = [res[0], list(res[1].shape), res[2], res_c[0], res_c[1], res_c[2]]
"""),
    "flash_attn_unpadded": ("deep", QKV + """
from paddle.nn.functional.flash_attention import flash_attn_unpadded
cu = paddle.to_tensor([0, 3, 8], dtype="int32")
qq, kk, vv = (t.reshape([8, 2, 8]) for t in (q, k, v))
o1, s1 = flash_attn_unpadded(qq, kk, vv, cu, cu, 5, 5, 0.3)
o2, _ = flash_attn_unpadded(qq, kk, vv, cu, cu, 5, 5, 0.3, causal=True)
out = [o1, s1, o2]
"""),
    "memory_efficient_attention": ("deep", QKV + """
from paddle.incubate.nn.memory_efficient_attention import memory_efficient_attention
bias = paddle.to_tensor(np.random.RandomState(3).standard_normal((2, 2, 4, 4)).astype("float32"))
out = [memory_efficient_attention(q, k, v), memory_efficient_attention(q, k, v, bias),
       memory_efficient_attention(q, k, v, None, 0.0, 0.5, False)]
"""),
    "c_softmax_with_cross_entropy": ("op", """
from paddle.distributed.fleet.layers.mpu import mp_ops
logits = paddle.to_tensor(np.random.RandomState(4).standard_normal((4, 6)).astype("float32"))
logits.stop_gradient = False
label = paddle.to_tensor([[1], [5], [-100], [0]])
loss, soft = mp_ops._c_softmax_with_cross_entropy(logits, label, return_softmax=True)
loss.sum().backward()
out = [loss, soft, logits.grad,
       mp_ops._c_softmax_with_cross_entropy(logits, paddle.to_tensor([2, 3, 4, 1]))]
"""),
    "c_softmax_with_cross_entropy_bad_label": ("op", """
from paddle.distributed.fleet.layers.mpu import mp_ops
mp_ops._c_softmax_with_cross_entropy(paddle.ones([2, 3, 4]), paddle.ones([2], dtype="int64"))
"""),
    "cal_aux_loss": ("op", """
import paddle.incubate.nn.functional as F
rng = np.random.RandomState(5)
gp = paddle.to_tensor(rng.dirichlet(np.ones(4), size=6).astype("float32"))
gp.stop_gradient = False
dispatch = paddle.to_tensor((rng.rand(6, 4) > 0.5).astype("int64"))
tokens = paddle.to_tensor([1, 1, 1, 0, 1, 1], dtype="int64")
l1, s1, c1 = F.cal_aux_loss(gp, dispatch, tokens, None, 4, False, 2, 1.0)
l1.backward()
l2, s2, c2 = F.cal_aux_loss(gp, dispatch.sum(0), None, None, 4, True, 2, 0.5)
l3, s3, c3 = F.cal_aux_loss(gp, dispatch, tokens, paddle.ones([9]), 4, False, 2, 1.0)
out = [l1, s1, c1, gp.grad, l2, s2, c2, l3, s3, c3]
"""),
    "coalesce_tensor": ("op", """
a = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = paddle.to_tensor([7.0, 8.0])
fused = paddle.zeros([1])
outs, fo = paddle._legacy_C_ops.coalesce_tensor([a, b], [a, b], fused, "copy_data", True,
                                                 "use_align", False, "dtype", a.dtype)
out = [fo, fused, a, b, [o.shape for o in outs]]
"""),
    # ---------------------------------------------------------------- modules
    "incubate_tensor_segments": ("op", """
import paddle.incubate.tensor as it
from paddle.incubate.tensor.math import segment_sum
x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
ids = paddle.to_tensor([0, 0, 1])
out = [segment_sum(x, ids), it.segment_max(x, ids), it.segment_mean(x, ids),
       it.segment_min(x, ids)]
"""),
    "initializer_constant_module": ("op", """
w = paddle.create_parameter([2, 3], "float32",
                            default_initializer=paddle.nn.initializer.constant.Constant(0.25))
out = [w, paddle.nn.initializer.constant.Constant is paddle.nn.initializer.Constant]
"""),
    "parallel_helper_single_process": ("op", """
from paddle.distributed.parallel import parallel_helper
out = [parallel_helper._is_parallel_ctx_initialized(), parallel_helper._is_data_parallel_mode()]
"""),
    "wait_server_ready": ("op", """
from paddle.distributed.fleet.base.private_helper_function import wait_server_ready
out = [wait_server_ready(["127.0.0.1:1", "127.0.0.1:2"])]
"""),
    # (shard_tensor / shard_op: static-graph annotations; Paddle 3.3.1 fails inside them in
    # dynamic mode with an AttributeError, see the test's KNOWN_DIFFERENCES)
    "fleet_auto": ("op", """
from paddle.distributed import fleet
mesh = fleet.auto.create_mesh([("dp", 2), ("mp", 1)])
x = paddle.ones([4, 3])
r = fleet.auto.recompute(lambda t: t * 2)
out = [fleet.auto.get_mesh() is mesh, mesh.shape, mesh.dim_names, mesh.process_ids, r(x),
       fleet.auto.ProcessMesh is paddle.distributed.ProcessMesh]
"""),
    "jit_layer": ("op", """
import os, tempfile
paddle.seed(7)
lin = paddle.nn.Linear(3, 2)
with tempfile.TemporaryDirectory() as d:
    paddle.jit.save(lin, os.path.join(d, "m"),
                    input_spec=[paddle.static.InputSpec([None, 3], "float32")])
    from paddle.jit.layer import Layer
    layer = Layer()
    layer.load(os.path.join(d, "m"), paddle.CPUPlace())
    x = paddle.to_tensor([[1.0, -2.0, 0.5]])
    res = layer.forward(x)
    out = [type(res).__name__, res, sorted(layer.functions), lin(x)]
"""),
    "multiprocessing_reductions": ("op", """
from multiprocessing.reduction import ForkingPickler
import paddle.incubate.multiprocessing as mp
x = paddle.to_tensor([1.0, 2.0, 3.0])
x.stop_gradient = False
y = ForkingPickler.loads(ForkingPickler.dumps(x))
out = [type(y) is paddle.Tensor, y, callable(mp.reductions.init_reductions),
       mp.get_context("spawn").get_start_method()]
"""),
    # ---------------------------------------------------------------- paddle.reader
    "reader_decorators": ("op", """
import random
def r(n, base=0):
    def reader():
        for i in range(n):
            yield base + i
    return reader
R = paddle.reader
random.seed(3)
out = [list(R.cache(r(3))()), list(R.map_readers(lambda a, b: a * 10 + b, r(3), r(4, 5))()),
       list(R.chain(r(2), r(3, 10))()), list(R.compose(r(2), r(2, 5))()),
       list(R.compose(r(2), r(3), check_alignment=False)()),
       list(R.buffered(r(5), 2)()), list(R.firstn(r(10), 4)()),
       list(R.xmap_readers(lambda s: s * s, r(6), 3, 2, order=True)()),
       sorted(R.xmap_readers(lambda s: s + 1, r(6), 2, 4)()),
       list(R.shuffle(r(7), 3)())]
"""),
    "reader_compose_not_aligned": ("op", """
def r(n):
    def reader():
        yield from range(n)
    return reader
list(paddle.reader.compose(r(2), r(3))())
"""),
    "reader_compose_tuples": ("op", """
def pairs():
    yield (1, 2)
    yield (3, 4)
def single():
    yield 9
    yield 8
out = [list(paddle.reader.compose(pairs, single)()),
       issubclass(paddle.reader.ComposeNotAligned, ValueError)]
"""),
}


# --------------------------------------------------------------------------- references
def _ref_attention(q, k, v, scale, bias=None, causal=False):
    """softmax(q k^T * scale + bias) v over [batch, seq, heads, dim] in Paddle's CPU ops;
    also the weights and their log-sum-exp."""
    qt, kt, vt = (paddle.transpose(t, [0, 2, 1, 3]) for t in (q, k, v))
    s = paddle.matmul(qt * scale, kt, transpose_y=True)
    if bias is not None:
        s = s + bias
    if causal:
        n = s.shape[-1]
        s = s + paddle.triu(paddle.full([n, n], -1e4, "float32"), 1)
    w = paddle.nn.functional.softmax(s, -1)
    return paddle.transpose(paddle.matmul(w, vt), [0, 2, 1, 3]), w, paddle.logsumexp(s, -1)


def ref_flash_attn(q, k, v, fixed_seed_offset, attn_mask, dropout, causal, return_softmax,
                   is_test, rng_name):
    o, w, lse = _ref_attention(q, k, v, q.shape[-1] ** -0.5, attn_mask, causal)
    return (o, w if return_softmax else paddle.empty([0]), lse,
            paddle.zeros([2], dtype="int64"))


def ref_flash_attn_unpadded(query, key, value, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
                            max_seqlen_k, scale, dropout=0.0, causal=False,
                            return_softmax=False, *args, **kwargs):
    cu = cu_seqlens_q.numpy().tolist()
    outs = []
    for i in range(len(cu) - 1):
        sl = slice(cu[i], cu[i + 1])
        o, _, _ = _ref_attention(*(t[sl].unsqueeze(0) for t in (query, key, value)), scale,
                                 causal=causal)
        outs.append(o[0])
    return paddle.concat(outs, 0), None


def ref_memory_efficient_attention(query, key, value, attn_bias=None, p=0.0, scale=None,
                                   training=True):
    scale = query.shape[-1] ** -0.5 if scale is None else scale
    return _ref_attention(query, key, value, scale, attn_bias)[0]


def ref_c_softmax_with_cross_entropy(logits, label, group=None, return_softmax=False,
                                     ignore_index=-100):
    if logits.ndim - 1 != label.ndim and logits.ndim != label.ndim:
        raise ValueError("Expected input_dims - 1 = label_dims or input_dims == label_dims")
    if logits.ndim - 1 == label.ndim:
        label = label.unsqueeze(-1)
    loss, soft = paddle.nn.functional.softmax_with_cross_entropy(
        logits, label, ignore_index=ignore_index, return_softmax=True)
    return (loss, soft) if return_softmax else loss


def ref_coalesce_tensor(inputs, outputs, fused, *attrs):
    flat = paddle.concat([paddle.flatten(t) for t in inputs])
    paddle.assign(flat, fused)
    return outputs, fused


def install_references():
    from paddle.distributed.fleet.layers.mpu import mp_ops
    from paddle.incubate.nn.functional.cal_aux_loss import math_cal_aux_loss
    import paddle.incubate.nn.functional as incubate_f
    import paddle.incubate.nn.memory_efficient_attention as mea
    import paddle.nn.functional.flash_attention as fa
    paddle._C_ops.flash_attn = ref_flash_attn
    fa.flash_attn_unpadded = ref_flash_attn_unpadded
    mea.memory_efficient_attention = ref_memory_efficient_attention
    mp_ops._c_softmax_with_cross_entropy = ref_c_softmax_with_cross_entropy
    incubate_f.cal_aux_loss = math_cal_aux_loss
    paddle._legacy_C_ops.coalesce_tensor = ref_coalesce_tensor


def main():
    os.chdir(ROOT)
    install_references()
    doc = {}
    for name, (depth, code) in CASES.items():
        result = run_case(code, paddle)
        doc[name] = {"code": code, "depth": depth, "result": result}
        print(name, str(result)[:150])
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    print(f"wrote {len(doc)} cases to {OUT}")


if __name__ == "__main__":
    main()
