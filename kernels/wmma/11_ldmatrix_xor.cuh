// wmma/11_ldmatrix_xor. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::wmma_11_ldmatrix_xor {

inline constexpr const char* kTitle = "Fragments loaded by hand: ldmatrix from XOR-permuted tiles, mma by mma_sync";
inline constexpr const char* kAdds =
    "Back to 09's tile (128x256, 64x64 per warp, both accumulate types; 10's larger tile is f16.f16 only) with "
    "load_matrix_sync replaced by the ldmatrix.x4 it compiles to, written out: each wmma fragment's registers are "
    "filled in the layout the layout view traces (A and B as two mma.m16n8k16 operands, elements 8-15 a copy of "
    "0-7), and wmma::mma_sync still does the products. With the loads in hand the tiles need no padding: 16-byte "
    "chunks XOR-permuted by row % 8 (mma_f16/09's layout) keep every ldmatrix conflict-free, and each lane keeps "
    "one 32-bit shared address per operand that a k-step or a fragment moves by a constant, where "
    "load_matrix_sync worked out every lane's address per load. And no branch in the k-loop: copies past the "
    "last k-tile are issued as zero fills, so ptxas can spread their arithmetic between the HMMA. On an H100 "
    "(Nsight Compute, 4096^3, f16.f32): 09 347 us, the loads alone 322, both 300, mma_f16/10 295. Relies on a "
    "fragment layout CUDA does not document: gpu_tests check every result against cuBLAS.";

}  // namespace gs::wmma_11_ldmatrix_xor

// Why: 09 and mma_f16/10 run the same HMMA, the same tile and the same pipeline, yet 09 issues about 3.1
// instructions per HMMA against mma_f16/10's 2.5, and on an H100 reads 0.49-0.55 of cuBLAS against 0.59-0.61 in
// the same processes (bench/NOTES.md, wmma/09 to wmma/11). Two things make the difference, and this rung takes
// both. load_matrix_sync takes a generic pointer and a stride, and ptxas computes every lane's ldmatrix address
// from them per load (an IMAD/LEA pair before each LDSM), on padded rows. And 09 skips the copies past the last
// k-tile with a test in the middle of every k-step: a branch, which ends the basic block ptxas schedules in, so
// the copies' address arithmetic runs as one block and the step's 32 HMMA follow back to back, each waiting out
// the fixed latency of the one before (this rung with and without the branch: "wait" 48% and 34% of the stall
// samples, the tensor pipe 68% and 73% busy; Nsight Compute, H100, 4096^3). The rung keeps
// the wmma types and mma_sync, to show that what separates the two ladders is the loads and the loop, not the
// tensor-core instruction. The fragment layout it relies on is the one gemmscope traces (layouts
// "wmma.m16n16k16.f16" A and B in any capture); CUDA leaves it unspecified, so a toolkit that changed it would
// fail this rung's correctness tests, not silently compute wrong numbers.

#include <cstdint>
#include <type_traits>

#include <mma.h>

#include "kernels/block_order.cuh"
#include "kernels/gemm_args.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"
#include "kernels/wmma/common.cuh"

