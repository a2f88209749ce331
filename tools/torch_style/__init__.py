"""Torch-style Paddle 3.3.1 snippets (issue 22): written here, recorded on real Paddle,
replayed on paddle_compat."""
