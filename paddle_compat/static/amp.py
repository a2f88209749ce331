"""``paddle.static.amp``: Paddle's static-graph mixed precision namespace.

``fp16_guard``: model-zoo networks (PaddleClas's ResNet family, for one) wrap their forward in
``with paddle.static.amp.fp16_guard():`` so that the same file trains under static AMP with
``use_fp16_guard=True``. Paddle only reads the guard when a static program is rewritten for
float16; in dynamic mode, and in a static program that is not rewritten, it changes nothing.

``CustomOpLists`` (``AutoMixedPrecisionLists``): the white (low precision), black (float32) and
gray (follow their inputs) op-type sets after a user's custom lists, as Paddle computes them.

``decorate(optimizer, ...)``: an optimizer whose ``minimize`` trains with loss scaling: the
loss times ``loss_scaling`` is differentiated, the gradients are divided by it, a step whose
gradients are not all finite updates with zero gradients, and (dynamic loss scaling) the
scale shrinks by ``decr_ratio`` after ``decr_every_n_nan_or_inf`` such steps and grows by
``incr_ratio`` after ``incr_every_n_steps`` finite ones. paddle_compat's static programs keep
their ops in float32 (no op is cast to float16: the lists are recorded, not applied), so the
values are those of float32 training with the same loss-scaling schedule (as Paddle 3.3.1's
legacy static graph gives on CPU).
"""
import contextlib
import copy

from .. import ops
from ..framework.amp_op_names import default_lists
from ..framework.parameter import unique_name
from .backward import append_backward
from .program import create_global_var, default_main_program

__all__ = ["fp16_guard", "CustomOpLists", "AutoMixedPrecisionLists", "decorate",
           "OptimizerWithMixedPrecision"]


@contextlib.contextmanager
def fp16_guard():
    """Mark the ops run inside as eligible for float16 under static AMP's ``use_fp16_guard``;
    otherwise (dynamic mode, or no static AMP rewrite) a no-op, as in Paddle."""
    yield


#: op types that run in whatever precision their inputs have (Paddle's static gray list)
GRAY = set(
    "elementwise_add elementwise_sub elementwise_mul elementwise_div elementwise_max "
    "elementwise_min elementwise_pow elementwise_mod elementwise_floordiv batch_norm layer_norm "
    "tanh sigmoid top_k pool2d pool3d dropout relu relu6 leaky_relu soft_relu flatten2 stack "
    "unstack uniform_random uniform_random_batch_size_like gaussian_random slice rank scale "
    "transpose2 reshape2 gather fill_constant get_tensor_from_selected_rows sign cast "
    "fused_bn_add_activation c_identity c_concat all_reduce concat split fused_feedforward "
    "fused_attention fused_multi_transformer".split())
_ONLY_FP16 = {"resnet_unit", "fused_bn_add_activation"}


def _amp_dtype(dtype):
    d = dtype.lower() if isinstance(dtype, str) else dtype
    if d not in ("float16", "bfloat16"):
        raise ValueError("If enable AMP, dtype should be 'float16' or 'bfloat16'.")
    return d


class AutoMixedPrecisionLists:
    """The op-type lists of static AMP: ``white_list`` (computed in ``dtype``),
    ``black_list`` (float32), ``gray_list``, and ``black_varnames`` (variables kept float32).
    A custom white op leaves the black and gray lists; a custom black op leaves the white and
    gray lists (and is listed unsupported); an op in both custom lists is a ValueError."""

    def __init__(self, custom_white_list=None, custom_black_list=None,
                 custom_black_varnames=None, dtype="float16"):
        self.amp_dtype = _amp_dtype(dtype)
        self._custom_white_list = custom_white_list
        self._custom_black_list = custom_black_list
        # the static lists start from float16's white list for either dtype, as Paddle's
        white, black = default_lists("O1", "float16")
        self.white_list = white | (_ONLY_FP16 if self.amp_dtype == "float16" else set())
        self.black_list = black
        self.gray_list = set(GRAY)
        # paddle_compat has no operator registry: no op is unsupported by the build, and the
        # known ops are those listed
        self.unsupported_list = set()
        self.all_list = self.white_list | self.black_list | self.gray_list
        self.black_varnames = copy.copy(custom_black_varnames)
        self._update_list()

    def _update_list(self):
        white, black = self._custom_white_list, self._custom_black_list
        for name in (white or ()) if black else ():
            if name in black:
                raise ValueError(f"The given custom_white_list overlaps custom_black_list with "
                                 f"< {name} >!")
        for name in white or ():
            (self.black_list if name in self.black_list else self.gray_list).discard(name)
            self.white_list.add(name)
        for name in black or ():
            (self.white_list if name in self.white_list else self.gray_list).discard(name)
            self.black_list.add(name)
            self.unsupported_list.add(name)
        self.all_list |= self.white_list | self.black_list


CustomOpLists = AutoMixedPrecisionLists