namespace gs::wmma_11_ldmatrix_xor {

namespace wmma = nvcuda::wmma;
using wmma_common::kTile;

inline constexpr int kFragsM = 4, kFragsN = 4;    // fragments per warp: a 64x64 warp tile, as 09
inline constexpr int kWarpsM = 2, kWarpsN = 4;    // warps per block: 2 x 4
inline constexpr int kWarpM = kFragsM * kTile;    // 64
inline constexpr int kWarpN = kFragsN * kTile;    // 64
inline constexpr int kBlockM = kWarpsM * kWarpM;  // 128 x 256 tile of C per block
inline constexpr int kBlockN = kWarpsN * kWarpN;
inline constexpr int kBlockK = 64;
inline constexpr int kSteps = kBlockK / kTile;    // 4 k-steps of 16 per k-tile
inline constexpr int kStages = 3;                 // as 09
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kWarps = kThreads / 32;
inline constexpr int kARowBytes = kBlockK * 2;    // 128 B per row of As: 8 chunks, no padding
inline constexpr int kBRowBytes = kBlockN * 2;    // 512 B per row of Bs: 32 chunks
inline constexpr int kAStageBytes = kBlockM * kARowBytes;  // 16 KB
inline constexpr int kStageBytes = kAStageBytes + kBlockK * kBRowBytes;  // 48 KB: As then Bs
inline constexpr int kCopiesA = kBlockM * kBlockK / 8 / kThreads;   // 4 chunks of A per thread per k-tile
inline constexpr int kCopiesB = kBlockK * kBlockN / 8 / kThreads;   // 8 of B
inline constexpr int kCopyParts = kSteps - 1;                       // issued during k-steps 0, 1, 2
inline constexpr int kCopiesPerPart = (kCopiesA + kCopiesB) / kCopyParts;  // 4
static_assert((kCopiesA + kCopiesB) % kCopyParts == 0, "copies split evenly over the k-steps");
inline constexpr int kLdC = kWarpN + 8;           // epilogue staging rows, as 09
inline constexpr int kSmemBytes = kStages * kStageBytes;  // 147,456 bytes (09: 156,672 with its padding)
static_assert(kWarps * kTile * kLdC * 4 <= kSmemBytes, "float staging fits in the pipeline's bytes");
inline constexpr const char* kShapeRule = "";  // any M, N, K, as 06
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

enum Stage : int { kPrologue, kWait, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "wait (cp.async + barrier)", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsLoad, kBsLoad, kCStage, kCRead };
inline constexpr const char* kSmemSites[] = {"As store (cp.async)", "Bs store (cp.async)", "As ldmatrix.x4",
                                             "Bs ldmatrix.x4.trans", "C staging store (store_matrix_sync)",
                                             "C staging load (16 B)"};

using FragA = wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major>;
using FragB = wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::row_major>;
static_assert(sizeof(FragA().x) == 32 && sizeof(FragB().x) == 32, "16 halves per lane: 8 registers");

// Step: wmma fragments filled by ldmatrix.x4 by hand, from XOR-permuted tiles.
// Fills a fragment from the four registers of an ldmatrix.x4: registers 0-3 are the m16n8k16 operand (A: the
// 16x16 tile; B: its two 16x8 halves, columns 0-7 then 8-15), and the traced layout repeats them as 4-7.
template <class Frag>
__device__ __forceinline__ void set_frag(Frag& f, const uint32_t (&r)[4]) {
  uint32_t* w = reinterpret_cast<uint32_t*>(f.x);
#pragma unroll
  for (int i = 0; i < 4; ++i) w[i] = w[i + 4] = r[i];
}

template <class Probe, class TOut, bool kVec>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<__half, TOut> g, Probe probe, BlockOrder order) {
  constexpr int S = kStages;
  extern __shared__ __align__(128) unsigned char smem[];
  const uint32_t stages = mma_f16::smem_u32(smem);  // stage s: As (128 rows of 128 B) then Bs (64 rows of 512 B)

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;  // the warp's 64x64 tile: rows wm*64, cols wn*64
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  int tile_m, tile_n;
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  const int bm0 = tile_m * kBlockM, bn0 = tile_n * kBlockN;
  GS_PROBE(probe.block_begin(tile_m, tile_n));
  const int num_kt = (g.k + kBlockK - 1) / kBlockK;

  // This thread's chunks, as 09: A rows 32 apart in one column, B rows 8 apart in one column. Row steps of 32
  // and 8 keep row % 8, so one XOR key places all of a thread's chunks: chunk index ^ (row % 8).
  constexpr int kStepA = kThreads / (kBlockK / 8), kStepB = kThreads / (kBlockN / 8);
  const wmma_common::AChunks<kVec, kCopiesA, kStepA> ca(g.a, g.m, g.k, bm0 + tid / (kBlockK / 8),
                                                        tid % (kBlockK / 8) * 8);
  const wmma_common::BChunks<kVec, kCopiesB, kStepB> cb(g.b, g.n, tid / (kBlockN / 8),
                                                        bn0 + tid % (kBlockN / 8) * 8);
  const int a_row = ca.row0 - bm0, b_row = cb.r0;  // rows of chunk 0 in the tiles
  const uint32_t as0 = stages + a_row * kARowBytes + ((ca.c / 8) ^ (a_row % 8)) * 16;  // chunk 0's place, stage 0
  const uint32_t bs0 = stages + kAStageBytes + b_row * kBRowBytes + (((cb.col - bn0) / 8) ^ (b_row % 8)) * 16;
  // Part `part` of k-tile kt's copies into stage s: copies c in [4 part, 4 part + 4), A's for c < 4, B's after.
  auto issue = [&](int kt, int s, int part) {
#pragma unroll
    for (int c = part * kCopiesPerPart; c < (part + 1) * kCopiesPerPart; ++c) {
      if (c < kCopiesA) {
        __half* dst = static_cast<__half*>(smem_generic(as0 + s * kStageBytes + c * kStepA * kARowBytes));
        ca.copy(c, dst, g.a, g.m, g.k, kt * kBlockK, probe);
        GS_PROBE(probe.smem(kAsStore, dst, 16, kVec ? SmemKind::kCpAsync : SmemKind::kStore));
      } else {
        const int p = c - kCopiesA;
        __half* dst = static_cast<__half*>(smem_generic(bs0 + s * kStageBytes + p * kStepB * kBRowBytes));
        cb.copy(p, dst, g.b, g.k, g.n, kt * kBlockK, probe);
        GS_PROBE(probe.smem(kBsStore, dst, 16, kVec ? SmemKind::kCpAsync : SmemKind::kStore));
      }
    }
  };

  // Fragment addresses (mma_f16/10's scheme). Lane i hands ldmatrix row i % 16 of a 16x16 tile at logical chunk
  // i / 16. A fragment i of k-step kk: As row 64 wm + 16 i + i % 16, logical chunk 2 kk + i / 16, stored at that
  // ^ (i % 8); the bits of 2 kk and i / 16 are disjoint, so the byte offset is (16 x) ^ (32 kk) with x = (i / 16)
  // ^ (i % 8). B fragment j: Bs row 16 kk + i % 16, logical chunk 8 wn + 2 j + i / 16, stored at 8 wn + ((2 j +
  // i / 16) ^ (i % 8)): offset 128 wn + ((16 x) ^ (32 j)). Rows of 128 and 512 bytes leave bits 4-6 of an address
  // to the chunk, so each XOR applies to the whole address.
  const uint32_t x = (lane / 16) ^ (lane % 8);
  const uint32_t a_frag = stages + (wm * kWarpM + lane % 16) * kARowBytes + x * 16;
  const uint32_t b_frag = stages + kAStageBytes + (lane % 16) * kBRowBytes + wn * kWarpN * 2 + x * 16;
  FragA fa[2][kFragsM];
  FragB fb[2][kFragsN];
  auto load_frags = [&](int s, int kk, FragA(&a)[kFragsM], FragB(&b)[kFragsN]) {
    const uint32_t pa = (a_frag + s * kStageBytes) ^ (kk * 32);
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
      const uint32_t p = pa + i * kTile * kARowBytes;  // rows + 16 i
      GS_PROBE(probe.smem(kAsLoad, smem_generic(p), 16, SmemKind::kLdmatrix));
      uint32_t r[4];
      mma_f16::ldmatrix_x4(r, p);
      set_frag(a[i], r);
    }
    const uint32_t pb = b_frag + s * kStageBytes + kk * kTile * kBRowBytes;  // rows 16 kk + i % 16
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      const uint32_t p = pb ^ (j * 32);
      GS_PROBE(probe.smem(kBsLoad, smem_generic(p), 16, SmemKind::kLdmatrix));
      uint32_t r[4];
      mma_f16::ldmatrix_x4_trans(r, p);
      set_frag(b[j], r);
    }
  };

  wmma::fragment<wmma::accumulator, kTile, kTile, kTile, TOut> acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], from_float<TOut>(0.0f));
  }

  // Prologue, loop and epilogue are 09's but for one thing: on the vector path nothing is skipped past the last
  // k-tile. Its copies are issued anyway (every chunk outside K is a zero-size cp.async, 16 zero bytes) and the
  // last step's look-ahead loads them, as mma_f16/10 does. In 09 the test `kt + S - 1 < num_kt` around the copies
  // is a branch in the middle of every k-step: ptxas schedules within a basic block, so the copies' address
  // arithmetic stayed in one run before the branch and the step's 32 HMMA followed back to back, each waiting
  // out the fixed issue latency of the one before (Nsight Compute: "wait" 48% of stall samples with the branch,
  // 30% in mma_f16/10; bench/NOTES.md). The scalar path keeps the tests: its copies are synchronous loads.
  // k-tiles 0 .. S-2 in flight, one commit group each, so group g is always k-tile g.
  GS_PROBE(probe.iteration(0));
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (kVec || s < num_kt) {
#pragma unroll
      for (int part = 0; part < kCopyParts; ++part) issue(s, s, part);
    }
    wmma_common::cp_async_commit();
  }
  wmma_common::cp_async_wait<S - 2>();  // all but the newest S - 2 groups: k-tile 0 has landed
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));
  __syncthreads();
  GS_PROBE(probe.mark(Mark::kBarrier));
  load_frags(0, 0, fa[0], fb[0]);

  GS_PROBE(probe.stage(kCompute));
  // k-tile kt lives in stage kt % S; S k-tiles a pass, so every stage index is a constant (as 09).
  for (int kt0 = 0; kt0 < num_kt; kt0 += S) {
#pragma unroll(kVec ? S : 1)
    for (int read = 0; read < S; ++read) {
      const int kt = kt0 + read;
      if (kt >= num_kt) break;
      const int write = (read + S - 1) % S;  // the stage k-tile kt - 1 used, refilled with k-tile kt + S - 1
      GS_PROBE(probe.iteration(kt));
#pragma unroll
      for (int kk = 0; kk < kSteps; ++kk) {
        if (kk == kSteps - 1) {
          // k-tile kt + 1 has landed once S - 2 groups are left in flight; the barrier publishes it and closes
          // the reads of k-tile kt's stage, which the next k-tile refills.
          GS_PROBE(probe.stage(kWait));
          wmma_common::cp_async_wait<S - 2>();
          GS_PROBE(probe.mark(Mark::kCpAsyncWait));
          __syncthreads();
          GS_PROBE(probe.mark(Mark::kBarrier));
          GS_PROBE(probe.stage(kCompute));
        }
        const int cur = kk % 2;
        // Step kk + 1's fragments (k-tile kt + 1's first at the last step) before this step's mma_sync; past the
        // last k-tile (vector path) they are the zeros copied there, loaded and never used.
        if (kVec || kk < kSteps - 1 || kt + 1 < num_kt)
          load_frags(kk == kSteps - 1 ? (read + 1) % S : read, (kk + 1) % kSteps, fa[(kk + 1) % 2], fb[(kk + 1) % 2]);
        if (kk < kCopyParts) {
          if (kVec || kt + S - 1 < num_kt) issue(kt + S - 1, write, kk);  // scalar path: nothing past the last
          if (kk == kCopyParts - 1) wmma_common::cp_async_commit();  // one group per k-tile
        }
#pragma unroll
        for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
          for (int n = 0; n < kFragsN; ++n) {
            const int j = i % 2 ? kFragsN - 1 - n : n;  // serpentine, as 09
            wmma::mma_sync(acc[i][j], fa[cur][i], fb[cur][j], acc[i][j]);
          }
        }
      }
    }
  }

  GS_PROBE(probe.stage(kEpilogue));
  GS_PROBE(probe.epilogue());
  wmma_common::cp_async_wait<0>();  // only zero-filled groups remain, but nothing may land in the staging
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
    __syncwarp();
    wmma_common::write_c_tile<kTile, kWarpN, 32>(cs, kLdC, g, bm0 + wm * kWarpM + i * kTile,
                                                 bn0 + wn * kWarpN, lane, kCRead, probe);
    __syncwarp();
  }
  GS_PROBE(probe.block_end());
}

template <class Probe, class TOut, bool kVec>
cudaError_t launch_with(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  static const cudaError_t attr =
      cudaFuncSetAttribute(kernel<Probe, TOut, kVec>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
  if (attr != cudaSuccess) return attr;
  const BlockOrder order{};  // row-major tiles, as 08 and 09
  const dim3 grid = order_grid(order, (g.m + kBlockM - 1) / kBlockM, (g.n + kBlockN - 1) / kBlockN);
  kernel<Probe, TOut, kVec><<<grid, kThreads, kSmemBytes, stream>>>(g, probe, order);
  return cudaGetLastError();
}

template <class Probe, class TOut>
cudaError_t launch(const GemmArgs<__half, TOut>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  const bool vec = g.k % 8 == 0 && g.n % 8 == 0 && wmma_common::aligned16(g.a) && wmma_common::aligned16(g.b);
  return vec ? launch_with<Probe, TOut, true>(g, probe, stream) : launch_with<Probe, TOut, false>(g, probe, stream);
}

}  // namespace gs::wmma_11_ldmatrix_xor
