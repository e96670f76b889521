// Every registered kernel x precision against cuBLAS, the probes, the harness itself and the registry.
// Label gpu: ctest runs each case in its own process, so each opens its own session on device 0.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "core/swizzle.h"
#include "kernels/gemm.h"
#include "kernels/testing.h"

namespace gs {
namespace {

struct Session {
  std::unique_ptr<GpuSession> gpu;
  std::string error;
};

Session& session() {
  static Session s = [] {
    Session t;
    t.gpu = GpuSession::open(0, &t.error);
    return t;
  }();
  return s;
}

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NE(session().gpu, nullptr) << "GpuSession::open(0): " << session().error; }
  GpuSession& gpu() { return *session().gpu; }
};

int ceil_div(int a, int b) { return (a + b - 1) / b; }

RunOptions verify_only(float alpha = 1.0f, float beta = 0.0f) {
  RunOptions o;
  o.time = false;
  o.alpha = alpha;
  o.beta = beta;
  return o;
}

// ---- every kernel x precision ----------------------------------------------------------------

struct Case {
  const KernelInfo* kernel;
  Precision precision;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.kernel->name << " " << precision_name(c.precision); }

// Every kernel but the block order variants rung[order=S], which are the same kernel as their rung in another
// order: they have a suite of their own (OrderTest) that checks each one against cuBLAS and its block order.
std::vector<Case> all_cases() {
  std::vector<Case> v;
  for (const KernelInfo& k : kernel_registry()) {
    if (!k.order_scheme.empty()) continue;
    for (Precision p : k.precisions) v.push_back({&k, p});
  }
  return v;
}

std::vector<Case> order_cases() {
  std::vector<Case> v;
  for (const KernelInfo& k : kernel_registry()) {
    if (k.order_scheme.empty()) continue;
    for (Precision p : k.precisions) v.push_back({&k, p});
  }
  return v;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string s = info.param.kernel->name + "_" + precision_name(info.param.precision);
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

class KernelTest : public GpuTest, public ::testing::WithParamInterface<Case> {
 protected:
  // The hopper rungs, mma_f16/11 and mma_tf32/12 are sm_90a code: on any other GPU they report themselves
  // unavailable (a test of its own below) and their cases are skipped, visibly.
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    const DeviceInfo d = gpu().device();
    if (k().sm90a_only && !(d.cc_major == 9 && d.cc_minor == 0)) {
      GTEST_SKIP() << k().name << " needs compute capability 9.0; this GPU is " << d.cc_major << "." << d.cc_minor;
    }
  }
  const KernelInfo& k() const { return *GetParam().kernel; }
  Precision p() const { return GetParam().precision; }
  bool supported(GemmShape s) const { return test_hooks::shape_supported(k(), s); }

  // Runs and checks: ok and within the bound where the rung supports the shape, otherwise skipped
  // with a message that names the rule (and never a wrong answer).
  void expect_matches(GemmShape s, const RunOptions& opt) {
    SCOPED_TRACE(k().name + " " + precision_name(p()) + " " + shape_text(s) + " alpha " + std::to_string(opt.alpha) +
                 " beta " + std::to_string(opt.beta));
    const RunResult r = gpu().run(k(), p(), s, opt);
    if (supported(s)) {
      EXPECT_FALSE(r.skipped) << r.error;
      EXPECT_TRUE(r.ok) << r.error;
      EXPECT_TRUE(std::isfinite(r.rel_err));
      EXPECT_LT(r.rel_err, error_bound(p()));
    } else {
      EXPECT_FALSE(k().shape_rule.empty()) << "a rung with no shape rule refused " << shape_text(s);
      EXPECT_TRUE(r.skipped);
      EXPECT_FALSE(r.ok);
      EXPECT_NE(r.error.find(k().shape_rule), std::string::npos) << r.error;
    }
  }
};

const GemmShape kShapes[] = {{128, 128, 128},   {256, 384, 64},    {512, 256, 1024},
                             {1024, 1024, 1024}, {2048, 2048, 2048}, {100, 77, 33}};
const GemmShape kOdd{100, 77, 33};
// How much slower than the timed run the traced launch's blocks may span (TracedTimesAreNearTheTimedRun).
constexpr double kTracedSlowdownMax = 2.5;

TEST_P(KernelTest, MatchesCublasAtEveryShape) {
  for (const GemmShape& s : kShapes) expect_matches(s, verify_only());
}

TEST_P(KernelTest, AnyShapeWhenThereIsNoRule) {
  if (!k().shape_rule.empty()) GTEST_SKIP() << k().name << " has a shape rule: " << k().shape_rule;
  EXPECT_TRUE(supported(kOdd));
  const RunResult r = gpu().run(k(), p(), kOdd, verify_only());
  EXPECT_TRUE(r.ok) << r.error;
}

TEST_P(KernelTest, AlphaBetaReadsC) {
  for (const GemmShape& s : {GemmShape{256, 384, 64}, GemmShape{512, 256, 1024}, kOdd}) {
    expect_matches(s, verify_only(0.5f, 2.0f));
  }
}

// The runner poisons C with NaN when beta == 0, so a kernel that reads it fails here.
TEST_P(KernelTest, BetaZeroNeverReadsC) {
  for (const GemmShape& s : {GemmShape{256, 384, 64}, kOdd}) expect_matches(s, verify_only(0.5f, 0.0f));
}

TEST_P(KernelTest, TraceProbeLeavesOutputBitForBit) {
  for (const RunOptions& opt : {verify_only(), verify_only(0.5f, 2.0f)}) {
    for (const GemmShape& s : {GemmShape{256, 384, 64}, GemmShape{1024, 1024, 1024}}) {
      EXPECT_EQ(test_hooks::compare_probe_outputs(gpu(), k(), p(), s, opt), "")
          << shape_text(s) << " beta " << opt.beta;
    }
  }
}

