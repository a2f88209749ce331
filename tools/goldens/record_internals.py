"""Record Paddle 3.3.1's semi-public internals that the ecosystem libraries reach (see
tools/ecosystem/scan_internals.py) as goldens for tests/test_internals.py: ``_legacy_C_ops``
entry points with flat attributes (argsort, multiclass_nms3, matrix_nms, box_coder,
prior_box), ``Tensor._copy_to``, ``paddle.framework.io``'s private loaders,
``_convert_attention_mask``, ``amp_state``, ``LayerHelper`` in dynamic mode,
``non_static_only``, ``in_declarative_mode``, ``_get_unique_endpoints``,
``paddle.dataset.common.md5file``, ``ParamAttr._to_attr``, the ``paddle.where`` message for a
float condition, and a recognizer-shaped model saved by ``paddle.jit.save`` (dynamic width
through ``avg_pool2d``, ``hardtanh(0, 1)``): its files and outputs.

    /work/paddle_venv/bin/python tools/goldens/record_internals.py

Writes tests/goldens/internals.json: {case: {"code": ..., "value": ...} or {"code": ...,
"error": type name, "message": first line}}; ``value`` is the case's ``out`` (tensors as
``[dtype, shape, values]``). The tests run the same code on paddle_compat with ``import
paddle`` resolving to it.
"""
import base64
import json
import os
import tempfile
import warnings

import numpy as np

warnings.filterwarnings("ignore")
import paddle  # noqa: E402  (only ever run under the Paddle virtualenv)

paddle.set_device("cpu")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "goldens",
                   "internals.json")


def T(t):
    """A tensor as JSON: [dtype name, shape, values]."""
    return [str(t.dtype).replace("paddle.", ""), list(t.shape), np.asarray(t.numpy()).tolist()]


def first_line(e):
    return str(e).strip().split("\n")[0].split(" (at /paddle")[0]


PRELUDE = '''import numpy as np
import paddle
rng = np.random.default_rng(7)
def boxes(n, m, scale=10.0):
    lo = rng.uniform(0, scale, (n, m, 2)).astype('float32')
    return paddle.to_tensor(np.concatenate([lo, lo + rng.uniform(0.5, scale / 2, (n, m, 2)).astype('float32')], -1))
'''

_NMS_ATTRS = ("'background_label', {bg}, 'score_threshold', {st}, 'nms_top_k', {nt}, "
              "'nms_threshold', {th}, 'keep_top_k', {kt}, 'nms_eta', {eta}, 'normalized', {nz}")
NMS = {
    "plain": dict(bg=0, st=0.3, nt=4, th=0.5, kt=3, eta=1.0, nz=False),
    "all_kept": dict(bg=-1, st=0.05, nt=-1, th=0.7, kt=-1, eta=1.0, nz=True),
    "adaptive_eta": dict(bg=0, st=0.1, nt=20, th=0.9, kt=10, eta=0.8, nz=False),
    "tight": dict(bg=1, st=0.2, nt=6, th=0.1, kt=100, eta=1.0, nz=True),
    "none_above": dict(bg=0, st=2.0, nt=4, th=0.5, kt=3, eta=1.0, nz=False),
}

