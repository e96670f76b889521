// mma_tf32/10_multistage: 09 with a 4-stage cp.async pipeline: slice k+3 is requested while slice k is
// computed, so three slices of math (not one) cover each load's latency from L2 or DRAM. It also runs any
// shape: zero-filled copies past the edges of A and B, a guarded epilogue, 4-byte copies for unaligned rows.
#pragma once

#include <cstdint>

#include "kernels/gemm_args.cuh"
#include "kernels/mma_tf32/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_tf32_10_multistage {

using namespace gs::mma_tf32;

inline constexpr int kBM = 256, kBN = 128;          // tile of C per block
inline constexpr int kBK = 32;                      // k-slice of A and B per stage
inline constexpr int kWarpsM = 4, kWarpsN = 2;      // warp grid over the block tile
inline constexpr int kWM = kBM / kWarpsM;           // 64 x 64 tile of C per warp
inline constexpr int kWN = kBN / kWarpsN;
inline constexpr int kTilesM = kWM / 16;            // 4 x 8 mma tiles of 16x8 per warp
inline constexpr int kTilesN = kWN / 8;
inline constexpr int kSteps = kBK / 8;              // 4 mma k-steps per k-slice
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kStages = 4;                   // slices in flight + the one being read
// XOR-permuted, unpadded stages exactly as in 09:
//   As word (m, k) at m * BK + (k ^ 4 (m % 8)), Bs word (k, n) at k * BN + (n ^ 8 (k % 4))
inline constexpr int kAsFloats = kBM * kBK;         // one stage: As (BM, BK) then Bs (BK, BN)
inline constexpr int kStageFloats = kAsFloats + kBK * kBN;
inline constexpr int kSmemBytes = kStages * kStageFloats * 4;  // 196608 of the 227 KB a block may have
inline constexpr int kMaxLogTile = 4;               // cutlass:4 swizzle as in 07
// Any shape. Fast path when K and N are multiples of 4 and A, B are 16-byte aligned (then every 16-byte
// chunk of a row is wholly inside or wholly outside the matrix); otherwise 4-byte copies, same layout.
inline constexpr const char* kShapeRule = "";
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kPrologue, kKLoop, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "k-loop", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As cp.async", "Bs cp.async", "As ldmatrix (frag)", "Bs load (frag)"};

// What one thread copies of every slice, fixed for the block.
struct CopyPlan {
  const float* a_src;  // kVec: its A chunk 0 of slice 0 (row tile_m * BM + tid / 8, column a_col);
                       // chunk i is 32 i rows down, slice kt BK further right
  const float* b_src;  // kVec: its B chunk 0 of slice 0 (row tid / 32, column tile_n * BN + tid % 32 * 4);
                       // chunk i is 8 i rows down, slice kt BK rows further down
  int a_col, b_row0;   // slice column of its A chunks; slice row of its B chunk 0
  unsigned in_mn;      // bit i < 8: A chunk i's row < M; bit 8: its B column < N
  int as_dst, bs_dst;  // its chunk 0 in a stage, permuted
};

// Issues (does not wait for) the copy of slice kt into one stage. Anything outside A or B is zero-filled:
// rows past M or columns past N give C elements the epilogue drops, and k past K adds 0 * 0.
// kVec: 8 + 4 chunks of 16 bytes per thread, coalesced rows, conflict-free stores (09).
// !kVec: the same slice in 4-byte copies, 32 of A and 16 of B per thread; a warp copies one 128-byte row
// of A or a 32-float run of a B row. Slow, but only unaligned shapes take it.
template <bool kVec, class Probe>
__device__ __forceinline__ void load_slice(const GemmArgs<float, float>& g, const CopyPlan& cp, int kt, float* stage,
                                           int tile_m, int tile_n, int tid, Probe& probe) {
  const int k0 = kt * kBK;  // first k of the slice
  if constexpr (kVec) {
    const bool a_k_ok = k0 + cp.a_col < g.k;  // K % 4 == 0: the chunk is wholly inside or outside
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      float* as = stage + cp.as_dst + i * 32 * kBK;  // 32 rows further down, same m % 8
      const bool ok = a_k_ok && (cp.in_mn >> i & 1u);
      cp_async_16_zfill(as, ok ? cp.a_src + k0 + static_cast<size_t>(i * 32) * g.k : g.a, ok);
      GS_PROBE(probe.smem(kAsCopy, as, 16, SmemKind::kCpAsync));
    }
    const bool b_n_ok = cp.in_mn >> 8 & 1u;  // N % 4 == 0: likewise
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      float* bs = stage + cp.bs_dst + i * 8 * kBN;  // 8 rows further down, same k % 4
      const bool ok = b_n_ok && k0 + cp.b_row0 + 8 * i < g.k;
      cp_async_16_zfill(bs, ok ? cp.b_src + static_cast<size_t>(k0 + 8 * i) * g.n : g.b, ok);
      GS_PROBE(probe.smem(kBsCopy, bs, 16, SmemKind::kCpAsync));
    }
  } else {
    const int a_c = tid % 32;                              // slice column; rows tid / 32 + 8 j
    const int a_r0 = tid / 32;
    const bool a_k_ok = k0 + a_c < g.k;
    const float* a = g.a + static_cast<size_t>(tile_m) * kBM * g.k + k0 + a_c;  // A(tile row 0, k0 + a_c)
    float* as = stage + a_r0 * kBK + (a_c ^ a_r0 % 8 * 4);  // (r % 8 is a_r0 % 8 for every j)
#pragma unroll 1
    for (int j = 0; j < kBM / 8; ++j) {
      const int r = a_r0 + 8 * j;
      const bool ok = a_k_ok && tile_m * kBM + r < g.m;
      cp_async_4_zfill(as + 8 * j * kBK, ok ? a + static_cast<size_t>(r) * g.k : g.a, ok);
      GS_PROBE(probe.smem(kAsCopy, as + 8 * j * kBK, 4, SmemKind::kCpAsync));
    }
    const int b_c = tid % kBN;                             // tile column; slice rows tid / 128 + 2 j
    const int b_r0 = tid / kBN;
    const bool b_n_ok = tile_n * kBN + b_c < g.n;
    const float* b = g.b + static_cast<size_t>(k0) * g.n + tile_n * kBN + b_c;  // B(k0, column)
#pragma unroll 1
    for (int j = 0; j < kBK / 2; ++j) {
      const int r = b_r0 + 2 * j;
      const bool ok = b_n_ok && k0 + r < g.k;
      float* bs = stage + kAsFloats + r * kBN + (b_c ^ r % 4 * 8);
      cp_async_4_zfill(bs, ok ? b + static_cast<size_t>(r) * g.n : g.b, ok);
      GS_PROBE(probe.smem(kBsCopy, bs, 4, SmemKind::kCpAsync));
    }
  }
}

