"""``paddle.static.quantization``: Paddle's quantization of static programs.

What is here runs: the operator tables and quantizers (``quant_config``) and the quantization
helpers (``utils``: arithmetic, scope data, op slot names, bias correction). The passes
(``QuantizationTransformPass`` ...), ``PostTrainingQuantization``, ``WeightQuantization``,
``paddle.framework.IrGraph`` and ``paddle.base.core.Graph`` rewrite the operator graph of a
Paddle 2.x ``ProgramDesc`` (``core.Graph(program.desc)``). Paddle 3.3.1 itself cannot reach them
from its default (PIR) programs: PaddleSlim's ``quant_aware``/``convert``/``quant_post_static``
stop with ``AttributeError: 'pir.Program' object has no attribute 'desc'``, as they do on
paddle_compat's static programs (torch.fx graphs, no ``desc`` either; recorded in
tests/goldens/ecosystem_slim2.json and the paddleslim_static ecosystem driver). The classes exist
(libraries import them at module top: PaddleSlim's ``quant.quanter``) and constructing one
raises NotImplementedError saying so. Quantization-aware training and post-training
quantization of dygraph models are ``paddle.quantization`` (``QAT``, ``PTQ``,
``ImperativeQuantAware``)."""
from . import quant_config, utils  # noqa: F401

_REASON = ("rewrites the operator graph (core.Graph) of a Paddle 2.x ProgramDesc, which "
           "paddle_compat's static programs (torch.fx graphs) do not have (nor do Paddle "
           "3.3.1's default PIR programs: program.desc is an AttributeError there); quantize "
           "dygraph models with paddle.quantization (QAT, PTQ, ImperativeQuantAware) instead")

_PASSES = ("QuantizationTransformPass", "QuantizationTransformPassV2", "QuantizationFreezePass",
           "ConvertToInt8Pass", "TransformForMobilePass", "OutScaleForTrainingPass",
           "OutScaleForInferencePass", "AddQuantDequantPass", "AddQuantDequantPassV2",
           "AddQuantDequantForInferencePass", "ReplaceFakeQuantDequantPass", "QuantWeightPass",
           "QuantInt8MkldnnPass", "QuantInt8OnednnPass", "Quant2Int8MkldnnPass",
           "Quant2Int8OnednnPass", "PostTrainingQuantization", "PostTrainingQuantizationProgram",
           "WeightQuantization", "IrGraph")

__all__ = ["quant_config", "utils", *_PASSES]


class _ProgramGraphTool:
    """A Paddle tool over 2.x ProgramDesc graphs: the class exists, constructing it raises."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"{self._paddle_name} {_REASON}")


def _tool(name, module):
    return type(name, (_ProgramGraphTool,), {
        "__module__": module, "_paddle_name": f"{module}.{name}",
        "__doc__": f"Paddle's ``{name}``: {_REASON} (constructing it raises)."})


for _name in _PASSES:
    globals()[_name] = _tool(_name, "paddle.framework" if _name == "IrGraph"
                             else "paddle.static.quantization")
del _name

#: ``paddle.base.core.Graph``: Paddle's IR graph of a ProgramDesc (what IrGraph wraps)
Graph = _tool("Graph", "paddle.base.core")
