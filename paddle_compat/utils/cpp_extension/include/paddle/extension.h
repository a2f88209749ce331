// paddle_compat's stand-in for Paddle's custom-operator header: the same C++ API
// (paddle::Tensor, PD_BUILD_OP, PD_KERNEL, dispatch macros, ...) implemented over ATen.
#pragma once
#include "paddle/compat/exception.h"
#include "paddle/compat/dtype.h"
#include "paddle/compat/place.h"
#include "paddle/compat/tensor.h"
#include "paddle/compat/api.h"
#include "paddle/compat/dispatch.h"
#include "paddle/compat/op_meta.h"
