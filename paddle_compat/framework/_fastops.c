/* paddle_compat.framework._fastops: the Tensor's hottest slots in C.
 *
 * What it is for: `x * y`, `x < y`, `x[0]` on small tensors cost about as much in the Python
 * wrapper as in torch itself. This module puts C functions into the operator slots of the
 * Tensor class (and of its subclasses) for the cases where Paddle and torch agree exactly:
 *   - both operands are Tensors of the same dtype;
 *   - a Tensor of a floating or complex dtype and a Python int or float;
 *   - basic indexing (ints, slices without a step, None, one Ellipsis).
 * There it calls torch's own operator on the wrapped torch tensors and wraps the result, with
 * no Python frame. Every other case calls the Python method the class defines (the same
 * `Tensor.__mul__` one reads in framework/tensor.py), so the two paths cannot disagree.
 *
 * The class keeps its Python methods in its __dict__: introspection, explicit calls such as
 * `Tensor.__mul__(x, y)`, subclasses that override an operator and torch.compile's tracing all
 * see them. Assigning a new dunder to the class later makes CPython recompute that slot, so an
 * override by user code wins, as it would without this module.
 *
 * Optional: paddle_compat runs unchanged without it (PADDLE_COMPAT_PURE_PYTHON=1, or where it
 * was not built). It uses only the CPython C API, not torch's headers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <float.h>
#include <math.h>

enum {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_MATMUL,
    OP_AND, OP_OR, OP_XOR, OP_LSHIFT, OP_RSHIFT, N_OPS
};

static const char *op_names[N_OPS][2] = {
    {"__add__", "__radd__"}, {"__sub__", "__rsub__"}, {"__mul__", "__rmul__"},
    {"__truediv__", "__rtruediv__"}, {"__floordiv__", "__rfloordiv__"},
    {"__mod__", "__rmod__"}, {"__pow__", "__rpow__"}, {"__matmul__", "__rmatmul__"},
    {"__and__", "__rand__"}, {"__or__", "__ror__"}, {"__xor__", "__rxor__"},
    {"__lshift__", "__rlshift__"}, {"__rshift__", "__rrshift__"},
};

static const char *cmp_names[6] = {"__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"};

/* Set once by install(). */
static PyTypeObject *tensor_type;           /* results are of this class */
static Py_ssize_t t_offset;                 /* where the `_t` slot lives in an instance */
static PyObject *method[N_OPS], *reflected[N_OPS], *compare[6], *getitem_method, *neg_method;
static PyObject *rsub;                      /* torch.rsub, for `scalar - x` */
static PyObject *floating[8];
static int n_floating;
static PyObject *str_dtype, *str_ndim, *zero;
static PyTypeObject *torch_tensor_type;     /* torch.Tensor: its dtype getter is read directly */
static getter dtype_getter;
static void *dtype_closure;

#define PAYLOAD(o) (*(PyObject **)((char *)(o) + t_offset))

static inline int
is_tensor(PyObject *o)
{
    return Py_IS_TYPE(o, tensor_type) || PyType_IsSubtype(Py_TYPE(o), tensor_type);
}

/* A new Tensor around `t` (a new reference, stolen); NULL stays NULL. */
static PyObject *
wrap(PyObject *t)
{
    if (t == NULL)
        return NULL;
    PyObject *o = tensor_type->tp_alloc(tensor_type, 0);
    if (o == NULL) {
        Py_DECREF(t);
        return NULL;
    }
    PAYLOAD(o) = t;
    return o;
}

/* t.dtype (a new reference). For a plain torch.Tensor, torch's own getter is called
   directly: the same function `t.dtype` reaches, without the attribute lookup. */
static inline PyObject *
dtype_of(PyObject *t)
{
    if (Py_IS_TYPE(t, torch_tensor_type))
        return dtype_getter(t, dtype_closure);
    return PyObject_GetAttr(t, str_dtype);
}

/* 1 when a and b have the same dtype, 0 when not or when either has none (the Python method
   then decides, and raises what it raises). */
static int
same_dtype(PyObject *a, PyObject *b)
{
    PyObject *da = dtype_of(a);
    if (da == NULL) {
        PyErr_Clear();
        return 0;
    }
    PyObject *db = dtype_of(b);
    if (db == NULL) {
        PyErr_Clear();
        Py_DECREF(da);
        return 0;
    }
    int same = da == db;        /* torch's dtypes are singletons: identity is equality */
    Py_DECREF(da);
    Py_DECREF(db);
    return same;
}

/* 1 when t's dtype is floating or complex (Paddle and torch agree on Tensor OP Python number). */
static int
is_floating(PyObject *t)
{
    PyObject *d = dtype_of(t);
    if (d == NULL) {
        PyErr_Clear();
        return 0;
    }
    int found = 0;
    for (int i = 0; i < n_floating && !found; i++)
        found = floating[i] == d;
    Py_DECREF(d);
    return found;
}

static inline int
is_py_number(PyObject *o)
{
    return PyFloat_CheckExact(o) || PyLong_CheckExact(o);
}

