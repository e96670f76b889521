// The mma_tf32 ladder, registered in order: one block per rung, each naming the rung's launch<Probe>
// for every precision it supports. registry.cu puts this family after the ones before it.
#include "kernels/mma_tf32/01_vectorized.cuh"
#include "kernels/mma_tf32/02_conflict_free.cuh"
#include "kernels/mma_tf32/03_cp_async.cuh"
#include "kernels/mma_tf32/04_registers.cuh"
#include "kernels/mma_tf32/05_double_buffer.cuh"
#include "kernels/mma_tf32/06_warp_64x64.cuh"
#include "kernels/mma_tf32/07_swizzle.cuh"
#include "kernels/mma_tf32/08_ldmatrix.cuh"
#include "kernels/mma_tf32/09_xor_permuted.cuh"
#include "kernels/mma_tf32/10_multistage.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

// One registry entry from a rung namespace NS: every mma_tf32 rung names its geometry with the same
// constants, so only the name and the two texts the window shows differ from rung to rung. (A namespace
// cannot be a template argument, hence the macro.)
#define GS_MMA_TF32_RUNG(NS, NAME, TITLE, ADDS)                                                    \
  [] {                                                                                             \
    namespace r = NS;                                                                              \
    Rung g;                                                                                        \
    g.info.name = NAME;                                                                            \
    g.info.family = "mma_tf32";                                                                    \
    g.info.title = TITLE;                                                                          \
    g.info.adds = ADDS;                                                                            \
    g.info.block_m = r::kBM;                                                                       \
    g.info.block_n = r::kBN;                                                                       \
    g.info.threads = r::kThreads;                                                                  \
    g.info.shape_rule = r::kShapeRule;                                                             \
    g.info.warps.warps_m = r::kWarpsM;                                                             \
    g.info.warps.warps_n = r::kWarpsN;                                                             \
    g.info.warps.warp_m = r::kWM;                                                                  \
    g.info.warps.warp_n = r::kWN;                                                                  \
    g.info.warps.block_k = r::kBK;                                                                 \
    g.info.warps.op = "mma.m16n8k8.tf32";                                                          \
    g.info.warps.frag_m = 16;                                                                      \
    g.info.warps.frag_n = 8;                                                                       \
    g.info.warps.frag_k = 8;                                                                       \
    g.supports = r::supports;                                                                      \
    g.stages = names(r::kStageNames);                                                              \
    g.smem_sites = names(r::kSmemSites);                                                           \
    g.launch = {erase<float, float, r::launch<NoProbe>, r::launch<TraceProbe>>(Precision::TF32)};  \
    return g;                                                                                      \
  }()

std::vector<Rung> mma_tf32_rungs() {
  std::vector<Rung> ladder;
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_01_vectorized, "mma_tf32/01_vectorized", "mma.sync tf32 from shared memory filled by float4 loads",
      "Tensor cores via PTX mma.sync m16n8k8 tf32 (fp32 in and out). 128x32 of A and 32x128 of B are "
      "staged in shared memory by coalesced float4 loads; 8 warps each compute 32x64 of a 128x128 tile "
      "of C. Plain on purpose: fragment reads conflict (02), copies are waited for (03, 05), "
      "accumulators use local memory (04)."));
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_02_conflict_free, "mma_tf32/02_conflict_free", "Padded shared memory: conflict-free fragment reads",
      "01 with padded shared-memory rows. In 01 the fragment reads conflicted: the 8 lanes reading a_i "
      "sit in 8 rows of As that are 128 B apart (8-way), the 4 lanes reading b_i in 4 rows of Bs 512 B "
      "apart (4-way). 4 floats of padding per As row and 8 per Bs row spread them over all 32 banks."));
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_03_cp_async, "mma_tf32/03_cp_async", "cp.async copies from global to shared memory",
      "02 with the global -> shared copy done by cp.async (16 bytes, .cg: L2 only). The data no longer passes "
      "through registers: no staging registers, no separate store instructions, no L1 pollution. Measured equal to "
      "02 on an H200: local-memory accumulators dominate the loop (04 fixes them, 05 hides the copy)."));
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_04_registers, "mma_tf32/04_registers", "Full unroll: fragments and accumulators in registers",
      "03 with every loop over fragments and accumulators fully unrolled, so all indices are "
      "compile-time constants: the 64 accumulators stay in registers across the whole k-loop (no local "
      "memory), and each k-step loads the warp's 2 A and 8 B fragments once for its 16 mma (24 loads, "
      "was 96)."));
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_05_double_buffer, "mma_tf32/05_double_buffer", "Double buffering of shared-memory stages",
      "04 with two shared-memory stages: the cp.async of slice k+1 is in flight while the warps compute slice k, "
      "and one barrier per slice replaces two. Fragments are not double-buffered: that took 168 registers and cost "
      "04's second block per SM (103 vs 133 TFLOP/s); at <= 128 the second block stays."));
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_06_warp_64x64, "mma_tf32/06_warp_64x64", "64x64 warp tiles, tf32 by truncation",
      "05 with 64x64 warp tiles (32 mma per k-step, 256x128 block, next k-step's fragments loaded first): a third "
      "fewer smem bytes per mma. Operands are raw fp32 bits, truncated by the tensor core: cvt.rna (3 "
      "instrs/register) would take 96 of 148 issue slots per k-step. Error vs cuBLAS ~8e-4, was 1e-8 (bound 5e-3)."));
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_07_swizzle, "mma_tf32/07_swizzle", "Threadblock swizzle for L2 reuse (cutlass:5)",
      "06 with a threadblock swizzle (cutlass:5): blocks launch in bands of 32 tile columns walking "
      "down the rows, so on C wider than 4096 a wave of ~132 blocks still reads only ~4 A and 32 B "
      "panels. At N = 4096 the band is all of C, 06's order, yet 2-9% slower than 06: ptxas issues the 12 "
      "cp.async back to back and fills the copy queue that 06 paced with address arithmetic (Nsight Compute)."));
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_08_ldmatrix, "mma_tf32/08_ldmatrix", "ldmatrix.x4 loads the tf32 A fragments",
      "07 with A fragments loaded by ldmatrix.x4, one instruction per 16x8 A fragment instead of four "
      "LDS.32: ldmatrix moves b16 pairs, and a pair is one 32-bit tf32, so it serves tf32 unchanged. B "
      "keeps LDS.32 (ldmatrix cannot transpose 32-bit elements). Same bytes, 12 fewer load instructions "
      "per k-step."));
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_09_xor_permuted, "mma_tf32/09_xor_permuted", "XOR-permuted shared memory instead of padding",
      "08 with unpadded tiles whose 16-byte chunks are XOR-permuted per row instead of padded: As chunk "
      "k/4 ^ (m % 8), Bs chunk n/4 ^ 2 (k % 4). cp.async stores, ldmatrix and LDS stay conflict-free "
      "and 9% less shared memory is used; 08 was already conflict-free, so expect the same speed."));
  ladder.push_back(GS_MMA_TF32_RUNG(
      mma_tf32_10_multistage, "mma_tf32/10_multistage", "4-stage cp.async pipeline, any shape",
      "09 with a 4-stage cp.async pipeline: slices k+1..k+3 are in flight while slice k is computed, so a slow "
      "copy (an L2 miss, DRAM queueing) stalls no warp unless it is three slices late; 09 waited on the very next "
      "slice. Copies are spread over three k-steps; blocks inside C copy with no bounds checks at all (a quarter "
      "fewer instructions than checking per slice). Any shape (zero-fill)."));
  return ladder;
}

#undef GS_MMA_TF32_RUNG

}  // namespace gs::detail
