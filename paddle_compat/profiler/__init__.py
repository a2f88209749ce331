"""``paddle.profiler`` on ``torch.profiler``.

``Profiler`` runs Paddle's step scheduler (``make_scheduler``: CLOSED -> READY -> RECORD ->
RECORD_AND_RETURN, repeated) and records each RECORD window with ``torch.profiler.profile``;
at the end of a window it calls ``on_trace_ready(prof)``, by default
``export_chrome_tracing('./profiler_log/')``. ``RecordEvent`` marks a block of code
(``torch.profiler.record_function`` underneath; a no-op while no Profiler runs, as in Paddle);
each step is a ``ProfileStep#<n>`` event.

    >>> import paddle_compat as paddle
    >>> import paddle_compat.profiler as profiler
    >>> with profiler.Profiler(scheduler=(1, 3), on_trace_ready=lambda p: None) as prof:
    ...     for step in range(4):
    ...         with profiler.RecordEvent("forward"):
    ...             y = paddle.ones([4, 4]) @ paddle.ones([4, 4])
    ...         prof.step()
    >>> prof.summary(op_detail=False)                                  # doctest: +SKIP

What differs from Paddle:

- the events are torch's: operators are ATen ops (``aten::mm``), not Paddle kernels; there are
  no GPU kernel events unless torch records them (``ProfilerTarget.GPU`` with CUDA);
- ``export(path, 'json')`` and ``export_chrome_tracing`` write a Chrome trace in Paddle's layout
  (``traceEvents`` with ``name[duration us]``, ``cat`` the event type, ``ExtraInfo``);
  ``'pb'`` / ``export_protobuf`` write the same events as JSON under Paddle's ``.pb`` file name
  -- not Paddle's protobuf schema: ``load_profiler_result`` reads both of ours, not Paddle's;
- ``summary`` prints the Overview, Operator and UserDefined tables with CPU times (the GPU
  columns stay zero; it notes the views it has no data for); ``timer_only=True`` and ``step_info`` time the steps as Paddle does, without
  the reader cost (the DataLoader is not instrumented); optimizer steps are not wrapped in
  ``Optimization Step`` events.
"""
import datetime
import json
import os
import socket
import timeit
import warnings
from enum import Enum

import torch

__all__ = ["ProfilerState", "ProfilerTarget", "make_scheduler", "export_chrome_tracing",
           "export_protobuf", "Profiler", "RecordEvent", "load_profiler_result", "SortedKeys",
           "SummaryView"]


class ProfilerState(Enum):
    """The state of a profiler step: not recording, warming up, recording, recording the
    window's last step (after which the result is handed to ``on_trace_ready``)."""
    CLOSED = 0
    READY = 1
    RECORD = 2
    RECORD_AND_RETURN = 3


class ProfilerTarget(Enum):
    """The devices to profile."""
    CPU = 0
    GPU = 1
    XPU = 2
    CUSTOM_DEVICE = 3


class SortedKeys(Enum):
    """How ``Profiler.summary`` orders its rows."""
    CPUTotal = 0
    CPUAvg = 1
    CPUMax = 2
    CPUMin = 3
    GPUTotal = 4
    GPUAvg = 5
    GPUMax = 6
    GPUMin = 7


class SummaryView(Enum):
    """The tables ``Profiler.summary`` can print."""
    DeviceView = 0
    OverView = 1
    ModelView = 2
    DistributedView = 3
    KernelView = 4
    OperatorView = 5
    MemoryView = 6
    MemoryManipulationView = 7
    UDFView = 8


class TracerEventType(Enum):
    """The kinds of events (Paddle's ``core.TracerEventType``)."""
    Operator = 0
    Dataloader = 1
    ProfileStep = 2
    CudaRuntime = 3
    Kernel = 4
    Memcpy = 5
    Memset = 6
    UserDefined = 7
    OperatorInner = 8
    Forward = 9
    Backward = 10
    Optimization = 11
    Communication = 12
    PythonOp = 13
    PythonUserDefined = 14
    DygraphKernelLaunch = 15
    StaticKernelLaunch = 16


