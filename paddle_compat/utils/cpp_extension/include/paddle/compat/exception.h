// Errors raised by custom-op code (PD_THROW, PD_CHECK, PADDLE_ENFORCE_*): one exception class
// carrying the Python exception kind, translated by the op binding.
#pragma once
#include <cctype>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#ifndef PADDLE_API
#define PADDLE_API
#endif
#ifndef UNUSED
#define UNUSED __attribute__((unused))
#endif
#ifndef DISABLE_COPY_AND_ASSIGN
#define DISABLE_COPY_AND_ASSIGN(classname)         \
 private:                                          \
  classname(const classname&) = delete;            \
  classname(classname&&) = delete;                 \
  classname& operator=(const classname&) = delete; \
  classname& operator=(classname&&) = delete
#endif

namespace paddle {

// Which Python exception a C++ error becomes (Paddle's error codes, same meaning).
enum class ErrorKind : int {
  kLegacy = 0,            // PD_THROW / PD_CHECK: OSError, as in Paddle
  kInvalidArgument = 1,   // ValueError
  kNotFound = 2,          // RuntimeError
  kOutOfRange = 3,        // IndexError
  kAlreadyExists = 4,     // RuntimeError
  kResourceExhausted = 5, // MemoryError
  kPreconditionNotMet = 6,// RuntimeError
  kPermissionDenied = 7,  // RuntimeError
  kExecutionTimeout = 8,  // RuntimeError
  kUnimplemented = 9,     // NotImplementedError
  kUnavailable = 10,      // RuntimeError
  kFatal = 11,            // SystemError
  kExternal = 12,         // OSError
};

class PD_Exception : public std::exception {
 public:
  PD_Exception(std::string msg, ErrorKind kind = ErrorKind::kLegacy)
      : msg_(std::move(msg)), kind_(kind) {}
  const char* what() const noexcept override { return msg_.c_str(); }
  ErrorKind kind() const noexcept { return kind_; }

 private:
  std::string msg_;
  ErrorKind kind_;
};

namespace compat {
inline void StreamAll(std::ostringstream&) {}
template <typename T, typename... Rest>
void StreamAll(std::ostringstream& os, const T& first, const Rest&... rest) {
  os << first;
  StreamAll(os, rest...);
}
template <typename... Args>
std::string Concat(const Args&... args) {
  std::ostringstream os;
  StreamAll(os, args...);
  return os.str();
}
}  // namespace compat
}  // namespace paddle

namespace common {
// Paddle's error codes (the ErrorKind the binding turns into a Python exception type).
namespace errors_detail {
inline const char* KindName(::paddle::ErrorKind k) {
  switch (k) {
    case ::paddle::ErrorKind::kInvalidArgument: return "InvalidArgument";
    case ::paddle::ErrorKind::kNotFound: return "NotFound";
    case ::paddle::ErrorKind::kOutOfRange: return "OutOfRange";
    case ::paddle::ErrorKind::kAlreadyExists: return "AlreadyExists";
    case ::paddle::ErrorKind::kResourceExhausted: return "ResourceExhausted";
    case ::paddle::ErrorKind::kPreconditionNotMet: return "PreconditionNotMet";
    case ::paddle::ErrorKind::kPermissionDenied: return "PermissionDenied";
    case ::paddle::ErrorKind::kExecutionTimeout: return "ExecutionTimeout";
    case ::paddle::ErrorKind::kUnimplemented: return "Unimplemented";
    case ::paddle::ErrorKind::kUnavailable: return "Unavailable";
    case ::paddle::ErrorKind::kFatal: return "Fatal";
    case ::paddle::ErrorKind::kExternal: return "External";
    default: return "";
  }
}
}  // namespace errors_detail
}  // namespace common

