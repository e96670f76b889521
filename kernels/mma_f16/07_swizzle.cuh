// mma_f16/07_swizzle. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_07_swizzle {

inline constexpr const char* kTitle = "Threadblock swizzle: bands of columns for L2 reuse";
inline constexpr const char* kAdds =
    "Blocks launch in bands of 2^L tile columns, down all tile rows of C before the next band (CUTLASS's "
    "identity swizzle, the swizzle view's cutlass:L), so resident blocks share A and B panels in L2: the L2 hit "
    "rate rises to 91-92% and DRAM reads fall 2-3x at 4096x16384x4096 and 8192^3 (Nsight Compute, README). Time "
    "barely follows. On an H200 the banded order is 0.3-1.0% faster than row-major there, and at 4096^3, where A "
    "and B (64 MiB) nearly fit in the L2, the rung is 1-3.5% slower than 06 (the bundled capture: 1.1%; "
    "bench/results/h200.json: 3.5%). On an H100 it is 5-7% slower than "
    "row-major and than 06: with 2 stages, each copy's longer wait in the banded order is not hidden (long-"
    "scoreboard stalls 0.9 per issue against 0.5 row-major, Nsight Compute, bench/NOTES.md); 10's 4 stages turn "
    "the same order into a 2.5-5.4% gain.";

}  // namespace gs::mma_f16_07_swizzle

#include "kernels/gemm_args.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16_07_swizzle {

using namespace gs::mma_f16;

inline constexpr int kBlockM = 256, kBlockN = 128, kBlockK = 64;  // block tile of C; k-tile of A and B
inline constexpr int kWarpsM = 4, kWarpsN = 2;                     // 8 warps: 4 along M x 2 along N
inline constexpr int kWarpM = kBlockM / kWarpsM;                   // 64 rows of C per warp
inline constexpr int kWarpN = kBlockN / kWarpsN;                   // 64 columns of C per warp
inline constexpr int kMI = kWarpM / kMmaM, kNI = kWarpN / kMmaN;   // 4 x 8 mma tiles per warp
inline constexpr int kKI = kBlockK / kMmaK;                        // 4 k16 steps per k-tile
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kAChunksPerRow = kBlockK / kChunk;            // 8 chunks per 64-half row of the A tile
inline constexpr int kBChunksPerRow = kBlockN / kChunk;            // 16 per 128-half row of the B tile
inline constexpr int kARowsPerPass = kThreads / kAChunksPerRow;    // 32 rows of A per pass of 256 threads
inline constexpr int kBRowsPerPass = kThreads / kBChunksPerRow;    // 16 rows of B
inline constexpr int kALoads = kBlockM / kARowsPerPass;            // 8 cp.async of A per thread per k-tile
inline constexpr int kBLoads = kBlockK / kBRowsPerPass;            // 4 of B
inline constexpr int kPad = 8;                                     // halves of padding per row: 16 bytes
inline constexpr int kAStride = kBlockK + kPad;                    // 72 halves = 144 B = 36 words per row of As
inline constexpr int kBStride = kBlockN + kPad;                    // 136 halves = 272 B = 68 words per row of Bs
inline constexpr int kStages = 2;
inline constexpr int kAStageHalves = kBlockM * kAStride;           // one stage of As: 36 KB
inline constexpr int kBStageHalves = kBlockK * kBStride;           // one stage of Bs: 17 KB
inline constexpr int kSmemBytes = kStages * (kAStageHalves + kBStageHalves) * 2;  // 106 KB
inline constexpr int kMaxLogTile = 4;  // bands of at most 16 tile columns (2048 columns of C)
// cp.async of 16 bytes needs 16-byte aligned rows (K, N multiples of 8); no edge handling: whole tiles only.
inline constexpr const char* kShapeRule = "M must be a multiple of 256, N of 128, K of 64";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBlockM == 0 && n % kBlockN == 0 && k % kBlockK == 0;
}

