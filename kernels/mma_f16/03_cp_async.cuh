// mma_f16/03_cp_async. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_03_cp_async {

inline constexpr const char* kTitle = "cp.async: global to shared without registers";
inline constexpr const char* kAdds =
    "Global -> shared with cp.async.cg (16 bytes, L2 only): no staging registers, no stall until the wait. "
    "Alone it barely helps (each k-step still waits for its own tile before computing); it is the mechanism "
    "rung 05's double buffer needs, where the next tile's copy runs behind the mma.";

}  // namespace gs::mma_f16_03_cp_async

#include "kernels/gemm_args.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16_03_cp_async {

using namespace gs::mma_f16;

inline constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 32;  // block tile of C; k-step of A and B
inline constexpr int kWarpsM = 2, kWarpsN = 4;                     // 8 warps: 2 along M x 4 along N
inline constexpr int kWarpM = kBlockM / kWarpsM;                   // 64 rows of C per warp
inline constexpr int kWarpN = kBlockN / kWarpsN;                   // 32 columns of C per warp
inline constexpr int kMI = kWarpM / kMmaM, kNI = kWarpN / kMmaN;   // 4 x 4 mma tiles per warp
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kAChunksPerRow = kBlockK / kChunk;            // 4 uint4 per 32-half row of the A tile
inline constexpr int kBChunksPerRow = kBlockN / kChunk;            // 16 per 128-half row of the B tile
inline constexpr int kBRowsPerPass = kThreads / kBChunksPerRow;    // 16 rows of B
inline constexpr int kALoads = kBlockM * kAChunksPerRow / kThreads;  // 2 uint4 of A per thread per k-step
inline constexpr int kBLoads = kBlockK / kBRowsPerPass;            // 2 of B
static_assert(kThreads / 32 * 16 == kBlockM, "A copy: each warp takes 16 rows, 2 chunks per lane");
inline constexpr int kPad = 8;                                     // halves of padding per row: 16 bytes
inline constexpr int kAStride = kBlockK + kPad;                    // 40 halves = 80 B = 20 words per row of As
inline constexpr int kBStride = kBlockN + kPad;                    // 136 halves = 272 B = 68 words per row of Bs
inline constexpr int kSmemBytes = (kBlockM * kAStride + kBlockK * kBStride) * 2;  // 18.5 KB
// cp.async of 16 bytes needs 16-byte aligned rows (K, N multiples of 8); no edge handling: whole tiles only.
inline constexpr const char* kShapeRule = "M and N must be multiples of 128, K a multiple of 32";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBlockM == 0 && n % kBlockN == 0 && k % kBlockK == 0;
}

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load", "compute", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As cp.async", "Bs cp.async", "As load (frag)", "Bs load (frag)"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<__half, float> g, Probe probe) {
  __half* As = reinterpret_cast<__half*>(dynamic_smem());  // (BM, BK) = (128, 32) tile of A, row stride 40
  __half* Bs = As + kBlockM * kAStride;                     // (BK, BN) = (32, 128) tile of B, row stride 136
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gid = lane / 4, tig = lane % 4;                 // mma groupID and thread-in-group
  const int bm0 = blockIdx.y * kBlockM, bn0 = blockIdx.x * kBlockN;  // block's top-left element of C
  const int wm0 = (warp / kWarpsN) * kWarpM;                // warp's 64x32 sub-tile inside the block
  const int wn0 = (warp % kWarpsN) * kWarpN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // This thread's 16-byte chunks of each k-step's tiles (rung 02): A column-first inside a warp, so a
  // quarter-warp stores one chunk of 8 consecutive 80-byte rows; B row-major. Both conflict-free.
  const int a_row = warp * 16 + lane % 16, a_col = (lane / 16) * kChunk;          // chunk i at a_col + 16 i
  const int b_row = tid / kBChunksPerRow, b_col = (tid % kBChunksPerRow) * kChunk;  // + i * kBRowsPerPass rows
  const __half* a_src = g.a + static_cast<size_t>(bm0 + a_row) * g.k + a_col;  // A[bm0 + a_row][a_col]
  const __half* b_src = g.b + static_cast<size_t>(b_row) * g.n + bn0 + b_col;  // B[b_row][bn0 + b_col]

  float acc[kMI][kNI][4] = {};  // one m16n8 accumulator per (mi, ni); local memory: indexed at run time

  for (int kt = 0; kt < g.k / kBlockK; ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      __half* dst = As + a_row * kAStride + a_col + i * 2 * kChunk;  // As[row][col .. col + 8)
      GS_PROBE(probe.smem(kAsCopy, dst, 16, SmemKind::kCpAsync));
      GS_PROBE(probe.gmem(kGmemA, a_src + i * 2 * kChunk, 16, GmemKind::kCpAsync));
      cp_async_16(dst, a_src + i * 2 * kChunk);
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      __half* dst = Bs + (b_row + i * kBRowsPerPass) * kBStride + b_col;  // Bs[row][col .. col + 8)
      GS_PROBE(probe.smem(kBsCopy, dst, 16, SmemKind::kCpAsync));
      GS_PROBE(probe.gmem(kGmemB, b_src + static_cast<size_t>(i * kBRowsPerPass) * g.n, 16, GmemKind::kCpAsync));
      cp_async_16(dst, b_src + static_cast<size_t>(i * kBRowsPerPass) * g.n);
    }
    cp_async_commit();
    a_src += kBlockK;                                  // next k-step: 32 columns of A to the right...
    b_src += static_cast<size_t>(kBlockK) * g.n;       // ...and 32 rows of B down
    cp_async_wait<0>();  // this thread's copies have landed...
    GS_PROBE(probe.mark(Mark::kCpAsyncWait));
    __syncthreads();     // ...and everyone's: the tile is complete
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
    const uint16_t* as = reinterpret_cast<const uint16_t*>(As);  // raw fp16 bits, packed into mma registers
    const uint16_t* bs = reinterpret_cast<const uint16_t*>(Bs);
#pragma unroll 1
    for (int kk = 0; kk < kBlockK; kk += kMmaK) {
#pragma unroll 1
      for (int mi = 0; mi < kMI; ++mi) {
        // A fragment: 32-bit loads of k-adjacent pairs. Rows are 20 words apart: lane (g, t) reads
        // bank 20 g + t (mod 32), 32 different banks.
        const uint16_t* a = as + (wm0 + mi * kMmaM + gid) * kAStride + kk + 2 * tig;  // As[row g][k 2t]
        uint32_t af[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const uint16_t* p = a + (r & 1) * 8 * kAStride + (r >> 1) * 8;  // reg r: row + 8 (r odd), k + 8 (r >= 2)
          GS_PROBE(probe.smem(kAsFrag, p, 4, SmemKind::kLoad));
          af[r] = *reinterpret_cast<const uint32_t*>(p);
        }
#pragma unroll 1
        for (int ni = 0; ni < kNI; ++ni) {
          // B fragment: two 16-bit loads per register (k-adjacent pairs are a row apart). Rows are 68
          // words apart: lane (g, t) reads bank 8 t + g / 2 (+ 4 for k + 1), and lanes g, g ^ 1 read
          // the two halves of one word, which is a broadcast: no conflict.
          const uint16_t* b = bs + (kk + 2 * tig) * kBStride + wn0 + ni * kMmaN + gid;  // Bs[k 2t][col g]
          uint32_t bf[2];
#pragma unroll
          for (int r = 0; r < 2; ++r) {
            const uint16_t* p = b + r * 8 * kBStride;  // reg 1: k + 8
            GS_PROBE(probe.smem(kBsFrag, p, 2, SmemKind::kLoad));  // a 16-bit load (ld.shared.u16)
            GS_PROBE(probe.smem(kBsFrag, p + kBStride, 2, SmemKind::kLoad));
            bf[r] = pack_halves(p[0], p[kBStride]);  // (k, k + 1) of column g
          }
          mma_16816(acc[mi][ni], af, bf);
        }
      }
    }
    __syncthreads();  // everyone is done reading before the next k-step overwrites the tile
    GS_PROBE(probe.mark(Mark::kBarrier));
  }

  GS_PROBE(probe.stage(kEpilogue));
  for (int mi = 0; mi < kMI; ++mi) {
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

}  // namespace gs::mma_f16_03_cp_async
