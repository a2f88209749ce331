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
from .rnn import *  # noqa: F401,F403
from .decode import BeamSearchDecoder, dynamic_decode  # noqa: F401
from . import (activation, common, container, conv, decode, loss, norm, pooling, rnn,
               transformer)

__all__ = (["Layer"] + container.__all__ + common.__all__ + activation.__all__ + conv.__all__
           + pooling.__all__ + norm.__all__ + loss.__all__ + transformer.__all__ + rnn.__all__
           + ["BeamSearchDecoder", "dynamic_decode"])
