// What every hopper rung shares: the PTX of Hopper's asynchronous machinery (TMA tensor copies, mbarriers,
// wgmma, setmaxnreg, clusters), the host side of TMA (tensor maps encoded through the runtime's driver entry
// point, so that no binary links libcuda), the device check, and the epilogue's C update.
// The pure arithmetic (descriptors, swizzle, accumulator layout, tile order) lives in layout.h, where CPU
// tests check it.
//
// Compiled only for sm_90a (kernels/CMakeLists.txt): wgmma and setmaxnreg exist on no other target.
// Ordering rules these wrappers rely on (PTX ISA, "Memory Consistency Model" / "Async proxy"):
//  - TMA writes shared memory through the async proxy and reports its bytes on an mbarrier (complete_tx);
//    a thread that sees the barrier's phase complete (try_wait) sees the bytes, and so do the wgmma it
//    issues after, which read shared memory through the async proxy too.
//  - wgmma reads its shared-memory operands asynchronously: a stage may be refilled only after
//    wgmma.wait_group says the wgmma that read it are done, in every warp that issued them.
//  - wgmma writes its accumulator registers asynchronously: no other instruction may touch them between
//    wgmma.fence and the wgmma.wait_group that retires them (fence_operand keeps the compiler from moving
//    the epilogue's reads, or the zeroing, across those points).
#pragma once

#include <atomic>
#include <cstdint>

#include <cuda.h>  // CUtensorMap and its enums only: a header, nothing of libcuda is linked
#include <cudaTypedefs.h>  // PFN_cuTensorMapEncodeTiled
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "kernels/gemm_args.cuh"
#include "kernels/hopper/layout.h"
#include "kernels/probe.cuh"

namespace gs::hopper {

inline constexpr int kWarpgroup = 128;  // threads of one warpgroup: 4 consecutive warps, the unit of wgmma
inline constexpr int kBoxK = 64;        // halves per 128-byte swizzled row: the k-depth of every k-tile
inline constexpr int kBoxN = 64;        // n-columns of one TMA box of B (one 128-byte row of N-major halves)
inline constexpr int kWgmmaK = 16;      // k of one wgmma.m64nNk16
inline constexpr int kAtom = 1024;      // bytes of one 128B-swizzle atom (8 rows of 128 B); tiles start on one

// Any M; K and N multiples of 8, because a tensor map's row stride must be a multiple of 16 bytes. Rows,
// columns and k past the matrices' edges are TMA's zero fill on the way in and predicated stores on the way out.
inline constexpr const char* kShapeRule = "K and N must be multiples of 8 (TMA needs 16-byte row strides)";
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0 && k % 8 == 0 && n % 8 == 0; }

// ---- shared memory ----------------------------------------------------------------------------------------

__device__ __forceinline__ uint32_t smem_u32(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// The block's dynamic shared memory rounded up to the next 1024-byte boundary, where the 128B swizzle atoms
// (and so TMA's pattern and the descriptors' base offset 0) line up. Launchers allocate kAtom bytes more.
// The same offset in every CTA of a cluster, which TMA multicast relies on (it writes the same offset in each).
__device__ __forceinline__ uint32_t smem_base() {
  extern __shared__ __align__(1024) unsigned char gs_hopper_smem[];
  return (smem_u32(gs_hopper_smem) + kAtom - 1) & ~static_cast<uint32_t>(kAtom - 1);
}

// ---- mbarrier ---------------------------------------------------------------------------------------------
// A 64-bit shared-memory object with an expected arrival count and a transaction (byte) count; a phase
// completes when every expected thread has arrived and every expected byte has landed, and then the next
// phase begins. Waiters name the phase they wait for by its parity (0, 1, 0, ...).

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

// Makes the barriers' initialisation visible to the async proxy and to the other CTAs of the cluster; a
// __syncthreads (or cluster barrier) after it publishes them to the block's threads.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// This thread arrives, and announces `bytes` more to come through complete_tx (TMA) in this phase.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

// Arrival on the barrier at the same offset in CTA `cta` of the cluster (mapa turns our offset into that CTA's
// shared::cluster address). Default semantics (release at CTA scope), as for a local arrive: this thread's
// wgmma reads were retired by wgmma.wait_group before it, and the partner's TMA writes come after its wait.
// With an explicit .release.cluster instead, hopper/05 ran at 42% of cuBLAS instead of 96% on an H100
// (bench/NOTES.md); why that form costs so much was not established.
__device__ __forceinline__ void mbar_arrive_cluster(uint32_t bar, uint32_t cta) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(bar),
      "r"(cta)
      : "memory");
}

// Spins until the phase of parity `parity` has completed. The phase before the first is taken as complete,
// so waiting for parity 1 on a fresh barrier returns at once (how producers start on empty stages).
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

