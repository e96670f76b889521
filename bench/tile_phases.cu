// tile_phases: where a tile's time goes in the top mma.sync rungs (issue 14; bench/NOTES.md).
//
// A fit to bench/mma_ldsm_ab.cu's one-wave runs put about 12 k-tiles' time per tile (or per launch) outside the
// k-loop of mma_f16/10 and 11. This measures it instead: %globaltimer four times per threadblock, from thread 0
// (an mma warp's lane 0 in every rung here), through the rungs' own probe calls, and clock64 beside the middle two:
//   t0  block_begin      the block has started
//   t1  first mma stage  its first stage of operands has arrived (t1 - t0: the fill)
//   t2  epilogue stage   its last mma has been issued (t2 - t1: the k-loop, in ns and in SM cycles)
//   t3  block_end        its stores are issued (t3 - t2: the drain)
// Rungs: mma_f16/10 and 11, mma_tf32/11 and 12, on one wave of 256x128 tiles (K = 4096 and 16384), 4096^3 and
// 8192^3. Each rung is timed with this probe and without it, the rungs taking turns in a rotating order with the
// mma.sync register loop (kernels/mma_loop.cuh), so that all meet the same clocks; the loop's rate is printed as
// the time one k-tile would take at it. Per rung and shape: the launch's time (plain and probed), the span from
// the first block's start to the last block's end, the medians of fill, k-loop and drain per tile, the k-loop per
// k-tile (us and cycles), the SM clock over the k-loop, the spread of the first wave's starts, the gap on an SM
// between one tile's end and the next tile's start (median, max), and the share of SM-time spent in k-loops.
// Before timing, mma_tf32/12's C is compared bit for bit with 11's on shapes with edges (C poisoned first).
//
//   cmake --build build --target tile_phases
//   tile_phases [LAUNCHES] [CSV_DIR]       default 20; CSV_DIR: one CSV of every block's stamps per rung and shape
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "bench/prototype.cuh"
#include "kernels/mma_f16/10_multistage.cuh"
#include "kernels/mma_f16/11_tma_producer.cuh"
#include "kernels/mma_loop.cuh"
#include "kernels/mma_tf32/11_swapped_operands.cuh"
#include "kernels/mma_tf32/12_tma_producer.cuh"

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "tile_phases: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct PhaseRec {
  unsigned long long t[4];   // %globaltimer, ns
  long long c1, c2;          // clock64 beside t[1] and t[2]: the k-loop in SM cycles, and the SM's clock
  int smid, tile_m, tile_n, pad;
};

// kFirst: the rung's stage id that starts its k-loop's first mma; kEpi: its epilogue's stage id.
template <int kFirst, int kEpi>
struct PhaseProbe {
  PhaseRec* rec = nullptr;
  bool first_ = false;

  __device__ __forceinline__ bool lead() const { return threadIdx.x == 0; }
  __device__ __forceinline__ PhaseRec& me() const { return rec[blockIdx.x + blockIdx.y * gridDim.x]; }
  __device__ __forceinline__ void block_begin(int tile_m, int tile_n) {
    if (!lead()) return;
    me().t[0] = gs::trace::globaltimer();
    me().smid = static_cast<int>(gs::trace::smid());
    me().tile_m = tile_m;
    me().tile_n = tile_n;
  }
  __device__ __forceinline__ void tile(int, int, int) {}
  __device__ __forceinline__ void block_end() {
    if (lead()) me().t[3] = gs::trace::globaltimer();
  }
  __device__ __forceinline__ void stage(int id) {
    if (!lead()) return;
    if (id == kFirst && !first_) {
      first_ = true;
      me().t[1] = gs::trace::globaltimer();
      me().c1 = clock64();
    } else if (id == kEpi) {
      me().c2 = clock64();
      me().t[2] = gs::trace::globaltimer();
    }
  }
  __device__ __forceinline__ void mark(gs::Mark) {}
  __device__ __forceinline__ void iteration(int) {}
  __device__ __forceinline__ void epilogue() {}
  __device__ __forceinline__ void smem(int, const void*, int, gs::SmemKind) {}
  __device__ __forceinline__ void gmem(int, const void*, int, gs::GmemKind) {}
};

struct Shape {
  int m, n, k;
};

// One rung: launch(shape, probe records or null for NoProbe).
struct Rung {
  const char* name;
  int bk;  // k-tile depth, for the per-k-tile figure
  std::function<cudaError_t(Shape, PhaseRec*)> launch;
};

