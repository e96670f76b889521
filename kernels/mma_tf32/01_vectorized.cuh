// mma_tf32/01_vectorized. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_tf32_01_vectorized {

inline constexpr const char* kTitle = "mma.sync tf32 from shared memory filled by float4 loads";
inline constexpr const char* kAdds =
    "Tensor cores via PTX mma.sync m16n8k8 tf32 (fp32 in and out). 128x32 of A and 32x128 of B are staged in "
    "shared memory by coalesced float4 loads; 8 warps each compute 32x64 of a 128x128 tile of C. Plain on "
    "purpose: fragment reads conflict (02), copies are waited for (03, 05), accumulators use local memory "
    "(04).";

}  // namespace gs::mma_tf32_01_vectorized

#include <cstdint>

#include "kernels/gemm_args.cuh"
#include "kernels/mma_tf32/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_tf32_01_vectorized {

using namespace gs::mma_tf32;

inline constexpr int kBM = 128, kBN = 128;          // tile of C per block
inline constexpr int kBK = 32;                      // k-slice of A and B staged per step
inline constexpr int kWarpsM = 4, kWarpsN = 2;      // warp grid over the block tile
inline constexpr int kWM = kBM / kWarpsM;           // 32 x 64 tile of C per warp
inline constexpr int kWN = kBN / kWarpsN;
inline constexpr int kTilesM = kWM / 16;            // 2 x 8 mma tiles of 16x8 per warp
inline constexpr int kTilesN = kWN / 8;
inline constexpr int kSteps = kBK / 8;              // 4 mma k-steps per k-slice
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
// Whole tiles only: no load or store is predicated.
inline constexpr const char* kShapeRule = "M and N must be multiples of 128, K a multiple of 32";
inline constexpr bool supports(int m, int n, int k) {
  return m > 0 && n > 0 && k > 0 && m % kBM == 0 && n % kBN == 0 && k % kBK == 0;
}

enum Stage : int { kLoad, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"load", "compute", "epilogue"};
enum Site : int { kAsStore, kBsStore, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As store", "Bs store", "As load (frag)", "Bs load (frag)"};

template <class Probe>
__global__ void __launch_bounds__(kThreads) kernel(GemmArgs<float, float> g, Probe probe) {
  // Unpadded row-major tiles. A row of As is 32 floats = 128 bytes = all 32 banks, a row of Bs 512 bytes:
  // the column a fragment lane reads decides its bank, whatever the row.
  __shared__ __align__(16) float As[kBM][kBK];  // (BM, BK) slice of A
  __shared__ __align__(16) float Bs[kBK][kBN];  // (BK, BN) slice of B

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int gr = lane / 4, tc = lane % 4;  // PTX groupID and threadID_in_group (common.cuh)
  const int wm0 = warp / kWarpsN * kWM;    // warp's tile inside the block tile: rows wm0.., cols wn0..
  const int wn0 = warp % kWarpsN * kWN;
  GS_PROBE(probe.block_begin(blockIdx.y, blockIdx.x));  // grid x walks tile columns, y tile rows
  const float* a_blk = g.a + static_cast<size_t>(blockIdx.y) * kBM * g.k;  // A[m0 .. +128)[0 .. K)
  const float* b_blk = g.b + blockIdx.x * kBN;                              // B[0 .. K)[n0 .. +128)

  // Indexed below by the runtime counters mi, ni: a register cannot be indexed at run time, so the 64
  // floats live in local memory (a 256-byte stack frame, cached in L1). 04 makes them registers.
  float acc[kTilesM][kTilesN][4] = {};

  // Step: float4 copies stage A and B in shared memory; mma.sync m16n8k8 reads them below.
  for (int kt = 0; kt < g.k / kBK; ++kt) {
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kLoad));
    // 1024 float4 of A and 1024 of B per slice, 4 + 4 per thread. Lane-consecutive float4s walk a row,
    // so a warp reads whole rows (4 rows of A x 128 B, one 512 B row of B): coalesced. All eight loads
    // are issued before the first store so their latencies overlap.
    float4 ra[4], rb[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int idx = tid + i * kThreads;
      const int ar = idx / 8, ac = idx % 8;    // A: row, float4 column of the 128 x 8 float4 slice
      const int br = idx / 32, bc = idx % 32;  // B: row, float4 column of the 32 x 32 float4 slice
      GS_PROBE(probe.gmem(kGmemA, a_blk + static_cast<size_t>(ar) * g.k + kt * kBK + ac * 4, 16, GmemKind::kLoad));
      ra[i] = *reinterpret_cast<const float4*>(a_blk + static_cast<size_t>(ar) * g.k + kt * kBK + ac * 4);
      GS_PROBE(probe.gmem(kGmemB, b_blk + static_cast<size_t>(kt * kBK + br) * g.n + bc * 4, 16, GmemKind::kLoad));
      rb[i] = *reinterpret_cast<const float4*>(b_blk + static_cast<size_t>(kt * kBK + br) * g.n + bc * 4);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int idx = tid + i * kThreads;
      const int ar = idx / 8, ac = idx % 8;
      const int br = idx / 32, bc = idx % 32;
      // Each 8-lane phase of a 16-byte store writes 128 consecutive bytes: conflict-free.
      *reinterpret_cast<float4*>(&As[ar][ac * 4]) = ra[i];
      GS_PROBE(probe.smem(kAsStore, &As[ar][ac * 4], 16, SmemKind::kStore));
      *reinterpret_cast<float4*>(&Bs[br][bc * 4]) = rb[i];
      GS_PROBE(probe.smem(kBsStore, &Bs[br][bc * 4], 16, SmemKind::kStore));
    }
    __syncthreads();  // the slice is complete before any warp reads it
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
    // The warp walks its 2 x 8 grid of 16x8 tiles of C a row of tiles at a time: the row's A fragments for
    // the 4 k-steps (16 registers) are loaded once, then each tile of the row loads its B fragments, runs the
    // 4 k-steps and writes the 4 accumulators back. B fragments are reloaded for every mi: 40 loads per
    // k-step of 16 mma. (Written inside the ni loop, the A loads would be hoisted here by the compiler anyway:
    // they do not change in it.)
#pragma unroll 1
    for (int mi = 0; mi < kTilesM; ++mi) {
      uint32_t a[kSteps][4];
#pragma unroll
      for (int ks = 0; ks < kSteps; ++ks) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          // a_i = A(gr + 8(i&1), tc + 4(i>>1)): the 8 lanes of one tc read 8 rows 128 B apart, one
          // bank: an 8-way conflict (8 wavefronts where 1 would do)
          const float* p = &As[wm0 + mi * 16 + gr + 8 * (i & 1)][ks * 8 + tc + 4 * (i >> 1)];
          a[ks][i] = to_tf32(*p);
          GS_PROBE(probe.smem(kAsFrag, p, 4, SmemKind::kLoad));
        }
      }