// ---- TMA ----------------------------------------------------------------------------------------------------

// Box at coordinates (c0 innermost, c1) of the tensor `map` (a __grid_constant__ kernel parameter) into shared
// memory at dst; its bytes count toward bar's transaction count. Elements outside the tensor arrive as zeros
// and still count, so a box that overhangs the matrix completes like any other.
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, int c0, int c1, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}

// The same box written at offset dst of every CTA in `cta_mask` (bit i: cluster rank i), each CTA's barrier
// at offset bar receiving the box's bytes: one L2 read feeds several SMs.
__device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const CUtensorMap* map, int c0, int c1, uint32_t bar,
                                                      uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar), "h"(cta_mask)
      : "memory");
}

// Shared memory to the tensor at (c0, c1), clipped at the tensor's edges; completes as a bulk group.
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, int c0, int c1, uint32_t src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
                   reinterpret_cast<uint64_t>(map)),
               "r"(c0), "r"(c1), "r"(src)
               : "memory");
}
__device__ __forceinline__ void tma_store_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }
// Waits until at most kPending of this thread's store groups still read their shared memory.
template <int kPending>
__device__ __forceinline__ void tma_store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(kPending) : "memory");
}
// Ordinary shared-memory stores made visible to the async proxy (TMA store reads through it).
__device__ __forceinline__ void fence_proxy_async_smem() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

__device__ __forceinline__ void prefetch_tensormap(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// ---- wgmma ----------------------------------------------------------------------------------------------------

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
// Waits until at most kPending of this warp's committed wgmma groups are still running.
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// An empty asm that claims to read and write every accumulator: the compiler may not move their zeroing or
// the epilogue's reads across it, so they stay on the right side of wgmma.fence / wgmma.wait_group.
template <int N>
__device__ __forceinline__ void fence_operand(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// d (64 x 128 fp32, registers as wgmma_acc_cell says) += A (64 x 16, K-major, descriptor a) * B (16 x 128,
// N-major, descriptor b): fp16 in, fp32 accumulate. scale_d = 0 makes it d = A * B (d's old contents ignored).
// imm-trans-b = 1: B is N-major (row-major K x N, as the caller stores it); A is K-major (imm-trans-a = 0).
__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], uint64_t a, uint64_t b, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, %64, %65, p, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a), "l"(b), "r"(scale_d));
}

// d (64 x 256 fp32, registers as wgmma_acc_cell says) += A (64 x 16, K-major, descriptor a) * B (16 x 256,
// N-major, descriptor b): fp16 in, fp32 accumulate. scale_d = 0 makes it d = A * B (d's old contents ignored).
// imm-trans-b = 1: B is N-major (row-major K x N, as the caller stores it); A is K-major (imm-trans-a = 0).
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], uint64_t a, uint64_t b, int scale_d) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, p, 1, 1, 0, 1;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(a), "l"(b), "r"(scale_d));
}

// ---- warp specialization, clusters -------------------------------------------------------------------------

// Registers per thread of this warpgroup from here on (a multiple of 8, 24..256): the producer gives back what
// it does not need, the consumers take it. Effective only when the kernel has a register cap at entry
// (__launch_bounds__(threads, 1)); all warps of the warpgroup execute the same one.
template <int kRegs>
__device__ __forceinline__ void setmaxnreg_dec() {
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}
template <int kRegs>
__device__ __forceinline__ void setmaxnreg_inc() {
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegs));
}

// Named barrier over `threads` threads (a multiple of 32) of the block: a warpgroup syncs without the others.
__device__ __forceinline__ void named_barrier(int id, int threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ uint32_t cluster_rank() {
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}

// Every thread of every CTA of the cluster arrives, then waits for all: orders barrier initialisation before
// any peer uses it, and keeps a CTA alive until no peer can still write its shared memory.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// ---- epilogue -------------------------------------------------------------------------------------------------

// C[row][col..col+1] = alpha * (v0, v1) + beta * C[..], BLAS semantics: with beta == 0 C is never read (the
// runner poisons it with NaN). c 8-byte aligned (col and N even).
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

// One warpgroup's 64 x N accumulator (registers as wgmma_acc_cell says) into C at (row0, col0), elements past
// M or N dropped. N % 8 == 0 (the shape rule), so a register pair (two columns, the first even) is wholly inside
// or wholly outside C. A warp's store covers 8 rows x 32 bytes: whole sectors. Each 8-byte store is traced
// (TraceProbe: the first ones of the sampled warps), so the global-memory view draws them.
template <int kN, class Probe>
__device__ __forceinline__ void store_acc(const GemmArgs<__half, float>& g, const float (&d)[kN / 2], int row0,
                                          int col0, int thread, Probe& probe) {
  const int row = row0 + 16 * (thread / 32) + (thread % 32) / 4;  // this thread's first row (+ 8 for h = 1)
  const int col = col0 + 2 * (thread % 4);                         // its first column (+ 8 j)
#pragma unroll
  for (int j = 0; j < kN / 8; ++j) {
    if (col + 8 * j >= g.n) continue;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      if (row + 8 * h >= g.m) continue;
      float* p = g.c + static_cast<size_t>(row + 8 * h) * g.n + col + 8 * j;  // C[row + 8h][col + 8j]
      GS_PROBE(probe.gmem(kGmemC, p, 8, GmemKind::kStore));
      update_c_pair(p, d[4 * j + 2 * h], d[4 * j + 2 * h + 1], g.alpha, g.beta);
    }
  }
}

