"""paddle.profiler on torch.profiler: Paddle 3.3.1's scheduler states, callbacks and file
names (goldens: tools/goldens/record_misc_ns.py -> tests/goldens/misc_ns.json), and what the
recorded windows hold: RecordEvent names, a valid Chrome trace, the summary tables, timing."""
import json
import os
import re
import warnings

import pytest

import golden_utils as gu
import misc_ns_cases
import paddle_compat as paddle
import paddle_compat.profiler as profiler

with open(os.path.join(os.path.dirname(__file__), "goldens", "misc_ns.json")) as _f:
    GOLDEN = json.load(_f)["profiler"]


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)        # Profiler() makes ./profiler_log, as in Paddle


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_golden(case):
    want = GOLDEN[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = misc_ns_cases.run(paddle, want["code"])
    if isinstance(want["out"], dict) and "error" in want["out"]:
        assert got.get("error") == want["out"]["error"], (got, want["out"])
        if want["out"].get("message"):
            assert got.get("message") == want["out"]["message"]
        return
    gu.assert_same(got, want["out"], case)


def _profiled_loop(steps=4, **kw):
    results = []
    kw.setdefault("on_trace_ready", lambda p: results.append(p.profiler_result))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        prof = profiler.Profiler(**kw)
    prof.start()
    for _ in range(steps):
        with profiler.RecordEvent("forward_block"):
            y = paddle.matmul(paddle.ones([8, 8]), paddle.ones([8, 8]))
        ev = profiler.RecordEvent("loss_block")
        ev.begin()
        (y * 2).sum()
        ev.end()
        prof.step()
    prof.stop()
    return prof, results


def test_events_carry_record_event_names():
    prof, results = _profiled_loop(scheduler=(1, 3))
    assert len(results) == 1
    events = results[0].get_data()
    names = [e["name"] for e in events]
    assert names.count("forward_block") == 2 and names.count("loss_block") == 2
    assert sorted(n for n in names if n.startswith("ProfileStep#")) == ["ProfileStep#1",
                                                                        "ProfileStep#2"]
    kinds = {e["name"]: e["type"] for e in events}
    assert kinds["forward_block"] == "PythonUserDefined"
    assert kinds["ProfileStep#1"] == "ProfileStep"
    assert any(e["type"] == "Operator" and e["name"] == "aten::matmul" for e in events)
    assert any(e["type"] == "OperatorInner" and e["name"] == "aten::mm" for e in events)
    for e in events:
        assert e["end_ns"] >= e["start_ns"]
    # each user block lies inside its step
    steps = [e for e in events if e["type"] == "ProfileStep"]
    for e in events:
        if e["name"] == "forward_block":
            assert any(s["start_ns"] <= e["start_ns"] and e["end_ns"] <= s["end_ns"]
                       for s in steps)


def test_record_shapes():
    _, results = _profiled_loop(steps=1, record_shapes=True)
    mm = [e for e in results[0].get_data() if e["name"] == "aten::mm"]
    assert mm and mm[0]["input_shapes"] == [[8, 8], [8, 8]]


def test_chrome_trace_is_valid_json_and_loads_back(tmp_path):
    d = str(tmp_path / "log")
    _profiled_loop(steps=3, scheduler=(0, 2), on_trace_ready=profiler.export_chrome_tracing(d))
    files = os.listdir(d)
    assert len(files) == 1
    assert re.fullmatch(r"host_.+pid_\d+_time_\d{4}(_\d\d){5}_\d{6}\.paddle_trace\.json", files[0])
    with open(os.path.join(d, files[0])) as f:
        doc = json.load(f)
    assert set(doc) == {"displayTimeUnit", "schemaVersion", "span_index", "traceEvents",
                        "ExtraInfo"}
    ev = doc["traceEvents"]
    assert all(e["ph"] == "X" and e["dur"] >= 0 for e in ev)
    assert sum(e["name"].startswith("forward_block[") for e in ev) == 2
    back = profiler.load_profiler_result(os.path.join(d, files[0]))
    assert sorted(e["name"] for e in back.get_data()) == sorted(
        re.sub(r"\[[0-9.]+ us\]$", "", e["name"]) for e in ev)


def test_protobuf_export_round_trip(tmp_path):
    d = str(tmp_path / "pb")
    _, results = _profiled_loop(steps=2, scheduler=(0, 1), on_trace_ready=profiler.export_protobuf(d))
    (name,) = os.listdir(d)
    assert name.endswith(".paddle_trace.pb")
    back = profiler.load_profiler_result(os.path.join(d, name))
    assert [e["name"] for e in back.get_data()].count("forward_block") == 1


def test_load_rejects_foreign_files(tmp_path):
    p = tmp_path / "x.pb"
    p.write_bytes(b"\x08\x96\x01\xff\xfe")
    with pytest.raises(ValueError, match="paddle_compat"):
        profiler.load_profiler_result(str(p))


def test_export_and_summary(tmp_path, capsys):
    prof, _ = _profiled_loop(steps=2, scheduler=(0, 2))
    out = str(tmp_path / "t.json")
    prof.export(out, "json")
    json.load(open(out))
    prof.summary(sorted_by=profiler.SortedKeys.CPUAvg, time_unit="us")
    text = capsys.readouterr().out
    for title in ("Overview Summary", "Operator Summary", "UserDefined Summary"):
        assert title in text
    assert "Time unit: us" in text
    udf = text[text.index("UserDefined Summary"):]
    rows = [ln.split() for ln in udf.splitlines() if ln.startswith(("forward_block", "loss_block"))]
    assert sorted(r[0] for r in rows) == ["forward_block", "loss_block"]
    assert all(r[1] == "2" for r in rows)
    # Total / Avg / Max / Min / Ratio, numbers
    assert all(len(r[2:7:1]) == 5 for r in rows)
    prof.summary(views=profiler.SummaryView.MemoryView)
    assert "MemoryView" in capsys.readouterr().out


def test_no_record_when_closed():
    calls = []
    prof, _ = _profiled_loop(steps=3, scheduler=profiler.make_scheduler(closed=5, ready=1, record=1),
                             on_trace_ready=lambda p: calls.append(1))
    assert calls == [] and prof.profiler_result is None


def test_record_event_decorator_and_outside():
    @profiler.RecordEvent("decorated")
    def f(x):
        return x + 1
    assert f(1) == 2            # no profiler: a plain call
    _, results = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with profiler.Profiler(on_trace_ready=lambda p: results.append(p.profiler_result)):
            f(paddle.ones([2]))
    assert "decorated" in [e["name"] for e in results[0].get_data()]


def test_timer_only_step_info_values():
    prof = profiler.Profiler(timer_only=True)
    prof.start()
    for _ in range(3):
        prof.step(num_samples=4)
    info = prof.step_info(unit="images")
    prof.stop()
    m = re.fullmatch(r" batch_cost: ([0-9.]+) s ips: ([0-9.]+) images/s", info)
    assert m, info
    cost, ips = float(m.group(1)), float(m.group(2))
    assert cost >= 0 and (cost == 0 or abs(ips - 4 / cost) / ips < 0.05 or cost < 1e-4)


def test_timer_perf_summary_after_skip(capsys):
    prof = profiler.Profiler(timer_only=True)
    prof.start()
    for _ in range(13):
        prof.step()
    prof.stop()
    out = capsys.readouterr().out
    assert "Perf Summary" in out and "IPS Unit: steps/s" in out
    assert re.search(r"\|\s+batch_cost\s+\|\s+[0-9.]+\s+\|", out)


def test_gpu_target_without_cuda_warns():
    import torch
    if torch.cuda.is_available():
        pytest.skip("CUDA present")
    with pytest.warns(UserWarning, match="not supported"):
        p = profiler.Profiler(targets=[profiler.ProfilerTarget.GPU],
                              on_trace_ready=lambda p: None)
    assert p.targets == set()
