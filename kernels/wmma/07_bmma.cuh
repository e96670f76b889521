// wmma/07_bmma. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::wmma_07_bmma {

inline constexpr const char* kTitle = "Block-level split of K across warps (BMMA)";
inline constexpr const char* kAdds =
    "Block-level split of K. The 8 warps form 2 k-groups of 2x2 warps; both groups cover the whole 128x128 "
    "tile (64x64 per warp, 4x4 fragments) and each takes half of every 64-deep k-tile; at the end one group's "
    "partial sums are added to the other's through shared memory. Slower than 06 at 4096^3 (0.85-0.92x on an H100 "
    "and an H200): its 16 fp32 accumulator fragments take 214 registers, so one block of 8 warps per SM where 06 "
    "runs two (Nsight Compute on an H100: occupancy 12.5% against 25%, issue slots busy 20% against 29%, 572 "
    "against 465 us); it pays where M x N gives too few tiles for the SMs and K is long.";

}  // namespace gs::wmma_07_bmma

// What it buys: 8 warps on one 128x128 tile with 64x64 warp tiles (8 fragment loads per 16 mma_sync,
// 06 needs 6 per 8). Without the split, 64x64 warp tiles and 8 warps need a 128x256 block tile, half
// as many blocks: when M*N is small (few tiles for 132 SMs) and K is large, splitting K inside the
// block keeps the SMs busy without shrinking warp tiles, and unlike a split across blocks it needs no
// second pass over C. At 4096^3 there are tiles enough, and the split costs: 16 float accumulator
// fragments take 128 registers per thread, so one block (8 warps) per SM where 06 runs two (16 warps),
// leaving less to hide latency, plus a 64 KB reduction per tile. Expect about 06's speed, not more.

#include <mma.h>

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/wmma/common.cuh"

namespace gs::wmma_07_bmma {

namespace wmma = nvcuda::wmma;
using wmma_common::kTile;

inline constexpr int kFragsM = 4, kFragsN = 4;            // fragments per warp: a 64x64 warp tile
inline constexpr int kWarpsM = 2, kWarpsN = 2;            // warps per k-group
inline constexpr int kGroupsK = 2;                        // k-groups: warps 0-3 and 4-7
inline constexpr int kWarpM = kFragsM * kTile;            // 64
inline constexpr int kWarpN = kFragsN * kTile;            // 64
inline constexpr int kBlockM = kWarpsM * kWarpM;          // 128 x 128 tile of C per block
inline constexpr int kBlockN = kWarpsN * kWarpN;
inline constexpr int kBlockK = 64;                        // k-tile; each group takes kBlockK / kGroupsK
inline constexpr int kSliceK = kBlockK / kGroupsK;        // 32: two k-steps per group per tile
inline constexpr int kStages = 2;
inline constexpr int kPad = 8;
inline constexpr int kLdA = kBlockK + kPad;               // 72 halves = 144 B: 9 x 16 B, conflict-free
inline constexpr int kLdB = kBlockN + kPad;               // 136 halves = 272 B
inline constexpr int kThreads = kWarpsM * kWarpsN * kGroupsK * 32;
inline constexpr int kChunksA = kBlockM * kBlockK / 8, kChunksB = kBlockK * kBlockN / 8;  // 1024 each, 4 per thread
static_assert(kChunksA % kThreads == 0 && kChunksB % kThreads == 0, "every thread copies whole chunks");
inline constexpr int kPipeBytes = kStages * (kBlockM * kLdA + kBlockK * kLdB) * 2;  // 71,680: dynamic
// The reduction and the epilogue reuse the pipeline's bytes: the whole 128x128 tile as TOut, rows
// padded by 8 elements (float rows 544 B apart: 32 B steps mod 128 B; half rows 272 B: 16 B steps),
// so store_matrix_sync and the accumulator loads hit distinct banks, as in 06's staging.
inline constexpr int kLdR = kBlockN + 8;  // elements between rows: 136
static_assert(kBlockM * kLdR * 4 <= kPipeBytes, "the float tile fits in the pipeline's bytes");
inline constexpr int kSmemBytes = kPipeBytes;
inline constexpr const char* kShapeRule = "";  // any M, N, K, as in 06
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kWait, kIssue, kCompute, kReduce, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait (cp.async + barrier)", "issue cp.async", "compute",
                                              "reduce k-groups", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad, kCStage, kCPartial, kCRead };