_RECORDABLE = (TracerEventType.Dataloader, TracerEventType.ProfileStep, TracerEventType.Forward,
               TracerEventType.Backward, TracerEventType.Optimization, TracerEventType.PythonOp,
               TracerEventType.PythonUserDefined)


class _State:
    in_use = False          # a Profiler is running (RecordEvent records only then)
    event_types = {}        # RecordEvent name -> its TracerEventType name


# ------------------------------------------------------------------------------ scheduling
def make_scheduler(*, closed, ready, record, repeat=0, skip_first=0):
    """The scheduler ``step -> ProfilerState``: after ``skip_first`` closed steps, cycles of
    ``closed`` CLOSED, ``ready`` READY and ``record`` recording steps (the last one
    RECORD_AND_RETURN), ``repeat`` times (0: forever), then CLOSED."""
    assert closed >= 0 and ready >= 0 and record > 0 and repeat >= 0 and skip_first >= 0, \
        "Invalid profiler scheduler arguments"
    if ready == 0:
        warnings.warn("Profiler will record data after enabling profiler immediately, some data "
                      "collected at the beginning of profiling may be 'noisy' because of "
                      "overhead.")
    period = closed + ready + record

    def state_of(step):
        assert step >= 0
        if step < skip_first:
            return ProfilerState.CLOSED
        cycle, pos = divmod(step - skip_first, period)
        if repeat > 0 and cycle >= repeat:
            return ProfilerState.CLOSED
        if pos < closed:
            return ProfilerState.CLOSED
        if pos < closed + ready:
            return ProfilerState.READY
        return ProfilerState.RECORD_AND_RETURN if pos == period - 1 else ProfilerState.RECORD

    return state_of


def _always_record(step):
    return ProfilerState.RECORD


def _make_dir(dir_name):
    if not os.path.exists(dir_name):
        try:
            os.makedirs(dir_name, exist_ok=True)
        except OSError:
            raise RuntimeError(f"Can not create directory '{dir_name}' for saving profiling "
                               "results.") from None


def _exporter(dir_name, worker_name, fmt, suffix):
    _make_dir(dir_name)

    def handle(prof):
        worker = worker_name or f"host_{socket.gethostname()}pid_{os.getpid()}"
        stamp = datetime.datetime.now().strftime("%Y_%m_%d_%H_%M_%S_%f")
        prof.export(os.path.join(dir_name, f"{worker}_time_{stamp}.paddle_trace.{suffix}"), fmt)
    return handle


def export_chrome_tracing(dir_name, worker_name=None):
    """An ``on_trace_ready`` callback writing each result as a Chrome trace,
    ``dir_name/<worker>_time_<Y_m_d_H_M_S_us>.paddle_trace.json`` (the folder is made now)."""
    return _exporter(dir_name, worker_name, "json", "json")


def export_protobuf(dir_name, worker_name=None):
    """An ``on_trace_ready`` callback writing each result to
    ``dir_name/<worker>_time_<...>.paddle_trace.pb`` (JSON inside: see the module doc)."""
    return _exporter(dir_name, worker_name, "pb", "pb")


