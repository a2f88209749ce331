// paddle::Tensor: Paddle's C++ tensor handle, holding one at::Tensor. A default-constructed
// handle is undefined; one built from a place and a shape allocates on first mutable_data<T>().
// Also here: DDim (a shape), DataLayout, paddle::Scalar and paddle::IntArray (the attribute
// types the API functions take). The math methods (x.add(y), x + y, x.sum(), ...) are declared
// here and defined in api.h, next to the functions they call.
#pragma once
#include <ATen/ATen.h>
#include <complex>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "paddle/compat/dtype.h"
#include "paddle/compat/exception.h"
#include "paddle/compat/place.h"

#if defined(__CUDACC__) || defined(PADDLE_COMPAT_WITH_CUDA)
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
using gpuStream_t = cudaStream_t;
#endif

namespace common {
// Paddle's DDim: a small list of extents.
class DDim {
 public:
  DDim() = default;
  explicit DDim(std::vector<int64_t> d) : d_(std::move(d)) {}
  DDim(std::initializer_list<int64_t> d) : d_(d) {}
  DDim(const int64_t* d, int n) : d_(d, d + n) {}
  DDim(const int* d, int n) : d_(d, d + n) {}
  int size() const { return static_cast<int>(d_.size()); }
  int64_t operator[](int i) const { return d_[i]; }
  int64_t& operator[](int i) { return d_[i]; }
  int64_t at(int i) const { return d_.at(i); }
  const int64_t* Get() const { return d_.data(); }
  int64_t* Get() { return d_.data(); }
  int64_t* GetMutable() { return d_.data(); }
  std::vector<int64_t> vec() const { return d_; }
  bool operator==(const DDim& o) const { return d_ == o.d_; }
  bool operator!=(const DDim& o) const { return d_ != o.d_; }
  // Same extents in the given order.
  DDim transpose(const std::vector<int>& axis) const {
    std::vector<int64_t> r(axis.size());
    for (size_t i = 0; i < axis.size(); ++i) r[i] = d_.at(axis[i]);
    return DDim(r);
  }
  // Same element count, new extents (a -1 is inferred, a 0 copies the old extent).
  DDim reshape(std::vector<int>& shape) const {
    int64_t total = 1, known = 1;
    for (auto v : d_) total *= v;
    int infer = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == 0 && i < d_.size()) shape[i] = static_cast<int>(d_[i]);
      if (shape[i] == -1) {
        infer = static_cast<int>(i);
      } else {
        known *= shape[i];
      }
    }
    if (infer >= 0 && known != 0) shape[infer] = static_cast<int>(total / known);
    return DDim(std::vector<int64_t>(shape.begin(), shape.end()));
  }
  std::string to_str() const {
    std::string s;
    for (size_t i = 0; i < d_.size(); ++i) s += (i ? ", " : "") + std::to_string(d_[i]);
    return s;
  }

 private:
  std::vector<int64_t> d_;
};
inline int64_t product(const DDim& d) {
  int64_t p = 1;
  for (int i = 0; i < d.size(); ++i) p *= d[i];
  return p;
}
inline DDim make_ddim(const std::vector<int64_t>& d) { return DDim(d); }
inline DDim make_ddim(const std::vector<int>& d) { return DDim(std::vector<int64_t>(d.begin(), d.end())); }
inline DDim make_ddim(std::initializer_list<int64_t> d) { return DDim(std::vector<int64_t>(d)); }
template <typename T = int64_t>
std::vector<T> vectorize(const DDim& d) {
  std::vector<T> r(d.size());
  for (int i = 0; i < d.size(); ++i) r[i] = static_cast<T>(d[i]);
  return r;
}
inline int arity(const DDim& d) { return d.size(); }
// Extents [begin, end) of d.
inline DDim slice_ddim(const DDim& d, int begin, int end) {
  std::vector<int64_t> v = d.vec();
  return DDim(std::vector<int64_t>(v.begin() + begin, v.begin() + end));
}
// The 2-D shape [prod(d[:n]), prod(d[n:])].
inline DDim flatten_to_2d(const DDim& d, int num_col_dims) {
  return DDim({product(slice_ddim(d, 0, num_col_dims)), product(slice_ddim(d, num_col_dims, d.size()))});
}
inline DDim flatten_to_1d(const DDim& d) { return DDim({product(d)}); }
inline DDim stride(const DDim& d) {
  std::vector<int64_t> s(d.size(), 1);
  for (int i = d.size() - 2; i >= 0; --i) s[i] = s[i + 1] * d[i + 1];
  return DDim(s);
}
inline std::ostream& operator<<(std::ostream& os, const DDim& d) { return os << "[" << d.to_str() << "]"; }

