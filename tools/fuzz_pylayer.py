"""Differential fuzzer of ``PyLayer``: random programs run on real Paddle and on paddle_compat.

Each program is made from its seed alone (``make_program(seed)``, plain ``random.Random``), as
Python source that uses only the name ``paddle`` (and ``np``), so the very same text runs on
both. A program builds 1-3 input tensors (leaves or intermediates, some stopping gradient), a
PyLayer whose ``forward`` takes them with non-tensor arguments (positional or keyword), computes
1-3 tensor outputs with various ops (some cast to integer/bool dtypes, some a float64
``to_tensor`` constant, some the input itself), mixes in non-tensor outputs, returns a Tensor, a
tuple or a list, and may call ``save_for_backward``, ``mark_non_differentiable`` and
``set_materialize_grads(False)``. Its ``backward`` records the gradients it receives and returns
gradients of the right shape, or a wrong shape, a broadcastable shape, a wrong dtype, None,
non-tensors, a list instead of a tuple, too many or too few. The program then sums the outputs
(integer ones through a cast back to float) into a loss, runs ``backward`` and records the
inputs' gradients.

What is compared (``compare``): the forward outputs (dtype, shape, values, stop_gradient), what
``backward`` received, the inputs' gradients (dtype, shape, values, stop_gradient), and on
failure the stage (apply / backward) and the exception's nearest built-in type.

    # once: real Paddle's results, outside the repository (the Paddle venv's python)
    /work/paddle_venv/bin/python tools/fuzz_pylayer.py record -n 2000 -o /tmp/pl_fuzz.json
    # paddle_compat against them
    python tools/fuzz_pylayer.py compare /tmp/pl_fuzz.json [-v]
    # the committed golden of tests/test_pylayer_fuzz.py (the first 300 programs)
    /work/paddle_venv/bin/python tools/fuzz_pylayer.py record -n 300 \
        -o tests/goldens/pylayer_fuzz.json
    # one program's source
    python tools/fuzz_pylayer.py show 17

Recording runs the programs in child processes (a batch each), so a program that kills real
Paddle is recorded as a crash and the next batch goes on.

``DEVIATIONS`` classifies the disagreements that are deliberate: real Paddle 3.3.1 against its
own docs or plain sense (see tests/test_pylayer_cases.py's DEVIATIONS for the hand-written
counterparts).
"""
import argparse
import ast
import hashlib
import json
import math
import os
import random
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SHAPES = ([3], [2, 3], [2, 1], [4], [1, 3])
INT_DTYPES = ("int32", "int64", "bool", "uint8")


# ---------------------------------------------------------------------- program generator
def _broadcast_variant(rng, shape):
    """A shape broadcastable to ``shape`` (and not equal to it), or None."""
    opts = []
    if len(shape) == 2 and shape[0] > 1:
        opts.append([1, shape[1]])
        opts.append([shape[1]])
    if shape != [1] * len(shape):
        opts.append([1] * len(shape))
    opts.append([])
    return rng.choice(opts)


