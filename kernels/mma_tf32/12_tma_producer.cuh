// mma_tf32/12_tma_producer. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_tf32_12_tma_producer {

inline constexpr const char* kTitle = "A TMA producer warpgroup feeds the mma warps";
inline constexpr const char* kAdds =
    "The copies leave the math warps, as mma_f16/11 did for f16. A producer warpgroup (one lane of warp 8 "
    "issues) refills each of 4 stages with five TMA boxes (A 256x32, B as four 32x32) behind a full mbarrier; "
    "11's eight mma warps only wait for it, load fragments and mma, and release the stage with one arrival per "
    "warp. TMA's 128B swizzle is 11's A layout, so A's ldmatrix addresses stay; but it XORs B's 16-byte chunks "
    "with k % 8 where 11 used k % 4, which would put two of a half-warp's four k-rows of LDS.64 on the same banks. "
    "So the 16 n of an n-tile are dealt to other chunks: lanes gr 0-3 read chunks 2p and 2p + 4 of their box, "
    "gr 4-7 chunks 2p + 1 and 2p + 5 (p: the n-tile's parity), and the four k-rows' XORs (bits 0-1 of the chunk) "
    "never meet: conflict-free. In the epilogue, neighbour lanes swap a pair by shuffle so that each stores a "
    "whole 16-byte chunk, 128 bytes of a row per 8 lanes. setmaxnreg gives the mma warps 240 registers, the "
    "producer 24 (sm_90a code). K and N multiples of 4 (TMA row strides).";

}  // namespace gs::mma_tf32_12_tma_producer

#include <cstdint>

#include "kernels/gemm_args.cuh"
#include "kernels/hopper/common.cuh"
#include "kernels/mma_tf32/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_tf32_12_tma_producer {

using namespace gs::mma_tf32;
using gs::hopper::kAtom;

inline constexpr int kBM = 256, kBN = 128;          // 11's tile of C per block
inline constexpr int kBK = 32;                      // floats per 128-byte swizzled row: the k-depth of a stage
inline constexpr int kWarpsM = 4, kWarpsN = 2;      // 8 mma warps as in 11, each 64 x 64 of C
inline constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
inline constexpr int kTilesM = kWM / 8;             // 8 x 4 mma tiles per warp, each 8 rows (m) x 16 columns (n)
inline constexpr int kTilesN = kWN / 16;            // of C: the mma's 16x8 D is a tile of C^T, as in 11
inline constexpr int kSteps = kBK / 8;              // 4 mma k-steps per stage
inline constexpr int kMmaWarps = kWarpsM * kWarpsN;
inline constexpr int kThreads = kMmaWarps * 32 + 128;  // warpgroup 2 (warps 8-11) produces
// As in mma_f16/11: a ninth warp alone would cap every thread at 168 registers; setmaxnreg moves the producer
// warpgroup's registers to the mma warps (24 + 240 + 240 of a scheduler's 512 per lane).
inline constexpr int kProducerRegs = 24, kMmaRegs = 240;
inline constexpr int kStages = 4;
inline constexpr int kRowBytes = kBK * 4;                          // 128: rows of A and of each B box
inline constexpr int kBoxN = 32;                                   // n-columns of one B box (one 128-byte row)
inline constexpr int kAStageBytes = kBM * kRowBytes;               // 32 KB
inline constexpr int kBBoxBytes = kBK * kBoxN * 4;                 // 4 KB: 32 k-rows of 32 columns
inline constexpr int kBStageBytes = kBN / kBoxN * kBBoxBytes;      // 16 KB
inline constexpr int kStageBytes = kAStageBytes + kBStageBytes;    // 48 KB of TMA per stage
inline constexpr int kBarOffset = kStages * kStageBytes;           // 192 KB, then full[4], empty[4]
inline constexpr int kSmemBytes = kBarOffset + 2 * kStages * 8 + kAtom;
inline constexpr int kMaxLogTile = 5;               // 11's bands
static_assert(kWN == 2 * kBoxN, "each mma warp's columns are two boxes of B");
inline constexpr const char* kShapeRule = "K and N must be multiples of 4 (TMA needs 16-byte row strides)";
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0 && k % 4 == 0 && n % 4 == 0; }

