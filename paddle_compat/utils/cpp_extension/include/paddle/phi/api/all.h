// Paddle's umbrella API header; here it is the extension header.
#pragma once
#include "paddle/extension.h"