// A rung with block order variants launches its own blocks in the order it names: the mma swizzling rungs in
// CUTLASS's bands, hopper/04 in its grouped order, the top sgemm and wmma rungs row-major (none); the traced
// blocks, read by the launch-order view's identify_order, say so. C has 48 tile columns, wider than any band
// the rungs choose (16 or 32), so a banded order and row-major differ.
TEST_P(KernelTest, BlockOrderIsTheOneTheRungNames) {
  if (!find_kernel(k().name + "[order=none]")) GTEST_SKIP() << k().name << " has no block order variant";
  const GemmShape s{2 * k().block_m, 48 * k().block_n, 64};
  const TraceResult t = gpu().trace(k(), p(), s);
  ASSERT_TRUE(t.run.ok) << t.run.error;
  Capture c;
  c.blocks = t.blocks;
  const TracedLaunch l = traced_launch(c, k().name);
  ASSERT_EQ(l.blocks.size(), size_t(2 * 48));
  const std::string order = identify_order(l);
  if (k().family == "sgemm" || k().family == "wmma") {
    EXPECT_EQ(order, "none") << k().name;
  } else {
    EXPECT_TRUE(!order.empty() && order != "none") << k().name << " launched in order '" << order << "'";
  }
}

TEST_P(KernelTest, TraceRecordsEveryBlockOnce) {
  const GemmShape s{512, 256, 1024};
  const TraceResult t = gpu().trace(k(), p(), s);
  ASSERT_TRUE(t.run.ok) << t.run.error;  // the traced output is verified too
  EXPECT_EQ(t.dropped_blocks, 0u);
  EXPECT_EQ(t.dropped_stages, 0u);
  EXPECT_EQ(t.dropped_smem, 0u);

  const int tiles_m = ceil_div(s.m, k().block_m), tiles_n = ceil_div(s.n, k().block_n);
  const int sms = gpu().device().sm_count;
  ASSERT_EQ(t.blocks.size(), static_cast<size_t>(tiles_m) * tiles_n);
  std::set<int> launches;
  std::set<std::pair<int, int>> tiles;
  uint64_t first = UINT64_MAX;
  for (const BlockRecord& b : t.blocks) {
    EXPECT_EQ(b.kernel, k().name);
    EXPECT_TRUE(launches.insert(b.launch).second) << "launch " << b.launch << " recorded twice";
    EXPECT_GE(b.launch, 0);
    EXPECT_LT(b.launch, tiles_m * tiles_n);
    EXPECT_TRUE(tiles.insert({b.tile_m, b.tile_n}).second) << "tile " << b.tile_m << "," << b.tile_n << " twice";
    EXPECT_GE(b.tile_m, 0);
    EXPECT_LT(b.tile_m, tiles_m);
    EXPECT_GE(b.tile_n, 0);
    EXPECT_LT(b.tile_n, tiles_n);
    EXPECT_GE(b.smid, 0);
    EXPECT_LT(b.smid, sms);
    EXPECT_LE(b.start_ns, b.end_ns) << "block " << b.launch;
    first = std::min(first, b.start_ns);
  }
  EXPECT_EQ(first, 0u) << "block times are relative to the launch's first block";

  EXPECT_FALSE(t.stages.empty()) << "no sampled warp stamped a stage";
  for (const StageRecord& st : t.stages) {
    EXPECT_EQ(st.kernel, k().name);
    EXPECT_FALSE(st.stage.empty());
    EXPECT_EQ(st.stage.rfind("stage ", 0), std::string::npos) << "stage id with no name: " << st.stage;
    EXPECT_LE(st.start, st.end);
    EXPECT_TRUE(launches.count(st.block)) << "stage of unknown block " << st.block;
    EXPECT_LT(st.warp, ceil_div(k().threads, 32));
  }
  for (const SmemAccess& a : t.smem) {
    EXPECT_EQ(a.kernel, k().name);
    EXPECT_TRUE(std::any_of(a.addr.begin(), a.addr.end(), [](const auto& x) { return x.has_value(); }));
    // 2 bytes: the ld.shared.u16 of the mma_f16 rungs' B fragments before ldmatrix (loads only).
    EXPECT_TRUE(a.width == 4 || a.width == 8 || a.width == 16 || (a.width == 2 && a.kind == "load")) << a.width;
    for (const auto& o : a.addr) {
      if (o) {
        EXPECT_EQ(*o % uint32_t(a.kind == "ldmatrix" ? 16 : a.width), 0u) << a.site << ": not aligned to its width";
      }
    }
    EXPECT_EQ(a.site.rfind("site ", 0), std::string::npos) << "smem site with no name: " << a.site;
  }
}

// The launch-order and timeline views draw the traced launch's block and stage times as the kernel's own. They
// come from the StampProbe launch, which has no address probes (those made some rungs' TraceProbe launch up to 20x
// slower than the timed one, bench/NOTES.md), so its blocks must span about the timed run's time.
TEST_P(KernelTest, TracedTimesAreNearTheTimedRun) {
  const GemmShape s{2048, 2048, 2048};
  if (!supported(s)) GTEST_SKIP() << k().name << " does not run " << shape_text(s);
  RunOptions opt;
  opt.warmup = 2;
  const RunResult r = gpu().run(k(), p(), s, opt);
  ASSERT_TRUE(r.ok) << r.error;
  const TraceResult t = gpu().trace(k(), p(), s);
  ASSERT_TRUE(t.run.ok) << t.run.error;
  ASSERT_FALSE(t.blocks.empty());
  uint64_t end = 0;
  for (const BlockRecord& b : t.blocks) end = std::max(end, b.end_ns);
  const double ratio = double(end) / (r.median_ms * 1e6);
  RecordProperty("traced_over_timed", std::to_string(ratio));
  EXPECT_LT(ratio, kTracedSlowdownMax) << "traced blocks span " << end / 1e3 << " us, the timed run "
                                       << r.median_ms * 1e3 << " us";
  EXPECT_GT(ratio, 0.5) << "traced blocks span " << end / 1e3 << " us, the timed run " << r.median_ms * 1e3 << " us";
}

