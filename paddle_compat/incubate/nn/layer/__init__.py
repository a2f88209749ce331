"""``paddle.incubate.nn.layer``: Paddle's package of the fused layers, one module each; ours
live in ``incubate.nn.layers`` and ``incubate.nn.fused_dropout``, and Paddle's module names
(``layer.fused_dropout_add``, ``layer.fused_linear``, ``layer.fused_dropout_nd``) resolve to
those modules."""

__all__ = []
