// mma_f16/10_multistage. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::mma_f16_10_multistage {

inline constexpr const char* kTitle = "Four-stage cp.async pipeline, any shape";
inline constexpr const char* kAdds =
    "4 cp.async stages: three k-tiles in flight while the warps compute on a fourth, so a copy has three tiles "
    "of mma to land behind; wait_group 2 keeps the two newest in flight. The next k16 step's ldmatrix are "
    "issued before the copies, from 32-bit shared addresses where rung 09's XOR is one instruction, so ptxas "
    "puts them 17 or more mma ahead of their use (it had left some right before it). C goes out through shared "
    "memory as 16-byte stores covering whole lines. Any shape: zeros past A's and B's edges, a guarded "
    "epilogue, and scalar loads when K or N is not a multiple of 8.";

}  // namespace gs::mma_f16_10_multistage

#include "kernels/gemm_args.cuh"
#include "kernels/mma_f16/common.cuh"
#include "kernels/probe.cuh"

namespace gs::mma_f16_10_multistage {

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
inline constexpr int kStages = 4;  // the rung's; its variants [stages=2] and [stages=3] take fewer
inline constexpr int kAStageBytes = kBlockM * kARowBytes;          // one stage of As: 32 KB
inline constexpr int kBStageBytes = kBlockK * kBRowBytes;          // one stage of Bs: 16 KB
inline constexpr int kSmemBytes = kStages * (kAStageBytes + kBStageBytes);  // 192 KB of the 227 a block may use
inline constexpr int kMaxLogTile = 4;  // bands of at most 16 tile columns (2048 columns of C)
// A tile's 12 copies per thread go out in kKI - 1 = 3 parts, one per k16 step before the wait.
inline constexpr int kCopyParts = kKI - 1;
inline constexpr int kCopiesPerPart = (kALoads + kBLoads) / kCopyParts;  // 4
static_assert((kALoads + kBLoads) % kCopyParts == 0, "copies split evenly over the k16 steps");
// Any M, N, K. With K and N multiples of 8 every 16-byte row chunk of A and B is aligned and lies wholly
// inside or outside its matrix: cp.async copies it or, past an edge, writes zeros (src-size 0). Otherwise a
// second instantiation loads element by element (slow, but exact) into the same layout.
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

// Epilogue staging: each warp's 64x64 fp32 tile in rows of 256 bytes, 32-byte units XORed with row % 4. An
// accumulator store (8 bytes per lane, rows g and g + 8) and a row read (16 bytes per lane) then both reach 32
// distinct banks per 128 bytes: no conflicts. Eight warps take 128 KB of the pipeline's 192.
inline constexpr int kCsRowBytes = kWarpN * 4;                 // 256
inline constexpr int kCsWarpBytes = kWarpM * kCsRowBytes;      // 16 KB
static_assert(kThreads / 32 * kCsWarpBytes <= kSmemBytes, "staging fits in the pipeline's shared memory");
// Shared memory of an S-stage pipeline: its stages, or the epilogue's staging (128 KB) where that is more.
template <int S>
constexpr int smem_bytes() {
  return S * (kAStageBytes + kBStageBytes) > kThreads / 32 * kCsWarpBytes ? S * (kAStageBytes + kBStageBytes)
                                                                          : kThreads / 32 * kCsWarpBytes;
}
// The stage counts compiled: the variants' toggle [stages=S]. One stage would leave nothing in flight.
inline constexpr int kStageChoices[] = {2, 3, 4};
__device__ __forceinline__ uint32_t cs_offset(int row, int col) {  // float (row, col) of a warp's staged tile
  return row * kCsRowBytes + (((col / 8) ^ (row % 4)) * 32) + (col % 8) * 4;
}

enum Stage : int { kPrologue, kWait, kMma, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue", "wait", "mma", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsFrag, kBsFrag, kCStage, kCRead, kAsWord, kBsHalf };
inline constexpr const char* kSmemSites[] = {"As cp.async",          "Bs cp.async",
                                             "As ldmatrix.x4",       "Bs ldmatrix.x4.trans",
                                             "C staging store (8 B)", "C staging load (16 B)",
                                             "As LDS.32 (no ldmatrix)", "Bs LDS.U16 (no ldmatrix)"};

// What the variant [xor=off] changes, for `gemmscope list` and the window.
inline constexpr const char* kXorOffAdds =
    "Variant: the same kernel with rung 09's XOR permutation off. Rows of As (128 B) and Bs (256 B) are stored "
    "as they come, so the 8 rows an 8x8 ldmatrix matrix reads start at the same bank: 8 wavefronts where 1 "
    "would do, for every fragment load (the cp.async writes stay conflict-free: 8 lanes write one whole "
    "128-byte row). Everything else is the rung's (4 stages, its block order, its epilogue). On an H200 at "
    "4096^3 it runs at 0.23 of the rung's speed.";

inline constexpr const char* kLdmatrixOffAdds =
    "Variant: the same kernel loading fragments without ldmatrix (rung 08's step). Each A register is one "
    "LDS.32 of two halves adjacent in k; each B register holds two halves of one column from rows k and k + 1 "
    "of row-major Bs, so it takes two LDS.U16 and a pack: per k16 step a warp issues 16 + 32 loads where "
    "ldmatrix took 4 + 4, and B's shared wavefronts double. The XOR layout keeps every one conflict-free. "
    "On an H200 at 4096^3 it runs at 0.64-0.66 of the rung's speed (two recordings); the halves and their "
    "packs need registers that two sets of fragments and 128 accumulators leave no room for (255 per thread, "
    "some spilled).";

// kAligned: K % 8 == 0 and N % 8 == 0, the cp.async path; false: the scalar path. S: pipeline stages (kStages
// for the rung). kXor: the tiles' chunks XOR-permuted by row % 8 (the rung); false for the variant [xor=off].
// kLdsm: fragments by ldmatrix (the rung); false for the variant [ldmatrix=off].
template <class Probe, bool kAligned, int S = kStages, bool kXor = true, bool kLdsm = true>
__global__ void __launch_bounds__(kThreads, 1) kernel(GemmArgs<__half, float> g, Probe probe, BlockOrder order) {
  // Shared addresses as 32-bit integers. The window is 128-byte aligned and every row is 128 or 256 bytes, so
  // bits 4-6 of an address are exactly its 16-byte chunk's slot in a 128-byte segment: the XOR of rung 09 is
  // an XOR on the address itself.
  const uint32_t as = smem_u32(dynamic_smem());    // S x (BM, BK) tiles of A, XOR-permuted rows
  const uint32_t bs = as + S * kAStageBytes;  // S x (BK, BN) tiles of B, XOR-permuted rows
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  // The rung's own order is rung 07's swizzled raster (cutlass:L): grid (tiles_m << L, ceil(tiles_n / 2^L)), 2^L consecutive blocks take the
  // 2^L tiles of one row of a band of columns.
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;  // edge tiles overhang C
  int tile_m, tile_n;  // the block order of the rung or its variant [order=...] (kernels/block_order.cuh)
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  const int bm0 = tile_m * kBlockM, bn0 = tile_n * kBlockN;  // block's top-left element of C
  const int wm0 = (warp / kWarpsN) * kWarpM;                // warp's 64x64 sub-tile inside the block
  const int wn0 = (warp % kWarpsN) * kWarpN;
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  // This thread's 16-byte chunks of each k-tile, row-major and XOR-permuted (rung 09). Rows per pass (32, 16)
  // are multiples of 8, so pass i's chunk is pass 0's plus i * 4096 bytes.
  const int a_row = tid / kAChunksPerRow, a_chunk = tid % kAChunksPerRow;  // + i * kARowsPerPass rows
  const int b_row = tid / kBChunksPerRow, b_chunk = tid % kBChunksPerRow;  // + i * kBRowsPerPass rows
  const int a_key = kXor ? a_row % 8 : 0, b_key = kXor ? b_row % 8 : 0;  // the XOR of the chunk index
  const uint32_t a_dst = as + a_row * kARowBytes + (a_chunk ^ a_key) * 16;  // pass 0's chunk, stage 0
  const uint32_t b_dst = bs + b_row * kBRowBytes + (b_chunk ^ b_key) * 16;
  const __half* a_src = g.a + static_cast<size_t>(bm0 + a_row) * g.k + a_chunk * kChunk;  // A[bm0 + a_row][8 ac]
  const __half* b_src = g.b + static_cast<size_t>(b_row) * g.n + bn0 + b_chunk * kChunk;  // B[b_row][bn0 + 8 bc]
  const size_t a_pass = static_cast<size_t>(kARowsPerPass) * g.k;  // 32 rows of A
  const size_t b_pass = static_cast<size_t>(kBRowsPerPass) * g.n;  // 16 rows of B
  const int ktiles = (g.k + kBlockK - 1) / kBlockK;  // the last one may be partial: zeros past K
  // Edge masks that hold for the whole k-loop: bit i says A row bm0 + a_row + 32 i is inside M; B's
  // columns bn0 + 8 b_chunk .. + 7 are all inside N or (N % 8 == 0) all outside.
  unsigned a_rows_in = 0;
#pragma unroll
  for (int i = 0; i < kALoads; ++i) a_rows_in |= (bm0 + a_row + i * kARowsPerPass < g.m ? 1u : 0u) << i;
  const bool b_cols_in = bn0 + b_chunk * kChunk < g.n;

  // Issues part `part` (of kCopyParts) of this thread's copies of k-tile kt into stage s: copies c of
  // [part * 4, part * 4 + 4), where c < 8 is A's pass c and c >= 8 is B's pass c - 8. A chunk past an edge
  // of A or B, or of a k-tile past the last (the loop fetches three ahead without a branch), is written as
  // zeros, which add nothing to the dot products; its zero-size cp.async gets the matrix's first element as
  // source, so that no address outside A or B ever reaches the copy unit.
  auto load_tile = [&](int kt, int s, int part) {
    const int k0 = kt * kBlockK;  // first column of A, row of B, of this k-tile
    if constexpr (kAligned) {
      const bool a_k_in = k0 + a_chunk * kChunk < g.k;  // this thread's column chunk of A inside K
#pragma unroll
      for (int c = part * kCopiesPerPart; c < (part + 1) * kCopiesPerPart; ++c) {
        if (c < kALoads) {
          const int i = c;
          const uint32_t dst = a_dst + s * kAStageBytes + i * kARowsPerPass * kARowBytes;
          const bool in = (a_rows_in >> i & 1u) && a_k_in;
          GS_PROBE(probe.smem(kAsCopy, smem_generic(dst), 16, SmemKind::kCpAsync));
          const __half* src = a_src + k0 + i * a_pass;  // A[bm0 + a_row + 32 i][k0 + 8 a_chunk]
          GS_PROBE(probe.gmem(kGmemA, src, in ? 16 : 0, GmemKind::kCpAsync));
          cp_async_16(dst, in ? src : g.a, in ? 16 : 0);
        } else {
          const int i = c - kALoads;
          const uint32_t dst = b_dst + s * kBStageBytes + i * kBRowsPerPass * kBRowBytes;
          const bool in = b_cols_in && k0 + b_row + i * kBRowsPerPass < g.k;
          GS_PROBE(probe.smem(kBsCopy, smem_generic(dst), 16, SmemKind::kCpAsync));
          const __half* src = b_src + static_cast<size_t>(k0) * g.n + i * b_pass;  // B[k0 + b_row + 16 i][..]
          GS_PROBE(probe.gmem(kGmemB, src, in ? 16 : 0, GmemKind::kCpAsync));
          cp_async_16(dst, in ? src : g.b, in ? 16 : 0);
        }
      }
    } else if (kt < ktiles) {  // plain stores land at once: nothing to fill past the last tile
#pragma unroll 1
      // rolled: 8 loads in flight at a time, not the 32 that spill registers
      for (int c = part * kCopiesPerPart; c < (part + 1) * kCopiesPerPart; ++c) {
        if (c < kALoads) {
          const int row = bm0 + a_row + c * kARowsPerPass, col = k0 + a_chunk * kChunk;  // A[row][col .. + 8)
          const uint32_t dst = a_dst + s * kAStageBytes + c * kARowsPerPass * kARowBytes;
          GS_PROBE(probe.smem(kAsCopy, smem_generic(dst), 16, SmemKind::kStore));
          *static_cast<uint4*>(smem_generic(dst)) = load_chunk_scalar(g.a, g.m, g.k, row, col);
        } else {
          const int i = c - kALoads;
          const int row = k0 + b_row + i * kBRowsPerPass, col = bn0 + b_chunk * kChunk;  // B[row][col .. + 8)
          const uint32_t dst = b_dst + s * kBStageBytes + i * kBRowsPerPass * kBRowBytes;
          GS_PROBE(probe.smem(kBsCopy, smem_generic(dst), 16, SmemKind::kStore));
          *static_cast<uint4*>(smem_generic(dst)) = load_chunk_scalar(g.b, g.k, g.n, row, col);
        }
      }
    }
  };

  // Fragments of k16 step kk of the tile in stage s through ldmatrix on the permuted layout (rung 09). Lane i
  // supplies row i % 16 of a 16x16 tile, logical chunk i / 16 of the step's two; the stored chunk is that
  // XOR row % 8, a byte offset of 16 ((i / 16) ^ (i % 8)) XOR 32 kk for A (step kk spans chunks 2 kk, 2 kk + 1)
  // and XOR 32 j for B's chunk pair j (n8 tiles 2 j, 2 j + 1). So each lane keeps one address per operand,
  // and a step costs one XOR for A and three for B; mi and kk then move whole rows: immediate offsets. Without
  // the permutation ([xor=off]) x is the logical chunk, and the XORs with 32 kk and 16 ni add them (the bits
  // are disjoint).
  const int x = kXor ? (lane / 16) ^ (lane % 8) : lane / 16;
  const uint32_t a_frag = as + (wm0 + lane % 16) * kARowBytes + x * 16;      // As row wm0 + i % 16, k16 step 0
  const uint32_t b_frag = bs + (lane % 16) * kBRowBytes + wn0 * 2 + x * 16;  // Bs row i % 16, columns wn0 ..
  // [ldmatrix=off]: each lane's own words. a_i of tile mi is A(16 mi + g + 8 (i % 2), 16 kk + 2 t + 8 (i / 2)) and
  // the next column: byte 4 t of chunk (2 kk + i / 2) ^ g of its row. b_r of tile ni is B(k, n), B(k + 1, n) at
  // k = 16 kk + 2 t + 8 r, n = wn0 + 8 ni + g: byte 2 g of chunk wn0 / 8 + (ni ^ (2 t + d)) of rows k + d (PTX
  // ISA fragment layouts, rung 09's XOR). So, as in the ldmatrix path, a lane keeps one address per operand
  // and three XOR keys, and mi, i, kk, r, d are immediates.
  const int gr = lane / 4, t = lane % 4;
  const uint32_t a_word = as + (wm0 + gr) * kARowBytes + 4 * t;  // row wm0 + g, column 2 t of chunk 0
  const uint32_t a_xor = kXor ? gr * 16 : 0;
  const uint32_t b_word = bs + 2 * t * kBRowBytes + wn0 * 2 + 2 * gr;  // row 2 t, column wn0 + g
  const uint32_t b_xor[2] = {kXor ? 2u * t * 16 : 0u, kXor ? (2u * t + 1) * 16 : 0u};
  auto load_frags = [&](int s, int kk, uint32_t(&af)[kMI][4], uint32_t(&bf)[kNI][2]) {
    if constexpr (!kLdsm) {
#pragma unroll
      for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const uint32_t p = a_word + s * kAStageBytes + (kMmaM * mi + 8 * (i % 2)) * kARowBytes +
                             ((kk * 32 + (i / 2) * 16) ^ a_xor);
          GS_PROBE(probe.smem(kAsWord, smem_generic(p), 4, SmemKind::kLoad));
          af[mi][i] = *static_cast<const uint32_t*>(smem_generic(p));
        }
      }
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          uint16_t h[2];
#pragma unroll
          for (int d = 0; d < 2; ++d) {
            const uint32_t p =
                b_word + s * kBStageBytes + (kMmaK * kk + 8 * r + d) * kBRowBytes + ((ni * 16) ^ b_xor[d]);
            GS_PROBE(probe.smem(kBsHalf, smem_generic(p), 2, SmemKind::kLoad));  // a 16-bit load
            h[d] = *static_cast<const uint16_t*>(smem_generic(p));
          }
          bf[ni][r] = pack_halves(h[0], h[1]);
        }
      }
      return;
    }
    const uint32_t a = (a_frag + s * kAStageBytes) ^ (kk * 32);
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
      const uint32_t p = a + mi * kMmaM * kARowBytes;  // rows + 16 mi
      GS_PROBE(probe.smem(kAsFrag, smem_generic(p), 16, SmemKind::kLdmatrix));
      ldmatrix_x4(af[mi], p);
    }
    const uint32_t b = b_frag + s * kBStageBytes + kk * kMmaK * kBRowBytes;  // rows 16 kk + i % 16