def make_program(seed, list_as_tuple=False):
    """The source of program ``seed`` (deterministic). ``list_as_tuple``: the program's twin
    whose ``backward`` returns a tuple where the program returns a list (None when the program
    returns no list)."""
    rng = random.Random(seed)
    nrs = np.random.RandomState(seed % (2 ** 32))
    dtype = rng.choice(("float32", "float32", "float64"))
    base = rng.choice(SHAPES)
    n_in = rng.choice((1, 1, 2, 2, 3))
    shapes = []
    for i in range(n_in):
        if i > 0 and rng.random() < 0.25 and len(base) == 2 and base[0] > 1:
            shapes.append([1, base[1]])
        else:
            shapes.append(list(base))
    L = []
    w = L.append
    # inputs
    in_sg = []
    for i, s in enumerate(shapes):
        vals = np.round(nrs.uniform(-2, 2, size=s), 2).tolist()
        sg = rng.random() < 0.25
        in_sg.append(sg)
        w(f"x{i} = paddle.to_tensor(np.array({vals!r}, dtype='{dtype}'))")
        w(f"x{i}.stop_gradient = {sg}")
    nonleaf = [rng.random() < 0.2 for _ in shapes]
    for i in range(n_in):
        w(f"a{i} = x{i} * 1.0" if nonleaf[i] else f"a{i} = x{i}")

    # non-tensor arguments
    k = rng.choice((2, 3, 0.5, -1.5))
    extra = rng.random() < 0.5         # a string argument too
    as_kw = rng.random() < 0.3         # tensors passed by keyword
    params = [f"x{i}" for i in range(n_in)] + ["k"] + (["tag"] if extra else [])

    # forward's outputs
    n_out = rng.choice((1, 1, 2, 2, 3))
    outs = []        # (expr, is_int, is_const, same_as_input)

    def operand():
        return f"x{rng.randrange(n_in)}"

    for j in range(n_out):
        a = operand()
        b = operand()
        kind = rng.choice(("tanh", "scale", "add", "mul", "exp", "sum", "sumax", "mean",
                           "pow", "relu", "scale", "tanh", "ident", "const", "sq"))
        same = False
        const = False
        if kind == "tanh":
            e = f"paddle.tanh({a})"
        elif kind == "scale":
            e = f"{a} * k"
        elif kind == "add":
            e = f"{a} + {b}"
        elif kind == "mul":
            e = f"{a} * {b}"
        elif kind == "exp":
            e = f"paddle.exp({a})"
        elif kind == "sum":
            e = f"{a}.sum()"
        elif kind == "sumax":
            e = f"paddle.sum({a}, axis=-1)"
        elif kind == "mean":
            e = f"paddle.mean({a})"
        elif kind == "pow":
            e = f"{a} ** 2"
        elif kind == "relu":
            e = f"paddle.nn.functional.relu({a})"
        elif kind == "sq":
            e = f"paddle.square({a})"
        elif kind == "ident":
            e = a
            same = True
        else:
            vals = np.round(nrs.uniform(-1, 1, size=base), 2).tolist()
            e = f"paddle.to_tensor(np.array({vals!r}))"       # float64 stays float64
            const = True
        cast = None
        if not same and rng.random() < 0.25:
            cast = rng.choice(INT_DTYPES + ("float64", "float32"))
            e = f"({e}).astype('{cast}')"
        outs.append((e, cast in INT_DTYPES, const, same))

    ctx_lines = []
    if rng.random() < 0.2:
        ctx_lines.append("ctx.set_materialize_grads(False)")
    nondiff = [j for j in range(n_out) if rng.random() < 0.15]
    save = rng.choice(("none", "none", "inputs", "outputs", "mixed"))

    fwd = [f"    def forward(ctx, {', '.join(params)}):"]
    fwd += [f"        {ln}" for ln in ctx_lines]
    for j, (e, _, _, _) in enumerate(outs):
        fwd.append(f"        o{j} = {e}")
    if nondiff:
        fwd.append(f"        ctx.mark_non_differentiable({', '.join(f'o{j}' for j in nondiff)})")
    if save == "inputs":
        fwd.append(f"        ctx.save_for_backward({', '.join(f'x{i}' for i in range(n_in))})")
    elif save == "outputs":
        fwd.append(f"        ctx.save_for_backward({', '.join(f'o{j}' for j in range(n_out))})")
    elif save == "mixed":
        fwd.append("        ctx.save_for_backward(x0, [o0, 1], None)")
    fwd.append(f"        ctx.meta = {[(s, dtype) for s in shapes]!r}")
    # the output container
    items = [f"o{j}" for j in range(n_out)]
    if rng.random() < 0.3:
        for extra_item in rng.sample(("1", "None", "'s'", "k"), rng.choice((1, 2))):
            items.insert(rng.randrange(len(items) + 1), extra_item)
    if len(items) == 1 and rng.random() < 0.7:
        ret = items[0]
    elif rng.random() < 0.4:
        ret = "[" + ", ".join(items) + "]"
    else:
        ret = "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    fwd.append(f"        return {ret}")

    # backward
    bwd = ["    def backward(ctx, *gs):",
           "        R.append(('recv', _desc(gs)))"]
    if save != "none":
        bwd.append("        sv = ctx.saved_tensor()")
        bwd.append("        R.append(('saved', _desc(sv)))")
    bwd.append("        tot = _tot(gs)")
    grads = []
    for i, (s, _) in enumerate(zip(shapes, range(n_in))):
        c = round(rng.uniform(-2, 2), 1)
        mode = rng.choices(("right", "none", "shape", "bcast", "dtype", "nontensor", "passthru"),
                           weights=(75, 6, 4, 5, 5, 3, 4))[0]
        if mode == "right":
            g = f"paddle.full({s!r}, {c}, '{dtype}') + tot.astype('{dtype}')"
        elif mode == "none":
            g = "None"
        elif mode == "shape":
            bad = rng.choice(([5], s + [2], [s[-1] + 1]))
            g = f"paddle.full({bad!r}, {c}, '{dtype}')"
        elif mode == "bcast":
            g = f"paddle.full({_broadcast_variant(rng, s)!r}, {c}, '{dtype}')"
        elif mode == "dtype":
            d2 = rng.choice(("float64" if dtype == "float32" else "float32", "int64", "float16"))
            g = f"paddle.full({s!r}, {c}, '{d2}')"
        elif mode == "nontensor":
            g = rng.choice(("1", "1.0", "'g'", f"np.ones({s!r})"))
        else:
            g = f"gs[{rng.randrange(len(outs))}]"
        grads.append(g)
    form = rng.choices(("tuple", "list", "bare", "more", "fewer"), weights=(66, 12, 12, 5, 5))[0]
    if form == "more":
        grads.append(rng.choice(("None", f"paddle.full({shapes[0]!r}, 1.0, '{dtype}')")))
    elif form == "fewer" and len(grads) > 1:
        grads.pop()
    if form == "bare" and len(grads) == 1:
        bret = grads[0]
    elif form == "list" and not list_as_tuple:
        bret = "[" + ", ".join(grads) + "]"
    else:
        bret = "(" + ", ".join(grads) + ("," if len(grads) == 1 else "") + ")"
    bwd.append(f"        return {bret}")

    w("class L(paddle.autograd.PyLayer):")
    w("    @staticmethod")
    L.extend(fwd)
    w("    @staticmethod")
    L.extend(bwd)

    # the call
    args = [f"a{i}" for i in range(n_in)]
    if as_kw:
        call = ", ".join(f"x{i}=a{i}" for i in range(n_in)) + ", k=k"
    else:
        call = ", ".join(args) + ", k"
    if extra:
        call += ", tag='t'"
    w(f"k = {k!r}")
    w("STAGE[0] = 'apply'")
    w(f"out = L.apply({call})")
    w("R.append(('out', _desc(out)))")
    w("R.append(('same', _same(out, [" + ", ".join(args) + "])))")
    # the loss: the tensor outputs used, integer ones through a cast back to float
    w("ts = _tensors(out)")
    picks = [j for j in range(8) if rng.random() < 0.8] or [0]
    weights = [round(rng.uniform(0.5, 2), 1) for _ in range(8)]
    w(f"PICK = {picks!r}")
    w(f"W = {weights!r}")
    w("terms = [(t.astype('float64') * W[j]).sum() for j, t in enumerate(ts) if j in PICK]")
    w("if not terms:")
    w("    terms = [(ts[0].astype('float64') * W[0]).sum()]")
    w("STAGE[0] = 'backward'")
    w("loss = terms[0]")
    w("for t in terms[1:]:")
    w("    loss = loss + t")
    w("R.append(('loss_sg', loss.stop_gradient))")
    w("loss.backward()")
    w("R.append(('grads', _desc([" + ", ".join(f"x{i}.grad" for i in range(n_in)) + "])))")
    w("R.append(('grad_enabled', paddle.is_grad_enabled()))")
    if list_as_tuple and form != "list":
        return None
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------------- hand-written programs
#: Gradients across casts to integer dtypes (issue 14, class 3), written out: a PyLayer whose
#: forward casts its input (after Paddle's test_pylayer_op's dtype case), integer outputs whose
#: gradients are truncated on the way back, integer outputs saved or marked non-differentiable,
#: and a float64 ``to_tensor`` inside forward. Recorded and compared like the random programs.
_CAST_LAYER = """
class Cast(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x, dtype):
        return paddle.cast(x, dtype)

    @staticmethod
    def backward(ctx, dy):
        R.append(('recv', _desc(dy)))
        return dy
"""

