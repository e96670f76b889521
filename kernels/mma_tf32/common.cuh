// PTX wrappers the mma_tf32 rungs share: tf32 rounding, mma.sync m16n8k8 tf32, cp.async, ldmatrix, and
// the fp32 epilogue stores. Written once here so each rung file shows only the step it adds.
//
// Fragment layouts of mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 (PTX ISA; core/layout.cpp,
// traced on an H200 by layout_probe.cu), with gr = lane / 4 (groupID) and tc = lane % 4 (threadID_in_group):
//   A 16x8 (row-major)  a0..a3: row gr + 8 * (i & 1),  col tc + 4 * (i >> 1)
//   B  8x8 (k x n, col) b0, b1: row tc + 4 * i,        col gr
//   C 16x8              c0..c3: row gr + 8 * (i >> 1), col 2 * tc + (i & 1)
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/block_order.cuh"
#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_tf32 {

// fp32 -> tf32 bits, rounded to nearest (ties away from zero) as cuBLAS's TF32 mode rounds its inputs.
// Without it mma.sync would read the fp32 bits and drop the 13 low mantissa bits (truncation).
// On sm_80+ this is integer arithmetic in SASS (add 0x1000, mask 0xffffe000, Inf/NaN kept), not a
// conversion unit, so it costs issue slots: one per fragment register per warp that loads it.
__device__ __forceinline__ uint32_t to_tf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r;
}
__device__ __forceinline__ uint32_t to_tf32(uint32_t bits) { return to_tf32(__uint_as_float(bits)); }

// fp32 -> tf32 by truncation, free (06 onward). The tensor core reads the top 19 bits of each operand register
// (sign, exponent, 10 mantissa bits) and ignores the low 13, so raw fp32 bits are valid tf32 operands, rounded
// toward zero. to_tf32 costs 3 SASS instructions per register: 18 per 16 mma at 05's 32x64 warp tile (hidden by
// its second block per SM), 96 per 32 mma at 06's 64x64 with one block per SM, where the 52 loads and mma of
// a k-step become 148 issue slots. Truncation moves each input by up to one tf32 ulp (2^-10 relative) instead of
// half of one. Computed on the CPU for the runner's uniform (-1, 1) inputs, K = 64 .. 4096: ~8e-4 relative
// (Frobenius) from cuBLAS's rounded result (rounding matched it to ~1e-8), ~7e-4 from the exact product
// (rounding: ~3e-4); inside the 5e-3 tf32 bound. The error is biased toward zero, so for same-sign data it does
// not average out: 6.5e-4 from the exact product (rounding: 5e-6 at K = 4096). Rounding could come back for one
// IADD per register (add 0x1000, half a tf32 ulp, and let the tensor core truncate), but that turns a NaN with a
// full mantissa (0x7fffffff, the canonical one) into a zero; an isfinite guard makes it 2 instructions, cvt.rna 3.
__device__ __forceinline__ uint32_t tf32_trunc(float x) { return __float_as_uint(x); }

// d += a * b for one 16x8x8 tile; one warp-wide instruction, 2048 flops. All 32 lanes must execute it.
__device__ __forceinline__ void mma_m16n8k8(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Shared state-space address of a generic pointer into shared memory (what cp.async and ldmatrix take).
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// cp.async moves global -> shared without passing through registers; .cg caches in L2 only (the tile is
// read once per block, so L1 would only be polluted). The "memory" clobbers keep the compiler from
// moving shared-memory accesses across these asm statements; the hardware ordering comes from
// cp.async.wait_group plus __syncthreads.
__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_u32(smem)),
               "l"(__cvta_generic_to_global(gmem))
               : "memory");
}

// Zero-fill form: copies 16 bytes when `valid`, otherwise reads nothing and writes 16 zero bytes, so a
// tile hanging over the edge of A or B contributes 0 to the dot products. gmem must still be a mapped
// address (callers pass the matrix base when !valid).
__device__ __forceinline__ void cp_async_16_zfill(void* smem, const void* gmem, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_u32(smem)),
               "l"(__cvta_generic_to_global(gmem)), "r"(valid ? 16 : 0)
               : "memory");
}

// 4-byte zero-fill copy (.ca: the only cache mode for sizes below 16): the slow path for rows that are
// not 16-byte aligned (K or N not a multiple of 4).
__device__ __forceinline__ void cp_async_4_zfill(void* smem, const void* gmem, bool valid) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem_u32(smem)),
               "l"(__cvta_generic_to_global(gmem)), "r"(valid ? 4 : 0)
               : "memory");
}

// Closes the group of cp.async issued by this thread since the previous commit.
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }

// Waits until at most N of this thread's committed groups are still in flight. Other threads' copies
// are visible only after a following __syncthreads.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// Four 8x8 b16 matrices from shared memory: lane l supplies the 16-byte row address of row l % 8 of
// matrix l / 8; register j of lane i receives row i / 4, 32-bit column i % 4 of matrix j. Read as
// 8 rows x 4 tf32, that is exactly one quarter of an m16n8k8 A fragment (see the rungs that use it).
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* smem_row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_u32(smem_row))
               : "memory");
}

// C[row][col], C[row][col + 1] = alpha * (v0, v1) + beta * C: one accumulator pair (c0, c1 or c2, c3)
// as one 8-byte store. Needs col even and N even (8-byte alignment); the tile-multiple rungs have both.
// BLAS: beta == 0 never reads C (the runner poisons it with NaN to check).
template <class Probe>
__device__ __forceinline__ void store_c2(const GemmArgs<float, float>& g, int row, int col, float v0, float v1,
                                         Probe& probe) {
  float2* p = reinterpret_cast<float2*>(g.c + static_cast<size_t>(row) * g.n + col);
  float2 out = make_float2(g.alpha * v0, g.alpha * v1);
  if (g.beta != 0.0f) {
    GS_PROBE(probe.gmem(kGmemC, p, 8, GmemKind::kLoad));
    const float2 old = *p;
    out.x += g.beta * old.x;
    out.y += g.beta * old.y;
  }
  GS_PROBE(probe.gmem(kGmemC, p, 8, GmemKind::kStore));
  *p = out;
}

// The same for any shape: elements outside C are dropped; an odd N (rows not 8-byte aligned) or a pair
// split by the right edge falls back to 4-byte stores.
template <class Probe>
__device__ __forceinline__ void store_c2_guarded(const GemmArgs<float, float>& g, int row, int col, float v0,
                                                 float v1, Probe& probe) {
  if (row >= g.m || col >= g.n) return;
  if (col + 1 < g.n && g.n % 2 == 0) {
    store_c2(g, row, col, v0, v1, probe);
    return;
  }
  float* p = g.c + static_cast<size_t>(row) * g.n + col;
  p[0] = g.beta == 0.0f ? g.alpha * v0 : g.alpha * v0 + g.beta * p[0];
  if (col + 1 < g.n) p[1] = g.beta == 0.0f ? g.alpha * v1 : g.alpha * v1 + g.beta * p[1];
}

}  // namespace gs::mma_tf32
