// paddle::DataType and the element types custom ops name (float16, bfloat16, complex),
// mapped onto ATen's scalar types.
#pragma once
#include <ATen/ATen.h>
#include <c10/macros/Macros.h>
#include <c10/util/complex.h>
#include <complex>
#include <type_traits>
#include <ostream>
#include <string>

namespace phi {
enum class DataType {
  UNDEFINED = 0,
  BOOL,
  UINT8,
  INT8,
  UINT16,
  INT16,
  UINT32,
  INT32,
  UINT64,
  INT64,
  FLOAT32,
  FLOAT64,
  COMPLEX64,
  COMPLEX128,
  PSTRING,
  FLOAT16,
  BFLOAT16,
  FLOAT8_E4M3FN,
  FLOAT8_E5M2,
  NUM_DATA_TYPES,
  ALL_DTYPE = UNDEFINED,
};

namespace dtype {
using float16 = c10::Half;
using bfloat16 = c10::BFloat16;

// Paddle's complex number: public `real` and `imag` fields (kernels read x.real / x.imag),
// laid out like c10::complex<T> / std::complex<T>, so tensor data of ATen's complex dtypes is
// read through it directly. Converts to and from c10::complex and std::complex.
template <typename T>
struct alignas(2 * sizeof(T)) complex {
  T real;
  T imag;
  using value_type = T;

  C10_HOST_DEVICE constexpr complex() : real(0), imag(0) {}
  C10_HOST_DEVICE constexpr complex(T re, T im = T(0)) : real(re), imag(im) {}  // NOLINT
  template <typename U, std::enable_if_t<std::is_arithmetic_v<U> && !std::is_same_v<U, T>, int> = 0>
  C10_HOST_DEVICE constexpr complex(U re) : real(static_cast<T>(re)), imag(0) {}  // NOLINT
  template <typename U, std::enable_if_t<!std::is_same_v<U, T>, int> = 0>
  C10_HOST_DEVICE explicit constexpr complex(const complex<U>& o)
      : real(static_cast<T>(o.real)), imag(static_cast<T>(o.imag)) {}
  C10_HOST_DEVICE constexpr complex(const c10::complex<T>& c) : real(c.real()), imag(c.imag()) {}  // NOLINT
  complex(const std::complex<T>& c) : real(c.real()), imag(c.imag()) {}  // NOLINT
  C10_HOST_DEVICE constexpr operator c10::complex<T>() const { return c10::complex<T>(real, imag); }  // NOLINT
  operator std::complex<T>() const { return std::complex<T>(real, imag); }  // NOLINT
  C10_HOST_DEVICE explicit operator bool() const { return real != T(0) || imag != T(0); }

  C10_HOST_DEVICE complex& operator+=(const complex& o) {
    real += o.real;
    imag += o.imag;
    return *this;
  }
  C10_HOST_DEVICE complex& operator-=(const complex& o) {
    real -= o.real;
    imag -= o.imag;
    return *this;
  }
  C10_HOST_DEVICE complex& operator*=(const complex& o) { return *this = *this * o; }
  C10_HOST_DEVICE complex& operator/=(const complex& o) { return *this = *this / o; }

  C10_HOST_DEVICE friend complex operator+(const complex& a, const complex& b) {
    return complex(a.real + b.real, a.imag + b.imag);
  }
  C10_HOST_DEVICE friend complex operator-(const complex& a, const complex& b) {
    return complex(a.real - b.real, a.imag - b.imag);
  }
  C10_HOST_DEVICE friend complex operator*(const complex& a, const complex& b) {
    return complex(a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real);
  }
  C10_HOST_DEVICE friend complex operator/(const complex& a, const complex& b) {
    return complex(c10::complex<T>(a) / c10::complex<T>(b));
  }
  C10_HOST_DEVICE friend complex operator-(const complex& a) { return complex(-a.real, -a.imag); }
  C10_HOST_DEVICE friend complex operator+(const complex& a) { return a; }
  C10_HOST_DEVICE friend bool operator==(const complex& a, const complex& b) {
    return a.real == b.real && a.imag == b.imag;
  }
  C10_HOST_DEVICE friend bool operator!=(const complex& a, const complex& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const complex& a) {
    return os << "real:" << a.real << " imag:" << a.imag;
  }
};
template <typename T>
C10_HOST_DEVICE T abs(const complex<T>& a) {
  return std::abs(c10::complex<T>(a));
}
template <typename T>
C10_HOST_DEVICE T arg(const complex<T>& a) {
  return std::arg(c10::complex<T>(a));
}
template <typename T>
C10_HOST_DEVICE complex<T> conj(const complex<T>& a) {
  return complex<T>(a.real, -a.imag);
}
template <typename T>
C10_HOST_DEVICE complex<T> exp(const complex<T>& a) {
  return complex<T>(c10_complex_math::exp(c10::complex<T>(a)));
}
template <typename T>
C10_HOST_DEVICE complex<T> sqrt(const complex<T>& a) {
  return complex<T>(c10_complex_math::sqrt(c10::complex<T>(a)));
}
template <typename T>
C10_HOST_DEVICE complex<T> log(const complex<T>& a) {
  return complex<T>(c10_complex_math::log(c10::complex<T>(a)));
}
using float8_e4m3fn = c10::Float8_e4m3fn;
using float8_e5m2 = c10::Float8_e5m2;
}  // namespace dtype
}  // namespace phi

