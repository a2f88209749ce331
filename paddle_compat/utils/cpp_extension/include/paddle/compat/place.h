// Places (CPU, GPU, ...) as custom ops name them, mapped onto at::Device.
#pragma once
#include <ATen/ATen.h>
#include <ostream>
#include <string>

namespace phi {
enum class AllocationType : int8_t {
  UNDEFINED = 0,
  CPU = 1,
  GPU = 2,
  GPUPINNED = 3,
  XPU = 4,
  XPUPINNED = 5,
  IPU = 7,
  CUSTOM = 9,
};

// A device kind plus an ordinal.
class Place {
 public:
  Place() = default;
  explicit Place(AllocationType type, int8_t id = 0) : type_(type), id_(id) {}
  AllocationType GetType() const { return type_; }
  int8_t GetDeviceId() const { return id_; }
  std::string DebugString() const {
    switch (type_) {
      case AllocationType::CPU: return "Place(cpu)";
      case AllocationType::GPU: return "Place(gpu:" + std::to_string(id_) + ")";
      case AllocationType::GPUPINNED: return "Place(gpu_pinned)";
      default: return "Place(undefined)";
    }
  }
  bool operator==(const Place& o) const {
    return type_ == o.type_ && (type_ == AllocationType::CPU || id_ == o.id_);
  }
  bool operator!=(const Place& o) const { return !(*this == o); }
  bool operator<(const Place& o) const {
    return type_ != o.type_ ? type_ < o.type_ : id_ < o.id_;
  }
  void Reset(AllocationType type, int8_t id = 0) {
    type_ = type;
    id_ = id;
  }
  std::string GetDeviceType() const { return ""; }
  int64_t HashValue() const { return (static_cast<int64_t>(type_) << 8) | static_cast<uint8_t>(id_); }

 private:
  AllocationType type_ = AllocationType::UNDEFINED;
  int8_t id_ = 0;
};

class CPUPlace : public Place {
 public:
  CPUPlace() : Place(AllocationType::CPU) {}
  CPUPlace(const Place&) : Place(AllocationType::CPU) {}  // NOLINT
};
class GPUPlace : public Place {
 public:
  GPUPlace() : Place(AllocationType::GPU, 0) {}
  explicit GPUPlace(int device_id) : Place(AllocationType::GPU, device_id) {}
};
class GPUPinnedPlace : public Place {
 public:
  GPUPinnedPlace() : Place(AllocationType::GPUPINNED) {}
};
class XPUPlace : public Place {
 public:
  XPUPlace() : Place(AllocationType::XPU, 0) {}
  explicit XPUPlace(int device_id) : Place(AllocationType::XPU, device_id) {}
};
class CustomPlace : public Place {
 public:
  CustomPlace() : Place(AllocationType::CUSTOM, 0) {}
  explicit CustomPlace(const std::string&, int device_id = 0) : Place(AllocationType::CUSTOM, device_id) {}
};
using CUDAPlace = GPUPlace;
using CUDAPinnedPlace = GPUPinnedPlace;

inline std::ostream& operator<<(std::ostream& os, const Place& p) { return os << p.DebugString(); }
}  // namespace phi

namespace paddle {
using Place = phi::Place;
using CPUPlace = phi::CPUPlace;
using GPUPlace = phi::GPUPlace;
using GPUPinnedPlace = phi::GPUPinnedPlace;
using XPUPlace = phi::XPUPlace;
using CustomPlace = phi::CustomPlace;
using CUDAPlace = phi::GPUPlace;
namespace experimental {
using Place = phi::Place;
using CPUPlace = phi::CPUPlace;
using GPUPlace = phi::GPUPlace;
using AllocationType = phi::AllocationType;
}  // namespace experimental
using AllocationType = phi::AllocationType;
// The 2.x spelling: paddle::PlaceType::kCPU.
struct PlaceType {
  static const Place kCPU;
  static const Place kGPU;
  static const Place kUNK;
};
inline const Place PlaceType::kCPU = phi::CPUPlace();
inline const Place PlaceType::kGPU = phi::GPUPlace();
inline const Place PlaceType::kUNK = phi::Place();

// The current CUDA device as a place (GPUPlace(0) when torch has no CUDA).
inline GPUPlace DefaultGPUPlace() {
  if (!at::hasCUDA()) return GPUPlace(0);
  return GPUPlace(c10::impl::getDeviceGuardImpl(at::kCUDA)->getDevice().index());
}
inline CPUPlace DefaultCPUPlace() { return CPUPlace(); }

namespace compat {
inline at::Device ToDevice(const Place& p) {
  if (p.GetType() == AllocationType::GPU) return at::Device(at::kCUDA, p.GetDeviceId());
  return at::Device(at::kCPU);
}
inline Place FromDevice(const at::Device& d) {
  if (d.is_cuda()) return phi::GPUPlace(d.has_index() ? d.index() : 0);
  return phi::CPUPlace();
}
}  // namespace compat
}  // namespace paddle
