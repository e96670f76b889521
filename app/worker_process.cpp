// The worker process: `gemmscope __gpu-worker --device N [--fault-drill KIND] [--fake]`, started by the window
// (app/gpu_worker.cpp), never by a user. It runs the window's GPU work (WorkerThread) and reports over descriptor
// 4 what the work produced, and before each GPU operation which kernel it runs and for how long it may take; a
// sticky CUDA error after an operation is reported as a fault ("falt") and ends the process, whose GPU context
// is of no further use. Requests arrive on descriptor 3; their end (the window is gone) ends the process.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "app/cli.h"
#include "app/gpu_worker.h"
#include "app/worker_protocol.h"
#include "app/worker_thread.h"
#include "core/layout.h"

namespace gs {
namespace {

constexpr int kRequestFd = 3, kReplyFd = 4;
constexpr int kExitFault = 3;  // after a "falt" message

// The reply pipe, shared by the worker thread (its snapshots, busy/idle, faults) and the request reader (pongs).
class Link {
 public:
  void send(const char* type, const std::string& body) {
    std::lock_guard<std::mutex> lock(mu_);
    // The window is gone (EPIPE: SIGPIPE is ignored here): nothing left to work for.
    if (!wire::write_all(kReplyFd, wire::frame(type, body))) _exit(0);
  }

  // After each new snapshot: what changed. The capture is sent whole, and only when it changed.
  void snapshot(const std::shared_ptr<const LiveSnapshot>& s) {
    std::lock_guard<std::mutex> lock(state_mu_);
    if (s->capture && s->capture != sent_capture_) {
      Capture c = *s->capture;
      if (c.recorded_at.empty()) c.recorded_at = utc_now_iso();
      send("capt", capture_to_json(c));
      sent_capture_ = s->capture;
    }
    wire::StateUpdate u;
    u.status = s->status;
    u.error = s->error;
    u.series_kernel = s->series_kernel;
    u.device = s->device;
    for (const LivePoint& p : s->series)
      if (p.t > sent_t_) u.points.push_back(p);
    for (const LiveSnapshot::Switch& w : s->switches)
      if (w.t > sent_switch_t_) u.switches.push_back(w);
    if (!u.points.empty()) sent_t_ = u.points.back().t;
    if (!u.switches.empty()) sent_switch_t_ = u.switches.back().t;
    send("snap", wire::encode_state(u));
  }

  // Which kernel the next GPU operation runs ("" for none), what it is, and how long it may take.
  void busy(const std::string& kernel, const std::string& what, double limit_s) {
    send("busy", nlohmann::json{{"kernel", kernel}, {"what", what}, {"limit_s", limit_s}}.dump());
  }
  void idle() { send("idle", "{}"); }

  // A sticky error: said, then this process ends (its GPU context is broken for good).
  [[noreturn]] void fault(const std::string& kernel, const std::string& why) {
    send("falt", nlohmann::json{{"kernel", kernel}, {"why", why}}.dump(-1, ' ', false,
                                                                        nlohmann::json::error_handler_t::replace));
    _exit(kExitFault);
  }

 private:
  std::mutex mu_, state_mu_;
  std::shared_ptr<const Capture> sent_capture_;
  double sent_t_ = -1e300, sent_switch_t_ = -1e300;
};

// A session that tells the window what it runs before it runs it, and turns a sticky error into a fault report.
class WatchedSession final : public GpuSession {
 public:
  WatchedSession(std::unique_ptr<GpuSession> inner, Link* link, double limit_s)
      : inner_(std::move(inner)), link_(link), limit_s_(limit_s) {}

  DeviceInfo device() const override { return inner_->device(); }

  RunResult run(const KernelInfo& k, Precision p, GemmShape s, const RunOptions& opt) override {
    // Verification, warm-up and timed launches of the kernel and of cuBLAS, at no less than 50 GFLOP/s.
    const double launches = 2.0 * (1 + opt.warmup + std::max(opt.repeats, 10));
    link_->busy(k.name, "measuring", limit_s_ + launches * s.flops() / 5e10);
    RunResult r = inner_->run(k, p, s, opt);
    check(k.name, !r.ok && !r.skipped);
    return r;
  }
  TraceResult trace(const KernelInfo& k, Precision p, GemmShape s) override {
    link_->busy(k.name, "tracing", limit_s_ + 8 * s.flops() / 5e10);
    TraceResult t = inner_->trace(k, p, s);
    check(k.name, !t.run.ok && !t.run.skipped);
    return t;
  }
  std::vector<FragmentLayout> trace_layouts(std::string* error) override {
    std::string why;
    link_->busy("", "tracing fragment layouts", limit_s_);
    std::vector<FragmentLayout> l = inner_->trace_layouts(&why);
    check("", !why.empty());
    if (error) *error = why;
    return l;
  }
  std::vector<Peak> measure_peaks(std::string* error) override {
    std::string why;
    link_->busy("", "measuring the GPU's ceilings", 4 * limit_s_);
    std::vector<Peak> p = inner_->measure_peaks(&why);
    check("", !why.empty());
    if (error) *error = why;
    return p;
  }
  std::string fault_drill(const std::string& kind) override {
    link_->busy(fault_drill_kernel(kind), "fault drill", limit_s_);
    const std::string what = inner_->fault_drill(kind);
    check(fault_drill_kernel(kind), !what.empty());
    return what;
  }
  std::string sticky_error() override { return inner_->sticky_error(); }

