// Test fixture for the breadth of paddle_compat's C++ extension headers: paddle::Tensor's
// operators and methods, the paddle::experimental functions, the PD_DISPATCH_* macros and the
// error macros. Each op returns several results that tests/test_custom_op_api.py compares with
// numpy.
#include <cmath>
#include <string>
#include <vector>

#include "paddle/extension.h"
// Paddle's own header paths resolve to the same API.
#include "paddle/common/enforce.h"
#include "paddle/phi/backends/context_pool.h"
#include "paddle/phi/common/complex.h"
#include "paddle/phi/core/enforce.h"

namespace pe = paddle::experimental;

// ---------------------------------------------------------------- operators
// X, Y: float tensors of one shape, Y > 0.
std::vector<paddle::Tensor> ApiArith(const paddle::Tensor& x, const paddle::Tensor& y) {
  return {x + y,  x - y,     x * y,    x / y,      x + 2.5,  x - 1,   x * 3,      x / 4,
          2 + x,  1 - x,     3 * x,    2 / y,      -x,       y.pow(2), y.pow(x),  x.add(y),
          x.subtract(2), x.multiply(y), x.divide(y), x.maximum(y), x.minimum(y), x.abs(), x.exp(),
          y.log(), x.floor(), x.scale(2.0, 1.0, true), x.scale(2.0, 1.0, false), y.elementwise_pow(x)};
}

std::vector<paddle::Tensor> ApiCompare(const paddle::Tensor& x, const paddle::Tensor& y) {
  return {x < y, x <= y, x == y, x != y, x > y, x >= y, x.less_than(y), x.greater_equal(y)};
}

// A, B: int32 tensors of one shape, B != 0.
std::vector<paddle::Tensor> ApiIntOps(const paddle::Tensor& a, const paddle::Tensor& b) {
  return {a & b, a | b, a ^ b, ~a, a / b, a + 2, a * 3, a.bitwise_not(), pe::remainder(a, b),
          pe::floor_divide(a, b), a.sum(), a.cast(paddle::DataType::FLOAT64)};
}

// ---------------------------------------------------------------- functions
// X: float32 [4, 6].
std::vector<paddle::Tensor> ApiFunctions(const paddle::Tensor& x) {
  auto zero = paddle::zeros_like(x);
  auto parts = paddle::experimental::split(x, {2, -1, 1}, 1);  // widths 2, 3, 1
  auto halves = pe::split_with_num(x, 2, 0);
  return {
      paddle::relu(x),                                            // 0
      paddle::experimental::tanh(x),                              // 1
      paddle::experimental::sigmoid(x),                           // 2
      paddle::experimental::sqrt(paddle::experimental::abs(x)),   // 3
      pe::clip(x, -0.5, 0.5),                                     // 4
      pe::cast(x, paddle::DataType::FLOAT64),                     // 5
      pe::sum(x),                                                 // 6
      pe::sum(x, {1}, paddle::DataType::UNDEFINED, true),         // 7
      pe::mean(x, {0}),                                           // 8
      pe::max(x, {1}),                                            // 9
      pe::min(x),                                                 // 10
      pe::matmul(x, x, false, true),                              // 11
      pe::transpose(x, {1, 0}).contiguous(),                      // 12
      pe::reshape(x, {0, 2, -1}),                                 // 13
      pe::concat({x, zero}, 1),                                   // 14
      parts[1],                                                   // 15
      pe::slice(x, {0, 1}, {1, -4}, {3, 100}, {1, 1}, {}),        // 16
      pe::where(x > zero, x, zero),                               // 17
      pe::full_like(x, 7, paddle::DataType::INT64),               // 18
      paddle::full({2, 3}, 1.5, paddle::DataType::FLOAT64),       // 19
      paddle::ones({3}, paddle::DataType::INT32),                 // 20
      pe::scale(x, 0.5, -1.0),                                    // 21
      pe::pow(x, 3),                                              // 22
      pe::exp(x) - pe::expm1(x),                                  // 23 (== 1)
      pe::unsqueeze(pe::squeeze(pe::unsqueeze(x, {0}), {0}), {-1}),  // 24
      pe::stack({x, x}, 2),                                       // 25
      pe::softmax(x, -1),                                         // 26
      pe::cumsum(x, 1, false, true, true),                        // 27 exclusive, reverse
      pe::argmax(x, 1, false, false, paddle::DataType::INT32),    // 28
      pe::tril(pe::matmul(x, x, true, false), -1),                // 29
      halves[1],                                                  // 30
      pe::flatten(pe::reshape(x, {2, 2, 6}), 1, 2),               // 31
      pe::empty({2, 5}, paddle::DataType::FLOAT32).cast(paddle::DataType::INT64) * 0,  // 32
      pe::logsumexp(x, {1}),                                      // 33
      pe::prod(x, {0}, false, false),                             // 34
      pe::isfinite(x / zero),                                     // 35
  };
}

