#include "app/gpu_worker.h"
#include "core/text.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "app/worker_protocol.h"

extern char** environ;

namespace gs {
namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string fmt_s(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s < 10 ? "%.1f s" : "%.0f s", s);
  return buf;
}

// One line for the banner: control characters and malformed UTF-8 escaped (escape_line), at most `max` bytes.
std::string one_line(const std::string& s, size_t max = 300) {
  return cut_end(escape_line(s), max);
}

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "the GPU worker was killed by signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
  }
  if (WIFEXITED(status)) return "the GPU worker exited with code " + std::to_string(WEXITSTATUS(status));
  return "the GPU worker ended (status " + std::to_string(status) + ")";
}

// Waits up to `limit` for the process to end; SIGKILL first if `kill_first`. False: not reaped yet.
bool reap(pid_t pid, int* status, double limit) {
  const auto until = Clock::now() + std::chrono::duration<double>(limit);
  for (;;) {
    const pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid || (r < 0 && errno == ECHILD)) return true;
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::string run_key(const RunRecord& r) { return r.kernel + " " + r.dtype; }

std::set<std::string> traced_kernels(const Capture& c) {
  std::set<std::string> k;
  for (const BlockRecord& b : c.blocks) k.insert(b.kernel);
  for (const StageRecord& s : c.stages) k.insert(s.kernel);
  for (const SmemAccess& s : c.smem) k.insert(s.kernel);
  for (const GmemAccess& g : c.gmem) k.insert(g.kernel);
  return k;
}

template <class T>
void keep_older(std::vector<T>* out, const std::vector<T>& older, const std::set<std::string>& newer_kernels) {
  std::vector<T> merged;
  for (const T& e : older)
    if (!newer_kernels.count(e.kernel)) merged.push_back(e);
  merged.insert(merged.end(), out->begin(), out->end());
  out->swap(merged);
}

}  // namespace

Capture merge_captures(const Capture& older, const Capture& newer) {
  if (newer.device.name.empty()) return older;
  Capture c = newer;
  if (c.peaks.empty()) c.peaks = older.peaks;
  if (c.layouts.empty()) c.layouts = older.layouts;
  if (c.l2.empty()) c.l2 = older.l2;
  if (c.smem_price.empty()) c.smem_price = older.smem_price;
  if (c.series.empty()) c.series = older.series;
  auto same = [](const RunRecord& a, const RunRecord& b) {
    return a.kernel == b.kernel && a.dtype == b.dtype && a.m == b.m && a.n == b.n && a.k == b.k;
  };
  std::vector<RunRecord> runs;
  for (const RunRecord& r : older.runs)
    if (std::none_of(newer.runs.begin(), newer.runs.end(), [&](const RunRecord& n) { return same(r, n); }))
      runs.push_back(r);
  runs.insert(runs.end(), newer.runs.begin(), newer.runs.end());
  c.runs = std::move(runs);
  const std::set<std::string> traced = traced_kernels(newer);
  keep_older(&c.blocks, older.blocks, traced);
  keep_older(&c.stages, older.stages, traced);
  keep_older(&c.smem, older.smem, traced);
  keep_older(&c.gmem, older.gmem, traced);
  return c;
}

struct GpuWorker::Impl {
  // One worker process and what the window knows of it.
  struct Child {
    pid_t pid = 0;
    int to = -1, from = -1;  // requests, replies (the window's ends, non-blocking)
    wire::Reader reader{wire::kMaxFromWorker};
    std::string out;         // requests not yet written
    Clock::time_point started, last_heard, last_ping;
    bool busy = false;       // inside a GPU operation: which, since when, for how long at most
    std::string busy_kernel, busy_what;
    Clock::time_point busy_since;
    double busy_limit = 0;
    bool reported = false;   // it said it faulted ("falt"), and what
    std::string fault_kernel, fault_why;
    std::string sent_kernel;
    Precision sent_precision = Precision::F32;
    GemmShape sent_live;
    uint64_t sent_ladder = 0;
  };