// Memory layout tags (a dense ATen tensor is always reported as NCHW, Paddle's default).
enum class DataLayout {
  UNDEFINED = 0,
  ANY = UNDEFINED,
  NHWC,
  NCHW,
  NCDHW,
  NDHWC,
  ONEDNN,
  SPARSE_COO,
  SPARSE_CSR,
  PSTRING_UNION,
  STRIDED,
  NUM_DATA_LAYOUTS,
  ALL_LAYOUT = UNDEFINED,
  kAnyLayout = ANY,
  kNHWC = NHWC,
  kNCHW = NCHW,
  kMKLDNN = ONEDNN,
  kNDHWC = NDHWC,
  kNCDHW = NCDHW,
};
inline std::string DataLayoutToString(DataLayout l) {
  switch (l) {
    case DataLayout::NHWC: return "NHWC";
    case DataLayout::NCHW: return "NCHW";
    case DataLayout::NCDHW: return "NCDHW";
    case DataLayout::NDHWC: return "NDHWC";
    case DataLayout::ONEDNN: return "ONEDNN";
    case DataLayout::SPARSE_COO: return "SPARSE_COO";
    case DataLayout::SPARSE_CSR: return "SPARSE_CSR";
    case DataLayout::STRIDED: return "STRIDED";
    default: return "Undefined(AnyLayout)";
  }
}
inline std::ostream& operator<<(std::ostream& os, DataLayout l) { return os << DataLayoutToString(l); }
}  // namespace common

namespace phi {
using DDim = common::DDim;
using DataLayout = common::DataLayout;
using common::arity;
using common::flatten_to_1d;
using common::flatten_to_2d;
using common::make_ddim;
using common::product;
using common::slice_ddim;
using common::vectorize;
}  // namespace phi