// X: float32 [5, 3]; I: int64 [2] row indices; J: int64 [2, 2] (row, col) pairs.
std::vector<paddle::Tensor> ApiIndexing(const paddle::Tensor& x, const paddle::Tensor& i, const paddle::Tensor& j) {
  auto upd = pe::full({2, 3}, 100.0, paddle::DataType::FLOAT32);
  auto upd_nd = pe::full({2}, 10.0, paddle::DataType::FLOAT32);
  auto topk = pe::topk(x, 2, 1, true, true);
  auto sorted = pe::argsort(x, 0, true, true);
  return {
      pe::gather(x, i),                    // 0
      x.gather_nd(j),                      // 1
      x.scatter(i, upd, true),             // 2
      x.scatter(i, upd, false),            // 3
      x.scatter_nd_add(j, upd_nd),         // 4
      x.roll({1}, {0}),                    // 5
      pe::expand(pe::slice(x, {0}, {0}, {1}, {}, {}), {4, 3}),  // 6
      x.tile({1, 2}),                      // 7
      pe::index_select(x, i, 0),           // 8
      std::get<0>(topk),                   // 9
      std::get<1>(topk),                   // 10
      std::get<1>(sorted),                 // 11
      pe::flip(x, {0, 1}),                 // 12
      pe::one_hot(i, 6),                   // 13
      pe::take_along_axis(x, pe::zeros({5, 1}, paddle::DataType::INT64), 1),  // 14
      x.max({0}, true),                    // 15
      x.sum({0}, paddle::DataType::FLOAT64, false),  // 16
      x.matmul(x, true, false),            // 17
  };
}

