"""paddle.device, paddle.device.cuda and paddle.cuda against Paddle 3.3.1's CPU build
(tests/goldens/device_api.json, written by tools/goldens/record_device_api.py): return values,
the built-in exception type of each failing call, a message naming the bad value where the case
says which, and the current device unchanged by every call. The generator cases compare the
CPU stream's numbers after seeding and restoring states through each namespace.

``KNOWN`` lists the deliberate differences with their reasons (each still checked, so a change
shows up). The tests marked ``cuda`` exercise the CUDA paths (streams, events, memory
statistics, generator states, device_guard('gpu:0')) where torch sees a GPU.
"""
import importlib
import json
import os

import pytest
import torch

import paddle_compat as paddle
from golden_utils import assert_same, describe

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "goldens", "device_api.json")) as f:
    GOLDEN = json.load(f)
CASES = GOLDEN["cases"]

_ACCIDENT = ("Paddle's CPU build fails inside Paddle (a NameError/AttributeError of a missing "
             "internal); we raise what its CUDA-less siblings raise")
_USEFUL = "works without CUDA, where Paddle's CPU build fails inside Paddle"

#: id -> (what we do: {"error": type} or {"out": value}, why)
KNOWN = {
    "mem_alloc": ({"error": "ValueError"}, _ACCIDENT + " (as max_memory_allocated)"),
    "mem_reserved": ({"error": "ValueError"}, _ACCIDENT + " (as max_memory_reserved)"),
    "c_mem_alloc": ({"error": "ValueError"}, _ACCIDENT + " (as max_memory_allocated)"),
    "c_mem_reserved": ({"error": "ValueError"}, _ACCIDENT + " (as max_memory_reserved)"),
    "empty_cache": ({"out": None}, _USEFUL + " (as paddle.device.cuda.empty_cache)"),
    "c_empty_cache": ({"out": None}, _USEFUL + " (as paddle.device.cuda.empty_cache)"),
    "properties": ({"error": "ValueError"}, _ACCIDENT + " (as device.cuda's)"),
    "properties_gpu0": ({"error": "ValueError"}, _ACCIDENT + " ('gpu:0' without CUDA)"),
    "device_name": ({"error": "ValueError"}, _ACCIDENT + " (as device.cuda's)"),
    "capability": ({"error": "ValueError"}, _ACCIDENT + " (as device.cuda's)"),
    "c_properties": ({"error": "ValueError"}, _ACCIDENT + " (as device.cuda's)"),
    "c_device_name": ({"error": "ValueError"}, _ACCIDENT + " (as device.cuda's)"),
    "c_capability": ({"error": "ValueError"}, _ACCIDENT + " (as device.cuda's)"),
    "stream": ({"error": "RuntimeError"}, _ACCIDENT + " (as device.cuda.Stream)"),
    "stream_cpu": ({"error": "RuntimeError"}, _ACCIDENT + " (as device.cuda.Stream)"),
    "c_stream": ({"error": "RuntimeError"}, _ACCIDENT + " (as device.cuda.Stream)"),
    "event": ({"error": "RuntimeError"}, _ACCIDENT + " (as device.cuda.Event)"),
    "event_top": ({"error": "RuntimeError"}, _ACCIDENT + " (as device.cuda.Event)"),
    "c_event": ({"error": "RuntimeError"}, _ACCIDENT + " (as device.cuda.Event)"),
    "set_stream_none": ({"error": "TypeError"}, _ACCIDENT + " (None is not a Stream)"),
    "c_set_stream_none": ({"error": "TypeError"}, _ACCIDENT + " (None is not a Stream)"),
    "external_stream": ({"error": "TypeError"}, _ACCIDENT + " (as current_stream on the CPU)"),
    "c_external_stream": ({"error": "TypeError"}, _ACCIDENT + " (as current_stream on the CPU)"),
    "nvtx_push": ({"error": "RuntimeError"}, _ACCIDENT + " (torch's NVTX needs CUDA)"),
    "nvtx_pop": ({"error": "RuntimeError"}, _ACCIDENT + " (torch's NVTX needs CUDA)"),
    "c_nvtx_push": ({"error": "RuntimeError"}, _ACCIDENT + " (torch's NVTX needs CUDA)"),
    "c_cudart": ({"error": "RuntimeError"}, _ACCIDENT + " (no CUDA runtime to bind)"),
    "c_check_error_ok": ({"out": None}, _USEFUL + " (0 is cudaSuccess)"),
    "c_check_error_bad": ({"error": "RuntimeError"}, _USEFUL + " (raises CudaError(1))"),
    "dc_memory_summary": ({"error": "ValueError"}, _ACCIDENT + " (as the other statistics)"),
}

