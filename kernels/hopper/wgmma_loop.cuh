// A warpgroup doing nothing but wgmma from shared memory: the ceiling of Hopper's own tensor-core instruction,
// the one cuBLAS's fp16 kernels and the hopper rungs issue, for the roofline (kernels/ceilings.cu through
// wgmma_loop.h) and bench/wgmma_roof_ab.cu (beside the mma.sync loop and cuBLAS, bench/NOTES.md). sm_90a only.
#pragma once

#include <cstdint>

#include "kernels/hopper/common.cuh"

namespace gs::hopper {

inline constexpr int kLoopWarpgroups = 2;  // per CTA, one CTA per SM: as cuBLAS's and the rungs' 128 x 256 tiles run
inline constexpr int kLoopABytes = kLoopWarpgroups * 64 * kBoxK * 2;  // each warpgroup's 64 rows x 64 k of A: 8 KB
inline constexpr int kLoopBBytes = 4 * kBoxK * kBoxN * 2;  // 64 k x 256 n of B: four (64 k, 64 n) boxes, N-major
inline constexpr int kLoopSmem = kLoopABytes + kLoopBBytes + kAtom;  // and room to align to a swizzle atom
inline constexpr int kLoopWgmmasPerIter = kBoxK / kWgmmaK;  // one 64-deep k-tile: 4 wgmma.m64n256k16
inline constexpr double kFlopsPerWgmma = 2.0 * 64 * 256 * 16;

// Each warpgroup issues `iters` x 4 wgmma.m64n256k16 f16 with fp32 accumulate (one 64-deep k-tile a commit group)
// into one accumulator, from 128B-swizzled shared memory, with at most one group still running when the next is
// issued; nothing is read from global memory. The operands are constant halves written once; the sum is stored
// only when it equals a value it never takes, so the loop stays and writes nothing. A template so that each
// binary that includes this header instantiates its own copy.
template <int kWgs = kLoopWarpgroups>
__global__ void __launch_bounds__(kWgs * kWarpgroup, 1) wgmma_loop(int iters, float* sink) {
  static_assert(kWgs == kLoopWarpgroups, "the shared-memory layout above is for kLoopWarpgroups");
  extern __shared__ unsigned char wgmma_loop_raw[];
  const uint32_t base = (smem_u32(wgmma_loop_raw) + kAtom - 1) & ~uint32_t(kAtom - 1);
  for (uint32_t i = threadIdx.x; i < uint32_t(kLoopABytes + kLoopBBytes) / 4; i += blockDim.x)
    asm volatile("st.shared.u32 [%0], %1;\n" ::"r"(base + 4 * i), "r"(0x1c001c00u + (i & 0x3Fu)));  // ~0.004
  fence_proxy_async_smem();  // the generic proxy's stores, before wgmma reads them through the async proxy
  __syncthreads();
  const int wg = threadIdx.x / kWarpgroup;
  const uint64_t da = make_desc(base + wg * 64 * 128, 16, kAtom, Swizzle::k128B);
  const uint64_t db = make_desc(base + kLoopABytes, kBoxK * kBoxN * 2, kAtom, Swizzle::k128B);
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0;
  fence_operand(d);
  for (int it = 0; it < iters; ++it) {
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < kLoopWgmmasPerIter; ++kk)
      wgmma_m64n256k16(d, da + desc_field(kk * kWgmmaK * 2), db + desc_field(kk * kWgmmaK * 128), 1);
    wgmma_commit();
    wgmma_wait<1>();
  }
  wgmma_wait<0>();
  fence_operand(d);
  float s = 0;
#pragma unroll
  for (int i = 0; i < 128; ++i) s += d[i];
  if (s == 12345.0f) sink[threadIdx.x] = s;
}

}  // namespace gs::hopper
