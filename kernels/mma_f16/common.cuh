// What every mma_f16 rung shares: the PTX wrappers (mma.sync m16n8k16, ldmatrix, cp.async with zero
// fill, commit/wait_group, vector shared loads and stores), the dynamic shared-memory window, and the
// epilogue's C update.
// Fragment layouts are the PTX ISA's ("Matrix Fragments for mma.m16n8k16 with floating point type",
// core/layout.cpp has them as formulas): with g = lane / 4 (groupID) and t = lane % 4,
//   A (16x16, row): reg 0 = (g, 2t..2t+1), reg 1 = (g+8, 2t..), reg 2 = (g, 2t+8..), reg 3 = (g+8, 2t+8..)
//   B (16x8, col):  reg 0 = (k 2t..2t+1, n g), reg 1 = (k 2t+8..2t+9, n g)
//   C (16x8, f32):  c0,c1 = (g, 2t..2t+1), c2,c3 = (g+8, 2t..2t+1)
// A packed register holds its lower-index element in the low 16 bits.
#pragma once

#include <cstdint>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/block_order.cuh"
#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16 {

inline constexpr int kMmaM = 16, kMmaN = 8, kMmaK = 16;  // one mma.sync.m16n8k16
inline constexpr int kChunk = 8;                          // halves per 16-byte vector / cp.async / ldmatrix row

// The block's dynamic shared memory (launch's third <<<>>> argument). 128-byte aligned so a 16-byte
// chunk never straddles a bank row and the XOR layouts line up with the 32 banks.
__device__ __forceinline__ unsigned char* dynamic_smem() {
  extern __shared__ __align__(128) unsigned char gs_mma_f16_smem[];
  return gs_mma_f16_smem;
}

// Shared state-space address of a generic pointer into shared memory: what ldmatrix and cp.async take.
__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Two halves as one .f16x2 register: lo in bits 0-15 (the lower k or column index).
__device__ __forceinline__ uint32_t pack_halves(uint16_t lo, uint16_t hi) {
  return static_cast<uint32_t>(lo) | (static_cast<uint32_t>(hi) << 16);
}

// d += a * b for one 16x8x16 tile: fp16 inputs, fp32 accumulate (all 32 lanes, fragments as above).
// Not volatile: it only reads and writes registers, so the compiler may schedule it freely.
__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Four 8x8 .b16 matrices; lane i supplies the 16-byte row address of row i % 8 of matrix i / 8, and
// r[j] receives (row lane / 4, columns 2 (lane % 4) + {0, 1}) of matrix j: exactly an A fragment when
// matrices 0..3 are the (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15)
// quadrants of a 16x16 row-major tile. volatile (with the barriers around it) keeps it after the
// __syncthreads that publishes the tile.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_u32(row_addr)));
}

// The same with each matrix transposed on the way: r[j] receives (rows 2 (lane % 4) + {0, 1}, column
// lane / 4) of matrix j as stored. For B stored k-major (rows are k, columns n) that is a B fragment
// register: two k-adjacent elements of column n = g, which plain loads would have to gather one half
// at a time.
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const void* row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_u32(row_addr)));
}

// The two above for a row address already in the shared state space: rung 10 keeps its fragment addresses
// as 32-bit shared addresses, so that stepping and XOR-permuting one costs a single integer instruction.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(row_addr));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t row_addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(row_addr));
}

// 16 bytes global -> shared without passing through registers (.cg: cached in L2 only, as a tile is
// read once per block). src_bytes < 16 fills the rest with zeros; 0 reads nothing and writes 16 zero
// bytes, which is how tiles past the edge of A or B become zeros (src must still be a valid pointer).
__device__ __forceinline__ void cp_async_16(void* smem_dst, const void* gmem_src, int src_bytes = 16) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_u32(smem_dst)), "l"(gmem_src),
               "r"(src_bytes)
               : "memory");
}

// The same with the destination already a shared state-space address (rung 10).
__device__ __forceinline__ void cp_async_16(uint32_t smem_dst, const void* gmem_src, int src_bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_dst), "l"(gmem_src), "r"(src_bytes)
               : "memory");
}

// Closes the group of this thread's cp.async issued since the last commit (an empty group is fine).
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most `kPending` of this thread's committed groups are still in flight. Only this
// thread's copies: a __syncthreads after it makes every thread's landed data visible to the block.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// C[row][col..col+1] = alpha * (v0, v1) + beta * C[row][col..col+1], BLAS semantics: with beta == 0
// C is never read (the runner poisons it with NaN). `c` must be 8-byte aligned (col and N even).
__device__ __forceinline__ void update_c_pair(float* c, float v0, float v1, float alpha, float beta) {
  float2 out;
  if (beta == 0.0f) {
    out = make_float2(alpha * v0, alpha * v1);
  } else {
    const float2 old = *reinterpret_cast<const float2*>(c);
    // explicit fma: the same rounding in every instantiation (NoProbe and TraceProbe must agree bitwise)
    out = make_float2(__fmaf_rn(alpha, v0, beta * old.x), __fmaf_rn(alpha, v1, beta * old.y));
  }
  *reinterpret_cast<float2*>(c) = out;
}

