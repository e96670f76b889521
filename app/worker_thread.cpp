#include "app/worker_thread.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>

namespace gs {

WorkerThread::WorkerThread(WorkerPlan plan) : plan_(std::move(plan)), shape_(plan_.shape) {
  snapshot_ = std::make_shared<LiveSnapshot>();
  thread_ = std::thread([this] { loop(); });
}

WorkerThread::~WorkerThread() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::shared_ptr<const LiveSnapshot> WorkerThread::latest() const {
  std::lock_guard<std::mutex> lock(mu_);
  return snapshot_;
}

void WorkerThread::set_live_kernel(const std::string& kernel, Precision p) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (kernel == live_kernel_ && p == live_precision_) return;
    live_kernel_ = kernel;
    live_precision_ = p;
  }
  wake_.notify_all();
}

void WorkerThread::set_live_shape(GemmShape shape) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (shape == live_shape_) return;
    live_shape_ = shape;
  }
  wake_.notify_all();
}

void WorkerThread::rerun_ladder(GemmShape shape) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    shape_ = shape;
    ladder_pending_ = true;
  }
  wake_.notify_all();
}

void WorkerThread::request_drill(const std::string& kind) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    drill_ = kind;
  }
  wake_.notify_all();
}

void WorkerThread::publish(const std::function<void(LiveSnapshot&)>& edit) {
  // Copy-on-write: readers keep whatever snapshot they hold; the next frame sees the new one.
  std::shared_ptr<const LiveSnapshot> now;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto next = std::make_shared<LiveSnapshot>(*snapshot_);
    edit(*next);
    snapshot_ = now = std::move(next);
  }
  if (plan_.published) plan_.published(now);
}

