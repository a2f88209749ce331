"""``paddle.summary``: the table of a network's layers (input and output shapes, parameter
counts) printed as Paddle prints it, from one forward pass on random inputs (or ``input``).

A layer is named ``<Class>-<n>`` with n one more than the number of its unique name
(``conv2d_0`` gives ``Conv2D-1``), so the numbers follow how many layers of a kind the process
made before (``paddle.utils.unique_name.guard()`` starts them afresh).
"""
import numbers
import warnings
from collections import OrderedDict

import numpy as np

from ..autograd import no_grad
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..nn import LayerList, Sequential
from ..ops.random import rand
from ..static import InputSpec

__all__ = ["summary"]


def _is_shape(shape):
    return not any(isinstance(item, (list, tuple)) for item in shape)


def _all_numbers(items):
    return all(isinstance(item, numbers.Number) for item in items)


def _check_shape(shape):
    unknown = 0
    out = []
    for item in shape:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("Option input_size only the dim of batch_size can be None "
                                 "or -1.")
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got "
                             f"{item}")
        out.append(item)
    return tuple(out)


def _check_input(input_size):
    if isinstance(input_size, (list, tuple)) and _is_shape(input_size):
        return _check_shape(input_size)
    return [_check_input(i) for i in input_size]


def summary(net, input_size=None, dtypes=None, input=None):
    """Print the layer table of ``net`` for inputs of ``input_size`` (a shape, an InputSpec or
    a list of them; the batch dimension may be None or -1) or for the given ``input``, and
    return ``{'total_params': n, 'trainable_params': m}``."""
    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    if input_size is None:
        if isinstance(input, Tensor):
            input_size = tuple(input.shape)
        elif isinstance(input, (list, tuple)):
            input_size = [tuple(x.shape) for x in input]
        elif isinstance(input, dict):
            input_size = [tuple(v.shape) for v in input.values()]
        else:
            raise ValueError("Input is not tensor, list, tuple and dict, unable to determine "
                             "input_size, please input input_size.")
    if isinstance(input_size, InputSpec):
        size = tuple(input_size.shape)
    elif isinstance(input_size, list):
        size = []
        for item in input_size:
            if isinstance(item, int):
                item = (item,)
            assert isinstance(item, (tuple, InputSpec)), (
                "When input_size is list,             expect item in input_size is a tuple or "
                f"InputSpec, but got {type(item)}")
            size.append(tuple(item.shape) if isinstance(item, InputSpec) else item)
    elif isinstance(input_size, int):
        size = (input_size,)
    else:
        size = input_size
    if not in_dynamic_mode():
        warnings.warn("Your model was created in static graph mode, this may not get correct "
                      "summary information!")
        was_training = False
    else:
        was_training = net.training
    if was_training:
        net.eval()
    size = _check_input(size)
    text, info = summary_string(net, size, dtypes, input)
    print(text)
    if was_training:
        net.train()
    return info


def _shape_of(x):
    if isinstance(x, Tensor):
        return list(x.shape)
    if isinstance(x, (list, tuple)):
        return [_shape_of(i) for i in x]
    return None


def _output_shape(output):
    if isinstance(output, (list, tuple)):
        return [_output_shape(o) for o in output]
    return list(output.shape) if hasattr(output, "shape") else []


def _dtypes_for(input_size, dtype):
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        return [dtype]
    return [_dtypes_for(i, dtype) for i in input_size]


def _build_input(input_size, dtypes):
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        dtype = dtypes[0] if isinstance(dtypes, (list, tuple)) else dtypes
        return rand(list(input_size)).astype(dtype)
    return [_build_input(i, d) for i, d in zip(input_size, dtypes)]


def _input_megabytes(input_size):
    if isinstance(input_size, (list, tuple)) and _all_numbers(input_size):
        return abs(np.prod(input_size) * 4.0 / 1024 ** 2.0)
    return sum(_input_megabytes(i) for i in input_size)


