"""``paddle.text``: the text datasets (read from local files) and Viterbi decoding."""
__all__ = []