static PyObject *real[4];     /* float16, bfloat16, float32, float64 (install_ops) */

/* 1 when `t ** e` (or pow(t, e)) must leave the fast path: Paddle's pow holds a Python-number
   exponent as a C++ float, so on a float64 tensor a float that float32 cannot hold exactly
   (0.3) is rounded first, which the Python function does. Other dtypes compute with a float
   exponent anyway. */
static int
float_attr_rounds(PyObject *t, PyObject *e)
{
    if (!PyFloat_CheckExact(e))
        return 0;
    double v = PyFloat_AS_DOUBLE(e);
    if (isinf(v) || (fabs(v) <= FLT_MAX && (double)(float)v == v))
        return 0;
    PyObject *d = dtype_of(t);
    if (d == NULL) {
        PyErr_Clear();
        return 1;
    }
    int f64 = d == real[3];
    Py_DECREF(d);
    return f64;
}

static PyObject *
apply(int op, PyObject *a, PyObject *b)
{
    switch (op) {
    case OP_ADD: return PyNumber_Add(a, b);
    case OP_SUB: return PyNumber_Subtract(a, b);
    case OP_MUL: return PyNumber_Multiply(a, b);
    case OP_DIV: return PyNumber_TrueDivide(a, b);
    case OP_FLOORDIV: return PyNumber_FloorDivide(a, b);
    case OP_MOD: return PyNumber_Remainder(a, b);
    case OP_POW: return PyNumber_Power(a, b, Py_None);
    case OP_MATMUL: return PyNumber_MatrixMultiply(a, b);
    case OP_AND: return PyNumber_And(a, b);
    case OP_OR: return PyNumber_Or(a, b);
    case OP_XOR: return PyNumber_Xor(a, b);
    case OP_LSHIFT: return PyNumber_Lshift(a, b);
    default: return PyNumber_Rshift(a, b);
    }
}

static PyObject *
call2(PyObject *fn, PyObject *a, PyObject *b)
{
    if (fn == NULL)
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *args[2] = {a, b};
    return PyObject_Vectorcall(fn, args, 2, NULL);
}

/* `a OP b`: CPython calls a type's slot for `a OP b` when a's type has it (`forward`), and
   for the reflected `b OP a` when only b's type has it. */
static PyObject *
binary(int op, PyObject *a, PyObject *b, int forward)
{
    if (forward) {
        PyObject *ta = PAYLOAD(a);
        if (ta != NULL) {
            if (is_tensor(b)) {
                PyObject *tb = PAYLOAD(b);
                if (tb != NULL && same_dtype(ta, tb))
                    return wrap(apply(op, ta, tb));
            }
            else if (is_py_number(b) && is_floating(ta)
                     && !(op == OP_POW && float_attr_rounds(ta, b)))
                return wrap(apply(op, ta, b));
        }
        return call2(method[op], a, b);
    }
    /* `a OP x` with a not a Tensor: x's reflected method, x first. */
    PyObject *tb = PAYLOAD(b);
    if (tb != NULL && is_py_number(a) && is_floating(tb)) {
        if (op == OP_ADD || op == OP_MUL)            /* exact: IEEE + and * commute */
            return wrap(apply(op, tb, a));
        if (op == OP_SUB)
            return wrap(call2(rsub, tb, a));
    }
    return call2(reflected[op], b, a);
}

#define BINARY_SLOT(fname, op)                                                         \
    static PyObject *fname(PyObject *a, PyObject *b)                                   \
    {                                                                                  \
        PyNumberMethods *nb = Py_TYPE(a)->tp_as_number;                                \
        return binary(op, a, b, nb != NULL && nb->fname == fname);                     \
    }

BINARY_SLOT(nb_add, OP_ADD)
BINARY_SLOT(nb_subtract, OP_SUB)
BINARY_SLOT(nb_multiply, OP_MUL)
BINARY_SLOT(nb_true_divide, OP_DIV)
BINARY_SLOT(nb_floor_divide, OP_FLOORDIV)
BINARY_SLOT(nb_remainder, OP_MOD)
BINARY_SLOT(nb_matrix_multiply, OP_MATMUL)
BINARY_SLOT(nb_and, OP_AND)
BINARY_SLOT(nb_or, OP_OR)
BINARY_SLOT(nb_xor, OP_XOR)
BINARY_SLOT(nb_lshift, OP_LSHIFT)
BINARY_SLOT(nb_rshift, OP_RSHIFT)

static PyObject *
nb_power(PyObject *a, PyObject *b, PyObject *mod)
{
    if (mod != Py_None) {
        PyErr_SetString(PyExc_TypeError, "pow() with a modulus is not supported for Tensor");
        return NULL;
    }
    PyNumberMethods *nb = Py_TYPE(a)->tp_as_number;
    return binary(OP_POW, a, b, nb != NULL && nb->nb_power == nb_power);
}

