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
#include "kernels/mma_tf32/11_swapped_operands.cuh"
#include "kernels/mma_tf32/12_tma_producer.cuh"
#include "kernels/registry_internal.cuh"

namespace gs::detail {

// mma_tf32/12's launchers: setmaxnreg makes it sm_90a code, so they are compiled in mma_tf32/ladder_sm90a.cu,
// with the hopper ladder's target (kernels/CMakeLists.txt). This translation unit only reads the rung's constants.
std::vector<PrecisionLaunch> mma_tf32_12_launches();

// One registry entry from a rung namespace NS: every mma_tf32 rung names its geometry with the same
// constants and its texts (kTitle, kAdds) in its own file, so only the name differs from rung to rung. (A
// namespace cannot be a template argument, hence the macro.)
#define GS_MMA_TF32_RUNG(NS, NAME)                                                                          \
  [] {                                                                                                      \
    namespace r = NS;                                                                                       \
    Rung g = rung_entry(NAME, "mma_tf32", r::kTitle, r::kAdds, r::kBM, r::kBN, r::kThreads, r::kShapeRule,  \
                        r::supports,                                                                        \
                        warp_tiling(r::kWarpsM, r::kWarpsN, r::kWM, r::kWN, r::kBK, "mma.m16n8k8.tf32", 16, 8, 8)); \
    g.stages = names(r::kStageNames);                                                                       \
    g.smem_sites = names(r::kSmemSites);                                                                    \
    g.launch = {erase<float, float, GS_LAUNCHERS(r::launch)>(Precision::TF32)};           \
    return g;                                                                                               \
  }()

// The launchers of one block order (kCode, block_order.cuh's order_code) of a swizzling rung NS, for
// push_order_variants: a struct template per rung, since a namespace cannot be a template argument.
#define GS_MMA_TF32_ORDERS(NS)                                                                             \
  template <int kCode>                                                                                 \
  struct NS##_orders {                                                                                 \
    static std::vector<PrecisionLaunch> get() {                                                        \
      return {erase<float, float, GS_LAUNCHERS_WITH(NS::launch, kCode)>(Precision::TF32)}; \
    }                                                                                                  \
  };

GS_MMA_TF32_ORDERS(mma_tf32_07_swizzle)
GS_MMA_TF32_ORDERS(mma_tf32_08_ldmatrix)
GS_MMA_TF32_ORDERS(mma_tf32_09_xor_permuted)
GS_MMA_TF32_ORDERS(mma_tf32_10_multistage)
#undef GS_MMA_TF32_ORDERS

// Rung 10 with S cp.async stages, for its variants [stages=S].
template <int S>
std::vector<PrecisionLaunch> mma_tf32_10_stages() {
  namespace r = mma_tf32_10_multistage;
  return {erase<float, float, GS_LAUNCHERS_WITH(r::launch_stages, S)>(Precision::TF32)};
}

std::vector<Rung> mma_tf32_rungs() {
  const std::initializer_list<const char*> kLoads = {"ldmatrix.x4"};
  std::vector<Rung> ladder;
  ladder.push_back(GS_MMA_TF32_RUNG(mma_tf32_01_vectorized, "mma_tf32/01_vectorized"));
  ladder.push_back(GS_MMA_TF32_RUNG(mma_tf32_02_conflict_free, "mma_tf32/02_conflict_free"));
  ladder.push_back(GS_MMA_TF32_RUNG(mma_tf32_03_cp_async, "mma_tf32/03_cp_async"));
  // 01-03 load a warp's B fragments again for every row of tiles (40 loads a k-step; 04 keeps them in registers).
  for (Rung& g : ladder) g.info.warps.b_per_tile_row = true;
  ladder.push_back(GS_MMA_TF32_RUNG(mma_tf32_04_registers, "mma_tf32/04_registers"));
  ladder.push_back(GS_MMA_TF32_RUNG(mma_tf32_05_double_buffer, "mma_tf32/05_double_buffer"));
  ladder.push_back(GS_MMA_TF32_RUNG(mma_tf32_06_warp_64x64, "mma_tf32/06_warp_64x64"));
  // The swizzling rungs, each followed by its block order variants [order=S].
  const Rung r07 = GS_MMA_TF32_RUNG(mma_tf32_07_swizzle, "mma_tf32/07_swizzle");
  ladder.push_back(r07);
  push_order_variants<mma_tf32_07_swizzle_orders>(&ladder, r07);
  const Rung r08 = with_loads(GS_MMA_TF32_RUNG(mma_tf32_08_ldmatrix, "mma_tf32/08_ldmatrix"), kLoads);
  ladder.push_back(r08);
  push_order_variants<mma_tf32_08_ldmatrix_orders>(&ladder, r08);
  const Rung r09 = with_loads(GS_MMA_TF32_RUNG(mma_tf32_09_xor_permuted, "mma_tf32/09_xor_permuted"), kLoads);
  ladder.push_back(r09);
  push_order_variants<mma_tf32_09_xor_permuted_orders>(&ladder, r09);
  const Rung r10 = with_loads(GS_MMA_TF32_RUNG(mma_tf32_10_multistage, "mma_tf32/10_multistage"), kLoads);
  ladder.push_back(r10);
  push_order_variants<mma_tf32_10_multistage_orders>(&ladder, r10);
  // Its pipeline depth, [stages=S], as for mma_f16/10.
  ladder.push_back(toggle_variant(r10, "stages", "2", stages_adds(2, mma_tf32_10_multistage::kStages), mma_tf32_10_stages<2>()));
  ladder.push_back(toggle_variant(r10, "stages", "3", stages_adds(3, mma_tf32_10_multistage::kStages), mma_tf32_10_stages<3>()));
  // Its own order only, no variants. Each of its mma computes C^T's 16x8 tile, i.e. an 8x16 tile of C (B in the op's
  // A operand): the warp tiling says so, and the warp view draws 8x16 tiles and names the swap.
  Rung r11 = with_loads(GS_MMA_TF32_RUNG(mma_tf32_11_swapped_operands, "mma_tf32/11_swapped_operands"), kLoads);
  r11.info.warps.frag_m = 8;
  r11.info.warps.frag_n = 16;
  ladder.push_back(r11);
  // 11's mma warps fed by a TMA producer warpgroup: sm_90a only; its launchers come from ladder_sm90a.cu.
  {
    namespace r = mma_tf32_12_tma_producer;
    Rung g = rung_entry("mma_tf32/12_tma_producer", "mma_tf32", r::kTitle, r::kAdds, r::kBM, r::kBN, r::kThreads,
                        r::kShapeRule, r::supports,
                        warp_tiling(r::kWarpsM, r::kWarpsN, r::kWM, r::kWN, r::kBK, "mma.m16n8k8.tf32", 16, 8, 8));
    g.info.warps.frag_m = 8;  // 11's swapped operands
    g.info.warps.frag_n = 16;
    g.info.warps.frag_columns = "each tile's 16 columns are two runs of 8, 16 apart in a 32-column box, as TMA's "
                                "swizzle needs";
    g = with_tma_producer(g, r::kThreads / 32 - r::kMmaWarps, r::unavailable_here);
    g.stages = names(r::kStageNames);
    g.smem_sites = names(r::kSmemSites);
    g.launch = mma_tf32_12_launches();
    ladder.push_back(with_loads(g, kLoads));
  }
  return ladder;
}

#undef GS_MMA_TF32_RUNG

}  // namespace gs::detail
