"""paddleslim 2.6.0 beyond its dygraph QAT/PTQ (paddleslim_driver.py): the Paddle internals its
other tools reach, driven through paddleslim's own code where it runs on Paddle 3.3.1.

* ``quant.quanter._parse_configs``: picks a ``paddle.static.quantization.quant_config``
  quantizer by ``deploy_backend`` (Base, TensorRT, ARM; ``mkldnn`` names a quantizer Paddle
  3.3.1 no longer has: paddleslim warns and goes on);
* ``quant.quanters.FakeQuanterChannelWiseAbsMaxObserver`` (``base.framework._create_tensor`` +
  ``_legacy_C_ops.fake_channel_wise_quantize_dequantize_abs_max``) as the weight quanter of
  ``paddle.quantization.QAT`` on a small conv net: forward, three Momentum steps, scales;
* ``quant.nn.conv_bn.BatchNorm`` (``_C_ops.batch_norm`` positional): output and batch stats;
* ``nas.ofa.layers.SuperBatchNorm2D`` (``_C_ops.batch_norm`` with ``trainable_statistics``:
  after a training call its eval uses batch statistics) at full and reduced width.
  ``SuperLayerNorm`` is left out: Paddle 3.3.1's ``LayerNorm`` takes ``weight_attr`` by keyword
  only, so paddleslim's positional call is a TypeError there (paddle_compat's accepts it), and
  its ``out, _, _ = _C_ops.layer_norm(...)`` unpacks the one tensor Paddle 3.3.1 returns;
* ``quant.analysis_utils.collect_vars`` (``static.quantization.utils.load_variable_data``) on a
  static program's scope;
* ``paddle.incubate.asp`` (PaddleSlim's ACT ``asp`` strategy): 2:4 ``prune_model`` of the net
  and three masked training steps (the masks re-applied by the driver: Paddle 3.3.1's
  ``asp.decorate`` fails in dynamic mode, ``pir.Block`` has no ``create_parameter``);
* ``paddle.static.amp.CustomOpLists`` as ACT builds it;
* ``quant.quant_aware`` on a static Program: Paddle 3.3.1's default (PIR) programs have no
  ``desc`` and it raises AttributeError at ``core.Graph(program.desc)``; recorded.
"""
import numpy as np
import paddle
import paddleslim  # noqa: F401 - the library under test
from paddle.incubate import asp
from paddleslim.nas.ofa.layers import SuperBatchNorm2D
from paddleslim.quant import quanter as slim_quanter
from paddleslim.quant.nn.conv_bn import BatchNorm as SlimBatchNorm
from paddleslim.quant.quanters import FakeQuanterChannelWiseAbsMaxObserver

from _common import Driver, seed_params
from _slim_common import IMAGES, train
from _slim_common import seeded_net as shared_seeded_net

d = Driver("paddleslim_static", version_of="paddleslim")


def seeded_net():
    """The shared net, its parameters named from a fresh unique-name counter."""
    with paddle.utils.unique_name.guard():
        return shared_seeded_net()


def raised(fn):
    """The built-in type of what ``fn()`` raises (None when it returns); dygraph restored."""
    try:
        fn()
        return None
    except Exception as e:  # noqa: BLE001 - the failure is the output
        return next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
    finally:
        paddle.disable_static()


@d.stage("quant_configs")
def _():
    for backend in (None, "tensorrt", "arm", "mkldnn"):
        cfg = slim_quanter._parse_configs({"quantize_op_types": ["conv2d", "mul", "relu"],
                                           "deploy_backend": backend})
        q = cfg.get("quant_config")
        d.put(f"quant_configs.{backend}", None if q is None else [
            type(q).__name__, q.weight_quant_operation_types,
            q.activation_quant_operation_types, len(q.observer_operation_types),
            q._quant_min, q._quant_max])