/* -x: Tensor.__neg__ is wrap(-x._t) whatever the payload. */
static PyObject *
nb_negative(PyObject *x)
{
    PyObject *t = PAYLOAD(x);
    if (t == NULL)
        return PyObject_CallOneArg(neg_method, x);
    return wrap(PyNumber_Negative(t));
}

/* Rich comparison: CPython calls it with the Tensor first (swapping the operator itself). */
static PyObject *
richcompare(PyObject *a, PyObject *b, int op)
{
    PyObject *ta = PAYLOAD(a);
    if (ta != NULL) {
        if (is_tensor(b)) {
            PyObject *tb = PAYLOAD(b);
            if (tb != NULL && same_dtype(ta, tb))
                return wrap(PyObject_RichCompare(ta, tb, op));
        }
        else if (is_py_number(b) && is_floating(ta))
            return wrap(PyObject_RichCompare(ta, b, op));
    }
    return call2(compare[op], a, b);
}

/* One entry of a basic index: an int, None, Ellipsis, or a slice without a step whose bounds
   are None or ints. */
static int
basic_entry(PyObject *i, int *ellipses)
{
    if (PyLong_CheckExact(i) || i == Py_None)
        return 1;
    if (i == Py_Ellipsis)
        return ++*ellipses < 2;
    if (PySlice_Check(i)) {
        PySliceObject *s = (PySliceObject *)i;
        return s->step == Py_None
            && (s->start == Py_None || PyLong_CheckExact(s->start))
            && (s->stop == Py_None || PyLong_CheckExact(s->stop));
    }
    return 0;
}

static PyObject *
subscript(PyObject *x, PyObject *key)
{
    PyObject *t = PAYLOAD(x);
    if (t != NULL) {
        int ellipses = 0, basic;
        if (PyTuple_CheckExact(key)) {
            basic = 1;
            for (Py_ssize_t k = 0; basic && k < PyTuple_GET_SIZE(key); k++)
                basic = basic_entry(PyTuple_GET_ITEM(key, k), &ellipses);
        }
        else
            basic = basic_entry(key, &ellipses) && key != Py_None && key != Py_Ellipsis;
        if (basic)
            return wrap(PyObject_GetItem(t, key));
    }
    return call2(getitem_method, x, key);
}

/* ---------------------------------------------------------------- Paddle functions
 * framework/fastops.py wraps the Paddle functions marked with @fast_path in FastOp objects:
 * Python objects whose __call__ calls the function (what torch.compile traces) and whose
 * CPython call slot is `fastop_call` below. It runs the marked call forms with no Python frame
 * when every Tensor argument wraps a plain torch.Tensor; any other call, and any call torch
 * refuses, runs the Python function (which raises Paddle's error). The forms: */
enum {
    F_X = 1,            /* f(x)              -> fn(t, *extra) */
    F_X_INT = 2,        /* f(x, int)         -> fn(t, int) */
    F_X_INTS = 4,       /* f(x, [ints])      -> fn(t, [ints])  (a list or tuple of ints) */
    F_XY = 8,           /* f(x, y)           -> fn(tx, ty)     (one dtype) */
    F_SEQ = 16,         /* f([xs]), f([xs], int) -> fn([ts]), fn([ts], int)  (one dtype) */
    F_WHERE = 32,       /* f(c, x, y)        -> fn(tc, tx, ty) (bool c; x, y of one dtype) */
    F_NONZERO = 64,     /* with F_X_INTS: no 0 among the ints (Paddle's reshape copies a dim) */
    F_REAL = 128,       /* with F_X / F_X_INT / F_X_NUM: x is float16/bfloat16/float32/float64 */
    F_SHAPE = 256,      /* f([ints])         -> fn(*ints)          (creation defaults, below) */
    F_SHAPE_VALUE = 512,/* f([ints], float)  -> fn([ints], float)  (creation defaults, below) */
    F_X_DTYPE = 1024,   /* f(x, dtype)       -> fn(t, dtype=D)     (D from the dtype table,
                                                                    when t's dtype is not D) */
    F_X_NUM = 2048,     /* f(x, int/float)   -> fn(t, number)  (with F_REAL: x real) */
    F_INT = 4096,       /* f(int)            -> fn(int)        (creation defaults, below) */
    F_F32 = 8192,       /* with F_X_NUM: not a float that float64 x would see rounded to
                           float32 (Paddle's float attribute, float_attr_rounds) */
    F_INDEX = 16384,    /* f(x, i), f(x, i, int) -> fn(t, 0 or int, ti)  (i a 1-d Tensor) */
    F_DIM_INDEX = 32768,/* with F_INDEX: also f(x, int, i) -> fn(t, int, ti) (torch's order) */
};

static Py_ssize_t op_impl_off, op_fn_off, op_flags_off, op_extra_off, op_kw_off, op_kwpos_off,
    op_varargs_off;
