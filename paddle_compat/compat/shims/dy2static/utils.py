"""``paddle.jit.dy2static`` / ``paddle.jit.dy2static.utils``: the helpers of Paddle's
dynamic-to-static translator that tests reach for."""
import inspect

__all__ = ["parse_arg_and_kwargs"]


def parse_arg_and_kwargs(function):
    """``(names of the positional parameters, {name: default})`` of ``function``; a leading
    ``self`` is not counted."""
    spec = inspect.getfullargspec(function)
    names = list(spec.args)
    if names[:1] == ["self"]:
        names = names[1:]
    defaults = spec.defaults or ()
    if len(defaults) > len(names):
        raise ValueError(f"{getattr(function, '__name__', function)!r} has more defaults "
                         "than parameters")
    with_default = names[len(names) - len(defaults):] if defaults else []
    return names, dict(zip(with_default, defaults))