// Global addresses: every traced lane lies inside the matrix its site names (A, B or C of the traced
// problem), loads read A or B, stores write C, and every rung that loads with its lanes records its loads
// and its stores, except what the registry declares untraced (TMA, wmma fragments straight from global).
TEST_P(KernelTest, TracedGlobalAddressesLieInsideTheirMatrix) {
  const GemmShape s{512, 256, 1024};
  const TraceResult t = gpu().trace(k(), p(), s);
  ASSERT_TRUE(t.run.ok) << t.run.error;
  EXPECT_EQ(t.dropped_gmem, 0u);
  const int in_bytes = p() == Precision::F16_F32 || p() == Precision::F16_F16 ? 2 : 4;
  const int out_bytes = p() == Precision::F16_F16 ? 2 : 4;
  const int64_t size[3] = {int64_t(s.m) * s.k * in_bytes, int64_t(s.k) * s.n * in_bytes, int64_t(s.m) * s.n * out_bytes};
  bool loads = false, stores = false;
  for (const GmemAccess& a : t.gmem) {
    SCOPED_TRACE(a.site + " " + a.kind + " warp " + std::to_string(a.warp) + " iteration " + std::to_string(a.iteration));
    EXPECT_EQ(a.kernel, k().name);
    ASSERT_NE(a.matrix, '?') << "the first lane's address lies in none of A, B, C";
    EXPECT_EQ(a.site, std::string(1, a.matrix)) << "site names one matrix, the address lies in another";
    EXPECT_TRUE(a.width == 2 || a.width == 4 || a.width == 8 || a.width == 16) << a.width;
    if (a.kind == "store") {
      EXPECT_EQ(a.matrix, 'C');
      stores = true;
    } else {
      loads = loads || a.matrix != 'C';
    }
    const int64_t bytes = size[a.matrix == 'A' ? 0 : a.matrix == 'B' ? 1 : 2];
    for (int lane = 0; lane < 32; ++lane) {
      if (!a.offset[lane]) continue;
      EXPECT_GE(*a.offset[lane], 0) << "lane " << lane;
      EXPECT_LE(*a.offset[lane] + a.width, bytes) << "lane " << lane;
      EXPECT_EQ(*a.offset[lane] % a.width, 0) << "lane " << lane << " is not aligned to its access width";
    }
  }
  // What the registry says is not traced (KernelInfo::gmem_untraced) may be missing; the rest must be there.
  if (k().gmem_loads_traced) {
    EXPECT_TRUE(loads) << "no traced load of A or B";
  }
  if (k().gmem_stores_traced) {
    EXPECT_TRUE(stores) << "no traced store of C";
  }
  if (!k().gmem_loads_traced || !k().gmem_stores_traced) {
    EXPECT_FALSE(k().gmem_untraced.empty());
  }
}

// The index arithmetic of mma_f16/01, spelled out: thread t of block (0, 0) reads A's 16-byte chunk
// (t / 4, 8 (t % 4)) first and B's chunk (t / 16, 8 (t % 16)); its first C store is the fragment row g of
// warp 0's first m16n8 tile, columns 2 (lane % 4).
class GlobalTrace : public GpuTest {};

TEST_F(GlobalTrace, Mma01AddressesAreTheOnesItsIndexArithmeticGives) {
  const KernelInfo* k = find_kernel("mma_f16/01_vectorized");
  ASSERT_NE(k, nullptr);
  const GemmShape s{256, 256, 128};
  const TraceResult t = gpu().trace(*k, Precision::F16_F32, s);
  ASSERT_TRUE(t.run.ok) << t.run.error;
  const GmemAccess* a = nullptr;
  const GmemAccess* b = nullptr;
  const GmemAccess* c = nullptr;
  for (const GmemAccess& x : t.gmem) {
    if (x.warp != 0) continue;
    if (!a && x.site == "A") a = &x;
    if (!b && x.site == "B") b = &x;
    if (!c && x.site == "C") c = &x;
  }
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a->kind, "load");
  EXPECT_EQ(a->width, 16);
  for (int lane = 0; lane < 32; ++lane) {
    ASSERT_TRUE(a->offset[lane] && b->offset[lane] && c->offset[lane]);
    EXPECT_EQ(*a->offset[lane], (int64_t(lane / 4) * s.k + 8 * (lane % 4)) * 2) << "A, lane " << lane;
    EXPECT_EQ(*b->offset[lane], (int64_t(lane / 16) * s.n + 8 * (lane % 16)) * 2) << "B, lane " << lane;
    EXPECT_EQ(*c->offset[lane], (int64_t(lane / 4) * s.n + 2 * (lane % 4)) * 4) << "C, lane " << lane;
  }
}

// mma_f16/13 splits the k-tiles of the tiles left after its whole waves among all the SMs, and the owner of a
// split tile adds the others' partial sums; the common shapes never split (too few tiles left, or too short a k).
// Here: 68 tiles and nothing else, each split in two or three (4352 x 512 x 4096), a whole wave and then 68 split
// tiles (5120 x 1280 x 4096), the same with ragged edges, each with and without beta, twice over (each launch a
// new epoch of the workspace flags).
class StreamK : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    const DeviceInfo d = gpu().device();
    if (!(d.cc_major == 9 && d.cc_minor == 0)) GTEST_SKIP() << "mma_f16/13 needs compute capability 9.0";
    if (d.sm_count != 132) GTEST_SKIP() << "the shapes are chosen for 132 SMs; this GPU has " << d.sm_count;
    k_ = find_kernel("mma_f16/13_stream_k");
    ASSERT_NE(k_, nullptr);
  }
  const KernelInfo* k_ = nullptr;
};

TEST_F(StreamK, SplitTilesMatchCublas) {
  for (int round = 0; round < 2; ++round) {
    for (const GemmShape& s : {GemmShape{4352, 512, 4096}, GemmShape{5120, 1280, 4096}, GemmShape{5000, 1272, 4000}}) {
      for (const RunOptions& opt : {verify_only(), verify_only(0.5f, 2.0f)}) {
        SCOPED_TRACE(shape_text(s) + " beta " + std::to_string(opt.beta) + " round " + std::to_string(round));
        const RunResult r = gpu().run(*k_, Precision::F16_F32, s, opt);
        EXPECT_TRUE(r.ok) << r.error;
        EXPECT_LT(r.rel_err, error_bound(Precision::F16_F32));
      }
    }
  }
  EXPECT_EQ(test_hooks::compare_probe_outputs(gpu(), *k_, Precision::F16_F32, GemmShape{5000, 1272, 4000},
                                              verify_only(0.5f, 2.0f)),
            "");
}