#pragma unroll
    for (int ni = 0; ni < kNI; ni += 2) {
      const uint32_t p = b ^ (ni * 16);
      GS_PROBE(probe.smem(kBsFrag, smem_generic(p), 16, SmemKind::kLdmatrix));
      uint32_t r[4];
      ldmatrix_x4_trans(r, p);
      bf[ni][0] = r[0];
      bf[ni][1] = r[1];
      bf[ni + 1][0] = r[2];
      bf[ni + 1][1] = r[3];
    }
  };

  float acc[kMI][kNI][4] = {};            // 128 accumulators in registers
  uint32_t af[2][kMI][4], bf[2][kNI][2];  // fragments of two k16 steps: one in use, one loading

  // Step: 4 cp.async stages, three k-tiles in flight while a fourth is computed.
  // Prologue: tiles 0 .. S - 2 in flight, one commit group each (zeros past the last tile, so that
  // group g always holds tile g and the wait below always means the same thing).
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
#pragma unroll
    for (int part = 0; part < kCopyParts; ++part) load_tile(s, s, part);
    cp_async_commit();
  }
  cp_async_wait<S - 2>();  // all but the newest S - 2 groups: tile 0 has landed
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));
  __syncthreads();
  GS_PROBE(probe.mark(Mark::kBarrier));
  load_frags(0, 0, af[0], bf[0]);

  GS_PROBE(probe.stage(kMma));
  int read = 0;               // stage holding tile kt
  int write = S - 1;    // stage receiving tile kt + S - 1: the one tile kt - 1 used
  for (int kt = 0; kt < ktiles; ++kt) {
    GS_PROBE(probe.iteration(kt));
#pragma unroll
    for (int kk = 0; kk < kKI; ++kk) {
      if (kk == kKI - 1) {
        // The next fragments come from tile kt + 1. Groups committed so far: S - 1 + kt + 1, the
        // newest holding tile kt + S - 1; leaving S - 2 in flight means tile kt + 1 is in. The
        // barrier publishes everyone's copies and closes all reads of tile kt's stage (last at kk - 1),
        // which the next iteration overwrites.
        GS_PROBE(probe.stage(kWait));
        cp_async_wait<S - 2>();
        GS_PROBE(probe.mark(Mark::kCpAsyncWait));
        __syncthreads();
        GS_PROBE(probe.mark(Mark::kBarrier));
        GS_PROBE(probe.stage(kMma));
        read = read == S - 1 ? 0 : read + 1;
      }
      // Fragments of step kk + 1 (of tile kt + 1 at the end) first, copies second: ptxas keeps roughly this
      // order, so the ldmatrix go out at the top of the step, 17 or more mma ahead of their first use.
      load_frags(read, (kk + 1) % kKI, af[(kk + 1) % 2], bf[(kk + 1) % 2]);
      if (kk < kKI - 1) {
        // Stage `write` held tile kt - 1, last read before the previous iteration's barrier.
        load_tile(kt + S - 1, write, kk);
        if (kk == kKI - 2) {
          cp_async_commit();  // one group per iteration
          write = write == S - 1 ? 0 : write + 1;
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
  }
  cp_async_wait<0>();  // the zero-filled copies past the last tile: none may land after this point
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));

  GS_PROBE(probe.stage(kEpilogue));
  GS_PROBE(probe.epilogue());
  if constexpr (kAligned) {
    // Through shared memory, so that C is written 16 bytes per lane, a warp's store covering whole 128-byte
    // lines (rows of 256 B), where an accumulator's (c0, c1) pairs cover 32 bytes of each of 8 rows. The
    // barrier: every warp is past its last ldmatrix, so the stages become staging space, 16 KB per warp.
    __syncthreads();
    GS_PROBE(probe.mark(Mark::kBarrier));
    const uint32_t cs = as + warp * kCsWarpBytes;  // (64, 64) fp32 tile of this warp, rows of 256 B
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {  // h = 0: (c0, c1) at row g; h = 1: (c2, c3) at row g + 8
          const int row = mi * kMmaM + lane / 4 + 8 * h, col = ni * kMmaN + 2 * (lane % 4);
          GS_PROBE(probe.smem(kCStage, smem_generic(cs + cs_offset(row, col)), 8, SmemKind::kStore));
          st_shared_f32x2(cs + cs_offset(row, col), acc[mi][ni][2 * h], acc[mi][ni][2 * h + 1]);
        }
      }
    }
    __syncwarp();  // the warp reads back only what its own lanes wrote
    const int row0 = bm0 + wm0, col = bn0 + wn0 + 4 * (lane % 16);  // lane's 4 columns of C