EXTRA_PROGRAMS = {}
for _dt in ("bool", "float16", "float32", "float64", "uint8", "int32", "int64"):
    EXTRA_PROGRAMS[f"cast_layer_{_dt}"] = _CAST_LAYER + f"""
# ctx.meta = [([2, 3], 'float32')]
x = paddle.to_tensor(np.array([[0.5, -1.5, 2.25], [0.0, 3.0, -0.75]], dtype='float32'))
x.stop_gradient = False
z = Cast.apply(x, '{_dt}')
R.append(('z', _desc(z)))
w = paddle.cast(z, 'float32')
R.append(('w_sg', w.stop_gradient))
w.sum().backward()
R.append(('grad', _desc(x.grad)))
"""
EXTRA_PROGRAMS.update({
    "int_out_truncated_mean": _CAST_LAYER + """
# ctx.meta = [([3], 'float64')]
x = paddle.to_tensor(np.array([1.5, -2.5, 3.0], dtype='float64'))
x.stop_gradient = False
z = Cast.apply(x, 'int32')
(z.astype('float32') * 2.5).mean().backward()
R.append(('grad', _desc(x.grad)))
""",
    "int_out_chain_int64_float64": _CAST_LAYER + """
# ctx.meta = [([3], 'float32')]
x = paddle.to_tensor(np.array([1.5, -2.5, 3.0], dtype='float32'))
x.stop_gradient = False
z = Cast.apply(x, 'int32')
u = z.astype('int64')
R.append(('u', _desc(u)))
v = u.astype('float64') * 3
R.append(('v', _desc(v)))
v.sum().backward()
R.append(('grad', _desc(x.grad)))
""",
    "int_out_two_outputs": """
class Two(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = paddle.tanh(x)
        i = (x * 2).astype('int64')
        ctx.save_for_backward(y, i)
        return y, i

    @staticmethod
    def backward(ctx, dy, di):
        y, i = ctx.saved_tensor()
        R.append(('saved', _desc([y, i])))
        R.append(('recv', _desc([dy, di])))
        return dy * (1 - y * y) + di.astype('float32')

x = paddle.to_tensor(np.array([0.25, -1.0, 2.0], dtype='float32'))
x.stop_gradient = False
y, i = Two.apply(x)
R.append(('out', _desc([y, i])))
(y.sum() + (i.astype('float32') * 2).sum()).backward()
R.append(('grad', _desc(x.grad)))
""",
    "int_out_unused_materialized": """
class Two(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x * 3, (x > 0).astype('int32')

    @staticmethod
    def backward(ctx, dy, di):
        R.append(('recv', _desc([dy, di])))
        return dy * 3

x = paddle.to_tensor(np.array([0.5, -1.0], dtype='float64'))
x.stop_gradient = False
a, b = Two.apply(x)
a.sum().backward()
R.append(('grad', _desc(x.grad)))
""",
    "int_out_non_differentiable": """
class ND(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        i = x.astype('int64')
        ctx.mark_non_differentiable(i)
        return x * 2, i

    @staticmethod
    def backward(ctx, dy, di):
        R.append(('recv', _desc([dy, di])))
        return dy * 2

x = paddle.to_tensor(np.array([1.5, 2.5], dtype='float32'))
x.stop_gradient = False
y, i = ND.apply(x)
R.append(('out', _desc([y, i])))
(y.sum() + i.astype('float32').sum()).backward()
R.append(('grad', _desc(x.grad)))
""",
    "to_tensor_float64_inside": """
class F64(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        c = paddle.to_tensor(np.array([1.0, 2.0, 3.0]))
        R.append(('const', _desc(c)))
        return c * x.astype('float64')

    @staticmethod
    def backward(ctx, dy):
        R.append(('recv', _desc(dy)))
        return (dy * 2).astype('float32')

x = paddle.to_tensor(np.array([0.5, 1.5, -2.0], dtype='float32'))
x.stop_gradient = False
o = F64.apply(x)
R.append(('out', _desc(o)))
o.sum().backward()
R.append(('grad', _desc(x.grad)))
""",
    "to_tensor_float64_only_output": """
class K(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x):
        return paddle.to_tensor(np.array([[1.0, 2.0], [3.0, 4.0]]))

    @staticmethod
    def backward(ctx, dy):
        R.append(('recv', _desc(dy)))
        return paddle.ones([2], 'float32')

x = paddle.to_tensor(np.array([0.5, 1.5], dtype='float32'))
x.stop_gradient = False
o = K.apply(x)
R.append(('out', _desc(o)))
(o * 2).sum().backward()
R.append(('grad', _desc(x.grad)))
""",
})


