// The functions custom ops call (paddle::experimental::empty, add, matmul, ...; the common ones
// re-exported as paddle::empty, paddle::add, ...), written with ATen, and the paddle::Tensor
// operators and math methods on top of them. Signatures follow Paddle's api.h (shapes as
// IntArray, attribute numbers as Scalar, DataType, Place); the optional `predefined_out`
// argument is not supported. As in Paddle 3 (stride kernels), the view functions (reshape,
// transpose, slice, split, unbind, squeeze, unsqueeze, flatten, diagonal, real, imag, as_real,
// as_complex, strided_slice) return views that may be non-contiguous: call .contiguous() before
// walking data<T>() linearly. Every other result is a new contiguous tensor.
#pragma once
#include <ATen/ATen.h>
#include <algorithm>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "paddle/compat/tensor.h"

namespace paddle {
namespace compat {
// The ATen tensor of x, or a PreconditionNotMet error naming the function.
inline const at::Tensor& In(const Tensor& x, const char* fn) {
  if (!x.defined())
    throw PD_Exception(std::string("paddle::experimental::") + fn + ": input tensor is not initialized",
                       ErrorKind::kPreconditionNotMet);
  return x.aten();
}
inline Tensor Out(const at::Tensor& r) { return Tensor(r.is_contiguous() ? r : r.contiguous()); }
inline std::vector<Tensor> OutList(const std::vector<at::Tensor>& rs) {
  std::vector<Tensor> out;
  out.reserve(rs.size());
  for (const auto& r : rs) out.push_back(Out(r));
  return out;
}
inline std::vector<Tensor> ViewList(const std::vector<at::Tensor>& rs) {
  return std::vector<Tensor>(rs.begin(), rs.end());
}
inline std::vector<at::Tensor> InList(const std::vector<Tensor>& xs, const char* fn) {
  std::vector<at::Tensor> r;
  r.reserve(xs.size());
  for (const auto& x : xs) r.push_back(In(x, fn));
  return r;
}
inline at::TensorOptions Options(DataType dtype, const Place& place) {
  const auto s = ToScalarType(dtype == DataType::UNDEFINED ? DataType::FLOAT32 : dtype);
  return at::TensorOptions().dtype(s).device(ToDevice(place));
}
// For the *_like functions: UNDEFINED dtype / place mean "as x".
inline at::TensorOptions LikeOptions(const at::Tensor& x, DataType dtype, const Place& place) {
  auto o = x.options();
  if (dtype != DataType::UNDEFINED) o = o.dtype(ToScalarType(dtype));
  if (place.GetType() != AllocationType::UNDEFINED) o = o.device(ToDevice(place));
  return o;
}
inline int64_t Axis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }
// A number as a 0-d tensor of x's dtype and device (so Tensor-Scalar math keeps x's dtype,
// as Paddle's scale/full_like-based operators do).
inline at::Tensor Like(const at::Tensor& x, const Scalar& s) {
  return at::scalar_tensor(s.aten(), x.options());
}
inline bool IsIntegral(const at::Tensor& x) { return at::isIntegralType(x.scalar_type(), /*includeBool=*/true); }
// Paddle's divide: C-style truncation when both operands are integers.
inline at::Tensor Divide(const at::Tensor& x, const at::Tensor& y) {
  if (IsIntegral(x) && IsIntegral(y)) return at::div(x, y, "trunc");
  return at::div(x, y);
}
inline std::vector<int64_t> Dims(const IntArray& a) { return a.GetData(); }
// Axes to reduce: all when the list is empty.
inline std::vector<int64_t> ReduceDims(const std::vector<int64_t>& axis, int64_t rank) {
  std::vector<int64_t> d;
  if (axis.empty()) {
    for (int64_t i = 0; i < rank; ++i) d.push_back(i);
  } else {
    for (auto a : axis) d.push_back(Axis(a, rank));
  }
  return d;
}
}  // namespace compat

namespace experimental {
using compat::In;
using compat::Out;

/* ---- creation ---- */
inline Tensor empty(const IntArray& shape, DataType dtype = DataType::FLOAT32, const Place& place = CPUPlace()) {
  return Tensor(at::empty(shape.GetData(), compat::Options(dtype, place)));
}
inline Tensor empty_like(const Tensor& x, DataType dtype = DataType::UNDEFINED, const Place& place = {}) {
  return Tensor(at::empty(In(x, "empty_like").sizes(), compat::LikeOptions(x.aten(), dtype, place)));
}
inline Tensor full(const IntArray& shape, const Scalar& value, DataType dtype = DataType::FLOAT32,
                   const Place& place = CPUPlace()) {
  return Tensor(at::full(shape.GetData(), value.aten(), compat::Options(dtype, place)));
}
inline Tensor full_like(const Tensor& x, const Scalar& value, DataType dtype = DataType::UNDEFINED,
                        const Place& place = {}) {
  return Tensor(at::full(In(x, "full_like").sizes(), value.aten(), compat::LikeOptions(x.aten(), dtype, place)));
}
inline Tensor zeros(const IntArray& shape, DataType dtype = DataType::FLOAT32, const Place& place = CPUPlace()) {
  return full(shape, 0, dtype, place);
}
inline Tensor ones(const IntArray& shape, DataType dtype = DataType::FLOAT32, const Place& place = CPUPlace()) {
  return full(shape, 1, dtype, place);
}
inline Tensor zeros_like(const Tensor& x, DataType dtype = DataType::UNDEFINED, const Place& place = {}) {
  return full_like(x, 0, dtype, place);
}
inline Tensor ones_like(const Tensor& x, DataType dtype = DataType::UNDEFINED, const Place& place = {}) {
  return full_like(x, 1, dtype, place);
}
inline Tensor fill(const Tensor& x, const Scalar& value = 0) { return full_like(x, value); }
inline Tensor eye(const Scalar& num_rows, const Scalar& num_columns, DataType dtype = DataType::FLOAT32,
                  const Place& place = {}) {
  const int64_t r = num_rows.to<int64_t>();
  const int64_t c = num_columns.to<int64_t>() < 0 ? r : num_columns.to<int64_t>();
  return Tensor(at::eye(r, c, compat::Options(dtype, place)));
}
inline Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, DataType dtype,
                     const Place& place = {}) {
  return Tensor(at::arange(start.aten(), end.aten(), step.aten(), compat::Options(dtype, place)));
}
inline Tensor arange(const Tensor& start, const Tensor& end, const Tensor& step, DataType dtype,
                     const Place& place = {}) {
  return arange(Scalar(start), Scalar(end), Scalar(step), dtype, place);
}
inline Tensor linspace(const Scalar& start, const Scalar& stop, const Scalar& number, DataType dtype,
                       const Place& place = {}) {
  return Tensor(at::linspace(start.aten(), stop.aten(), number.to<int64_t>(), compat::Options(dtype, place)));
}
inline Tensor linspace(const Tensor& start, const Tensor& stop, const Tensor& number, DataType dtype,
                       const Place& place = {}) {
  return linspace(Scalar(start), Scalar(stop), Scalar(number), dtype, place);
}
inline Tensor full_with_tensor(const Tensor& value, const IntArray& shape, DataType dtype = DataType::FLOAT32,
                               const Place& place = CPUPlace()) {
  return full(shape, Scalar(value), dtype, place);
}

// A tensor over caller-owned memory (not copied); `deleter` runs when the last handle goes.
inline Tensor from_blob(void* data, const IntArray& shape, DataType dtype,
                        DataLayout layout = DataLayout::NCHW, const Place& place = Place(),
                        const std::function<void(void*)>& deleter = nullptr) {
  (void)layout;
  auto opts = at::TensorOptions().dtype(compat::ToScalarType(dtype));
  if (place.GetType() != AllocationType::UNDEFINED) opts = opts.device(compat::ToDevice(place));
  if (deleter) return Tensor(at::from_blob(data, shape.GetData(), deleter, opts));
  return Tensor(at::from_blob(data, shape.GetData(), opts));
}

