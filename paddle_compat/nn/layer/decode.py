"""``paddle.nn.BeamSearchDecoder`` and ``paddle.nn.dynamic_decode`` (Paddle's
``paddle/nn/decode.py``), eager mode.

``dynamic_decode`` calls ``decoder.initialize(inits)``, then ``decoder.step`` until every
sequence is finished (or after ``max_step_num + 1`` steps), stacks the step outputs along
time and lets ``decoder.finalize`` turn them into the result. ``BeamSearchDecoder`` keeps
``beam_size`` hypotheses per batch entry: cell states are tiled to ``[batch * beam, ...]``
for the cell and ``[batch, beam, ...]`` between steps; each step adds the step's
log-softmax to the beams' scores (a finished beam may only emit ``end_token``, at no cost),
keeps the ``beam_size`` best of ``beam * vocab`` candidates (``topk``), and ``finalize``
backtracks the chosen tokens through the parent beams with ``gather_tree``. The initial
scores are ``[0, -1e9, ...]`` so the first step expands only beam 0, as in Paddle.
"""
import collections
import warnings

import torch

from ...framework import dtype as _dt
from ...framework.tensor import wrap
from .. import functional as F

__all__ = ["Decoder", "BeamSearchDecoder", "dynamic_decode"]


def _map(fn, *structs):
    """``fn`` over the leaves of equally nested lists, tuples and namedtuples."""
    first = structs[0]
    if isinstance(first, (list, tuple)):
        items = [_map(fn, *parts) for parts in zip(*structs)]
        return type(first)(*items) if hasattr(first, "_fields") else type(first)(items)
    return fn(*structs)


def _first_leaf(s):
    while isinstance(s, (list, tuple)):
        s = s[0]
    return s


class Decoder:
    """The interface ``dynamic_decode`` drives: ``initialize(inits) -> (inputs, states,
    finished)``, ``step(time, inputs, states, **kwargs) -> (outputs, next_states,
    next_inputs, finished)``, optionally ``finalize(outputs, final_states,
    sequence_lengths)``; ``tracks_own_finished`` says whether the decoder keeps finished
    sequences finished itself."""

    def initialize(self, inits):
        raise NotImplementedError

    def step(self, time, inputs, states, **kwargs):
        raise NotImplementedError

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError

    @property
    def tracks_own_finished(self):
        return False