# ------------------------------------------------------------------------------ events
class RecordEvent:
    """Marks the code between ``begin()`` and ``end()`` (or a ``with`` block, or a decorated
    function) as an event called ``name`` in the running Profiler's trace."""

    def __init__(self, name, event_type=TracerEventType.PythonUserDefined):
        self.name = name
        self.event_type = event_type
        self.event = None

    def __enter__(self):
        self.begin()
        return self

    def __exit__(self, exc_type, exc_value, tb):
        self.end()

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with RecordEvent(self.name, self.event_type):
                return fn(*args, **kwargs)
        wrapper.__name__ = getattr(fn, "__name__", "wrapper")
        wrapper.__doc__ = getattr(fn, "__doc__", None)
        return wrapper

    def begin(self):
        """Open the event (nothing happens while no Profiler is running)."""
        if not _State.in_use:
            return
        if self.event_type not in _RECORDABLE:
            warnings.warn("Only TracerEvent Type in [{}] can be recorded.".format(
                ", ".join(str(t) for t in _RECORDABLE)))
            self.event = None
            return
        _State.event_types[self.name] = self.event_type.name
        self.event = torch.autograd.profiler.record_function(self.name)
        self.event.__enter__()

    def end(self):
        """Close the event."""
        if self.event is not None:
            event, self.event = self.event, None
            event.__exit__(None, None, None)


class _ProfilerResult:
    """The events of one recorded window: ``get_data()`` (a list of dicts: name, type,
    start_ns, end_ns, tid, and input_shapes when recorded), ``get_extra_info()``,
    ``save(path, format)``."""

    def __init__(self, events, extra_info=None):
        self.events = events
        self.extra_info = dict(extra_info or {})

    def get_data(self):
        return self.events

    def get_extra_info(self):
        return self.extra_info

    def save(self, path, format="json"):
        if format == "json":
            doc = _chrome_trace(self)
        elif format == "pb":
            doc = {"paddle_compat_profiler_result": 1, "extra_info": self.extra_info,
                   "events": self.events}
        else:
            raise ValueError(f"Unsupported export format {format!r}: use 'json' or 'pb'")
        with open(path, "w") as f:
            json.dump(doc, f)


def _chrome_trace(result):
    pid = os.getpid()
    t0 = min((e["start_ns"] for e in result.events), default=0)
    out = []
    for e in result.events:
        dur_us = (e["end_ns"] - e["start_ns"]) / 1000.0
        args = {"start_time": f"{(e['start_ns'] - t0) / 1000.0:.3f} us",
                "end_time": f"{(e['end_ns'] - t0) / 1000.0:.3f} us"}
        if e.get("input_shapes"):
            args["input_shapes"] = e["input_shapes"]
        out.append({"name": f"{e['name']}[{dur_us:.3f} us]", "pid": pid,
                    "tid": f"{e['tid']}(Python)", "ts": e["start_ns"] / 1000.0, "dur": dur_us,
                    "ph": "X", "cat": e["type"], "args": args})
    return {"displayTimeUnit": "ms", "schemaVersion": "1.0.2", "span_index": 0,
            "traceEvents": out, "ExtraInfo": result.extra_info}


def load_profiler_result(filename):
    """Read a result written by ``export`` / ``export_chrome_tracing`` / ``export_protobuf``
    of paddle_compat (Paddle's own protobuf files cannot be read)."""
    try:
        with open(filename) as f:
            doc = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(f"{filename} is not a profiler result written by paddle_compat (real "
                         "Paddle's protobuf results cannot be read here)") from None
    if isinstance(doc, dict) and "paddle_compat_profiler_result" in doc:
        return _ProfilerResult(doc["events"], doc.get("extra_info"))
    if isinstance(doc, dict) and "traceEvents" in doc:
        events = []
        for ev in doc["traceEvents"]:
            if ev.get("ph") != "X":
                continue
            name = ev["name"]
            if name.endswith(" us]") and "[" in name:
                name = name[:name.rindex("[")]
            start = int(round(ev["ts"] * 1000))
            e = {"name": name, "type": ev.get("cat", "Operator"), "start_ns": start,
                 "end_ns": start + int(round(ev.get("dur", 0) * 1000)),
                 "tid": str(ev.get("tid", "")).split("(")[0]}
            if "input_shapes" in ev.get("args", {}):
                e["input_shapes"] = ev["args"]["input_shapes"]
            events.append(e)
        return _ProfilerResult(events, doc.get("ExtraInfo"))
    raise ValueError(f"{filename} is not a profiler result written by paddle_compat")


