"""A parser for PaddleAPITest config lines such as

    paddle.Tensor.__add__(Tensor([0, 4],"float16"), 1, )
    paddle.nn.functional.pad(x=Tensor([1, 2, 3],"float32"), pad=list[1,1,], mode="reflect", )

into ``Call(api, args, kwargs)`` made of plain Python values and a few markers:
``TensorSpec(shape, dtype)`` for ``Tensor([...],"dtype")``, ``DType(name)`` for
``Dtype(float32)`` / ``VarType(float32)``, ``NpType(name)`` for ``type(numpy.float32)``.
``list[...]`` is a list, ``tuple(...)`` a tuple, ``slice(a,b,c)`` a slice (whose parts may be
tensors), ``complex(a,b)`` a complex; numbers, strings, True/False/None, nan, math.inf and
Ellipsis are themselves. Pure Python: no Paddle, no numpy.
"""
import math
import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TensorSpec:
    shape: tuple
    dtype: str

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n


@dataclass(frozen=True)
class DType:
    name: str


@dataclass(frozen=True)
class NpType:
    name: str          # "numpy.float32", "bool", "int", ...


@dataclass
class Call:
    api: str
    args: list
    kwargs: dict = field(default_factory=dict)
    line: str = ""

    def tensors(self):
        """Every TensorSpec in the call with its path (("a", 0), ("k", "x"), then indices)."""
        out = []

        def walk(v, path):
            if isinstance(v, TensorSpec):
                out.append((path, v))
            elif isinstance(v, (list, tuple)):
                for i, e in enumerate(v):
                    walk(e, path + (i,))
            elif isinstance(v, slice):
                for i, e in enumerate((v.start, v.stop, v.step)):
                    walk(e, path + (i,))
        for i, a in enumerate(self.args):
            walk(a, ("a", i))
        for k, a in self.kwargs.items():
            walk(a, ("k", k))
        return out


class ParseError(ValueError):
    pass


_TOKEN = re.compile(r"""
    \s*(?:
      (?P<str>"(?:[^"\\]|\\.)*")
    | (?P<cplx>\(?[-+]?[\d.]+(?:[eE][-+]?\d+)?(?:[-+][\d.]+(?:[eE][-+]?\d+)?)?j\)?)
    | (?P<num>[-+]?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d+))
    | (?P<name>-?[A-Za-z_][A-Za-z0-9_.]*)
    | (?P<punct>[\[\]\(\),=])
    )""", re.X)


def _tokens(text):
    pos, out = 0, []
    n = len(text)
    while pos < n:
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ParseError(f"cannot read {text[pos:pos + 30]!r}")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


_NAMES = {"True": True, "False": False, "None": None, "nan": math.nan, "-nan": math.nan,
          "inf": math.inf, "-inf": -math.inf, "math.inf": math.inf, "-math.inf": -math.inf,
          "math.nan": math.nan, "-math.nan": math.nan, "Ellipsis": Ellipsis,
          "math.pi": math.pi, "-math.pi": -math.pi, "math.e": math.e}


class _Parser:
    def __init__(self, toks):
        self.toks, self.i = toks, 0

    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else (None, None)

    def take(self, value=None):
        tok = self.peek()
        if tok[0] is None or (value is not None and tok[1] != value):
            raise ParseError(f"expected {value!r}, got {tok[1]!r} at token {self.i}")
        self.i += 1
        return tok

    def items(self, close):
        """Comma-separated values up to ``close`` (trailing comma allowed)."""
        out = []
        while self.peek()[1] != close:
            out.append(self.value())
            if self.peek()[1] == ",":
                self.take(",")
        self.take(close)
        return out

    def value(self):
        kind, text = self.take()
        if kind == "str":
            return bytes(text[1:-1], "utf-8").decode("unicode_escape")
        if kind == "cplx":
            return complex(text.strip("()"))
        if kind == "num":
            return float(text) if any(c in text for c in ".eE") else int(text)
        if kind == "punct":
            raise ParseError(f"unexpected {text!r}")
        if text == "Tensor":
            self.take("(")
            self.take("[")
            shape = tuple(self.items("]"))
            self.take(",")
            dtype = self.value()
            self.take(")")
            return TensorSpec(shape, dtype)
        if text == "list" and self.peek()[1] == "[":
            self.take("[")
            return self.items("]")
        if text == "tuple" and self.peek()[1] == "(":
            self.take("(")
            return tuple(self.items(")"))
        if text == "slice":
            self.take("(")
            parts = self.items(")")
            return slice(*parts)
        if text == "complex":
            self.take("(")
            re_, im = self.items(")")
            return complex(re_, im)
        if text in ("Dtype", "VarType"):
            self.take("(")
            _, name = self.take()
            self.take(")")
            return DType(name)
        if text == "type":
            self.take("(")
            _, name = self.take()
            self.take(")")
            return NpType(name)
        if text in _NAMES:
            return _NAMES[text]
        raise ParseError(f"unknown name {text!r}")


def parse(line):
    """The Call of one config line."""
    line = line.strip()
    cut = line.index("(")
    api = line[:cut]
    toks = _tokens(line[cut:])
    p = _Parser(toks)
    p.take("(")
    args, kwargs = [], {}
    while p.peek()[1] != ")":
        if p.peek()[0] == "name" and p.peek(1)[1] == "=":
            key = p.take()[1]
            p.take("=")
            kwargs[key] = p.value()
        else:
            if kwargs:
                raise ParseError("positional argument after keyword")
            args.append(p.value())
        if p.peek()[1] == ",":
            p.take(",")
    p.take(")")
    if p.i != len(toks):
        raise ParseError("text after the call")
    return Call(api, args, kwargs, line)
