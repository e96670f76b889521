// wmma/06_any_shape. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::wmma_06_any_shape {

inline constexpr const char* kTitle = "Any M, N, K: zero-filled edge tiles, staged epilogue";
inline constexpr const char* kAdds =
    "Any M, N, K. Copies of edge tiles are predicated (cp.async with src-size 0 writes zeros, which add "
    "nothing to the sums), and the epilogue stages each row of fragments in shared memory so the warp writes "
    "only the part of C that exists. The k-loop is 05's: expect the same speed.";

}  // namespace gs::wmma_06_any_shape

// wmma stores a fragment only as a whole 16x16 tile into 32-byte aligned rows, and its lane <-> element
// map is unspecified, so a partial tile cannot be written from registers: hence the shared staging.
// Odd K or N leaves rows of A or B unaligned for 16-byte copies; launch() then picks the kVec = false
// kernel, which fills shared memory with guarded 2-byte loads (correct, not fast).

#include <mma.h>

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/wmma/common.cuh"

namespace gs::wmma_06_any_shape {

namespace wmma = nvcuda::wmma;
using wmma_common::kTile;

inline constexpr int kFragsM = 4, kFragsN = 2;    // fragments per warp: a 64x32 warp tile
inline constexpr int kWarpsM = 2, kWarpsN = 4;    // warps per block: 2 x 4
inline constexpr int kWarpM = kFragsM * kTile;    // 64
inline constexpr int kWarpN = kFragsN * kTile;    // 32
inline constexpr int kBlockM = kWarpsM * kWarpM;  // 128 x 128 tile of C per block
inline constexpr int kBlockN = kWarpsN * kWarpN;
inline constexpr int kBlockK = 32;
inline constexpr int kStages = 2;
inline constexpr int kPad = 8;                    // halves per shared row, as in 05
inline constexpr int kLdA = kBlockK + kPad;       // 40 halves between rows of As
inline constexpr int kLdB = kBlockN + kPad;       // 136 halves between rows of Bs
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kWarps = kThreads / 32;
inline constexpr int kChunksA = kBlockM * kBlockK / 8, kChunksB = kBlockK * kBlockN / 8;  // 16-byte copies
static_assert(kChunksA % kThreads == 0 && kChunksB % kThreads == 0, "every thread copies whole chunks");
inline constexpr int kPipeBytes = kStages * (kBlockM * kLdA + kBlockK * kLdB) * 2;  // 37,888
// Epilogue staging, reusing the pipeline's bytes: per warp one row of fragments, 16 x 32 TOut. Rows
// padded by 8 elements: store_matrix_sync writes float rows 8 B per lane, 4 rows x 32 B per 16 lanes
// (rows 160 B apart: 32 B steps mod 128 B, distinct banks), half rows 4 B per lane, 8 rows x 16 B
// per warp (80 B apart: 8 distinct 16-byte bank groups).
inline constexpr int kLdC = kWarpN + 8;  // elements between staged rows: 40
static_assert(kWarps * kTile * kLdC * 4 <= kPipeBytes, "float staging fits in the pipeline's bytes");
inline constexpr const char* kShapeRule = "";  // any M, N, K: edge tiles are zero-filled and clipped
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kWait, kIssue, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait (cp.async + barrier)", "issue cp.async", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad, kCStage, kCRead };
inline constexpr const char* kSmemSites[] = {"As store (cp.async)", "Bs store (cp.async)", "As load (frag)",
                                             "Bs load (frag)", "C staging store (store_matrix_sync)",
                                             "C staging load (16 B)"};

// kVec: K and N multiples of 8 and A, B 16-byte aligned, so every 16-byte chunk is whole or absent.
template <class Probe, class TOut, bool kVec>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<__half, TOut> g, Probe probe) {
  // One byte array carved into As and Bs for the k-loop and into the C staging for the epilogue.
  __shared__ __align__(128) unsigned char smem[kPipeBytes];
  __half* const As = reinterpret_cast<__half*>(smem);  // (stage, 128, 32) tiles of A, row-major, +8 halves/row
  __half* const Bs = As + kStages * kBlockM * kLdA;    // (stage, 32, 128) tiles of B, row-major, +8 halves/row

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;  // the warp's 64x32 tile: rows wm*64, cols wn*32
  const int bm0 = blockIdx.y * kBlockM, bn0 = blockIdx.x * kBlockN;  // the block tile's top-left in C
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));
  const int num_kt = (g.k + kBlockK - 1) / kBlockK;  // the last k-tile may be partial: zero-filled

  // Step: any M, N, K: predicated (zero-filling) copies here, a staged epilogue below.
  // 05's chunk order: chunk q = tid + p*256 of As is (row q / 32 * 8 + q % 8, col q / 8 % 4 * 8), so a
  // thread's As chunks share a column, rows 64 apart; of Bs (row q / 16, col q % 16 * 8): rows 16 apart.
  constexpr int kStepA = kThreads / 32 * 8, kStepB = kThreads / (kBlockN / 8);  // rows between a thread's chunks
  const wmma_common::AChunks<kVec, kChunksA / kThreads, kStepA> ca(g.a, g.m, g.k, bm0 + tid / 32 * 8 + tid % 8,
                                                                   tid / 8 % (kBlockK / 8) * 8);
  const wmma_common::BChunks<kVec, kChunksB / kThreads, kStepB> cb(g.b, g.n, tid / (kBlockN / 8),
                                                                   bn0 + tid % (kBlockN / 8) * 8);
  auto issue = [&](int kt, int s) {
    __half* const as = As + s * kBlockM * kLdA + (ca.row0 - bm0) * kLdA + ca.c;  // chunk 0's place in stage s
    __half* const bs = Bs + s * kBlockK * kLdB + cb.r0 * kLdB + (cb.col - bn0);
#pragma unroll
    for (int p = 0; p < kChunksA / kThreads; ++p) {
      __half* dst = as + p * kStepA * kLdA;
      ca.copy(p, dst, g.a, g.m, g.k, kt * kBlockK, probe);  // A[row0 + p * kStepA][kt * 32 + c ..]
      GS_PROBE(probe.smem(kAsStore, dst, 16, kVec ? SmemKind::kCpAsync : SmemKind::kStore));
    }
#pragma unroll
    for (int p = 0; p < kChunksB / kThreads; ++p) {
      __half* dst = bs + p * kStepB * kLdB;
      cb.copy(p, dst, g.b, g.k, g.n, kt * kBlockK, probe);  // B[kt * 32 + r0 + p * kStepB][col ..]
      GS_PROBE(probe.smem(kBsStore, dst, 16, kVec ? SmemKind::kCpAsync : SmemKind::kStore));
    }
    wmma_common::cp_async_commit();  // one group per k-tile (empty when !kVec)
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
  issue(0, 0);
  for (int kt = 0; kt < num_kt; ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kWait));
    const int s = kt % kStages;
    wmma_common::cp_async_wait<0>();  // tile kt landed (as in 05)
    GS_PROBE(probe.mark(Mark::kCpAsyncWait));
    __syncthreads();                  // ... for every thread; and tile kt-1's buffer is free
    GS_PROBE(probe.mark(Mark::kBarrier));
    GS_PROBE(probe.stage(kIssue));
    if (kt + 1 < num_kt) issue(kt + 1, (kt + 1) % kStages);

    GS_PROBE(probe.stage(kCompute));
    const __half* as_tile = As + s * kBlockM * kLdA;
    const __half* bs_tile = Bs + s * kBlockK * kLdB;