CASES = {
    # ------------------------------------------------------------------ _legacy_C_ops
    "legacy_argsort_desc": "x = paddle.to_tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])\n"
                           "v, i = paddle._legacy_C_ops.argsort(x, 'axis', 1, 'descending', True)\n"
                           "out = [T(v), T(i)]",
    "legacy_argsort_default": "x = paddle.to_tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])\n"
                              "out = [T(t) for t in paddle._legacy_C_ops.argsort(x)]",
    "legacy_argsort_axis0": "x = paddle.to_tensor([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]])\n"
                            "out = [T(t) for t in paddle._legacy_C_ops.argsort(x, 'axis', 0)]",
    "legacy_argsort_unknown_attr": "x = paddle.to_tensor([3.0, 1.0, 2.0])\n"
                                   "out = [T(t) for t in paddle._legacy_C_ops.argsort(x, 'bogus', 1)]",
    "legacy_argsort_grad": "x = paddle.to_tensor([3.0, 1.0, 2.0], stop_gradient=False)\n"
                           "v, i = paddle._legacy_C_ops.argsort(x, 'descending', True)\n"
                           "(v * paddle.to_tensor([1.0, 10.0, 100.0])).sum().backward()\n"
                           "out = [T(x.grad), v.stop_gradient]",
    "legacy_attrs_odd": "x = paddle.to_tensor([3.0, 1.0])\n"
                        "paddle._legacy_C_ops.argsort(x, 'axis')",
    "legacy_attrs_not_str": "x = paddle.to_tensor([3.0, 1.0])\n"
                            "paddle._legacy_C_ops.argsort(x, 3, 1)",
    "legacy_import_module": "import paddle._legacy_C_ops as C\n"
                            "out = [hasattr(paddle, '_legacy_C_ops'), C is paddle._legacy_C_ops]",
    "legacy_matrix_nms": "b = boxes(2, 8); s = paddle.to_tensor(rng.uniform(0, 1, (2, 3, 8)).astype('float32'))\n"
                         "o, idx, num = paddle._legacy_C_ops.matrix_nms(b, s, 'background_label', 0, "
                         "'score_threshold', 0.1, 'post_threshold', 0.2, 'nms_top_k', 5, "
                         "'gaussian_sigma', 2.0, 'use_gaussian', False, 'keep_top_k', 6, "
                         "'normalized', False)\nout = [T(o), T(idx), T(num)]",
    "legacy_box_coder_list_var": "p = boxes(1, 5)[0]; t = boxes(1, 5)[0]\n"
                                 "o = paddle._legacy_C_ops.box_coder(p, None, t, 'code_type', "
                                 "'encode_center_size', 'box_normalized', False, 'axis', 0, "
                                 "'variance', [0.1, 0.1, 0.2, 0.2])\nout = T(o)",
    "legacy_prior_box": "x = paddle.ones([1, 2, 3, 4]); img = paddle.ones([1, 3, 24, 32])\n"
                        "b, v = paddle._legacy_C_ops.prior_box(x, img, 'min_sizes', [4.0], "
                        "'aspect_ratios', [1.0, 2.0], 'variances', [0.1, 0.1, 0.2, 0.2], "
                        "'flip', True, 'clip', True, 'step_w', 0.0, 'step_h', 0.0, "
                        "'offset', 0.5, 'min_max_aspect_ratios_order', False, 'max_sizes', [8.0])\n"
                        "out = [T(b), T(v)]",
    # ------------------------------------------------------------------ Tensor._copy_to
    "copy_to_tensor": "x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)\n"
                      "y = x._copy_to(paddle.CPUPlace(), False)\n"
                      "y[0] = 5.0\n"
                      "out = [T(y), T(x), y.stop_gradient, y.name == x.name, type(y) is paddle.Tensor]",
    "copy_to_parameter": "p = paddle.nn.Linear(2, 3).weight\n"
                         "q = p._copy_to(paddle.CPUPlace(), True)\n"
                         "out = [type(q) is type(p), q.stop_gradient, q.persistable, q.name == p.name, "
                         "q.trainable, bool((q == p).all()), q.shape]",
    "copy_to_frozen_parameter": "p = paddle.nn.Linear(2, 3).bias\np.stop_gradient = True\n"
                                "q = p._copy_to(paddle.CPUPlace(), False)\n"
                                "out = [q.stop_gradient, q.trainable]",
    "copy_to_bad_place": "x = paddle.to_tensor([1.0])\nx._copy_to('cpu', True)",
    # ------------------------------------------------------------------ framework.io privates
    "io_parse_every_object": "from paddle.framework.io import _parse_every_object, _transformed_from_lodtensor\n"
                             "obj = {'a': np.ones(2, 'float32'), 'b': [np.zeros(1, 'int64'), 'text', (np.arange(3),)], 'c': 1}\n"
                             "r = _parse_every_object(obj, _transformed_from_lodtensor, lambda a: a.sum().item())\n"
                             "out = [r is obj, r['a'], r['b'][0], r['b'][1], list(r['b'][2]), r['c']]",
    "io_parse_bad_iterable": "from paddle.framework.io import _parse_every_object, _transformed_from_lodtensor\n"
                             "_parse_every_object({'a': range(3)}, _transformed_from_lodtensor, lambda a: a)",
    "io_to_lodtensor": "from paddle.framework.io import _to_LodTensor\n"
                       "t = _to_LodTensor(np.arange(4, dtype='float32').reshape(2, 2))\n"
                       "out = [np.asarray(t).tolist(), list(np.asarray(t).shape)]",
    "io_to_lodtensor_bad": "from paddle.framework.io import _to_LodTensor\n_to_LodTensor([1, 2])",
    "io_eager_param_base": "from paddle.framework.io import EagerParamBase\n"
                           "from paddle.base.framework import EagerParamBase as E2\n"
                           "w = paddle.nn.Linear(2, 2).weight\n"
                           "out = [E2 is EagerParamBase, isinstance(w, EagerParamBase), "
                           "isinstance(paddle.ones([1]), EagerParamBase), issubclass(EagerParamBase, paddle.Tensor)]",
    "eager_param_base_from_tensor": "from paddle.base.framework import EagerParamBase\n"
                                    "t = paddle.to_tensor([1.0, 2.0])\n"
                                    "p = EagerParamBase.from_tensor(t * 1.5)\n"
                                    "q = EagerParamBase.from_tensor(t, name='w_golden', trainable=False)\n"
                                    "out = [isinstance(p, EagerParamBase), p.name.startswith('_eager_param_base_'), "
                                    "p.stop_gradient, p.trainable, p.persistable, p.optimize_attr, p.need_clip, "
                                    "T(p), q.name, q.stop_gradient]",
    "io_eager_param_base_patch": "from paddle.framework.io import EagerParamBase\n"
                                 "EagerParamBase.my_numel_x2 = lambda self: 2 * int(self.numel())\n"
                                 "out = paddle.nn.Linear(2, 3).weight.my_numel_x2()\n"
                                 "del EagerParamBase.my_numel_x2",
    # ------------------------------------------------------------------ nn internals
    "convert_attention_mask": "from paddle.nn.layer.transformer import _convert_attention_mask as c\n"
                              "b = paddle.to_tensor([[True, False], [False, True]])\n"
                              "i = paddle.to_tensor([[1, 0]], dtype='int32')\n"
                              "f = paddle.to_tensor([[0.0, -1.5]], dtype='float64')\n"
                              "out = [T(c(b, 'float32')), T(c(i, paddle.float32)), T(c(f, 'float32')), "
                              "c(None, 'float32'), c(f, 'float64') is f]",
    "convert_param_attr_to_list": "from paddle.nn.layer.transformer import _convert_param_attr_to_list as c\n"
                                  "r = c(paddle.ParamAttr(name='w'), 3) + c([True, False], 2) + c(False, 2)\n"
                                  "out = [a if a is False else a.name for a in r]",
    "param_attr_to_attr": "r = [paddle.ParamAttr._to_attr(a) for a in (None, 'n', True, False, "
                          "paddle.nn.initializer.Constant(2.0), paddle.regularizer.L2Decay(0.1))]\n"
                          "out = [a if a is False else [a.name, type(a.initializer).__name__, "
                          "type(a.regularizer).__name__] for a in r]",
    "param_attr_to_attr_bad": "paddle.ParamAttr._to_attr(3)",
    "in_declarative_mode": "from paddle.nn.layer.layers import in_declarative_mode\n"
                           "seen = []\n"
                           "def f(x):\n    seen.append(in_declarative_mode())\n    return x * 2\n"
                           "paddle.jit.to_static(f)(paddle.ones([2]))\n"
                           "paddle.jit.to_static(f, full_graph=True)(paddle.ones([2]))\n"
                           "out = [in_declarative_mode(), seen]",
    # ------------------------------------------------------------------ amp_state
    "amp_state": "from paddle.amp.auto_cast import amp_state\n"
                 "states = [amp_state()]\n"
                 "with paddle.amp.amp_guard(True, level='O1', dtype='bfloat16'):\n"
                 "    states.append(amp_state())\n"
                 "    with paddle.amp.amp_guard(False):\n        states.append(amp_state())\n"
                 "    states.append(amp_state())\n"
                 "states.append(amp_state())\nout = states",
    # ------------------------------------------------------------------ base.framework
    "non_static_only": "from paddle.base.framework import non_static_only\n"
                       "@non_static_only\ndef g(a):\n    return a + 1\n"
                       "r = [g(1), g.__name__]\npaddle.enable_static()\n"
                       "try:\n    g(1)\nexcept AssertionError as e:\n    r.append(str(e))\n"
                       "finally:\n    paddle.disable_static()\nout = r",
    "current_expected_place": "p = paddle.framework._current_expected_place()\n"
                              "out = [str(p), p.is_cpu_place()]",
    "dygraph_tracer": "t = paddle.base.framework._dygraph_tracer()\nr = [t._has_grad]\n"
                      "with paddle.no_grad():\n    r.append(t._has_grad)\nout = r",
    "no_check_dy2st_diff": "with paddle.framework._no_check_dy2st_diff():\n    out = 1",
    # ------------------------------------------------------------------ LayerHelper
    "layer_helper_dygraph": "from paddle.common_ops_import import LayerHelper\n"
                            "h = LayerHelper('multiclass_nms3_golden', bboxes=paddle.ones([2, 4]), name=None)\n"
                            "h2 = LayerHelper('multiclass_nms3_golden')\n"
                            "v = h.create_variable_for_type_inference(dtype='int32')\n"
                            "out = [h.name, h.kwargs['name'], h.layer_type, h2.name, str(h.input_dtype('bboxes')), "
                            "str(v.dtype)]",
    "layer_helper_mismatch": "from paddle.common_ops_import import LayerHelper\n"
                             "h = LayerHelper('concat_golden', input=[paddle.ones([1]), paddle.ones([1], 'float64')])\n"
                             "h.input_dtype()",
    "framework_layer_helper": "h = paddle.framework.LayerHelper('layer_norm_golden')\nout = h.name",
    # ------------------------------------------------------------------ utils, dataset
    "unique_endpoints": "from paddle.utils.download import _get_unique_endpoints\n"
                        "e = ['10.0.0.2:6170', '10.0.0.1:6171', '10.0.0.1:6170', '10.0.0.2:6171']\n"
                        "out = [sorted(_get_unique_endpoints(e)), e]",
    "dataset_md5file": "import tempfile, os\nfrom paddle.dataset.common import md5file, DATA_HOME\n"
                       "d = tempfile.mkdtemp(); p = os.path.join(d, 'f.bin')\n"
                       "open(p, 'wb').write(bytes(range(256)) * 40)\n"
                       "out = [md5file(p), DATA_HOME.endswith(os.path.join('.cache', 'paddle', 'dataset'))]",
    "cpp_extension_module": "from paddle.utils.cpp_extension.cpp_extension import BuildExtension, CppExtension, CUDAExtension, setup, load\n"
                            "from paddle.utils.cpp_extension import BuildExtension as B2\n"
                            "class Mine(BuildExtension):\n    pass\n"
                            "out = [isinstance(BuildExtension, type), B2 is BuildExtension, "
                            "issubclass(Mine, BuildExtension), callable(BuildExtension.with_options)]",
    "nn_loss_import": "import paddle.nn.loss",
    "nn_loss_decode_modules": "import paddle.nn.decode\n"
                              "from paddle.nn.quant.format import ConvertibleQuantedLayer, LinearQuanterDequanter\n"
                              "from paddle.distributed.fleet.meta_parallel.parallel_layers import PipelineLayer, LayerDesc\n"
                              "out = [paddle.nn.loss.CrossEntropyLoss is paddle.nn.CrossEntropyLoss, "
                              "paddle.nn.decode.BeamSearchDecoder is paddle.nn.BeamSearchDecoder, "
                              "PipelineLayer is paddle.distributed.fleet.meta_parallel.PipelineLayer]",
    # ------------------------------------------------------------------ mp private ops
    "mp_lookup_table": "import paddle.distributed.collective as c\n"
                       "out = T(c._c_lookup_table(paddle.arange(12, dtype='float32').reshape([4, 3]), "
                       "paddle.to_tensor([[0, 5], [6, 9]]), start_index=4))",
    "mp_concat_outside_job": "import paddle.distributed.collective as c\n"
                             "c._c_concat(paddle.ones([1, 2]))",
    "mp_allreduce_outside_job": "import paddle.distributed.collective as c\n"
                                "c._mp_allreduce(paddle.ones([1, 2]))",
    "git_commit": "out = paddle.__git_commit__ == paddle.version.commit",
    "inference_precision": "out = [paddle.inference.Config.Precision is paddle.inference.PrecisionType, "
                           "int(paddle.inference.Config.Precision.Half)]",
    "local_shared_layer_desc": "from paddle.distributed.fleet.meta_parallel import LocalSharedLayerDesc\n"
                               "from paddle.distributed.fleet.meta_parallel.parallel_layers import LocalSharedLayerDesc as L2\n"
                               "d = LocalSharedLayerDesc('emb', paddle.nn.Embedding, None, 'weight', 10, 4)\n"
                               "out = [L2 is LocalSharedLayerDesc, d.layer_name, d.shared_weight_attr, "
                               "list(d.build_layer().weight.shape)]",
    "base_data_feeder": "from paddle.base.data_feeder import check_variable_and_dtype, convert_dtype\n"
                        "r = [convert_dtype(paddle.float16), convert_dtype('int64')]\n"
                        "check_variable_and_dtype(paddle.ones([1], 'int32'), 'x', ['float32'], 'my_op')\n"
                        "paddle.enable_static()\n"
                        "try:\n    x = paddle.static.data('x', [2], 'int32')\n"
                        "    check_variable_and_dtype(x, 'x', ['float32'], 'my_op')\n"
                        "except TypeError as e:\n    r.append(str(e).split('\\n')[0])\n"
                        "finally:\n    paddle.disable_static()\nout = r",
    "fleet_log_util": "from paddle.distributed.fleet.utils.log_util import logger, get_log_level_name\n"
                      "out = [logger.name, logger.level, logger.propagate, get_log_level_name()]",
    # ------------------------------------------------------------------ where
    "where_float_condition": "x = paddle.to_tensor([1.0, 2.0])\npaddle.where(x, x, x)",
    "where_int_condition": "x = paddle.to_tensor([1.0, 2.0])\npaddle.where(paddle.to_tensor([1, 0]), x, x)",
}
for k, a in NMS.items():
    CASES[f"multiclass_nms3_{k}"] = (
        "b = boxes(2, 12)\ns = paddle.to_tensor(rng.uniform(0, 1, (2, 4, 12)).astype('float32'))\n"
        f"o, idx, num = paddle._legacy_C_ops.multiclass_nms3(b, s, None, {_NMS_ATTRS.format(**a)})\n"
        "out = [T(o), T(idx), T(num)]")


