// What the window's GPU work has produced so far, as one immutable snapshot: the UI takes the latest once per
// frame (app/gpu_worker.h) and never waits on the GPU.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/nvml.h"
#include "core/capture.h"

namespace gs {

struct LivePoint {
  double t = 0;              // seconds since the window started its GPU work
  double tflops = 0, cublas_tflops = 0;
  int sm_mhz = 0;            // the SM clock read right after the measurement (0: NVML absent)
};

struct LiveSnapshot {
  std::shared_ptr<const Capture> capture;  // device, runs and traced layouts measured so far
  std::string status;                      // what the worker is doing now, empty when idle
  std::string error;                       // last failure, one line
  std::string series_kernel;               // what `series` measures now ("sgemm/01_naive f32 2048^3")
  std::vector<LivePoint> series;           // oldest first, at most kSeriesCapacity points, across switches
  // Where the series changed kernel (a toggle, another rung): the time of the first point of each stretch and
  // what it measures, oldest first; the first entry starts the series.
  struct Switch {
    double t = 0;
    std::string kernel;
  };
  std::vector<Switch> switches;
  DeviceState device;                      // clocks, power, temperature, throttling: read with each sample
  // The last fault of the worker process, one line: which kernel, why, and what the window did about it
  // ("mma_f16/05_x faulted: an illegal memory access ...; GPU worker restarted, results so far kept").
  std::string fault;
  int restarts = 0;                        // worker processes started after a fault
};

inline constexpr size_t kSeriesCapacity = 600;  // at one point per kSampleInterval: the last minute
inline constexpr double kSampleInterval = 0.1;   // seconds per published point (median of the runs in it)

}  // namespace gs
