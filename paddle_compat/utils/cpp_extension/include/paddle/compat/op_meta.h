// READY
// Operator registration for custom ops: PD_BUILD_OP / PD_BUILD_GRAD_OP / PD_BUILD_DOUBLE_GRAD_OP
// record an OpMetaInfo (names of inputs, outputs and attributes, the in-place map, and the
// kernel / InferShape / InferDtype functions) in a registry local to the extension module.
// PD_KERNEL, PD_INFER_SHAPE and PD_INFER_DTYPE turn a function of any supported signature into
// one uniform entry point reading its arguments from a context (see binding.cc, which the
// build adds to every extension and which exposes the registry to Python).
#pragma once
#include <algorithm>
#include <any>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "paddle/compat/exception.h"
#include "paddle/compat/tensor.h"

namespace paddle {

// ------------------------------------------------------------------ any / optional
using any = std::any;
using bad_any_cast = std::bad_any_cast;
using std::any_cast;

struct none_t {
  constexpr explicit none_t(int) {}
};
inline constexpr none_t none{0};

// paddle::optional<T>: an optional value with Paddle's spelling (get(), get_ptr(), is_initialized()).
template <typename T>
class optional {
 public:
  optional() = default;
  optional(none_t) {}  // NOLINT
  optional(const T& v) : v_(v) {}  // NOLINT
  optional(T&& v) : v_(std::move(v)) {}  // NOLINT
  bool is_initialized() const { return v_.has_value(); }
  explicit operator bool() const { return v_.has_value(); }
  bool operator!() const { return !v_.has_value(); }
  const T& get() const { return *v_; }
  T& get() { return *v_; }
  const T* get_ptr() const { return v_ ? &*v_ : nullptr; }
  T* get_ptr() { return v_ ? &*v_ : nullptr; }
  const T& operator*() const { return *v_; }
  T& operator*() { return *v_; }
  const T* operator->() const { return &*v_; }
  T* operator->() { return &*v_; }
  void reset() { v_.reset(); }
  template <typename... A>
  void emplace(A&&... a) { v_.emplace(std::forward<A>(a)...); }

 private:
  std::optional<T> v_;
};
template <typename T>
optional<std::decay_t<T>> make_optional(T&& v) { return optional<std::decay_t<T>>(std::forward<T>(v)); }

// ------------------------------------------------------------------ name markers
inline constexpr char kGradTensorSuffix[] = "@GRAD";
inline constexpr char kTensorVectorSuffix[] = "@VECTOR";
inline constexpr char kOptionalSuffix[] = "@OPTIONAL";
inline constexpr char kDoubleGradNewOutSuffix[] = "@NEW";

inline std::string Grad(const std::string& name) { return name + kGradTensorSuffix; }
inline std::string Vec(const std::string& name) { return name + kTensorVectorSuffix; }
inline std::string Optional(const std::string& name) { return name + kOptionalSuffix; }
inline std::string New(const std::string& name) { return name + kDoubleGradNewOutSuffix; }

// ------------------------------------------------------------------ kernel context
// One declared input of a call: a tensor, a list of tensors, or absent (optional).
struct InputSlot {
  Tensor tensor;
  std::vector<Tensor> tensors;
  bool is_vector = false;
  bool present = true;
};

// Everything a kernel call reads and writes.
class CustomOpKernelContext {
 public:
  std::vector<InputSlot> inputs;
  std::vector<any> attrs;
  std::vector<std::vector<Tensor>> outputs;   // one list per declared output
  std::vector<bool> output_is_vector;
  std::vector<bool> output_is_inplace;        // written into an input: the kernel returns none

