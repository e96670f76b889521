// The GPU work of the window, as one thread: it owns the GpuSession, runs the ladder, traces layouts and
// measures the selected kernel over and over for the live plot, publishing immutable snapshots. It runs inside
// the worker process (app/gpu_worker.h), so that a kernel that faults takes only that process down.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "app/live.h"
#include "kernels/gemm.h"

namespace gs {

// What a worker thread starts from: the GPU to open and what an earlier worker of the same window did already.
struct WorkerPlan {
  int device = 0;                                      // CUDA device index (NVML reads the same one)
  GemmShape shape{4096, 4096, 4096};                   // the ladder's size
  std::chrono::steady_clock::time_point t0;            // the series' time zero (the window's, across restarts)
  std::function<std::unique_ptr<GpuSession>(std::string* error)> open;  // opens the GPU; null with *error
  std::set<std::string> skip;       // kernels never to run again (they faulted)
  std::set<std::string> measured;   // "kernel dtype" measured at `shape` already: the first ladder skips them
  std::set<std::string> traced;     // kernels whose traced launch is kept already
  bool layouts = true, peaks = true;  // still to trace, to measure
  // Called, from the worker thread, after every new snapshot and around every GPU operation.
  std::function<void(const std::shared_ptr<const LiveSnapshot>&)> published;
};

class WorkerThread {
 public:
  explicit WorkerThread(WorkerPlan plan);
  ~WorkerThread();
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;

  std::shared_ptr<const LiveSnapshot> latest() const;
  void set_live_kernel(const std::string& kernel, Precision p);  // an empty name pauses the live plot
  void set_live_shape(GemmShape shape);
  void rerun_ladder(GemmShape shape);
  // Runs the fault drill of `kind` next (GpuSession::fault_drill).
  void request_drill(const std::string& kind);

 private:
  void loop();
  void publish(const std::function<void(LiveSnapshot&)>& edit);

  WorkerPlan plan_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::shared_ptr<const LiveSnapshot> snapshot_;
  // Requests, guarded by mu_.
  std::string live_kernel_;
  Precision live_precision_ = Precision::F32;
  GemmShape live_shape_{2048, 2048, 2048};
  GemmShape shape_;
  bool ladder_pending_ = true;
  std::string drill_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace gs
