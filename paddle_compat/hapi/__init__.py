"""``paddle.hapi``: the high-level API: ``Model`` (fit / evaluate / predict), ``summary``,
``flops``, the callbacks (``paddle.callbacks``) and the progress bar."""
from . import callbacks, progressbar
from .dynamic_flops import flops
from .model import Model
from .model_summary import summary

__all__ = ["Model", "summary", "flops", "callbacks", "progressbar"]
