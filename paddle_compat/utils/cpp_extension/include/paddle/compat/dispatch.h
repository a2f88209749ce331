// PD_DISPATCH_* / PD_VISIT_* macros: run a templated lambda for the tensor's element type.
//
//   PD_DISPATCH_FLOATING_TYPES(x.type(), "my_kernel", ([&] {
//     my_kernel<data_t>(x.data<data_t>(), ...);
//   }));
//
// Inside the lambda `data_t` names the C++ element type. A dtype outside the family throws
// (PD_THROW, so the message also names the source file): function "my_kernel" is not
// implemented for data type `int32`.
#pragma once
#include "paddle/compat/dtype.h"
#include "paddle/compat/exception.h"

// One `case` of a dispatch switch: binds HINT to the C++ type and calls the lambda.
#define PD_PRIVATE_CASE_TYPE_USING_HINT(NAME, enum_type, type, HINT, ...) \
  case enum_type: {                                                       \
    using HINT = type;                                                    \
    __VA_ARGS__();                                                        \
    break;                                                                \
  }
#define PD_PRIVATE_CASE_TYPE(NAME, enum_type, type, ...) \
  PD_PRIVATE_CASE_TYPE_USING_HINT(NAME, enum_type, type, data_t, __VA_ARGS__)
// A case for a DataType given by its enumerator (the *_AND_N_TYPE(S) variants).
#define PD_COMPAT_CASE_OF(NAME, DTYPE, ...) \
  PD_PRIVATE_CASE_TYPE(NAME, DTYPE, typename ::phi::DataTypeToCppType<DTYPE>::type, __VA_ARGS__)

#define PD_COMPAT_VISIT_BEGIN(TYPE)                 \
  [&] {                                             \
    const ::paddle::DataType __pd_dtype__ = (TYPE); \
    switch (__pd_dtype__) {
#define PD_COMPAT_VISIT_END(NAME)                                                                      \
  default:                                                                                             \
    PD_THROW("function " #NAME " is not implemented for data type `", __pd_dtype__, "`");             \
    }                                                                                                  \
  }()

// The type families.
#define PD_COMPAT_CASES_FLOATING(NAME, ...)                                   \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::FLOAT32, float, __VA_ARGS__) \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::FLOAT64, double, __VA_ARGS__)
#define PD_COMPAT_CASES_HALF(NAME, ...)                                                   \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::FLOAT16, ::paddle::float16, __VA_ARGS__) \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::BFLOAT16, ::paddle::bfloat16, __VA_ARGS__)
#define PD_COMPAT_CASES_BASE_INTEGRAL(NAME, ...)                            \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::INT32, int, __VA_ARGS__) \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::INT64, int64_t, __VA_ARGS__)
#define PD_COMPAT_CASES_INTEGRAL(NAME, ...)                                      \
  PD_COMPAT_CASES_BASE_INTEGRAL(NAME, __VA_ARGS__)                               \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::INT8, int8_t, __VA_ARGS__)   \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::UINT8, uint8_t, __VA_ARGS__) \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::INT16, int16_t, __VA_ARGS__)
#define PD_COMPAT_CASES_COMPLEX(NAME, ...)                                                    \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::COMPLEX64, ::paddle::complex64, __VA_ARGS__) \
  PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::COMPLEX128, ::paddle::complex128, __VA_ARGS__)
#define PD_COMPAT_CASES_BOOL(NAME, ...) PD_PRIVATE_CASE_TYPE(NAME, ::paddle::DataType::BOOL, bool, __VA_ARGS__)