namespace paddle {
using DataType = phi::DataType;
using float16 = phi::dtype::float16;
using bfloat16 = phi::dtype::bfloat16;
using complex64 = phi::dtype::complex<float>;
using complex128 = phi::dtype::complex<double>;

namespace compat {
// The ATen scalar type of a C++ element type (Paddle's complex included).
template <typename T>
struct ScalarTypeOf {
  static constexpr at::ScalarType value = c10::CppTypeToScalarType<T>::value;
};
template <>
struct ScalarTypeOf<phi::dtype::complex<float>> {
  static constexpr at::ScalarType value = at::kComplexFloat;
};
template <>
struct ScalarTypeOf<phi::dtype::complex<double>> {
  static constexpr at::ScalarType value = at::kComplexDouble;
};

// DataType <-> at::ScalarType; UNDEFINED <-> Undefined.
inline at::ScalarType ToScalarType(DataType d) {
  switch (d) {
    case DataType::BOOL: return at::kBool;
    case DataType::UINT8: return at::kByte;
    case DataType::INT8: return at::kChar;
    case DataType::UINT16: return at::kUInt16;
    case DataType::INT16: return at::kShort;
    case DataType::UINT32: return at::kUInt32;
    case DataType::INT32: return at::kInt;
    case DataType::UINT64: return at::kUInt64;
    case DataType::INT64: return at::kLong;
    case DataType::FLOAT32: return at::kFloat;
    case DataType::FLOAT64: return at::kDouble;
    case DataType::COMPLEX64: return at::kComplexFloat;
    case DataType::COMPLEX128: return at::kComplexDouble;
    case DataType::FLOAT16: return at::kHalf;
    case DataType::BFLOAT16: return at::kBFloat16;
    case DataType::FLOAT8_E4M3FN: return at::kFloat8_e4m3fn;
    case DataType::FLOAT8_E5M2: return at::kFloat8_e5m2;
    default: return at::ScalarType::Undefined;
  }
}

inline DataType FromScalarType(at::ScalarType s) {
  switch (s) {
    case at::kBool: return DataType::BOOL;
    case at::kByte: return DataType::UINT8;
    case at::kChar: return DataType::INT8;
    case at::kUInt16: return DataType::UINT16;
    case at::kShort: return DataType::INT16;
    case at::kUInt32: return DataType::UINT32;
    case at::kInt: return DataType::INT32;
    case at::kUInt64: return DataType::UINT64;
    case at::kLong: return DataType::INT64;
    case at::kFloat: return DataType::FLOAT32;
    case at::kDouble: return DataType::FLOAT64;
    case at::kComplexFloat: return DataType::COMPLEX64;
    case at::kComplexDouble: return DataType::COMPLEX128;
    case at::kHalf: return DataType::FLOAT16;
    case at::kBFloat16: return DataType::BFLOAT16;
    case at::kFloat8_e4m3fn: return DataType::FLOAT8_E4M3FN;
    case at::kFloat8_e5m2: return DataType::FLOAT8_E5M2;
    default: return DataType::UNDEFINED;
  }
}
}  // namespace compat

// Paddle's names for the data types, as printed in its messages ("float32", ...).
inline std::string DataTypeToString(DataType d) {
  switch (d) {
    case DataType::BOOL: return "bool";
    case DataType::UINT8: return "uint8";
    case DataType::INT8: return "int8";
    case DataType::UINT16: return "uint16";
    case DataType::INT16: return "int16";
    case DataType::UINT32: return "uint32";
    case DataType::INT32: return "int32";
    case DataType::UINT64: return "uint64";
    case DataType::INT64: return "int64";
    case DataType::FLOAT32: return "float32";
    case DataType::FLOAT64: return "float64";
    case DataType::COMPLEX64: return "complex64";
    case DataType::COMPLEX128: return "complex128";
    case DataType::PSTRING: return "pstring";
    case DataType::FLOAT16: return "float16";
    case DataType::BFLOAT16: return "bfloat16";
    case DataType::FLOAT8_E4M3FN: return "float8_e4m3fn";
    case DataType::FLOAT8_E5M2: return "float8_e5m2";
    default: return "Undefined";
  }
}
inline std::string ToString(DataType d) { return DataTypeToString(d); }
}  // namespace paddle

