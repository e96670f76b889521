// mma_f16/11_persistent. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_11_persistent {

inline constexpr const char* kTitle = "Persistent blocks, one pipeline across tiles";
inline constexpr const char* kAdds =
    "One block per SM walks its share of the tiles (same band order as 10) and its 4-stage cp.async ring "
    "never drains: the copies of the next tile's first k-tiles are issued during the current tile's last ones, "
    "so no block waits for its first tile to arrive and the epilogue (stores from registers, no staging) runs "
    "while those copies land. In 10 each block paid that fill and drain once per tile: Nsight Compute put 8% of "
    "the warps' stall samples outside the k-loop, whose tensor pipe was already about 86% busy. Copies carry no "
    "bounds checks (one 64-bit add and a cp.async each). Shapes with M % 256, N % 128 or K % 64 left over "
    "run 10's per-tile loop with checked, zero-filling copies.";

}  // namespace gs::mma_f16_11_persistent

#include <cstdint>
#include <type_traits>

#include "kernels/gemm_args.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16_11_persistent {

using namespace gs::mma_f16;

inline constexpr int kBlockM = 256, kBlockN = 128, kBlockK = 64;  // block tile of C; k-tile of A and B
inline constexpr int kWarpsM = 4, kWarpsN = 2;                     // 8 warps: 4 along M x 2 along N
inline constexpr int kWarpM = kBlockM / kWarpsM;                   // 64 rows of C per warp
inline constexpr int kWarpN = kBlockN / kWarpsN;                   // 64 columns of C per warp
inline constexpr int kMI = kWarpM / kMmaM, kNI = kWarpN / kMmaN;   // 4 x 8 mma tiles per warp
inline constexpr int kKI = kBlockK / kMmaK;                        // 4 k16 steps per k-tile
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;
inline constexpr int kAChunksPerRow = kBlockK / kChunk;            // 8 chunks per 64-half row of the A tile
inline constexpr int kBChunksPerRow = kBlockN / kChunk;            // 16 per 128-half row of the B tile
inline constexpr int kARowsPerPass = kThreads / kAChunksPerRow;    // 32 rows of A per pass of 256 threads
inline constexpr int kBRowsPerPass = kThreads / kBChunksPerRow;    // 16 rows of B
inline constexpr int kALoads = kBlockM / kARowsPerPass;            // 8 copies of A per thread per k-tile
inline constexpr int kBLoads = kBlockK / kBRowsPerPass;            // 4 of B
inline constexpr int kARowBytes = kBlockK * 2;                     // 128 B per row of As: 8 chunks
inline constexpr int kBRowBytes = kBlockN * 2;                     // 256 B per row of Bs: 16 chunks
inline constexpr int kStages = 4;
inline constexpr int kAStageBytes = kBlockM * kARowBytes;          // As of one stage: 32 KB
inline constexpr int kBStageBytes = kBlockK * kBRowBytes;          // Bs of one stage: 16 KB, right after its As
inline constexpr int kStageBytes = kAStageBytes + kBStageBytes;    // 48 KB, a multiple of 128: XORs stay inside
inline constexpr int kSmemBytes = kStages * kStageBytes;           // 192 KB of the 227 a block may use
inline constexpr int kMaxLogTile = 4;  // bands of at most 16 tile columns (2048 columns of C)
// A tile's 12 copies per thread go out in kKI - 1 = 3 parts, one per k16 step before the wait.
inline constexpr int kCopyParts = kKI - 1;
inline constexpr int kCopiesPerPart = (kALoads + kBLoads) / kCopyParts;  // 4
static_assert((kALoads + kBLoads) % kCopyParts == 0, "copies split evenly over the k16 steps");
// Any M, N, K. M % 256 == 0, N % 128 == 0 and K % 64 == 0: the persistent kernel, no checks. Otherwise rung
// 10's per-tile kernel: cp.async zero-filled past the edges when K and N are multiples of 8, else scalar loads.
inline constexpr const char* kShapeRule = "";
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