/* ---- random (torch's generator; the draws differ from Paddle's) ---- */
inline Tensor uniform(const IntArray& shape, DataType dtype, const Scalar& min, const Scalar& max, int seed = 0,
                      const Place& place = {}) {
  (void)seed;
  return Tensor(at::empty(shape.GetData(), compat::Options(dtype, place)).uniform_(min.to<double>(), max.to<double>()));
}
inline Tensor gaussian(const IntArray& shape, float mean, float std, int seed = 0,
                       DataType dtype = DataType::FLOAT32, const Place& place = {}) {
  (void)seed;
  return Tensor(at::empty(shape.GetData(), compat::Options(dtype, place)).normal_(mean, std));
}
inline Tensor randint(int low, int high, const IntArray& shape, DataType dtype = DataType::INT64,
                      const Place& place = {}) {
  return Tensor(at::randint(low, high, shape.GetData(), compat::Options(dtype, place)));
}
inline Tensor randperm(int n, DataType dtype = DataType::INT64, const Place& place = {}) {
  return Tensor(at::randperm(n, compat::Options(dtype, place)));
}
inline Tensor bernoulli(const Tensor& x) { return Tensor(at::bernoulli(In(x, "bernoulli"))); }
inline Tensor poisson(const Tensor& x) { return Tensor(at::poisson(In(x, "poisson"))); }
inline Tensor multinomial(const Tensor& x, const Scalar& num_samples = 1, bool replacement = false) {
  return Tensor(at::multinomial(In(x, "multinomial"), num_samples.to<int64_t>(), replacement));
}

/* ---- elementwise binary ---- */
inline Tensor add(const Tensor& x, const Tensor& y) { return Tensor(at::add(In(x, "add"), In(y, "add"))); }
inline Tensor subtract(const Tensor& x, const Tensor& y) {
  return Tensor(at::sub(In(x, "subtract"), In(y, "subtract")));
}
inline Tensor multiply(const Tensor& x, const Tensor& y) {
  return Tensor(at::mul(In(x, "multiply"), In(y, "multiply")));
}
inline Tensor divide(const Tensor& x, const Tensor& y) {
  return Tensor(compat::Divide(In(x, "divide"), In(y, "divide")));
}
inline Tensor floor_divide(const Tensor& x, const Tensor& y) {
  return Tensor(at::floor_divide(In(x, "floor_divide"), In(y, "floor_divide")));
}
inline Tensor remainder(const Tensor& x, const Tensor& y) {
  return Tensor(at::remainder(In(x, "remainder"), In(y, "remainder")));
}
inline Tensor maximum(const Tensor& x, const Tensor& y) {
  return Tensor(at::maximum(In(x, "maximum"), In(y, "maximum")));
}
inline Tensor minimum(const Tensor& x, const Tensor& y) {
  return Tensor(at::minimum(In(x, "minimum"), In(y, "minimum")));
}
inline Tensor fmax(const Tensor& x, const Tensor& y) { return Tensor(at::fmax(In(x, "fmax"), In(y, "fmax"))); }
inline Tensor fmin(const Tensor& x, const Tensor& y) { return Tensor(at::fmin(In(x, "fmin"), In(y, "fmin"))); }
inline Tensor elementwise_pow(const Tensor& x, const Tensor& y) {
  return Tensor(at::pow(In(x, "elementwise_pow"), In(y, "elementwise_pow")));
}
inline Tensor atan2(const Tensor& x, const Tensor& y) { return Tensor(at::atan2(In(x, "atan2"), In(y, "atan2"))); }
inline Tensor heaviside(const Tensor& x, const Tensor& y) {
  return Tensor(at::heaviside(In(x, "heaviside"), In(y, "heaviside")));
}
inline Tensor copysign(const Tensor& x, const Tensor& y) {
  return Tensor(at::copysign(In(x, "copysign"), In(y, "copysign")));
}
inline Tensor lerp(const Tensor& x, const Tensor& y, const Tensor& weight) {
  return Tensor(at::lerp(In(x, "lerp"), In(y, "lerp"), In(weight, "lerp")));
}
// Paddle's pow and scale keep x's dtype (the exponent / factors are cast to it first for
// integer tensors).
inline Tensor pow(const Tensor& x, const Scalar& y = 1.0f) {
  const auto& a = In(x, "pow");
  at::Tensor r = at::pow(a, y.aten());
  if (r.scalar_type() != a.scalar_type()) r = r.to(a.scalar_type());
  return Tensor(r);
}
inline Tensor scale(const Tensor& x, const Scalar& scale = 1.0, const Scalar& bias = 0.0, bool bias_after_scale = true) {
  const auto& a = In(x, "scale");
  const at::Tensor s = compat::Like(a, scale), b = compat::Like(a, bias);
  return Tensor(bias_after_scale ? at::add(at::mul(a, s), b) : at::mul(at::add(a, b), s));
}

/* ---- comparison, logical, bitwise ---- */
inline Tensor equal(const Tensor& x, const Tensor& y) { return Tensor(at::eq(In(x, "equal"), In(y, "equal"))); }
inline Tensor not_equal(const Tensor& x, const Tensor& y) {
  return Tensor(at::ne(In(x, "not_equal"), In(y, "not_equal")));
}
inline Tensor less_than(const Tensor& x, const Tensor& y) {
  return Tensor(at::lt(In(x, "less_than"), In(y, "less_than")));
}
inline Tensor less_equal(const Tensor& x, const Tensor& y) {
  return Tensor(at::le(In(x, "less_equal"), In(y, "less_equal")));
}
inline Tensor greater_than(const Tensor& x, const Tensor& y) {
  return Tensor(at::gt(In(x, "greater_than"), In(y, "greater_than")));
}
inline Tensor greater_equal(const Tensor& x, const Tensor& y) {
  return Tensor(at::ge(In(x, "greater_equal"), In(y, "greater_equal")));
}
// A 0-d bool tensor: same shape and all elements equal.
inline Tensor equal_all(const Tensor& x, const Tensor& y) {
  return Tensor(at::scalar_tensor(at::equal(In(x, "equal_all"), In(y, "equal_all")),
                                  x.aten().options().dtype(at::kBool)));
}
inline Tensor allclose(const Tensor& x, const Tensor& y, const Scalar& rtol = 1e-5, const Scalar& atol = 1e-8,
                       bool equal_nan = false) {
  const bool r = at::allclose(In(x, "allclose"), In(y, "allclose"), rtol.to<double>(), atol.to<double>(), equal_nan);
  return Tensor(at::scalar_tensor(r, x.aten().options().dtype(at::kBool)));
}
inline Tensor isclose(const Tensor& x, const Tensor& y, const Scalar& rtol = 1e-5, const Scalar& atol = 1e-8,
                      bool equal_nan = false) {
  return Tensor(at::isclose(In(x, "isclose"), In(y, "isclose"), rtol.to<double>(), atol.to<double>(), equal_nan));
}
inline Tensor logical_and(const Tensor& x, const Tensor& y) {
  return Tensor(at::logical_and(In(x, "logical_and"), In(y, "logical_and")));
}
inline Tensor logical_or(const Tensor& x, const Tensor& y) {
  return Tensor(at::logical_or(In(x, "logical_or"), In(y, "logical_or")));
}
inline Tensor logical_xor(const Tensor& x, const Tensor& y) {
  return Tensor(at::logical_xor(In(x, "logical_xor"), In(y, "logical_xor")));
}
inline Tensor logical_not(const Tensor& x) { return Tensor(at::logical_not(In(x, "logical_not"))); }
inline Tensor bitwise_and(const Tensor& x, const Tensor& y) {
  return Tensor(at::bitwise_and(In(x, "bitwise_and"), In(y, "bitwise_and")));
}
inline Tensor bitwise_or(const Tensor& x, const Tensor& y) {
  return Tensor(at::bitwise_or(In(x, "bitwise_or"), In(y, "bitwise_or")));
}
inline Tensor bitwise_xor(const Tensor& x, const Tensor& y) {
  return Tensor(at::bitwise_xor(In(x, "bitwise_xor"), In(y, "bitwise_xor")));
}
inline Tensor bitwise_not(const Tensor& x) { return Tensor(at::bitwise_not(In(x, "bitwise_not"))); }
inline Tensor bitwise_left_shift(const Tensor& x, const Tensor& y, bool is_arithmetic = true) {
  (void)is_arithmetic;
  return Tensor(at::bitwise_left_shift(In(x, "bitwise_left_shift"), In(y, "bitwise_left_shift")));
}
inline Tensor bitwise_right_shift(const Tensor& x, const Tensor& y, bool is_arithmetic = true) {
  (void)is_arithmetic;
  return Tensor(at::bitwise_right_shift(In(x, "bitwise_right_shift"), In(y, "bitwise_right_shift")));
}
inline Tensor isnan(const Tensor& x) { return Tensor(at::isnan(In(x, "isnan"))); }
inline Tensor isinf(const Tensor& x) { return Tensor(at::isinf(In(x, "isinf"))); }
inline Tensor isfinite(const Tensor& x) { return Tensor(at::isfinite(In(x, "isfinite"))); }
inline Tensor is_empty(const Tensor& x) {
  return Tensor(at::scalar_tensor(In(x, "is_empty").numel() == 0, x.aten().options().dtype(at::kBool)));
}

