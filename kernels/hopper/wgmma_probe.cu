// The wgmma accumulator probe (see wgmma_probe.h). A and B go into shared memory K-major and 128B-swizzled,
// exactly as the rungs' TMA boxes leave them (layout.h kmajor_offset), and are read through descriptors
// built by the rungs' make_desc: so the probe checks the accumulator layout with the operand path the rungs
// use. B is stored transposed (n rows of k), which wgmma reads as K-major B (imm-trans-b = 0).
#include "kernels/hopper/common.cuh"
#include "kernels/hopper/wgmma_probe.h"

namespace gs::hopper {
namespace {

constexpr int kProbeRegs = kWgmmaProbeN / 2;
constexpr int kATileBytes = kWgmmaProbeM * 128;  // 64 rows of 128 bytes (64 halves of k, 16 of them used)
constexpr int kBTileBytes = kWgmmaProbeN * 128;  // 16 rows (n) of 128 bytes
constexpr int kProbeSmem = kATileBytes + kBTileBytes + kAtom;

// d (64 x 16 fp32) = A (64 x 16, K-major, descriptor a) * B (16 x 16, K-major, descriptor b).
__device__ __forceinline__ void wgmma_m64n16k16_kmajor(float (&d)[kProbeRegs], uint64_t a, uint64_t b) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %10, 0;\n"  // scale-d false: d = A * B, d's old contents ignored
      "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
      : "l"(a), "l"(b), "r"(0));
}

__global__ void __launch_bounds__(kWarpgroup) wgmma_acc_probe_kernel(const uint16_t* a, const uint16_t* b, float* out) {
  const uint32_t base = smem_base();
  const uint32_t a_tile = base, b_tile = base + kATileBytes;
  auto* bytes = static_cast<unsigned char*>(__cvta_shared_to_generic(base));
  const int tid = threadIdx.x;
  for (int i = tid; i < (kATileBytes + kBTileBytes) / 4; i += kWarpgroup) reinterpret_cast<uint32_t*>(bytes)[i] = 0;
  __syncthreads();
  for (int e = tid; e < kWgmmaProbeM * kWgmmaProbeK; e += kWarpgroup) {
    const int r = e / kWgmmaProbeK, k = e % kWgmmaProbeK;
    *reinterpret_cast<uint16_t*>(bytes + kmajor_offset(r, k)) = a[e];
  }
  for (int e = tid; e < kWgmmaProbeK * kWgmmaProbeN; e += kWarpgroup) {
    const int k = e / kWgmmaProbeN, n = e % kWgmmaProbeN;
    *reinterpret_cast<uint16_t*>(bytes + kATileBytes + kmajor_offset(n, k)) = b[e];
  }
  fence_proxy_async_smem();  // the generic-proxy stores above become visible to wgmma's async-proxy reads
  __syncthreads();
  float d[kProbeRegs];
#pragma unroll
  for (int i = 0; i < kProbeRegs; ++i) d[i] = 0.0f;
  fence_operand(d);
  wgmma_fence();
  wgmma_m64n16k16_kmajor(d, make_desc(a_tile, 16, kAtom, Swizzle::k128B), make_desc(b_tile, 16, kAtom, Swizzle::k128B));
  wgmma_commit();
  wgmma_wait<0>();
  fence_operand(d);
#pragma unroll
  for (int i = 0; i < kProbeRegs; ++i) out[tid * kProbeRegs + i] = d[i];
}

}  // namespace

bool wgmma_probe_runs_here() { return require_sm90a() == cudaSuccess; }

cudaError_t launch_wgmma_acc_probe(const uint16_t* a, const uint16_t* b, float* out) {
  if (const cudaError_t e = require_sm90a(); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = allow_dynamic_smem(wgmma_acc_probe_kernel, kProbeSmem);
  if (smem_limit != cudaSuccess) return smem_limit;
  wgmma_acc_probe_kernel<<<1, kWarpgroup, kProbeSmem>>>(a, b, out);
  return cudaGetLastError();
}

}  // namespace gs::hopper
