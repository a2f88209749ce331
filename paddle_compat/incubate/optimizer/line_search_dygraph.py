"""``paddle.incubate.optimizer.line_search_dygraph``: the strong-Wolfe line search and its
cubic interpolation that ``LBFGS`` uses (shared with ``paddle.optimizer.lbfgs``)."""
from ...optimizer.lbfgs import _cubic_interpolate, _strong_wolfe

__all__ = []
