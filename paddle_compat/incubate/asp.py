"""``paddle.incubate.asp``: automatic n:m structured sparsity (ASP) of dynamic-mode models.

``prune_model(layer, n=2, m=4)`` zeroes, in every group of ``m`` consecutive weights along a
supported layer's input dimension, the ``n`` of smallest magnitude (``mask_1d``; or an ``m x m``
block pattern with ``n`` kept per row and column: ``mask_2d_greedy``, ``mask_2d_best``), and
keeps each mask; ``decorate(optimizer)`` makes ``step()`` re-apply the masks after each update,
so the weights stay sparse during fine-tuning. Supported layers are those whose parameter names
start with ``fc``, ``linear`` or ``conv2d`` (``add_supported_layer`` adds more); weights whose
names contain an excluded layer name (``set_excluded_layers``) are left alone. Biases (``.b_``)
are never pruned. A weight whose pruned dimension is smaller than ``m`` is kept dense.

The masks and excluded names are kept per program (``paddle.static.default_main_program()`` in
dynamic mode), as in Paddle. In a static program, ``decorate(optimizer).minimize(loss)`` makes a
persistable mask of ones (``<param>.asp_mask``) per supported parameter and multiplies each
updated parameter by it; ``prune_model(program)`` (after the startup program ran) prunes the
weights in the global scope and writes their masks there.
"""
import collections
import enum
import itertools
import logging

import numpy as np

from ..autograd.grad_mode import no_grad
from ..framework.tensor import Tensor
from ..nn.layer.layers import Layer, _snake
from ..ops.creation import ones
from ..framework.param_attr import ParamAttr
from ..nn.initializer import Constant
from ..static import Program, create_parameter, default_main_program, global_scope
from ..static.mode import in_dynamic_mode

__all__ = ["calculate_density", "decorate", "prune_model", "set_excluded_layers",
           "reset_excluded_layers", "add_supported_layer"]

_log = logging.getLogger(__name__)
MASK_SUFFIX = "asp_mask"


class MaskAlgo(enum.Enum):
    """How a mask is chosen: per 1-D group of m, or per m x m block (greedy or best)."""
    MASK_1D = "get_mask_1d"
    MASK_2D_GREEDY = "get_mask_2d_greedy"
    MASK_2D_BEST = "get_mask_2d_best"


class CheckMethod(enum.Enum):
    """How n:m sparsity is checked: per 1-D group, or per m x m block."""
    CHECK_1D = "check_mask_1d"
    CHECK_2D = "check_mask_2d"

    @staticmethod
    def get_checking_method(mask_algo):
        """The check that matches ``mask_algo``."""
        assert isinstance(mask_algo, MaskAlgo), "mask_algo should be MaskAlgo type"
        return CheckMethod.CHECK_1D if mask_algo is MaskAlgo.MASK_1D else CheckMethod.CHECK_2D


def calculate_density(x):
    """The share of non-zero entries of ``x`` (a numpy array or a Tensor)."""
    flat = np.asarray(x.numpy() if isinstance(x, Tensor) else x).reshape(-1)
    return float(np.count_nonzero(flat)) / flat.size


# -- masks of 2-D matrices (rows: groups along the last axis)

