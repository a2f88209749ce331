"""Record Paddle 3.3.1's behaviour for the rest of paddle.incubate (LookAhead, ModelAverage,
DistributedFusedLamb, autograd, the indexed random states, the old graph ops, identity_loss,
FusedDropout), paddle.utils' structure and shape helpers, and paddle.geometric's
reindex_graph / reindex_heter_graph / weighted_sample_neighbors, as goldens for
tests/test_incubate_utils.py.

    /work/paddle_venv/bin/python tools/goldens/record_incubate_utils.py

Writes tests/goldens/incubate_utils.json: {section: {case: {"code", "value"} or {"code",
"error", "message"}}}. Each case is code run with ``paddle`` bound to real Paddle; it leaves
its result in ``out`` (JSON: numbers, strings, lists; ``V(t)`` encodes a tensor as {dtype,
shape, values}, ``R(x)`` is ``repr``). The test runs the same code on paddle_compat.

Left out on purpose (Paddle 3.3.1's CPU kernels abort or hang there; the tests check our
documented behaviour instead): graph_sample_neighbors / weighted_sample_neighbors with
sample_size=-1, graph_khop_sampler with more than one hop or a -1. Random draws of the
samplers are not recorded (Paddle seeds them from std::random_device).
"""
import json
import os
import warnings

import numpy as np
import paddle

warnings.filterwarnings("ignore")
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "goldens",
                   "incubate_utils.json")


def V(t):
    """A tensor as {dtype, shape, values}; lists/tuples of tensors as lists."""
    if isinstance(t, (list, tuple)):
        return [V(u) for u in t]
    if t is None:
        return None
    a = np.asarray(t.numpy())
    return {"dtype": str(t.dtype).replace("paddle.", ""), "shape": list(t.shape),
            "values": a.tolist()}


G = {"paddle": paddle, "np": np, "V": V, "R": repr}


def first_line(e):
    return str(e).strip().split("\n")[0].split(" (at /paddle")[0]


def run(code):
    scope = dict(G)
    try:
        exec(code, scope)
    except Exception as e:  # noqa: BLE001  (recording what Paddle raises)
        return {"code": code, "error": type(e).__name__, "message": first_line(e)}
    return {"code": code, "value": scope.get("out")}


NEST = "import collections\nNT = collections.namedtuple('NT', 'a b')\n" \
       "S = {'b': [1, (2, 3)], 'a': 4, 'c': NT(5, {'z': 6, 'y': 7})}\nU = paddle.utils\n"