void WorkerThread::loop() {
  publish([](LiveSnapshot& s) { s.status = "opening the GPU"; });
  std::string error;
  std::unique_ptr<GpuSession> gpu = plan_.open(&error);
  if (!gpu) {
    publish([&](LiveSnapshot& s) { s.status.clear(); s.error = error; });
    return;
  }
  auto capture = std::make_shared<Capture>();
  capture->device = gpu->device();
  capture->tool = std::string("gemmscope ") + GEMMSCOPE_VERSION + " (live)";
  publish([&](LiveSnapshot& s) {
    s.capture = capture;
    if (plan_.layouts) s.status = "tracing fragment layouts";
  });
  if (plan_.layouts) {
    capture = std::make_shared<Capture>(*capture);
    std::string layout_error;
    capture->layouts = gpu->trace_layouts(&layout_error);
    publish([&](LiveSnapshot& s) {
      s.capture = capture;
      if (!layout_error.empty()) s.error = "tracing fragment layouts: " + layout_error;  // shown in the banner
    });
  }

  // The device the session opened: NVML numbers it as CUDA does where CUDA_VISIBLE_DEVICES is unset.
  std::unique_ptr<Nvml> nvml = Nvml::open(plan_.device);
  publish([&](LiveSnapshot& s) { s.device = nvml->read(); });
  const auto t0 = plan_.t0;
  std::string series_key;
  std::set<std::string> traced = plan_.traced;  // kernels whose traced launch the capture (or the window) holds
  std::set<std::string> measured = std::move(plan_.measured);  // the first ladder's runs done by an earlier worker
  const std::set<std::string>& skip = plan_.skip;
  std::vector<LivePoint> pending;  // runs since the last published point, of pending_key
  std::string pending_key;
  double pending_t0 = 0;
  for (;;) {
    std::string kernel;
    Precision precision;
    GemmShape shape, live_shape;
    bool ladder;
    std::string drill;
    {
      std::unique_lock<std::mutex> lock(mu_);
      // Idle until there is something to measure; the live plot runs back to back.
      wake_.wait(lock, [&] { return stop_ || ladder_pending_ || !live_kernel_.empty() || !drill_.empty(); });
      if (stop_) return;
      drill.swap(drill_);
      kernel = live_kernel_;
      precision = live_precision_;
      live_shape = live_shape_;
      shape = shape_;
      ladder = ladder_pending_;
      ladder_pending_ = ladder_pending_ && !drill.empty();  // a drill goes first; the ladder after it
    }
    if (!drill.empty()) {
      // A faulting drill ends this process (the worker process reports it); one that returns did not fault.
      publish([&](LiveSnapshot& s) { s.status = "fault drill: " + fault_drill_kernel(drill); });
      const std::string what = gpu->fault_drill(drill);
      publish([&](LiveSnapshot& s) {
        s.status.clear();
        s.error = fault_drill_kernel(drill) + " did not fault" + (what.empty() ? "" : ": " + what);
      });
      continue;
    }
    if (ladder) {
      auto next = std::make_shared<Capture>(*capture);
      next->runs.clear();
      size_t step = 0, steps = 0;
      // The rungs (and hopper/04's tile-walk variant); the block order variants, the same kernels in other
      // orders, are measured when selected.
      auto in_ladder = [](const KernelInfo& k) { return k.order_scheme.empty(); };
      for (const KernelInfo& k : kernel_registry())
        if (in_ladder(k) && !skip.count(k.name)) steps += k.precisions.size();
      // A new size: the traces of the old one no longer match the runs. (A worker restarted after a fault
      // resumes the ladder at the size its window kept runs and traces of.)
      if (measured.empty()) {
        next->blocks.clear(), next->stages.clear(), next->smem.clear(), next->gmem.clear();
        traced.clear();
      }
      for (const KernelInfo& k : kernel_registry()) {
        if (!in_ladder(k) || skip.count(k.name)) continue;
        for (Precision p : k.precisions) {
          ++step;
          if (measured.count(k.name + " " + precision_name(p))) continue;
          publish([&](LiveSnapshot& s) {
            s.status = "measuring the ladder: " + k.name + " " + precision_name(p) + " (" + std::to_string(step) +
                       "/" + std::to_string(steps) + ")";
          });
          RunResult r = gpu->run(k, p, shape, RunOptions{});
          if (r.skipped) continue;
          if (!r.ok) publish([&](LiveSnapshot& s) { s.error = k.name + ": " + r.error; });
          next->runs.push_back(r.record());
          capture = next;
          publish([&](LiveSnapshot& s) { s.capture = capture; });
          next = std::make_shared<Capture>(*capture);
        }
        std::lock_guard<std::mutex> lock(mu_);
        if (stop_) return;
      }
      measured.clear();
      // The ceilings the roofline draws (cuBLAS, copies, register-only loops): once per window.
      if (capture->peaks.empty() && plan_.peaks) {
        publish([&](LiveSnapshot& s) { s.status = "measuring the GPU's ceilings"; });
        std::string peak_error;
        next = std::make_shared<Capture>(*capture);
        next->peaks = gpu->measure_peaks(&peak_error);
        capture = next;
        publish([&](LiveSnapshot& s) {
          s.capture = capture;
          if (!peak_error.empty()) s.error = "measuring ceilings: " + peak_error;
        });
      }
      publish([&](LiveSnapshot& s) { s.status.clear(); });
      continue;
    }
    const KernelInfo* info = find_kernel(kernel);
    if (!info) {
      publish([&](LiveSnapshot& s) { s.error = "unknown kernel '" + kernel + "'"; live_kernel_.clear(); });
      continue;
    }
    if (skip.count(kernel)) {
      publish([&](LiveSnapshot& s) { s.error = kernel + " faulted before: not run again"; live_kernel_.clear(); });
      continue;
    }
    // The views of the selected kernel (launch order, timeline, banks, global memory) need its traced launch:
    // one instrumented run at the ladder's size, once per kernel, after the live plot's first sample of it (a
    // toggle shows in the plot first) and never mixed with its timed runs. With it, the kernel it is compared
    // with in the launch-order view: a rung's row-major variant, a variant's rung. A variant not yet measured
    // gets its run at that size too.
    const std::string key = kernel + " " + precision_name(precision) + " " + shape_text(live_shape);
    if (!traced.count(kernel) && key == series_key) {
      std::vector<const KernelInfo*> todo{info};
      const size_t open = kernel.find('[');
      if (const KernelInfo* twin = find_kernel(open == std::string::npos ? kernel + "[order=none]" : kernel.substr(0, open)))
        if (!traced.count(twin->name) && !skip.count(twin->name)) todo.push_back(twin);
      for (const KernelInfo* k : todo) {
        const Precision p = k->precisions.front();
        publish([&](LiveSnapshot& s) { s.status = "tracing " + k->name + " " + precision_name(p); });
        auto next = std::make_shared<Capture>(*capture);
        if (std::none_of(next->runs.begin(), next->runs.end(), [&](const RunRecord& r) { return r.kernel == k->name; })) {
          const RunResult r = gpu->run(*k, p, shape, RunOptions{});
          if (!r.skipped) next->runs.push_back(r.record());
        }
        TraceResult t = gpu->trace(*k, p, shape);
        const std::string error = t.run.skipped || t.run.ok ? "" : k->name + ": trace: " + t.run.error;
        if (t.run.ok) keep_trace(next.get(), std::move(t), *k);
        traced.insert(k->name);
        capture = next;
        publish([&](LiveSnapshot& s) {
          s.capture = capture;
          s.status.clear();
          if (!error.empty()) s.error = error;
        });
        std::lock_guard<std::mutex> lock(mu_);
        if (stop_) return;
      }
      continue;
    }
    // The live plot's size (2048^3 unless the window chose another): small enough for many runs a second.
    RunOptions opt;
    opt.repeats = 10;
    const RunResult r = gpu->run(*info, precision, live_shape, opt);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // One point per interval, the median of the runs in it (a 2048^3 run takes a few ms: a point per run
    // would fill the plot in a second); the first run of a new kernel is a point at once, so a toggle shows.
    if (key != pending_key) pending.clear(), pending_key = key, pending_t0 = t;
    if (r.ok) pending.push_back({t, r.tflops, r.cublas_tflops, 0});
    const bool first = key != series_key;
    if (r.ok && !first && t - pending_t0 < kSampleInterval) continue;
    LivePoint point{};
    if (!pending.empty()) {
      auto by = [&](double LivePoint::*f) {
        std::vector<double> v;
        for (const LivePoint& p : pending) v.push_back(p.*f);
        std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
        return v[v.size() / 2];
      };
      point = {t, by(&LivePoint::tflops), by(&LivePoint::cublas_tflops), 0};
    }
    pending.clear();
    pending_t0 = t;
    const DeviceState device_now = nvml->read();
    point.sm_mhz = device_now.sm_mhz;
    publish([&](LiveSnapshot& s) {
      s.series_kernel = key;
      s.device = device_now;
      if (r.ok) {
        // One series across kernels: a switch starts a new stretch, which the plot marks.
        if (s.switches.empty() || s.switches.back().kernel != key) s.switches.push_back({t, key});
        s.series.push_back(point);
        if (s.series.size() > kSeriesCapacity) s.series.erase(s.series.begin());
        // Stretches that scrolled out: keep the one the oldest point belongs to.
        while (s.switches.size() > 1 && s.switches[1].t <= s.series.front().t) s.switches.erase(s.switches.begin());
      } else {
        s.error = kernel + ": " + r.error;
        live_kernel_.clear();  // stop hammering a kernel that fails (publish holds mu_)
      }
    });
    series_key = key;
  }
}

}  // namespace gs