@no_grad()
def summary_string(model, input_size=None, dtypes=None, input=None):
    """The table ``summary`` prints, and its parameter counts."""
    if not isinstance(dtypes, (list, tuple)):
        dtypes = _dtypes_for(input_size, dtypes or "float32")
    depth = len(list(model.sublayers()))
    rows = OrderedDict()
    hooks = []

    def hook(layer, inputs, output):
        class_name = type(layer).__name__
        try:
            index = int(layer._full_name.split("_")[-1])
        except (AttributeError, ValueError):
            index = len(rows)
        row = rows[f"{class_name}-{index + 1}"] = OrderedDict()
        row["input_shape"] = _shape_of(inputs)
        row["output_shape"] = _output_shape(output)
        params = 0
        row["trainable_params"] = 0
        seen_trainable = False
        for k, v in layer._parameters.items():
            if v is None:
                continue
            params += np.prod(v.shape)
            p = getattr(layer, k, None)
            if p is None:
                row["trainable"] = True
            elif p.trainable and not p.stop_gradient:
                row["trainable_params"] += np.prod(v.shape)
                row["trainable"] = True
                seen_trainable = True
            elif not seen_trainable:
                row["trainable"] = False
        row["nb_params"] = params

    def register(layer):
        if ((not isinstance(layer, (Sequential, LayerList))
                and (layer is not model or depth < 1))
                or getattr(layer, "could_use_cudnn", False)):     # an RNN given as the model
            hooks.append(layer.register_forward_post_hook(hook))

    if isinstance(input_size, tuple):
        input_size = [input_size]
    model.apply(register)
    try:
        if input is not None:
            model(input)
        else:
            model(*_build_input(input_size, dtypes))
    finally:
        for h in hooks:
            h.remove()

    widths = {"layer": 15, "input": 20, "output": 20, "params": 15}
    for name, row in rows.items():
        widths["output"] = max(widths["output"], len(str(row["output_shape"])))
        widths["input"] = max(widths["input"], len(str(row["input_shape"])))
        widths["layer"] = max(widths["layer"], len(name))
        widths["params"] = max(widths["params"], len(str(row["nb_params"])))
    table_width = max(75, sum(widths.values()) + 5)

    def line(a, b, c, d):
        return (f"{a:^{widths['layer']}} {b:^{widths['input']}} "
                f"{c:^{widths['output']}} {d:^{widths['params']}}\n")

    text = "-" * table_width + "\n"
    text += line("Layer (type)", "Input Shape", "Output Shape", "Param #")
    text += "=" * table_width + "\n"
    total_params = total_output = trainable_params = 0
    for name, row in rows.items():
        text += line(name, str(row["input_shape"]), str(row["output_shape"]),
                     f"{row['nb_params']:,}")
        total_params += row["nb_params"]
        try:
            total_output += np.sum(np.prod(row["output_shape"], axis=-1))
        except ValueError:      # outputs of several shapes
            for shape in row["output_shape"]:
                total_output += np.sum(np.prod(shape, axis=-1))
        if row.get("trainable"):
            trainable_params += row["trainable_params"]
    input_mb = _input_megabytes(input_size)
    output_mb = abs(2.0 * total_output * 4.0 / 1024 ** 2.0)
    params_mb = abs(total_params * 4.0 / 1024 ** 2.0)
    text += "=" * table_width + "\n"
    text += f"Total params: {total_params:,}\n"
    text += f"Trainable params: {trainable_params:,}\n"
    text += f"Non-trainable params: {total_params - trainable_params:,}\n"
    text += "-" * table_width + "\n"
    text += f"Input size (MB): {input_mb:0.2f}\n"
    text += f"Forward/backward pass size (MB): {output_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\n"
    text += f"Estimated Total Size (MB): {params_mb + output_mb + input_mb:0.2f}\n"
    text += "-" * table_width + "\n"
    return text, {"total_params": total_params, "trainable_params": trainable_params}
