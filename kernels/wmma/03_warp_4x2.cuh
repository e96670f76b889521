// wmma/03_warp_4x2. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::wmma_03_warp_4x2 {

inline constexpr const char* kTitle = "Warp tile 4x2 fragments: 128x128 block tile";
inline constexpr const char* kAdds =
    "Each warp now computes 4x2 fragments (a 64x32 tile of C), so the block's 8 warps cover 128x128. Per "
    "k-step a warp loads 4 A and 2 B fragments for 8 mma_sync (0.75 loads per mma, was 2), and each global "
    "byte staged in shared memory feeds 3x more math (128x128 vs 32x64 tiles).";

}  // namespace gs::wmma_03_warp_4x2

#include <mma.h>

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/wmma/common.cuh"

namespace gs::wmma_03_warp_4x2 {

namespace wmma = nvcuda::wmma;
using wmma_common::kTile;

inline constexpr int kFragsM = 4, kFragsN = 2;             // fragments per warp: a 64x32 warp tile
inline constexpr int kWarpsM = 2, kWarpsN = 4;             // warps per block: 2 x 4
inline constexpr int kWarpM = kFragsM * kTile;             // 64
inline constexpr int kWarpN = kFragsN * kTile;             // 32
inline constexpr int kBlockM = kWarpsM * kWarpM;           // 128 x 128 tile of C per block
inline constexpr int kBlockN = kWarpsN * kWarpN;
inline constexpr int kBlockK = 32;
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
// 16-byte chunks per tile, and per thread: As 128x32 and Bs 32x128 are 512 chunks each, 2 per thread
inline constexpr int kChunksA = kBlockM * kBlockK / 8, kChunksB = kBlockK * kBlockN / 8;
static_assert(kChunksA % kThreads == 0 && kChunksB % kThreads == 0, "every thread copies whole chunks");
inline constexpr const char* kShapeRule = "M and N must be multiples of 128 and K of 32";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBlockM == 0 && n % kBlockN == 0 && k % kBlockK == 0;
}

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As store", "Bs store", "As load (frag)", "Bs load (frag)"};

// (256, 2): at most 128 registers, so two blocks (16 warps) share an SM and one computes while the
// other waits for its loads: the only overlap this rung has.
template <class Probe, class TOut>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<__half, TOut> g, Probe probe) {
  // Unpadded: As rows are 64 B apart (ldmatrix 4-way conflicts), Bs rows 256 B (8-way).
  __shared__ __align__(128) __half As[kBlockM * kBlockK];  // (128, 32) tile of A, row-major
  __shared__ __align__(128) __half Bs[kBlockK * kBlockN];  // (32, 128) tile of B, row-major

  const int tid = threadIdx.x, warp = tid / 32;
  [[maybe_unused]] const int lane = tid % 32;  // only the probes use it
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;  // the warp's 64x32 tile: rows wm*64, cols wn*32
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  const __half* a = g.a + static_cast<size_t>(blockIdx.y) * kBlockM * g.k;  // A[by * 128 ..][0 ..]
  const __half* b = g.b + blockIdx.x * kBlockN;                              // B[0 ..][bx * 128 ..]

  wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> fa[kFragsM];
  wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major> fb[kFragsN];
  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], from_float<TOut>(0.0f));
  }

  for (int kt = 0; kt < g.k / kBlockK; ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
    const int k0 = kt * kBlockK;
    // All four 16-byte loads are issued before the first store, so their latencies overlap.
    // Chunk q = tid + p*256 of As is (row q / 4, col q % 4 * 8); of Bs (row q / 16, col q % 16 * 8).
    uint4 va[kChunksA / kThreads], vb[kChunksB / kThreads];
#pragma unroll
    for (int p = 0; p < kChunksA / kThreads; ++p) {
      const int q = tid + p * kThreads, r = q / (kBlockK / 8), c = q % (kBlockK / 8) * 8;
      GS_PROBE(probe.gmem(kGmemA, a + static_cast<size_t>(r) * g.k + k0 + c, 16, GmemKind::kLoad));
      va[p] = *reinterpret_cast<const uint4*>(a + static_cast<size_t>(r) * g.k + k0 + c);
    }
#pragma unroll
    for (int p = 0; p < kChunksB / kThreads; ++p) {
      const int q = tid + p * kThreads, r = q / (kBlockN / 8), c = q % (kBlockN / 8) * 8;
      GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(k0 + r) * g.n + c, 16, GmemKind::kLoad));
      vb[p] = *reinterpret_cast<const uint4*>(b + static_cast<size_t>(k0 + r) * g.n + c);
    }