def _groups_1d(mat, m):
    """``mat`` zero-padded to a multiple of m columns, as rows of m; and the padded shape."""
    rows, cols = mat.shape
    padded = np.zeros((rows, -(-cols // m) * m))
    padded[:, :cols] = mat
    return padded.reshape(-1, m), padded.shape


def get_mask_1d(mat, n, m):
    """A mask of ``mat`` zeroing the n smallest |values| of each group of m along a row."""
    groups, shape = _groups_1d(mat, m)
    mask = np.ones_like(groups)
    smallest = np.argsort(np.abs(groups), axis=1)[:, :n]
    np.put_along_axis(mask, smallest, 0, axis=1)
    out = np.ones_like(mat)
    out[:, :] = mask.reshape(shape)[:, :mat.shape[1]]
    return out


def check_mask_1d(mat, n, m):
    """Whether every group of m along the rows of ``mat`` has at most m - n non-zeros."""
    groups, _ = _groups_1d(mat.reshape(1, -1) if mat.ndim <= 1 else mat, m)
    return bool((np.count_nonzero(groups, axis=1) <= m - n).all())


def _blocks(mat, m):
    """``mat`` zero-padded to multiples of m, as a list of m x m blocks (row-major), and the
    padded shape."""
    r, c = (-(-s // m) * m for s in mat.shape)
    padded = np.zeros((r, c))
    padded[:mat.shape[0], :mat.shape[1]] = mat
    return padded.reshape(r // m, m, c // m, m).transpose(0, 2, 1, 3).reshape(-1, m, m), (r, c)


def _unblock(blocks, shape, mat_shape, m):
    r, c = shape
    full = blocks.reshape(r // m, c // m, m, m).transpose(0, 2, 1, 3).reshape(r, c)
    return full[:mat_shape[0], :mat_shape[1]]


def check_mask_2d(mat, n, m):
    """Whether each m x m block of ``mat`` has at most m - n non-zeros in every row or in
    every column."""
    blocks, _ = _blocks(mat, m)
    nz = np.abs(blocks) > 0
    rows_bad = (nz.sum(axis=2) > m - n).any(axis=1)
    cols_bad = (nz.sum(axis=1) > m - n).any(axis=1)
    return not bool((rows_bad & cols_bad).any())


def get_mask_2d_greedy(mat, n, m):
    """Per m x m block: keep entries from the largest |value| down while their row and column
    each hold fewer than n kept ones."""
    blocks, shape = _blocks(mat, m)
    masks = np.zeros_like(blocks)
    for block, mask in zip(np.abs(blocks), masks):
        order = np.argsort(block.reshape(-1))[::-1]
        rows, cols = collections.Counter(), collections.Counter()
        for flat in order:
            i, j = divmod(int(flat), m)
            if rows[i] < n and cols[j] < n:
                mask[i, j] = 1.0
                rows[i] += 1
                cols[j] += 1
    return _unblock(masks, shape, mat.shape, m)


_PATTERNS = {}


def _patterns_2d(n, m):
    """Every m x m 0/1 pattern with n ones per row, no column over n, and no row pattern used
    more than twice (Paddle's set of candidates)."""
    key = (n, m)
    if key not in _PATTERNS:
        rows = [tuple(1.0 if k in ones else 0.0 for k in range(m))
                for ones in itertools.combinations(range(m), n)]
        found = [p for p in itertools.product(rows, repeat=m)
                 if max(collections.Counter(p).values()) <= 2
                 and (np.asarray(p).sum(axis=0) <= n).all()]
        _PATTERNS[key] = np.asarray(found, dtype=float).reshape(-1, m, m)
    return _PATTERNS[key]


def get_mask_2d_best(mat, n, m):
    """Per m x m block: the valid pattern keeping the largest sum of values (Paddle scores the
    signed values, not their magnitudes)."""
    patterns = _patterns_2d(n, m)
    blocks, shape = _blocks(mat, m)
    best = np.argmax(blocks.reshape(-1, m * m) @ patterns.reshape(len(patterns), -1).T, axis=1)
    return _unblock(patterns[best], shape, mat.shape, m)


def _as_2d(shape, t):
    """``t`` laid out as the 2-D matrix the mask functions see (4-D: the last two axes swapped
    and the rest flattened, so groups run along axis 2)."""
    if len(shape) == 1:
        return t.reshape(1, shape[0])
    if len(shape) in (2, 3):
        return t.reshape(-1, shape[-1])
    if len(shape) == 4:
        return t.transpose(0, 1, 3, 2).reshape(-1, shape[2])
    raise ValueError("The dimension of input tensor is not supported in create_mask, Only "
                     f"dimension < 4 is supported but got {len(shape)}")


def create_mask(tensor, func_name=MaskAlgo.MASK_1D, n=2, m=4):
    """The n:m mask of ``tensor`` (1-D to 4-D, groups along the last axis; a 4-D tensor's along
    axis 2), in ``tensor``'s dtype."""
    assert isinstance(func_name, MaskAlgo), (
        "func_name argument of create_mask is only accepted as type MaskAlgo. "
        f"But got {type(func_name)}")
    shape = tensor.shape
    mask = _MASKS[func_name](_as_2d(shape, tensor.astype(float)), n=n, m=m)
    if len(shape) == 4:
        return mask.reshape(shape[0], shape[1], shape[3], shape[2]).transpose(
            0, 1, 3, 2).astype(tensor.dtype)
    return mask.reshape(shape).astype(tensor.dtype)


def check_sparsity(tensor, func_name=CheckMethod.CHECK_1D, n=2, m=4):
    """Whether ``tensor`` (1-D to 4-D, laid out as in ``create_mask``) is n:m sparse."""
    assert type(func_name) is CheckMethod, (
        "func_name argument of check_sparsity is only accepted as type CheckMethod. "
        f"But got {type(func_name)}")
    return _CHECKS[func_name](_as_2d(tensor.shape, tensor.astype(float)), n=n, m=m)


_MASKS = {MaskAlgo.MASK_1D: get_mask_1d, MaskAlgo.MASK_2D_GREEDY: get_mask_2d_greedy,
          MaskAlgo.MASK_2D_BEST: get_mask_2d_best}
_CHECKS = {CheckMethod.CHECK_1D: check_mask_1d, CheckMethod.CHECK_2D: check_mask_2d}


# -- supported layers and their pruning

def _default_pruning(weight, m, n, func_name, param_name):
    """(pruned weight, mask) of a weight: the mask over the transposed weight (a Linear's
    [in, out] groups along ``in``, a conv's [out, in, kh, kw] along ``in``); kept dense when that
    dimension is smaller than m."""
    shape = weight.shape
    if (len(shape) == 2 and shape[0] < m) or (len(shape) == 4 and shape[1] < m):
        _log.warning("%s is not pruned because the %s dimension of %s is smaller than %d",
                     param_name, "first" if len(shape) == 2 else "second", shape, m)
        return weight.copy(), np.ones_like(weight)
    mask = create_mask(weight.T, func_name=func_name, n=n, m=m).T
    pruned = np.multiply(weight, mask)
    assert check_sparsity(pruned.T, n=n, m=m,
                          func_name=CheckMethod.get_checking_method(func_name)), (
        f"Pruning {param_name} weight matrix failure!!!")
    return pruned, mask


_SUPPORTED = {}


def add_supported_layer(layer, pruning_func=None):
    """Prune the weights of layers named ``layer`` (a name, a Layer or a Layer class: its
    snake-cased class name) with ``pruning_func(weight, m, n, mask_algo, param_name) ->
    (pruned, mask)`` (the default n:m pruning when None)."""
    if isinstance(layer, str):
        name = layer
    elif isinstance(layer, Layer):
        name = _snake(type(layer).__name__)
    elif isinstance(layer, type) and issubclass(layer, Layer):
        name = _snake(layer.__name__)
    else:
        raise TypeError(f"The type of layer should be string of Layer, but got {type(layer)}!")
    _SUPPORTED[name] = pruning_func or _default_pruning


for _name in ("fc", "linear", "conv2d"):
    add_supported_layer(_name)
del _name


class _ProgramInfo:
    """What ASP keeps for one program: masks (numpy), mask tensors, excluded names."""

    def __init__(self):
        self.masks, self.mask_vars, self.excluded = {}, {}, []


_INFO = {}


def _info(program=None):
    program = default_main_program() if program is None else program
    return _INFO.setdefault(program, _ProgramInfo())


def _prune_func(info, param_name):
    """The pruning function for ``param_name`` (``linear_0.w_0``), or None when it is not
    pruned (a mask, an excluded layer, a bias, an unsupported layer)."""
    parts = param_name.split(".")
    if MASK_SUFFIX in parts or any(ex in param_name for ex in info.excluded):
        return None
    if param_name in _SUPPORTED:
        return _SUPPORTED[param_name]
    if len(parts) == 1 or "w_" not in parts[1]:
        return None
    head = parts[0]
    return _SUPPORTED.get(head) or _SUPPORTED.get(head[:head.rfind("_")])


def set_excluded_layers(param_names, main_program=None):
    """Leave the parameters whose names contain one of ``param_names`` dense."""
    _info(main_program).excluded.extend(param_names)


def reset_excluded_layers(main_program=None):
    """Forget the excluded names of ``main_program`` (of every program when None)."""
    for info in (_INFO.values() if main_program is None else [_info(main_program)]):
        info.excluded = []


def prune_model(model, n=2, m=4, mask_algo="mask_1d", with_mask=True):
    """Prune the supported weights of ``model`` (a Layer, or a static Program whose startup
    program ran) to n:m sparsity; returns ``{param name: mask}`` of every weight pruned so far
    in its program. ``with_mask`` also writes the masks ``decorate`` made (AssertionError when
    the optimizer was not decorated)."""
    algos = {"mask_1d": MaskAlgo.MASK_1D, "mask_2d_greedy": MaskAlgo.MASK_2D_GREEDY,
             "mask_2d_best": MaskAlgo.MASK_2D_BEST}
    assert mask_algo in algos, ('The "mask_algo" should be one of ["mask_1d", '
                                '"mask_2d_greedy", "mask_2d_best"]')
    if isinstance(model, Layer) and in_dynamic_mode():
        info, params = _info(), model.parameters()
        read, write = (lambda p: p.numpy()), (lambda p, v: p.set_value(v))
    elif isinstance(model, (Layer, Program)):
        # a static program's weights live in the global scope (a Layer built in static mode
        # belongs to the default program)
        program = model if isinstance(model, Program) else default_main_program()
        info, params, scope = _info(program), program.all_parameters(), global_scope()

        def read(p):
            return np.array(scope.find_var(p.name).get_tensor())

        def write(p, v):
            scope.find_var(p.name).get_tensor().set(v, None)
    else:
        raise TypeError(f"model should be paddle.nn.Layer or paddle.static.Program, but got "
                        f"{type(model)}")
    for param in params:
        func = _prune_func(info, param.name)
        if func is None:
            continue
        weight = read(param)
        pruned, mask = func(weight, m, n, algos[mask_algo], param.name)
        write(param, pruned.astype(weight.dtype))
        if with_mask:
            mask_var = info.mask_vars.get(param.name)
            assert mask_var is not None, (
                f"Cannot find {param.name}.{MASK_SUFFIX} variable, please call asp.decorate() "
                "to decorate your optimizer (and minimize, then run the startup program, in "
                "static mode) first!")
            if in_dynamic_mode():
                mask_var.set_value(mask.astype(weight.dtype))
            else:
                write(mask_var, mask.astype(weight.dtype))
        info.masks[param.name] = mask
    return info.masks.copy()


class OptimizerWithSparsityGuarantee:
    """An optimizer whose ``step()`` multiplies each pruned weight by its mask after the update;
    everything else is the wrapped optimizer's."""

    def __init__(self, optimizer):
        self._optimizer = optimizer

    def __getattr__(self, item):
        return getattr(self._optimizer, item)

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        """Static mode: the optimizer's backward and updates, each supported parameter's update
        multiplied by its mask (``<param>.asp_mask``, a parameter of ones not trained, made
        here)."""
        program = default_main_program()
        info = _info(program)
        for p in program.all_parameters():
            if _prune_func(info, p.name) is not None and p.name not in info.mask_vars:
                # a parameter of ones that is not trained, as Paddle's
                info.mask_vars[p.name] = create_parameter(
                    p.shape, str(p.dtype).replace("paddle.", ""),
                    attr=ParamAttr(name=f"{p.name}.{MASK_SUFFIX}", initializer=Constant(1.0),
                                   trainable=False))
        update = self._optimizer._static_update

        def masked(param, grad):
            new = update(param, grad)
            mask = info.mask_vars.get(param.name)
            return new if mask is None else new * mask

        self._optimizer._static_update = masked      # what the optimizer's minimize applies
        try:
            return self._optimizer.minimize(loss, startup_program, parameter_list, no_grad_set)
        finally:
            del self._optimizer._static_update

    def step(self):
        self._optimizer.step()
        info = _info()
        with no_grad():
            for param in self._optimizer._parameter_list:
                mask = info.mask_vars.get(param.name)
                if mask is not None:
                    param.set_value(param * mask)

    def state_dict(self):
        """The optimizer's state plus each mask as ``<param>.asp_mask``."""
        state = self._optimizer.state_dict()
        state.update({f"{k}.{MASK_SUFFIX}": v for k, v in _info().mask_vars.items()})
        return state

    def set_state_dict(self, state_dict):
        """Restore the masks (each must be in ``state_dict``), then the optimizer's state."""
        info = _info()
        for name, var in info.mask_vars.items():
            key = f"{name}.{MASK_SUFFIX}"
            assert key in state_dict, f"The {key} is not found."
            var.set_value(state_dict[key])
            info.masks[name] = var.numpy()
        return self._optimizer.set_state_dict(state_dict)


def decorate(optimizer):
    """Wrap ``optimizer`` so that its steps keep pruned weights sparse: makes a mask of ones
    (``<param>.asp_mask``, no gradient) for each supported parameter it updates."""
    if in_dynamic_mode():
        info = _info()
        for param in optimizer._parameter_list:
            if _prune_func(info, param.name) is not None and param.name not in info.mask_vars:
                mask = ones(param.shape, dtype=param.dtype)
                mask.name = f"{param.name}.{MASK_SUFFIX}"
                mask.stop_gradient = True
                info.mask_vars[param.name] = mask
    return OptimizerWithSparsityGuarantee(optimizer)