class OptimizerWithMixedPrecision:
    """``optimizer`` with static loss scaling (see the module docstring); other attributes are
    the wrapped optimizer's."""

    def __init__(self, optimizer, amp_lists, level, dtype, init_loss_scaling,
                 use_dynamic_loss_scaling, incr_every_n_steps, decr_every_n_nan_or_inf,
                 incr_ratio, decr_ratio):
        self._optimizer = optimizer
        self._amp_lists = amp_lists or AutoMixedPrecisionLists(dtype=dtype)
        self._amp_level = level
        self._init_loss_scaling = float(init_loss_scaling)
        self._use_dynamic_loss_scaling = use_dynamic_loss_scaling
        self._incr_every_n_steps = incr_every_n_steps
        self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
        self._incr_ratio = incr_ratio
        self._decr_ratio = decr_ratio
        self._loss_scaling = self._scaled_loss = None

    def __getattr__(self, item):
        return getattr(self._optimizer, item)

    def get_loss_scaling(self):
        """The loss-scaling Variable (after ``minimize``)."""
        assert self._loss_scaling is not None, \
            "Please call minimize() before calling get_loss_scaling()."
        return self._loss_scaling

    def get_scaled_loss(self):
        """The scaled loss Variable (after ``minimize``)."""
        return self._scaled_loss

    def amp_init(self, place, scope=None, test_program=None, use_fp16_test=False):
        """Parameters are not cast to float16 here (their ops run in float32): nothing to do."""

    def _global(self, value, name, dtype="float32"):
        return create_global_var([1], value, dtype, persistable=True, name=unique_name(name))

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        """Append the scaled backward, the finite check, the updates and the loss-scaling
        update to ``loss``'s program; returns ``(optimize_ops, params_grads)`` (the gradients
        unscaled)."""
        self._loss_scaling = scale = self._global(self._init_loss_scaling, "loss_scaling")
        self._scaled_loss = loss * scale
        program = default_main_program()
        plist = parameter_list or self._optimizer._parameter_list
        pgs = [(p, g) for p, g in append_backward(self._scaled_loss, parameter_list=plist,
                                                    no_grad_set=no_grad_set) if g is not None]
        with program.role_guard("optimize"):
            grads = [g / scale for _, g in pgs]
            finite = ops.full([], True, "bool")
            for g in grads:
                finite = ops.logical_and(finite, ops.all(ops.isfinite(g)))
            grads = [ops.where(finite, g, ops.zeros_like(g)) for g in grads]
            for (p, _), g in zip(pgs, grads):
                program.assign_persistable(p, self._optimizer._static_update(p, g))
            if self._use_dynamic_loss_scaling:
                self._update_scaling(program, finite, scale)
        return [], list(zip([p for p, _ in pgs], grads))

    def _update_scaling(self, program, finite, scale):
        """Paddle's dynamic loss scaling as ops: counters of good and bad steps."""
        good = self._global(0, "num_good_steps", "int32")
        bad = self._global(0, "num_bad_steps", "int32")
        zero = ops.zeros_like(good)
        new_good = ops.where(finite, good + 1, zero)
        new_bad = ops.where(finite, zero, bad + 1)
        grow = ops.logical_and(finite, new_good == self._incr_every_n_steps)
        shrink = ops.logical_and(ops.logical_not(finite),
                                 new_bad == self._decr_every_n_nan_or_inf)
        grown = scale * self._incr_ratio
        grown = ops.where(ops.isfinite(grown), grown, scale)
        new_scale = ops.where(grow, grown, ops.where(shrink, scale * self._decr_ratio, scale))
        program.assign_persistable(scale, new_scale)
        program.assign_persistable(good, ops.where(grow, zero, new_good))
        program.assign_persistable(bad, ops.where(shrink, zero, new_bad))


def decorate(optimizer, amp_lists=None, level="O1", dtype="float16", master_weight=None,
             master_grad=False, init_loss_scaling=None, incr_every_n_steps=None,
             decr_every_n_nan_or_inf=None, incr_ratio=2.0, decr_ratio=None,
             use_dynamic_loss_scaling=None, use_amp_guard=False, use_promote=False,
             use_pure_fp16=None, use_fp16_guard=None, use_bf16=None):
    """``optimizer`` wrapped for static mixed precision (both of Paddle's signatures: the
    float16 one, with ``use_pure_fp16``/``use_bf16`` and defaults 2**15, 1000, 2, 0.8, and the
    common one, with ``level``/``dtype`` and defaults 2**16, 2000, 1, 0.5)."""
    fp16_form = any(v is not None for v in (use_pure_fp16, use_fp16_guard, use_bf16))
    if fp16_form:
        level = "O2" if use_pure_fp16 else "O1"
        dtype = "bfloat16" if use_bf16 else "float16"
    defaults = (2 ** 15, 1000, 2, 0.8) if fp16_form else (2 ** 16, 2000, 1, 0.5)
    given = (init_loss_scaling, incr_every_n_steps, decr_every_n_nan_or_inf, decr_ratio)
    init, incr_n, decr_n, decr = (d if v is None else v for v, d in zip(given, defaults))
    if level not in ("O1", "O2", "OD"):
        raise ValueError(f"level should be O1, O2 or OD, but got {level}")
    dtype = _amp_dtype(dtype)
    if use_dynamic_loss_scaling is None:
        use_dynamic_loss_scaling = dtype == "float16"
    return OptimizerWithMixedPrecision(optimizer, amp_lists, level, dtype, init,
                                       use_dynamic_loss_scaling, incr_n, decr_n, incr_ratio,
                                       decr)