# public names of Paddle 3.3.1's modules we do not have, and why
MISSING = {
    "paddle.device": {
        "current_device_is_cpu": "an internal flag of how Paddle's module was built",
        "dev_types": "an internal list of registered custom-device types",
        "custom_device": "the custom-device plugin namespace (no plugins under torch)",
        "custom_streams": "the custom-device plugin streams (no plugins under torch)",
        "default_backend": "an internal module of the plugin machinery",
        "xpu": "the Kunlun XPU namespace (torch has no XPU backend here)",
    },
    "paddle.device.cuda": {
        "MemoryAnalysisTool": "Paddle's allocation recorder (FLAGS_record_alloc_event)",
        "allocate_record_guard": "Paddle's allocation recorder",
        "allocate_record_plot": "Paddle's allocation recorder",
        "allocate_record_table": "Paddle's allocation recorder",
        "memory_analyzer": "the module of Paddle's allocation recorder",
        "cuda_graphed_layer": "CUDA graphs of Paddle layers (not done)",
        "graphs": "CUDA graphs (not done)",
        "streams": "the module holding Stream/Event (they are in paddle.device.cuda)",
        "deprecated": "a decorator Paddle's module imports",
        "signature_safe_contextmanager": "a decorator Paddle's module imports",
    },
    "paddle.cuda": {},
}

no_cuda = pytest.mark.skipif(torch.cuda.is_available(),
                             reason="the goldens are Paddle's CPU build")
needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def run(code):
    """What ``code`` does here: {"out": describe(out)} or {"error": type, "msg": text}."""
    env = {"paddle": paddle}
    try:
        exec(code, env)
    except Exception as e:       # noqa: BLE001 - the exception is the result
        return {"error": describe(e, paddle)["error"], "msg": str(e)}
    out = env.get("out")
    if isinstance(out, str):
        out = out.replace("paddle_compat", "paddle")
    return {"out": describe(out, paddle)}


@pytest.fixture(autouse=True)
def _on_cpu():
    paddle.set_device("cpu")
    yield
    paddle.set_device("cpu")


@no_cuda
@pytest.mark.parametrize("cid", sorted(CASES))
def test_cpu_build_behaviour(cid):
    case = CASES[cid]
    got = run(case["code"])
    if cid in KNOWN:
        want = KNOWN[cid][0]
    elif "crash" in case:
        want = case["ours"]
    else:
        want = case
    if "error" in want:
        assert got.get("error") == want["error"], f"{cid}: got {got}, want {want['error']}"
        if case.get("names"):
            assert case["names"] in got["msg"], f"{cid}: {got['msg']!r} does not name " \
                                                f"{case['names']!r}"
    else:
        assert "out" in got, f"{cid}: raised {got}"
        assert_same(got["out"], want["out"], where=cid)
    assert paddle.get_device() == "cpu", f"{cid} changed the device"


@no_cuda
@pytest.mark.parametrize("cid", sorted(KNOWN))
def test_known_differences_are_real(cid):
    """Each KNOWN entry still differs from Paddle's CPU build as it says."""
    case = CASES[cid]
    paddle_did = ("error", case["error"]) if "error" in case else ("out", case["out"])
    assert next(iter(KNOWN[cid][0].items())) != paddle_did


@pytest.mark.parametrize("ns", sorted(GOLDEN["names"]))
def test_public_names(ns):
    mod = importlib.import_module(ns.replace("paddle", "paddle_compat", 1))
    absent = {n for n in GOLDEN["names"][ns] if not hasattr(mod, n)}
    assert absent == set(MISSING[ns])
    assert [n for n in GOLDEN["all"][ns] if not hasattr(mod, n)] == []
    for n in GOLDEN["all"][ns]:
        assert n in mod.__all__ or ns == "paddle.cuda" and n == "is_initialized"