#pragma unroll 1
      for (int ni = 0; ni < kTilesN; ++ni) {
        float(&c)[4] = acc[mi][ni];
#pragma unroll
        for (int ks = 0; ks < kSteps; ++ks) {
          uint32_t b[2];
#pragma unroll
          for (int i = 0; i < 2; ++i) {
            // b_i = B(tc + 4i, gr): the 4 lanes of one gr read 4 rows 512 B apart, one bank: 4-way
            const float* p = &Bs[ks * 8 + tc + 4 * i][wn0 + ni * 8 + gr];
            b[i] = to_tf32(*p);
            GS_PROBE(probe.smem(kBsFrag, p, 4, SmemKind::kLoad));
          }
          mma_m16n8k8(c, a[ks], b);
        }
      }
    }
    __syncthreads();  // every warp is done with the slice before the next one overwrites it
    GS_PROBE(probe.mark(Mark::kBarrier));
  }

  GS_PROBE(probe.stage(kEpilogue));
  const int row0 = blockIdx.y * kBM + wm0 + gr;        // c0, c1 of tile (mi, ni): row0 + 16 mi
  const int col0 = blockIdx.x * kBN + wn0 + 2 * tc;    // columns col0 + 8 ni, +1; c2, c3 eight rows down
#pragma unroll 1
  for (int mi = 0; mi < kTilesM; ++mi) {
#pragma unroll 1
    for (int ni = 0; ni < kTilesN; ++ni) {
      store_c2(g, row0 + mi * 16, col0 + ni * 8, acc[mi][ni][0], acc[mi][ni][1], probe);
      store_c2(g, row0 + mi * 16 + 8, col0 + ni * 8, acc[mi][ni][2], acc[mi][ni][3], probe);
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;  // the runner checks first; never launch
  const dim3 grid(g.n / kBN, g.m / kBM);  // x: tile columns, y: tile rows (row-major raster)
  kernel<Probe><<<grid, kThreads, 0, stream>>>(g, probe);
  return cudaGetLastError();
}

}  // namespace gs::mma_tf32_01_vectorized