inline constexpr const char* kSmemSites[] = {"As store (cp.async)", "Bs store (cp.async)", "As load (frag)",
                                             "Bs load (frag)", "C tile store (store_matrix_sync)",
                                             "C partial sums load (load_matrix_sync)", "C tile load (16 B)"};

template <class Probe, class TOut, bool kVec>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<__half, TOut> g, Probe probe) {
  extern __shared__ __align__(128) unsigned char smem[];
  __half* const As = reinterpret_cast<__half*>(smem);  // (stage, 128, 64) tiles of A, row-major, +8 halves/row
  __half* const Bs = As + kStages * kBlockM * kLdA;    // (stage, 64, 128) tiles of B, row-major, +8 halves/row

  const int tid = threadIdx.x, warp = tid / 32;
  [[maybe_unused]] const int lane = tid % 32;  // only the probes use it
  const int kg = warp / (kWarpsM * kWarpsN);                    // k-group: which half of each k-tile
  const int wm = warp % (kWarpsM * kWarpsN) / kWarpsN, wn = warp % kWarpsN;  // 64x64 tile: rows wm*64, cols wn*64
  const int bm0 = blockIdx.y * kBlockM, bn0 = blockIdx.x * kBlockN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));
  const int num_kt = (g.k + kBlockK - 1) / kBlockK;

  // A row of As is 8 chunks (128 B), so 8 consecutive lanes write one contiguous row: chunk
  // q = tid + p*256 is (row q / 8, col q % 8 * 8) of As and (row q / 16, col q % 16 * 8) of Bs, so a
  // thread's chunks share a column, As rows 32 apart and Bs rows 16 apart.
  constexpr int kStepA = kThreads / (kBlockK / 8);  // rows between a thread's As chunks
  constexpr int kStepB = kThreads / (kBlockN / 8);  // ... and its Bs chunks
  const wmma_common::AChunks<kVec, kChunksA / kThreads, kStepA> ca(g.a, g.m, g.k, bm0 + tid / (kBlockK / 8),
                                                                   tid % (kBlockK / 8) * 8);
  const wmma_common::BChunks<kVec, kChunksB / kThreads, kStepB> cb(g.b, g.n, tid / (kBlockN / 8),
                                                                   bn0 + tid % (kBlockN / 8) * 8);
  auto issue = [&](int kt, int s) {
    __half* const as = As + s * kBlockM * kLdA + (ca.row0 - bm0) * kLdA + ca.c;  // chunk 0's place in stage s
    __half* const bs = Bs + s * kBlockK * kLdB + cb.r0 * kLdB + (cb.col - bn0);
#pragma unroll
    for (int p = 0; p < kChunksA / kThreads; ++p) {
      __half* dst = as + p * kStepA * kLdA;
      ca.copy(p, dst, g.a, g.m, g.k, kt * kBlockK, probe);  // A[row0 + p * kStepA][kt * 64 + c ..]
      GS_PROBE(probe.smem(kAsStore, dst, 16, kVec ? SmemKind::kCpAsync : SmemKind::kStore));
    }
#pragma unroll
    for (int p = 0; p < kChunksB / kThreads; ++p) {
      __half* dst = bs + p * kStepB * kLdB;
      cb.copy(p, dst, g.b, g.k, g.n, kt * kBlockK, probe);  // B[kt * 64 + r0 + p * kStepB][col ..]
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
    wmma_common::cp_async_wait<0>();  // tile kt landed
    GS_PROBE(probe.mark(Mark::kCpAsyncWait));
    __syncthreads();                  // ... for every thread; and tile kt-1's buffer is free
    GS_PROBE(probe.mark(Mark::kBarrier));
    GS_PROBE(probe.stage(kIssue));
    if (kt + 1 < num_kt) issue(kt + 1, (kt + 1) % kStages);

    GS_PROBE(probe.stage(kCompute));
    const __half* as_tile = As + s * kBlockM * kLdA;
    const __half* bs_tile = Bs + s * kBlockK * kLdB;
#pragma unroll
    for (int step = 0; step < kSliceK / kTile; ++step) {
      const int kk = kg * kSliceK + step * kTile;  // this group's half of the k-tile: cols kk .. +16
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

  GS_PROBE(probe.stage(kReduce));
  GS_PROBE(probe.epilogue());  // shared-memory records from here on: the reduction's and the staged tile's
  // The whole tile, (128, 128) TOut at stride kLdR, over the pipeline's bytes.
  TOut* const red = reinterpret_cast<TOut*>(smem);
  __syncthreads();  // every warp is done reading As and Bs
  GS_PROBE(probe.mark(Mark::kBarrier));
  if (kg == 1) {    // warp-uniform: group 1 leaves its partial sums in shared memory...
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        TOut* t = red + (wm * kWarpM + i * kTile) * kLdR + wn * kWarpN + j * kTile;  // fragment (i, j)'s place
        GS_PROBE(wmma_common::probe_acc_pairs(probe, kCStage, t, kLdR, lane, SmemKind::kStore));
        wmma::store_matrix_sync(t, acc[i][j], kLdR, wmma::mem_row_major);
      }
    }
  }
  __syncthreads();
  GS_PROBE(probe.mark(Mark::kBarrier));
  if (kg == 0) {  // ... group 0 adds them to its own, slot by slot (same fragment, same element)...
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        const TOut* t = red + (wm * kWarpM + i * kTile) * kLdR + wn * kWarpN + j * kTile;
        wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> part;
        GS_PROBE(wmma_common::probe_acc_pairs(probe, kCPartial, t, kLdR, lane, SmemKind::kLoad));
        wmma::load_matrix_sync(part, t, kLdR, wmma::mem_row_major);
        for (int e = 0; e < part.num_elements; ++e) {
          acc[i][j].x[e] = from_float<TOut>(to_float(acc[i][j].x[e]) + to_float(part.x[e]));
        }
      }
    }
    __syncwarp();  // every lane has read group 1's sums before any lane overwrites them
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {  // ... and leaves the total in their place
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        TOut* t = red + (wm * kWarpM + i * kTile) * kLdR + wn * kWarpN + j * kTile;
        GS_PROBE(wmma_common::probe_acc_pairs(probe, kCStage, t, kLdR, lane, SmemKind::kStore));
        wmma::store_matrix_sync(t, acc[i][j], kLdR, wmma::mem_row_major);
      }
    }
  }
  __syncthreads();
  GS_PROBE(probe.mark(Mark::kBarrier));

  GS_PROBE(probe.stage(kEpilogue));
  // All 256 threads write the tile: 16-byte vectors, coalesced, clipped to M x N.
  wmma_common::write_c_tile<kBlockM, kBlockN, kThreads>(red, kLdR, g, bm0, bn0, tid, kCRead, probe);
  GS_PROBE(probe.block_end());
}

template <class Probe, class TOut, bool kVec>
cudaError_t launch_with(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  // 70 KB of dynamic shared memory is above the default 48 KB limit: raise it once per instantiation.
  static const cudaError_t attr =
      cudaFuncSetAttribute(kernel<Probe, TOut, kVec>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  if (attr != cudaSuccess) return attr;
  const dim3 grid((g.n + kBlockN - 1) / kBlockN, (g.m + kBlockM - 1) / kBlockM);  // row-major raster of tiles
  kernel<Probe, TOut, kVec><<<grid, kThreads, kSmemBytes, stream>>>(g, probe);
  return cudaGetLastError();
}

template <class Probe, class TOut>
cudaError_t launch(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  const bool vec = g.k % 8 == 0 && g.n % 8 == 0 && wmma_common::aligned16(g.a) && wmma_common::aligned16(g.b);
  return vec ? launch_with<Probe, TOut, true>(g, probe, stream) : launch_with<Probe, TOut, false>(g, probe, stream);
}

}  // namespace gs::wmma_07_bmma
