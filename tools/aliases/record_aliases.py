"""Build paddle_compat/ops/alias_table.py, the torch-style spellings real Paddle 3.3.1 accepts,
from Paddle itself. Run with the Paddle virtualenv's python:

    /work/paddle_venv/bin/python tools/aliases/record_aliases.py

Two sources, both read from the installed Paddle, never from memory:

* Python decorators (paddle/utils/decorator_utils.py). Every public function's ``__wrapped__``
  chain is walked; each wrapper is told apart by its code object's ``co_qualname`` (functools.wraps
  rewrites ``__qualname__``, not the code) and its mapping read from the wrapper's closure
  (``alias_list``, ``alias_list1``/``alias_list2``, the decorator instance's ``alias_mapping``,
  ``var`` ...). What each decorator kind does when both spellings are given follows from its code
  (a ValueError from ParamAliasDecorator, the alias left in the keywords and so a TypeError from
  Python's binding for ``param_one_alias`` and its kin, the alias silently winning where the
  decorator pops it over the original); tools/aliases/record_alias_goldens.py checks these on
  real calls.
* The C++ argument parser (the public functions that are ``_C_ops`` bindings: Paddle's
  generated ``_sum(*args, **kwargs)`` forwarders, shared by ``paddle.sum`` and
  ``paddle.Tensor.sum``). Each candidate torch keyword is passed alone with a probe object that
  no parser conversion accepts, and the parser's complaint is read: ``argument 'NAME' (position
  i) must be ..., but got _AliasProbe`` names the parameter the keyword fills; ``argument
  (position p) must be ...`` (attributes are numbered from 1 after the inputs) gives its place
  in the op's argument list, read through the binding's signature; ``got None`` for a required
  input earlier in the list is answered by passing a small tensor there and trying again; ``has
  too many arguments`` (the parser's word for a keyword nobody consumed) means the keyword is
  not accepted. A conversion that aborts the process (Paddle aborts on some dtype conversions)
  is run in a child process that is restarted; such a keyword is reported, not guessed.

The same decorator reading runs on every public method (and ``forward``) of every nn layer
class, found through each class's MRO (Paddle puts many in private bases), giving
LAYER_METHOD_ALIASES (``Conv1D.forward(input=)``, ``Layer.parameters(recurse=)``) and each
method's own parameter names (LAYER_METHOD_SIGNATURES), so that ours can be compared with them.

Two checks that the reading missed nothing: every candidate keyword that is neither a
parameter nor a recorded alias of a Python function or layer constructor is passed alone and
must be refused by Python's binding ("unexpected keyword argument"; the body never runs then);
the script prints any that is not (none in 3.3.1: 115,814 pairs of functions and Tensor
methods, 19,485 of layer constructors, 51,306 of the 486 layer methods). Tensor methods
written in C (``clone``, ``stride`` ...) are called with a made-up keyword, then with each
candidate.

Besides ALIASES, SIZE_ARGS, BOTH_GIVEN and LAYER_ALIASES the table keeps what the lead's
mechanism needs to know and a plain rename cannot say: SPECIAL (decorators and bodies that
reorder positional arguments or dispatch to a torch-semantics overload), FORBIDDEN (keywords
Paddle rejects with a hint to paddle.compat) and SIGNATURES (each API's own parameter names, so
that ``out=``/``device=``/``requires_grad=`` keywords Paddle declares can be compared with ours).
"""
import inspect
import json
import os
import pprint
import subprocess
import sys
import types
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "paddle_compat", "ops", "alias_table.py")
OUT_SIGS = os.path.join(ROOT, "paddle_compat", "ops", "alias_signatures.py")

NAMESPACES = ["paddle", "paddle.nn.functional", "paddle.linalg", "paddle.fft", "paddle.signal",
              "paddle.special"]

#: torch spellings to try on the C++ parser (a keyword that is one of the API's own
#: parameters is not an alias and is not tried)
CANDIDATES = [
    "input", "other", "dim", "dims", "keepdim", "keepdims", "out", "mat", "mat1", "mat2", "vec",
    "vec1", "vec2", "tensor", "tensors", "decimals", "reduce", "side", "A", "B", "requires_grad",
    "device", "pin_memory", "size", "self", "start", "end", "step", "dtype", "index", "src",
    "source", "value", "values", "correction", "unbiased", "p", "ord", "dim0", "dim1", "dim2",
    "exponent", "sorted", "descending", "stable", "largest", "upper", "diagonal", "offset",
    "indices", "sections", "chunks", "split_size_or_sections", "shape", "axis", "x", "y",
    "weight", "bias", "eps", "alpha", "beta", "generator", "memory_format", "layout",
    "non_blocking", "copy", "fill_value", "repeats", "output_size", "mode", "approximate",
    "num_samples", "replacement", "mean", "std", "low", "high", "accumulate", "include_self",
    "rounding_mode", "n", "norm", "input1", "input2", "x1", "x2", "target", "reduction",
    "ignore_index", "shifts", "min", "max", "equal_nan", "rtol", "atol", "threshold", "beta",
    "lambd", "negative_slope", "inplace", "k", "largest", "return_inverse", "return_counts",
    "as_tuple", "condition", "exponent", "base", "elements", "test_elements", "grad",
]
CANDIDATES = list(dict.fromkeys(CANDIDATES))