static PyObject *bool_dtype;
static PyObject *dtype_table;       /* every str/DType/torch.dtype spelling -> torch dtype */
static PyObject *get_default_dtype; /* torch.get_default_dtype */
static PyObject *str_is_cpu, *kw_dtype;
/* Creation without dtype/device keywords gives Paddle's result only while Paddle's current
   device is the CPU (creation_cpu), torch's default dtype is Paddle's (creation_dtype, checked
   per call: torch code may change it) and torch has no default device (the result's is_cpu). */
static int creation_cpu;
static PyObject *creation_dtype;
static getter is_cpu_getter;        /* torch.Tensor.is_cpu's own getter, read like dtype_getter */
static void *is_cpu_closure;

#define OP_SLOT(o, off) (*(PyObject **)((char *)(o) + (off)))

/* x's torch tensor when x is a Tensor wrapping a plain torch.Tensor, else NULL. */
static inline PyObject *
plain(PyObject *x)
{
    if (!is_tensor(x))
        return NULL;
    PyObject *t = PAYLOAD(x);
    return t != NULL && Py_IS_TYPE(t, torch_tensor_type) ? t : NULL;
}

static int
is_real(PyObject *t)
{
    PyObject *d = dtype_getter(t, dtype_closure);
    if (d == NULL) {
        PyErr_Clear();
        return 0;
    }
    int found = d == real[0] || d == real[1] || d == real[2] || d == real[3];
    Py_DECREF(d);
    return found;
}

static int
ints(PyObject *seq, int nonzero)
{
    if (!PyList_CheckExact(seq) && !PyTuple_CheckExact(seq))
        return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_CheckExact(items[i]))
            return 0;
        if (nonzero && PyObject_Not(items[i]))
            return 0;
    }
    return 1;
}

/* The list of torch tensors in seq when it is a non-empty list/tuple of plain Tensors of one
   dtype, else NULL (a new reference). */
static PyObject *
joinable(PyObject *seq)
{
    if (!PyList_CheckExact(seq) && !PyTuple_CheckExact(seq))
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n == 0)
        return NULL;
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        PyErr_Clear();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = plain(items[i]);
        if (t == NULL || (i > 0 && !same_dtype(PyList_GET_ITEM(out, 0), t))) {
            Py_DECREF(out);
            return NULL;
        }
        Py_INCREF(t);
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