namespace paddle {
using DataLayout = common::DataLayout;
class Tensor;

namespace experimental {
// A typed number (the attribute type of scale, full, clip, ...): keeps the C++ type it was
// built from as its DataType.
class Scalar {
 public:
  Scalar() : Scalar(0) {}
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Scalar(T v) {  // NOLINT
    if constexpr (std::is_same_v<T, bool>) {
      dtype_ = DataType::BOOL;
      v_ = at::Scalar(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      dtype_ = sizeof(T) == 4 ? DataType::FLOAT32 : DataType::FLOAT64;
      v_ = at::Scalar(static_cast<double>(v));
    } else if constexpr (std::is_signed_v<T>) {
      dtype_ = sizeof(T) == 1 ? DataType::INT8
               : sizeof(T) == 2 ? DataType::INT16
               : sizeof(T) == 4 ? DataType::INT32
                                : DataType::INT64;
      v_ = at::Scalar(static_cast<int64_t>(v));
    } else {
      dtype_ = sizeof(T) == 1 ? DataType::UINT8
               : sizeof(T) == 2 ? DataType::UINT16
               : sizeof(T) == 4 ? DataType::UINT32
                                : DataType::UINT64;
      v_ = sizeof(T) == 8 ? at::Scalar(static_cast<uint64_t>(v)) : at::Scalar(static_cast<int64_t>(v));
    }
  }
  Scalar(float16 v) : v_(v), dtype_(DataType::FLOAT16) {}     // NOLINT
  Scalar(bfloat16 v) : v_(v), dtype_(DataType::BFLOAT16) {}   // NOLINT
  Scalar(complex64 v) : v_(c10::complex<float>(v)), dtype_(DataType::COMPLEX64) {}     // NOLINT
  Scalar(complex128 v) : v_(c10::complex<double>(v)), dtype_(DataType::COMPLEX128) {}  // NOLINT
  Scalar(c10::complex<float> v) : v_(v), dtype_(DataType::COMPLEX64) {}                // NOLINT
  Scalar(c10::complex<double> v) : v_(v), dtype_(DataType::COMPLEX128) {}              // NOLINT
  Scalar(std::complex<float> v) : Scalar(complex64(v.real(), v.imag())) {}    // NOLINT
  Scalar(std::complex<double> v) : Scalar(complex128(v.real(), v.imag())) {}  // NOLINT
  // "inf", "-inf", "nan", "True", "False" or a decimal number, as a float64.
  explicit Scalar(const std::string& s) : dtype_(DataType::FLOAT64) {
    if (s == "inf") {
      v_ = at::Scalar(std::numeric_limits<double>::infinity());
    } else if (s == "-inf") {
      v_ = at::Scalar(-std::numeric_limits<double>::infinity());
    } else if (s == "nan") {
      v_ = at::Scalar(std::numeric_limits<double>::quiet_NaN());
    } else if (s == "True" || s == "False") {
      v_ = at::Scalar(s == "True");
      dtype_ = DataType::BOOL;
    } else {
      v_ = at::Scalar(std::stod(s));
    }
  }
  Scalar(const at::Scalar& v, DataType dtype) : v_(v), dtype_(dtype) {}
  // The value of a one-element tensor (read on the host).
  Scalar(const Tensor& t);  // NOLINT

  DataType dtype() const { return dtype_; }
  bool FromTensor() const { return from_tensor_; }
  void SetFromTensor(bool f) { from_tensor_ = f; }
  const at::Scalar& aten() const { return v_; }

  template <typename RT>
  RT to() const {
    if constexpr (c10::is_complex<RT>::value || std::is_same_v<RT, complex64> || std::is_same_v<RT, complex128>) {
      auto z = v_.toComplexDouble();
      return RT(static_cast<typename RT::value_type>(z.real()), static_cast<typename RT::value_type>(z.imag()));
    } else if constexpr (std::is_same_v<RT, std::complex<float>> || std::is_same_v<RT, std::complex<double>>) {
      auto z = v_.toComplexDouble();
      return RT(z.real(), z.imag());
    } else if constexpr (std::is_same_v<RT, bool>) {
      return v_.isComplex() ? v_.toComplexDouble() != c10::complex<double>(0, 0) : v_.toDouble() != 0.0;
    } else if constexpr (std::is_integral_v<RT>) {
      if (v_.isIntegral(false)) {
        if constexpr (std::is_unsigned_v<RT> && sizeof(RT) == 8) {
          return static_cast<RT>(v_.toUInt64());
        } else {
          return static_cast<RT>(v_.toLong());
        }
      }
      if (v_.isBoolean()) return static_cast<RT>(v_.toBool());
      return static_cast<RT>(real_part());
    } else {
      return static_cast<RT>(real_part());
    }
  }

  std::string ToRawString() const {
    std::ostringstream os;
    if (v_.isComplex()) {
      auto z = v_.toComplexDouble();
      os << z.real() << "+" << z.imag() << "j";
    } else if (v_.isBoolean()) {
      os << (v_.toBool() ? "true" : "false");
    } else if (v_.isIntegral(false)) {
      os << v_.toLong();
    } else {
      os << v_.toDouble();
    }
    return os.str();
  }
  std::string ToString() const { return "Scalar(" + paddle::DataTypeToString(dtype_) + "(" + ToRawString() + "))"; }

  bool operator==(const Scalar& o) const {
    if (dtype_ != o.dtype_) return false;
    if (v_.isComplex() || o.v_.isComplex()) return v_.toComplexDouble() == o.v_.toComplexDouble();
    if (v_.isIntegral(false) && o.v_.isIntegral(false)) return v_.toLong() == o.v_.toLong();
    return v_.toDouble() == o.v_.toDouble();
  }
  bool operator!=(const Scalar& o) const { return !(*this == o); }
  Scalar operator-() const {
    if (v_.isBoolean()) return Scalar(!v_.toBool());
    return Scalar(-v_, dtype_);
  }

 private:
  double real_part() const {
    if (v_.isComplex()) return v_.toComplexDouble().real();
    if (v_.isBoolean()) return v_.toBool() ? 1.0 : 0.0;
    return v_.toDouble();
  }
  at::Scalar v_ = at::Scalar(0);
  DataType dtype_ = DataType::INT32;
  bool from_tensor_ = false;
};
inline std::ostream& operator<<(std::ostream& os, const Scalar& s) { return os << s.ToString(); }

// A list of integers (a shape, axes, sections): from a vector, a braced list, or a tensor.
class IntArray {
 public:
  IntArray() = default;
  IntArray(const std::vector<int64_t>& v) : d_(v) {}                        // NOLINT
  IntArray(const std::vector<int32_t>& v) : d_(v.begin(), v.end()) {}       // NOLINT
  IntArray(std::initializer_list<int64_t> v) : d_(v) {}                     // NOLINT
  IntArray(const int64_t* p, int64_t n) : d_(p, p + n) {}
  IntArray(const int32_t* p, int64_t n) : d_(p, p + n) {}
  IntArray(const common::DDim& d) : d_(d.vec()) {}                          // NOLINT
  IntArray(at::IntArrayRef r) : d_(r.begin(), r.end()) {}                   // NOLINT
  // The values of an integer tensor (read on the host).
  IntArray(const Tensor& t);                                                // NOLINT
  // One value from each one-element tensor.
  IntArray(const std::vector<Tensor>& ts);                                  // NOLINT

