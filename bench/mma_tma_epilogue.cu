// mma_tma_epilogue: would rung 12's epilogue, handed to TMA, lift mma_f16 past rung 12? (issue 14; bench/NOTES.md,
// "C through TMA stores")
//
// mma_f16/12's mma warps store their 64x64 fp32 of C with st.global, 16 bytes a lane, after staging each 16-row
// slab in their own 4 KB. Every SM reaches its epilogue at about the same time (the tiles are equal and the CTAs
// start together), so 132 x 128 KB of C leave at once and each warp waits on its stores' queue before it can start
// the next tile's k-loop. Here each slab half (16 rows x 32 columns, 2 KB) goes to TMA instead: written to shared
// memory in TMA's 128B-swizzled layout, then one cp.async.bulk.tensor store per half, the warp's two halves double
// buffered in the same 4 KB. The warp waits only until TMA has read the half it is about to overwrite, and C
// drains under the next tile's k-loop.
//
// Three epilogues of one kernel, rung 12's k-loop and producer unchanged (the code is rung 12's, without probes):
//   direct   rung 12's own epilogue: must time as rung 12 does, or the copy is not rung 12;
//   tma      the TMA store above;
//   none     no C at all (a checksum keeps the k-loop): the most any epilogue change can win.
// C of direct and tma must equal rung 12's bit for bit (the same sums, only the way out differs).
//
//   cmake --build build --target mma_tma_epilogue
//   mma_tma_epilogue [ROUNDS] [LAUNCHES] [SIZE...]  defaults 10 10 2048 4096 6144 8192; ROUNDS 0: one launch
//                                                    of each, unchecked, untimed (for Nsight Compute)
#include <cstring>
#include <vector>

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "bench/prototype.cuh"
#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/hopper/layout.h"
#include "kernels/mma_f16/12_persistent.cuh"
#include "kernels/mma_f16/13_stream_k.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace tmaep {

using namespace gs::mma_f16;
using namespace gs::mma_f16_12_persistent;  // the block, the stages, the staging's size and place: all rung 12's

enum class Epilogue { kDirect, kTma, kNone };

// A box of the TMA store: 16 rows of 32 fp32 columns, 128-byte rows with 128B swizzle (the 16-byte chunk c of row r
// at c ^ (r % 8)), 2 KB; each warp's 4 KB of staging holds two.
inline constexpr int kBoxCols = 32, kBoxRows = kMmaM;
inline constexpr int kCBoxBytes = kBoxRows * kBoxCols * 4;
static_assert(2 * kCBoxBytes == kCsWarpBytes, "two boxes per warp's staging");
static_assert(kCsOffset % gs::hopper::kAtom == 0 && kCBoxBytes % gs::hopper::kAtom == 0,
              "every box starts on a swizzle atom");
__device__ __forceinline__ uint32_t box_offset(int row, int col) {
  return row * (kBoxCols * 4) + (((col / 4) ^ (row % 8)) * 16) + (col % 4) * 4;
}