UTILS = {
    "flatten": "out = R([U.flatten(S), U.flatten(3), U.flatten('ab'), U.flatten(None), "
               "U.flatten([])])",
    "flatten_unsortable": "U.flatten({1: 2, 'a': 3})",
    "is_sequence": "out = [U.is_sequence(v) for v in ([1], (1,), {}, 'a', {1}, "
                   "paddle.to_tensor([1]), np.zeros(2))]",
    "to_sequence": "out = R([U.to_sequence(3), U.to_sequence([3]), U.to_sequence((3,)), "
                   "U.to_sequence({'a': 1})])",
    "map_structure": "out = R([U.map_structure(lambda x, y: x + y, S, S), "
                     "U.map_structure(lambda x: x * 2, [1, (2,)]), "
                     "U.map_structure(lambda x, y: x, [1, 2], (1, 2))])",
    "map_structure_short": "U.map_structure(lambda x, y: x, [1, 2], [1])",
    "pack": "out = R([U.pack_sequence_as(S, list(range(7))), U.pack_sequence_as(3, [9]), "
            "U.pack_sequence_as([1, [2]], (9, 8)), "
            "U.pack_sequence_as([1, [2]], {'q': 9, 'a': 8})])",
    "pack_count": "U.pack_sequence_as(S, list(range(6)))",
    "pack_scalar": "U.pack_sequence_as(3, [9, 8])",
    "pack_not_seq": "U.pack_sequence_as([1], 9)",
    "same_ok": "out = R([U.assert_same_structure([1, (2,)], [3, (4,)]), "
               "U.assert_same_structure([1, (2,)], [3, [4]], check_types=False), "
               "U.assert_same_structure(1, 2), U.assert_same_structure('ab', 2), "
               "U.assert_same_structure([1, [2]], [3, [4, 5]], "
               "skip_if=lambda x: isinstance(x, list) and len(x) == 1)])",
    "same_type": "U.assert_same_structure([1, (2,)], [3, [4]])",
    "same_nesting": "U.assert_same_structure([1, (2,)], [3, 4])",
    "same_count": "U.assert_same_structure([1, 2], [3])",
    "same_keys": "U.assert_same_structure({'a': 1}, {'b': 1})",
    "same_leaf": "U.assert_same_structure(1, [1])",
    "padding": "out = R([U.padding_to_same_structure([1, (None,)], [3]), "
               "U.padding_to_same_structure([1, (None,)], [None], obj=0), "
               "U.padding_to_same_structure(None, {'a': None, 'b': [None, 2]}, obj=-1)])",
    "copy_mutable": "a = [1, [2, {'x': 3}], (4,)]\nc = U.copy_mutable_vars(a)\n"
                    "out = [R(c), c is a, c[1] is a[1], c[2] is a[2], c[1][1] is a[1][1], "
                    "R(U.copy_mutable_vars(1))]",
    "hold_mutable": "out = [U.hold_mutable_vars(v) for v in ([1, [2]], {'a': [1]}, (1, [2]), "
                    "[1, 2])]",
    "hold_mutable_leaf": "U.hold_mutable_vars(1)",
    "convert_to_list": "out = [U.convert_to_list(3, 2, 'stride'), "
                       "U.convert_to_list((3, 4), 2, 'stride'), "
                       "U.convert_to_list(3.5, 2, 'stride', float), "
                       "U.convert_to_list([1, 2.5], 2, 'stride'), "
                       "U.convert_to_list(True, 2, 'stride')]",
    "convert_to_list_len": "U.convert_to_list((3, 4), 3, 'stride')",
    "convert_to_list_str": "U.convert_to_list('ab', 2, 'stride')",
    "convert_to_list_float": "U.convert_to_list(3.5, 2, 'stride')",
    "convert_to_list_none": "U.convert_to_list(None, 2, 'stride')",
    "convert_to_list_tensor": "U.convert_to_list(paddle.to_tensor(3), 2, 'stride')",
    "convert_to_list_tensor_item": "U.convert_to_list([paddle.to_tensor(3), 1], 2, 'stride')",
    "convert_to_list_tensor_is_typeerror": "try:\n    U.convert_to_list(paddle.to_tensor(3), "
                                           "2, 'k')\nexcept TypeError as e:\n"
                                           "    out = [type(e).__name__, e.name]",
    "convert_shape_to_list": "out = [U.convert_shape_to_list([1, paddle.to_tensor([3]), "
                             "paddle.to_tensor([], dtype='int64'), 2]), "
                             "U.convert_shape_to_list((1, 2)), "
                             "U.convert_shape_to_list(paddle.to_tensor([2, 3])), "
                             "U.convert_shape_to_list(paddle.to_tensor([2., 3.5]))]",
    "check_shape_ok": "out = [U.check_shape([1, 2]), U.check_shape(paddle.to_tensor([1])), "
                      "U.check_shape(paddle.to_tensor([1.])), "
                      "U.check_shape([paddle.to_tensor(1.)]), U.check_shape(3)]",
    "check_shape_negative": "U.check_shape([1, -2])",
    "check_shape_float": "U.check_shape([1, 2.0])",
    "check_shape_str": "U.check_shape((1, 'a'))",
    "int_tensor_list": "out = [V(U.get_int_tensor_list([1, 2])), "
                       "V(U.get_int_tensor_list([1, 2], 'int32')), "
                       "V(U.get_int_tensor_list([paddle.to_tensor([1])])), "
                       "V(U.get_int_tensor_list([1.5, -2.7]))]",
    "shape_tensor_inputs": "def gs(shape):\n    i, a = {}, {}\n"
                           "    U.get_shape_tensor_inputs(i, a, shape, 'fill_constant')\n"
                           "    return [{k: V(v) for k, v in i.items()}, a]\n"
                           "out = [gs([1, 2]), gs((1, paddle.to_tensor(2))), "
                           "gs(paddle.to_tensor([1, 2])), gs([paddle.to_tensor(2.5)]), "
                           "gs(paddle.to_tensor([1., 2]))]",
    "shape_tensor_inputs_int": "U.get_shape_tensor_inputs({}, {}, 3, 'fill_constant')",
    "constant_shape_dygraph": "out = U.try_get_constant_shape_from_tensor("
                              "paddle.to_tensor([1, 2]))",
    "is_same_shape": "out = [U.is_same_shape([1, 2], [1, 2]), U.is_same_shape([1, 2], (1, 2)), "
                     "U.is_same_shape([-1, 2], [1, 2])]",
    "strtobool": "out = [U.strtobool(s) for s in ('Y', 'yes', 'on', '1', 't', 'TRUE', '0', "
                 "'OFF', 'n', 'f', 'no', 'false')]",
    "strtobool_bad": "U.strtobool('x')",
    "strtobool_empty": "U.strtobool('')",
    "strtobool_int": "U.strtobool(1)",
    "dl_device_type": "d = U.dlpack.DLDeviceType\nout = [[m.name, int(m)] for m in d] + "
                      "[issubclass(d, int), d(1).name, "
                      "paddle.to_tensor(1).__dlpack_device__()[0] == d.kDLCPU]",
    "support_dlpack": "out = sorted(m for m in vars(U.dlpack.SupportDLPack) "
                      "if m.startswith('__dl'))",
    "support_dlpack_isinstance": "isinstance(paddle.to_tensor(1), U.dlpack.SupportDLPack)",
    "checkpoint_checker": "out = U.OpLastCheckpointChecker().filter_updates('not_an_op')",
}