/* ---- elementwise unary ---- */
#define PADDLE_COMPAT_UNARY(NAME, ATEN_CALL) \
  inline Tensor NAME(const Tensor& x) { return Tensor(ATEN_CALL(In(x, #NAME))); }
PADDLE_COMPAT_UNARY(abs, at::abs)
PADDLE_COMPAT_UNARY(exp, at::exp)
PADDLE_COMPAT_UNARY(expm1, at::expm1)
PADDLE_COMPAT_UNARY(log, at::log)
PADDLE_COMPAT_UNARY(log2, at::log2)
PADDLE_COMPAT_UNARY(log10, at::log10)
PADDLE_COMPAT_UNARY(log1p, at::log1p)
PADDLE_COMPAT_UNARY(sqrt, at::sqrt)
PADDLE_COMPAT_UNARY(rsqrt, at::rsqrt)
PADDLE_COMPAT_UNARY(square, at::square)
PADDLE_COMPAT_UNARY(reciprocal, at::reciprocal)
PADDLE_COMPAT_UNARY(floor, at::floor)
PADDLE_COMPAT_UNARY(ceil, at::ceil)
PADDLE_COMPAT_UNARY(trunc, at::trunc)
PADDLE_COMPAT_UNARY(sign, at::sign)
PADDLE_COMPAT_UNARY(sin, at::sin)
PADDLE_COMPAT_UNARY(cos, at::cos)
PADDLE_COMPAT_UNARY(tan, at::tan)
PADDLE_COMPAT_UNARY(asin, at::asin)
PADDLE_COMPAT_UNARY(acos, at::acos)
PADDLE_COMPAT_UNARY(atan, at::atan)
PADDLE_COMPAT_UNARY(sinh, at::sinh)
PADDLE_COMPAT_UNARY(cosh, at::cosh)
PADDLE_COMPAT_UNARY(tanh, at::tanh)
PADDLE_COMPAT_UNARY(asinh, at::asinh)
PADDLE_COMPAT_UNARY(acosh, at::acosh)
PADDLE_COMPAT_UNARY(atanh, at::atanh)
PADDLE_COMPAT_UNARY(erf, at::erf)
PADDLE_COMPAT_UNARY(erfinv, at::erfinv)
PADDLE_COMPAT_UNARY(lgamma, at::lgamma)
PADDLE_COMPAT_UNARY(digamma, at::digamma)
PADDLE_COMPAT_UNARY(i0, at::i0)
PADDLE_COMPAT_UNARY(relu, at::relu)
PADDLE_COMPAT_UNARY(sigmoid, at::sigmoid)
PADDLE_COMPAT_UNARY(logsigmoid, at::log_sigmoid)
PADDLE_COMPAT_UNARY(silu, at::silu)
PADDLE_COMPAT_UNARY(mish, at::mish)
PADDLE_COMPAT_UNARY(softsign, [](const at::Tensor& a) { return a / (a.abs() + 1); })
PADDLE_COMPAT_UNARY(tanh_shrink, [](const at::Tensor& a) { return a - at::tanh(a); })
PADDLE_COMPAT_UNARY(swish, at::silu)
PADDLE_COMPAT_UNARY(relu6, [](const at::Tensor& a) { return at::hardtanh(a, 0.0, 6.0); })
PADDLE_COMPAT_UNARY(hardswish, at::hardswish)
PADDLE_COMPAT_UNARY(neg, at::neg)
PADDLE_COMPAT_UNARY(conj, at::conj_physical)
PADDLE_COMPAT_UNARY(angle, at::angle)
PADDLE_COMPAT_UNARY(real, at::real)
PADDLE_COMPAT_UNARY(imag, at::imag)
PADDLE_COMPAT_UNARY(assign, [](const at::Tensor& a) { return a.clone(at::MemoryFormat::Contiguous); })
#undef PADDLE_COMPAT_UNARY

inline Tensor round(const Tensor& x, int decimals = 0) { return Tensor(at::round(In(x, "round"), decimals)); }
inline Tensor leaky_relu(const Tensor& x, double negative_slope = 0.02) {
  return Tensor(at::leaky_relu(In(x, "leaky_relu"), negative_slope));
}
inline Tensor gelu(const Tensor& x, bool approximate = false) {
  return Tensor(at::gelu(In(x, "gelu"), approximate ? "tanh" : "none"));
}
inline Tensor elu(const Tensor& x, float alpha = 1.0f) { return Tensor(at::elu(In(x, "elu"), alpha)); }
inline Tensor celu(const Tensor& x, float alpha = 1.0f) { return Tensor(at::celu(In(x, "celu"), alpha)); }
inline Tensor selu(const Tensor& x, float scale = 1.0507009873554804934193349852946f,
                   float alpha = 1.6732632423543772848170429916717f) {
  const auto& a = In(x, "selu");
  return Tensor(at::where(a > 0, a, at::expm1(a) * alpha) * scale);
}
inline Tensor softplus(const Tensor& x, double beta = 1.0, double threshold = 20.0) {
  return Tensor(at::softplus(In(x, "softplus"), beta, threshold));
}
inline Tensor hardtanh(const Tensor& x, float t_min = -1.0f, float t_max = 1.0f) {
  return Tensor(at::hardtanh(In(x, "hardtanh"), t_min, t_max));
}
inline Tensor hardsigmoid(const Tensor& x, float slope = 0.1666667f, float offset = 0.5f) {
  return Tensor(at::clamp(In(x, "hardsigmoid") * slope + offset, 0.0, 1.0));
}
inline Tensor hardshrink(const Tensor& x, float threshold = 0.5f) {
  return Tensor(at::hardshrink(In(x, "hardshrink"), threshold));
}
inline Tensor softshrink(const Tensor& x, float threshold = 0.5f) {
  return Tensor(at::softshrink(In(x, "softshrink"), threshold));
}
inline Tensor thresholded_relu(const Tensor& x, float threshold = 1.0f, float value = 0.0f) {
  const auto& a = In(x, "thresholded_relu");
  return Tensor(at::where(a > threshold, a, at::scalar_tensor(value, a.options())));
}
inline Tensor logit(const Tensor& x, double eps = 1e-6) { return Tensor(at::logit(In(x, "logit"), eps)); }
inline Tensor clip(const Tensor& x, const Scalar& min, const Scalar& max) {
  return Tensor(at::clamp(In(x, "clip"), min.aten(), max.aten()));
}
inline Tensor increment(const Tensor& x, float value = 1.0f) {
  return Tensor(at::add(In(x, "increment"), compat::Like(x.aten(), value)));
}
inline Tensor cast(const Tensor& x, DataType dtype) {
  In(x, "cast");
  return x.cast(dtype);
}
inline Tensor copy_to(const Tensor& x, const Place& place, bool blocking) {
  In(x, "copy_to");
  return x.copy_to(place, blocking);
}
inline Tensor where(const Tensor& condition, const Tensor& x, const Tensor& y) {
  return Tensor(at::where(In(condition, "where"), In(x, "where"), In(y, "where")));
}
inline Tensor masked_fill(const Tensor& x, const Tensor& mask, const Tensor& value) {
  return Tensor(at::masked_fill(In(x, "masked_fill"), In(mask, "masked_fill"), In(value, "masked_fill")));
}
inline Tensor complex(const Tensor& real, const Tensor& imag) {
  return Tensor(at::complex(In(real, "complex"), In(imag, "complex")));
}
inline Tensor as_complex(const Tensor& x) { return Tensor(at::view_as_complex(In(x, "as_complex"))); }
inline Tensor as_real(const Tensor& x) { return Tensor(at::view_as_real(In(x, "as_real").resolve_conj())); }

/* ---- reductions ---- */
inline Tensor sum(const Tensor& x, const IntArray& axis = {}, DataType dtype = DataType::UNDEFINED,
                  bool keepdim = false) {
  const auto& a = In(x, "sum");
  const auto d = compat::ReduceDims(axis.GetData(), a.dim());
  if (dtype == DataType::UNDEFINED) return Tensor(at::sum(a, d, keepdim));
  return Tensor(at::sum(a, d, keepdim, compat::ToScalarType(dtype)));
}
inline Tensor mean(const Tensor& x, const IntArray& axis = {}, bool keepdim = false) {
  const auto& a = In(x, "mean");
  return Tensor(at::mean(a, compat::ReduceDims(axis.GetData(), a.dim()), keepdim));
}
inline Tensor mean_all(const Tensor& x) { return Tensor(at::mean(In(x, "mean_all"))); }
inline Tensor max(const Tensor& x, const IntArray& axis = {}, bool keepdim = false) {
  const auto& a = In(x, "max");
  return Tensor(at::amax(a, compat::ReduceDims(axis.GetData(), a.dim()), keepdim));
}
inline Tensor min(const Tensor& x, const IntArray& axis = {}, bool keepdim = false) {
  const auto& a = In(x, "min");
  return Tensor(at::amin(a, compat::ReduceDims(axis.GetData(), a.dim()), keepdim));
}
inline Tensor amax(const Tensor& x, const std::vector<int64_t>& axis = {}, bool keepdim = false) {
  return max(x, axis, keepdim);
}
inline Tensor amin(const Tensor& x, const std::vector<int64_t>& axis = {}, bool keepdim = false) {
  return min(x, axis, keepdim);
}
inline Tensor prod(const Tensor& x, const IntArray& axis, bool keepdim, bool reduce_all) {
  at::Tensor r = In(x, "prod");
  auto d = compat::ReduceDims(reduce_all ? std::vector<int64_t>{} : axis.GetData(), r.dim());
  std::sort(d.begin(), d.end());
  for (auto it = d.rbegin(); it != d.rend(); ++it) r = at::prod(r, *it, /*keepdim=*/true);
  if (!keepdim) {
    for (auto it = d.rbegin(); it != d.rend(); ++it) r = r.squeeze(*it);
  }
  return Out(r);
}
inline Tensor any(const Tensor& x, const std::vector<int64_t>& axis = {}, bool keepdim = false) {
  const auto& a = In(x, "any");
  return Tensor(at::any(a, at::OptionalIntArrayRef(compat::ReduceDims(axis, a.dim())), keepdim));
}
inline Tensor all(const Tensor& x, const std::vector<int64_t>& axis = {}, bool keepdim = false) {
  const auto& a = In(x, "all");
  return Tensor(at::all(a, at::OptionalIntArrayRef(compat::ReduceDims(axis, a.dim())), keepdim));
}
inline Tensor logsumexp(const Tensor& x, const std::vector<int>& axis = {}, bool keepdim = false,
                        bool reduce_all = false) {
  const auto& a = In(x, "logsumexp");
  std::vector<int64_t> ax(axis.begin(), axis.end());
  if (reduce_all) ax.clear();
  return Tensor(at::logsumexp(a, compat::ReduceDims(ax, a.dim()), keepdim));
}
inline Tensor std(const Tensor& x, const std::vector<int64_t>& axis = {}, bool keepdim = false, bool unbiased = true,
                  double correction = 1) {
  const auto& a = In(x, "std");
  return Tensor(at::std(a, at::OptionalIntArrayRef(compat::ReduceDims(axis, a.dim())),
                        at::Scalar(unbiased ? correction : 0.0), keepdim));
}
inline Tensor var(const Tensor& x, const std::vector<int64_t>& axis = {}, bool keepdim = false, bool unbiased = true,
                  double correction = 1) {
  const auto& a = In(x, "var");
  return Tensor(at::var(a, at::OptionalIntArrayRef(compat::ReduceDims(axis, a.dim())),
                        at::Scalar(unbiased ? correction : 0.0), keepdim));
}
inline Tensor norm_p(const Tensor& x, float porder = 2, int axis = -1, float epsilon = 1e-12f, bool keepdim = false,
                     bool asvector = false) {
  const auto& a = In(x, "p_norm");
  (void)epsilon;
  if (asvector) return Tensor(at::linalg_vector_norm(a.reshape({-1}), porder, at::OptionalIntArrayRef{}, keepdim));
  return Tensor(at::linalg_vector_norm(a, porder, std::vector<int64_t>{compat::Axis(axis, a.dim())}, keepdim));
}
inline Tensor p_norm(const Tensor& x, float porder = 2, int axis = -1, float epsilon = 1e-12f, bool keepdim = false,
                     bool asvector = false) {
  return norm_p(x, porder, axis, epsilon, keepdim, asvector);
}
inline Tensor argmax(const Tensor& x, const Scalar& axis, bool keepdims = false, bool flatten = false,
                     DataType dtype = DataType::INT64) {
  const auto& a = In(x, "argmax");
  at::Tensor r;
  if (flatten) {
    r = at::argmax(a.reshape({-1}), 0, false);
    if (keepdims) r = r.reshape(std::vector<int64_t>(a.dim(), 1));
  } else {
    r = at::argmax(a, axis.to<int64_t>(), keepdims);
  }
  return Tensor(r.to(compat::ToScalarType(dtype)));
}
inline Tensor argmin(const Tensor& x, const Scalar& axis, bool keepdims = false, bool flatten = false,
                     DataType dtype = DataType::INT64) {
  const auto& a = In(x, "argmin");
  at::Tensor r;
  if (flatten) {
    r = at::argmin(a.reshape({-1}), 0, false);
    if (keepdims) r = r.reshape(std::vector<int64_t>(a.dim(), 1));
  } else {
    r = at::argmin(a, axis.to<int64_t>(), keepdims);
  }
  return Tensor(r.to(compat::ToScalarType(dtype)));
}
// Running sum along axis; `exclusive` leaves out the current element, `reverse` runs from the end.
inline Tensor cumsum(const Tensor& x, const Scalar& axis = -1, bool flatten = false, bool exclusive = false,
                     bool reverse = false) {
  at::Tensor a = In(x, "cumsum");
  int64_t ax = axis.to<int64_t>();
  if (flatten) {
    a = a.reshape({-1});
    ax = 0;
  }
  ax = compat::Axis(ax, a.dim());
  if (reverse) a = a.flip(ax);
  at::Tensor r = at::cumsum(a, ax);
  if (exclusive && a.size(ax) > 0) {
    r = at::cat({at::zeros_like(r.narrow(ax, 0, 1)), r.narrow(ax, 0, a.size(ax) - 1)}, ax);
  }
  if (reverse) r = r.flip(ax);
  return Out(r);
}
inline Tensor cumprod(const Tensor& x, int dim, bool exclusive = false, bool reverse = false) {
  at::Tensor a = In(x, "cumprod");
  const int64_t ax = compat::Axis(dim, a.dim());
  if (reverse) a = a.flip(ax);
  at::Tensor r = at::cumprod(a, ax);
  if (exclusive && a.size(ax) > 0) r = at::cat({at::ones_like(r.narrow(ax, 0, 1)), r.narrow(ax, 0, a.size(ax) - 1)}, ax);
  if (reverse) r = r.flip(ax);
  return Out(r);
}
inline std::tuple<Tensor, Tensor> topk(const Tensor& x, const Scalar& k = 1, int axis = -1, bool largest = true,
                                       bool sorted = true) {
  auto r = at::topk(In(x, "topk"), k.to<int64_t>(), axis, largest, sorted);
  return {Out(std::get<0>(r)), Out(std::get<1>(r))};
}
inline std::tuple<Tensor, Tensor> argsort(const Tensor& x, int axis = -1, bool descending = false, bool stable = false) {
  auto r = at::sort(In(x, "argsort"), stable, axis, descending);
  return {Out(std::get<0>(r)), Out(std::get<1>(r))};
}
inline std::tuple<Tensor, Tensor> kthvalue(const Tensor& x, int k = 1, int axis = -1, bool keepdim = false) {
  auto r = at::kthvalue(In(x, "kthvalue"), k, axis, keepdim);
  return {Out(std::get<0>(r)), Out(std::get<1>(r))};
}
inline std::tuple<Tensor, Tensor> mode(const Tensor& x, int axis = -1, bool keepdim = false) {
  auto r = at::mode(In(x, "mode"), axis, keepdim);
  return {Out(std::get<0>(r)), Out(std::get<1>(r))};
}

/* ---- linear algebra ---- */
inline Tensor matmul(const Tensor& x, const Tensor& y, bool transpose_x = false, bool transpose_y = false) {
  at::Tensor a = In(x, "matmul"), b = In(y, "matmul");
  if (transpose_x && a.dim() >= 2) a = a.transpose(-1, -2);
  if (transpose_y && b.dim() >= 2) b = b.transpose(-1, -2);
  return Out(at::matmul(a, b));
}
inline Tensor bmm(const Tensor& x, const Tensor& y) { return Tensor(at::bmm(In(x, "bmm"), In(y, "bmm"))); }
inline Tensor mv(const Tensor& x, const Tensor& vec) { return Tensor(at::mv(In(x, "mv"), In(vec, "mv"))); }
// 1-D: the inner product (0-d); 2-D: the row-wise inner products.
inline Tensor dot(const Tensor& x, const Tensor& y) {
  return Tensor(at::sum(at::mul(In(x, "dot"), In(y, "dot")), {-1}, false));
}
inline Tensor addmm(const Tensor& input, const Tensor& x, const Tensor& y, float beta = 1.0f, float alpha = 1.0f) {
  return Tensor(at::addmm(In(input, "addmm"), In(x, "addmm"), In(y, "addmm"), beta, alpha));
}
inline Tensor kron(const Tensor& x, const Tensor& y) { return Tensor(at::kron(In(x, "kron"), In(y, "kron"))); }
// axis 9 (Paddle's default) means the first axis of extent 3.
inline Tensor cross(const Tensor& x, const Tensor& y, int axis = 9) {
  const auto& a = In(x, "cross");
  int64_t ax = axis;
  if (axis == 9) {
    ax = -1;
    for (int64_t i = 0; i < a.dim(); ++i)
      if (a.size(i) == 3) {
        ax = i;
        break;
      }
  }
  return Tensor(at::linalg_cross(a, In(y, "cross"), ax));
}
inline Tensor trace(const Tensor& x, int offset = 0, int axis1 = 0, int axis2 = 1) {
  return Tensor(at::sum(at::diagonal(In(x, "trace"), offset, axis1, axis2), {-1}, false));
}
inline Tensor diagonal(const Tensor& x, int offset = 0, int axis1 = 0, int axis2 = 1) {
  return Tensor(at::diagonal(In(x, "diagonal"), offset, axis1, axis2));
}
inline Tensor diag(const Tensor& x, int offset = 0, float padding_value = 0.0) {
  const auto& a = In(x, "diag");
  if (a.dim() == 1 && padding_value != 0.0f) {
    const int64_t n = a.size(0) + (offset < 0 ? -offset : offset);
    at::Tensor r = at::full({n, n}, padding_value, a.options());
    r.diagonal(offset).copy_(a);
    return Tensor(r);
  }
  return Out(at::diag(a, offset));
}
inline Tensor tril(const Tensor& x, int diagonal = 0) { return Tensor(at::tril(In(x, "tril"), diagonal)); }
inline Tensor triu(const Tensor& x, int diagonal = 0) { return Tensor(at::triu(In(x, "triu"), diagonal)); }
inline Tensor det(const Tensor& x) { return Tensor(at::linalg_det(In(x, "det"))); }
inline Tensor inverse(const Tensor& x) { return Tensor(at::linalg_inv(In(x, "inverse"))); }
inline Tensor cholesky(const Tensor& x, bool upper = false) {
  return Tensor(at::linalg_cholesky(In(x, "cholesky"), upper));
}
inline Tensor matrix_power(const Tensor& x, int n) { return Tensor(at::linalg_matrix_power(In(x, "matrix_power"), n)); }
inline Tensor multi_dot(const std::vector<Tensor>& x) { return Tensor(at::linalg_multi_dot(compat::InList(x, "multi_dot"))); }

/* ---- shape and layout ---- */
// Paddle's reshape: a 0 copies the input's extent at that position, one -1 is inferred.
inline Tensor reshape(const Tensor& x, const IntArray& shape) {
  const auto& a = In(x, "reshape");
  std::vector<int64_t> s = shape.GetData();
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == 0 && static_cast<int64_t>(i) < a.dim()) s[i] = a.size(i);
  return Tensor(a.reshape(s));
}
inline Tensor transpose(const Tensor& x, const std::vector<int>& perm) {
  return Tensor(In(x, "transpose").permute(std::vector<int64_t>(perm.begin(), perm.end())));
}
inline Tensor expand(const Tensor& x, const IntArray& shape = {}) {
  return Out(In(x, "expand").expand(shape.GetData()));
}
inline Tensor expand_as(const Tensor& x, const Tensor& y) {
  return Out(In(x, "expand_as").expand(In(y, "expand_as").sizes()));
}
inline Tensor broadcast_to(const Tensor& x, const IntArray& shape) { return expand(x, shape); }
inline Tensor tile(const Tensor& x, const IntArray& repeat_times = {}) {
  return Out(at::tile(In(x, "tile"), repeat_times.GetData()));
}
inline Tensor squeeze(const Tensor& x, const IntArray& axis = {}) {
  const auto& a = In(x, "squeeze");
  if (axis.empty()) return Tensor(a.squeeze());
  return Tensor(a.squeeze(compat::ReduceDims(axis.GetData(), a.dim())));
}
// Axes are applied in order, each relative to the rank so far.
inline Tensor unsqueeze(const Tensor& x, const IntArray& axis = {}) {
  at::Tensor r = In(x, "unsqueeze");
  for (auto ax : axis.GetData()) r = r.unsqueeze(ax < 0 ? ax + r.dim() + 1 : ax);
  return Tensor(r);
}
inline Tensor flatten(const Tensor& x, int start_axis = 1, int stop_axis = 1) {
  return Tensor(at::flatten(In(x, "flatten"), start_axis, stop_axis));
}
inline Tensor flip(const Tensor& x, const std::vector<int>& axis) {
  return Tensor(at::flip(In(x, "flip"), std::vector<int64_t>(axis.begin(), axis.end())));
}
inline Tensor reverse(const Tensor& x, const IntArray& axis) { return Tensor(at::flip(In(x, "reverse"), axis.GetData())); }
inline Tensor roll(const Tensor& x, const IntArray& shifts = {}, const std::vector<int64_t>& axis = {}) {
  return Tensor(at::roll(In(x, "roll"), shifts.GetData(), axis));
}
inline Tensor concat(const std::vector<Tensor>& x, const Scalar& axis = 0) {
  return Tensor(at::cat(compat::InList(x, "concat"), axis.to<int64_t>()));
}
inline Tensor stack(const std::vector<Tensor>& x, int axis = 0) {
  return Tensor(at::stack(compat::InList(x, "stack"), axis));
}
// sections: extents along axis; one of them may be -1 (the rest).
inline std::vector<Tensor> split(const Tensor& x, const IntArray& sections, const Scalar& axis) {
  const auto& a = In(x, "split");
  const int64_t ax = compat::Axis(axis.to<int64_t>(), a.dim());
  std::vector<int64_t> s = sections.GetData();
  int64_t known = 0, infer = -1;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] < 0) {
      infer = static_cast<int64_t>(i);
    } else {
      known += s[i];
    }
  }
  if (infer >= 0) s[infer] = a.size(ax) - known;
  return compat::ViewList(at::split_with_sizes(a, s, ax));
}
inline std::vector<Tensor> split_with_num(const Tensor& x, int num, const Scalar& axis) {
  const auto& a = In(x, "split_with_num");
  const int64_t ax = compat::Axis(axis.to<int64_t>(), a.dim());
  PADDLE_ENFORCE_EQ(a.size(ax) % num, 0,
                    ::common::errors::InvalidArgument(
                        "split_with_num: the extent %d of axis %d is not divisible by num %d", a.size(ax), ax, num));
  return compat::ViewList(at::split(a, a.size(ax) / num, ax));
}
inline std::vector<Tensor> unbind(const Tensor& input, int axis = 0) {
  return compat::ViewList(at::unbind(In(input, "unbind"), axis));
}
inline std::vector<Tensor> meshgrid(const std::vector<Tensor>& inputs) {
  return compat::OutList(at::meshgrid(compat::InList(inputs, "meshgrid"), "ij"));
}
// Paddle's slice: per axis clamp [start, end) (negative counts from the end), then drop the
// axes listed in decrease_axis.
inline Tensor slice(const Tensor& input, const std::vector<int64_t>& axes, const IntArray& starts,
                    const IntArray& ends, const std::vector<int64_t>& infer_flags = {},
                    const std::vector<int64_t>& decrease_axis = {}) {
  (void)infer_flags;
  at::Tensor r = In(input, "slice");
  const auto& st = starts.GetData();
  const auto& en = ends.GetData();
  PADDLE_ENFORCE_EQ(st.size(), axes.size(),
                    ::common::errors::InvalidArgument("slice: starts and axes must have the same length"));
  PADDLE_ENFORCE_EQ(en.size(), axes.size(),
                    ::common::errors::InvalidArgument("slice: ends and axes must have the same length"));
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t ax = compat::Axis(axes[i], r.dim());
    const int64_t n = r.size(ax);
    int64_t b = st[i] < 0 ? st[i] + n : st[i];
    int64_t e = en[i] < 0 ? en[i] + n : en[i];
    b = std::min<int64_t>(std::max<int64_t>(b, 0), n);
    e = std::min<int64_t>(std::max<int64_t>(e, b), n);
    r = r.slice(ax, b, e);
  }
  if (!decrease_axis.empty()) {
    std::vector<int64_t> d = compat::ReduceDims(decrease_axis, r.dim());
    std::sort(d.begin(), d.end());
    for (auto it = d.rbegin(); it != d.rend(); ++it) r = r.squeeze(*it);
  }
  return Tensor(r);
}
inline Tensor strided_slice(const Tensor& x, const std::vector<int>& axes, const IntArray& starts,
                            const IntArray& ends, const IntArray& strides) {
  at::Tensor r = In(x, "strided_slice");
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t ax = compat::Axis(axes[i], r.dim());
    const int64_t n = r.size(ax), step = strides.GetData()[i];
    int64_t b = starts.GetData()[i], e = ends.GetData()[i];
    if (step > 0) {
      b = b < 0 ? std::max<int64_t>(b + n, 0) : std::min(b, n);
      e = e < 0 ? std::max<int64_t>(e + n, 0) : std::min(e, n);
      r = r.slice(ax, b, std::max(b, e), step);
    } else {
      // Walk backwards: flip, then slice forwards.
      b = b < 0 ? b + n : std::min(b, n - 1);
      e = e < 0 ? e + n : std::min(e, n - 1);
      const int64_t fb = n - 1 - b, fe = n - 1 - e;
      r = r.flip(ax).slice(ax, std::max<int64_t>(fb, 0), std::max<int64_t>(std::max<int64_t>(fb, 0), fe), -step);
    }
  }
  return Tensor(r);
}
inline Tensor numel(const Tensor& x) {
  return Tensor(at::scalar_tensor(In(x, "numel").numel(), at::TensorOptions().dtype(at::kLong)));
}
inline Tensor shape(const Tensor& input) {
  const auto s = In(input, "shape").sizes();
  return Tensor(at::tensor(std::vector<int32_t>(s.begin(), s.end()), at::TensorOptions().dtype(at::kInt)));
}
inline Tensor shape64(const Tensor& input) {
  const auto s = In(input, "shape64").sizes();
  return Tensor(at::tensor(std::vector<int64_t>(s.begin(), s.end()), at::TensorOptions().dtype(at::kLong)));
}