// Elements col .. col + 7 of row `row` of a rows x cols row-major matrix, zeros past its edges, for rows
// that are not 16-byte aligned: eight 2-byte loads.
__device__ __forceinline__ uint4 load_chunk_scalar(const __half* m, int rows, int cols, int row, int col) {
  uint16_t h[kChunk];
  const uint16_t* p = reinterpret_cast<const uint16_t*>(m) + static_cast<size_t>(row < rows ? row : 0) * cols;
#pragma unroll
  for (int j = 0; j < kChunk; ++j) h[j] = row < rows && col + j < cols ? p[col + j] : uint16_t{0};
  return make_uint4(pack_halves(h[0], h[1]), pack_halves(h[2], h[3]), pack_halves(h[4], h[5]),
                    pack_halves(h[6], h[7]));
}

// 16 bytes global -> shared with no zero-fill operand: the persistent kernel's copy.
__device__ __forceinline__ void cp_async_16_full(uint32_t smem_dst, const void* gmem_src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_dst), "l"(gmem_src) : "memory");
}

// The per-tile kernel's epilogue staging, as in rung 10: each warp's 64x64 fp32 tile in rows of 256 bytes,
// 32-byte units XORed with row % 4, so the accumulator stores and the 16-byte row reads are conflict-free.
inline constexpr int kCsRowBytes = kWarpN * 4;                 // 256
inline constexpr int kCsWarpBytes = kWarpM * kCsRowBytes;      // 16 KB
static_assert(kThreads / 32 * kCsWarpBytes <= kSmemBytes, "staging fits in the pipeline's shared memory");
__device__ __forceinline__ uint32_t cs_offset(int row, int col) {  // float (row, col) of a warp's staged tile
  return row * kCsRowBytes + (((col / 8) ^ (row % 4)) * 32) + (col % 8) * 4;
}

enum Stage : int { kPrologue, kWait, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "wait", "mma", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsFrag, kBsFrag };
inline constexpr const char* kSmemSites[] = {"As cp.async", "Bs cp.async", "As ldmatrix.x4", "Bs ldmatrix.x4.trans"};

// What one thread copies of every k-tile, fixed for the block. Copy c < 8 is A's pass c (32 rows further
// down per pass), c >= 8 B's pass c - 8 (16 rows further down).
struct CopyPlan {
  const __half* a_src;  // A[bm0 + a_row][8 a_chunk]: its A chunk of pass 0, k-tile 0
  const __half* b_src;  // B[b_row][bn0 + 8 b_chunk]: its B chunk of pass 0, k-tile 0
  size_t a_pass;        // 32 rows of A, in elements
  size_t b_pass;        // 16 rows of B
  uint32_t a_dst;       // its A chunk of pass 0 inside a stage, XOR-permuted (rung 09)
  uint32_t b_dst;       // its B chunk of pass 0 inside a stage (kAStageBytes + ...)
  int a_row, a_col;     // row (pass 0) and column of its A chunk inside the block's A tile
  int b_row, b_col;     // row (pass 0) of its B chunk inside a k-tile; column inside the block's B tile
  unsigned a_rows_in;   // bit i: A row of pass i inside M
  bool b_cols_in;       // its B columns inside N (N % 8 == 0: all 8 or none)
};

// This thread's 16-byte chunks of each k-tile of the tile at (bm0, bn0), row-major and XOR-permuted (rung
// 09). Rows per pass (32, 16) are multiples of 8, so pass i's chunk is pass 0's plus i * 4096 bytes.
__device__ __forceinline__ CopyPlan copy_plan(const GemmArgs<__half, float>& g, int tid, int bm0, int bn0) {
  CopyPlan cp;
  const int a_chunk = tid % kAChunksPerRow, b_chunk = tid % kBChunksPerRow;
  cp.a_row = tid / kAChunksPerRow;
  cp.a_col = a_chunk * kChunk;
  cp.b_row = tid / kBChunksPerRow;
  cp.b_col = b_chunk * kChunk;
  cp.a_dst = cp.a_row * kARowBytes + (a_chunk ^ (cp.a_row % 8)) * 16;
  cp.b_dst = kAStageBytes + cp.b_row * kBRowBytes + (b_chunk ^ (cp.b_row % 8)) * 16;
  cp.a_src = g.a + static_cast<size_t>(bm0 + cp.a_row) * g.k + cp.a_col;  // only dereferenced inside A
  cp.b_src = g.b + static_cast<size_t>(cp.b_row) * g.n + bn0 + cp.b_col;
  cp.a_pass = static_cast<size_t>(kARowsPerPass) * g.k;
  cp.b_pass = static_cast<size_t>(kBRowsPerPass) * g.n;
  cp.a_rows_in = 0;
#pragma unroll
  for (int i = 0; i < kALoads; ++i) cp.a_rows_in |= (bm0 + cp.a_row + i * kARowsPerPass < g.m ? 1u : 0u) << i;
  cp.b_cols_in = bn0 + cp.b_col < g.n;
  return cp;
}

