// mma_f16/01_vectorized. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_01_vectorized {

inline constexpr const char* kTitle = "mma.sync m16n8k16 on tiles staged by 16-byte loads";
inline constexpr const char* kAdds =
    "Mma.sync m16n8k16 (fp16 in, fp32 accumulate) on shared-memory tiles that 16-byte uint4 loads stage: "
    "128x128 block, 8 warps of 64x32, k-steps of 32. Left plain for the next rungs: unpadded tiles make "
    "fragment loads 4-way bank conflicts; rolled warp loops (#pragma unroll 1) keep C in local memory.";

}  // namespace gs::mma_f16_01_vectorized

#include "kernels/gemm_args.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16_01_vectorized {

using namespace gs::mma_f16;

inline constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 32;  // block tile of C; k-step of A and B
inline constexpr int kWarpsM = 2, kWarpsN = 4;                     // 8 warps: 2 along M x 4 along N
inline constexpr int kWarpM = kBlockM / kWarpsM;                   // 64 rows of C per warp
inline constexpr int kWarpN = kBlockN / kWarpsN;                   // 32 columns of C per warp
inline constexpr int kMI = kWarpM / kMmaM, kNI = kWarpN / kMmaN;   // 4 x 4 mma tiles per warp
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kAChunksPerRow = kBlockK / kChunk;            // 4 uint4 per 32-half row of the A tile
inline constexpr int kBChunksPerRow = kBlockN / kChunk;            // 16 per 128-half row of the B tile
inline constexpr int kARowsPerPass = kThreads / kAChunksPerRow;    // 64 rows of A per pass of 256 threads
inline constexpr int kBRowsPerPass = kThreads / kBChunksPerRow;    // 16 rows of B
inline constexpr int kALoads = kBlockM / kARowsPerPass;            // 2 uint4 of A per thread per k-step
inline constexpr int kBLoads = kBlockK / kBRowsPerPass;            // 2 of B
inline constexpr int kSmemBytes = (kBlockM * kBlockK + kBlockK * kBlockN) * 2;  // 16 KB, no padding
// uint4 loads need 16-byte aligned rows (K, N multiples of 8); no edge handling: whole tiles only.
inline constexpr const char* kShapeRule = "M and N must be multiples of 128, K a multiple of 32";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBlockM == 0 && n % kBlockN == 0 && k % kBlockK == 0;
}

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As store", "Bs store", "As load (frag)", "Bs load (frag)"};

template <class Probe>
__global__ void __launch_bounds__(kThreads, 2) kernel(GemmArgs<__half, float> g, Probe probe) {
  __half* As = reinterpret_cast<__half*>(dynamic_smem());  // (BM, BK) = (128, 32) tile of A, row-major
  __half* Bs = As + kBlockM * kBlockK;                      // (BK, BN) = (32, 128) tile of B, row-major
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gid = lane / 4, tig = lane % 4;                 // mma groupID and thread-in-group
  const int bm0 = blockIdx.y * kBlockM, bn0 = blockIdx.x * kBlockN;  // block's top-left element of C
  const int wm0 = (warp / kWarpsN) * kWarpM;                // warp's 64x32 sub-tile inside the block
  const int wn0 = (warp % kWarpsN) * kWarpN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));

  // Step: 16-byte copies stage A and B in shared memory; mma.sync m16n8k16 reads them below.
  // This thread's 16-byte chunks of each k-step's tiles, numbered row-major: consecutive threads take
  // consecutive 16 bytes of a row, so a warp reads 8 rows x 64 B of A or 2 rows x 256 B of B (whole
  // sectors) and a quarter-warp stores 128 contiguous bytes, which is conflict-free.
  const int a_row = tid / kAChunksPerRow, a_col = (tid % kAChunksPerRow) * kChunk;  // + i * kARowsPerPass rows
  const int b_row = tid / kBChunksPerRow, b_col = (tid % kBChunksPerRow) * kChunk;  // + i * kBRowsPerPass rows
  const __half* a_src = g.a + static_cast<size_t>(bm0 + a_row) * g.k + a_col;  // A[bm0 + a_row][a_col]
  const __half* b_src = g.b + static_cast<size_t>(b_row) * g.n + bn0 + b_col;  // B[b_row][bn0 + b_col]

  float acc[kMI][kNI][4] = {};  // one m16n8 accumulator per (mi, ni); local memory: indexed at run time

  for (int kt = 0; kt < g.k / kBlockK; ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
    uint4 ra[kALoads], rb[kBLoads];
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      GS_PROBE(probe.gmem(kGmemA, a_src + static_cast<size_t>(i * kARowsPerPass) * g.k, 16, GmemKind::kLoad));
      ra[i] = *reinterpret_cast<const uint4*>(a_src + static_cast<size_t>(i * kARowsPerPass) * g.k);
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      GS_PROBE(probe.gmem(kGmemB, b_src + static_cast<size_t>(i * kBRowsPerPass) * g.n, 16, GmemKind::kLoad));
      rb[i] = *reinterpret_cast<const uint4*>(b_src + static_cast<size_t>(i * kBRowsPerPass) * g.n);
    }
    a_src += kBlockK;                                  // next k-step: 32 columns of A to the right...
    b_src += static_cast<size_t>(kBlockK) * g.n;       // ...and 32 rows of B down