# ---------------------------------------------------------------------- running a program
_PRELUDE = '''
def _desc(v):
    if isinstance(v, paddle.Tensor):
        dt = str(v.dtype).replace("paddle.", "")
        a = v.astype("float32").numpy() if dt in ("bfloat16",) else v.numpy()
        vals = [float(z) for z in np.asarray(a, dtype=np.float64).reshape(-1)]
        return {"dtype": dt, "shape": list(v.shape), "values": vals,
                "stop_gradient": bool(v.stop_gradient)}
    if isinstance(v, (list, tuple)):
        return {"seq": type(v).__name__, "items": [_desc(x) for x in v]}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return {"repr": type(v).__name__}


def _tensors(out):
    if isinstance(out, paddle.Tensor):
        return [out]
    return [t for t in out if isinstance(t, paddle.Tensor)]


def _same(out, args):
    return [any(t is a for a in args) for t in _tensors(out)]


def _tot(gs):
    tot = paddle.zeros([], "float64")
    for g in gs:
        if isinstance(g, paddle.Tensor):
            tot = tot + g.astype("float64").sum()
    return tot
'''


def program_source(seed, list_as_tuple=False):
    """The source of a random program (an int seed) or a hand-written one (its name)."""
    if isinstance(seed, str):
        return None if list_as_tuple else EXTRA_PROGRAMS[seed]
    return make_program(seed, list_as_tuple)


