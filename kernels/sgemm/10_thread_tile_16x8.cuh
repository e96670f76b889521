// sgemm/10_thread_tile_16x8. Its title and what it adds over the rung before (kTitle, kAdds) are written here once:
// the registry, the window, `gemmscope list` and README read them from these two constants.
#pragma once

namespace gs::sgemm_10_thread_tile_16x8 {

inline constexpr const char* kTitle = "16x8 results per thread, 4 warps per block";
inline constexpr const char* kAdds =
    "Twice the work per thread, a 16x8 block of C (warp tile 64x64, 4 warps per 128x128 block): 6 shared loads "
    "feed 128 FMAs, and copies and loop overhead are shared by twice the FMAs. Half as many warps hide "
    "latency, so a tile's first slivers now load before tile k+3's copies issue.";

}  // namespace gs::sgemm_10_thread_tile_16x8

#include "kernels/block_order.cuh"
#include "kernels/gemm_args.cuh"
#include "kernels/probe.cuh"
#include "kernels/sgemm/common.cuh"

namespace gs::sgemm_10_thread_tile_16x8 {

inline constexpr int kBM = 128, kBN = 128, kBK = 8;       // block tile of C, and the k-tile
inline constexpr int kStages = 4;                         // k-tiles in shared memory: 1 read, up to 3 landing
// Step: 16 x 8 results a thread, 4 warps of 64 x 64; copies move after k-step 0 below.
inline constexpr int kWarpsM = 2, kWarpsN = 2;            // 4 warps; warp tile 64 x 64
inline constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN;
inline constexpr int kLanesM = 4, kLanesN = 8;            // lane grid of a warp, as in 07
inline constexpr int kSub = 4;                            // 4x4 sub-tiles, 4 x 2 per lane
inline constexpr int kSubsM = kWM / (kLanesM * kSub), kSubsN = kWN / (kLanesN * kSub);
inline constexpr int kTM = kSubsM * kSub, kTN = kSubsN * kSub;  // 16 x 8 results per thread
inline constexpr int kThreads = kWarpsM * kWarpsN * 32;   // 128
// 128 accumulators + 24 fragment registers: about 200 registers, so 2 blocks (8 warps, 2 per scheduler)
// per SM. Held to 168 registers, 3 blocks fit (no spills, ~20 register moves per k-tile), but at 4096^3
// that is 1024 tiles over 396 slots, 2.59 waves. Blocks sharing an SM start and end nearly together, so
// the last 232 land 3 to an SM and take a full wave's time: 2.59 / 3 = 86% busy, against 3.88 / 4 = 97%.
inline constexpr int kMinBlocksPerSM = 2;
// Rows of the transposed A tile: 132 floats, as in 06. The A copies of a warp write k = lane % kBK,
// m = lane / kBK + const, i.e. word k * kLdA + m: with kLdA % 32 == 32 / kBK those are 32 distinct banks
// (kBK = 4 would need 136).
inline constexpr int kPadA = 32 / kBK;
inline constexpr int kLdA = kBM + kPadA;
inline constexpr int kCopiesA = kBM * kBK / kThreads;         // 4-byte copies of A per thread per k-tile: 8
inline constexpr int kCopiesB4 = kBK * kBN / 4 / kThreads;    // 16-byte copies of B (N % 4 == 0): 2
inline constexpr int kCopiesB1 = kBK * kBN / kThreads;        // 4-byte copies of B (any N): 8
inline constexpr int kRowsA = kThreads / kBK;                 // rows between a thread's copies of A: 16
inline constexpr int kRowsB4 = kThreads / (kBN / 4), kRowsB1 = kThreads / kBN;  // ... of B: 4 or 1
inline constexpr int kStageBytesA = kBK * kLdA * 4, kStageBytesB = kBK * kBN * 4;
static_assert(kLanesM * kLanesN == 32 && kSubsM == 4 && kSubsN == 2, "a warp is 4 x 8 lanes of 4 x 2 sub-tiles");
static_assert(kThreads % kBK == 0 && kThreads % (kBN / 4) == 0 && kThreads % kBN == 0, "copy roles tile the k-tile");
static_assert(kBK == 4 || kBK == 8, "the padding of As keeps the copies conflict-free for these only");
inline constexpr const char* kShapeRule = "";  // any M, N, K: copies outside the matrices zero-fill
inline constexpr bool supports(int m, int n, int k) { return m > 0 && n > 0 && k > 0; }

// Two stages per k-tile: TraceProbe's stage buffer holds 16 sampled blocks x 4 warps x 512 k-tiles x 2.
enum Stage : int { kPrologue, kWait, kCompute, kEpilogue };
inline constexpr const char* kStageNames[] = {"prologue (tiles 0-2 in flight)", "wait (cp.async + barrier)",
                                              "compute (tile k; tile k+3 issued)", "epilogue"};
enum Site : int { kAsCopy, kBsCopy, kAsLoad, kBsLoad };
inline constexpr const char* kSmemSites[] = {"As cp.async (4 B, transposed)", "Bs cp.async", "As load (frag)",
                                             "Bs load (frag)"};

// kVecB: N % 4 == 0 with 16-byte aligned B and C, so B moves in 16-byte copies and C in float4 stores;
// otherwise both go one float at a time (the launcher picks).
template <class Probe, bool kVecB>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSM) kernel(GemmArgs<float, float> g, Probe probe, BlockOrder order) {
  // 33.3 KB for four stages, as in 09
  __shared__ __align__(16) float As[kStages][kBK][kLdA];  // (stage, BK, BM) tiles of A, transposed, + kPadA
  __shared__ __align__(16) float Bs[kStages][kBK][kBN];   // (stage, BK, BN) tiles of B, row-major

  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  // Row-major tiles (none) unless a variant [order=...] names another scheme (kernels/block_order.cuh).
  const int tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN;
  int tile_m, tile_n;
  if (!order_tile(order, tiles_m, tiles_n, &tile_m, &tile_n)) return;  // cutlass's last band overhangs C
  const int m0 = tile_m * kBM, n0 = tile_n * kBN;
  GS_PROBE(probe.block_begin(tile_m, tile_n));

  // Computing role. Warp (wm, wn) owns block rows wm*64 .. +64, columns wn*64 .. +64; lane (lm, ln)
  // owns rows a_frag + s*16 + i (s = 0..3, i = 0..3) and columns b_frag + t*32 + j (t = 0, 1; j = 0..3).
  // Per k-step: 4 float4 of A (each a contiguous 64 bytes across the warp) and 2 of B (128 bytes).
  const int wm = warp / kWarpsN, wn = warp % kWarpsN;
  const int lm = lane / kLanesN, ln = lane % kLanesN;
  const int a_frag = wm * kWM + lm * kSub;
  const int b_frag = wn * kWN + ln * kSub;
  constexpr int kSubStrideM = kLanesM * kSub, kSubStrideN = kLanesN * kSub;  // 16 rows, 32 columns

  // Copy role for A: copy p moves A[m0 + am + 16p][k0 + ak] to As[ak][am + 16p] (copy q = tid + p*128
  // takes element q of the tile in row-major order). A warp reads 4 rows x 32 bytes and writes word
  // 132*k + m: bank 4*(lane%8) + lane/8 + const, all 32 distinct.
  const int ak = tid % kBK, am = tid / kBK;
  const float* a_src = g.a + static_cast<size_t>(m0 + am) * g.k + ak;  // A[m0 + am][ak + k0]: + kBK per k-tile
  const size_t a_pstride = static_cast<size_t>(kRowsA) * g.k;           // copy p reads a_src + p * a_pstride
  const int a_rows = g.m - m0 - am;                                     // copy p is inside A if p*16 < a_rows
  const bool rows_full = m0 + kBM <= g.m;                               // block-uniform: no row past M
  const uint32_t a_dst = sgemm_common::smem_u32(&As[0][ak][am]);        // + stage * kStageBytesA + p * 64
  // Copy role for B. kVecB: copy p moves B[k0 + bk + 4p][n0 + bn .. +4) (a warp: 512 contiguous bytes of
  // one row). Otherwise one float, B[k0 + p][n0 + bn] (a warp: 128 contiguous bytes).
  constexpr int kCopiesB = kVecB ? kCopiesB4 : kCopiesB1;
  constexpr int kRowsB = kVecB ? kRowsB4 : kRowsB1;
  const int bk = kVecB ? tid / (kBN / 4) : tid / kBN;
  const int bn = kVecB ? tid % (kBN / 4) * 4 : tid % kBN;
  const bool b_in = n0 + bn < g.n;
  const float* b_src = g.b + static_cast<size_t>(bk) * g.n + (b_in ? n0 + bn : 0);  // B[bk + k0][n0 + bn]
  const int b_bytes = b_in ? (kVecB ? 16 : 4) : 0;
  const uint32_t b_dst = sgemm_common::smem_u32(&Bs[0][bk][bn]);  // + stage * kStageBytesB + p * kRowsB rows
  const size_t b_step = static_cast<size_t>(kBK) * g.n;           // B advances kBK rows per k-tile

  auto copy_b = [](uint32_t smem, const float* gmem, int bytes) {
    if constexpr (kVecB) {
      sgemm_common::cp_async_16(smem, gmem, bytes);
    } else {
      sgemm_common::cp_async_4(smem, gmem, bytes);
    }
  };
  // Issues (does not wait for) the copies of the next k-tile into stage st and advances the sources.
  // Whole k-tiles of blocks inside M need no test; the others check each copy and point those that
  // fall outside back at the matrix base.
  auto issue = [&](int st, int k0) {
    const uint32_t sa = a_dst + st * kStageBytesA, sb = b_dst + st * kStageBytesB;
    if (rows_full && k0 + kBK <= g.k) {
#pragma unroll
      for (int p = 0; p < kCopiesA; ++p) {
        GS_PROBE(probe.gmem(kGmemA, a_src + p * a_pstride, 4, GmemKind::kCpAsync));
        sgemm_common::cp_async_4(sa + p * kRowsA * 4, a_src + p * a_pstride, 4);
      }
#pragma unroll
      for (int p = 0; p < kCopiesB; ++p) {
        GS_PROBE(probe.gmem(kGmemB, b_src + p * kRowsB * g.n, b_bytes, GmemKind::kCpAsync));  // 0: past N
        copy_b(sb + p * kRowsB * kBN * 4, b_src + p * kRowsB * g.n, b_bytes);
      }
    } else {
      const bool ka = k0 + ak < g.k;
#pragma unroll
      for (int p = 0; p < kCopiesA; ++p) {
        const bool in = ka && p * kRowsA < a_rows;
        GS_PROBE(probe.gmem(kGmemA, in ? a_src + p * a_pstride : g.a, in ? 4 : 0, GmemKind::kCpAsync));  // 0: zero fill
        sgemm_common::cp_async_4(sa + p * kRowsA * 4, in ? a_src + p * a_pstride : g.a, in ? 4 : 0);
      }
#pragma unroll
      for (int p = 0; p < kCopiesB; ++p) {
        const bool kb = k0 + bk + p * kRowsB < g.k;
        GS_PROBE(probe.gmem(kGmemB, kb ? b_src + p * kRowsB * g.n : g.b, kb ? b_bytes : 0, GmemKind::kCpAsync));
        copy_b(sb + p * kRowsB * kBN * 4, kb ? b_src + p * kRowsB * g.n : g.b, kb ? b_bytes : 0);
      }
    }
    // One shared-memory record per copy the warp issued (a zero-filled copy still writes its bytes).
#pragma unroll
    for (int p = 0; p < kCopiesA; ++p)
      GS_PROBE(probe.smem(kAsCopy, &As[st][ak][am + p * kRowsA], 4, SmemKind::kCpAsync));
#pragma unroll
    for (int p = 0; p < kCopiesB; ++p)
      GS_PROBE(probe.smem(kBsCopy, &Bs[st][bk + p * kRowsB][bn], kVecB ? 16 : 4, SmemKind::kCpAsync));
    a_src += kBK;
    b_src += b_step;
  };

  const int num_kt = (g.k + kBK - 1) / kBK;
  // Group g holds k-tile g: one commit per tile, empty past the end, so "tile kt has landed" is always
  // "at most kStages - 2 newer groups pending" below.
  GS_PROBE(probe.stage(kPrologue));
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < num_kt) issue(s, s * kBK);
    sgemm_common::cp_async_commit();
  }

  float acc[kTM][kTN] = {};  // acc[s*4 + i][t*4 + j]
  for (int kt = 0; kt < num_kt; ++kt) {
    const int rd = kt % kStages;                 // stage holding tile kt
    const int wr = (kt + kStages - 1) % kStages;  // stage receiving tile kt + 3: the one tile kt-1 used
    GS_PROBE(probe.iteration(kt));
    GS_PROBE(probe.stage(kWait));
    sgemm_common::cp_async_wait<kStages - 2>();  // this thread's copies of tile kt have landed ...
    GS_PROBE(probe.mark(Mark::kCpAsyncWait));
    __syncthreads();  // ... and everyone's; also, every warp is done with tile kt-1, so stage wr is free
    GS_PROBE(probe.mark(Mark::kBarrier));

    GS_PROBE(probe.stage(kCompute));
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk) {
      float reg_a[kTM], reg_b[kTN];  // reg_a[s*4 + i], reg_b[t*4 + j]
#pragma unroll
      for (int s = 0; s < kSubsM; ++s) {
        GS_PROBE(probe.smem(kAsLoad, &As[rd][kk][a_frag + s * kSubStrideM], 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_a[s * kSub]) =
            *reinterpret_cast<const float4*>(&As[rd][kk][a_frag + s * kSubStrideM]);
      }
#pragma unroll
      for (int t = 0; t < kSubsN; ++t) {
        GS_PROBE(probe.smem(kBsLoad, &Bs[rd][kk][b_frag + t * kSubStrideN], 16, SmemKind::kLoad));
        *reinterpret_cast<float4*>(&reg_b[t * kSub]) =
            *reinterpret_cast<const float4*>(&Bs[rd][kk][b_frag + t * kSubStrideN]);
      }
      if (kk == 0) {
        // Copies of tile kt+3 go out after k-step 0's slivers are requested, not before as in 09: their
        // address math and LDGSTS (about 40 instructions) then run while those loads are in flight, where
        // issued first they would sit ahead of the loads in the load/store queue, and with 2 warps per
        // scheduler (09 has 4) the FMAs waiting on the slivers would often leave it idle.
        if (kt + kStages - 1 < num_kt) issue(wr, (kt + kStages - 1) * kBK);
        sgemm_common::cp_async_commit();
      }
      // Serpentine order: along row i, then back along row i+1. Consecutive FMAs share an operand
      // (reg_a[i] within a row, reg_b[j] at the turn), which the register reuse cache supplies, so
      // fewer FMAs need three register-file reads (two banks: three reads always collide).
#pragma unroll
      for (int i = 0; i < kTM; ++i) {
#pragma unroll
        for (int jj = 0; jj < kTN; ++jj) {
          const int j = i % 2 ? kTN - 1 - jj : jj;
          acc[i][j] += reg_a[i] * reg_b[j];
        }
      }
    }
  }
  sgemm_common::cp_async_wait<0>();  // only empty groups remain; leave none behind
  GS_PROBE(probe.mark(Mark::kCpAsyncWait));

  GS_PROBE(probe.stage(kEpilogue));
  // A warp's store of one (s, i, t) is 4 rows x 128 contiguous bytes: whole lines.
