// sgemm/04_blocktile_1d. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_04_blocktile_1d {

inline constexpr const char* kTitle = "1D block tiling: 8 results per thread";
inline constexpr const char* kAdds =
    "Each thread computes a column of 8 results (TM = 8) of a 64x64 block tile. The value of B it loads from "
    "shared memory now feeds 8 multiply-adds instead of 1, so shared-memory traffic per FMA drops "
    "several-fold; the 8 partial sums stay in registers.";

}  // namespace gs::sgemm_04_blocktile_1d

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_04_blocktile_1d {

inline constexpr int kBM = 64, kBN = 64, kBK = 8;  // block tile of C, and the k-tile
inline constexpr int kTM = 8;                       // results per thread, down one column of C
inline constexpr int kThreads = kBM * kBN / kTM;    // 512
static_assert(kThreads == kBM * kBK && kThreads == kBK * kBN, "one element of each tile per thread");
inline constexpr const char* kShapeRule = "";  // any M, N, K: tile loads outside the matrices read 0
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load tile", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As store", "Bs store", "As load", "Bs load"};

template <class Probe>
__global__ void __launch_bounds__(kThreads) kernel(GemmArgs<float, float> g, Probe probe) {
  __shared__ float As[kBM][kBK];  // (BM, BK) tile of A, row-major
  __shared__ float Bs[kBK][kBN];  // (BK, BN) tile of B, row-major

  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;  // the block's tile of C starts at (m0, n0)
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // Step: 8 results a thread (TM = 8), so one B value read from shared memory feeds 8 FMAs.
  // Computing role: column tc of the tile, rows tr*8 .. +8. A warp is 32 consecutive columns of one
  // tr, so As[tr*8 + i][kk] is the same word for all lanes (broadcast) and Bs[kk][tc] 32 consecutive.
  const int tc = tid % kBN, tr = tid / kBN;
  // Loading role: As[ar][ac] = A[m0 + ar][k0 + ac] (a warp reads 4 rows x 32 bytes of A) and
  // Bs[br][bc] = B[k0 + br][n0 + bc] (a warp reads 128 contiguous bytes of one row of B).
  const int ar = tid / kBK, ac = tid % kBK;
  const int br = tid / kBN, bc = tid % kBN;
  const bool a_in = m0 + ar < g.m, b_in = n0 + bc < g.n;
  const float* a = g.a + static_cast<size_t>(a_in ? m0 + ar : 0) * g.k + ac;  // A[m0 + ar][ac + k0], row clamped
  const float* b = g.b + static_cast<size_t>(br) * g.n + (b_in ? n0 + bc : 0);  // B[br + k0][n0 + bc], col clamped

  float acc[kTM] = {};
  for (int k0 = 0, kt = 0; k0 < g.k; k0 += kBK, ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
    GS_PROBE(probe.gmem(kGmemA, a + k0, a_in && k0 + ac < g.k ? 4 : 0, GmemKind::kLoad));  // 0: predicated off
    GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(k0) * g.n, b_in && k0 + br < g.k ? 4 : 0, GmemKind::kLoad));
    As[ar][ac] = a_in && k0 + ac < g.k ? a[k0] : 0.0f;
    Bs[br][bc] = b_in && k0 + br < g.k ? b[static_cast<size_t>(k0) * g.n] : 0.0f;
    GS_PROBE(probe.smem(kAsStore, &As[ar][ac], 4, SmemKind::kStore));  // 32 consecutive words: no conflict
    GS_PROBE(probe.smem(kBsStore, &Bs[br][bc], 4, SmemKind::kStore));
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
    // What runs per k-tile (SASS, bench/NOTES.md): one LDS of Bs per kk, and As[tr*8 + i][kk .. kk+3] as one
    // LDS.128 per row and four kk (the compiler joins them; the warp shares the 16 bytes).
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) GS_PROBE(probe.smem(kBsLoad, &Bs[kk][tc], 4, SmemKind::kLoad));
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
#pragma unroll
      for (int kk = 0; kk < kBK; kk += 4) GS_PROBE(probe.smem(kAsLoad, &As[tr * kTM + i][kk], 16, SmemKind::kLoad));
    }
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      const float bv = Bs[kk][tc];  // one shared load of B, reused by the 8 results below
#pragma unroll
      for (int i = 0; i < kTM; ++i) acc[i] += As[tr * kTM + i][kk] * bv;
    }
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));
  }

  GS_PROBE(probe.stage(kEpilogue));
  const int col = n0 + tc;
  if (col < g.n) {
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
      const int row = m0 + tr * kTM + i;
      if (row < g.m) sgemm_common::store_c(g.c + static_cast<size_t>(row) * g.n + col, acc[i], g.alpha, g.beta, probe);
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // grid x covers the columns of C, grid y its rows: ceil(N/64) x ceil(M/64) blocks
  const dim3 grid((g.n + kBN - 1) / kBN, (g.m + kBM - 1) / kBM);
  kernel<Probe><<<grid, kThreads, 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::sgemm_04_blocktile_1d
