// Shared by the worker tests (CPU and GPU): polls a GpuWorker's latest snapshot, as the window does once a frame,
// until `done` holds or `seconds` pass, and returns the last snapshot seen.
#pragma once

#include <chrono>
#include <memory>
#include <thread>

#include "app/gpu_worker.h"

namespace gs {

template <class Pred>
std::shared_ptr<const LiveSnapshot> wait_for(const GpuWorker& w, Pred done, double seconds) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  std::shared_ptr<const LiveSnapshot> s = w.latest();
  while (!done(*s) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    s = w.latest();
  }
  return s;
}

}  // namespace gs
