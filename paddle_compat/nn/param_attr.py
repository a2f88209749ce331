"""The rule that turns a layer's ``weight_attr`` / ``bias_attr`` argument into a ``ParamAttr``."""
from ..framework.param_attr import ParamAttr
from .initializer import Initializer

__all__ = ["to_param_attr"]


def to_param_attr(arg):
    """A ParamAttr for a layer's attr argument, or False for ``False`` (no such parameter).
    Accepts None/True, a ParamAttr, a name, an Initializer, a regularizer, or a list of these."""
    if arg is None or arg is True:
        return ParamAttr()
    if arg is False:
        return False
    if isinstance(arg, (list, tuple)):
        return [to_param_attr(a) for a in arg]
    if isinstance(arg, ParamAttr):
        return arg
    if isinstance(arg, str):
        return ParamAttr(name=arg)
    if isinstance(arg, Initializer):
        return ParamAttr(initializer=arg)
    if type(arg).__name__.endswith("Decay"):          # L1Decay / L2Decay regularizers
        return ParamAttr(regularizer=arg)
    raise TypeError(f"{type(arg)} cast to ParamAttr")