  size_t size() const { return d_.size(); }
  bool empty() const { return d_.empty(); }
  const std::vector<int64_t>& GetData() const { return d_; }
  bool FromTensor() const { return from_tensor_; }
  void SetFromTensor(bool f) { from_tensor_ = f; }
  bool operator==(const IntArray& o) const { return d_ == o.d_; }
  bool operator!=(const IntArray& o) const { return d_ != o.d_; }

 private:
  std::vector<int64_t> d_;
  bool from_tensor_ = false;
};
}  // namespace experimental

using Scalar = experimental::Scalar;
using IntArray = experimental::IntArray;

class AbstractAutogradMeta {
 public:
  virtual ~AbstractAutogradMeta() = default;
};

class Tensor {
 public:
  Tensor() = default;
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  explicit Tensor(at::Tensor t) : t_(std::move(t)) {}
  explicit Tensor(const Place& place) : place_(place) {}
  Tensor(const Place& place, const std::vector<int64_t>& shape) : place_(place), shape_(shape) {}
  explicit Tensor(const std::string& name) : name_(name) {}
  Tensor(at::Tensor t, const std::string& name) : t_(std::move(t)), name_(name) {}
  ~Tensor() = default;

  // Assignment shares the data (like Paddle's shallow copy of the tensor handle).
  Tensor& operator=(const Tensor& x) & {
    t_ = x.t_;
    place_ = x.place_;
    shape_ = x.shape_;
    name_ = x.name_;
    return *this;
  }
  Tensor& operator=(Tensor&& x) & noexcept {
    t_ = std::move(x.t_);
    place_ = x.place_;
    shape_ = std::move(x.shape_);
    name_ = std::move(x.name_);
    return *this;
  }

  // The ATen tensor held (undefined until allocated).
  const at::Tensor& aten() const { return t_; }
  at::Tensor& aten() { return t_; }
  void set_aten(at::Tensor t) { t_ = std::move(t); }

  /* status */
  bool defined() const { return t_.defined(); }
  bool initialized() const { return t_.defined(); }
  bool is_initialized() const { return t_.defined(); }
  bool has_allocation() const { return t_.defined(); }
  void reset() { t_ = at::Tensor(); }

