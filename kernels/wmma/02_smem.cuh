// wmma/02_smem. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::wmma_02_smem {

inline constexpr const char* kTitle = "Shared memory: 8 warps share staged A and B tiles";
inline constexpr const char* kAdds =
    "The block's 8 warps (2x4) stage a 32x32 tile of A and a 32x64 tile of B in shared memory with 16-byte "
    "loads and read their fragments from there: each A fragment serves the 4 warps of its row and each B "
    "fragment the 2 of its column, where 01 fetched every fragment from global.";

}  // namespace gs::wmma_02_smem

#include <mma.h>

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/wmma/common.cuh"

namespace gs::wmma_02_smem {

namespace wmma = nvcuda::wmma;
using wmma_common::kTile;

inline constexpr int kWarpsM = 2, kWarpsN = 4;   // warps per block along M and N, one 16x16 tile each
inline constexpr int kBlockM = kWarpsM * kTile;  // 32 x 64 tile of C per block
inline constexpr int kBlockN = kWarpsN * kTile;
inline constexpr int kBlockK = 32;               // k-depth of one shared tile: two mma_sync k-steps
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
// Whole block tiles only: no edge predication, and 16-byte loads need K and N multiples of 8.
inline constexpr const char* kShapeRule = "M must be a multiple of 32, N of 64 and K of 32";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBlockM == 0 && n % kBlockN == 0 && k % kBlockK == 0;
}

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As store", "Bs store", "As load (frag)", "Bs load (frag)"};

// TOut is both the accumulator and C's type: float (f16.f32) or __half (f16.f16).
template <class Probe, class TOut>
__global__ void __launch_bounds__(kThreads) kernel(GemmArgs<__half, TOut> g, Probe probe) {
  // No padding yet: a row of As is 64 B and of Bs 128 B, so the 8 rows of each 8x8 matrix that
  // ldmatrix reads share banks (As 4-way, Bs 8-way conflicts; 05 fixes this).
  __shared__ __align__(128) __half As[kBlockM * kBlockK];  // (32, 32) tile of A, row-major
  __shared__ __align__(128) __half Bs[kBlockK * kBlockN];  // (32, 64) tile of B, row-major

  const int tid = threadIdx.x, warp = tid / 32;
  [[maybe_unused]] const int lane = tid % 32;  // only the probes use it
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;  // this warp's 16x16 tile within the block tile
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  const __half* a = g.a + static_cast<size_t>(blockIdx.y) * kBlockM * g.k;  // A[by * 32 ..][0 ..]
  const __half* b = g.b + blockIdx.x * kBlockN;                              // B[0 ..][bx * 64 ..]
  // One 16-byte chunk (8 halves) per copy. As: 32 rows x 4 chunks = 128, taken by threads 0-127
  // (warps 0-3: warp-uniform); Bs: 32 rows x 8 chunks = 256, one per thread. Consecutive threads
  // take consecutive chunks of a row: coalesced global loads and conflict-free shared stores.
  const int a_row = tid / (kBlockK / 8), a_col = tid % (kBlockK / 8) * 8;  // (row, col) of the As chunk
  const int b_row = tid / (kBlockN / 8), b_col = tid % (kBlockN / 8) * 8;  // (row, col) of the Bs chunk
  const bool loads_a = tid < kBlockM * kBlockK / 8;

  wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> acc;
  wmma::fill_fragment(acc, from_float<TOut>(0.0f));

  for (int kt = 0; kt < g.k / kBlockK; ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
    const int k0 = kt * kBlockK;
    if (loads_a) {
      const __half* src = a + static_cast<size_t>(a_row) * g.k + k0 + a_col;  // A[by*32 + a_row][k0 + a_col]
      __half* dst = &As[a_row * kBlockK + a_col];
      GS_PROBE(probe.gmem(kGmemA, src, 16, GmemKind::kLoad));
      *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
      GS_PROBE(probe.smem(kAsStore, dst, 16, SmemKind::kStore));
    }
    {
      const __half* src = b + static_cast<size_t>(k0 + b_row) * g.n + b_col;  // B[k0 + b_row][bx*64 + b_col]
      __half* dst = &Bs[b_row * kBlockN + b_col];
      GS_PROBE(probe.gmem(kGmemB, src, 16, GmemKind::kLoad));
      *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
      GS_PROBE(probe.smem(kBsStore, dst, 16, SmemKind::kStore));
    }
    __syncthreads();  // the tiles are complete before any warp reads a fragment
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
#pragma unroll
    for (int kk = 0; kk < kBlockK; kk += kTile) {
      const __half* as = &As[wm * kTile * kBlockK + kk];  // A rows wm*16 .. +16, cols kk .. +16 of the tile
      const __half* bs = &Bs[kk * kBlockN + wn * kTile];  // B rows kk .. +16, cols wn*16 .. +16
      GS_PROBE(probe.smem(kAsLoad, wmma_common::ldsm_row(as, kBlockK, lane), 16, SmemKind::kLdmatrix));
      wmma::load_matrix_sync(fa, as, kBlockK);
      GS_PROBE(probe.smem(kBsLoad, wmma_common::ldsm_row(bs, kBlockN, lane), 16, SmemKind::kLdmatrix));
      wmma::load_matrix_sync(fb, bs, kBlockN);
      wmma::mma_sync(acc, fa, fb, acc);
    }
    __syncthreads();  // every warp is done with the tiles before the next iteration overwrites them
    GS_PROBE(probe.mark(Mark::kBarrier));
  }

  GS_PROBE(probe.stage(kEpilogue));
  // Straight from the fragment to C as in 01: whole tiles only, so no guard is needed.
  TOut* c = g.c + static_cast<size_t>(blockIdx.y * kBlockM + wm * kTile) * g.n + blockIdx.x * kBlockN + wn * kTile;
  if (g.beta == 0.0f) {  // BLAS: C is never read
    for (int i = 0; i < acc.num_elements; ++i) acc.x[i] = from_float<TOut>(g.alpha * to_float(acc.x[i]));
  } else {
    // slot i of two accumulator fragments holds the same element of C
    wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> old;
    // Not traced (C's read and store below): wmma hides which lane moves which element of C, and how.
    wmma::load_matrix_sync(old, c, g.n, wmma::mem_row_major);
    for (int i = 0; i < acc.num_elements; ++i) {
      acc.x[i] = from_float<TOut>(g.alpha * to_float(acc.x[i]) + g.beta * to_float(old.x[i]));
    }
  }
  wmma::store_matrix_sync(c, acc, g.n, wmma::mem_row_major);  // not traced: see above
  GS_PROBE(probe.block_end());
}

template <class Probe, class TOut>
cudaError_t launch(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  // one block per 32x64 tile of C: grid x walks tile columns, grid y tile rows (row-major raster)
  const dim3 grid(g.n / kBlockN, g.m / kBlockM);
  kernel<Probe, TOut><<<grid, kThreads, 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::wmma_02_smem