// What the launch-order view shows of it: with 68 tiles every SM works on some tile, each tile has a record per
// piece, and every tile is covered; at 4096^3 (116 tiles left over, a wave 88% full) a split would save less than
// it costs, so each tile is one CTA's, as in rung 12.
TEST_F(StreamK, EverySmWorksOnTheLastWave) {
  const TraceResult t = gpu().trace(*k_, Precision::F16_F32, GemmShape{4352, 512, 4096});
  ASSERT_TRUE(t.run.ok) << t.run.error;
  std::set<int> smids;
  std::set<std::pair<int, int>> tiles;
  for (const BlockRecord& b : t.blocks) {
    smids.insert(b.smid);
    tiles.insert({b.tile_m, b.tile_n});
  }
  EXPECT_EQ(tiles.size(), 68u);
  EXPECT_GT(t.blocks.size(), 68u) << "no tile was split";
  EXPECT_EQ(smids.size(), 132u);

  const TraceResult whole = gpu().trace(*k_, Precision::F16_F32, GemmShape{4096, 4096, 4096});
  ASSERT_TRUE(whole.run.ok) << whole.run.error;
  EXPECT_EQ(whole.blocks.size(), 512u);
}

// Two launches, one trace: the stream-K kernel's CTAs are numbered 0-131 and rung 12's after them (132-263), so
// that the timeline never joins stamps from two SMs' clocks under one CTA, and the first sampled CTAs, whose
// stamps a capture keeps, are stream-K CTAs. At 5120x1280x4096 rung 12's kernel computes tiles 0-131 whole and
// the stream-K kernel the other 68 in pieces.
TEST_F(StreamK, TheTwoLaunchesCtasStayApartInATrace) {
  const TraceResult t = gpu().trace(*k_, Precision::F16_F32, GemmShape{5120, 1280, 4096});
  ASSERT_TRUE(t.run.ok) << t.run.error;
  std::set<int> whole_ctas, split_ctas;
  uint64_t launch_ns = 0;
  for (const BlockRecord& b : t.blocks) {
    (b.launch < 132 ? whole_ctas : split_ctas).insert(b.bx);
    launch_ns = std::max(launch_ns, b.end_ns);
  }
  ASSERT_EQ(whole_ctas.size(), 132u);
  ASSERT_EQ(split_ctas.size(), 132u);
  EXPECT_EQ(*whole_ctas.begin(), 132);
  EXPECT_EQ(*whole_ctas.rbegin(), 263);
  EXPECT_EQ(*split_ctas.begin(), 0);
  EXPECT_EQ(*split_ctas.rbegin(), 131);
  // Each sampled CTA's stamps span at most its launch's time in cycles of a 2.5 GHz clock (one SM's clock64). Only
  // stream-K CTAs stamp: rung 12's CTAs here stamp nothing, so that none runs slower than in the timed launch and
  // holds back the stream-K kernel.
  std::map<int, std::pair<uint64_t, uint64_t>> extent;
  for (const StageRecord& s : t.stages) {
    auto [it, fresh] = extent.emplace(s.block, std::make_pair(s.start, s.end));
    if (!fresh) it->second = {std::min(it->second.first, s.start), std::max(it->second.second, s.end)};
  }
  ASSERT_FALSE(extent.empty());
  for (const auto& [block, e] : extent) {
    EXPECT_LT(block, 132) << "a CTA of rung 12's kernel stamped stages";
    EXPECT_LT(e.second - e.first, launch_ns * 5 / 2) << "CTA " << block;
  }
}

TEST_P(KernelTest, TimedRunReportsMedianOfSamples) {
  const GemmShape s{512, 512, 512};
  RunOptions opt;
  opt.warmup = 2;
  opt.repeats = 10;
  const RunResult r = gpu().run(k(), p(), s, opt);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(std::isfinite(r.rel_err));
  EXPECT_LT(r.rel_err, error_bound(p()));
  ASSERT_GE(r.samples_ms.size(), 10u);
  for (double ms : r.samples_ms) EXPECT_GT(ms, 0);
  EXPECT_GE(r.median_ms, *std::min_element(r.samples_ms.begin(), r.samples_ms.end()));
  EXPECT_LE(r.median_ms, *std::max_element(r.samples_ms.begin(), r.samples_ms.end()));
  EXPECT_GT(r.tflops, 0);
  EXPECT_GT(r.cublas_ms, 0);
  EXPECT_NEAR(r.cublas_tflops, s.flops() / r.cublas_ms / 1e9, 1e-9 * r.cublas_tflops);
}

INSTANTIATE_TEST_SUITE_P(Ladder, KernelTest, ::testing::ValuesIn(all_cases()), case_name);

// ---- block order variants rung[order=S] ---------------------------------------------------------

class OrderTest : public KernelTest {};

// The same kernel in another order computes the same C: against cuBLAS at a square size, a grid that no
// band width divides (5 tile columns), and with alpha and beta.
TEST_P(OrderTest, MatchesCublas) {
  const GemmShape uneven{3 * k().block_m, 5 * k().block_n, 256};
  for (const GemmShape& s : {GemmShape{1024, 1024, 1024}, uneven, kOdd}) expect_matches(s, verify_only());
  expect_matches(uneven, verify_only(0.5f, 2.0f));
}

