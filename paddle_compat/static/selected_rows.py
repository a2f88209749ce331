"""Operators over ``SelectedRows`` inputs (``core.Operator.run`` on a Scope variable that holds
some rows of a dense ``[height, ...]`` tensor, see ``executor.SelectedRows``), as Paddle's
sparse kernels compute them:

* ``scale``, ``clip``: the op on the value, slice by slice; the result keeps the rows and the
  height;
* ``clip_by_norm``: the rows merged first (repeated rows add up, the rows sorted), the op on
  the merged value;
* ``lookup_table``/``lookup_table_v2`` with the table ``W`` given as SelectedRows: each id is
  looked up among the table's rows;
* the optimizer op types (a ``Grad`` given as SelectedRows): the gradient as the dense tensor
  it stands for (repeated rows add up, the rows it lacks are zero), so every row of the
  parameter and its state steps as the dense kernel steps it -- except ``lazy_mode``, where
  only the gradient's (merged) rows are computed and written into the outputs. A ``Param``
  given as SelectedRows steps its value: the gradient's rows are found among its rows.

Every other op type refuses a SelectedRows input with an error naming it.
"""
import torch

from ..framework.tensor import Tensor, wrap
from .executor import SelectedRows

__all__ = ["run", "merge", "to_dense", "has_rows"]

_ROW_WISE = {"scale", "clip"}
_MERGED = {"clip_by_norm"}
_LOOKUP = {"lookup_table", "lookup_table_v2"}


def has_rows(inputs):
    """Whether any input (a value or a list of them) is SelectedRows."""
    return any(isinstance(v, SelectedRows) or (isinstance(v, list) and
                                               any(isinstance(x, SelectedRows) for x in v))
               for v in inputs.values())


def _value(sr, op_type, slot):
    if sr._value is None:
        raise RuntimeError(f"(PreconditionNotMet) input {slot} of operator {op_type} is "
                           "SelectedRows whose value holds no tensor")
    return sr._value


def merge(sr):
    """``(rows, value)`` of ``sr`` with each row once (sorted), the slices of a repeated row
    added up."""
    v = sr._value
    idx = torch.as_tensor(sr._rows, dtype=torch.int64)
    uniq, inv = torch.unique(idx, sorted=True, return_inverse=True)
    out = torch.zeros((len(uniq),) + tuple(v.shape[1:]), dtype=v.dtype, device=v.device)
    out.index_add_(0, inv.to(v.device), v)
    return uniq.tolist(), out


def _positions(ids, rows, what):
    """The position of each of ``ids`` (a tensor) among ``rows``; ValueError naming one that
    is missing."""
    where = {r: i for i, r in enumerate(rows)}
    flat = ids.reshape(-1).tolist()
    missing = [i for i in flat if int(i) not in where]
    if missing:
        raise ValueError(f"(InvalidArgument) id {missing[0]} is not among the rows of {what} "
                         f"({rows})")
    return torch.as_tensor([where[int(i)] for i in flat], dtype=torch.int64,
                           device=ids.device).reshape(ids.shape)


def to_dense(sr, rows=None, height=None):
    """The dense tensor ``sr`` stands for: ``[height, ...]`` with each slice added into its row.
    With ``rows``, the rows of the result are those (a SelectedRows parameter's rows): each of
    ``sr``'s rows is found among them."""
    v = sr._value
    if rows is None:
        n = sr._height if height is None else height
        pos = torch.as_tensor(sr._rows, dtype=torch.int64)
    else:
        n = len(rows)
        pos = _positions(torch.as_tensor(sr._rows, dtype=torch.int64), rows, "the parameter")
    out = torch.zeros((n,) + tuple(v.shape[1:]), dtype=v.dtype, device=v.device)
    return out.index_add_(0, pos.to(v.device), v)


def _result(rows, height, value):
    sr = SelectedRows(rows, height)
    sr._value = value._t if isinstance(value, Tensor) else value
    return sr


def _dense_of(v):
    return v._t if isinstance(v, Tensor) else v


