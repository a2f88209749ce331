"""``paddle.incubate.identity_loss``, ``paddle.incubate.inference`` (also
``paddle.incubate.jit.inference``) and ``paddle.incubate.jit.is_inference_mode``."""
import functools

from ..autograd.grad_mode import no_grad
from ..framework.tensor import wrap
from ..jit import to_static
from ..nn.layer.layers import Layer

__all__ = ["identity_loss", "inference", "is_inference_mode"]

_REDUCTIONS = {0: "sum", 1: "mean", 2: "none", "sum": "sum", "mean": "mean", "none": "none"}


def identity_loss(x, reduction="none"):
    """Mark ``x`` as the loss (for IPU graphs in Paddle): its sum, mean or itself
    (``reduction`` "sum"/0, "mean"/1, "none"/2)."""
    how = _REDUCTIONS.get(reduction) if isinstance(reduction, (int, str)) else None
    if how is None:
        raise TypeError("Unsupported reduction type.")
    t = x._t
    return wrap(t.sum() if how == "sum" else t.mean() if how == "mean" else t)


def inference(function=None, cache_static_model=False, save_model_dir=None,
              memory_pool_init_size_mb=1000, precision_mode="float32", switch_ir_optim=True,
              switch_ir_debug=False, enable_cinn=False, with_trt=False,
              trt_precision_mode="float32", trt_use_static=False, collect_shape=False,
              enable_new_ir=False, exp_enable_use_cutlass=False, delete_pass_lists=None,
              skip_prune_program=False):
    """Decorator: run a Layer's method (or a function) as a static graph for inference, with
    gradients off. Usable bare (``@inference``) or with options (``@inference(...)``).

    Paddle converts the function into a Paddle Inference model on disk; here it is
    ``jit.to_static`` (a torch.fx graph) run under ``no_grad``. The engine options that only
    tune Paddle Inference (memory pool, IR passes, caching) have nothing to tune; TensorRT,
    CINN, cutlass and precisions other than float32 raise ``NotImplementedError``."""
    if with_trt or enable_cinn or exp_enable_use_cutlass:
        raise NotImplementedError("paddle.incubate.inference: TensorRT, CINN and cutlass are "
                                  "Paddle Inference engines, not available here")
    if precision_mode != "float32":
        raise NotImplementedError(f"paddle.incubate.inference: precision_mode="
                                  f"{precision_mode!r} is not supported (float32 only)")

    if is_inference_mode(function):
        return function

    def decorate(fn):
        if isinstance(fn, Layer):
            fn = fn.forward
        static_fn = to_static(fn)

        @functools.wraps(fn)
        def run(*args, **kwargs):
            with no_grad():
                return static_fn(*args, **kwargs)
        run.__name__ = "innermost_decorator"        # what is_inference_mode looks for
        return run

    if isinstance(function, Layer):
        function.forward = decorate(function.forward)   # the Layer itself, as in Paddle
        return function
    if function is not None:
        return decorate(function)
    return decorate


def is_inference_mode(function):
    """Whether ``function`` (or a Layer's ``forward``) was made by ``inference``."""
    if isinstance(function, Layer):
        return function.forward.__name__ == "innermost_decorator"
    return getattr(function, "__name__", None) == "innermost_decorator"