// ---------------------------------------------------------------- handle semantics
// X: float32 [3, 4] (contiguous). Returns one int64 vector of checks / metadata.
std::vector<paddle::Tensor> ApiTensorMeta(const paddle::Tensor& x) {
  std::vector<int64_t> r;
  r.push_back(x.numel());                                        // 0: 12
  r.push_back(static_cast<int64_t>(x.shape().size()));           // 1: 2
  r.push_back(x.dims()[1]);                                      // 2: 4
  r.push_back(x.strides()[0]);                                   // 3: 4
  r.push_back(x.dtype() == paddle::DataType::FLOAT32);           // 4: 1
  r.push_back(x.is_cpu() && !x.is_gpu());                        // 5: 1
  r.push_back(x.place() == paddle::CPUPlace());                  // 6: 1
  r.push_back(phi::product(x.dims()));                           // 7: 12
  // A tensor built from a place and a shape allocates on mutable_data.
  paddle::Tensor out(paddle::CPUPlace(), {2, 3});
  r.push_back(out.initialized());                                // 8: 0
  float* p = out.mutable_data<float>();
  for (int k = 0; k < 6; ++k) p[k] = static_cast<float>(k);
  r.push_back(out.initialized() && out.numel() == 6);            // 9: 1
  out.reshape({3, 2});
  r.push_back(out.shape()[0] == 3 && out.data<float>()[5] == 5.0f);  // 10: 1
  // slice shares memory.
  auto rows = out.slice(1, 3);
  rows.data<float>()[0] = 42.0f;
  r.push_back(static_cast<int64_t>(out.data<float>()[2]));      // 11: 42
  // assignment shares, copy_to / cast copy.
  paddle::Tensor alias;
  r.push_back(alias.defined());                                  // 12: 0
  alias = out;
  auto copy = out.copy_to(paddle::CPUPlace(), true);
  auto as_double = out.cast(paddle::DataType::FLOAT64);
  alias.data<float>()[0] = -1.0f;
  r.push_back(static_cast<int64_t>(out.data<float>()[0]));      // 13: -1
  r.push_back(static_cast<int64_t>(copy.data<float>()[0]));     // 14: 0
  r.push_back(static_cast<int64_t>(as_double.data<double>()[0]));  // 15: 0
  // views from the API: transpose is not contiguous, contiguous() is.
  auto t = pe::transpose(x, {1, 0});
  r.push_back(t.is_contiguous());                                // 16: 0
  r.push_back(t.contiguous().is_contiguous());                   // 17: 1
  // copy_ into a same-shaped tensor writes into its memory.
  paddle::Tensor dst = pe::zeros({3, 2}, paddle::DataType::FLOAT32);
  paddle::Tensor dst_alias = dst;
  dst.copy_(out, paddle::CPUPlace(), true);
  r.push_back(static_cast<int64_t>(dst_alias.data<float>()[2])); // 18: 42
  // Scalar and IntArray.
  paddle::Scalar s(2.75);
  r.push_back(s.dtype() == paddle::DataType::FLOAT64);           // 19: 1
  r.push_back(s.to<int>());                                      // 20: 2
  paddle::Scalar from_tensor(pe::full({1}, 9, paddle::DataType::INT32));
  r.push_back(from_tensor.to<int64_t>() + from_tensor.FromTensor());  // 21: 10
  paddle::IntArray ia(pe::full({3}, 4, paddle::DataType::INT64));
  r.push_back(static_cast<int64_t>(ia.size()) * 10 + ia.GetData()[2]);  // 22: 34
  // name, DDim helpers.
  paddle::Tensor named("my_tensor");
  r.push_back(named.name() == "my_tensor" && !named.defined());  // 23: 1
  auto d2 = phi::flatten_to_2d(phi::make_ddim({2, 3, 4}), 1);
  r.push_back(d2[0] * 100 + d2[1]);                              // 24: 212
  r.push_back(phi::vectorize<int>(x.dims())[0]);                 // 25: 3
  r.push_back(paddle::DataTypeToString(x.dtype()) == "float32");  // 26: 1
  r.push_back(static_cast<int64_t>(phi::SizeOf(paddle::DataType::BFLOAT16)));  // 27: 2
  std::ostringstream os;
  os << x.dtype() << "|" << x.place() << "|" << x.dims();
  r.push_back(os.str() == "float32|Place(cpu)|[3, 4]");         // 28: 1
  r.push_back(phi::errors::InvalidArgument("a=%d b=%s c=%.2f", 7, "xy", 0.125).error_message() ==
              "a=7 b=xy c=0.12");                                // 29: 1
  // The device-context pool hands out a CPU context for the CPU place.
  const auto* cpu_ctx = paddle::experimental::DeviceContextPool::Instance()
                            .Get<paddle::experimental::AllocationType::CPU>(paddle::CPUPlace());
  r.push_back(cpu_ctx->GetPlace() == paddle::CPUPlace());       // 30: 1
  // from_blob wraps caller memory without copying.
  static float blob[4] = {1, 2, 3, 4};
  auto fb = paddle::from_blob(blob, {2, 2}, paddle::DataType::FLOAT32);
  r.push_back(static_cast<int64_t>(fb.sum().data<float>()[0])); // 31: 10
  r.push_back(fb.data<float>() == blob);                         // 32: 1
  r.push_back(paddle::string::Sprintf("%-4s|%04d|%x|%c|%%|%+.1e", "ab", 42, 255, 'z', 1500.0) ==
              "ab  |0042|ff|z|%|+1.5e+03");                      // 33: 1
  // Paddle's complex type: real / imag fields and math.
  phi::dtype::complex<float> c(3, 4);
  r.push_back(static_cast<int64_t>(phi::dtype::abs(c)));        // 34: 5
  r.push_back(static_cast<int64_t>((c * phi::dtype::conj(c)).real));  // 35: 25
  r.push_back(static_cast<int64_t>(
      paddle::Scalar(paddle::complex64(1, 2)).to<paddle::complex128>().imag));  // 36: 2
  r.push_back(phi::make_ddim({2, 3, 4}).transpose({2, 0, 1})[0]);  // 37: 4
  // reshape to another element count drops the data; mutable_data reallocates.
  paddle::Tensor grow = pe::zeros({2, 3}, paddle::DataType::FLOAT32);
  grow.reshape({4, 2});
  const bool dropped = !grow.initialized() && grow.numel() == 8;
  grow.mutable_data<float>();
  r.push_back(dropped && grow.shape()[0] == 4 && grow.initialized());  // 38: 1
  auto out_t = pe::empty({static_cast<int64_t>(r.size())}, paddle::DataType::INT64);
  std::copy(r.begin(), r.end(), out_t.data<int64_t>());
  return {out_t};
}