def run_program(paddle, seed, list_as_tuple=False):
    """Run program ``seed`` (or its twin, see ``make_program``) on the ``paddle`` module; its
    record (plain JSON). ``seed`` may name a hand-written program of ``EXTRA_PROGRAMS``."""
    src = program_source(seed, list_as_tuple)
    R = []
    stage = ["setup"]
    env = {"paddle": paddle, "np": np, "R": R, "STAGE": stage}
    exec(compile(_PRELUDE, "<fuzz-prelude>", "exec"), env)
    grad_mode = paddle.is_grad_enabled()
    try:
        exec(compile(src, f"<fuzz-{seed}>", "exec"), env)
        err = None
    except Exception as e:    # noqa: BLE001 - the exception is the result
        builtin = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
        err = [stage[0], builtin.__name__, str(e)[:300]]
    rec = {"seed": seed, "src_sha": _sha(src), "values": _jsonable(R), "error": err,
           "grad_mode_kept": paddle.is_grad_enabled() == grad_mode}
    if not paddle.is_grad_enabled():       # do not let one program spoil the next
        paddle.set_grad_enabled(True)
    return rec


def _jsonable(v):
    """Tuples as lists (what JSON gives back), so records compare the same before and after."""
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    return v


def _sha(src):
    return hashlib.sha1(src.encode()).hexdigest()[:12]


# ---------------------------------------------------------------------- comparing
def _close(a, b):
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-6)
    return a == b