#pragma unroll
    for (int kk = 0; kk < kBlockK; kk += kTile) {
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        const __half* bs = bs_tile + kk * kLdB + wn * kWarpN + j * kTile;  // B rows kk .., cols of fragment j
        GS_PROBE(probe.smem(kBsLoad, wmma_common::ldsm_row(bs, kLdB, lane), 16, SmemKind::kLdmatrix));
        wmma::load_matrix_sync(fb[j], bs, kLdB);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        const __half* as = as_tile + (wm * kWarpM + i * kTile) * kLdA + kk;  // A rows of fragment i, cols kk ..
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
  GS_PROBE(probe.epilogue());
  __syncthreads();  // every warp is done reading As and Bs before the staging below overwrites them
  GS_PROBE(probe.mark(Mark::kBarrier));
  TOut* const cs = reinterpret_cast<TOut*>(smem) + warp * kTile * kLdC;  // (16, 32) staging, this warp's
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      GS_PROBE(wmma_common::probe_acc_pairs(probe, kCStage, cs + j * kTile, kLdC, lane, SmemKind::kStore));
      wmma::store_matrix_sync(cs + j * kTile, acc[i][j], kLdC, wmma::mem_row_major);
    }
    __syncwarp();  // the staged 16x32 rows are visible to the whole warp
    // rows bm0 + wm*64 + i*16 .., cols bn0 + wn*32 .. of C, clipped to M x N
    wmma_common::write_c_tile<kTile, kWarpN, 32>(cs, kLdC, g, bm0 + wm * kWarpM + i * kTile,
                                                 bn0 + wn * kWarpN, lane, kCRead, probe);
    __syncwarp();  // read before the next row of fragments overwrites the staging
  }
  GS_PROBE(probe.block_end());
}

template <class Probe, class TOut>
cudaError_t launch(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  const dim3 grid((g.n + kBlockN - 1) / kBlockN, (g.m + kBlockM - 1) / kBlockM);  // row-major raster of tiles
  const bool vec = g.k % 8 == 0 && g.n % 8 == 0 && wmma_common::aligned16(g.a) && wmma_common::aligned16(g.b);
  if (vec) {
    kernel<Probe, TOut, true><<<grid, kThreads, 0, stream>>>(g, probe);
  } else {
    kernel<Probe, TOut, false><<<grid, kThreads, 0, stream>>>(g, probe);
  }
  return cudaGetLastError();
}

}  // namespace gs::wmma_06_any_shape