namespace phi {
inline std::ostream& operator<<(std::ostream& os, DataType d) {
  return os << paddle::DataTypeToString(d);
}
}  // namespace phi

namespace phi {
using float16 = dtype::float16;
using bfloat16 = dtype::bfloat16;
using complex64 = dtype::complex<float>;
using complex128 = dtype::complex<double>;
using float8_e4m3fn = dtype::float8_e4m3fn;
using float8_e5m2 = dtype::float8_e5m2;

// DataType -> C++ element type (DataTypeToCppType<DataType::FLOAT32>::type is float), and back.
template <DataType D>
struct DataTypeToCppType;
template <typename T>
struct CppTypeToDataType {
  static constexpr DataType Type() { return DataType::UNDEFINED; }
};
#define PADDLE_COMPAT_DTYPE_PAIR(CPP, ENUM)                           \
  template <>                                                         \
  struct DataTypeToCppType<DataType::ENUM> {                          \
    using type = CPP;                                                 \
  };                                                                  \
  template <>                                                         \
  struct CppTypeToDataType<CPP> {                                     \
    static constexpr DataType Type() { return DataType::ENUM; }       \
    static constexpr DataType value = DataType::ENUM;                 \
  };
PADDLE_COMPAT_DTYPE_PAIR(bool, BOOL)
PADDLE_COMPAT_DTYPE_PAIR(uint8_t, UINT8)
PADDLE_COMPAT_DTYPE_PAIR(int8_t, INT8)
PADDLE_COMPAT_DTYPE_PAIR(uint16_t, UINT16)
PADDLE_COMPAT_DTYPE_PAIR(int16_t, INT16)
PADDLE_COMPAT_DTYPE_PAIR(uint32_t, UINT32)
PADDLE_COMPAT_DTYPE_PAIR(int32_t, INT32)
PADDLE_COMPAT_DTYPE_PAIR(uint64_t, UINT64)
PADDLE_COMPAT_DTYPE_PAIR(int64_t, INT64)
PADDLE_COMPAT_DTYPE_PAIR(float, FLOAT32)
PADDLE_COMPAT_DTYPE_PAIR(double, FLOAT64)
PADDLE_COMPAT_DTYPE_PAIR(complex64, COMPLEX64)
PADDLE_COMPAT_DTYPE_PAIR(complex128, COMPLEX128)
PADDLE_COMPAT_DTYPE_PAIR(float16, FLOAT16)
PADDLE_COMPAT_DTYPE_PAIR(bfloat16, BFLOAT16)
PADDLE_COMPAT_DTYPE_PAIR(float8_e4m3fn, FLOAT8_E4M3FN)
PADDLE_COMPAT_DTYPE_PAIR(float8_e5m2, FLOAT8_E5M2)
#undef PADDLE_COMPAT_DTYPE_PAIR

// Bytes per element (0 for UNDEFINED / PSTRING).
inline size_t SizeOf(DataType d) {
  const auto s = paddle::compat::ToScalarType(d);
  return s == at::ScalarType::Undefined ? 0 : c10::elementSize(s);
}
inline bool IsComplexType(DataType d) { return d == DataType::COMPLEX64 || d == DataType::COMPLEX128; }
inline bool IsFloatingType(DataType d) {
  return d == DataType::FLOAT32 || d == DataType::FLOAT64 || d == DataType::FLOAT16 ||
         d == DataType::BFLOAT16 || d == DataType::FLOAT8_E4M3FN || d == DataType::FLOAT8_E5M2;
}
inline bool IsIntegerType(DataType d) {
  return d == DataType::UINT8 || d == DataType::INT8 || d == DataType::UINT16 || d == DataType::INT16 ||
         d == DataType::UINT32 || d == DataType::INT32 || d == DataType::UINT64 || d == DataType::INT64;
}
using paddle::DataTypeToString;
}  // namespace phi

namespace paddle {
namespace experimental {
using DataType = phi::DataType;
using phi::SizeOf;
using float16 = phi::dtype::float16;
using bfloat16 = phi::dtype::bfloat16;
using complex64 = phi::dtype::complex<float>;
using complex128 = phi::dtype::complex<double>;
}  // namespace experimental
}  // namespace paddle