template <Epilogue kEp>
__global__ void __launch_bounds__(kThreads, 1)
    kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
           const __grid_constant__ CUtensorMap tma_c, gs::GemmArgs<__half, float> g, int tiles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t as = gs::hopper::smem_base();
  const uint32_t bs = as + kStages * kAStageBytes;
  const uint32_t full = as + kBarOffset;
  const uint32_t empty = full + 8 * kStages;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;

  if (tid == 0) {
    gs::hopper::prefetch_tensormap(&tma_a);
    gs::hopper::prefetch_tensormap(&tma_b);
    if (kEp == Epilogue::kTma) gs::hopper::prefetch_tensormap(&tma_c);
    for (int s = 0; s < kStages; ++s) {
      gs::hopper::mbar_init(full + 8 * s, 1);
      gs::hopper::mbar_init(empty + 8 * s, kMmaWarps);
    }
    gs::hopper::fence_barrier_init();
  }
  __syncthreads();

  if (warp >= kMmaWarps) {
    gs::hopper::setmaxnreg_dec<kProducerRegs>();
    if (warp == kMmaWarps) {
      Ring r;
      for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        const gs::hopper::TileIndex tile = gs::hopper::grouped_tile(t, tiles_m, tiles_n, kGroup);
        const int bm0 = tile.m * kBlockM, bn0 = tile.n * kBlockN;
        for (int kt = 0; kt < ktiles; ++kt, r.next()) {
          gs::hopper::mbar_wait(empty + 8 * r.stage, r.phase ^ 1);
          if (lane == 0) {
            const uint32_t bar = full + 8 * r.stage;
            gs::hopper::mbar_arrive_expect_tx(bar, kStageBytes);
            gs::hopper::tma_load_2d(as + r.stage * kAStageBytes, &tma_a, kt * kBlockK, bm0, bar);
#pragma unroll
            for (int j = 0; j < kBlockN / kBoxN; ++j) {
              gs::hopper::tma_load_2d(bs + r.stage * kBStageBytes + j * kBBoxBytes, &tma_b, bn0 + j * kBoxN,
                                      kt * kBlockK, bar);
            }
          }
          __syncwarp();
        }
      }
    }
    return;
  }

  gs::hopper::setmaxnreg_inc<kMmaRegs>();
  const uint32_t cs = as + kCsOffset + warp * kCsWarpBytes;
  const int wm0 = (warp / kWarpsN) * kWarpM, wn0 = (warp % kWarpsN) * kWarpN;
  const int x = (lane / 16) ^ (lane % 8);
  const uint32_t a_frag = as + (wm0 + lane % 16) * kRowBytes + x * 16;
  const uint32_t b_frag = bs + (wn0 / kBoxN) * kBBoxBytes + (lane % 16) * kRowBytes + x * 16;
  auto load_frags = [&](int s, int kk, uint32_t(&af)[kMI][4], uint32_t(&bf)[kNI][2]) {
    const uint32_t a = (a_frag + s * kAStageBytes) ^ (kk * 32);
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) ldmatrix_x4(af[mi], a + mi * kMmaM * kRowBytes);
    const uint32_t b = b_frag + s * kBStageBytes + kk * kMmaK * kRowBytes;
