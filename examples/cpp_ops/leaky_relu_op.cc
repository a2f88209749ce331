// A C++ custom operator written against Paddle's extension API: leaky ReLU with an `alpha`
// attribute, its backward, and an in-place variant. examples/cpp_custom_op.py builds it with
// paddle.utils.cpp_extension.load and uses it from Paddle code and from torch code.
#include <vector>

#include "paddle/extension.h"

template <typename T>
void leaky_relu_loop(const T* x, T* out, int64_t n, float alpha) {
  for (int64_t i = 0; i < n; ++i) out[i] = x[i] > T(0) ? x[i] : static_cast<T>(alpha) * x[i];
}

template <typename T>
void leaky_relu_grad_loop(const T* x, const T* dout, T* dx, int64_t n, float alpha) {
  for (int64_t i = 0; i < n; ++i) dx[i] = x[i] > T(0) ? dout[i] : static_cast<T>(alpha) * dout[i];
}

#ifdef PADDLE_WITH_CUDA
std::vector<paddle::Tensor> LeakyReluCUDA(const paddle::Tensor& x, float alpha);
std::vector<paddle::Tensor> LeakyReluGradCUDA(const paddle::Tensor& x,
                                              const paddle::Tensor& dout, float alpha);
#endif

std::vector<paddle::Tensor> LeakyReluForward(const paddle::Tensor& x, float alpha) {
#ifdef PADDLE_WITH_CUDA
  if (x.is_gpu()) return LeakyReluCUDA(x, alpha);
#endif
  PD_CHECK(x.is_cpu(), "leaky_relu: this build has CPU kernels only");
  auto out = paddle::empty_like(x);
  PD_DISPATCH_FLOATING_TYPES(x.type(), "leaky_relu_forward", ([&] {
    leaky_relu_loop<data_t>(x.data<data_t>(), out.data<data_t>(), x.numel(), alpha);
  }));
  return {out};
}

std::vector<paddle::Tensor> LeakyReluBackward(const paddle::Tensor& x,
                                              const paddle::Tensor& dout, float alpha) {
#ifdef PADDLE_WITH_CUDA
  if (x.is_gpu()) return LeakyReluGradCUDA(x, dout, alpha);
#endif
  auto dx = paddle::empty_like(x);
  PD_DISPATCH_FLOATING_TYPES(x.type(), "leaky_relu_backward", ([&] {
    leaky_relu_grad_loop<data_t>(x.data<data_t>(), dout.data<data_t>(), dx.data<data_t>(),
                                 x.numel(), alpha);
  }));
  return {dx};
}

// In place: the input becomes the output. Its grad op needs the output (X is overwritten)
// and rewrites the incoming gradient in place.
void LeakyReluInplace(paddle::Tensor& x, float alpha) {  // NOLINT
  PD_CHECK(x.is_cpu(), "leaky_relu_: CPU only");
  PD_DISPATCH_FLOATING_TYPES(x.type(), "leaky_relu_inplace", ([&] {
    data_t* d = x.data<data_t>();
    leaky_relu_loop<data_t>(d, d, x.numel(), alpha);
  }));
}

void LeakyReluInplaceGrad(const paddle::Tensor& out, paddle::Tensor& dout, float alpha) {  // NOLINT
  PD_DISPATCH_FLOATING_TYPES(out.type(), "leaky_relu_inplace_grad", ([&] {
    const data_t* o = out.data<data_t>();
    data_t* g = dout.data<data_t>();
    for (int64_t i = 0; i < out.numel(); ++i)
      if (!(o[i] > data_t(0))) g[i] *= static_cast<data_t>(alpha);
  }));
}

PD_BUILD_OP(leaky_relu)
    .Inputs({"X"})
    .Outputs({"Out"})
    .Attrs({"alpha: float"})
    .SetKernelFn(PD_KERNEL(LeakyReluForward));

PD_BUILD_GRAD_OP(leaky_relu)
    .Inputs({"X", paddle::Grad("Out")})
    .Outputs({paddle::Grad("X")})
    .Attrs({"alpha: float"})
    .SetKernelFn(PD_KERNEL(LeakyReluBackward));

PD_BUILD_OP(leaky_relu_)
    .Inputs({"X"})
    .Outputs({"Out"})
    .Attrs({"alpha: float"})
    .SetInplaceMap({{"X", "Out"}})
    .SetKernelFn(PD_KERNEL(LeakyReluInplace));

PD_BUILD_GRAD_OP(leaky_relu_)
    .Inputs({"Out", paddle::Grad("Out")})
    .Outputs({paddle::Grad("X")})
    .Attrs({"alpha: float"})
    .SetInplaceMap({{paddle::Grad("Out"), paddle::Grad("X")}})
    .SetKernelFn(PD_KERNEL(LeakyReluInplaceGrad));