void report(const Rung& r, Shape s, const std::vector<PhaseRec>& recs, double ms_plain, double ms_probe, int sms,
            const char* csv_dir) {
  unsigned long long t_min = ~0ull, t_max = 0;
  for (const PhaseRec& p : recs) {
    t_min = std::min(t_min, p.t[0]);
    t_max = std::max(t_max, p.t[3]);
  }
  std::vector<double> fill, loop, drain, starts, cycles, mhz;
  std::map<int, std::vector<const PhaseRec*>> per_sm;
  for (const PhaseRec& p : recs) {
    fill.push_back((p.t[1] - p.t[0]) * 1e-3);
    loop.push_back((p.t[2] - p.t[1]) * 1e-3);
    drain.push_back((p.t[3] - p.t[2]) * 1e-3);
    starts.push_back((p.t[0] - t_min) * 1e-3);
    cycles.push_back(double(p.c2 - p.c1));
    mhz.push_back(double(p.c2 - p.c1) * 1e3 / double(p.t[2] - p.t[1]));
    per_sm[p.smid].push_back(&p);
  }
  std::sort(starts.begin(), starts.end());
  const size_t wave = std::min(recs.size(), size_t(sms));
  std::vector<double> gaps;
  for (auto& [sm, v] : per_sm) {
    std::sort(v.begin(), v.end(), [](const PhaseRec* a, const PhaseRec* b) { return a->t[0] < b->t[0]; });
    for (size_t i = 1; i < v.size(); ++i) gaps.push_back((double(v[i]->t[0]) - double(v[i - 1]->t[3])) * 1e-3);
  }
  const double span = (t_max - t_min) * 1e-3, k_tiles = (s.k + r.bk - 1) / r.bk;
  const double loop_sum = std::accumulate(loop.begin(), loop.end(), 0.0);
  std::printf("%-28s %5dx%5dx%5d %4zu %7.1f %7.1f %7.1f %5.2f %7.2f %5.2f %6.3f %6.0f %5.0f %5.2f %5.2f %5.2f %5.3f\n",
              r.name, s.m, s.n, s.k, recs.size(), ms_plain * 1e3, ms_probe * 1e3, span, median(fill), median(loop),
              median(drain), median(loop) / k_tiles, median(cycles) / k_tiles, median(mhz), starts[wave - 1],
              median(gaps), gaps.empty() ? 0.0 : *std::max_element(gaps.begin(), gaps.end()), loop_sum / (span * sms));
  if (!csv_dir) return;
  std::string name = std::string(csv_dir) + "/" + r.name + "_" + std::to_string(s.m) + "x" + std::to_string(s.n) +
                     "x" + std::to_string(s.k) + ".csv";
  for (char& ch : name)
    if (ch == '/' && &ch > name.c_str() + std::strlen(csv_dir)) ch = '_';
  FILE* f = std::fopen(name.c_str(), "w");
  if (!f) return (void)std::fprintf(stderr, "tile_phases: cannot write %s\n", name.c_str());
  std::fprintf(f, "block,smid,tile_m,tile_n,begin_ns,first_mma_ns,epilogue_ns,end_ns\n");
  for (size_t i = 0; i < recs.size(); ++i) {
    const PhaseRec& p = recs[i];
    std::fprintf(f, "%zu,%d,%d,%d,%llu,%llu,%llu,%llu\n", i, p.smid, p.tile_m, p.tile_n, p.t[0] - t_min,
                 p.t[1] - t_min, p.t[2] - t_min, p.t[3] - t_min);
  }
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 20;
  const char* csv_dir = argc > 2 ? argv[2] : nullptr;
  if (launches < 1 || launches > 1000) {
    std::fprintf(stderr, "usage: tile_phases [LAUNCHES 1-1000] [CSV_DIR]\n");
    return 2;
  }
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "no CUDA device");
  const int sms = prop.multiProcessorCount;
  int wave_tm = 1;  // one wave of 256x128 tiles: tiles_m x tiles_n = sms
  for (int t = 1; t * t <= sms; ++t)
    if (sms % t == 0) wave_tm = t;
  const Shape shapes[] = {{wave_tm * 256, sms / wave_tm * 128, 4096},
                          {wave_tm * 256, sms / wave_tm * 128, 16384},
                          {4096, 4096, 4096},
                          {8192, 8192, 8192}};
  size_t a_elems = 0, b_elems = 0, c_elems = 0, blocks = 0;
  for (const Shape& s : shapes) {
    a_elems = std::max(a_elems, size_t(s.m) * s.k);
    b_elems = std::max(b_elems, size_t(s.k) * s.n);
    c_elems = std::max(c_elems, size_t(s.m) * s.n);
    blocks = std::max(blocks, size_t((s.m + 255) / 256) * ((s.n + 127) / 128) * 2);
  }
  __half *ah, *bh;
  float *af, *bf, *c, *sink;
  constexpr int kLoopIters = 20000;
  check(cudaMalloc(&sink, 4096), "cudaMalloc sink");
  check(cudaMalloc(&ah, a_elems * 2), "cudaMalloc A");
  check(cudaMalloc(&bh, b_elems * 2), "cudaMalloc B");
  check(cudaMalloc(&af, a_elems * 4), "cudaMalloc A");
  check(cudaMalloc(&bf, b_elems * 4), "cudaMalloc B");
  check(cudaMalloc(&c, c_elems * 4), "cudaMalloc C");
  proto::fill_positive<<<1024, 256>>>(ah, a_elems, 1);
  proto::fill_positive<<<1024, 256>>>(bh, b_elems, 2);
  proto::fill_positive<<<1024, 256>>>(af, a_elems, 3);
  proto::fill_positive<<<1024, 256>>>(bf, b_elems, 4);

  namespace f10 = gs::mma_f16_10_multistage;
  namespace f11 = gs::mma_f16_11_tma_producer;
  namespace t11 = gs::mma_tf32_11_swapped_operands;
  namespace t12 = gs::mma_tf32_12_tma_producer;
  const Rung rungs[] = {
      {"mma_f16/10_multistage", f10::kBlockK,
       [&](Shape s, PhaseRec* r) {
         gs::GemmArgs<__half, float> g{s.m, s.n, s.k, ah, bh, c};
         if (!r) return f10::launch<gs::NoProbe>(g, gs::NoProbe{}, 0);
         return f10::launch(g, PhaseProbe<f10::kMma, f10::kEpilogue>{r}, 0);
       }},
      {"mma_f16/11_tma_producer", f11::kBlockK,
       [&](Shape s, PhaseRec* r) {
         gs::GemmArgs<__half, float> g{s.m, s.n, s.k, ah, bh, c};
         if (!r) return f11::launch<gs::NoProbe>(g, gs::NoProbe{}, 0);
         return f11::launch(g, PhaseProbe<f11::kMma, f11::kEpilogue>{r}, 0);
       }},
      {"mma_tf32/11_swapped_operands", t11::kBK,
       [&](Shape s, PhaseRec* r) {
         gs::GemmArgs<float, float> g{s.m, s.n, s.k, af, bf, c};
         if (!r) return t11::launch<gs::NoProbe>(g, gs::NoProbe{}, 0);
         return t11::launch(g, PhaseProbe<t11::kMma, t11::kEpilogue>{r}, 0);
       }},
      {"mma_tf32/12_tma_producer", t12::kBK,
       [&](Shape s, PhaseRec* r) {
         gs::GemmArgs<float, float> g{s.m, s.n, s.k, af, bf, c};
         if (!r) return t12::launch<gs::NoProbe>(g, gs::NoProbe{}, 0);
         return t12::launch(g, PhaseProbe<t12::kMma, t12::kEpilogue>{r}, 0);
       }},
  };
  // Before timing: tf32/12's C against 11's, bit for bit (the same mma on the same fragments in the same order),
  // C poisoned before each run, on shapes with edges in every dimension (K and N multiples of 4: TMA).
  {
    const Shape checks[] = {{520, 264, 200}, {300, 200, 104}, {256, 384, 64}, {1000, 1000, 1024}, {4096, 4096, 4096},
                            shapes[0]};
    for (const Shape& sh : checks) {
      const size_t cn = size_t(sh.m) * sh.n;
      std::vector<float> want(cn), got(cn);
      check(cudaMemset(c, 0xFF, cn * 4), "poison C");
      check(rungs[2].launch(sh, nullptr), rungs[2].name);
      check(cudaMemcpy(want.data(), c, cn * 4, cudaMemcpyDeviceToHost), "C of tf32/11");
      check(cudaMemset(c, 0xFF, cn * 4), "poison C");
      check(rungs[3].launch(sh, nullptr), rungs[3].name);
      check(cudaMemcpy(got.data(), c, cn * 4, cudaMemcpyDeviceToHost), "C of tf32/12");
      size_t diff = 0;
      double worst = 0;
      for (size_t i = 0; i < cn; ++i) {
        if (std::memcmp(&want[i], &got[i], 4) == 0) continue;
        ++diff;
        worst = std::max(worst, std::abs(double(got[i]) - want[i]) / std::max(1e-30, std::abs(double(want[i]))));
      }
      std::printf("mma_tf32/12 against 11 at %dx%dx%d: %zu of %zu elements differ (worst relative %.2e)\n", sh.m, sh.n,
                  sh.k, diff, cn, worst);
      if (diff) return 1;
    }
  }

  int khz = 0, driver = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  cudaDriverGetVersion(&driver);
  std::printf("%s, %d SMs, max SM clock %d MHz, CUDA driver %d; %d launches each, probe and plain alternating\n",
              prop.name, sms, khz / 1000, driver, launches);
  std::printf("times in us; medians over the tiles of the last probed launch\n");
  std::printf("%-28s %17s %4s %7s %7s %7s %5s %7s %5s %6s %6s %5s %5s %5s %5s %5s\n", "rung", "shape", "blks",
              "plain", "probed", "span", "fill", "k-loop", "drain", "/ktile", "cyc/kt", "MHz", "start", "gap", "gapmx",
              "busy");
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");
  // One launch between two events, waited for: its time in ms (the rungs' and the loop's alike).
  auto event_ms = [&](const std::function<void()>& launch, const char* what) {
    check(cudaEventRecord(e0), "cudaEventRecord");
    launch();
    check(cudaEventRecord(e1), "cudaEventRecord");
    check(cudaEventSynchronize(e1), what);
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
    return double(ms);
  };
  const int nr = int(sizeof rungs / sizeof rungs[0]);
  std::vector<PhaseRec*> bufs(nr);
  for (PhaseRec*& b : bufs) check(cudaMalloc(&b, blocks * sizeof(PhaseRec)), "cudaMalloc records");
  for (const Shape& s : shapes) {
    const size_t nb = size_t((s.m + 255) / 256) * ((s.n + 127) / 128);
    auto timed = [&](const Rung& r, PhaseRec* p) {
      return event_ms([&] { check(r.launch(s, p), r.name); }, r.name);
    };
    // The rungs take turns, the order rotating each launch, so that all meet the same clocks.
    std::vector<std::vector<double>> plain(nr), probed(nr);
    std::vector<double> loop16, loop32;
    auto loop_ms = [&](bool tf32) {
      return event_ms(
          [&] {
            if (tf32) gs::mma_loop<true><<<sms, 256>>>(kLoopIters / 2, sink);
            else gs::mma_loop<false><<<sms, 256>>>(kLoopIters, sink);
          },
          "mma.sync loop");
    };
    for (int l = -1; l < launches; ++l) {
      const double l16 = loop_ms(false), l32 = loop_ms(true);
      if (l >= 0) {
        loop16.push_back(l16);
        loop32.push_back(l32);
      }
      for (int j = 0; j < nr; ++j) {
        const int i = (j + l + 1) % nr;
        const double a = timed(rungs[i], nullptr);
        check(cudaMemset(bufs[i], 0, blocks * sizeof(PhaseRec)), "clear records");
        const double b = timed(rungs[i], bufs[i]);
        if (l < 0) continue;  // warm-up
        plain[i].push_back(a);
        probed[i].push_back(b);
      }
    }
    // The mma.sync loop from registers (8 warps per SM), as the time one 256x128x64 k-tile (f16) or 256x128x32
    // (tf32) would take at its rate: the ceiling of every k-loop above.
    const double f16_flops = gs::mma_loop_flops(false, sms, 8, kLoopIters);
    const double tf32_flops = gs::mma_loop_flops(true, sms, 8, kLoopIters / 2);
    std::printf("%-28s %5dx%5dx%5d  loop f16 %.1f TFLOP/s = %.3f us per k-tile, tf32 %.1f TFLOP/s = %.3f us\n",
                "mma.sync loop", s.m, s.n, s.k, f16_flops / (median(loop16) * 1e9),
                2.0 * 256 * 128 * 64 * sms / (f16_flops / (median(loop16) * 1e-3)) * 1e6,
                tf32_flops / (median(loop32) * 1e9),
                2.0 * 256 * 128 * 32 * sms / (tf32_flops / (median(loop32) * 1e-3)) * 1e6);
    for (int i = 0; i < nr; ++i) {
      const Rung& r = rungs[i];
      // A rung's grid may hold more blocks than tiles (a block order's overhang): those end before a k-loop.
      std::vector<PhaseRec> all(blocks), recs;
      check(cudaMemcpy(all.data(), bufs[i], blocks * sizeof(PhaseRec), cudaMemcpyDeviceToHost), "records");
      for (const PhaseRec& p : all) {
        if (!p.t[0] || !p.t[1]) continue;  // not launched, or no tile
        if (!p.t[2] || !p.t[3] || p.t[2] < p.t[1] || p.t[3] < p.t[2]) {
          std::fprintf(stderr, "tile_phases: %s: a block's stamps are missing or out of order\n", r.name);
          return 1;
        }
        recs.push_back(p);
      }
      if (recs.size() != nb) {
        std::fprintf(stderr, "tile_phases: %s: %zu tiles stamped, %zu expected\n", r.name, recs.size(), nb);
        return 1;
      }
      report(r, s, recs, median(plain[i]), median(probed[i]), sms, csv_dir);
    }
  }
  return 0;
}
