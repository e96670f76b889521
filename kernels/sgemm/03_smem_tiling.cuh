// sgemm/03_smem_tiling. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_03_smem_tiling {

inline constexpr const char* kTitle = "Shared-memory tiles: 32x32 tiles of A and B";
inline constexpr const char* kAdds =
    "The block stages 32x32 tiles of A and B through shared memory, each element read from global memory once "
    "per block instead of once per thread that needs it (32x less traffic). Every multiply-add still reads two "
    "values from shared memory (1.25 load instructions: the compiler reads four of A's at once, a broadcast "
    "16-byte load), so shared-memory bandwidth now bounds it.";

}  // namespace gs::sgemm_03_smem_tiling

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_03_smem_tiling {

inline constexpr int kTile = 32;  // 32 x 32 tile of C per block, k-tiles of 32; one thread per element
inline constexpr int kThreads = kTile * kTile;
inline constexpr const char* kShapeRule = "";  // any M, N, K: tile loads outside the matrices read 0
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load tile", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As store", "Bs store", "As load", "Bs load"};

template <class Probe>
__global__ void __launch_bounds__(kThreads) kernel(GemmArgs<float, float> g, Probe probe) {
  __shared__ float As[kTile][kTile];  // (BM, BK) tile of A, row-major
  __shared__ float Bs[kTile][kTile];  // (BK, BN) tile of B, row-major

  const int tx = threadIdx.x, ty = threadIdx.y;  // a warp is one ty and 32 consecutive tx
  const int row = blockIdx.y * kTile + ty;       // this thread's element of C: (row, col)
  const int col = blockIdx.x * kTile + tx;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // Each thread fetches one element of each tile: A[row][k0 + tx] (a warp reads 128 contiguous bytes
  // of one row of A) and B[k0 + ty][col] (128 contiguous bytes of one row of B). Rows past M and
  // columns past N still load (zeros) and reach every barrier; only their stores are masked.
  const bool row_in = row < g.m, col_in = col < g.n;
  const float* a = g.a + static_cast<size_t>(row_in ? row : 0) * g.k + tx;  // A[row][tx + k0], row clamped
  const float* b = g.b + static_cast<size_t>(ty) * g.n + (col_in ? col : 0);  // B[ty + k0][col], col clamped

  float acc = 0.0f;
  for (int k0 = 0, kt = 0; k0 < g.k; k0 += kTile, ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
    // lanes outside A or B load nothing (0 bytes): the conditional below predicates their load off
    GS_PROBE(probe.gmem(kGmemA, a + k0, row_in && k0 + tx < g.k ? 4 : 0, GmemKind::kLoad));
    GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(k0) * g.n, col_in && k0 + ty < g.k ? 4 : 0, GmemKind::kLoad));
    As[ty][tx] = row_in && k0 + tx < g.k ? a[k0] : 0.0f;
    Bs[ty][tx] = col_in && k0 + ty < g.k ? b[static_cast<size_t>(k0) * g.n] : 0.0f;
    GS_PROBE(probe.smem(kAsStore, &As[ty][tx], 4, SmemKind::kStore));  // 32 consecutive words: no conflict
    GS_PROBE(probe.smem(kBsStore, &Bs[ty][tx], 4, SmemKind::kStore));
    __syncthreads();  // the tiles are complete before anyone reads them
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
    // Per kk: As[ty][kk] is one word for the whole warp (broadcast), Bs[kk][tx] 32 consecutive words. The
    // compiler reads four consecutive kk of As at once (one LDS.128 of 16 bytes the whole warp shares, in the
    // SASS and in Nsight Compute's counts, bench/NOTES.md): the probe records the instructions that run.
#pragma unroll
    for (int kk = 0; kk < kTile; kk += 4) GS_PROBE(probe.smem(kAsLoad, &As[ty][kk], 16, SmemKind::kLoad));
#pragma unroll
    for (int kk = 0; kk < kTile; ++kk) GS_PROBE(probe.smem(kBsLoad, &Bs[kk][tx], 4, SmemKind::kLoad));
#pragma unroll
    for (int kk = 0; kk < kTile; ++kk) acc += As[ty][kk] * Bs[kk][tx];
    __syncthreads();  // everyone is done with the tiles before the next iteration overwrites them
    GS_PROBE(probe.mark(Mark::kBarrier));
  }

  GS_PROBE(probe.stage(kEpilogue));
  if (row_in && col_in) sgemm_common::store_c(g.c + static_cast<size_t>(row) * g.n + col, acc, g.alpha, g.beta, probe);
  GS_PROBE(probe.block_end());
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // grid x covers the columns of C, grid y its rows: ceil(N/32) x ceil(M/32) blocks
  const dim3 grid((g.n + kTile - 1) / kTile, (g.m + kTile - 1) / kTile);
  kernel<Probe><<<grid, dim3(kTile, kTile), 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::sgemm_03_smem_tiling
