// sgemm/02_gmem_coalesce. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_02_gmem_coalesce {

inline constexpr const char* kTitle = "Coalesced: a warp walks a row of C";
inline constexpr const char* kAdds =
    "The same work per thread as 01, but the lanes of a warp take consecutive columns of C. Each load of B and "
    "each store of C is then one 128-byte line per warp (coalesced), and all 32 lanes read the same element of "
    "A (one broadcast): far fewer memory transactions.";

}  // namespace gs::sgemm_02_gmem_coalesce

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_02_gmem_coalesce {

inline constexpr int kBlock = 32;  // 32 x 32 threads per block, one per element of a 32 x 32 tile of C
inline constexpr int kThreads = kBlock * kBlock;
inline constexpr const char* kShapeRule = "";  // any M, N, K: edge threads are masked
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kKLoop, kEpilogue };
inline constexpr const char* kStageNames[] = {"k-loop", "epilogue"};

template <class Probe>
__global__ void __launch_bounds__(kThreads) kernel(GemmArgs<float, float> g, Probe probe) {
  // threadIdx.x, the index that varies fastest inside a warp, now walks columns: a warp is 32
  // consecutive columns of one row. Lane i reads B[k][col0 + i] (one line) and A[row][k] (one word).
  const int col = blockIdx.x * kBlock + threadIdx.x;
  const int row = blockIdx.y * kBlock + threadIdx.y;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));  // block (bx, by) computes tile row by, col bx
  // Lane 0 has the warp's smallest column and the warp shares one row, so lane 0 is inside whenever
  // any lane is: the probe's lane-0 stamps stay meaningful in edge blocks.
  const bool inside = row < g.m && col < g.n;

  GS_PROBE(probe.stage(kKLoop));
  float acc = 0.0f;
  if (inside) {
    const float* a = g.a + static_cast<size_t>(row) * g.k;  // A[row][0..K): the same word for all lanes
    const float* b = g.b + col;                              // B[0..K)[col]: lanes contiguous, stride N
    for (int kk = 0; kk < g.k; ++kk, b += g.n) {
      GS_PROBE(probe.gmem(kGmemA, a + kk, 4, GmemKind::kLoad));  // one word for the whole warp
      GS_PROBE(probe.gmem(kGmemB, b, 4, GmemKind::kLoad));       // 32 consecutive words
      acc += a[kk] * *b;
    }
  }

  GS_PROBE(probe.stage(kEpilogue));
  if (inside) sgemm_common::store_c(g.c + static_cast<size_t>(row) * g.n + col, acc, g.alpha, g.beta, probe);
  GS_PROBE(probe.block_end());
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // grid x covers the columns of C, grid y its rows: ceil(N/32) x ceil(M/32) blocks
  const dim3 grid((g.n + kBlock - 1) / kBlock, (g.m + kBlock - 1) / kBlock);
  kernel<Probe><<<grid, dim3(kBlock, kBlock), 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::sgemm_02_gmem_coalesce