#pragma unroll
    for (int i = 0; i < kALoads; ++i) {
      __half* dst = As + (a_row + i * kARowsPerPass) * kBlockK + a_col;  // As[row][col .. col + 8)
      GS_PROBE(probe.smem(kAsStore, dst, 16, SmemKind::kStore));
      *reinterpret_cast<uint4*>(dst) = ra[i];
    }
#pragma unroll
    for (int i = 0; i < kBLoads; ++i) {
      __half* dst = Bs + (b_row + i * kBRowsPerPass) * kBlockN + b_col;  // Bs[row][col .. col + 8)
      GS_PROBE(probe.smem(kBsStore, dst, 16, SmemKind::kStore));
      *reinterpret_cast<uint4*>(dst) = rb[i];
    }
    __syncthreads();  // the tile is complete
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
    const uint16_t* as = reinterpret_cast<const uint16_t*>(As);  // raw fp16 bits, packed into mma registers
    const uint16_t* bs = reinterpret_cast<const uint16_t*>(Bs);
#pragma unroll 1
    for (int kk = 0; kk < kBlockK; kk += kMmaK) {
#pragma unroll 1
      for (int mi = 0; mi < kMI; ++mi) {
        // A fragment: 32-bit loads of k-adjacent pairs. Rows are 64 B = 16 words apart, so rows g and
        // g + 2 share a bank: the 8 rows of a load fall on 2 bank groups, 4-way conflicts.
        const uint16_t* a = as + (wm0 + mi * kMmaM + gid) * kBlockK + kk + 2 * tig;  // As[row g][k 2t]
        uint32_t af[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const uint16_t* p = a + (r & 1) * 8 * kBlockK + (r >> 1) * 8;  // reg r: row + 8 (r odd), k + 8 (r >= 2)
          GS_PROBE(probe.smem(kAsFrag, p, 4, SmemKind::kLoad));
          af[r] = *reinterpret_cast<const uint32_t*>(p);
        }
#pragma unroll 1
        for (int ni = 0; ni < kNI; ++ni) {
          // B fragment: mma wants k-adjacent pairs of one column, which B's row-major tile keeps a row
          // (256 B) apart: two 16-bit loads per register. Every row starts on bank 0, so the 4 lanes
          // with the same column pair but different t hit one bank at 4 different words: 4-way.
          const uint16_t* b = bs + (kk + 2 * tig) * kBlockN + wn0 + ni * kMmaN + gid;  // Bs[k 2t][col g]
          uint32_t bf[2];
#pragma unroll
          for (int r = 0; r < 2; ++r) {
            const uint16_t* p = b + r * 8 * kBlockN;  // reg 1: k + 8
            GS_PROBE(probe.smem(kBsFrag, p, 2, SmemKind::kLoad));  // a 16-bit load (ld.shared.u16)
            GS_PROBE(probe.smem(kBsFrag, p + kBlockN, 2, SmemKind::kLoad));
            bf[r] = pack_halves(p[0], p[kBlockN]);  // (k, k + 1) of column g
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

}  // namespace gs::mma_f16_01_vectorized
