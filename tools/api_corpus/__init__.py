"""Replaying PaddleAPITest's CI call configurations on real Paddle and on paddle_compat.

parse.py reads a config line into plain Python objects, inputs.py makes its tensors
(deterministic, per-API value ranges), runner.py runs it against a `paddle` module and
encodes what came out, record.py (real Paddle) and compare.py (paddle_compat) drive it."""
