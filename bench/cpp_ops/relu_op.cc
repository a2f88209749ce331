// The custom op bench/bench_custom_op.py times: ReLU with an element loop, as custom ops are
// commonly written. Plain Paddle extension API: the same file builds on real Paddle.
#include <vector>

#include "paddle/extension.h"

std::vector<paddle::Tensor> ReluForward(const paddle::Tensor& x) {
  auto out = paddle::empty_like(x);
  PD_DISPATCH_FLOATING_TYPES(x.type(), "relu_forward", ([&] {
    const data_t* in = x.data<data_t>();
    data_t* o = out.data<data_t>();
    const int64_t n = x.numel();
    for (int64_t i = 0; i < n; ++i) o[i] = in[i] > data_t(0) ? in[i] : data_t(0);
  }));
  return {out};
}

std::vector<paddle::Tensor> ReluBackward(const paddle::Tensor& out, const paddle::Tensor& dout) {
  auto dx = paddle::empty_like(out);
  PD_DISPATCH_FLOATING_TYPES(out.type(), "relu_backward", ([&] {
    const data_t* o = out.data<data_t>();
    const data_t* g = dout.data<data_t>();
    data_t* d = dx.data<data_t>();
    for (int64_t i = 0; i < out.numel(); ++i) d[i] = o[i] > data_t(0) ? g[i] : data_t(0);
  }));
  return {dx};
}

PD_BUILD_OP(bench_relu).Inputs({"X"}).Outputs({"Out"}).SetKernelFn(PD_KERNEL(ReluForward));
PD_BUILD_GRAD_OP(bench_relu)
    .Inputs({"Out", paddle::Grad("Out")})
    .Outputs({paddle::Grad("X")})
    .SetKernelFn(PD_KERNEL(ReluBackward));