GRAPH = "x = paddle.to_tensor([0, 1, 2], dtype='int64')\n" \
        "nb = paddle.to_tensor([8, 9, 0, 4, 7, 6, 7], dtype='int64')\n" \
        "cnt = paddle.to_tensor([2, 3, 2], dtype='int32')\n" \
        "nb_b = paddle.to_tensor([0, 2, 3, 5, 1], dtype='int64')\n" \
        "cnt_b = paddle.to_tensor([1, 3, 1], dtype='int32')\n" \
        "row = paddle.to_tensor([3, 7, 0, 9, 1, 4, 2, 9, 3, 9, 1, 9, 7], dtype='int64')\n" \
        "colptr = paddle.to_tensor([0, 2, 4, 5, 6, 7, 9, 11, 11, 13, 13], dtype='int64')\n" \
        "nodes = paddle.to_tensor([0, 8, 1, 2], dtype='int64')\n" \
        "eids = paddle.arange(13, dtype='int64') + 100\n" \
        "w = paddle.to_tensor([.1, .5, 1., 2., .3, .3, .3, 5., .1, .1, .1, .1, 1.])\n" \
        "G = paddle.geometric\nI = paddle.incubate\n"
GEOMETRIC = {
    "reindex": "out = V(G.reindex_graph(x, nb, cnt))",
    "reindex_int32": "out = V(G.reindex_graph(paddle.to_tensor([5, 3], dtype='int32'), "
                     "paddle.to_tensor([3, 7, 5, 5, 1], dtype='int32'), "
                     "paddle.to_tensor([3, 2], dtype='int32')))",
    "reindex_empty": "out = V(G.reindex_graph(x, paddle.to_tensor([], dtype='int64'), "
                     "paddle.to_tensor([0, 0, 0], dtype='int32')))",
    "reindex_count_int64": "G.reindex_graph(x, nb, paddle.to_tensor([2, 3, 2]))",
    "reindex_float_neighbors": "G.reindex_graph(x, nb.astype('float32'), cnt)",
    "reindex_heter": "out = V(G.reindex_heter_graph(x, [nb, nb_b], [cnt, cnt_b]))",
    "reindex_heter_one": "out = V(G.reindex_heter_graph(x, [nb], [cnt]))",
    "weighted_all": "out = V(G.weighted_sample_neighbors(row, colptr, w, nodes, sample_size=5, "
                    "eids=eids, return_eids=True))",
    "weighted_counts": "r = G.weighted_sample_neighbors(row, colptr, w, nodes, sample_size=1)\n"
                       "out = [V(r[1]), r[0].shape, str(r[0].dtype)]",
    "weighted_int32": "r = G.weighted_sample_neighbors(row.astype('int32'), "
                      "colptr.astype('int32'), w, nodes.astype('int32'), sample_size=1)\n"
                      "out = [str(r[0].dtype), V(r[1])]",
    "weighted_no_eids": "G.weighted_sample_neighbors(row, colptr, w, nodes, sample_size=1, "
                        "return_eids=True)",
    "graph_reindex": "out = V(I.graph_reindex(x, nb, cnt))",
    "graph_reindex_flag": "I.graph_reindex(x, nb, cnt, flag_buffer_hashtable=True)",
    "graph_send_recv_max": "out = V(I.graph_send_recv(paddle.to_tensor([[0., 2, 3], [1, 4, 5], "
                           "[2, 6, 7]]), paddle.to_tensor([0, 1, 2, 0], dtype='int32'), "
                           "paddle.to_tensor([1, 2, 1, 0], dtype='int32'), pool_type='max'))",
    "graph_send_recv_mean": "out = V(I.graph_send_recv(paddle.to_tensor([[0., 2, 3], "
                            "[1, 4, 5], [2, 6, 7]]), paddle.to_tensor([0, 1, 2, 0], "
                            "dtype='int32'), paddle.to_tensor([1, 2, 1, 0], dtype='int32'), "
                            "pool_type='mean'))",
    "graph_send_recv_pool": "I.graph_send_recv(paddle.to_tensor([[0., 2, 3]]), "
                            "paddle.to_tensor([0], dtype='int32'), "
                            "paddle.to_tensor([0], dtype='int32'), pool_type='prod')",
    "graph_sample_all": "out = V(I.graph_sample_neighbors(row, colptr, nodes, eids=eids, "
                        "sample_size=2, return_eids=True))",
    "graph_sample_counts": "r = I.graph_sample_neighbors(row, colptr, nodes, sample_size=1)\n"
                           "out = [V(r[1]), r[0].shape]",
    "graph_sample_no_eids": "I.graph_sample_neighbors(row, colptr, nodes, sample_size=2, "
                            "return_eids=True)",
    "graph_sample_perm": "I.graph_sample_neighbors(row, colptr, nodes, sample_size=2, "
                         "flag_perm_buffer=True)",
    "khop_one_hop": "out = V(I.graph_khop_sampler(row, colptr, nodes, [5]))",
    "khop_one_hop_eids": "out = V(I.graph_khop_sampler(row, colptr, nodes, [5], "
                         "sorted_eids=eids, return_eids=True))",
    "khop_no_eids": "I.graph_khop_sampler(row, colptr, nodes, [5], return_eids=True)",
}