namespace paddle {
namespace string {
// printf-style formatting where every argument may be any type with operator<<
// (std::string, DataType, Place, DDim, ...): %s %d %i %u %f %e %g %x %o %c %p %%,
// flags - + 0 space #, width and precision (also as *), length modifiers ignored.
namespace fmt_detail {
struct Spec {
  bool left = false, plus = false, zero = false, space = false, alt = false;
  int width = -1, prec = -1;
  char conv = 's';
};

template <typename T, typename = void>
struct Streamable : std::false_type {};
template <typename T>
struct Streamable<T, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<const T&>())>>
    : std::true_type {};

inline bool IsNumericConv(char c) {
  return std::strchr("diuxXofFeEgGaA", c) != nullptr;
}

template <typename T>
void WriteValue(std::ostream& os, char conv, const T& v) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, char> || std::is_same_v<D, signed char> ||
                std::is_same_v<D, unsigned char>) {
    if (conv == 'c' || conv == 's') {
      os << static_cast<char>(v);
    } else {
      os << static_cast<int>(v);
    }
  } else if constexpr (std::is_integral_v<D> && !std::is_same_v<D, bool>) {
    if (conv == 'c') {
      os << static_cast<char>(v);
    } else if (std::strchr("fFeEgGaA", conv) != nullptr) {
      os << static_cast<double>(v);
    } else {
      os << v;
    }
  } else if constexpr (std::is_floating_point_v<D>) {
    if (conv == 'd' || conv == 'i' || conv == 'u') {
      os << static_cast<long long>(v);
    } else {
      os << v;
    }
  } else if constexpr (Streamable<D>::value) {
    os << v;
  } else {
    os << "<unprintable>";
  }
}

template <typename T>
void Put(std::ostream& out, const Spec& s, const T& v) {
  std::ostringstream tmp;
  const char c = s.conv;
  if (s.plus) tmp << std::showpos;
  if (s.alt) tmp << std::showbase;
  switch (c) {
    case 'f': case 'F': tmp << std::fixed; break;
    case 'e': case 'E': tmp << std::scientific; break;
    case 'a': case 'A': tmp << std::hexfloat; break;
    case 'x': case 'X': case 'p': tmp << std::hex; break;
    case 'o': tmp << std::oct; break;
    default: break;
  }
  if (c == 'X' || c == 'E' || c == 'G' || c == 'A') tmp << std::uppercase;
  if (std::strchr("fFeEgG", c) != nullptr) tmp << std::setprecision(s.prec >= 0 ? s.prec : 6);
  WriteValue(tmp, c, v);
  std::string body = tmp.str();
  if (c == 's' && s.prec >= 0 && static_cast<int>(body.size()) > s.prec) body.resize(s.prec);
  if (s.space && !s.plus && IsNumericConv(c) && !body.empty() && body[0] != '-') body = " " + body;
  const int pad = s.width - static_cast<int>(body.size());
  if (pad > 0) {
    if (s.left) {
      body.append(pad, ' ');
    } else if (s.zero && IsNumericConv(c)) {
      size_t at = (!body.empty() && (body[0] == '-' || body[0] == '+' || body[0] == ' ')) ? 1 : 0;
      if (body.size() > at + 1 && body[at] == '0' && (body[at + 1] == 'x' || body[at + 1] == 'X')) at += 2;
      body.insert(at, pad, '0');
    } else {
      body.insert(0, pad, ' ');
    }
  }
  out << body;
}

// Copies literal text up to the next conversion; returns false at the end of the format.
inline bool NextSpec(std::ostream& out, const char*& f, Spec& s) {
  while (*f) {
    if (*f != '%') {
      out << *f++;
      continue;
    }
    if (f[1] == '%') {
      out << '%';
      f += 2;
      continue;
    }
    if (f[1] == '\0') {
      out << *f++;
      return false;
    }
    ++f;
    s = Spec();
    for (;; ++f) {
      if (*f == '-') s.left = true;
      else if (*f == '+') s.plus = true;
      else if (*f == '0') s.zero = true;
      else if (*f == ' ') s.space = true;
      else if (*f == '#') s.alt = true;
      else break;
    }
    if (*f == '*') {
      s.width = -2;  // taken from the next argument
      ++f;
    } else if (std::isdigit(static_cast<unsigned char>(*f))) {
      s.width = 0;
      while (std::isdigit(static_cast<unsigned char>(*f))) s.width = s.width * 10 + (*f++ - '0');
    }
    if (*f == '.') {
      ++f;
      if (*f == '*') {
        s.prec = -2;
        ++f;
      } else {
        s.prec = 0;
        while (std::isdigit(static_cast<unsigned char>(*f))) s.prec = s.prec * 10 + (*f++ - '0');
      }
    }
    while (*f && std::strchr("hlLqjzt", *f) != nullptr) ++f;
    if (*f) s.conv = *f++;
    return true;
  }
  return false;
}

