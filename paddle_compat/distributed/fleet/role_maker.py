"""Role makers: who this process is in the job (worker / server, index, endpoints). Collective
jobs read Paddle's launcher variables; parameter-server roles are described but not run."""
import os

from ..env import ParallelEnv

__all__ = ["Role", "RoleMakerBase", "PaddleCloudRoleMaker", "UserDefinedRoleMaker"]


class Role:
    WORKER = 1
    SERVER = 2
    HETER_WORKER = 3
    ALL = 4
    COORDINATOR = 5


class RoleMakerBase:
    def __init__(self):
        self._worker_endpoints = []
        self._server_endpoints = []
        self._role = Role.WORKER
        self._current_id = 0
        self._is_collective = False
        self._worker_num_ = 1

    def _is_worker(self):
        return self._role == Role.WORKER

    def _is_server(self):
        return self._role == Role.SERVER

    def _is_coordinator(self):
        return self._role == Role.COORDINATOR

    def _is_first_worker(self):
        return self._role == Role.WORKER and self._current_id == 0

    def _worker_num(self):
        return self._worker_num_

    def _server_num(self):
        return len(self._server_endpoints)

    def _worker_index(self):
        return self._current_id if self._role == Role.WORKER else 0

    def _server_index(self):
        return self._current_id if self._role == Role.SERVER else 0

    def _role_id(self):
        return self._current_id

    def _node_num(self):
        hosts = {e.split(":")[0] for e in self._worker_endpoints if e}
        return max(len(hosts), 1)

    def _local_rank(self):
        return str(os.environ.get("PADDLE_RANK_IN_NODE", os.environ.get("PADDLE_LOCAL_RANK",
                                                                          "0")))

    def _get_trainer_endpoints(self):
        return list(self._worker_endpoints)

    def _get_pserver_endpoints(self):
        return list(self._server_endpoints)

    def _get_local_device_ids(self):
        v = os.environ.get("FLAGS_selected_gpus") or os.environ.get("PADDLE_LOCAL_DEVICE_IDS")
        return v or "0"

    def _get_world_device_ids(self):
        return os.environ.get("PADDLE_WORLD_DEVICE_IDS", self._get_local_device_ids())

    def _barrier(self, comm_world="worker"):
        from .. import collective
        if self._worker_num() > 1:
            collective.barrier()

    def to_string(self):
        return (f"role: {self._role}, current_id: {self._current_id}, worker_endpoints: "
                f"{self._worker_endpoints}, server_endpoints: {self._server_endpoints}")


class PaddleCloudRoleMaker(RoleMakerBase):
    """The role from the environment ``paddle.distributed.launch`` sets
    (``PADDLE_TRAINER_ID``, ``PADDLE_TRAINERS_NUM``, ``PADDLE_TRAINER_ENDPOINTS``; for
    parameter-server jobs ``TRAINING_ROLE`` and ``PADDLE_PSERVERS_IP_PORT_LIST``)."""

    def __init__(self, is_collective=False, **kwargs):
        super().__init__()
        self._is_collective = is_collective
        self._kwargs = kwargs
        env = ParallelEnv()
        self._worker_endpoints = [e for e in env.trainer_endpoints if e]
        self._current_id = env.rank
        self._worker_num_ = env.world_size
        if not is_collective:
            role = os.environ.get("TRAINING_ROLE", "TRAINER").upper()
            self._role = {"TRAINER": Role.WORKER, "PSERVER": Role.SERVER,
                          "HETER_TRAINER": Role.HETER_WORKER,
                          "COORDINATOR": Role.COORDINATOR}.get(role, Role.WORKER)
            ps = os.environ.get("PADDLE_PSERVERS_IP_PORT_LIST", "")
            self._server_endpoints = [e for e in ps.split(",") if e]
            if self._role == Role.SERVER:
                cur = os.environ.get("POD_IP", "") + ":" + os.environ.get("PADDLE_PORT", "")
                self._current_id = (self._server_endpoints.index(cur)
                                    if cur in self._server_endpoints else 0)


class UserDefinedRoleMaker(PaddleCloudRoleMaker):
    """A role given by the arguments instead of the environment."""

    def __init__(self, is_collective=False, init_gloo=False, **kwargs):
        RoleMakerBase.__init__(self)
        self._is_collective = is_collective
        self._init_gloo = init_gloo
        self._kwargs = kwargs
        self._current_id = kwargs.get("current_id", 0)
        self._role = kwargs.get("role", Role.WORKER)
        self._worker_endpoints = list(kwargs.get("worker_endpoints", []) or [])
        self._server_endpoints = list(kwargs.get("server_endpoints", []) or [])
        self._worker_num_ = kwargs.get("worker_num", len(self._worker_endpoints) or 1)
