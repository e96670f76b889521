// wmma/05_padded_smem. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::wmma_05_padded_smem {

inline constexpr const char* kTitle = "Padded shared rows: conflict-free fragment loads";
inline constexpr const char* kAdds =
    "Shared rows padded by 8 halves (16 B). load_matrix_sync compiles to ldmatrix, which reads 8 rows of 16 B "
    "per 8x8 matrix; rows a multiple of 128 B apart all start in the same 4 banks, so 04's fragment loads were "
    "8-way (Bs) and 4-way (As) conflicted: the k-loop's real limit.";

}  // namespace gs::wmma_05_padded_smem

// Why (bank = byte offset / 4 % 32: 128 B cover the 32 banks once): ldmatrix serves an 8x8 matrix in
// one wavefront only if its 8 row segments of 16 B fall in 8 different 16-byte bank groups. With an
// ldm of 64 halves = 128 B every row starts at the same bank: 8 rows, 8 wavefronts. 04's Bs rows
// (128 halves = 256 B) are that case, 8-way; its As rows (32 halves = 64 B) alternate between two
// bank groups, 4-way. A Bs row of 136 halves (272 B = 2 x 128 + 16) starts 16 B (4 banks) further
// round than the row before, so 8 rows cover all 32 banks once: one wavefront. As rows of 40 halves
// (80 B) step 5 x 16 B mod 128 B, which also visits 8 distinct groups.

#include <mma.h>

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/wmma/common.cuh"

namespace gs::wmma_05_padded_smem {

namespace wmma = nvcuda::wmma;
using wmma_common::kTile;

inline constexpr int kFragsM = 4, kFragsN = 2;    // fragments per warp: a 64x32 warp tile
inline constexpr int kWarpsM = 2, kWarpsN = 4;    // warps per block: 2 x 4
inline constexpr int kWarpM = kFragsM * kTile;    // 64
inline constexpr int kWarpN = kFragsN * kTile;    // 32
inline constexpr int kBlockM = kWarpsM * kWarpM;  // 128 x 128 tile of C per block
inline constexpr int kBlockN = kWarpsN * kWarpN;
inline constexpr int kBlockK = 32;
inline constexpr int kStages = 2;                 // shared buffers: one being read, one being filled
inline constexpr int kPad = 8;                    // halves (16 B) appended to every shared row
inline constexpr int kLdA = kBlockK + kPad;       // 40 halves = 80 B between rows of As
inline constexpr int kLdB = kBlockN + kPad;       // 136 halves = 272 B between rows of Bs
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kChunksA = kBlockM * kBlockK / 8, kChunksB = kBlockK * kBlockN / 8;  // 16-byte copies
static_assert(kChunksA % kThreads == 0 && kChunksB % kThreads == 0, "every thread copies whole chunks");
inline constexpr const char* kShapeRule = "M and N must be multiples of 128 and K of 32";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBlockM == 0 && n % kBlockN == 0 && k % kBlockK == 0;
}

enum Stage : int { kWait, kIssue, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait (cp.async + barrier)", "issue cp.async", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As store (cp.async)", "Bs store (cp.async)", "As load (frag)",
                                             "Bs load (frag)"};

