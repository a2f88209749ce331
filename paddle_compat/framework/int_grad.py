"""Gradients through integer and bool tensors, as Paddle has them.

Paddle lets a cast to an integer dtype take part in autograd: ``y = x.astype('int32')`` keeps
``stop_gradient=False``, ``y.astype('float32')`` carries gradients back to ``x`` (truncated to
integers on the way, as Paddle's integer gradient is), and a PyLayer's integer outputs receive
integer gradients in ``backward``. Torch cannot attach autograd to an integer tensor, so such a
tensor's payload is an ``IntGradPayload``: the integer torch tensor itself (a zero-copy
``as_subclass`` view, every torch op on it gives a plain tensor) plus ``carrier``, a floating
torch tensor of the same shape that is joined to the graph. ``cast`` of a payload goes through
``CastBridge``, whose backward casts the gradient to the integer dtype and back, so the values
reaching the carrier are what Paddle computes.

Only casts carry the gradient on (and PyLayer outputs start it); any other op on an integer
tensor stops gradient here, where Paddle would raise or pass gradients through integer kernels.

An ``IntGradPayload`` is not an exact ``torch.Tensor``, so the C fast paths
(``framework/_fastops.c``) leave it to the Python functions.
"""
import torch

__all__ = ["IntGradPayload", "carrying", "cast_payload", "make_payload"]


class IntGradPayload(torch.Tensor):
    """An integer/bool torch tensor with ``carrier``: the floating tensor its gradient flows to."""

    __torch_function__ = torch._C._disabled_torch_function_impl


class CastBridge(torch.autograd.Function):
    """``t`` (integer values) as ``dtype``; the gradient goes to ``carrier`` through ``t``'s
    integer dtype, as Paddle's cast gradient does."""

    @staticmethod
    def forward(ctx, carrier, t, dtype):
        ctx.int_dtype = t.dtype
        ctx.carrier_dtype = carrier.dtype
        return t.to(dtype=dtype)

    @staticmethod
    def backward(ctx, g):
        return g.to(ctx.int_dtype).to(ctx.carrier_dtype), None, None


def make_payload(t, carrier):
    """``t`` (integer/bool, plain) as a payload whose gradient flows to ``carrier``."""
    p = t.as_subclass(IntGradPayload)
    p.carrier = carrier
    return p


def carrying(t):
    """Whether a torch tensor is a payload carrying a gradient."""
    return type(t) is IntGradPayload


def cast_payload(t, d):
    """Cast for the cases a plain ``t.to(d)`` gets wrong: ``t`` a payload, or a floating ``t``
    that requires grad cast to a non-differentiable dtype. Returns ``(torch tensor, keeps)``;
    ``keeps``: the result is an integer tensor that does not stop gradient."""
    diff = d.is_floating_point or d.is_complex
    if type(t) is IntGradPayload:
        plain = t.as_subclass(torch.Tensor)
        if diff:
            return CastBridge.apply(t.carrier, plain, d), False
        if torch.is_grad_enabled():
            return make_payload(plain.to(dtype=d, copy=True),
                                CastBridge.apply(t.carrier, plain, t.carrier.dtype)), True
        return plain.to(dtype=d, copy=True), False
    r = t.to(dtype=d)
    if not diff and t.requires_grad:
        return make_payload(r, t), True
    return r, False