// Lane i's ldmatrix row address for k16 step 0, relative to a stage: row i % 16 of a 16x16 tile, logical chunk
// i / 16 of the step's two, stored at that chunk XOR row % 8 (rung 10). A: As row wm0 + i % 16; B: Bs row i % 16,
// the warp's columns wn0 ...
__device__ __forceinline__ uint32_t a_frag_offset(int wm0, int lane) {
  return (wm0 + lane % 16) * kARowBytes + ((lane / 16) ^ (lane % 8)) * 16;
}
__device__ __forceinline__ uint32_t b_frag_offset(int wn0, int lane) {
  return kAStageBytes + (lane % 16) * kBRowBytes + wn0 * 2 + ((lane / 16) ^ (lane % 8)) * 16;
}

// The persistent kernel: copies c of part kPart (kPart < 0: all 12) of the k-tile whose pass-0 chunks start
// at a_tile and b_tile, into the stage at `stage`. No check, no substitute address, no zero-fill size: one
// 64-bit add and one cp.async per chunk; the destinations are the stage plus immediates.
template <int kPart, class Probe>
__device__ __forceinline__ void copy_fast(const CopyPlan& cp, const __half* a_tile, const __half* b_tile,
                                          uint32_t stage, Probe& probe) {
#pragma unroll
  for (int c = 0; c < kALoads + kBLoads; ++c) {
    if (kPart >= 0 && c / kCopiesPerPart != kPart) continue;
    if (c < kALoads) {
      const uint32_t dst = stage + cp.a_dst + c * kARowsPerPass * kARowBytes;
      GS_PROBE(probe.smem(kAsCopy, smem_ptr(dst), 16, SmemKind::kCpAsync));
      cp_async_16_full(dst, a_tile + c * cp.a_pass);
    } else {
      const int i = c - kALoads;
      const uint32_t dst = stage + cp.b_dst + i * kBRowsPerPass * kBRowBytes;
      GS_PROBE(probe.smem(kBsCopy, smem_ptr(dst), 16, SmemKind::kCpAsync));
      cp_async_16_full(dst, b_tile + i * cp.b_pass);
    }
  }
}