# --------------------------------------------------------------- beyond the goldens
def test_device_guard_changes_where_tensors_go_and_restores_on_error():
    with paddle.device_guard("cpu"):
        assert paddle.ones([1]).place == paddle.CPUPlace()
    with pytest.raises(ValueError, match="xyz"):
        paddle.device.device_guard("xyz")
    with pytest.raises(ValueError, match="int"):
        paddle.device.device_guard(0)
    assert paddle.get_device() == "cpu"


def test_set_default_device_bad_value_leaves_device():
    for bad in ("xyz", "gpu:x", 3, -2, 1.5, "xpu:0"):
        with pytest.raises(ValueError, match=str(bad)):
            paddle.set_default_device(bad)
        assert paddle.get_device() == "cpu"


def test_default_device_is_a_device():
    d = paddle.get_default_device()
    assert isinstance(d, paddle.device.Device) and d == "cpu" and d.type == "cpu"


def test_rng_state_round_trips_bit_for_bit():
    paddle.seed(2023)
    s = paddle.device.get_rng_state()
    a = paddle.randn([2, 3], "float64").numpy()
    paddle.device.set_rng_state(s)
    b = paddle.randn([2, 3], "float64").numpy()
    assert (a == b).all()
    assert a.reshape(-1)[:3].round(8).tolist() == [0.06132208, 1.11349594, 0.41906252]
    with pytest.raises(TypeError, match="CPU generator state"):
        paddle.device.set_rng_state(torch.zeros(3, dtype=torch.uint8), "cpu") \
            if torch.cuda.is_available() else paddle.device.set_rng_state("nonsense")


def test_places_of_other_kinds_are_classes():
    x = paddle.CPUPlace()
    for cls in (paddle.XPUPlace, paddle.IPUPlace, paddle.CustomPlace, paddle.XPUPinnedPlace,
                paddle.device.XPUPlace, paddle.device.IPUPlace):
        assert not isinstance(x, cls)


def test_cuda_error():
    e = paddle.cuda.CudaError(2)
    assert isinstance(e, RuntimeError) and "(2)" in str(e)
    with pytest.raises(paddle.cuda.CudaError):
        paddle.cuda.check_error(2)


def test_device_module_callable_and_get_device_module():
    assert paddle.device("cuda:1") == "cuda:1"
    assert paddle.device.get_device_module("gpu") is paddle.cuda
    assert paddle.device.get_device_module(paddle.CPUPlace()) is paddle.device
    assert paddle.device.get_device_module("cpu") is paddle.device.cpu


# --------------------------------------------------------------- on a CUDA device
@pytest.mark.cuda
@needs_cuda
def test_cuda_streams_and_events():
    s = paddle.device.Stream()
    assert isinstance(s.stream_base, torch.cuda.Stream) and s.device == paddle.CUDAPlace(0)
    start = paddle.device.Event(enable_timing=True)
    end = paddle.device.Event(enable_timing=True)
    before = paddle.device.current_stream()
    with paddle.device.stream_guard(s):
        assert paddle.device.current_stream() == s
        assert torch.cuda.current_stream() == s.stream_base
        start.record()
        x = paddle.to_tensor([1.0, 2.0], place=paddle.CUDAPlace(0))
        y = (x * 2).sum()
        end.record()
    assert paddle.device.current_stream() == before
    end.synchronize()
    assert end.query() and start.elapsed_time(end) >= 0
    assert float(y) == 6.0
    s2 = paddle.cuda.Stream(priority=1)
    s2.wait_stream(s)
    ev = s.record_event()
    s2.wait_event(ev)
    s2.synchronize()
    assert s2.query()
    prev = paddle.device.set_stream(s2)
    try:
        assert paddle.cuda.current_stream() == s2
    finally:
        paddle.device.set_stream(prev)
    with pytest.raises(KeyError):
        with paddle.cuda.stream(s):
            raise KeyError("k")
    assert paddle.device.current_stream() == before
    ext = paddle.device.get_stream_from_external(s.cuda_stream)
    assert ext.cuda_stream == s.cuda_stream
    paddle.device.synchronize()
    paddle.device.cuda.synchronize(0)
    with paddle.device.cuda.stream_guard(paddle.device.cuda.create_stream()):
        pass
    assert paddle.device.cuda.create_event().query()


