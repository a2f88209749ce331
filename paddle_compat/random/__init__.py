"""Paddle-exact CPU random engine (numpy mt19937_64) and its distributions."""

from .engine import Generator

# Like Paddle's default CPU generator: seeded from OS entropy at import.
default_generator = Generator()


def initial_seed():
    """The seed the default CPU generator was last seeded with (``paddle.seed``, or the OS
    entropy it drew at start-up), as a Python int."""
    return default_generator.initial_seed()
