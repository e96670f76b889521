// The mma_f16 ladder, registered in order: one block per rung, each naming the rung's launch<Probe>
// for every precision it supports. registry.cu puts this family after the ones before it.
#include "kernels/mma_f16/01_vectorized.cuh"
#include "kernels/mma_f16/02_conflict_free.cuh"
#include "kernels/mma_f16/03_cp_async.cuh"
#include "kernels/mma_f16/04_registers.cuh"
#include "kernels/mma_f16/05_double_buffer.cuh"
#include "kernels/mma_f16/06_warp_64x64.cuh"
#include "kernels/mma_f16/07_swizzle.cuh"
#include "kernels/mma_f16/08_ldmatrix.cuh"
#include "kernels/mma_f16/09_xor_permuted.cuh"
#include "kernels/mma_f16/10_multistage.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

// One registry entry from a rung namespace NS: every mma_f16 rung names its geometry with the same
// constants, so only the name and the two texts the window shows differ from rung to rung. (A namespace
// cannot be a template argument, hence the macro.)
#define GS_MMA_F16_RUNG(NS, NAME, TITLE, ADDS)                                                         \
  [] {                                                                                                 \
    namespace r = NS;                                                                                  \
    Rung g;                                                                                            \
    g.info.name = NAME;                                                                                \
    g.info.family = "mma_f16";                                                                         \
    g.info.title = TITLE;                                                                              \
    g.info.adds = ADDS;                                                                                \
    g.info.block_m = r::kBlockM;                                                                       \
    g.info.block_n = r::kBlockN;                                                                       \
    g.info.threads = r::kThreads;                                                                      \
    g.info.shape_rule = r::kShapeRule;                                                                 \
    g.info.warps.warps_m = r::kWarpsM;                                                                 \
    g.info.warps.warps_n = r::kWarpsN;                                                                 \
    g.info.warps.warp_m = r::kWarpM;                                                                   \
    g.info.warps.warp_n = r::kWarpN;                                                                   \
    g.info.warps.block_k = r::kBlockK;                                                                 \
    g.info.warps.op = "mma.m16n8k16.f16";                                                              \
    g.info.warps.frag_m = r::kMmaM;                                                                    \
    g.info.warps.frag_n = r::kMmaN;                                                                    \
    g.info.warps.frag_k = r::kMmaK;                                                                    \
    g.supports = r::supports;                                                                          \
    g.stages = names(r::kStageNames);                                                                  \
    g.smem_sites = names(r::kSmemSites);                                                               \
    g.launch = {erase<__half, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::F16_F32)};  \
    return g;                                                                                          \
  }()

std::vector<Rung> mma_f16_rungs() {
  std::vector<Rung> ladder;
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_01_vectorized, "mma_f16/01_vectorized", "mma.sync m16n8k16 on tiles staged by 16-byte loads",
      "Mma.sync m16n8k16 (fp16 in, fp32 accumulate) on shared-memory tiles that 16-byte uint4 loads "
      "stage: 128x128 block, 8 warps of 64x32, k-steps of 32. Left plain for the next rungs: unpadded "
      "tiles make fragment loads 4-way bank conflicts; rolled warp loops (#pragma unroll 1) keep C in "
      "local memory."));
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_02_conflict_free, "mma_f16/02_conflict_free", "Padded tiles and a store order without bank conflicts",
      "Rows padded by 16 bytes, so fragment loads spread over all 32 banks, and A's chunks copied "
      "column-first (a quarter-warp stores one chunk of 8 rows; 80-byte rows would put 2 rows on the same "
      "banks) while a warp still reads whole sectors. Every shared-memory access is now conflict-free."));
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_03_cp_async, "mma_f16/03_cp_async", "cp.async: global to shared without registers",
      "Global -> shared with cp.async.cg (16 bytes, L2 only): no staging registers, no stall until the "
      "wait. Alone it barely helps (each k-step still waits for its own tile before computing); it is the "
      "mechanism rung 05's double buffer needs, where the next tile's copy runs behind the mma."));
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_04_registers, "mma_f16/04_registers", "Unrolled warp tile: accumulators and fragments in registers",
      "Warp-tile loops fully unrolled, so every index is a compile-time constant and the 64 accumulators "
      "and the fragments stay in registers. Gone: C's local-memory load and store around each mma, loop "
      "and address arithmetic, and B reloads (each k16 step loads 4 A and 4 B fragments for 16 mma)."));
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_05_double_buffer, "mma_f16/05_double_buffer",
      "Double buffering: two cp.async stages, fragments prefetched",
      "Two shared-memory stages: tile kt + 1's cp.async is issued as tile kt starts and lands during its "
      "mma, one barrier per k-tile. Fragments are double-buffered in registers too: k16 step kk + 1 is "
      "read from shared memory while step kk's mma run, hiding the load latency behind tensor work."));
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_06_warp_64x64, "mma_f16/06_warp_64x64", "Reshape: 256x128x64 block tile, 64x64 warp tiles",
      "Reshape: 64x64 warp tiles (4 x 8 mma, 128 accumulators) in a 256x128 block with k-tiles of 64. A "
      "k16 step's 16 A and 32 B loads now feed 32 mma (1.5 per mma, was 2), a barrier covers 4 k16 steps "
      "(was 2). About 240 registers a thread: one 8-warp block per SM, with 106 KB of shared memory."));
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_07_swizzle, "mma_f16/07_swizzle", "Threadblock swizzle: bands of columns for L2 reuse",
      "Blocks launch in bands of 2^L tile columns, down all tile rows of C before the next band "
      "(CUTLASS's identity swizzle, the swizzle view's cutlass:L), so resident blocks share A and B "
      "panels in L2. Small at 4096^3 on an H200, where A and B (64 MB) nearly fit in the L2; the gain "
      "grows with the problem."));
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_08_ldmatrix, "mma_f16/08_ldmatrix", "ldmatrix.x4 and ldmatrix.x4.trans fragment loads",
      "Fragments through ldmatrix. One ldmatrix.x4 fills a whole 16x16 A fragment, one ldmatrix.x4.trans "
      "two 16x8 B fragments, transposing B's k-major rows on the way, which the 16-bit gathers did by "
      "hand: per k16 step 8 instructions replace 48 and 32 wavefronts replace 48 (1 per mma)."));
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_09_xor_permuted, "mma_f16/09_xor_permuted", "XOR-permuted shared memory: conflict-free without padding",
      "Dense tiles, chunk c of row r stored at chunk c ^ (r % 8): the 8 rows of an ldmatrix matrix land "
      "in 8 bank groups and a quarter-warp's cp.async still fills one 128-byte segment. Same wavefronts "
      "as rung 08, so as fast, in 96 KB (was 106): room for rung 10's stages; Hopper's 128-byte swizzle."));
  ladder.push_back(GS_MMA_F16_RUNG(
      mma_f16_10_multistage, "mma_f16/10_multistage", "Four-stage cp.async pipeline, any shape",
      "4 cp.async stages: three k-tiles in flight while the warps compute on a fourth, so a copy has "
      "three tiles of mma to land behind; wait_group 2 keeps the two newest in flight. The next k16 "
      "step's ldmatrix are issued before the copies, from 32-bit shared addresses where rung 09's XOR "
      "is one instruction, so ptxas puts them 17 or more mma ahead of their use (it had left some "
      "right before it). C goes out through shared memory as 16-byte stores covering whole lines. "
      "Any shape: zeros past A's and B's edges, a guarded epilogue, and scalar loads when K or N is "
      "not a multiple of 8."));
  return ladder;
}

#undef GS_MMA_F16_RUNG

}  // namespace gs::detail