#pragma unroll
    for (int p = 0; p < kChunksA / kThreads; ++p) {
      const int q = tid + p * kThreads;
      __half* dst = &As[q / (kBlockK / 8) * kBlockK + q % (kBlockK / 8) * 8];
      *reinterpret_cast<uint4*>(dst) = va[p];
      GS_PROBE(probe.smem(kAsStore, dst, 16, SmemKind::kStore));
    }
#pragma unroll
    for (int p = 0; p < kChunksB / kThreads; ++p) {
      const int q = tid + p * kThreads;
      __half* dst = &Bs[q / (kBlockN / 8) * kBlockN + q % (kBlockN / 8) * 8];
      *reinterpret_cast<uint4*>(dst) = vb[p];
      GS_PROBE(probe.smem(kBsStore, dst, 16, SmemKind::kStore));
    }
    __syncthreads();  // the tiles are complete before any warp reads a fragment
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
#pragma unroll
    for (int kk = 0; kk < kBlockK; kk += kTile) {
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        const __half* bs = &Bs[kk * kBlockN + wn * kWarpN + j * kTile];  // B rows kk .., cols of fragment j
        GS_PROBE(probe.smem(kBsLoad, wmma_common::ldsm_row(bs, kBlockN, lane), 16, SmemKind::kLdmatrix));
        wmma::load_matrix_sync(fb[j], bs, kBlockN);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        const __half* as = &As[(wm * kWarpM + i * kTile) * kBlockK + kk];  // A rows of fragment i, cols kk ..
        GS_PROBE(probe.smem(kAsLoad, wmma_common::ldsm_row(as, kBlockK, lane), 16, SmemKind::kLdmatrix));
        wmma::load_matrix_sync(fa[i], as, kBlockK);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
      }
    }
    __syncthreads();  // every warp is done with the tiles before the next iteration overwrites them
    GS_PROBE(probe.mark(Mark::kBarrier));
  }

  GS_PROBE(probe.stage(kEpilogue));
  // Fragment by fragment straight to C, as in 01 and 02: whole tiles only.
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      const int row = blockIdx.y * kBlockM + wm * kWarpM + i * kTile;  // fragment (i, j)'s top-left in C
      const int col = blockIdx.x * kBlockN + wn * kWarpN + j * kTile;
      TOut* c = g.c + static_cast<size_t>(row) * g.n + col;
      wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut>& f = acc[i][j];
      if (g.beta == 0.0f) {  // BLAS: C is never read
        for (int e = 0; e < f.num_elements; ++e) f.x[e] = from_float<TOut>(g.alpha * to_float(f.x[e]));
      } else {
        wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> old;  // same slot, same element of C
        // Not traced (C's read and store below): wmma hides which lane moves which element of C, and how.
        wmma::load_matrix_sync(old, c, g.n, wmma::mem_row_major);
        for (int e = 0; e < f.num_elements; ++e) {
          f.x[e] = from_float<TOut>(g.alpha * to_float(f.x[e]) + g.beta * to_float(old.x[e]));
        }
      }
      wmma::store_matrix_sync(c, f, g.n, wmma::mem_row_major);  // not traced: see above
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe, class TOut>
cudaError_t launch(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  const dim3 grid(g.n / kBlockN, g.m / kBlockM);  // x: tile columns, y: tile rows (row-major raster)
  kernel<Probe, TOut><<<grid, kThreads, 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::wmma_03_warp_4x2
