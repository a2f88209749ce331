// Custom ops used by tests/test_custom_ops.py: one per feature of Paddle's extension API
// (grad and double-grad ops, in-place, attributes, optional and vector inputs, several
// outputs, InferShape/InferDtype, errors). Written for paddle_compat's test suite.
#include <cmath>
#include <vector>

#include "paddle/extension.h"

// ---- relu: forward + backward, element loop over the dispatched type
template <typename T>
void relu_loop(const T* x, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] > T(0) ? x[i] : T(0);
}

std::vector<paddle::Tensor> ReluForward(const paddle::Tensor& x) {
  PD_CHECK(x.is_cpu(), "relu: only CPU tensors");
  paddle::Tensor out(paddle::PlaceType::kCPU, x.shape());
  PD_DISPATCH_FLOATING_TYPES(x.type(), "relu_cpu_forward", ([&] {
    relu_loop<data_t>(x.data<data_t>(), out.mutable_data<data_t>(x.place()), x.numel());
  }));
  return {out};
}

std::vector<paddle::Tensor> ReluBackward(const paddle::Tensor& x, const paddle::Tensor& out,
                                         const paddle::Tensor& grad_out) {
  paddle::Tensor grad_x(paddle::PlaceType::kCPU, x.shape());
  PD_DISPATCH_FLOATING_TYPES(out.type(), "relu_cpu_backward", ([&] {
    const data_t* o = out.data<data_t>();
    const data_t* g = grad_out.data<data_t>();
    data_t* gx = grad_x.mutable_data<data_t>(x.place());
    for (int64_t i = 0; i < out.numel(); ++i) gx[i] = o[i] > data_t(0) ? g[i] : data_t(0);
  }));
  return {grad_x};
}

PD_BUILD_OP(test_relu).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(ReluForward));
PD_BUILD_GRAD_OP(test_relu)
    .Inputs({"X", "Out", paddle::Grad("Out")})
    .Outputs({paddle::Grad("X")})
    .SetKernelFn(PD_KERNEL(ReluBackward));

// ---- relu in place: the input is the output; its grad op is in place too
void ReluInplaceForward(paddle::Tensor& x) {  // NOLINT
  PD_DISPATCH_FLOATING_TYPES(x.type(), "relu_inplace_forward", ([&] {
    data_t* d = x.data<data_t>();
    relu_loop<data_t>(d, d, x.numel());
  }));
}

void ReluInplaceBackward(const paddle::Tensor& out, paddle::Tensor& grad_out) {  // NOLINT
  PD_DISPATCH_FLOATING_TYPES(out.type(), "relu_inplace_backward", ([&] {
    const data_t* o = out.data<data_t>();
    data_t* g = grad_out.data<data_t>();
    for (int64_t i = 0; i < out.numel(); ++i)
      if (!(o[i] > data_t(0))) g[i] = data_t(0);
  }));
}

PD_BUILD_OP(test_relu_inplace)
    .Inputs({"X"})
    .Outputs({"Out"})
    .SetInplaceMap({{"X", "Out"}})
    .SetKernelFn(PD_KERNEL(ReluInplaceForward));
PD_BUILD_GRAD_OP(test_relu_inplace)
    .Inputs({"Out", paddle::Grad("Out")})
    .Outputs({paddle::Grad("X")})
    .SetInplaceMap({{paddle::Grad("Out"), paddle::Grad("X")}})
    .SetKernelFn(PD_KERNEL(ReluInplaceBackward));

// ---- attributes of every type: out = x * scale + offset (+ checks on the others)
std::vector<paddle::Tensor> AttrsForward(const paddle::Tensor& x, bool flag, int i, float f,
                                         int64_t l, const std::string& s,
                                         const std::vector<int>& vi,
                                         const std::vector<float>& vf,
                                         const std::vector<int64_t>& vl,
                                         const std::vector<std::string>& vs, double d) {
  // out = x * f * d + i + l + s.size() + sum(vi) + sum(vf) + sum(vl) + vs.size(), negated if flag
  double add = i + l + static_cast<double>(s.size()) + static_cast<double>(vs.size());
  for (int v : vi) add += v;
  for (float v : vf) add += v;
  for (int64_t v : vl) add += static_cast<double>(v);
  paddle::Tensor out(paddle::PlaceType::kCPU, x.shape());
  const float* xd = x.data<float>();
  float* od = out.mutable_data<float>(x.place());
  for (int64_t k = 0; k < x.numel(); ++k) {
    double v = xd[k] * static_cast<double>(f) * d + add;
    od[k] = static_cast<float>(flag ? -v : v);
  }
  return {out};
}