#pragma unroll
    for (int ni = 0; ni < kNI; ni += 2) {
      uint32_t r[4];
      ldmatrix_x4_trans(r, b ^ (ni * 16));
      bf[ni][0] = r[0], bf[ni][1] = r[1], bf[ni + 1][0] = r[2], bf[ni + 1][1] = r[3];
    }
  };

  float acc[kMI][kNI][4];
  uint32_t af[2][kMI][4], bf[2][kNI][2];
  float checksum = 0.0f;  // Epilogue::kNone only
  Ring r;
  gs::hopper::mbar_wait(full, 0);
  load_frags(0, 0, af[0], bf[0]);
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    const gs::hopper::TileIndex tile = gs::hopper::grouped_tile(t, tiles_m, tiles_n, kGroup);
    const bool last_tile = t + int(gridDim.x) >= tiles;
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[mi][ni][i] = 0.0f;
      }
    }
    for (int kt = 0; kt < ktiles; ++kt) {
      Ring nx = r;
      nx.next();
#pragma unroll
      for (int kk = 0; kk < kKI; ++kk) {
        if (kk == kKI - 1) {
          if (kt + 1 < ktiles || !last_tile) {
            gs::hopper::mbar_wait(full + 8 * nx.stage, nx.phase);
            load_frags(nx.stage, 0, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
          }
        } else {
          load_frags(r.stage, kk + 1, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
        }
#pragma unroll
        for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
          for (int n = 0; n < kNI; ++n) {
            const int ni = mi % 2 ? kNI - 1 - n : n;
            mma_16816(acc[mi][ni], af[kk % 2][mi], bf[kk % 2][ni]);
          }
        }
      }
      __syncwarp();
      if (lane == 0) gs::hopper::mbar_arrive(empty + 8 * r.stage);
      r = nx;
    }

    const int row0 = tile.m * kBlockM + wm0;
    if constexpr (kEp == Epilogue::kDirect) {  // rung 12's
      const int col = tile.n * kBlockN + wn0 + 4 * (lane % 16);
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int row = lane / 4 + 8 * h, c = ni * kMmaN + 2 * (lane % 4);
            st_shared_f32x2(cs + cs_offset(row, c), acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
          }
        }
        __syncwarp();
#pragma unroll
        for (int rr = lane / 16; rr < kMmaM; rr += 2) {
          const float4 v = ld_shared_f32x4(cs + cs_offset(rr, 4 * (lane % 16)));
          const int grow = row0 + mi * kMmaM + rr;
          if (grow < g.m && col < g.n) update_c_quad(g.c + static_cast<size_t>(grow) * g.n + col, v, g.alpha, g.beta);
        }
        __syncwarp();
      }
    } else if constexpr (kEp == Epilogue::kTma) {
      // Half j of slab mi (rows 16 mi .., columns 32 j ..) goes through box j of the staging. Before writing box j,
      // the lane that issues the stores waits until TMA has read it: of the stores in flight, all but the newest
      // (the other box's) must be read. Only beta == 0 is launched (C is not read).
      const int col0 = tile.n * kBlockN + wn0;
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
          const uint32_t box = cs + j * kCBoxBytes;
          if (lane == 0) gs::hopper::tma_store_wait_read<1>();
          __syncwarp();
#pragma unroll
          for (int q = 0; q < kBoxCols / kMmaN; ++q) {
            const int ni = j * (kBoxCols / kMmaN) + q;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
              const int row = lane / 4 + 8 * h, c = q * kMmaN + 2 * (lane % 4);
              st_shared_f32x2(box + box_offset(row, c), g.alpha * acc[mi][ni][2 * h],
                              g.alpha * acc[mi][ni][2 * h + 1]);
            }
          }
          gs::hopper::fence_proxy_async_smem();  // each lane's stores, visible to TMA's reads
          __syncwarp();
          if (lane == 0) {
            gs::hopper::tma_store_2d(&tma_c, col0 + j * kBoxCols, row0 + mi * kMmaM, box);  // clipped at M, N
            gs::hopper::tma_store_commit();
          }
        }
      }
    } else {
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
          for (int i = 0; i < 4; ++i) checksum += acc[mi][ni][i];
        }
      }
    }
  }
  if constexpr (kEp == Epilogue::kTma) {
    if (lane == 0) gs::hopper::tma_store_wait_read<0>();  // the staging outlives TMA's reads of it
  }
  if constexpr (kEp == Epilogue::kNone) {
    if (checksum == 1234.5f) g.c[0] = checksum;  // never in practice; keeps the k-loop's sums alive
  }
#endif
}