# ------------------------------------------------------------------------------ recording
class _Engine:
    """One recording window on torch's profiler (what Paddle's C++ ``_Profiler`` does).

    It drives ``torch.autograd.profiler.profile`` (the Kineto profiler that
    ``torch.profiler.profile`` wraps) directly: the wrapper's first start imports
    torch._inductor, a long import chain that should not run in the middle of a user's loop.
    """

    def __init__(self, activities, record_shapes, profile_memory, with_flops):
        self.kw = dict(use_cpu=torch.profiler.ProfilerActivity.CPU in activities,
                       record_shapes=record_shapes, profile_memory=profile_memory,
                       with_flops=with_flops)
        if torch.profiler.ProfilerActivity.CUDA in activities:
            self.kw["use_device"] = "cuda"
        self.record_shapes = record_shapes
        self.with_flops = with_flops
        self.prof = None

    def start(self):
        if self.prof is None:
            self.prof = torch.autograd.profiler.profile(**self.kw)
            self.prof.__enter__()

    def stop(self):
        """End the window; its ``_ProfilerResult`` (None when none was running)."""
        if self.prof is None:
            return None
        prof, self.prof = self.prof, None
        prof.__exit__(None, None, None)
        return self._result(prof)

    def _result(self, prof):
        t0 = prof.kineto_results.trace_start_ns() if prof.kineto_results is not None else 0
        events = []
        for ev in prof.function_events:
            if ev.name.startswith("ProfileStep#"):
                kind = "ProfileStep"
            elif ev.is_user_annotation:
                kind = _State.event_types.get(ev.name, "PythonUserDefined")
            elif ev.device_type == torch.autograd.DeviceType.CPU:
                parent = ev.cpu_parent
                kind = "OperatorInner" if parent is not None and not parent.is_user_annotation \
                    else "Operator"
            else:
                kind = "Kernel"
            e = {"name": ev.name, "type": kind,
                 "start_ns": t0 + int(ev.time_range.start * 1000),
                 "end_ns": t0 + int(ev.time_range.end * 1000), "tid": str(ev.thread)}
            if self.record_shapes and ev.input_shapes:
                e["input_shapes"] = ev.input_shapes
            if self.with_flops and ev.flops:
                e["flops"] = ev.flops
            events.append(e)
        events.sort(key=lambda e: (e["start_ns"], -e["end_ns"]))
        info = {"torch": torch.__version__}
        return _ProfilerResult(events, info)


class _StepTimer:
    """Step timing for ``step_info`` and the Perf Summary printed at ``stop`` (Paddle's
    benchmark timer; the first ``skip`` steps are left out of the summary)."""
    skip = 10

    def begin(self):
        self.start = timeit.default_timer()
        self.window_time, self.window_iters, self.window_samples = 0.0, 0, 0
        self.iters, self.steps_mode = 0, False
        self.costs, self.speeds, self.samples = [], [], 0
        self.running = True

    def step(self, num_samples=None):
        if not getattr(self, "running", False):
            return
        now = timeit.default_timer()
        cost, self.start = now - self.start, now
        if num_samples is None:
            self.steps_mode = True
        self.window_time += cost
        self.window_iters += 1
        self.window_samples += num_samples or 0
        self.iters += 1
        if self.iters > self.skip and cost > 0:
            self.costs.append(cost)
            if self.steps_mode:
                self.speeds.append(1.0 / cost)
            else:
                self.speeds.append(num_samples / cost)
                self.samples += num_samples

    def info(self, unit):
        if not getattr(self, "running", False) and not getattr(self, "window_iters", 0):
            return ""
        msg = ""
        if self.window_iters and self.window_time:
            speed_unit = "steps/s" if self.steps_mode else unit + "/s"
            msg += f" batch_cost: {self.window_time / self.window_iters:.5f} s"
            if self.steps_mode:
                speed = self.window_iters / self.window_time
            else:
                speed = self.window_samples / self.window_time if self.window_samples else 0
            if speed:
                msg += f" ips: {speed:.3f} {speed_unit}"
        self.window_time, self.window_iters, self.window_samples = 0.0, 0, 0
        return msg

    def end(self):
        if not getattr(self, "running", False):
            return
        self.running = False
        if not self.costs:
            return
        total = sum(self.costs)
        avg_speed = (len(self.costs) if self.steps_mode else self.samples) / total
        unit = "steps/s" if self.steps_mode else "samples/s"
        print("Perf Summary".center(100, "="))
        print(f"Time Unit: s, IPS Unit: {unit}")
        print("|", "".center(15), "|", "avg".center(15), "|", "max".center(15), "|",
              "min".center(15), "|")
        for item, avg, vals in (("batch_cost", total / len(self.costs), self.costs),
                                ("ips", avg_speed, self.speeds)):
            print("|", item.center(15), "|", f"{avg:.5f}".center(15), "|",
                  f"{max(vals):.5f}".center(15), "|", f"{min(vals):.5f}".center(15), "|")