/* The result of the fast form, or NULL (no error set) where it does not apply. */
static PyObject *
fast_call(PyObject *op, PyObject *args)
{
    long flags = PyLong_AsLong(OP_SLOT(op, op_flags_off));
    PyObject *fn = OP_SLOT(op, op_fn_off);
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *argv[4], *r = NULL, *t;
    if (flags == -1 || fn == NULL || n == 0) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *a0 = PyTuple_GET_ITEM(args, 0);
    if (flags & F_SEQ) {
        if (n > 2 || (n == 2 && !PyLong_CheckExact(PyTuple_GET_ITEM(args, 1))))
            return NULL;
        PyObject *ts = joinable(a0);
        if (ts == NULL)
            return NULL;
        argv[0] = ts;
        if (n == 2)
            argv[1] = PyTuple_GET_ITEM(args, 1);
        r = PyObject_Vectorcall(fn, argv, n, NULL);
        Py_DECREF(ts);
    }
    else if (flags & F_WHERE) {
        PyObject *c, *a, *b, *dc;
        if (n != 3 || (c = plain(a0)) == NULL
                || (a = plain(PyTuple_GET_ITEM(args, 1))) == NULL
                || (b = plain(PyTuple_GET_ITEM(args, 2))) == NULL || !same_dtype(a, b))
            return NULL;
        if ((dc = dtype_getter(c, dtype_closure)) == NULL) {
            PyErr_Clear();
            return NULL;
        }
        int is_bool = dc == bool_dtype;
        Py_DECREF(dc);
        if (!is_bool)
            return NULL;
        argv[0] = c, argv[1] = a, argv[2] = b;
        r = PyObject_Vectorcall(fn, argv, 3, NULL);
    }
    else if (flags & (F_SHAPE | F_SHAPE_VALUE | F_INT)) {
        int one_int = n == 1 && (flags & F_INT) && PyLong_CheckExact(a0);
        if (!creation_cpu || creation_dtype == NULL)
            return NULL;
        if (!one_int && (!ints(a0, 0)
                         || (!(n == 1 && (flags & F_SHAPE))
                             && !(n == 2 && (flags & F_SHAPE_VALUE)
                                  && PyFloat_CheckExact(PyTuple_GET_ITEM(args, 1))))))
            return NULL;
        PyObject *d = PyObject_CallNoArgs(get_default_dtype);
        if (d == NULL) {
            PyErr_Clear();
            return NULL;
        }
        int ok = d == creation_dtype;
        Py_DECREF(d);
        if (!ok)
            return NULL;
        if (one_int)
            r = PyObject_Vectorcall(fn, &a0, 1, NULL);
        else if (n == 1) {  /* fn(2, 3): torch parses the dims ~1 us faster than fn([2, 3]) */
            Py_ssize_t k = PySequence_Fast_GET_SIZE(a0);
            if (k == 0 || k > 8)
                return NULL;
            PyObject *dims[8];
            for (Py_ssize_t i = 0; i < k; i++)
                dims[i] = PySequence_Fast_GET_ITEM(a0, i);
            r = PyObject_Vectorcall(fn, dims, k, NULL);
        }
        else {
            argv[0] = a0;
            argv[1] = PyTuple_GET_ITEM(args, 1);
            r = PyObject_Vectorcall(fn, argv, 2, NULL);
        }
        if (r != NULL) {
            PyObject *cpu = Py_IS_TYPE(r, torch_tensor_type) ? is_cpu_getter(r, is_cpu_closure)
                                                              : PyObject_GetAttr(r, str_is_cpu);
            Py_XDECREF(cpu);
            if (cpu != Py_True) {           /* under torch.set_default_device */
                Py_CLEAR(r);
            }
        }
    }
    else if (flags & F_INDEX) {
        PyObject *ti, *nd, *dim = zero;
        if (n < 2 || n > 3 || (t = plain(a0)) == NULL)
            return NULL;
        if ((ti = plain(PyTuple_GET_ITEM(args, 1))) != NULL) {
            if (n == 3 && !PyLong_CheckExact(dim = PyTuple_GET_ITEM(args, 2)))
                return NULL;
        }
        else if (!((flags & F_DIM_INDEX) && n == 3
                   && PyLong_CheckExact(dim = PyTuple_GET_ITEM(args, 1))
                   && (ti = plain(PyTuple_GET_ITEM(args, 2))) != NULL))
            return NULL;
        if ((nd = PyObject_GetAttr(ti, str_ndim)) == NULL) {
            PyErr_Clear();
            return NULL;
        }
        int one_d = PyLong_CheckExact(nd) && PyLong_AsLong(nd) == 1;
        Py_DECREF(nd);
        if (!one_d)
            return NULL;
        argv[0] = t;
        argv[1] = dim;
        argv[2] = ti;
        r = PyObject_Vectorcall(fn, argv, 3, NULL);
    }
    else if ((flags & F_X_DTYPE) && n == 2) {
        PyObject *d, *dt;
        if ((t = plain(a0)) == NULL)
            return NULL;
        d = PyDict_GetItemWithError(dtype_table, PyTuple_GET_ITEM(args, 1));   /* borrowed */
        if (d == NULL || (dt = dtype_getter(t, dtype_closure)) == NULL) {
            PyErr_Clear();
            return NULL;
        }
        int same = dt == d;
        Py_DECREF(dt);
        if (same)                           /* the function decides what "no change" gives */
            return NULL;
        argv[0] = t, argv[1] = d;
        r = PyObject_Vectorcall(fn, argv, 1, kw_dtype);
    }
    else {
        if ((t = plain(a0)) == NULL)
            return NULL;
        argv[0] = t;
        if (n == 1 && (flags & F_X)) {
            if ((flags & F_REAL) && !is_real(t))
                return NULL;
            PyObject *extra = OP_SLOT(op, op_extra_off);
            Py_ssize_t k = extra != NULL && PyTuple_Check(extra) ? PyTuple_GET_SIZE(extra) : 0;
            if (k > 3)
                return NULL;
            for (Py_ssize_t i = 0; i < k; i++)
                argv[1 + i] = PyTuple_GET_ITEM(extra, i);
            r = PyObject_Vectorcall(fn, argv, 1 + k, NULL);
        }
        else if (n == 2) {
            PyObject *a1 = PyTuple_GET_ITEM(args, 1), *t1;
            if (((flags & F_X_INT) && PyLong_CheckExact(a1))
                    || ((flags & F_X_NUM) && (PyLong_CheckExact(a1) || PyFloat_CheckExact(a1)))) {
                if ((flags & F_REAL) && !is_real(t))
                    return NULL;
                if ((flags & F_F32) && float_attr_rounds(t, a1))
                    return NULL;
            }
            else if (!((flags & F_X_INTS) && ints(a1, flags & F_NONZERO))) {
                if (!(flags & F_XY) || (t1 = plain(a1)) == NULL || !same_dtype(t, t1))
                    return NULL;
                a1 = t1;
            }
            argv[1] = a1;
            r = PyObject_Vectorcall(fn, argv, 2, NULL);
        }
        else
            return NULL;
    }
    if (r == NULL) {            /* torch refused: the Python function gives Paddle's error */
        PyErr_Clear();
        return NULL;
    }
    return wrap(r);
}