 private:
  void check(const std::string& kernel, bool failed) {
    if (failed) {
      const std::string sticky = inner_->sticky_error();
      if (!sticky.empty()) link_->fault(kernel, sticky);
    }
    link_->idle();
  }

  std::unique_ptr<GpuSession> inner_;
  Link* link_;
  double limit_s_;
};

// A GPU that is not there (`--fake`): quick made-up numbers, and a fault drill that dies, hangs or breaks on
// command. It lets a machine without a GPU test everything around the kernels: the pipes, the watchdog, the
// restarts and what the window keeps.
class FakeSession final : public GpuSession {
 public:
  // drill "rung": the ladder's third kernel leaves a sticky error whenever it runs (a rung with a bug).
  explicit FakeSession(const std::string& drill) : faulty_(drill == "rung" ? kernel_registry().at(2).name : "") {}

  DeviceInfo device() const override {
    DeviceInfo d;
    d.name = "Fake GPU (worker test, no CUDA)";
    d.cc_major = 9;
    d.sm_count = 132;
    d.l2_bytes = 50 << 20;
    d.smem_per_sm_bytes = 228 << 10;
    d.sm_clock_mhz = 1980;
    d.mem_clock_mhz = 3201;
    d.driver = "fake";
    d.cuda_runtime = "fake";
    return d;
  }
  RunResult run(const KernelInfo& k, Precision p, GemmShape s, const RunOptions& opt) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    RunResult r;
    r.kernel = k.name;
    r.precision = p;
    r.shape = s;
    if (k.name == faulty_) broken_ = "an illegal memory access was encountered (fake cudaErrorIllegalAddress)";
    r.ok = broken_.empty();
    if (!r.ok) {
      r.error = broken_;
      return r;
    }
    r.tflops = 1 + double(std::hash<std::string>{}(k.name) % 100);
    r.cublas_tflops = 100;
    r.median_ms = s.flops() / r.tflops / 1e9;
    r.cublas_ms = s.flops() / r.cublas_tflops / 1e9;
    r.samples_ms.assign(size_t(std::max(opt.repeats, 10)), r.median_ms);
    return r;
  }
  TraceResult trace(const KernelInfo& k, Precision p, GemmShape s) override {
    TraceResult t;
    t.run = run(k, p, s, RunOptions{});
    if (t.run.ok) t.blocks.push_back(BlockRecord{k.name, 0, 0, 0, 0, 0, 0, 1000, 2000});
    return t;
  }
  std::vector<FragmentLayout> trace_layouts(std::string*) override {
    FragmentLayout l = documented_layout(*find_mma_op("mma.m16n8k16.f16"), Operand::C);
    l.source = "traced";
    return {l};
  }
  std::vector<Peak> measure_peaks(std::string*) override {
    return {Peak{"fp32", 50, "TFLOP/s", "fake: made up by the worker test"}};
  }
  std::string fault_drill(const std::string& kind) override {
    prctl(PR_SET_DUMPABLE, 0);  // no core file for a crash on purpose
    if (kind == "signal") {  // dies of the signal, as a real crash does, even where a handler is installed (ASan's)
      signal(SIGSEGV, SIG_DFL);
      raise(SIGSEGV);
    }
    if (kind == "exit") _exit(5);
    if (kind == "freeze") raise(SIGSTOP);  // stopped: not even pings are answered
    if (kind == "garbage") {  // a header announcing 4 GB: the window must refuse it, not allocate it
      const char header[] = {'s', 'n', 'a', 'p', '\xff', '\xff', '\xff', '\xff'};
      (void)!write(kReplyFd, header, sizeof header);
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    if (kind == "hang")
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    broken_ = "an illegal memory access was encountered (fake cudaErrorIllegalAddress)";
    return broken_;
  }
  std::string sticky_error() override { return broken_; }

 private:
  std::string faulty_;
  std::string broken_;
};

int usage(const std::string& what) {
  return fail(kGpuWorkerCommand, what + " (started by the window; not a command to type)", kExitUsage);
}

}  // namespace

const std::vector<std::string>& fake_fault_drills() {
  static const std::vector<std::string> kinds{"sticky", "signal", "exit", "hang", "freeze", "garbage", "rung"};
  return kinds;
}

int gpu_worker_main(int argc, char** argv) {
  // The window's GPU work only: a worker outlives neither the window nor the thread that started it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  signal(SIGPIPE, SIG_IGN);
  int device = 0;
  bool fake = false;
  std::string drill;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--fake") {
      fake = true;
    } else if ((a == "--device" || a == "--fault-drill") && i + 1 < argc) {
      const std::string v = argv[++i];
      if (a == "--fault-drill") {
        drill = v;
      } else {
        char* end = nullptr;
        const long d = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end || d < 0 || d > 1024) return usage("--device: '" + v.substr(0, 40) + "' is not a device index");
        device = int(d);
      }
    } else {
      return usage("unknown argument '" + a.substr(0, 40) + "'");
    }
  }
  const std::vector<std::string>& kinds = fake ? fake_fault_drills() : fault_drill_kinds();
  if (!drill.empty() && std::find(kinds.begin(), kinds.end(), drill) == kinds.end())
    return usage("--fault-drill: '" + drill.substr(0, 40) + "' is not a fault drill");
  if (fcntl(kRequestFd, F_GETFD) < 0 || fcntl(kReplyFd, F_GETFD) < 0)
    return usage("descriptors 3 and 4 are not open");
  // Nothing else the window had open (its display connection, files) belongs here.