// Block for block, the traced launch is the scheme's mapping (core/swizzle.h launch_order, what `gemmscope
// swizzle` prints): each block's launch index and tile equal the model's, every tile is computed exactly once,
// the blocks of cutlass's overhanging band compute nothing, start <= end. Grids of 3 x 5 and 6 x 17 tiles:
// not powers of two, not multiples of any band, with a last triton band shorter than G.
TEST_P(OrderTest, TilesFollowTheScheme) {
  if (p() != k().precisions.front()) GTEST_SKIP() << "the order does not depend on the precision";
  SwizzleScheme scheme;
  std::string error;
  ASSERT_TRUE(parse_swizzle_scheme(k().order_scheme, &scheme, &error)) << error;
  for (const auto& [tiles_m, tiles_n] : {std::pair{3, 5}, std::pair{6, 17}}) {
    const GemmShape s{tiles_m * k().block_m, tiles_n * k().block_n, 128};
    ASSERT_TRUE(supported(s)) << shape_text(s);
    SCOPED_TRACE(k().name + " " + shape_text(s));
    const TraceResult t = gpu().trace(k(), p(), s);
    ASSERT_TRUE(t.run.ok) << t.run.error;
    std::vector<BlockRecord> blocks = t.blocks;
    std::sort(blocks.begin(), blocks.end(), [](const BlockRecord& a, const BlockRecord& b) { return a.launch < b.launch; });
    const std::vector<LaunchedTile> want = launch_order(tiles_m, tiles_n, scheme);
    ASSERT_EQ(blocks.size(), want.size());
    std::set<std::pair<int, int>> tiles;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(blocks[i].launch, want[i].launch) << "block " << i;
      EXPECT_EQ(blocks[i].tile_m, want[i].tile_m) << "launch " << want[i].launch;
      EXPECT_EQ(blocks[i].tile_n, want[i].tile_n) << "launch " << want[i].launch;
      EXPECT_LE(blocks[i].start_ns, blocks[i].end_ns) << "launch " << want[i].launch;
      EXPECT_TRUE(tiles.insert({blocks[i].tile_m, blocks[i].tile_n}).second);
    }
    EXPECT_EQ(tiles.size(), size_t(tiles_m) * tiles_n);
  }
}

// Timed like any rung: NoProbe and the traced launch give bit-identical C.
TEST_P(OrderTest, TraceProbeLeavesOutputBitForBit) {
  EXPECT_EQ(test_hooks::compare_probe_outputs(gpu(), k(), p(), GemmShape{1024, 1024, 1024}, verify_only()), "");
}

INSTANTIATE_TEST_SUITE_P(Variants, OrderTest, ::testing::ValuesIn(order_cases()), case_name);

// Each rung that orders its blocks has all eleven schemes as variants, none to triton:16.
TEST(OrderVariants, EverySchemeOfEveryOrderingRung) {
  const char* const rungs[] = {"sgemm/10_thread_tile_16x8", "wmma/08_multistage",     "mma_f16/07_swizzle",
                               "mma_f16/08_ldmatrix",       "mma_f16/09_xor_permuted", "mma_f16/10_multistage",
                               "mma_tf32/07_swizzle",       "mma_tf32/08_ldmatrix",    "mma_tf32/09_xor_permuted",
                               "mma_tf32/10_multistage"};
  const char* const schemes[] = {"none",     "cutlass:0", "cutlass:1", "cutlass:2", "cutlass:3", "cutlass:4",
                                 "triton:1", "triton:2",  "triton:4",  "triton:8",  "triton:16"};
  size_t variants = 0;
  for (const KernelInfo& k : kernel_registry()) variants += !k.order_scheme.empty();
  EXPECT_EQ(variants, std::size(rungs) * std::size(schemes));
  for (const char* r : rungs)
    for (const char* s : schemes) {
      const KernelInfo* k = find_kernel(std::string(r) + "[order=" + s + "]");
      ASSERT_NE(k, nullptr) << r << "[order=" << s << "]";
      EXPECT_EQ(k->order_scheme, s);
      EXPECT_EQ(k->family, find_kernel(r)->family);
    }
}

// ---- the harness itself ----------------------------------------------------------------------

using HarnessTest = GpuTest;

// The poison is what catches an unwritten element: with no launch at all every element stays NaN.
TEST_F(HarnessTest, UnwrittenOutputFails) {
  for (Precision p : {Precision::F32, Precision::F16_F32, Precision::F16_F16}) {
    const RunResult r = test_hooks::verify_unwritten_output(gpu(), p, {128, 96, 64});
    EXPECT_FALSE(r.ok) << precision_name(p);
    EXPECT_NE(r.error.find("NaN"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(std::to_string(128 * 96) + " of " + std::to_string(128 * 96)), std::string::npos)
        << r.error;
  }
}

TEST_F(HarnessTest, PrecisionTheKernelLacksIsAnError) {
  const KernelInfo* k = find_kernel("sgemm/01_naive");
  ASSERT_NE(k, nullptr);
  const RunResult r = gpu().run(*k, Precision::F16_F16, {128, 128, 128}, verify_only());
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.skipped);
  EXPECT_NE(r.error.find("no f16.f16"), std::string::npos) << r.error;
}

// sm_90a code runs on compute capability 9.0 only; elsewhere the rung says so in one line instead of launching.
TEST_F(HarnessTest, HopperRungsRunOnlyOnSm90) {
  const KernelInfo* k = find_kernel("hopper/01_tma_wgmma");
  ASSERT_NE(k, nullptr);
  const RunResult r = gpu().run(*k, Precision::F16_F32, {128, 128, 64}, verify_only());
  const DeviceInfo d = gpu().device();
  if (d.cc_major == 9 && d.cc_minor == 0) {
    EXPECT_TRUE(r.ok) << r.error;
  } else {
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("unavailable on this GPU"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
  }
}

// bench pairs each run with its own cuBLAS timing (launches alternating); the live loop reuses the session's first.
TEST_F(HarnessTest, PairedRunsTimeCublasBesideTheKernel) {
  const KernelInfo* k = find_kernel("sgemm/05_blocktile_2d");
  ASSERT_NE(k, nullptr);
  const GemmShape s{1024, 1024, 1024};
  RunOptions cached;
  cached.repeats = 10;
  const RunResult c1 = gpu().run(*k, Precision::F32, s, cached);
  const RunResult c2 = gpu().run(*k, Precision::F32, s, cached);
  ASSERT_TRUE(c1.ok && c2.ok) << c1.error << c2.error;
  EXPECT_EQ(c1.cublas_samples_ms, c2.cublas_samples_ms) << "an unpaired run reuses the session's cuBLAS time";
  RunOptions paired = cached;
  paired.pair_cublas = true;
  int fresh = 0;
  for (int i = 0; i < 4; ++i) {
    const RunResult r = gpu().run(*k, Precision::F32, s, paired);
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.cublas_samples_ms.size(), r.samples_ms.size()) << "one cuBLAS launch beside each of the kernel's";
    for (double ms : r.cublas_samples_ms) EXPECT_GT(ms, 0);
    EXPECT_NEAR(r.cublas_tflops, s.flops() / r.cublas_ms / 1e9, 1e-9 * r.cublas_tflops);
    // The same cuBLAS call: within a factor of two of the cached time, yet measured again.
    EXPECT_GT(r.cublas_ms, c1.cublas_ms * 0.5);
    EXPECT_LT(r.cublas_ms, c1.cublas_ms * 2.0);
    fresh += r.cublas_samples_ms != c1.cublas_samples_ms;
  }
  EXPECT_EQ(fresh, 4) << "a paired run read the cached cuBLAS samples";
}