// ---------------------------------------------------------------- dispatch macros
template <typename T>
void TimesTwo(const T* in, T* out, int64_t n) {
  for (int64_t k = 0; k < n; ++k) out[k] = static_cast<T>(in[k] * static_cast<T>(2));
}

#define TIMES_TWO_WITH(MACRO)                                                          \
  std::vector<paddle::Tensor> out{paddle::empty_like(x)};                              \
  MACRO(x.dtype(), "times_two_kernel", ([&] {                                          \
          TimesTwo<data_t>(x.data<data_t>(), out[0].data<data_t>(), x.numel());        \
        }));                                                                           \
  return out;

std::vector<paddle::Tensor> DispatchFloat(const paddle::Tensor& x) { TIMES_TWO_WITH(PD_DISPATCH_FLOATING_TYPES) }
std::vector<paddle::Tensor> DispatchFloatHalf(const paddle::Tensor& x) {
  TIMES_TWO_WITH(PD_DISPATCH_FLOATING_AND_HALF_TYPES)
}
std::vector<paddle::Tensor> DispatchIntegral(const paddle::Tensor& x) { TIMES_TWO_WITH(PD_DISPATCH_INTEGRAL_TYPES) }
std::vector<paddle::Tensor> DispatchComplex(const paddle::Tensor& x) { TIMES_TWO_WITH(PD_DISPATCH_COMPLEX_TYPES) }
std::vector<paddle::Tensor> DispatchFloatInt(const paddle::Tensor& x) {
  TIMES_TWO_WITH(PD_DISPATCH_FLOATING_AND_INTEGRAL_TYPES)
}
std::vector<paddle::Tensor> DispatchFloatComplex(const paddle::Tensor& x) {
  TIMES_TWO_WITH(PD_DISPATCH_FLOATING_AND_COMPLEX_TYPES)
}
std::vector<paddle::Tensor> DispatchFloatComplex2(const paddle::Tensor& x) {
  std::vector<paddle::Tensor> out{paddle::empty_like(x)};
  PD_DISPATCH_FLOATING_AND_COMPLEX_AND_2_TYPES(
      paddle::DataType::FLOAT16, paddle::DataType::INT64, x.dtype(), "times_two_kernel", ([&] {
        TimesTwo<data_t>(x.data<data_t>(), out[0].data<data_t>(), x.numel());
      }));
  return out;
}
std::vector<paddle::Tensor> DispatchFloatIntComplex(const paddle::Tensor& x) {
  TIMES_TWO_WITH(PD_DISPATCH_FLOATING_AND_INTEGRAL_AND_COMPLEX_TYPES)
}

// Complex helpers: conj / real / imag.
std::vector<paddle::Tensor> ApiComplex(const paddle::Tensor& x) {
  // A kernel reading Paddle's complex fields.
  auto manual_conj = paddle::empty_like(x);
  PD_DISPATCH_COMPLEX_TYPES(x.dtype(), "manual_conj", ([&] {
                              const data_t* in = x.data<data_t>();
                              data_t* out = manual_conj.data<data_t>();
                              for (int64_t k = 0; k < x.numel(); ++k) out[k] = data_t(in[k].real, -in[k].imag);
                            }));
  return {paddle::conj(x), pe::real(x).contiguous(), pe::imag(x).contiguous(), x * paddle::Scalar(2.0),
          manual_conj};
}

