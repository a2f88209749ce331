"""Paddle's text form of a tensor (``repr``/``str``) and ``paddle.set_printoptions``.

The layout follows Paddle 3.3.1 to the byte, including its oddities: floats are always fixed
point unless ``sci_mode`` is set, integer-valued floats print as ``2.`` (``inf.`` too), column
width and the sign column are decided from the edge items only (even when nothing is
summarised), and the widest item gets no sign padding. Only the items that can be printed are
copied off the device.
"""
import math
import operator

import torch

__all__ = ["PrintOptions", "options", "set_printoptions", "format_tensor", "DEFAULT_PRINTOPTIONS"]

DEFAULT_PRINTOPTIONS = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)

_PREFIX = "Tensor"


class PrintOptions:
    """The print options in force (Paddle's defaults until changed)."""

    __slots__ = tuple(DEFAULT_PRINTOPTIONS)

    def __init__(self):
        for k, v in DEFAULT_PRINTOPTIONS.items():
            setattr(self, k, v)

    def as_dict(self):
        """The options as a dict, for saving and restoring."""
        return {k: getattr(self, k) for k in self.__slots__}

    def __repr__(self):
        return "PrintOptions(" + ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items()) + ")"


options = PrintOptions()


def _cast_error(value):
    # Paddle's C++ setter rejects such values with this pybind11 message (Paddle has by then
    # already stored the bad value on its Python side; here nothing is changed).
    return RuntimeError(f"Unable to cast Python instance of type {type(value)} to C++ type '?' "
                        "(#define PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode "
                        "for details)")


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None,
                     linewidth=None):
    """Set how tensors print; an argument left as None keeps its current value.

    Defaults: precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80.
    """
    new = {}
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is None:
            continue
        try:
            operator.index(value)
        except TypeError:
            raise _cast_error(value) from None
        new[name] = value
    if sci_mode is not None:
        # Paddle's C++ side takes anything with a truth value that is a number or a bool.
        if isinstance(sci_mode, (str, bytes)) or not hasattr(type(sci_mode), "__bool__"):
            raise _cast_error(sci_mode)
        new["sci_mode"] = sci_mode
    for name, value in new.items():
        setattr(options, name, value)


# --- items -------------------------------------------------------------------------------

def _is_negative(x):
    """``x < 0`` as numpy decides it (complex: by real part, then by imaginary part)."""
    if isinstance(x, complex):
        return x.real < 0 or (x.real == 0 and x.imag < 0)
    return x < 0


def _item_formatter(kind, precision, sci_mode):
    """A function turning one Python value into its Paddle text."""
    if kind == "float":
        if sci_mode:
            spec = f".{precision}e"
            return lambda x: format(x, spec)
        spec = f".{precision}f"

        def fmt_float(x):
            if math.isinf(x) or x.is_integer():
                return format(x, ".0f") + "."
            return format(x, spec)
        return fmt_float
    if kind == "complex":
        spec = f".{precision}{'e' if sci_mode else 'f'}"

        def fmt_complex(z):
            re, im = format(z.real, spec), format(z.imag, spec)
            # Paddle writes the '+' only when imag >= 0: NaN gets none, -0.0 gets '+-'.
            return f"({re}+{im}j)" if z.imag >= 0 else f"({re}{im}j)"
        return fmt_complex
    return str


def _padded(s, x, width, signed):
    if width <= len(s):
        return s
    if signed and not _is_negative(x):
        return " " + s.ljust(width - 1)
    return s.ljust(width)


# --- picking the items -------------------------------------------------------------------

def _edge_positions(n, edgeitems):
    """Positions along a dim of length n that Paddle measures widths on."""
    if n <= 2 * edgeitems:
        return range(n)
    r = range(n)
    head, tail = r[:edgeitems], r[-edgeitems:]
    if edgeitems > 0:
        return list(head) + list(tail)
    return sorted(set(head) | set(tail))


def _take_edges(t, edgeitems):
    """The sub-tensor of the first/last ``edgeitems`` along every long dim (edgeitems > 0)."""
    if all(n <= 2 * edgeitems for n in t.shape):
        return t
    nd = t.dim()
    index = []
    for d, n in enumerate(t.shape):
        if n > 2 * edgeitems:
            ix = torch.cat([torch.arange(edgeitems, device=t.device),
                            torch.arange(n - edgeitems, n, device=t.device)])
        else:
            ix = torch.arange(n, device=t.device)
        shape = [1] * nd
        shape[d] = -1
        index.append(ix.view(shape))
    return t[tuple(index)]


def _to_python(t):
    """Nested Python lists (or a scalar) holding the exact values of ``t``."""
    if t.dtype == torch.bfloat16 or t.dtype == torch.float16:
        t = t.float()  # float16 is exact too; keeps tolist() on well-trodden paths
    elif t.dtype == torch.complex32:
        t = t.to(torch.complex64)
    return t.cpu().tolist()