enum Stage : int { kWaitEmpty, kIssue, kWaitFull, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"wait empty", "TMA issue", "wait full", "mma", "epilogue"};
enum Site : int { kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As ldmatrix.x4 (frag)", "Bs LDS.64 (frag)"};

__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

__device__ __forceinline__ void lds_64(uint32_t& x, uint32_t& y, uint32_t addr) {
  asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];\n" : "=r"(x), "=r"(y) : "r"(addr));
}

// C[row][col .. col + 3] = alpha * v + beta * C, 16 bytes; nothing outside C (N % 4 == 0: four columns are wholly
// inside or outside). BLAS: beta == 0 never reads C.
template <class Probe>
__device__ __forceinline__ void store_c4(const GemmArgs<float, float>& g, int row, int col, float4 v, Probe& probe) {
  if (row >= g.m || col >= g.n) return;
  float4* p = reinterpret_cast<float4*>(g.c + static_cast<size_t>(row) * g.n + col);
  float4 out = make_float4(g.alpha * v.x, g.alpha * v.y, g.alpha * v.z, g.alpha * v.w);
  if (g.beta != 0.0f) {
    GS_PROBE(probe.gmem(kGmemC, p, 16, GmemKind::kLoad));
    const float4 old = *p;
    out.x += g.beta * old.x;
    out.y += g.beta * old.y;
    out.z += g.beta * old.z;
    out.w += g.beta * old.w;
  }
  GS_PROBE(probe.gmem(kGmemC, p, 16, GmemKind::kStore));
  *p = out;
}

// The chunk of a box row where lane group gr's pair of n-tile parity p lies (n-rows gr and gr + 8 of the
// n-tile, at words 2 (gr % 2) and 2 (gr % 2) + 1): q + 2 p + 4 h, q = gr / 4, h = gr / 2 % 2. Lane groups gr and
// gr ^ 1 share both chunks; in the epilogue gr stores the whole chunk of parity gr % 2.
__device__ __forceinline__ int pair_chunk(int gr, int p) { return (gr >> 2) + 2 * p + 4 * (gr >> 1 & 1); }

