// The Python side of a custom-op extension, compiled into every extension built by
// paddle_compat.utils.cpp_extension. It exposes the ops the extension's sources registered
// with PD_BUILD_OP and runs their kernels and shape/dtype functions on torch tensors.
//
//   ops()                               -> [(name, index, inputs, outputs, attrs, inplace_map,
//                                            has_kernel, has_infer_shape, has_infer_dtype)]
//   run(i, inputs, attrs)               -> [Tensor | [Tensor] | None per output]
//   infer_shape(i, shapes, attrs)       -> [[int]]
//   infer_dtype(i, dtypes, attrs)       -> [torch.dtype]
//
// `i` indexes ops(); an input is a Tensor, a list of Tensors or None; attributes arrive already
// checked and converted by Python (int, float, bool, str or lists of them).
#include <torch/extension.h>

#include <string>
#include <vector>

#include "paddle/extension.h"

namespace py = pybind11;

namespace {

enum class AttrType { kBool, kInt, kFloat, kDouble, kInt64, kString, kVecInt, kVecFloat, kVecDouble,
                      kVecInt64, kVecString, kVecBool };

AttrType ParseAttrType(const std::string& decl) {
  auto pos = decl.find(':');
  std::string t = pos == std::string::npos ? "" : decl.substr(pos + 1);
  std::string s;
  for (char c : t)
    if (c != ' ' && c != '\t') s += c;
  if (s == "bool") return AttrType::kBool;
  if (s == "int") return AttrType::kInt;
  if (s == "float") return AttrType::kFloat;
  if (s == "double") return AttrType::kDouble;
  if (s == "int64_t") return AttrType::kInt64;
  if (s == "std::string") return AttrType::kString;
  if (s == "std::vector<int>") return AttrType::kVecInt;
  if (s == "std::vector<float>") return AttrType::kVecFloat;
  if (s == "std::vector<double>") return AttrType::kVecDouble;
  if (s == "std::vector<int64_t>") return AttrType::kVecInt64;
  if (s == "std::vector<std::string>") return AttrType::kVecString;
  if (s == "std::vector<bool>") return AttrType::kVecBool;
  throw paddle::PD_Exception("unsupported attribute declaration '" + decl + "'",
                             paddle::ErrorKind::kInvalidArgument);
}

template <typename T>
std::vector<T> ToVec(py::handle h) {
  std::vector<T> out;
  for (auto item : h) out.push_back(item.cast<T>());
  return out;
}

paddle::any ToAny(AttrType t, py::handle h) {
  switch (t) {
    case AttrType::kBool: return h.cast<bool>();
    case AttrType::kInt: return h.cast<int>();
    case AttrType::kFloat: return h.cast<float>();
    case AttrType::kDouble: return h.cast<double>();
    case AttrType::kInt64: return h.cast<int64_t>();
    case AttrType::kString: return h.cast<std::string>();
    case AttrType::kVecInt: return ToVec<int>(h);
    case AttrType::kVecFloat: return ToVec<float>(h);
    case AttrType::kVecDouble: return ToVec<double>(h);
    case AttrType::kVecInt64: return ToVec<int64_t>(h);
    case AttrType::kVecString: return ToVec<std::string>(h);
    case AttrType::kVecBool: return ToVec<bool>(h);
  }
  return {};
}

bool EndsWith(const std::string& s, const char* suffix) {
  const size_t n = std::char_traits<char>::length(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}
bool IsVectorName(const std::string& s) { return s.find(paddle::kTensorVectorSuffix) != std::string::npos; }

// Per-op facts parsed once.
struct OpInfo {
  const paddle::OpMetaInfo* meta;
  std::vector<AttrType> attr_types;
  std::vector<bool> input_is_vector;
  std::vector<bool> output_is_vector;
  std::vector<int> inplace_of;        // per output: the input it is written into, or -1
};

std::vector<OpInfo>& Ops() {
  static std::vector<OpInfo> ops = [] {
    std::vector<OpInfo> v;
    for (const auto& m : paddle::compat::Registry()) {
      OpInfo info{&m, {}, {}, {}, {}};
      for (const auto& a : m.attrs) info.attr_types.push_back(ParseAttrType(a));
      for (const auto& n : m.inputs) info.input_is_vector.push_back(IsVectorName(n));
      for (const auto& n : m.outputs) info.output_is_vector.push_back(IsVectorName(n));
      info.inplace_of.assign(m.outputs.size(), -1);
      for (const auto& kv : m.inplace_map) {
        int in_idx = -1, out_idx = -1;
        for (size_t k = 0; k < m.inputs.size(); ++k)
          if (m.inputs[k] == kv.first) in_idx = static_cast<int>(k);
        for (size_t k = 0; k < m.outputs.size(); ++k)
          if (m.outputs[k] == kv.second) out_idx = static_cast<int>(k);
        if (in_idx >= 0 && out_idx >= 0) info.inplace_of[out_idx] = in_idx;
      }
      v.push_back(std::move(info));
    }
    return v;
  }();
  return ops;
}

const OpInfo& Op(size_t i) {
  auto& ops = Ops();
  if (i >= ops.size()) throw std::out_of_range("no custom op with this index");
  return ops[i];
}

std::vector<paddle::any> ToAttrs(const OpInfo& op, const py::list& attrs) {
  std::vector<paddle::any> out;
  out.reserve(op.attr_types.size());
  size_t i = 0;
  for (auto h : attrs) {
    if (i >= op.attr_types.size()) break;
    out.push_back(ToAny(op.attr_types[i++], h));
  }
  return out;
}

// Python exception type for a PD_Exception kind (as Paddle's Python layer raises them).
PyObject* PyErrorType(paddle::ErrorKind k) {
  switch (k) {
    case paddle::ErrorKind::kInvalidArgument: return PyExc_ValueError;
    case paddle::ErrorKind::kOutOfRange: return PyExc_IndexError;
    case paddle::ErrorKind::kResourceExhausted: return PyExc_MemoryError;
    case paddle::ErrorKind::kUnimplemented: return PyExc_NotImplementedError;
    case paddle::ErrorKind::kFatal: return PyExc_SystemError;
    case paddle::ErrorKind::kNotFound:
    case paddle::ErrorKind::kAlreadyExists:
    case paddle::ErrorKind::kPreconditionNotMet:
    case paddle::ErrorKind::kPermissionDenied:
    case paddle::ErrorKind::kExecutionTimeout:
    case paddle::ErrorKind::kUnavailable: return PyExc_RuntimeError;
    default: return PyExc_OSError;
  }
}

// Runs fn, turning C++ errors into Python ones whose message names the op and the stage.
template <typename F>
auto Guarded(const OpInfo& op, const char* stage, F&& fn) -> decltype(fn()) {
  auto where = [&] {
    return std::string("(custom op '") + op.meta->name + "', " + stage + ") ";
  };
  try {
    return fn();
  } catch (const paddle::PD_Exception& e) {
    PyErr_SetString(PyErrorType(e.kind()), (where() + e.what()).c_str());
  } catch (const std::bad_any_cast& e) {
    PyErr_SetString(PyExc_TypeError, (where() + "attribute type mismatch: " + e.what()).c_str());
  } catch (const c10::Error& e) {
    PyErr_SetString(PyExc_RuntimeError, (where() + e.what_without_backtrace()).c_str());
  } catch (const py::error_already_set&) {
    throw;
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, (where() + e.what()).c_str());
  }
  throw py::error_already_set();
}

at::Tensor ToTensor(py::handle h) {
  if (!THPVariable_Check(h.ptr())) throw py::type_error("custom op input is not a tensor");
  return THPVariable_Unpack(h.ptr());
}

py::list Run(size_t index, const py::list& inputs, const py::list& attrs) {
  const OpInfo& op = Op(index);
  if (op.meta->kernel == nullptr)
    throw py::value_error("custom op '" + op.meta->name + "' has no kernel (SetKernelFn was not called)");
  paddle::CustomOpKernelContext ctx;
  ctx.inputs.resize(op.input_is_vector.size());
  // Kernels index data as dense row-major arrays: non-contiguous inputs are passed as
  // contiguous copies (in-place ones are written back below).
  std::vector<at::Tensor> originals(ctx.inputs.size());
  size_t i = 0;
  for (auto h : inputs) {
    if (i >= ctx.inputs.size()) break;
    auto& slot = ctx.inputs[i];
    slot.is_vector = op.input_is_vector[i];
    if (h.is_none()) {
      slot.present = false;
    } else if (slot.is_vector) {
      for (auto t : h) slot.tensors.emplace_back(ToTensor(t).contiguous());
    } else {
      originals[i] = ToTensor(h);
      slot.tensor = paddle::Tensor(originals[i].contiguous());
    }
    ++i;
  }
  auto attr_values = Guarded(op, "attributes", [&] { return ToAttrs(op, attrs); });
  ctx.attrs = std::move(attr_values);
  ctx.outputs.resize(op.output_is_vector.size());
  ctx.output_is_vector = op.output_is_vector;
  for (int src : op.inplace_of) ctx.output_is_inplace.push_back(src >= 0);
  // The GIL is released inside the guard, so it is held again when an error is reported.
  Guarded(op, "kernel", [&] {
    py::gil_scoped_release no_gil;
    op.meta->kernel(&ctx);
    return 0;
  });
  py::list out;
  // In-place outputs are their inputs (written back when the kernel rebound the handle).
  for (size_t o = 0; o < ctx.outputs.size(); ++o) {
    const bool declared = o < op.output_is_vector.size();
    const int src = declared ? op.inplace_of[o] : -1;
    if (src >= 0) {
      auto& slot = ctx.inputs[src];
      if (!slot.present) {
        out.append(py::none());
      } else if (slot.is_vector) {
        out.append(py::none());  // Python hands back the input list itself
      } else {
        const at::Tensor& now = slot.tensor.aten();
        const at::Tensor& was = originals[src];
        // A kernel that rebound the handle, or worked on a contiguous copy: copy back.
        if (now.defined() && was.defined() && !now.is_same(was)) {
          Guarded(op, "in-place output", [&] {
            py::gil_scoped_release no_gil;
            if (now.data_ptr() != was.data_ptr()) was.copy_(now);
            return 0;
          });
        }
        out.append(py::none());
      }
      continue;
    }
    const auto& ts = ctx.outputs[o];
    if (declared && op.output_is_vector[o]) {
      py::list l;
      for (const auto& t : ts) l.append(t.aten().defined() ? py::cast(t.aten()) : py::none());
      out.append(l);
    } else if (!ts.empty() && ts[0].aten().defined()) {
      out.append(py::cast(ts[0].aten()));
    } else {
      out.append(py::none());
    }
  }
  return out;
}

py::list InferShape(size_t index, const py::list& shapes, const py::list& attrs) {
  const OpInfo& op = Op(index);
  std::vector<std::optional<std::vector<int64_t>>> single;
  std::vector<std::optional<std::vector<std::vector<int64_t>>>> vec;
  size_t i = 0;
  for (auto h : shapes) {
    const bool is_vec = i < op.input_is_vector.size() && op.input_is_vector[i];
    ++i;
    if (is_vec) {
      if (h.is_none()) vec.emplace_back(std::nullopt);
      else vec.emplace_back(ToVec<std::vector<int64_t>>(h));
    } else {
      if (h.is_none()) single.emplace_back(std::nullopt);
      else single.emplace_back(ToVec<int64_t>(h));
    }
  }
  auto a = Guarded(op, "attributes", [&] { return ToAttrs(op, attrs); });
  // As in Paddle, InferShape never sees std::vector<int64_t> attributes: that type is how it
  // receives input shapes.
  std::vector<paddle::any> shape_attrs;
  for (size_t k = 0; k < a.size(); ++k)
    if (op.attr_types[k] != AttrType::kVecInt64) shape_attrs.push_back(std::move(a[k]));
  auto r = Guarded(op, "InferShape", [&] { return op.meta->infer_shape(single, vec, shape_attrs); });
  return py::cast(r);
}

py::list InferDtype(size_t index, const py::list& dtypes, const py::list& attrs) {
  const OpInfo& op = Op(index);
  auto parse = [](py::handle h) { return paddle::compat::FromScalarType(h.cast<at::ScalarType>()); };
  std::vector<std::optional<paddle::DataType>> single;
  std::vector<std::optional<std::vector<paddle::DataType>>> vec;
  size_t i = 0;
  for (auto h : dtypes) {
    const bool is_vec = i < op.input_is_vector.size() && op.input_is_vector[i];
    ++i;
    if (is_vec) {
      if (h.is_none()) {
        vec.emplace_back(std::nullopt);
      } else {
        std::vector<paddle::DataType> v;
        for (auto d : h) v.push_back(parse(d));
        vec.emplace_back(std::move(v));
      }
    } else {
      if (h.is_none()) single.emplace_back(std::nullopt);
      else single.emplace_back(parse(h));
    }
  }
  auto a = Guarded(op, "attributes", [&] { return ToAttrs(op, attrs); });
  auto r = Guarded(op, "InferDtype", [&] { return op.meta->infer_dtype(single, vec, a); });
  py::list out;
  for (auto d : r) out.append(py::cast(paddle::compat::ToScalarType(d)));
  return out;
}

py::list ListOps() {
  py::list out;
  for (const auto& op : Ops()) {
    const auto& m = *op.meta;
    py::list inplace;
    for (const auto& kv : m.inplace_map) inplace.append(py::make_tuple(kv.first, kv.second));
    out.append(py::make_tuple(m.name, m.index, m.inputs, m.outputs, m.attrs, inplace,
                              m.kernel != nullptr, m.infer_shape != nullptr, m.infer_dtype != nullptr));
  }
  return out;
}

}  // namespace

// Called from the extension's module init (module_init.cc); binding.cc is compiled once and
// linked into every extension.
void paddle_compat_bind(py::module_& m) {
  m.doc() = "custom operators built by paddle_compat.utils.cpp_extension";
  m.def("ops", &ListOps);
  m.def("run", &Run);
  m.def("infer_shape", &InferShape);
  m.def("infer_dtype", &InferDtype);
}
