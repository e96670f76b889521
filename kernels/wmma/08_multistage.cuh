// wmma/08_multistage. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::wmma_08_multistage {

inline constexpr const char* kTitle = "3-stage cp.async pipeline, 128x256 tile, 64x64 warp tiles";
inline constexpr const char* kAdds =
    "A 3-stage cp.async pipeline (two k-tiles in flight while a third is computed, cp.async.wait_group 1) on a "
    "128x256 block tile of 8 warps with 64x64 warp tiles, 64-deep k-tiles: 8 fragment loads feed 16 mma_sync, "
    "and one barrier serves 64 mma_sync per warp. Any M, N, K as in 06.";

}  // namespace gs::wmma_08_multistage

// Why these sizes: per k-step a warp's 16 mma_sync (32 HMMA.16816: about 53 SM cycles at the
// measured mma.sync ceiling) now outlast its 8 ldmatrix.x4 plus its share of the cp.async writes
// (about 44 cycles of shared-memory bandwidth); 06's 64x32 warp tiles needed 32 cycles of shared
// memory per 27 of tensor work, so shared memory was its limit. A 128x256 tile also moves a quarter
// fewer L2 -> shared bytes per FLOP than 128x128. 07's k-split is dropped: this tile already gives 8
// warps 64x64 tiles. 153 KB of shared memory and about 220 registers per thread: one block (8 warps)
// per SM, so the two k-tiles in flight hide latency where 06 had a second resident block.

#include <mma.h>

#include "kernels/block_order.cuh"
#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/wmma/common.cuh"

namespace gs::wmma_08_multistage {

namespace wmma = nvcuda::wmma;
using wmma_common::kTile;

inline constexpr int kFragsM = 4, kFragsN = 4;    // fragments per warp: a 64x64 warp tile
inline constexpr int kWarpsM = 2, kWarpsN = 4;    // warps per block: 2 x 4
inline constexpr int kWarpM = kFragsM * kTile;    // 64
inline constexpr int kWarpN = kFragsN * kTile;    // 64
inline constexpr int kBlockM = kWarpsM * kWarpM;  // 128 x 256 tile of C per block
inline constexpr int kBlockN = kWarpsN * kWarpN;
inline constexpr int kBlockK = 64;
inline constexpr int kStages = 3;                 // shared buffers: one read, kStages - 1 in flight
inline constexpr int kPad = 8;                    // halves per row: the variant [pad=off] takes 0
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kWarps = kThreads / 32;
inline constexpr int kChunksA = kBlockM * kBlockK / 8;  // 1024 16-byte copies per k-tile, 4 per thread
inline constexpr int kChunksB = kBlockK * kBlockN / 8;  // 2048, 8 per thread
static_assert(kChunksA % kThreads == 0 && kChunksB % kThreads == 0, "every thread copies whole chunks");
// The tiles with P halves of padding per row: the rung's kPad, or 0 for the variant [pad=off]. The rung's: rows
// of As 72 halves = 144 B = 9 x 16 B (8 rows, 8 bank groups), of Bs 264 halves = 528 B = 33 x 16 B (likewise);
// 26,112 halves a stage, 156,672 bytes of dynamic shared memory.
template <int P>
struct Layout {
  static constexpr int kLdA = kBlockK + P, kLdB = kBlockN + P;
  static constexpr int kStageElems = kBlockM * kLdA + kBlockK * kLdB;
  static constexpr int kSmemBytes = kStages * kStageElems * 2;
};
inline constexpr int kLdA = Layout<kPad>::kLdA, kLdB = Layout<kPad>::kLdB;
inline constexpr int kStageElems = Layout<kPad>::kStageElems;
inline constexpr int kSmemBytes = Layout<kPad>::kSmemBytes;
inline constexpr const char* kPadOffAdds =
    "Variant: the same kernel without the 8 halves of padding per row (rung 05's step). A row of As is 128 B "
    "and of Bs 512 B, so the 8 rows each 8x8 ldmatrix of load_matrix_sync reads start at the same bank: 8 "
    "wavefronts where 1 would do, on every fragment load. Measured on an H200 at 4096^3: 108 TFLOP/s (f16.f32), "
    "0.32 of the rung's 336 (bench/results/toggles_off_h200.txt).";
inline constexpr const char* kVecOffAdds =
    "Variant: the same kernel filling shared memory the way it does when K or N is not a multiple of 8: "
    "every 16-byte chunk by eight guarded 2-byte global loads and a shared store, synchronously, instead of one "
    "cp.async. What 16-byte (vectorized, asynchronous) copies are worth: on an H200 at 4096^3, 155 TFLOP/s "
    "(f16.f32), 0.46 of the rung's 336.";
// Epilogue staging over the pipeline's bytes: per warp one row of fragments, 16 x 64 TOut. Rows padded
// by 8 elements as in 06: float rows 288 B apart (32 B steps mod 128 B), half rows 144 B (16 B steps),
// so store_matrix_sync's rows land on distinct banks.
inline constexpr int kLdC = kWarpN + 8;  // elements between staged rows: 72
static_assert(kWarps * kTile * kLdC * 4 <= Layout<0>::kSmemBytes, "float staging fits in the pipeline's bytes");
inline constexpr const char* kShapeRule = "";  // any M, N, K, as in 06
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kWait, kIssue, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait (cp.async + barrier)", "issue cp.async", "compute", "epilogue"};
// The copies are cp.async where K and N allow 16-byte chunks, else (and in [vec=off]) shared stores: each its own
// site, so that the bank view names the instruction the records are of.
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad, kCStage, kCRead, kAsStoreSt, kBsStoreSt };
inline constexpr const char* kSmemSites[] = {"As store (cp.async)", "Bs store (cp.async)", "As load (frag)",
                                             "Bs load (frag)", "C staging store (store_matrix_sync)",
                                             "C staging load (16 B)", "As store (st.shared)", "Bs store (st.shared)"};