  Impl(int device_, GemmShape shape_, GpuWorkerOptions opt_) : device(device_), opt(std::move(opt_)), shape(shape_) {
    snapshot = std::make_shared<LiveSnapshot>();
    if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) wake[0] = wake[1] = -1;
    publish();
    thread = std::thread([this] { run(); });
  }

  ~Impl() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    poke();
    thread.join();
    for (int fd : wake)
      if (fd >= 0) close(fd);
  }

  void poke() {
    if (wake[1] >= 0) {
      const char b = 1;
      (void)!write(wake[1], &b, 1);  // a full pipe is awake enough
    }
  }

  // ---- the supervisor thread ----

  void run() {
    // A write to a worker that just died raises SIGPIPE on this thread: blocked here, and taken back after an
    // EPIPE, so it never ends the window (whose other threads keep the default).
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, nullptr);
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (stop) break;
      }
      const Clock::time_point now = Clock::now();
      if (!child && !gave_up && now >= restart_at) spawn();
      forward_requests();
      if (child) watchdog(now);
      reap_leftovers();
      pollfd fds[2] = {{wake[0], POLLIN, 0}, {child ? child->from : -1, POLLIN, 0}};
      int timeout_ms = 100;  // pings and the watchdog's checks
      if (child && !child->out.empty()) timeout_ms = 10;
      poll(fds, 2, timeout_ms);
      if (fds[0].revents & POLLIN) {
        char buf[64];
        while (read(wake[0], buf, sizeof buf) > 0) {
        }
      }
      if (child && fds[1].revents) read_child();
    }
    shutdown();
  }

  void spawn() {
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) != 0) return cannot_start(std::string("pipe: ") + std::strerror(errno));
    if (pipe2(from, O_CLOEXEC) != 0) {
      close(to[0]), close(to[1]);
      return cannot_start(std::string("pipe: ") + std::strerror(errno));
    }
    // The worker's ends as descriptors 3 and 4: moved above 10 first, so no dup2 overwrites the other.
    const int in = fcntl(to[0], F_DUPFD_CLOEXEC, 10), out = fcntl(from[1], F_DUPFD_CLOEXEC, 10);
    close(to[0]), close(from[1]);
    const std::string exe = opt.exe.empty() ? "/proc/self/exe" : opt.exe;
    std::vector<std::string> args{"gemmscope", kGpuWorkerCommand, "--device", std::to_string(device)};
    if (!opt.fault_drill.empty()) args.insert(args.end(), {"--fault-drill", opt.fault_drill});
    if (opt.fake) args.push_back("--fake");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in, 3);
    posix_spawn_file_actions_adddup2(&fa, out, 4);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);  // the terminal is the window's
    posix_spawn_file_actions_adddup2(&fa, 2, 1);  // anything a library prints goes to stderr, never the pipe
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD}) sigaddset(&defaults, sig);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &defaults);
    // Its own process group: Ctrl C at the terminal is the window's to handle; the worker ends with it.
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    pid_t pid = 0;
    const int rc = in < 0 || out < 0 ? errno : posix_spawn(&pid, exe.c_str(), &fa, &at, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    if (rc != 0) {
      close(to[1]), close(from[0]);
      return cannot_start(exe + ": " + std::strerror(rc));
    }
    fcntl(to[1], F_SETFL, fcntl(to[1], F_GETFL) | O_NONBLOCK);
    fcntl(from[0], F_SETFL, fcntl(from[0], F_GETFL) | O_NONBLOCK);
    child = std::make_unique<Child>();
    child->pid = pid;
    child->to = to[1];
    child->from = from[0];
    child->started = child->last_heard = child->last_ping = Clock::now();

    // What the new worker starts from: the requests so far and what earlier workers did already.
    std::string kernel;
    Precision precision;
    GemmShape live, ladder;
    uint64_t ladder_version;
    {
      std::lock_guard<std::mutex> lock(mu);
      kernel = live_kernel, precision = live_precision, live = live_shape, ladder = shape;
      ladder_version = ladder_asked;
      pid_now = pid;
    }
    forget_old_ladder(ladder_version);
    if (faulted.count(kernel)) kernel.clear();
    nlohmann::json measured = nlohmann::json::array(), traced = nlohmann::json::array();
    for (const RunRecord& r : kept.runs)
      if (r.m == ladder.m && r.n == ladder.n && r.k == ladder.k) measured.push_back(run_key(r));
    for (const std::string& k : traced_kernels(kept)) traced.push_back(k);
    const nlohmann::json start{
        {"shape", {ladder.m, ladder.n, ladder.k}},
        {"live_shape", {live.m, live.n, live.k}},
        {"t0_ns", std::chrono::duration_cast<std::chrono::nanoseconds>(t0.time_since_epoch()).count()},
        {"skip", faulted},
        {"measured", measured},
        {"traced", traced},
        {"layouts", kept.layouts.empty()},
        {"peaks", kept.peaks.empty()},
        {"limit_s", opt.op_limit_s},
        {"live_kernel", kernel},
        {"precision", precision_name(precision)}};
    child->out += wire::frame("strt", start.dump());
    child->sent_kernel = kernel;
    child->sent_precision = precision;
    child->sent_live = live;
    child->sent_ladder = ladder_version;
    status.clear();
    error.clear();
    if (started_once) {
      ++restarts;
      fault = fault_base + "; GPU worker restarted, everything measured before kept";
    }
    started_once = true;
    publish();
  }

  void cannot_start(const std::string& why) {
    gave_up = true;
    fault = one_line("cannot start the GPU worker: " + why);
    publish();
  }

  // A new ladder size: the runs and traces of the old one no longer belong to what the window shows.
  void forget_old_ladder(uint64_t version) {
    if (version == kept_ladder) return;
    kept_ladder = version;
    kept.runs.clear(), kept.blocks.clear(), kept.stages.clear(), kept.smem.clear(), kept.gmem.clear();
    rebuild_merged();
  }

  void forward_requests() {
    std::string kernel;
    Precision precision;
    GemmShape live, ladder;
    uint64_t ladder_version;
    bool drill;
    {
      std::lock_guard<std::mutex> lock(mu);
      kernel = live_kernel, precision = live_precision, live = live_shape, ladder = shape;
      ladder_version = ladder_asked;
      drill = drill_asked && child != nullptr;
      if (drill) drill_asked = false;
    }
    forget_old_ladder(ladder_version);
    if (kernel != requested_kernel) {  // the status may name it (a kernel that faulted is skipped)
      requested_kernel = kernel;
      publish();
    }
    if (!child) return;
    Child& c = *child;
    if (faulted.count(kernel)) kernel.clear();  // never again, after its fault
    if (kernel != c.sent_kernel || precision != c.sent_precision) {
      c.out += wire::frame("kern", nlohmann::json{{"kernel", kernel}, {"precision", precision_name(precision)}}.dump());
      c.sent_kernel = kernel, c.sent_precision = precision;
    }
    if (live.m != c.sent_live.m || live.n != c.sent_live.n || live.k != c.sent_live.k) {
      c.out += wire::frame("shap", nlohmann::json{{"m", live.m}, {"n", live.n}, {"k", live.k}}.dump());
      c.sent_live = live;
    }
    if (ladder_version != c.sent_ladder) {
      c.out += wire::frame("ladr", nlohmann::json{{"m", ladder.m}, {"n", ladder.n}, {"k", ladder.k}}.dump());
      c.sent_ladder = ladder_version;
    }
    // The drill once: after its fault it is a kernel like any other that faulted.
    if (drill && !faulted.count(fault_drill_kernel(opt.fault_drill))) c.out += wire::frame("dril", "{}");
    const Clock::time_point now = Clock::now();
    if (seconds(now - c.last_ping) >= 1) {
      c.out += wire::frame("ping", "{}");
      c.last_ping = now;
    }
    while (!c.out.empty()) {
      const ssize_t w = write(c.to, c.out.data(), c.out.size());
      if (w > 0) {
        c.out.erase(0, size_t(w));
      } else if (w < 0 && errno == EINTR) {
        continue;
      } else if (w < 0 && errno == EAGAIN) {
        break;
      } else {
        if (errno == EPIPE) {
          const timespec now{0, 0};
          sigset_t pipe_only;
          sigemptyset(&pipe_only);
          sigaddset(&pipe_only, SIGPIPE);
          sigtimedwait(&pipe_only, nullptr, &now);  // the pending SIGPIPE of this write
        }
        return;  // its end is closed: it is exiting, and its reply pipe's end will say so
      }
    }
    // A worker that reads no requests while pings pile up is caught by the watchdog; this bounds the pile.
    if (c.out.size() > wire::kMaxToWorker) kill_child("hung", "the worker stopped reading requests and was killed");
  }

  void watchdog(Clock::time_point now) {
    const Child& c = *child;
    if (c.busy && seconds(now - c.busy_since) > c.busy_limit)
      return kill_child("hung", c.busy_what + " did not finish within " + fmt_s(c.busy_limit) + ", so the worker was killed");
    if (seconds(now - c.last_heard) > opt.answer_limit_s)
      return kill_child("hung", "the worker stopped answering for " + fmt_s(opt.answer_limit_s) + " and was killed");
  }

  void kill_child(const std::string& verb, const std::string& why) {
    if (!child) return;
    kill(child->pid, SIGKILL);
    end_child(verb, why);
  }

  void read_child() {
    char buf[1 << 16];
    size_t taken = 0;
    for (;;) {
      const ssize_t r = read(child->from, buf, sizeof buf);
      if (r > 0) {
        child->last_heard = Clock::now();  // a long capture counts as an answer while it arrives
        std::string why;
        const bool fed = child->reader.feed(buf, size_t(r), &why);
        handle_messages();  // the messages before a damaged one count (which kernel it was running)
        if (!child) return;
        if (!fed) return kill_child("faulted", "the GPU worker sent a damaged message: " + why);
        if (!child) return;
        taken += size_t(r);
        if (taken >= (8u << 20)) return;  // requests and the watchdog get their turn
        continue;
      }
      if (r < 0 && errno == EINTR) continue;
      if (r < 0 && errno == EAGAIN) return;
      return end_child("faulted", "");  // end of stream (or a read error): the worker is gone
    }
  }

  void handle_messages() {
    wire::Message m;
    bool changed = false;
    while (child && child->reader.next(&m)) {
      Child& c = *child;
      if (m.type == "snap") {
        wire::StateUpdate u;
        std::string why;
        if (!wire::decode_state(m.body, &u, &why))
          return kill_child("faulted", "the GPU worker sent a damaged message: " + why);
        status = u.status, error = u.error, series_kernel = u.series_kernel, device_state = u.device;
        for (const LivePoint& p : u.points)
          if (std::isfinite(p.t) && (series.empty() || p.t > series.back().t)) series.push_back(p);
        for (const LiveSnapshot::Switch& s : u.switches)
          if (switches.empty() || switches.back().kernel != s.kernel) switches.push_back(s);
        if (series.size() > kSeriesCapacity) series.erase(series.begin(), series.end() - long(kSeriesCapacity));
        while (switches.size() > 1 && !series.empty() && switches[1].t <= series.front().t) switches.erase(switches.begin());
        changed = true;
      } else if (m.type == "capt") {
        try {
          child_capture = std::make_shared<const Capture>(parse_capture(m.body, "the GPU worker's capture"));
          rebuild_merged();
        } catch (const std::exception& e) {
          error = one_line(e.what());  // the capture before it stands
        }
        changed = true;
      } else if (m.type == "busy" || m.type == "falt") {
        const nlohmann::json j = nlohmann::json::parse(m.body, nullptr, false);
        if (!j.is_object()) return kill_child("faulted", "the GPU worker sent a damaged message: " + m.type + " is not JSON");
        auto text = [&](const char* key) {
          const auto it = j.find(key);
          return it != j.end() && it->is_string() ? one_line(it->get<std::string>(), wire::kMaxText) : std::string();
        };
        if (m.type == "busy") {
          const auto limit = j.find("limit_s");
          c.busy = true;
          c.busy_kernel = text("kernel"), c.busy_what = text("what");
          c.busy_limit = std::clamp(limit != j.end() && limit->is_number() ? limit->get<double>() : opt.op_limit_s, 0.1, 3600.0);
          c.busy_since = Clock::now();
        } else {
          c.reported = true;
          c.fault_kernel = text("kernel"), c.fault_why = text("why");
        }
      } else if (m.type == "idle") {
        c.busy = false;
      }  // "pong", and types a newer worker may send: heard, nothing more
    }
    if (changed) publish();
  }

  // The worker is gone, or was killed because it `verb` ("faulted", "hung") for `why` (empty: what its exit
  // status or its own fault report says). Keeps what it sent, says which kernel faulted and why, and plans the
  // next worker.
  void end_child(const std::string& verb, const std::string& why_killed) {
    Child& c = *child;
    close(c.to), close(c.from);
    int st = 0;
    if (!reap(c.pid, &st, 2)) {
      kill(c.pid, SIGKILL);
      if (!reap(c.pid, &st, 3)) leftovers.push_back(c.pid);  // reaped later, never left a zombie for good
    }
    if (child_capture) kept = merge_captures(kept, *child_capture);
    child_capture.reset();
    const Clock::time_point now = Clock::now();
    const double ran = seconds(now - c.started);
    const std::string kernel = c.reported ? c.fault_kernel : c.busy ? c.busy_kernel : "";
    const std::string why = !why_killed.empty() ? why_killed : c.reported ? c.fault_why : describe_exit(st);
    std::string line = (kernel.empty() ? "the GPU worker (" + (c.busy ? c.busy_what : "idle") + ")" : kernel) + " " +
                       verb + ": " + why;
    child.reset();
    {
      std::lock_guard<std::mutex> lock(mu);
      pid_now = 0;
      if (stop) return;
    }
    if (!kernel.empty()) {
      faulted.insert(kernel);
      line += "; " + kernel + " is not run again";
    }
    fault_base = one_line(line);
    fault_times.push_back(now);
    while (!fault_times.empty() && seconds(now - fault_times.front()) > 600) fault_times.pop_front();
    in_a_row = ran > 60 ? 1 : in_a_row + 1;
    status.clear();
    if (int(fault_times.size()) >= opt.max_faults) {
      gave_up = true;
      fault = fault_base + "; GPU worker not restarted after " + std::to_string(fault_times.size()) +
              " faults in 10 minutes";
    } else {
      const double delay = std::min(30.0, opt.backoff_s * std::pow(2.0, in_a_row - 1));
      restart_at = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(delay));
      fault = fault_base + "; restarting the GPU worker in " + fmt_s(delay);
    }
    rebuild_merged();
    publish();
  }

  void reap_leftovers() {
    for (size_t i = 0; i < leftovers.size();) {
      int st = 0;
      const pid_t r = waitpid(leftovers[i], &st, WNOHANG);
      if (r == leftovers[i] || (r < 0 && errno == ECHILD)) leftovers.erase(leftovers.begin() + long(i));
      else ++i;
    }
  }

  void shutdown() {
    if (child) {
      // Its requests end: the worker exits by itself; one inside a GPU operation that does not is killed.
      close(child->to), close(child->from);
      int st = 0;
      if (!reap(child->pid, &st, 1)) {
        kill(child->pid, SIGKILL);
        if (!reap(child->pid, &st, 5)) leftovers.push_back(child->pid);
      }
      child.reset();
    }
    for (pid_t p : leftovers) {
      int st = 0;
      kill(p, SIGKILL);
      reap(p, &st, 5);
    }
    std::lock_guard<std::mutex> lock(mu);
    pid_now = 0;
  }

  void rebuild_merged() {
    if (!child_capture) merged = kept.device.name.empty() ? nullptr : std::make_shared<const Capture>(kept);
    else if (kept.device.name.empty()) merged = child_capture;
    else merged = std::make_shared<const Capture>(merge_captures(kept, *child_capture));
  }

  void publish() {
    auto s = std::make_shared<LiveSnapshot>();
    s->capture = merged;
    s->error = error;
    s->series_kernel = series_kernel;
    s->series = series;
    s->switches = switches;
    s->device = device_state;
    s->fault = fault;
    s->restarts = restarts;
    s->status = status;
    std::lock_guard<std::mutex> lock(mu);
    if (!child && !gave_up && started_once) s->status = "restarting the GPU worker";
    else if (s->status.empty() && faulted.count(live_kernel)) s->status = live_kernel + " faulted: the live plot skips it";
    snapshot = std::move(s);
  }

  const int device;
  const GpuWorkerOptions opt;
  const Clock::time_point t0 = Clock::now();  // the series' time zero, for every worker

  // Shared with the UI thread, under mu.
  mutable std::mutex mu;
  std::shared_ptr<const LiveSnapshot> snapshot;
  std::string live_kernel;
  Precision live_precision = Precision::F32;
  GemmShape live_shape{2048, 2048, 2048};
  GemmShape shape;
  uint64_t ladder_asked = 0;  // bumped by rerun_ladder
  bool drill_asked = false;
  bool stop = false;
  pid_t pid_now = 0;
  int wake[2] = {-1, -1};  // wakes the supervisor when a request changes

  // The supervisor thread's own.
  std::unique_ptr<Child> child;
  Capture kept;                                  // what the workers before this one recorded
  uint64_t kept_ladder = 0;                      // the ladder request `kept` belongs to
  std::shared_ptr<const Capture> child_capture;  // the current worker's latest
  std::shared_ptr<const Capture> merged;         // both, as the window shows them
  std::vector<LivePoint> series;
  std::vector<LiveSnapshot::Switch> switches;
  std::string status, error, series_kernel;
  DeviceState device_state;
  std::string fault, fault_base;
  int restarts = 0;
  std::set<std::string> faulted;                 // kernels that faulted: never run again
  std::string requested_kernel;                  // the live kernel the window asked for last
  std::deque<Clock::time_point> fault_times;     // within the last 10 minutes
  int in_a_row = 0;                              // faults of workers that ran under a minute each
  Clock::time_point restart_at;
  bool gave_up = false, started_once = false;
  std::vector<pid_t> leftovers;                  // killed but not reaped yet
  std::thread thread;
};

GpuWorker::GpuWorker(int device, GemmShape shape, GpuWorkerOptions options)
    : impl_(std::make_unique<Impl>(device, shape, std::move(options))) {}

GpuWorker::~GpuWorker() = default;

std::shared_ptr<const LiveSnapshot> GpuWorker::latest() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->snapshot;
}

void GpuWorker::set_live_kernel(const std::string& kernel, Precision p) {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (kernel == impl_->live_kernel && p == impl_->live_precision) return;
    impl_->live_kernel = kernel;
    impl_->live_precision = p;
  }
  impl_->poke();
}

void GpuWorker::set_live_shape(GemmShape shape) {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (shape == impl_->live_shape) return;
    impl_->live_shape = shape;
  }
  impl_->poke();
}

void GpuWorker::rerun_ladder(GemmShape shape) {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->shape = shape;
    ++impl_->ladder_asked;
  }
  impl_->poke();
}

bool GpuWorker::run_fault_drill() {
  if (impl_->opt.fault_drill.empty()) return false;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->drill_asked = true;
  }
  impl_->poke();
  return true;
}

int GpuWorker::worker_pid() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->pid_now;
}

}  // namespace gs
