// A warp doing nothing but independent mma.sync from registers: the mma.sync ceiling of a GPU, for the
// roofline (kernels/ceilings.cu) and bench/mma_peak.cu (1-4 warps per scheduler, bench/NOTES.md).
#pragma once

#include <cstdint>

namespace gs {

inline constexpr int kMmaLoopChains = 16;  // independent accumulator tiles in flight per warp

// The flops of one mma_loop launch of `blocks` blocks of `warps` warps, each warp issuing `iters` x kMmaLoopChains
// mma: m16n8k8 (tf32) or m16n8k16 (f16).
inline double mma_loop_flops(bool tf32, int blocks, int warps, int iters) {
  return 2.0 * 16 * 8 * (tf32 ? 8 : 16) * kMmaLoopChains * double(iters) * blocks * warps;
}

// Each warp issues `iters` x kMmaLoopChains mma: m16n8k8 tf32 (kTf32) or m16n8k16 f16 with fp32 accumulate.
// The result is stored only when it equals a value it never takes, so the loop stays and writes nothing.
template <bool kTf32>
__global__ void mma_loop(int iters, float* sink) {
  uint32_t a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = 0x3f800000u + threadIdx.x * 7 + i;  // ~1.0, nonzero
  for (int i = 0; i < 2; ++i) b[i] = 0x3c003c00u + threadIdx.x;
  float d[kMmaLoopChains][4] = {};
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int c = 0; c < kMmaLoopChains; ++c) {
      if (kTf32) {
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      } else {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      }
    }
  }
  float s = 0;
  for (int c = 0; c < kMmaLoopChains; ++c) s += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  if (s == 12345.0f) sink[threadIdx.x] = s;
}

}  // namespace gs
