"""The recurrent layers of ``paddle.nn``: the cells (``SimpleRNNCell``, ``LSTMCell``,
``GRUCell`` on ``RNNCellBase``), the wrappers that run a cell over a sequence (``RNN``,
``BiRNN``) and the multi-layer networks (``SimpleRNN``, ``LSTM``, ``GRU``).

What follows Paddle 3.3.1, and how:

- Parameters: each cell owns ``weight_ih`` ``[G*hidden, input]``, ``weight_hh``
  ``[G*hidden, hidden]`` (``[4*hidden, proj]`` for a projected LSTM), ``bias_ih`` and
  ``bias_hh`` ``[G*hidden]`` (G = 1, 4, 3), created in that order and drawn
  ``Uniform(-1/sqrt(hidden), 1/sqrt(hidden))`` from Paddle's CPU stream, so after
  ``paddle.seed(s)`` they equal Paddle's. An attr of ``False`` gives a frozen constant
  (weights 1, biases 0) as Paddle does. A network is a ``LayerList`` of ``RNN``/``BiRNN``
  layers (``0.cell.weight_ih`` ...) whose parameters are also bound on the network as
  ``weight_ih_l0``, ``bias_hh_l1_reverse`` ...: both key sets are in ``state_dict``, as in a
  Paddle ``.pdparams``. The names are zipped with the parameters in order, as Paddle does,
  so with ``bias_ih_attr=False`` the name ``bias_hh_l0`` lands on the frozen ``bias_ih``.
- Gates: LSTM ``i, f, g, o``; GRU ``r, z, c`` with the reset gate applied after the hidden
  matmul (``c = tanh(x_c + r * (h W_hc + b_hc))``, ``h = z * h_prev + (1 - z) * c``). Both
  are torch's orders and formulas, so the cells run ``torch.lstm_cell`` / ``torch.gru_cell``
  and the networks torch's fused kernels (``torch.lstm`` / ``gru`` / ``rnn_tanh`` /
  ``rnn_relu``; packed sequences when ``sequence_length`` is given), with the same results
  as Paddle's ``rnn`` kernel: outputs past a sequence's length are zeros, its final state is
  the one at its last valid step, the reverse direction starts there.
- ``RNN``/``BiRNN`` run any cell step by step (Paddle's dynamic-graph loop): with
  ``sequence_length`` the states stop changing past a sequence's length while the outputs
  there are still the cell's outputs (not zeros), as in Paddle.
- A projected LSTM (``proj_size > 0``) runs the per-step loop, as Paddle does (its fused
  kernel takes no projection), so there too padded outputs are the cell's outputs.
- Dropout between layers (``dropout > 0`` in training) is applied with ``F.dropout`` on each
  layer's input after the first; Paddle's kernel draws its own mask, so the masks are not
  Paddle's bit for bit.
"""
import math

import torch

from ...framework import dtype as _dt
from ...framework.tensor import Tensor, wrap
from .. import functional as F
from .. import initializer as I
from .container import LayerList
from .layers import Layer

__all__ = ["RNNCellBase", "SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN",
           "SimpleRNN", "LSTM", "GRU"]


# ------------------------------------------------------------------ nested structures
def _flatten(s):
    if isinstance(s, (list, tuple)):
        return [x for item in s for x in _flatten(item)]
    return [s]


def _map(fn, *structs):
    """``fn`` over the leaves of equally nested lists/tuples (the container types kept)."""
    first = structs[0]
    if isinstance(first, (list, tuple)):
        return type(first)(_map(fn, *items) for items in zip(*structs))
    return fn(*structs)


def _is_shape(s):
    return isinstance(s, (list, tuple)) and all(isinstance(d, int) for d in s)


def _map_shapes(fn, shapes):
    if _is_shape(shapes):
        return fn(shapes)
    return type(shapes)(_map_shapes(fn, s) for s in shapes)


def _batch_time_swap(t):
    return t.transpose(0, 1)