static PyObject *
fastop_call(PyObject *op, PyObject *args, PyObject *kwargs)
{
    if (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0) {
        /* sizes as varargs (zeros(2, 3), x.reshape(3, 2)): the ints from position `start`
           on, as one list (ops/spelling.py) */
        PyObject *va = OP_SLOT(op, op_varargs_off);
        Py_ssize_t start = (va != NULL && va != Py_None) ? PyLong_AsSsize_t(va) : -1;
        Py_ssize_t na = PyTuple_GET_SIZE(args);
        if (start >= 0 && na > start && PyLong_Check(PyTuple_GET_ITEM(args, start))) {
            PyObject *sizes = PyTuple_GetSlice(args, start, na);
            PyObject *list = sizes != NULL ? PySequence_List(sizes) : NULL;
            PyObject *packed = list != NULL ? PyTuple_New(start + 1) : NULL;
            Py_XDECREF(sizes);
            if (packed != NULL) {
                for (Py_ssize_t i = 0; i < start; i++) {
                    Py_INCREF(PyTuple_GET_ITEM(args, i));
                    PyTuple_SET_ITEM(packed, i, PyTuple_GET_ITEM(args, i));
                }
                PyTuple_SET_ITEM(packed, start, list);
                list = NULL;
                PyObject *r = fast_call(op, packed);
                Py_DECREF(packed);
                if (r != NULL)
                    return r;
            }
            Py_XDECREF(list);
            PyErr_Clear();
        }
        else {
            PyObject *r = fast_call(op, args);
            if (r != NULL)
                return r;
        }
    }
    else {
        /* keywords that name leading parameters (f(x, axis=1), or their torch-style aliases:
           f(input=x, dim=1), ops/spelling.py) as the positional form; anything else, a
           parameter given twice included, is the function's to handle */
        PyObject *kwpos = OP_SLOT(op, op_kwpos_off);
        Py_ssize_t na = PyTuple_GET_SIZE(args), n = na + PyDict_GET_SIZE(kwargs);
        if (kwpos != NULL && kwpos != Py_None && n <= 4) {
            PyObject *slots[4] = {NULL, NULL, NULL, NULL}, *key, *value;
            Py_ssize_t i, pos = 0;
            int ok = 1;
            for (i = 0; i < na; i++)
                slots[i] = PyTuple_GET_ITEM(args, i);
            while (ok && PyDict_Next(kwargs, &pos, &key, &value)) {
                PyObject *at = PyDict_GetItemWithError(kwpos, key);
                long k = at != NULL ? PyLong_AsLong(at) : -1;
                if (k < 0 || k >= n || slots[k] != NULL)
                    ok = 0;
                else
                    slots[k] = value;
            }
            PyErr_Clear();
            if (ok) {
                PyObject *all = PyTuple_New(n);
                if (all != NULL) {
                    for (i = 0; i < n; i++) {
                        Py_INCREF(slots[i]);
                        PyTuple_SET_ITEM(all, i, slots[i]);
                    }
                    PyObject *r = fast_call(op, all);
                    Py_DECREF(all);
                    if (r != NULL)
                        return r;
                }
                PyErr_Clear();
            }
        }
    }
    PyObject *impl = OP_SLOT(op, op_impl_off);
    if (impl == NULL) {
        PyErr_SetString(PyExc_TypeError, "FastOp without a function");
        return NULL;
    }
    return PyObject_Call(impl, args, kwargs);
}

/* `x.reshape` (Tensor's __getattr__ hook makes CPython look methods up this way): a bound
   method of the FastOp, whose call then reaches fastop_call. */
static PyObject *
fastop_get(PyObject *op, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(op);
        return op;
    }
    return PyMethod_New(op, obj);
}

static int
slot_offset(PyTypeObject *cls, const char *name, Py_ssize_t *off)
{
    PyObject *d = PyDict_GetItemString(cls->tp_dict, name);
    if (d == NULL || !Py_IS_TYPE(d, &PyMemberDescr_Type)
            || ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "install_ops(): the class needs a `%s` slot", name);
        return -1;
    }
    *off = ((PyMemberDescrObject *)d)->d_member->offset;
    return 0;
}

