// The window's GPU worker: one thread owns the GpuSession, runs the ladder, traces layouts and
// measures the selected kernel over and over for the live plot. It publishes immutable snapshots;
// the UI takes the lock once per frame to pick up the latest one and never waits on the GPU.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/nvml.h"
#include "core/capture.h"
#include "kernels/gemm.h"

namespace gs {

struct LivePoint {
  double t = 0;              // seconds since the worker started
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
};

class GpuWorker {
 public:
  static constexpr size_t kSeriesCapacity = 600;  // at one point per kSampleInterval: the last minute
  static constexpr double kSampleInterval = 0.1;   // seconds per published point (median of the runs in it)

  GpuWorker(int device, GemmShape shape);
  ~GpuWorker();
  GpuWorker(const GpuWorker&) = delete;
  GpuWorker& operator=(const GpuWorker&) = delete;

  std::shared_ptr<const LiveSnapshot> latest() const;
  // What the live plot measures; an empty name pauses it.
  void set_live_kernel(const std::string& kernel, Precision p);
  // The size the live plot measures at (2048^3 until set).
  void set_live_shape(GemmShape shape);
  // Re-runs the whole ladder (after the user changed the size, say).
  void rerun_ladder(GemmShape shape);

 private:
  void loop(int device);
  void publish(const std::function<void(LiveSnapshot&)>& edit);

  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::shared_ptr<const LiveSnapshot> snapshot_;
  // Requests from the UI, guarded by mu_.
  std::string live_kernel_;
  Precision live_precision_ = Precision::F32;
  GemmShape live_shape_{2048, 2048, 2048};
  GemmShape shape_;
  bool ladder_pending_ = true;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace gs
