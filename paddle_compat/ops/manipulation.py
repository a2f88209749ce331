"""Paddle's ``paddle.tensor.manipulation``: the shape and layout ops under Paddle's module name.

The ops live in modules by concern, which the op library loads itself (``ops/__init__``):
``reshaping`` (reshape, squeeze, flatten, transpose/permute, expand, views), ``joining``
(concat, stack, split, chunk, unbind), ``slicing`` (slice, strided_slice, narrow, crop),
``gather_scatter`` (gather, scatter, put/take_along_axis, index_*, masked_*), ``matrices``
(triu/tril, diagonals, vander, block_diag), ``reordering`` (tile/repeat, flip, roll, rot90,
diff) and ``sets`` (unique, combinations, meshgrid). This module only gathers their names, for
``import paddle.tensor.manipulation`` through the compat hook.
"""
from . import gather_scatter, joining, matrices, reordering, reshaping, sets, slicing
from .gather_scatter import *       # noqa: F401,F403
from .joining import *              # noqa: F401,F403
from .matrices import *             # noqa: F401,F403
from .reordering import *           # noqa: F401,F403
from .reshaping import *            # noqa: F401,F403
from .sets import *                 # noqa: F401,F403
from .slicing import *              # noqa: F401,F403

__all__ = (reshaping.__all__ + joining.__all__ + slicing.__all__ + gather_scatter.__all__
           + matrices.__all__ + reordering.__all__ + sets.__all__)
