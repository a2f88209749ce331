"""Issue 32, part A: API behaviours that differed from Paddle 3.3.1.

The cases replay tests/goldens/issue32_api.json, recorded on real Paddle 3.3.1 by
tools/goldens/record_issue32_api.py: ``paddle.nn.Parameter(t)`` trains, ``x.grad = t`` copies
and stops gradient, torch-style keywords of layer methods, layer constructors and in-place
Tensor methods, ``paddle.functional``, ``atleast_*`` of one tuple, ``numpy(False)``,
``paddle.framework.core.Generator`` and ``paddle.Tensor(...)``'s torch forms.

The keywords are a class: tools/aliases/record_aliases.py reads from Paddle every function,
Tensor method (in-place ones included), layer constructor and layer method (``forward`` and the
others, through each class's MRO) with its own parameter names and its aliases
(alias_signatures.py, alias_table.py). ``test_every_keyword_paddle_accepts_is_accepted`` passes
each of those keywords alone to ours and fails on any that Python's binding refuses.
"""
import json
import os
import subprocess
import sys

import pytest

import paddle_compat as paddle
from golden_utils import assert_same, depth_tol, run_case
from paddle_compat.compat import hook
from paddle_compat.ops import alias_signatures, alias_table

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
with open(os.path.join(HERE, "goldens", "issue32_api.json")) as f:
    GOLDEN = json.load(f)
CASES = {c["id"]: c for c in GOLDEN["cases"]}


@pytest.mark.filterwarnings("ignore:The 4th positional argument")    # Paddle warns too
@pytest.mark.filterwarnings("ignore:output_size in forward overrides")
@pytest.mark.parametrize("cid", sorted(CASES))
def test_matches_paddle(cid):
    c = CASES[cid]
    hooked = "import paddle" in c["code"] and not hook.is_installed()
    if hooked:            # the case imports paddle modules by name: the import hook, for it
        hook.install()
    try:
        with paddle.utils.unique_name.guard():
            got = run_case(GOLDEN["prelude"] + "\n" + c["code"], paddle)
    finally:
        if hooked:
            hook.uninstall()
    assert_same(got, c["expected"], cid, tol=depth_tol("op"))


# The sweep runs in a child process: it calls every public API with a made-up value, which
# must not leave state behind in this one.
SWEEP = r'''
import json, sys, warnings
warnings.filterwarnings("ignore")
import paddle_compat as paddle
from paddle_compat.ops import alias_signatures as S, alias_table as T

class Probe:
    pass

def resolve(path):
    obj = paddle
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj

def keywords(sig, aliases, bound_first):
    """Paddle's keywords of an API: its parameter names and aliases (not ``name``, ``self``,
    nor for a bound Tensor method its tensor)."""
    names = [n for n in sig if not n.startswith("*")]
    first = names[0] if bound_first and names else None
    kws = {n for n in names if n not in ("self", "name", first)}
    return sorted(kws | {a for a, p in aliases.items() if p != first})

def refused(fn, kw):
    try:
        fn(**{kw: Probe()})
    except TypeError as e:
        return f"unexpected keyword argument '{kw}'" in str(e)
    except BaseException:
        pass
    return False

counts, missing, bad = {}, [], []
x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
def check(group, path, fn_of, sig, aliases, bound_first=False):
    try:
        obj = resolve(path)
    except Exception:
        missing.append(path)
        return
    c = counts.setdefault(group, [0, 0])
    c[0] += 1
    for kw in keywords(sig, aliases, bound_first):
        c[1] += 1
        if refused(fn_of(obj), kw):
            bad.append([path, kw])

for path, sig in sorted(S.SIGNATURES.items()):
    if path.startswith("paddle.Tensor."):
        m = path.rsplit(".", 1)[1]
        group = "in-place Tensor methods" if m.endswith("_") else "Tensor methods"
        check(group, path, lambda o, m=m: getattr(x.clone(), m), sig, T.ALIASES.get(path, {}),
              True)
    else:
        check("functions", path, lambda o: o, sig, T.ALIASES.get(path, {}))
for path, sig in sorted(S.LAYER_SIGNATURES.items()):
    check("layer constructors", path, lambda o: o, sig, T.LAYER_ALIASES.get(path, {}))
for cpath, per in sorted(S.LAYER_METHOD_SIGNATURES.items()):
    for m, sig in sorted(per.items()):
        check("layer methods", f"{cpath}.{m}", lambda o: o, sig,
              (T.LAYER_METHOD_ALIASES.get(cpath) or {}).get(m, {}))
print(json.dumps({"counts": counts, "bad": bad, "missing": missing}))
'''