template <class Probe>
__global__ void __launch_bounds__(kThreads, 1)
    kernel(const __grid_constant__ CUtensorMap tma_a, const __grid_constant__ CUtensorMap tma_b,
           GemmArgs<float, float> g, Probe probe, BlockOrder order) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t as = gs::hopper::smem_base();      // kStages x (256 m, 32 k) floats, 128B-swizzled (TMA)
  const uint32_t bs = as + kStages * kAStageBytes;  // kStages x 4 boxes of (32 k, 32 n)
  const uint32_t full = as + kBarOffset;            // stage s landed: 1 arrival + 48 KB of TMA
  const uint32_t empty = full + 8 * kStages;        // stage s read: one arrival per mma warp
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN;
  int tile_m, tile_n;
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  const int bm0 = tile_m * kBM, bn0 = tile_n * kBN;
  const int ktiles = (g.k + kBK - 1) / kBK;  // TMA fills zeros past K, M and N
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  if (tid == 0) {
    gs::hopper::prefetch_tensormap(&tma_a);
    gs::hopper::prefetch_tensormap(&tma_b);
    for (int s = 0; s < kStages; ++s) {
      gs::hopper::mbar_init(full + 8 * s, 1);
      gs::hopper::mbar_init(empty + 8 * s, kMmaWarps);
    }
    gs::hopper::fence_barrier_init();
  }
  __syncthreads();  // the only block-wide barrier: from here producer and mma warps meet on mbarriers

  // Step: a producer warpgroup refills the stages by TMA; the mma warps below only wait.
  if (warp >= kMmaWarps) {
    gs::hopper::setmaxnreg_dec<kProducerRegs>();
    // Producer: warp 8 walks the k-loop (its probe stamps stay warp-uniform) and its lane 0 issues; warps 9-11
    // only gave their registers away.
    for (int kt = 0; kt < ktiles && warp == kMmaWarps; ++kt) {
      const int s = kt % kStages;
      GS_PROBE(probe.stage(kWaitEmpty));
      gs::hopper::mbar_wait(empty + 8 * s, ((kt / kStages) & 1) ^ 1);  // round 0 waits for the phase before: done
      GS_PROBE(probe.stage(kIssue));
      if (lane == 0) {
        const uint32_t bar = full + 8 * s;
        gs::hopper::mbar_arrive_expect_tx(bar, kStageBytes);
        gs::hopper::tma_load_2d(as + s * kAStageBytes, &tma_a, kt * kBK, bm0, bar);  // A[bm0 ..][k0 ..]
#pragma unroll
        for (int j = 0; j < kBN / kBoxN; ++j) {  // B[k0 ..][bn0 + 32 j ..]
          gs::hopper::tma_load_2d(bs + s * kBStageBytes + j * kBBoxBytes, &tma_b, bn0 + j * kBoxN, kt * kBK, bar);
        }
      }
      __syncwarp();
    }
    GS_PROBE(probe.block_end());
    return;
  }

  gs::hopper::setmaxnreg_inc<kMmaRegs>();
  const int gr = lane / 4, tc = lane % 4;  // PTX groupID and threadID_in_group
  const int wm0 = (warp / kWarpsN) * kWM, wn0 = (warp % kWarpsN) * kWN;
  // A (the mma's B operand) by ldmatrix.x4 exactly as in 11: TMA's 128B swizzle puts 16-byte chunk c of a
  // 128-byte row r at c ^ (r % 8), 11's permutation of As. Lane l addresses row wm0 + l % 8 + 8 (l / 16),
  // chunk (2 ks + l / 8 % 2) ^ (l % 8); k-step ks flips bits 5-6 of the address.
  const uint32_t a_frag = as + (wm0 + lane % 8 + lane / 16 * 8) * kRowBytes + ((lane / 8 % 2) ^ (lane % 8)) * 16;
  // B (the mma's A operand) by LDS.64: a0, a1 = B(k = tc, n-rows gr, gr + 8 of n-tile nt), a2, a3 the same at
  // k = tc + 4. Row k of a box holds chunk c at c ^ (k % 8): with k % 8 = tc + 4 i, the n-tile's parity p and i
  // flip address bits 5 and 6; n-tile nt lies nt / 2 boxes past the warp's first.
  const uint32_t b_frag = bs + (wn0 / kBoxN) * kBBoxBytes + tc * kRowBytes + (pair_chunk(gr, 0) ^ tc) * 16 + (gr & 1) * 8;
  auto load_frags = [&](int s, int ks, uint32_t(&at)[kTilesM][2], uint32_t(&bt)[kTilesN][4]) {
    const uint32_t a = (a_frag + s * kAStageBytes) ^ (ks * 32);
#pragma unroll
    for (int j = 0; j < kTilesM / 2; ++j) {
      const uint32_t p = a + j * 16 * kRowBytes;
      GS_PROBE(probe.smem(kAsFrag, smem_generic(p), 16, SmemKind::kLdmatrix));
      uint32_t r[4];
      ldsm_x4(r, p);
      at[2 * j][0] = r[0], at[2 * j][1] = r[1];
      at[2 * j + 1][0] = r[2], at[2 * j + 1][1] = r[3];
    }
#pragma unroll
    for (int nt = 0; nt < kTilesN; ++nt) {
#pragma unroll
      for (int i = 0; i < 2; ++i) {
        const uint32_t p = ((b_frag + s * kBStageBytes) ^ (32 * (nt & 1) + 64 * i)) + (nt >> 1) * kBBoxBytes +
                           (ks * 8 + 4 * i) * kRowBytes;
        GS_PROBE(probe.smem(kBsFrag, smem_generic(p), 8, SmemKind::kLoad));
        lds_64(bt[nt][2 * i], bt[nt][2 * i + 1], p);
      }
    }
  };

  float acc[kTilesM][kTilesN][4] = {};
  uint32_t at[2][kTilesM][2], bt[2][kTilesN][4];
  GS_PROBE(probe.stage(kWaitFull));
  gs::hopper::mbar_wait(full, 0);
  GS_PROBE(probe.stage(kMma));
  load_frags(0, 0, at[0], bt[0]);
  int s = 0, phase = 0;  // stage of tile kt, and the parity of its round
  for (int kt = 0; kt < ktiles; ++kt) {
    GS_PROBE(probe.iteration(kt));
    const int next = s == kStages - 1 ? 0 : s + 1;
#pragma unroll
    for (int ks = 0; ks < kSteps; ++ks) {
      if (ks == kSteps - 1) {
        // Step 0 of tile kt + 1 loads its fragments now, from a stage TMA must have filled. Past the last tile
        // they are read from a stage nobody writes any more, and never used.
        if (kt + 1 < ktiles) {
          GS_PROBE(probe.stage(kWaitFull));
          gs::hopper::mbar_wait(full + 8 * next, next == 0 ? phase ^ 1 : phase);
          GS_PROBE(probe.stage(kMma));
        }
        load_frags(next, 0, at[(ks + 1) % 2], bt[(ks + 1) % 2]);
      } else {
        load_frags(s, ks + 1, at[(ks + 1) % 2], bt[(ks + 1) % 2]);
      }
#pragma unroll
      for (int nt = 0; nt < kTilesN; ++nt) {
#pragma unroll
        for (int mt = 0; mt < kTilesM; ++mt) mma_m16n8k8(acc[mt][nt], bt[ks % 2][nt], at[ks % 2][mt]);
      }
    }
    // The mma of step 3 consumed the last fragments read from stage s: the warp releases it to the producer.
    __syncwarp();
    if (lane == 0) gs::hopper::mbar_arrive(empty + 8 * s);
    if (next == 0) phase ^= 1;
    s = next;
  }

  GS_PROBE(probe.stage(kEpilogue));
  // From registers, as in 11: D's c0 = (n-row gr, m-column 2 tc), c1 = (gr, 2 tc + 1), c2, c3 = n-row gr + 8,
  // so (c0, c2) of n-tile nt is C row m0's pair at chunk pair_chunk(gr, nt % 2), word 2 (gr % 2), and (c1, c3)
  // row m0 + 1's. Lane groups gr and gr ^ 1 (lanes 4 apart) hold the two halves of the chunks of n-tiles 2b and
  // 2b + 1: each gives the other its pair of the parity it does not store, and stores 16 bytes, 8 lanes a whole
  // 128-byte row of the box.
  const int odd = gr & 1;
  const int row0 = bm0 + wm0 + 2 * tc;  // m-tile mt: rows row0 + 8 mt, +1
  const int col0 = bn0 + wn0 + 4 * pair_chunk(gr, odd);