PD_BUILD_OP(test_attrs)
    .Inputs({"X"})
    .Outputs({"Out"})
    .Attrs({"flag: bool", "i: int", "f: float", "l: int64_t", "s: std::string",
            "vi: std::vector<int>", "vf: std::vector<float>", "vl: std::vector<int64_t>",
            "vs: std::vector<std::string>", "d: double"})
    .SetKernelFn(PD_KERNEL(AttrsForward));

// ---- an optional input: out = x + (y or 0)
std::vector<paddle::Tensor> AddOptional(const paddle::Tensor& x,
                                        const paddle::optional<paddle::Tensor>& y) {
  paddle::Tensor out(paddle::PlaceType::kCPU, x.shape());
  const float* xd = x.data<float>();
  float* od = out.mutable_data<float>(x.place());
  const float* yd = y ? y->data<float>() : nullptr;
  for (int64_t k = 0; k < x.numel(); ++k) od[k] = xd[k] + (yd ? yd[k] : 0.0f);
  return {out};
}

std::vector<paddle::Tensor> AddOptionalGrad(const paddle::Tensor& x,
                                            const paddle::optional<paddle::Tensor>& y,
                                            const paddle::Tensor& grad_out) {
  paddle::Tensor gx = grad_out.copy_to(x.place(), true);
  if (y) return {gx, grad_out.copy_to(x.place(), true)};
  return {gx, paddle::Tensor()};
}

PD_BUILD_OP(test_add_optional)
    .Inputs({"X", paddle::Optional("Y")})
    .Outputs({"Out"})
    .SetKernelFn(PD_KERNEL(AddOptional));
PD_BUILD_GRAD_OP(test_add_optional)
    .Inputs({"X", paddle::Optional("Y"), paddle::Grad("Out")})
    .Outputs({paddle::Grad("X"), paddle::Grad(paddle::Optional("Y"))})
    .SetKernelFn(PD_KERNEL(AddOptionalGrad));

// ---- a vector input: the sum of all inputs (same shapes)
std::vector<paddle::Tensor> SumVec(const std::vector<paddle::Tensor>& xs) {
  PD_CHECK(!xs.empty(), "test_sum_vec needs at least one tensor");
  paddle::Tensor out(paddle::PlaceType::kCPU, xs[0].shape());
  float* od = out.mutable_data<float>(xs[0].place());
  for (int64_t k = 0; k < xs[0].numel(); ++k) od[k] = 0.0f;
  for (const auto& x : xs) {
    PD_CHECK(x.shape() == xs[0].shape(), "test_sum_vec: all inputs must have the same shape");
    const float* xd = x.data<float>();
    for (int64_t k = 0; k < x.numel(); ++k) od[k] += xd[k];
  }
  return {out};
}

std::vector<paddle::Tensor> SumVecGrad(const std::vector<paddle::Tensor>& xs,
                                       const paddle::Tensor& grad_out) {
  std::vector<paddle::Tensor> grads;
  for (size_t k = 0; k < xs.size(); ++k) grads.push_back(grad_out.copy_to(xs[k].place(), true));
  return grads;
}

PD_BUILD_OP(test_sum_vec)
    .Inputs({paddle::Vec("X")})
    .Outputs({"Out"})
    .SetKernelFn(PD_KERNEL(SumVec));
PD_BUILD_GRAD_OP(test_sum_vec)
    .Inputs({paddle::Vec("X"), paddle::Grad("Out")})
    .Outputs({paddle::Grad(paddle::Vec("X"))})
    .SetKernelFn(PD_KERNEL(SumVecGrad));