#: aliases handled inside a function body (no decorator to read), read from the body of
#: Paddle 3.3.1's function: {path: ({alias: parameter}, what both spellings give)}. Checked by
#: the goldens of record_alias_goldens.py.
BODY_ALIASES = {
    "paddle.nn.functional.group_norm": ({"input": "x", "eps": "epsilon"}, "TypeError"),
    "paddle.group_norm": ({"input": "x", "eps": "epsilon"}, "TypeError"),
    "paddle.nn.functional.interpolate": ({"input": "x"}, "TypeError"),
}

#: overloads Paddle dispatches on in the body (torch semantics when the call looks like torch)
BODY_SPECIAL = {
    "paddle.gather": "overload: a 'dim' keyword or an int second argument means torch.gather "
                     "(input, dim, index) -> take_along_axis; else (x, index, axis)",
    "paddle.scatter": "overload: a 'dim' keyword or an int second argument means torch.scatter "
                      "(input, dim, index, src=None, reduce=None, value=None) -> put_along_axis; "
                      "else (x, index, updates, overwrite)",
    "paddle.scatter_": "overload as paddle.scatter, in place",
    "paddle.nn.functional.group_norm": "overload: a third positional argument that is not a "
                                       "float is torch's (input, num_groups, weight, bias, eps)",
    "paddle.group_norm": "as paddle.nn.functional.group_norm",
    "paddle.nn.functional.interpolate": "overload: positional arguments 6 and 7 that are not "
                                        "ints are torch's recompute_scale_factor, antialias",
}
for _p in ("gather", "scatter", "scatter_"):
    BODY_SPECIAL["paddle.Tensor." + _p] = BODY_SPECIAL["paddle." + _p]


# ------------------------------------------------------------------ collecting the APIs
def _paddle():
    warnings.filterwarnings("ignore")
    import paddle  # noqa: PLC0415 - this script runs under real Paddle only
    return paddle


def collect(paddle):
    """(path -> function) for the namespaces and Tensor methods, (path -> __init__) for nn
    layer classes."""
    funcs, layers = {}, {}
    for ns in NAMESPACES:
        try:
            mod = eval(ns, {"paddle": paddle})  # noqa: S307 - a dotted name of ours
        except AttributeError:
            print(f"{ns}: not in this Paddle", file=sys.stderr)
            continue
        for name in dir(mod):
            if name.startswith("_"):
                continue
            obj = getattr(mod, name)
            if isinstance(obj, (type, types.ModuleType)) or not callable(obj):
                continue
            if not hasattr(obj, "__code__") and not isinstance(obj, types.BuiltinFunctionType):
                continue
            funcs[f"{ns}.{name}"] = obj
    for name in dir(paddle.Tensor):
        if name.startswith("__"):
            continue
        obj = inspect.getattr_static(paddle.Tensor, name)
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        if isinstance(obj, (property, type)) or not callable(obj):
            continue
        funcs[f"paddle.Tensor.{name}"] = obj
    for name in dir(paddle.nn):
        obj = getattr(paddle.nn, name)
        if isinstance(obj, type) and issubclass(obj, paddle.nn.Layer) and "__init__" in vars(obj):
            layers[f"paddle.nn.{name}"] = vars(obj)["__init__"]
    return funcs, layers


def collect_layer_methods(paddle):
    """(class path -> {method name -> function}) for every public method (and ``forward``) of
    every nn layer class, found through the class's MRO (Paddle defines many in private bases:
    ``_ConvNd.forward``). A method a class inherits unchanged from ``paddle.nn.Layer`` is listed
    once, under ``paddle.nn.Layer``."""
    base = paddle.nn.Layer
    out = {}
    for name in dir(paddle.nn):
        cls = getattr(paddle.nn, name)
        if not (isinstance(cls, type) and issubclass(cls, base)):
            continue
        methods = {}
        for m in dir(cls):
            if m.startswith("_"):
                continue
            fn = inspect.getattr_static(cls, m)
            if not inspect.isfunction(fn):
                continue
            if cls is not base and inspect.getattr_static(base, m, None) is fn:
                continue
            methods[m] = fn
        if methods:
            out[f"paddle.nn.{name}"] = methods
    return out


# ------------------------------------------------------------------ reading decorators
def _closure(fn):
    code = fn.__code__
    return {n: c.cell_contents for n, c in zip(code.co_freevars, fn.__closure__ or ())}


def _innermost(fn):
    while hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    return fn


def _params(fn):
    """The innermost function's parameter names, and whether it takes **kwargs."""
    try:
        sig = inspect.signature(_innermost(fn), follow_wrapped=False)
    except (TypeError, ValueError):
        return None, False
    names, varkw = [], False
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            varkw = True
            names.append("**" + p.name)
        elif p.kind is p.VAR_POSITIONAL:
            names.append("*" + p.name)
        else:
            if p.kind is p.KEYWORD_ONLY and "*" not in names and not any(
                    n.startswith("*") for n in names):
                names.append("*")
            names.append(p.name)
    return names, varkw