def _supported_targets():
    if torch.cuda.is_available():
        return [ProfilerTarget.CPU, ProfilerTarget.GPU, ProfilerTarget.CUSTOM_DEVICE]
    return [ProfilerTarget.CPU, ProfilerTarget.CUSTOM_DEVICE]


_REC = (ProfilerState.RECORD, ProfilerState.RECORD_AND_RETURN)


class Profiler:
    """Profiles the steps of a loop: ``start()``, ``step()`` after each iteration, ``stop()``
    (or a ``with`` block). ``scheduler``: a callable ``step -> ProfilerState``, a
    ``(start, end)`` pair of steps to record (``[start, end)``), or None (record every step);
    ``on_trace_ready(prof)`` runs after each recorded window; ``timer_only=True`` only times
    the steps (``step_info``)."""

    def __init__(self, *, targets=None, scheduler=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, timer_only=False, emit_nvtx=False,
                 custom_device_types=[], with_flops=False):
        supported = _supported_targets()
        if targets:
            self.targets = set(targets)
            for t in targets:
                if t not in supported:
                    self.targets.discard(t)
                    warnings.warn(f"Profiling {t} is not supported in current context.")
        else:
            self.targets = supported
        activities = []
        if ProfilerTarget.CPU in self.targets:
            activities.append(torch.profiler.ProfilerActivity.CPU)
        if ProfilerTarget.GPU in self.targets:
            activities.append(torch.profiler.ProfilerActivity.CUDA)
        if callable(scheduler):
            self.scheduler = scheduler
        elif isinstance(scheduler, (tuple, list)):
            assert len(scheduler) == 2 and scheduler[1] > scheduler[0]
            first, end = max(scheduler[0], 0), scheduler[1]
            if first >= 1:
                self.scheduler = make_scheduler(closed=first - 1, ready=1, record=end - first,
                                                repeat=1)
            else:
                self.scheduler = make_scheduler(closed=0, ready=0, record=end - first,
                                                repeat=1)
        else:
            self.scheduler = _always_record
        self.on_trace_ready = (export_chrome_tracing("./profiler_log/") if on_trace_ready is None
                               else on_trace_ready)
        self.step_num = 0
        self.previous_state = ProfilerState.CLOSED
        self.current_state = self.scheduler(self.step_num)
        self.record_event = None
        self.profiler_result = None
        self.timer_only = timer_only
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_flops = with_flops
        self.emit_nvtx = emit_nvtx
        self._engine = _Engine(activities, record_shapes, profile_memory, with_flops)
        self._timer = _StepTimer()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.stop()

    def _begin_step_event(self):
        self.record_event = RecordEvent(f"ProfileStep#{self.step_num}",
                                        TracerEventType.ProfileStep)
        self.record_event.begin()

    def _end_step_event(self):
        if self.record_event is not None:
            self.record_event.end()
            self.record_event = None

    def start(self):
        """Start profiling at step 0 (its state decides whether recording begins now)."""
        self._timer.begin()
        if not self.timer_only or self.emit_nvtx:
            _State.in_use = True
        if self.timer_only:
            return
        if self.current_state in _REC:
            self._engine.start()
        self._begin_step_event()

    def stop(self):
        """Stop profiling; a window being recorded is handed to ``on_trace_ready``."""
        self._timer.end()
        if self.timer_only:
            return
        self._end_step_event()
        if self.current_state == ProfilerState.READY:
            warnings.warn("Improper Profiler state transform: READY->CLOSED, profiler will start "
                          "and stop without saving data")
        if self.current_state in _REC:
            self.profiler_result = self._engine.stop()
            if self.on_trace_ready:
                self.on_trace_ready(self)
        _State.in_use = False

    def step(self, num_samples=None):
        """Mark the end of a step (``num_samples``: the batch size, for ``step_info``'s ips)."""
        self._timer.step(num_samples)
        if self.timer_only:
            return
        self._end_step_event()
        self.previous_state = self.current_state
        self.step_num += 1
        self.current_state = self.scheduler(self.step_num)
        self._transition(self.previous_state, self.current_state)
        self._begin_step_event()

    def _transition(self, prev, cur):
        if prev == ProfilerState.RECORD_AND_RETURN:
            # the window is complete: hand it over, and open the next one at once if recording
            self.profiler_result = self._engine.stop()
            if cur in _REC:
                self._engine.start()
            if self.on_trace_ready:
                self.on_trace_ready(self)
        elif prev == ProfilerState.RECORD:
            if cur == ProfilerState.CLOSED:
                warnings.warn("Improper schedule: RECORD->CLOSED, profiler will not saving data")
                self._engine.stop()
            elif cur == ProfilerState.READY:
                warnings.warn("Improper schedule: RECORD->READY, profiler will stop and "
                              "re-prepare")
                self._engine.stop()
        else:
            if prev == ProfilerState.READY and cur == ProfilerState.CLOSED:
                warnings.warn("Improper schedule: READY->CLOSED, profiler will start and stop "
                              "without saving data")
            if cur in _REC:
                self._engine.start()

    def step_info(self, unit=None):
        """The average step time (and speed) since the previous call, e.g.
        ``' batch_cost: 0.01234 s ips: 81.037 steps/s'``; ``unit`` names what
        ``num_samples`` counts (default ``'samples'``)."""
        return self._timer.info("samples" if unit is None else unit)

    def export(self, path="", format="json"):
        """Write the last recorded window to ``path`` (``format``: 'json' or 'pb')."""
        if self.profiler_result:
            self.profiler_result.save(path, format)

    def summary(self, sorted_by=SortedKeys.CPUTotal, op_detail=True, thread_sep=False,
                time_unit="ms", views=None):
        """Print tables of the last recorded window: the events by type, the operators and the
        user-defined events, each with calls and total / avg / max / min times."""
        if isinstance(views, SummaryView):
            views = [views]
        if self.profiler_result:
            print(_summary(self.profiler_result.get_data(), sorted_by, op_detail, thread_sep,
                           time_unit, views))


