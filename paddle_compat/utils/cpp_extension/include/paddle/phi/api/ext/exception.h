// Paddle's header path phi/api/ext/exception.h: paddle_compat serves its whole C++ extension API from
// paddle/extension.h, so this path just includes it.
#pragma once
#include "paddle/extension.h"
