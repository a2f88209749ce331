"""``paddle.static.quantization.quant_config``: which operators of a (2.x) static program the
quantization passes treat, and the names of their input and output slots.

Each table maps a fluid operator type to ``[input slots, output slots]``: the weight table the
operators whose weights are quantized, the activation table those whose activations are."""

__all__ = ["SUPPORT_WEIGHT_QUANTIZATION_OP_DICT", "SUPPORT_ACT_QUANTIZATION_OP_DICT",
           "SUPPORT_QUANTIZATION_OP_DICT"]

_X_OUT = [["X"], ["Out"]]
_XY_OUT = [["X", "Y"], ["Out"]]
_X_Y = [["X"], ["Y"]]
_CONV = [["Input", "Filter"], ["Output"]]


def _table(groups):
    """``{op: slots}`` from ``(slots, "op op ...")`` groups, in Paddle's order."""
    return {name: [list(slots[0]), list(slots[1])]
            for slots, names in groups for name in names.split()}


SUPPORT_WEIGHT_QUANTIZATION_OP_DICT = _table([
    (_CONV, "conv2d depthwise_conv2d conv2d_transpose"),
    (_XY_OUT, "mul matmul matmul_v2"),
])

# in the order Paddle lists them (the passes walk the keys in order)
_ACT_ORDER = (
    "mul:xy matmul:xy matmul_v2:xy pool2d:x elementwise_add:xy concat:x softmax:x argmax:x "
    "transpose:x equal:xy gather:x greater_equal:xy greater_than:xy less_equal:xy "
    "less_than:xy mean:x not_equal:xy reshape:x reshape2:x transpose2:x nearest_interp:x "
    "trilinear_interp:x slice:Input squeeze:x elementwise_sub:xy relu:x relu6:x leaky_relu:x "
    "prelu:X,Alpha tanh:x swish:x dropout:x batch_norm:xY layer_norm:xY sigmoid:x "
    "elementwise_mul:xy elementwise_pow:xy hard_swish:x hard_sigmoid:x gru:Input,Weight>Hidden "
    "lstm:Input,Weight>Hidden pad2d:x pad3d:x flatten:x flatten2:x unsqueeze2:x "
    "flatten_contiguous_range:x split:x squeeze2:x nearest_interp_v2:x bilinear_interp:x "
    "bilinear_interp_v2:x fill_constant_batch_size_like:Input arg_max:x abs:x assign:x cast:x "
    "clip:x box_coder:PriorBox>OutputBox crop:x cumsum:x expand_v2:x fill_any_like:x "
    "fill_constant:>Out gelu:x instance_norm:xY lookup_table:W,Ids lookup_table_v2:W,Ids "
    "norm:X>Norm p_norm:x pow:x reduce_mean:x stack:xY top_k_v2:X>Out,Indices logical_and:xy "
    "logical_not:x meshgrid:x roi_align:X,ROIs strided_slice:Input where:Condition,X,Y "
    "grid_sampler:X,Grid>Output tile:x group_norm:X>Y,Mean,Variance reduce_sum:x square:x "
    "softplus:x shuffle_channel:x reduce_max:x scale:x")


def _slots(code):
    """``x`` -> X/Out, ``xy`` -> X,Y/Out, ``xY`` -> X/Y, else ``IN,IN[>OUT,OUT]`` (Out by
    default)."""
    short = {"x": _X_OUT, "xy": _XY_OUT, "xY": _X_Y}
    if code in short:
        return short[code]
    ins, _, outs = code.partition(">")
    return [ins.split(",") if ins else [], outs.split(",") if outs else ["Out"]]


SUPPORT_ACT_QUANTIZATION_OP_DICT = {}
for _entry in _ACT_ORDER.split():
    _op, _code = _entry.split(":")
    SUPPORT_ACT_QUANTIZATION_OP_DICT[_op] = [list(s) for s in _slots(_code)]

SUPPORT_QUANTIZATION_OP_DICT = SUPPORT_WEIGHT_QUANTIZATION_OP_DICT.copy()
SUPPORT_QUANTIZATION_OP_DICT.update(SUPPORT_ACT_QUANTIZATION_OP_DICT)

__all__ += ["BaseQuantizer", "TensorRTQuantizer", "ARMCPUQuantizer"]


class BaseQuantizer:
    """Which op types a static quantization pass treats, and the integer range: weights of the
    ``quantizable_op_type`` ops that have weights (all weight ops when empty), activations of
    the listed ops (``mul``/``matmul``/``matmul_v2`` when empty), observers after every
    activation op; ``quant_bits`` bits over ``[-128, 127]``."""

    _quant_min = -128

    def __init__(self, quantizable_op_type=[], quant_bits=8):  # noqa: B006 (Paddle's default)
        self._quantizable_op_type = quantizable_op_type
        self._quant_bits = quant_bits
        self._quant_min = type(self)._quant_min
        self._quant_max = 127

    def _listed(self, table):
        return [t for t in self._quantizable_op_type if t in table]

    @property
    def weight_quant_operation_types(self):
        """Op types whose weights get quantize-dequantize nodes."""
        if self._quantizable_op_type:
            return self._listed(SUPPORT_WEIGHT_QUANTIZATION_OP_DICT)
        return list(SUPPORT_WEIGHT_QUANTIZATION_OP_DICT)

    @property
    def activation_quant_operation_types(self):
        """Op types whose activations get quantize-dequantize nodes."""
        if self._quantizable_op_type:
            return self._listed(SUPPORT_ACT_QUANTIZATION_OP_DICT)
        return ["mul", "matmul", "matmul_v2"]

    @property
    def observer_operation_types(self):
        """Op types whose outputs only get observed (their scales recorded for export)."""
        return list(SUPPORT_ACT_QUANTIZATION_OP_DICT)


# TensorRT's activation ops, in Paddle's order (bilinear_interp is listed twice there too)
_TENSORRT_ACT = (
    "pool2d elementwise_add elementwise_sub elementwise_mul elementwise_pow concat softmax "
    "argmax mean relu relu6 leaky_relu tanh swish softplus gelu hard_sigmoid hard_swish "
    "sigmoid layer_norm matmul_v2 split bilinear_interp nearest_interp trilinear_interp "
    "nearest_interp_v2 bilinear_interp bilinear_interp_v2 clip pow reduce_mean reduce_sum "
    "reduce_max").split()


class TensorRTQuantizer(BaseQuantizer):
    """The quantizer for TensorRT deployment: a fixed list of activation op types."""

    @property
    def activation_quant_operation_types(self):
        return list(_TENSORRT_ACT)


class ARMCPUQuantizer(BaseQuantizer):
    """The quantizer for Paddle Lite on ARM CPUs: the symmetric range ``[-127, 127]``."""

    _quant_min = -127