// Position in a ring of S pipeline stages, carried on across a persistent CTA's tiles: the stage, and the parity of
// its current round (the phase an mbarrier wait on that stage expects).
template <int S>
struct StageRing {
  int stage = 0;
  uint32_t phase = 0;
  __device__ __forceinline__ void next() {
    if (++stage == S) {
      stage = 0;
      phase ^= 1;
    }
  }
};

// Two floats to shared memory at a shared-state-space address (the TMA-store epilogue's staging).
__device__ __forceinline__ void st_shared_f32x2(uint32_t addr, float v0, float v1) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(addr), "f"(v0), "f"(v1) : "memory");
}

// ---- host side ------------------------------------------------------------------------------------------------

// SMs of the current device, for the persistent rungs' one CTA per SM: looked up on a device's first launch and kept
// per device, so that a second GPU with another SM count gets its own. 132 where the runtime cannot say (the launch
// that follows then reports the runtime's error).
inline int sm_count() {
  constexpr int kMaxDevices = 64;
  static std::atomic<int> known[kMaxDevices] = {};
  int dev = 0, n = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 132;
  if (dev >= 0 && dev < kMaxDevices && (n = known[dev].load(std::memory_order_relaxed)) > 0) return n;
  if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || n <= 0) return 132;
  if (dev >= 0 && dev < kMaxDevices) known[dev].store(n, std::memory_order_relaxed);
  return n;
}

// The hopper rungs run only on compute capability 9.0: their code is sm_90a and nothing else (no PTX that a
// later GPU could compile). cudaSuccess when the current device is one.
inline cudaError_t require_sm90a() {
  int dev = 0, major = 0, minor = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
  if (e != cudaSuccess) return e;
  return major == 9 && minor == 0 ? cudaSuccess : cudaErrorNoKernelImageForDevice;
}

// The registry's availability check (detail::Rung::unavailable): nullptr on an sm_90 GPU, otherwise why not.
inline const char* unavailable_here() {
  return require_sm90a() == cudaSuccess
             ? nullptr
             : "unavailable on this GPU: the hopper rungs are built for sm_90a only (TMA, wgmma, setmaxnreg) and "
               "need compute capability 9.0 (H100, H200)";
}

// cuTensorMapEncodeTiled from the driver the runtime has loaded, looked up once. nullptr if the driver is too
// old to have it.
inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      return static_cast<PFN_cuTensorMapEncodeTiled_v12000>(nullptr);
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

// A tensor map of a row-major rows x cols matrix (leading dimension cols) whose TMA box is box_rows x
// box_cols elements, 128B-swizzled in shared memory: box_cols * element size must be at most 128 bytes.
// Zeros outside the matrix (CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE).
inline cudaError_t make_tensor_map(CUtensorMap* map, const void* base, CUtensorMapDataType type, int elem_bytes,
                                   int rows, int cols, int box_rows, int box_cols) {
  const PFN_cuTensorMapEncodeTiled_v12000 encode = encode_tiled();
  if (!encode) return cudaErrorNotSupported;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};  // innermost first
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(cols) * elem_bytes};                 // bytes per row
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r = encode(map, type, 2, const_cast<void*>(base), dims, strides, box, element_strides,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// A (M x K halves, K-major) in boxes of {64 k, box_m rows}; B (K x N halves, N-major) in boxes of {64 n, 64 k}.
inline cudaError_t make_ab_maps(const GemmArgs<__half, float>& g, int box_m, CUtensorMap* a, CUtensorMap* b) {
  cudaError_t e = make_tensor_map(a, g.a, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g.m, g.k, box_m, kBoxK);
  if (e == cudaSuccess) e = make_tensor_map(b, g.b, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g.k, g.n, kBoxK, kBoxN);
  return e;
}

// Raises a kernel's dynamic shared-memory limit past the default 48 KB (launchers call it once per instantiation).
template <class Kernel>
cudaError_t allow_dynamic_smem(Kernel* kernel, int bytes) {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

}  // namespace gs::hopper