  /* shape, dtype, layout */
  int64_t numel() const {
    if (t_.defined()) return t_.numel();
    int64_t n = 1;
    for (auto d : shape_) n *= d;
    return n;
  }
  int64_t size() const { return numel(); }
  std::vector<int64_t> shape() const {
    if (!t_.defined()) return shape_;
    auto s = t_.sizes();
    return std::vector<int64_t>(s.begin(), s.end());
  }
  const common::DDim& dims() const {
    dims_cache_ = common::DDim(shape());
    return dims_cache_;
  }
  const common::DDim& strides() const {
    if (t_.defined()) {
      auto s = t_.strides();
      strides_cache_ = common::DDim(std::vector<int64_t>(s.begin(), s.end()));
    } else {
      strides_cache_ = common::stride(common::DDim(shape_));
    }
    return strides_cache_;
  }
  // Sets a new shape. An allocated tensor with the same element count is viewed in the new
  // shape; otherwise it is reallocated (uninitialized) on the next mutable_data<T>().
  void reshape(const std::vector<int64_t>& shape) {
    if (!t_.defined()) {
      shape_ = shape;
      return;
    }
    int64_t n = 1;
    for (auto d : shape) n *= d;
    if (n == t_.numel()) {
      t_ = t_.reshape(shape);
    } else {
      place_ = compat::FromDevice(t_.device());
      shape_ = shape;
      t_ = at::Tensor();
    }
  }
  DataType dtype() const {
    return t_.defined() ? compat::FromScalarType(t_.scalar_type()) : DataType::UNDEFINED;
  }
  DataType type() const { return dtype(); }
  DataLayout layout() const {
    if (!t_.defined()) return DataLayout::UNDEFINED;
    if (t_.layout() == at::kSparse) return DataLayout::SPARSE_COO;
    if (t_.layout() == at::kSparseCsr) return DataLayout::SPARSE_CSR;
    return DataLayout::NCHW;
  }
  bool is_dense_tensor() const { return t_.defined() && t_.layout() == at::kStrided; }
  bool is_dist_tensor() const { return false; }
  bool is_selected_rows() const { return false; }
  bool is_sparse_coo_tensor() const { return t_.defined() && t_.layout() == at::kSparse; }
  bool is_sparse_csr_tensor() const { return t_.defined() && t_.layout() == at::kSparseCsr; }
  bool is_string_tensor() const { return false; }

  /* device */
  const Place& place() const {
    place_cache_ = t_.defined() ? compat::FromDevice(t_.device()) : place_;
    return place_cache_;
  }
  bool is_cpu() const { return place().GetType() == AllocationType::CPU; }
  bool is_gpu() const { return place().GetType() == AllocationType::GPU; }
  bool is_gpu_pinned() const { return t_.defined() && t_.is_cpu() && t_.is_pinned(); }
  bool is_xpu() const { return false; }
  bool is_xpu_pinned() const { return false; }
  bool is_custom_device() const { return false; }

  /* data access */
  // Allocates (at the pending or the given place/shape) when needed; returns the data.
  template <typename T>
  T* mutable_data() {
    return mutable_data<T>(place());
  }
  template <typename T>
  T* mutable_data(const Place& place) {
    const auto want = compat::ScalarTypeOf<T>::value;
    const auto dev = compat::ToDevice(place.GetType() == AllocationType::UNDEFINED ? phi::CPUPlace() : place);
    if (!t_.defined()) {
      t_ = at::empty(shape_, at::TensorOptions().dtype(want).device(dev));
    } else if (t_.scalar_type() != want || t_.device() != dev) {
      t_ = at::empty(t_.sizes(), at::TensorOptions().dtype(want).device(dev));
    }
    return static_cast<T*>(t_.data_ptr());
  }
  template <typename T>
  const T* data() const {
    check_type<T>("data");
    return static_cast<const T*>(t_.const_data_ptr());
  }
  template <typename T>
  T* data() {
    check_type<T>("data");
    return static_cast<T*>(t_.data_ptr());
  }
  const void* data() const {
    check_defined("data");
    return t_.const_data_ptr();
  }
  void* data() {
    check_defined("data");
    return t_.data_ptr();
  }

  // Rows [begin, end) of the first axis, sharing memory.
  Tensor slice(int64_t begin_idx, int64_t end_idx) const {
    check_defined("slice");
    return Tensor(t_.slice(0, begin_idx, end_idx));
  }

#if defined(__CUDACC__) || defined(PADDLE_COMPAT_WITH_CUDA)
  // The CUDA stream kernels on this tensor run on (the current stream of its device).
  gpuStream_t stream() const {
    return c10::cuda::getCurrentCUDAStream(t_.defined() && t_.is_cuda() ? t_.get_device() : -1).stream();
  }
#endif

  const std::string& name() const { return name_; }
  void set_name(const std::string& name) { name_ = name; }

