"""``paddle.base.framework``: mode queries, Program and Parameter classes, and the internals
libraries reach here (``EagerParamBase``, ``_current_expected_place``, ``non_static_only``,
``_dygraph_tracer``, ``_no_check_dy2st_diff``, ``_dygraph_guard``), and the C++ operator
registry's entry points that Paddle's OpTest imports: ``OpProtoHolder`` answers from
paddle_compat's op-type registry (``static.fluid_ops``), ``canonicalize_attrs`` against
its protos."""
import contextlib
import functools

from ....autograd.grad_mode import is_grad_enabled
from ....framework.dtype import ALL_DTYPES
from ....framework.dtype import convert_dtype as _convert_dtype
from ....framework.flags import get_flags, set_flags
from ....framework.mode import in_pir_mode, mode_guard, use_pir_api
from ....framework.parameter import Parameter
from ....ops import creation as _creation
from ....framework.place import CPUPlace, Place, current_device
from ....static import (Block, Operator, Program, Variable, default_main_program,
                        default_startup_program)
from ....static import program_guard
from ....static import fluid_ops as _fluid_ops
from ....static.mode import in_dynamic_mode, in_to_static_mode
from ...missing import UnsupportedAPIError
from .var_desc import VarType
from .operators import OpProtoHolder

in_dygraph_mode = in_dynamic_mode


def grad_var_name(var_name):
    """The name of ``var_name``'s gradient variable: ``var_name + "@GRAD"``."""
    return var_name + "@GRAD"


def in_dynamic_or_pir_mode():
    """True in dynamic mode or while building a PIR program (paddle_compat's programs are not
    PIR: ``in_pir_mode()`` is False, so this is the dynamic mode here)."""
    return in_dynamic_mode() or in_pir_mode()

#: Paddle's dynamic-mode parameter class: ours is ``Parameter`` (``isinstance`` holds for every
#: layer's parameters, and methods libraries patch onto it reach them)
EagerParamBase = Parameter


def _create_tensor(type=None, name=None, shape=None, dtype=None, persistable=None, **kwargs):
    """A new dynamic-mode tensor to be written by an op (PaddleSlim's quanters pass it as a
    legacy op's output): ``shape`` (``[]`` when None), ``dtype`` (float32 when None), ``name``,
    ``persistable``, no gradient. Paddle leaves its memory unallocated until an op writes it;
    here it holds zeros. ``type`` must be a dense tensor type (``VarDesc.VarType``)."""
    if type is not None and str(type) not in ("VarType.DENSE_TENSOR", "VarType.LOD_TENSOR"):
        raise TypeError(f"_create_tensor(): only dense tensors can be created in dynamic mode, "
                        f"but type is {type}")
    if isinstance(dtype, VarType):          # a program data type (VarType.FP32): its name
        dtype = str(dtype).replace("paddle.", "")
    t = _creation.zeros(list(shape) if shape else [],
                        dtype=_convert_dtype(dtype, "dtype") if dtype is not None else "float32")
    if name is not None:
        t.name = name
    t.persistable = bool(persistable)
    return t


def convert_np_dtype_to_dtype_(np_dtype):
    """The Paddle dtype of a numpy dtype (or a dtype name): ``np.float32`` -> ``paddle.float32``."""
    return _convert_dtype(np_dtype, "np_dtype")


#: Paddle's table from dtype names to the program dtype (``VarDesc.VarType``); here each name
#: (and each dtype object) maps to paddle_compat's one dtype object
paddle_type_to_proto_type = {**{n: d for n, d in ALL_DTYPES.items()},
                             **{d: d for d in ALL_DTYPES.values()}}


def _current_expected_place():
    """The Place new tensors go to (``paddle.set_device``'s): ``Place(cpu)``, ``Place(gpu:0)``."""
    dev = current_device()
    return Place("gpu", dev.index or 0) if dev.type == "cuda" else CPUPlace()


_current_expected_place_ = _current_expected_place


def _static_check(func, allowed):
    @functools.wraps(func)
    def checked(*args, **kwargs):
        assert allowed(), (f"We only support '{func.__name__}()' in dynamic graph mode, please "
                           "call 'paddle.disable_static()' to enter dynamic graph mode.")
        return func(*args, **kwargs)
    return checked


def non_static_only(func):
    """Decorator: ``func`` runs in dynamic mode or while ``to_static`` traces it, and fails
    (AssertionError, Paddle's message) while a static program is being built."""
    return _static_check(func, lambda: in_dynamic_mode() or in_to_static_mode())


def dygraph_only(func):
    """Decorator: ``func`` runs in dynamic mode only (AssertionError otherwise)."""
    return _static_check(func, in_dynamic_mode)


class _Tracer:
    """What code reads from Paddle's dynamic-mode tracer: whether ops record gradients."""

    @property
    def _has_grad(self):
        return is_grad_enabled()

    @property
    def _expected_place(self):
        return _current_expected_place()

    def _get_kernel_signature(self, op_type, inputs, outputs, attrs):
        """(input slots, attribute names, output slots) of ``op_type``'s kernel: how its
        slots and attributes map to the Python API's arguments, in order."""
        return _fluid_ops.kernel_signature(op_type, inputs, outputs, attrs)


_TRACER = _Tracer()


def _dygraph_tracer():
    """The dynamic-mode tracer (None while a static program is being built)."""
    return _TRACER if in_dynamic_mode() else None


@contextlib.contextmanager
def _no_check_dy2st_diff():
    """Paddle switches off its check that ``to_static`` and dynamic mode run the same ops for
    the block; paddle_compat traces the dynamic code itself and has no such check."""
    yield


_stride_in_no_check_dy2st_diff = _no_check_dy2st_diff


@contextlib.contextmanager
def _dygraph_guard(tracer):
    """Run a block in dynamic mode (``tracer`` given: Paddle's tracer object) or, with
    ``tracer=None``, in static mode; the mode before is restored afterwards."""
    with mode_guard(static=tracer is None):
        yield


def canonicalize_attrs(attrs, op_proto):
    """``attrs`` with the values of ``op_proto``'s attributes in the types the proto declares
    (numpy arrays and scalars become lists and Python numbers)."""
    out = dict(attrs)
    for a in op_proto.attrs:
        v = out.get(a.name)
        if v is None or isinstance(v, Variable):
            continue
        if hasattr(v, "tolist"):
            out[a.name] = v.tolist()
    return out

__all__ = ["in_dygraph_mode", "in_dynamic_mode", "convert_np_dtype_to_dtype_", "Program", "Block",
           "Variable", "Parameter", "EagerParamBase", "default_main_program",
           "default_startup_program", "program_guard", "non_static_only", "dygraph_only",
           "set_flags", "get_flags", "OpProtoHolder", "canonicalize_attrs",
           "paddle_type_to_proto_type", "grad_var_name", "in_dynamic_or_pir_mode", "_create_tensor", "Operator"]
__all__ += ["in_pir_mode", "use_pir_api"]
