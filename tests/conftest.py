import atexit
import os
import shutil
import sys
import tempfile

import pytest
import torch

sys.path.insert(0, os.path.dirname(__file__))
# the compiled packages and timed-choice records the suite makes (jit/aot.py) go to a directory
# of this run's, removed at its end: the user's cache is left alone, and no later run replays
# a choice this one recorded
if "PADDLE_COMPAT_AOT_CACHE" not in os.environ:
    os.environ["PADDLE_COMPAT_AOT_CACHE"] = tempfile.mkdtemp(prefix="paddle_compat_aot_")
    atexit.register(shutil.rmtree, os.environ["PADDLE_COMPAT_AOT_CACHE"], True)
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