inline void Format(std::ostream& out, const char* f) {
  Spec s;
  while (NextSpec(out, f, s)) {
    // More conversions than arguments: keep the directive text visible.
    out << '%' << s.conv;
  }
}

template <typename T, typename... Rest>
void Format(std::ostream& out, const char* f, const T& first, const Rest&... rest);

template <typename T, typename... Rest>
void FormatWithSpec(std::ostream& out, const char* f, Spec s, const T& first, const Rest&... rest) {
  if (s.width == -2 || s.prec == -2) {
    int n = 0;
    if constexpr (std::is_arithmetic_v<std::decay_t<T>>) n = static_cast<int>(first);
    if (s.width == -2) {
      s.width = n;
      if (n < 0) {
        s.left = true;
        s.width = -n;
      }
    } else {
      s.prec = n;
    }
    if constexpr (sizeof...(Rest) > 0) {
      FormatWithSpec(out, f, s, rest...);
    } else {
      Format(out, f);
    }
    return;
  }
  Put(out, s, first);
  Format(out, f, rest...);
}

template <typename T, typename... Rest>
void Format(std::ostream& out, const char* f, const T& first, const Rest&... rest) {
  Spec s;
  if (!NextSpec(out, f, s)) return;  // extra arguments are ignored, as printf does
  FormatWithSpec(out, f, s, first, rest...);
}
}  // namespace fmt_detail

template <typename... Args>
std::string Sprintf(const std::string& fmt, const Args&... args) {
  std::ostringstream os;
  fmt_detail::Format(os, fmt.c_str(), args...);
  return os.str();
}
template <typename... Args>
void Fprintf(std::ostream& out, const std::string& fmt, const Args&... args) {
  fmt_detail::Format(out, fmt.c_str(), args...);
}
template <typename... Args>
void Printf(const std::string& fmt, const Args&... args) {
  Fprintf(std::cout, fmt, args...);
}
}  // namespace string
}  // namespace paddle

namespace common {
// An error kind plus its formatted message: what phi::errors::InvalidArgument(...) returns.
class ErrorSummary {
 public:
  ErrorSummary() = default;
  ErrorSummary(::paddle::ErrorKind kind, std::string msg) : kind_(kind), msg_(std::move(msg)) {}
  // Legacy form: a bare format string and its arguments.
  template <typename... Args>
  explicit ErrorSummary(const char* fmt, const Args&... args)
      : msg_(::paddle::string::Sprintf(fmt, args...)) {}
  template <typename... Args>
  explicit ErrorSummary(const std::string& fmt, const Args&... args)
      : msg_(::paddle::string::Sprintf(fmt, args...)) {}
  ::paddle::ErrorKind code() const { return kind_; }
  ::paddle::ErrorKind kind() const { return kind_; }
  const std::string& error_message() const { return msg_; }
  // "(InvalidArgument) message", as Paddle shows it; legacy errors have no prefix.
  std::string to_string() const {
    const char* name = errors_detail::KindName(kind_);
    if (*name == '\0') return msg_;
    return std::string("(") + name + ") " + msg_;
  }