#pragma unroll 4
    for (int r = lane / 16; r < kWarpM; r += 2) {  // two rows of 64 floats per warp instruction
      GS_PROBE(probe.smem(kCRead, smem_generic(cs + cs_offset(r, 4 * (lane % 16))), 16, SmemKind::kLoad));
      const float4 v = ld_shared_f32x4(cs + cs_offset(r, 4 * (lane % 16)));
      // N % 8 == 0 here, so a 4-column group is wholly inside C or wholly past its edge
      if (row0 + r < g.m && col < g.n) {
        GS_PROBE(probe.gmem(kGmemC, g.c + static_cast<size_t>(row0 + r) * g.n + col, 16, GmemKind::kStore));
        update_c_quad(g.c + static_cast<size_t>(row0 + r) * g.n + col, v, g.alpha, g.beta);  // C[row0 + r][col]
      }
    }
  } else {
#pragma unroll
    for (int mi = 0; mi < kMI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < kNI; ++ni) {
        store_c_frag_guarded(g, bm0 + wm0 + mi * kMmaM, bn0 + wn0 + ni * kMmaN, lane, acc[mi][ni], probe);
      }
    }
  }
  GS_PROBE(probe.block_end());
}

template <class Probe, bool kAligned, int kOrder, int S, bool kXor = true, bool kLdsm = true>
cudaError_t launch_as(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  // past the default 48 KB of dynamic shared memory: raise the limit once per instantiation
  static const cudaError_t smem_limit = allow_dynamic_smem(kernel<Probe, kAligned, S, kXor, kLdsm>, smem_bytes<S>());
  if (smem_limit != cudaSuccess) return smem_limit;
  // Swizzled raster as in rung 07, over the tiles that cover C (edge tiles overhang it).
  const int tiles_m = (g.m + kBlockM - 1) / kBlockM, tiles_n = (g.n + kBlockN - 1) / kBlockN;
  const BlockOrder order = variant_order<kOrder>(tiles_n, kMaxLogTile);
  const dim3 grid = order_grid(order, tiles_m, tiles_n);
  kernel<Probe, kAligned, S, kXor, kLdsm><<<grid, kThreads, smem_bytes<S>(), stream>>>(g, probe, order);
  return cudaGetLastError();
}