  /* copies and casts */
  template <typename T>
  Tensor copy_to(const Place& target) const {
    return copy_to(target, true);
  }
  Tensor copy_to(const Place& target, bool blocking) const {
    check_defined("copy_to");
    return Tensor(t_.to(compat::ToDevice(target), /*non_blocking=*/!blocking, /*copy=*/true));
  }
  // Makes this tensor a copy of src on target. When this tensor already has src's shape, dtype
  // and place, the data is written into its memory (seen by every handle sharing it).
  void copy_(const Tensor& src, const Place& target, bool blocking) {
    src.check_defined("copy_");
    const auto dev = compat::ToDevice(target.GetType() == AllocationType::UNDEFINED ? src.place() : target);
    if (t_.defined() && t_.sizes() == src.t_.sizes() && t_.scalar_type() == src.t_.scalar_type() &&
        t_.device() == dev) {
      t_.copy_(src.t_, /*non_blocking=*/!blocking);
    } else {
      t_ = src.t_.to(dev, /*non_blocking=*/!blocking, /*copy=*/true);
    }
  }
  Tensor cast(DataType target) const {
    check_defined("cast");
    return Tensor(t_.to(compat::ToScalarType(target), /*non_blocking=*/false, /*copy=*/true));
  }

  /* operators (defined in api.h) */
  Tensor operator+(const Tensor& other) const;
  Tensor operator-(const Tensor& other) const;
  Tensor operator*(const Tensor& other) const;
  Tensor operator/(const Tensor& other) const;
  Tensor operator+(const Scalar& other) const;
  Tensor operator-(const Scalar& other) const;
  Tensor operator*(const Scalar& other) const;
  Tensor operator/(const Scalar& other) const;
  Tensor operator<(const Tensor& other) const;
  Tensor operator<=(const Tensor& other) const;
  Tensor operator==(const Tensor& other) const;
  Tensor operator!=(const Tensor& other) const;
  Tensor operator>(const Tensor& other) const;
  Tensor operator>=(const Tensor& other) const;
  Tensor operator-() const;
  Tensor operator~() const;
  Tensor operator&(const Tensor& other) const;
  Tensor operator|(const Tensor& other) const;
  Tensor operator^(const Tensor& other) const;

  /* autograd: custom-op kernels run without a tape here */
  AbstractAutogradMeta* get_autograd_meta() const { return autograd_meta_.get(); }
  const std::shared_ptr<AbstractAutogradMeta>& mutable_autograd_meta() const { return autograd_meta_; }
  void set_autograd_meta(std::shared_ptr<AbstractAutogradMeta> m) { autograd_meta_ = std::move(m); }

  /* in-place version counter (ATen's) */
  void bump_inplace_version() {
    if (t_.defined()) t_.unsafeGetTensorImpl()->bump_version();
  }
  uint32_t current_inplace_version() { return t_.defined() ? static_cast<uint32_t>(t_._version()) : 0; }
  void reset_inplace_version(bool set_to_zero = false) { (void)set_to_zero; }

  /* sparse <-> dense */
  Tensor to_sparse_coo(const int64_t sparse_dim) const {
    check_defined("to_sparse_coo");
    return Tensor(t_.to_sparse(sparse_dim));
  }
  Tensor to_sparse_csr() const {
    check_defined("to_sparse_csr");
    return Tensor(t_.to_sparse_csr());
  }
  Tensor to_dense() const {
    check_defined("to_dense");
    return Tensor(t_.layout() == at::kStrided ? t_ : t_.to_dense());
  }

  /* contiguity */
  bool is_contiguous() const { return t_.defined() && t_.is_contiguous(); }
  Tensor contiguous() const {
    check_defined("contiguous");
    return Tensor(t_.contiguous());
  }