static PyObject *
install_ops(PyObject *self, PyObject *args)
{
    PyObject *cls_obj, *reals, *bool_dt, *table, *get_default;
    if (!PyArg_ParseTuple(args, "O!OOO!O:install_ops", &PyType_Type, &cls_obj, &reals, &bool_dt,
                          &PyDict_Type, &table, &get_default))
        return NULL;
    PyTypeObject *cls = (PyTypeObject *)cls_obj;
    if (tensor_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "install_ops(): install() the Tensor class first");
        return NULL;
    }
    if (!(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || !PyTuple_Check(reals)
            || PyTuple_GET_SIZE(reals) != 4) {
        PyErr_SetString(PyExc_TypeError, "install_ops(): a Python class and 4 real dtypes");
        return NULL;
    }
    if (slot_offset(cls, "_impl", &op_impl_off) < 0 || slot_offset(cls, "_fn", &op_fn_off) < 0
            || slot_offset(cls, "_flags", &op_flags_off) < 0
            || slot_offset(cls, "_extra", &op_extra_off) < 0
            || slot_offset(cls, "_kw", &op_kw_off) < 0
            || slot_offset(cls, "_kwpos", &op_kwpos_off) < 0
            || slot_offset(cls, "_varargs", &op_varargs_off) < 0)
        return NULL;
    for (int i = 0; i < 4; i++) {
        Py_INCREF(PyTuple_GET_ITEM(reals, i));
        Py_XSETREF(real[i], PyTuple_GET_ITEM(reals, i));
    }
    Py_INCREF(bool_dt);
    Py_XSETREF(bool_dtype, bool_dt);
    Py_INCREF(table);
    Py_XSETREF(dtype_table, table);
    Py_INCREF(get_default);
    Py_XSETREF(get_default_dtype, get_default);
    if (kw_dtype == NULL && (kw_dtype = Py_BuildValue("(s)", "dtype")) == NULL)
        return NULL;
    if (str_is_cpu == NULL && (str_is_cpu = PyUnicode_InternFromString("is_cpu")) == NULL)
        return NULL;
    PyObject *is_cpu = PyObject_GetAttr((PyObject *)torch_tensor_type, str_is_cpu);
    if (is_cpu == NULL)
        return NULL;
    int getset = Py_IS_TYPE(is_cpu, &PyGetSetDescr_Type);
    if (getset) {
        is_cpu_getter = ((PyGetSetDescrObject *)is_cpu)->d_getset->get;
        is_cpu_closure = ((PyGetSetDescrObject *)is_cpu)->d_getset->closure;
    }
    Py_DECREF(is_cpu);          /* torch.Tensor keeps the descriptor alive */
    if (!getset) {
        PyErr_SetString(PyExc_TypeError, "install_ops(): torch.Tensor.is_cpu is not a getset");
        return NULL;
    }
    cls->tp_call = fastop_call;
    cls->tp_descr_get = fastop_get;
    /* As a class attribute (Tensor.reshape) it acts as an unbound method: `x.reshape(s)` calls
       it as `op(x, s)`, with no bound-method object (what its __get__ would make). */
    cls->tp_flags |= Py_TPFLAGS_METHOD_DESCRIPTOR;
    PyType_Modified(cls);
    Py_RETURN_NONE;
}

/* The function in cls.__dict__ (or a base's) for `name`: a new reference, or NULL. */
static PyObject *
lookup(PyTypeObject *cls, const char *name)
{
    PyObject *v = PyObject_GetAttrString((PyObject *)cls, name);
    if (v == NULL)
        PyErr_Clear();
    return v;
}

/* Put the C slots into `cls`, which must be Tensor or a subclass of it that overrides none of
   the operators. */
