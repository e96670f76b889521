// The window's GPU worker. The GPU work itself (app/worker_thread.h: the ladder, traced layouts, the live plot)
// runs in a worker process: this binary re-executed with a hidden subcommand, talking to the window over two
// pipes (app/worker_protocol.h). Re-executed (posix_spawn of /proc/self/exe), never forked alone: the window has
// threads and a display connection, a test process may hold a CUDA context, and none of them survive a fork. A kernel that faults (an illegal address, a trap: a sticky CUDA error that
// poisons the process) or hangs takes only that process down. The window's side merges what each worker sent
// into one snapshot, so everything recorded so far survives; when the worker dies, reports a sticky error or
// stops answering (a watchdog), the snapshot says which kernel faulted and why, the kernel is not run again,
// and a new worker starts after a back-off.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/live.h"
#include "kernels/gemm.h"

namespace gs {

// The hidden first argument that makes this binary a worker process (main() checks it before anything else).
inline constexpr const char* kGpuWorkerCommand = "__gpu-worker";
// main() of the worker process: `BINARY __gpu-worker --device N [--fault-drill KIND] [--fake]`, requests on
// descriptor 3, replies on descriptor 4.
int gpu_worker_main(int argc, char** argv);

// The fake worker's fault drills (GpuWorkerOptions::fake): "sticky" (a sticky error reported), "signal"
// (SIGSEGV), "exit" (code 5), "hang" (inside an operation), "freeze" (SIGSTOP: no answer at all), "garbage" (a
// message header announcing 4 GB), and "rung", which needs no request: the ladder's third kernel leaves a sticky
// error whenever it runs.
const std::vector<std::string>& fake_fault_drills();

struct GpuWorkerOptions {
  std::string exe;            // the binary re-executed as the worker; empty: this one (/proc/self/exe)
  bool fake = false;          // a worker without CUDA whose fault drill dies on command (tests of the protocol)
  std::string fault_drill;    // the fault drill the worker accepts ("" none; `--fault-drill`)
  double op_limit_s = 30;     // one GPU operation may take this long (more at large sizes) before it counts as hung
  double answer_limit_s = 10;  // the worker answers a ping within this, else it is killed
  double backoff_s = 1;       // the first restart's delay; doubled after each fault in a row, at most 30 s
  int max_faults = 5;         // this many faults within 10 minutes: no more restarts
};

class GpuWorker {
 public:
  static constexpr size_t kSeriesCapacity = gs::kSeriesCapacity;
  static constexpr double kSampleInterval = gs::kSampleInterval;

  GpuWorker(int device, GemmShape shape, GpuWorkerOptions options = {});
  ~GpuWorker();  // stops the worker process and reaps it
  GpuWorker(const GpuWorker&) = delete;
  GpuWorker& operator=(const GpuWorker&) = delete;

  std::shared_ptr<const LiveSnapshot> latest() const;
  // What the live plot measures; an empty name pauses it.
  void set_live_kernel(const std::string& kernel, Precision p);
  // The size the live plot measures at (2048^3 until set).
  void set_live_shape(GemmShape shape);
  // Re-runs the whole ladder (after the user changed the size, say).
  void rerun_ladder(GemmShape shape);
  // Runs the fault drill of options.fault_drill next (once: not after it faulted). False without that option.
  bool run_fault_drill();
  // The worker process now running (0: none): tests check that a dead one was reaped.
  int worker_pid() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One capture of what an earlier worker (`older`) and the current one (`newer`) recorded: the newer's device,
// layouts and ceilings where it has them, every run of either (the newer's where both measured the same
// kernel, dtype and size), and each kernel's traced launch from the newer where it traced it.
Capture merge_captures(const Capture& older, const Capture& newer);

}  // namespace gs