TEST_F(HarnessTest, DeviceInfo) {
  const DeviceInfo d = gpu().device();
  EXPECT_FALSE(d.name.empty());
  EXPECT_GE(d.cc_major, 7);
  EXPECT_GT(d.sm_count, 0);
  EXPECT_GT(d.l2_bytes, 0);
  EXPECT_GT(d.smem_per_sm_bytes, 0);
  EXPECT_GT(d.sm_clock_mhz, 0);
  EXPECT_GT(d.mem_clock_mhz, 0);
  EXPECT_FALSE(d.driver.empty());
  ASSERT_FALSE(d.cuda_runtime.empty());
  EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(d.cuda_runtime[0]))) << d.cuda_runtime;
}

TEST_F(HarnessTest, MeasurePeaks) {
  std::string error = "unset";
  const std::vector<Peak> peaks = gpu().measure_peaks(&error);
  EXPECT_EQ(error, "");  // success clears it
  std::map<std::string, const Peak*> by_name;
  for (const Peak& p : peaks) by_name[p.name] = &p;
  for (const char* name : {"fp32", "tensor_f16_f32", "tf32", "dram", "l2", "ffma", "mma_sync_f16", "mma_sync_tf32"}) {
    ASSERT_TRUE(by_name.count(name)) << name;
    const Peak& p = *by_name[name];
    EXPECT_GT(p.value, 0) << name;
    const bool bandwidth = std::string(name) == "dram" || std::string(name) == "l2";
    EXPECT_EQ(p.unit, bandwidth ? "TB/s" : "TFLOP/s");
    EXPECT_EQ(p.source.rfind("measured here: ", 0), 0u) << p.source;
  }
  // Tensor cores beat pedantic fp32 on any GPU that has them; L2 outruns DRAM; cuBLAS SGEMM cannot beat the
  // FFMA pipe it runs on, nor cuBLAS TF32 (wgmma on Hopper) fall below a third of what mma.sync issues.
  EXPECT_GT(by_name["tensor_f16_f32"]->value, by_name["fp32"]->value);
  EXPECT_GT(by_name["l2"]->value, by_name["dram"]->value);
  EXPECT_LT(by_name["fp32"]->value, by_name["ffma"]->value * 1.02);
  EXPECT_GT(by_name["mma_sync_f16"]->value, by_name["mma_sync_tf32"]->value);
  // wgmma (sm_90a code) is measured on compute capability 9.0 alone. There it outruns mma.sync (by 1.5x on an H100
  // in bench/wgmma_roof_ab; 1.3x leaves room for clocks), and cuBLAS fp16, which runs on it, cannot beat it.
  const DeviceInfo d = gpu().device();
  if (d.cc_major == 9 && d.cc_minor == 0) {
    ASSERT_TRUE(by_name.count("wgmma_f16"));
    const Peak& w = *by_name["wgmma_f16"];
    EXPECT_EQ(w.unit, "TFLOP/s");
    EXPECT_EQ(w.source.rfind("measured here: ", 0), 0u) << w.source;
    EXPECT_GT(w.value, by_name["mma_sync_f16"]->value * 1.3);
    EXPECT_LT(by_name["tensor_f16_f32"]->value, w.value * 1.02);
  } else {
    EXPECT_EQ(by_name.count("wgmma_f16"), 0u) << "wgmma measured on a GPU that is not sm_90";
  }
}

TEST_F(HarnessTest, RecordCapture) {
  std::vector<const KernelInfo*> kernels;
  std::string error;
  ASSERT_TRUE(select_kernels("all", &kernels, &error)) << error;
  std::vector<std::string> lines;
  const GemmShape s{256, 256, 256};
  const Capture c = record_capture(gpu(), kernels, s, [&](const std::string& l) { lines.push_back(l); });

  // One run per kernel and precision at 256^3 (it suits every rung); a rung whose step shows only at other sizes
  // (mma_f16/13: where it splits tiles) first at its own, the one its views read, then at 256^3.
  size_t runs = 0, lines_expected = 2;
  for (const KernelInfo* k : kernels) {
    const bool own = shape_text(recorded_shape(*k, s)) != shape_text(s);
    runs += k->precisions.size() * (own ? 2 : 1);
    lines_expected += k->precisions.size();
  }
  EXPECT_EQ(c.runs.size(), runs);
  std::map<std::string, std::vector<std::string>> shapes;  // per kernel and dtype, in capture order
  for (const RunRecord& r : c.runs) {
    Precision p{};
    ASSERT_TRUE(parse_precision(r.dtype, &p)) << r.dtype;
    EXPECT_LT(r.rel_err, error_bound(p)) << r.kernel << " " << r.dtype;
    EXPECT_GE(r.samples_ms.size(), 10u);
    shapes[r.kernel + " " + r.dtype].push_back(shape_text({r.m, r.n, r.k}));
  }
  for (const auto& [run, sizes] : shapes) {
    const KernelInfo* k = find_kernel(run.substr(0, run.find(' ')));
    ASSERT_NE(k, nullptr) << run;
    const std::string at = shape_text(recorded_shape(*k, s));
    const std::vector<std::string> want =
        at == shape_text(s) ? std::vector<std::string>{at} : std::vector<std::string>{at, shape_text(s)};
    EXPECT_EQ(sizes, want) << run;
  }
  EXPECT_EQ(shape_text(recorded_shape(*find_kernel("mma_f16/13_stream_k"), s)), "5120x1280x4096");
  EXPECT_EQ(shape_text(recorded_shape(*find_kernel("mma_f16/12_persistent"), s)), "256x256x256");
  EXPECT_FALSE(c.blocks.empty());
  EXPECT_FALSE(c.stages.empty());
  EXPECT_FALSE(c.peaks.empty());
  EXPECT_EQ(c.device.name, gpu().device().name);
  EXPECT_EQ(c.tool.rfind("gemmscope ", 0), 0u) << c.tool;
  ASSERT_EQ(c.recorded_at.size(), 20u) << c.recorded_at;  // 2026-11-21T07:30:00Z
  EXPECT_EQ(c.recorded_at.back(), 'Z');

  ASSERT_EQ(lines.size(), lines_expected);  // peaks, one per kernel x precision, layouts
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string prefix = "[" + std::to_string(i + 1) + "/" + std::to_string(lines.size()) + "] ";
    EXPECT_EQ(lines[i].rfind(prefix, 0), 0u) << lines[i];
  }
}

