// The window's GPU worker process, without a GPU: a fake worker (`--fake`, no CUDA) whose fault drill dies by a
// signal, exits, reports a sticky error, hangs, stops answering or sends a damaged message on command. Each time
// the window's side must say which kernel faulted and why, restart the worker within a few seconds, keep every
// run, layout and live point it had, and leave no process behind.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/gpu_worker.h"
#include "app/worker_protocol.h"
#include "tests/worker_wait.h"

namespace gs {
namespace {

using Clock = std::chrono::steady_clock;

// A process that is gone and reaped: kill(pid, 0) finds nothing (a zombie would still answer).
bool gone(int pid) { return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH; }

size_t ladder_runs() {
  size_t n = 0;
  for (const KernelInfo& k : kernel_registry())
    if (k.order_scheme.empty()) n += k.precisions.size();  // the fake worker runs every shape
  return n;
}

GpuWorkerOptions fake(const std::string& drill) {
  GpuWorkerOptions o;
  o.fake = true;
  o.fault_drill = drill;
  o.op_limit_s = 1;        // the fake's operations take milliseconds
  o.answer_limit_s = 2;
  o.backoff_s = 0.2;
  return o;
}

// The ladder measured, the live plot fed, the selected kernel traced: what a fault must not take away.
std::shared_ptr<const LiveSnapshot> run_until_recorded(GpuWorker& w, const std::string& kernel) {
  auto s = wait_for(w, [](const LiveSnapshot& s) {
    return s.capture && s.capture->runs.size() == ladder_runs() && !s.capture->peaks.empty() && s.status.empty();
  }, 20);
  EXPECT_TRUE(s->capture) << "no capture from the worker; status: " << s->status << "; error: " << s->error;
  w.set_live_kernel(kernel, Precision::F32);
  return wait_for(w, [&](const LiveSnapshot& s) {
    return s.series.size() >= 10 && s.capture &&
           std::any_of(s.capture->blocks.begin(), s.capture->blocks.end(), [&](const BlockRecord& b) { return b.kernel == kernel; });
  }, 20);
}

struct Case {
  const char* drill;
  const char* says;  // what the window's fault line must say
  double op_limit_s = 1;  // the fake's operations take milliseconds
};

class FakeFault : public ::testing::TestWithParam<Case> {};

TEST_P(FakeFault, SaysWhichKernelAndWhyRestartsAndKeepsEverything) {
  const Case c = GetParam();
  const std::string kernel = kernel_registry().front().name;
  GpuWorkerOptions o = fake(c.drill);
  o.op_limit_s = c.op_limit_s;
  GpuWorker w(0, GemmShape{256, 256, 256}, o);
  auto before = run_until_recorded(w, kernel);
  ASSERT_TRUE(before->capture);
  ASSERT_EQ(before->capture->runs.size(), ladder_runs()) << "status: " << before->status << "; error: " << before->error;
  ASSERT_GE(before->series.size(), 10u);
  ASSERT_FALSE(before->capture->layouts.empty());
  EXPECT_TRUE(before->fault.empty()) << before->fault;
  const int first_pid = w.worker_pid();
  ASSERT_GT(first_pid, 0);

  const auto asked = Clock::now();
  ASSERT_TRUE(w.run_fault_drill());
  // Fault seen, worker restarted, and the live plot going on again after the restart: within 10 s.
  const double last_t = before->series.back().t;
  auto after = wait_for(w, [&](const LiveSnapshot& s) {
    return s.restarts == 1 && !s.series.empty() && s.series.back().t > last_t + 0.5 &&
           s.fault.find("restarted") != std::string::npos;
  }, 10);
  const double took = std::chrono::duration<double>(Clock::now() - asked).count();
  std::printf("[ fault    ] %s: %.1f s to a working worker: %s\n", c.drill, took, after->fault.c_str());
  EXPECT_EQ(after->restarts, 1) << after->fault;
  EXPECT_LT(took, 10);
  const std::string drill_kernel = fault_drill_kernel(c.drill);
  EXPECT_EQ(after->fault.rfind(drill_kernel + " ", 0), 0u) << "which kernel: " << after->fault;
  EXPECT_NE(after->fault.find(c.says), std::string::npos) << "why: " << after->fault;
  EXPECT_NE(after->fault.find(drill_kernel + " is not run again"), std::string::npos) << after->fault;
  EXPECT_EQ(after->fault.find('\n'), std::string::npos);
  EXPECT_LE(after->fault.size(), 400u);

  // Everything recorded before is still there: every run (none measured twice), the layouts, the ceilings, the
  // traced launch, and the live series from its first point on.
  ASSERT_TRUE(after->capture);
  EXPECT_EQ(after->capture->runs.size(), ladder_runs());
  EXPECT_EQ(after->capture->layouts.size(), before->capture->layouts.size());
  EXPECT_FALSE(after->capture->peaks.empty());
  EXPECT_TRUE(std::any_of(after->capture->blocks.begin(), after->capture->blocks.end(),
                          [&](const BlockRecord& b) { return b.kernel == kernel; }));
  ASSERT_GE(after->series.size(), before->series.size());
  EXPECT_EQ(after->series.front().t, before->series.front().t) << "the series restarted instead of going on";
  for (size_t i = 1; i < after->series.size(); ++i) EXPECT_GT(after->series[i].t, after->series[i - 1].t);

  // The old worker is reaped, a new one runs, and asking for the drill again does not fault again.
  EXPECT_TRUE(gone(first_pid)) << "the faulted worker " << first_pid << " was left behind";
  const int second_pid = w.worker_pid();
  EXPECT_GT(second_pid, 0);
  EXPECT_NE(second_pid, first_pid);
  w.run_fault_drill();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(w.latest()->restarts, 1) << "the drill ran again: " << w.latest()->fault;
  EXPECT_EQ(w.worker_pid(), second_pid);
}

INSTANTIATE_TEST_SUITE_P(
    Drills, FakeFault,
    ::testing::Values(Case{"signal", "faulted: the GPU worker was killed by signal 11 (Segmentation fault)"},
                      Case{"exit", "faulted: the GPU worker exited with code 5"},
                      Case{"sticky", "faulted: an illegal memory access was encountered (fake cudaErrorIllegalAddress)"},
                      Case{"hang", "hung: fault drill did not finish within 1.0 s, so the worker was killed"},
                      // Stopped inside an operation with a longer limit: only the pings catch it.
                      Case{"freeze", "hung: the worker stopped answering for 2.0 s and was killed", 30},
                      Case{"garbage", "faulted: the GPU worker sent a damaged message: a message of 4294967295 bytes"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.drill); });

// A rung with a bug: it faults in the ladder. The restarted worker finishes the ladder without it and measures
// nothing twice; selecting it later does not run it (no restart loop).
TEST(FakeWorker, ARungThatFaultsIsSkippedNotRetried) {
  const KernelInfo& bad = kernel_registry().at(2);
  GpuWorker w(0, GemmShape{256, 256, 256}, fake("rung"));
  const size_t want = ladder_runs() - bad.precisions.size();
  auto s = wait_for(w, [&](const LiveSnapshot& s) {
    return s.restarts == 1 && s.capture && s.capture->runs.size() == want && !s.capture->peaks.empty() && s.status.empty();
  }, 20);
  EXPECT_EQ(s->restarts, 1);
  EXPECT_EQ(s->fault.rfind(bad.name + " faulted: an illegal memory access was encountered", 0), 0u) << s->fault;
  ASSERT_TRUE(s->capture);
  EXPECT_EQ(s->capture->runs.size(), want);
  for (const RunRecord& r : s->capture->runs) EXPECT_NE(r.kernel, bad.name);
  w.set_live_kernel(bad.name, bad.precisions.front());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  s = w.latest();
  EXPECT_EQ(s->restarts, 1) << "the faulted rung ran again: " << s->fault;
  EXPECT_EQ(s->status, bad.name + " faulted: the live plot skips it");
  EXPECT_TRUE(s->series.empty());
  // Another kernel runs as usual.
  w.set_live_kernel(kernel_registry().front().name, Precision::F32);
  s = wait_for(w, [](const LiveSnapshot& s) { return s.series.size() >= 3; }, 10);
  EXPECT_GE(s->series.size(), 3u);
  EXPECT_EQ(s->restarts, 1);
}

TEST(FakeWorker, GivesUpAfterTooManyFaultsAndKeepsTheData) {
  GpuWorkerOptions o = fake("signal");
  o.max_faults = 1;
  GpuWorker w(0, GemmShape{256, 256, 256}, o);
  auto before = run_until_recorded(w, kernel_registry().front().name);
  ASSERT_TRUE(before->capture);
  const int pid = w.worker_pid();
  w.run_fault_drill();
  auto after = wait_for(w, [](const LiveSnapshot& s) { return s.fault.find("not restarted") != std::string::npos; }, 10);
  EXPECT_NE(after->fault.find("GPU worker not restarted after 1 faults in 10 minutes"), std::string::npos) << after->fault;
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(w.worker_pid(), 0);
  EXPECT_TRUE(gone(pid));
  ASSERT_TRUE(after->capture);
  EXPECT_EQ(after->capture->runs.size(), before->capture->runs.size());
  EXPECT_GE(after->series.size(), before->series.size());
}

TEST(FakeWorker, ClosingTheWindowEndsTheWorker) {
  int pid = 0;
  {
    GpuWorker w(0, GemmShape{256, 256, 256}, fake(""));
    wait_for(w, [](const LiveSnapshot& s) { return s.capture != nullptr; }, 10);
    pid = w.worker_pid();
    ASSERT_GT(pid, 0);
    w.set_live_kernel(kernel_registry().front().name, Precision::F32);  // busy when the window closes
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto t = Clock::now();
    // Destroyed here.
    (void)t;
  }
  EXPECT_TRUE(gone(pid)) << "worker " << pid << " outlived its window";
}

TEST(FakeWorker, AWorkerThatCannotStartIsOneLineNotALoop) {
  GpuWorkerOptions o = fake("");
  o.exe = testing::TempDir() + "no-such-gemmscope";
  GpuWorker w(0, GemmShape{256, 256, 256}, o);
  auto s = wait_for(w, [](const LiveSnapshot& s) { return !s.fault.empty(); }, 5);
  EXPECT_EQ(s->fault.rfind("cannot start the GPU worker: ", 0), 0u) << s->fault;
  EXPECT_NE(s->fault.find("No such file or directory"), std::string::npos) << s->fault;
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(w.worker_pid(), 0);
  EXPECT_EQ(w.latest()->restarts, 0);
  EXPECT_FALSE(w.latest()->capture);
}

TEST(FakeWorker, WithoutTheFlagThereIsNoDrill) {
  GpuWorker w(0, GemmShape{256, 256, 256}, fake(""));
  EXPECT_FALSE(w.run_fault_drill());
  for (const KernelInfo& k : kernel_registry()) EXPECT_EQ(k.name.find("fault_drill"), std::string::npos) << k.name;
}

// The worker command is for the window only: a person who types it gets one line and exit code 2.
TEST(WorkerCommand, BadArgumentsAreOneLineAndExit2) {
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string err = testing::TempDir() + "worker_err.txt";
  for (const std::string args : {"--bogus", "--device x", "--fake --fault-drill oob", "--device 0",
                                 "\"$(printf -- '--a\\nb')\""}) {  // a newline inside the argument
    const int st = std::system((exe + " " + kGpuWorkerCommand + " " + args + " </dev/null 2>" + err).c_str());
    ASSERT_TRUE(WIFEXITED(st)) << args;
    EXPECT_EQ(WEXITSTATUS(st), 2) << args;
    std::ifstream in(err);
    std::string line, more;
    std::getline(in, line);
    EXPECT_FALSE(std::getline(in, more)) << args << ": more than one line";
    EXPECT_EQ(line.rfind("gemmscope __gpu-worker: ", 0), 0u) << line;
  }
}

// ---- the message protocol ----

TEST(WorkerProtocol, MessagesSurviveAnyChunking) {
  const std::string bytes = wire::frame("snap", "{\"a\":1}") + wire::frame("capt", std::string(100000, 'x')) +
                            wire::frame("idle", "");
  for (size_t chunk : {size_t(1), size_t(7), size_t(4096), bytes.size()}) {
    wire::Reader r(1 << 20);
    std::string error;
    for (size_t i = 0; i < bytes.size(); i += chunk)
      ASSERT_TRUE(r.feed(bytes.data() + i, std::min(chunk, bytes.size() - i), &error)) << error;
    wire::Message m;
    ASSERT_TRUE(r.next(&m));
    EXPECT_EQ(m.type, "snap");
    EXPECT_EQ(m.body, "{\"a\":1}");
    ASSERT_TRUE(r.next(&m));
    EXPECT_EQ(m.body.size(), 100000u);
    ASSERT_TRUE(r.next(&m));
    EXPECT_EQ(m.type, "idle");
    EXPECT_FALSE(r.next(&m));
    EXPECT_EQ(r.buffered(), 0u);
  }
}

TEST(WorkerProtocol, RefusesOversizedAndForeignHeadersAtOnce) {
  wire::Reader r(1000);
  std::string error;
  const std::string big = wire::frame("capt", std::string(1001, 'x')).substr(0, 8);  // the header is enough
  EXPECT_FALSE(r.feed(big.data(), big.size(), &error));
  EXPECT_EQ(error, "a message of 1001 bytes (the limit is 1000)");
  wire::Reader r2(1000);
  EXPECT_FALSE(r2.feed("GET / HTTP/1.1\r\n", 16, &error));
  EXPECT_EQ(error, "not a worker message (bad type bytes)");
}

TEST(WorkerProtocol, StateRoundTrip) {
  wire::StateUpdate u;
  u.status = "measuring";
  u.series_kernel = "sgemm/01_naive f32 2048x2048x2048";
  u.device.ok = true;
  u.device.sm_mhz = 1980;
  u.points = {{1.5, 10, 50, 1980}, {1.6, 11, 51, 1965}};
  u.switches = {{1.5, "sgemm/01_naive f32 2048x2048x2048"}};
  wire::StateUpdate back;
  std::string error;
  ASSERT_TRUE(wire::decode_state(wire::encode_state(u), &back, &error)) << error;
  EXPECT_EQ(back.status, u.status);
  EXPECT_EQ(back.device.sm_mhz, 1980);
  ASSERT_EQ(back.points.size(), 2u);
  EXPECT_EQ(back.points[1].sm_mhz, 1965);
  EXPECT_DOUBLE_EQ(back.points[1].tflops, 11);
  ASSERT_EQ(back.switches.size(), 1u);
  EXPECT_EQ(back.switches[0].kernel, u.series_kernel);
  EXPECT_FALSE(wire::decode_state("[1,2", &back, &error));
  EXPECT_FALSE(wire::decode_state("{\"points\":[[1,2]]}", &back, &error));
}

// ---- what a restart keeps ----

TEST(MergeCaptures, KeepsOlderRunsAndTracesTheNewerDoesNotReplace) {
  Capture older, newer;
  older.device.name = newer.device.name = "GPU";
  older.layouts.push_back(FragmentLayout{"mma.m16n8k16.f16", "C", "traced", 16, 8, {}});
  older.peaks.push_back(Peak{"fp32", 50, "TFLOP/s", "measured"});
  older.runs.push_back(RunRecord{"a", 256, 256, 256, "f32", 1, 10, 50, 0, {}});
  older.runs.push_back(RunRecord{"b", 256, 256, 256, "f32", 1, 20, 50, 0, {}});
  older.blocks.push_back(BlockRecord{"a", 0, 0, 0, 0, 0, 0, 0, 1});
  older.blocks.push_back(BlockRecord{"b", 0, 0, 0, 0, 0, 0, 0, 1});
  newer.runs.push_back(RunRecord{"b", 256, 256, 256, "f32", 1, 21, 50, 0, {}});
  newer.runs.push_back(RunRecord{"c", 256, 256, 256, "f32", 1, 30, 50, 0, {}});
  newer.blocks.push_back(BlockRecord{"b", 0, 0, 0, 0, 0, 5, 0, 1});
  const Capture m = merge_captures(older, newer);
  ASSERT_EQ(m.runs.size(), 3u);
  EXPECT_EQ(m.runs[0].kernel, "a");
  EXPECT_EQ(m.runs[1].tflops, 21) << "the newer measurement of b wins";
  EXPECT_EQ(m.runs[2].kernel, "c");
  ASSERT_EQ(m.blocks.size(), 2u);
  EXPECT_EQ(m.blocks[0].kernel, "a");
  EXPECT_EQ(m.blocks[1].smid, 5) << "b's trace is the newer one";
  EXPECT_EQ(m.layouts.size(), 1u);
  EXPECT_EQ(m.peaks.size(), 1u);
  EXPECT_EQ(merge_captures(older, Capture{}).runs.size(), 2u) << "a worker with nothing yet takes nothing away";
}

}  // namespace
}  // namespace gs

int main(int argc, char** argv) {
  // The test binary is also the worker it starts (GpuWorker re-executes /proc/self/exe), as gemmscope is.
  if (argc > 1 && std::strcmp(argv[1], gs::kGpuWorkerCommand) == 0) return gs::gpu_worker_main(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