// The per-tile kernel, rung 10's copies: part kPart of k-tile kt into the stage at `stage`. kAligned: cp.async, a
// chunk past an edge of A or B (or of a k-tile past the last) written as zeros by a zero-size copy whose
// source is the matrix's first element; otherwise scalar loads and plain stores, nothing past the last tile.
template <bool kAligned, int kPart, class Probe>
__device__ __forceinline__ void copy_checked(const GemmArgs<__half, float>& g, const CopyPlan& cp, int kt,
                                             uint32_t stage, int bm0, int bn0, Probe& probe) {
  const int k0 = kt * kBlockK;  // first column of A, row of B, of this k-tile
  if constexpr (kAligned) {
    const bool a_k_in = k0 + cp.a_col < g.k;  // this thread's column chunk of A inside K
#pragma unroll
    for (int c = kPart * kCopiesPerPart; c < (kPart + 1) * kCopiesPerPart; ++c) {
      if (c < kALoads) {
        const uint32_t dst = stage + cp.a_dst + c * kARowsPerPass * kARowBytes;
        const bool in = (cp.a_rows_in >> c & 1u) && a_k_in;
        GS_PROBE(probe.smem(kAsCopy, smem_ptr(dst), 16, SmemKind::kCpAsync));
        const __half* src = cp.a_src + k0 + c * cp.a_pass;  // A[bm0 + a_row + 32 c][k0 + a_col]
        cp_async_16(dst, in ? src : g.a, in ? 16 : 0);
      } else {
        const int i = c - kALoads;
        const uint32_t dst = stage + cp.b_dst + i * kBRowsPerPass * kBRowBytes;
        const bool in = cp.b_cols_in && k0 + cp.b_row + i * kBRowsPerPass < g.k;
        GS_PROBE(probe.smem(kBsCopy, smem_ptr(dst), 16, SmemKind::kCpAsync));
        const __half* src = cp.b_src + static_cast<size_t>(k0) * g.n + i * cp.b_pass;  // B[k0 + b_row + 16 i][..]
        cp_async_16(dst, in ? src : g.b, in ? 16 : 0);
      }
    }
  } else if (kt * kBlockK < g.k) {  // plain stores land at once: nothing to fill past the last tile
#pragma unroll 1
    // rolled: 8 loads in flight at a time, not the 32 that spill registers
    for (int c = kPart * kCopiesPerPart; c < (kPart + 1) * kCopiesPerPart; ++c) {
      if (c < kALoads) {
        const int row = bm0 + cp.a_row + c * kARowsPerPass, col = k0 + cp.a_col;  // A[row][col .. + 8)
        const uint32_t dst = stage + cp.a_dst + c * kARowsPerPass * kARowBytes;
        GS_PROBE(probe.smem(kAsCopy, smem_ptr(dst), 16, SmemKind::kStore));
        *static_cast<uint4*>(smem_ptr(dst)) = load_chunk_scalar(g.a, g.m, g.k, row, col);
      } else {
        const int i = c - kALoads;
        const int row = k0 + cp.b_row + i * kBRowsPerPass, col = bn0 + cp.b_col;  // B[row][col .. + 8)
        const uint32_t dst = stage + cp.b_dst + i * kBRowsPerPass * kBRowBytes;
        GS_PROBE(probe.smem(kBsCopy, smem_ptr(dst), 16, SmemKind::kStore));
        *static_cast<uint4*>(smem_ptr(dst)) = load_chunk_scalar(g.b, g.k, g.n, row, col);
      }
    }
  }
}

// Fragments of k16 step kk of the tile in the stage at `stage`, through ldmatrix on the permuted layout (rung
// 09): a_frag and b_frag are the lane's row addresses for step 0 relative to a stage (rung 10 explains them).
template <class Probe>
__device__ __forceinline__ void load_frags(uint32_t stage, uint32_t a_frag, uint32_t b_frag, int kk,
                                           uint32_t (&af)[kMI][4], uint32_t (&bf)[kNI][2], Probe& probe) {
  const uint32_t a = (stage + a_frag) ^ (kk * 32);
#pragma unroll
  for (int mi = 0; mi < kMI; ++mi) {
    const uint32_t p = a + mi * kMmaM * kARowBytes;  // rows + 16 mi
    GS_PROBE(probe.smem(kAsFrag, smem_ptr(p), 16, SmemKind::kLdmatrix));
    ldmatrix_x4(af[mi], p);
  }
  const uint32_t b = stage + b_frag + kk * kMmaK * kBRowBytes;  // rows 16 kk + i % 16
#pragma unroll
  for (int ni = 0; ni < kNI; ni += 2) {
    const uint32_t p = b ^ (ni * 16);
    GS_PROBE(probe.smem(kBsFrag, smem_ptr(p), 16, SmemKind::kLdmatrix));
    uint32_t r[4];
    ldmatrix_x4_trans(r, p);
    bf[ni][0] = r[0];
    bf[ni][1] = r[1];
    bf[ni + 1][0] = r[2];
    bf[ni + 1][1] = r[3];
  }
}