 private:
  ::paddle::ErrorKind kind_ = ::paddle::ErrorKind::kLegacy;
  std::string msg_;
};

namespace errors {
#define PADDLE_COMPAT_ERROR_BUILDER(NAME, KIND)                                       \
  template <typename... Args>                                                         \
  ::common::ErrorSummary NAME(const Args&... args) {                                  \
    return ::common::ErrorSummary(::paddle::ErrorKind::KIND,                          \
                                  ::paddle::string::Sprintf(args...));                \
  }
PADDLE_COMPAT_ERROR_BUILDER(InvalidArgument, kInvalidArgument)
PADDLE_COMPAT_ERROR_BUILDER(NotFound, kNotFound)
PADDLE_COMPAT_ERROR_BUILDER(OutOfRange, kOutOfRange)
PADDLE_COMPAT_ERROR_BUILDER(AlreadyExists, kAlreadyExists)
PADDLE_COMPAT_ERROR_BUILDER(ResourceExhausted, kResourceExhausted)
PADDLE_COMPAT_ERROR_BUILDER(PreconditionNotMet, kPreconditionNotMet)
PADDLE_COMPAT_ERROR_BUILDER(PermissionDenied, kPermissionDenied)
PADDLE_COMPAT_ERROR_BUILDER(ExecutionTimeout, kExecutionTimeout)
PADDLE_COMPAT_ERROR_BUILDER(Unimplemented, kUnimplemented)
PADDLE_COMPAT_ERROR_BUILDER(Unavailable, kUnavailable)
PADDLE_COMPAT_ERROR_BUILDER(Fatal, kFatal)
PADDLE_COMPAT_ERROR_BUILDER(External, kExternal)
// Paddle raises TypeError for this one; ErrorKind has no such entry, so it is a ValueError here.
PADDLE_COMPAT_ERROR_BUILDER(InvalidType, kInvalidArgument)
#undef PADDLE_COMPAT_ERROR_BUILDER
}  // namespace errors

namespace enforce {
using EnforceNotMet = ::paddle::PD_Exception;

// Accepts what PADDLE_ENFORCE* take after the condition: an ErrorSummary, or a format and arguments.
inline ErrorSummary MakeSummary(const ErrorSummary& s) { return s; }
inline ErrorSummary MakeSummary() { return ErrorSummary(); }
template <typename... Args>
ErrorSummary MakeSummary(const char* fmt, const Args&... args) {
  return ErrorSummary(fmt, args...);
}
template <typename... Args>
ErrorSummary MakeSummary(const std::string& fmt, const Args&... args) {
  return ErrorSummary(fmt, args...);
}

[[noreturn]] inline void Throw(const ErrorSummary& s, const char* file, int line) {
  throw ::paddle::PD_Exception(
      ::paddle::compat::Concat("\n----------------------\nError Message Summary:\n----------------------\n",
                               s.to_string(), " (at ", file, ":", line, ")\n"),
      s.code());
}

template <typename T>
std::string ShowValue(const T& v, const char* expr) {
  if constexpr (::paddle::string::fmt_detail::Streamable<T>::value) {
    std::ostringstream os;
    if constexpr (std::is_same_v<T, bool>) {
      os << (v ? "true" : "false");
    } else {
      os << v;
    }
    return os.str();
  } else {
    return expr;
  }
}

[[noreturn]] inline void ThrowCompare(const ErrorSummary& s, const char* expect, const std::string& received,
                                      const char* file, int line) {
  Throw(ErrorSummary(s.code(), s.error_message() + "\n  [Hint: Expected " + expect + ", but received " +
                                   received + ".]"),
        file, line);
}
}  // namespace enforce
}  // namespace common

namespace phi {
namespace errors = ::common::errors;
namespace enforce = ::common::enforce;
using ErrorSummary = ::common::ErrorSummary;
}  // namespace phi
namespace paddle {
namespace platform {
namespace errors = ::common::errors;
}  // namespace platform
}  // namespace paddle

#define PADDLE_THROW(...) ::common::enforce::Throw(::common::enforce::MakeSummary(__VA_ARGS__), __FILE__, __LINE__)

