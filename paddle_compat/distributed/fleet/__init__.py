"""``paddle.distributed.fleet`` on torch.distributed: collective (hybrid data / tensor /
pipeline parallel) training. ``fleet.init(is_collective=True, strategy=...)`` builds the
topology; the module-level functions are the methods of the ``fleet`` singleton, as in Paddle.
Parameter-server training is not implemented (its functions raise NotImplementedError)."""
import importlib

from ..ps_stubs import BoxPSDataset, InMemoryDataset, QueueDataset
from . import meta_parallel, utils
from .data_generator import MultiSlotDataGenerator, MultiSlotStringDataGenerator
from .fleet_base import Fleet, UtilBase, fleet
from .role_maker import PaddleCloudRoleMaker, Role, UserDefinedRoleMaker
from .strategy import DistributedStrategy
from .topology import CommunicateTopology, HybridCommunicateGroup


class DatasetBase(QueueDataset.__mro__[1]):
    """The base of fleet's datasets (parameter-server data feeding: not supported)."""


class FileInstantDataset(QueueDataset):
    """A dataset streaming files as they come (parameter-server data feeding)."""


util = fleet.util

init = fleet.init
is_first_worker = fleet.is_first_worker
worker_index = fleet.worker_index
worker_num = fleet.worker_num
node_num = fleet.node_num
rank = fleet.worker_index
nranks = fleet.worker_num
world_size = fleet.worker_num
rank_in_node = fleet.rank_in_node
local_rank = fleet.local_rank
local_device_ids = fleet.local_device_ids
world_device_ids = fleet.world_device_ids
is_worker = fleet.is_worker
is_coordinator = fleet.is_coordinator
worker_endpoints = fleet.worker_endpoints
server_num = fleet.server_num
server_index = fleet.server_index
server_endpoints = fleet.server_endpoints
is_server = fleet.is_server
barrier_worker = fleet.barrier_worker
all_reduce = fleet.all_reduce
set_log_level = fleet.set_log_level
get_log_level_code = fleet.get_log_level_code
get_log_level_name = fleet.get_log_level_name
init_worker = fleet.init_worker
init_coordinator = fleet.init_coordinator
init_server = fleet.init_server
run_server = fleet.run_server
stop_worker = fleet.stop_worker
distributed_optimizer = fleet.distributed_optimizer
distributed_model = fleet.distributed_model
distributed_scaler = fleet.distributed_scaler
get_hybrid_communicate_group = fleet.get_hybrid_communicate_group
save_inference_model = fleet.save_inference_model
save_persistables = fleet.save_persistables
save_cache_model = fleet.save_cache_model
save_cache_table = fleet.save_cache_table
save_one_table = fleet.save_one_table
save_dense_params = fleet.save_dense_params
load_model = fleet.load_model
load_inference_model = fleet.load_inference_model
load_one_table = fleet.load_one_table
minimize = fleet.minimize
shrink = fleet.shrink
set_date = fleet.set_date
print_table_stat = fleet.print_table_stat
check_memory_usage = fleet.check_memory_usage
check_save_pre_patch_done = fleet.check_save_pre_patch_done
collective_perf = fleet.collective_perf
make_fl_strategy = fleet.make_fl_strategy
get_fl_client = fleet.get_fl_client

__all__ = ["CommunicateTopology", "UtilBase", "HybridCommunicateGroup",
           "MultiSlotStringDataGenerator", "UserDefinedRoleMaker", "DistributedStrategy",
           "Role", "MultiSlotDataGenerator", "PaddleCloudRoleMaker", "Fleet"]


def __getattr__(name):
    # ``fleet.auto`` builds on torch.distributed.tensor (seconds to import): bound on first read
    if name == "auto":
        return importlib.import_module(__name__ + ".auto")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