// The per-tile kernel's pipeline over its tile's k-tiles: rung 10's, with checked copies.
template <bool kAligned, class Probe>
__device__ __forceinline__ void k_loop(const GemmArgs<__half, float>& g, const CopyPlan& cp, uint32_t smem,
                                       uint32_t a_frag, uint32_t b_frag, int bm0, int bn0,
                                       float (&acc)[kMI][kNI][4], Probe& probe) {
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;  // the last one may be partial: zeros past K
  uint32_t af[2][kMI][4], bf[2][kNI][2];  // fragments of two k16 steps: one in use, one loading

  // Prologue: tiles 0 .. kStages - 2 in flight, one commit group each (zero-filled past the last tile, so
  // that group j always holds tile j and the wait below always means the same thing).
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    const uint32_t stage = smem + s * kStageBytes;
    copy_checked<kAligned, 0>(g, cp, s, stage, bm0, bn0, probe);
    copy_checked<kAligned, 1>(g, cp, s, stage, bm0, bn0, probe);
    copy_checked<kAligned, 2>(g, cp, s, stage, bm0, bn0, probe);
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();  // all but the newest kStages - 2 groups: tile 0 has landed
  __syncthreads();
  load_frags(smem, a_frag, b_frag, 0, af[0], bf[0], probe);

  GS_PROBE(probe.stage(kMma));
  const uint32_t last = smem + (kStages - 1) * kStageBytes;
  uint32_t rd = smem;  // stage holding tile kt
  uint32_t wr = last;  // stage receiving tile kt + kStages - 1: the one tile kt - 1 used
  for (int kt = 0; kt < ktiles; ++kt) {
    GS_PROBE(probe.iteration(kt));
#pragma unroll
    for (int kk = 0; kk < kKI; ++kk) {
      if (kk == kKI - 1) {
        // The next fragments come from tile kt + 1. Groups committed so far: kStages - 1 + kt + 1, the
        // newest holding tile kt + kStages - 1; leaving kStages - 2 in flight means tile kt + 1 is in. The
        // barrier publishes everyone's copies and closes all reads of tile kt's stage (last at kk - 1),
        // which the next iteration overwrites.
        GS_PROBE(probe.stage(kWait));
        cp_async_wait<kStages - 2>();
        __syncthreads();
        GS_PROBE(probe.stage(kMma));
        wr = rd;
        rd = rd == last ? smem : rd + kStageBytes;
      }
      // Fragments of step kk + 1 (of tile kt + 1 at the end) first, copies second, as in rung 10.
      load_frags(rd, a_frag, b_frag, (kk + 1) % kKI, af[(kk + 1) % 2], bf[(kk + 1) % 2], probe);
      if (kk < kCopyParts) {
        if (kk == 0) copy_checked<kAligned, 0>(g, cp, kt + kStages - 1, wr, bm0, bn0, probe);
        if (kk == 1) copy_checked<kAligned, 1>(g, cp, kt + kStages - 1, wr, bm0, bn0, probe);
        if (kk == 2) copy_checked<kAligned, 2>(g, cp, kt + kStages - 1, wr, bm0, bn0, probe);
        if (kk == kCopyParts - 1) cp_async_commit();  // one group per iteration
      }
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int n = 0; n < kNI; ++n) {
          const int ni = mi % 2 ? kNI - 1 - n : n;  // serpentine: a row's last B fragment is the next row's first
          mma_16816(acc[mi][ni], af[kk % 2][mi], bf[kk % 2][ni]);
        }
      }
    }
  }
  cp_async_wait<0>();  // nothing may land after this point (the staging below reuses the stages)
}

