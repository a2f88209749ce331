"""Paddle-exact CPU random engine (numpy mt19937_64) and its distributions."""

from .engine import Generator

# Like Paddle's default CPU generator: seeded from OS entropy at import.
default_generator = Generator()
