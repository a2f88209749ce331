// CUDA kernels of examples/cpp_ops/leaky_relu_op.cc (built when the example runs on a GPU).
#include <vector>

#include "paddle/extension.h"

template <typename T>
__global__ void leaky_relu_kernel(const T* x, T* out, int64_t n, float alpha) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = x[i] > T(0) ? x[i] : static_cast<T>(alpha) * x[i];
}

template <typename T>
__global__ void leaky_relu_grad_kernel(const T* x, const T* dout, T* dx, int64_t n, float alpha) {
  int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) dx[i] = x[i] > T(0) ? dout[i] : static_cast<T>(alpha) * dout[i];
}

std::vector<paddle::Tensor> LeakyReluCUDA(const paddle::Tensor& x, float alpha) {
  auto out = paddle::empty_like(x);
  const int64_t n = x.numel();
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads);
  PD_DISPATCH_FLOATING_TYPES(x.type(), "leaky_relu_cuda", ([&] {
    leaky_relu_kernel<data_t><<<blocks, threads, 0, x.stream()>>>(
        x.data<data_t>(), out.data<data_t>(), n, alpha);
  }));
  return {out};
}

std::vector<paddle::Tensor> LeakyReluGradCUDA(const paddle::Tensor& x, const paddle::Tensor& dout,
                                              float alpha) {
  auto dx = paddle::empty_like(x);
  const int64_t n = x.numel();
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads);
  PD_DISPATCH_FLOATING_TYPES(x.type(), "leaky_relu_grad_cuda", ([&] {
    leaky_relu_grad_kernel<data_t><<<blocks, threads, 0, x.stream()>>>(
        x.data<data_t>(), dout.data<data_t>(), dx.data<data_t>(), n, alpha);
  }));
  return {dx};
}