  const std::vector<any>& Attrs() const { return attrs; }
  template <typename T>
  T AttrAt(size_t i) const { return any_cast<T>(attrs.at(i)); }
  const Tensor& InputAt(size_t i) const { return inputs.at(i).tensor; }
};

using KernelFunc = void (*)(CustomOpKernelContext*);
using InferShapeFunc = std::vector<std::vector<int64_t>> (*)(
    const std::vector<std::optional<std::vector<int64_t>>>& shapes,
    const std::vector<std::optional<std::vector<std::vector<int64_t>>>>& vec_shapes,
    const std::vector<any>& attrs);
using InferDtypeFunc = std::vector<DataType> (*)(
    const std::vector<std::optional<DataType>>& dtypes,
    const std::vector<std::optional<std::vector<DataType>>>& vec_dtypes,
    const std::vector<any>& attrs);

namespace compat {

template <typename T>
using bare_t = std::remove_cv_t<std::remove_reference_t<T>>;

// Attribute types a kernel may take, by value or const reference.
template <typename T>
struct is_attr : std::false_type {};
#define PD_COMPAT_ATTR_TYPE(T) \
  template <>                  \
  struct is_attr<T> : std::true_type {}
PD_COMPAT_ATTR_TYPE(bool);
PD_COMPAT_ATTR_TYPE(int);
PD_COMPAT_ATTR_TYPE(float);
PD_COMPAT_ATTR_TYPE(double);
PD_COMPAT_ATTR_TYPE(int64_t);
PD_COMPAT_ATTR_TYPE(std::string);
PD_COMPAT_ATTR_TYPE(std::vector<int>);
PD_COMPAT_ATTR_TYPE(std::vector<float>);
PD_COMPAT_ATTR_TYPE(std::vector<double>);
PD_COMPAT_ATTR_TYPE(std::vector<int64_t>);
PD_COMPAT_ATTR_TYPE(std::vector<std::string>);
PD_COMPAT_ATTR_TYPE(std::vector<bool>);
#undef PD_COMPAT_ATTR_TYPE

// Where the next argument of each kind comes from.
struct Cursor {
  size_t in = 0;
  size_t attr = 0;
  size_t out = 0;
};

[[noreturn]] inline void AttrCastError(size_t idx, const char* want) {
  throw PD_Exception(std::string("attribute #") + std::to_string(idx) + " does not have the type " +
                         want + " the kernel function takes",
                     ErrorKind::kInvalidArgument);
}

// How one kernel parameter of type T is fetched from the context. `get()` returns what is
// passed to the function; holders that bind a reference keep the object alive in the holder.
template <typename T, typename Enable = void>
struct KernelArg;

template <>
struct KernelArg<const Tensor&> {
  const Tensor& ref;
  KernelArg(CustomOpKernelContext* c, Cursor& k) : ref(c->inputs.at(k.in++).tensor) {}
  const Tensor& get() { return ref; }
};
template <>
struct KernelArg<Tensor> {
  Tensor value;
  KernelArg(CustomOpKernelContext* c, Cursor& k) : value(c->inputs.at(k.in++).tensor) {}
  Tensor get() { return value; }
};
template <>
struct KernelArg<Tensor&> {  // an in-place input
  Tensor& ref;
  KernelArg(CustomOpKernelContext* c, Cursor& k) : ref(c->inputs.at(k.in++).tensor) {}
  Tensor& get() { return ref; }
};
template <>
struct KernelArg<const std::vector<Tensor>&> {
  const std::vector<Tensor>& ref;
  KernelArg(CustomOpKernelContext* c, Cursor& k) : ref(c->inputs.at(k.in++).tensors) {}
  const std::vector<Tensor>& get() { return ref; }
};
template <>
struct KernelArg<std::vector<Tensor>> {
  std::vector<Tensor> value;
  KernelArg(CustomOpKernelContext* c, Cursor& k) : value(c->inputs.at(k.in++).tensors) {}
  std::vector<Tensor> get() { return value; }
};
template <>
struct KernelArg<std::vector<Tensor>&> {
  std::vector<Tensor>& ref;
  KernelArg(CustomOpKernelContext* c, Cursor& k) : ref(c->inputs.at(k.in++).tensors) {}
  std::vector<Tensor>& get() { return ref; }
};
template <typename T>
struct KernelArg<T, std::enable_if_t<std::is_same_v<bare_t<T>, optional<Tensor>>>> {
  optional<Tensor> value;
  InputSlot* slot;
  KernelArg(CustomOpKernelContext* c, Cursor& k) : slot(&c->inputs.at(k.in++)) {
    if (slot->present) value = slot->tensor;
  }
  ~KernelArg() {
    if (!std::is_const_v<std::remove_reference_t<T>> && value) slot->tensor = *value;
  }
  T get() { return value; }
};
template <typename T>
struct KernelArg<T, std::enable_if_t<std::is_same_v<bare_t<T>, optional<std::vector<Tensor>>>>> {
  optional<std::vector<Tensor>> value;
  InputSlot* slot;
  KernelArg(CustomOpKernelContext* c, Cursor& k) : slot(&c->inputs.at(k.in++)) {
    if (slot->present) value = slot->tensors;
  }
  ~KernelArg() {
    if (!std::is_const_v<std::remove_reference_t<T>> && value) slot->tensors = *value;
  }
  T get() { return value; }
};
template <>
struct KernelArg<Tensor*> {  // an output passed by pointer (Paddle 2.3's form)
  Tensor* ptr;
  KernelArg(CustomOpKernelContext* c, Cursor& k) {
    auto& out = c->outputs.at(k.out++);
    if (out.empty()) out.emplace_back();
    ptr = &out[0];
  }
  Tensor* get() { return ptr; }
};
template <>
struct KernelArg<std::vector<Tensor*>> {
  std::vector<Tensor*> ptrs;
  KernelArg(CustomOpKernelContext* c, Cursor& k) {
    auto& out = c->outputs.at(k.out++);
    for (auto& t : out) ptrs.push_back(&t);
  }
  std::vector<Tensor*> get() { return ptrs; }
};
template <typename T>
struct KernelArg<T, std::enable_if_t<is_attr<bare_t<T>>::value>> {
  bare_t<T> value;
  KernelArg(CustomOpKernelContext* c, Cursor& k) {
    const size_t i = k.attr++;
    const any& a = c->attrs.at(i);
    const auto* p = any_cast<bare_t<T>>(&a);
    if (p == nullptr) AttrCastError(i, typeid(bare_t<T>).name());
    value = *p;
  }
  const bare_t<T>& get() { return value; }
};

template <typename F, F f>
struct KernelFuncImpl;

template <typename Ret, typename... Args, Ret (*fn)(Args...)>
struct KernelFuncImpl<Ret (*)(Args...), fn> {
  static void Compute(CustomOpKernelContext* ctx) {
    Cursor k;
    // Braced initialisation evaluates left to right, so the cursor advances in argument order.
    std::tuple<KernelArg<Args>...> holders{KernelArg<Args>(ctx, k)...};
    Call(ctx, holders, std::index_sequence_for<Args...>{});
  }

