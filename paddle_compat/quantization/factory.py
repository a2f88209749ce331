"""Quanter factories: what a ``QuantConfig`` holds. A factory keeps a quanter class and the
arguments to build it with; ``_instance(layer)`` builds one quanter layer per quantised layer.
``quanter("Name")`` declares such a factory for a user's quanter class."""
import abc
import functools
import sys

__all__ = ["ClassWithArguments", "QuanterFactory", "ObserverFactory", "quanter"]


class ClassWithArguments(metaclass=abc.ABCMeta):
    """Holds ``args`` / ``kwargs``; prints as ``Name(arg,key=value)``."""

    def __init__(self, *args, **kwargs):
        self._args = args
        self._kwargs = kwargs

    @property
    def args(self):
        return self._args

    @property
    def kwargs(self):
        return self._kwargs

    @abc.abstractmethod
    def _get_class(self):
        pass

    def __str__(self):
        parts = [str(a) for a in self.args] + [f"{k}={v}" for k, v in self.kwargs.items()]
        return f"{type(self).__name__}({','.join(parts)})"

    __repr__ = __str__


class QuanterFactory(ClassWithArguments):
    """Builds a quanter layer for a target layer: ``cls(*args, layer, **kwargs)``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.partial_class = None

    def _instance(self, layer):
        if self.partial_class is None:
            self.partial_class = functools.partial(self._get_class(), *self.args,
                                                   **self.kwargs)
        return self.partial_class(layer)


ObserverFactory = QuanterFactory


def quanter(class_name):
    """Class decorator: declare a factory class ``class_name`` for the decorated quanter
    layer class, in the module where the decoration is written (and in its ``__all__``)::

        @quanter("CustomizedQuanter")
        class CustomizedQuanterLayer(BaseQuanter):
            def __init__(self, layer, bits=8): ...

        q_config = QuantConfig(activation=CustomizedQuanter(bits=4), weight=None)
    """
    def wrapper(target_class):
        def __init__(self, *args, **kwargs):
            QuanterFactory.__init__(self, *args, **kwargs)

        def _get_class(self):
            return target_class

        factory = type(class_name, (QuanterFactory,),
                       {"__init__": __init__, "_get_class": _get_class,
                        "__module__": target_class.__module__})
        mod = sys.modules.get(sys._getframe(1).f_globals.get("__name__"))
        if mod is not None:
            setattr(mod, class_name, factory)
            if isinstance(mod.__dict__.get("__all__"), list):
                mod.__all__.append(class_name)
        return target_class
    return wrapper
