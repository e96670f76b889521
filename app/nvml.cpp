#include "app/nvml.h"

#include <dlfcn.h>

namespace gs {
namespace {

// The few NVML entry points used, declared here from the driver's stable C ABI (the CUDA toolkit on a build
// machine need not ship nvml.h). Every one returns 0 (NVML_SUCCESS) or an error code.
using Device = void*;
using InitFn = int (*)();
using ShutdownFn = int (*)();
using ErrorStringFn = const char* (*)(int);
using HandleFn = int (*)(unsigned, Device*);
using NameFn = int (*)(Device, char*, unsigned);
using ClockFn = int (*)(Device, int, unsigned*);
using PowerFn = int (*)(Device, unsigned*);
using TempFn = int (*)(Device, int, unsigned*);
using ReasonsFn = int (*)(Device, unsigned long long*);
struct MemoryInfo {
  unsigned long long total, free, used;
};
using MemoryFn = int (*)(Device, MemoryInfo*);
constexpr int kClockSm = 1, kClockMem = 2, kTempGpu = 0;

class Missing : public Nvml {
 public:
  explicit Missing(std::string why) : why_(std::move(why)) {}
  DeviceState read() override {
    DeviceState s;
    s.error = why_;
    return s;
  }

 private:
  std::string why_;
};

class Library : public Nvml {
 public:
  Library(void* lib, Device dev) : lib_(lib), dev_(dev) {
    name_ = sym<NameFn>("nvmlDeviceGetName");
    clock_ = sym<ClockFn>("nvmlDeviceGetClockInfo");
    max_clock_ = sym<ClockFn>("nvmlDeviceGetMaxClockInfo");
    power_ = sym<PowerFn>("nvmlDeviceGetPowerUsage");
    limit_ = sym<PowerFn>("nvmlDeviceGetEnforcedPowerLimit");
    temp_ = sym<TempFn>("nvmlDeviceGetTemperature");
    memory_ = sym<MemoryFn>("nvmlDeviceGetMemoryInfo");
    // Renamed in CUDA 12.2's NVML ("clock events"); the old name stays exported for older drivers.
    reasons_ = sym<ReasonsFn>("nvmlDeviceGetCurrentClocksEventReasons");
    if (!reasons_) reasons_ = sym<ReasonsFn>("nvmlDeviceGetCurrentClocksThrottleReasons");
  }
  ~Library() override {
    if (auto shutdown = sym<ShutdownFn>("nvmlShutdown")) shutdown();
    dlclose(lib_);
  }
  DeviceState read() override {
    DeviceState s;
    s.ok = true;
    char name[96] = {};
    if (name_ && name_(dev_, name, sizeof name) == 0) s.name = name;
    unsigned v = 0;
    if (clock_ && clock_(dev_, kClockSm, &v) == 0) s.sm_mhz = int(v);
    if (clock_ && clock_(dev_, kClockMem, &v) == 0) s.mem_mhz = int(v);
    if (max_clock_ && max_clock_(dev_, kClockSm, &v) == 0) s.sm_max_mhz = int(v);
    if (power_ && power_(dev_, &v) == 0) s.power_w = v / 1000.0;
    if (limit_ && limit_(dev_, &v) == 0) s.power_limit_w = v / 1000.0;
    if (temp_ && temp_(dev_, kTempGpu, &v) == 0) s.temperature_c = int(v);
    unsigned long long r = 0;
    if (reasons_ && reasons_(dev_, &r) == 0) s.reasons = r;
    MemoryInfo m{};
    if (memory_ && memory_(dev_, &m) == 0) s.memory_total = m.total, s.memory_free = m.free;
    return s;
  }

 private:
  template <class F>
  F sym(const char* name) {
    return reinterpret_cast<F>(dlsym(lib_, name));
  }
  void* lib_;
  Device dev_;
  NameFn name_ = nullptr;
  ClockFn clock_ = nullptr, max_clock_ = nullptr;
  PowerFn power_ = nullptr, limit_ = nullptr;
  TempFn temp_ = nullptr;
  ReasonsFn reasons_ = nullptr;
  MemoryFn memory_ = nullptr;
};

}  // namespace

std::string DeviceState::throttled() const {
  // NVML's nvmlClocksEventReason* bits (GPU idle, 0x1, is the absence of work, not a hold-back).
  static const struct {
    uint64_t bit;
    const char* what;
  } kReasons[] = {{0x2, "application clocks"},  {0x4, "power cap"},           {0x8, "hardware slowdown"},
                  {0x10, "sync boost"},         {0x20, "thermal (software)"}, {0x40, "thermal (hardware)"},
                  {0x80, "power brake"},        {0x100, "display clocks"}};
  std::string out;
  for (const auto& r : kReasons)
    if (reasons & r.bit) out += (out.empty() ? "" : ", ") + std::string(r.what);
  return out;
}

std::unique_ptr<Nvml> Nvml::open(int device) {
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return std::make_unique<Missing>("NVML not found (libnvidia-ml.so.1 comes with the NVIDIA driver): no clocks, power or temperature");
  auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
  auto handle = reinterpret_cast<HandleFn>(dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
  auto error = reinterpret_cast<ErrorStringFn>(dlsym(lib, "nvmlErrorString"));
  int rc = -1;
  if (!init || !handle || (rc = init()) != 0) {
    std::string why = init && handle ? (error ? error(rc) : "error " + std::to_string(rc)) : "entry points missing";
    // NVML_ERROR_LIB_RM_VERSION_MISMATCH: the driver was upgraded but the old kernel module still runs.
    if (rc == 18) why += " (a driver upgraded but not yet loaded: reboot)";
    dlclose(lib);
    return std::make_unique<Missing>("NVML did not start: " + why);
  }
  Device dev = nullptr;
  if ((rc = handle(unsigned(device), &dev)) != 0) {
    const std::string why = error ? error(rc) : "error " + std::to_string(rc);
    if (auto shutdown = reinterpret_cast<ShutdownFn>(dlsym(lib, "nvmlShutdown"))) shutdown();
    dlclose(lib);
    return std::make_unique<Missing>("NVML has no device " + std::to_string(device) + ": " + why);
  }
  return std::make_unique<Library>(lib, dev);
}

}  // namespace gs
