// Paddle's header path phi/core/enforce.h: paddle_compat serves its whole C++ extension API from
// paddle/extension.h, so this path just includes it.
#pragma once
#include "paddle/extension.h"
