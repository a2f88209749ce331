"""Record what Paddle 3.3.1's CPU build does with paddle.device, paddle.device.cuda and
paddle.cuda: run with the Paddle virtualenv's python.

    ../paddle_venv/bin/python tools/goldens/record_device_api.py

Each case of ``CASES`` is ``(case_id, code, names)``: ``code`` runs with ``paddle`` bound and
sets ``out`` (or raises); ``names`` is a piece of text our message must contain where the call
is bad input (the bad value), else None. Every case starts on the CPU device and must leave it
there. Writes tests/goldens/device_api.json: per case the code, ``names``, and
``golden_utils.describe`` of ``out`` or of the exception (its nearest built-in type), with the
message's first line for reading (never compared); and the public names of the three modules.
``CRASHES`` are calls that kill real Paddle's CPU build (SIGSEGV): not run, recorded as such.
tests/test_device_api.py runs the same code on paddle_compat.

This file imports no Paddle at module level, so the table can be read anywhere.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

_RNG = "out = [paddle.randn([4], 'float64'), paddle.rand([3], 'float32')]"

CASES = [
    # -- what was built in
    ("device_count", "out = paddle.device.device_count()", None),
    ("is_available", "out = paddle.device.is_available()", None),
    ("cudnn_version", "out = paddle.device.get_cudnn_version()", None),
    ("cudnn_version_top", "out = paddle.get_cudnn_version()", None),
    ("custom_types", "out = paddle.device.get_all_custom_device_type()", None),
    ("custom_available", "out = paddle.device.get_available_custom_device()", None),
    ("all_device_type", "out = paddle.device.get_all_device_type()", None),
    ("available_device", "out = paddle.device.get_available_device()", None),
    ("get_device", "out = paddle.device.get_device()", None),
    ("get_device_tensor", "out = paddle.device.get_device(paddle.ones([1]))", None),
    ("set_device_returns", "out = str(paddle.device.set_device('cpu'))", None),
    ("set_device_cuda_str", "paddle.device.set_device('cuda:0')", "cuda:0"),
    ("set_device_device_obj", "out = str(paddle.device.set_device(paddle.device('cpu')))",
     None),
    ("device_obj_cm", "with paddle.device('cpu') as d:\n"
     "    out = [str(d), paddle.get_device()]", None),
    ("device_obj_int", "d = paddle.device(1)\n"
     "out = [str(d), d.type, d.index]", None),
    ("device_obj_bad", "paddle.device('abc')", "abc"),
    ("with_cinn", "out = paddle.device.is_compiled_with_cinn()", None),
    ("with_custom", "out = paddle.device.is_compiled_with_custom_device('npu')", None),
    ("with_custom_top", "out = paddle.is_compiled_with_custom_device('npu')", None),
    ("with_distribute", "out = paddle.device.is_compiled_with_distribute()", None),
    ("with_ipu", "out = paddle.device.is_compiled_with_ipu()", None),
    ("with_ipu_top", "out = paddle.is_compiled_with_ipu()", None),
    ("with_rocm", "out = paddle.device.is_compiled_with_rocm()", None),
    ("with_xpu", "out = paddle.device.is_compiled_with_xpu()", None),
    ("with_xpu_top", "out = paddle.is_compiled_with_xpu()", None),
    ("with_cuda", "out = paddle.device.is_compiled_with_cuda()", None),
    ("capturing", "out = paddle.device.is_current_stream_capturing()", None),
    ("bf16", "out = paddle.device.is_bf16_supported()", None),
    ("bf16_native", "out = paddle.device.is_bf16_supported(False)", None),
    ("typed_tensors", "out = [getattr(paddle.device, n) is getattr(paddle, n) for n in "
     "['FloatTensor', 'DoubleTensor', 'HalfTensor', 'BFloat16Tensor', 'ByteTensor', "
     "'CharTensor', 'ShortTensor', 'IntTensor', 'LongTensor', 'BoolTensor']]", None),
    ("typed_tensors_cuda", "out = [getattr(paddle.cuda, n) is getattr(paddle, n) for n in "
     "['FloatTensor', 'LongTensor', 'BoolTensor']]", None),
    ("same_objects", "out = [paddle.Event is paddle.device.Event, "
     "paddle.Stream is paddle.device.Stream, paddle.cuda.Event is paddle.device.Event, "
     "paddle.cuda.Stream is paddle.device.Stream, "
     "paddle.device.StreamContext is paddle.device.stream_guard, "
     "paddle.cuda.StreamContext is paddle.device.stream_guard, "
     "paddle.device_guard is paddle.device.device_guard, "
     "paddle.cuda.device is paddle.device.device]", None),
    # -- the current device
    ("current_device", "out = paddle.device.current_device()", None),
    ("default_device", "d = paddle.device.get_default_device(); "
     "out = [str(d), type(d).__name__, d.type, d.index]", None),
    ("default_device_top", "out = str(paddle.get_default_device())", None),
    ("set_default_cpu", "out = [paddle.device.set_default_device('cpu'), paddle.get_device()]",
     None),
    ("set_default_int0", "out = [paddle.set_default_device(0), paddle.get_device()]", None),
    ("set_default_gpu", "paddle.device.set_default_device('gpu')", "'gpu'"),
    ("set_default_gpu1", "paddle.device.set_default_device('gpu:1')", "gpu:1"),
    ("set_default_bad", "paddle.device.set_default_device('xyz')", "xyz"),
    ("set_default_int1", "paddle.device.set_default_device(1)", "1"),
    ("set_default_neg", "paddle.device.set_default_device(-1)", "-1"),
    ("set_device_int0", "out = [str(paddle.device.set_device(0)), paddle.get_device()]", None),
    ("set_device_xpu", "paddle.device.set_device('xpu')", "xpu"),
    # -- device_guard / device
    ("guard_cpu", "with paddle.device.device_guard('cpu'):\n"
     "    x = paddle.ones([2])\n"
     "out = [str(x.place), paddle.get_device()]", None),
    ("guard_place", "with paddle.device_guard(paddle.CPUPlace()):\n"
     "    inner = paddle.get_device()\n"
     "out = [inner, paddle.get_device()]", None),
    ("guard_raises_restores", "try:\n"
     "    with paddle.device.device_guard('cpu'):\n"
     "        raise KeyError('k')\n"
     "except KeyError:\n"
     "    pass\n"
     "out = paddle.get_device()", None),
    ("guard_gpu", "paddle.device.device_guard('gpu')", "'gpu'"),
    ("guard_gpu0", "paddle.device.device_guard('gpu:0')", "gpu:0"),
    ("guard_bad_str", "paddle.device.device_guard('xyz')", "xyz"),
    ("guard_int", "paddle.device.device_guard(3)", "int"),
    ("guard_none", "paddle.device.device_guard(None)", "None"),
    ("device_cm_cpu", "with paddle.device.device('cpu'):\n"
     "    inner = paddle.get_device()\n"
     "out = [inner, paddle.get_device()]", None),
    ("device_cm_int0", "with paddle.device.device(0):\n"
     "    inner = paddle.get_device()\n"
     "out = inner", None),
    ("device_cm_none", "with paddle.device.device(None):\n"
     "    inner = paddle.get_device()\n"
     "out = inner", None),
    ("device_cm_int1", "paddle.device.device(1)", "1"),
    ("device_cm_gpu0", "paddle.device.device('gpu:0')", "gpu:0"),
    ("cuda_device_cm", "with paddle.cuda.device('cpu'):\n"
     "    inner = paddle.get_device()\n"
     "out = inner", None),
    # -- get_device_module
    ("module_none", "out = paddle.device.get_device_module().__name__", None),
    ("module_top", "out = paddle.get_device_module('cpu').__name__", None),
    ("module_cpu", "out = paddle.device.get_device_module('cpu').__name__", None),
    ("module_gpu", "out = paddle.device.get_device_module('gpu').__name__", None),
    ("module_cuda0", "out = paddle.device.get_device_module('cuda:0').__name__", None),
    ("module_int0", "out = paddle.device.get_device_module(0).__name__", None),
    ("module_place", "out = paddle.device.get_device_module(paddle.CPUPlace()).__name__", None),
    ("module_bad", "paddle.device.get_device_module('foo')", "foo"),
    ("module_int1", "paddle.device.get_device_module(1)", "1"),
    # -- memory statistics and properties
    ("max_alloc", "paddle.device.max_memory_allocated()", None),
    ("max_reserved", "paddle.device.max_memory_reserved()", None),
    ("reset_max_alloc", "paddle.device.reset_max_memory_allocated()", None),
    ("reset_max_reserved", "paddle.device.reset_max_memory_reserved()", None),
    ("reset_peak", "paddle.device.reset_peak_memory_stats()", None),
    ("mem_alloc", "paddle.device.memory_allocated()", None),
    ("mem_reserved", "paddle.device.memory_reserved()", None),
    ("empty_cache", "out = paddle.device.empty_cache()", None),
    ("properties", "paddle.device.get_device_properties()", None),
    ("properties_gpu0", "paddle.device.get_device_properties('gpu:0')", None),
    ("device_name", "paddle.device.get_device_name()", None),
    ("capability", "paddle.device.get_device_capability()", None),
    # -- streams and events
    ("stream", "paddle.device.Stream()", None),
    ("stream_cpu", "paddle.device.Stream('cpu')", None),
    ("stream_gpu0", "paddle.device.Stream('gpu:0')", "gpu:0"),
    ("event", "paddle.device.Event()", None),
    ("event_top", "paddle.Event()", None),
    ("current_stream", "paddle.device.current_stream()", None),
    ("current_stream_cpu", "paddle.device.current_stream('cpu')", "cpu"),
    ("current_stream_gpu0", "paddle.device.current_stream('gpu:0')", "gpu:0"),
    ("set_stream_none", "paddle.device.set_stream(None)", None),
    ("stream_guard_none", "with paddle.device.stream_guard(None):\n"
     "    inner = paddle.get_device()\n"
     "out = inner", None),
    ("stream_none", "with paddle.device.stream(None):\n"
     "    out = 1", None),
    ("stream_context_none", "with paddle.device.StreamContext(None):\n"
     "    out = 2", None),
    ("synchronize", "paddle.device.synchronize()", None),
    ("synchronize_cpu", "paddle.device.synchronize('cpu')", "cpu"),
    ("synchronize_gpu0", "paddle.device.synchronize('gpu:0')", "gpu:0"),
    ("ipc_collect", "paddle.device.ipc_collect()", None),
    ("external_stream", "paddle.device.get_stream_from_external(0)", None),
    ("nvtx_push", "paddle.device.nvtx.range_push('a')", None),
    ("nvtx_pop", "paddle.device.nvtx.range_pop()", None),
    ("amp_autocast", "with paddle.device.amp.autocast():\n"
     "    out = 3", None),
    # -- places
    ("ipu_place", "paddle.device.IPUPlace()", None),
    ("xpu_place", "paddle.device.XPUPlace(0)", None),
    ("xpu_place_top", "paddle.XPUPlace(0)", None),
    ("xpu_pinned_place", "paddle.XPUPinnedPlace()", None),
    ("custom_place", "paddle.CustomPlace('npu', 0)", None),
    # -- generators: the CPU stream, bit for bit
    ("rng_round_trip", "paddle.seed(7)\n"
     "s = paddle.device.get_rng_state()\n"
     "a = paddle.randn([4], 'float64')\n"
     "paddle.device.set_rng_state(s)\n"
     "out = [a, paddle.randn([4], 'float64')]", None),
    ("rng_round_trip_cpu", "paddle.seed(8)\n"
     "s = paddle.device.get_rng_state('cpu')\n"
     "paddle.rand([5])\n"
     "paddle.device.set_rng_state(s, 'cpu')\n"
     "out = paddle.rand([5], 'float64')", None),
    ("rng_round_trip_cuda_ns", "paddle.seed(9)\n"
     "s = paddle.cuda.get_rng_state()\n"
     "paddle.rand([5])\n"
     "paddle.cuda.set_rng_state(s)\n"
     "out = paddle.rand([5], 'float64')", None),
    ("rng_round_trip_device_cuda", "paddle.seed(10)\n"
     "s = paddle.device.cuda.get_rng_state()\n"
     "paddle.rand([5])\n"
     "paddle.device.cuda.set_rng_state(s)\n"
     "out = paddle.rand([5], 'float64')", None),
    ("rng_state_int0", "paddle.seed(11)\n"
     "s = paddle.device.get_rng_state(0)\n"
     "paddle.rand([5])\n"
     "paddle.device.set_rng_state(s, 0)\n"
     "out = paddle.rand([5], 'float64')", None),
    ("rng_state_gpu", "paddle.device.get_rng_state('gpu:0')", None),
    ("manual_seed", "paddle.device.manual_seed(5)\n" + _RNG, None),
    ("manual_seed_all", "paddle.device.manual_seed_all(5)\n" + _RNG, None),
    ("cuda_manual_seed", "paddle.cuda.manual_seed(6)\n" + _RNG, None),
    ("cuda_manual_seed_all", "paddle.cuda.manual_seed_all(6)\n" + _RNG, None),
    ("cuda_device_manual_seed_all", "paddle.cuda.device_manual_seed_all(6)\n" + _RNG, None),
    ("device_cuda_manual_seed", "paddle.device.cuda.manual_seed(12)\n" + _RNG, None),
    ("cpu_manual_seed", "paddle.device.cpu.manual_seed(13)\n" + _RNG, None),
    ("manual_seed_is_seed", "paddle.device.manual_seed(5)\n"
     "a = paddle.randn([4], 'float64')\n"
     "paddle.seed(5)\n"
     "out = [a, paddle.randn([4], 'float64')]", None),
    # -- paddle.device.cuda
    ("dc_device_count", "out = paddle.device.cuda.device_count()", None),
    ("dc_memory_summary", "paddle.device.cuda.memory_summary()", None),
    ("dc_reset_max_alloc", "paddle.device.cuda.reset_max_memory_allocated()", None),
    ("dc_reset_max_reserved", "paddle.device.cuda.reset_max_memory_reserved()", None),
    ("dc_max_alloc", "paddle.device.cuda.max_memory_allocated()", None),
    ("dc_max_reserved", "paddle.device.cuda.max_memory_reserved()", None),
    ("dc_mem_alloc", "paddle.device.cuda.memory_allocated()", None),
    ("dc_mem_reserved", "paddle.device.cuda.memory_reserved()", None),
    ("dc_empty_cache", "out = paddle.device.cuda.empty_cache()", None),
    ("dc_synchronize", "paddle.device.cuda.synchronize()", None),
    ("dc_stream", "paddle.device.cuda.Stream()", None),
    ("dc_event", "paddle.device.cuda.Event()", None),
    ("dc_vmm_compact", "paddle.device.cuda.vmm_compact()", None),
    ("dc_create_event", "paddle.device.cuda.create_event()", None),
    ("dc_create_stream", "paddle.device.cuda.create_stream()", None),
    ("dc_properties", "paddle.device.cuda.get_device_properties()", None),
    ("dc_device_name", "paddle.device.cuda.get_device_name()", None),
    ("dc_capability", "paddle.device.cuda.get_device_capability()", None),
    # -- paddle.cuda
    ("c_is_available", "out = paddle.cuda.is_available()", None),
    ("c_is_initialized", "out = paddle.cuda.is_initialized()", None),
    ("c_device_count", "out = paddle.cuda.device_count()", None),
    ("c_current_device", "out = paddle.cuda.current_device()", None),
    ("c_mem_get_info", "paddle.cuda.mem_get_info()", "cpu"),
    ("c_synchronize", "paddle.cuda.synchronize()", None),
    ("c_current_stream", "paddle.cuda.current_stream()", None),
    ("c_properties", "paddle.cuda.get_device_properties()", None),
    ("c_device_name", "paddle.cuda.get_device_name()", None),
    ("c_capability", "paddle.cuda.get_device_capability()", None),
    ("c_stream_none", "with paddle.cuda.stream(None):\n"
     "    out = 5", None),
    ("c_stream", "paddle.cuda.Stream()", None),
    ("c_event", "paddle.cuda.Event()", None),
    ("c_external_stream", "paddle.cuda.get_stream_from_external(0)", None),
    ("c_empty_cache", "paddle.cuda.empty_cache()", None),
    ("c_mem_alloc", "paddle.cuda.memory_allocated()", None),
    ("c_mem_reserved", "paddle.cuda.memory_reserved()", None),
    ("c_max_alloc", "paddle.cuda.max_memory_allocated()", None),
    ("c_max_reserved", "paddle.cuda.max_memory_reserved()", None),
    ("c_reset_max_alloc", "paddle.cuda.reset_max_memory_allocated()", None),
    ("c_reset_max_reserved", "paddle.cuda.reset_max_memory_reserved()", None),
    ("c_reset_peak", "paddle.cuda.reset_peak_memory_stats()", None),
    ("c_set_device_int", "paddle.cuda.set_device(0)", "0"),
    ("c_set_device_gpu0", "paddle.cuda.set_device('gpu:0')", "gpu:0"),
    ("c_set_device_cpu", "out = [paddle.cuda.set_device('cpu'), paddle.get_device()]", None),
    ("c_set_stream_none", "paddle.cuda.set_stream(None)", None),
    ("c_ipc_collect", "paddle.cuda.ipc_collect()", None),
    ("c_bf16", "out = paddle.cuda.is_bf16_supported()", None),
    ("c_capturing", "out = paddle.cuda.is_current_stream_capturing()", None),
    ("c_cudart", "paddle.cuda.cudart()", None),
    ("c_check_error_ok", "out = paddle.cuda.check_error(0)", None),
    ("c_check_error_bad", "paddle.cuda.check_error(1)", None),
    ("c_cuda_error_base", "out = issubclass(paddle.cuda.CudaError, RuntimeError)", None),
    ("c_nvtx_push", "paddle.cuda.nvtx.range_push('a')", None),
    ("c_amp_autocast", "with paddle.cuda.amp.autocast():\n"
     "    out = 6", None),
]

# Calls that crash real Paddle 3.3.1's CPU build (SIGSEGV in get_current_stream): not run.
# Each has what we do instead, written by hand: {"error": type} or {"out": value}.
CRASHES = [
    ("dc_current_stream", "paddle.device.cuda.current_stream()", None,
     {"error": "RuntimeError"}),
    ("dc_stream_guard_none", "with paddle.device.cuda.stream_guard(None):\n"
     "    out = 4", None, {"out": 4}),
]

NAMESPACES = ("paddle.device", "paddle.device.cuda", "paddle.cuda")


def _first_line(msg):
    for line in str(msg).splitlines():
        if line.strip():
            return line.strip()[:300]
    return ""


def run(paddle, code):
    """What ``code`` does on Paddle: describe(out) (None where it sets no ``out``), or the
    exception's built-in type and first line."""
    from golden_utils import describe
    env = {"paddle": paddle}
    try:
        exec(code, env)
    except Exception as e:       # noqa: BLE001 - the exception is the result
        return {"error": describe(e, paddle)["error"], "msg": _first_line(e)}
    return {"out": describe(env.get("out"), paddle)}