template <class Probe, class TOut>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<__half, TOut> g, Probe probe) {
  // 37 KB for both buffers (the padding costs 5 KB: 16 B on each of 2 x (128 + 32) rows): two blocks still fit
  // per SM.
  __shared__ __align__(128) __half As[kStages][kBlockM * kLdA];  // (stage, 128, 32) A tiles, row-major, +8 halves/row
  __shared__ __align__(128) __half Bs[kStages][kBlockK * kLdB];  // (stage, 32, 128) B tiles, row-major, +8 halves/row

  const int tid = threadIdx.x, warp = tid / 32;
  [[maybe_unused]] const int lane = tid % 32;  // only the probes use it
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;  // the warp's 64x32 tile: rows wm*64, cols wn*32
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  const __half* a = g.a + static_cast<size_t>(blockIdx.y) * kBlockM * g.k;  // A[by * 128 ..][0 ..]
  const __half* b = g.b + blockIdx.x * kBlockN;                              // B[0 ..][bx * 128 ..]
  const int num_kt = g.k / kBlockK;

  // Issues (does not wait for) the copies of k-tile kt into buffer s. A warp's 16-byte accesses are
  // served 8 lanes (128 B) at a time. Bs: chunk q = tid + p*256 is (row q / 16, col q % 16 * 8), so 8
  // lanes write 128 contiguous bytes. As: 04's order would give 8 lanes 2 rows (2 x 64 B, now 80 B
  // apart) whose ends wrap onto the same banks; instead 8 lanes take one chunk column down 8 rows
  // (80 B steps: 8 distinct bank groups). A warp still reads 8 whole 64-byte rows of A from global.
  auto issue = [&](int kt, int s) {
    const int k0 = kt * kBlockK;
#pragma unroll
    for (int p = 0; p < kChunksA / kThreads; ++p) {
      const int q = tid + p * kThreads;                                 // q = (8-row group, chunk col, row)
      const int r = q / 32 * 8 + q % 8, c = q / 8 % (kBlockK / 8) * 8;  // (row, col) of the As chunk
      __half* dst = &As[s][r * kLdA + c];
      GS_PROBE(probe.gmem(kGmemA, a + static_cast<size_t>(r) * g.k + k0 + c, 16, GmemKind::kCpAsync));
      wmma_common::cp_async_16(dst, a + static_cast<size_t>(r) * g.k + k0 + c);
      GS_PROBE(probe.smem(kAsStore, dst, 16, SmemKind::kCpAsync));
    }
#pragma unroll
    for (int p = 0; p < kChunksB / kThreads; ++p) {
      const int q = tid + p * kThreads, r = q / (kBlockN / 8), c = q % (kBlockN / 8) * 8;
      __half* dst = &Bs[s][r * kLdB + c];
      GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(k0 + r) * g.n + c, 16, GmemKind::kCpAsync));
      wmma_common::cp_async_16(dst, b + static_cast<size_t>(k0 + r) * g.n + c);
      GS_PROBE(probe.smem(kBsStore, dst, 16, SmemKind::kCpAsync));
    }
    wmma_common::cp_async_commit();  // one group per k-tile
  };

  wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> fa[kFragsM];
  wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major> fb[kFragsN];
  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], from_float<TOut>(0.0f));
  }

  GS_PROBE(probe.iteration(0));
  GS_PROBE(probe.stage(kIssue));
  issue(0, 0);  // prologue: tile 0 in flight
  for (int kt = 0; kt < num_kt; ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kWait));
    const int s = kt % kStages;
    // This thread's copies of tile kt have landed (tile kt+1 is not issued yet, so that is all of
    // them); the barrier makes every thread's copies visible, and also tells that every warp is done
    // with tile kt-1, whose buffer the next line refills.
    wmma_common::cp_async_wait<0>();
    GS_PROBE(probe.mark(Mark::kCpAsyncWait));
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));
    GS_PROBE(probe.stage(kIssue));
    if (kt + 1 < num_kt) issue(kt + 1, (kt + 1) % kStages);  // flies while tile kt is computed below

    GS_PROBE(probe.stage(kCompute));
#pragma unroll
    for (int kk = 0; kk < kBlockK; kk += kTile) {
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        const __half* bs = &Bs[s][kk * kLdB + wn * kWarpN + j * kTile];  // B rows kk .., cols of fragment j
        GS_PROBE(probe.smem(kBsLoad, wmma_common::ldsm_row(bs, kLdB, lane), 16, SmemKind::kLdmatrix));
        wmma::load_matrix_sync(fb[j], bs, kLdB);  // ldm is the padded stride
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        const __half* as = &As[s][(wm * kWarpM + i * kTile) * kLdA + kk];  // A rows of fragment i, cols kk ..
        GS_PROBE(probe.smem(kAsLoad, wmma_common::ldsm_row(as, kLdA, lane), 16, SmemKind::kLdmatrix));
        wmma::load_matrix_sync(fa[i], as, kLdA);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
      }
    }
  }

  GS_PROBE(probe.stage(kEpilogue));
  // Fragment by fragment straight to C, as in 04: whole tiles only.
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

}  // namespace gs::wmma_05_padded_smem