# ------------------------------------------------------------------ cells
class RNNCellBase(Layer):
    """Base class of the cells: ``forward(inputs, states)`` returns ``(outputs, new_states)``.
    A subclass may define ``state_shape`` (and ``state_dtype``) so that
    ``get_initial_states`` can build zero states for it."""

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0.0,
                           batch_dim_idx=0):
        """States filled with ``init_value``: one per shape in ``shape`` (default
        ``state_shape``; a leading -1, prepended when missing, becomes the batch size
        ``batch_ref.shape[batch_dim_idx]``), of ``dtype`` (default ``state_dtype``, else the
        default float type), in the nesting of ``shape``."""
        ref = _flatten(batch_ref)[0]
        batch = int(ref.shape[batch_dim_idx])
        shapes = self.state_shape if shape is None else shape
        shapes = _map_shapes(lambda s: [batch] + list(s[1:] if s and s[0] == -1 else s),
                             shapes)
        if dtype is None:
            try:
                dtype = self.state_dtype
            except NotImplementedError:
                dtype = _dt.default_float().name
        flat_dtypes = _flatten(dtype)
        device = ref._t.device

        def full(s, dt):
            return wrap(torch.full(s, init_value, dtype=_dt.convert_dtype(dt).torch,
                                   device=device))
        if len(flat_dtypes) == 1:
            return _map_shapes(lambda s: full(s, flat_dtypes[0]), shapes)
        leaves = iter(flat_dtypes)
        return _map_shapes(lambda s: full(s, next(leaves)), shapes)

    @property
    def state_shape(self):
        """The shape(s) of the states without the batch dimension; define it in a cell."""
        raise NotImplementedError("Please add implementation for `state_shape` in the used "
                                  "cell.")

    @property
    def state_dtype(self):
        """The dtype(s) of the states; optional (the default float type otherwise)."""
        raise NotImplementedError("Please add implementation for `state_dtype` in the used "
                                  "cell.")


def _check_hidden(layer, hidden_size):
    if hidden_size <= 0:
        raise ValueError(f"hidden_size of {type(layer).__name__} must be greater than 0, but "
                         f"now equals to {hidden_size}")


def _make_cell_parameters(cell, gates, input_size, hidden_size, hh_cols, attrs):
    """weight_ih, weight_hh, bias_ih, bias_hh in Paddle's order, Uniform(+-1/sqrt(hidden));
    an attr of False gives a frozen constant (weights 1, biases 0)."""
    std = 1.0 / math.sqrt(hidden_size)
    dtype = _dt.default_float().name
    specs = [("weight_ih", (gates * hidden_size, input_size), False),
             ("weight_hh", (gates * hidden_size, hh_cols), False),
             ("bias_ih", (gates * hidden_size,), True),
             ("bias_hh", (gates * hidden_size,), True)]
    for (name, shape, is_bias), attr in zip(specs, attrs):
        if attr is not False:
            p = cell.create_parameter(shape, attr, dtype, is_bias, I.Uniform(-std, std))
        else:
            p = cell.create_parameter(shape, None, dtype, is_bias,
                                      I.Constant(0.0 if is_bias else 1.0))
            p.stop_gradient = True
        setattr(cell, name, p)


class _HiddenStateCell(RNNCellBase):
    """A cell whose state is its output ``h`` (SimpleRNNCell, GRUCell): one step of torch's
    cell kernel ``_step``."""

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h = wrap(self._step(inputs._t, states._t, self.weight_ih._t, self.weight_hh._t,
                            self.bias_ih._t, self.bias_hh._t))
        return h, h

    @property
    def state_shape(self):
        return (self.hidden_size,)