INCUBATE = {
    "rng_index": "I = paddle.incubate\nr = lambda: paddle.rand([1]).item()\npaddle.seed(3)\n"
                 "out = [I.get_rng_state(use_index=True)]\nout.append(r())\n"
                 "out.append(I.register_rng_state_as_index())\n"
                 "out.append(I.get_rng_state(use_index=True))\nout += [r(), r()]\n"
                 "I.set_rng_state([0], use_index=True)\nout.append(r())\n"
                 "I.set_rng_state([1], use_index=True)\nout.append(r())\n"
                 "paddle.seed(3)\ns = I.get_rng_state()\n"
                 "out.append(I.register_rng_state_as_index([s[0]]))\nout.append(r())\n"
                 "paddle.seed(7)\nout.append(r())\nI.set_rng_state([0], use_index=True)\n"
                 "out.append(r())\nout.append(len(I.get_rng_state()))",
    "rng_state_roundtrip": "paddle.seed(5)\ns = paddle.incubate.get_rng_state()\n"
                           "a = paddle.rand([3]).numpy().tolist()\n"
                           "paddle.incubate.set_rng_state(s)\n"
                           "out = [a == paddle.rand([3]).numpy().tolist(), len(s)]",
    "rng_state_len": "paddle.incubate.set_rng_state([1, 2])",
    "rng_register_len": "s = paddle.incubate.get_rng_state()\n"
                        "paddle.incubate.register_rng_state_as_index([s[0], s[0]])",
    "identity_loss": "I = paddle.incubate\nx = paddle.to_tensor([1., 2., 3.])\n"
                     "out = [V(I.identity_loss(x, r)) for r in ('sum', 'mean', 'none', 0, 1, 2)]"
                     " + [V(I.identity_loss(paddle.to_tensor([[1., 2.], [3., 4.]], "
                     "dtype='float64'), 'mean'))]",
    "identity_loss_grad": "x = paddle.to_tensor([1., 2., 3.], stop_gradient=False)\n"
                          "paddle.incubate.identity_loss(x * 2, 'mean').backward()\n"
                          "out = V(x.grad)",
    "identity_loss_bad": "paddle.incubate.identity_loss(paddle.to_tensor([1.]), 'x')",
    "fused_dropout": "paddle.seed(11)\nx = paddle.ones([4, 6])\n"
                     "d = paddle.incubate.nn.FusedDropout(p=0.5)\n"
                     "a = d(x)\nd.eval()\nb = d(x)\n"
                     "d2 = paddle.incubate.nn.FusedDropout(p=0.25)\nc = d2(x)\n"
                     "d2.eval()\n"
                     "out = [V(a), V(b), V(c), V(d2(x))]",
    "fused_dropout_axis": "paddle.incubate.nn.FusedDropout(p=0.5, axis=1)(paddle.ones([4, 6]))",
    "fused_dropout_downscale_mode": "paddle.incubate.nn.FusedDropout(p=0.5, "
                                    "mode='downscale_in_infer')",
    "fused_dropout_bad_p": "paddle.incubate.nn.FusedDropout(p=1.5)",
    "fused_dropout_bad_mode": "paddle.incubate.nn.FusedDropout(p=0.5, mode='x')",
    "dist_fused_lamb_dygraph": "paddle.incubate.DistributedFusedLamb("
                               "parameters=paddle.nn.Linear(2, 2).parameters())",
}