def read_decorators(fn):
    """What the decorators on ``fn`` do: {aliases, both, size_args, special, forbidden, kinds}.
    ``both[alias]`` is what giving the alias with its original does, by the decorator's code:
    "ValueError", "left" (the alias stays in the keywords: the function's own binding decides),
    "alias" (the alias's value replaces the original's)."""
    info = {"aliases": {}, "both": {}, "size_args": None, "special": [], "forbidden": None,
            "kinds": [], "consumes": []}

    def alias(a, orig, both):
        info["aliases"].setdefault(a, orig)
        info["both"].setdefault(a, both)

    f = fn
    while hasattr(f, "__wrapped__") and hasattr(f, "__code__"):
        q = f.__code__.co_qualname
        mod = f.__code__.co_filename
        cl = _closure(f)
        kind = q.split(".<locals>")[0]
        if not mod.endswith("decorator_utils.py"):
            f = f.__wrapped__
            continue
        if kind == "DecoratorBase.__call__":
            dec = cl["self"]
            kind = type(dec).__name__
            if kind in ("ParamAliasDecorator", "SetDefaultParaAliasDecorator"):
                for a, o in dec.alias_mapping.items():
                    alias(a, o, "ValueError")
                if kind == "SetDefaultParaAliasDecorator":
                    info["special"].append(f"an alias keyword also sets {dec.default_params}")
            elif kind == "SizeArgsDecorator":
                alias("size", "shape", "alias")
                info["size_args"] = ("shape", 0)
            elif kind == "VariableArgsDecorator":
                info["size_args"] = (dec.var, 1)
            elif kind in ("ForbidKeywordsDecorator", "ForbidKeywordsIgnoreOneParamDecorator"):
                info["forbidden"] = (tuple(sorted(dec.illegal_keys)), dec.correct_name,
                                     "TypeError")
                if kind == "ForbidKeywordsIgnoreOneParamDecorator" and dec.ignore_param:
                    n, i, t = dec.ignore_param
                    info["special"].append(
                        f"ignores {n!r} (a {t.__name__} at position {i} or the keyword)")
            else:
                raise SystemExit(f"unknown decorator class {kind}")
        elif kind == "param_one_alias":
            al = cl["alias_list"]
            alias(al[1], al[0], "left")
        elif kind in ("param_two_alias", "param_two_alias_one_default"):
            for al in (cl["alias_list1"], cl["alias_list2"]):
                alias(al[1], al[0], "left")
            if kind == "param_two_alias_one_default":
                d = cl["default_param"]
                info["special"].append(f"an alias keyword also sets {d[0]}={d[1]!r} by default")
        elif kind in ("softmax_param_alias",):
            alias("input", "x", "alias")
            alias("dim", "axis", "alias")
        elif kind == "lp_pool_function_decorator":
            alias("input", "x", "alias")
            info["special"].append("a bool 5th positional argument is ceil_mode")
        elif kind == "tensor_split_decorator":
            alias("input", "x", "left")
            alias("dim", "axis", "left")
            for a in ("indices_or_sections", "indices", "sections"):
                alias(a, "num_or_indices", "left")
        elif kind == "reshape_decorator":
            alias("input", "x", "left")
            info["size_args"] = ("shape", 1)
        elif kind == "view_decorator":
            alias("dtype", "shape_or_dtype", "left")
            alias("size", "shape_or_dtype", "left")
            info["size_args"] = ("shape_or_dtype", 1)
        elif kind == "expand_decorator":
            alias("input", "x", "left")
            alias("size", "shape", "left")
            info["size_args"] = ("shape", 1)
        elif kind == "transpose_decorator":
            alias("input", "x", "left")
            info["consumes"] += ["dim0", "dim1", "axis0", "axis1"]
            info["special"].append(
                "torch transpose: dim0/dim1 (or axis0/axis1) keywords, or ints at positions 1 "
                "and 2, swap two axes (perm is built from them and wins over a perm given)")
        elif kind == "index_select_decorator":
            alias("input", "x", "left")
            alias("dim", "axis", "left")
            info["special"].append(
                "torch order: an int second positional argument is dim, then index "
                "(input, dim, index); TypeError when index is missing")
        elif kind == "sum_decorator":
            alias("input", "x", "left")
            alias("dim", "axis", "left")
            info["special"].append("3 or 4 positional arguments: (input, dim, keepdim: bool | "
                                   "dtype, dtype | keepdim)")
        elif kind == "floor_divide_decorator":
            alias("input", "x", "left")
            alias("other", "y", "left")
        elif kind == "index_add_decorator":
            alias("input", "x", "alias")
            alias("dim", "axis", "alias")
            alias("source", "value", "alias")
            info["special"].append("torch order: an int second positional argument is dim, then "
                                   "index, source (input, dim, index, source)")
        elif kind == "size_args_decorator":
            alias("size", "shape", "alias")
            info["size_args"] = ("shape", 0)
        elif kind == "size_args_decorator_patch":
            info["size_args"] = ("size", 1)
        elif kind in ("lp_pool_layer_decorator",):
            info["special"].append("a bool 4th positional argument of __init__ is ceil_mode")
        elif kind in ("legacy_reduction_decorator", "legacy_reduction_special_decorator"):
            info["forbidden"] = (("reduce", "size_average"), "reduction", "ValueError")
            info["special"].append("legacy reduce/size_average (keyword or a bool at torch's "
                                   "position) raise ValueError naming the reduction to use")
        else:
            raise SystemExit(f"unknown decorator {q}")
        info["kinds"].append(kind)
        f = f.__wrapped__
    return info