// [vec=off]'s stages: no cp.async to wait for or issue; the copy is the guarded loads and the shared stores.
inline constexpr const char* kVecOffStageNames[] = {"wait (barrier)", "copy (ld.global + st.shared)", "compute",
                                                    "epilogue"};

template <class Probe, class TOut, bool kVec, int kP = kPad>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<__half, TOut> g, Probe probe, BlockOrder order) {
  using L = Layout<kP>;
  extern __shared__ __align__(128) unsigned char smem[];
  // Stage s holds As (128, 64) then Bs (64, 256), both row-major with +8 halves per row.
  __half* const stages = reinterpret_cast<__half*>(smem);

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;  // the warp's 64x64 tile: rows wm*64, cols wn*64
  // Row-major tiles (none) unless a variant [order=...] names another scheme (kernels/block_order.cuh).
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  int tile_m, tile_n;
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  const int bm0 = tile_m * kBlockM, bn0 = tile_n * kBlockN;
  GS_PROBE(probe.block_begin(tile_m, tile_n));
  const int num_kt = (g.k + kBlockK - 1) / kBlockK;

  // Copies (without committing) k-tile kt into stage s. Rows of As are 8 chunks and of Bs 32, so 8
  // consecutive lanes always write 128 contiguous bytes: chunk q = tid + p*256 is (row q / 8,
  // col q % 8 * 8) of As and (row q / 32, col q % 32 * 8) of Bs, so a thread's chunks share a
  // column, As rows 32 apart and Bs rows 8 apart.
  constexpr int kStepA = kThreads / (kBlockK / 8);  // rows between a thread's As chunks
  constexpr int kStepB = kThreads / (kBlockN / 8);  // ... and its Bs chunks
  const wmma_common::AChunks<kVec, kChunksA / kThreads, kStepA> ca(g.a, g.m, g.k, bm0 + tid / (kBlockK / 8),
                                                                   tid % (kBlockK / 8) * 8);
  const wmma_common::BChunks<kVec, kChunksB / kThreads, kStepB> cb(g.b, g.n, tid / (kBlockN / 8),
                                                                   bn0 + tid % (kBlockN / 8) * 8);
  auto issue = [&](int kt, int s) {
    __half* const as = stages + s * L::kStageElems + (ca.row0 - bm0) * L::kLdA + ca.c;  // chunk 0's place in stage s
    __half* const bs = stages + s * L::kStageElems + kBlockM * L::kLdA + cb.r0 * L::kLdB + (cb.col - bn0);
#pragma unroll
    for (int p = 0; p < kChunksA / kThreads; ++p) {
      __half* dst = as + p * kStepA * L::kLdA;
      ca.copy(p, dst, g.a, g.m, g.k, kt * kBlockK, probe);  // A[row0 + p * kStepA][kt * 64 + c ..]
      GS_PROBE(probe.smem(kVec ? kAsStore : kAsStoreSt, dst, 16, kVec ? SmemKind::kCpAsync : SmemKind::kStore));
    }
#pragma unroll
    for (int p = 0; p < kChunksB / kThreads; ++p) {
      __half* dst = bs + p * kStepB * L::kLdB;
      cb.copy(p, dst, g.b, g.k, g.n, kt * kBlockK, probe);  // B[kt * 64 + r0 + p * kStepB][col ..]
      GS_PROBE(probe.smem(kVec ? kBsStore : kBsStoreSt, dst, 16, kVec ? SmemKind::kCpAsync : SmemKind::kStore));
    }
  };

  wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> fa[kFragsM];
  wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major> fb[kFragsN];
  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], from_float<TOut>(0.0f));
  }

  // Step: 3 cp.async stages, two k-tiles in flight while a third is computed.
  // Prologue: k-tiles 0 .. kStages-2 in flight. Every slot commits a group, empty past the last
  // k-tile, so "group kt" is always the kt-th commit and wait_group's count stays exact.
  GS_PROBE(probe.iteration(0));
  GS_PROBE(probe.stage(kIssue));
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < num_kt) issue(s, s);
    wmma_common::cp_async_commit();
  }
  for (int kt = 0; kt < num_kt; ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kWait));
    // kStages - 1 + kt groups committed; with at most kStages - 2 pending, groups 0 .. kt are done:
    // tile kt landed for this thread, and after the barrier for all. The barrier also tells that
    // every warp finished tile kt - 1, whose stage the issue below refills.
    wmma_common::cp_async_wait<kStages - 2>();
    GS_PROBE(probe.mark(Mark::kCpAsyncWait));
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));
    GS_PROBE(probe.stage(kIssue));
    const int next = kt + kStages - 1;
    if (next < num_kt) issue(next, next % kStages);  // into (kt - 1) % kStages
    wmma_common::cp_async_commit();

    GS_PROBE(probe.stage(kCompute));
    const __half* as_tile = stages + kt % kStages * L::kStageElems;
    const __half* bs_tile = as_tile + kBlockM * L::kLdA;