#if defined(__CUDA_ARCH__)
// In device code: print the failed condition and a printf-style message, then trap the kernel.
#define PADDLE_ENFORCE(COND, FMT, ...)                                                        \
  do {                                                                                        \
    if (!(COND)) {                                                                            \
      printf("PADDLE_ENFORCE failed at %s:%d: `%s`. " FMT "\n", __FILE__, __LINE__, #COND,   \
             ##__VA_ARGS__);                                                                  \
      __trap();                                                                               \
    }                                                                                         \
  } while (0)
#else
#define PADDLE_ENFORCE(COND, ...)                                                              \
  do {                                                                                         \
    if (!(COND)) {                                                                             \
      ::common::enforce::Throw(::common::enforce::MakeSummary(__VA_ARGS__), __FILE__, __LINE__); \
    }                                                                                          \
  } while (0)
#endif

#define PADDLE_COMPAT_ENFORCE_CMP(A, B, OP, INV, ...)                                       \
  do {                                                                                      \
    const auto& __pd_a = (A);                                                               \
    const auto& __pd_b = (B);                                                               \
    if (!(__pd_a OP __pd_b)) {                                                              \
      ::common::enforce::ThrowCompare(                                                      \
          ::common::enforce::MakeSummary(__VA_ARGS__), #A " " #OP " " #B,                    \
          ::common::enforce::ShowValue(__pd_a, #A) + " " #INV " " +                          \
              ::common::enforce::ShowValue(__pd_b, #B),                                     \
          __FILE__, __LINE__);                                                              \
    }                                                                                       \
  } while (0)

#define PADDLE_ENFORCE_EQ(A, B, ...) PADDLE_COMPAT_ENFORCE_CMP(A, B, ==, !=, __VA_ARGS__)
#define PADDLE_ENFORCE_NE(A, B, ...) PADDLE_COMPAT_ENFORCE_CMP(A, B, !=, ==, __VA_ARGS__)
#define PADDLE_ENFORCE_GT(A, B, ...) PADDLE_COMPAT_ENFORCE_CMP(A, B, >, <=, __VA_ARGS__)
#define PADDLE_ENFORCE_GE(A, B, ...) PADDLE_COMPAT_ENFORCE_CMP(A, B, >=, <, __VA_ARGS__)
#define PADDLE_ENFORCE_LT(A, B, ...) PADDLE_COMPAT_ENFORCE_CMP(A, B, <, >=, __VA_ARGS__)
#define PADDLE_ENFORCE_LE(A, B, ...) PADDLE_COMPAT_ENFORCE_CMP(A, B, <=, >, __VA_ARGS__)

#define PADDLE_ENFORCE_NOT_NULL(P, ...)                                                            \
  do {                                                                                             \
    if ((P) == nullptr) {                                                                          \
      auto __pd_s = ::common::enforce::MakeSummary(__VA_ARGS__);                                   \
      ::common::enforce::Throw(                                                                    \
          ::common::ErrorSummary(__pd_s.code(),                                                    \
                                 __pd_s.error_message() + "\n  [Hint: " #P " should not be null.]"), \
          __FILE__, __LINE__);                                                                     \
    }                                                                                              \
  } while (0)

#if defined(__CUDACC__) || defined(PADDLE_COMPAT_WITH_CUDA)
#include <cuda_runtime_api.h>
#define PADDLE_ENFORCE_GPU_SUCCESS(CALL)                                                   \
  do {                                                                                     \
    cudaError_t __pd_err = (CALL);                                                         \
    if (__pd_err != cudaSuccess) {                                                         \
      ::common::enforce::Throw(                                                            \
          ::common::ErrorSummary(::paddle::ErrorKind::kExternal,                           \
                                 ::paddle::compat::Concat("CUDA error(", static_cast<int>(__pd_err), \
                                                          "), ", cudaGetErrorString(__pd_err), ".")), \
          __FILE__, __LINE__);                                                             \
    }                                                                                      \
  } while (0)
#define PADDLE_ENFORCE_CUDA_SUCCESS PADDLE_ENFORCE_GPU_SUCCESS
#endif

#define PD_THROW(...)                                                              \
  throw ::paddle::PD_Exception(::paddle::compat::Concat(                           \
      "\n----------------------\nError Message Summary:\n----------------------\n", \
      __VA_ARGS__, " (at ", __FILE__, ":", __LINE__, ")\n"))

#define PD_CHECK(COND, ...)                                                   \
  do {                                                                        \
    if (!(COND)) {                                                            \
      PD_THROW("Expected " #COND ", but it's not satisfied.\n", ##__VA_ARGS__); \
    }                                                                         \
  } while (0)