// ---- NoProbe leaves no trace in the SASS -------------------------------------------------------

// cuobjdump -sass listing -> "sm_XX function" -> its lines (instructions with their encodings; the
// addresses in them are relative to the function, so identical code lists identically).
std::map<std::string, std::vector<std::string>> sass_functions(const std::string& cuobjdump, const std::string& file,
                                                               std::string* error) {
  std::map<std::string, std::vector<std::string>> fns;
  const std::string cmd = "'" + cuobjdump + "' -sass '" + file + "' 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    *error = "cannot run " + cmd;
    return fns;
  }
  std::string arch;
  std::vector<std::string>* current = nullptr;
  char buf[4096];
  while (fgets(buf, sizeof buf, pipe)) {
    std::string line(buf);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    if (line.compare(first, 9, "code for ") == 0) {  // one architecture's listing begins
      arch = line.substr(first + 9);
      current = nullptr;
      continue;
    }
    const size_t f = line.find("Function : ");
    if (f != std::string::npos) {
      current = &fns[arch + " " + line.substr(f + 11)];
      continue;
    }
    if (current && line.compare(first, 2, "/*") == 0) {
      // cuobjdump pads its columns to the widest line of the whole file, which differs between the
      // two objects: compare instructions and encodings with runs of blanks folded to one.
      std::string folded;
      for (char ch : line.substr(first))
        if (!(ch == ' ' && !folded.empty() && folded.back() == ' ')) folded += ch;
      current->push_back(folded);
    }
  }
  const int status = pclose(pipe);
  if (status != 0) *error = cmd + " exited with status " + std::to_string(status);
  return fns;
}

bool runnable(const std::string& path) { return !path.empty() && access(path.c_str(), X_OK) == 0; }

// DESIGN.md: a kernel instantiated with NoProbe compiles to the same SASS as the kernel without its
// probe calls. The build compiles the registry twice, once as shipped and once with GS_PROBE(...)
// defined away; both objects hold the same NoProbe kernels under the same names.
TEST(NoProbe, SassEqualsKernelWithoutProbeCalls) {
  test_hooks::SassCheckFiles f = test_hooks::sass_check_files();
  if (!runnable(f.cuobjdump)) {
    FILE* which = popen("command -v cuobjdump 2>/dev/null", "r");
    char buf[1024] = {};
    if (which && fgets(buf, sizeof buf, which)) f.cuobjdump = std::string(buf).substr(0, std::string(buf).find('\n'));
    if (which) pclose(which);
  }
  if (!runnable(f.cuobjdump)) GTEST_SKIP() << "cuobjdump not found (looked beside nvcc and on PATH)";
  if (f.probed_object.empty()) GTEST_SKIP() << "built without -DGEMMSCOPE_SASS_CHECK=ON (make gpu-test sets it)";

  // Each side is a '|'-separated list of objects (one per family); merge their functions.
  std::string error;
  auto functions_of = [&](const std::string& list) {
    decltype(sass_functions(f.cuobjdump, list, &error)) all;
    size_t start = 0;
    while (start <= list.size()) {
      const size_t bar = std::min(list.find('|', start), list.size());
      auto part = sass_functions(f.cuobjdump, list.substr(start, bar - start), &error);
      all.insert(part.begin(), part.end());
      start = bar + 1;
    }
    return all;
  };
  const auto probed = functions_of(f.probed_object);
  ASSERT_TRUE(error.empty()) << error;
  const auto stripped = functions_of(f.stripped_object);
  ASSERT_TRUE(error.empty()) << error;

  size_t compared = 0;
  for (const auto& [name, body] : probed) {
    if (name.find("7NoProbe") == std::string::npos) continue;  // gs::NoProbe in the mangled name
    ++compared;
    const auto other = stripped.find(name);
    ASSERT_NE(other, stripped.end()) << name << " missing from the stripped build";
    EXPECT_FALSE(body.empty()) << name;
    const std::vector<std::string>& bare = other->second;
    const auto [mine, theirs] = std::mismatch(body.begin(), body.end(), bare.begin(), bare.end());
    EXPECT_TRUE(mine == body.end() && theirs == bare.end())
        << name << ": NoProbe changed the SASS (" << body.size() << " vs " << bare.size()
        << " lines); first difference:\n  "
        << (mine == body.end() ? "(end)" : *mine) << "\n  " << (theirs == bare.end() ? "(end)" : *theirs);
  }
  size_t launchers = 0;
  for (const KernelInfo& k : kernel_registry()) launchers += k.precisions.size();
  EXPECT_GE(compared, launchers) << "every rung x precision has a NoProbe kernel";
}

// ---- the registry (host only; here because it lives in gs_kernels) -----------------------------