// The same for four consecutive elements; `c` must be 16-byte aligned (col and N multiples of 4).
__device__ __forceinline__ void update_c_quad(float* c, float4 v, float alpha, float beta) {
  float4 out;
  if (beta == 0.0f) {
    out = make_float4(alpha * v.x, alpha * v.y, alpha * v.z, alpha * v.w);
  } else {
    const float4 old = *reinterpret_cast<const float4*>(c);
    out = make_float4(__fmaf_rn(alpha, v.x, beta * old.x), __fmaf_rn(alpha, v.y, beta * old.y),
                      __fmaf_rn(alpha, v.z, beta * old.z), __fmaf_rn(alpha, v.w, beta * old.w));
  }
  *reinterpret_cast<float4*>(c) = out;
}

// One element, for edges where the pair may be cut by N or misaligned (N odd).
__device__ __forceinline__ void update_c_one(float* c, float v, float alpha, float beta) {
  *c = beta == 0.0f ? alpha * v : __fmaf_rn(alpha, v, beta * *c);
}

// Writes one lane's share of an m16n8 accumulator whose top-left element of C is (row0, col0):
// (c0, c1) at row row0 + g, (c2, c3) at row0 + g + 8, columns col0 + 2t + {0, 1}. The tile must lie
// inside C and N must be even (the exact-tile rungs' shape rule guarantees both).
template <class Probe>
__device__ __forceinline__ void store_c_frag(const GemmArgs<__half, float>& g, int row0, int col0, int lane,
                                             const float (&c)[4], Probe& probe) {
  const int row = row0 + lane / 4, col = col0 + 2 * (lane % 4);
  float* p = g.c + static_cast<size_t>(row) * g.n + col;  // C[row][col], row-major, leading dimension N
  GS_PROBE(probe.gmem(kGmemC, p, 8, GmemKind::kStore));
  update_c_pair(p, c[0], c[1], g.alpha, g.beta);
  GS_PROBE(probe.gmem(kGmemC, p + static_cast<size_t>(8) * g.n, 8, GmemKind::kStore));
  update_c_pair(p + static_cast<size_t>(8) * g.n, c[2], c[3], g.alpha, g.beta);  // row + 8
}

// The same for a tile that may overhang C: elements past M or N are dropped; pairs are written with
// one 8-byte store when both are inside and N is even, element by element otherwise.
template <class Probe>
__device__ __forceinline__ void store_c_frag_guarded(const GemmArgs<__half, float>& g, int row0, int col0, int lane,
                                                     const float (&c)[4], Probe& probe) {
  const int col = col0 + 2 * (lane % 4);
  if (col >= g.n) return;
  const bool pair = col + 1 < g.n && g.n % 2 == 0;
#pragma unroll
  for (int h = 0; h < 2; ++h) {  // h = 0: row g (c0, c1); h = 1: row g + 8 (c2, c3)
    const int row = row0 + lane / 4 + 8 * h;
    if (row >= g.m) continue;
    float* p = g.c + static_cast<size_t>(row) * g.n + col;
    if (pair) {
      GS_PROBE(probe.gmem(kGmemC, p, 8, GmemKind::kStore));
      update_c_pair(p, c[2 * h], c[2 * h + 1], g.alpha, g.beta);
    } else {
      update_c_one(p, c[2 * h], g.alpha, g.beta);
      if (col + 1 < g.n) update_c_one(p + 1, c[2 * h + 1], g.alpha, g.beta);
    }
  }
}

// Shared-memory stores and loads of fp32 vectors at 32-bit shared addresses (rung 10's epilogue staging).
__device__ __forceinline__ void st_shared_f32x2(uint32_t addr, float v0, float v1) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(addr), "f"(v0), "f"(v1) : "memory");
}

__device__ __forceinline__ float4 ld_shared_f32x4(uint32_t addr) {
  float4 v;
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];\n"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(addr)
               : "memory");
  return v;
}

// Raises a kernel's dynamic shared-memory limit past the default 48 KB. Called from launch() through a
// function-local static, so once per instantiation; the result is returned on every launch.
template <class Kernel>
cudaError_t allow_dynamic_smem(Kernel* kernel, int bytes) {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

}  // namespace gs::mma_f16
