"""``paddle.ParamAttr``: how a layer should create one parameter (name, initializer, learning
rate, regularizer, trainable, need_clip). ``nn.param_attr.to_param_attr`` turns a layer's
``weight_attr`` / ``bias_attr`` argument into one.
"""
__all__ = ["ParamAttr"]


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

    @staticmethod
    def _to_attr(arg):
        """Paddle's private converter (``nn.param_attr.to_param_attr`` is the layers' one):
        None/True -> ParamAttr(), False -> False, a list -> a list, a name, an Initializer or a
        regularizer -> a ParamAttr holding it; TypeError for anything else. (The classes are
        recognised by their base names: they live on higher floors.)"""
        if arg is None or arg is True:
            return ParamAttr()
        if arg is False:
            return False
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        bases = {k.__name__ for k in type(arg).__mro__}
        if "Initializer" in bases:
            return ParamAttr(initializer=arg)
        if "WeightDecayRegularizer" in bases or type(arg).__name__.endswith("Decay"):
            return ParamAttr(regularizer=arg)
        raise TypeError(f"{type(arg)} cast to ParamAttr")

    def __repr__(self):
        return (f"ParamAttr(name={self.name!r}, initializer={self.initializer!r}, "
                f"learning_rate={self.learning_rate}, trainable={self.trainable})")
