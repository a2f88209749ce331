// Ops for tests/test_custom_ops_suite_gaps.py: the behaviours Paddle's own custom-op suite
// (test/custom_op) relies on that tests/custom_ops/ops.cc does not reach.
#include <cstring>
#include <vector>

#include "paddle/extension.h"
#include "paddle/phi/backends/context_pool.h"

namespace {
paddle::DataType DtypeNamed(const std::string& name) {
  if (name == "float32") return paddle::DataType::FLOAT32;
  if (name == "float64") return paddle::DataType::FLOAT64;
  PD_THROW("gaps_cast: unsupported dtype ", name);
}
}  // namespace

// Out = cast(X, dtype); its gradient is cast to `dtype` too, so a float32 input gets a
// gradient of the requested dtype (Paddle keeps it so).
std::vector<paddle::Tensor> CastTo(const paddle::Tensor& x, const std::string& dtype) {
  return {paddle::experimental::cast(x, DtypeNamed(dtype))};
}
std::vector<paddle::DataType> CastToDtype(const paddle::DataType&, const std::string& dtype) {
  return {DtypeNamed(dtype)};
}
PD_BUILD_OP(gaps_cast)
    .Inputs({"X"})
    .Attrs({"dtype: std::string"})
    .Outputs({"Out"})
    .SetKernelFn(PD_KERNEL(CastTo))
    .SetInferDtypeFn(PD_INFER_DTYPE(CastToDtype));
PD_BUILD_GRAD_OP(gaps_cast)
    .Inputs({paddle::Grad("Out")})
    .Attrs({"dtype: std::string"})
    .Outputs({paddle::Grad("X")})
    .SetKernelFn(PD_KERNEL(CastTo));

// Rows of the inputs one after another (axis 0, float32), by hand as Paddle's suite does; the
// gradient splits Out's gradient back into one tensor per input.
std::vector<paddle::Tensor> StackRows(const std::vector<paddle::Tensor>& xs) {
  int64_t rows = 0;
  for (const auto& x : xs) rows += x.shape()[0];
  std::vector<int64_t> shape = xs[0].shape();
  shape[0] = rows;
  auto out = paddle::empty(shape, paddle::DataType::FLOAT32, paddle::CPUPlace());
  float* dst = out.data<float>();
  for (const auto& x : xs) {
    std::memcpy(dst, x.data<float>(), sizeof(float) * x.numel());
    dst += x.numel();
  }
  return {out};
}
std::vector<paddle::Tensor> StackRowsGrad(const std::vector<paddle::Tensor>& xs,
                                          const paddle::Tensor& grad_out) {
  std::vector<paddle::Tensor> grads;
  const float* src = grad_out.data<float>();
  for (const auto& x : xs) {
    auto g = paddle::empty(x.shape(), x.dtype(), x.place());
    std::memcpy(g.data<float>(), src, sizeof(float) * x.numel());
    src += x.numel();
    grads.push_back(g);
  }
  return grads;
}
std::vector<std::vector<int64_t>> StackRowsShape(const std::vector<std::vector<int64_t>>& s) {
  std::vector<int64_t> out = s[0];
  out[0] = 0;
  for (const auto& v : s) out[0] = (out[0] < 0 || v[0] < 0) ? -1 : out[0] + v[0];
  return {out};
}
PD_BUILD_OP(gaps_stack_rows)
    .Inputs({paddle::Vec("X")})
    .Outputs({"Out"})
    .SetKernelFn(PD_KERNEL(StackRows))
    .SetInferShapeFn(PD_INFER_SHAPE(StackRowsShape));
PD_BUILD_GRAD_OP(gaps_stack_rows)
    .Inputs({paddle::Vec("X"), paddle::Grad("Out")})
    .Outputs({paddle::Grad(paddle::Vec("X"))})
    .SetKernelFn(PD_KERNEL(StackRowsGrad));

// The CPU device context hands out an Eigen device.
std::vector<paddle::Tensor> ContextCopy(const paddle::Tensor& x) {
  paddle::Place cpu(paddle::experimental::AllocationType::CPU);
  auto* ctx = paddle::experimental::DeviceContextPool::Instance()
                  .Get<paddle::experimental::AllocationType::CPU>(cpu);
  PD_CHECK(ctx->GetPlace() == cpu, "context of another place");
  PD_CHECK(ctx->eigen_device() != nullptr, "no Eigen device");
  PD_CHECK(ctx->eigen_device() == ctx->eigen_device(), "a new Eigen device per call");
  return {paddle::experimental::scale(x, 1.0, 0.0, true)};
}
PD_BUILD_OP(gaps_context_copy)
    .Inputs({"X"})
    .Outputs({"Out"})
    .SetKernelFn(PD_KERNEL(ContextCopy));

// Doubles X; GPU tensors go to the function of suite_gaps_ops.cu, which a CPU-only build does
// not compile (the library then has it unresolved, as Paddle's CPU build does).
std::vector<paddle::Tensor> ScaleTwoCuda(const paddle::Tensor& x);
std::vector<paddle::Tensor> ScaleTwo(const paddle::Tensor& x) {
  if (x.is_gpu()) return ScaleTwoCuda(x);
  return {paddle::experimental::scale(x, 2.0, 0.0, true)};
}
PD_BUILD_OP(gaps_scale_two)
    .Inputs({"X"})
    .Outputs({"Out"})
    .SetKernelFn(PD_KERNEL(ScaleTwo));