#pragma unroll
    for (int kk = 0; kk < kBlockK; kk += kTile) {
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        const __half* bs = bs_tile + kk * L::kLdB + wn * kWarpN + j * kTile;  // B rows kk .., cols of fragment j
        GS_PROBE(probe.smem(kBsLoad, wmma_common::ldsm_row(bs, L::kLdB, lane), 16, SmemKind::kLdmatrix));
        wmma::load_matrix_sync(fb[j], bs, L::kLdB);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        const __half* as = as_tile + (wm * kWarpM + i * kTile) * L::kLdA + kk;  // A rows of fragment i, cols kk ..
        GS_PROBE(probe.smem(kAsLoad, wmma_common::ldsm_row(as, L::kLdA, lane), 16, SmemKind::kLdmatrix));
        wmma::load_matrix_sync(fa[i], as, L::kLdA);
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
  wmma_common::cp_async_wait<0>();  // only empty groups remain, but nothing may land in the staging
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));
  __syncthreads();                  // every warp is done reading the stages
  GS_PROBE(probe.mark(Mark::kBarrier));
  TOut* const cs = reinterpret_cast<TOut*>(smem) + warp * kTile * kLdC;  // (16, 64) staging, this warp's
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      GS_PROBE(wmma_common::probe_acc_pairs(probe, kCStage, cs + j * kTile, kLdC, lane, SmemKind::kStore));
      wmma::store_matrix_sync(cs + j * kTile, acc[i][j], kLdC, wmma::mem_row_major);
    }
    __syncwarp();  // the staged 16x64 rows are visible to the whole warp
    // rows bm0 + wm*64 + i*16 .., cols bn0 + wn*64 .. of C, clipped to M x N
    wmma_common::write_c_tile<kTile, kWarpN, 32>(cs, kLdC, g, bm0 + wm * kWarpM + i * kTile,
                                                 bn0 + wn * kWarpN, lane, kCRead, probe);
    __syncwarp();  // read before the next row of fragments overwrites the staging
  }
  GS_PROBE(probe.block_end());
}

template <class Probe, class TOut, bool kVec, int kOrder, int kP = kPad>
cudaError_t launch_with(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  // 153 KB of dynamic shared memory is above the default 48 KB limit: raise it once per instantiation.
  constexpr int bytes = Layout<kP>::kSmemBytes;
  static const cudaError_t attr =
      cudaFuncSetAttribute(kernel<Probe, TOut, kVec, kP>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  if (attr != cudaSuccess) return attr;
  // none (a row-major raster of tiles) unless a variant names another order
  const BlockOrder order = variant_order<kOrder>(BlockOrder{});
  const dim3 grid = order_grid(order, (g.m + kBlockM - 1) / kBlockM, (g.n + kBlockN - 1) / kBlockN);
  kernel<Probe, TOut, kVec, kP><<<grid, kThreads, bytes, stream>>>(g, probe, order);
  return cudaGetLastError();
}

// kOrder: a variant's block order (order_code); kOrderDefault is row-major (none). kP: the variant [pad=off]'s
// padding (0). kScalar: the variant [vec=off], the guarded 2-byte copies whatever the shape.
template <class Probe, class TOut, int kOrder = kOrderDefault, int kP = kPad, bool kScalar = false>
cudaError_t launch(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  const bool vec = !kScalar && g.k % 8 == 0 && g.n % 8 == 0 && wmma_common::aligned16(g.a) && wmma_common::aligned16(g.b);
  return vec ? launch_with<Probe, TOut, true, kOrder, kP>(g, probe, stream)
             : launch_with<Probe, TOut, false, kOrder, kP>(g, probe, stream);
}

// The variants [pad=off] and [vec=off].
template <class Probe, class TOut>
cudaError_t launch_pad_off(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  return launch<Probe, TOut, kOrderDefault, 0>(g, probe, stream);
}
template <class Probe, class TOut>
cudaError_t launch_vec_off(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  return launch<Probe, TOut, kOrderDefault, kPad, true>(g, probe, stream);
}

}  // namespace gs::wmma_08_multistage