def run(op_type, inputs, attrs, outputs_now, dense_run):
    """The outputs ({slot: tensor, list or SelectedRows}) of ``op_type`` over ``inputs``, some of
    them SelectedRows. ``dense_run(inputs, attrs)`` runs the dense kernel; ``outputs_now``
    ({slot: the torch tensor the output variable holds, or None}) are what a lazy update writes
    its rows into."""
    if op_type in _ROW_WISE or op_type in _MERGED:
        sr = inputs.get("X")
        if not isinstance(sr, SelectedRows):
            raise _refuse(op_type, inputs)
        if op_type in _MERGED:
            rows, value = merge(sr)
        else:
            rows, value = sr._rows, _value(sr, op_type, "X")
        outs = dense_run(dict(inputs, X=wrap(value)), attrs)
        return {k: _result(rows, sr._height, _dense_of(v)) for k, v in outs.items()}
    if op_type in _LOOKUP:
        w, ids = inputs.get("W"), inputs.get("Ids")
        if not isinstance(w, SelectedRows) or isinstance(ids, SelectedRows):
            raise _refuse(op_type, inputs)
        pos = _positions(_dense_of(ids), w._rows, "the table W")
        return dense_run(dict(inputs, W=wrap(_value(w, op_type, "W")), Ids=wrap(pos)), attrs)
    g = inputs.get("Grad")
    if isinstance(g, SelectedRows) and "Param" in inputs:
        return _optimizer(op_type, inputs, attrs, outputs_now, dense_run)
    raise _refuse(op_type, inputs)


def _refuse(op_type, inputs):
    slots = [k for k, v in inputs.items() if isinstance(v, SelectedRows)]
    return NotImplementedError(f"(Unimplemented) operator {op_type} has no kernel for a "
                               f"SelectedRows input ({', '.join(slots)}) in paddle_compat")


def _optimizer(op_type, inputs, attrs, outputs_now, dense_run):
    g, p = inputs["Grad"], inputs["Param"]
    _value(g, op_type, "Grad")
    param_rows = None
    if isinstance(p, SelectedRows):
        param_rows = p._rows
        p_sr, p = p, wrap(_value(p, op_type, "Param"))
        inputs = dict(inputs, Param=p)
    height = _dense_of(p).shape[0]
    if not attrs.get("lazy_mode"):
        dense = to_dense(g, rows=param_rows, height=height)
        outs = dense_run(dict(inputs, Grad=wrap(dense)), attrs)
    else:
        outs = _lazy(inputs, attrs, g, param_rows, height, outputs_now, dense_run)
    if param_rows is not None:
        out = outs.get("ParamOut")
        if out is not None:
            outs["ParamOut"] = _result(param_rows, p_sr._height, _dense_of(out))
    return outs


def _lazy(inputs, attrs, g, param_rows, height, outputs_now, dense_run):
    """Only the gradient's rows: the row-shaped inputs (those shaped as the parameter) sliced
    to them, the dense kernel run on the slices, each row-shaped output written back into the
    output variable's tensor (or a copy of its input where the variable holds none)."""
    rows, value = merge(g)
    pos = torch.as_tensor(rows, dtype=torch.int64) if param_rows is None else \
        _positions(torch.as_tensor(rows, dtype=torch.int64), param_rows, "the parameter")
    shape = tuple(_dense_of(inputs["Param"]).shape)
    row_slots = {k for k, v in inputs.items()
                 if not isinstance(v, (list, SelectedRows)) and v is not None
                 and tuple(_dense_of(v).shape) == shape}
    ins = {k: (wrap(_dense_of(v)[pos.to(_dense_of(v).device)]) if k in row_slots else v)
           for k, v in inputs.items()}
    ins["Grad"] = wrap(value)
    outs = dense_run(ins, attrs)
    for slot, v in list(outs.items()):
        src = slot[:-3] if slot.endswith("Out") else None
        if src not in row_slots:
            continue
        now = outputs_now.get(slot)
        base = now.clone() if now is not None and tuple(now.shape) == shape else \
            _dense_of(inputs[src]).clone()
        base[pos.to(base.device)] = _dense_of(v).to(base.dtype)
        outs[slot] = wrap(base)
    return outs
