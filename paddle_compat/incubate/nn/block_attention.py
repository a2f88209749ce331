"""``block_multihead_attention``: Paddle's attention over a paged (block) KV cache."""


def block_multihead_attention(*args, **kwargs):
    """Paddle's CUDA paged-KV-cache inference kernel; not available yet."""
    raise NotImplementedError("block_multihead_attention: the CUDA paged KV-cache kernel is "
                              "not supported")