def is_cpp_binding(fn):
    """The _C_ops op name when ``fn`` (its innermost function) only forwards to a _C_ops
    binding with *args, **kwargs; else None."""
    inner = _innermost(fn)
    code = getattr(inner, "__code__", None)
    if code is None:
        return None
    if not (code.co_flags & 4 and code.co_flags & 8):
        return None
    if "_C_ops" not in code.co_names or len(code.co_names) != 2:
        return None
    return code.co_names[1]


# ------------------------------------------------------------------ probing the C++ parser
PROBE_CHILD = r'''
import json, re, sys, warnings
warnings.filterwarnings("ignore")
import paddle
class _AliasProbe:
    pass
S = _AliasProbe()
jobs = json.loads(sys.stdin.readline())
out = open(sys.argv[1], "a")
NAMED = re.compile(r"argument '(\w+)' \(position (\d+)\) must be ([^,]*?(?:, [^,]*?)*?), but got (\w+)")
POS = re.compile(r"argument \(position (\d+)\) must be .*?, but got (\w+)")
def filler(kind):
    t = paddle.ones([2, 2], dtype="float32")
    return [t, t] if "list" in kind.lower() or "vector" in kind.lower() else t
for n, (op, kw) in enumerate(jobs):
    fn = getattr(paddle._C_ops, op)
    args, kwargs, res = [], {kw: S}, None
    for _ in range(8):
        try:
            fn(*args, **kwargs)
            res = {"accepted": True, "param": None, "msg": "call succeeded"}
            break
        except Exception as e:  # noqa: BLE001
            msg = str(e).split("\n")[0]
            if "has too many arguments" in msg:
                res = {"accepted": False}
                break
            m = NAMED.search(msg)
            if m and m.group(4) == "_AliasProbe":
                res = {"accepted": True, "param": m.group(1), "msg": msg}
                break
            if m and m.group(4) == "None":
                name, pos = m.group(1), int(m.group(2))
                if pos == len(args):
                    args.append(filler(m.group(3)))
                else:
                    kwargs[name] = filler(m.group(3))
                continue
            m = POS.search(msg)
            if m and m.group(2) == "_AliasProbe":
                res = {"accepted": True, "position": int(m.group(1)), "msg": msg}
                break
            res = {"accepted": True, "param": None, "msg": msg[:300]}
            break
    out.write(json.dumps([n, op, kw, res]) + "\n")
    out.flush()
'''


def probe_cpp(jobs, tmp):
    """Run the parser probes in child processes, restarting after a process abort."""
    results = {}
    todo = list(jobs)
    while todo:
        if os.path.exists(tmp):
            os.remove(tmp)
        p = subprocess.run([sys.executable, "-c", PROBE_CHILD, tmp], input=json.dumps(todo) + "\n",
                           text=True, capture_output=True)
        done = 0
        if os.path.exists(tmp):
            with open(tmp) as f:
                for line in f:
                    n, op, kw, res = json.loads(line)
                    results[(op, kw)] = res
                    done = n + 1
        if done < len(todo):
            if p.returncode == 0:
                raise SystemExit(f"probe child stopped early: {p.stderr[-2000:]}")
            op, kw = todo[done]
            results[(op, kw)] = {"accepted": True, "param": None,
                                 "msg": "the process aborted converting the probe"}
            done += 1
        todo = todo[done:]
    if os.path.exists(tmp):
        os.remove(tmp)
    return results


KW_CHILD = r'''
import json, sys, warnings
warnings.filterwarnings("ignore")
import paddle
jobs = json.loads(sys.stdin.readline())
out = open(sys.argv[1], "a")
for n, (name, kw) in enumerate(jobs):
    res = "refused"
    for val in (0, True, None):
        x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
        v = x.clone() if val is None else val
        try:
            getattr(x, name)(**{kw: v})
            res = "ok"
            break
        except Exception:  # noqa: BLE001
            pass
    out.write(json.dumps([n, [name, kw], res]) + "\n")
    out.flush()
'''


def probe_c_methods(names, tmp):
    """For Tensor methods written in C: (method, keyword) -> "ok" where a call with that
    keyword alone (an int, a bool or a tensor for its value) succeeds."""
    results, todo = {}, list(names)
    while todo:
        if os.path.exists(tmp):
            os.remove(tmp)
        subprocess.run([sys.executable, "-c", KW_CHILD, tmp], input=json.dumps(todo) + "\n",
                       text=True, capture_output=True)
        done = 0
        if os.path.exists(tmp):
            with open(tmp) as f:
                for line in f:
                    n, name, res = json.loads(line)
                    results[tuple(name)] = res
                    done = n + 1
        if done < len(todo):
            results[tuple(todo[done])] = "crashed"
            done += 1
        todo = todo[done:]
    if os.path.exists(tmp):
        os.remove(tmp)
    return results