// The per-tile kernel (rung 10's, for shapes the persistent one does not take). kAligned: K % 8 == 0 and
// N % 8 == 0, the cp.async path; false: the scalar path.
template <class Probe, bool kAligned>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<__half, float> g, Probe probe, int log_tile) {
  const uint32_t smem = smem_u32(dynamic_smem());  // kStages x [As (BM, BK) | Bs (BK, BN)], XOR-permuted rows
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  // Swizzled raster (rung 07): grid (tiles_m << L, ceil(tiles_n / 2^L)), 2^L consecutive blocks take the
  // 2^L tiles of one row of a band of columns.
  const int tile_m = blockIdx.x >> log_tile;
  const int tile_n = (blockIdx.y << log_tile) + (blockIdx.x & ((1 << log_tile) - 1));
  if (tile_n >= (g.n + kBlockN - 1) / kBlockN) return;  // the last band overhangs C
  const int bm0 = tile_m * kBlockM, bn0 = tile_n * kBlockN;  // block's top-left element of C
  const int wm0 = (warp / kWarpsN) * kWarpM;                // warp's 64x64 sub-tile inside the block
  const int wn0 = (warp % kWarpsN) * kWarpN;
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  const CopyPlan cp = copy_plan(g, tid, bm0, bn0);
  const uint32_t a_frag = a_frag_offset(wm0, lane), b_frag = b_frag_offset(wn0, lane);

  float acc[kMI][kNI][4] = {};  // 128 accumulators in registers
  k_loop<kAligned>(g, cp, smem, a_frag, b_frag, bm0, bn0, acc, probe);

  GS_PROBE(probe.stage(kEpilogue));
  if constexpr (kAligned) {
    // Through shared memory as in rung 10, so that C is written 16 bytes per lane. The barrier: every warp is
    // past its last ldmatrix, so the stages become staging space, 16 KB per warp.
    __syncthreads();
    const uint32_t cs = smem + warp * kCsWarpBytes;  // (64, 64) fp32 tile of this warp, rows of 256 B
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {  // h = 0: (c0, c1) at row g; h = 1: (c2, c3) at row g + 8
          const int row = mi * kMmaM + lane / 4 + 8 * h, col = ni * kMmaN + 2 * (lane % 4);
          st_shared_f32x2(cs + cs_offset(row, col), acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
        }
      }
    }
    __syncwarp();  // the warp reads back only what its own lanes wrote
    const int row0 = bm0 + wm0, col = bn0 + wn0 + 4 * (lane % 16);  // lane's 4 columns of C
#pragma unroll 4
    for (int r = lane / 16; r < kWarpM; r += 2) {  // two rows of 64 floats per warp instruction
      const float4 v = ld_shared_f32x4(cs + cs_offset(r, 4 * (lane % 16)));
      // N % 8 == 0 here, so a 4-column group is wholly inside C or wholly past its edge
      if (row0 + r < g.m && col < g.n) {
        update_c_quad(g.c + static_cast<size_t>(row0 + r) * g.n + col, v, g.alpha, g.beta);  // C[row0 + r][col]
      }
    }
  } else {
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
        store_c_frag_guarded(g, bm0 + wm0 + mi * kMmaM, bn0 + wn0 + ni * kMmaN, lane, acc[mi][ni]);
      }
    }
  }
  GS_PROBE(probe.block_end());
}

// The persistent kernel's tile order: rung 10's launch order as a list. Tile t lies in band t / (tiles_m << L)
// of 2^L tile columns, which it walks row by row; t past C's right edge (the last band may overhang) is no tile.
struct TileOrder {
  int tiles_m, tiles_n, log_tile;
  int count;  // (tiles_m << log_tile) x bands
};
__device__ __forceinline__ bool tile_at(const TileOrder& o, int t, int& tile_m, int& tile_n) {
  const int per_band = o.tiles_m << o.log_tile;
  const int band = t / per_band, r = t - band * per_band;
  tile_m = r >> o.log_tile;
  tile_n = (band << o.log_tile) + (r & ((1 << o.log_tile) - 1));
  return tile_n < o.tiles_n;
}
// The first tile at or after t, in steps of `stride` (the grid), that lies in C; o.count if none.
__device__ __forceinline__ int next_tile(const TileOrder& o, int t, int stride) {
  int m, n;
  while (t < o.count && !tile_at(o, t, m, n)) t += stride;
  return t < o.count ? t : o.count;
}