class BeamSearchDecoder(Decoder):
    """Beam search over ``cell`` (an RNN cell taking the embedded previous tokens):
    ``embedding_fn`` maps token ids to the cell's inputs, ``output_fn`` the cell's outputs to
    logits over the vocabulary. Use with ``dynamic_decode``; the initial cell states must be
    given per batch entry (they are tiled to the beams)."""

    OutputWrapper = collections.namedtuple("OutputWrapper",
                                           ["scores", "predicted_ids", "parent_ids"])
    StateWrapper = collections.namedtuple("StateWrapper",
                                          ["cell_states", "log_probs", "finished", "lengths"])

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None,
                 output_fn=None):
        self.cell, self.embedding_fn, self.output_fn = cell, embedding_fn, output_fn
        self.start_token, self.end_token, self.beam_size = start_token, end_token, beam_size

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        """``[batch, ...]`` -> ``[batch * beam_size, ...]``, each entry repeated
        ``beam_size`` times in a row (to tile an encoder's output for the cell)."""
        return wrap(torch.repeat_interleave(x._t, beam_size, dim=0))

    def _split_batch_beams(self, x):
        t = x._t
        return wrap(t.reshape([-1, self.beam_size] + list(t.shape[1:])))

    def _merge_batch_beams(self, x):
        t = x._t
        return wrap(t.reshape([-1] + list(t.shape[2:])))

    def _expand_to_beam_size(self, x):
        t = x._t.unsqueeze(1)
        return wrap(t.expand([t.shape[0], self.beam_size] + list(t.shape[2:])).contiguous())

    def _gather(self, x, indices):
        """``x[b, indices[b, k]]`` for each batch entry b and beam k."""
        t = x._t
        rows = torch.arange(t.shape[0], device=t.device).unsqueeze(1)
        return wrap(t[rows, indices])

    def _float_dtype(self):
        return torch.float64 if _dt.default_float().name == "float64" else torch.float32

    def initialize(self, initial_cell_states):
        self.kinf = 1e9
        state = _first_leaf(initial_cell_states)._t
        self.batch_size = int(state.shape[0])
        device = state.device
        cell_states = _map(self._expand_to_beam_size, initial_cell_states)
        inputs = torch.full([self.batch_size, self.beam_size], self.start_token,
                            dtype=torch.int64, device=device)
        log_probs = torch.full([self.batch_size, self.beam_size], -self.kinf,
                               dtype=torch.float32, device=device)
        log_probs[:, 0] = 0.0
        log_probs = log_probs.to(self._float_dtype())
        finished = torch.zeros([self.batch_size, self.beam_size], dtype=torch.bool,
                               device=device)
        lengths = torch.zeros_like(inputs)
        inputs = wrap(inputs)
        if self.embedding_fn:
            inputs = self.embedding_fn(inputs)
        return (inputs, self.StateWrapper(cell_states, wrap(log_probs), wrap(finished),
                                          wrap(lengths)), wrap(finished))

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        lg = logits._t
        self.vocab_size = vocab = int(lg.shape[-1])
        noend = torch.full([vocab], -self.kinf, dtype=torch.float32, device=lg.device)
        noend[self.end_token] = 0.0
        noend = noend.to(self._float_dtype())
        step_log_probs = torch.log(torch.softmax(lg, dim=-1))
        fin = beam_state.finished._t.to(step_log_probs.dtype).unsqueeze(2)
        step_log_probs = fin * noend - step_log_probs * (fin - 1)
        log_probs = step_log_probs + beam_state.log_probs._t.unsqueeze(2)
        scores = log_probs.reshape([-1, self.beam_size * vocab])
        topk_scores, topk_indices = torch.topk(scores, self.beam_size, dim=-1)
        beam_indices = torch.div(topk_indices, vocab, rounding_mode="floor")
        token_indices = topk_indices % vocab
        rows = torch.arange(scores.shape[0], device=scores.device).unsqueeze(1)
        next_log_probs = scores[rows, topk_indices]
        next_cell_states = _map(lambda x: self._gather(x, beam_indices), next_cell_states)
        next_finished = beam_state.finished._t[rows, beam_indices]
        next_lengths = beam_state.lengths._t[rows, beam_indices]
        next_lengths = next_lengths + (~next_finished).to(next_lengths.dtype)
        next_finished = next_finished | (token_indices == self.end_token)
        output = self.OutputWrapper(wrap(topk_scores), wrap(token_indices), wrap(beam_indices))
        state = self.StateWrapper(next_cell_states, wrap(next_log_probs), wrap(next_finished),
                                  wrap(next_lengths))
        return output, state

    def step(self, time, inputs, states, **kwargs):
        inputs = _map(self._merge_batch_beams, inputs)
        cell_states = _map(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = _map(self._split_batch_beams, cell_outputs)
        next_cell_states = _map(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        output, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        sample_ids = output.predicted_ids
        sample_ids.stop_gradient = True
        next_inputs = self.embedding_fn(sample_ids) if self.embedding_fn else sample_ids
        return output, state, next_inputs, state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        """The token ids of each final beam, backtracked through the parents:
        ``[time, batch, beam]``."""
        ids = F.gather_tree(outputs.predicted_ids, outputs.parent_ids)
        return wrap(ids._t.to(outputs.predicted_ids._t.dtype)), final_states

    @property
    def tracks_own_finished(self):
        return True


def _keep_finished(state, new_state, finished):
    """state where finished (along the batch axis 0), new_state elsewhere."""
    s, n = state._t, new_state._t
    m = finished._t.reshape([-1] + [1] * (s.dim() - 1))
    return wrap(torch.where(m, s, n))


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False,
                   impute_finished=False, is_test=False, return_length=False, **kwargs):
    """Run ``decoder`` step by step until all sequences are finished or ``max_step_num + 1``
    steps were taken; returns ``(outputs, final_states)`` (``+ sequence_lengths`` with
    ``return_length``), outputs batch-major unless ``output_time_major``. ``impute_finished``
    keeps a finished sequence's states unchanged (for decoders that do not track it
    themselves). ``kwargs`` go to ``decoder.step``."""
    inputs, states, finished = decoder.initialize(inits)
    sequence_lengths = wrap(torch.zeros(finished._t.shape, dtype=torch.int64,
                                        device=finished._t.device))
    outputs = None
    step = 0
    while not bool(finished._t.all()):
        time = wrap(torch.full([1], step, dtype=torch.int64))
        step_outputs, next_states, next_inputs, next_finished = decoder.step(
            time, inputs, states, **kwargs)
        if not decoder.tracks_own_finished:
            next_finished = wrap(next_finished._t | finished._t)
            finished = next_finished
            next_lengths = wrap(sequence_lengths._t
                                + (~finished._t).to(sequence_lengths._t.dtype))
            if impute_finished:
                next_states = _map(lambda old, new: _keep_finished(old, new, finished),
                                   states, next_states)
        else:
            if not hasattr(next_states, "lengths"):
                warnings.warn("`next_states` has no `lengths` attribute, the returned "
                              "`sequence_lengths` would be all zeros.")
            next_lengths = getattr(next_states, "lengths", sequence_lengths)
        outputs = _map(lambda x: [x], step_outputs) if outputs is None else \
            _map_append(outputs, step_outputs)
        inputs, states, finished, sequence_lengths = (next_inputs, next_states, next_finished,
                                                      next_lengths)
        step += 1
        if max_step_num is not None and step > max_step_num:
            break
    final_outputs = _map_lists(lambda xs: wrap(torch.stack([x._t for x in xs], 0)), outputs)
    final_states = states
    try:
        final_outputs, final_states = decoder.finalize(final_outputs, final_states,
                                                       sequence_lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        final_outputs = _map(lambda x: wrap(x._t.transpose(0, 1)), final_outputs)
    if return_length:
        return final_outputs, final_states, sequence_lengths
    return final_outputs, final_states


def _is_leaf_list(s):
    return isinstance(s, list) and not (s and isinstance(s[0], (list, tuple)))


def _map_lists(fn, s):
    """``fn`` over the per-step lists at the leaves of a structure built by dynamic_decode."""
    if _is_leaf_list(s):
        return fn(s)
    items = [_map_lists(fn, x) for x in s]
    return type(s)(*items) if hasattr(s, "_fields") else type(s)(items)


def _map_append(acc, new):
    if _is_leaf_list(acc):
        acc.append(new)
        return acc
    items = [_map_append(a, n) for a, n in zip(acc, new)]
    return type(acc)(*items) if hasattr(acc, "_fields") else type(acc)(items)