PY_CHILD = r'''
import json, sys, warnings
warnings.filterwarnings("ignore")
import paddle
class _AliasProbe:
    pass
jobs = json.loads(sys.stdin.readline())
out = open(sys.argv[1], "a")
for n, (path, kw) in enumerate(jobs):
    fn = eval(path, {"paddle": paddle})
    try:
        fn(**{kw: _AliasProbe()})
        res = "accepted"
    except TypeError as e:
        res = "refused" if f"unexpected keyword argument '{kw}'" in str(e) else "accepted"
    except Exception:  # noqa: BLE001
        res = "accepted"
    out.write(json.dumps([n, [path, kw], res]) + "\n")
    out.flush()
'''


def probe_python(jobs, tmp):
    """(path, keyword) -> "refused" where Python's binding refuses the keyword alone (the
    function body never runs then), "accepted" otherwise, "crashed" where the process died."""
    results, todo = {}, list(jobs)
    while todo:
        if os.path.exists(tmp):
            os.remove(tmp)
        subprocess.run([sys.executable, "-c", PY_CHILD, tmp], input=json.dumps(todo) + "\n",
                       text=True, capture_output=True)
        done = 0
        if os.path.exists(tmp):
            with open(tmp) as f:
                for line in f:
                    n, job, res = json.loads(line)
                    results[tuple(job)] = res
                    done = n + 1
        if done < len(todo):
            results[tuple(todo[done])] = "crashed"
            done += 1
        todo = todo[done:]
    if os.path.exists(tmp):
        os.remove(tmp)
    return results


def cpp_arg_names(fn):
    """The op's argument names in order, as the binding's signature lists them (``name`` and
    keyword-only parameters are no op arguments)."""
    sig = inspect.signature(fn)
    return [p.name for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "name"]