// M % 256 == 0, N % 128 == 0, K % 64 == 0. Block b computes tiles b, b + G, b + 2G ... (G blocks, one per SM;
// traced launches: one block per tile). Its k-tiles over all its tiles form one stream through the 4-stage ring:
// step q computes k-tile q % ktiles of its tile q / ktiles while the copies of step q + 3 are in flight, which
// belong to the next tile during a tile's last three k-tiles. The schedule inside a step is rung 10's.
template <class Probe>
__global__ void __launch_bounds__(kThreads, 1) stream_kernel(GemmArgs<__half, float> g, Probe probe, TileOrder o) {
  const uint32_t smem = smem_u32(dynamic_smem());  // kStages x [As (BM, BK) | Bs (BK, BN)], XOR-permuted rows
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int stride = gridDim.x;
  int t = next_tile(o, blockIdx.x, stride);  // the tile being computed
  if (t == o.count) return;
  int tile_m, tile_n;
  tile_at(o, t, tile_m, tile_n);
  GS_PROBE(probe.block_begin(tile_m, tile_n));
  const int wm0 = (warp / kWarpsN) * kWarpM;  // warp's 64x64 sub-tile inside the block tile
  const int wn0 = (warp % kWarpsN) * kWarpN;
  const uint32_t a_frag = a_frag_offset(wm0, lane), b_frag = b_frag_offset(wn0, lane);
  const CopyPlan cp = copy_plan(g, tid, 0, 0);  // rows, columns and stage offsets; sources set per tile below
  const int ktiles = g.k / kBlockK;
  int tiles = 0;
  for (int u = t; u < o.count; u = next_tile(o, u + stride, stride)) ++tiles;
  const int steps = tiles * ktiles;  // k-tiles this block computes

  // The copy side of the stream: tile ct, its next k-tile ckt, whose pass-0 chunks are at a_next and b_next.
  int ct = t, ckt = 0;
  const __half* a_next = nullptr;
  const __half* b_next = nullptr;
  const size_t b_tile = static_cast<size_t>(kBlockK) * g.n;  // 64 rows of B
  auto aim = [&](int tile) {  // copies start at k-tile 0 of this tile
    int m, n;
    tile_at(o, tile, m, n);
    a_next = cp.a_src + static_cast<size_t>(m * kBlockM) * g.k;  // A[m BM + a_row][a_col]
    b_next = cp.b_src + n * kBlockN;                              // B[b_row][n BN + b_col]
  };
  auto advance = [&] {  // after the copies of one k-tile
    a_next += kBlockK;
    b_next += b_tile;
    if (++ckt == ktiles) {
      ckt = 0;
      ct = next_tile(o, ct + stride, stride);
      if (ct < o.count) aim(ct);
    }
  };
  aim(ct);

  uint32_t af[2][kMI][4], bf[2][kNI][2];  // fragments of two k16 steps: one in use, one loading
  float acc[kMI][kNI][4] = {};            // 128 accumulators in registers

  // Prologue, once per block: steps 0 .. kStages - 2 in flight, one commit group each (empty past the last
  // step, so that group j always holds step j).
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < steps) {
      copy_fast<-1>(cp, a_next, b_next, smem + s * kStageBytes, probe);
      advance();
    }
    cp_async_commit();
  }
  cp_async_wait<kStages - 2>();  // step 0 has landed
  __syncthreads();
  load_frags(smem, a_frag, b_frag, 0, af[0], bf[0], probe);

  GS_PROBE(probe.stage(kMma));
  const uint32_t last = smem + (kStages - 1) * kStageBytes;
  uint32_t rd = smem;  // stage holding step q
  uint32_t wr = last;  // stage receiving step q + kStages - 1: the one step q - 1 used
  int kt = 0;          // k-tile of step q within its tile
  for (int q = 0; q < steps; ++q) {
    GS_PROBE(probe.iteration(kt));
    const bool copy = q + kStages - 1 < steps;
#pragma unroll
    for (int kk = 0; kk < kKI; ++kk) {
      if (kk == kKI - 1) {
        // Step q + 1 has landed once kStages - 2 groups are left in flight (rung 10); the barrier publishes
        // it and closes all reads of step q's stage, which the next step overwrites.
        GS_PROBE(probe.stage(kWait));
        cp_async_wait<kStages - 2>();
        __syncthreads();
        GS_PROBE(probe.stage(kMma));
        wr = rd;
        rd = rd == last ? smem : rd + kStageBytes;
      }
      // Fragments of step kk + 1 (of step q + 1 at the end, maybe the next tile's) first, copies second.
      load_frags(rd, a_frag, b_frag, (kk + 1) % kKI, af[(kk + 1) % 2], bf[(kk + 1) % 2], probe);
      if (kk < kCopyParts) {
        if (copy) {
          if (kk == 0) copy_fast<0>(cp, a_next, b_next, wr, probe);
          if (kk == 1) copy_fast<1>(cp, a_next, b_next, wr, probe);
          if (kk == 2) copy_fast<2>(cp, a_next, b_next, wr, probe);
        }
        if (kk == kCopyParts - 1) {
          cp_async_commit();  // one group per step
          if (copy) advance();
        }
      }
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int n = 0; n < kNI; ++n) {
          const int ni = mi % 2 ? kNI - 1 - n : n;  // serpentine: a row's last B fragment is the next row's first
          mma_16816(acc[mi][ni], af[kk % 2][mi], bf[kk % 2][ni]);
        }
      }
    }
    if (++kt == ktiles) {
      // The tile is done: its accumulators go straight to C (8-byte stores, four lanes filling each 32-byte
      // sector) while the next tile's first k-tiles land; no staging, the stages are in use.
      GS_PROBE(probe.stage(kEpilogue));
      const int row0 = tile_m * kBlockM + wm0, col0 = tile_n * kBlockN + wn0;
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int ni = 0; ni < kNI; ++ni) {
          store_c_frag(g, row0 + mi * kMmaM, col0 + ni * kMmaN, lane, acc[mi][ni]);
#pragma unroll
          for (int j = 0; j < 4; ++j) acc[mi][ni][j] = 0.0f;
        }
      }
      GS_PROBE(probe.stage(kMma));
      kt = 0;
      t = next_tile(o, t + stride, stride);
      if (t < o.count) tile_at(o, t, tile_m, tile_n);
    }
  }
  cp_async_wait<0>();  // only empty groups remain; nothing may be in flight when the block exits
  GS_PROBE(probe.block_end());
}

