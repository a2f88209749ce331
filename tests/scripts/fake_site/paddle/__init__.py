"""A stand-in for an installed real Paddle (tests/test_runner.py): the hook must leave it alone
unless installed, and give it back after ``uninstall()``."""
REAL_PADDLE_STANDIN = True