 private:
  template <typename H, size_t... I>
  static void Call(CustomOpKernelContext* ctx, H& holders, std::index_sequence<I...>) {
    if constexpr (std::is_void_v<Ret>) {
      fn(std::get<I>(holders).get()...);
    } else {
      static_assert(std::is_same_v<Ret, std::vector<Tensor>>,
                    "a custom op kernel returns std::vector<paddle::Tensor> or void");
      std::vector<Tensor> outs = fn(std::get<I>(holders).get()...);
      // Outputs fill the declared outputs that are not in place, in order (as Paddle's plain
      // outputs); a vector output takes what the single outputs after it leave.
      auto inplace = [ctx](size_t d) {
        return d < ctx->output_is_inplace.size() && ctx->output_is_inplace[d];
      };
      size_t o = 0;
      for (size_t d = 0; d < ctx->outputs.size(); ++d) {
        if (inplace(d)) continue;
        if (ctx->output_is_vector[d]) {
          size_t singles_after = 0;
          for (size_t e = d + 1; e < ctx->outputs.size(); ++e)
            if (!ctx->output_is_vector[e] && !inplace(e)) ++singles_after;
          const size_t end = outs.size() >= o + singles_after ? outs.size() - singles_after : o;
          ctx->outputs[d].assign(outs.begin() + std::min(o, outs.size()),
                                 outs.begin() + std::max(std::min(o, outs.size()), end));
          o = std::max(o, end);
        } else if (o < outs.size()) {
          ctx->outputs[d] = {outs[o++]};
        }
      }
      if (o < outs.size()) ctx->outputs.push_back(std::vector<Tensor>(outs.begin() + o, outs.end()));
    }
  }
};

// ------------------------------------------------------------------ InferShape / InferDtype
// Parameters are inputs while declared inputs remain, attributes after that.
struct ShapeArgs {
  const std::vector<std::optional<std::vector<int64_t>>>& shapes;
  const std::vector<std::optional<std::vector<std::vector<int64_t>>>>& vec_shapes;
  const std::vector<any>& attrs;
};
struct DtypeArgs {
  const std::vector<std::optional<DataType>>& dtypes;
  const std::vector<std::optional<std::vector<DataType>>>& vec_dtypes;
  const std::vector<any>& attrs;
};
struct MetaCursor {
  size_t in = 0;
  size_t vec = 0;
  size_t attr = 0;
};

template <typename V, typename Args>
struct Single;  // which list holds single inputs of kind V
template <>
struct Single<std::vector<int64_t>, ShapeArgs> {
  static const auto& list(const ShapeArgs& a) { return a.shapes; }
  static const auto& vlist(const ShapeArgs& a) { return a.vec_shapes; }
};
template <>
struct Single<DataType, DtypeArgs> {
  static const auto& list(const DtypeArgs& a) { return a.dtypes; }
  static const auto& vlist(const DtypeArgs& a) { return a.vec_dtypes; }
};

template <typename V, typename A, typename T, typename Enable = void>
struct MetaArg {  // an attribute
  bare_t<T> value;
  MetaArg(const A& a, MetaCursor& k) {
    const size_t i = k.attr++;
    const auto* p = any_cast<bare_t<T>>(&a.attrs.at(i));
    if (p == nullptr) AttrCastError(i, typeid(bare_t<T>).name());
    value = *p;
  }
  const bare_t<T>& get() { return value; }
};
template <typename V, typename A, typename T>
struct MetaArg<V, A, T, std::enable_if_t<std::is_same_v<bare_t<T>, V>>> {
  V value{};
  MetaArg(const A& a, MetaCursor& k) {
    const auto& l = Single<V, A>::list(a);
    if (k.in < l.size()) {  // an input's shape/dtype
      const auto& v = l[k.in++];
      if (v) value = *v;
    } else {  // a std::vector<int64_t> attribute of InferShape
      if constexpr (is_attr<V>::value) {
        const size_t i = k.attr++;
        const auto* p = any_cast<V>(&a.attrs.at(i));
        if (p == nullptr) AttrCastError(i, typeid(V).name());
        value = *p;
      }
    }
  }
  const V& get() { return value; }
};
template <typename V, typename A, typename T>
struct MetaArg<V, A, T, std::enable_if_t<std::is_same_v<bare_t<T>, std::vector<V>> && !std::is_same_v<bare_t<T>, V>>> {
  std::vector<V> value;
  MetaArg(const A& a, MetaCursor& k) {
    const auto& l = Single<V, A>::vlist(a);
    if (k.vec < l.size() && l[k.vec]) value = *l[k.vec];
    ++k.vec;
  }
  const std::vector<V>& get() { return value; }
};
template <typename V, typename A, typename T>
struct MetaArg<V, A, T, std::enable_if_t<std::is_same_v<bare_t<T>, optional<V>>>> {
  optional<V> value;
  MetaArg(const A& a, MetaCursor& k) {
    const auto& v = Single<V, A>::list(a).at(k.in++);
    if (v) value = *v;
  }
  const optional<V>& get() { return value; }
};
template <typename V, typename A, typename T>
struct MetaArg<V, A, T, std::enable_if_t<std::is_same_v<bare_t<T>, optional<std::vector<V>>>>> {
  optional<std::vector<V>> value;
  MetaArg(const A& a, MetaCursor& k) {
    const auto& l = Single<V, A>::vlist(a);
    if (k.vec < l.size() && l[k.vec]) value = *l[k.vec];
    ++k.vec;
  }
  const optional<std::vector<V>>& get() { return value; }
};

template <typename V, typename A, typename F, F f>
struct MetaFuncImpl;
template <typename V, typename A, typename Ret, typename... Args, Ret (*fn)(Args...)>
struct MetaFuncImpl<V, A, Ret (*)(Args...), fn> {
  static Ret Run(const A& a) {
    MetaCursor k;
    std::tuple<MetaArg<V, A, Args>...> holders{MetaArg<V, A, Args>(a, k)...};
    return std::apply([](auto&... h) { return fn(h.get()...); }, holders);
  }
};

template <typename F, F f>
struct InferShapeFuncImpl {
  static std::vector<std::vector<int64_t>> InferShape(
      const std::vector<std::optional<std::vector<int64_t>>>& shapes,
      const std::vector<std::optional<std::vector<std::vector<int64_t>>>>& vec_shapes,
      const std::vector<any>& attrs) {
    return MetaFuncImpl<std::vector<int64_t>, ShapeArgs, F, f>::Run(ShapeArgs{shapes, vec_shapes, attrs});
  }
};
template <typename F, F f>
struct InferDtypeFuncImpl {
  static std::vector<DataType> InferDtype(
      const std::vector<std::optional<DataType>>& dtypes,
      const std::vector<std::optional<std::vector<DataType>>>& vec_dtypes,
      const std::vector<any>& attrs) {
    return MetaFuncImpl<DataType, DtypeArgs, F, f>::Run(DtypeArgs{dtypes, vec_dtypes, attrs});
  }
};

}  // namespace compat

// ------------------------------------------------------------------ registry
struct OpMetaInfo {
  std::string name;
  size_t index = 0;  // 0: op, 1: grad op, 2: double grad op
  std::vector<std::string> inputs, outputs, attrs;
  std::vector<std::pair<std::string, std::string>> inplace_map;  // input -> output, in order given
  KernelFunc kernel = nullptr;
  InferShapeFunc infer_shape = nullptr;
  InferDtypeFunc infer_dtype = nullptr;
};

namespace compat {
// Every op registered by this extension, in registration order. Hidden: the function-local
// static of a default-visibility inline function is one object for the whole process (a GNU
// unique symbol), which would pool the ops of every extension loaded; hidden, each extension
// module has its own registry, shared by all of its translation units.
__attribute__((visibility("hidden"))) inline std::vector<OpMetaInfo>& Registry() {
  static std::vector<OpMetaInfo> ops;
  return ops;
}
}  // namespace compat

class OpMetaInfoBuilder {
 public:
  OpMetaInfoBuilder(std::string name, size_t index) : pos_(compat::Registry().size()) {
    OpMetaInfo info;
    info.name = std::move(name);
    info.index = index;
    compat::Registry().push_back(std::move(info));
  }
  OpMetaInfoBuilder& Inputs(std::vector<std::string>&& v) { info().inputs = std::move(v); return *this; }
  OpMetaInfoBuilder& Outputs(std::vector<std::string>&& v) { info().outputs = std::move(v); return *this; }
  OpMetaInfoBuilder& Attrs(std::vector<std::string>&& v) { info().attrs = std::move(v); return *this; }
  OpMetaInfoBuilder& SetInplaceMap(std::unordered_map<std::string, std::string>&& m) {
    // unordered_map loses the order written; keep the order of the declared inputs.
    info().inplace_map.clear();
    for (const auto& in : info().inputs) {
      auto it = m.find(in);
      if (it != m.end()) info().inplace_map.emplace_back(it->first, it->second);
    }
    for (const auto& kv : m) {
      bool seen = false;
      for (const auto& p : info().inplace_map) seen = seen || p.first == kv.first;
      if (!seen) info().inplace_map.emplace_back(kv.first, kv.second);
    }
    return *this;
  }
  OpMetaInfoBuilder& SetKernelFn(KernelFunc f) { info().kernel = f; return *this; }
  OpMetaInfoBuilder& SetInferShapeFn(InferShapeFunc f) { info().infer_shape = f; return *this; }
  OpMetaInfoBuilder& SetInferDtypeFn(InferDtypeFunc f) { info().infer_dtype = f; return *this; }
  // Accepted and ignored: distributed SPMD rules, TensorRT hooks.
  template <typename F>
  OpMetaInfoBuilder& SetInferSpmdFn(F) { return *this; }
  template <typename F>
  OpMetaInfoBuilder& SetTrtInferShapeFn(F) { return *this; }
  OpMetaInfoBuilder& SetTrtSupportsFormatConfig(std::vector<std::string>&&) { return *this; }