def public_names(mod):
    """A module's public names that are not imports of other modules or typing helpers."""
    import types
    out = []
    for n in dir(mod):
        v = getattr(mod, n)
        if n.startswith("_") or isinstance(v, types.ModuleType) and not v.__name__.startswith(
                mod.__name__ + "."):
            continue
        if getattr(v, "__module__", "").startswith(("typing", "__future__")) or n in (
                "annotations", "TYPE_CHECKING", "TypeAlias", "Union", "NoReturn", "overload"):
            continue
        out.append(n)
    return out


def main():
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import importlib

    import paddle
    out = {"paddle_version": paddle.__version__, "cases": {}, "names": {}, "all": {}}
    for cid, code, names in CASES:
        paddle.disable_static()
        paddle.set_device("cpu")
        r = run(paddle, code)
        r.update(code=code, names=names, device_after=paddle.get_device())
        out["cases"][cid] = r
        print(f"{cid}: {r.get('error', r.get('out'))} {r.get('msg', '')[:90]}")
    for cid, code, names, ours in CRASHES:
        out["cases"][cid] = dict(code=code, names=names, crash="SIGSEGV", ours=ours)
    for ns in NAMESPACES:
        mod = importlib.import_module(ns)
        out["names"][ns] = public_names(mod)
        out["all"][ns] = list(getattr(mod, "__all__", []))
    ids = [c[0] for c in CASES] + [c[0] for c in CRASHES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    path = os.path.join(ROOT, "tests", "goldens", "device_api.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(ids)} cases to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