// ---- several outputs of different dtypes, shapes from InferShape / InferDtype
std::vector<paddle::Tensor> RowStats(const paddle::Tensor& x, int64_t k) {
  PD_CHECK(x.shape().size() == 2, "test_row_stats takes a 2-D tensor");
  const int64_t n = x.shape()[0], m = x.shape()[1];
  paddle::Tensor sum(paddle::PlaceType::kCPU, {n});
  paddle::Tensor argmax(paddle::PlaceType::kCPU, {n});
  paddle::Tensor scaled(paddle::PlaceType::kCPU, {n, m});
  const float* xd = x.data<float>();
  float* s = sum.mutable_data<float>(x.place());
  int64_t* a = argmax.mutable_data<int64_t>(x.place());
  float* sc = scaled.mutable_data<float>(x.place());
  for (int64_t r = 0; r < n; ++r) {
    s[r] = 0;
    a[r] = 0;
    for (int64_t c = 0; c < m; ++c) {
      s[r] += xd[r * m + c];
      if (xd[r * m + c] > xd[r * m + a[r]]) a[r] = c;
      sc[r * m + c] = xd[r * m + c] * static_cast<float>(k);
    }
  }
  return {sum, argmax, scaled};
}

std::vector<std::vector<int64_t>> RowStatsShape(const std::vector<int64_t>& x, int64_t k) {
  return {{x[0]}, {x[0]}, x};
}

std::vector<paddle::DataType> RowStatsDtype(const paddle::DataType& x) {
  return {x, paddle::DataType::INT64, x};
}

PD_BUILD_OP(test_row_stats)
    .Inputs({"X"})
    .Outputs({"Sum", "Argmax", "Scaled"})
    .Attrs({"k: int64_t"})
    .SetKernelFn(PD_KERNEL(RowStats))
    .SetInferShapeFn(PD_INFER_SHAPE(RowStatsShape))
    .SetInferDtypeFn(PD_INFER_DTYPE(RowStatsDtype));

// ---- square with a double-grad op: out = x^2, dx = 2 x dout, and their derivatives
std::vector<paddle::Tensor> Square(const paddle::Tensor& x) {
  return {paddle::Tensor(x.aten() * x.aten())};
}
std::vector<paddle::Tensor> SquareGrad(const paddle::Tensor& x, const paddle::Tensor& dout) {
  return {paddle::Tensor(2 * x.aten() * dout.aten())};
}
// grad op: (X, Out@GRAD) -> X@GRAD; its grads: d/dX = 2 dout ddx, d/d(dout) = 2 x ddx
std::vector<paddle::Tensor> SquareDoubleGrad(const paddle::Tensor& x, const paddle::Tensor& dout,
                                             const paddle::Tensor& ddx) {
  return {paddle::Tensor(2 * dout.aten() * ddx.aten()),
          paddle::Tensor(2 * x.aten() * ddx.aten())};
}

PD_BUILD_OP(test_square).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(Square));
PD_BUILD_GRAD_OP(test_square)
    .Inputs({"X", paddle::Grad("Out")})
    .Outputs({paddle::Grad("X")})
    .SetKernelFn(PD_KERNEL(SquareGrad));
PD_BUILD_DOUBLE_GRAD_OP(test_square)
    .Inputs({"X", paddle::Grad("Out"), paddle::Grad(paddle::Grad("X"))})
    .Outputs({paddle::Grad("X"), paddle::Grad(paddle::Grad("Out"))})
    .SetKernelFn(PD_KERNEL(SquareDoubleGrad));

// ---- an op without a grad op, and ops that fail
std::vector<paddle::Tensor> NoGrad(const paddle::Tensor& x) {
  return {paddle::Tensor(x.aten() + 1)};
}
PD_BUILD_OP(test_no_grad).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(NoGrad));

std::vector<paddle::Tensor> Fails(const paddle::Tensor& x, int code) {
  if (code == 1) PADDLE_THROW(phi::errors::InvalidArgument("code %d is invalid", code));
  if (code == 2) PADDLE_THROW(phi::errors::Unimplemented("code %d is not implemented", code));
  if (code == 3) PADDLE_THROW(phi::errors::OutOfRange("code %d is out of range", code));
  PD_CHECK(code == 0, "test_fails got code ", code);
  return {paddle::Tensor(x.aten().clone())};
}
PD_BUILD_OP(test_fails)
    .Inputs({"X"})
    .Outputs({"Out"})
    .Attrs({"code: int"})
    .SetKernelFn(PD_KERNEL(Fails));
