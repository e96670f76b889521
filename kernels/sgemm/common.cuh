// Helpers the sgemm rungs share: the BLAS update of C in the epilogue (scalar and float4), and
// cp.async in PTX for the pipelined rungs (09 on), which copy global -> shared without registers.
#pragma once

#include <cstdint>

#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"

namespace gs::sgemm_common {

// ---- epilogue: C = alpha * acc + beta * C ---------------------------------------------------
// beta == 0 never reads C (BLAS; the runner poisons C with NaN to check). fmaf pins the rounding, so
// the NoProbe and TraceProbe builds of a rung cannot contract the expression differently.

// The probe records C's read (beta != 0 only) and its write at this lane's address.
template <class Probe>
__device__ __forceinline__ void store_c(float* c, float acc, float alpha, float beta, Probe& probe) {
  if (beta != 0.0f) GS_PROBE(probe.gmem(kGmemC, c, 4, GmemKind::kLoad));
  GS_PROBE(probe.gmem(kGmemC, c, 4, GmemKind::kStore));
  *c = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * *c);
}

// c is 16-byte aligned: four consecutive elements of one row of C.
template <class Probe>
__device__ __forceinline__ void store_c4(float* c, float4 acc, float alpha, float beta, Probe& probe) {
  float4 out;
  if (beta == 0.0f) {
    out = make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z, alpha * acc.w);
  } else {
    GS_PROBE(probe.gmem(kGmemC, c, 16, GmemKind::kLoad));
    const float4 old = *reinterpret_cast<const float4*>(c);
    out = make_float4(fmaf(alpha, acc.x, beta * old.x), fmaf(alpha, acc.y, beta * old.y),
                      fmaf(alpha, acc.z, beta * old.z), fmaf(alpha, acc.w, beta * old.w));
  }
  GS_PROBE(probe.gmem(kGmemC, c, 16, GmemKind::kStore));
  *reinterpret_cast<float4*>(c) = out;
}

// ---- cp.async (sm_80+) ----------------------------------------------------------------------
// The k-loops keep shared addresses as 32-bit offsets (smem_u32) and advance them by constants, so
// each copy is one LDGSTS with no address conversion. src_bytes below the copy size zero-fills the
// rest: 0 writes zeros and reads nothing, the zero fill that pads edge tiles. gmem must still be a
// mapped address: callers clamp it into the matrix. "memory" clobbers keep the compiler from moving
// shared-memory accesses across these.

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// One float (src_bytes 4 or 0). .ca (through L1) is the only cache mode that takes 4-byte copies; the
// rungs use them to transpose A on its way into shared memory, which a 16-byte copy cannot do.
__device__ __forceinline__ void cp_async_4(uint32_t smem, const float* gmem, int src_bytes) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem), "l"(gmem), "r"(src_bytes) : "memory");
}

// Four floats (src_bytes 16 or 0); both addresses 16-byte aligned. .cg caches in L2 only: a tile is
// read once per block.
__device__ __forceinline__ void cp_async_16(uint32_t smem, const float* gmem, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem), "l"(gmem), "r"(src_bytes) : "memory");
}

// Closes the group of copies this thread issued since the last commit (possibly none: an empty
// group keeps the count of groups per k-tile uniform, which the waits below rely on).
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most N of this thread's groups are still in flight (the newest N). Other threads'
// copies are visible only after a __syncthreads that follows every thread's wait.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// 16-byte alignment of a pointer, for choosing a vector path at launch.
inline bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

}  // namespace gs::sgemm_common
