// wmma/01_naive. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::wmma_01_naive {

inline constexpr const char* kTitle = "Naive WMMA: one warp per 16x16 tile of C";
inline constexpr const char* kAdds =
    "Tensor cores through nvcuda::wmma. One warp computes one 16x16 tile of C with m16n16k16 mma_sync: 4096 "
    "multiply-adds per call, where a SIMT lane does one FMA per instruction. Fragments still come straight "
    "from global memory with no reuse between warps, so it starves for data.";

}  // namespace gs::wmma_01_naive

#include <mma.h>

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"

namespace gs::wmma_01_naive {

namespace wmma = nvcuda::wmma;

inline constexpr int kTile = 16;                 // wmma m16n16k16: one warp's tile of C, one k-step
inline constexpr int kWarpsM = 2, kWarpsN = 2;   // warps per block along M and N
inline constexpr int kBlockM = kWarpsM * kTile;  // 32 x 32 tile of C per block
inline constexpr int kBlockN = kWarpsN * kTile;
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
// load_matrix_sync reads whole 16x16 tiles from 32-byte aligned rows: no partial tiles at the edges.
inline constexpr const char* kShapeRule = "M, N and K must be multiples of 16";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kTile == 0 && n % kTile == 0 && k % kTile == 0;
}

enum Stage : int { kKLoop, kEpilogue };
inline constexpr const char* kStageNames[] = {"k-loop", "epilogue"};

// TOut is both the accumulator and C's type: float (f16.f32) or __half (f16.f16).
template <class Probe, class TOut>
__global__ void __launch_bounds__(kThreads) kernel(GemmArgs<__half, TOut> g, Probe probe) {
  const int warp = threadIdx.x / 32;
  // block (bx, by) computes the 32x32 tile (by, bx) of C; its warp w the 16x16 sub-tile
  // (w / kWarpsN, w % kWarpsN), whose top-left element of C is (row0, col0)
  const int row0 = (blockIdx.y * kWarpsM + warp / kWarpsN) * kTile;
  const int col0 = (blockIdx.x * kWarpsN + warp % kWarpsN) * kTile;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // Warp-uniform: with M or N an odd multiple of 16 an edge block has warps past C. They skip the
  // whole body, as mma_sync needs all 32 lanes of a warp or none.
  if (row0 < g.m && col0 < g.n) {
    GS_PROBE(probe.stage(kKLoop));
    wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> acc;
    wmma::fill_fragment(acc, from_float<TOut>(0.0f));
    // Step: one warp, one 16x16 tile of C: load_matrix_sync reads A and B from global memory, mma_sync multiplies.
    for (int kk = 0; kk < g.k; kk += kTile) {
      // A[row0 .. +16)[kk .. +16), leading dimension K; B[kk .. +16)[col0 .. +16), leading dimension N.
      // Not traced: wmma hides which lane loads which elements, and how many bytes each of its loads moves.
      wmma::load_matrix_sync(a, g.a + static_cast<size_t>(row0) * g.k + kk, g.k);
      wmma::load_matrix_sync(b, g.b + static_cast<size_t>(kk) * g.n + col0, g.n);
      wmma::mma_sync(acc, a, b, acc);
    }

    GS_PROBE(probe.stage(kEpilogue));
    TOut* c = g.c + static_cast<size_t>(row0) * g.n + col0;
    // Slot i of two accumulator fragments with the same layout holds the same element of C, so
    // alpha and beta apply slot by slot without knowing wmma's (unspecified) lane mapping.
    if (g.beta == 0.0f) {  // BLAS: C is never read
      for (int i = 0; i < acc.num_elements; ++i) acc.x[i] = from_float<TOut>(g.alpha * to_float(acc.x[i]));
    } else {
      wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> old;
      // Not traced (C's read, as the loads of A and B above): wmma hides the lanes' addresses.
      wmma::load_matrix_sync(old, c, g.n, wmma::mem_row_major);
      for (int i = 0; i < acc.num_elements; ++i) {
        acc.x[i] = from_float<TOut>(g.alpha * to_float(acc.x[i]) + g.beta * to_float(old.x[i]));
      }
    }
    // Not traced: wmma hides which lane stores which element, and how many bytes each store moves.
    wmma::store_matrix_sync(c, acc, g.n, wmma::mem_row_major);
  }
  GS_PROBE(probe.block_end());
}

template <class Probe, class TOut>
cudaError_t launch(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  // one block per 32x32 tile of C: grid x walks tile columns, grid y tile rows (row-major raster)
  const dim3 grid((g.n + kBlockN - 1) / kBlockN, (g.m + kBlockM - 1) / kBlockM);
  kernel<Probe, TOut><<<grid, kThreads, 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::wmma_01_naive