// SMs of the current device, looked up once per process (the lent machines have one GPU).
inline int sm_count() {
  static const int sms = [] {
    int dev = 0, n = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
      return 132;
    return n;
  }();
  return sms;
}

// The band width of rung 10's raster: 2^L tile columns, L at most kMaxLogTile and 2^L no wider than C.
inline int band_log_tile(int tiles_n) {
  int log_tile = 0;
  while (log_tile < kMaxLogTile && (2 << log_tile) <= tiles_n) ++log_tile;
  return log_tile;
}

template <class Probe, bool kRowOrder>
cudaError_t launch_stream(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  static const cudaError_t smem_limit = allow_dynamic_smem(stream_kernel<Probe>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  TileOrder o;
  o.tiles_m = g.m / kBlockM;
  o.tiles_n = g.n / kBlockN;
  o.log_tile = kRowOrder ? row_order_log_tile(o.tiles_n) : band_log_tile(o.tiles_n);
  o.count = (o.tiles_m << o.log_tile) * ((o.tiles_n + (1 << o.log_tile) - 1) >> o.log_tile);
  // Timed: one block per SM (192 KB of shared memory: one fits). Traced: one block per tile of the order, the
  // same kernel, so that every tile gets its own block record (the probe keys records by blockIdx).
  const int grid = std::is_same_v<Probe, NoProbe> ? (o.count < sm_count() ? o.count : sm_count()) : o.count;
  stream_kernel<Probe><<<grid, kThreads, kSmemBytes, stream>>>(g, probe, o);
  return cudaGetLastError();
}

template <class Probe, bool kAligned, bool kRowOrder>
cudaError_t launch_as(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  // past the default 48 KB of dynamic shared memory: raise the limit once per instantiation
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe, kAligned>, kSmemBytes);
  if (smem_limit != cudaSuccess) return smem_limit;
  // Swizzled raster as in rung 07, over the tiles that cover C (edge tiles overhang it).
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const int log_tile = kRowOrder ? row_order_log_tile(tiles_n) : band_log_tile(tiles_n);
  const dim3 grid(tiles_m << log_tile, (tiles_n + (1 << log_tile) - 1) >> log_tile);
  kernel<Probe, kAligned><<<grid, kThreads, kSmemBytes, stream>>>(g, probe, log_tile);
  return cudaGetLastError();
}

// kRowOrder: a variant [order=row], the same kernel with its band as wide as C, i.e. row-major order.
template <class Probe, bool kRowOrder = false>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  if (g.m % kBlockM == 0 && g.n % kBlockN == 0 && g.k % kBlockK == 0) {
    return launch_stream<Probe, kRowOrder>(g, probe, stream);
  }
  // 16-byte cp.async needs every row of A (K halves) and of B (N halves) to start 16-byte aligned
  if (g.k % kChunk == 0 && g.n % kChunk == 0) return launch_as<Probe, true, kRowOrder>(g, probe, stream);
  return launch_as<Probe, false, kRowOrder>(g, probe, stream);
}

}  // namespace gs::mma_f16_11_persistent