REC_MODEL = '''import paddle.nn as nn, paddle.nn.functional as F
class Rec(nn.Layer):
    """PaddleOCR's recognizer shape: conv, hard activations, avg_pool2d over a dynamic width."""
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, stride=2, padding=1)
        self.bn = nn.BatchNorm2D(8)
        self.fc = nn.Linear(8, 11)
    def forward(self, x):
        h = self.bn(self.conv(x))
        h = F.hardtanh(F.hardsigmoid(h) * h, 0, 1)
        h = F.avg_pool2d(h, (3, 2)).squeeze(2).transpose([0, 2, 1])
        return F.softmax(self.fc(h), axis=2)
'''


def run_source(src, scope):
    """exec ``src`` from a real file (Paddle's to_static reads the source of what it traces)."""
    fd, path = tempfile.mkstemp(suffix=".py")
    with os.fdopen(fd, "w") as f:
        f.write(src)
    exec(compile(src, path, "exec"), scope)


def record_rec_model():
    """Paddle's saved files of the recognizer (seeded weights) and its outputs at two widths."""
    scope = {"__name__": "rec_model"}
    run_source(PRELUDE + REC_MODEL, scope)
    paddle.seed(11)
    m = scope["Rec"]()
    m.eval()
    rng = np.random.default_rng(3)
    for lyr in (m.conv, m.bn, m.fc):
        for p in lyr.parameters():
            p.set_value(rng.uniform(-0.5, 0.5, p.shape).astype("float32"))
    m.bn._mean.set_value(rng.uniform(-0.1, 0.1, [8]).astype("float32"))
    m.bn._variance.set_value(rng.uniform(0.5, 1.5, [8]).astype("float32"))
    d = tempfile.mkdtemp()
    paddle.jit.save(m, os.path.join(d, "rec"),
                    input_spec=[paddle.static.InputSpec([None, 3, 6, None], "float32")])
    files = {}
    for f in ("rec.json", "rec.pdiparams"):
        with open(os.path.join(d, f), "rb") as fh:
            files[f] = base64.b64encode(fh.read()).decode()
    inputs, outputs = {}, {}
    for w in (40, 64):
        x = rng.uniform(-1, 1, (2, 3, 6, w)).astype("float32")
        inputs[w] = x.tolist()
        outputs[w] = m(paddle.to_tensor(x)).numpy().tolist()
    params = {k: v.numpy().tolist() for k, v in m.state_dict().items()}
    return {"model": REC_MODEL, "files": files, "inputs": inputs, "outputs": outputs,
            "state_dict": params}


def main():
    out = {"prelude": PRELUDE, "cases": {}}
    for name, code in sorted(CASES.items()):
        scope = {"T": T}
        try:
            run_source(PRELUDE + code, scope)
        except Exception as e:  # noqa: BLE001  (recording what Paddle raises)
            out["cases"][name] = {"code": code, "error": type(e).__name__,
                                  "message": first_line(e)}
            continue
        out["cases"][name] = {"code": code, "value": scope.get("out")}
    out["rec_model"] = record_rec_model()
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}: {len(out['cases'])} cases")


if __name__ == "__main__":
    main()