# ------------------------------------------------------------------ main
def main():
    paddle = _paddle()
    assert paddle.__version__ == "3.3.1", paddle.__version__
    funcs, layers = collect(paddle)

    aliases, size_args, both_given, special, forbidden, signatures = {}, {}, {}, {}, {}, {}
    special_kw = {}
    layer_aliases, layer_special, layer_forbidden, layer_both, layer_kind = {}, {}, {}, {}, {}
    layer_sigs = {}
    decorator_kind = {}
    opaque = []
    cpp = {}  # path -> op
    for path, fn in sorted(funcs.items()):
        names, varkw = _params(fn)
        if names is not None:
            signatures[path] = tuple(names)
        op = is_cpp_binding(fn)
        if op is not None:
            cpp[path] = op
            continue
        info = read_decorators(fn)
        own = set(names or ())
        al = {a: o for a, o in info["aliases"].items() if a not in own}
        if al:
            aliases[path] = al
            decorator_kind[path] = "+".join(info["kinds"])
            # "left": Python's binding refuses the leftover keyword (TypeError) unless the
            # function takes **kwargs
            kinds = {("TypeError" if not varkw else "passed on") if info["both"][a] == "left"
                     else info["both"][a] for a in al}
            both_given[path] = kinds.pop() if len(kinds) == 1 else "mixed"
        if info["size_args"]:
            size_args[path] = info["size_args"]
        if info["special"]:
            special[path] = "; ".join(info["special"])
        if info["forbidden"]:
            forbidden[path] = info["forbidden"]
        if info["consumes"]:
            special_kw[path] = tuple(info["consumes"])
        if varkw and path not in BODY_ALIASES and path not in BODY_SPECIAL and not al:
            opaque.append(path)
    for path, (al, both) in BODY_ALIASES.items():
        if path in funcs:
            aliases[path] = dict(al)
            both_given[path] = both
            decorator_kind[path] = "body"
    for path, note in BODY_SPECIAL.items():
        if path in funcs:
            special[path] = note
    # the torch overloads of gather/scatter take their keywords from Paddle's wrappers
    import paddle.tensor.manipulation as _manip  # noqa: PLC0415
    for name, wrapper in (("gather", "_take_along_axis_wrapper"),
                          ("scatter", "_put_along_axis_wrapper"),
                          ("scatter_", "_put_along_axis_inplace_wrapper")):
        kws = tuple(inspect.signature(getattr(_manip, wrapper)).parameters)
        for prefix in ("paddle.", "paddle.Tensor."):
            if prefix + name in funcs:
                special_kw[prefix + name] = kws

    # cross-check of the decorator reading: every candidate keyword that is neither a
    # parameter nor a read alias must be refused by Python's binding (a wrapper this script
    # does not know that renames keywords would show up here)
    py_jobs = []
    for path, fn in sorted(funcs.items()):
        if path in cpp or not hasattr(fn, "__code__") or path in BODY_ALIASES:
            continue
        names = signatures.get(path)
        if names is None or any(nm.startswith("**") for nm in names):
            continue
        if _innermost(fn).__code__.co_flags & 8:  # **kwargs in the code, whatever __signature__
            continue
        known = set(names) | set(aliases.get(path, ())) | set(
            (forbidden.get(path) or ((),))[0]) | set(special_kw.get(path, ()))
        py_jobs += [(path, kw) for kw in CANDIDATES if kw not in known]
    py_res = probe_python(py_jobs, os.path.join("/tmp", f"alias_py_{os.getpid()}.jsonl"))
    unexplained = sorted(j for j, r in py_res.items() if r != "refused")
    print(f"Python cross-check: {len(py_jobs)} (API, keyword) pairs not in the table, "
          f"{len(py_jobs) - len(unexplained)} refused by Python's binding", file=sys.stderr)

    # the C++ bindings: probe each distinct op once
    ops = sorted(set(cpp.values()))
    op_fn = {op: next(funcs[p] for p in sorted(cpp) if cpp[p] == op) for op in ops}
    jobs = []
    for op in ops:
        own = set(signatures.get(next(p for p in sorted(cpp) if cpp[p] == op), ()))
        jobs += [(op, kw) for kw in CANDIDATES if kw not in own]
    print(f"probing {len(jobs)} (op, keyword) pairs on {len(ops)} C++ bindings", file=sys.stderr)
    results = probe_cpp(jobs, os.path.join("/tmp", f"alias_probe_{os.getpid()}.jsonl"))
    op_aliases, unresolved, extra_out = {}, [], set()
    for (op, kw), res in sorted(results.items()):
        if not res["accepted"]:
            continue
        if kw == "out":
            # the parser takes out= on ops whose binding signature does not list it
            extra_out.add(op)
            continue
        param = res.get("param")
        if param is None and "position" in res:
            names = cpp_arg_names(op_fn[op])
            # inputs are numbered from 0, attributes from 1: position p is argument p - 1
            # unless the argument at p is still a tensor input (numbered from 0)
            idx = res["position"] - 1
            param = names[idx] if 0 <= idx < len(names) else None
        if param is None:
            unresolved.append((op, kw, res.get("msg")))
            continue
        op_aliases.setdefault(op, {})[kw] = param
    for path, op in sorted(cpp.items()):
        if op in extra_out and path in signatures and "out" not in signatures[path]:
            sig = signatures[path]
            signatures[path] = sig + (("out",) if "*" in sig else ("*", "out"))
        if op in op_aliases:
            aliases[path] = dict(op_aliases[op])
            both_given[path] = "ValueError"
            decorator_kind[path] = "C++"

    # Tensor methods written in C (no Python code, no _C_ops forwarder)
    c_methods = sorted(p.rsplit(".", 1)[1] for p, fn in funcs.items()
                       if p.startswith("paddle.Tensor.") and not p.startswith("paddle.Tensor._")
                       and type(fn).__name__ == "method_descriptor")
    tmp = os.path.join("/tmp", f"alias_kw_{os.getpid()}.jsonl")
    kw_res = probe_c_methods([(n, "zzz_alias_probe") for n in c_methods], tmp)
    # a method that crashes on a made-up keyword (setters of internal tensor kinds) is left out
    rest = [n for n in c_methods if kw_res[(n, "zzz_alias_probe")] == "refused"]
    kw_res.update(probe_c_methods([(n, kw) for n in rest for kw in CANDIDATES], tmp))
    ignores = tuple(f"paddle.Tensor.{n}" for n in c_methods
                    if kw_res.get((n, "zzz_alias_probe")) == "ok")
    c_keywords = {f"paddle.Tensor.{n}": tuple(kw for kw in CANDIDATES
                                               if kw_res.get((n, kw)) == "ok")
                  for n in c_methods if f"paddle.Tensor.{n}" not in ignores}
    c_keywords = {p: v for p, v in c_keywords.items() if v}

    # layers: decorators on __init__
    for path, init in sorted(layers.items()):
        info = read_decorators(init)
        names, varkw = _params(init)
        if names is not None:
            layer_sigs[path] = tuple(names)
        own = set(names or ())
        al = {a: o for a, o in info["aliases"].items() if a not in own}
        if al:
            layer_aliases[path] = al
            kinds = {("TypeError" if not varkw else "passed on") if info["both"][a] == "left"
                     else info["both"][a] for a in al}
            layer_both[path] = kinds.pop() if len(kinds) == 1 else "mixed"
            layer_kind[path] = "+".join(info["kinds"])
        if info["special"]:
            layer_special[path] = "; ".join(info["special"])
        if info["forbidden"]:
            layer_forbidden[path] = info["forbidden"]

    # the same cross-check for the layer constructors
    layer_jobs = []
    for path, init in sorted(layers.items()):
        names = layer_sigs.get(path)
        if names is None or _innermost(init).__code__.co_flags & 8:
            continue
        known = set(names) | set(layer_aliases.get(path, ())) | set(
            (layer_forbidden.get(path) or ((),))[0])
        layer_jobs += [(path, kw) for kw in CANDIDATES if kw not in known]
    layer_res = probe_python(layer_jobs, os.path.join("/tmp", f"alias_ly_{os.getpid()}.jsonl"))
    unexplained += sorted(j for j, r in layer_res.items() if r != "refused")
    print(f"layer cross-check: {len(layer_jobs)} (layer, keyword) pairs not in the table, "
          f"{sum(1 for r in layer_res.values() if r == 'refused')} refused by Python's binding",
          file=sys.stderr)

    # layer methods (forward and the others): the same decorators, on every method
    method_aliases, method_both, method_special, method_sigs = {}, {}, {}, {}
    method_jobs = []
    for cpath, methods in sorted(collect_layer_methods(paddle).items()):
        for m, fn in sorted(methods.items()):
            path = f"{cpath}.{m}"
            info = read_decorators(fn)
            names, varkw = _params(fn)
            if names is not None:
                method_sigs.setdefault(cpath, {})[m] = tuple(names)
            own = set(names or ())
            al = {a: o for a, o in info["aliases"].items() if a not in own}
            if al:
                method_aliases.setdefault(cpath, {})[m] = al
                kinds = {("TypeError" if not varkw else "passed on")
                         if info["both"][a] == "left" else info["both"][a] for a in al}
                method_both.setdefault(cpath, {})[m] = kinds.pop() if len(kinds) == 1 \
                    else "mixed"
                layer_kind[path] = "+".join(info["kinds"])
            if info["special"]:
                method_special.setdefault(cpath, {})[m] = "; ".join(info["special"])
            if names is not None and not (_innermost(fn).__code__.co_flags & 8):
                known = own | set(al) | set((info["forbidden"] or ((),))[0])
                method_jobs += [(path, kw) for kw in CANDIDATES if kw not in known]
    # the cross-check: a keyword neither a parameter nor a read alias is refused by Python
    method_res = probe_python(method_jobs, os.path.join("/tmp", f"alias_lm_{os.getpid()}.jsonl"))
    unexplained += sorted(j for j, r in method_res.items() if r != "refused")
    print(f"layer-method cross-check: {len(method_jobs)} (method, keyword) pairs not in the "
          f"table, {sum(1 for r in method_res.values() if r == 'refused')} refused by Python's "
          f"binding", file=sys.stderr)

    families = {}
    for path, al in aliases.items():
        for a, o in al.items():
            families.setdefault((a, decorator_kind[path].split("+")[0]), []).append(path)
    for path, al in layer_aliases.items():
        for a, o in al.items():
            families.setdefault((a, "layer " + layer_kind[path].split("+")[0]), []).append(path)
    for cpath, per in method_aliases.items():
        for m, al in per.items():
            for a in al:
                families.setdefault((a, "layer method " + layer_kind[f"{cpath}.{m}"].split(
                    "+")[0]), []).append(f"{cpath}.{m}")

    write(aliases, size_args, both_given, special, forbidden, signatures, layer_aliases,
          layer_special, layer_forbidden, decorator_kind, ignores, c_keywords, layer_both,
          layer_sigs, special_kw, method_aliases, method_both, method_special, method_sigs)
    pairs = sum(len(v) for v in aliases.values())
    print(f"APIs with aliases: {len(aliases)} (C++ bindings {sum(1 for p in cpp if p in aliases)},"
          f" Python decorators/bodies {len(aliases) - sum(1 for p in cpp if p in aliases)})")
    print(f"(API, alias) pairs: {pairs}")
    print(f"alias families (keyword x decorator kind): {len(families)}")
    print(f"size-varargs APIs: {len(size_args)}")
    print(f"both-given outcomes: { {k: list(both_given.values()).count(k) for k in set(both_given.values())} }")
    print(f"special: {len(special)}, forbidden: {len(forbidden)}, layer aliases: "
          f"{len(layer_aliases)}, layer forbidden: {len(layer_forbidden)}, signatures: "
          f"{len(signatures)}")
    print(f"layer methods read: {sum(len(v) for v in method_sigs.values())} in "
          f"{len(method_sigs)} classes; with aliases: "
          f"{sum(len(v) for v in method_aliases.values())}, special: "
          f"{sum(len(v) for v in method_special.values())}")
    print(f"C Tensor methods that drop any keyword: {len(ignores)} of {len(c_methods)}: "
          f"{[p.rsplit('.', 1)[1] for p in ignores]}")
    print(f"C Tensor methods' keywords: {c_keywords}")
    print(f"C Tensor methods that crashed on a probe: "
          f"{sorted({n for (n, kw), r in kw_res.items() if r == 'crashed'})}")
    for (op, kw, msg) in unresolved:
        print(f"UNRESOLVED C++ {op} {kw}: {msg}")
    for j in unexplained:
        print(f"UNEXPLAINED: {j[0]} takes {j[1]!r} ({py_res.get(j) or layer_res.get(j)})")
    for p in opaque:
        print(f"OPAQUE (takes **kwargs, not read): {p}")
    fam_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "families.json")
    with open(fam_path, "w") as f:
        json.dump({f"{a}|{k}": v for (a, k), v in sorted(families.items())}, f, indent=1)