#pragma unroll
  for (int s = 0; s < kSubsM; ++s) {
#pragma unroll
    for (int i = 0; i < kSub; ++i) {
      const int row = m0 + a_frag + s * kSubStrideM + i;
      if (row < g.m) {
        float* c = g.c + static_cast<size_t>(row) * g.n;
#pragma unroll
        for (int t = 0; t < kSubsN; ++t) {
          const int col = n0 + b_frag + t * kSubStrideN;
          const float* v = &acc[s * kSub + i][t * kSub];
          if constexpr (kVecB) {  // N % 4 == 0: the float4 is wholly inside or outside
            if (col < g.n) sgemm_common::store_c4(c + col, make_float4(v[0], v[1], v[2], v[3]), g.alpha, g.beta, probe);
          } else {
#pragma unroll
            for (int j = 0; j < kSub; ++j) {
              if (col + j < g.n) sgemm_common::store_c(c + col + j, v[j], g.alpha, g.beta, probe);
            }
          }
        }
      }
    }
  }
  GS_PROBE(probe.block_end());
}

inline constexpr const char* kVecOffAdds =
    "Variant: the same kernel copying B the way it does when N is not a multiple of 4: 4-byte cp.async, four "
    "times as many copy instructions for the same bytes, and C stored a float at a time. What 16-byte "
    "(vectorized) copies and stores are worth: on an H200 at 4096^3, 45.7 TFLOP/s, 0.94 of the rung's 48.4 (bench/results/toggles_off_h200.txt).";