def _flat_edges(data, shape, edgeitems, out):
    """Append to ``out`` the items of ``data`` that Paddle measures widths on."""
    if not shape:
        out.append(data)
        return
    pos = _edge_positions(shape[0], edgeitems)
    if len(shape) == 1:
        out.extend(data[i] for i in pos)
    else:
        for i in pos:
            _flat_edges(data[i], shape[1:], edgeitems, out)


# --- layout ------------------------------------------------------------------------------

def _layout(data, shape, cut, indent, item, opts):
    """The bracketed text of ``data``. With ``cut``, dims longer than 2*edgeitems are summarised
    and ``data`` holds only their 2*edgeitems edge entries (edgeitems > 0 then)."""
    e = opts.edgeitems
    n = shape[0]
    if cut and n > 2 * e:
        order = list(range(e)) + [None] + list(range(e, 2 * e))
    else:
        order = range(n)
    if len(shape) == 1:
        items = ["..." if i is None else item(data[i]) for i in order]
        per_line = max(1, (opts.linewidth - indent) // (item.width + 2))
        lines = [", ".join(items[k:k + per_line]) for k in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    parts = ["..." if i is None else _layout(data[i], shape[1:], cut, indent + 1, item, opts)
             for i in order]
    sep = "," + "\n" * (len(shape) - 1) + " " * (indent + 1)
    return "[" + sep.join(parts) + "]"


class _Item:
    """Formats one displayed value with the common width and sign column."""

    def __init__(self, fmt, width, signed):
        self.fmt, self.width, self.signed = fmt, width, signed

    def __call__(self, x):
        return _padded(self.fmt(x), x, self.width, self.signed)


def _format_data(t, opts, indent=len(_PREFIX) + 1):
    """The data part of the text (everything after the header's indent of ``indent``)."""
    shape = list(t.shape)
    numel = math.prod(shape)
    summary = numel > opts.threshold
    e = opts.edgeitems
    if t.dtype.is_complex:
        kind = "complex"
    elif t.dtype.is_floating_point:
        kind = "float"
    else:
        kind = "int"
    fmt = _item_formatter(kind, opts.precision, opts.sci_mode)

    if not shape:
        return fmt(_to_python(t))
    if summary and e <= 0:
        # Nothing but the top-level '...' is printed (an empty top dim prints as []).
        return "[...]" if shape[0] > 2 * e else "[]"

    measured = []
    if summary:
        # Only the edges are printed, and they are exactly what Paddle measures.
        data = _to_python(_take_edges(t, e))
        _flat_edges(data, [min(n, 2 * e) for n in shape], e, measured)
    else:
        # Everything is printed, but widths and the sign column still come from the edges.
        data = _to_python(t)
        _flat_edges(data, shape, e, measured)
    width, signed = 0, False
    for x in measured:
        width = max(width, len(fmt(x)))
        signed = signed or _is_negative(x)
    return _layout(data, shape, summary, indent, _Item(fmt, width, signed), opts)


def format_tensor(t, dtype_name, place_repr, stop_gradient, extra=None):
    """Paddle's ``repr``/``str`` of a tensor holding ``t`` (a torch.Tensor, any device);
    ``extra`` goes after ``stop_gradient=`` (a distributed tensor's mesh and placements)."""
    t = t.detach()
    if t.layout is not torch.strided:
        return _format_sparse(t, dtype_name, place_repr, stop_gradient)
    if t.is_conj():
        t = t.resolve_conj()
    if t.is_neg():
        t = t.resolve_neg()
    data = _format_data(t, options)
    indent = " " * (len(_PREFIX) + 1)
    extra = f" {extra}" if extra else ""
    return (f"{_PREFIX}(shape={list(t.shape)}, dtype={dtype_name}, place={place_repr}, "
            f"stop_gradient={stop_gradient},{extra}\n{indent}{data})")


def _format_sparse(t, dtype_name, place_repr, stop_gradient):
    """A sparse COO or CSR tensor as Paddle prints it: the header (its dtype written
    ``paddle.float32``, a space before each line break), then ``indices=``/``values=`` or
    ``crows=``/``cols=``/``values=``, each laid out as a dense tensor indented under its label.
    A 3-D CSR tensor's arrays print flat, as Paddle holds them."""
    if t.layout is torch.sparse_coo:
        parts = (("indices", t._indices()), ("values", t._values()))
    elif t.layout is torch.sparse_csr:
        v = t.values()
        parts = (("crows", t.crow_indices().reshape(-1)), ("cols", t.col_indices().reshape(-1)),
                 ("values", v.reshape((-1,) + tuple(v.shape[t.dim() - 1:]))))
    else:
        raise TypeError(f"cannot print a tensor of layout {t.layout}")
    indent = len(_PREFIX) + 1
    body = ", \n".join(f"{' ' * indent}{label}="
                       + _format_data(a, options, indent + len(label) + 1)
                       for label, a in parts)
    return (f"{_PREFIX}(shape={list(t.shape)}, dtype=paddle.{dtype_name}, place={place_repr}, "
            f"stop_gradient={stop_gradient}, \n{body})")