@pytest.fixture(scope="module")
def sweep():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", SWEEP], capture_output=True, text=True,
                       env=env, timeout=900, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_every_keyword_paddle_accepts_is_accepted(sweep):
    """Every keyword a Paddle 3.3.1 API takes (its own parameter names and its torch-style
    aliases) is taken by ours: a function, a Tensor method (in-place ones too), a layer
    constructor, a layer method."""
    assert sweep["bad"] == []
    counts = sweep["counts"]
    # the class as recorded from Paddle 3.3.1 (APIs, keywords): layer methods through the MRO
    # of all 185 paddle.nn layer classes, in-place methods among the Tensor methods
    assert counts["layer methods"][0] >= 480 and counts["layer methods"][1] >= 500, counts
    assert counts["layer constructors"][0] >= 180, counts
    assert counts["in-place Tensor methods"][0] >= 100, counts


def test_layer_method_table_is_read_from_paddle():
    """The recorder read the layer methods' decorators: the aliases the issue names are there,
    and every alias names a parameter of Paddle's method."""
    la = alias_table.LAYER_METHOD_ALIASES
    assert la["paddle.nn.Conv1D"]["forward"] == {"input": "x"}
    assert la["paddle.nn.Layer"]["parameters"] == {"recurse": "include_sublayers"}
    assert la["paddle.nn.Layer"]["buffers"] == {"recurse": "include_sublayers"}
    sigs = alias_signatures.LAYER_METHOD_SIGNATURES
    for cpath, per in la.items():
        for m, aliases in per.items():
            for a, p in aliases.items():
                assert p in sigs[cpath][m] and a not in sigs[cpath][m], (cpath, m, a, p)
    assert sum(len(v) for v in la.values()) >= 100
    assert alias_table.LAYER_SPECIAL["paddle.nn.LPPool1d"].endswith("is ceil_mode")


def test_alias_of_a_forward_keeps_its_errors():
    conv = paddle.nn.Conv1D(2, 3, 2)
    x = paddle.ones([1, 2, 4])
    with pytest.raises(TypeError):
        conv(x, input=x)                      # Python's "multiple values", as in Paddle
    with pytest.raises(TypeError, match="zz"):
        conv(zz=x)
    loss = paddle.nn.MSELoss()
    with pytest.raises(TypeError, match="missing required argument 'input'"):
        loss(label=x)
    assert float(loss(label=x, input=x)) == 0.0


def test_positional_calls_are_unchanged():
    """The renaming wrappers hand a positional call straight on (same results, same object
    for in-place methods)."""
    x = paddle.to_tensor([1.26, -2.5])
    assert x.round_(1) is x
    assert x.numpy().tolist() == pytest.approx([1.3, -2.5])
    net = paddle.nn.Sequential(paddle.nn.Linear(2, 2))
    assert len(net.parameters(False)) == 0 and len(net.parameters()) == 2


def test_grad_setter_keeps_training_working():
    """An optimizer step after ``p.grad = g`` uses g's values; clear_grad zeroes them."""
    p = paddle.nn.Parameter(paddle.to_tensor([1.0, 2.0]))
    opt = paddle.optimizer.SGD(0.5, parameters=[p])
    p.grad = paddle.to_tensor([2.0, -2.0])
    opt.step()
    assert p.numpy().tolist() == [0.0, 3.0]
    opt.clear_grad()
    assert p.grad is None or p.grad.numpy().tolist() == [0.0, 0.0]