class SimpleRNNCell(_HiddenStateCell):
    """Elman cell: ``h = act(x W_ih^T + b_ih + h_prev W_hh^T + b_hh)`` (``act`` tanh or relu);
    ``forward(inputs, states=None)`` returns ``(h, h)``."""

    def __init__(self, input_size, hidden_size, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        _check_hidden(self, hidden_size)
        _make_cell_parameters(self, 1, input_size, hidden_size, hidden_size,
                              (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr))
        self.input_size, self.hidden_size = input_size, hidden_size
        if activation not in ("tanh", "relu"):
            raise ValueError("activation for SimpleRNNCell should be tanh or relu, but get "
                             f"{activation}")
        self.activation = activation
        self._step = torch.rnn_tanh_cell if activation == "tanh" else torch.rnn_relu_cell

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        return s + (f", activation={self.activation}" if self.activation != "tanh" else "")


class LSTMCell(RNNCellBase):
    """LSTM cell, gates ``i, f, g, o`` in that order along ``weight_ih``'s rows:
    ``c = f * c_prev + i * g``, ``h = o * tanh(c)`` (then ``h @ weight_ho`` with
    ``proj_size``); ``forward(inputs, states=None)`` returns ``(h, (h, c))``."""

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__()
        _check_hidden(self, hidden_size)
        if proj_size < 0:
            raise ValueError(f"proj_size of {type(self).__name__} must be greater than 0, but "
                             f"now equals to {hidden_size}")
        if proj_size >= hidden_size:
            raise ValueError("proj_size must be smaller than hidden_size")
        _make_cell_parameters(self, 4, input_size, hidden_size, proj_size or hidden_size,
                              (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr))
        self.proj_size = proj_size
        if proj_size > 0:
            std = 1.0 / math.sqrt(hidden_size)
            self.weight_ho = self.create_parameter((hidden_size, proj_size), weight_hh_attr,
                                                   _dt.default_float().name, False,
                                                   I.Uniform(-std, std))
        self.hidden_size, self.input_size = hidden_size, input_size

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h, c = states
        x = inputs._t
        if not self.proj_size:
            h, c = torch.lstm_cell(x, (h._t, c._t), self.weight_ih._t, self.weight_hh._t,
                                   self.bias_ih._t, self.bias_hh._t)
        else:
            gates = (torch.matmul(x, self.weight_ih._t.t()) + self.bias_ih._t
                     + torch.matmul(h._t, self.weight_hh._t.t()) + self.bias_hh._t)
            i, f, g, o = gates.chunk(4, dim=-1)
            c = torch.sigmoid(f) * c._t + torch.sigmoid(i) * torch.tanh(g)
            h = torch.matmul(torch.sigmoid(o) * torch.tanh(c), self.weight_ho._t)
        h, c = wrap(h), wrap(c)
        return h, (h, c)

    @property
    def state_shape(self):
        """``((h_size,), (hidden_size,))``: h has ``proj_size`` columns when projected.
        (Paddle 3.3.1 swaps the two with a projection, which fails in its own forward; this
        gives the shapes the cell computes.)"""
        return ((self.proj_size or self.hidden_size,), (self.hidden_size,))

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


class GRUCell(_HiddenStateCell):
    """GRU cell, gates ``r, z, c`` along ``weight_ih``'s rows, the reset gate applied after
    the hidden matmul: ``c = tanh(x_c + r * h_c)``, ``h = z * h_prev + (1 - z) * c``;
    ``forward(inputs, states=None)`` returns ``(h, h)``."""

    _step = torch.gru_cell

    def __init__(self, input_size, hidden_size, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__()
        _check_hidden(self, hidden_size)
        _make_cell_parameters(self, 3, input_size, hidden_size, hidden_size,
                              (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr))
        self.hidden_size, self.input_size = hidden_size, input_size

    def extra_repr(self):
        return f"{self.input_size}, {self.hidden_size}"


# ------------------------------------------------------------------ running a cell
def _run_cell(cell, inputs, initial_states=None, sequence_length=None, time_major=False,
              is_reverse=False, **kwargs):
    """Paddle's dynamic-graph ``rnn``: ``cell`` step by step along the time axis; with
    ``sequence_length`` a state keeps its value past its sequence's length."""
    time_axis = 0 if time_major else 1
    flat = _flatten(inputs)
    steps = int(flat[0].shape[time_axis])
    if initial_states is None:
        initial_states = cell.get_initial_states(batch_ref=inputs,
                                                 batch_dim_idx=1 if time_major else 0)
    xs = _map(lambda x: x._t if time_major else _batch_time_swap(x._t), inputs)
    mask = None
    if sequence_length is not None:
        lengths = sequence_length._t if isinstance(sequence_length, Tensor) else \
            torch.as_tensor(sequence_length)
        mask = (torch.arange(steps, device=lengths.device)[:, None] < lengths[None, :])
        mask = mask.to(flat[0]._t.dtype)
    order = range(steps - 1, -1, -1) if is_reverse else range(steps)
    states = initial_states
    outs = [None] * steps
    for i in order:
        step_in = _map(lambda x: wrap(x[i]), xs)
        out, new_states = cell(step_in, states, **kwargs)
        if mask is not None:
            m = mask[i]
            new_states = _map(lambda old, new: wrap(_keep(new._t, old._t, m)), states,
                              new_states)
        states = new_states
        outs[i] = out
    outputs = _map(lambda *ts: wrap(torch.stack([t._t for t in ts], time_axis)), *outs)
    return outputs, states


def _keep(new, old, m):
    """new where the step is valid (m == 1 along the batch axis 0), old elsewhere."""
    m = m.reshape([-1] + [1] * (new.dim() - 1))
    return new * m + old * (1 - m)


class RNN(Layer):
    """Runs ``cell`` over a sequence: ``forward(inputs, initial_states=None,
    sequence_length=None, **kwargs)`` returns ``(outputs, final_states)``, outputs stacked
    along the time axis (axis 0 with ``time_major``, else 1), from the end with
    ``is_reverse``."""

    def __init__(self, cell, is_reverse=False, time_major=False):
        super().__init__()
        self.cell = cell
        if not hasattr(cell, "call"):
            cell.call = cell.forward
        self.is_reverse, self.time_major = is_reverse, time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        return _run_cell(self.cell, inputs, initial_states, sequence_length, self.time_major,
                         self.is_reverse, **kwargs)


class BiRNN(Layer):
    """``cell_fw`` forwards and ``cell_bw`` backwards over the sequence; the outputs are
    concatenated on the last axis, the final states are ``(states_fw, states_bw)``. Without
    ``initial_states`` each cell starts from its own zero states (Paddle 3.3.1 builds both
    from ``cell_fw``, the same thing when the cells have one state shape)."""

    def __init__(self, cell_fw, cell_bw, time_major=False):
        super().__init__()
        self.cell_fw, self.cell_bw = cell_fw, cell_bw
        if cell_fw.input_size != cell_bw.input_size:
            raise ValueError(f"input size of forward cell({cell_fw.input_size}) does not equals"
                             f"that of backward cell({cell_bw.input_size})")
        for cell in (cell_fw, cell_bw):
            if not hasattr(cell, "call"):
                cell.call = cell.forward
        self.time_major = time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        if isinstance(initial_states, (list, tuple)):
            assert len(initial_states) == 2, \
                "length of initial_states should be 2 when it is a list/tuple"
            states_fw, states_bw = initial_states
        else:
            states_fw = states_bw = None
        out_fw, states_fw = _run_cell(self.cell_fw, inputs, states_fw, sequence_length,
                                      self.time_major, False, **kwargs)
        out_bw, states_bw = _run_cell(self.cell_bw, inputs, states_bw, sequence_length,
                                      self.time_major, True, **kwargs)
        outputs = _map(lambda a, b: wrap(torch.cat([a._t, b._t], -1)), out_fw, out_bw)
        return outputs, (states_fw, states_bw)


# ------------------------------------------------------------------ networks
_FUSED = {"LSTM": torch.lstm, "GRU": torch.gru, "RNN_TANH": torch.rnn_tanh,
          "RNN_RELU": torch.rnn_relu}


def _split_states(states, bidirectional, components):
    """[L*D, B, H] state(s) -> one state per layer (a (fw, bw) pair per layer when
    bidirectional; an (h, c) tuple per cell for LSTM)."""
    if components == 1:
        per_cell = [wrap(t) for t in states._t.unbind(0)]
    else:
        per_cell = list(zip(*[[wrap(t) for t in s._t.unbind(0)] for s in states]))
    if not bidirectional:
        return per_cell
    return list(zip(per_cell[::2], per_cell[1::2]))


def _concat_states(states, components):
    flat = [t._t for t in _flatten(states)]
    if components == 1:
        return wrap(torch.stack(flat))
    return tuple(wrap(torch.stack(flat[i::components])) for i in range(components))


class RNNBase(LayerList):
    """The multi-layer networks: a LayerList of ``RNN`` (or ``BiRNN``) layers of one cell type,
    with each cell's parameters also bound on the network as ``weight_ih_l{k}[_reverse]``
    ... . ``forward(inputs, initial_states=None, sequence_length=None)`` returns
    ``(outputs, final_states)``; states are ``[num_layers * num_directions, batch, hidden]``
    (an ``(h, c)`` tuple for LSTM), forward and backward interleaved per layer."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0):
        super().__init__()
        bidirectional = ("bidirectional", "bidirect")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.dropout, self.time_major, self.num_layers = dropout, time_major, num_layers
        self.num_directions = 2 if direction in bidirectional else 1
        self.state_components = 2 if mode == "LSTM" else 1
        self.proj_size = proj_size
        kwargs = {"weight_ih_attr": weight_ih_attr, "weight_hh_attr": weight_hh_attr,
                  "bias_ih_attr": bias_ih_attr, "bias_hh_attr": bias_hh_attr}
        if proj_size > 0:
            assert mode == "LSTM"
        if mode == "LSTM":
            cell_cls = LSTMCell
            kwargs["proj_size"] = proj_size
        elif mode == "GRU":
            cell_cls = GRUCell
        else:
            cell_cls = SimpleRNNCell
            kwargs["activation"] = {"RNN_RELU": "relu", "RNN_TANH": "tanh"}.get(
                mode, getattr(self, "activation", "tanh"))
        layer_in = proj_size or hidden_size
        if direction == "forward":
            for i in range(num_layers):
                cell = cell_cls(input_size if i == 0 else layer_in, hidden_size, **kwargs)
                self.append(RNN(cell, False, time_major))
        elif direction in bidirectional:
            for i in range(num_layers):
                size = input_size if i == 0 else 2 * layer_in
                self.append(BiRNN(cell_cls(size, hidden_size, **kwargs),
                                  cell_cls(size, hidden_size, **kwargs), time_major))
        else:
            raise ValueError("direction should be forward or bidirect (or bidirectional), "
                             f"received direction = {direction}")
        self.could_use_cudnn = len(self.parameters()) == num_layers * 4 * self.num_directions
        names = []
        for layer in range(num_layers):
            for d in range(self.num_directions):
                suffix = "_reverse" if d == 1 else ""
                group = ["weight_ih", "weight_hh"]
                if bias_ih_attr is not False:
                    group.append("bias_ih")
                if bias_hh_attr is not False:
                    group.append("bias_hh")
                names += [f"{g}_l{layer}{suffix}" for g in group]
        for name, param in zip(names, self.parameters()):
            setattr(self, name, param)

    def flatten_parameters(self):
        """Paddle packs the weights into one buffer for cuDNN; torch's kernels take the
        parameters as they are, so there is nothing to do."""

    def _cells(self):
        for layer in self:
            if isinstance(layer, BiRNN):
                yield layer.cell_fw
                yield layer.cell_bw
            else:
                yield layer.cell

    def _weights(self, layers=None):
        cells = list(self._cells())
        if layers is not None:
            d = self.num_directions
            cells = cells[layers.start * d:layers.stop * d]
        return [p._t for c in cells
                for p in (c.weight_ih, c.weight_hh, c.bias_ih, c.bias_hh)]

    def forward(self, inputs, initial_states=None, sequence_length=None):
        batch_index = 1 if self.time_major else 0
        if initial_states is None:
            x = inputs._t
            n = int(x.shape[batch_index])
            sizes = [self.proj_size or self.hidden_size, self.hidden_size]
            initial_states = tuple(
                wrap(torch.zeros([self.num_layers * self.num_directions, n, sizes[i]],
                                 dtype=x.dtype, device=x.device))
                for i in range(self.state_components))
        elif isinstance(initial_states, Tensor):
            initial_states = [initial_states]
        if self.could_use_cudnn:
            return self._fused(inputs, initial_states, sequence_length)
        return self._stepwise(inputs, initial_states, sequence_length)

    def _stepwise(self, inputs, initial_states, sequence_length, zero_padded=False):
        if len(initial_states) == 1:
            initial_states = initial_states[0]
        states = _split_states(initial_states, self.num_directions == 2,
                               self.state_components)
        finals = []
        for i, layer in enumerate(self):
            if i > 0:
                inputs = F.dropout(inputs, self.dropout, training=self.training,
                                   mode="upscale_in_train")
            inputs, final = layer(inputs, states[i], sequence_length)
            finals.append(final)
        outputs = inputs
        if zero_padded and sequence_length is not None:
            t = outputs._t
            steps = t.shape[0 if self.time_major else 1]
            lengths = sequence_length._t.to(t.device)
            valid = torch.arange(steps, device=t.device)[:, None] < lengths[None, :]
            if not self.time_major:
                valid = valid.t()
            outputs = wrap(t * valid.unsqueeze(-1).to(t.dtype))
        return outputs, _concat_states(finals, self.state_components)

    def _fused(self, inputs, initial_states, sequence_length):
        """torch's multi-layer kernel; packed sequences for ``sequence_length``."""
        fn = _FUSED[self.mode]
        x = inputs._t
        hx = [s._t for s in initial_states]
        bidirectional = self.num_directions == 2
        p = float(self.dropout) if self.training else 0.0
        weights = self._weights()
        # torch's `train` flag: the dropout is ours (0 here), but cuDNN keeps what its backward
        # needs only in train mode, and Paddle allows a backward in eval mode too.
        train = torch.is_grad_enabled() and any(t.requires_grad for t in [x, *hx, *weights])
        if sequence_length is not None:
            lengths = sequence_length._t
            steps = x.shape[0 if self.time_major else 1]
            if p > 0 or lengths.numel() == 0 or bool((lengths <= 0).any()) \
                    or bool((lengths > steps).any()):
                return self._stepwise(inputs, initial_states, sequence_length,
                                      zero_padded=True)
            packed = torch.nn.utils.rnn.pack_padded_sequence(
                x, lengths.cpu().to(torch.int64), batch_first=not self.time_major,
                enforce_sorted=False)
            order, unorder = packed.sorted_indices, packed.unsorted_indices
            hx = [h.index_select(1, order) for h in hx]
            res = fn(packed.data, packed.batch_sizes, hx if self.mode == "LSTM" else hx[0],
                     weights, True, self.num_layers, 0.0, train, bidirectional)
            out = torch.nn.utils.rnn.PackedSequence(res[0], packed.batch_sizes, order,
                                                    unorder)
            out = torch.nn.utils.rnn.pad_packed_sequence(
                out, batch_first=not self.time_major, total_length=steps)[0]
            states = [h.index_select(1, unorder) for h in res[1:]]
        elif p > 0 and self.num_layers > 1:
            # Dropout between the layers with our own F.dropout: one fused call per layer.
            d = self.num_directions
            hs, states = [[h[i * d:(i + 1) * d] for i in range(self.num_layers)] for h in hx], []
            out = x
            for i in range(self.num_layers):
                if i > 0:
                    out = F.dropout(wrap(out), p, training=True, mode="upscale_in_train")._t
                h_i = [h[i] for h in hs]
                res = fn(out, h_i if self.mode == "LSTM" else h_i[0],
                         self._weights(slice(i, i + 1)), True, 1, 0.0, train, bidirectional,
                         not self.time_major)
                out = res[0]
                states.append(res[1:])
            states = [torch.cat([s[k] for s in states], 0)
                      for k in range(self.state_components)]
        else:
            res = fn(x, hx if self.mode == "LSTM" else hx[0], weights, True,
                     self.num_layers, 0.0, train, bidirectional, not self.time_major)
            out, states = res[0], res[1:]
        states = [wrap(s) for s in states]
        return wrap(out), (tuple(states) if self.mode == "LSTM" else states[0])

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.time_major is not False:
            s += f", time_major={self.time_major}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        return s


class SimpleRNN(RNNBase):
    """Multi-layer Elman network (``activation`` ``"tanh"`` or ``"relu"``)."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, activation="tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None):
        if activation == "tanh":
            mode = "RNN_TANH"
        elif activation == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown activation '{activation}'")
        self.__dict__["activation"] = activation
        super().__init__(mode, input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)


class LSTM(RNNBase):
    """Multi-layer LSTM; ``proj_size > 0`` projects each h to ``proj_size`` columns
    (``weight_ho`` per cell). The final states are ``(h, c)``."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size=0, name=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr,
                         proj_size)


class GRU(RNNBase):
    """Multi-layer GRU (reset gate after the hidden matmul)."""

    def __init__(self, input_size, hidden_size, num_layers=1, direction="forward",
                 time_major=False, dropout=0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, direction, time_major,
                         dropout, weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr, 0)
