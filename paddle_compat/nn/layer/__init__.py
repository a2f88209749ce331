"""The layer classes of ``paddle.nn``, one module per kind (see each module's docstring)."""
from .layers import Layer
from .container import *  # noqa: F401,F403
from .common import *  # noqa: F401,F403
from .activation import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .norm import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
from . import activation, common, container, conv, loss, norm, pooling, transformer

__all__ = (["Layer"] + container.__all__ + common.__all__ + activation.__all__ + conv.__all__
           + pooling.__all__ + norm.__all__ + loss.__all__ + transformer.__all__)
