// sgemm/01_naive. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_01_naive {

inline constexpr const char* kTitle = "Naive: one thread per output element";
inline constexpr const char* kAdds =
    "The baseline. One thread computes one element of C from its row of A and column of B, straight from "
    "global memory. Lanes of a warp take consecutive rows, so loads of A and stores of C stride by whole rows "
    "(uncoalesced) and nothing is reused between threads: the next rungs fix that.";

}  // namespace gs::sgemm_01_naive

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"

namespace gs::sgemm_01_naive {

inline constexpr int kBlock = 32;  // 32 x 32 threads per block, one per element of a 32 x 32 tile of C
inline constexpr int kThreads = kBlock * kBlock;
inline constexpr const char* kShapeRule = "";  // any M, N, K: edge threads are masked
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kKLoop, kEpilogue };
inline constexpr const char* kStageNames[] = {"k-loop", "epilogue"};

template <class Probe>
__global__ void __launch_bounds__(kThreads) kernel(GemmArgs<float, float> g, Probe probe) {
  // one thread computes one C element: (row, col). threadIdx.x, the index that varies fastest inside
  // a warp, walks rows: lane i reads row + i of A (32 rows, 32 transactions) and B[k][col] (one word)
  const int row = blockIdx.x * kBlock + threadIdx.x;
  const int col = blockIdx.y * kBlock + threadIdx.y;
  GS_PROBE(probe.block_begin(blockIdx.x, blockIdx.y));  // block (bx, by) computes tile row bx, col by
  // Edge blocks overhang C when M or N is not a multiple of 32. Lane 0 has the warp's smallest row,
  // so it is inside whenever any lane is: the probe's lane-0 stamps below stay meaningful.
  const bool inside = row < g.m && col < g.n;

  GS_PROBE(probe.stage(kKLoop));
  // Step: one thread, one element of C: the dot product of a row of A and a column of B, read from global memory.
  float acc = 0.0f;
  if (inside) {
    const float* a = g.a + static_cast<size_t>(row) * g.k;  // A[row][0..K)
    const float* b = g.b + col;                              // B[0..K)[col], stride N
    for (int kk = 0; kk < g.k; ++kk, b += g.n) {
      GS_PROBE(probe.gmem(kGmemA, a + kk, 4, GmemKind::kLoad));  // lanes a whole row of A apart
      GS_PROBE(probe.gmem(kGmemB, b, 4, GmemKind::kLoad));       // one word for the whole warp
      acc += a[kk] * *b;
    }
  }

  GS_PROBE(probe.stage(kEpilogue));
  if (inside) {
    float* c = g.c + static_cast<size_t>(row) * g.n + col;
    if (g.beta == 0.0f) {
      GS_PROBE(probe.gmem(kGmemC, c, 4, GmemKind::kStore));
      *c = g.alpha * acc;  // BLAS: beta == 0 means C may hold anything, NaN included; never read it
    } else {
      GS_PROBE(probe.gmem(kGmemC, c, 4, GmemKind::kLoad));
      GS_PROBE(probe.gmem(kGmemC, c, 4, GmemKind::kStore));
      *c = g.alpha * acc + g.beta * *c;
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // grid x covers the rows of C, grid y its columns: ceil(M/32) x ceil(N/32) blocks
  const dim3 grid((g.m + kBlock - 1) / kBlock, (g.n + kBlock - 1) / kBlock);
  kernel<Probe><<<grid, dim3(kBlock, kBlock), 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::sgemm_01_naive