// kOrder: a variant's block order (order_code); kOrderDefault is row-major (none). kScalar: the variant
// [vec=off], the 4-byte path whatever the shape.
template <class Probe, int kOrder = kOrderDefault, bool kScalar = false>
cudaError_t launch(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  // none: grid x covers the columns of C, grid y its rows, ceil(N/128) x ceil(M/128) blocks
  const int tiles_m = (g.m + kBM - 1) / kBM, tiles_n = (g.n + kBN - 1) / kBN;
  const BlockOrder order = variant_order<kOrder>(BlockOrder{});
  const dim3 grid = order_grid(order, tiles_m, tiles_n);
  if (!kScalar && g.n % 4 == 0 && sgemm_common::aligned16(g.b) && sgemm_common::aligned16(g.c)) {
    kernel<Probe, true><<<grid, kThreads, 0, stream>>>(g, probe, order);
  } else {
    kernel<Probe, false><<<grid, kThreads, 0, stream>>>(g, probe, order);
  }
  return cudaGetLastError();
}

// The variant [vec=off].
template <class Probe>
cudaError_t launch_vec_off(const GemmArgs<float, float>& g, Probe probe, cudaStream_t stream) {
  return launch<Probe, kOrderDefault, true>(g, probe, stream);
}

}  // namespace gs::sgemm_10_thread_tile_16x8