TEST(Registry, LadderIsWellFormed) {
  const std::vector<KernelInfo>& all = kernel_registry();
  ASSERT_FALSE(all.empty());
  std::set<std::string> names;
  std::map<std::string, int> last_number;
  std::string last_family;
  std::set<std::string> families_done;
  for (const KernelInfo& k : all) {
    SCOPED_TRACE(k.name);
    EXPECT_TRUE(names.insert(k.name).second) << "registered twice";
    // family/NN_short_name, rungs of one family contiguous and numbered upward
    const size_t slash = k.name.find('/');
    ASSERT_NE(slash, std::string::npos);
    EXPECT_EQ(k.name.substr(0, slash), k.family);
    ASSERT_GE(k.name.size(), slash + 4);
    ASSERT_TRUE(std::isdigit(static_cast<unsigned char>(k.name[slash + 1])) &&
                std::isdigit(static_cast<unsigned char>(k.name[slash + 2])) && k.name[slash + 3] == '_');
    const int number = std::stoi(k.name.substr(slash + 1, 2));
    // A variant, family/NN_name[key=value,...], follows its rung (DESIGN.md "Variants") and shares its number.
    const size_t bracket = k.name.find('[');
    const bool variant = bracket != std::string::npos;
    if (variant) {
      EXPECT_EQ(k.name.back(), ']');
      EXPECT_TRUE(names.count(k.name.substr(0, bracket))) << "variant before (or without) its rung";
    }
    if (k.family != last_family) {
      EXPECT_FALSE(variant) << "a family starts with a variant";
      EXPECT_FALSE(families_done.count(k.family)) << "family split in two";
      if (!last_family.empty()) families_done.insert(last_family);
      last_family = k.family;
    } else if (variant) {
      EXPECT_EQ(number, last_number[k.family]);
    } else {
      EXPECT_GT(number, last_number[k.family]);
    }
    last_number[k.family] = number;
    EXPECT_FALSE(k.title.empty());
    EXPECT_FALSE(k.adds.empty());
    EXPECT_FALSE(k.precisions.empty());
    EXPECT_GT(k.block_m, 0);
    EXPECT_GT(k.block_n, 0);
    EXPECT_GT(k.threads, 0);
    EXPECT_EQ(k.threads % 32, 0);
    EXPECT_EQ(find_kernel(k.name), &k);
  }
  EXPECT_EQ(find_kernel("sgemm/99_nope"), nullptr);
}

// The warp view draws what the registry says: it must tile the block exactly with the rung's threads.
TEST(Registry, WarpTilingsAddUp) {
  int described = 0;
  for (const KernelInfo& k : kernel_registry()) {
    const WarpTiling& w = k.warps;
    if (w.warps_m == 0) continue;
    SCOPED_TRACE(k.name);
    ++described;
    EXPECT_EQ((w.warps_m * w.warps_n * w.warps_k + w.producer_warps) * 32, k.threads);
    EXPECT_EQ(w.warps_m * w.warp_m, k.block_m);
    EXPECT_EQ(w.warps_n * w.warp_n, k.block_n);
    ASSERT_GT(w.frag_m * w.frag_n * w.frag_k, 0);
    EXPECT_EQ(w.warp_m % w.frag_m, 0);
    EXPECT_EQ(w.warp_n % w.frag_n, 0);
    EXPECT_EQ(w.block_k % (w.frag_k * w.warps_k), 0);
    if (!w.op.empty()) {
      // The op's m x n x k, or n x m x k for a rung that swaps its operands (each op then computes C^T's tile).
      const auto shape = [&](int m, int n) {
        return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(w.frag_k);
      };
      const bool swapped = w.op.find(shape(w.frag_n, w.frag_m)) != std::string::npos;
      EXPECT_TRUE(w.op.find(shape(w.frag_m, w.frag_n)) != std::string::npos || swapped) << w.op;
      const bool swaps = k.name.rfind("mma_tf32/11_swapped_operands", 0) == 0 ||
                         k.name.rfind("mma_tf32/12_tma_producer", 0) == 0;  // 12 keeps 11's fragments
      EXPECT_EQ(swapped && w.frag_m != w.frag_n, swaps) << w.op;
    }
  }
  EXPECT_GE(described, 28 + 4);  // wmma, mma_f16, mma_tf32, sgemm 07+
}

TEST(Registry, SelectKernels) {
  std::vector<const KernelInfo*> out;
  std::string error;
  const size_t n = kernel_registry().size();
  ASSERT_TRUE(select_kernels("", &out, &error));
  EXPECT_EQ(out.size(), n);
  ASSERT_TRUE(select_kernels("all", &out, &error));
  EXPECT_EQ(out.size(), n);
  ASSERT_TRUE(select_kernels("wmma/01_naive, sgemm/01_naive,wmma/01_naive", &out, &error)) << error;
  ASSERT_EQ(out.size(), 2u);  // each once, in ladder order
  EXPECT_EQ(out[0]->name, "sgemm/01_naive");
  EXPECT_EQ(out[1]->name, "wmma/01_naive");
  EXPECT_FALSE(select_kernels("sgemm/01_naive,nope", &out, &error));
  EXPECT_EQ(error.rfind("unknown kernel 'nope' (`gemmscope list` prints every rung and variant; rungs: sgemm/01_naive, ", 0), 0u)
      << error;
}

TEST(Registry, ParseShape) {
  GemmShape s;
  ASSERT_TRUE(parse_shape("4096x2048x512", &s));
  EXPECT_EQ(std::make_tuple(s.m, s.n, s.k), std::make_tuple(4096, 2048, 512));
  for (const char* bad : {"", "4096", "4096x4096", "0x1x1", "1x-1x1", "1x1x1x1", "axbxc", "1x1x", " 1x1x1",
                          "99999999999x1x1", "1.5x1x1"}) {
    EXPECT_FALSE(parse_shape(bad, &s)) << "'" << bad << "'";
  }
}

TEST(Registry, Precisions) {
  for (Precision p : {Precision::F32, Precision::F16_F32, Precision::F16_F16, Precision::TF32}) {
    Precision q{};
    ASSERT_TRUE(parse_precision(precision_name(p), &q));
    EXPECT_EQ(q, p);
  }
  Precision q{};
  EXPECT_FALSE(parse_precision("fp32", &q));
  EXPECT_DOUBLE_EQ(error_bound(Precision::F32), 1e-4);
  EXPECT_DOUBLE_EQ(error_bound(Precision::F16_F32), 1e-3);
  EXPECT_DOUBLE_EQ(error_bound(Precision::F16_F16), 1e-2);
  EXPECT_DOUBLE_EQ(error_bound(Precision::TF32), 5e-3);
}

}  // namespace
}  // namespace gs
