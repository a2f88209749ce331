"""``paddle.quantization``: quantisation-aware training (``QAT``) and post-training
quantisation (``PTQ``) configured by ``QuantConfig``, with the quanters of
``paddle.quantization.quanters`` and the observers of ``paddle.quantization.observers``;
the older dygraph tools ``ImperativeQuantAware`` and ``ImperativePTQ`` with their
quantizers (``AbsmaxQuantizer`` ... ``KLQuantizer``), ``PTQConfig`` and ``PTQRegistry``.

Everything runs in eager mode, in float32 (Paddle's fake-quant kernels are float32-only on
CPU); the arithmetic is Paddle's (see ``quanters`` and ``format``).
"""
from . import observers, quanters  # noqa: F401  (paddle.quantization.observers ...)
from .base_observer import BaseObserver
from .base_quanter import BaseQuanter
from .config import QuantConfig
from .factory import quanter
from .ptq import PTQ
from .qat import QAT

# outside Paddle's __all__, importable from paddle.quantization all the same
from .imperative import (AbsmaxQuantizer, BaseQuantizer, HistQuantizer,  # noqa: F401
                         ImperativePTQ, ImperativeQuantAware, KLQuantizer,
                         PerChannelAbsmaxQuantizer, PTQConfig, PTQRegistry,
                         SUPPORT_ACT_QUANTIZERS, SUPPORT_WT_QUANTIZERS, default_ptq_config)

__all__ = ["QuantConfig", "BaseQuanter", "BaseObserver", "quanter", "QAT", "PTQ"]