/* ---- indexing ---- */
// Rows of x along axis picked by a 1-D (or 0-d) index.
inline Tensor gather(const Tensor& x, const Tensor& index, const Scalar& axis = 0) {
  const auto& a = In(x, "gather");
  const auto& i = In(index, "gather");
  const int64_t ax = compat::Axis(axis.to<int64_t>(), a.dim());
  at::Tensor r = at::index_select(a, ax, i.reshape({-1}));
  if (i.dim() == 0) r = r.squeeze(ax);
  return Out(r);
}
// index[..., k] addresses x's first k axes; the result has shape index.shape[:-1] + x.shape[k:].
inline Tensor gather_nd(const Tensor& x, const Tensor& index) {
  const auto& a = In(x, "gather_nd");
  const auto& i = In(index, "gather_nd");
  const int64_t k = i.size(-1);
  std::vector<int64_t> out_shape(i.sizes().begin(), i.sizes().end() - 1);
  for (int64_t d = k; d < a.dim(); ++d) out_shape.push_back(a.size(d));
  if (k == 0) {
    std::vector<int64_t> lead(i.sizes().begin(), i.sizes().end() - 1);
    std::vector<int64_t> view_shape(lead.size(), 1);
    view_shape.insert(view_shape.end(), a.sizes().begin(), a.sizes().end());
    return Out(a.reshape(view_shape).expand(out_shape));
  }
  const at::Tensor flat = i.reshape({-1, k}).to(at::kLong);
  c10::List<std::optional<at::Tensor>> idx;
  for (int64_t d = 0; d < k; ++d) idx.push_back(std::optional<at::Tensor>(flat.select(1, d)));
  return Out(at::index(a, idx).reshape(out_shape));
}
// Rows of x (axis 0) at index replaced by updates' rows; with overwrite=false the rows at index
// are zeroed first and every update is added.
inline Tensor scatter(const Tensor& x, const Tensor& index, const Tensor& updates, bool overwrite = true) {
  at::Tensor r = In(x, "scatter").clone(at::MemoryFormat::Contiguous);
  const at::Tensor i = In(index, "scatter").reshape({-1}).to(at::kLong);
  const auto& u = In(updates, "scatter");
  if (overwrite) {
    r.index_copy_(0, i, u.to(r.scalar_type()));
  } else {
    r.index_fill_(0, i, 0);
    r.index_add_(0, i, u.to(r.scalar_type()));
  }
  return Tensor(r);
}
inline Tensor scatter_nd_add(const Tensor& x, const Tensor& index, const Tensor& updates) {
  at::Tensor r = In(x, "scatter_nd_add").clone(at::MemoryFormat::Contiguous);
  const auto& i = In(index, "scatter_nd_add");
  const int64_t k = i.size(-1);
  const at::Tensor flat = i.reshape({-1, k}).to(at::kLong);
  std::vector<int64_t> ushape{flat.size(0)};
  for (int64_t d = k; d < r.dim(); ++d) ushape.push_back(r.size(d));
  const at::Tensor u = In(updates, "scatter_nd_add").reshape(ushape).to(r.scalar_type());
  if (k == 0) {
    r.add_(u.sum(0));
    return Tensor(r);
  }
  c10::List<std::optional<at::Tensor>> idx;
  for (int64_t d = 0; d < k; ++d) idx.push_back(std::optional<at::Tensor>(flat.select(1, d)));
  r.index_put_(idx, u, /*accumulate=*/true);
  return Tensor(r);
}
inline Tensor index_select(const Tensor& x, const Tensor& index, int axis = 0) {
  const auto& a = In(x, "index_select");
  return Tensor(at::index_select(a, compat::Axis(axis, a.dim()), In(index, "index_select")));
}
inline Tensor index_sample(const Tensor& x, const Tensor& index) {
  return Tensor(at::gather(In(x, "index_sample"), 1, In(index, "index_sample").to(at::kLong)));
}
inline Tensor masked_select(const Tensor& x, const Tensor& mask) {
  return Tensor(at::masked_select(In(x, "masked_select"), In(mask, "masked_select")));
}
inline Tensor take_along_axis(const Tensor& arr, const Tensor& indices, int axis) {
  const auto& a = In(arr, "take_along_axis");
  const auto& i = In(indices, "take_along_axis");
  const int64_t ax = compat::Axis(axis, a.dim());
  std::vector<int64_t> shape(i.sizes().begin(), i.sizes().end());
  std::vector<int64_t> ashape(a.sizes().begin(), a.sizes().end());
  for (size_t d = 0; d < shape.size(); ++d) {
    if (static_cast<int64_t>(d) != ax) shape[d] = std::max(shape[d], ashape[d]);
  }
  std::vector<int64_t> ishape = shape, xshape = shape;
  xshape[ax] = ashape[ax];
  return Tensor(at::gather(a.expand(xshape), ax, i.expand(ishape).to(at::kLong)));
}
// reduce: "assign", "add", "mul"/"multiply", "mean", "amax", "amin".
inline Tensor put_along_axis(const Tensor& arr, const Tensor& indices, const Tensor& values, int axis,
                             const std::string& reduce = "assign", bool include_self = true) {
  const auto& a = In(arr, "put_along_axis");
  const int64_t ax = compat::Axis(axis, a.dim());
  const at::Tensor i = In(indices, "put_along_axis").to(at::kLong);
  const at::Tensor v = In(values, "put_along_axis").to(a.scalar_type()).expand(i.sizes());
  if (reduce == "assign") return Tensor(at::scatter(a, ax, i, v));
  std::string r = reduce == "add" ? "sum" : (reduce == "mul" || reduce == "multiply") ? "prod" : reduce;
  return Tensor(at::scatter_reduce(a, ax, i, v, r, include_self));
}
inline Tensor nonzero(const Tensor& condition) { return Tensor(at::nonzero(In(condition, "nonzero"))); }
// Paddle's one_hot yields float32.
inline Tensor one_hot(const Tensor& x, const Scalar& num_classes) {
  return Tensor(at::one_hot(In(x, "one_hot").to(at::kLong), num_classes.to<int64_t>()).to(at::kFloat));
}
inline std::tuple<Tensor, Tensor, Tensor, Tensor> unique(const Tensor& x, bool return_index, bool return_inverse,
                                                         bool return_counts, const std::vector<int>& axis,
                                                         DataType dtype = DataType::INT64) {
  (void)return_index;
  (void)return_inverse;
  (void)return_counts;
  const auto& a = In(x, "unique");
  const auto idx = compat::ToScalarType(dtype);
  at::Tensor out, inverse, counts;
  if (axis.empty()) {
    std::tie(out, inverse, counts) = at::_unique2(a, /*sorted=*/true, /*return_inverse=*/true, /*return_counts=*/true);
  } else {
    std::tie(out, inverse, counts) = at::unique_dim(a, axis[0], true, true, true);
  }
  // First occurrence of each unique value.
  const int64_t n = out.size(axis.empty() ? 0 : axis[0]);
  const at::Tensor flat_inv = inverse.reshape({-1});
  const at::Tensor pos = at::arange(flat_inv.numel(), flat_inv.options());
  at::Tensor first = at::full({n}, flat_inv.numel(), flat_inv.options());
  first = first.scatter_reduce(0, flat_inv, pos, "amin", /*include_self=*/true);
  return {Tensor(out), Tensor(first.to(idx)), Tensor(inverse.to(idx)), Tensor(counts.to(idx))};
}

