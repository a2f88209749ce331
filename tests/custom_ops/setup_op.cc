// A small op for the setup()-built package test (tests/test_custom_ops.py).
#include <vector>

#include "paddle/extension.h"

std::vector<paddle::Tensor> AddScalar(const paddle::Tensor& x, float value) {
  return {paddle::Tensor(x.aten() + value)};
}

PD_BUILD_OP(setup_add_scalar)
    .Inputs({"X"})
    .Outputs({"Out"})
    .Attrs({"value: float"})
    .SetKernelFn(PD_KERNEL(AddScalar));
