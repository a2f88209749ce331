"""``paddle.distributed.fleet.utils``: ``recompute``, file systems, ``DistributedInfer``."""
import os

from .fs import HDFSClient, LocalFS
from .recompute import recompute

__all__ = ["LocalFS", "recompute", "DistributedInfer", "HDFSClient"]


def _collective_mode():
    """Whether the job is not a parameter-server one (fleet.init(is_collective=False) with
    server roles); reads the launcher's variable rather than the fleet singleton."""
    return os.environ.get("TRAINING_ROLE", "TRAINER").upper() == "TRAINER" and \
        not os.environ.get("PADDLE_PSERVERS_IP_PORT_LIST")


class DistributedInfer:
    """Inference programs of a fleet job. In collective mode (the only mode paddle_compat
    runs) the program to run is the main program unchanged; parameter-server inference
    (sparse tables pulled from servers) is not supported."""

    def __init__(self, main_program=None, startup_program=None):
        from ....static import default_main_program, default_startup_program
        self.origin_main_program = main_program or default_main_program()
        self.origin_startup_program = startup_program or default_startup_program()
        self.sparse_table_maps = None

    def init_distributed_infer_env(self, exe, loss, role_maker=None, dirname=None):
        if not _collective_mode():
            raise NotImplementedError("DistributedInfer: parameter-server inference is not "
                                      "supported by paddle_compat")
        return None

    def get_dist_infer_program(self):
        return self.origin_main_program
