"""``paddle.nn``: the functional forms now; the layers come with their own modules."""
from . import functional
