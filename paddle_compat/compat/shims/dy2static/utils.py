"""``paddle.jit.dy2static`` / ``paddle.jit.dy2static.utils``: the helpers of Paddle's
dynamic-to-static translator that tests reach for."""
import inspect

__all__ = ["parse_arg_and_kwargs"]


def parse_arg_and_kwargs(function):
    """``(names of the positional parameters, {name: default})`` of ``function``; a leading
    ``self`` is not counted."""
    # the signature (not getfullargspec): it sees through wrappers to the op's own parameters
    params = [p for p in inspect.signature(function).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    names = [p.name for p in params]
    if names[:1] == ["self"]:
        names, params = names[1:], params[1:]
    defaults = tuple(p.default for p in params if p.default is not p.empty)
    if len(defaults) > len(names):
        raise ValueError(f"{getattr(function, '__name__', function)!r} has more defaults "
                         "than parameters")
    with_default = names[len(names) - len(defaults):] if defaults else []
    return names, dict(zip(with_default, defaults))