#ifdef SYS_close_range
  if (syscall(SYS_close_range, kReplyFd + 1, ~0U, 0) != 0)
#endif
  {
    const long most = std::min(sysconf(_SC_OPEN_MAX), 1L << 16);
    for (int fd = kReplyFd + 1; fd < most; ++fd) close(fd);
  }

  wire::Reader reader(wire::kMaxToWorker);
  wire::Message m;
  std::string error;
  if (!wire::read_message(kRequestFd, &reader, &m, &error) || m.type != "strt") return 0;  // the window is gone
  const nlohmann::json start = nlohmann::json::parse(m.body, nullptr, false);
  if (start.is_discarded() || !start.is_object()) return usage("a start request that is not a JSON object");
  Link link;
  WorkerPlan plan;
  double limit_s = 30;
  Precision precision = Precision::F32;
  std::string live_kernel;
  GemmShape live_shape{2048, 2048, 2048};
  try {
    plan.device = device;
    const auto shape = start.at("shape");
    plan.shape = {shape.at(0).get<int>(), shape.at(1).get<int>(), shape.at(2).get<int>()};
    const auto ls = start.at("live_shape");
    live_shape = {ls.at(0).get<int>(), ls.at(1).get<int>(), ls.at(2).get<int>()};
    plan.t0 = std::chrono::steady_clock::time_point(std::chrono::nanoseconds(start.at("t0_ns").get<int64_t>()));
    for (const auto& k : start.at("skip")) plan.skip.insert(k.get<std::string>());
    for (const auto& k : start.at("measured")) plan.measured.insert(k.get<std::string>());
    for (const auto& k : start.at("traced")) plan.traced.insert(k.get<std::string>());
    plan.layouts = start.at("layouts").get<bool>();
    plan.peaks = start.at("peaks").get<bool>();
    limit_s = start.at("limit_s").get<double>();
    live_kernel = start.at("live_kernel").get<std::string>();
    if (!parse_precision(start.at("precision").get<std::string>(), &precision)) precision = Precision::F32;
  } catch (const nlohmann::json::exception& e) {
    return usage(std::string("a start request without what it needs: ") + e.what());
  }
  plan.open = [&](std::string* err) -> std::unique_ptr<GpuSession> {
    link.busy("", "opening the GPU", 2 * limit_s);
    std::unique_ptr<GpuSession> s = fake ? std::make_unique<FakeSession>(drill) : GpuSession::open(device, err);
    link.idle();
    if (!s) return nullptr;
    return std::make_unique<WatchedSession>(std::move(s), &link, limit_s);
  };
  plan.published = [&](const std::shared_ptr<const LiveSnapshot>& s) { link.snapshot(s); };

  WorkerThread worker(plan);
  if (!live_kernel.empty()) worker.set_live_kernel(live_kernel, precision);
  worker.set_live_shape(live_shape);
  // Requests until the window closes its end.
  for (;;) {
    if (!wire::read_message(kRequestFd, &reader, &m, &error)) break;
    const nlohmann::json j = nlohmann::json::parse(m.body, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;
    try {
      if (m.type == "ping") {
        link.send("pong", "{}");
      } else if (m.type == "kern") {
        Precision p = Precision::F32;
        parse_precision(j.at("precision").get<std::string>(), &p);
        worker.set_live_kernel(j.at("kernel").get<std::string>(), p);
      } else if (m.type == "shap" || m.type == "ladr") {
        const GemmShape s{j.at("m").get<int>(), j.at("n").get<int>(), j.at("k").get<int>()};
        if (m.type == "shap") worker.set_live_shape(s);
        else worker.rerun_ladder(s);
      } else if (m.type == "dril") {
        // Only a worker started with --fault-drill runs one, and only its own kind.
        if (!drill.empty()) worker.request_drill(drill);
      }
    } catch (const nlohmann::json::exception&) {
      // A request without its fields: ignored, as an unknown one is.
    }
  }
  // The window is gone: the worker thread may be inside a GPU operation; the process ends without waiting.
  _exit(0);
}

}  // namespace gs