/* ---- neural-network helpers ---- */
inline Tensor softmax(const Tensor& x, int axis) { return Tensor(at::softmax(In(x, "softmax"), axis)); }
inline Tensor log_softmax(const Tensor& x, int axis = -1) { return Tensor(at::log_softmax(In(x, "log_softmax"), axis)); }
inline Tensor embedding(const Tensor& x, const Tensor& weight, int64_t padding_idx = -1, bool sparse = false) {
  (void)sparse;
  return Tensor(at::embedding(In(weight, "embedding"), In(x, "embedding").to(at::kLong), padding_idx));
}
inline Tensor label_smooth(const Tensor& label, float epsilon) {
  const auto& a = In(label, "label_smooth");
  return Tensor(a * (1.0f - epsilon) + epsilon / static_cast<float>(a.size(-1)));
}

/* ---- in-place variants (write into x's memory, seen by every handle sharing it) ---- */
#define PADDLE_COMPAT_INPLACE_BINARY(NAME, METHOD)                   \
  inline Tensor& NAME(Tensor& x, const Tensor& y) {                  \
    In(x, #NAME).METHOD(In(y, #NAME));                               \
    return x;                                                        \
  }
PADDLE_COMPAT_INPLACE_BINARY(add_, add_)
PADDLE_COMPAT_INPLACE_BINARY(subtract_, sub_)
PADDLE_COMPAT_INPLACE_BINARY(multiply_, mul_)
#undef PADDLE_COMPAT_INPLACE_BINARY
inline Tensor& divide_(Tensor& x, const Tensor& y) {
  x.aten().copy_(compat::Divide(In(x, "divide_"), In(y, "divide_")));
  return x;
}
#define PADDLE_COMPAT_INPLACE_UNARY(NAME, METHOD) \
  inline Tensor& NAME(Tensor& x) {                \
    In(x, #NAME).METHOD();                        \
    return x;                                     \
  }
PADDLE_COMPAT_INPLACE_UNARY(relu_, relu_)
PADDLE_COMPAT_INPLACE_UNARY(exp_, exp_)
PADDLE_COMPAT_INPLACE_UNARY(sqrt_, sqrt_)
PADDLE_COMPAT_INPLACE_UNARY(tanh_, tanh_)
PADDLE_COMPAT_INPLACE_UNARY(sigmoid_, sigmoid_)
PADDLE_COMPAT_INPLACE_UNARY(floor_, floor_)
PADDLE_COMPAT_INPLACE_UNARY(ceil_, ceil_)
PADDLE_COMPAT_INPLACE_UNARY(abs_, abs_)
#undef PADDLE_COMPAT_INPLACE_UNARY
inline Tensor& scale_(Tensor& x, const Scalar& scale = 1.0, const Scalar& bias = 0.0, bool bias_after_scale = true) {
  x.aten().copy_(experimental::scale(x, scale, bias, bias_after_scale).aten());
  return x;
}
inline Tensor& clip_(Tensor& x, const Scalar& min, const Scalar& max) {
  In(x, "clip_").clamp_(min.aten(), max.aten());
  return x;
}
inline Tensor& fill_(Tensor& x, const Scalar& value = 0) {
  In(x, "fill_").fill_(value.aten());
  return x;
}
inline Tensor& full_(Tensor& output, const IntArray& shape, const Scalar& value, DataType dtype = DataType::FLOAT32,
                     const Place& place = CPUPlace()) {
  output = full(shape, value, dtype, place);
  return output;
}
inline Tensor& assign_out_(const Tensor& x, Tensor& output) {
  output.copy_(x, x.place(), true);
  return output;
}
}  // namespace experimental

/* ---- paddle::Tensor operators and methods ---- */
inline Tensor Tensor::operator+(const Tensor& other) const { return experimental::add(*this, other); }
inline Tensor Tensor::operator-(const Tensor& other) const { return experimental::subtract(*this, other); }
inline Tensor Tensor::operator*(const Tensor& other) const { return experimental::multiply(*this, other); }
inline Tensor Tensor::operator/(const Tensor& other) const { return experimental::divide(*this, other); }
inline Tensor Tensor::operator+(const Scalar& other) const {
  return Tensor(at::add(compat::In(*this, "add"), compat::Like(t_, other)));
}
inline Tensor Tensor::operator-(const Scalar& other) const {
  return Tensor(at::sub(compat::In(*this, "subtract"), compat::Like(t_, other)));
}
inline Tensor Tensor::operator*(const Scalar& other) const {
  return Tensor(at::mul(compat::In(*this, "multiply"), compat::Like(t_, other)));
}
inline Tensor Tensor::operator/(const Scalar& other) const {
  return Tensor(compat::Divide(compat::In(*this, "divide"), compat::Like(t_, other)));
}
inline Tensor Tensor::operator<(const Tensor& other) const { return experimental::less_than(*this, other); }
inline Tensor Tensor::operator<=(const Tensor& other) const { return experimental::less_equal(*this, other); }
inline Tensor Tensor::operator==(const Tensor& other) const { return experimental::equal(*this, other); }
inline Tensor Tensor::operator!=(const Tensor& other) const { return experimental::not_equal(*this, other); }
inline Tensor Tensor::operator>(const Tensor& other) const { return experimental::greater_than(*this, other); }
inline Tensor Tensor::operator>=(const Tensor& other) const { return experimental::greater_equal(*this, other); }
inline Tensor Tensor::operator-() const { return Tensor(at::neg(compat::In(*this, "negative"))); }
inline Tensor Tensor::operator~() const { return experimental::bitwise_not(*this); }
inline Tensor Tensor::operator&(const Tensor& other) const { return experimental::bitwise_and(*this, other); }
inline Tensor Tensor::operator|(const Tensor& other) const { return experimental::bitwise_or(*this, other); }
inline Tensor Tensor::operator^(const Tensor& other) const { return experimental::bitwise_xor(*this, other); }

inline Tensor operator+(const Scalar& x, const Tensor& y) {
  return Tensor(at::add(compat::Like(compat::In(y, "add"), x), y.aten()));
}
inline Tensor operator-(const Scalar& x, const Tensor& y) {
  return Tensor(at::sub(compat::Like(compat::In(y, "subtract"), x), y.aten()));
}
inline Tensor operator*(const Scalar& x, const Tensor& y) {
  return Tensor(at::mul(compat::Like(compat::In(y, "multiply"), x), y.aten()));
}
inline Tensor operator/(const Scalar& x, const Tensor& y) {
  return Tensor(compat::Divide(compat::Like(compat::In(y, "divide"), x), y.aten()));
}

inline Tensor Tensor::add(const Tensor& y) const { return *this + y; }
inline Tensor Tensor::divide(const Tensor& y) const { return *this / y; }
inline Tensor Tensor::multiply(const Tensor& y) const { return *this * y; }
inline Tensor Tensor::subtract(const Tensor& y) const { return *this - y; }
inline Tensor Tensor::add(const Scalar& y) const { return *this + y; }
inline Tensor Tensor::divide(const Scalar& y) const { return *this / y; }
inline Tensor Tensor::multiply(const Scalar& y) const { return *this * y; }
inline Tensor Tensor::subtract(const Scalar& y) const { return *this - y; }
inline Tensor Tensor::less_equal(const Tensor& y) const { return experimental::less_equal(*this, y); }
inline Tensor Tensor::less_than(const Tensor& y) const { return experimental::less_than(*this, y); }
inline Tensor Tensor::equal(const Tensor& y) const { return experimental::equal(*this, y); }
inline Tensor Tensor::not_equal(const Tensor& y) const { return experimental::not_equal(*this, y); }
inline Tensor Tensor::greater_equal(const Tensor& y) const { return experimental::greater_equal(*this, y); }
inline Tensor Tensor::greater_than(const Tensor& y) const { return experimental::greater_than(*this, y); }
inline Tensor Tensor::bitwise_and(const Tensor& y) const { return experimental::bitwise_and(*this, y); }
inline Tensor Tensor::bitwise_or(const Tensor& y) const { return experimental::bitwise_or(*this, y); }
inline Tensor Tensor::bitwise_xor(const Tensor& y) const { return experimental::bitwise_xor(*this, y); }
inline Tensor Tensor::bitwise_not() const { return experimental::bitwise_not(*this); }
inline Tensor Tensor::pow(const Tensor& y) const { return experimental::elementwise_pow(*this, y); }
inline Tensor Tensor::pow(const Scalar& y) const { return experimental::pow(*this, y); }
inline Tensor Tensor::exp() const { return experimental::exp(*this); }
inline Tensor Tensor::floor() const { return experimental::floor(*this); }
inline Tensor Tensor::gather_nd(const Tensor& index) const { return experimental::gather_nd(*this, index); }
inline Tensor Tensor::log() const { return experimental::log(*this); }
inline Tensor Tensor::roll(const IntArray& shifts, const std::vector<int64_t>& axis) const {
  return experimental::roll(*this, shifts, axis);
}
inline Tensor Tensor::scatter(const Tensor& index, const Tensor& updates, bool overwrite) const {
  return experimental::scatter(*this, index, updates, overwrite);
}
inline Tensor Tensor::scatter_nd_add(const Tensor& index, const Tensor& updates) const {
  return experimental::scatter_nd_add(*this, index, updates);
}
inline Tensor Tensor::abs() const { return experimental::abs(*this); }
inline Tensor Tensor::assign() const { return experimental::assign(*this); }
inline Tensor Tensor::elementwise_pow(const Tensor& y) const { return experimental::elementwise_pow(*this, y); }
inline Tensor Tensor::expand(const IntArray& shape) const { return experimental::expand(*this, shape); }
inline Tensor Tensor::matmul(const Tensor& y, bool transpose_x, bool transpose_y) const {
  return experimental::matmul(*this, y, transpose_x, transpose_y);
}
inline Tensor Tensor::max(const IntArray& axis, bool keepdim) const { return experimental::max(*this, axis, keepdim); }
inline Tensor Tensor::maximum(const Tensor& y) const { return experimental::maximum(*this, y); }
inline Tensor Tensor::minimum(const Tensor& y) const { return experimental::minimum(*this, y); }
inline Tensor Tensor::scale(const Scalar& scale, const Scalar& bias, bool bias_after_scale) const {
  return experimental::scale(*this, scale, bias, bias_after_scale);
}
inline Tensor Tensor::sum(const IntArray& axis, DataType dtype, bool keepdim) const {
  return experimental::sum(*this, axis, dtype, keepdim);
}
inline Tensor Tensor::tile(const IntArray& repeat_times) const { return experimental::tile(*this, repeat_times); }

// The functions Paddle re-exports into paddle:: (plus the creation/shape/reduction ones
// custom ops commonly call unqualified as paddle::X).
using experimental::abs;
using experimental::acos;
using experimental::acosh;
using experimental::add;
using experimental::addmm;
using experimental::allclose;
using experimental::argsort;
using experimental::asin;
using experimental::asinh;
using experimental::atan;
using experimental::atan2;
using experimental::atanh;
using experimental::bernoulli;
using experimental::cast;
using experimental::ceil;
using experimental::cholesky;
using experimental::clip;
using experimental::concat;
using experimental::conj;
using experimental::copy_to;
using experimental::cos;
using experimental::cosh;
using experimental::cross;
using experimental::cumsum;
using experimental::det;
using experimental::diag;
using experimental::diagonal;
using experimental::digamma;
using experimental::divide;
using experimental::dot;
using experimental::elu;
using experimental::empty;
using experimental::empty_like;
using experimental::equal;
using experimental::equal_all;
using experimental::erf;
using experimental::erfinv;
using experimental::exp;
using experimental::expand;
using experimental::expm1;
using experimental::flatten;
using experimental::from_blob;
using experimental::flip;
using experimental::floor;
using experimental::floor_divide;
using experimental::fmax;
using experimental::fmin;
using experimental::full;
using experimental::full_like;
using experimental::gather;
using experimental::gather_nd;
using experimental::gelu;
using experimental::greater_equal;
using experimental::greater_than;
using experimental::hardswish;
using experimental::hardtanh;
using experimental::imag;
using experimental::increment;
using experimental::index_sample;
using experimental::is_empty;
using experimental::isclose;
using experimental::isfinite;
using experimental::isinf;
using experimental::isnan;
using experimental::kron;
using experimental::kthvalue;
using experimental::label_smooth;
using experimental::lerp;
using experimental::less_equal;
using experimental::less_than;
using experimental::lgamma;
using experimental::log;
using experimental::log10;
using experimental::log1p;
using experimental::log2;
using experimental::logit;
using experimental::masked_select;
using experimental::matmul;
using experimental::matrix_power;
using experimental::max;
using experimental::maximum;
using experimental::mean;
using experimental::meshgrid;
using experimental::min;
using experimental::minimum;
using experimental::mode;
using experimental::multi_dot;
using experimental::multinomial;
using experimental::multiply;
using experimental::mv;
using experimental::not_equal;
using experimental::one_hot;
using experimental::ones;
using experimental::ones_like;
using experimental::poisson;
using experimental::pow;
using experimental::put_along_axis;
using experimental::real;
using experimental::reciprocal;
using experimental::relu;
using experimental::relu6;
using experimental::remainder;
using experimental::reshape;
using experimental::roll;
using experimental::round;
using experimental::rsqrt;
using experimental::scale;
using experimental::scatter;
using experimental::scatter_nd_add;
using experimental::selu;
using experimental::sigmoid;
using experimental::sign;
using experimental::silu;
using experimental::sin;
using experimental::sinh;
using experimental::slice;
using experimental::softmax;
using experimental::split;
using experimental::sqrt;
using experimental::square;
using experimental::squeeze;
using experimental::stack;
using experimental::strided_slice;
using experimental::subtract;
using experimental::sum;
using experimental::swish;
using experimental::tanh;
using experimental::thresholded_relu;
using experimental::tile;
using experimental::trace;
using experimental::transpose;
using experimental::tril;
using experimental::triu;
using experimental::unbind;
using experimental::unique;
using experimental::unsqueeze;
using experimental::where;
using experimental::zeros;
using experimental::zeros_like;
}  // namespace paddle
