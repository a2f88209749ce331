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
static PyObject *method[N_OPS], *reflected[N_OPS], *compare[6], *getitem_method;
static PyObject *rsub;                      /* torch.rsub, for `scalar - x` */
static PyObject *floating[8];
static int n_floating;
static PyObject *str_dtype;
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
            else if (is_py_number(b) && is_floating(ta))
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
installed(PyObject *self, PyObject *cls)
{
    if (!PyType_Check(cls))
        Py_RETURN_FALSE;
    PyTypeObject *c = (PyTypeObject *)cls;
    return PyBool_FromLong(c->tp_richcompare == richcompare && c->tp_as_number != NULL
                           && c->tp_as_number->nb_multiply == nb_multiply
                           && c->tp_as_mapping != NULL
                           && c->tp_as_mapping->mp_subscript == subscript);
}

static PyMethodDef methods[] = {
    {"install", install, METH_VARARGS,
     "install(cls, floating_dtypes, rsub, torch_tensor_type, dtype_descr): put the C operator "
     "slots into cls (first: the Tensor class itself; later: subclasses that override no "
     "operator). dtype_descr is the getset descriptor that torch_tensor_type.dtype resolves to."},
    {"installed", installed, METH_O, "installed(cls): whether cls uses the C slots."},
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
    if (str_dtype == NULL)
        return NULL;
    return PyModule_Create(&module);
}