 private:
  OpMetaInfo& info() { return compat::Registry()[pos_]; }
  size_t pos_;
};

}  // namespace paddle

#define PD_KERNEL(...) \
  ::paddle::compat::KernelFuncImpl<decltype(&__VA_ARGS__), &__VA_ARGS__>::Compute
#define PD_INFER_SHAPE(...) \
  ::paddle::compat::InferShapeFuncImpl<decltype(&__VA_ARGS__), &__VA_ARGS__>::InferShape
#define PD_INFER_DTYPE(...) \
  ::paddle::compat::InferDtypeFuncImpl<decltype(&__VA_ARGS__), &__VA_ARGS__>::InferDtype
#define PD_INFER_SPMD_RULE(...) nullptr

#define PD_COMPAT_CONCAT_(a, b) a##b
#define PD_COMPAT_CONCAT(a, b) PD_COMPAT_CONCAT_(a, b)

#define PD_BUILD_OP(op_name) \
  static ::paddle::OpMetaInfoBuilder PD_COMPAT_CONCAT(__op_meta_info_##op_name##__, __LINE__) = \
      ::paddle::OpMetaInfoBuilder(#op_name, 0)
#define PD_BUILD_GRAD_OP(op_name) \
  static ::paddle::OpMetaInfoBuilder PD_COMPAT_CONCAT(__grad_op_meta_info_##op_name##__, __LINE__) = \
      ::paddle::OpMetaInfoBuilder(#op_name, 1)
#define PD_BUILD_DOUBLE_GRAD_OP(op_name) \
  static ::paddle::OpMetaInfoBuilder PD_COMPAT_CONCAT(__grad_grad_op_meta_info_##op_name##__, __LINE__) = \
      ::paddle::OpMetaInfoBuilder(#op_name, 2)