OPT_PRELUDE = """
class M:
    def __init__(self):
        self.weight = paddle.create_parameter([3, 2], 'float64')
        self.bias = paddle.create_parameter([2], 'float64')
        self.weight.set_value(np.array([[.1, -.2], [.3, .4], [-.5, .6]]))
        self.bias.set_value(np.array([.05, -.05]))
    def parameters(self):
        return [self.weight, self.bias]
    def __call__(self, x):
        return paddle.matmul(x, self.weight) + self.bias
X = paddle.to_tensor(np.linspace(-1, 1, 12).reshape(4, 3), dtype='float64')
def loss_of(m):
    return (m(X) ** 2).mean()
m = M()
sgd = paddle.optimizer.SGD(0.125, parameters=m.parameters())
"""
OPTIMIZER = {
    "lookahead": "la = paddle.incubate.LookAhead(sgd, alpha=0.5, k=3)\nout = []\n"
                 "for i in range(7):\n    loss_of(m).backward()\n    la.step()\n"
                 "    la.clear_grad()\n    out.append(V(m.weight)['values'] + "
                 "V(m.bias)['values'])\nout.append(sorted(la.state_dict()))",
    "lookahead_alpha02_k2": "la = paddle.incubate.LookAhead(sgd, alpha=0.2, k=2)\nout = []\n"
                            "for i in range(5):\n    loss_of(m).backward()\n    la.step()\n"
                            "    la.clear_grad()\n    out.append(V(m.weight)['values'])",
    "lookahead_minimize_without_backward": "la = paddle.incubate.LookAhead(sgd, alpha=0.2, k=2)"
                                           "\nfor i in range(5):\n"
                                           "    la.minimize(loss_of(m))\n"
                                           "out = V(m.weight)",
    "lookahead_alpha": "paddle.incubate.LookAhead(sgd, alpha=1.5)",
    "lookahead_k": "paddle.incubate.LookAhead(sgd, k=0)",
    "lookahead_none": "paddle.incubate.LookAhead(None)",
    "model_average": "ma = paddle.incubate.ModelAverage(0.15, parameters=m.parameters(), "
                     "min_average_window=2, max_average_window=4)\nout = []\n"
                     "for i in range(9):\n    loss_of(m).backward()\n    sgd.step()\n"
                     "    ma.step()\n    sgd.clear_grad()\n"
                     "    with ma.apply(need_restore=True):\n"
                     "        a = V(m.weight)['values'] + V(m.bias)['values']\n"
                     "    out.append([a, V(m.weight)['values']])\n"
                     "with ma.apply(need_restore=False):\n    pass\n"
                     "out.append(V(m.weight)['values'])",
    "model_average_apply_without_with": "ma = paddle.incubate.ModelAverage(0.15, "
                                        "parameters=m.parameters(), min_average_window=2, "
                                        "max_average_window=4)\nma.apply()\n"
                                        "out = V(m.weight)",
    "model_average_restore_before_step": "ma = paddle.incubate.ModelAverage(0.15, "
                                         "parameters=m.parameters())\nma.restore()",
}
OPTIMIZER = {k: OPT_PRELUDE + v for k, v in OPTIMIZER.items()}

