// The fault drill on a real GPU: the window's GPU worker process runs a kernel that stores out of bounds, one
// that traps (both leave a sticky CUDA error) and one that spins until the watchdog kills its process. Each time
// the window's side must name the drill's kernel and CUDA's reason, restart the worker, keep every run, layout,
// ceiling, trace and live point measured before, and the new worker must measure again on a clean context.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <thread>

#include "app/gpu_worker.h"
#include "tests/worker_wait.h"

namespace gs {
namespace {

using Clock = std::chrono::steady_clock;

struct Drill {
  const char* kind;
  const char* says;  // CUDA's reason (oob, trap) or the watchdog's (hang), in the window's fault line
};

class FaultDrill : public ::testing::TestWithParam<Drill> {};

TEST_P(FaultDrill, WindowSaysWhichKernelRestartsTheWorkerAndKeepsEverything) {
  const Drill d = GetParam();
  GpuWorkerOptions opt;
  opt.fault_drill = d.kind;
  opt.op_limit_s = 10;  // the hang is killed after 10 s; every other operation here takes well under that
  const KernelInfo* live = find_kernel("mma_f16/10_multistage");
  ASSERT_NE(live, nullptr);
  GpuWorker w(0, GemmShape{256, 256, 256}, opt);
  auto before = wait_for(w, [](const LiveSnapshot& s) {
    return !s.fault.empty() || (s.capture && !s.capture->peaks.empty() && s.status.empty());
  }, 300);
  ASSERT_TRUE(before->fault.empty()) << before->fault;
  ASSERT_TRUE(before->capture) << "status: " << before->status << "; error: " << before->error;
  ASSERT_FALSE(before->capture->runs.empty());
  w.set_live_kernel(live->name, live->precisions.front());
  before = wait_for(w, [&](const LiveSnapshot& s) {
    return !s.fault.empty() || (s.series.size() >= 10 && std::any_of(s.capture->blocks.begin(), s.capture->blocks.end(),
                                                                     [&](const BlockRecord& b) { return b.kernel == live->name; }));
  }, 120);
  ASSERT_TRUE(before->fault.empty()) << before->fault;
  ASSERT_GE(before->series.size(), 10u);
  const int first_pid = w.worker_pid();

  const auto asked = Clock::now();
  ASSERT_TRUE(w.run_fault_drill());
  const double last_t = before->series.back().t;
  auto after = wait_for(w, [&](const LiveSnapshot& s) {
    return s.restarts >= 1 && s.fault.find("restarted") != std::string::npos && !s.series.empty() &&
           s.series.back().t > last_t + 1;
  }, 120);
  const double took = std::chrono::duration<double>(Clock::now() - asked).count();
  std::printf("[ drill    ] %s: %.1f s to a measuring worker again; the window says: %s\n", d.kind, took,
              after->fault.c_str());
  EXPECT_EQ(after->restarts, 1);
  EXPECT_EQ(after->fault.rfind(fault_drill_kernel(d.kind) + " ", 0), 0u) << after->fault;
  EXPECT_NE(after->fault.find(d.says), std::string::npos) << after->fault;
  EXPECT_NE(after->fault.find("GPU worker restarted"), std::string::npos) << after->fault;
  if (std::string(d.kind) != "hang") {
    EXPECT_NE(after->fault.find("(cudaError"), std::string::npos) << "no CUDA error named: " << after->fault;
  }
  EXPECT_TRUE(after->error.empty()) << "the new worker inherited a broken context: " << after->error;
  EXPECT_GT(after->series.back().tflops, 0) << "no measurement after the restart";

  // Nothing recorded before the fault is lost.
  ASSERT_TRUE(after->capture);
  EXPECT_EQ(after->capture->runs.size(), before->capture->runs.size());
  EXPECT_EQ(after->capture->layouts.size(), before->capture->layouts.size());
  EXPECT_EQ(after->capture->peaks.size(), before->capture->peaks.size());
  EXPECT_TRUE(std::any_of(after->capture->blocks.begin(), after->capture->blocks.end(),
                          [&](const BlockRecord& b) { return b.kernel == live->name; }));
  ASSERT_GE(after->series.size(), before->series.size());
  EXPECT_EQ(after->series.front().t, before->series.front().t);
  EXPECT_TRUE(kill(first_pid, 0) != 0 && errno == ESRCH) << "the faulted worker was not reaped";
  EXPECT_NE(w.worker_pid(), first_pid);
}

INSTANTIATE_TEST_SUITE_P(Kinds, FaultDrill,
                         ::testing::Values(Drill{"oob", "faulted: an illegal memory access was encountered (cudaErrorIllegalAddress)"},
                                           Drill{"trap", "faulted: "},  // CUDA's reason, checked below
                                           Drill{"hang", "hung: fault drill did not finish within 10 s, so the worker was killed"}),
                         [](const ::testing::TestParamInfo<Drill>& i) { return std::string(i.param.kind); });

}  // namespace
}  // namespace gs