// One k-step's fragments of the warp: 4 A (16x8) and 8 B (8x8), tf32 bits.
struct Frags {
  uint32_t a[kTilesM][4];
  uint32_t b[kTilesN][2];
};

// As in 09: A by ldmatrix.x4 (a_row: the lane's ldmatrix row of mi 0; a_x = its m % 8; a_h = its k half),
// B by LDS.32 (b_lane: its b_0 of k-step 0 before the permutation, which moves group ni to ni ^ tc).
template <class Probe>
__device__ __forceinline__ void load_frags(Frags& f, const float* stage, int a_row, int a_x, int a_h, int b_lane,
                                           int tc, int ks, Probe& probe) {
#pragma unroll
  for (int mi = 0; mi < kTilesM; ++mi) {
    const float* p = stage + a_row + mi * 16 * kBK + ((2 * ks + a_h) ^ a_x) * 4;
    uint32_t r[4];
    ldmatrix_x4(r, p);
    GS_PROBE(probe.smem(kAsFrag, p, 16, SmemKind::kLdmatrix));
#pragma unroll
    for (int i = 0; i < 4; ++i) f.a[mi][i] = to_tf32(r[i]);
  }
#pragma unroll
  for (int ni = 0; ni < kTilesN; ++ni) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const float* p = stage + b_lane + (ks * 8 + 4 * i) * kBN + 8 * (ni ^ tc);  // B(tc + 4i, gr) of group ni
      f.b[ni][i] = to_tf32(*p);
      GS_PROBE(probe.smem(kBsFrag, p, 4, SmemKind::kLoad));
    }
  }
}

__device__ __forceinline__ void mma_all(float (&acc)[kTilesM][kTilesN][4], const Frags& f) {
#pragma unroll
  for (int mi = 0; mi < kTilesM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kTilesN; ++ni) mma_m16n8k8(acc[mi][ni], f.a[mi], f.b[ni]);
  }
}