static int
patch(PyTypeObject *cls)
{
    if (!(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || cls->tp_as_number == NULL
            || cls->tp_as_mapping == NULL) {
        PyErr_SetString(PyExc_TypeError, "install() needs a Python class");
        return -1;
    }
    PyNumberMethods *nb = cls->tp_as_number;
    nb->nb_add = nb_add;
    nb->nb_subtract = nb_subtract;
    nb->nb_multiply = nb_multiply;
    nb->nb_true_divide = nb_true_divide;
    nb->nb_floor_divide = nb_floor_divide;
    nb->nb_remainder = nb_remainder;
    nb->nb_power = nb_power;
    nb->nb_matrix_multiply = nb_matrix_multiply;
    nb->nb_and = nb_and;
    nb->nb_or = nb_or;
    nb->nb_xor = nb_xor;
    nb->nb_lshift = nb_lshift;
    nb->nb_rshift = nb_rshift;
    nb->nb_negative = nb_negative;
    cls->tp_richcompare = richcompare;
    cls->tp_as_mapping->mp_subscript = subscript;
    PyType_Modified(cls);
    return 0;
}

static PyObject *
install(PyObject *self, PyObject *args)
{
    PyObject *cls_obj, *floats, *rsub_fn, *ttype, *dtype_descr;
    if (!PyArg_ParseTuple(args, "O!OOO!O:install", &PyType_Type, &cls_obj, &floats, &rsub_fn,
                          &PyType_Type, &ttype, &dtype_descr))
        return NULL;
    PyTypeObject *cls = (PyTypeObject *)cls_obj;

    if (tensor_type == NULL) {                  /* the first call names the Tensor class */
        PyObject *d = PyDict_GetItemString(cls->tp_dict, "_t");
        if (d == NULL || !Py_IS_TYPE(d, &PyMemberDescr_Type)
                || ((PyMemberDescrObject *)d)->d_member->type != T_OBJECT_EX) {
            PyErr_SetString(PyExc_TypeError, "install(): the class needs a `_t` slot");
            return NULL;
        }
        t_offset = ((PyMemberDescrObject *)d)->d_member->offset;
        if (!Py_IS_TYPE(dtype_descr, &PyGetSetDescr_Type)
                || !PyType_IsSubtype((PyTypeObject *)ttype, PyDescr_TYPE(dtype_descr))) {
            PyErr_SetString(PyExc_TypeError,
                            "install(): dtype_descr must be the torch tensor's dtype getset");
            return NULL;
        }
        dtype_getter = ((PyGetSetDescrObject *)dtype_descr)->d_getset->get;
        dtype_closure = ((PyGetSetDescrObject *)dtype_descr)->d_getset->closure;
        Py_INCREF(ttype);
        torch_tensor_type = (PyTypeObject *)ttype;
        PyObject *seq = PySequence_Fast(floats, "install(): floating dtypes must be a sequence");
        if (seq == NULL)
            return NULL;
        if (PySequence_Fast_GET_SIZE(seq) > 8) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "install(): at most 8 floating dtypes");
            return NULL;
        }
        n_floating = (int)PySequence_Fast_GET_SIZE(seq);
        for (int i = 0; i < n_floating; i++) {
            floating[i] = PySequence_Fast_GET_ITEM(seq, i);
            Py_INCREF(floating[i]);
        }
        Py_DECREF(seq);
        for (int op = 0; op < N_OPS; op++) {
            method[op] = lookup(cls, op_names[op][0]);
            reflected[op] = lookup(cls, op_names[op][1]);
            if (method[op] == NULL) {
                PyErr_Format(PyExc_TypeError, "install(): the class has no %s", op_names[op][0]);
                return NULL;
            }
        }
        for (int op = 0; op < 6; op++)
            if ((compare[op] = lookup(cls, cmp_names[op])) == NULL) {
                PyErr_Format(PyExc_TypeError, "install(): the class has no %s", cmp_names[op]);
                return NULL;
            }
        if ((neg_method = lookup(cls, "__neg__")) == NULL) {
            PyErr_SetString(PyExc_TypeError, "install(): the class has no __neg__");
            return NULL;
        }
        if ((getitem_method = lookup(cls, "__getitem__")) == NULL) {
            PyErr_SetString(PyExc_TypeError, "install(): the class has no __getitem__");
            return NULL;
        }
        Py_INCREF(rsub_fn);
        rsub = rsub_fn;
        Py_INCREF(cls);
        tensor_type = cls;
    }
    else if (!PyType_IsSubtype(cls, tensor_type)) {
        PyErr_SetString(PyExc_TypeError, "install(): not a subclass of the Tensor class");
        return NULL;
    }
    if (patch(cls) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *
set_creation_defaults(PyObject *self, PyObject *args)
{
    int cpu;
    PyObject *dt;
    if (!PyArg_ParseTuple(args, "pO:set_creation_defaults", &cpu, &dt))
        return NULL;
    creation_cpu = cpu;
    Py_INCREF(dt);
    Py_XSETREF(creation_dtype, dt);
    Py_RETURN_NONE;
}

static PyObject *
installed(PyObject *self, PyObject *cls)
{
    if (!PyType_Check(cls))
        Py_RETURN_FALSE;
    PyTypeObject *c = (PyTypeObject *)cls;
    return PyBool_FromLong(c->tp_richcompare == richcompare && c->tp_as_number != NULL
                           && c->tp_as_number->nb_multiply == nb_multiply
                           && c->tp_as_mapping != NULL
                           && c->tp_as_mapping->mp_subscript == subscript
                           && c->tp_as_number->nb_negative == nb_negative);
}

static PyMethodDef methods[] = {
    {"install", install, METH_VARARGS,
     "install(cls, floating_dtypes, rsub, torch_tensor_type, dtype_descr): put the C operator "
     "slots into cls (first: the Tensor class itself; later: subclasses that override no "
     "operator). dtype_descr is the getset descriptor that torch_tensor_type.dtype resolves to."},
    {"installed", installed, METH_O, "installed(cls): whether cls uses the C slots."},
    {"install_ops", install_ops, METH_VARARGS,
     "install_ops(FastOp, real_dtypes, bool_dtype, dtype_table, torch.get_default_dtype): give "
     "the FastOp class the C call slot (after install())."},
    {"set_creation_defaults", set_creation_defaults, METH_VARARGS,
     "set_creation_defaults(current_device_is_cpu, paddle_default_torch_dtype)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_fastops",
    "The Tensor's operator and indexing slots in C (see the source for what they cover).",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__fastops(void)
{
    str_dtype = PyUnicode_InternFromString("dtype");
    str_ndim = PyUnicode_InternFromString("ndim");
    zero = PyLong_FromLong(0);
    if (str_dtype == NULL || str_ndim == NULL || zero == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    struct { const char *name; int value; } forms[] = {
        {"X", F_X}, {"X_INT", F_X_INT}, {"X_INTS", F_X_INTS}, {"XY", F_XY}, {"SEQ", F_SEQ},
        {"WHERE", F_WHERE}, {"NONZERO", F_NONZERO}, {"REAL", F_REAL}, {"SHAPE", F_SHAPE},
        {"SHAPE_VALUE", F_SHAPE_VALUE}, {"X_DTYPE", F_X_DTYPE}, {"X_NUM", F_X_NUM},
        {"INT", F_INT}, {"F32", F_F32}, {"INDEX", F_INDEX},
        {"DIM_INDEX", F_DIM_INDEX},
    };
    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
        if (PyModule_AddIntConstant(m, forms[i].name, forms[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