AG = "A = paddle.incubate.autograd\n" \
     "x = paddle.to_tensor([[1., 2.], [3., 4.]], dtype='float64')\n" \
     "y = paddle.to_tensor([0.5, -1.], dtype='float64')\n" \
     "f = lambda x: paddle.sin(x) * x\n" \
     "mm = lambda a, b: paddle.matmul(a, b)\n"
AUTOGRAD = {
    "jacobian": "J = A.Jacobian(f, x)\nout = [list(J.shape), V(J[:]), V(J[1]), V(J[1, 2:]), "
                "V(J[0, 1]), V(J[::2, 1:3])]",
    "jacobian_two_inputs": "J = A.Jacobian(mm, [x, y])\nout = [list(J.shape), V(J[:])]",
    "jacobian_batched": "J = A.Jacobian(f, x, is_batched=True)\nout = [list(J.shape), V(J[:]), "
                        "V(J[0])]",
    "jacobian_batched_reduce": "out = V(A.Jacobian(lambda a: a.sum(axis=1), x, "
                               "is_batched=True)[:])",
    "jacobian_two_outputs": "out = V(A.Jacobian(lambda a: (a * 2, a.sum()), x)[:])",
    "jacobian_scalar_output": "out = V(A.Jacobian(lambda a: a.sum(), x)[:])",
    "jacobian_stop_gradient": "out = A.Jacobian(f, x)[:].stop_gradient",
    "hessian": "H = A.Hessian(lambda a: (a ** 3).sum(), x)\nout = [list(H.shape), V(H[:])]",
    "hessian_two_inputs": "out = V(A.Hessian(lambda a, b: (paddle.matmul(a, b) ** 2).sum(), "
                          "[x, y])[:])",
    "hessian_batched": "H = A.Hessian(lambda a: (a ** 3).sum(axis=1), x, is_batched=True)\n"
                       "out = [list(H.shape), V(H[:])]",
    "hessian_not_scalar": "A.Hessian(lambda a: a ** 3, x)[:]",
    "vjp": "out = [V(A.vjp(f, x)), V(A.vjp(f, x, paddle.ones_like(x) * 2)), "
           "V(A.vjp(mm, [x, y]))]",
    "jvp": "out = [V(A.jvp(f, x)), V(A.jvp(f, x, paddle.ones_like(x) * 2)), "
           "V(A.jvp(mm, [x, y], [paddle.ones_like(x), paddle.ones_like(y)]))]",
    "vjp_bad_shape": "A.vjp(f, x, paddle.ones([3]))",
    "vjp_bad_len": "A.vjp(f, x, [paddle.ones([2, 2], 'float64'), paddle.ones([2, 2], "
                   "'float64')])",
    "prim_enabled_dygraph": "A.prim_enabled()",
    "enable_prim_dygraph": "A.enable_prim()",
    "grad_dygraph": "xg = paddle.to_tensor([1., 2.], stop_gradient=False)\n"
                    "A.grad(paddle.sin(xg), xg)",
    "forward_grad_dygraph": "xg = paddle.to_tensor([1., 2.], stop_gradient=False)\n"
                            "A.forward_grad(paddle.sin(xg), xg)",
    "prim2orig_dygraph": "A.prim2orig()",
    "prim_static": "paddle.enable_static()\ntry:\n    out = [A.prim_enabled()]\n"
                   "    A.enable_prim()\n    out.append(A.prim_enabled())\n"
                   "    A.disable_prim()\n    out.append(A.prim_enabled())\n"
                   "finally:\n    paddle.disable_static()",
}

SECTIONS = {"utils": (NEST, UTILS), "geometric": (GRAPH, GEOMETRIC),
            "incubate": ("", INCUBATE), "optimizer": ("", OPTIMIZER),
            "autograd": (AG, AUTOGRAD)}


def main():
    out = {}
    for section, (prelude, cases) in SECTIONS.items():
        out[section] = {}
        for name, code in cases.items():
            out[section][name] = run(prelude + code)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote", os.path.normpath(OUT), sum(len(v) for v in out.values()), "cases")


if __name__ == "__main__":
    main()
