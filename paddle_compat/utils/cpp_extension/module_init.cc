// The extension's Python module: its init hands over to binding.cc's paddle_compat_bind.
#include <pybind11/pybind11.h>

void paddle_compat_bind(pybind11::module_& m);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { paddle_compat_bind(m); }
