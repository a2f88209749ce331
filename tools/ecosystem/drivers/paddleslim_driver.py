"""paddleslim 2.6.0: dygraph quantization-aware training with ``paddleslim.QAT`` (fake
channel-wise abs-max weights, moving-average abs-max activations) on a small conv net with
seeded weights: forward, three training steps, the quantized model's outputs and scales,
``save_quantized_model`` and the saved model run by ``paddle.inference``; post-training
quantization's calibration (``paddleslim.PTQ``); magnitude pruning with ``UnstructuredPruner``
during three steps.

The program-based tools (``paddleslim.analysis.flops``, ``L1NormFilterPruner``) trace the net
into a static Program with ``paddle.base.dygraph.base._to_static_mode_guard_``, which Paddle
3.3.1 no longer has: on real Paddle they raise AttributeError (and leave static mode on). The
driver records that they fail, and how."""
import os

import numpy as np
import paddle
import paddleslim
from paddleslim import PTQ, QAT, UnstructuredPruner

from _common import Driver
from _slim_common import IMAGES, seeded_net, train

d = Driver("paddleslim")
state = {}


def quant_state(model):
    """The quantizers' state (scales, moving-average accumulators) by structured name."""
    return {k: v for k, v in model.state_dict().items()
            if any(t in k for t in ("scale", "state", "accum"))}


def failure(fn):
    """``fn()``'s result, or the built-in type of what it raised (Paddle 3.3.1 breaks these tools);
    dygraph mode restored either way."""
    try:
        return {"ok": fn()}
    except Exception as e:  # noqa: BLE001 - the failure is the output
        # the built-in class (paddle_compat's errors for a missing name subclass AttributeError)
        return {"raises": next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")}
    finally:
        paddle.disable_static()


@d.stage("float")
def _():
    net = seeded_net()
    net.eval()
    d.put("float.logits", net(paddle.to_tensor(IMAGES)))


@d.stage("qat")
def _():
    net = seeded_net()
    quanter = QAT(config={"weight_quantize_type": "channel_wise_abs_max",
                          "activation_quantize_type": "moving_average_abs_max",
                          "quantizable_layer_type": ["Conv2D", "Linear"]})
    qnet = quanter.quantize(net)
    d.put("qat.layers", [type(m).__name__ for _, m in qnet.named_sublayers()])
    qnet.eval()
    d.put("qat.logits_before", qnet(paddle.to_tensor(IMAGES)))
    d.put("qat.losses", train(qnet))
    qnet.eval()
    out = qnet(paddle.to_tensor(IMAGES))
    d.put("qat.logits", out)
    d.put("qat.state", quant_state(qnet))
    state.update(quanter=quanter, qnet=qnet, qat_out=out)


@d.stage("qat_save_reload")
def _():
    quanter, qnet = state["quanter"], state["qnet"]
    path = os.path.join(d.tmp, "qat", "model")
    quanter.save_quantized_model(
        qnet, path, input_spec=[paddle.static.InputSpec([None, 3, 16, 16], "float32", "x")])
    d.put("qat.saved_files", sorted(os.listdir(os.path.dirname(path))))
    # Paddle 3.3.1 writes the quantized program in the 2.x format (.pdmodel), which its
    # paddle.jit.load (PIR) refuses; its inference predictor runs it
    config = paddle.inference.Config(path + ".pdmodel", path + ".pdiparams")
    config.disable_mkldnn()
    predictor = paddle.inference.create_predictor(config)
    d.put("qat.infer_io", [predictor.get_input_names(), len(predictor.get_output_names())])
    handle = predictor.get_input_handle(predictor.get_input_names()[0])
    handle.copy_from_cpu(IMAGES)
    predictor.run()
    out = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
    d.put("qat.infer_logits", out)
    d.put("qat.infer_maxdiff", float(np.abs(out - state["qat_out"].numpy()).max()))


@d.stage("ptq")
def _():
    net = seeded_net()
    net.eval()
    ptq = PTQ()
    qnet = ptq.quantize(net, fuse=False)
    for i in range(2):      # calibration batches
        qnet(paddle.to_tensor(IMAGES[2 * i:2 * i + 2]))
    d.put("ptq.logits", qnet(paddle.to_tensor(IMAGES)))
    # (its save_quantized_model fails inside Paddle 3.3.1's own to_static: a fake-quant op
    # given a PIR value; not driven)


@d.stage("unstructured_prune")
def _():
    net = seeded_net()
    pruner = UnstructuredPruner(net, mode="ratio", ratio=0.5)
    pruner.step()
    d.put("prune.threshold", pruner.threshold)
    # paddleslim writes the masks with paddle.assign(bool ndarray, output=float mask): on Paddle
    # 3.3.1 the mask becomes bool and the masking forward (param * mask) is refused
    d.put("prune.mask_dtype", str(pruner.masks[net.conv1.weight.name].dtype))
    d.put("prune.bool_mask_forward", failure(lambda: net(paddle.to_tensor(IMAGES)) is not None))

    def step_with_float_masks():
        pruner.step()
        for name, mask in pruner.masks.items():
            pruner.masks[name] = mask.astype("float32")

    step_with_float_masks()
    d.put("prune.losses", train(net, after_step=step_with_float_masks))
    pruner.update_params()
    d.put("prune.sparsity", UnstructuredPruner.total_sparse(net))
    d.put("prune.conv1_zeros", int((net.conv1.weight == 0).astype("int64").sum()))
    net.eval()
    d.put("prune.logits", net(paddle.to_tensor(IMAGES)))


@d.stage("program_tools")
def _():
    d.put("flops", failure(lambda: paddleslim.analysis.flops(seeded_net(), [1, 3, 16, 16])))
    d.put("l1norm_pruner", failure(
        lambda: paddleslim.L1NormFilterPruner(seeded_net(), [1, 3, 16, 16]) is not None))
    d.put("dygraph_mode_after", paddle.in_dynamic_mode())


d.finish()
