// The window's live path without a window: the GPU worker measures the whole ladder, traces the
// fragment layouts and feeds the live plot, publishing snapshots the UI thread can read at any time. It runs in a
// worker process, as in the window: this test binary re-executed (gpu_main.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "app/gpu_worker.h"
#include "app/state.h"
#include "app/views.h"
#include "app/window.h"
#include "viz/canvas.h"
#include "kernels/gemm.h"
#include "kernels/testing.h"
#include "tests/worker_wait.h"

namespace gs {
namespace {

using Clock = std::chrono::steady_clock;

double last_point_t(const LiveSnapshot& s) { return s.series.empty() ? 0.0 : s.series.back().t; }

// One run per rung and precision that supports the shape (the worker skips the others, as run() does).
size_t ladder_runs(GemmShape s) {
  size_t n = 0;
  for (const KernelInfo& k : kernel_registry())
    if (k.order_scheme.empty() && test_hooks::shape_supported(k, s)) n += k.precisions.size();  // variants: on demand
  return n;
}

TEST(GpuWorker, MeasuresTheLadderTracesLayoutsAndFeedsTheLivePlot) {
  // Every rung supports it, so the whole ladder gets a number; 32 tile columns of mma_f16/07, so its own order
  // (bands of 16) is not row-major.
  const GemmShape shape{512, 4096, 512};
  GpuWorker worker(0, shape);
  const size_t want = ladder_runs(shape);
  auto snap = wait_for(worker, [&](const LiveSnapshot& s) {
    return !s.error.empty() || (s.capture && s.capture->runs.size() == want && s.status.empty());
  }, 300);
  ASSERT_TRUE(snap->error.empty()) << snap->error;
  ASSERT_TRUE(snap->capture) << "no snapshot with device data";
  EXPECT_FALSE(snap->capture->device.name.empty());
  EXPECT_EQ(snap->capture->runs.size(), want) << "status: " << snap->status;
  EXPECT_GE(snap->capture->layouts.size(), 24u) << "traced layouts reach the window";
  snap = wait_for(worker, [](const LiveSnapshot& s) { return !s.error.empty() || (s.capture && !s.capture->peaks.empty()); }, 120);
  ASSERT_TRUE(snap->error.empty()) << snap->error;
  EXPECT_GE(snap->capture->peaks.size(), 4u) << "the roofline's ceilings, measured live";
  for (const RunRecord& r : snap->capture->runs) {
    EXPECT_EQ(r.m, 512) << r.kernel;
    EXPECT_GT(r.tflops, 0) << r.kernel;
    EXPECT_GT(r.cublas_tflops, 0) << r.kernel;
  }

  // The live plot: the selected kernel measured back to back, each point beside cuBLAS.
  const KernelInfo& k = kernel_registry().front();
  worker.set_live_kernel(k.name, k.precisions.front());
  snap = wait_for(worker, [](const LiveSnapshot& s) { return s.series.size() >= 3 || !s.error.empty(); }, 120);
  ASSERT_TRUE(snap->error.empty()) << snap->error;
  ASSERT_GE(snap->series.size(), 3u);
  EXPECT_NE(snap->series_kernel.find(k.name), std::string::npos) << snap->series_kernel;
  for (size_t i = 1; i < snap->series.size(); ++i) EXPECT_GT(snap->series[i].t, snap->series[i - 1].t);
  EXPECT_GT(snap->series.back().tflops, 0);
  EXPECT_GT(snap->series.back().cublas_tflops, 0);
  // The device panel's numbers: NVML comes with the driver, so on a GPU machine it reads clocks and power.
  EXPECT_TRUE(snap->device.ok) << snap->device.error;
  EXPECT_GT(snap->device.sm_mhz, 0);
  EXPECT_GE(snap->device.sm_max_mhz, snap->device.sm_mhz);
  EXPECT_GT(snap->device.power_w, 0);
  EXPECT_GT(snap->series.back().sm_mhz, 0) << "each sample carries the SM clock it ran at";
  std::printf("[ device   ] %s: SM %d of %d MHz, memory %d MHz, %.0f of %.0f W, %d C, held back: %s\n",
              snap->device.name.c_str(), snap->device.sm_mhz, snap->device.sm_max_mhz, snap->device.mem_mhz,
              snap->device.power_w, snap->device.power_limit_w, snap->device.temperature_c,
              snap->device.throttled().empty() ? "no" : snap->device.throttled().c_str());

  // The views of the selected kernel get its traced launch, and the launch-order view the same kernel in
  // row-major order beside it: selecting a swizzling rung traces both (blocks of every tile, stage spans).
  const KernelInfo* swizzling = find_kernel("mma_f16/07_swizzle");
  ASSERT_NE(swizzling, nullptr);
  worker.set_live_kernel(swizzling->name, swizzling->precisions.front());
  auto blocks_of = [](const Capture& c, const std::string& kernel) {
    return std::count_if(c.blocks.begin(), c.blocks.end(), [&](const BlockRecord& b) { return b.kernel == kernel; });
  };
  const long tiles = long(shape.m / swizzling->block_m) * (shape.n / swizzling->block_n);
  snap = wait_for(worker, [&](const LiveSnapshot& s) {
    return !s.error.empty() || (s.capture && blocks_of(*s.capture, swizzling->name + "[order=none]") == tiles &&
                                blocks_of(*s.capture, swizzling->name) == tiles);
  }, 120);
  ASSERT_TRUE(snap->error.empty()) << snap->error;
  EXPECT_EQ(blocks_of(*snap->capture, swizzling->name), tiles);
  EXPECT_EQ(blocks_of(*snap->capture, swizzling->name + "[order=none]"), tiles);
  EXPECT_TRUE(std::any_of(snap->capture->stages.begin(), snap->capture->stages.end(),
                          [&](const StageRecord& st) { return st.kernel == swizzling->name; }));
  EXPECT_TRUE(std::any_of(snap->capture->runs.begin(), snap->capture->runs.end(),
                          [&](const RunRecord& r) { return r.kernel == swizzling->name + "[order=none]"; }))
      << "the variant beside it is measured too";

  // The launch-order view on that live data (drawn to SVG: the GPU machine has no display): the rung in its
  // bands beside the same kernel in row-major order, every tile's block done.
  {
    ViewState st;
    st.kernel = swizzling->name;
    Frame f;
    f.live = true;
    f.capture = snap->capture.get();
    f.live_state = snap.get();
    const ViewDef* view = find_view("swizzle");
    ASSERT_NE(view, nullptr);
    std::unique_ptr<ViewPanel> panel = view->make();
    SvgCanvas c(1600, 900, Color::rgb(0x101010));
    draw_view_figure(c, Rect{{0, 0}, {1600, 900}}, "swizzle", f, st, *panel);
    const std::string svg = c.finish();
    EXPECT_NE(svg.find("mma_f16/07_swizzle[order=none]"), std::string::npos) << "not beside its row-major variant";
    EXPECT_NE(svg.find("row-major order"), std::string::npos);
    EXPECT_NE(svg.find("cutlass:"), std::string::npos) << "the rung's bands not named";
    EXPECT_NE(svg.find("all " + std::to_string(tiles) + " blocks done"), std::string::npos);
    EXPECT_EQ(svg.find("traced no blocks"), std::string::npos);
  }

  // Switching kernels starts a new stretch of the one series, which the plot marks: the switch is listed
  // with the new kernel, after the last point of the old one. A fast kernel can add several points between
  // two polls, so the count is no test.
  const double last_old = last_point_t(*snap);
  const KernelInfo& other = kernel_registry().back();
  const auto toggled = Clock::now();
  worker.set_live_kernel(other.name, other.precisions.front());
  snap = wait_for(worker, [&](const LiveSnapshot& s) {
    return (s.series_kernel.find(other.name) != std::string::npos && !s.switches.empty() &&
            s.switches.back().kernel.find(other.name) != std::string::npos) || !s.error.empty();
  }, 120);
  // A toggle shows in the plot first: the new kernel's first sample comes before its traced launch (the
  // worker finishes the sample in flight, then measures the new kernel at 2048^3, verification included).
  const double latency_ms = std::chrono::duration<double, std::milli>(Clock::now() - toggled).count();
  std::printf("[ latency  ] first sample of %s %.0f ms after the switch\n", other.name.c_str(), latency_ms);
  EXPECT_LT(latency_ms, 1000) << "the switch waited for something other than one sample";
  ASSERT_TRUE(snap->error.empty()) << snap->error;
  ASSERT_FALSE(snap->series.empty());
  EXPECT_GT(snap->switches.back().t, last_old) << "the switch is marked after the old kernel's last point";
  EXPECT_GE(snap->series.back().t, snap->switches.back().t);

  // Another size on request: the series goes on at it, the change marked as a switch.
  worker.set_live_shape(GemmShape{1024, 1024, 512});
  snap = wait_for(worker, [&](const LiveSnapshot& s) {
    return !s.error.empty() || (!s.switches.empty() && s.switches.back().kernel.find("1024x1024x512") != std::string::npos);
  }, 60);
  ASSERT_TRUE(snap->error.empty()) << snap->error;
  EXPECT_NE(snap->series_kernel.find(other.name + " "), std::string::npos) << snap->series_kernel;
  EXPECT_NE(snap->series_kernel.find("1024x1024x512"), std::string::npos) << snap->series_kernel;
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

// The live plot's numbers are bench's numbers: the worker's points for a kernel (medians of the runs in each
// interval) and `gemmscope bench`'s median at the same size agree within 5%.
TEST(GpuWorker, SamplesAgreeWithBench) {
  const KernelInfo* k = find_kernel("mma_f16/10_multistage");
  ASSERT_NE(k, nullptr);
  std::vector<double> live;
  {
    GpuWorker worker(0, GemmShape{256, 256, 256});
    auto snap = wait_for(worker, [](const LiveSnapshot& s) {
      return !s.error.empty() || (s.capture && !s.capture->peaks.empty() && s.status.empty());
    }, 300);
    ASSERT_TRUE(snap->error.empty()) << snap->error;
    worker.set_live_kernel(k->name, k->precisions.front());
    snap = wait_for(worker, [&](const LiveSnapshot& s) {
      return !s.error.empty() || (s.series_kernel.rfind(k->name + " ", 0) == 0 && s.series.size() >= 25);
    }, 60);
    ASSERT_TRUE(snap->error.empty()) << snap->error;
    for (size_t i = snap->series.size() - 20; i < snap->series.size(); ++i) live.push_back(snap->series[i].tflops);
  }
  std::string error;
  std::unique_ptr<GpuSession> gpu = GpuSession::open(0, &error);
  ASSERT_NE(gpu, nullptr) << error;
  std::vector<double> bench;
  RunOptions opt;
  opt.repeats = 10;
  for (int i = 0; i < 5; ++i) {
    const RunResult r = gpu->run(*k, k->precisions.front(), GemmShape{2048, 2048, 2048}, opt);
    ASSERT_TRUE(r.ok) << r.error;
    bench.push_back(r.tflops);
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const double a = median(live), b = median(bench);
  std::printf("[ agree    ] %s at 2048^3: live %.1f TFLOP/s, bench %.1f TFLOP/s (%.1f%%)\n", k->name.c_str(), a, b,
              100 * (a / b - 1));
  EXPECT_NEAR(a / b, 1.0, 0.05);
}

}  // namespace
}  // namespace gs