// ---------------------------------------------------------------- errors
// mode selects which error is raised; x is unused except for its dtype.
std::vector<paddle::Tensor> RaiseError(const paddle::Tensor& x, int mode) {
  const int64_t n = x.numel();
  switch (mode) {
    case 0:
      PADDLE_ENFORCE_EQ(n, 1000, phi::errors::InvalidArgument("numel is %d, dtype %s", n, x.dtype()));
      break;
    case 1:
      PADDLE_ENFORCE_LT(n, 0, common::errors::OutOfRange("index %d out of range [0, %d)", n, 0));
      break;
    case 2:
      PADDLE_THROW(phi::errors::Unimplemented("mode %s is not implemented", "two"));
    case 3:
      PD_CHECK(n < 0, "PD_CHECK failed with n=", n);
      break;
    case 4:
      PADDLE_THROW(common::errors::NotFound("no such key '%s'", "k"));
    case 5:
      PADDLE_ENFORCE_NOT_NULL(static_cast<const float*>(nullptr),
                              phi::errors::PreconditionNotMet("pointer is missing"));
      break;
    case 6:
      PADDLE_ENFORCE(n < 0, phi::errors::ResourceExhausted("out of memory: %5.1f MB", 12.345));
      break;
    case 7:
      PADDLE_THROW(phi::errors::Fatal("fatal %d", 7));
    case 8:
      PADDLE_ENFORCE_GE(n, 1000, "legacy message %d", n);
      break;
    case 9:
      PADDLE_THROW(phi::errors::External("external %s", "lib"));
    case 10:
      PADDLE_ENFORCE_NE(n, n, phi::errors::AlreadyExists("exists"));
      break;
    case 11:
      PADDLE_ENFORCE_GT(n, 1000, phi::errors::PermissionDenied("denied"));
      break;
    case 12:
      PADDLE_ENFORCE_LE(n, 0, phi::errors::Unavailable("unavailable"));
      break;
    case 13:
      PADDLE_THROW(phi::errors::ExecutionTimeout("timeout"));
    case 14:
      x.data<int64_t>();  // wrong element type
      break;
    case 15:
      PD_THROW("plain PD_THROW ", 15);
    default:
      break;
  }
  return {x};
}

PD_BUILD_OP(api_arith).Inputs({"X", "Y"})
    .Outputs({"O0", "O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O10", "O11", "O12", "O13",
              "O14", "O15", "O16", "O17", "O18", "O19", "O20", "O21", "O22", "O23", "O24", "O25", "O26",
              "O27"})
    .SetKernelFn(PD_KERNEL(ApiArith));

PD_BUILD_OP(api_compare).Inputs({"X", "Y"})
    .Outputs({"O0", "O1", "O2", "O3", "O4", "O5", "O6", "O7"})
    .SetKernelFn(PD_KERNEL(ApiCompare));

PD_BUILD_OP(api_int_ops).Inputs({"A", "B"})
    .Outputs({"O0", "O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O10", "O11"})
    .SetKernelFn(PD_KERNEL(ApiIntOps));

PD_BUILD_OP(api_functions).Inputs({"X"})
    .Outputs({"O0", "O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O10", "O11", "O12", "O13",
              "O14", "O15", "O16", "O17", "O18", "O19", "O20", "O21", "O22", "O23", "O24", "O25", "O26",
              "O27", "O28", "O29", "O30", "O31", "O32", "O33", "O34", "O35"})
    .SetKernelFn(PD_KERNEL(ApiFunctions));

PD_BUILD_OP(api_indexing).Inputs({"X", "I", "J"})
    .Outputs({"O0", "O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O10", "O11", "O12", "O13",
              "O14", "O15", "O16", "O17"})
    .SetKernelFn(PD_KERNEL(ApiIndexing));

PD_BUILD_OP(api_tensor_meta).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(ApiTensorMeta));

PD_BUILD_OP(dispatch_float).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(DispatchFloat));
PD_BUILD_OP(dispatch_float_half).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(DispatchFloatHalf));
PD_BUILD_OP(dispatch_integral).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(DispatchIntegral));
PD_BUILD_OP(dispatch_complex).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(DispatchComplex));
PD_BUILD_OP(dispatch_float_int).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(DispatchFloatInt));
PD_BUILD_OP(dispatch_float_complex).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(DispatchFloatComplex));
PD_BUILD_OP(dispatch_float_complex2).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(DispatchFloatComplex2));
PD_BUILD_OP(dispatch_float_int_complex).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(DispatchFloatIntComplex));

PD_BUILD_OP(api_complex).Inputs({"X"}).Outputs({"O0", "O1", "O2", "O3", "O4"}).SetKernelFn(PD_KERNEL(ApiComplex));

PD_BUILD_OP(raise_error).Inputs({"X"}).Outputs({"Out"}).Attrs({"mode: int"}).SetKernelFn(PD_KERNEL(RaiseError));
