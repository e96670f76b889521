// What the GPU is doing while it runs: clocks, power, temperature and why its clocks are held back, read
// through NVML (libnvidia-ml.so.1, from the NVIDIA driver) opened at run time, so that gemmscope starts, and
// says why, where there is none. The throughput panel shows it beside the live plot: a number is only as
// good as the clock it was measured at.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace gs {

struct DeviceState {
  bool ok = false;      // false: `error` says why there is nothing to show
  std::string error;    // "NVML not found (libnvidia-ml.so.1): ..." and the like
  std::string name;
  int sm_mhz = 0, mem_mhz = 0, sm_max_mhz = 0;
  double power_w = 0, power_limit_w = 0;  // 0: not reported
  int temperature_c = -1;
  uint64_t memory_total = 0, memory_free = 0;  // bytes; 0: not reported
  uint64_t reasons = 0;  // NVML's clock event (throttle) reason bits
  // "power cap, thermal slowdown" from `reasons`; "" when nothing holds the clocks back (idle is not a reason).
  std::string throttled() const;
};

class Nvml {
 public:
  // Opens NVML and the device with this index (CUDA's order where CUDA_VISIBLE_DEVICES is unset). Never null:
  // a failed open gives an Nvml whose read() says why.
  static std::unique_ptr<Nvml> open(int device);
  virtual ~Nvml() = default;
  virtual DeviceState read() = 0;
};

}  // namespace gs
