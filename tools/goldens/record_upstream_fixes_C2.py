"""Record Paddle 3.3.1's behaviour that its autograd / PyLayer / hook / optimizer test files
(issue 31, slice C: tools/upstream/table_C.txt) rely on and paddle_compat fixed for them.

    /work/paddle_venv/bin/python tools/goldens/record_upstream_fixes_C2.py

Writes tests/goldens/upstream_fixes_C2.json: {case: {"code": ..., "value": ...} or
{"code": ..., "error": type name}}; tests/test_upstream_fixes_C2.py runs the same code on
paddle_compat (tests/code_cases.py). Each case leaves its result in ``out`` (plain JSON values)
and puts back any global state it changed.
"""
import os

import paddle
from case_recorder import record  # (tools/goldens/case_recorder.py)

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "upstream_fixes_C2.json")

CASES = {
    # dygraph initializers draw with the legacy program's seed (test_imperative_double_grad's
    # ResNet twins): a private engine per parameter, so equal shapes get equal values
    "legacy_program_seed_initializers": """
with paddle.pir_utils.OldIrGuard():
    paddle.framework.random._manual_program_seed(123)
out = []
for init in [paddle.nn.initializer.Normal(), paddle.nn.initializer.Uniform(),
             paddle.nn.initializer.KaimingNormal(), paddle.nn.initializer.XavierUniform(),
             paddle.nn.initializer.TruncatedNormal()]:
    a = paddle.create_parameter([3, 4], 'float32', default_initializer=init)
    b = paddle.create_parameter([5, 4], 'float32', default_initializer=init)
    out.append([a.numpy().ravel()[:4].tolist(), b.numpy().ravel()[:4].tolist()])
l1, l2 = paddle.nn.Linear(3, 4), paddle.nn.Linear(3, 4)
out.append(bool((l1.weight.numpy() == l2.weight.numpy()).all()))
with paddle.pir_utils.OldIrGuard():
    paddle.framework.random._manual_program_seed(0)
l1, l2 = paddle.nn.Linear(3, 4), paddle.nn.Linear(3, 4)
out.append(bool((l1.weight.numpy() == l2.weight.numpy()).all()))
""",
    # outside OldIrGuard the seed goes to the PIR programs: dygraph initializers ignore it
    "pir_program_seed_leaves_initializers": """
paddle.framework.random._manual_program_seed(123)
l1, l2 = paddle.nn.Linear(3, 4), paddle.nn.Linear(3, 4)
out = bool((l1.weight.numpy() == l2.weight.numpy()).all())
paddle.framework.random._manual_program_seed(0)
""",
    # the seed sticks to an initializer that drew with it (Paddle stores it)
    "legacy_program_seed_sticks": """
init = paddle.nn.initializer.Normal()
with paddle.pir_utils.OldIrGuard():
    paddle.framework.random._manual_program_seed(123)
a = paddle.create_parameter([3], 'float32', default_initializer=init)
with paddle.pir_utils.OldIrGuard():
    paddle.framework.random._manual_program_seed(0)
b = paddle.create_parameter([3], 'float32', default_initializer=init)
out = [a.numpy().tolist(), b.numpy().tolist()]
""",
    "truncated_normal_initializer_seed": """
init = paddle.nn.initializer.TruncatedNormalInitializer(seed=5)
out = paddle.create_parameter([4], 'float32', default_initializer=init).numpy().tolist()
""",
    # the clip op type: Min/Max input slots and min/max attributes (OpTest's clip cases)
    "clip_op_slots_and_attrs": """
from paddle.base.framework import OpProtoHolder
proto = OpProtoHolder.instance().get_op_proto('clip')
out = [[i.name for i in proto.inputs], sorted(a.name for a in proto.attrs
                                              if a.name in ('min', 'max'))]
""",
    "clip_op_min_max_inputs": """
paddle.enable_static()
try:
    with paddle.pir_utils.OldIrGuard():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data('X', [2, 3], 'float32')
            mx = paddle.static.data('Max', [1], 'float32')
            blk = main.global_block()
            o = blk.create_var(name='Out', dtype='float32', shape=[2, 3])
            blk.append_op(type='clip', inputs={'X': x, 'Max': mx}, outputs={'Out': o},
                          attrs={'min': 0.2, 'max': 0.9})
        exe = paddle.static.Executor(paddle.CPUPlace())
        xv = np.array([[0.1, 0.3, 0.5], [0.7, 0.9, 1.1]], 'float32')
        out = exe.run(main, feed={'X': xv, 'Max': np.array([0.6], 'float32')},
                      fetch_list=[o])[0].tolist()
finally:
    paddle.disable_static()
""",
    # paddle.clip's argument checks while a program is built, and in dygraph
    "clip_static_argument_errors": """
paddle.enable_static()
out = []
try:
    with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
        for make in [lambda: np.ones([2, 4], 'float32'),
                     lambda: paddle.static.data('x1', [1], 'int16'),
                     lambda: paddle.static.data('x2', [1], 'int8'),
                     lambda: paddle.static.data('x3', [1], 'float16')]:
            try:
                paddle.clip(make(), 0.2, 0.8)
                out.append('ok')
            except Exception as e:
                out.append([type(e).__name__, str(e).split(' (at ')[0].replace('numpy.', '')])
finally:
    paddle.disable_static()
try:
    paddle.clip(np.ones(3, 'float32'), 0.0, 1.0)
except Exception as e:
    out.append([type(e).__name__, str(e).split(' (at ')[0].replace('numpy.', '')])
""",
    # paddle.nn.clip.clip_by_norm (OpTest's clip_by_norm cases)
    "clip_by_norm_values": """
from paddle.nn import clip
x = paddle.to_tensor([[2.0, 2.0], [2.0, 2.0]])
out = [clip.clip_by_norm(x, 1.0).numpy().tolist(), clip.clip_by_norm(x, 10.0).numpy().tolist(),
       clip.clip_by_norm(paddle.zeros([3]), 1.0).numpy().tolist()]
""",
    # one step of Paddle's optimizer kernels through _C_ops.<type>_ (in place)
    "optimizer_kernels_in_place": """
C = paddle._C_ops
rs = np.random.RandomState(3)
def T(*shape, lo=-1.0, hi=1.0):
    return paddle.to_tensor(rs.uniform(lo, hi, shape).astype('float32'))
out = {}
p, g, lr = T(2, 3), T(2, 3), paddle.to_tensor([0.1])
C.sgd_(p, lr, g, None, False)
out['sgd'] = p.numpy().tolist()
p, g, a, b = T(2, 3), T(2, 3), T(2, 3, lo=0.1), T(2, 3, lo=0.1)
C.adadelta_(p, g, a, b, lr, None, 0.9, 1e-6, False)
out['adadelta'] = [p.numpy().tolist(), a.numpy().tolist(), b.numpy().tolist()]
p, g, m = T(2, 3), T(2, 3), T(2, 3, lo=0.1)
C.adagrad_(p, g, m, lr, None, 1e-6, False)
out['adagrad'] = [p.numpy().tolist(), m.numpy().tolist()]
p, g, m, u = T(2, 3), T(2, 3), T(2, 3), T(2, 3, lo=0.1)
C.adamax_(p, g, lr, m, u, paddle.to_tensor([0.81]), None, 0.9, 0.99, 1e-5, False)
out['adamax'] = [p.numpy().tolist(), m.numpy().tolist(), u.numpy().tolist()]
p, g, d, y = T(2, 3), T(2, 3), T(2, 3), T(2, 3)
C.asgd_(p, g, lr, d, y, paddle.to_tensor([4.0]), None, False)
out['asgd'] = [p.numpy().tolist(), d.numpy().tolist(), y.numpy().tolist()]
p, g, prev, plr = T(2, 3), T(2, 3), T(2, 3), T(2, 3, lo=0.01, hi=0.05)
C.rprop_(p, g, prev, plr, None, paddle.to_tensor([0.02, 0.04]), paddle.to_tensor([0.5, 1.2]),
         False)
out['rprop'] = [p.numpy().tolist(), prev.numpy().tolist(), plr.numpy().tolist()]
p, g, m1, m2 = T(2, 3), T(2, 3), T(2, 3), T(2, 3, lo=0.1)
b1p, b2p = paddle.to_tensor([0.9]), paddle.to_tensor([0.99])
C.lamb_(p, g, lr, m1, m2, b1p, b2p, None, None, 0.01, 0.9, 0.99, 1e-6, False, False)
out['lamb'] = [p.numpy().tolist(), m1.numpy().tolist(), m2.numpy().tolist(),
               b1p.numpy().tolist(), b2p.numpy().tolist()]
# nadam and radam on one element: Paddle's CPU kernels read their [1] accumulators at every
# element's index (values past element 0 are whatever memory holds)
p, g, m1, m2 = T(1), T(1), T(1), T(1, lo=0.1)
mdp, b2p, mu = paddle.to_tensor([0.9]), paddle.to_tensor([0.99]), paddle.to_tensor([0.8])
C.nadam_(p, g, lr, mdp, b2p, mu, m1, m2, None, 0.9, 0.99, 1e-8, 0.004, False)
out['nadam'] = [p.numpy().tolist(), mdp.numpy().tolist(), b2p.numpy().tolist(),
                mu.numpy().tolist(), m1.numpy().tolist(), m2.numpy().tolist()]
for steps in (1, 8):     # the 8th step takes the rectified branch
    p, g, m1, m2 = T(1), T(1), T(1), T(1, lo=0.1)
    b1p, b2p, rho = paddle.to_tensor([1.0]), paddle.to_tensor([1.0]), paddle.to_tensor([0.0])
    for _ in range(steps):
        C.radam_(p, g, lr, b1p, b2p, rho, m1, m2, None, 0.9, 0.99, 1e-8, False)
    out[f'radam{steps}'] = [p.numpy().tolist(), b1p.numpy().tolist(), rho.numpy().tolist(),
                            m1.numpy().tolist(), m2.numpy().tolist()]
""",
    # static gradients of gradients: a creation op's Variable as target_gradients, a zeros_like
    # result made a gradient source (test_calc_gradient's TestDoubleGradient)
    "static_double_gradient_through_seed": """
paddle.enable_static()
try:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data('x', shape=[2, 2])
        x.stop_gradient = False
        y = x * x
        v = paddle.ones([2, 2])
        v.stop_gradient = False
        grad_y = paddle.zeros_like(y)
        sg = grad_y.stop_gradient
        grad_y.stop_gradient = False
        grad_x = paddle.static.gradients(y, x, grad_y)
        jvp = paddle.static.gradients(grad_x, grad_y, v)
    exe = paddle.static.Executor()
    exe.run(startup)
    res = exe.run(main, feed={'x': np.full([2, 2], 3.0, 'float32')}, fetch_list=[grad_x, jvp])
    out = [sg] + [r.tolist() for r in res]
finally:
    paddle.disable_static()
""",
    # static-graph optimizer wrappers refused in dygraph (test_imperative_optimizer_v2)
    "pipeline_recompute_refused_in_dygraph": """
out = []
for cls in (paddle.incubate.optimizer.PipelineOptimizer,
            paddle.incubate.optimizer.RecomputeOptimizer):
    try:
        cls(paddle.optimizer.SGD(0.5, parameters=paddle.nn.Linear(2, 2).parameters()))
        out.append('ok')
    except Exception as e:
        out.append([type(e).__name__, str(e)])
""",
    "pure_fp16_global_norm_clip_switch": """
from paddle.nn.clip import _allow_pure_fp16_global_norm_clip, _allow_pure_bf16_global_norm_clip
out = [_allow_pure_fp16_global_norm_clip(), _allow_pure_fp16_global_norm_clip(True),
       _allow_pure_fp16_global_norm_clip(), _allow_pure_fp16_global_norm_clip(False),
       _allow_pure_bf16_global_norm_clip()]
""",
    # Adam's L2 weight_decay with a sparse embedding's gradient (test_adam_op)
    "adam_weight_decay_sparse_refused": """
emb = paddle.nn.Embedding(10, 4, sparse=True)
x = paddle.to_tensor(np.arange(10).reshape([10, 1]).astype('int64'))
out = []
for opt in (paddle.optimizer.Adam(0.001, parameters=emb.parameters(), weight_decay=0.01),
            paddle.optimizer.Adam(0.001, parameters=emb.parameters())):
    try:
        emb(x).sum().backward()
        opt.step()
        out.append('ok')
    except Exception as e:
        out.append([type(e).__name__, str(e)])
    opt.clear_grad()
""",
    # a gradient's in-place version: one per scale_, and _reset_grad_inplace_version's
    # default (True) resets it, False leaves it (test_reset_grad_inplace_version)
    "reset_grad_inplace_version_default": """
w = paddle.to_tensor(np.ones([1, 1]), 'float32', stop_gradient=False)
paddle._legacy_C_ops.scale(w, 'scale', 0.1).backward()
out = []
with paddle.no_grad():
    w.grad.scale_(scale=0.5)
    out.append(w.grad._inplace_version())
    w._reset_grad_inplace_version(False)
    out.append(w.grad._inplace_version())
    w.grad.scale_(scale=0.5, bias=1.0)
    out.append(w.grad._inplace_version())
    w._reset_grad_inplace_version()
    out += [w.grad._inplace_version(), w.grad.numpy().tolist()]
""",
}


def main():
    record(CASES, paddle, OUT, "upstream_C2_")


if __name__ == "__main__":
    main()