enum Stage : int { kPrologue, kWait, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "wait", "mma", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As cp.async", "Bs cp.async", "As load (frag)", "Bs load (frag)"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<__half, float> g, Probe probe, BlockOrder order) {
  __half* As = reinterpret_cast<__half*>(dynamic_smem());  // kStages x (BM, BK) tiles of A, row stride 72
  __half* Bs = As + kStages * kAStageHalves;                // kStages x (BK, BN) tiles of B, row stride 136
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gid = lane / 4, tig = lane % 4;                 // mma groupID and thread-in-group
  // Step: the launch order, bands of 2^L tile columns down all tile rows (order_tile).
  // The rung's own order (cutlass:L), a swizzled raster: grid (tiles_m << L, ceil(tiles_n / 2^L)). Launch order runs blockIdx.x fastest, so
  // 2^L consecutive blocks take the 2^L tiles of one row of a band, the next 2^L the row below, and so on.
  const int tiles_m = g.m / kBlockM, tiles_n = g.n / kBlockN;
  int tile_m, tile_n;  // the block order of the rung or its variant [order=...] (kernels/block_order.cuh)
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  const int bm0 = tile_m * kBlockM, bn0 = tile_n * kBlockN;  // block's top-left element of C
  const int wm0 = (warp / kWarpsN) * kWarpM;                // warp's 64x64 sub-tile inside the block
  const int wn0 = (warp % kWarpsN) * kWarpN;
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  // This thread's 16-byte chunks of each k-tile, both tiles row-major now: a quarter-warp copies one whole
  // 128-byte row segment, and with rows of 144 (A) or 272 bytes (B) that is conflict-free.
  const int a_row = tid / kAChunksPerRow, a_col = (tid % kAChunksPerRow) * kChunk;  // + i * kARowsPerPass rows
  const int b_row = tid / kBChunksPerRow, b_col = (tid % kBChunksPerRow) * kChunk;  // + i * kBRowsPerPass rows
  const __half* a_src = g.a + static_cast<size_t>(bm0 + a_row) * g.k + a_col;  // A[bm0 + a_row][a_col]
  const __half* b_src = g.b + static_cast<size_t>(b_row) * g.n + bn0 + b_col;  // B[b_row][bn0 + b_col]
  const int ktiles = g.k / kBlockK;

  // Issues this thread's copies of k-tile kt into stage s; the caller commits them as one group.
  auto load_tile = [&](int kt, int s) {
    const __half* a = a_src + static_cast<size_t>(kt) * kBlockK;            // A[.][kt * 64 ..]
    const __half* b = b_src + static_cast<size_t>(kt) * kBlockK * g.n;      // B[kt * 64 + .][.]
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      __half* dst = As + s * kAStageHalves + (a_row + i * kARowsPerPass) * kAStride + a_col;
      GS_PROBE(probe.smem(kAsCopy, dst, 16, SmemKind::kCpAsync));
      GS_PROBE(probe.gmem(kGmemA, a + static_cast<size_t>(i * kARowsPerPass) * g.k, 16, GmemKind::kCpAsync));
      cp_async_16(dst, a + static_cast<size_t>(i * kARowsPerPass) * g.k);
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      __half* dst = Bs + s * kBStageHalves + (b_row + i * kBRowsPerPass) * kBStride + b_col;
      GS_PROBE(probe.smem(kBsCopy, dst, 16, SmemKind::kCpAsync));
      GS_PROBE(probe.gmem(kGmemB, b + static_cast<size_t>(i * kBRowsPerPass) * g.n, 16, GmemKind::kCpAsync));
      cp_async_16(dst, b + static_cast<size_t>(i * kBRowsPerPass) * g.n);
    }
  };

  // Loads the warp's fragments of k16 step kk of the tile in stage s (the loads of rung 04).
  auto load_frags = [&](int s, int kk, uint32_t(&af)[kMI][4], uint32_t(&bf)[kNI][2]) {
    const uint16_t* as = reinterpret_cast<const uint16_t*>(As + s * kAStageHalves);
    const uint16_t* bs = reinterpret_cast<const uint16_t*>(Bs + s * kBStageHalves);
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
      // A: 32-bit loads of k-adjacent pairs, bank 36 g + t = 4 g + t (mod 32): conflict-free
      const uint16_t* a = as + (wm0 + mi * kMmaM + gid) * kAStride + kk * kMmaK + 2 * tig;  // As[row g][k 2t]
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const uint16_t* p = a + (r & 1) * 8 * kAStride + (r >> 1) * 8;  // reg r: row + 8 (r odd), k + 8 (r >= 2)
        GS_PROBE(probe.smem(kAsFrag, p, 4, SmemKind::kLoad));
        af[mi][r] = *reinterpret_cast<const uint32_t*>(p);
      }
    }
