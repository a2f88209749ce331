import os
import sys

import pytest
import torch

sys.path.insert(0, os.path.dirname(__file__))
# the golden-replay helpers' asserts explain their failures as a test module's do
pytest.register_assert_rewrite("op_goldens")


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA device")
    for item in items:
        if "cuda" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="module")
def paddle_hook():
    """``import paddle`` gives paddle_compat for a module's cases (``pytestmark =
    pytest.mark.usefixtures("paddle_hook")``), undone afterwards unless it was on before."""
    import paddle_compat
    from paddle_compat.compat import hook
    was = hook.is_installed()
    paddle_compat.install()
    yield
    if not was:
        paddle_compat.uninstall()