#pragma unroll
  for (int mt = 0; mt < kTilesM; ++mt) {
#pragma unroll
    for (int b = 0; b < kTilesN / 2; ++b) {
      const float(&d0)[4] = acc[mt][2 * b];      // parity 0
      const float(&d1)[4] = acc[mt][2 * b + 1];  // parity 1
#pragma unroll
      for (int h = 0; h < 2; ++h) {  // h = 0: row m0 (c0, c2); h = 1: row m0 + 1 (c1, c3)
        const float give0 = odd ? d0[h] : d1[h], give1 = odd ? d0[h + 2] : d1[h + 2];
        const float got0 = __shfl_xor_sync(0xffffffffu, give0, 4), got1 = __shfl_xor_sync(0xffffffffu, give1, 4);
        const float4 v = odd ? make_float4(got0, got1, d1[h], d1[h + 2]) : make_float4(d0[h], d0[h + 2], got0, got1);
        store_c4(g, row0 + mt * 8 + h, col0 + b * kBoxN, v, probe);
      }
    }
  }
  GS_PROBE(probe.block_end());
#endif
}

// The registry's availability check: nullptr on an sm_90 GPU, otherwise why not.
inline const char* unavailable_here() {
  return gs::hopper::require_sm90a() == cudaSuccess
             ? nullptr
             : "unavailable on this GPU: mma_tf32/12 is built for sm_90a only (TMA, setmaxnreg) and needs compute "
               "capability 9.0 (H100, H200)";
}

// A (M x K floats, K-major) in boxes of {32 k, 256 rows}; B (K x N floats, N-major) in boxes of {32 n, 32 k}.
inline cudaError_t make_maps(const GemmArgs<float, float>& g, CUtensorMap* a, CUtensorMap* b) {
  cudaError_t e = gs::hopper::make_tensor_map(a, g.a, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, g.m, g.k, kBM, kBK);
  if (e == cudaSuccess) e = gs::hopper::make_tensor_map(b, g.b, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, g.k, g.n, kBK, kBoxN);
  return e;
}

template <class Probe, int kOrder = kOrderDefault>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (const cudaError_t e = gs::hopper::require_sm90a(); e != cudaSuccess) return e;
  static const cudaError_t smem_limit = gs::hopper::allow_dynamic_smem(kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  CUtensorMap ta, tb;
  if (const cudaError_t e = make_maps(g, &ta, &tb); e != cudaSuccess) return e;
  const int tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN;
  const BlockOrder order = variant_order<kOrder>(tiles_n, kMaxLogTile);
  const dim3 grid = order_grid(order, tiles_m, tiles_n);
  kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(ta, tb, g, probe, order);
  return cudaGetLastError();
}

}  // namespace gs::mma_tf32_12_tma_producer
