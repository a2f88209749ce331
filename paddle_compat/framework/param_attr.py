"""``paddle.ParamAttr``: how a layer should create one parameter (name, initializer, learning
rate, regularizer, trainable, need_clip), and the rule that turns a layer's ``weight_attr`` /
``bias_attr`` argument into one.
"""
__all__ = ["ParamAttr", "to_param_attr"]


class ParamAttr:
    """Settings for a parameter a layer creates. ``learning_rate`` scales the optimizer's rate
    for this parameter; ``need_clip`` says whether gradient clipping applies to it."""

    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None,
                 trainable=True, do_model_average=True, need_clip=True):
        if name == "":
            raise ValueError("name of ParamAttr can not be empty str")
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average
        self.need_clip = need_clip

    def __repr__(self):
        return (f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, "
                f"learning_rate={self.learning_rate}, trainable={self.trainable})")


def to_param_attr(arg):
    """A ParamAttr for a layer's attr argument, or False for ``False`` (no such parameter).
    Accepts None/True, a ParamAttr, a name, an Initializer, a regularizer, or a list of these."""
    from ..nn.initializer import Initializer
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
