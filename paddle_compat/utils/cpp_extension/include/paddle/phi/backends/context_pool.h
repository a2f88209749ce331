// Paddle's device-context pool, as custom ops use it: DeviceContextPool::Instance().Get(place)
// gives a context with the place and, for GPU places, the CUDA stream kernels should run on
// (torch's current stream of that device). The CPU context's eigen_device() is Paddle's
// Eigen::DefaultDevice (declared here; code that uses it includes Eigen itself, as with
// Paddle); BLAS/DNN handles are not provided.
#pragma once
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

#include "paddle/extension.h"

namespace Eigen {
struct DefaultDevice;
}  // namespace Eigen

namespace phi {
class DeviceContext {
 public:
  explicit DeviceContext(const Place& place) : place_(place) {}
  virtual ~DeviceContext() = default;
  const Place& GetPlace() const { return place_; }
  // Blocks until the device's queued work is done (a no-op on the CPU).
  virtual void Wait() const {}

 private:
  Place place_;
};

class CPUContext : public DeviceContext {
 public:
  explicit CPUContext(const Place& place = CPUPlace()) : DeviceContext(place) {}
  // Eigen's DefaultDevice is an empty, stateless struct (its methods are plain memory
  // functions): one aligned object per context stands for it, whether or not Eigen is
  // included (torch ships no Eigen to build a real one from).
  Eigen::DefaultDevice* eigen_device() const {
    return reinterpret_cast<Eigen::DefaultDevice*>(&eigen_device_);
  }

 private:
  mutable std::max_align_t eigen_device_{};
};

#if defined(__CUDACC__) || defined(PADDLE_COMPAT_WITH_CUDA)
class GPUContext : public DeviceContext {
 public:
  explicit GPUContext(const Place& place) : DeviceContext(place) {}
  gpuStream_t stream() const {
    return c10::cuda::getCurrentCUDAStream(static_cast<c10::DeviceIndex>(GetPlace().GetDeviceId())).stream();
  }
  void Wait() const override { cudaStreamSynchronize(stream()); }
  int GetComputeCapability() const { return Props().major * 10 + Props().minor; }
  int GetSMCount() const { return Props().multiProcessorCount; }
  int GetMaxThreadsPerBlock() const { return Props().maxThreadsPerBlock; }

 private:
  const cudaDeviceProp& Props() const {
    std::call_once(props_once_, [this] { cudaGetDeviceProperties(&props_, GetPlace().GetDeviceId()); });
    return props_;
  }
  mutable std::once_flag props_once_;
  mutable cudaDeviceProp props_{};
};
#endif
}  // namespace phi

namespace paddle {
namespace experimental {
template <AllocationType T>
struct DefaultDeviceContextType;
template <>
struct DefaultDeviceContextType<AllocationType::CPU> {
  using TYPE = phi::CPUContext;
};
#if defined(__CUDACC__) || defined(PADDLE_COMPAT_WITH_CUDA)
template <>
struct DefaultDeviceContextType<AllocationType::GPU> {
  using TYPE = phi::GPUContext;
};
#endif

// One context per place, created on first use.
class DeviceContextPool {
 public:
  static DeviceContextPool& Instance() {
    static DeviceContextPool pool;
    return pool;
  }
  template <AllocationType T>
  const typename DefaultDeviceContextType<T>::TYPE* Get(const Place& place) {
    return static_cast<const typename DefaultDeviceContextType<T>::TYPE*>(Get(place));
  }
  const phi::DeviceContext* Get(const Place& place) { return GetMutable(place); }
  phi::DeviceContext* GetMutable(const Place& place) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = ctx_[place];
    if (!slot) {
      switch (place.GetType()) {
        case AllocationType::CPU: slot = std::make_unique<phi::CPUContext>(place); break;
#if defined(__CUDACC__) || defined(PADDLE_COMPAT_WITH_CUDA)
        case AllocationType::GPU: slot = std::make_unique<phi::GPUContext>(place); break;
#endif
        default:
          throw PD_Exception("DeviceContextPool: no device context for " + place.DebugString(),
                             ErrorKind::kUnimplemented);
      }
    }
    return slot.get();
  }

 private:
  std::mutex mu_;
  std::map<Place, std::unique_ptr<phi::DeviceContext>> ctx_;
};
}  // namespace experimental
}  // namespace paddle