  /* math methods (defined in api.h) */
  Tensor add(const Tensor& y) const;
  Tensor divide(const Tensor& y) const;
  Tensor multiply(const Tensor& y) const;
  Tensor subtract(const Tensor& y) const;
  Tensor add(const Scalar& y) const;
  Tensor divide(const Scalar& y) const;
  Tensor multiply(const Scalar& y) const;
  Tensor subtract(const Scalar& y) const;
  Tensor less_equal(const Tensor& y) const;
  Tensor less_than(const Tensor& y) const;
  Tensor equal(const Tensor& y) const;
  Tensor not_equal(const Tensor& y) const;
  Tensor greater_equal(const Tensor& y) const;
  Tensor greater_than(const Tensor& y) const;
  Tensor bitwise_and(const Tensor& y) const;
  Tensor bitwise_or(const Tensor& y) const;
  Tensor bitwise_xor(const Tensor& y) const;
  Tensor bitwise_not() const;
  Tensor pow(const Tensor& y) const;
  Tensor pow(const Scalar& y) const;
  Tensor exp() const;
  Tensor floor() const;
  Tensor gather_nd(const Tensor& index) const;
  Tensor log() const;
  Tensor roll(const IntArray& shifts = {}, const std::vector<int64_t>& axis = {}) const;
  Tensor scatter(const Tensor& index, const Tensor& updates, bool overwrite = true) const;
  Tensor scatter_nd_add(const Tensor& index, const Tensor& updates) const;
  Tensor abs() const;
  Tensor assign() const;
  Tensor elementwise_pow(const Tensor& y) const;
  Tensor expand(const IntArray& shape) const;
  Tensor matmul(const Tensor& y, bool transpose_x = false, bool transpose_y = false) const;
  Tensor max(const IntArray& axis = {}, bool keepdim = false) const;
  Tensor maximum(const Tensor& y) const;
  Tensor minimum(const Tensor& y) const;
  Tensor scale(const Scalar& scale = 1.0, const Scalar& bias = 0.0, bool bias_after_scale = true) const;
  Tensor sum(const IntArray& axis = {}, DataType dtype = DataType::UNDEFINED, bool keepdim = false) const;
  Tensor tile(const IntArray& repeat_times = {}) const;

  // Throws PreconditionNotMet naming `what` when no data is held.
  void check_defined(const char* what) const {
    if (!t_.defined())
      throw PD_Exception(std::string("paddle::Tensor::") + what +
                             ": the tensor is not initialized (call mutable_data<T>() first)",
                         ErrorKind::kPreconditionNotMet);
  }

 private:
  template <typename T>
  void check_type(const char* what) const {
    check_defined(what);
    const auto want = compat::ScalarTypeOf<T>::value;
    if (t_.scalar_type() != want)
      throw PD_Exception(std::string("paddle::Tensor::") + what + "<T>: the tensor holds " +
                             DataTypeToString(compat::FromScalarType(t_.scalar_type())) +
                             " data but T is " + DataTypeToString(compat::FromScalarType(want)),
                         ErrorKind::kInvalidArgument);
  }

  at::Tensor t_;
  Place place_;
  std::vector<int64_t> shape_;
  std::string name_;
  std::shared_ptr<AbstractAutogradMeta> autograd_meta_;
  mutable common::DDim dims_cache_;
  mutable common::DDim strides_cache_;
  mutable Place place_cache_;
};

Tensor operator+(const Scalar& x, const Tensor& y);
Tensor operator-(const Scalar& x, const Tensor& y);
Tensor operator*(const Scalar& x, const Tensor& y);
Tensor operator/(const Scalar& x, const Tensor& y);

namespace experimental {
using Tensor = ::paddle::Tensor;

inline Scalar::Scalar(const Tensor& t) : from_tensor_(true) {
  t.check_defined("Scalar");
  if (t.numel() != 1)
    throw PD_Exception("paddle::Scalar: the tensor must hold exactly one value, it holds " +
                           std::to_string(t.numel()),
                       ErrorKind::kInvalidArgument);
  v_ = t.aten().reshape({}).cpu().item();
  dtype_ = t.dtype();
}

inline IntArray::IntArray(const Tensor& t) : from_tensor_(true) {
  t.check_defined("IntArray");
  const at::Tensor v = t.aten().reshape({-1}).to(at::kCPU, at::kLong).contiguous();
  d_.assign(v.const_data_ptr<int64_t>(), v.const_data_ptr<int64_t>() + v.numel());
}

inline IntArray::IntArray(const std::vector<Tensor>& ts) : from_tensor_(true) {
  for (const auto& t : ts) {
    const IntArray one(t);
    d_.insert(d_.end(), one.GetData().begin(), one.GetData().end());
  }
}
}  // namespace experimental
}  // namespace paddle

namespace phi {
using Scalar = paddle::experimental::Scalar;
using IntArray = paddle::experimental::IntArray;
}  // namespace phi

#include "paddle/compat/api.h"