# ------------------------------------------------------------------------------ summary
_UNIT = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1.0}


def _merged_length(spans):
    total, end = 0, None
    for s, e in sorted(spans):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def _table(title, headers, rows, note=None):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) + 2 if rows else len(str(h)) + 2
              for i, h in enumerate(headers)]
    line = "  ".join("-" * w for w in widths)
    out = [f" {title} ".center(len(line), "-")] + ([note] if note else [])
    out += [line, "  ".join(str(h).ljust(w) for h, w in zip(headers, widths)), line]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in rows]
    out.append(line)
    return "\n".join(out)


def _stats(durs, total, scale):
    if not durs:
        return "0.00 / 0.00 / 0.00 / 0.00 / 0.00"
    s = sum(durs)
    return (f"{s / scale:.2f} / {s / len(durs) / scale:.2f} / {max(durs) / scale:.2f} / "
            f"{min(durs) / scale:.2f} / {100.0 * s / total if total else 0.0:.2f}")


def _sort_key(sorted_by):
    k = sorted_by.value % 4
    return [lambda d: -sum(d), lambda d: -sum(d) / len(d), lambda d: -max(d),
            lambda d: min(d)][k]


def _summary(events, sorted_by, op_detail, thread_sep, time_unit, views):
    if time_unit not in _UNIT:
        raise ValueError(f"time_unit should be one of {list(_UNIT)}, got {time_unit!r}")
    scale = _UNIT[time_unit]
    steps = [e for e in events if e["type"] == "ProfileStep"]
    span = (_merged_length([(e["start_ns"], e["end_ns"]) for e in steps]) if steps else
            (max(e["end_ns"] for e in events) - min(e["start_ns"] for e in events)
             if events else 0))
    wanted = set(views) if views else {SummaryView.OverView, SummaryView.OperatorView,
                                       SummaryView.UDFView}
    parts = []
    if SummaryView.OverView in wanted:
        by_type = {}
        for e in events:
            by_type.setdefault(e["type"], []).append((e["start_ns"], e["end_ns"]))
        order = sorted(by_type, key=lambda t: (t != "ProfileStep", -_merged_length(by_type[t])))
        rows = [(("" if t == "ProfileStep" else "  ") + t, len(by_type[t]),
                 f"{_merged_length(by_type[t]) / scale:.2f}",
                 f"{100.0 * _merged_length(by_type[t]) / span if span else 0.0:.2f}")
                for t in order]
        parts.append(_table("Overview Summary", ["Event Type", "Calls", "CPU Time",
                                                 "Ratio (%)"], rows, f"Time unit: {time_unit}"))
    groups = [("All threads merged", events)]
    if thread_sep:
        tids = sorted({e["tid"] for e in events})
        groups = [(f"Thread: {t}", [e for e in events if e["tid"] == t]) for t in tids]
    for view, kind, title in ((SummaryView.OperatorView, "Operator", "Operator Summary"),
                              (SummaryView.UDFView, "PythonUserDefined", "UserDefined Summary")):
        if view not in wanted:
            continue
        rows = []
        for label, evs in groups:
            if len(groups) > 1:
                rows.append((f"[{label}]", "", "", ""))
            durs = {}
            for e in evs:
                if e["type"] == kind:
                    durs.setdefault(e["name"], []).append(e["end_ns"] - e["start_ns"])
            inner = {}
            if kind == "Operator" and op_detail:
                for e in evs:
                    if e["type"] == "OperatorInner":
                        inner.setdefault(e["name"], []).append(e["end_ns"] - e["start_ns"])
            for name in sorted(durs, key=lambda n: (_sort_key(sorted_by)(durs[n]), n)):
                rows.append((name, len(durs[name]), _stats(durs[name], span, scale),
                             _stats([], span, scale)))
            for name in sorted(inner, key=lambda n: (_sort_key(sorted_by)(inner[n]), n)):
                rows.append(("  " + name, len(inner[name]), _stats(inner[name], span, scale),
                             _stats([], span, scale)))
        parts.append(_table(title, ["Name", "Calls", "CPU Total / Avg / Max / Min / Ratio(%)",
                                    "GPU Total / Avg / Max / Min / Ratio(%)"], rows,
                            f"Time unit: {time_unit}"))
    missing = [v.name for v in (views or []) if v not in (SummaryView.OverView,
                                                          SummaryView.OperatorView,
                                                          SummaryView.UDFView)]
    if missing:
        parts.append("paddle_compat has no data for the views: " + ", ".join(missing))
    return "\n\n".join(parts)