// kOrder: a variant's block order (order_code), or kOrderDefault for the rung's own bands. S: the variant
// [stages=S]'s pipeline depth. kXor: false for the variant [xor=off]; kLdsm: false for [ldmatrix=off].
template <class Probe, int kOrder = kOrderDefault, int S = kStages, bool kXor = true, bool kLdsm = true>
cudaError_t launch(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  if (!supports(g.m, g.n, g.k)) return cudaErrorInvalidValue;
  // 16-byte cp.async needs every row of A (K halves) and of B (N halves) to start 16-byte aligned
  if (g.k % kChunk == 0 && g.n % kChunk == 0) return launch_as<Probe, true, kOrder, S, kXor, kLdsm>(g, probe, stream);
  return launch_as<Probe, false, kOrder, S, kXor, kLdsm>(g, probe, stream);
}

// The variant [ldmatrix=off]: fragments by LDS.32 and LDS.U16.
template <class Probe>
cudaError_t launch_ldmatrix_off(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  return launch<Probe, kOrderDefault, kStages, true, false>(g, probe, stream);
}

// The variant [xor=off]: the rung with unpermuted tiles.
template <class Probe>
cudaError_t launch_xor_off(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  return launch<Probe, kOrderDefault, kStages, false>(g, probe, stream);
}

// The variant [stages=S]: the rung's own order, S stages.
template <class Probe, int S>
cudaError_t launch_stages(const GemmArgs<__half, float>& g, Probe probe, cudaStream_t stream) {
  return launch<Probe, kOrderDefault, S>(g, probe, stream);
}

}  // namespace gs::mma_f16_10_multistage