HEADER = '''"""The torch-style spellings real Paddle 3.3.1 accepts. GENERATED by
tools/aliases/record_aliases.py from Paddle 3.3.1 itself (its alias decorators and its C++
argument parser); do not edit by hand, rerun the script.

* ALIASES: public path -> {alias keyword: Paddle's parameter it stands for}
* KIND: public path -> where the aliases come from ("C++" parser, a decorator of
  paddle/utils/decorator_utils.py by name, "body" for a function body)
* BOTH_GIVEN: public path -> what Paddle does when an alias and its parameter are both given
  as keywords: an exception type name, or "alias" where the alias's value silently wins (the
  original given positionally with its alias as a keyword: a TypeError "got multiple values"
  from Python's binding under the decorators, the same ValueError from the C++ parser)
* SIZE_ARGS: public path -> (parameter that collects varargs ints, first positional index)
* SPECIAL: public path -> what its decorator or body does beyond renaming keywords
* SPECIAL_KEYWORDS: public path -> the keywords that SPECIAL behaviour takes (transpose's
  dim0/dim1, the parameters of the torch overloads of gather/scatter)
* FORBIDDEN: public path -> (keywords Paddle refuses, the API or argument its message points
  to, the exception type: a TypeError, or for the losses' legacy reduce/size_average a
  ValueError)
* LAYER_ALIASES / LAYER_BOTH_GIVEN / LAYER_SPECIAL / LAYER_FORBIDDEN: the same for nn layer
  constructors (LAYER_FORBIDDEN's legacy reduce/size_average raise a ValueError)
* LAYER_METHOD_ALIASES / LAYER_METHOD_BOTH_GIVEN / LAYER_METHOD_SPECIAL: the same for the
  methods of the nn layer classes (``forward``, ``parameters`` ...), as class path -> {method
  name -> ...}; a method a class inherits unchanged from ``paddle.nn.Layer`` is listed under
  ``paddle.nn.Layer`` only
* IGNORES_KEYWORDS: Tensor methods written in C that take any keyword and drop it
  (``x.clone(memory_format=...)`` runs)
* C_METHOD_KEYWORDS: the other Tensor methods written in C -> the candidate torch keywords a
  call accepts (their own parameter names; no Python signature to read them from)

Paddle's own parameter names of every API (SIGNATURES) are in alias_signatures.py, written
by the same script, kept apart so that loading this table stays cheap.
"""
'''