template <Epilogue kEp>
cudaError_t launch(const gs::GemmArgs<__half, float>& g) {
  if (!supports(g.m, g.n, g.k) || (kEp == Epilogue::kTma && g.beta != 0.0f)) return cudaErrorInvalidValue;
  if (const cudaError_t e = gs::hopper::require_sm90a(); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = gs::hopper::allow_dynamic_smem(kernel<kEp>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  CUtensorMap ta, tb, tc;
  if (const cudaError_t e = gs::hopper::make_ab_maps(g, kBlockM, &ta, &tb); e != cudaSuccess) return e;
  if (const cudaError_t e = gs::hopper::make_tensor_map(&tc, g.c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, g.m, g.n,
                                                        kBoxRows, kBoxCols);
      e != cudaSuccess)
    return e;
  const int tiles = ((g.m + kBlockM - 1) / kBlockM) * ((g.n + kBlockN - 1) / kBlockN);
  const int grid = std::min(tiles, gs::hopper::sm_count());
  kernel<kEp><<<grid, kThreads, kSmemBytes>>>(ta, tb, tc, g, tiles);
  return cudaGetLastError();
}

}  // namespace tmaep

int main(int argc, char** argv) {
  proto::program = "mma_tma_epilogue";
  const proto::Options o = proto::parse(argc, argv);
  using proto::check;
  using tmaep::Epilogue;
  // Edges in every dimension, one CTA with several tiles, the timed sizes (C poisoned before each launch).
  std::vector<std::vector<int>> shapes = {{200, 264, 72}, {520, 1000, 1024}, {1000, 264, 200}, {3000, 2056, 520}};
  for (int s : o.sizes) shapes.push_back({s, s, s});
  const proto::Operands ops(shapes);
  auto args = [&](int m, int n, int k, float* out) { return gs::GemmArgs<__half, float>{m, n, k, ops.a, ops.b, out}; };
  auto rung12 = [&](int m, int n, int k, float* out) {
    return gs::mma_f16_12_persistent::launch<gs::NoProbe>(args(m, n, k, out), gs::NoProbe{}, 0);
  };
  auto rung13 = [&](int m, int n, int k, float* out) {
    return gs::mma_f16_13_stream_k::launch<gs::NoProbe>(args(m, n, k, out), gs::NoProbe{}, 0);
  };
  auto direct = [&](int m, int n, int k, float* out) { return tmaep::launch<Epilogue::kDirect>(args(m, n, k, out)); };
  auto tma = [&](int m, int n, int k, float* out) { return tmaep::launch<Epilogue::kTma>(args(m, n, k, out)); };
  auto none = [&](int m, int n, int k, float* out) { return tmaep::launch<Epilogue::kNone>(args(m, n, k, out)); };

  for (const auto& sh : shapes) {
    if (o.profile()) break;
    const int m = sh[0], n = sh[1], k = sh[2];
    const size_t cn = size_t(m) * n;
    std::vector<float> want(cn), ref(cn), got(cn);
    check(cudaMemset(ops.c2, 0xFF, cn * 4), "poison C");
    check(rung12(m, n, k, ops.c2), "rung 12");
    check(cudaMemcpy(want.data(), ops.c2, cn * 4, cudaMemcpyDeviceToHost), "C of rung 12");
    check(cudaMemset(ops.c2, 0xFF, cn * 4), "poison C");
    ops.cublas(m, n, k, ops.c2);
    check(cudaMemcpy(ref.data(), ops.c2, cn * 4, cudaMemcpyDeviceToHost), "C of cuBLAS");
    if (double(m) * n * k <= 6e8) {
      const auto [worst12, worst_cublas] = ops.against_fp64(m, n, k, want, ref);
      std::printf("%dx%dx%d against the fp64 product: rung 12 off by at most %.2e, cuBLAS by %.2e\n", m, n, k,
                  worst12, worst_cublas);
      if (!(worst12 < 1e-4)) proto::fail("rung 12 is wrong");
    }
    const char* names[] = {"direct", "tma"};
    for (int v = 0; v < 2; ++v) {
      check(cudaMemset(ops.c, 0xFF, cn * 4), "poison C");
      check(v ? tma(m, n, k, ops.c) : direct(m, n, k, ops.c), names[v]);
      check(cudaMemcpy(got.data(), ops.c, cn * 4, cudaMemcpyDeviceToHost), "C of the prototype");
      size_t diff = 0, unequal = 0;
      double worst = 0;
      for (size_t i = 0; i < cn; ++i) {
        diff += std::memcmp(&want[i], &got[i], 4) != 0;
        unequal += got[i] != ref[i];
        const double e = std::fabs(double(got[i]) - ref[i]) / (std::fabs(double(ref[i])) + std::sqrt(double(k)));
        worst = std::isnan(e) ? INFINITY : std::max(worst, e);
      }
      std::printf("%-6s %dx%dx%d: %zu of %zu elements differ from rung 12; against cuBLAS %zu differ, the largest "
                  "by %.2e\n", names[v], m, n, k, diff, cn, unequal, worst);
      if (diff || !(worst < 1e-3)) proto::fail("wrong C");
    }
  }

  const std::vector<proto::Contender> cs = {
      {"mma_f16/12", [&](int n) { check(rung12(n, n, n, ops.c), "rung 12"); }},
      {"mma_f16/13", [&](int n) { check(rung13(n, n, n, ops.c), "rung 13"); }},
      {"direct (=12)", [&](int n) { check(direct(n, n, n, ops.c), "direct"); }},
      {"tma store", [&](int n) { check(tma(n, n, n, ops.c), "tma"); }},
      {"no C (bound)", [&](int n) { check(none(n, n, n, ops.c), "none"); }},
      {"cuBLAS", [&](int n) { ops.cublas(n, n, n, ops.c); }}};
  if (o.profile()) {  // one launch of each, for Nsight Compute
    for (int n : o.sizes)
      for (const auto& c : cs) c.run(n);
    check(cudaDeviceSynchronize(), "the launches");
    return 0;
  }
  proto::time_rounds(o, cs);
  return 0;
}