def same_value(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        if "values" in a and "values" in b:
            return (a["dtype"] == b["dtype"] and a["shape"] == b["shape"]
                    and a["stop_gradient"] == b["stop_gradient"]
                    and len(a["values"]) == len(b["values"])
                    and all(_close(x, y) for x, y in zip(a["values"], b["values"])))
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return _close(a, b)


def differences(ours, gold):
    """What differs between two records (an empty list when they agree)."""
    if "crash" in gold:
        return [f"paddle crashed (rc={gold['crash']})"]
    out = []
    ge, oe = gold.get("error"), ours.get("error")
    if (ge and ge[:2]) != (oe and oe[:2]):
        out.append(f"error: ours {oe} paddle {ge}")
    gv, ov = gold["values"], ours["values"]
    if [v[0] for v in gv] != [v[0] for v in ov]:
        out.append(f"labels: ours {[v[0] for v in ov]} paddle {[v[0] for v in gv]}")
    for (lo, a), (lg, b) in zip(ov, gv):
        if lo == lg and not same_value(a, b):
            out.append(f"{lo}: ours {json.dumps(a)[:400]} paddle {json.dumps(b)[:400]}")
    if not ours.get("grad_mode_kept", True):
        out.append("grad mode changed")
    return out


#: Disagreements we keep on purpose: (name, test(program source, paddle's record, ours), why).
#: Each is real Paddle 3.3.1 against its own docs or plain sense; the tests are exact (they
#: look at what Paddle recorded), not guesses from the source.
def _input_meta(src):
    for line in src.splitlines():
        line = line.strip().lstrip("# ")        # hand-written programs: a comment
        if line.startswith("ctx.meta = "):
            return ast.literal_eval(line[len("ctx.meta = "):])
    return None


def _paddle_grads(rec):
    for label, v in rec["values"]:
        if label == "grads":
            return v["items"]
        if label == "grad":                     # hand-written programs: one input
            return [v]
    return None


def _nonleaf_wrong_shape(src, gold, ours):
    # an input made by an op (a{i} = x{i} * 1.0) given a gradient of another shape: Paddle
    # hands it unchecked to that op's grad kernel (scale passes it on to x{i}.grad; tanh's reads
    # past the end of its buffer); we raise torch's RuntimeError (the shape check of the op's
    # grad node). Leaves keep Paddle's rule (the gradient is stored as .grad as it is).
    if gold.get("error") is not None or (ours.get("error") or [None, None])[1] != "RuntimeError":
        return False
    meta, grads = _input_meta(src), _paddle_grads(gold)
    if not (meta and grads):
        return False
    nonleaf = {i for i in range(len(meta)) if f"a{i} = x{i} * 1.0" in src}
    return any(g is not None and g["shape"] != m[0] and i in nonleaf
               for i, (g, m) in enumerate(zip(grads, meta)))


def _list_read_as_tuple(src, gold, ours):
    # Paddle rejects a list returned by backward (or reads it as one gradient); its docs say
    # "Tensor or list/tuple(Tensor)": we read it as the tuple, so we match the tuple twin
    twin = gold.get("tuple_twin")
    if twin is None:
        return False
    if not differences(ours, twin):
        return True
    return any(name != "list_read_as_tuple" and test(src, twin, ours)
               for name, test, _ in DEVIATIONS)


DEVIATIONS = [
    ("list_read_as_tuple", _list_read_as_tuple,
     "Paddle 3.3.1 rejects a list returned by backward; its docs allow list/tuple: we read it "
     "as a tuple and agree with Paddle's run of the tuple twin (tests/test_pylayer_cases.py: "
     "list_return_two_inputs)"),
    ("nonleaf_wrong_shape", _nonleaf_wrong_shape,
     "Paddle passes a gradient whose shape is not its input's to the grad kernel of the op that "
     "made the input, unchecked (out-of-bounds reads for elementwise kernels); we raise torch's "
     "RuntimeError. For a leaf input we store it as .grad, as Paddle does"),
]


def classify(seed, ours, gold):
    src = program_source(seed)
    for name, test, _ in DEVIATIONS:
        if test(src, gold, ours):
            return name
    return None


# ---------------------------------------------------------------------- the command line
def _record_batch(seeds):
    import paddle
    paddle.disable_static()
    for s in seeds:
        rec = run_program(paddle, s)
        if program_source(s, True) is not None:
            rec["tuple_twin"] = run_program(paddle, s, True)
        sys.stdout.write("@@" + json.dumps(rec) + "\n")
        sys.stdout.flush()


def record(n, out_path, start=0, batch=200):
    import paddle
    todo = list(range(start, start + n)) + sorted(EXTRA_PROGRAMS)
    recs = {}
    while todo:
        chunk = todo[:batch]
        p = subprocess.run([sys.executable, __file__, "_batch", json.dumps(chunk)],
                           capture_output=True, text=True, cwd=ROOT)
        done = [json.loads(ln[2:]) for ln in p.stdout.splitlines() if ln.startswith("@@")]
        for r in done:
            recs[r["seed"]] = r
        todo = todo[len(done):]
        if p.returncode != 0 and todo:
            s = todo.pop(0)
            recs[s] = {"seed": s, "src_sha": _sha(program_source(s)), "crash": p.returncode}
            print(f"program {s}: paddle crashed rc={p.returncode}", file=sys.stderr)
        print(f"recorded {len(recs)}/{n + len(EXTRA_PROGRAMS)}", file=sys.stderr)
    data = {"paddle_version": paddle.__version__,
            "programs": [recs[s] for s in sorted(recs, key=lambda k: (isinstance(k, str), k))]}
    with open(out_path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")


def compare(path, verbose=False, limit=None):
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    import paddle_compat as paddle
    with open(path) as f:
        gold = json.load(f)["programs"]
    if limit:
        gold = gold[:limit]
    agree = 0
    deviations = {}
    crashes = 0
    stale = 0
    bad = []
    for g in gold:
        s = g["seed"]
        if g["src_sha"] != _sha(program_source(s)):
            stale += 1
            continue
        if "crash" in g:
            crashes += 1
            continue
        try:
            ours = run_program(paddle, s)
        except BaseException as e:       # noqa: BLE001 - a crash of the runner itself
            ours = {"values": [], "error": ["runner", type(e).__name__, str(e)]}
        d = differences(ours, g)
        if not d:
            agree += 1
            continue
        why = classify(s, ours, g)
        if why:
            deviations[why] = deviations.get(why, 0) + 1
        else:
            bad.append((s, d))
    n = len(gold) - stale - crashes
    ndev = sum(deviations.values())
    print(f"programs: {len(gold)} recorded, {stale} stale, {crashes} crashed real Paddle, "
          f"{n} compared")
    print(f"agree: {agree}/{n} = {100.0 * agree / max(n, 1):.2f}%;  deliberate deviations: "
          f"{ndev} {deviations};  agree or deliberate: {100.0 * (agree + ndev) / max(n, 1):.2f}%;"
          f"  disagree: {len(bad)}")
    for s, d in bad[: (len(bad) if verbose else 10)]:
        print(f"--- program {s}")
        for line in d:
            print("   ", line)
    return agree, ndev, bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("-n", type=int, default=2000)
    r.add_argument("--start", type=int, default=0)
    r.add_argument("-o", "--out", required=True)
    c = sub.add_parser("compare")
    c.add_argument("path")
    c.add_argument("-v", action="store_true")
    c.add_argument("--limit", type=int)
    s = sub.add_parser("show")
    s.add_argument("seed", type=int)
    b = sub.add_parser("_batch")
    b.add_argument("seeds")
    a = ap.parse_args()
    if a.cmd == "record":
        record(a.n, a.out, a.start)
    elif a.cmd == "compare":
        compare(a.path, a.v, a.limit)
    elif a.cmd == "show":
        print(make_program(a.seed))
    else:
        _record_batch(json.loads(a.seeds))


if __name__ == "__main__":
    main()