template <class Probe, bool kVec>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<float, float> g, int log_tile, Probe probe) {
  extern __shared__ __align__(16) float smem[];  // kStages x [As | Bs]

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gr = lane / 4, tc = lane % 4;  // PTX groupID and threadID_in_group (common.cuh)
  const int wm0 = warp / kWarpsN * kWM;    // warp's tile inside the block tile: rows wm0.., cols wn0..
  const int wn0 = warp % kWarpsN * kWN;
  // cutlass:L swizzle (07); partial tiles at the bottom and right edges are tiles like any other.
  const int tile_m = blockIdx.x >> log_tile;
  const int tile_n = (blockIdx.y << log_tile) + (blockIdx.x & ((1 << log_tile) - 1));
  if (tile_n * kBN >= g.n) return;  // the last band overhangs C: this block has no tile (whole block exits)
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  CopyPlan cp;
  cp.a_col = tid % 8 * 4;
  cp.b_row0 = tid / 32;
  const int a_row0 = tile_m * kBM + tid / 8, b_col = tile_n * kBN + tid % 32 * 4;
  cp.a_src = g.a + static_cast<size_t>(a_row0) * g.k + cp.a_col;  // only dereferenced when in bounds
  cp.b_src = g.b + static_cast<size_t>(cp.b_row0) * g.n + b_col;
  cp.in_mn = b_col < g.n ? 1u << 8 : 0u;
#pragma unroll
  for (int i = 0; i < 8; ++i) cp.in_mn |= a_row0 + 32 * i < g.m ? 1u << i : 0u;
  cp.as_dst = tid / 8 * kBK + (tid % 8 ^ tid / 8 % 8) * 4;                    // chunk ^ (m % 8)
  cp.bs_dst = kAsFloats + tid / 32 * kBN + (tid % 32 ^ tid / 32 % 4 * 2) * 4;  // chunk ^ 2 (k % 4)
  const int a_row = (wm0 + lane % 8 + lane / 8 % 2 * 8) * kBK;  // row l % 8 of quarter l / 8
  const int a_x = lane % 8, a_h = lane / 16;
  const int b_lane = kAsFloats + tc * kBN + wn0 + gr;
  const int num_kt = (g.k + kBK - 1) / kBK;  // the last slice may be partial: zero-filled

  float acc[kTilesM][kTilesN][4] = {};
  Frags frag[2];  // frag[ks % 2] feeds the mma of k-step ks while frag[(ks + 1) % 2] loads

  // Prologue: slices 0 .. S-2 in flight, one commit group each (empty past the last slice, so that
  // "group j holds slice j" stays true and the wait count below is the same for every iteration).
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < num_kt) load_slice<kVec>(g, cp, s, smem + s * kStageFloats, tile_m, tile_n, tid, probe);
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();  // group 0 (slice 0) complete; S-2 younger groups may still fly
  __syncthreads();
  load_frags(frag[0], smem, a_row, a_x, a_h, b_lane, tc, 0, probe);

  GS_PROBE(probe.stage(kKLoop));
  int rd = 0;  // stage holding slice kt (kt % S); slice kt + S - 1 goes to the one before it
  for (int kt = 0; kt < num_kt; ++kt) {
    GS_PROBE(probe.iteration(kt));
#pragma unroll
    for (int ks = 0; ks < kSteps; ++ks) {
      if (ks == kSteps - 1) {
        // The last k-step reads fragments of slice kt + 1. Committed so far: S - 1 + (kt + 1) groups,
        // the youngest holding slice kt + S - 1; letting S - 2 stay in flight completes slice kt + 1.
        // The barrier publishes every thread's copies and marks slice kt as fully read.
        cp_async_wait<kStages - 2>();
        __syncthreads();
        rd = rd + 1 == kStages ? 0 : rd + 1;
      }
      load_frags(frag[(ks + 1) % 2], smem + rd * kStageFloats, a_row, a_x, a_h, b_lane, tc, (ks + 1) % kSteps,
                 probe);
      if (ks == 0) {
        // Stage (kt - 1) % S held slice kt - 1, last read before the previous iteration's barrier.
        const int wr = rd == 0 ? kStages - 1 : rd - 1;
        if (kt + kStages - 1 < num_kt) {
          load_slice<kVec>(g, cp, kt + kStages - 1, smem + wr * kStageFloats, tile_m, tile_n, tid, probe);
        }
        cp_async_commit();
      }
      mma_all(acc, frag[ks % 2]);
    }
  }
  cp_async_wait<0>();  // only empty groups remain; nothing may be in flight when the block exits

  GS_PROBE(probe.stage(kEpilogue));
  const int row0 = tile_m * kBM + wm0 + gr;      // c0, c1 of tile (mi, ni): row0 + 16 mi
  const int col0 = tile_n * kBN + wn0 + 2 * tc;  // columns col0 + 8 ni, +1; c2, c3 eight rows down
#pragma unroll
  for (int mi = 0; mi < kTilesM; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kTilesN; ++ni) {
      store_c2_guarded(g, row0 + mi * 16, col0 + ni * 8, acc[mi][ni][0], acc[mi][ni][1]);
      store_c2_guarded(g, row0 + mi * 16 + 8, col0 + ni * 8, acc[mi][ni][2], acc[mi][ni][3]);
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe, bool kVec>
cudaError_t launch_as(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // Above 48 KB of dynamic shared memory a kernel must opt in, once per instantiation.
  static const cudaError_t opt_in =
      cudaFuncSetAttribute(kernel<Probe, kVec>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  if (opt_in != cudaSuccess) return opt_in;
  const int tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN;
  const int log_tile = swizzle_log_tile(tiles_n, kMaxLogTile);
  const dim3 grid(tiles_m << log_tile, (tiles_n + (1 << log_tile) - 1) >> log_tile);  // cutlass:L grid
  kernel<Probe, kVec><<<grid, kThreads, kSmemBytes, stream>>>(g, log_tile, probe);
  return cudaGetLastError();
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  const bool aligned = reinterpret_cast<uintptr_t>(g.a) % 16 == 0 && reinterpret_cast<uintptr_t>(g.b) % 16 == 0;
  if (aligned && g.k % 4 == 0 && g.n % 4 == 0) return launch_as<Probe, true>(g, probe, stream);
  return launch_as<Probe, false>(g, probe, stream);
}

}  // namespace gs::mma_tf32_10_multistage
