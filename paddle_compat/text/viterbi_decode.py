"""``paddle.text.viterbi_decode`` and ``ViterbiDecoder``: the highest-scoring tag path of a
linear-chain CRF, batched, with per-sequence lengths.

Rules (measured on Paddle 3.3.1's CPU kernel):

* ``potentials`` [B, T, N] (float32/float64), ``transition_params`` [N, N] of the same dtype
  (``transition[i, j]``: score of tag i followed by tag j), ``lengths`` [B] int64.
* ``include_bos_eos_tag=True``: the last tag (N-1) is the start tag and tag N-2 the stop tag;
  the first step adds row N-1 of the transitions and the step at each sequence's end adds row
  N-2 (a row, as Paddle's kernel reads it).
* Returns ``(scores [B], path [B, max(lengths)] int64)``; path entries past a sequence's
  length are 0; a length of 0 gives an all-zero path (its score is that of step 0).
* Dynamic mode only (static graphs raise NotImplementedError); no gradients flow.
"""
import torch

from ..framework.tensor import Tensor, wrap
from ..nn import Layer
from ..ops.common import not_tensor

__all__ = ["viterbi_decode", "ViterbiDecoder"]

_API = "viterbi_decode"


def _checked(potentials, transition_params, lengths, include_bos_eos_tag):
    for pos, (arg, v) in enumerate((("potentials", potentials),
                                    ("transition_params", transition_params),
                                    ("lengths", lengths))):
        if not isinstance(v, Tensor):
            raise not_tensor(_API, arg, pos, v)
    if not isinstance(include_bos_eos_tag, bool):
        raise TypeError(f"(InvalidType) {_API}(): argument (position 4) must be bool, but got "
                        f"{type(include_bos_eos_tag).__name__}")
    pot, trans, lens = potentials._t, transition_params._t, lengths._t
    if not all(isinstance(t, torch.Tensor) for t in (pot, trans, lens)):
        raise NotImplementedError("paddle.text.viterbi_decode is not supported in static graph "
                                  "mode (its path length depends on the data): call it in "
                                  "dynamic mode")
    if pot.dim() != 3:
        raise ValueError("(InvalidArgument) The rank of Input in ViterbiDecode must be 3. "
                         f"But received Input's rank is {pot.dim()}.")
    if trans.dim() != 2 or trans.shape[0] != pot.shape[2] or trans.shape[1] != pot.shape[2]:
        raise ValueError(f"(InvalidArgument) The number of tags of Input ({pot.shape[2]}) and "
                         f"Transition ({trans.shape[0]}) should be equal.")
    if lens.dim() != 1 or lens.shape[0] != pot.shape[0]:
        raise ValueError("(InvalidArgument) The batch size of Input and Length should be equal.")
    if pot.dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"(NotFound) The kernel of `viterbi_decode` is not registered for "
                           f"{potentials.dtype}: use float32 or float64 potentials.")
    if trans.dtype != pot.dtype:
        raise ValueError(f"(InvalidArgument) The transitions' dtype ({transition_params.dtype}) "
                         f"does not match the potentials' ({potentials.dtype}).")
    if lens.dtype != torch.int64:
        raise ValueError(f"(InvalidArgument) lengths must be int64, but got {lengths.dtype}.")
    return pot, trans, lens


def _decode(pot, trans, lens, include):
    B, T, N = pot.shape
    max_len = int(lens.max()) if B else 0
    if max_len > T:
        raise IndexError(f"(OutOfRange) a length ({max_len}) exceeds the {T} steps of the "
                         "potentials.")
    left = lens.clone()
    if include:
        start, stop = trans[N - 1], trans[N - 2]
        alpha = pot[:, 0] + start + (left == 1).unsqueeze(1) * stop
    else:
        alpha = pot[:, 0]
    left = left - 1
    backptr = []
    trans_b = trans.unsqueeze(0)
    for i in range(1, max_len):
        best, arg = (alpha.unsqueeze(2) + trans_b).max(1)
        backptr.append(arg)
        alpha = torch.where((left > 0).unsqueeze(1), best + pot[:, i], alpha)
        if include:
            alpha = alpha + (left == 1).unsqueeze(1) * stop
        left = left - 1
    scores, last = alpha.max(1)
    path = torch.zeros((B, max(max_len, 0)), dtype=torch.int64, device=pot.device)
    tag = torch.zeros_like(last)
    end = lens - 1
    for t in range(max_len - 1, -1, -1):
        back = backptr[t].gather(1, tag.unsqueeze(1)).squeeze(1) if t < max_len - 1 else tag
        tag = torch.where(end == t, last, torch.where(end > t, back, torch.zeros_like(tag)))
        path[:, t] = tag
    return scores, path


def viterbi_decode(potentials, transition_params, lengths, include_bos_eos_tag=True,
                   name=None):
    """The best tag paths of a batch: ``(scores, path)`` (see the module docstring).

        >>> import paddle_compat as paddle
        >>> pot = paddle.to_tensor([[[1.0, 0.0], [0.0, 2.0], [3.0, 0.0]]])
        >>> trans = paddle.to_tensor([[0.5, 0.0], [0.0, 0.5]])
        >>> scores, path = paddle.text.viterbi_decode(pot, trans, paddle.to_tensor([3]), False)
        >>> path.tolist()
        [[0, 1, 0]]
    """
    pot, trans, lens = _checked(potentials, transition_params, lengths, include_bos_eos_tag)
    with torch.no_grad():
        scores, path = _decode(pot, trans, lens, include_bos_eos_tag)
    return wrap(scores), wrap(path)


class ViterbiDecoder(Layer):
    """A layer holding the transitions: ``ViterbiDecoder(transitions)(potentials, lengths)``
    is ``viterbi_decode(potentials, transitions, lengths, include_bos_eos_tag)``."""

    def __init__(self, transitions, include_bos_eos_tag=True, name=None):
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials, lengths):
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag,
                              self.name)
