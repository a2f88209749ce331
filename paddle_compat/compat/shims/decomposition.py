"""``paddle.decomposition``: Paddle rewrites a PIR program's composite operators into primitive
ones (for its compiler). paddle_compat's programs are graphs of its own operators, which are
run as they are: ``decompose`` leaves the program alone and returns the values it was given,
which hold what the decomposed program would compute."""

__all__ = ["decompose"]


def decompose(program, src_vars, blacklist=frozenset(), whitelist=frozenset(), start_index=0,
              end_index=-1):
    """The values of ``src_vars`` after decomposition: the same Variables here."""
    if not isinstance(src_vars, (list, tuple)):
        raise TypeError(f"decompose takes a list of the program's values, got "
                        f"{type(src_vars).__name__}")
    return list(src_vars)