@pytest.mark.cuda
@needs_cuda
def test_cuda_memory_statistics():
    paddle.device.empty_cache()
    paddle.device.reset_peak_memory_stats()
    base = paddle.device.memory_allocated()
    paddle.set_device("gpu:0")
    try:
        x = paddle.zeros([1024, 1024], "float32")          # 4 MiB
        assert paddle.device.memory_allocated() - base >= 4 << 20
        assert paddle.cuda.max_memory_allocated() >= paddle.cuda.memory_allocated()
        assert paddle.device.cuda.memory_reserved("gpu:0") >= paddle.device.memory_allocated(0)
        assert paddle.device.max_memory_reserved() >= paddle.device.memory_reserved()
        del x
        paddle.device.cuda.reset_max_memory_allocated()
        assert paddle.device.max_memory_allocated() < base + (4 << 20)
        free, total = paddle.cuda.mem_get_info()
        assert 0 < free <= total
        assert paddle.device.cuda.vmm_compact() >= 0
    finally:
        paddle.set_device("cpu")
    props = paddle.device.get_device_properties(0)
    assert props.total_memory > 0 and paddle.device.get_device_name() == props.name
    assert paddle.cuda.get_device_capability() == (props.major, props.minor)
    assert paddle.device.get_cudnn_version() is None or paddle.device.get_cudnn_version() > 0
    assert paddle.device.device_count() == torch.cuda.device_count() and paddle.cuda.is_available()
    with pytest.raises(ValueError, match="'gpu:99'"):
        paddle.device.memory_allocated("gpu:99")
    assert paddle.cuda.check_error(0) is None and "(1)" in str(paddle.cuda.CudaError(1))


@pytest.mark.cuda
@needs_cuda
def test_cuda_rng_state_round_trip():
    paddle.set_device("gpu:0")
    try:
        s = paddle.device.get_rng_state()
        assert isinstance(s, torch.Tensor)
        a = paddle.randn([8]).numpy()
        paddle.device.set_rng_state(s)
        assert (paddle.randn([8]).numpy() == a).all()
        paddle.device.manual_seed(3)
        b = paddle.rand([4]).numpy()
        paddle.cuda.manual_seed(3)
        assert (paddle.rand([4]).numpy() == b).all()
        with pytest.raises(TypeError, match="CUDA generator state"):
            paddle.device.set_rng_state(paddle.device.get_rng_state("cpu"))
    finally:
        paddle.set_device("cpu")
    cpu_state = paddle.device.get_rng_state("cpu")
    paddle.device.set_rng_state(cpu_state, "cpu")


@pytest.mark.cuda
@needs_cuda
def test_cuda_device_guard():
    with paddle.device.device_guard("gpu:0"):
        assert paddle.get_device() == "gpu:0"
        assert paddle.ones([2]).place == paddle.CUDAPlace(0)
    assert paddle.get_device() == "cpu"
    with pytest.raises(KeyError):
        with paddle.device_guard(paddle.CUDAPlace(0)):
            raise KeyError("k")
    assert paddle.get_device() == "cpu"
    with pytest.raises(ValueError, match="gpu:99"):
        paddle.device.device_guard("gpu:99")
    assert paddle.get_device() == "cpu"
    paddle.set_default_device("gpu")
    try:
        assert str(paddle.get_default_device()) == "cuda:0"
        assert paddle.device.current_device() == 0
        assert paddle.get_device_module() is paddle.cuda
    finally:
        paddle.set_default_device("cpu")
    with paddle.cuda.device(0):
        pass
    paddle.cuda.set_device(0)
    assert paddle.get_device() == "gpu:0"
    paddle.set_device("cpu")
