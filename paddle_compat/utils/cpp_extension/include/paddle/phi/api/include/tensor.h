// Paddle's header path phi/api/include/tensor.h: paddle_compat serves its whole C++ extension API from
// paddle/extension.h, so this path just includes it.
#pragma once
#include "paddle/extension.h"