SIG_HEADER = '''"""Paddle 3.3.1's own parameter names of each public API. GENERATED by
tools/aliases/record_aliases.py from Paddle 3.3.1 itself; do not edit by hand.

SIGNATURES: public path -> parameter names in order ("*" before keyword-only ones,
"*args"/"**kwargs" for varargs; a Tensor method's first one is the tensor). The C++ bindings
list the ``out`` keyword wherever the parser takes it, also where Paddle's stated signature
leaves it out.

LAYER_SIGNATURES: nn layer class path -> its ``__init__``'s parameter names (``self`` first).

LAYER_METHOD_SIGNATURES: nn layer class path -> {method name -> its parameter names (``self``
first)} for every public method and ``forward`` the class defines or inherits from a class
other than ``paddle.nn.Layer`` (whose own are listed under ``paddle.nn.Layer``).
"""
'''


def write(aliases, size_args, both_given, special, forbidden, signatures, layer_aliases,
          layer_special, layer_forbidden, kinds, ignores, c_keywords, layer_both, layer_sigs,
          special_kw, method_aliases, method_both, method_special, method_sigs):
    def block(name, value):
        return f"{name} = " + pprint.pformat(value, width=99, sort_dicts=True) + "\n\n"
    text = HEADER + "\n"
    text += block("ALIASES", aliases)
    text += block("KIND", kinds)
    text += block("BOTH_GIVEN", both_given)
    text += block("SIZE_ARGS", size_args)
    text += block("SPECIAL", special)
    text += block("SPECIAL_KEYWORDS", special_kw)
    text += block("FORBIDDEN", forbidden)
    text += block("LAYER_ALIASES", layer_aliases)
    text += block("LAYER_BOTH_GIVEN", layer_both)
    text += block("LAYER_SPECIAL", layer_special)
    text += block("LAYER_FORBIDDEN", layer_forbidden)
    text += block("LAYER_METHOD_ALIASES", method_aliases)
    text += block("LAYER_METHOD_BOTH_GIVEN", method_both)
    text += block("LAYER_METHOD_SPECIAL", method_special)
    text += block("IGNORES_KEYWORDS", ignores)
    text += block("C_METHOD_KEYWORDS", c_keywords)
    with open(OUT, "w") as f:
        f.write(text.rstrip("\n") + "\n")
    with open(OUT_SIGS, "w") as f:
        f.write((SIG_HEADER + "\n" + block("SIGNATURES", signatures)
                 + block("LAYER_SIGNATURES", layer_sigs)
                 + block("LAYER_METHOD_SIGNATURES", method_sigs)).rstrip("\n") + "\n")
    print(f"wrote {OUT} and {OUT_SIGS}")


if __name__ == "__main__":
    main()