/* ---- PD_VISIT_* (phi's names) ---- */
#define PD_VISIT_FLOATING_TYPES(TYPE, NAME, ...) \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_FLOATING_AND_HALF_TYPES(TYPE, NAME, ...)                                     \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__)                     \
  PD_COMPAT_CASES_HALF(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_INTEGRAL_TYPES(TYPE, NAME, ...) \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_INTEGRAL(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_BASE_INTEGRAL_TYPES(TYPE, NAME, ...) \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_BASE_INTEGRAL(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_COMPLEX_TYPES(TYPE, NAME, ...) \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_COMPLEX(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_FLOATING_AND_INTEGRAL_TYPES(TYPE, NAME, ...)                 \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__)     \
  PD_COMPAT_CASES_INTEGRAL(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_BOOL_AND_FLOATING_AND_INTEGRAL_TYPES(TYPE, NAME, ...)                       \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_BOOL(NAME, __VA_ARGS__)                        \
  PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) PD_COMPAT_CASES_INTEGRAL(NAME, __VA_ARGS__)    \
  PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...)             \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) \
  PD_COMPAT_CASES_COMPLEX(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_FLOATING_AND_COMPLEX_AND_1_TYPE(T1, TYPE, NAME, ...)                         \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASE_OF(NAME, T1, __VA_ARGS__)                      \
  PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) PD_COMPAT_CASES_COMPLEX(NAME, __VA_ARGS__)     \
  PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_FLOATING_AND_COMPLEX_AND_2_TYPES(T1, T2, TYPE, NAME, ...)                    \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASE_OF(NAME, T1, __VA_ARGS__)                      \
  PD_COMPAT_CASE_OF(NAME, T2, __VA_ARGS__) PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__)       \
  PD_COMPAT_CASES_COMPLEX(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_FLOATING_AND_COMPLEX_AND_3_TYPES(T1, T2, T3, TYPE, NAME, ...)                \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASE_OF(NAME, T1, __VA_ARGS__)                      \
  PD_COMPAT_CASE_OF(NAME, T2, __VA_ARGS__) PD_COMPAT_CASE_OF(NAME, T3, __VA_ARGS__)          \
  PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) PD_COMPAT_CASES_COMPLEX(NAME, __VA_ARGS__)     \
  PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_FLOATING_AND_INTEGRAL_AND_COMPLEX_TYPES(TYPE, NAME, ...)                     \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__)                   \
  PD_COMPAT_CASES_INTEGRAL(NAME, __VA_ARGS__) PD_COMPAT_CASES_COMPLEX(NAME, __VA_ARGS__)     \
  PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_BOOL_AND_FLOATING_AND_INTEGRAL_AND_COMPLEX_TYPES(TYPE, NAME, ...)            \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_BOOL(NAME, __VA_ARGS__)                       \
  PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) PD_COMPAT_CASES_INTEGRAL(NAME, __VA_ARGS__)    \
  PD_COMPAT_CASES_COMPLEX(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_ALL_TYPES(TYPE, NAME, ...)                                                   \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_BOOL(NAME, __VA_ARGS__)                       \
  PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) PD_COMPAT_CASES_HALF(NAME, __VA_ARGS__)        \
  PD_COMPAT_CASES_INTEGRAL(NAME, __VA_ARGS__) PD_COMPAT_CASES_COMPLEX(NAME, __VA_ARGS__)     \
  PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_BOOL_AND_FLOATING_AND_COMPLEX_AND_4_TYPES(T1, T2, T3, T4, TYPE, NAME, ...)   \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASES_BOOL(NAME, __VA_ARGS__)                       \
  PD_COMPAT_CASE_OF(NAME, T1, __VA_ARGS__) PD_COMPAT_CASE_OF(NAME, T2, __VA_ARGS__)          \
  PD_COMPAT_CASE_OF(NAME, T3, __VA_ARGS__) PD_COMPAT_CASE_OF(NAME, T4, __VA_ARGS__)          \
  PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) PD_COMPAT_CASES_COMPLEX(NAME, __VA_ARGS__)     \
  PD_COMPAT_VISIT_END(NAME)
// Floating types plus N more (ATen's *_AND2 style).
#define PD_VISIT_FLOATING_AND_1_TYPE(T1, TYPE, NAME, ...)                                     \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASE_OF(NAME, T1, __VA_ARGS__)                      \
  PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_FLOATING_AND_2_TYPES(T1, T2, TYPE, NAME, ...)                                \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASE_OF(NAME, T1, __VA_ARGS__)                      \
  PD_COMPAT_CASE_OF(NAME, T2, __VA_ARGS__) PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__)       \
  PD_COMPAT_VISIT_END(NAME)
#define PD_VISIT_FLOATING_AND_3_TYPES(T1, T2, T3, TYPE, NAME, ...)                            \
  PD_COMPAT_VISIT_BEGIN(TYPE) PD_COMPAT_CASE_OF(NAME, T1, __VA_ARGS__)                      \
  PD_COMPAT_CASE_OF(NAME, T2, __VA_ARGS__) PD_COMPAT_CASE_OF(NAME, T3, __VA_ARGS__)          \
  PD_COMPAT_CASES_FLOATING(NAME, __VA_ARGS__) PD_COMPAT_VISIT_END(NAME)

/* ---- PD_DISPATCH_* (the names custom ops use) ---- */
#define PD_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) PD_VISIT_FLOATING_TYPES(TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_HALF_TYPES(TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_HALF_TYPES(TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) PD_VISIT_INTEGRAL_TYPES(TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_COMPLEX_TYPES(TYPE, NAME, ...) PD_VISIT_COMPLEX_TYPES(TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_INTEGRAL_TYPES(TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_INTEGRAL_TYPES(TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_COMPLEX_AND_1_TYPE(T1, TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_COMPLEX_AND_1_TYPE(T1, TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_COMPLEX_AND_2_TYPES(T1, T2, TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_COMPLEX_AND_2_TYPES(T1, T2, TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_COMPLEX_AND_3_TYPES(T1, T2, T3, TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_COMPLEX_AND_3_TYPES(T1, T2, T3, TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_INTEGRAL_AND_COMPLEX_TYPES(TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_INTEGRAL_AND_COMPLEX_TYPES(TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_1_TYPE(T1, TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_1_TYPE(T1, TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_2_TYPES(T1, T2, TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_2_TYPES(T1, T2, TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_FLOATING_AND_3_TYPES(T1, T2, T3, TYPE, NAME, ...) \
  PD_VISIT_FLOATING_AND_3_TYPES(T1, T2, T3, TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_BOOL_AND_FLOATING_AND_INTEGRAL_TYPES(TYPE, NAME, ...) \
  PD_VISIT_BOOL_AND_FLOATING_AND_INTEGRAL_TYPES(TYPE, NAME, __VA_ARGS__)
#define PD_DISPATCH_ALL_TYPES(TYPE, NAME, ...) PD_VISIT_ALL_TYPES(TYPE, NAME, __VA_ARGS__)