#pragma unroll
    for (int ni = 0; ni < kNI; ++ni) {
      // B: two 16-bit loads per register, bank 8 t + g / 2, lanes g and g ^ 1 share a word
      const uint16_t* b = bs + (kk * kMmaK + 2 * tig) * kBStride + wn0 + ni * kMmaN + gid;  // Bs[k 2t][col g]
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        const uint16_t* p = b + r * 8 * kBStride;  // reg 1: k + 8
        GS_PROBE(probe.smem(kBsFrag, p, 2, SmemKind::kLoad));  // a 16-bit load (ld.shared.u16)
        GS_PROBE(probe.smem(kBsFrag, p + kBStride, 2, SmemKind::kLoad));
        bf[ni][r] = pack_halves(p[0], p[kBStride]);  // (k, k + 1) of column g
      }
    }
  };

  float acc[kMI][kNI][4] = {};       // 128 accumulators in registers
  uint32_t af[2][kMI][4], bf[2][kNI][2];  // fragments of two k16 steps: one in use, one loading

  GS_PROBE(probe.stage(kPrologue));
  load_tile(0, 0);
  cp_async_commit();
  cp_async_wait<0>();
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));
  __syncthreads();
  GS_PROBE(probe.mark(Mark::kBarrier));
  load_frags(0, 0, af[0], bf[0]);

  GS_PROBE(probe.stage(kMma));
  int read = 0;  // the stage holding tile kt; the other one receives tile kt + 1
  for (int kt = 0; kt < ktiles; ++kt) {
    GS_PROBE(probe.iteration(kt));
#pragma unroll
    for (int kk = 0; kk < kKI; ++kk) {
      if (kk == kKI - 1) {
        // The next fragments come from tile kt + 1: wait for its copies, then a barrier makes everyone's
        // visible and tells the block that all reads of tile kt's stage (the last were at kk - 1) are done.
        GS_PROBE(probe.stage(kWait));
        cp_async_wait<0>();
        GS_PROBE(probe.mark(Mark::kCpAsyncWait));
        __syncthreads();
        GS_PROBE(probe.mark(Mark::kBarrier));
        GS_PROBE(probe.stage(kMma));
        read ^= 1;
      }
      if (kk == 0) {
        // The other stage was last read before the previous tile's barrier: free to overwrite.
        if (kt + 1 < ktiles) load_tile(kt + 1, read ^ 1);
        cp_async_commit();
      }
      load_frags(read, (kk + 1) % kKI, af[(kk + 1) % 2], bf[(kk + 1) % 2]);  // step kk + 1 (of tile kt + 1 at the end)
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni) mma_16816(acc[mi][ni], af[kk % 2][mi], bf[kk % 2][ni]);
      }
    }
  }

  GS_PROBE(probe.stage(kEpilogue));
#pragma unroll
  for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
    for (int ni = 0; ni < kNI; ++ni) {
      store_c_frag(g, bm0 + wm0 + mi * kMmaM, bn0 + wn0 + ni * kMmaN, lane, acc[mi][ni], probe);
    }
  }
  GS_PROBE(probe.block_end());
}

// kOrder: a variant's block order (order_code), or kOrderDefault for the rung's own bands.
template <class Probe, int kOrder = kOrderDefault>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  // past the default 48 KB of dynamic shared memory: raise the limit once per instantiation
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  // Band width 2^L: as wide as C allows up to 16 tiles. A wave of 132 blocks then covers about 8 rows x 16
  // columns of 256x128 tiles, 9 A panels + 16 B panels (34 MiB at K = 4096) where the row-major raster
  // reads 5 + 32 (42 MiB).
  const int tiles_m = g.m / kBlockM, tiles_n = g.n / kBlockN;
  const BlockOrder order = variant_order<kOrder>(tiles_n, kMaxLogTile);
  const dim3 grid = order_grid(order, tiles_m, tiles_n);
  kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(g, probe, order);
  return cudaGetLastError();
}

}  // namespace gs::mma_f16_07_swizzle