@d.stage("channel_wise_quanter")
def _():
    from paddle.quantization import QAT, QuantConfig
    net = seeded_net()
    config = QuantConfig(activation=None, weight=FakeQuanterChannelWiseAbsMaxObserver())
    config.add_type_config([paddle.nn.Conv2D, paddle.nn.Linear],
                           weight=FakeQuanterChannelWiseAbsMaxObserver())
    qnet = QAT(config).quantize(net, inplace=False)
    qnet.eval()
    d.put("cwq.logits_before", qnet(paddle.to_tensor(IMAGES)))
    d.put("cwq.losses", train(qnet))
    qnet.eval()
    d.put("cwq.logits", qnet(paddle.to_tensor(IMAGES)))
    d.put("cwq.scales", {k: v for k, v in qnet.state_dict().items() if "scale" in k})


@d.stage("conv_bn_batch_norm")
def _():
    net = seeded_net()
    bn = SlimBatchNorm(net.bn1)
    x = paddle.to_tensor(IMAGES[:, :, :8, :8]).tile([1, 3, 1, 1])[:, :8]
    out, mean, var = bn(x)
    d.put("conv_bn.out", out)
    d.put("conv_bn.batch_stats", [mean, var])
    d.put("conv_bn.running", [net.bn1._mean, net.bn1._variance])


@d.stage("ofa_norms")
def _():
    x = paddle.to_tensor(IMAGES).tile([1, 2, 1, 1])
    with paddle.utils.unique_name.guard():
        bn = SuperBatchNorm2D(8)
    seed_params(bn)
    bn.train()
    d.put("ofa.bn_train_full", bn(x[:, :8]))
    d.put("ofa.bn_train_narrow", bn(x[:, :4]))
    d.put("ofa.bn_running", [bn._mean, bn._variance])
    bn.eval()
    d.put("ofa.bn_eval", bn(x[:, :8]))


@d.stage("collect_vars")
def _():
    from paddleslim.quant.analysis_utils import collect_vars
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4], "float32")
            lin = paddle.nn.Linear(4, 3)
            lin(x)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        names = sorted([lin.weight.name, lin.bias.name])
        scope = paddle.static.global_scope()
        for n in names:
            shape = np.array(scope.find_var(n).get_tensor()).shape
            scope.find_var(n).get_tensor().set(
                np.arange(np.prod(shape), dtype="float32").reshape(shape) / 7, paddle.CPUPlace())
        got = collect_vars(scope, names)
        d.put("collect_vars", {n: got[n] for n in names})
    finally:
        paddle.disable_static()


@d.stage("asp")
def _():
    net = seeded_net()
    asp.set_excluded_layers([net.fc.weight.name])
    masks = asp.prune_model(net, n=2, m=4, mask_algo="mask_1d", with_mask=False)
    asp.reset_excluded_layers()
    d.put("asp.pruned", sorted(masks))
    d.put("asp.density", [asp.calculate_density(p.numpy()) for p in net.parameters()])
    params = dict(net.named_parameters())
    by_name = {p.name: k for k, p in params.items()}

    def remask():
        with paddle.no_grad():
            for name, mask in masks.items():
                p = params[by_name[name]]
                p.set_value(p * paddle.to_tensor(mask))

    d.put("asp.losses", train(net, after_step=remask))
    d.put("asp.density_after", [asp.calculate_density(p.numpy()) for p in net.parameters()])
    net.eval()
    d.put("asp.logits", net(paddle.to_tensor(IMAGES)))


@d.stage("static_amp_lists")
def _():
    lists = paddle.static.amp.CustomOpLists(custom_white_list=["elementwise_add"],
                                            custom_black_list=["matmul_v2"],
                                            custom_black_varnames=["fc_0.w_0"])
    d.put("amp.lists", [sorted(lists.white_list), sorted(lists.black_list),
                        sorted(lists.gray_list), lists.black_varnames])


@d.stage("quant_aware_static")
def _():
    from paddleslim.quant import quant_aware

    def run():
        paddle.enable_static()
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3, 8, 8], "float32")
            y = paddle.nn.Conv2D(3, 4, 3)(x)
            paddle.nn.Linear(144, 5)(paddle.flatten(y, 1))
        quant_aware(main, paddle.CPUPlace(), for_test=True)

    d.put("quant_aware.raises", raised(run))


d.finish()
