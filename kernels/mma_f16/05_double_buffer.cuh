// mma_f16/05_double_buffer. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_05_double_buffer {

inline constexpr const char* kTitle = "Double buffering: two cp.async stages, fragments prefetched";
inline constexpr const char* kAdds =
    "Two shared-memory stages: tile kt + 1's cp.async is issued as tile kt starts and lands during its mma, "
    "one barrier per k-tile. Fragments are double-buffered in registers too: k16 step kk + 1 is read from "
    "shared memory while step kk's mma run, hiding the load latency behind tensor work.";

}  // namespace gs::mma_f16_05_double_buffer

#include "kernels/gemm_args.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16_05_double_buffer {

using namespace gs::mma_f16;

inline constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 32;  // block tile of C; k-tile of A and B
inline constexpr int kWarpsM = 2, kWarpsN = 4;                     // 8 warps: 2 along M x 4 along N
inline constexpr int kWarpM = kBlockM / kWarpsM;                   // 64 rows of C per warp
inline constexpr int kWarpN = kBlockN / kWarpsN;                   // 32 columns of C per warp
inline constexpr int kMI = kWarpM / kMmaM, kNI = kWarpN / kMmaN;   // 4 x 4 mma tiles per warp
inline constexpr int kKI = kBlockK / kMmaK;                        // 2 k16 steps per k-tile
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kAChunksPerRow = kBlockK / kChunk;            // 4 chunks per 32-half row of the A tile
inline constexpr int kBChunksPerRow = kBlockN / kChunk;            // 16 per 128-half row of the B tile
inline constexpr int kBRowsPerPass = kThreads / kBChunksPerRow;    // 16 rows of B
inline constexpr int kALoads = kBlockM * kAChunksPerRow / kThreads;  // 2 cp.async of A per thread per k-tile
inline constexpr int kBLoads = kBlockK / kBRowsPerPass;            // 2 of B
static_assert(kThreads / 32 * 16 == kBlockM, "A copy: each warp takes 16 rows, 2 chunks per lane");
inline constexpr int kPad = 8;                                     // halves of padding per row: 16 bytes
inline constexpr int kAStride = kBlockK + kPad;                    // 40 halves = 80 B = 20 words per row of As
inline constexpr int kBStride = kBlockN + kPad;                    // 136 halves = 272 B = 68 words per row of Bs
inline constexpr int kStages = 2;
inline constexpr int kAStageHalves = kBlockM * kAStride;           // one stage of As
inline constexpr int kBStageHalves = kBlockK * kBStride;           // one stage of Bs
inline constexpr int kSmemBytes = kStages * (kAStageHalves + kBStageHalves) * 2;  // 37 KB
// cp.async of 16 bytes needs 16-byte aligned rows (K, N multiples of 8); no edge handling: whole tiles only.
inline constexpr const char* kShapeRule = "M and N must be multiples of 128, K a multiple of 32";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBlockM == 0 && n % kBlockN == 0 && k % kBlockK == 0;
}

enum Stage : int { kPrologue, kWait, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "wait", "mma", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As cp.async", "Bs cp.async", "As load (frag)", "Bs load (frag)"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<__half, float> g, Probe probe) {
  __half* As = reinterpret_cast<__half*>(dynamic_smem());  // kStages x (BM, BK) tiles of A, row stride 40
  __half* Bs = As + kStages * kAStageHalves;                // kStages x (BK, BN) tiles of B, row stride 136
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gid = lane / 4, tig = lane % 4;                 // mma groupID and thread-in-group
  const int bm0 = blockIdx.y * kBlockM, bn0 = blockIdx.x * kBlockN;  // block's top-left element of C
  const int wm0 = (warp / kWarpsN) * kWarpM;                // warp's 64x32 sub-tile inside the block
  const int wn0 = (warp % kWarpsN) * kWarpN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // This thread's 16-byte chunks of each k-tile: A column-first inside a warp (a quarter-warp stores one
  // chunk of 8 consecutive rows, conflict-free with the 80-byte rows), B row-major (rung 02).
  const int a_row = warp * 16 + lane % 16, a_col = (lane / 16) * kChunk;  // chunk i at a_col + 16 i
  const int b_row = tid / kBChunksPerRow, b_col = (tid % kBChunksPerRow) * kChunk;  // + i * kBRowsPerPass rows
  const __half* a_src = g.a + static_cast<size_t>(bm0 + a_row) * g.k + a_col;  // A[bm0 + a_row][a_col]
  const __half* b_src = g.b + static_cast<size_t>(b_row) * g.n + bn0 + b_col;  // B[b_row][bn0 + b_col]
  const int ktiles = g.k / kBlockK;

  // Issues this thread's copies of k-tile kt into stage s; the caller commits them as one group.
  auto load_tile = [&](int kt, int s) {
    const __half* a = a_src + static_cast<size_t>(kt) * kBlockK;            // A[.][kt * 32 ..]
    const __half* b = b_src + static_cast<size_t>(kt) * kBlockK * g.n;      // B[kt * 32 + .][.]
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      __half* dst = As + s * kAStageHalves + a_row * kAStride + a_col + i * 2 * kChunk;
      GS_PROBE(probe.smem(kAsCopy, dst, 16, SmemKind::kCpAsync));
      GS_PROBE(probe.gmem(kGmemA, a + i * 2 * kChunk, 16, GmemKind::kCpAsync));
      cp_async_16(dst, a + i * 2 * kChunk);
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
      // A: 32-bit loads of k-adjacent pairs, bank 20 g + t (mod 32): conflict-free
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

  float acc[kMI][kNI][4] = {};       // 64 accumulators in registers (rung 04)
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

template <class Probe>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  // grid x walks tile columns, grid y tile rows: row-major raster over C
  const dim3 grid(g.n / kBlockN, g.m / kBlockM);
  kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::mma_f16_05_double_buffer
